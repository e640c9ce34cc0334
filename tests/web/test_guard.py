"""The server's guards (docs/protocol.md, "Limits"): same-origin only, security headers, rate
limits and quotas per client address, and timeouts on half-sent requests.

Against the real server (``cardtable serve`` under uvicorn): the origin and header checks on the
module server of SQLite and PostgreSQL, the limits on servers of their own started with small
limits. Linux routes all of 127.0.0.0/8 to the loopback, so a client bound to 127.0.0.2 is
another address to the server: that is how the limits are shown to be per address.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from cardtable.web import connections as connections_module
from cardtable.web import guard as guard_module
from cardtable.web.connections import guarded_http_protocol
from cardtable.web.guard import (
    CONTENT_SECURITY_POLICY,
    DOCS_CONTENT_SECURITY_POLICY,
    Guard,
    Limits,
    Rate,
    RateLimits,
    SameOrigin,
    client_address,
    normalize_origin,
)

from ..webserver import Server, free_port, running_server

OTHER = "127.0.0.2"
"""A second client address (the loopback answers every 127.x.y.z)."""

EVIL = "http://evil.example"


# -- helpers ---------------------------------------------------------------------------------


class Answer:
    """An HTTP answer: status, headers (lower-case names) and the decoded JSON (or text)."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        try:
            self.json: Any = json.loads(body)
        except ValueError:
            self.json = body.decode("utf-8", "replace")


def request(
    server: Server,
    method: str,
    path: str,
    body: Any = None,
    *,
    origin: str | None = None,
    source: str = "127.0.0.1",
    headers: dict[str, str] | None = None,
) -> Answer:
    """One HTTP request from address ``source``, with ``Origin: origin`` if given."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=30, source_address=(source, 0)
    )
    sent = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["content-type"] = "application/json"
    if origin is not None:
        sent["origin"] = origin
    try:
        conn.request(method, path, body=data, headers=sent)
        resp = conn.getresponse()
        return Answer(resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
    finally:
        conn.close()


def ws_connect(
    server: Server, *, origin: str | None = None, source: str = "127.0.0.1"
) -> ClientConnection:
    """A WebSocket to ``/ws`` from address ``source`` (with ``Origin`` if given)."""
    sock = socket.socket()
    sock.settimeout(10)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", server.port))
    try:
        return connect(
            server.ws_url,
            sock=sock,
            origin=Origin(origin) if origin is not None else None,
            open_timeout=10,
            proxy=None,
        )
    except BaseException:
        sock.close()
        raise


def refused(server: Server, **kwargs: Any) -> InvalidStatus:
    """The handshake refusal a WebSocket gets."""
    with pytest.raises(InvalidStatus) as info:
        ws_connect(server, **kwargs).close()
    return info.value


def refusal_detail(exc: InvalidStatus) -> str:
    """The JSON ``detail`` of a refused handshake."""
    detail = json.loads(exc.response.body or b"{}")["detail"]
    assert isinstance(detail, str)
    return detail


def ping(ws: ClientConnection, msg_id: Any) -> dict[str, Any]:
    """Send a ping and return the next frame."""
    ws.send(json.dumps({"type": "ping", "id": msg_id}))
    frame: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return frame


def room_body(marker: str, seats: int = 2) -> dict[str, Any]:
    """A create body for a public qute room whose creator is named ``marker``."""
    return {
        "game": "qute" if seats <= 4 else "gabo",
        "seats": [{"type": "human"}] * seats,
        "name": marker,
        "public": True,
        "autostart": False,
    }


def lobby_names(server: Server) -> set[str]:
    """The seat names of every room of the lobby."""
    answer = request(server, "GET", "/api/rooms")
    assert answer.status == 200
    return {s["name"] for room in answer.json["rooms"] for s in room["seats"] if s["name"]}


def marker() -> str:
    """A display name no other room has."""
    return "G" + uuid.uuid4().hex[:10]


def wait_out(answer: Answer) -> None:
    """Sleep for the ``Retry-After`` of a ``429``, and a little more."""
    time.sleep(int(answer.headers["retry-after"]) + 0.3)


def assert_429(answer: Answer, window: int) -> None:
    """A rate-limit answer: ``429``, a ``Retry-After`` within the window, a JSON detail."""
    assert answer.status == 429, answer.json
    assert 1 <= int(answer.headers["retry-after"]) <= window
    assert isinstance(answer.json["detail"], str) and "too many" in answer.json["detail"]


@contextlib.contextmanager
def limited_server(tmp_path: Path, *args: str) -> Iterator[Server]:
    """A server of its own, SQLite, with ``args`` on its command line."""
    with running_server(tmp_path, ai_delay=0.0, extra_args=args) as srv:
        yield srv


# -- same origin -----------------------------------------------------------------------------


def test_cross_origin_posts_are_refused_and_change_nothing(server: Server) -> None:
    made = request(server, "POST", "/api/rooms", room_body(marker(), 3))
    assert made.status == 201
    room = made.json["room"]
    before = request(server, "GET", f"/api/rooms/{room}").json
    name = marker()
    own_port_elsewhere = f"http://127.0.0.1:{server.port + 1}"
    for origin in (EVIL, "null", own_port_elsewhere, f"https://127.0.0.1:{server.port}", "x"):
        answer = request(server, "POST", "/api/rooms", room_body(name), origin=origin)
        assert answer.status == 403, (origin, answer.json)
        assert answer.json == {"detail": "cross-origin requests are refused"}
        answer = request(server, "POST", f"/api/rooms/{room}/join", {"name": name}, origin=origin)
        assert answer.status == 403, (origin, answer.json)
    assert name not in lobby_names(server)
    assert request(server, "GET", f"/api/rooms/{room}").json == before
    # reading is not refused (a page of another site cannot read the answer anyway)
    assert request(server, "GET", f"/api/rooms/{room}", origin=EVIL).status == 200
    # same origin, in any case and with the default port spelled out or not, and no origin
    same = request(server, "POST", "/api/rooms", room_body(name), origin=server.url.upper())
    assert same.status == 201, same.json
    joined = request(server, "POST", f"/api/rooms/{room}/join", {"name": name}, origin=server.url)
    assert joined.status == 200, joined.json
    assert request(server, "POST", f"/api/rooms/{room}/join", {}).status == 200
    assert name in lobby_names(server)


def test_cross_origin_websockets_are_refused(server: Server) -> None:
    for origin in (EVIL, "null", f"http://localhost:{server.port}"):
        exc = refused(server, origin=origin)
        assert exc.response.status_code == 403
        assert "cross-origin" in refusal_detail(exc)
    for origin in (server.url, None):
        with ws_connect(server, origin=origin) as ws:
            assert ping(ws, 1) == {"type": "pong", "id": 1}


def test_allowed_origins(tmp_path: Path) -> None:
    friend = "https://friend.example:8443"
    with limited_server(
        tmp_path, "--allow-origin", friend + "/", "--allow-origin", "HTTP://Other.Example:80"
    ) as srv:
        name = marker()
        for origin in (friend, "http://other.example"):
            answer = request(srv, "POST", "/api/rooms", room_body(name), origin=origin)
            assert answer.status == 201, (origin, answer.json)
            with ws_connect(srv, origin=origin) as ws:
                assert ping(ws, "x")["type"] == "pong"
        assert request(srv, "POST", "/api/rooms", room_body(name), origin=EVIL).status == 403
        assert refused(srv, origin="https://friend.example").response.status_code == 403
        assert request(srv, "POST", "/api/rooms", room_body(name), origin=srv.url).status == 201


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--allow-origin", "friend.example"], "not an origin"),
        (["--allow-origin", "https://friend.example/path"], "not an origin"),
        (["--rate-rooms", "lots"], "--rate-rooms"),
        (["--rate-messages", "5/0"], "--rate-messages"),
        (["--max-connections", "-1"], "--max-connections"),
        (["--ws-max-size", "100"], "--ws-max-size"),
        (["--header-timeout", "-2"], "--header-timeout"),
        (["--db", "nonsense"], "--db: 'nonsense' is not a database URL"),
        (["--db", "sqlite:///x.db"], "sqlite+aiosqlite://"),
        (["--db", "postgresql://u@h/d"], "postgresql+asyncpg://"),
        (["--db", "mysql+aiomysql://u@h/d"], "SQLite or PostgreSQL, not mysql"),
    ],
)
def test_bad_options_stop_the_server_at_once(tmp_path: Path, args: list[str], words: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", "serve", "--port", str(free_port()), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    said = " ".join((done.stdout + done.stderr).split())  # the error may wrap
    assert words in said
    assert "Traceback" not in said


def test_origin_rule_unit() -> None:
    assert normalize_origin("HTTP://Example.ORG:80") == "http://example.org"
    assert normalize_origin("https://example.org:443/") == "https://example.org"
    assert normalize_origin("https://[::1]:8443") == "https://[::1]:8443"
    for bad in ("null", "", "ftp://example.org", "https://u@example.org", "https://e.org/x"):
        assert normalize_origin(bad) is None, bad
    assert normalize_origin("http://example.org:99999") is None

    async def app(_scope: Any, _receive: Any, _send: Any) -> None:
        raise AssertionError

    rule = SameOrigin(app, ["https://friend.example"])

    def scope(origin: str | None, host: str, scheme: str = "ws") -> dict[str, Any]:
        headers = [(b"host", host.encode())]
        if origin is not None:
            headers.append((b"origin", origin.encode()))
        return {"type": "websocket", "scheme": scheme, "headers": headers}

    assert rule.allows(scope(None, "a.example"))
    assert rule.allows(scope("http://a.example", "a.example"))
    assert rule.allows(scope("https://a.example", "a.example:443", "wss"))
    assert not rule.allows(scope("https://a.example", "a.example"))  # the scheme differs
    assert not rule.allows(scope("http://a.example", "b.example"))
    assert not rule.allows(scope("null", "a.example"))
    assert rule.allows(scope("https://friend.example", "a.example"))
    with pytest.raises(ValueError, match="not an origin"):
        SameOrigin(app, ["friend.example"])


# -- security headers ------------------------------------------------------------------------


HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


def test_every_answer_has_the_security_headers(server: Server) -> None:
    big = "x" * 20_000
    cases = [
        ("GET", "/", None, 200),
        ("GET", "/r/abc", None, 200),
        ("GET", "/static/app.js", None, 200),
        ("GET", "/static/style.css", None, 200),
        ("GET", "/api/variants", None, 200),
        ("GET", "/api/rooms/nope", None, 404),
        ("GET", "/static/nope.js", None, 404),
        ("POST", "/api/rooms", {"game": 5}, 422),
        ("POST", "/api/rooms", {"game": big}, 413),
        ("POST", "/api/rooms", {}, 403),  # cross-origin, below
    ]
    for method, path, body, status in cases:
        origin = EVIL if status == 403 else None
        answer = request(server, method, path, body, origin=origin)
        assert answer.status == status, (path, answer.status)
        assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        for key, value in HEADERS.items():
            assert answer.headers[key] == value, (path, key)
    page = request(server, "GET", "/")
    assert "text/html" in page.headers["content-type"]
    assert "<script" not in page.json.replace('<script type="module" src="/static/app.js">', "")
    docs = request(server, "GET", "/api/docs")
    assert docs.status == 200
    assert docs.headers["content-security-policy"] == DOCS_CONTENT_SECURITY_POLICY
    assert docs.headers["x-frame-options"] == "DENY"


# -- rate limits -----------------------------------------------------------------------------


def test_the_default_limits(tmp_path: Path) -> None:
    """Without limit flags: 20 rooms a minute, 32 connections at once (docs/protocol.md)."""
    with running_server(tmp_path, ai_delay=0.0, generous_limits=False) as srv:
        name = marker()
        for _ in range(20):
            assert request(srv, "POST", "/api/rooms", room_body(name)).status == 201
        answer = request(srv, "POST", "/api/rooms", room_body(name))
        assert_429(answer, 60)
        assert "at most 20 a minute" in answer.json["detail"]
        with contextlib.ExitStack() as stack:
            for _ in range(32):
                stack.enter_context(ws_connect(srv))
            exc = refused(srv)
            assert exc.response.status_code == 429 and "at most 32" in refusal_detail(exc)


def test_room_creations_are_limited_per_address(tmp_path: Path) -> None:
    with limited_server(tmp_path, "--rate-rooms", "3/5") as srv:
        name = marker()
        for _ in range(3):
            assert request(srv, "POST", "/api/rooms", room_body(name)).status == 201
        late = marker()
        answer = request(srv, "POST", "/api/rooms", room_body(late))
        assert_429(answer, 5)
        assert "new rooms" in answer.json["detail"]
        assert late not in lobby_names(srv)  # refused before anything was created
        assert request(srv, "GET", "/api/levels").status == 200  # other requests go on
        # another address has its own quota
        assert request(srv, "POST", "/api/rooms", room_body(late), source=OTHER).status == 201
        wait_out(answer)
        assert request(srv, "POST", "/api/rooms", room_body(name)).status == 201


def test_a_refusal_is_held_before_it_is_answered(tmp_path: Path) -> None:
    with limited_server(tmp_path, "--rate-rooms", "1/30", "--tarpit", "3") as srv:
        assert request(srv, "POST", "/api/rooms", room_body(marker())).status == 201
        answers: list[Answer] = []
        began = time.monotonic()
        refused = threading.Thread(
            target=lambda: answers.append(request(srv, "POST", "/api/rooms", room_body(marker())))
        )
        refused.start()
        # while the refusal is held, the address's other requests are answered
        assert request(srv, "GET", "/api/levels").status == 200
        assert refused.is_alive() and not answers
        refused.join()
        assert answers[0].status == 429
        assert time.monotonic() - began >= 1.4  # held (3 s, less up to a half), not at once


def test_held_refusals_are_capped_per_address() -> None:
    async def scenario() -> None:
        async def app(scope: Any, receive: Any, send: Any) -> None:
            raise AssertionError("a refused request reached the application")

        limits = Limits(requests=Rate(1, 60), tarpit=0.3, tarpit_hold=2)
        guard_mw = RateLimits(app, Guard(limits))
        answers: list[tuple[int, bool]] = []

        async def one() -> None:
            sent: list[dict[str, Any]] = []

            async def send(message: dict[str, Any]) -> None:
                sent.append(message)

            async def receive() -> dict[str, Any]:
                return {"type": "http.request", "body": b"", "more_body": False}

            scope = {"type": "http", "method": "GET", "path": "/", "client": ("10.1.1.1", 5)}
            await guard_mw(scope, receive, send)
            start = sent[0]
            answers.append((start["status"], (b"connection", b"close") in start["headers"]))

        sent_first: list[dict[str, Any]] = []

        async def ok_app(scope: Any, receive: Any, send: Any) -> None:
            sent_first.append(scope)

        await RateLimits(ok_app, guard_mw.guard)(
            {"type": "http", "method": "GET", "path": "/", "client": ("10.1.1.1", 5)},
            None,  # type: ignore[arg-type]
            None,  # type: ignore[arg-type]
        )
        assert len(sent_first) == 1  # the one request the quota allows
        loop = asyncio.get_running_loop()
        began = loop.time()
        await asyncio.gather(*(one() for _ in range(5)))
        assert [status for status, _ in answers] == [429] * 5
        # three answered at once, closing their connection; two held for the tarpit
        assert sorted(closed for _, closed in answers) == [False, False, True, True, True]
        assert loop.time() - began >= 0.14  # 0.3 s, less up to a half
        assert guard_mw.guard.held == {}

    asyncio.run(scenario())


def test_seat_joins_are_limited_per_address(tmp_path: Path) -> None:
    with limited_server(tmp_path, "--rate-joins", "2/5") as srv:
        made = request(srv, "POST", "/api/rooms", room_body(marker(), 8), source=OTHER)
        room = made.json["room"]
        path = f"/api/rooms/{room}/join"
        for _ in range(2):
            assert request(srv, "POST", path, {}).status == 200
        answer = request(srv, "POST", path, {"name": "Late"})
        assert_429(answer, 5)
        assert "seat joins" in answer.json["detail"]
        seats = request(srv, "GET", f"/api/rooms/{room}").json["seats"]
        assert sum(s["taken"] for s in seats) == 3 and "Late" not in [s["name"] for s in seats]
        assert request(srv, "POST", path, {}, source=OTHER).status == 200
        wait_out(answer)
        assert request(srv, "POST", path, {}).status == 200


def test_requests_are_limited_per_address(tmp_path: Path) -> None:
    with limited_server(tmp_path, "--rate-requests", "8/5") as srv:
        # OTHER has made no request yet (the start-up check came from 127.0.0.1)
        for _ in range(8):
            assert request(srv, "GET", "/api/levels", source=OTHER).status == 200
        answer = request(srv, "GET", "/static/app.js", source=OTHER)
        assert_429(answer, 5)
        assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        # a forwarded-for header is not believed without --trust-proxy
        spoofed = request(
            srv, "GET", "/api/levels", source=OTHER, headers={"x-forwarded-for": "10.1.2.3"}
        )
        assert spoofed.status == 429
        exc = refused(srv, source=OTHER)  # a handshake is a request too
        assert exc.response.status_code == 429 and exc.response.headers["retry-after"]
        assert request(srv, "GET", "/api/levels").status == 200  # 127.0.0.1 is not throttled
        wait_out(answer)
        assert request(srv, "GET", "/api/levels", source=OTHER).status == 200


def test_trusted_proxy_gives_the_client_address(tmp_path: Path) -> None:
    with limited_server(tmp_path, "--rate-requests", "3/30", "--trust-proxy", OTHER) as srv:
        via_proxy = {"x-forwarded-for": "10.9.9.9"}
        for _ in range(3):
            answer = request(srv, "GET", "/api/levels", source=OTHER, headers=via_proxy)
            assert answer.status == 200
        assert request(srv, "GET", "/api/levels", source=OTHER, headers=via_proxy).status == 429
        other_client = {"x-forwarded-for": "10.8.8.8"}
        assert request(srv, "GET", "/api/levels", source=OTHER, headers=other_client).status == 200


def test_websocket_messages_are_limited_per_connection(tmp_path: Path) -> None:
    # 5 a second on average: 10 in each 2-second window
    with limited_server(tmp_path, "--rate-messages", "5") as srv, ws_connect(srv) as ws:
        for n in range(12):
            ws.send(json.dumps({"type": "ping", "id": n}))
        frames = [json.loads(ws.recv(timeout=10)) for _ in range(11)]
        assert frames[:10] == [{"type": "pong", "id": n} for n in range(10)]
        refused = frames[10]  # the 11th is refused, unread
        assert refused["type"] == "error" and refused["code"] == "rate_limited"
        assert "id" not in refused and "too many messages" in refused["message"]
        # the server reads nothing more from the connection until the window ends ...
        with contextlib.suppress(TimeoutError):
            extra = ws.recv(timeout=0.5)
            raise AssertionError(f"unexpected frame {extra}")
        # ... while another connection of the same address has its own count
        with ws_connect(srv) as other:
            assert ping(other, "o") == {"type": "pong", "id": "o"}
        # then the 12th, which waited in the socket, is read and served; the socket stays open
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong", "id": 11}
        assert ping(ws, "again") == {"type": "pong", "id": "again"}


def test_a_flooding_connection_is_closed(tmp_path: Path) -> None:
    args = ("--rate-messages", "5", "--flood-close", "2")
    with limited_server(tmp_path, *args) as srv, ws_connect(srv) as ws:
        codes: list[str] = []
        try:
            for n in range(40):  # far more than two windows hold
                ws.send(json.dumps({"type": "ping", "id": n}))
            while True:
                frame = json.loads(ws.recv(timeout=10))
                codes.append(frame.get("code", frame["type"]))
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1008
        # a window's worth served, one refused; after the pause the same again; then closed
        window = ["pong"] * 10 + ["rate_limited"]
        assert codes == window + window


def test_open_connections_are_capped_per_address(tmp_path: Path) -> None:
    with (
        limited_server(tmp_path, "--max-connections", "3") as srv,
        contextlib.ExitStack() as stack,
    ):
        socks = [stack.enter_context(ws_connect(srv)) for _ in range(3)]
        exc = refused(srv)
        assert exc.response.status_code == 429
        assert "at most 3" in refusal_detail(exc)
        with ws_connect(srv, source=OTHER) as other:  # another address
            assert ping(other, 1)["type"] == "pong"
        for n, ws in enumerate(socks):  # the open ones are unaffected
            assert ping(ws, n) == {"type": "pong", "id": n}
        socks[0].close()
        deadline = time.monotonic() + 10
        while True:  # the server counts the closed one out once it has seen it go
            try:
                again = ws_connect(srv)
                break
            except InvalidStatus as err:
                assert err.response.status_code == 429
                assert time.monotonic() < deadline, "the closed connection still counts"
                time.sleep(0.1)
        with again:
            assert ping(again, "x")["type"] == "pong"


def test_ws_max_size(tmp_path: Path) -> None:
    with limited_server(tmp_path, "--ws-max-size", "8192") as srv, ws_connect(srv) as ws:
        ws.send(json.dumps({"type": "ping", "pad": "x" * 6000}))
        assert json.loads(ws.recv(timeout=10))["code"] == "too_large"
        assert ping(ws, 1)["type"] == "pong"
        ws.send(json.dumps({"type": "ping", "pad": "x" * 9000}))
        with pytest.raises(ConnectionClosed) as info:
            ws.recv(timeout=10)
        assert info.value.rcvd is not None and info.value.rcvd.code == 1009


def test_client_address_unit() -> None:
    assert client_address({"client": ("192.0.2.7", 5)}) == "192.0.2.7"
    assert client_address({"client": ("::ffff:192.0.2.7", 5)}) == "192.0.2.7"
    same = {client_address({"client": (a, 5)}) for a in ("2001:db8:1:2::1", "2001:db8:1:2:ff::9")}
    assert same == {"2001:db8:1:2::/64"}
    assert client_address({"client": ("2001:db8:1:3::1", 5)}) == "2001:db8:1:3::/64"
    assert client_address({"client": None}) == "unknown"
    assert client_address({"client": ("testclient", 5)}) == "testclient"


def test_guard_counts_and_forgets() -> None:
    # a long window for the counting (a slow machine cannot see it end between two hits)
    limits = Limits(rooms=Rate(2, 60), messages=Rate(3, 1), message_burst=3)
    assert limits.message_window == Rate(3, 1)
    assert Limits().message_window == Rate(40, 2)
    assert Limits(messages=Rate(7, 1)).message_window == Rate(14, 2)
    assert Rate.parse("20", 60) == Rate(20, 60) and Rate.parse(" 5/10 ", 60) == Rate(5, 10)
    assert not Rate.parse("0", 60).enabled
    for bad in ("x", "-1", "3/0", "1/2/3"):
        with pytest.raises(ValueError):
            Rate.parse(bad, 60)
    with pytest.raises(ValueError):
        Limits(messages=Rate(20, 1), message_burst=5)
    guard = Guard(limits)
    assert guard.hit("rooms", "a") is None and guard.hit("rooms", "a") is None
    wait = guard.hit("rooms", "a")
    assert wait is not None and 0 < wait <= 60
    assert guard.hit("rooms", "b") is None
    gate = guard.message_gate()
    assert [gate.allow() for _ in range(5)] == [True, True, True, False, False]
    assert gate.refused_in_a_row == 2 and not gate.flooding and gate.close_code == 1000
    assert guard.message_gate().allow()  # each connection has its own window
    unlimited = Guard(Limits.unlimited())
    assert all(unlimited.hit("requests", "a") is None for _ in range(1000))
    # memory follows the addresses seen lately: keys expire with their (short) window
    short = Guard(Limits(rooms=Rate(2, 1)))
    for n in range(5000):
        short.hit("rooms", f"10.0.{n // 256}.{n % 256}")
    assert short.tracked_keys() >= 5000
    deadline = time.monotonic() + 60  # a bound on waiting, not a measure of speed
    while short.tracked_keys() > 30:
        assert time.monotonic() < deadline, short.tracked_keys()
        time.sleep(0.2)
        short.hit("rooms", "z")  # the storage sweeps expired keys as it is used


# -- half-sent requests ----------------------------------------------------------------------


def closed_within(socks: Sequence[socket.socket], seconds: float) -> list[bytes]:
    """Wait until every socket is closed by the server (or ``seconds`` pass); returns what
    each received."""
    got = [b""] * len(socks)
    deadline = time.monotonic() + seconds
    pending = set(range(len(socks)))
    while pending and time.monotonic() < deadline:
        for i in list(pending):
            socks[i].settimeout(0.05)
            try:
                data = socks[i].recv(4096)
            except TimeoutError:
                continue
            except ConnectionResetError:
                data = b""
            if data:
                got[i] += data
            else:
                pending.discard(i)
    assert not pending, f"{len(pending)} connections still open after {seconds} s"
    return got


def test_half_sent_requests_are_closed(tmp_path: Path) -> None:
    timeout = 2.0
    with limited_server(tmp_path, "--header-timeout", str(timeout)) as srv:
        socks = [socket.create_connection(("127.0.0.1", srv.port)) for _ in range(50)]
        try:
            for s in socks[:40]:
                s.sendall(b"GET /api/levels HT")  # half a request line
            for s in socks[40:45]:
                s.sendall(b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # half a head
            for s in socks[45:]:  # a head, and half of its body
                s.sendall(
                    b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"content-type: application/json\r\n"
                    b"content-length: 40\r\n\r\n{"
                )
            # meanwhile an ordinary request is answered
            assert request(srv, "GET", "/api/levels").status == 200
            got = closed_within(socks, timeout + 10)
            for data in got[:45]:
                assert data.startswith(b"HTTP/1.1 408 "), data
            assert all(not data for data in got[45:])  # a half body: closed without answer
            assert request(srv, "GET", "/api/levels").status == 200
            # a connection that sends nothing is closed too
            silent = socket.create_connection(("127.0.0.1", srv.port))
            socks.append(silent)
            assert closed_within([silent], timeout + 10) == [b""]
            # a request head over the limit is refused at once
            big = socket.create_connection(("127.0.0.1", srv.port))
            socks.append(big)
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                big.sendall(b"GET /" + b"a" * (guard_module.MAX_HEAD_BYTES + 10))
            (answer,) = closed_within([big], timeout + 10)
            assert answer.startswith(b"HTTP/1.1 431 "), answer[:80]
        finally:
            for s in socks:
                s.close()


@pytest.mark.parametrize("kind", ["httptools", "h11"])
def test_read_deadline_of_each_http_protocol(kind: str) -> None:
    """Both protocol classes (httptools' is the one the server uses when it is installed)."""
    protocol = (
        guarded_http_protocol(1.0) if kind == "httptools" else connections_module._h11_protocol(1.0)
    )

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, http=protocol, lifespan="off", log_level="error"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        half = socket.create_connection(("127.0.0.1", port))
        half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        whole = socket.create_connection(("127.0.0.1", port))
        whole.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        whole.settimeout(10)
        assert whole.recv(4096).startswith(b"HTTP/1.1 200 ")
        closed_within([half], 10)
        # a kept-alive connection gets the deadline again for its next request
        whole.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        closed_within([whole], 10)
        half.close()
        whole.close()
    finally:
        server.should_exit = True
        thread.join(10)


def test_the_servers_rooms_a_second_are_shared_between_addresses() -> None:
    async def scenario() -> None:
        reached: list[str] = []

        async def app(scope: Any, receive: Any, send: Any) -> None:
            reached.append(scope["client"][0])
            await send({"type": "http.response.start", "status": 201, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})

        limits = Limits(server_rooms=4, tarpit=0.0)
        guard_mw = RateLimits(app, Guard(limits))

        async def create(address: str, path: str = "/api/rooms") -> tuple[int, dict[bytes, bytes]]:
            sent: list[dict[str, Any]] = []

            async def send(message: dict[str, Any]) -> None:
                sent.append(message)

            async def receive() -> dict[str, Any]:
                return {"type": "http.request", "body": b"{}", "more_body": False}

            scope = {"type": "http", "method": "POST", "path": path, "client": (address, 5)}
            await guard_mw(scope, receive, send)
            return sent[0]["status"], dict(sent[0]["headers"])

        # one address spends the second's budget, then is refused; another still gets its share
        flood = [await create("10.9.0.1") for _ in range(6)]
        assert [status for status, _ in flood] == [201] * 4 + [429] * 2
        headers = flood[-1][1]
        assert headers[b"retry-after"] == b"1" and headers[b"connection"] == b"close"
        assert (await create("10.9.0.2"))[0] == 201
        assert (await create("10.9.0.2"))[0] == 201  # its share is half the budget
        assert (await create("10.9.0.1"))[0] == 429
        # quick play may open a room: it counts too; other requests do not
        assert (await create("10.9.0.1", "/api/quickplay"))[0] == 429
        assert (await create("10.9.0.1", "/api/rooms/abc/join"))[0] == 201
        assert reached.count("10.9.0.1") == 5 and reached.count("10.9.0.2") == 2

    asyncio.run(scenario())


def test_counting_requests_starts_no_thread() -> None:
    guard = Guard(Limits(requests=Rate(5, 1)))
    before = threading.active_count()
    for n in range(2000):
        guard.hit("requests", f"10.8.{n // 256}.{n % 256}")
    assert threading.active_count() <= before
    assert guard.tracked_keys() >= 2000
