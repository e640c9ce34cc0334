"""Guards of the web server against other sites and against floods (docs/protocol.md, "Limits").

- :class:`SameOrigin` refuses (``403``) a WebSocket handshake, or an HTTP request with an unsafe
  method, sent by a page of another site: its ``Origin`` is neither the server's own origin
  (the request's scheme and ``Host``) nor one of the allowed extra origins.
- :class:`SecurityHeaders` puts a content security policy and the other protective headers on
  every HTTP response.
- :class:`RateLimits` counts, per client address, HTTP requests, room creations and seat joins
  (``429`` with ``Retry-After`` past a limit) and open WebSocket connections (a handshake past
  the cap is refused with ``429``).
- :class:`MessageGate` counts the messages of one WebSocket connection; the ``/ws`` loop asks it
  before handling each message and answers ``rate_limited`` past the limit.
- The protocols given to uvicorn (a request read deadline, a head size limit, WebSockets parsed
  only as fast as they are read) are in :mod:`.connections`.

The limits are a :class:`Limits`; the counters live in a :class:`Guard` (one per application),
in the in-memory storage of the ``limits`` library, whose keys expire with their window.
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import json
import math
import re
import time
import urllib.parse
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "DOCS_CONTENT_SECURITY_POLICY",
    "MAX_HEAD_BYTES",
    "SECURITY_HEADERS",
    "Guard",
    "Limits",
    "MessageGate",
    "Rate",
    "RateLimits",
    "SameOrigin",
    "SecurityHeaders",
    "client_address",
    "json_body",
    "normalize_origin",
    "parse_origins",
]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The policy of every page and answer of the server: the browser client runs only its own
scripts and styles (no inline script, no ``style=`` attribute in markup), talks only to its own
server (HTTP and WebSocket) and cannot be framed."""

DOCS_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'; "
    "style-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.jsdelivr.net; "
    "connect-src 'self'; font-src 'self' https://cdn.jsdelivr.net; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The looser policy of the API reference page (``/api/docs``), which loads its viewer from a
CDN and starts it with an inline script; the page shows nothing a client sent."""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
"""Headers every HTTP response carries besides its content security policy."""

MAX_HEAD_BYTES = 32 * 1024
"""Largest request head (request line and headers) the server reads; a longer one is answered
``431`` and the connection closed."""

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_JOIN_PATH = re.compile(r"^/api/rooms/[^/]+/join/?$")
_DEFAULT_PORTS = {"http": 80, "https": 443}


# -- limits ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    """At most ``count`` events per ``seconds``; a count of 0 means no limit."""

    count: int
    """Events allowed per window (0: no limit)."""
    seconds: int
    """Length of the window in seconds."""

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("a rate cannot be negative")
        if self.seconds < 1:
            raise ValueError("a rate's window is at least one second")

    @property
    def enabled(self) -> bool:
        """Whether this rate limits anything."""
        return self.count > 0

    @classmethod
    def parse(cls, text: str, seconds: int) -> Rate:
        """``"N"`` (N per ``seconds``) or ``"N/S"`` (N per S seconds); ``"0"``: no limit."""
        count_text, sep, window_text = text.strip().partition("/")
        try:
            count = int(count_text)
            window = int(window_text) if sep else seconds
        except ValueError:
            raise ValueError(f"{text!r} is not N or N/SECONDS") from None
        return cls(count, window)

    def describe(self) -> str:
        """In words: ``20 a minute``, ``5 in 10 s``."""
        if self.seconds == 60:
            return f"{self.count} a minute"
        if self.seconds == 1:
            return f"{self.count} a second"
        return f"{self.count} in {self.seconds} s"


@dataclass(frozen=True)
class Limits:
    """Every rate limit and quota of the server, per client address unless said otherwise."""

    rooms: Rate = Rate(20, 60)
    """Rooms an address may create (``POST /api/rooms``)."""
    joins: Rate = Rate(60, 60)
    """Seats an address may take (``POST /api/rooms/{room}/join``)."""
    requests: Rate = Rate(600, 60)
    """HTTP requests (WebSocket handshakes included) an address may make."""
    connections: int = 32
    """WebSocket connections an address may hold open at once (0: no limit)."""
    messages: Rate = Rate(20, 1)
    """WebSocket messages per connection, on average."""
    message_burst: int | None = None
    """Messages a connection may send in a burst (``None``: twice ``messages.count``); the
    messages are counted in windows of ``message_burst / messages.count`` times
    ``messages.seconds`` seconds."""
    tarpit: float = 1.0
    """Seconds a refused HTTP request or handshake is held before its ``429`` is sent (never
    past the end of its window): a client that floods waits for each answer, instead of the
    server answering it as fast as it asks (0: answer at once)."""
    tarpit_hold: int = 256
    """Refusals of one address held at once; past it, they are answered at once and the
    connection is closed."""
    flood_close: int = 10
    """Windows in a row in which a connection went over its message rate, after which it is
    closed (code 1008; 0: never). A window counts in the same run when it follows the last
    refusal within two windows' time."""

    def __post_init__(self) -> None:
        if self.connections < 0 or self.flood_close < 0:
            raise ValueError("limits cannot be negative")
        if self.message_burst is not None and self.message_burst < self.messages.count:
            raise ValueError("the message burst cannot be less than the message rate")

    @property
    def message_window(self) -> Rate:
        """The window messages are counted in: ``burst`` messages per so many seconds."""
        count = self.messages.count
        if count == 0:
            return self.messages
        burst = self.message_burst if self.message_burst is not None else 2 * count
        return Rate(burst, max(1, round(burst * self.messages.seconds / count)))

    @classmethod
    def unlimited(cls) -> Limits:
        """No limit at all."""
        off = Rate(0, 60)
        return cls(
            rooms=off,
            joins=off,
            requests=off,
            connections=0,
            messages=off,
            flood_close=0,
            tarpit=0.0,
        )


def _item(rate: Rate, name: str) -> RateLimitItem:
    return RateLimitItemPerSecond(rate.count, rate.seconds, namespace=name)


def client_address(scope: Scope) -> str:
    """The address a request is counted under: ``scope["client"]`` (the peer, or what a trusted
    proxy said when the server believes proxies); an IPv6 address counts as its /64 network
    (one subscriber's, as a home's IPv4 address behind its router), an IPv4-mapped IPv6
    address as its IPv4 address."""
    client = scope.get("client")
    if not client:
        return "unknown"
    text = str(client[0])
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return text
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return text


class Guard:
    """The counters of one application: fixed windows per address (and per connection for
    messages) in the in-memory storage of ``limits``, and the open WebSocket connections per
    address. Keys expire with their window, so memory follows the addresses seen lately."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        """The limits."""
        self.storage = MemoryStorage()
        """The counters (expired keys are dropped by the storage)."""
        self._limiter = FixedWindowRateLimiter(self.storage)
        self._items = {
            "requests": _item(self.limits.requests, "requests"),
            "rooms": _item(self.limits.rooms, "rooms"),
            "joins": _item(self.limits.joins, "joins"),
            "messages": _item(self.limits.message_window, "messages"),
        }
        self._rates = {
            "requests": self.limits.requests,
            "rooms": self.limits.rooms,
            "joins": self.limits.joins,
            "messages": self.limits.message_window,
        }
        self.open: dict[str, int] = {}
        """Open WebSocket connections by address (addresses with none are left out)."""
        self.held: dict[str, int] = {}
        """Refusals being held before their answer, by address (none: left out)."""
        self._conn_ids = itertools.count()

    def hit(self, kind: str, key: str) -> float | None:
        """Count one event of ``kind`` (``requests``, ``rooms``, ``joins``, ``messages``) for
        ``key``: ``None`` if it is allowed, else the seconds until the window ends."""
        if not self._rates[kind].enabled:
            return None
        item = self._items[kind]
        if self._limiter.hit(item, key):
            return None
        reset = self._limiter.get_window_stats(item, key).reset_time
        return max(0.0, reset - time.time())

    def rate(self, kind: str) -> Rate:
        """The rate of ``kind`` (for messages: the window they are counted in)."""
        return self._rates[kind]

    def message_gate(self) -> MessageGate:
        """A gate for the messages of a new connection."""
        return MessageGate(self, f"conn-{next(self._conn_ids)}")

    def tracked_keys(self) -> int:
        """Keys the storage holds now (counters, their expiry times and locks, and moving-window
        entries): those of windows not yet over."""
        held = self.storage
        return len(held.storage) + len(held.expirations) + len(held.locks) + len(held.events)


class MessageGate:
    """The messages of one WebSocket connection: :meth:`allow` counts each one and says
    whether it may be handled. After a refusal the server reads nothing more from the
    connection for :attr:`retry_after` seconds (a flood waits in its own socket, and costs the
    server nothing); a connection that goes over its rate window after window is to be closed
    (:attr:`flooding`, with :attr:`close_code` 1008)."""

    def __init__(self, guard: Guard, key: str) -> None:
        self._guard = guard
        self._key = key
        self._last_refusal = -math.inf
        self.refused_in_a_row = 0
        """Refusals in the current run (each refusal ends a window: the server waits for the
        next one before it reads again)."""
        self.retry_after = 0.0
        """Seconds until the window of the last refusal ends."""

    def allow(self) -> bool:
        """Count a message: whether it may be handled."""
        wait = self._guard.hit("messages", self._key)
        now = time.monotonic()
        if now - self._last_refusal > 2 * self._guard.rate("messages").seconds + 1:
            self.refused_in_a_row = 0  # the last refusal is long past: a new run
        if wait is None:
            return True
        self.refused_in_a_row += 1
        self._last_refusal = now
        self.retry_after = wait + 0.05  # a little past the window's end, which the storage
        return False  # checks against the wall clock

    @property
    def refusal(self) -> str:
        """The text of the ``rate_limited`` error."""
        window = self._guard.rate("messages")
        return (
            f"too many messages: at most {window.describe()} on one connection; "
            "this one was not read"
        )

    @property
    def flooding(self) -> bool:
        """Whether the connection has sent too many refused messages in a row."""
        limit = self._guard.limits.flood_close
        return limit > 0 and self.refused_in_a_row >= limit

    @property
    def close_code(self) -> int:
        """The code to close the connection with: 1008 once it floods, else 1000."""
        return 1008 if self.flooding else 1000

    @property
    def close_reason(self) -> str:
        """The reason sent with :attr:`close_code`."""
        return "too many messages" if self.flooding else ""


# -- answers ---------------------------------------------------------------------------------


def json_body(detail: str) -> bytes:
    """A short JSON answer body: ``{"detail": detail}``."""
    return json.dumps({"detail": detail}).encode()


async def _answer_http(
    send: Send, status: int, detail: str, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    body = json_body(detail)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _refuse_websocket(
    scope: Scope,
    receive: Receive,
    send: Send,
    status: int,
    detail: str,
    headers: Iterable[tuple[bytes, bytes]] = (),
) -> None:
    """Refuse a handshake: an HTTP answer when the server can send one (the
    ``websocket.http.response`` extension), else a close before accepting (a ``403``)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    if "websocket.http.response" in (scope.get("extensions") or {}):
        body = json_body(detail)
        await send(
            {
                "type": "websocket.http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *headers,
                ],
            }
        )
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": detail[:120]})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


# -- same origin -----------------------------------------------------------------------------


def normalize_origin(text: str) -> str | None:
    """``scheme://host[:port]`` in lower case without the scheme's default port, or ``None``
    if ``text`` is not an http(s) origin (``null``, a path, a user, another scheme …)."""
    try:
        parts = urllib.parse.urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in _DEFAULT_PORTS or not host or parts.username or parts.password:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    if ":" in host:
        host = f"[{host}]"
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


class SameOrigin:
    """ASGI middleware: a WebSocket handshake, or an HTTP request with an unsafe method, whose
    ``Origin`` is present and is neither the server's own (the request's scheme and ``Host``)
    nor one of ``allow_origins`` is refused with ``403`` and a JSON ``detail``; ``Origin:
    null`` is always refused. Requests without ``Origin`` (scripts, command-line tools) pass."""

    def __init__(self, app: ASGIApp, allow_origins: Sequence[str] = ()) -> None:
        self.app = app
        self.allowed: frozenset[str] = frozenset(parse_origins(allow_origins))
        """The extra origins allowed, normalised."""

    def allows(self, scope: Scope) -> bool:
        """Whether the request may go on."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        given = normalize_origin(origin)
        if given is None:
            return False
        if given in self.allowed:
            return True
        host = _header(scope, b"host")
        if not host:
            return False
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", ""), scope.get("scheme"))
        return normalize_origin(f"{scheme}://{host}") == given

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" and not self.allows(scope):
            await _refuse_websocket(
                scope, receive, send, 403, "cross-origin WebSocket connections are refused"
            )
            return
        if kind == "http" and scope["method"] not in _SAFE_METHODS and not self.allows(scope):
            await _answer_http(
                send, 403, "cross-origin requests are refused", [(b"connection", b"close")]
            )
            return
        await self.app(scope, receive, send)


def parse_origins(origins: Iterable[str]) -> list[str]:
    """Each origin normalised (:func:`normalize_origin`); ``ValueError`` names one that is not
    an http(s) origin."""
    out = []
    for text in origins:
        origin = normalize_origin(text)
        if origin is None:
            raise ValueError(f"{text!r} is not an origin like https://example.org[:port]")
        out.append(origin)
    return out


# -- security headers ------------------------------------------------------------------------


class SecurityHeaders:
    """ASGI middleware: every HTTP response gets :data:`CONTENT_SECURITY_POLICY` (the paths
    of ``docs_paths``: :data:`DOCS_CONTENT_SECURITY_POLICY`) and :data:`SECURITY_HEADERS`,
    unless the response set them itself."""

    def __init__(self, app: ASGIApp, docs_paths: Sequence[str] = ()) -> None:
        self.app = app
        self.docs_paths = frozenset(docs_paths)
        """Paths that get the API reference page's policy."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = (
            DOCS_CONTENT_SECURITY_POLICY
            if scope.get("path") in self.docs_paths
            else CONTENT_SECURITY_POLICY
        ).encode()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {bytes(k).lower() for k, _ in headers}
                for key, value in ((b"content-security-policy", policy), *SECURITY_HEADERS):
                    if key not in present:
                        headers.append((key, value))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


# -- rate limits -----------------------------------------------------------------------------


class RateLimits:
    """ASGI middleware: per client address, every HTTP request and WebSocket handshake counts
    against ``requests``, ``POST /api/rooms`` against ``rooms`` and ``POST
    /api/rooms/{room}/join`` against ``joins``; past a limit the answer is ``429`` with
    ``Retry-After`` and a JSON ``detail``, and the request goes no further. A handshake from
    an address that already holds ``connections`` open WebSocket connections is refused the
    same way."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard
        """The counters."""

    def _refusal(self, kind: str, wait: float, what: str) -> tuple[str, list[tuple[bytes, bytes]]]:
        seconds = max(1, math.ceil(wait))
        rate = self.guard.rate(kind)
        detail = f"too many {what} from this address (at most {rate.describe()}); "
        detail += f"try again in {seconds} s"
        return detail, [(b"retry-after", str(seconds).encode())]

    async def _hold(self, address: str, wait: float) -> bool:
        """Hold a refusal before it is answered (:attr:`Limits.tarpit`); ``False`` when the
        address already has :attr:`Limits.tarpit_hold` refusals held (answer at once, and
        close the connection)."""
        delay = min(self.guard.limits.tarpit, wait)
        if delay <= 0:
            return True
        held = self.guard.held.get(address, 0)
        if held >= self.guard.limits.tarpit_hold:
            return False
        self.guard.held[address] = held + 1
        try:
            await asyncio.sleep(delay)
        finally:
            left = self.guard.held.get(address, 1) - 1
            if left > 0:
                self.guard.held[address] = left
            else:
                self.guard.held.pop(address, None)
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            await self._http(scope, receive, send)
        elif kind == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = client_address(scope)
        checks = [("requests", "requests")]
        if scope["method"] == "POST":
            path = scope.get("path", "")
            if path.rstrip("/") == "/api/rooms":
                checks.append(("rooms", "new rooms"))
            elif _JOIN_PATH.match(path):
                checks.append(("joins", "seat joins"))
            elif path.rstrip("/") == "/api/quickplay":
                # it may open a room and it takes a seat: both quotas
                checks += [("rooms", "new rooms"), ("joins", "seat joins")]
        for limit, what in checks:
            wait = self.guard.hit(limit, address)
            if wait is not None:
                detail, headers = self._refusal(limit, wait, what)
                held = await self._hold(address, wait)
                if not held or scope["method"] not in _SAFE_METHODS:
                    headers.append((b"connection", b"close"))
                await _answer_http(send, 429, detail, headers)
                return
        await self.app(scope, receive, send)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = client_address(scope)
        wait = self.guard.hit("requests", address)
        if wait is not None:
            detail, headers = self._refusal("requests", wait, "requests")
            await self._hold(address, wait)
            await _refuse_websocket(scope, receive, send, 429, detail, headers)
            return
        cap = self.guard.limits.connections
        open_now = self.guard.open.get(address, 0)
        if cap and open_now >= cap:
            detail = f"too many WebSocket connections from this address (at most {cap} at once)"
            await self._hold(address, 5.0)
            await _refuse_websocket(scope, receive, send, 429, detail, [(b"retry-after", b"5")])
            return
        self.guard.open[address] = open_now + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.guard.open.get(address, 1) - 1
            if left > 0:
                self.guard.open[address] = left
            else:
                self.guard.open.pop(address, None)
