"""Shared pieces: the server under test, the abusers' source addresses, a small HTTP/1.1
client and raw WebSocket handshakes and frames over asyncio sockets, /proc figures.

The measuring helpers (percentiles, the open-file limit, RSS, CPU, progress lines) are the
load benchmark's own (``benchmarks/serverload/measure.py``) and the server runner is the tests'
(``tests/webserver.py``), imported as they are.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ctypes
import inspect
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the root: the tests' runner
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks: the load helpers
from tests.webserver import Server  # the runner the tests use

from serverload.measure import (  # the load benchmark's measuring helpers
    children_cpu_seconds,
    machine_busy,
    percentile,
    proc_cpu_seconds,
    proc_rss_mb,
    progress,
    raise_fd_limit,
    versions,
)

__all__ = [
    "AbuseServer",
    "Answer",
    "Endpoint",
    "HttpClient",
    "HttpStatusError",
    "child_setup",
    "children_cpu_seconds",
    "children_pids",
    "describe_error",
    "fd_count",
    "jsonable",
    "machine_busy",
    "percentile",
    "proc_cpu_seconds",
    "proc_rss_mb",
    "progress",
    "raise_fd_limit",
    "raw_socket",
    "raw_ws_open",
    "read_head",
    "source_address",
    "versions",
    "ws_frame",
]


# -- processes ---------------------------------------------------------------------------------
def _die_with_parent() -> None:
    """In a child (before exec, or first thing in a worker): get SIGKILL when the parent dies,
    so an interrupted run leaves no server or client behind (Linux only; elsewhere a no-op)."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def child_setup(nice: int = 0) -> None:
    """First call of a client or abuser process: die with the parent, leave Ctrl+C to it,
    and lower the priority by ``nice``."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice > 0:
        with contextlib.suppress(OSError):
            os.nice(nice)


def children_pids(pid: int) -> list[int]:
    """Pids of the live children of ``pid`` (the server's search workers), from /proc."""
    out: list[int] = []
    with contextlib.suppress(OSError):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if stat[stat.rindex(")") + 2 :].split()[1] == str(pid):
                out.append(int(entry.name))
    return out


def fd_count(pid: int) -> int | None:
    """Open file descriptors of process ``pid`` (sockets included), from /proc."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


class AbuseServer(Server):
    """``python -m cardtable serve`` in a subprocess (the tests' runner) that dies with this
    script, with the AI delay and search workers of the benchmark, with the server's own rate
    limits (never the generous ones the tests give it), then ``extra_args``."""

    def __init__(
        self,
        workdir: Path,
        db_url: str,
        *,
        ai_delay: float,
        ai_workers: int | None = None,
        peek_window: float = 30.0,
        snap_window: float = 5.0,
        extra_args: Sequence[str] = (),
    ) -> None:
        kwargs: dict[str, Any] = {}
        accepts = inspect.signature(Server.__init__).parameters
        if "generous_limits" in accepts:
            kwargs["generous_limits"] = False  # the server's own limits are what is measured
        super().__init__(
            workdir,
            db_url=db_url,
            ai_delay=ai_delay,
            ai_workers=ai_workers,
            peek_window=peek_window,
            snap_window=snap_window,
            **kwargs,
        )
        self.args += list(extra_args)
        self.launched = 0.0
        """``time.monotonic()`` just before the process was launched."""

    @property
    def pid(self) -> int | None:
        """Process id once started."""
        return self.proc.pid if self.proc is not None else None

    def launch(self) -> None:
        """Start the process without waiting for it to answer."""
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with open(self._log, "ab") as out:
            self.launched = time.monotonic()
            self.proc = subprocess.Popen(
                self.args,
                cwd=self.workdir,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                preexec_fn=_die_with_parent,
            )

    def start(self, timeout: float = 120.0) -> None:
        """Launch and wait until ``GET /api/levels`` answers (a loaded machine is slow)."""
        self.launch()
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log()}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.url + "/api/levels", timeout=2) as resp,
            ):
                if resp.status == 200:
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log()}")

    def log(self) -> str:
        """What the server printed (the last 4,000 characters)."""
        return super().log()[-4000:]


# -- addresses ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Endpoint:
    """Where the server listens, and whether abusers can come from other loopback addresses."""

    base_url: str
    """``http://host:port``."""
    host: str
    """Host to connect to."""
    port: int
    """Port."""
    loopback: bool
    """The host is on 127.0.0.0/8 (or ``localhost``): clients can bind 127.0.0.N first."""

    @classmethod
    def parse(cls, url: str) -> Endpoint:
        """From ``http://host:port``."""
        parts = urlsplit(url.rstrip("/"))
        host = parts.hostname or "127.0.0.1"
        if host == "localhost":
            host = "127.0.0.1"
        port = parts.port or (443 if parts.scheme == "https" else 80)
        loop = host.startswith("127.")
        return cls(f"{parts.scheme}://{host}:{port}", host, port, loop)

    @property
    def ws_url(self) -> str:
        """``ws://host:port/ws``."""
        return self.base_url.replace("http", "ws", 1) + "/ws"


def source_address(endpoint: Endpoint, index: int) -> str | None:
    """The loopback address abuser ``index`` (0, 1, …) binds before connecting: 127.0.0.2,
    127.0.0.3, … (Linux routes all of 127.0.0.0/8 to the loopback interface), so per-address
    limits see it apart from the ordinary tables on 127.0.0.1. ``None`` (no binding) when the
    server is not on a loopback address."""
    if not endpoint.loopback:
        return None
    return f"127.0.{index // 250}.{index % 250 + 2}"


# -- raw sockets -------------------------------------------------------------------------------
async def raw_socket(
    endpoint: Endpoint, source: str | None, *, rcvbuf: int | None = None, timeout: float = 10.0
) -> socket.socket:
    """A non-blocking TCP socket connected to the server from ``source`` (bound first)."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setblocking(False)
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if source is not None:
            sock.bind((source, 0))
        await asyncio.wait_for(loop.sock_connect(sock, (endpoint.host, endpoint.port)), timeout)
    except BaseException:
        sock.close()
        raise
    return sock


class HttpStatusError(Exception):
    """A WebSocket handshake answered with another status than 101."""

    def __init__(self, status: int) -> None:
        super().__init__(f"handshake answered {status}")
        self.status = status


async def raw_ws_open(
    endpoint: Endpoint, source: str | None, *, rcvbuf: int | None = None, timeout: float = 10.0
) -> socket.socket:
    """A WebSocket opened by hand on a raw socket (handshake only): cheap to hold by the
    thousand, and it reads nothing it is not told to. Raises :class:`HttpStatusError` when
    the server answers the upgrade with another status than 101."""
    loop = asyncio.get_running_loop()
    sock = await raw_socket(endpoint, source, rcvbuf=rcvbuf, timeout=timeout)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        head = (
            f"GET /ws HTTP/1.1\r\nHost: {endpoint.host}:{endpoint.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        await asyncio.wait_for(loop.sock_sendall(sock, head.encode()), timeout)
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = await asyncio.wait_for(loop.sock_recv(sock, 4096), timeout)
            if not chunk:
                raise ConnectionResetError("closed during the handshake")
            buf += chunk
        status = int(buf.split(b" ", 2)[1])
        if status != 101:
            raise HttpStatusError(status)
    except BaseException:
        sock.close()
        raise
    return sock


def ws_frame(payload: str | bytes, opcode: int = 1) -> bytes:
    """One client frame (FIN, masked with the all-zero key, so the payload goes as is)."""
    data = payload.encode() if isinstance(payload, str) else payload
    n = len(data)
    if n < 126:
        head = bytes([0x80 | opcode, 0x80 | n])
    elif n < 1 << 16:
        head = bytes([0x80 | opcode, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + n.to_bytes(8, "big")
    return head + b"\0\0\0\0" + data


# -- HTTP ----------------------------------------------------------------------------------------
@dataclass
class Answer:
    """One HTTP answer."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    """The body (empty when it was longer than the caller wanted to keep)."""
    size: int = 0
    """Its length in bytes, kept or not."""


class HttpClient:
    """A keep-alive HTTP/1.1 client on asyncio streams, from a chosen source address (it
    reconnects when the server closes). Enough for JSON APIs: content-length, chunked, or
    read to the end."""

    def __init__(self, endpoint: Endpoint, source: str | None = None) -> None:
        self.endpoint = endpoint
        self.source = source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        local = (self.source, 0) if self.source is not None else None
        self.reader, self.writer = await asyncio.open_connection(
            self.endpoint.host, self.endpoint.port, local_addr=local, limit=1 << 16
        )

    def close(self) -> None:
        """Close the connection (the next request opens a new one)."""
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()
        self.reader = self.writer = None

    async def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        *,
        keep: int = 8 << 20,
        timeout: float = 60.0,
    ) -> Answer:
        """Send one request and read its answer (bodies longer than ``keep`` are read and
        dropped). A broken connection raises ``OSError`` or ``asyncio.IncompleteReadError``
        and is closed; ``timeout`` raises ``TimeoutError``."""
        try:
            return await asyncio.wait_for(self._request(method, path, body, keep), timeout)
        except BaseException:
            self.close()
            raise

    async def _request(self, method: str, path: str, body: bytes | None, keep: int) -> Answer:
        if self.writer is None:
            await self._open()
        assert self.reader is not None and self.writer is not None
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.endpoint.host}:{self.endpoint.port}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + (body or b""))
        await self.writer.drain()
        answer = await read_head(self.reader)
        await self._read_body(answer, keep)
        if answer.headers.get("connection", "").lower() == "close":
            self.close()
        return answer

    async def _read_body(self, answer: Answer, keep: int) -> None:
        reader = self.reader
        assert reader is not None
        parts: list[bytes] = []

        def take(chunk: bytes) -> None:
            answer.size += len(chunk)
            if answer.size <= keep:
                parts.append(chunk)
            elif parts:
                parts.clear()

        length = answer.headers.get("content-length")
        if length is not None:
            left = int(length)
            while left > 0:
                chunk = await reader.read(min(left, 1 << 20))
                if not chunk:
                    raise asyncio.IncompleteReadError(b"", left)
                take(chunk)
                left -= len(chunk)
        elif "chunked" in answer.headers.get("transfer-encoding", "").lower():
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
                if size == 0:
                    await reader.readuntil(b"\r\n")
                    break
                take(await reader.readexactly(size))
                await reader.readexactly(2)
        else:
            while chunk := await reader.read(1 << 20):
                take(chunk)
            self.close()
        answer.body = b"".join(parts) if answer.size <= keep else b""


async def read_head(reader: asyncio.StreamReader) -> Answer:
    """Read a status line and headers."""
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return Answer(status, headers)


def describe_error(exc: BaseException) -> str:
    """A short counter key for a failure: ``timeout``, ``refused``, ``reset``, ``emfile``…"""
    if isinstance(exc, TimeoutError | asyncio.TimeoutError):
        return "timeout"
    if isinstance(exc, HttpStatusError):
        return str(exc.status)
    if isinstance(exc, ConnectionRefusedError):
        return "refused"
    if isinstance(exc, ConnectionResetError | BrokenPipeError | asyncio.IncompleteReadError):
        return "reset"
    if isinstance(exc, OSError) and exc.errno == 24:
        return "emfile"
    if isinstance(exc, OSError) and exc.errno == 99:
        return "no_port"
    return type(exc).__name__


def jsonable(value: Any) -> Any:
    """``value`` with infinities and NaN as ``None`` (strict JSON)."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value
