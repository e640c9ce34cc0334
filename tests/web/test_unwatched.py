"""Rooms nobody is at, read but not watched: reading a room (its summary, its games, a replay)
neither keeps it in memory nor sets it playing again; only a connection joined to it does. And
the caps that bound what rooms cost: spectators per room, rooms of AI players only per process.

In process, on a :class:`ManualClock` the tests move on (as test_turn_clock.py), and through
the app (FastAPI's test client) for what the HTTP answers say.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from cardtable.web.app import create_app
from cardtable.web.clock import ManualClock
from cardtable.web.protocol import JoinMsg, ProtocolError
from cardtable.web.rooms import Room, RoomError, RoomManager
from cardtable.web.settings import ServerSettings, SettingError

from .inprocess import advance_until, manager_on, run, until
from .test_turn_clock import Sink, person_and_ai, stored_moves

AI_ONLY = [("ai", "random", False), ("ai", "random", False)]
"""The seats of a room of AI players only (cheap ones: they decide at once)."""


async def ai_match(manager: RoomManager) -> Room:
    """A qute match to 500 between two random AI players: long enough never to end here."""
    room, seat, token = await manager.create("qute", AI_ONLY, options={"target": 500})
    assert seat is None and token is None
    return room


async def ask(
    app: FastAPI, method: str, path: str, body: object = None
) -> tuple[int, dict[str, str], Any]:
    """One request through the ASGI app itself (no server, no HTTP client library): the status,
    the headers and the JSON answer."""
    data = b"" if body is None else json.dumps(body).encode()
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": data, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    headers = [(b"host", b"test"), (b"content-type", b"application/json")]
    headers.append((b"content-length", str(len(data)).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 1),
        "server": ("test", 80),
    }
    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    answer = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    named = {k.decode(): v.decode() for k, v in start["headers"]}
    return start["status"], named, json.loads(answer)


async def poll(manager: RoomManager, clock: ManualClock, room_id: str, until_time: float) -> None:
    """Read the room's summary every 5 s of the clock until the clock reads ``until_time``, as a
    page that polls ``GET /api/rooms/{room}`` does, letting the room's timers run between the
    reads."""
    while clock.monotonic() < until_time:
        read = await manager.read(room_id)
        assert read is not None
        manager.summary(read)
        clock.advance(min(5.0, until_time - clock.monotonic()))
        for _ in range(8):
            await asyncio.sleep(0)


def test_polling_the_summary_of_an_ai_match_nobody_watches_does_not_keep_it_playing(
    store_url: str,
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0, idle_time=120.0) as manager:
            room = await ai_match(manager)
            await advance_until(clock, lambda: room.version > 3, step=1.0)
            await poll(manager, clock, room.id, 119.0)  # read all along, watched by nobody
            assert await manager.sweep() == 0
            await poll(manager, clock, room.id, 120.0)
            assert await manager.sweep() == 1  # idle since it was made: polls do not count
            assert room.evicted and room.id not in manager.rooms
            version, moves = room.version, len(await stored_moves(manager, room))
            # read on and on while paused: it answers what it was, and plays no move
            await poll(manager, clock, room.id, 420.0)
            read = await manager.read(room.id)
            assert read is room  # its paused state, not a room set playing again
            summary = manager.summary(room)
            assert summary["paused"] is True and summary["version"] == version
            assert summary["status"] == "playing"
            assert room.id not in manager.rooms and room.version == version
            assert len(await stored_moves(manager, room)) == moves
            assert all(r["room"] != room.id for r in manager.lobby())
            # someone joins to watch: it is rebuilt where it stopped and plays on at once
            watcher = Sink()
            await manager.handle(watcher.conn, JoinMsg(type="join", room=room.id))
            again = manager.rooms[room.id]
            assert again is not room and again.version == version
            assert manager.summary(again)["paused"] is False
            await advance_until(clock, lambda: again.version > version, step=1.0)
            # and while it is watched, it is not paused, however long
            clock.advance(600.0)
            assert await manager.sweep() == 0 and room.id in manager.rooms
            watcher.conn.drop()

    run(scenario)


def test_a_room_its_only_person_left_is_paused_however_often_it_is_read(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(
            store_url, clock, ai_delay=1.0, idle_time=60.0, turn_time=10.0
        ) as manager:
            room, token = await person_and_ai(manager, options={"target": 500})
            me = Sink()
            await manager.handle(me.conn, JoinMsg(type="join", room=room.id, token=token))
            await until(lambda: bool(me.frames))
            manager.leave(me.conn)  # the person goes; the clock and the AI play on for now
            moved_on = room.version  # the clock plays for the person, then the AI, a while:
            await advance_until(clock, lambda: room.version > moved_on + 1, step=1.0)
            await poll(manager, clock, room.id, 55.0)
            assert await manager.sweep() == 0  # not yet idle_time since they left
            await poll(manager, clock, room.id, 60.0)
            assert await manager.sweep() == 1 and room.evicted
            version = room.version
            await poll(manager, clock, room.id, 180.0)  # clocks run out for nobody
            assert room.version == version and room.id not in manager.rooms
            # the person comes back: the room plays again from where it stopped
            await manager.handle(me.conn, JoinMsg(type="join", room=room.id, token=token))
            again = manager.rooms[room.id]
            assert again.version == version and 0 in again.online()

    run(scenario)


def test_reading_a_room_after_a_restart_does_not_set_it_playing(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'web.db'}"

    async def make() -> str:
        async with manager_on(url, ai_delay=60.0) as manager:
            return (await ai_match(manager)).id

    room_id = asyncio.run(make())
    app = create_app(url, ServerSettings(ai_workers=0, ai_delay=0.0))

    async def scenario() -> None:
        async with app.router.lifespan_context(app):
            manager: RoomManager = app.state.manager
            status, _, summary = await ask(app, "GET", f"/api/rooms/{room_id}")
            assert status == 200 and summary["paused"] is True
            assert summary["status"] == "playing" and summary["version"] == 1  # dealt, no move
            assert (await ask(app, "GET", f"/api/rooms/{room_id}/games"))[0] == 200
            assert (await ask(app, "GET", f"/api/rooms/{room_id}/games/1"))[0] == 409  # in play
            assert (await ask(app, "GET", "/api/rooms"))[2]["rooms"] == []
            for _ in range(20):  # an AI of no delay would have played by now, had it started
                await asyncio.sleep(0)
            assert room_id not in manager.rooms  # read, never set playing
            assert (await ask(app, "GET", f"/api/rooms/{room_id}"))[2]["version"] == 1
            assert (await ask(app, "GET", "/api/rooms/nope"))[0] == 404

    asyncio.run(scenario())


# -- spectators per room --------------------------------------------------------------------
def test_a_spectator_past_the_cap_is_refused_and_nothing_changes(store_url: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, ai_delay=60.0, max_spectators=2) as manager:
            room, token = await person_and_ai(manager)
            other, _token = await person_and_ai(manager)
            first, second, third = Sink(), Sink(), Sink()
            for sink in (first, second):
                await manager.handle(sink.conn, JoinMsg(type="join", room=room.id))
            await manager.handle(third.conn, JoinMsg(type="join", room=other.id))
            with pytest.raises(ProtocolError) as refused:
                await manager.handle(third.conn, JoinMsg(type="join", room=room.id, id=7))
            assert refused.value.code == "too_many_spectators" and refused.value.msg_id == 7
            assert "2" in refused.value.message
            # nothing changed: the room's listeners, and the room the refused one listens to
            assert third.conn not in room.conns and len(room.conns) == 2
            assert third.conn.room is other and third.conn in other.conns
            # a spectator joining again keeps its place; the person's seat is never refused
            await manager.handle(first.conn, JoinMsg(type="join", room=room.id))
            me = Sink()
            await manager.handle(me.conn, JoinMsg(type="join", room=room.id, token=token))
            assert me.conn in room.conns and room.online() == {0}
            # once a spectator goes, the next one may come
            manager.leave(second.conn)
            await manager.handle(third.conn, JoinMsg(type="join", room=room.id))
            assert third.conn in room.conns and third.conn.room is room

    run(scenario)


def test_the_caps_are_settings_and_cannot_be_negative() -> None:
    assert ServerSettings().max_spectators == 64 and ServerSettings().max_ai_rooms == 200
    for name in ("max_spectators", "max_ai_rooms"):
        with pytest.raises(SettingError) as err:
            ServerSettings(**{name: -1})
        assert err.value.name == name


# -- rooms of AI players only -----------------------------------------------------------------
def test_rooms_of_ai_players_only_are_bounded(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(
            store_url, clock, ai_delay=1.0, idle_time=60.0, max_ai_rooms=2
        ) as manager:
            one, two = await ai_match(manager), await ai_match(manager)
            live = set(manager.rooms)
            with pytest.raises(RoomError) as refused:
                await ai_match(manager)
            assert refused.value.code == "too_many_ai_rooms"
            assert set(manager.rooms) == live  # nothing made, in memory or in the store
            # a room with a person's seat is not bounded by it
            person, _token = await person_and_ai(manager)
            assert person.id in manager.rooms
            # a match paused, then watched while the others play: refused, and still paused
            watcher = Sink()
            await manager.handle(watcher.conn, JoinMsg(type="join", room=two.id))
            clock.advance(61.0)
            assert await manager.sweep() == 2  # `one` and the person's room: nobody at them
            assert one.evicted and not two.evicted
            three = await ai_match(manager)  # a place was free again
            with pytest.raises(ProtocolError) as busy:
                await manager.handle(Sink().conn, JoinMsg(type="join", room=one.id, id="w"))
            assert busy.value.code == "too_many_ai_rooms" and busy.value.msg_id == "w"
            assert one.id not in manager.rooms
            read = await manager.read(one.id)  # reading it is never refused
            assert read is not None and manager.summary(read)["paused"] is True
            # a match that ends leaves its place
            watcher.conn.drop()
            clock.advance(61.0)
            assert await manager.sweep() == 2 and three.id not in manager.rooms
            await manager.handle(watcher_again := Sink().conn, JoinMsg(type="join", room=one.id))
            assert one.id in manager.rooms
            watcher_again.drop()

    run(scenario)


def test_a_room_of_ai_players_past_the_cap_is_answered_503(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'web.db'}"
    app = create_app(url, ServerSettings(ai_workers=0, ai_delay=60.0, max_ai_rooms=1))
    ai_only = {"game": "qute", "seats": [{"type": "ai", "level": "random"}] * 2}
    person = {"game": "qute", "seats": [{"type": "human"}, {"type": "ai"}]}

    async def scenario() -> None:
        async with app.router.lifespan_context(app):
            assert (await ask(app, "POST", "/api/rooms", ai_only))[0] == 201
            status, headers, answer = await ask(app, "POST", "/api/rooms", ai_only)
            assert status == 503 and headers["retry-after"] == "30"
            assert "at most 1" in answer["detail"]
            manager: RoomManager = app.state.manager
            assert len(manager.rooms) == 1
            assert (await ask(app, "POST", "/api/rooms", person))[0] == 201

    asyncio.run(scenario())


def test_a_burst_of_creations_cannot_pass_the_cap_of_rooms_of_ai_players(store_url: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, ManualClock(), ai_delay=60.0, max_ai_rooms=2) as manager:
            # all asked at once: each is checked before any of them is stored
            made = await asyncio.gather(
                *(ai_match(manager) for _ in range(6)), return_exceptions=True
            )
            rooms = [r for r in made if isinstance(r, Room)]
            refused = [r for r in made if isinstance(r, RoomError)]
            assert len(rooms) == 2 and len(refused) == 4
            assert {r.code for r in refused} == {"too_many_ai_rooms"}
            assert set(manager.rooms) == {r.id for r in rooms}
            assert manager.live.ai_rooms() == 2
            # a room that leaves memory frees its place
            for room in rooms:
                assert manager.live.take_out(manager.live.tables[room.id])
            assert manager.live.ai_rooms() == 0
            await ai_match(manager)

    run(scenario)


def test_moves_of_rooms_of_ai_players_only_are_paced_and_people_go_first(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(
            store_url, clock, ai_delay=0.1, ai_room_moves=2.0, idle_time=600.0
        ) as manager:
            matches = [await ai_match(manager) for _ in range(4)]
            watchers = [Sink() for _ in matches]  # watched, so they play on
            for watcher, match in zip(watchers, matches, strict=True):
                await manager.handle(watcher.conn, JoinMsg(type="join", room=match.id))
            await advance_until(clock, lambda: all(m.version >= 2 for m in matches))
            before = [m.version for m in matches]
            # a person's table with an AI to move first: its AI does not wait for the matches
            person, _token = await person_and_ai(manager, options={"target": 100, "first": 1})
            opened = person.version
            waited = await advance_until(clock, lambda: person.version > opened, step=0.02)
            assert waited <= 0.2  # its delay, not a turn behind the matches' backlog
            start = clock.monotonic()  # then ten seconds of the clock, step by step
            await advance_until(clock, lambda: clock.monotonic() - start >= 10.0 - 1e-6)
            played = [m.version - b for m, b in zip(matches, before, strict=True)]
            # 2 moves a second for the four matches together (20 in 10 s, a burst aside),
            # where each alone would play 10 a second; and every match had its turns
            assert 15 <= sum(played) <= 23, played
            assert min(played) >= 3, played
            for watcher in watchers:
                watcher.conn.drop()

    run(scenario)


def test_the_pace_of_ai_matches_is_a_setting() -> None:
    assert ServerSettings().ai_room_moves == 50.0
    assert ServerSettings(ai_room_moves=0).ai_room_moves == 0  # no pace
    with pytest.raises(SettingError) as err:
        ServerSettings(ai_room_moves=-1)
    assert err.value.name == "ai_room_moves"
