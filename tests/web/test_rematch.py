"""Rematches offered, not imposed: once the game is over one person offers, the others accept
or decline; the next game is dealt when every person's seat has accepted (AI seats always do),
and a decline ends the offer for everyone, who are told. Bad answers change nothing.

A room manager runs in process (``store_url``: SQLite and a real PostgreSQL) and its
connections' frames are read.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardtable.web.protocol import (
    ActMsg,
    JoinMsg,
    ProtocolError,
    RematchMsg,
    parse_message,
)
from cardtable.web.rooms import Room, RoomManager

from .inprocess import at_rest, manager_on, until
from .test_turn_clock import Sink, run

_ids = iter(range(1, 1_000_000))

SHORT = {"target": None, "first": 0, "max_turns": 2}
"""A qute round that ends after two turns each."""


async def joined(manager: RoomManager, room: Room, token: str | None) -> Sink:
    """A connection that joined ``room`` (as the token's seat, or as a spectator)."""
    sink = Sink()
    await manager.handle(sink.conn, JoinMsg(type="join", room=room.id, token=token))
    await until(lambda: bool(sink.frames))
    return sink


async def send(manager: RoomManager, sink: Sink, **msg: Any) -> dict[str, Any]:
    """Send a ``rematch`` with a fresh id; return its answer (a ``state``)."""
    msg_id = next(_ids)
    await manager.handle(sink.conn, RematchMsg(type="rematch", id=msg_id, **msg))
    await until(lambda: any(f.get("id") == msg_id for f in sink.frames))
    return next(f for f in sink.frames if f.get("id") == msg_id)


async def play_out(manager: RoomManager, room: Room, tokens: dict[int, str]) -> None:
    """Play the room's game to its end: random legal moves for the seats of ``tokens`` (the AI
    seats play by themselves)."""
    game = room.game
    assert game is not None
    rng = random.Random(5)
    mover = Sink()
    while not game.over:
        await at_rest(
            manager.table(room), lambda: game.over or any(s in tokens for s in game.actors)
        )
        seat = next((s for s in game.actors if s in tokens), None)
        if seat is None:
            continue
        action = str(rng.choice(game.legal_actions(seat)))
        msg = ActMsg(
            type="act", room=room.id, token=tokens[seat], action=action, version=room.version
        )
        try:
            await manager.handle(mover.conn, msg)
        except ProtocolError as exc:  # an AI moved meanwhile
            assert exc.code in ("stale", "not_your_turn", "game_over"), exc.code
    mover.conn.drop()


async def two_people(manager: RoomManager) -> tuple[Room, str, str]:
    """A qute room of Ann (seat 0) and Bob (seat 1), its short game played out."""
    room, seat, ann = await manager.create(
        "qute", [("human", None, False), ("human", None, False)], options=SHORT, name="Ann"
    )
    assert seat == 0 and ann is not None
    _, _, bob = await manager.take_seat(room.id, "Bob")
    await play_out(manager, room, {0: ann, 1: bob})
    return room, ann, bob


def test_a_two_person_room_starts_again_only_when_the_other_accepts(store_url: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, ai_delay=0.0, turn_time=0) as manager:
            room, ann, bob = await two_people(manager)
            a, b, w = [await joined(manager, room, t) for t in (ann, bob, None)]
            version = room.version
            offer = await send(manager, a, room=room.id, token=ann)
            expected = {"by": 0, "accepted": [0], "declined": []}
            assert offer["rematch"] == expected and offer["game_no"] == 1
            assert offer["status"] == "finished" and room.version == version
            for other in (b, w):  # everyone is told of the offer
                await until(lambda o=other: o.state["rematch"] == expected)
            assert manager.summary(room)["rematch"] == expected
            # offering again changes nothing; the game waits for Bob
            again = await send(manager, a, room=room.id, token=ann)
            assert again["rematch"] == expected and room.game_row is not None
            assert room.game_row.game_no == 1
            start = await send(manager, b, room=room.id, token=bob, accept=True)
            assert start["game_no"] == 2 and start["version"] == version + 1
            assert start["rematch"] is None and start["status"] == "playing"
            for other in (a, w):
                await until(lambda o=other: o.state["game_no"] == 2)
                assert other.state["rematch"] is None
            assert manager.summary(room)["rematch"] is None
            for sink in (a, b, w):
                sink.conn.drop()

    run(scenario)


def test_a_decline_ends_the_offer_and_everyone_is_told(store_url: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, ai_delay=0.0, turn_time=0) as manager:
            room, ann, bob = await two_people(manager)
            a, b, w = [await joined(manager, room, t) for t in (ann, bob, None)]
            await send(manager, a, room=room.id, token=ann)
            no = await send(manager, b, room=room.id, token=bob, accept=False)
            declined = {"by": 0, "accepted": [0], "declined": [1]}
            assert no["rematch"] == declined and no["game_no"] == 1
            for other in (a, w):
                await until(lambda o=other: o.state["rematch"] == declined)
            assert other.state["seats"][1]["name"] == "Bob"  # so a client can say who declined
            # the offer is over: answering it is refused, and nothing changes
            with pytest.raises(ProtocolError) as err:
                await send(manager, a, room=room.id, token=ann, accept=True)
            assert err.value.code == "no_offer" and "declined" in err.value.message
            assert room.rematch is not None and room.rematch.to_json() == declined
            # a new offer (Bob's) starts over, and Ann's accept deals the next game
            offer = await send(manager, b, room=room.id, token=bob)
            assert offer["rematch"] == {"by": 1, "accepted": [1], "declined": []}
            start = await send(manager, a, room=room.id, token=ann, accept=True)
            assert start["game_no"] == 2 and start["rematch"] is None
            for sink in (a, b, w):
                sink.conn.drop()

    run(scenario)


def test_an_offer_where_every_other_seat_is_an_ai_starts_at_once(store_url: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, ai_delay=0.0, turn_time=0) as manager:
            room, seat, token = await manager.create(
                "qute",
                [("human", None, False), ("ai", "casual", False), ("ai", "random", False)],
                options=SHORT,
            )
            assert seat == 0 and token is not None
            await play_out(manager, room, {0: token})
            me = await joined(manager, room, token)
            version = room.version
            start = await send(manager, me, room=room.id, token=token)
            assert start["game_no"] == 2 and start["version"] == version + 1
            assert start["rematch"] is None and start["status"] == "playing"
            me.conn.drop()

    run(scenario)


def test_bad_rematch_messages_are_refused_and_change_nothing(store_url: str) -> None:
    for raw, why in [
        ({"type": "rematch", "room": "r", "token": "t", "accept": "yes"}, "'accept' is not"),
        ({"type": "rematch", "room": "r", "token": "t", "accept": 1}, "'accept' is not"),
        ({"type": "rematch", "room": "r", "token": "t", "decline": True}, "'decline' is not"),
    ]:
        with pytest.raises(ProtocolError) as err:
            parse_message(json.dumps(raw))
        assert err.value.code == "malformed" and why in err.value.message, raw

    async def scenario() -> None:
        async with manager_on(store_url, ai_delay=0.0, turn_time=0) as manager:
            # a room whose first game has not started
            waiting, _, token = await manager.create(
                "qute", [("human", None, False), ("human", None, False)], autostart=False
            )
            assert token is not None
            sink = await joined(manager, waiting, token)
            with pytest.raises(ProtocolError) as err:
                await send(manager, sink, room=waiting.id, token=token)
            assert err.value.code == "not_started"
            sink.conn.drop()

            room, _, ann = await manager.create(
                "qute", [("human", None, False), ("human", None, False)], options=SHORT
            )
            assert ann is not None
            _, _, bob = await manager.take_seat(room.id, "Bob")
            a, b, w = [await joined(manager, room, t) for t in (ann, bob, None)]

            async def refused(sink: Sink, code: str, words: str, **msg: Any) -> None:
                frames = [len(s.frames) for s in (a, b, w)]
                before = (room.version, room.rematch and room.rematch.to_json())
                with pytest.raises(ProtocolError) as err:
                    await send(manager, sink, room=room.id, **msg)
                assert err.value.code == code and words in err.value.message, err.value
                assert (room.version, room.rematch and room.rematch.to_json()) == before
                assert [len(s.frames) for s in (a, b, w)] == frames  # nobody was told

            # the game is not over
            await refused(a, "game_over", "not over", token=ann)
            await refused(b, "game_over", "not over", token=bob, accept=True)
            await play_out(manager, room, {0: ann, 1: bob})
            await until(lambda: all(s.state["status"] == "finished" for s in (a, b, w)))
            # no offer to answer
            await refused(b, "no_offer", "no rematch is offered", token=bob, accept=True)
            await refused(b, "no_offer", "no rematch is offered", token=bob, accept=False)
            # a spectator, a token of no seat
            await refused(w, "not_allowed", "spectator")
            await refused(w, "not_allowed", "spectator", accept=True)
            await refused(w, "bad_token", "token", token="not-a-token")
            assert room.rematch is None and room.game_row is not None
            assert room.game_row.game_no == 1
            for s in (a, b, w):
                s.conn.drop()

    run(scenario)
