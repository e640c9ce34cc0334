"""Guards of the web server against other sites and against floods (docs/protocol.md, "Limits").

- :class:`AllowedHosts` refuses (``400``) a request whose ``Host`` is not one of the names the
  server answers to (DNS rebinding).
- :class:`SameOrigin` refuses (``403``) a WebSocket handshake, or an HTTP request with an unsafe
  method, sent by a page of another site: its ``Origin`` is neither the server's own origin
  (the request's scheme and ``Host``) nor one of the allowed extra origins.
- :class:`SecurityHeaders` puts a content security policy and the other protective headers on
  every HTTP response.
- :class:`RateLimits` counts, per client address, HTTP requests, room creations and seat joins
  (``429`` with ``Retry-After`` past a limit) and open WebSocket connections (a handshake past
  the cap of its address, or past its address's share of the server's cap, is refused with
  ``429``).
- :class:`MessageGate` counts the messages of one WebSocket connection (the ``/ws`` loop asks it
  before handling each message and answers ``rate_limited`` past the limit) and of its
  address: a message waits its turn while the address is over its rate across its
  connections, or over its share of the server's messages a second (:mod:`.fairness`).
- A refused WebSocket handshake (another site, another host, a limit) is counted against its
  address's requests, held like any refusal and logged at most once per address and window
  (:meth:`Guard.refuse_handshake`).
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
import logging
import math
import random
import re
import time
import urllib.parse
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.storage import MemoryStorage, RedisStorage
from limits.strategies import FixedWindowRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .fairness import AddressPace, FairShare

__all__ = [
    "ANY_HOST",
    "CONTENT_SECURITY_POLICY",
    "DOCS_CONTENT_SECURITY_POLICY",
    "LOCAL_HOSTS",
    "MAX_HEAD_BYTES",
    "SECURITY_HEADERS",
    "AllowedHosts",
    "Guard",
    "Limits",
    "MessageGate",
    "Rate",
    "RateLimits",
    "SameOrigin",
    "SecurityHeaders",
    "allowed_hosts",
    "client_address",
    "host_name",
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

LOCAL_HOSTS: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")
"""Host names every server answers to (with any port)."""

ANY_HOST = "*"
"""The allowed host that stands for any: the ``Host`` header is not checked."""

_WILDCARD_HOSTS = frozenset({"0.0.0.0", "::"})
"""Allowed hosts that stand for any IP address (a server listening on every address of its
machine can be reached at any of them; a name still has to be allowed)."""

log = logging.getLogger("cardtable.web.guard")

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_JOIN_PATH = re.compile(r"^/api/rooms/[^/]+/join/?$")
_SIGNIN_PATHS = frozenset(("/api/account/signin", "/api/account/signup", "/api/account/delete"))
"""The requests that check or make a password: counted against ``signins``."""
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
    signins: Rate = Rate(10, 60)
    """Sign-ins, sign-ups and account deletions an address may try (each checks a password
    or makes one: :mod:`.accounts`)."""
    connections: int = 32
    """WebSocket connections an address may hold open at once (0: no limit)."""
    total_connections: int = 4096
    """WebSocket connections the server holds open at once, shared fairly: once it holds this
    many, a new one is refused to an address holding its share (this number divided by the
    addresses holding connections) or more, and still let in from an address holding less;
    at twice this number every new one is refused (0: no limit)."""
    messages: Rate = Rate(20, 1)
    """WebSocket messages per connection, on average."""
    address_messages: Rate = Rate(100, 1)
    """WebSocket messages per address, across all its connections, on average, in bursts of
    up to twice the count; past it a message waits its turn (:class:`.fairness.AddressPace`)."""
    server_messages: int = 5000
    """WebSocket messages a second the server reads, shared fairly among the addresses sending
    (:class:`.fairness.FairShare`; 0: no budget)."""
    server_rooms: int = 20
    """Rooms a second the server opens (``POST /api/rooms`` and quick play), shared fairly among
    the addresses asking (:class:`.fairness.FairShare`): once they are spent, an address over
    its share is refused (``429``) until the next second, so that a burst of creations from a
    few addresses cannot hold up the tables in play (0: no budget)."""
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
        if self.connections < 0 or self.flood_close < 0 or self.total_connections < 0:
            raise ValueError("limits cannot be negative")
        if self.message_burst is not None and self.message_burst < self.messages.count:
            raise ValueError("the message burst cannot be less than the message rate")
        if self.server_messages < 0 or self.server_rooms < 0:
            raise ValueError("limits cannot be negative")

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
            signins=off,
            requests=off,
            connections=0,
            total_connections=0,
            messages=off,
            address_messages=off,
            server_messages=0,
            server_rooms=0,
            flood_close=0,
            tarpit=0.0,
        )


class SweptStorage(MemoryStorage):
    """The in-memory counters of ``limits``, their expired keys swept by the thread counting
    (at most once a second, as it counts) rather than by a timer thread the storage starts
    again after every quiet moment: starting a thread waits until it runs, and the event loop
    must not wait on that under load."""

    SWEEP_EVERY = 1.0
    """Seconds between two sweeps of the expired keys."""

    def __init__(self) -> None:
        super().__init__()
        self._next_sweep = 0.0

    def _MemoryStorage__schedule_expiry(self) -> None:  # noqa: N802 (the base's private hook)
        """Sweep the expired keys if the last sweep is a second old (instead of a thread)."""
        now = time.time()
        if now >= self._next_sweep:
            self._next_sweep = now + self.SWEEP_EVERY
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]


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
    messages) in the in-memory storage of ``limits`` (the requests, rooms and joins in Redis,
    shared by a cluster's processes, given ``shared``: its URL), and the open WebSocket
    connections per address. Keys expire with their window, so memory follows the addresses
    seen lately."""

    def __init__(self, limits: Limits | None = None, shared: str | None = None) -> None:
        self.limits = limits or Limits()
        """The limits."""
        self.storage = SweptStorage()
        """The counters (expired keys are dropped by the storage as it counts)."""
        self._limiter = FixedWindowRateLimiter(self.storage)
        self._shared: FixedWindowRateLimiter | None = None
        if shared is not None:  # the processes of a cluster count each address together
            storage = RedisStorage(shared, key_prefix="ct-limits", socket_timeout=1.0)
            self._shared = FixedWindowRateLimiter(storage)
        self._shared_failed = 0.0
        self._items = {
            "requests": _item(self.limits.requests, "requests"),
            "rooms": _item(self.limits.rooms, "rooms"),
            "joins": _item(self.limits.joins, "joins"),
            "signins": _item(self.limits.signins, "signins"),
            "messages": _item(self.limits.message_window, "messages"),
        }
        self._rates = {
            "requests": self.limits.requests,
            "rooms": self.limits.rooms,
            "joins": self.limits.joins,
            "signins": self.limits.signins,
            "messages": self.limits.message_window,
        }
        self.open: dict[str, int] = {}
        """Open WebSocket connections by address (addresses with none are left out)."""
        self.open_total = 0
        """Open WebSocket connections in all."""
        self.held: dict[str, int] = {}
        """Refusals being held before their answer, by address (none: left out)."""
        rate = self.limits.address_messages
        self.address_messages = AddressPace(
            rate.count / rate.seconds, 2 * rate.count if rate.count else 0
        )
        """Messages per address, across its connections: paced, in bursts of twice the rate."""
        self.share = FairShare(self.limits.server_messages)
        """The server's messages a second, shared among the addresses sending."""
        self.room_share = FairShare(self.limits.server_rooms)
        """The rooms a second the server opens, shared among the addresses asking."""
        self._logged: dict[str, float] = {}  # address -> when its refusals may be logged again
        self._conn_ids = itertools.count()

    def server_full(self, address: str) -> bool:
        """Whether a new WebSocket connection from ``address`` is over the server's cap: the
        server holds :attr:`Limits.total_connections` or more and the address holds its share
        of them or more (or the server holds twice the cap)."""
        cap = self.limits.total_connections
        if not cap or self.open_total < cap:
            return False
        if self.open_total >= 2 * cap:
            return True
        holds = self.open.get(address, 0)
        holders = len(self.open) + (0 if holds else 1)
        return holds >= cap / holders

    def opened(self, address: str) -> None:
        """Count a WebSocket connection of ``address`` as open."""
        self.open[address] = self.open.get(address, 0) + 1
        self.open_total += 1

    def closed(self, address: str) -> None:
        """Count a WebSocket connection of ``address`` as closed."""
        left = self.open.get(address, 1) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)
        self.open_total = max(0, self.open_total - 1)

    async def hold(self, address: str, wait: float) -> bool:
        """Hold a refusal before it is answered (:attr:`Limits.tarpit`, never past ``wait``
        seconds, and less by up to a half at random, so that a burst of refusals is answered
        over a while rather than all at once, and its retries come back spread out);
        ``False`` when the address already has :attr:`Limits.tarpit_hold` refusals held
        (answer at once, and close the connection)."""
        delay = min(self.limits.tarpit, wait) * random.uniform(0.5, 1.0)
        if delay <= 0:
            return True
        held = self.held.get(address, 0)
        if held >= self.limits.tarpit_hold:
            return False
        self.held[address] = held + 1
        try:
            await asyncio.sleep(delay)
        finally:
            left = self.held.get(address, 1) - 1
            if left > 0:
                self.held[address] = left
            else:
                self.held.pop(address, None)
        return True

    def note_refusal(self, address: str, what: str) -> None:
        """Log a refused handshake (a warning), at most once per address in each window of
        the request rate: a flood of them writes one line, not one per handshake."""
        now = time.monotonic()
        if self._logged.get(address, -math.inf) > now:
            return
        if len(self._logged) >= 4096:  # forget the addresses whose quiet time is over
            self._logged = {a: t for a, t in self._logged.items() if t > now}
        seconds = self.limits.requests.seconds
        self._logged[address] = now + seconds
        log.warning(
            "refused a WebSocket handshake from %s (%s); more from it within %d s are refused "
            "without a log line",
            address,
            what,
            seconds,
        )

    async def refuse_handshake(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        status: int,
        detail: str,
        headers: Iterable[tuple[bytes, bytes]] = (),
    ) -> None:
        """Refuse a WebSocket handshake as every refusal is: counted against the address's
        requests (``429`` instead once they are over their limit), held for the tarpit, logged
        at most once per address and window, and answered with an HTTP status and a JSON
        ``detail`` before the upgrade."""
        address = client_address(scope)
        self.note_refusal(address, f"{status}: {detail}")
        wait = self.hit("requests", address)
        if wait is not None:
            detail = (
                f"too many requests from this address (at most "
                f"{self.rate('requests').describe()}); try again in {max(1, math.ceil(wait))} s"
            )
            status, headers = 429, [(b"retry-after", str(max(1, math.ceil(wait))).encode())]
        else:
            wait = self.limits.tarpit
        await self.hold(address, wait)
        await _refuse_websocket(scope, receive, send, status, detail, headers)

    def hit(self, kind: str, key: str) -> float | None:
        """Count one event of ``kind`` (``requests``, ``rooms``, ``joins``, ``messages``) for
        ``key``: ``None`` if it is allowed, else the seconds until the window ends. With a
        ``shared`` Redis the requests, rooms and joins are counted there, for every process of
        the cluster together (a connection's messages stay with its process); while Redis is
        out of reach each process counts alone."""
        if not self._rates[kind].enabled:
            return None
        item = self._items[kind]
        limiter = self._limiter
        if (
            self._shared is not None
            and kind != "messages"
            and time.monotonic() > self._shared_failed
        ):
            limiter = self._shared  # requests, rooms and joins: counted across the processes
        try:
            if limiter.hit(item, key):
                return None
            reset = limiter.get_window_stats(item, key).reset_time
        except Exception as exc:  # Redis out of reach: count in this process for a while
            if limiter is self._limiter:
                raise
            log.warning("shared rate limits unavailable (%s); counting here", type(exc).__name__)
            self._shared_failed = time.monotonic() + 10.0
            return self.hit(kind, key)
        return max(0.0, reset - time.time())

    def rate(self, kind: str) -> Rate:
        """The rate of ``kind`` (for messages: the window they are counted in)."""
        return self._rates[kind]

    def message_gate(self, address: str = "unknown") -> MessageGate:
        """A gate for the messages of a new connection from ``address``."""
        return MessageGate(self, f"conn-{next(self._conn_ids)}", address)

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

    def __init__(self, guard: Guard, key: str, address: str = "unknown") -> None:
        self._guard = guard
        self._key = key
        self._address = address
        self._last_refusal = -math.inf
        self.refused_in_a_row = 0
        """Refusals in the current run (each refusal ends a window: the server waits for the
        next one before it reads again)."""
        self.retry_after = 0.0
        """Seconds until the window of the last refusal ends."""

    def allow(self) -> bool:
        """Count a message: whether it may be handled (within the rate of its connection and
        of its address)."""
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

    async def turn(self) -> None:
        """Wait for the message's turn: while the connection's address is over its own rate
        across its connections (:class:`.fairness.AddressPace`), then while it is over its
        share of the server's messages a second (:class:`.fairness.FairShare`). Meanwhile
        nothing more is read from the connection."""
        wait = self._guard.address_messages.take(self._address)
        if wait > 0:
            await asyncio.sleep(wait)
        while (wait := self._guard.share.take(self._address)) > 0:
            await asyncio.sleep(wait)

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

    def __init__(
        self, app: ASGIApp, allow_origins: Sequence[str] = (), guard: Guard | None = None
    ) -> None:
        self.app = app
        self.allowed: frozenset[str] = frozenset(parse_origins(allow_origins))
        """The extra origins allowed, normalised."""
        self.guard = guard
        """The counters a refused handshake is counted in (:meth:`Guard.refuse_handshake`);
        ``None``: refused at once, uncounted."""

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
            detail = "cross-origin WebSocket connections are refused"
            if self.guard is not None:
                await self.guard.refuse_handshake(scope, receive, send, 403, detail)
            else:
                await _refuse_websocket(scope, receive, send, 403, detail)
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


# -- allowed hosts ---------------------------------------------------------------------------


def host_name(value: str) -> str | None:
    """The host of a ``Host`` header (or of an ``--allowed-host``): lower case, without its
    port, brackets or a final dot; ``None`` if it is not a host name or an IP address."""
    text = value.strip().lower()
    if text.startswith("["):
        name, sep, rest = text[1:].partition("]")
        if not sep or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        try:
            return str(ipaddress.IPv6Address(name))
        except ValueError:
            return None
    if text.count(":") > 1:  # a bare IPv6 address (as --allowed-host may give it)
        try:
            return str(ipaddress.IPv6Address(text))
        except ValueError:
            return None
    name, sep, port = text.partition(":")
    if sep and not port.isdigit():
        return None
    name = name.removesuffix(".")
    if not name or len(name) > 253 or not re.fullmatch(r"[a-z0-9_.-]+", name):
        return None
    return name


def allowed_hosts(listen: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The hosts a server listening on ``listen`` answers to: the names of the machine itself
    (:data:`LOCAL_HOSTS`), ``listen`` and each of ``extra`` (:data:`ANY_HOST` for any);
    ``ValueError`` names one that is not a host name or an IP address (a port, a scheme or a
    path is not part of it)."""
    out = list(LOCAL_HOSTS)
    for text in (listen, *extra):
        if text.strip() == ANY_HOST:
            out.append(ANY_HOST)
            continue
        name = host_name(text)
        given = text.strip()
        with_port = given.count(":") == 1 or (given.startswith("[") and not given.endswith("]"))
        if name is None or with_port:
            raise ValueError(f"{text!r} is not a host name or an IP address (no port, no scheme)")
        out.append(name)
    return tuple(dict.fromkeys(out))


class AllowedHosts:
    """ASGI middleware: a request (HTTP or WebSocket handshake) whose ``Host`` header names a
    host not in ``hosts`` (ports aside) is refused — ``400`` with a JSON ``detail``, before
    anything else — so a page of another site that made its name point at this server (DNS
    rebinding) reaches nothing. :data:`ANY_HOST` among ``hosts`` lets every host in; ``0.0.0.0``
    or ``::`` lets in any IP address (names must still be given). A refused handshake is
    counted and held as every refusal (:meth:`Guard.refuse_handshake`, with ``guard``)."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str], guard: Guard | None = None) -> None:
        self.app = app
        names = {host_name(h) if h != ANY_HOST else ANY_HOST for h in hosts}
        self.hosts: frozenset[str] = frozenset(n for n in names if n is not None)
        """The host names allowed, normalised."""
        self.any_address = bool(self.hosts & _WILDCARD_HOSTS)
        """Whether any IP address is allowed (the server listens on every address)."""
        self.guard = guard
        """The counters refusals are counted in (``None``: not counted)."""

    def allows(self, scope: Scope) -> bool:
        """Whether the request's ``Host`` is allowed."""
        if ANY_HOST in self.hosts:
            return True
        host = _header(scope, b"host")
        name = host_name(host) if host else None
        if name is None:
            return False
        if name in self.hosts:
            return True
        if self.any_address:
            try:
                ipaddress.ip_address(name)
            except ValueError:
                return False
            return True
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or self.allows(scope):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        shown = "no Host header" if not host else f"the host {host[:80]!r}"
        detail = f"this server does not answer to {shown} (see --allowed-host)"
        if kind == "websocket":
            if self.guard is not None:
                await self.guard.refuse_handshake(scope, receive, send, 400, detail)
            else:
                await _refuse_websocket(scope, receive, send, 400, detail)
            return
        headers = [(b"connection", b"close")]
        if self.guard is not None:
            address = client_address(scope)
            wait = self.guard.hit("requests", address)
            if wait is not None:  # over the request rate: a 429, held as every one
                seconds = max(1, math.ceil(wait))
                detail = (
                    f"too many requests from this address (at most "
                    f"{self.guard.rate('requests').describe()}); try again in {seconds} s"
                )
                await self.guard.hold(address, wait)
                headers.append((b"retry-after", str(seconds).encode()))
                await _answer_http(send, 429, detail, headers)
                return
        await _answer_http(send, 400, detail, headers)


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
        """Hold a refusal before it is answered (:meth:`Guard.hold`)."""
        return await self.guard.hold(address, wait)

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
            elif path.rstrip("/") in _SIGNIN_PATHS:
                checks.append(("signins", "sign-in attempts"))
            elif path.rstrip("/") == "/api/quickplay":
                # it may open a room and it takes a seat: both quotas
                checks += [("rooms", "new rooms"), ("joins", "seat joins")]
        for limit, what in checks:
            wait = self.guard.hit(limit, address)
            if wait is not None:
                detail, headers = self._refusal(limit, wait, what)
                await self._refuse_http(scope, send, address, wait, detail, headers)
                return
        if any(limit == "rooms" for limit, _ in checks):
            wait = self.guard.room_share.take(address)
            if wait > 0:
                detail = (
                    f"the server opens at most {self.guard.limits.server_rooms} rooms a second, "
                    "shared between addresses, and this address has had its share; try again "
                    "in a moment"
                )
                headers = [(b"retry-after", str(max(1, math.ceil(wait))).encode())]
                await self._refuse_http(scope, send, address, wait, detail, headers)
                return
        await self.app(scope, receive, send)

    async def _refuse_http(
        self,
        scope: Scope,
        send: Send,
        address: str,
        wait: float,
        detail: str,
        headers: list[tuple[bytes, bytes]],
    ) -> None:
        """Answer ``429`` with ``detail`` after holding the refusal (the tarpit); an unsafe
        request's connection, or one whose refusal could not be held, is closed."""
        held = await self._hold(address, wait)
        if not held or scope["method"] not in _SAFE_METHODS:
            headers.append((b"connection", b"close"))
        await _answer_http(send, 429, detail, headers)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = client_address(scope)
        wait = self.guard.hit("requests", address)
        if wait is not None:
            detail, headers = self._refusal("requests", wait, "requests")
            self.guard.note_refusal(address, "429: too many requests")
            await self._hold(address, wait)
            await _refuse_websocket(scope, receive, send, 429, detail, headers)
            return
        cap = self.guard.limits.connections
        open_now = self.guard.open.get(address, 0)
        if cap and open_now >= cap:
            detail = f"too many WebSocket connections from this address (at most {cap} at once)"
        elif self.guard.server_full(address):
            total = self.guard.limits.total_connections
            detail = (
                f"the server is full (at most {total} WebSocket connections at once, shared "
                "between addresses) and this address holds its share; try again later"
            )
        else:
            self.guard.opened(address)
            try:
                await self.app(scope, receive, send)
            finally:
                self.guard.closed(address)
            return
        self.guard.note_refusal(address, f"429: {detail}")
        await self._hold(address, 5.0)
        await _refuse_websocket(scope, receive, send, 429, detail, [(b"retry-after", b"5")])
