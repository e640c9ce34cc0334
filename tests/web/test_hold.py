"""Holding the clocks while a person reads (``hold``): at a table where the holder is the only
person, the timed window, the turn clock and the AI players stop with the time they have left and
go on with it once the hold ends (``on: false``, the connection closing, or the bound); with
another person at the table a hold changes nothing and the clock's move is labelled.

A room manager runs in process on a :class:`ManualClock`, which the tests move on: nothing here
waits for a timer to run out in real time.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from cardtable.web.clock import ManualClock
from cardtable.web.protocol import ActMsg, HoldMsg, JoinMsg, ProtocolError, parse_message
from cardtable.web.rooms import Room, RoomManager
from cardtable.web.table import HOLD_LIMIT

from .inprocess import manager_on, run, settled, until
from .test_turn_clock import Sink

_ids = iter(range(1, 1_000_000))


async def joined(manager: RoomManager, room: Room, token: str | None) -> Sink:
    """A connection that joined ``room`` (as the token's seat, or as a spectator), once it has
    the answer to its join (:func:`join_answer`)."""
    sink = Sink()
    msg_id = next(_ids)
    await manager.handle(sink.conn, JoinMsg(type="join", room=room.id, token=token, id=msg_id))
    await until(lambda: any(f.get("id") == msg_id for f in sink.frames))
    return sink


def join_answer(sink: Sink) -> Any:
    """The frame that answered the join of a connection made by :func:`joined`."""
    return next(f for f in sink.frames if f["type"] == "state" and "log" in f)


async def hold(manager: RoomManager, sink: Sink, room: Room, token: str, on: bool) -> Any:
    """Send ``hold`` and return its answer."""
    msg_id = next(_ids)
    await manager.handle(
        sink.conn, HoldMsg(type="hold", room=room.id, token=token, on=on, id=msg_id)
    )
    await until(lambda: any(f.get("id") == msg_id for f in sink.frames))
    return next(f for f in sink.frames if f.get("id") == msg_id)


async def solo(manager: RoomManager, game: str, **options: Any) -> tuple[Room, str]:
    """A room of one person (seat 0, Ann) and a casual AI, one round."""
    room, seat, token = await manager.create(
        game,
        [("human", None, False), ("ai", "casual", False)],
        options={"target": None, **options},
        name="Ann",
    )
    assert seat == 0 and token is not None
    return room, token


def test_a_solo_tables_peek_window_waits_while_held_and_goes_on_with_the_time_left(
    store_url: str,
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0, peek_window=30.0) as manager:
            room, token = await solo(manager, "cabo")
            table = manager.table(room)
            game = room.game
            assert game is not None and game.timed_window() == "peek"
            me = await joined(manager, room, token)
            held = await hold(manager, me, room, token, True)
            assert held["held"] is True
            window = held["window"]
            assert window["phase"] == "peek" and window["paused"] is True
            assert 29.0 < window["closes_in"] <= 30.0
            version = room.version
            # a long read: neither the window nor the AI's peeks move meanwhile
            clock.advance(HOLD_LIMIT - 100.0)
            await settled(table)
            assert room.version == version and game.actors == [0, 1]
            assert table.window_task is None and table.ai_task is None
            watcher = await joined(manager, room, None)
            assert watcher.state["window"] == window  # the time left, frozen
            released = await hold(manager, me, room, token, False)
            assert released["held"] is False
            assert released["window"]["paused"] is False
            left = released["window"]["closes_in"]
            assert left == pytest.approx(window["closes_in"], abs=0.5)
            # the AI peeks twice, each after its delay; the window goes on from the time it had
            # left, and when it closes the clock peeks for the person
            for peeks in (1, 2):
                clock.advance(1.5)
                await until(lambda n=peeks: room.version == version + n)
            assert game.actors == [0] and table.window_key is not None
            clock.advance(left - 5.0)
            await settled(table)
            assert room.version == version + 2 and game.timed_window() == "peek"
            assert room.moves.played_for(0) == {"clock": 0, "stand_in": 0}
            clock.advance(3.0)
            await until(lambda: table.window_key is None)
            await settled(table)
            clocked = [f for f in me.frames if f["type"] == "state" and f["by"] is not None]
            assert len(clocked) == 2  # both of the person's peeks
            assert all(f["by"] == {"seat": 0, "kind": "clock", "name": "Ann"} for f in clocked)
            assert me.state["seats"][0]["played_for"] == {"clock": 2, "stand_in": 0}
            # the AI's own peeks are nobody else's
            ai_frames = [
                f
                for f in me.frames
                if f["type"] == "state" and any(e.get("seat") == 1 for e in f["events"])
            ]
            assert ai_frames and all(f["by"] is None for f in ai_frames)
            me.conn.drop()
            watcher.conn.drop()

    run(scenario)


def test_a_solo_tables_turn_clock_waits_while_held_and_runs_out_with_the_time_left(
    store_url: str,
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0, turn_time=60.0) as manager:
            room, token = await solo(manager, "qute", first=0)
            table = manager.table(room)
            game = room.game
            assert game is not None and game.actors == [0]
            me = await joined(manager, room, token)
            assert me.state["clock"]["seats"] == [0] and me.state["clock"]["paused"] is False
            clock.advance(20.0)
            await settled(table)
            held = await hold(manager, me, room, token, True)
            turn = held["clock"]
            assert held["held"] is True and turn["paused"] is True
            assert turn["closes_in"] == pytest.approx(40.0, abs=0.5)
            version = room.version
            clock.advance(HOLD_LIMIT - 100.0)
            await settled(table)
            assert room.version == version and table.turn_task is None and 0 not in room.away
            # a second hold of the same connection changes nothing
            again = await hold(manager, me, room, token, True)
            assert again["held"] is True and again["clock"] == turn
            released = await hold(manager, me, room, token, False)
            assert released["clock"]["paused"] is False
            assert released["clock"]["closes_in"] == pytest.approx(40.0, abs=0.5)
            clock.advance(38.0)
            await settled(table)
            assert room.version == version
            clock.advance(3.0)
            await until(lambda: room.version > version)
            await until(lambda: me.state["version"] == room.version)  # the move's frame
            assert me.state["by"] == {"seat": 0, "kind": "clock", "name": "Ann"}
            assert me.state["seats"][0]["played_for"] == {"clock": 1, "stand_in": 0}
            assert room.game_row is not None
            stored = await manager.store.actions(room.id, room.game_row.game_no)
            assert [a.chosen_by for a in stored] == ["clock"]
            me.conn.drop()

    run(scenario)


def test_the_ai_players_wait_while_held(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=5.0, turn_time=60.0) as manager:
            room, token = await solo(manager, "qute", first=1)
            table = manager.table(room)
            game = room.game
            assert game is not None and game.actors == [1]
            me = await joined(manager, room, token)
            await hold(manager, me, room, token, True)
            version = room.version
            clock.advance(HOLD_LIMIT - 100.0)
            await settled(table)
            assert room.version == version and game.actors == [1]
            await hold(manager, me, room, token, False)
            clock.advance(4.0)
            await settled(table)
            assert room.version == version  # its delay starts again when the hold ends
            clock.advance(2.0)
            await until(lambda: room.version > version)
            await until(lambda: me.state["version"] == room.version)  # the move's frame
            assert me.state["by"] is None  # the AI seat's own move
            me.conn.drop()

    run(scenario)


def test_a_hold_ends_when_its_connection_closes_and_at_its_bound(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0, turn_time=60.0) as manager:
            room, token = await solo(manager, "qute", first=0)
            table = manager.table(room)
            me = await joined(manager, room, token)
            watcher = await joined(manager, room, None)
            await hold(manager, me, room, token, True)
            assert table.held and watcher.state["clock"]["paused"] is True
            manager.leave(me.conn)  # the page closed
            await until(lambda: not table.held)
            assert watcher.state["clock"]["paused"] is False and not table.holds
            # a new connection holds; the bound ends it, and everyone is told
            tab = await joined(manager, room, token)
            answer = await hold(manager, tab, room, token, True)
            left = answer["clock"]["closes_in"]
            clock.advance(HOLD_LIMIT - 1.0)
            await settled(table)
            assert table.held
            clock.advance(2.0)
            await until(lambda: not table.held)
            await until(lambda: watcher.state["clock"]["paused"] is False)
            assert watcher.state["clock"]["closes_in"] == pytest.approx(left, abs=0.5)
            version = room.version
            clock.advance(left + 1.0)
            await until(lambda: room.version > version)
            await until(lambda: watcher.state["version"] == room.version)  # the move's frame
            assert watcher.state["by"] == {"seat": 0, "kind": "clock", "name": "Ann"}
            for sink in (me, tab, watcher):
                sink.conn.drop()

    run(scenario)


def test_with_another_person_at_the_table_a_hold_changes_nothing(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=0.0, turn_time=60.0) as manager:
            room, seat, token = await manager.create(
                "qute",
                [("human", None, False), ("human", None, False)],
                options={"target": None, "first": 0},
                name="Ann",
            )
            assert seat == 0 and token is not None
            table = manager.table(room)
            _, _, other = await manager.take_seat(room.id, "Bob")
            ann = await joined(manager, room, token)
            bob = await joined(manager, room, other)
            answer = await hold(manager, ann, room, token, True)
            assert answer["held"] is False and answer["clock"]["paused"] is False
            assert not table.held and not table.holds
            version = room.version
            clock.advance(61.0)
            await until(lambda: room.version > version)
            await until(lambda: ann.state["version"] == room.version)  # the move's frame
            by = {"seat": 0, "kind": "clock", "name": "Ann"}
            assert ann.state["by"] == by
            await until(lambda: bob.state["version"] == room.version)
            assert bob.state["by"] == by
            assert bob.state["seats"][0]["played_for"] == {"clock": 1, "stand_in": 0}
            assert bob.state["seats"][1]["played_for"] == {"clock": 0, "stand_in": 0}
            ann.conn.drop()
            bob.conn.drop()

    run(scenario)


def test_a_persons_own_move_is_never_the_clocks(store_url: str) -> None:
    """The person's move and the clock's end arrive together: the move waits for the room
    first, so the clock finds the turn gone and plays nothing; the move is the person's."""

    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=30.0, turn_time=60.0) as manager:
            room, token = await solo(manager, "qute", first=0)
            table = manager.table(room)
            game = room.game
            assert game is not None
            me = await joined(manager, room, token)
            action = str(game.legal_actions(0)[0])
            version = room.version
            timer = table.turn_task
            assert timer is not None
            async with table.lock:  # the room is busy: both wait for it, the move first
                move = ActMsg(
                    type="act", room=room.id, token=token, action=action, version=version, id=9
                )
                mover = asyncio.create_task(manager.handle(me.conn, move))
                for _ in range(5):
                    await asyncio.sleep(0)  # the move asks for the room
                clock.advance(61.0)
                for _ in range(5):
                    await asyncio.sleep(0)  # the clock ran out and asks for the room too
                assert not mover.done() and not timer.done()
            await mover
            await settled(table)
            answer = next(f for f in me.frames if f.get("id") == 9)
            assert answer["by"] is None and answer["version"] == version + 1
            assert room.game_row is not None
            stored = await manager.store.actions(room.id, room.game_row.game_no)
            assert [(a.action, a.chosen_by) for a in stored] == [(action, None)]
            assert room.moves.played_for(0) == {"clock": 0, "stand_in": 0}
            assert 0 not in room.away
            me.conn.drop()

    run(scenario)


def test_bad_hold_messages_are_refused_and_change_nothing(store_url: str) -> None:
    refused = [
        ({"type": "hold", "room": "r", "token": "t"}, "'on' is missing"),
        ({"type": "hold", "room": "r", "token": "t", "on": "yes"}, "'on' is not valid"),
        ({"type": "hold", "room": "r", "token": "t", "on": 1}, "'on' is not valid"),
        ({"type": "hold", "room": "r", "on": True, "until": 5}, "'until' is not a field"),
        ({"type": "hold", "token": "t", "on": False}, "'room' is missing"),
    ]
    for raw, why in refused:
        with pytest.raises(ProtocolError) as err:
            parse_message(json.dumps(raw))
        assert err.value.code == "malformed" and why in err.value.message, raw

    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0, turn_time=60.0) as manager:
            room, token = await solo(manager, "qute", first=0)
            table = manager.table(room)
            me = await joined(manager, room, token)
            watcher = await joined(manager, room, None)
            stranger = Sink()  # a connection that did not join the room
            frames = len(me.frames), len(watcher.frames)
            cases = [
                (watcher, None, room.id, "not_allowed", "spectator"),
                (me, "not-a-token", room.id, "bad_token", "token"),
                (stranger, token, room.id, "not_joined", "join"),
                (me, token, "no-such-room", "unknown_room", "no such room"),
            ]
            for sink, tok, room_id, code, words in cases:
                msg = HoldMsg(type="hold", room=room_id, token=tok, on=True, id=3)
                with pytest.raises(ProtocolError) as err:
                    await manager.handle(sink.conn, msg)
                assert err.value.code == code and words in err.value.message, (code, err.value)
                assert err.value.msg_id == 3
                assert not table.held and not table.holds
            await settled(table)
            assert (len(me.frames), len(watcher.frames)) == frames  # nobody was told anything
            assert table.turn_task is not None and not table.turn_task.done()
            for sink in (me, watcher, stranger):
                sink.conn.drop()

    run(scenario)
