"""A small synchronous WebSocket client of the cardtable protocol, for tests."""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from ..webserver import Server, http

__all__ = ["Client", "create_room", "join_room", "seat_spec"]

_ids = itertools.count(1)


def seat_spec(seat: str) -> dict[str, Any]:
    """A seat of a create body from ``"human"``, ``"human+aid"`` (a person with memory aid)
    or an AI level."""
    if seat == "human":
        return {"type": "human"}
    if seat == "human+aid":
        return {"type": "human", "memory_aid": True}
    return {"type": "ai", "level": seat}


def create_room(server: Server, game: str, seats: list[str], **body: Any) -> dict[str, Any]:
    """POST /api/rooms with seats as :func:`seat_spec` reads them; returns the answer."""
    spec = [seat_spec(s) for s in seats]
    status, answer = http("POST", server.url + "/api/rooms", {"game": game, "seats": spec, **body})
    assert status == 201, answer
    assert isinstance(answer, dict)
    return answer


def join_room(server: Server, room: str, name: str | None = None) -> dict[str, Any]:
    """POST /api/rooms/{room}/join; returns the answer (seat and token)."""
    status, answer = http("POST", f"{server.url}/api/rooms/{room}/join", {"name": name})
    assert status == 200, answer
    assert isinstance(answer, dict)
    return answer


class Client:
    """One connection; keeps every frame it received and the latest state."""

    def __init__(self, server: Server, room: str | None = None, token: str | None = None) -> None:
        self.ws: ClientConnection = connect(
            server.ws_url, max_size=None, open_timeout=10
        ).__enter__()
        self.room = room
        self.token = token
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.join_ids: set[int] = set()
        """Ids of the ``join`` messages sent (their answers carry them)."""

    def close(self) -> None:
        """Close the connection."""
        self.ws.close()

    def send_raw(self, data: str | bytes) -> None:
        """Send one frame as is."""
        self.ws.send(data)

    def send(self, **msg: Any) -> None:
        """Send one JSON message."""
        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next frame, or ``None`` if none arrives within ``timeout``."""
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        frame: dict[str, Any] = json.loads(text)
        self.frames.append(frame)
        if frame.get("type") == "state":
            self.state = frame
        return frame

    def drain(self, quiet: float = 0.0) -> None:
        """Read frames until none arrives for ``quiet`` seconds (0: those already waiting)."""
        while self.recv(quiet) is not None:
            pass

    def reply(self, msg_id: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Read frames until the one answering ``msg_id``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            frame = self.recv(max(0.0, deadline - time.monotonic()))
            if frame is not None and frame.get("id") == msg_id:
                return frame
        raise AssertionError(f"no answer to message {msg_id} within {timeout} s")

    def request(self, **msg: Any) -> dict[str, Any]:
        """Send a message with a fresh id and return its answer."""
        msg_id = next(_ids)
        self.send(id=msg_id, **msg)
        return self.reply(msg_id)

    def join(self) -> dict[str, Any]:
        """Join the room (as the token's seat, or as a spectator) and return the state."""
        msg_id = next(_ids)
        self.join_ids.add(msg_id)
        self.send(id=msg_id, type="join", room=self.room, token=self.token)
        return self.reply(msg_id)

    def act(self, action: str, version: int | None = None) -> dict[str, Any]:
        """Play an action based on the latest state (or ``version``); return the answer."""
        if version is None:
            assert self.state is not None
            version = self.state["version"]
        return self.request(
            type="act", room=self.room, token=self.token, action=action, version=version
        )

    def wait(self, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        """Read frames until the latest state satisfies ``pred``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            if self.state is not None and pred(self.state):
                return self.state
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"state never matched; last: {self.state}")
            try:
                self.recv(left)
            except ConnectionClosed as err:
                raise AssertionError("the server closed the connection") from err

    def my_turn(self) -> bool:
        """Whether the latest state lets this seat act."""
        return bool(self.state and self.state["view"] and self.state["view"]["legal"])
