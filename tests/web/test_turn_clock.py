"""The turn clock, away seats and AI stand-ins, and rooms nobody is at (paused, rebuilt).

These run a :class:`RoomManager` in process, on SQLite and on a real PostgreSQL (the
``store_url`` fixture), on a :class:`ManualClock` the tests move on, and read what its
connections are sent; the flags that set the same times on a real server are tested against a
real server in test_chosen_by.py and the browser tests (tests/e2e/test_turn_clock.py,
test_labels.py).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cardtable import variants
from cardtable.store import StoreError
from cardtable.web.clock import ManualClock
from cardtable.web.protocol import ActMsg, JoinMsg, ProtocolError
from cardtable.web.rooms import Conn, Room, RoomManager

from .inprocess import advance_until, at_rest, manager_on, settled, until


class Sink:
    """A connection in process: the frames it was sent, decoded."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.conn = Conn(self._send, self._close)
        self.task = asyncio.ensure_future(self.conn.run_sender())

    async def _send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    async def _close(self) -> None:
        return None

    @property
    def state(self) -> dict[str, Any]:
        """The latest state frame."""
        return next(f for f in reversed(self.frames) if f["type"] == "state")


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """Run one async scenario."""
    asyncio.run(scenario())  # type: ignore[arg-type]


async def still(clock: ManualClock, manager: RoomManager, room: Room, seconds: float) -> None:
    """Move ``clock`` on by ``seconds`` and let every timer of ``room`` due by then do its work."""
    clock.advance(seconds)
    await settled(manager.table(room))


async def person_and_ai(manager: RoomManager, **create: Any) -> tuple[Room, str]:
    """A qute room of a person (seat 0) and a casual AI, one round unless ``options`` say
    otherwise; returns it and the token."""
    create.setdefault("options", {"target": None})
    room, seat, token = await manager.create(
        "qute", [("human", None, False), ("ai", "casual", False)], **create
    )
    assert seat == 0 and token is not None
    return room, token


async def stored_moves(manager: RoomManager, room: Room) -> list[tuple[int, str]]:
    """The moves of the room's current game as stored."""
    assert room.game_row is not None
    return [(a.seat, a.action) for a in await manager.store.actions(room.id, room.game_row.game_no)]


def test_an_absent_person_is_timed_out_marked_away_then_stood_in_for(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(
            store_url, clock, ai_delay=0.0, turn_time=30.0, away_time=5.0, stand_in_after=3
        ) as manager:
            # a match, so the game cannot end before the person let three turns run out
            room, _token = await person_and_ai(manager, options={"target": 100, "first": 0})
            watcher = Sink()
            await manager.handle(watcher.conn, JoinMsg(type="join", room=room.id))
            # the person never comes: their first turn runs out after the full time, not before
            await still(clock, manager, room, 29.0)
            assert 0 not in room.away and not room.missed
            clock.advance(1.5)
            await until(lambda: 0 in room.away)
            assert room.missed[0] >= 1
            await until(lambda: watcher.state["seats"][0]["away"] is True)
            first = next(
                f for f in watcher.frames if f["type"] == "state" and f["seats"][0]["away"]
            )
            assert first["seats"][0]["stand_in"] is None  # away first; the AI comes later
            # ... then the clock is short for them; after three turns an AI takes their seat
            moved = await advance_until(clock, lambda: 0 in room.stand_ins, step=1.0)
            assert moved >= 2 * 5.0  # two more turns, each of the short time
            assert room.stand_ins[0].name == "casual"  # the room's AI level
            await at_rest(manager.table(room), lambda: room.game is not None and room.game.over)
            assert watcher.state["seats"][0]["stand_in"] == "casual"
            # every move played for the person before the stand-in came was the engine's
            # timeout move in that position, and the game is stored whole, end marked
            moves = await stored_moves(manager, room)
            assert room.game_row is not None
            replay = variants.new_game(
                "qute", players=2, seed=room.game_row.seed, options=room.row.options
            )
            timed_out = 0
            for seat, action in moves:
                if seat == 0 and timed_out < 3:
                    assert action == str(replay.timeout_action(0)), (action, timed_out)
                    timed_out += 1
                replay.play(seat, action)
            assert timed_out == 3 and replay.over
            games = await manager.store.games(room.id)
            assert games[-1].finished is not None and games[-1].result is not None
            watcher.conn.drop()

    run(scenario)


def test_the_state_carries_the_clock_and_a_room_may_choose_its_turn_time(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=30.0, turn_time=60.0) as manager:
            room, token = await person_and_ai(manager, turn_time=25.0)
            assert room.row.turn_time == 25.0
            again = await manager.store.room(room.id)
            assert again is not None and again.turn_time == 25.0  # stored with the room
            me = Sink()
            await manager.handle(me.conn, JoinMsg(type="join", room=room.id, token=token))
            await until(lambda: bool(me.frames))
            turn = me.state["clock"]
            assert room.game is not None and room.game.actors == [0]
            assert turn["seats"] == [0] and turn["closes_in"] == 25.0
            clock.advance(4.0)  # the time left goes down with the clock
            assert manager.table(room).turn_clock() == {
                "seats": [0],
                "closes_in": 21.0,
                "paused": False,
            }
            # the AI's turn has no clock (it has its own delay)
            legal = room.game.legal_actions(0)
            await manager.handle(
                me.conn,
                ActMsg(
                    type="act",
                    room=room.id,
                    token=token,
                    action=str(legal[0]),
                    version=room.version,
                    id=7,
                ),
            )
            await until(lambda: any(f.get("id") == 7 for f in me.frames))
            answer = next(f for f in me.frames if f.get("id") == 7)
            if room.game.actors == [1]:
                assert answer["clock"] is None
            else:  # a decision of the same person follows: a new clock, the whole time
                assert answer["clock"]["seats"] == [0] and answer["clock"]["closes_in"] == 25.0
            me.conn.drop()

    run(scenario)


async def stood_in_for(manager: RoomManager, clock: ManualClock) -> tuple[Room, str]:
    """A room whose absent person (seat 0) has an AI standing in, and its token. A deal whose
    round ends before that (the AI went out first, about 1 deal in 200) is dealt again."""

    async def one_deal() -> tuple[Room, str] | None:
        room, token = await person_and_ai(manager)
        game = room.game
        assert game is not None
        await advance_until(clock, lambda: game.over or 0 in room.stand_ins, step=1.0)
        return (room, token) if 0 in room.stand_ins else None

    for _deal in range(5):
        dealt = await one_deal()
        if dealt is not None:
            return dealt
    raise AssertionError("every deal ended before an AI stood in for the person")


def test_a_person_who_comes_back_takes_their_seat_again(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(
            store_url, clock, ai_delay=2.0, turn_time=20.0, away_time=5.0, stand_in_after=2
        ) as manager:
            room, token = await stood_in_for(manager, clock)
            me = Sink()
            await manager.handle(me.conn, JoinMsg(type="join", room=room.id, token=token, id=1))
            await until(lambda: bool(me.frames))
            # back with their token: no longer away, no stand-in, the clock counts for them
            assert 0 not in room.away and 0 not in room.stand_ins and not room.missed
            seat = me.state["seats"][0]
            assert seat["away"] is False and seat["stand_in"] is None
            game = room.game
            assert game is not None
            if not game.over:
                await advance_until(clock, lambda: game.over or 0 in game.actors, step=1.0)
                await settled(manager.table(room))  # that move's work is done
                if not game.over:
                    version = room.version
                    await still(clock, manager, room, 10.0)  # well past the AI's delay
                    assert room.version == version and 0 in game.actors  # it plays for nobody
                    assert me.state["clock"] is not None
            me.conn.drop()

    run(scenario)


async def away_then_acting(manager: RoomManager, clock: ManualClock) -> bool:
    """A person lets their first turn run out, is marked away, and acts at their next turn:
    they are back. False if the round ended before their turn came back (the AI went out, as it
    does in about 1 deal in 200)."""
    room, token = await person_and_ai(manager, options={"target": None, "first": 0})
    table = manager.table(room)
    await advance_until(clock, lambda: 0 in room.away, step=1.0)
    game = room.game
    assert game is not None
    # their move was played; the clock stands still now: wait for their turn (or the round's end)
    await at_rest(
        table, lambda: game.over or (table.turn_key is not None and 0 in table.turn_key[1])
    )
    if game.over:
        return False
    me = Sink()
    action = str(game.legal_actions(0)[0])
    msg = ActMsg(type="act", room=room.id, token=token, action=action, version=room.version, id=3)
    await manager.handle(me.conn, msg)
    await until(lambda: bool(me.frames))
    assert 0 not in room.away and not room.missed
    return True


def test_acting_marks_an_away_person_back(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(
            store_url, clock, ai_delay=0.0, turn_time=20.0, away_time=5.0, stand_in_after=9
        ) as manager:
            for _deal in range(5):  # a deal whose round ends first is dealt again
                if await away_then_acting(manager, clock):
                    return
            raise AssertionError("every deal ended before the person's turn came back")

    run(scenario)


def test_with_the_clock_off_nobody_is_timed_out(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=0.0, turn_time=0.0) as manager:
            room, _token = await person_and_ai(manager, turn_time=10.0, options={"first": 0})
            await still(clock, manager, room, 3600.0)
            assert manager.table(room).turn_key is None and not room.away
            assert room.game is not None and room.game.actors == [0]

    run(scenario)


def test_an_idle_room_is_paused_and_rebuilt_exactly(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0, idle_time=120.0) as manager:
            # an all-AI match nobody watches: it plays until the sweep pauses it
            room, _seat, _token = await manager.create(
                "qute", [("ai", "random", False), ("ai", "random", False)], options={"target": 500}
            )
            await advance_until(clock, lambda: room.version > 3, step=1.0)
            clock.advance(119.0 - clock.monotonic())
            assert await manager.sweep() == 0  # not idle long enough yet
            clock.advance(1.0)
            assert await manager.sweep() == 1
            assert room.id not in manager.rooms and room.evicted
            assert all(r["room"] != room.id for r in manager.lobby())
            version = room.version
            moves = len(await stored_moves(manager, room))
            for _ in range(10):  # ten AI delays and more: it plays no more
                clock.advance(5.0)
                for _ in range(8):
                    await asyncio.sleep(0)
            assert room.version == version
            assert len(await stored_moves(manager, room)) == moves  # it stopped playing
            # asked for again, it is rebuilt from the store where it stopped, and plays on
            again = await manager.get(room.id)
            assert again is not None and again is not room
            assert again.version == version
            assert again.game is not None and room.game is not None
            assert again.game.spectator_view() == room.game.spectator_view()
            await advance_until(clock, lambda: again.version > version, step=1.0)

    run(scenario)


def test_a_room_someone_is_connected_to_is_not_paused(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=30.0, idle_time=5.0) as manager:
            room, token = await person_and_ai(manager)
            me = Sink()
            await manager.handle(me.conn, JoinMsg(type="join", room=room.id, token=token))
            clock.advance(10.0)
            assert await manager.sweep() == 0 and room.id in manager.rooms
            manager.leave(me.conn)
            clock.advance(4.0)
            assert await manager.sweep() == 0  # idle since it was left, not long enough yet
            clock.advance(1.0)
            assert await manager.sweep() == 1 and room.id not in manager.rooms

    run(scenario)


def test_a_dropped_connection_is_offline_at_once(store_url: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, ai_delay=30.0) as manager:
            room, token = await person_and_ai(manager)
            me, watcher = Sink(), Sink()
            await manager.handle(me.conn, JoinMsg(type="join", room=room.id, token=token))
            await manager.handle(watcher.conn, JoinMsg(type="join", room=room.id))
            await until(lambda: bool(watcher.frames))
            assert watcher.state["seats"][0]["online"] is True
            me.conn.drop()  # as the server does with a client too slow to read
            assert room.online() == set()
            await until(lambda: watcher.state["seats"][0]["online"] is False, timeout=2.0)

    run(scenario)


@pytest.mark.parametrize("game", ["kaboo", "qute"])
def test_a_finished_game_is_stored_with_its_last_move(store_url: str, game: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, ai_delay=0.0) as manager:
            room, _seat, _token = await manager.create(
                game, [("ai", "casual", False), ("ai", "casual", False)], options={"target": None}
            )
            await at_rest(manager.table(room), lambda: room.game is not None and room.game.over)
            rows = await manager.store.games(room.id)
            assert rows[-1].finished is not None
            assert rows[-1].result == room.game.result.to_dict()  # type: ignore[union-attr]
            assert rows[-1].rules == variants.rules_version(game)

    run(scenario)


def test_a_move_the_store_refuses_changes_nothing(store_url: str) -> None:
    """Each move is played once, on the live game, before it is stored: when the store refuses
    it, the room is exactly as before (its game, version, log and clock), nobody is told
    anything but the sender's refusal, and the same move is accepted once the store takes it."""

    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=30.0, turn_time=60.0) as manager:
            room, token = await person_and_ai(manager, options={"target": None, "first": 0})
            me, watcher = Sink(), Sink()
            await manager.handle(me.conn, JoinMsg(type="join", room=room.id, token=token))
            await manager.handle(watcher.conn, JoinMsg(type="join", room=room.id))
            await until(lambda: bool(me.frames) and bool(watcher.frames))
            game = room.game
            assert game is not None and game.actors == [0]
            before = (room.version, game.view(0), game.spectator_view(), room.played[:])
            log, seen = room.moves.read(1), len(watcher.frames)
            action = str(game.legal_actions(0)[-1])
            real = manager.store.append

            async def refuse(*args: Any, **kwargs: Any) -> None:
                raise StoreError("the disk is full")

            manager.store.append = refuse  # type: ignore[method-assign]
            msg = ActMsg(
                type="act", room=room.id, token=token, action=action, version=room.version, id=5
            )
            with pytest.raises(ProtocolError) as refused:
                await manager.handle(me.conn, msg)
            assert refused.value.code == "store" and "nothing changed" in refused.value.message
            after = room.game
            assert after is not None
            assert (room.version, after.view(0), after.spectator_view(), room.played) == before
            assert room.moves.read(1) == log and after.actors == [0]
            assert manager.table(room).turn_key is not None  # the clock still runs for seat 0
            await settled(manager.table(room))
            assert len(watcher.frames) == seen  # nobody was told anything
            assert await stored_moves(manager, room) == []
            # the store takes it now: the same move is accepted and stored, once
            manager.store.append = real  # type: ignore[method-assign]
            await manager.handle(me.conn, msg)
            assert room.version == before[0] + 1 and room.played == [(0, action)]
            assert await stored_moves(manager, room) == [(0, action)]
            me.conn.drop()
            watcher.conn.drop()

    run(scenario)
