"""Rooms across restarts of the real server (SQLite and PostgreSQL): start-up loads no room,
an abandoned all-AI match stays stopped, a game whose end was not stored is repaired, and a game
recorded under other rules is refused with a clear message."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import update

from cardtable import variants
from cardtable.store import Store
from cardtable.store.db import games
from cardtable.web.clock import ManualClock

from ..webserver import Server, free_port, http, running_server
from .client import Client, create_room
from .inprocess import advance_until, manager_on, until


def _with_store(url: str, work: Callable[[Store], Any]) -> Any:
    """Run ``await work(store)`` on an open store at ``url``."""

    async def go() -> Any:
        store = Store(url)
        await store.open()
        try:
            return await work(store)
        finally:
            await store.close()

    return asyncio.run(go())


def _games(url: str, room: str) -> list[Any]:
    async def read(store: Store) -> Any:
        return await store.games(room)

    return list(_with_store(url, read))


def _unmark(url: str, room: str, rules: str | None = None, *, finished: bool = False) -> None:
    """Take the finished mark off the room's games (as a crash between the two writes of
    older servers left them; not with ``finished``), and optionally record them under other
    rules."""

    async def write(store: Store) -> None:
        values: dict[str, Any] = {} if finished else {"finished": None, "result": None}
        if rules is not None:
            values["rules"] = rules
        async with store.engine.begin() as conn:
            await conn.execute(update(games).where(games.c.room_id == room).values(**values))

    _with_store(url, write)


def _wait(pred: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)


def test_an_abandoned_ai_match_stays_stopped_after_a_restart(store_url: str) -> None:
    """A server that starts again (in process, on a clock the test moves on) loads no room
    nobody asks for: an all-AI match left playing plays no move until someone watches it."""

    async def scenario() -> None:
        async with manager_on(store_url, ai_delay=0.0) as first:
            made, _seat, _token = await first.create(
                "qute",
                [("ai", "random", False)] * 3,
                options={"target": 1000},
            )
            room = made.id
            await until(lambda: made.version > 6)
        moves = _games_now(await _stored(store_url, room))
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0, idle_time=60.0) as again:
            again.start()
            await again.started()
            for _ in range(20):  # ten minutes of the clock: sweeps, AI delays, turn clocks
                clock.advance(30.0)
                for _ in range(8):
                    await asyncio.sleep(0)
            # nobody asked for the room: the server never loaded it, and it played no move
            assert room not in again.rooms and all(r["room"] != room for r in again.lobby())
            assert _games_now(await _stored(store_url, room)) == moves
            # watching it brings it back where it stopped, and it plays on
            loaded = await again.get(room)
            assert loaded is not None and loaded.status == "playing"
            version = loaded.version
            assert version == (await _stored(store_url, room))[-1].base_version + moves
            await advance_until(clock, lambda: loaded.version > version, step=0.5)

    asyncio.run(scenario())


async def _stored(url: str, room: str) -> list[Any]:
    store = Store(url)
    await store.open()
    try:
        return list(await store.games(room))
    finally:
        await store.close()


def _games_now(rows: list[Any]) -> int:
    """The moves of the last of a room's stored games."""
    return int(rows[-1].actions)


def test_a_game_whose_end_was_not_stored_is_repaired_at_start_up(
    store_url: str, tmp_path: Path
) -> None:
    port = free_port()
    first = Server(tmp_path, db_url=store_url, ai_delay=0.0, port=port)
    first.start()
    try:
        made = create_room(first, "kaboo", ["casual", "casual"], options={"target": None})
        room = made["room"]
        _wait(lambda: bool(_games(store_url, room)) and _games(store_url, room)[-1].finished)
        result = _games(store_url, room)[-1].result
        assert result is not None
    finally:
        first.stop()
    _unmark(store_url, room)
    assert _games(store_url, room)[-1].finished is None
    second = Server(tmp_path, db_url=store_url, ai_delay=0.0, port=port)
    second.start()
    try:
        # nobody asks for the room: the start-up repair marks it over, with the same result
        _wait(lambda: _games(store_url, room)[-1].finished is not None)
        assert _games(store_url, room)[-1].result == result
        status, listed = http("GET", f"{second.url}/api/rooms/{room}/games")
        assert status == 200 and listed["games"][-1]["status"] == "finished"
    finally:
        second.stop()


def test_a_game_recorded_under_other_rules_is_refused_clearly(
    store_url: str, tmp_path: Path
) -> None:
    port = free_port()
    first = Server(tmp_path, db_url=store_url, ai_delay=30.0, port=port)
    first.start()
    try:
        made = create_room(first, "qute", ["human", "human"], options={"target": None})
        room, token = made["room"], made["token"]
        status, _ = http("POST", f"{first.url}/api/rooms/{room}/join", {"name": "Bo"})
        assert status == 200
        assert _games(store_url, room)[-1].rules == variants.rules_version("qute")
    finally:
        first.stop()
    _unmark(store_url, room, rules="qute/0")
    second = Server(tmp_path, db_url=store_url, ai_delay=30.0, port=port)
    second.start()
    try:
        me = Client(second, room, token)
        me.send(type="join", room=room, token=token, id=1)
        answer = me.reply(1)
        assert answer["type"] == "error" and answer["code"] == "rules_changed"
        assert "qute/0" in answer["message"] and variants.rules_version("qute") in answer["message"]
        # the socket stays open and answers what it still can
        me.send(type="ping", id=2)
        assert me.reply(2)["type"] == "pong"
        me.close()
        status, summary = http("GET", f"{second.url}/api/rooms/{room}")
        assert status == 200 and summary["status"] == "closed"
        status, lobby = http("GET", second.url + "/api/rooms")
        assert all(r["room"] != room for r in lobby["rooms"])
        # the server itself is fine: a new room plays
        fresh = create_room(second, "qute", ["human", "casual"])
        assert fresh["room"] != room
    finally:
        second.stop()


def test_a_finished_game_recorded_under_other_rules_has_no_replay(
    store_url: str, tmp_path: Path
) -> None:
    port = free_port()
    first = Server(tmp_path, db_url=store_url, ai_delay=0.0, port=port)
    first.start()
    try:
        made = create_room(first, "kaboo", ["casual", "casual"], options={"target": None})
        room = made["room"]
        _wait(lambda: bool(_games(store_url, room)) and _games(store_url, room)[-1].finished)
        status, page = http("GET", f"{first.url}/api/rooms/{room}/games/1")
        assert status == 200 and page["total"] > 0
    finally:
        first.stop()
    _unmark(store_url, room, rules="kaboo/0", finished=True)
    second = Server(tmp_path, db_url=store_url, ai_delay=0.0, port=port)
    second.start()
    try:
        status, answer = http("GET", f"{second.url}/api/rooms/{room}/games/1")
        assert status == 409 and "kaboo/0" in answer["detail"]
    finally:
        second.stop()


def test_an_all_ai_room_nobody_watches_stops_playing(store_url: str, tmp_path: Path) -> None:
    with running_server(
        tmp_path, db_url=store_url, ai_delay=0.0, extra_args=["--idle-time", "0.6"]
    ) as srv:
        status, refused = http(
            "POST",
            srv.url + "/api/rooms",
            {"game": "qute", "seats": [{"type": "ai"}] * 2, "options": {"target": 10**15}},
        )
        assert status == 400 and "target" in refused["detail"]
        made = create_room(srv, "qute", ["random", "random"], options={"target": 1000})
        room = made["room"]
        watcher = Client(srv, room)
        first = watcher.join()
        watcher.wait(lambda s: s["version"] > first["version"] + 5)
        watcher.close()  # nobody at the table any more: it is paused within a second or two
        _wait(
            lambda: all(r["room"] != room for r in http("GET", srv.url + "/api/rooms")[1]["rooms"])
        )
        moves = _games(store_url, room)[-1].actions
        # someone looks again: it goes on from where it stopped (that a paused room plays no
        # move however long it waits is checked on a clock the test moves on, in
        # test_turn_clock.py and above)
        again = Client(srv, room)
        state = again.join()
        assert state["version"] == _games(store_url, room)[-1].base_version + moves
        again.wait(lambda s: s["version"] > state["version"])
        again.close()
