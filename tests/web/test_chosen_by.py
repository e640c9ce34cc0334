"""Who chose each move: a person's own move and an AI seat's own move carry no ``by``; a move
the clock played is the clock's (with the person's name), a stand-in's is the stand-in's (with
the AI's label). Each seat's ``played_for`` counts them; the store keeps who chose each action,
so a rebuilt room (a restart) says the same, and replays carry ``by`` on every step.

In process on a :class:`ManualClock` (SQLite and a real PostgreSQL), and over the wire against a
real server whose clock is short.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from cardtable.web.clock import ManualClock
from cardtable.web.frames import join_log
from cardtable.web.protocol import ActMsg

from ..webserver import Server, http, running_server
from .client import Client, create_room
from .inprocess import advance_until, manager_on, run, settled, until
from .test_hold import join_answer, joined

CLOCK_ANN = {"seat": 0, "kind": "clock", "name": "Ann"}
STAND_IN = {"seat": 0, "kind": "stand_in", "name": "Casual AI"}


def test_timed_out_moves_are_the_clocks_and_a_stand_ins_moves_are_the_stand_ins(
    store_url: str,
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        settings: dict[str, Any] = {
            "ai_delay": 1.0,
            "turn_time": 60.0,
            "away_time": 10.0,
            "stand_in_after": 2,
        }
        async with manager_on(store_url, clock, **settings) as manager:
            # a match (the game does not end before the stand-in has played), Ann first
            room, seat, token = await manager.create(
                "qute",
                [("human", None, False), ("ai", "casual", False)],
                options={"target": 100, "first": 0},
                name="Ann",
            )
            assert seat == 0 and token is not None
            watcher = await joined(manager, room, None)
            # Ann is not there: her turns run out, then an AI stands in and plays a few moves
            # (and the AI seat plays its own: a random deal's skips can hold it back a while)
            for _ in range(400):
                ai_moved = any(m["seat"] == 1 for m in room.moves.read(0))
                if room.moves.played_for(0)["stand_in"] >= 3 and ai_moved:
                    break
                clock.advance(11.0 if 0 in room.away else 61.0)
                await settled(manager.table(room))
            counts = room.moves.played_for(0)
            assert counts["clock"] == 2 and counts["stand_in"] >= 3
            await until(lambda: watcher.state["version"] == room.version)
            assert watcher.state["seats"][0]["played_for"] == counts
            assert watcher.state["seats"][1]["played_for"] == {"clock": 0, "stand_in": 0}
            # the frames: every labelled one is seat 0's, the clock's first, then the stand-in's
            labels = [f["by"] for f in watcher.frames if f["type"] == "state" and f["by"]]
            assert labels[:2] == [CLOCK_ANN, CLOCK_ANN]
            assert labels[2:] and all(b == STAND_IN for b in labels[2:])
            for f in watcher.frames:  # the AI seat's own moves are its own
                if f["type"] == "state" and any(e.get("seat") == 1 for e in f["events"]):
                    assert f["by"] is None or f["by"]["seat"] == 0
            # the store keeps who chose each action
            assert room.game_row is not None
            stored = await manager.store.actions(room.id, room.game_row.game_no)
            mine = [(a.chosen_by, a.stand_in) for a in stored if a.seat == 0]
            assert mine[:2] == [("clock", None), ("clock", None)]
            assert set(mine[2:]) == {("stand_in", "casual")}
            assert {(a.chosen_by, a.stand_in) for a in stored if a.seat == 1} == {(None, None)}
            log_before = join_log(room, None)  # a spectator's, in words
            assert [e["by"] for e in log_before if e["by"]] == labels
            watcher.conn.drop()

        # a restart (the first server has stopped): another server on the same store
        # rebuilds the room as it was
        async with manager_on(store_url, clock, **settings) as again:
            rebuilt = await again.get(room.id)
            assert rebuilt is not None and rebuilt is not room
            spectator = await joined(again, rebuilt, None)
            assert join_answer(spectator)["log"] == log_before  # the same moves, the same words
            assert spectator.state["seats"][0]["played_for"] == counts
            # Ann comes back: her stand-in leaves, and her own move is hers
            me = await joined(again, rebuilt, token)
            game = rebuilt.game
            assert game is not None and 0 not in rebuilt.stand_ins
            await advance_until(clock, lambda: game.over or 0 in game.actors, step=0.5)
            await settled(again.table(rebuilt))
            if not game.over:
                action = str(game.legal_actions(0)[0])
                msg = ActMsg(
                    type="act",
                    room=room.id,
                    token=token,
                    action=action,
                    version=rebuilt.version,
                    id=4,
                )
                await again.handle(me.conn, msg)
                await until(lambda: any(f.get("id") == 4 for f in me.frames))
                answer = next(f for f in me.frames if f.get("id") == 4)
                assert answer["by"] is None
                assert answer["seats"][0]["played_for"] == counts  # the game's, unchanged
                stored = await again.store.actions(room.id, room.game_row.game_no)
                assert (stored[-1].seat, stored[-1].chosen_by) == (0, None)
            spectator.conn.drop()
            me.conn.drop()

    run(scenario)


# -- over the wire: frames and replays ---------------------------------------------------------


@pytest.fixture(scope="module")
def quick_clock(store_url: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A real server whose turn clock runs out after 0.3 s (AI delay 0)."""
    with running_server(
        tmp_path_factory.mktemp("clock"),
        db_url=store_url,
        ai_delay=0.0,
        extra_args=["--turn-time", "0.3"],
    ) as srv:
        yield srv


def test_replays_and_summaries_say_who_chose_each_move(quick_clock: Server) -> None:
    """A person who never comes: the clock plays her first three turns, then a stand-in plays
    on to the end. The replay's steps carry ``by``, and its seats count them for that game."""
    # a random deal may end its round before the stand-in's first move: then another room
    for _ in range(6):
        made = create_room(quick_clock, "qute", ["human", "casual"], options={"target": None})
        room, token = made["room"], made["token"]
        watcher = Client(quick_clock, room)
        watcher.join()
        end = watcher.wait(lambda s: s["view"]["over"], timeout=120)
        _, summary = http("GET", f"{quick_clock.url}/api/rooms/{room}")
        counts = summary["seats"][0]["played_for"]
        if counts["stand_in"]:
            break
        watcher.close()
    assert counts["clock"] == 3 and counts["stand_in"] >= 1
    assert end["seats"][0]["played_for"] == counts
    assert summary["seats"][1]["played_for"] == {"clock": 0, "stand_in": 0}
    for viewer, headers in ((None, {}), (0, {"X-Seat-Token": token})):
        url = f"{quick_clock.url}/api/rooms/{room}/games/1?count=200"
        if viewer is not None:
            url += f"&seat={viewer}"
        page = _get(url, headers)
        steps = page["steps"]
        assert page["next"] is None and len(steps) == page["total"]
        ann = [s["by"] for s in steps if s["seat"] == 0]
        assert [b["kind"] for b in ann[:3]] == ["clock"] * 3
        assert all(b == {"seat": 0, "kind": "clock", "name": "Player 1"} for b in ann[:3])
        assert ann[3:] and all(
            b == {"seat": 0, "kind": "stand_in", "name": "Casual AI"} for b in ann[3:]
        )
        assert all(s["by"] is None for s in steps if s["seat"] == 1)
        assert page["seats"][0]["played_for"] == counts
    watcher.close()


def _get(url: str, headers: dict[str, str]) -> Any:
    """GET with headers; the decoded JSON answer (200 expected)."""
    req = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(req, timeout=30) as resp:
        assert resp.status == 200
        return json.loads(resp.read())


def test_a_rematch_starts_the_count_again(quick_clock: Server) -> None:
    """``played_for`` counts the current game: the next game starts from nothing."""
    made = create_room(quick_clock, "qute", ["human", "casual"], options={"target": None})
    room, token = made["room"], made["token"]
    me = Client(quick_clock, room, token)
    me.join()
    end = me.wait(lambda s: s["view"]["over"] and s["game_no"] == 1, timeout=120)
    assert end["seats"][0]["played_for"]["clock"] >= 1  # she let the clock play
    again = me.request(type="rematch", room=room, token=token)
    assert again["game_no"] == 2
    assert again["seats"][0]["played_for"] == {"clock": 0, "stand_in": 0}
    me.close()
