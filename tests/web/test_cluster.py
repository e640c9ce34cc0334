"""Several server processes, one service: two ``cardtable serve --redis`` processes on one
PostgreSQL and one Redis, behind HAProxy (tests/cluster.py), all real.

A room is played by the process that holds its lease; a client connected to the other process
plays it all the same (its messages forwarded, its own frames sent back), sees it in the
lobby, is seated there by quick play, chats with it; when the owner is killed the clients'
connections are closed with 1012, they reconnect, the other process takes the room over from
the store, and no acknowledged move is lost.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from ..cluster import Cluster
from ..webserver import http
from .client import Client, create_room, join_room

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two processes with Redis behind the balancer (AI moves at once, one search worker
    each)."""
    with Cluster(
        2, redis=True, ai_workers=1, workdir=tmp_path_factory.mktemp("cluster")
    ) as running:
        yield running


def until(pred: Any, what: str, timeout: float = 20.0) -> Any:
    """Poll ``pred()`` until it gives something true (bounded; it measures nothing)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def state_of(client: Client, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
    """The first ``state`` frame ``client`` receives for which ``pred`` holds."""
    return client.wait(lambda m: m.get("type") == "state" and pred(m), timeout)


def at_least(version: int) -> Any:
    """A test of a state: at ``version`` or later."""
    return lambda m: m["version"] >= version


def two_people(cluster: Cluster, game: str = "cabo") -> tuple[dict[str, Any], dict[str, Any]]:
    """A room of two people made on process 0; the second seat taken through process 1."""
    made = create_room(cluster.processes[0], game, ["human", "human"], options={"target": None})
    joined = join_room(cluster.processes[1], made["room"], "Bob")
    assert joined["seat"] == 1
    return made, joined


def test_a_room_is_played_from_both_processes_each_seat_seeing_its_own_view(
    cluster: Cluster,
) -> None:
    a, b = cluster.processes
    made, joined = two_people(cluster)
    room = made["room"]
    ann = Client(a, room, made["token"])
    bob = Client(b, room, joined["token"])
    watcher = Client(b, room)
    try:
        first = ann.join()
        second = bob.join()
        seen = watcher.join()
        assert first["seat"] == 0 and second["seat"] == 1 and seen["seat"] is None
        assert first["version"] == second["version"] == seen["version"]
        # each seat's own view: the hands it may not see are hidden in its frame
        for frame, seat in ((first, 0), (second, 1)):
            view = frame["view"]
            assert view["seat"] == seat
        # play the opening peeks from both processes; everyone sees every version
        version = first["version"]
        for client in (ann, bob):
            current = state_of(client, at_least(version))
            legal = current["view"]["legal"]
            if legal:
                answer = client.act(legal[0], current["version"])
                assert answer["type"] == "state", answer
                version = answer["version"]
        state_of(watcher, lambda m: m["version"] >= version)
        state_of(ann, lambda m: m["version"] >= version)
        state_of(bob, lambda m: m["version"] >= version)
        # a spectator of the other process sees no hidden card of either seat
        spect = state_of(watcher, lambda m: m["version"] >= version)["view"]
        assert spect["seat"] is None
    finally:
        for c in (ann, bob, watcher):
            c.close()


def test_the_lobby_and_quick_play_span_the_processes(cluster: Cluster) -> None:
    a, b = cluster.processes
    made = create_room(a, "gabo", ["human", "human", "casual"], name="Ann")
    until(
        lambda: any(
            r["room"] == made["room"] for r in http("GET", b.url + "/api/rooms")[1]["rooms"]
        ),
        "the room made on process 0 listed by process 1",
    )
    status, summary = http("GET", b.url + f"/api/rooms/{made['room']}")
    assert status == 200 and summary["room"] == made["room"]
    # quick play: opened on one process, joined through the other
    status, first = http("POST", a.url + "/api/quickplay", {"game": "kaboo", "name": "A"})
    assert status == 200, first

    def second_seated() -> dict[str, Any] | None:
        status, answer = http("POST", b.url + "/api/quickplay", {"game": "kaboo", "name": "B"})
        assert status == 200, answer
        return answer if answer["room"] == first["room"] else None

    # the listing is published at each beat: the second player may come before it
    second = until(second_seated, "a quick-play table of process 0 filled through process 1")
    assert second["seat"] != first["seat"]


def test_chat_reaches_people_on_the_other_process(cluster: Cluster) -> None:
    a, b = cluster.processes
    made, joined = two_people(cluster, "qute")
    ann = Client(a, made["room"], made["token"])
    bob = Client(b, made["room"], joined["token"])
    try:
        ann.join()
        bob.join()
        bob.send(type="chat", room=made["room"], token=joined["token"], text="hello Ann")
        line = until(lambda: next_chat(ann), "Bob's line reaching Ann on the other process")
        assert line["text"] == "hello Ann" and line["seat"] == 1
    finally:
        ann.close()
        bob.close()


def test_a_killed_owner_is_taken_over_and_no_acknowledged_move_is_lost(
    tmp_path: Path,
) -> None:
    with Cluster(2, redis=True, ai_workers=1, workdir=tmp_path) as own:
        a, b = own.processes
        made, joined = two_people(own, "qute")
        room = made["room"]
        bob = Client(b, room, joined["token"])  # on process 1; process 0 owns the room
        try:
            current = bob.join()
            acked: list[int] = []
            ann = Client(a, room, made["token"])
            try:
                ann.join()
                # play a few moves on both seats: each acknowledged version is kept
                for _ in range(4):
                    for client in (ann, bob):
                        state = state_of(client, lambda m: True)
                        legal = state["view"]["legal"]
                        if legal and not state["view"]["over"]:
                            answer = client.act(legal[0], state["version"])
                            if answer["type"] == "state":
                                acked.append(answer["version"])
            finally:
                ann.close()
            assert acked, "no move was played"
            own.kill(0)
            # bob's connection (forwarded to the dead owner) is closed with 1012
            with pytest.raises(ConnectionClosed) as closed:
                until_closed(bob)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            bob.close()
            # bob reconnects (to process 1: the other is dead): it takes the room over
            back = Client(b, room, joined["token"])
            try:
                state = back.join()
                assert state["version"] >= max(acked), (state["version"], acked)
                legal = state["view"]["legal"]
                if legal and not state["view"]["over"]:
                    answer = back.act(legal[0], state["version"])
                    assert answer["type"] == "state", answer
            finally:
                back.close()
        finally:
            bob.close()
        status, summary = http("GET", own.url + f"/api/rooms/{room}")
        assert status == 200 and summary["version"] >= max(acked)
        del current


def next_chat(client: Client) -> dict[str, Any] | None:
    """The next chat frame ``client`` receives within a second, if any."""
    frame = client.recv(1.0)
    return frame if frame is not None and frame.get("type") == "chat" else None


def until_closed(client: Client, timeout: float = 20.0) -> None:
    """Read ``client`` until its connection is closed (``ConnectionClosed`` goes up)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        client.recv(1.0)
    raise AssertionError("the connection was never closed")


def test_accounts_span_the_processes(cluster: Cluster) -> None:
    """Signed in on either process: a rated room made on one is joined through the other, a
    second device resumes its seat through the other (the owner gives the key), and the game's
    ratings are updated once, by the room's owner."""
    from .test_accounts import Browser, create, fresh, play_out, wait_for

    a, b = cluster.processes
    ann, bob = fresh("Ann"), fresh("Bob")
    laptop = Browser(a)
    laptop.sign_up(ann)
    Browser(b).sign_up(bob)
    status, made = create(laptop, ["human", "human"], rated=True)
    assert status == 201
    bobs = Browser(b)
    bobs.call("POST", "/api/account/signin", {"name": bob, "password": "correct horse"})
    status, joined = bobs.call("POST", f"/api/rooms/{made['room']}/join", {})
    assert status == 200 and joined["seat"] == 1
    phone = Browser(b)
    phone.call("POST", "/api/account/signin", {"name": ann, "password": "correct horse"})
    status, resumed = phone.call("POST", f"/api/account/tables/{made['room']}/resume")
    assert status == 200 and resumed["seat"] == made["seat"], resumed
    play_out(b, made["room"], [resumed["token"], joined["token"]])
    for name in (ann, bob):
        rating = wait_for(
            lambda n=name: (
                laptop.call("GET", f"/api/players/{n}")[1]["games"].get("kaboo", {}).get("rating")
            )
        )
        assert rating["games"] == 1  # rated once, not once per process
