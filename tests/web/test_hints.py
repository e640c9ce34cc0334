"""Hints in the browser's protocol (``hint``): at a table of one person and AI players a hint is
free, every legal move of the seat's decision ranked, to the asking connection only; refused off
the seat's turn, at a table of people made without hints, for an old version and while the
connection's last hint is still being computed; at a table of people made with hints, the first
one is a handicap the seat accepts — marked for everyone, stored, and the memory aid from then
on. The search works on a world of the seat (no hidden card of the game reaches it), and a hint
whose decision is gone by the time it is ready is dropped.

A room manager runs in process on a :class:`ManualClock` (the search in a thread).
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.catalog import language, say
from cardtable.game import Game
from cardtable.seat import Seat
from cardtable.web import search, table
from cardtable.web.clock import ManualClock
from cardtable.web.protocol import ActMsg, HintMsg, ProtocolError
from cardtable.web.rooms import Room, RoomManager

from .inprocess import advance_until, manager_on, run, until
from .test_hold import joined
from .test_turn_clock import Sink

_ids = iter(range(10_000_000, 11_000_000))
"""Ids of the hints sent (apart from the joins' ids of test_hold)."""

SEED = 424242
"""The deal of every game here (the room's seed is fixed so that what is compared is too)."""


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every game dealt from :data:`SEED`."""
    monkeypatch.setattr(table.secrets, "randbits", lambda _bits: SEED)
    yield


async def ask(
    manager: RoomManager,
    sink: Sink,
    room: Room,
    token: str,
    *,
    version: int | None = None,
    lang: str | None = None,
    handicap: bool = False,
) -> int:
    """Send ``hint`` for the room's version (or ``version``); its id."""
    msg_id = next(_ids)
    msg = HintMsg(
        type="hint",
        room=room.id,
        token=token,
        version=room.version if version is None else version,
        lang=lang,
        handicap=handicap,
        id=msg_id,
    )
    await manager.handle(sink.conn, msg)
    return msg_id


async def answer(sink: Sink, msg_id: int) -> dict[str, Any]:
    """The frame answering ``msg_id`` (a hint takes the search's time: under a second)."""
    await until(lambda: any(f.get("id") == msg_id for f in sink.frames), timeout=60.0)
    return next(f for f in sink.frames if f.get("id") == msg_id)


async def refused(manager: RoomManager, sink: Sink, room: Room, token: str, **kw: Any) -> Any:
    """The refusal of a ``hint``."""
    with pytest.raises(ProtocolError) as err:
        await ask(manager, sink, room, token, **kw)
    return err.value


async def solo(manager: RoomManager) -> tuple[Room, str]:
    """A kaboo table of one person (seat 0, Ann) and a casual AI, one round."""
    room, seat, token = await manager.create(
        "kaboo",
        [("human", None, False), ("ai", "casual", False)],
        options={"target": None},
        name="Ann",
    )
    assert seat == 0 and token is not None
    return room, token


async def people(manager: RoomManager, *, hints: bool) -> tuple[Room, str, str]:
    """A kaboo table of two people (Ann at seat 0, Bob), one round; both tokens."""
    room, seat, token = await manager.create(
        "kaboo",
        [("human", None, False), ("human", None, False)],
        options={"target": None},
        name="Ann",
        hints=hints,
    )
    assert seat == 0 and token is not None
    _, _, other = await manager.take_seat(room.id, "Bob")
    return room, token, other


def game_of(room: Room) -> Game:
    """The room's game (there is one)."""
    assert room.game is not None
    return room.game


async def my_turn(clock: ManualClock, manager: RoomManager, room: Room, seat: int) -> None:
    """Move the clock on until ``seat`` alone is to act, the move before stored and told (a
    move is played on the game before it is stored: the room's lock is free once it is)."""
    lock = manager.table(room).lock
    await advance_until(clock, lambda: game_of(room).actors == [seat] and not lock.locked())


def test_a_hint_at_a_table_of_ai_players_ranks_every_legal_move(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0) as manager:
            room, token = await solo(manager)
            me = await joined(manager, room, token)
            watcher = await joined(manager, room, None)
            await my_turn(clock, manager, room, 0)
            game = game_of(room)
            legal = sorted(str(a) for a in game.legal_actions(0))
            assert len(legal) > 1
            frame = await answer(me, await ask(manager, me, room, token))
            assert frame["type"] == "hint" and frame["room"] == room.id
            assert frame["version"] == room.version
            rows = frame["rows"]
            assert sorted(r["action"] for r in rows) == legal  # every legal move, once
            assert [r["best"] for r in rows] == [True] + [False] * (len(rows) - 1)
            assert frame["deals"] > 0 and "handicap" not in frame
            for row in rows:
                assert row["words"] and row["words"] != row["action"]
                assert 0.0 <= row["win"] <= 1.0 and row["loss"] >= 0.0
            with language("en"):
                assert frame["labels"]["title"] == say("hint.title")
                assert frame["labels"]["best"] == say("hint.best")
            # free here: nobody is marked, the aid is not given, and nobody else heard of it
            assert room.row.seats[0].hints is False and room.row.seats[0].memory_aid is False
            assert all(not s["hints"] for s in me.state["seats"])
            assert not any(f["type"] == "hint" for f in watcher.frames)
            # the same decision in German: the panel's words and the moves'
            german = await answer(me, await ask(manager, me, room, token, lang="de-AT"))
            with language("de"):
                assert german["labels"]["title"] == say("hint.title")
                assert german["labels"]["points"] == say("hint.points")
            assert german["labels"]["title"] != frame["labels"]["title"]
            words = {r["action"]: r["words"] for r in rows}
            assert any(words[r["action"]] != r["words"] for r in german["rows"])
            # asked again at the same decision: the same rows, not another sample of deals
            await until(lambda: not manager.table(room).hinting)
            calls: list[object] = []
            original = manager.table(room).search.hint

            async def counted(*args: Any, **kwargs: Any) -> dict[str, object]:
                calls.append(args)
                return await original(*args, **kwargs)

            manager.table(room).search.hint = counted  # type: ignore[method-assign]
            again = await answer(me, await ask(manager, me, room, token))
            assert again["rows"] == rows and calls == []
            manager.table(room).search.hint = original  # type: ignore[method-assign]
            # a row is a move: playing the best one is an ordinary action
            version = room.version
            best = rows[0]["action"]
            await until(lambda: not manager.table(room).hinting)
            await me_act(manager, me, room, token, best)
            assert room.version == version + 1 and room.played[-1] == (0, best)
            me.conn.drop()
            watcher.conn.drop()

    run(scenario)


def test_a_hint_is_refused_off_turn_for_an_old_version_and_while_one_is_computed(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0) as manager:
            room, token = await solo(manager)
            me = await joined(manager, room, token)
            await my_turn(clock, manager, room, 0)
            stale = await refused(manager, me, room, token, version=room.version - 1)
            with language("en"):
                assert (stale.code, stale.message) == ("stale", say("hint.stale"))
            # the AI's turn: the hint is for the seat's own decision
            game = game_of(room)
            game_legal = [str(a) for a in game.legal_actions(0)]
            draw = next(a for a in game_legal if a.startswith("draw"))
            await me_act(manager, me, room, token, draw)
            keep = next(str(a) for a in game.legal_actions(0) if str(a).startswith("replace"))
            await me_act(manager, me, room, token, keep)
            assert game.actors == [1]
            off = await refused(manager, me, room, token)
            with language("en"):
                assert (off.code, off.message) == ("not_your_turn", say("hint.wait"))
            off_de = await refused(manager, me, room, token, lang="de")
            with language("de"):
                assert off_de.message == say("hint.wait")
            await my_turn(clock, manager, room, 0)
            # one hint at a time per connection
            gate = threading.Event()
            real = search.appraise

            def slow(*args: Any) -> dict[str, object]:
                gate.wait(30.0)
                return real(*args)

            monkeypatch.setattr(search, "appraise", slow)
            first = await ask(manager, me, room, token)
            busy = await refused(manager, me, room, token)
            with language("en"):
                assert (busy.code, busy.message) == ("busy", say("hint.busy"))
            gate.set()
            assert (await answer(me, first))["rows"]
            me.conn.drop()

    run(scenario)


async def me_act(manager: RoomManager, sink: Sink, room: Room, token: str, action: str) -> None:
    """Play ``action`` for the token's seat at the room's version."""
    await manager.handle(
        sink.conn,
        ActMsg(type="act", room=room.id, token=token, action=action, version=room.version),
    )


def test_a_table_of_people_made_without_hints_refuses_them(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock) as manager:
            room, ann_token, bob_token = await people(manager, hints=False)
            assert manager.summary(room)["hints"] is False
            seat = game_of(room).actors[0]
            token = ann_token if seat == 0 else bob_token
            sink = await joined(manager, room, token)
            off = await refused(manager, sink, room, token)
            with language("en"):
                assert (off.code, off.message) == ("hints_off", say("hint.off"))
            assert not any(s.hints for s in room.row.seats)
            sink.conn.drop()

    run(scenario)


def test_at_a_table_of_people_with_hints_the_first_is_a_handicap_everyone_sees(
    store_url: str,
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock) as manager:
            room, ann_token, bob_token = await people(manager, hints=True)
            assert manager.summary(room)["hints"] is True
            game = game_of(room)
            seat = game.actors[0]
            tokens = {0: ann_token, 1: bob_token}
            asker = await joined(manager, room, tokens[seat])
            other = await joined(manager, room, tokens[1 - seat])
            watcher = await joined(manager, room, None)
            assert asker.state["view"] == game.view(seat, memory=False)
            # asked without accepting: only what it means, nothing changes
            told = await answer(asker, await ask(manager, asker, room, tokens[seat]))
            with language("en"):
                assert told["handicap"] == say("hint.handicap")
                assert told["labels"]["accept"] == say("hint.accept")
            assert told["rows"] == [] and not room.row.seats[seat].hints
            # accepted: marked for everyone (and stored), the memory aid from now on, the rows
            version = room.version
            msg_id = await ask(manager, asker, room, tokens[seat], handicap=True)
            for sink in (asker, other, watcher):
                await until(lambda s=sink: s.state["seats"][seat]["hints"] is True)
                assert sink.state["seats"][seat]["memory_aid"] is True
                assert sink.state["seats"][1 - seat]["hints"] is False
            assert asker.state["view"] == game.view(seat)  # the perfect-memory view
            assert other.state["view"] == game.view(1 - seat, memory=False)
            frame = await answer(asker, msg_id)
            assert frame["version"] == version
            assert sorted(r["action"] for r in frame["rows"]) == sorted(
                str(a) for a in game.legal_actions(seat)
            )
            assert not any(f["type"] == "hint" for f in other.frames + watcher.frames)
            stored = await manager.store.room(room.id)
            assert stored is not None
            assert [(s.hints, s.memory_aid) for s in stored.seats][seat] == (True, True)
            assert [(s.hints, s.memory_aid) for s in stored.seats][1 - seat] == (False, False)
            for sink in (asker, other, watcher):
                sink.conn.drop()
        # a restart: the mark and the aid are still there, for everyone
        async with manager_on(store_url, ManualClock()) as again:
            back = await again.get(room.id)
            assert back is not None
            assert again.summary(back)["seats"][seat]["hints"] is True
            sink = await joined(again, back, tokens[seat])
            assert sink.state["seats"][seat]["memory_aid"] is True
            assert sink.state["view"] == game_of(back).view(seat)
            sink.conn.drop()

    run(scenario)


def test_the_search_gets_a_world_of_the_seat_without_the_games_hidden_cards(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    states: list[bytes] = []
    real = search.appraise

    def kept(seed: int, seat: int, state: bytes, *rest: Any) -> dict[str, object]:
        states.append(state)
        return real(seed, seat, state, *rest)

    monkeypatch.setattr(search, "appraise", kept)

    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0) as manager:
            room, token = await solo(manager)
            me = await joined(manager, room, token)
            await my_turn(clock, manager, room, 0)
            game = game_of(room)
            await answer(me, await ask(manager, me, room, token))
            assert len(states) == 1
            world = pickle.loads(states[0])
            assert isinstance(world, Game) and world is not game
            # the seat cannot tell it from the game …
            assert world.view(0) == game.view(0)
            assert world.legal_actions(0) == game.legal_actions(0)
            assert world.history(0) == game.history(0)
            # … it holds no log (the seed, from which every card follows, stays here) …
            with pytest.raises(ValueError, match="no log"):
                world.log  # noqa: B018
            # … and the cards only the AI has seen (its bottom row) were dealt again
            theirs = Seat(game, 1).knowledge()
            dealt = Seat(world, 1).knowledge()
            assert theirs is not None and dealt is not None
            known_to_ai = [k for k, card in enumerate(theirs[1]) if card >= 0]
            assert known_to_ai
            assert [dealt[1][k] for k in known_to_ai] != [theirs[1][k] for k in known_to_ai]
            me.conn.drop()

    run(scenario)


def test_a_hint_whose_decision_is_gone_is_dropped(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    real = search.appraise

    def slow(*args: Any) -> dict[str, object]:
        gate.wait(30.0)
        return real(*args)

    monkeypatch.setattr(search, "appraise", slow)

    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0) as manager:
            room, token = await solo(manager)
            me = await joined(manager, room, token)
            await my_turn(clock, manager, room, 0)
            game = game_of(room)
            tab = manager.table(room)
            msg_id = await ask(manager, me, room, token)
            assert tab.hinting == {me.conn}
            # the person moves while the search thinks
            await me_act(manager, me, room, token, str(game.legal_actions(0)[0]))
            gate.set()
            await until(lambda: not tab.hinting and not tab.lock.locked())
            await until(lambda: me.conn.queue.empty())
            assert not any(f.get("id") == msg_id for f in me.frames)
            assert not any(f["type"] == "hint" for f in me.frames)
            me.conn.drop()

    run(scenario)
