"""Run the real web server (``cardtable serve`` under uvicorn) in a subprocess for tests."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from cardtable.web.settings import DEFAULTS

__all__ = ["GENEROUS_LIMITS", "Server", "free_port", "http", "running_server"]

GENEROUS_LIMITS: tuple[str, ...] = (
    "--rate-rooms",
    "100000",
    "--rate-joins",
    "100000",
    "--rate-requests",
    "1000000",
    "--rate-messages",
    "100000",
    "--max-connections",
    "100000",
    "--total-connections",
    "1000000",
    "--rate-address-messages",
    "1000000",
    "--rate-server-messages",
    "10000000",
    "--rate-server-rooms",
    "1000000",
    "--rate-signins",
    "1000000",
    "--ai-room-moves",
    "1000000",
)
"""Rate limits and quotas far above the server's defaults, which the tests (many rooms, seats
and connections from 127.0.0.1 within seconds) would trip; they stay switched on, so every
request still goes through them. A test that checks a limit gives its own (``extra_args``
come after these, and the last value of an option is the one used)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def http(
    method: str, url: str, body: Any = None, *, raw: bytes | None = None, timeout: float = 30.0
) -> tuple[int, Any]:
    """One HTTP request; returns the status and the decoded JSON answer (or text)."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, payload = resp.status, resp.read()
    except urllib.error.HTTPError as err:
        status, payload = err.code, err.read()
    try:
        return status, json.loads(payload)
    except ValueError:
        return status, payload.decode("utf-8", "replace")


class Server:
    """A ``cardtable serve`` subprocess on a free port, with its store URL; ``extra_args`` go
    to the command line last, after :data:`GENEROUS_LIMITS` (left out with
    ``generous_limits=False``)."""

    def __init__(
        self,
        workdir: Path,
        *,
        db_url: str | None = None,
        ai_delay: float = 0.0,
        peek_window: float = DEFAULTS.peek_window,
        snap_window: float = DEFAULTS.snap_window,
        port: int | None = None,
        ai_workers: int | None = None,
        extra_args: Sequence[str] = (),
        generous_limits: bool = True,
    ) -> None:
        self.workdir = workdir
        """Folder the server runs in (its log goes there)."""
        self.db_url = db_url or f"sqlite+aiosqlite:///{workdir / 'cardtable.db'}"
        """The store."""
        self.port = port or free_port()
        """Its port."""
        self.args = [
            sys.executable,
            "-m",
            "cardtable",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--ai-delay",
            str(ai_delay),
            "--peek-window",
            str(peek_window),
            "--snap-window",
            str(snap_window),
        ]
        if ai_workers is not None:  # else the server's default: one per CPU
            self.args += ["--ai-workers", str(ai_workers)]
        if generous_limits:  # else the server's own defaults
            self.args += GENEROUS_LIMITS
        self.args += extra_args
        self.proc: subprocess.Popen[bytes] | None = None
        self._log = workdir / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """``ws://127.0.0.1:PORT/ws``."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 30.0) -> None:
        """Start the process and wait until it answers HTTP."""
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with open(self._log, "ab") as out:
            self.proc = subprocess.Popen(
                self.args, cwd=self.workdir, stdout=out, stderr=subprocess.STDOUT, env=env
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log()}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.url + "/api/levels", timeout=1) as resp,
            ):
                if resp.status == 200:
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL the process (no shutdown code runs)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """Stop the process politely, then firmly."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()

    def log(self) -> str:
        """What the server printed."""
        try:
            return self._log.read_text("utf-8", "replace")
        except OSError:
            return ""


@contextlib.contextmanager
def running_server(workdir: Path, **kwargs: Any) -> Iterator[Server]:
    """A started :class:`Server` (keyword arguments as its constructor), stopped on exit."""
    server = Server(workdir, **kwargs)
    server.start()
    try:
        yield server
    finally:
        server.stop()
