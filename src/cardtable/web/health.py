"""Health checks for a load balancer or an orchestrator: ``GET /healthz`` and ``GET /readyz``
(docs/protocol.md, "Operations").

``/healthz`` says the process serves HTTP (always ``200``). ``/readyz`` says whether it should
be sent players: ``200`` while the store answers a trivial query and the server is not
draining, else ``503`` with the reason. :class:`Probes` answers both before any other layer
of the app (no rate limit, origin check or routing), and :class:`Readiness` asks the store at
most once per :data:`READY_TTL` seconds whatever the number of probes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = [
    "HEALTH_PATH",
    "READY_PATH",
    "READY_TIMEOUT",
    "READY_TTL",
    "Probes",
    "Readiness",
    "Verdict",
]

log = logging.getLogger("cardtable.web")

HEALTH_PATH = "/healthz"
"""The liveness check."""

READY_PATH = "/readyz"
"""The readiness check."""

READY_TTL = 1.0
"""Seconds an answer of the store is reused for the next readiness probes."""

READY_TIMEOUT = 2.0
"""Seconds the store has to answer before the server counts as not ready."""


@dataclass(frozen=True)
class Verdict:
    """A readiness answer: ready, or why not (``reason``: ``draining``, ``store`` or ``redis``;
    ``detail``: the kind of failure, never its text)."""

    ready: bool
    reason: str | None = None
    detail: str | None = None

    def body(self) -> dict[str, str]:
        """The JSON answer of ``/readyz``."""
        if self.ready:
            return {"status": "ready"}
        out = {"status": "not ready", "reason": self.reason or "unknown"}
        if self.detail:
            out["detail"] = self.detail
        return out


class Unready(Exception):
    """A readiness ping's failure that names what failed (``reason``, e.g. ``redis``) and the
    kind of error (``detail``); any other exception of a ping is the store's."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        """What does not answer."""
        self.detail = detail
        """The kind of error (a class name)."""


class Readiness:
    """Whether the server is ready: not ``draining()``, and ``ping()`` (a trivial query of the
    store) answered within ``timeout`` seconds. A store answer is reused for ``ttl`` seconds
    and probes arriving meanwhile share one query."""

    def __init__(
        self,
        ping: Callable[[], Awaitable[None]],
        draining: Callable[[], bool],
        *,
        ttl: float = READY_TTL,
        timeout: float = READY_TIMEOUT,
    ) -> None:
        self._ping = ping
        self._draining = draining
        self.ttl = ttl
        """Seconds a store answer is reused."""
        self.timeout = timeout
        """Seconds the store has to answer."""
        self._last: tuple[float, Verdict] | None = None
        self._pending: asyncio.Future[Verdict] | None = None

    async def check(self) -> Verdict:
        """The server's readiness now."""
        if self._draining():
            return Verdict(False, "draining")
        last = self._last
        if last is not None and time.monotonic() - last[0] < self.ttl:
            return last[1]
        if self._pending is None:
            self._pending = asyncio.ensure_future(self._ask_store())
        pending = self._pending
        try:
            return await asyncio.shield(pending)
        finally:
            if self._pending is pending and pending.done():
                self._pending = None

    async def _ask_store(self) -> Verdict:
        try:
            await asyncio.wait_for(self._ping(), self.timeout)
            verdict = Verdict(True)
        except Exception as exc:
            if isinstance(exc, Unready):
                verdict = Verdict(False, exc.reason, exc.detail)
            else:
                verdict = Verdict(False, "store", type(exc).__name__)
            was_ready = self._last is None or self._last[1].ready
            if was_ready:
                log.warning("not ready: %s does not answer (%s)", verdict.reason, verdict.detail)
        self._last = (time.monotonic(), verdict)
        return verdict


def _json(status: int, body: dict[str, str], head: bool) -> tuple[dict[str, object], bytes]:
    data = json.dumps(body).encode()
    start: dict[str, object] = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(data)).encode()),
            (b"cache-control", b"no-store"),
        ],
    }
    return start, b"" if head else data


class Probes:
    """ASGI middleware (outermost): answers ``GET`` or ``HEAD`` of :data:`HEALTH_PATH` and
    :data:`READY_PATH` itself, before every other layer; anything else goes on to ``app``."""

    def __init__(self, app: ASGIApp, readiness: Readiness) -> None:
        self.app = app
        self.readiness = readiness
        """What ``/readyz`` asks."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") in ("GET", "HEAD"):
            path = scope.get("path")
            head = scope["method"] == "HEAD"
            if path == HEALTH_PATH:
                await _answer(send, 200, {"status": "ok"}, head)
                return
            if path == READY_PATH:
                verdict = await self.readiness.check()
                await _answer(send, 200 if verdict.ready else 503, verdict.body(), head)
                return
        await self.app(scope, receive, send)


async def _answer(send: Send, status: int, body: dict[str, str], head: bool) -> None:
    start, data = _json(status, body, head)
    await send(start)
    await send({"type": "http.response.body", "body": data})
