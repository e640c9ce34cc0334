"""The server's Prometheus metrics (``GET /metrics``; docs/protocol.md, "Operations").

One :class:`Metrics` per room manager, on a registry of its own (never the process's global
one: several apps in one process keep their own counts). The places that move them call it in
one line each:

- :meth:`.table.Table.act`: :meth:`Metrics.acted` (actions by who chose them, and the time
  from the move to its frames being queued);
- :meth:`.table.Table._ai_move`: :meth:`Metrics.decided` (AI decisions waiting in the search
  pool, and their time);
- the app: :class:`Refusals` (HTTP ``403``/``429`` answers, refused WebSocket handshakes and
  open WebSocket connections) and :meth:`Metrics.refused` (``error`` frames, by code);
- the live rooms by state are read from the manager when scraped (:meth:`Metrics.watch`).

The labels are codes and states only: never a card, a token, a room id or a name. On the hot
path a metric costs a counter increment on a child bound in advance (no label lookup).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from .movelog import Chosen

__all__ = [
    "ACTION_BUCKETS",
    "AI_BUCKETS",
    "CHOOSERS",
    "CONTENT_TYPE",
    "ROOM_STATES",
    "Metrics",
    "Refusals",
    "chooser",
]

T = TypeVar("T")

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of the ``/metrics`` answer (Prometheus text format)."""

CHOOSERS = ("person", "ai", "clock")
"""Who chose an action: the seat's person, an AI (an AI seat or one standing in), the clock."""

ROOM_STATES = ("waiting", "playing", "finished", "closed")
"""The states a live room is counted in (its ``status``)."""

ACTION_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Upper bounds (seconds) of the action-to-broadcast histogram: a move is stored (one
transaction) and its frames built for every connection."""

AI_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
"""Upper bounds (seconds) of the AI decision histogram: a search takes 0.1–1 s (master: a few
seconds), plus its wait for a free worker."""

_REFUSAL_CODES = {403: "forbidden", 429: "rate_limited"}
"""The code an HTTP refusal is counted under, by status."""


def chooser(person: bool, chosen: Chosen | None) -> str:
    """Who chose an action played by :meth:`.table.Table.act`: ``person`` (the seat's person
    sent it), ``clock`` (the time ran out) or ``ai`` (an AI seat, or an AI standing in)."""
    if person:
        return "person"
    if chosen is not None and chosen.kind == "clock":
        return "clock"
    return "ai"


class Metrics:
    """The metrics of one server, on their own :attr:`registry`."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        """Where these metrics are registered (and read by :meth:`render`)."""
        reg = self.registry
        self.actions = Counter(
            "cardtable_actions",
            "Actions played, by who chose them (person, ai, clock)",
            ["chooser"],
            registry=reg,
        )
        """Actions played by chooser (``cardtable_actions_total``)."""
        self._actions = {c: self.actions.labels(c) for c in CHOOSERS}
        self.action_seconds = Histogram(
            "cardtable_action_broadcast_seconds",
            "Seconds from an action being taken up (its room locked) to its frames being "
            "queued for every connection of the room",
            buckets=ACTION_BUCKETS,
            registry=reg,
        )
        """Action-to-broadcast latency."""
        self.connections = Gauge(
            "cardtable_websocket_connections", "Open WebSocket connections", registry=reg
        )
        """Open WebSocket connections (accepted, not yet closed)."""
        self.ai_queued = Gauge(
            "cardtable_ai_decisions_queued",
            "AI decisions sent to the search pool and not answered yet",
            registry=reg,
        )
        """AI decisions waiting for, or being computed by, the search pool."""
        self.ai_seconds = Histogram(
            "cardtable_ai_decision_seconds",
            "Seconds an AI decision of the search pool took, its wait for a worker included",
            buckets=AI_BUCKETS,
            registry=reg,
        )
        """Time of the search pool's AI decisions."""
        self.refusals = Counter(
            "cardtable_refusals",
            "Refusals: error frames by protocol code (status empty), and HTTP answers and "
            "WebSocket handshakes refused with 403 (code forbidden) or 429 (rate_limited)",
            ["code", "status"],
            registry=reg,
        )
        """Refusals by code and HTTP status (``cardtable_refusals_total``)."""
        self._refusals: dict[tuple[str, str], Counter] = {}

    # -- the hooks ---------------------------------------------------------------------------
    def acted(self, person: bool, chosen: Chosen | None, since: float) -> None:
        """One action played and broadcast: count it by :func:`chooser` and observe the
        seconds since ``since`` (a :func:`time.perf_counter` reading)."""
        self.action_seconds.observe(time.perf_counter() - since)
        self._actions[chooser(person, chosen)].inc()

    async def decided(self, work: Awaitable[T]) -> T:
        """Await ``work`` (an AI decision of the search pool), counted as queued meanwhile and
        timed; its answer, or what it raises."""
        start = time.perf_counter()
        self.ai_queued.inc()
        try:
            return await work
        finally:
            self.ai_queued.dec()
            self.ai_seconds.observe(time.perf_counter() - start)

    def refused(self, code: str, status: int | None = None) -> None:
        """One refusal: an ``error`` frame of protocol ``code`` (``status`` ``None``), or an
        HTTP answer or WebSocket handshake refused with ``status``."""
        key = (code, "" if status is None else str(status))
        child = self._refusals.get(key)
        if child is None:
            child = self._refusals[key] = self.refusals.labels(*key)
        child.inc()

    def refused_http(self, status: int) -> None:
        """An HTTP answer (or a WebSocket handshake's) of ``status``: counted as a refusal
        when it is ``403`` or ``429``."""
        code = _REFUSAL_CODES.get(status)
        if code is not None:
            self.refused(code, status)

    # -- reading -----------------------------------------------------------------------------
    def watch(self, rooms: Callable[[], Iterable[tuple[str, bool]]]) -> None:
        """Count the live rooms at each scrape: ``rooms()`` gives each one's status and
        whether its clocks are held (read from the manager)."""
        self.registry.register(_RoomsCollector(rooms))

    def render(self) -> bytes:
        """Every metric in the Prometheus text format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)


class _RoomsCollector(Collector):
    """``cardtable_rooms{state}`` (live rooms by their status) and ``cardtable_rooms_held``
    (live rooms whose clocks the only person at the table holds), read when scraped."""

    def __init__(self, rooms: Callable[[], Iterable[tuple[str, bool]]]) -> None:
        self._rooms = rooms

    def describe(self) -> Iterable[Metric]:
        """The metrics this collector gives, without reading the rooms."""
        return [
            GaugeMetricFamily("cardtable_rooms", _ROOMS_HELP, labels=["state"]),
            GaugeMetricFamily("cardtable_rooms_held", _HELD_HELP),
        ]

    def collect(self) -> Iterator[Metric]:
        """The rooms in memory now, by state."""
        counts = dict.fromkeys(ROOM_STATES, 0)
        held = 0
        for status, on_hold in list(self._rooms()):
            if status in counts:
                counts[status] += 1
            held += on_hold
        rooms = GaugeMetricFamily("cardtable_rooms", _ROOMS_HELP, labels=["state"])
        for state, n in counts.items():
            rooms.add_metric([state], n)
        yield rooms
        yield GaugeMetricFamily("cardtable_rooms_held", _HELD_HELP, value=held)


_ROOMS_HELP = "Live rooms (in memory) by state: waiting, playing, finished, closed"
_HELD_HELP = "Live rooms whose clocks and AI players are held by the only person at the table"


class Refusals:
    """ASGI middleware (outermost): counts HTTP answers and WebSocket handshakes refused with
    ``403`` or ``429`` (:meth:`Metrics.refused_http`), whichever layer refused them, and keeps
    :attr:`Metrics.connections` to the WebSocket connections accepted and not yet closed.

    It watches what is sent with a plain callable that hands each message on (no coroutine of
    its own per message)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics
        """Where the counts go."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        watch = _Watch(send, self.metrics)
        try:
            await self.app(scope, receive, watch)
        finally:
            if watch.accepted:
                self.metrics.connections.dec()


class _Watch:
    """The ``send`` of one request or connection, looking at its first messages only."""

    __slots__ = ("accepted", "done", "metrics", "send")

    def __init__(self, send: Send, metrics: Metrics) -> None:
        self.send = send
        self.metrics = metrics
        self.done = False
        """Whether the answer's status (or the handshake's outcome) was seen."""
        self.accepted = False
        """Whether a WebSocket connection was accepted (and is counted open)."""

    def __call__(self, message: Message) -> Awaitable[None]:
        if not self.done:
            self._look(message)
        return self.send(message)

    def _look(self, message: Message) -> None:
        kind = message["type"]
        if kind in ("http.response.start", "websocket.http.response.start"):
            self.done = True
            self.metrics.refused_http(int(message.get("status", 200)))
        elif kind == "websocket.accept":
            self.done = self.accepted = True
            self.metrics.connections.inc()
        elif kind == "websocket.close":  # closed before it was accepted: a refused handshake
            self.done = True
            self.metrics.refused_http(403)
