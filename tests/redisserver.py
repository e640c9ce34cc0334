"""A throwaway Redis server for tests.

``RedisServer`` runs Debian's ``redis-server`` in the foreground as a subprocess, in a fresh
temporary directory (its working directory and its log file), bound to 127.0.0.1 on a free
port, with no persistence (``--save ''``, ``--appendonly no``): nothing is ever written but
the log. Protected mode stays at Redis's default; it only refuses clients from other
addresses, and the server listens on 127.0.0.1 alone. ``start()`` waits until the server
answers ``PING`` (over a plain socket) and returns ``url``, ``redis://127.0.0.1:PORT/0``.
``stop()`` kills it at once (SIGKILL: nothing to save) and removes the directory.

Redis runs as root without complaint, so unlike :mod:`tests.pgserver` there is no user switch.
The binary is looked up at ``/usr/bin/redis-server``, then on ``PATH``; ``scripts/setup``
installs it. When it is missing, starting raises ``RuntimeError``: the tests that need the
server fail, they are never skipped.

Usage::

    with RedisServer() as server:
        client = redis.Redis.from_url(server.url)

    url, stop = start_redis()
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Self

from .pgserver import free_port

__all__ = ["DEBIAN_BINARY", "RedisServer", "find_redis_server", "ping", "start_redis"]

#: Where Debian's ``redis-server`` package puts the server.
DEBIAN_BINARY = Path("/usr/bin/redis-server")

_INSTALL_HINT = (
    f"redis-server was not found at {DEBIAN_BINARY} or on PATH; scripts/setup installs it "
    "(as root it runs: apt-get install --no-install-recommends redis-server)"
)
_PORT_TAKEN = ("Address already in use", "Could not create server TCP listening socket")
_START_ATTEMPTS = 5
_START_TIMEOUT = 30.0  # seconds until the server must answer PING


def find_redis_server() -> Path:
    """Return the ``redis-server`` binary; raise ``RuntimeError`` saying how to install it."""
    if os.access(DEBIAN_BINARY, os.X_OK):
        return DEBIAN_BINARY
    on_path = shutil.which("redis-server")
    if on_path is not None:
        return Path(on_path)
    raise RuntimeError(_INSTALL_HINT)


def ping(port: int, timeout: float = 1.0) -> bool:
    """Whether a Redis server on 127.0.0.1:``port`` answers ``PING`` with ``+PONG``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """A Redis server in its own temporary directory, for the duration of a test.

    Use it as a context manager, or call ``start()`` and ``stop()``. ``parent`` is where the
    temporary directory is made (default: the system's temporary directory).
    """

    def __init__(self, parent: Path | None = None) -> None:
        """Prepare (but do not start) a server whose directory goes under ``parent``."""
        self.parent = parent
        self.base_dir: Path | None = None
        self.port: int | None = None
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def log_file(self) -> Path:
        """The server's log file (inside the temporary directory)."""
        if self.base_dir is None:
            raise RuntimeError("the Redis server is not started")
        return self.base_dir / "redis.log"

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``: database 0 of the server."""
        if self.port is None:
            raise RuntimeError("the Redis server is not started")
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs."""
        return self.proc.pid if self.proc is not None else None

    def log(self) -> str:
        """What the server logged so far (empty once stopped)."""
        try:
            return self.log_file.read_text("utf-8", "replace")
        except (OSError, RuntimeError):
            return ""

    def start(self) -> str:
        """Start the server on a free port and wait until it answers; return ``url``."""
        if self.base_dir is not None:
            raise RuntimeError("the Redis server is already started")
        binary = find_redis_server()
        self.base_dir = Path(tempfile.mkdtemp(prefix="cardtable-redis-", dir=self.parent))
        try:
            for attempt in range(_START_ATTEMPTS):
                port = free_port()
                if self._try_start(binary, port):
                    self.port = port
                    return self.url
                log = self.log()
                if not any(text in log for text in _PORT_TAKEN) or attempt == _START_ATTEMPTS - 1:
                    raise RuntimeError(f"redis-server did not start:\n{log}")
                self.log_file.unlink(missing_ok=True)
        except BaseException:
            self.stop()
            raise
        raise AssertionError("unreachable")  # pragma: no cover

    def stop(self) -> None:
        """Kill the server and remove its directory; safe to call repeatedly."""
        proc, self.proc = self.proc, None
        base_dir, self.base_dir = self.base_dir, None
        self.port = None
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            proc.wait(10)
        if base_dir is not None:
            shutil.rmtree(base_dir, ignore_errors=True)

    def __enter__(self) -> Self:
        """Start the server."""
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop the server."""
        self.stop()

    def _try_start(self, binary: Path, port: int) -> bool:
        """Run the server on ``port``; whether it answers ``PING`` (False: it exited)."""
        assert self.base_dir is not None
        argv = [
            str(binary),
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--dir",
            str(self.base_dir),
            "--logfile",
            str(self.log_file),
        ]
        self.proc = subprocess.Popen(
            argv,
            cwd=self.base_dir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + _START_TIMEOUT
        while time.monotonic() < deadline:
            if ping(port):
                return True
            if self.proc.poll() is not None:
                self.proc = None
                return False
            time.sleep(0.02)
        raise RuntimeError(f"redis-server did not answer PING within {_START_TIMEOUT} s")


def start_redis(parent: Path | None = None) -> tuple[str, Callable[[], None]]:
    """Start a throwaway server; return its URL and a function that stops it."""
    server = RedisServer(parent)
    url = server.start()
    return url, server.stop
