"""A cluster process that is asked to stop (SIGTERM) hands its rooms over, and readiness says
what a balancer must know: two real ``cardtable serve --redis`` processes on one PostgreSQL and
one Redis, behind HAProxy (tests/cluster.py).

- Draining: the owner of a room is stopped politely; its own client and a client of the other
  process (whose messages it was forwarded) are both closed with 1012, ``/readyz`` of the
  stopping process answers ``503`` ``draining`` until it stops listening, and the other process
  takes the room over at the same version (its lease names that process) and plays on.
- Redis out of reach: ``/readyz`` answers ``503`` with reason ``redis`` and the kind of error,
  while ``/healthz`` stays ``200``.
"""

from __future__ import annotations

import json
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from ..cluster import ID_LOGGING, Cluster
from ..webserver import http
from .client import Client, create_room, join_room

pytestmark = pytest.mark.postgres


def closed_code(client: Client, timeout: float = 20.0) -> int | None:
    """Read ``client`` until its connection is closed; the close code the server sent."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            client.recv(0.5)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None
    raise AssertionError("the connection was never closed")


def readiness(url: str) -> tuple[int, dict[str, Any]] | None:
    """``GET url/readyz``: its status and body, or None if nothing listens there any more."""
    try:
        with urllib.request.urlopen(url + "/readyz", timeout=2) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())
    except (urllib.error.URLError, ConnectionError):
        return None


def test_a_stopping_owner_hands_its_room_over_and_its_clients_reconnect(tmp_path: Path) -> None:
    with Cluster(2, redis=True, ai_workers=1, extra_args=ID_LOGGING, workdir=tmp_path) as own:
        a, b = own.processes
        made = create_room(a, "qute", ["human", "human"], options={"target": None})
        room = made["room"]
        joined = join_room(b, room, "Bob")
        assert own.owner_of(room) == 0  # a room made on process 0 is leased to it
        ann = Client(a, room, made["token"])  # on the owner
        bob = Client(b, room, joined["token"])  # on process 1: forwarded to the owner
        try:
            state = ann.join()
            bob.join()
            mover = ann if state["view"]["legal"] else bob
            moved = mover.act(mover.state["view"]["legal"][0])  # type: ignore[index]
            assert moved["type"] == "state", moved
            version = moved["version"]
            bob.wait(lambda m: m["version"] >= version)

            assert own.terminate(0, wait=False) is None
            # until it stops listening, process 0 tells the balancer to send no one new
            deadline = time.monotonic() + 20
            answer = readiness(a.url)
            while answer is not None and answer[0] == 200:
                assert time.monotonic() < deadline, "process 0 stayed ready after SIGTERM"
                answer = readiness(a.url)
            if answer is not None:
                assert answer == (503, {"status": "not ready", "reason": "draining"}), answer
            # both connections are closed with 1012: reconnect (to another process)
            assert closed_code(ann) == 1012
            assert closed_code(bob) == 1012
            # it stops cleanly (uvicorn exits by the signal it was sent, after its shutdown)
            stopping = own.servers[0]
            assert stopping.proc is not None
            assert stopping.proc.wait(30) in (0, -signal.SIGTERM), own.logs()
            assert '"level": "ERROR"' not in stopping.log(), stopping.log()
            own.wait_backend_status(0, "DOWN")
        finally:
            ann.close()
            bob.close()

        back = Client(b, room, joined["token"])
        ann_back = Client(b, room, made["token"])
        try:
            state = back.join()
            assert state["type"] == "state", state
            assert state["version"] == version  # handed over as it was: no move lost
            assert own.lease_holder(room) == own.process_id(1)
            assert own.owner_of(room) == 1
            assert ann_back.join()["version"] == version
            mover = ann_back if ann_back.my_turn() else back
            assert mover.my_turn(), mover.state
            answer_frame = mover.act(mover.state["view"]["legal"][0])  # type: ignore[index]
            assert answer_frame["type"] == "state", answer_frame
            assert answer_frame["version"] == version + 1
        finally:
            back.close()
            ann_back.close()
        status, summary = http("GET", own.url + f"/api/rooms/{room}")
        assert status == 200 and summary["version"] == version + 1, summary


def test_readiness_fails_without_redis_while_liveness_holds(tmp_path: Path) -> None:
    with Cluster(1, redis=True, ai_workers=1, workdir=tmp_path) as own:
        (only,) = own.processes
        assert readiness(only.url) == (200, {"status": "ready"})
        assert own.redis is not None
        own.redis.stop()  # the harness keeps the object; Cluster.stop() stops it again harmlessly
        deadline = time.monotonic() + 20
        answer = readiness(only.url)
        while answer is not None and answer[0] == 200:  # a ready answer is reused for 1 s
            assert time.monotonic() < deadline, "still ready with Redis gone"
            answer = readiness(only.url)
        assert answer is not None, "the process stopped listening"
        status, body = answer
        assert status == 503 and body["status"] == "not ready", body
        assert body["reason"] == "redis", body
        assert body.get("detail") == "ConnectionError", body  # redis-py's kind of error
        assert http("GET", only.url + "/healthz") == (200, {"status": "ok"})
        own.wait_backend_status(0, "DOWN")  # the balancer sends it no one
