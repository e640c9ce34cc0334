"""Every event the server sends comes with its words (``said``), phrased by the terminal's
phrasing (``cardtable.text.phrase``) from the side of the connection that reads it: ``you`` for
its own seat, the seats' names as the browser shows them for the others, and never a card the
reader may not read again — not another seat's peek, spy or private draw, and not the reader's
own peek without the memory aid (the table shows that card for a moment; the words keep only that
it was seen). A move the clock or a stand-in chose says so in front. Replays tell their views'
events the same way, from the replay's viewer's side.

In process, on SQLite: what is checked is what the server sends, whatever store it keeps.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import orjson

import cardtable
from cardtable.game import Event
from cardtable.web.clock import ManualClock
from cardtable.web.frames import join_log
from cardtable.web.protocol import ActMsg, By, ProtocolError, SeatInfo
from cardtable.web.replays import ReplaySource, build_replay, page_body
from cardtable.web.rooms import Room, RoomManager
from cardtable.web.said import seat_names

from ..helpers import strings_in
from .inprocess import at_rest, manager_on, settled, until
from .play import said_cards
from .test_hold import join_answer, joined
from .test_turn_clock import Sink, run


def _store(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'said.db'}"


def _seat(kind: str, level: str | None = None, name: str | None = None) -> SeatInfo:
    return {
        "type": kind,
        "level": level,
        "name": name,
        "taken": True,
        "online": True,
        "memory_aid": False,
        "away": False,
        "stand_in": None,
        "played_for": {"clock": 0, "stand_in": 0},
    }


def test_seats_are_named_as_the_browser_names_them() -> None:
    seats = [_seat("human", name="Ann"), _seat("ai", "casual"), _seat("ai", "casual")]
    assert seat_names(seats) == ["Ann", "Casual AI 1", "Casual AI 2"]
    assert seat_names([_seat("human"), _seat("ai", "heuristic")]) == ["Seat 0", "Heuristic AI"]


async def _act(manager: RoomManager, room: Room, token: str, action: str) -> None:
    msg = ActMsg(type="act", room=room.id, token=token, action=action, version=room.version)
    await manager.handle(Sink().conn, msg)


def _cards_told(sink: Sink) -> set[str]:
    """Every card the events sent to ``sink`` hold or name."""
    events = [e for f in sink.frames if f["type"] == "state" for e in f["events"]]
    events += [e for f in sink.frames for entry in f.get("log", []) for e in entry["events"]]
    return set(strings_in(events)) | {c for e in events for c in said_cards(e["said"]["text"])}


def _sent(sink: Sink, seq: int) -> list[dict[str, Any]]:
    """Event ``seq`` as each state frame that reported it was sent to ``sink``."""
    return [e for f in sink.frames if f["type"] == "state" for e in f["events"] if e["seq"] == seq]


async def _told(sinks: list[Sink], room: Room, kind: str) -> tuple[dict[str, Any], ...]:
    """The newest move's event of ``kind`` as each of ``sinks`` was sent it (once it was)."""
    seq = next(e.seq for e in room.moves.entries[-1].events if e.type == kind)
    await until(lambda: all(_sent(s, seq) for s in sinks))
    return tuple(_sent(s, seq)[-1] for s in sinks)


def test_a_peek_is_told_from_each_side_and_only_its_reader_with_memory_reads_the_card(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with manager_on(_store(tmp_path), ai_delay=0.0, peek_window=600.0) as manager:
            room, _, ann = await manager.create(
                "gabo", [("human", None, False), ("human", None, True)], name="Ann"
            )
            _, _, bob = await manager.take_seat(room.id, "Bob")
            assert ann is not None and bob is not None and room.game is not None
            ann_sees, bob_sees, watcher = [await joined(manager, room, t) for t in (ann, bob, None)]

            # Ann (no memory aid) peeks at her card 0: her frame shows her the card for the
            # moment, the words do not keep it; Bob and the spectator read that she looked.
            sinks = [ann_sees, bob_sees, watcher]
            await _act(manager, room, ann, "peek 0")
            mine, bobs, watchers = await _told(sinks, room, "peek")
            code = mine["card"]
            assert mine["said"] == {"text": "you peeked at your card 0", "tone": "plain"}
            assert bobs["said"]["text"] == "Ann peeked at their card 0"
            assert watchers["said"]["text"] == "Ann peeked at their card 0"
            for other in (bob_sees, watcher):  # the card is in no event they were sent
                assert code not in _cards_told(other)

            # Bob (memory aid) peeks at his card 1: his words name the card, Ann's do not.
            await _act(manager, room, bob, "peek 1")
            anns, his, watchers = await _told(sinks, room, "peek")
            assert his["said"]["text"] == f"you peeked at your card 1: [{his['card']}]"
            for other, told in ((ann_sees, anns), (watcher, watchers)):
                assert "card" not in told and told["said"]["text"] == "Bob peeked at their card 1"
                assert his["card"] not in _cards_told(other)

            # A join's log tells the same events the same way.
            again = await joined(manager, room, ann)
            log = [e for entry in join_answer(again)["log"] for e in entry["events"]]
            assert [e["said"]["text"] for e in log if e["type"] == "peek"] == [
                "you peeked at your card 0",
                "Bob peeked at their card 1",
            ]
            for sink in (ann_sees, bob_sees, watcher, again):
                sink.conn.drop()

    run(scenario)


def _public(entry_events: dict[int, Event], seq: int) -> set[str]:
    """The strings of the public part of event ``seq``."""
    return set(strings_in(entry_events[seq].visible(0)))


def test_every_frame_tells_its_events_from_its_readers_side_and_names_only_readable_cards(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        settings: dict[str, Any] = {"ai_delay": 0.0, "turn_time": 0.0, "peek_window": 600.0}
        async with manager_on(_store(tmp_path), snap_window=600.0, **settings) as manager:
            seats = [("human", None, False), ("human", None, True), ("ai", "casual", False)]
            room, _, ann = await manager.create(
                "kaboo", seats, options={"target": None}, name="Ann"
            )
            _, _, bob = await manager.take_seat(room.id, "Bob")
            assert ann is not None and bob is not None
            game = room.game
            assert game is not None
            tokens = [ann, bob]
            sinks: dict[int | None, Sink] = {
                0: await joined(manager, room, ann),
                1: await joined(manager, room, bob),
                None: await joined(manager, room, None),
            }
            rng = random.Random(5)
            while not game.over:
                await at_rest(
                    manager.table(room), lambda: game.over or any(s in (0, 1) for s in game.actors)
                )
                seat = next((s for s in game.actors if s in (0, 1)), None)
                if seat is None:
                    continue
                try:
                    action = str(rng.choice(game.legal_actions(seat)))
                    await _act(manager, room, tokens[seat], action)
                except ProtocolError as exc:  # the AI moved meanwhile
                    assert exc.code in ("stale", "not_your_turn", "game_over"), exc.code
            await at_rest(manager.table(room), lambda: True)
            events = {e.seq: e for m in room.moves.entries for e in m.events}
            names = {0: "Ann", 1: "Bob", 2: "Casual AI"}
            told = 0
            for reader, sink in sinks.items():
                for frame in sink.frames:
                    if frame["type"] != "state":
                        continue
                    for event in frame["events"]:
                        said = event["said"]["text"]
                        plain = {k: v for k, v in event.items() if k != "said"}
                        # the words name only cards the event itself holds for this reader,
                        # and only public ones for the reader without memory aid
                        assert said_cards(said) <= set(strings_in(plain)), (reader, event)
                        if reader != 1:
                            assert said_cards(said) <= _public(events, event["seq"]), event
                        actor = event.get("seat")
                        if actor is None or event["type"] == "turn":
                            continue
                        # the actor as this reader names it
                        who = "you" if actor == reader else names[actor]
                        assert said.startswith(who + " "), (reader, said)
                        told += 1
            assert told > 20
            for sink in sinks.values():
                sink.conn.drop()

    run(scenario)


def test_a_move_the_clock_or_a_stand_in_chose_says_so(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        settings: dict[str, Any] = {
            "ai_delay": 1.0,
            "turn_time": 60.0,
            "away_time": 10.0,
            "stand_in_after": 2,
        }
        async with manager_on(_store(tmp_path), clock, **settings) as manager:
            room, _, token = await manager.create(
                "qute",
                [("human", None, False), ("ai", "casual", False)],
                options={"target": 100, "first": 0},
                name="Ann",
            )
            assert token is not None
            watcher = await joined(manager, room, None)
            # Ann is away: the clock plays her turns, then an AI stands in for her
            for _ in range(400):
                if room.moves.played_for(0)["stand_in"] >= 1:
                    break
                clock.advance(11.0 if 0 in room.away else 61.0)
                await settled(manager.table(room))
            assert room.moves.played_for(0)["clock"] == 2
            await at_rest(manager.table(room), lambda: True)
            # the frames are sent by the connection's own task: read them once the last is in
            await until(lambda: watcher.state["version"] == room.version)
            kinds = {"clock": "time ran out for Ann: Ann ", "stand_in": "Casual AI for Ann: Ann "}
            labelled = set()
            for frame in watcher.frames:
                by = frame.get("by")
                for event in frame.get("events", []):
                    text = event["said"]["text"]
                    if by and event.get("seat") == 0 and event["type"] != "turn":
                        assert text.startswith(kinds[by["kind"]]), text
                        labelled.add(by["kind"])
                    else:
                        assert not text.startswith(("time ran out", "Casual AI for")), text
            assert labelled == {"clock", "stand_in"}
            # Ann's own log, should she come back: chosen for "you", never by her
            yours = {"clock": "time ran out for you: you ", "stand_in": "Casual AI for you: you "}
            for entry in join_log(room, 0):
                by = entry["by"]
                for event in entry["events"]:
                    if by and event.get("seat") == 0 and event["type"] != "turn":
                        assert event["said"]["text"].startswith(yours[by["kind"]])
            watcher.conn.drop()

    run(scenario)


def test_a_replay_tells_its_events_from_its_viewers_side() -> None:
    game, options = "cabo-german", {"target": None}
    g = cardtable.new_game(game, players=2, seed=11, options=options)
    rng = random.Random(11)
    actions: list[tuple[int, str]] = []
    while not g.over:
        seat = g.actors[0]
        action = str(rng.choice(g.legal_actions(seat)))
        g.play(seat, action)
        actions.append((seat, action))
    # the clock played Bob's first move
    timed_out = next(k for k, (seat, _) in enumerate(actions) if seat == 1)
    clock: By = {"seat": 1, "kind": "clock", "name": "Bob"}
    by = [clock if k == timed_out else None for k in range(len(actions))]
    for viewer, you in ((None, None), (0, 0)):
        source = ReplaySource(game, 2, options, 11, actions, viewer, by, ("Ann", "Bob"))
        page = orjson.loads(page_body(build_replay(source), {"room": "r"}, 0, 200))
        views = [page["initial"]] + [s["view"] for s in page["steps"]]
        views += [s["end_view"] for s in page["steps"] if "end_view" in s]
        told = 0
        for view in views:
            for event in view["events"]:
                plain = {k: v for k, v in event.items() if k != "said"}
                text = event["said"]["text"]
                assert said_cards(text) <= set(strings_in(plain)), (viewer, event)
                actor = event.get("seat")
                if actor is None or event["type"] == "turn":
                    continue
                who = "you" if actor == you else ("Ann", "Bob")[actor]
                assert text.startswith(who + " ") or text.startswith("time ran out for "), text
                told += 1
        assert told > 10
        step = page["steps"][timed_out]
        assert step["by"] == clock
        own = [e for e in step["view"]["events"] if e["seq"] >= step["first_event"]]
        mine = [e for e in own if e.get("seat") == 1 and e["type"] != "turn"]
        assert mine and all(
            e["said"]["text"].startswith("time ran out for Bob: Bob ") for e in mine
        )
