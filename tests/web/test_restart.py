"""Kill the server with SIGKILL mid-game, start it again: every room resumes exactly and no
accepted action is lost (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed

from ..webserver import Server, free_port
from .client import Client, create_room, join_room
from .play import drive, stored_game


def _settle(clients: list[Client]) -> None:
    for c in clients:
        c.drain(0.3)


def _seen(clients: list[Client]) -> dict[int | None, tuple[int, Any]]:
    return {c.state["seat"]: (c.state["version"], c.state["view"]) for c in clients if c.state}


def test_sigkill_mid_game_every_room_resumes_exactly(store_url: str, tmp_path: Path) -> None:
    port = free_port()
    first = Server(tmp_path, db_url=store_url, ai_delay=0.0, port=port)
    first.start()
    rng = random.Random(11)
    rooms: dict[str, list[Client]] = {}
    try:
        # a person against an AI, two people, a 3-seat gabo still in its peek phase
        kaboo = create_room(first, "kaboo", ["human", "casual"], options={"target": None})
        rooms[kaboo["room"]] = [Client(first, kaboo["room"], kaboo["token"])]
        qute = create_room(first, "qute", ["human", "human"])
        other = join_room(first, qute["room"])
        rooms[qute["room"]] = [
            Client(first, qute["room"], qute["token"]),
            Client(first, qute["room"], other["token"]),
        ]
        gabo = create_room(first, "gabo", ["human", "casual", "casual"])
        rooms[gabo["room"]] = [Client(first, gabo["room"], gabo["token"])]
        for clients in rooms.values():
            for c in clients:
                c.join()
        # a few moves everywhere
        for clients in rooms.values():
            for _ in range(4):
                _settle(clients)
                movers = [c for c in clients if c.my_turn()]
                if movers:
                    c = movers[0]
                    c.act(rng.choice(c.state["view"]["legal"]))  # type: ignore[index]
            _settle(clients)
        before = {room: _seen(clients) for room, clients in rooms.items()}
        for clients in rooms.values():
            for c in clients:
                c.close()
    finally:
        first.kill()
    assert first.proc is not None and first.proc.returncode == -9

    second = Server(tmp_path, db_url=store_url, ai_delay=0.0, port=port)
    second.start()
    try:
        for room, clients in rooms.items():
            again = [Client(second, room, c.token) for c in clients]
            for c in again:
                c.join()
            assert _seen(again) == before[room], f"room {room} did not resume exactly"
            watcher = Client(second, room)
            watcher.join()
            drive([*again, watcher], rng)
            assert all(c.state and c.state["view"]["over"] for c in again)
    finally:
        second.stop()


def test_sigkill_during_a_stream_of_moves_loses_no_accepted_action(
    store_url: str, tmp_path: Path
) -> None:
    port = free_port()
    first = Server(tmp_path, db_url=store_url, ai_delay=0.0, port=port)
    first.start()
    made = create_room(first, "qute", ["human", "human"])
    room = made["room"]
    other = join_room(first, room)
    clients = [Client(first, room, made["token"]), Client(first, room, other["token"])]
    for c in clients:
        c.join()
    acked: list[tuple[int, str]] = []
    stop = threading.Event()

    def play() -> None:
        rng = random.Random(5)
        try:
            while not stop.is_set():
                for c in clients:
                    c.drain()
                top = max(c.state["version"] for c in clients if c.state)
                for c in clients:
                    if c.state and c.state["version"] == top and c.my_turn():
                        action = rng.choice(c.state["view"]["legal"])
                        answer = c.act(action)
                        if answer["type"] == "state":
                            acked.append((c.state["seat"], action))
                        break
                else:
                    clients[0].recv(0.05)
        except (ConnectionClosed, OSError, AssertionError):
            return

    worker = threading.Thread(target=play)
    worker.start()
    while len(acked) < 40 and worker.is_alive():
        threading.Event().wait(0.01)
    first.kill()
    stop.set()
    worker.join(20)
    assert len(acked) >= 40

    second = Server(tmp_path, db_url=store_url, ai_delay=0.0, port=port)
    second.start()
    try:
        _, _, stored = stored_game(store_url, room)
        # canonical forms: the stored text is the engine's notation of what was sent
        assert len(stored) >= len(acked)
        assert [s for s, _ in stored[: len(acked)]] == [s for s, _ in acked]
        assert len(stored) - len(acked) <= 1  # at most the one in flight when killed
        again = Client(second, room, made["token"])
        state = again.join()
        assert state["version"] == 1 + len(stored)
    finally:
        second.stop()
