"""Fair under load from many addresses (docs/protocol.md, "Limits"): request heads over the
limit however they arrive, the hosts the server answers to, refused handshakes counted, held
and logged once, and the budgets the server shares between addresses — its connections and
its messages a second — besides each address's messages across its connections.

Against the real server (``cardtable serve`` under uvicorn), from several loopback addresses
(Linux routes all of 127.0.0.0/8 to the loopback, so a client bound to 127.0.0.N first is
another address to the server); the budgets' arithmetic with a clock the test drives.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from cardtable.web.fairness import AddressPace, FairShare
from cardtable.web.guard import (
    ANY_HOST,
    LOCAL_HOSTS,
    MAX_HEAD_BYTES,
    AllowedHosts,
    Guard,
    Limits,
    Rate,
    allowed_hosts,
    host_name,
)

from ..webserver import Server, free_port
from .test_guard import (
    EVIL,
    Answer,
    limited_server,
    lobby_names,
    marker,
    ping,
    refusal_detail,
    refused,
    request,
    room_body,
    ws_connect,
)

HEAVY = "127.0.0.3"
"""An address that takes more than its share."""
LIGHT = "127.0.0.4"
"""An address that takes little."""


class FakeClock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def read_until_closed(sock: socket.socket, bound: float = 20.0) -> bytes:
    """What the server sends on ``sock`` until it closes it (within ``bound`` seconds)."""
    sock.settimeout(0.2)
    got = b""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        try:
            data = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return got
        if not data:
            return got
        got += data
    raise AssertionError(f"the connection stayed open; received {got[:80]!r}")


def with_host(server: Server, method: str, path: str, host: str, body: Any = None) -> Answer:
    """One HTTP request with ``Host: host`` (and ``Origin`` of the same host)."""
    return request(server, method, path, body, origin=f"http://{host}", headers={"Host": host})


def ws_with_host(server: Server, host: str, *, source: str = "127.0.0.1") -> ClientConnection:
    """A WebSocket to the server whose handshake names ``host`` (and its origin)."""
    sock = socket.socket()
    sock.settimeout(10)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", server.port))
    try:
        return connect(
            f"ws://{host}/ws", sock=sock, origin=f"http://{host}", open_timeout=10, proxy=None
        )
    except BaseException:
        sock.close()
        raise


# -- request heads ---------------------------------------------------------------------------


def head_of(size: int, port: int) -> bytes:
    """A request head of exactly ``size`` bytes (padded by one header) that asks the server to
    close the connection after its answer."""
    start = f"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
    first = (start + "X-Pad: ").encode()
    end = b"\r\n\r\n"
    return first + b"a" * (size - len(first) - len(end)) + end


def send_head(port: int, head: bytes, pieces: int) -> bytes:
    """Send ``head`` in one write or in ``pieces`` writes apart (so the server reads it in
    several reads); what the server answered before it closed the connection."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        step = -(-len(head) // pieces)
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            for at in range(0, len(head), step):
                sock.sendall(head[at : at + step])
                if pieces > 1:
                    time.sleep(0.05)  # shapes the sending into separate reads; waits for nothing
        return read_until_closed(sock)
    finally:
        sock.close()


def test_heads_over_the_limit_are_refused_in_one_read_or_many(tmp_path: Path) -> None:
    with limited_server(tmp_path) as srv:
        for size in (33_000, 40_000):
            for pieces in (1, 4):
                answer = send_head(srv.port, head_of(size, srv.port), pieces)
                assert answer.startswith(b"HTTP/1.1 431 "), (size, pieces, answer[:80])
                assert b"over 32768 bytes" in answer
        for pieces in (1, 4):  # just under the limit: answered
            answer = send_head(srv.port, head_of(MAX_HEAD_BYTES - 100, srv.port), pieces)
            assert answer.startswith(b"HTTP/1.1 200 "), (pieces, answer[:80])
        # two requests of one connection: the second head is counted from its own start
        sock = socket.create_connection(("127.0.0.1", srv.port))
        try:
            keep = head_of(20_000, srv.port).replace(b"Connection: close", b"X-Keep: yes")
            sock.sendall(keep + head_of(33_000, srv.port))
            answer = read_until_closed(sock)
        finally:
            sock.close()
        assert answer.startswith(b"HTTP/1.1 200 ") and b"HTTP/1.1 431 " in answer


# -- hosts -----------------------------------------------------------------------------------


def test_host_rule_unit() -> None:
    assert host_name("Example.ORG:8000") == "example.org"
    assert host_name("example.org.") == "example.org"
    assert host_name("[::1]:80") == "::1" and host_name("::1") == "::1"
    assert host_name("127.0.0.1:9") == "127.0.0.1"
    for bad in ("", "a b", "x:y", "[::1", "[zz]:1", "a/b", "ex\u00e4mple.org"):
        assert host_name(bad) is None, bad
    assert allowed_hosts("127.0.0.1") == LOCAL_HOSTS
    assert allowed_hosts("0.0.0.0", ["Cards.Example"]) == (*LOCAL_HOSTS, "0.0.0.0", "cards.example")
    assert ANY_HOST in allowed_hosts("127.0.0.1", ["*"])
    for bad in ("cards.example:80", "https://cards.example", "a/b", "[::1]:80", ""):
        with pytest.raises(ValueError, match="not a host name"):
            allowed_hosts("127.0.0.1", [bad])

    def allows(hosts: tuple[str, ...], host: str | None) -> bool:
        headers = [] if host is None else [(b"host", host.encode())]
        return AllowedHosts(None, hosts).allows({"headers": headers})  # type: ignore[arg-type]

    local = allowed_hosts("127.0.0.1")
    assert allows(local, "localhost:8000") and allows(local, "[::1]:8000")
    assert not allows(local, "evil.example") and not allows(local, None)
    assert not allows(local, "10.0.0.5:8000")  # an address it does not listen on
    everywhere = allowed_hosts("0.0.0.0")
    assert allows(everywhere, "10.0.0.5:8000") and allows(everywhere, "[2001:db8::1]")
    assert not allows(everywhere, "evil.example:8000")  # a name must be given
    assert allows(allowed_hosts("::", ["*"]), "evil.example")


def test_requests_to_other_hosts_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with limited_server(tmp_path, "--allowed-host", "cards.example") as srv:
        name = marker()
        # a page of evil.example whose name now points here (DNS rebinding): same origin as
        # far as the browser knows, but not a host this server answers to
        answer = with_host(srv, "POST", "/api/rooms", "evil.example", room_body(name))
        assert answer.status == 400, answer.json
        assert answer.json == {
            "detail": "this server does not answer to the host 'evil.example' (see --allowed-host)"
        }
        assert with_host(srv, "GET", "/api/rooms", f"evil.example:{srv.port}").status == 400
        assert name not in lobby_names(srv)
        with pytest.raises(InvalidStatus) as info:
            ws_with_host(srv, f"evil.example:{srv.port}").close()
        assert info.value.response.status_code == 400
        assert "does not answer to the host" in refusal_detail(info.value)
        # no Host at all
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
        try:
            conn.putrequest("GET", "/api/levels", skip_host=True)
            conn.endheaders()
            missing = conn.getresponse()
            assert missing.status == 400 and b"no Host header" in missing.read()
        finally:
            conn.close()
        # the names it answers to, with any port
        for host in (f"127.0.0.1:{srv.port}", f"localhost:{srv.port}", "cards.example"):
            made = with_host(srv, "POST", "/api/rooms", host, room_body(name))
            assert made.status == 201, (host, made.json)
            with ws_with_host(srv, host) as ws:
                assert ping(ws, host) == {"type": "pong", "id": host}
        assert name in lobby_names(srv)


def test_a_server_on_every_address_answers_ip_addresses_and_given_names(tmp_path: Path) -> None:
    with limited_server(tmp_path, "--host", "0.0.0.0") as srv:
        assert with_host(srv, "GET", "/api/levels", f"10.1.2.3:{srv.port}").status == 200
        assert with_host(srv, "GET", "/api/levels", f"[2001:db8::5]:{srv.port}").status == 200
        assert with_host(srv, "GET", "/api/levels", "evil.example").status == 400
        assert "--allowed-host NAME" in srv.log()  # told at start that names must be given


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--allowed-host", "cards.example:80"], "--allowed-host: 'cards.example:80'"),
        (["--allowed-host", "https://cards.example"], "not a host name"),
        (["--total-connections", "-1"], "--total-connections"),
        (["--rate-address-messages", "x"], "--rate-address-messages"),
        (["--rate-server-messages", "-5"], "--rate-server-messages"),
        (["--rate-server-rooms", "-1"], "--rate-server-rooms"),
        (["--ai-room-moves", "-1"], "--ai-room-moves"),
    ],
)
def test_bad_new_options_stop_the_server_at_once(
    tmp_path: Path, args: list[str], words: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", "serve", "--port", str(free_port()), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert words in done.stdout + done.stderr


def test_serve_help_shows_the_new_options() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)},
    )
    for flag in (
        "--allowed-host",
        "--total-connections",
        "--rate-address-messages",
        "--rate-server-messages",
        "--rate-server-rooms",
        "--ai-room-moves",
    ):
        assert flag in done.stdout, flag


# -- refused handshakes ----------------------------------------------------------------------


def test_refused_handshakes_are_counted_held_and_logged_once(tmp_path: Path) -> None:
    other = "127.0.0.5"
    with limited_server(tmp_path, "--rate-requests", "4/60", "--tarpit", "0.2") as srv:
        statuses = []
        for _ in range(7):
            exc = refused(srv, origin=EVIL, source=other)
            statuses.append(exc.response.status_code)
            if exc.response.status_code == 429:
                assert exc.response.headers["retry-after"]
                assert "too many requests" in refusal_detail(exc)
        # each refusal spent one of the address's requests: then 429 instead of 403
        assert statuses == [403] * 4 + [429] * 3
        for _ in range(3):  # another host is refused, counted and logged the same way
            assert refused(srv, origin=EVIL, source=LIGHT).response.status_code == 403
        assert request(srv, "GET", "/api/levels", source=LIGHT).status == 200
        assert request(srv, "GET", "/api/levels", source=LIGHT).status == 429
        log = srv.log()
        assert log.count(f"refused a WebSocket handshake from {other}") == 1
        assert log.count(f"refused a WebSocket handshake from {LIGHT}") == 1
        assert "returned without completing handshake" not in log
        assert "ERROR" not in log


# -- the server's connections, shared ---------------------------------------------------------


def test_the_servers_connections_are_shared_fairly(tmp_path: Path) -> None:
    args = ("--total-connections", "6", "--max-connections", "100")
    with limited_server(tmp_path, *args) as srv, contextlib.ExitStack() as stack:
        heavy = [stack.enter_context(ws_connect(srv, source=HEAVY)) for _ in range(6)]
        exc = refused(srv, source=HEAVY)  # full, and HEAVY holds all of it
        assert exc.response.status_code == 429
        assert "the server is full" in refusal_detail(exc)
        # LIGHT holds nothing: it gets in, up to its share (6 between two addresses: 3)
        light = [stack.enter_context(ws_connect(srv, source=LIGHT)) for _ in range(3)]
        for n, ws in enumerate(light):
            assert ping(ws, n) == {"type": "pong", "id": n}
        assert refused(srv, source=LIGHT).response.status_code == 429
        assert refused(srv, source=HEAVY).response.status_code == 429
        for n, ws in enumerate(heavy):  # the open ones are served as before
            assert ping(ws, n) == {"type": "pong", "id": n}
        for ws in heavy[:4]:  # HEAVY lets go of four: 5 open, under the cap again
            ws.close()
        deadline = time.monotonic() + 10
        while True:  # the server counts them out once it has seen them go
            try:
                again = ws_connect(srv, source=HEAVY)
                break
            except InvalidStatus as err:
                assert err.response.status_code == 429
                assert time.monotonic() < deadline, "the closed connections still count"
        with again:
            assert ping(again, "x")["type"] == "pong"


def test_guard_shares_connections_unit() -> None:
    guard = Guard(Limits(total_connections=4, connections=0))
    for _ in range(4):
        assert not guard.server_full("a")
        guard.opened("a")
    assert guard.server_full("a") and not guard.server_full("b")
    guard.opened("b")
    guard.opened("b")  # b holds 2 of a share of 4 / 2
    assert guard.server_full("b") and not guard.server_full("c")
    for _ in range(2):
        guard.opened("c")  # c: 2, then at its share (4 / 3 rounded up is not reached)
    assert guard.open_total == 8 and guard.server_full("d")  # twice the cap: nobody
    guard.closed("a")
    assert guard.open == {"a": 3, "b": 2, "c": 2} and guard.open_total == 7
    assert Guard(Limits(total_connections=0)).server_full("a") is False


# -- messages, per address and shared ---------------------------------------------------------


def test_an_addresss_messages_are_paced_across_its_connections(tmp_path: Path) -> None:
    # 5 a second per address, in bursts of up to 10; per connection: plenty
    with (
        limited_server(tmp_path, "--rate-address-messages", "5") as srv,
        ws_connect(srv, source=HEAVY) as first,
        ws_connect(srv, source=HEAVY) as second,
    ):
        sent = 15
        for ws in (first, second):
            for n in range(sent):
                ws.send(json.dumps({"type": "ping", "id": n}))
        got = {id(first): 0, id(second): 0}
        deadline = time.monotonic() + 30  # a bound on waiting, not a measure of speed
        while sum(got.values()) < 10:  # the burst, whichever connection sent it
            assert time.monotonic() < deadline, got
            for ws in (first, second):
                with contextlib.suppress(TimeoutError):
                    assert json.loads(ws.recv(timeout=0.05))["type"] == "pong"
                    got[id(ws)] += 1
        with ws_connect(srv, source=LIGHT) as light:  # another address goes at once
            assert ping(light, "light") == {"type": "pong", "id": "light"}
        for ws in (first, second):  # what was sent meanwhile is still waiting its turn
            with contextlib.suppress(TimeoutError):
                while True:
                    assert json.loads(ws.recv(timeout=0))["type"] == "pong"
                    got[id(ws)] += 1
        assert sum(got.values()) < 2 * sent, "the address was not paced"
        for ws in (first, second):  # and nothing is lost or refused: it is served in turn
            while got[id(ws)] < sent:
                frame = json.loads(ws.recv(timeout=30))
                assert frame == {"type": "pong", "id": got[id(ws)]}
                got[id(ws)] += 1


def test_an_address_over_its_share_of_the_servers_messages_waits(tmp_path: Path) -> None:
    with (
        limited_server(tmp_path, "--rate-server-messages", "50") as srv,
        ws_connect(srv, source=HEAVY) as heavy,
    ):
        count = 200
        for n in range(count):
            heavy.send(json.dumps({"type": "ping", "id": n}))
        assert json.loads(heavy.recv(timeout=10)) == {"type": "pong", "id": 0}
        with ws_connect(srv, source=LIGHT) as light:
            for n in range(5):  # served within its share, ahead of HEAVY's backlog
                assert ping(light, n) == {"type": "pong", "id": n}
        got = 1
        with contextlib.suppress(TimeoutError):
            while got < count:
                heavy.recv(timeout=0)
                got += 1
        assert got < count, "HEAVY was served all its messages ahead of LIGHT"
        deadline = time.monotonic() + 60  # a bound on waiting, not a measure of speed
        while got < count:  # nothing was lost: the rest is served, a share at a time
            assert time.monotonic() < deadline, got
            frame = json.loads(heavy.recv(timeout=max(0.1, deadline - time.monotonic())))
            assert frame == {"type": "pong", "id": got}
            got += 1


def test_address_pace_unit() -> None:
    clock = FakeClock()
    pace = AddressPace(4.0, 3, clock)  # 4 a second, 3 at once
    assert [pace.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    # then each message waits its own turn, a quarter of a second apart
    assert [pace.take("a") for _ in range(3)] == [0.25, 0.5, 0.75]
    assert pace.take("b") == 0.0  # another address has its own
    clock.now += 2.0  # long enough for the turns taken and a whole burst
    assert [pace.take("a") for _ in range(4)] == [0.0, 0.0, 0.0, 0.25]
    assert all(AddressPace(0, 0, clock).take("a") == 0.0 for _ in range(100))
    for n in range(3000):  # addresses whose turns are past are forgotten as new ones come
        pace.take(f"10.0.{n // 256}.{n % 256}")
        clock.now += 0.01
    assert len(pace) < 1500


def test_fair_share_unit() -> None:
    clock = FakeClock()
    share = FairShare(10, clock)
    assert [share.take("heavy") for _ in range(10)] == [0.0] * 10  # the budget, while it lasts
    assert share.take("heavy") == 1.0  # spent, and heavy holds all of it: it waits
    # a light address still goes, up to its share (10 between two addresses: 5)
    assert [share.take("light") for _ in range(5)] == [0.0] * 5
    clock.now += 0.25
    assert share.take("light") == 0.75 and share.take("heavy") == 0.75
    assert share.spent == 15
    clock.now += 0.75  # the next window: everyone again, and the last window's senders count
    assert share.take("heavy") == 0.0 and share.spent == 1
    assert share.share() == 5.0 and share.share(new=True) == 5.0
    assert all(FairShare(0, clock).take("a") == 0.0 for _ in range(100))


def test_message_gate_paces_the_address_unit() -> None:
    async def scenario() -> None:
        guard = Guard(Limits(messages=Rate(100, 1), address_messages=Rate(2, 1)))
        one, two = guard.message_gate("10.0.0.1"), guard.message_gate("10.0.0.1")
        for _ in range(2):  # the burst, twice the rate, across both connections: no wait
            for gate in (one, two):
                assert gate.allow()
                await asyncio.wait_for(gate.turn(), 60)  # a bound, not a measure
        # the address's burst is spent: its next message would wait, another's would not
        assert guard.address_messages.take("10.0.0.1") > 0
        assert guard.address_messages.take("10.0.0.2") == 0.0

    asyncio.run(scenario())
