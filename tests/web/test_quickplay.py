"""Quick play (``POST /api/quickplay``): people of one game share a room that waits for them;
when its wait is over, casual AI players take the open seats and the game starts.

The HTTP and WebSocket tests run a real server with ``--quickplay-wait 1`` on SQLite and on a
real PostgreSQL; the wait's timer (started, cancelled, never left behind) is checked on a
:class:`RoomManager` in process.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.web.clock import ManualClock
from cardtable.web.protocol import JoinMsg
from cardtable.web.rooms import RoomManager

from ..webserver import Server, free_port, http, running_server
from .client import Client, create_room
from .inprocess import settled
from .test_turn_clock import Sink, manager_on, run, until

WAIT = ["--quickplay-wait", "1"]


@pytest.fixture(scope="module")
def quick(store_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose quick-play rooms wait one second for people."""
    workdir: Path = tmp_path_factory.mktemp("quickplay")
    with running_server(workdir, db_url=store_url, ai_delay=0.0, extra_args=WAIT) as srv:
        yield srv


def play_now(server: Server, game: str, name: str | None = None) -> dict[str, Any]:
    """A quick play that must succeed; returns the answer."""
    body: dict[str, Any] = {"game": game}
    if name is not None:
        body["name"] = name
    status, answer = http("POST", server.url + "/api/quickplay", body)
    assert status == 200, answer
    assert isinstance(answer, dict) and answer["url"] == f"/r/{answer['room']}"
    return answer


def summary(server: Server, room: str) -> dict[str, Any]:
    """``GET /api/rooms/{room}``."""
    status, answer = http("GET", f"{server.url}/api/rooms/{room}")
    assert status == 200, answer
    assert isinstance(answer, dict)
    return answer


def lobby_rooms(server: Server) -> set[str]:
    """Ids of the rooms the lobby lists."""
    status, answer = http("GET", server.url + "/api/rooms")
    assert status == 200
    return {r["room"] for r in answer["rooms"]}


def test_quick_plays_of_one_game_share_a_room_and_another_game_opens_its_own(
    quick: Server,
) -> None:
    first = play_now(quick, "cabo", "Ann")
    second = play_now(quick, "cabo", "Bob")
    assert second["room"] == first["room"]
    assert (first["seat"], second["seat"]) == (0, 1)
    assert first["token"] != second["token"]
    room = summary(quick, first["room"])
    assert room["game"] == "cabo" and room["status"] == "waiting" and room["quickplay"] is True
    assert room["players"] == 4  # within cabo's 2 to 6
    assert [(s["type"], s["name"], s["taken"]) for s in room["seats"]] == [
        ("human", "Ann", True),
        ("human", "Bob", True),
        ("human", None, False),
        ("human", None, False),
    ]
    assert room["turn_time"] == 60.0  # the server's, which the invite page shows
    assert 0 <= room["ai_fill_in"] <= 1  # the moment the AI players come
    assert first["room"] in lobby_rooms(quick)  # public
    other = play_now(quick, "gabo", "Cy")
    assert other["room"] != first["room"] and other["seat"] == 0
    assert summary(quick, other["room"])["game"] == "gabo"
    # a room made with the lobby form is never given to quick play
    formed = create_room(quick, "gabo", ["human", "human"], name="Di")
    assert play_now(quick, "gabo")["room"] == other["room"] != formed["room"]


def test_after_the_wait_the_open_seats_are_ai_and_the_game_is_in_play(quick: Server) -> None:
    made = play_now(quick, "kaboo", "Eve")
    client = Client(quick, made["room"], made["token"])
    try:
        first = client.join()
        assert first["status"] == "waiting" and first["view"] is None
        assert 0 <= first["ai_fill_in"] <= 1
        playing = client.wait(lambda s: s["status"] == "playing", timeout=20)
        assert playing["view"] is not None and "ai_fill_in" not in playing
        seats = [(s["type"], s["level"], s["name"]) for s in playing["seats"]]
        assert seats == [("human", None, "Eve")] + [("ai", "casual", "Casual AI")] * 3
        # the AI players play: the table moves on without the person (kaboo's first sight of
        # the bottom row is a deal event; AI seats then take their turns when theirs come)
        room = summary(quick, made["room"])
        assert room["status"] == "playing" and "ai_fill_in" not in room
    finally:
        client.close()
    # a room in play is not chosen again: the next quick play opens another
    assert play_now(quick, "kaboo")["room"] != made["room"]


def test_people_who_fill_every_seat_start_at_once_and_a_full_room_is_not_chosen(
    quick: Server,
) -> None:
    made = [play_now(quick, "qute", f"P{i}") for i in range(4)]
    assert len({m["room"] for m in made}) == 1
    assert [m["seat"] for m in made] == [0, 1, 2, 3]
    room = summary(quick, made[0]["room"])
    assert room["status"] == "playing"  # no wait: every seat is a person's
    assert [s["type"] for s in room["seats"]] == ["human"] * 4
    assert [s["name"] for s in room["seats"]] == ["P0", "P1", "P2", "P3"]
    late = play_now(quick, "qute", "Late")
    assert late["room"] != made[0]["room"] and late["seat"] == 0


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "no-such-game"}, 400, "unknown game"),
        ({"game": ""}, 422, "game"),
        ({}, 422, "game"),
        ({"game": "kaboo", "name": "Casual AI"}, 422, "label of an AI seat"),
        ({"game": "kaboo", "name": "x" * 25}, 422, "longer than 24"),
        ({"game": "kaboo", "seats": 3}, 422, "seats"),
    ],
)
def test_a_bad_body_is_refused_clearly_and_creates_nothing(
    quick: Server, body: dict[str, Any], status: int, words: str
) -> None:
    before = lobby_rooms(quick)
    got, answer = http("POST", quick.url + "/api/quickplay", body)
    assert got == status, answer
    assert words in str(answer["detail"])
    assert lobby_rooms(quick) == before


def test_quick_play_spends_the_room_and_join_quotas(tmp_path: Path) -> None:
    args = [*WAIT, "--rate-rooms", "2/30", "--tarpit", "0"]
    with running_server(tmp_path, ai_delay=0.0, extra_args=args) as srv:
        play_now(srv, "qute", "A")
        play_now(srv, "qute", "B")
        before = lobby_rooms(srv)
        status, answer = http("POST", srv.url + "/api/quickplay", {"game": "cabo", "name": "C"})
        assert status == 429 and "too many new rooms" in answer["detail"]
        assert lobby_rooms(srv) == before  # nothing opened, no seat taken
        (room,) = before
        assert [s["taken"] for s in summary(srv, room)["seats"]] == [True, True, False, False]
        # one quota for both ways of making a room
        body = {"game": "qute", "seats": [{"type": "human"}, {"type": "human"}]}
        assert http("POST", srv.url + "/api/rooms", body)[0] == 429
    with running_server(tmp_path, ai_delay=0.0, extra_args=[*WAIT, "--rate-joins", "1/30"]) as srv:
        play_now(srv, "qute", "A")
        status, answer = http("POST", srv.url + "/api/quickplay", {"game": "qute", "name": "B"})
        assert status == 429 and "too many seat joins" in answer["detail"]


def test_a_waiting_room_fills_when_next_visited_after_a_restart_and_its_ai_seats_stay(
    store_url: str, tmp_path: Path
) -> None:
    port = free_port()

    def server() -> Server:
        return Server(tmp_path, db_url=store_url, ai_delay=0.0, port=port, extra_args=WAIT)

    first = server()
    first.start()
    try:
        made = play_now(first, "cabo-german", "Flo")  # nobody connects: the room waits
    finally:
        first.stop()
    second = server()
    second.start()
    try:
        room = summary(second, made["room"])
        assert room["status"] == "waiting" and room["quickplay"] is True
        assert [s["taken"] for s in room["seats"]] == [True, False, False, False]
        client = Client(second, made["room"], made["token"])
        try:
            client.join()
            playing = client.wait(lambda s: s["status"] == "playing", timeout=20)
        finally:
            client.close()
        assert [s["type"] for s in playing["seats"]] == ["human", "ai", "ai", "ai"]
    finally:
        second.stop()
    third = server()
    third.start()
    try:
        room = summary(third, made["room"])
        seats = [(s["type"], s["level"], s["name"], s["taken"]) for s in room["seats"]]
        assert seats == [("human", None, "Flo", True)] + [("ai", "casual", "Casual AI", True)] * 3
        assert room["status"] == "playing"
        # the person's token still holds their seat; the AI seats hold no token
        client = Client(third, made["room"], made["token"])
        try:
            assert client.join()["seat"] == 0
        finally:
            client.close()
    finally:
        third.stop()


# -- the wait's timer, in process ------------------------------------------------------------


def fills(manager: RoomManager) -> dict[str, asyncio.Task[None]]:
    """The quick-play waits running now, by room."""
    tables = (manager.table(room) for room in manager.rooms.values())
    return {t.room.id: t.fill_task for t in tables if t.fill_task is not None}


def test_the_wait_is_cancelled_when_people_fill_the_room(store_url: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, quickplay_wait=30.0) as manager:
            room, _seat, token = await manager.quickplay("qute", "A")
            watcher = Sink()
            await manager.handle(watcher.conn, JoinMsg(type="join", room=room.id, token=token))
            task = fills(manager)[room.id]
            for name in ("B", "C", "D"):
                assert (await manager.quickplay("qute", name))[0] is room
            assert room.status == "playing"
            await until(task.done)
            assert task.cancelled() and room.id not in fills(manager)
            assert [s.type for s in room.row.seats] == ["human"] * 4

    run(scenario)


def test_the_wait_is_cancelled_when_the_room_is_paused_or_the_server_closes(
    store_url: str,
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, quickplay_wait=30.0, idle_time=5.0) as manager:
            room, _seat, token = await manager.quickplay("gabo", "A")
            watcher = Sink()
            await manager.handle(watcher.conn, JoinMsg(type="join", room=room.id, token=token))
            await until(lambda: any(f["type"] == "state" for f in watcher.frames))
            assert watcher.state["ai_fill_in"] > 0
            task = fills(manager)[room.id]
            manager.leave(watcher.conn)
            clock.advance(5.0)
            assert await manager.sweep() == 1  # nobody there: paused
            await until(task.done)
            assert task.cancelled() and fills(manager) == {}
            # asked for again, it waits again; closing the server stops that wait too
            again = await manager.get(room.id)
            assert again is not None and again is not room and again.status == "waiting"
            watcher = Sink()
            await manager.handle(watcher.conn, JoinMsg(type="join", room=room.id, token=token))
            task = fills(manager)[room.id]
            await manager.close()
            await until(task.done)
            assert task.cancelled() and fills(manager) == {}

    run(scenario)


def test_a_room_whose_wait_ran_out_with_nobody_there_fills_when_someone_comes(
    store_url: str,
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=0.0, quickplay_wait=10.0) as manager:
            room, _seat, token = await manager.quickplay("cabo", "A")
            assert manager.ai_fill_in(room) == 10.0
            clock.advance(30.0)
            await settled(manager.table(room))
            assert room.status == "waiting" and manager.ai_fill_in(room) == 0
            assert fills(manager) == {}  # nobody there: no timer runs for nothing
            # someone else comes by quick play: they get its next seat and, once they are at
            # the table, AI players take the rest; the absent first person gets a stand-in
            same, seat, other = await manager.quickplay("cabo", "B")
            assert same is room and seat == 1
            watcher = Sink()
            await manager.handle(watcher.conn, JoinMsg(type="join", room=room.id, token=other))
            await until(lambda: room.status == "playing")
            assert [s.type for s in room.row.seats] == ["human", "human", "ai", "ai"]
            assert 0 in room.stand_ins and 0 in room.away and 1 not in room.stand_ins
            assert fills(manager) == {}
            # the first person comes back: their seat is theirs again
            back = Sink()
            await manager.handle(back.conn, JoinMsg(type="join", room=room.id, token=token))
            assert 0 not in room.stand_ins and 0 not in room.away

    run(scenario)
