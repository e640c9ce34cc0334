"""The ``cardtable serve`` command: the web app (rooms, AI opponents, the browser table)."""

from __future__ import annotations

import asyncio
import copy
import importlib
import logging
import math
import socket
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from ..web.settings import DEFAULTS, ServerSettings, SettingError
from .checks import number_in
from .errors import FAILURE, fail
from .errors import fail as _fail

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..store import Store
    from ..web.guard import Limits

__all__ = ["serve_command"]

WS_MAX_SIZE = 1 << 20
"""Default largest WebSocket frame read (bytes); a larger one closes the connection (1009)."""

WS_MAX_SIZE_RANGE = (4096, 16 << 20)
"""Bounds of ``--ws-max-size``: at least a whole protocol message, at most 16 MiB."""

KEEP_ALIVE_SECONDS = 5
"""Seconds an idle keep-alive HTTP connection stays open."""

_RATE_HELP = "N, or N/S for N per S seconds; 0: no limit"

_SECONDS = number_in(0.0, math.inf, "seconds")
"""A duration: a finite number of seconds, not negative (each option may bound it further)."""

_WEB_MODULES = ("uvicorn", "sqlalchemy", "cardtable.web.app", "cardtable.web.connections")
"""What the command imports to run the server: all of them come with the ``web`` extra."""

# -- the options (their defaults are in the signature of serve_command) ----------------------

_Host = Annotated[str, typer.Option("--host", help="address to listen on")]
_Port = Annotated[
    int,
    typer.Option(
        "--port",
        help="port to listen on (0 to 65535; 0: any free one)",
        callback=number_in(0, 65535),
    ),
]
_Db = Annotated[
    str,
    typer.Option(
        "--db",
        help="SQLAlchemy URL of the store, e.g. sqlite+aiosqlite:///cardtable.db "
        "or postgresql+asyncpg://user@host/db",
    ),
]
_AiDelay = Annotated[
    float,
    typer.Option("--ai-delay", help="seconds an AI seat waits before it acts", callback=_SECONDS),
]
_PeekWindow = Annotated[
    float,
    typer.Option(
        "--peek-window", help="seconds the initial-peek phase stays open", callback=_SECONDS
    ),
]
_SnapWindow = Annotated[
    float,
    typer.Option("--snap-window", help="seconds a gabo snap window stays open", callback=_SECONDS),
]
_AiWorkers = Annotated[
    int | None,
    typer.Option(
        "--ai-workers",
        help="worker processes that compute the moves of the search levels (expert, "
        "master) beside the server; default: one per CPU; 0 runs them in a thread of the "
        "server instead (for debugging)",
        show_default=False,
    ),
]
_TurnTime = Annotated[
    float,
    typer.Option(
        "--turn-time",
        callback=_SECONDS,
        help="seconds a person has for each turn or decision before the server plays the "
        "timeout move for them; 0 turns the clock off",
    ),
]
_IdleTime = Annotated[
    float,
    typer.Option(
        "--idle-time",
        callback=_SECONDS,
        help="seconds a room with nobody connected (and nobody asking about it) stays in "
        "memory; then it is paused (its AI and clocks stop) until someone asks for it again",
    ),
]
_QuickplayWait = Annotated[
    float,
    typer.Option(
        "--quickplay-wait",
        callback=_SECONDS,
        help="seconds a table opened by Play now waits for people before computer players "
        "(casual) take its open seats and the game starts; 0: at once",
    ),
]
_MaxSpectators = Annotated[
    int,
    typer.Option(
        "--max-spectators",
        help="spectators one room takes at once; a spectator's join past it is refused "
        "(people joining their own seats never are); 0: no limit",
    ),
]
_MaxAiRooms = Annotated[
    int,
    typer.Option(
        "--max-ai-rooms",
        help="rooms of AI players only that may play at once; creating one past it, or "
        "bringing a paused one back by watching it, is refused (503); 0: no limit",
    ),
]
_AiRoomMoves = Annotated[
    float,
    typer.Option(
        "--ai-room-moves",
        help="AI moves a second that the rooms of AI players only make together; past it "
        "their moves wait their turn, so that people's tables go first; 0: no limit",
    ),
]
_AllowOrigin = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-origin",
        help="an origin (https://host[:port]) whose pages may also use the server: open "
        "WebSockets and create or join rooms (repeatable); the server's own origin always "
        "may",
        show_default=False,
    ),
]
_RateRooms = Annotated[
    str,
    typer.Option(
        "--rate-rooms", help=f"rooms one client address may create a minute ({_RATE_HELP})"
    ),
]
_RateJoins = Annotated[
    str,
    typer.Option("--rate-joins", help=f"seats one client address may take a minute ({_RATE_HELP})"),
]
_RateRequests = Annotated[
    str,
    typer.Option(
        "--rate-requests",
        help=f"HTTP requests (WebSocket handshakes included) one client address may make "
        f"a minute ({_RATE_HELP})",
    ),
]
_RateMessages = Annotated[
    str,
    typer.Option(
        "--rate-messages",
        help="WebSocket messages one connection may send a second on average, in bursts of "
        f"up to twice as many ({_RATE_HELP}); the first message over it is answered "
        "rate_limited and the connection is not read again until its window ends",
    ),
]
_FloodClose = Annotated[
    int,
    typer.Option(
        "--flood-close",
        help="close (code 1008) a connection that goes over its message rate this many "
        "windows in a row; 0: never",
    ),
]
_Tarpit = Annotated[
    float,
    typer.Option(
        "--tarpit",
        callback=_SECONDS,
        help="seconds a request or handshake over a limit is held before its 429 is sent "
        "(so a flood waits instead of being answered as fast as it asks); 0: at once",
    ),
]
_MaxConnections = Annotated[
    int,
    typer.Option(
        "--max-connections",
        help="WebSocket connections one client address may hold open at once; 0: no limit",
    ),
]
_AllowedHost = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-host",
        help="a host name (or IP address) the server answers to, besides localhost, "
        "127.0.0.1, ::1 and --host (repeatable; any port); a request naming another host is "
        "refused (400), against DNS rebinding; * for any host. Listening on 0.0.0.0 or ::, "
        "any IP address is answered, but names must be given",
        show_default=False,
    ),
]
_TotalConnections = Annotated[
    int,
    typer.Option(
        "--total-connections",
        help="WebSocket connections the server holds open at once, shared fairly between "
        "addresses: when full, a new one is refused (429) to an address holding its share "
        "or more and still let in from one holding less; at twice as many, refused to all; "
        "0: no limit",
    ),
]
_RateAddressMessages = Annotated[
    str,
    typer.Option(
        "--rate-address-messages",
        help="WebSocket messages one client address may send a second across all its "
        f"connections, on average, in bursts of up to twice as many ({_RATE_HELP}); past "
        "it a message waits its turn (its connection is not read meanwhile)",
    ),
]
_RateSignins = Annotated[
    str,
    typer.Option(
        "--rate-signins",
        help=f"sign-ins, sign-ups and account deletions one client address may try a minute "
        f"({_RATE_HELP})",
    ),
]
_RateServerRooms = Annotated[
    int,
    typer.Option(
        "--rate-server-rooms",
        help="rooms a second the server opens, shared fairly between the addresses asking: "
        "once they are spent, an address over its share is refused (429) until the next "
        "second while the others go on; 0: no budget",
    ),
]
_RateServerMessages = Annotated[
    int,
    typer.Option(
        "--rate-server-messages",
        help="WebSocket messages a second the server reads, shared fairly between the "
        "addresses sending: once they are spent, an address over its share waits for the "
        "next second (its connections are not read) while the others go on; 0: no budget",
    ),
]
_WsMaxSize = Annotated[
    int,
    typer.Option(
        "--ws-max-size",
        help="largest WebSocket frame the server reads, in bytes (4096 to 16777216); a "
        "larger one closes the connection",
    ),
]
_HeaderTimeout = Annotated[
    float,
    typer.Option(
        "--header-timeout",
        callback=_SECONDS,
        help="seconds a client has to send a whole request (head and body) once it starts "
        "one, or once it connects; a connection still sending is closed; 0: no limit",
    ),
]
_TrustProxy = Annotated[
    str | None,
    typer.Option(
        "--trust-proxy",
        help="addresses of reverse proxies (comma-separated; * for any) whose "
        "X-Forwarded-For and X-Forwarded-Proto give the client's address and scheme; "
        "by default the connection's own address counts",
        show_default=False,
    ),
]


def _one_of(value: str, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``, else a usage error naming them."""
    if value not in choices:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(choices)}")
    return value


_LogLevel = Annotated[
    str,
    typer.Option(
        "--log-level",
        help="lowest level logged (critical, error, warning, info, debug); at info, uvicorn's "
        "access lines and the rooms' events too",
    ),
]
_LogFormat = Annotated[
    str,
    typer.Option(
        "--log-format",
        help="text, or json: one JSON object a line on standard error (time, level, logger, "
        "message, and room and seat where a line concerns one; uvicorn's lines too); "
        "never a card or a token",
        callback=lambda value: _one_of(value, ("text", "json")),
    ),
]

_Redis = Annotated[
    str | None,
    typer.Option(
        "--redis",
        help="Redis URL (redis://host:port/db): run as one process of several that share the "
        "rooms through it and a PostgreSQL store (--db), behind a load balancer; see "
        "docs/deploy.md",
    ),
]


def serve_command(
    host: _Host = "127.0.0.1",
    port: _Port = 8000,
    db: _Db = "sqlite+aiosqlite:///cardtable.db",
    ai_delay: _AiDelay = DEFAULTS.ai_delay,
    peek_window: _PeekWindow = DEFAULTS.peek_window,
    snap_window: _SnapWindow = DEFAULTS.snap_window,
    ai_workers: _AiWorkers = DEFAULTS.ai_workers,
    turn_time: _TurnTime = DEFAULTS.turn_time,
    idle_time: _IdleTime = DEFAULTS.idle_time,
    quickplay_wait: _QuickplayWait = DEFAULTS.quickplay_wait,
    max_spectators: _MaxSpectators = DEFAULTS.max_spectators,
    max_ai_rooms: _MaxAiRooms = DEFAULTS.max_ai_rooms,
    ai_room_moves: _AiRoomMoves = DEFAULTS.ai_room_moves,
    allow_origin: _AllowOrigin = None,
    rate_rooms: _RateRooms = "20",
    rate_joins: _RateJoins = "60",
    rate_requests: _RateRequests = "600",
    rate_messages: _RateMessages = "20",
    flood_close: _FloodClose = 10,
    tarpit: _Tarpit = 1.0,
    max_connections: _MaxConnections = 32,
    total_connections: _TotalConnections = 4096,
    rate_address_messages: _RateAddressMessages = "100",
    rate_server_messages: _RateServerMessages = 5000,
    rate_server_rooms: _RateServerRooms = 20,
    rate_signins: _RateSignins = "10",
    allowed_host: _AllowedHost = None,
    ws_max_size: _WsMaxSize = WS_MAX_SIZE,
    header_timeout: _HeaderTimeout = 10.0,
    trust_proxy: _TrustProxy = None,
    log_level: _LogLevel = "warning",
    log_format: _LogFormat = "text",
    redis: _Redis = None,
) -> None:
    """Run the web app: rooms, AI opponents and the browser table (prints its URL).

    For operators: GET /healthz (the process serves), GET /readyz (200 while the store answers
    and the server is not stopping, else 503) and GET /metrics (Prometheus); see docs/deploy.md.
    """
    _require_web_extra()
    _check_db(db)
    if redis is not None:
        _check_cluster(db, redis)
    if idle_time <= 0:  # a room must outlast the moment between its creation and a join
        _fail("--idle-time must be more than 0")
    if not WS_MAX_SIZE_RANGE[0] <= ws_max_size <= WS_MAX_SIZE_RANGE[1]:
        _fail(f"--ws-max-size must be from {WS_MAX_SIZE_RANGE[0]} to {WS_MAX_SIZE_RANGE[1]}")
    limits = _limits(
        rooms=rate_rooms,
        joins=rate_joins,
        requests=rate_requests,
        messages=rate_messages,
        connections=max_connections,
        flood_close=flood_close,
        tarpit=tarpit,
        more={
            "total_connections": total_connections,
            "address_messages": rate_address_messages,
            "server_messages": rate_server_messages,
            "server_rooms": rate_server_rooms,
            "signins": rate_signins,
        },
    )
    hosts = _allowed_hosts(host, allowed_host or ())
    try:
        settings = ServerSettings(
            ai_delay=ai_delay,
            peek_window=peek_window,
            snap_window=snap_window,
            ai_workers=ai_workers,
            turn_time=turn_time,
            idle_time=idle_time,
            quickplay_wait=quickplay_wait,
            max_spectators=max_spectators,
            max_ai_rooms=max_ai_rooms,
            ai_room_moves=ai_room_moves,
            allow_origins=tuple(allow_origin or ()),
            allowed_hosts=hosts,
            limits=limits,
        )
    except SettingError as err:
        _fail(f"--{err.name.replace('_', '-')} {err.problem}")
    application = _app(db, settings, redis)
    _check_store(db)
    sock = _bind(host, port)
    _run(
        application,
        sock,
        host=host,
        db=db,
        ws_max_size=ws_max_size,
        header_timeout=header_timeout,
        trust_proxy=trust_proxy,
        log_level=log_level,
        log_format=log_format,
    )


def _require_web_extra() -> None:
    """Stop with a plain error where the ``web`` extra is not installed."""
    try:
        for name in _WEB_MODULES:
            importlib.import_module(name)
    except ImportError as err:  # pragma: no cover - depends on the install
        fail(f"the web app needs the 'web' extra: pip install 'cardtable[web]' ({err})", FAILURE)


def _check_db(db: str) -> None:
    """Stop with a usage error if ``db`` is not the URL of a store the server can use."""
    from ..store.db import url_problem

    problem = url_problem(db)
    if problem is not None:
        _fail(f"--db: {problem}")


def _limits(
    *,
    rooms: str,
    joins: str,
    requests: str,
    messages: str,
    connections: int,
    flood_close: int,
    tarpit: float,
    more: dict[str, int | str] | None = None,
) -> Limits:
    """The rate limits and quotas the options give (the rates as ``--rate-*`` take them);
    a usage error names the first option out of its bounds."""
    from ..web.guard import Limits, Rate

    if connections < 0 or flood_close < 0 or not 0 <= tarpit <= 10:
        _fail("--max-connections and --flood-close cannot be negative; --tarpit is 0 to 10")
    rates: dict[str, Rate] = {}
    for flag, text, seconds in (
        ("--rate-rooms", rooms, 60),
        ("--rate-joins", joins, 60),
        ("--rate-requests", requests, 60),
        ("--rate-messages", messages, 1),
    ):
        try:
            rates[flag] = Rate.parse(text, seconds)
        except ValueError as err:
            _fail(f"{flag}: {err}")
    extra = more or {}
    total = int(extra.get("total_connections", 4096))
    server_messages = int(extra.get("server_messages", 5000))
    server_rooms = int(extra.get("server_rooms", 20))
    if total < 0 or server_messages < 0 or server_rooms < 0:
        _fail(
            "--total-connections, --rate-server-messages and --rate-server-rooms cannot be negative"
        )
    try:
        by_address = Rate.parse(str(extra.get("address_messages", "100")), 1)
    except ValueError as err:
        _fail(f"--rate-address-messages: {err}")
    try:
        signins = Rate.parse(str(extra.get("signins", "10")), 60)
    except ValueError as err:
        _fail(f"--rate-signins: {err}")
    return Limits(
        total_connections=total,
        address_messages=by_address,
        server_messages=server_messages,
        server_rooms=server_rooms,
        signins=signins,
        rooms=rates["--rate-rooms"],
        joins=rates["--rate-joins"],
        requests=rates["--rate-requests"],
        messages=rates["--rate-messages"],
        connections=connections,
        flood_close=flood_close,
        tarpit=tarpit,
    )


def _allowed_hosts(host: str, extra: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The hosts the server answers to (:func:`..web.guard.allowed_hosts`); a usage error
    names an ``--allowed-host`` that is not a host name. Listening on every address without
    names given, it says that names must be given."""
    from ..web.guard import ANY_HOST, allowed_hosts

    try:
        hosts = allowed_hosts(host, extra)
    except ValueError as err:
        _fail(f"--allowed-host: {err}")
    if host in ("0.0.0.0", "::") and not extra:
        Console(stderr=True).print(
            f"listening on {host}: requests are answered at any IP address of this machine "
            "and at localhost; give each name it is reached by with --allowed-host NAME "
            "(others are refused, against DNS rebinding)"
        )
    return hosts if ANY_HOST not in hosts else (ANY_HOST,)


def _check_cluster(db: str, redis: str) -> None:
    """Stop with a plain error unless several processes can share this store and this Redis:
    the store is PostgreSQL, and Redis answers."""
    from sqlalchemy import make_url

    if not make_url(db).get_backend_name().startswith("postgresql"):
        _fail("--redis: several processes share a PostgreSQL store (--db postgresql+asyncpg://…)")
    try:
        import redis as redis_py
    except ImportError:  # pragma: no cover - depends on the install
        fail("--redis needs the 'redis' extra: pip install 'cardtable[redis]'", FAILURE)
    try:
        client = redis_py.Redis.from_url(redis, socket_connect_timeout=5)
        client.ping()
        client.close()
    except ValueError as err:
        _fail(f"--redis: {err}")
    except Exception as err:
        fail(f"cannot reach Redis at --redis: {type(err).__name__}", FAILURE)


def _app(db: str, settings: ServerSettings, redis: str | None = None) -> FastAPI:
    """The web app on the store at ``db`` (one process of a cluster with ``redis``); a usage
    error for an ``--allow-origin`` that is not an origin."""
    from ..web.app import create_app

    try:
        return create_app(db, settings, redis_url=redis)
    except ValueError as err:  # an --allow-origin that is not an origin
        _fail(str(err))


def _check_store(db: str) -> None:
    """Open the store once and close it, so that one out of reach is said plainly (without
    its password), before any URL is printed."""
    from sqlalchemy import make_url

    from ..store.db import Store

    try:
        asyncio.run(_open_and_close(Store(db)))
    except Exception as err:
        shown_db = make_url(db).render_as_string(hide_password=True)
        fail(f"cannot open the store at {shown_db}: {err}", FAILURE)


def _bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (0: any free port), so the URL printed is one that
    really answers; a usage error if the port is busy or the address is not this machine's."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        _fail(f"cannot listen on {host}:{port}: {err.strerror or err}")
    return sock


def _run(
    application: FastAPI,
    sock: socket.socket,
    *,
    host: str,
    db: str,
    ws_max_size: int,
    header_timeout: float,
    trust_proxy: str | None,
    log_level: str,
    log_format: str = "text",
) -> None:
    """Serve ``application`` with uvicorn on ``sock`` (its frames at most ``ws_max_size``
    bytes, each request sent within ``header_timeout`` seconds, the client's address taken
    from the proxies of ``trust_proxy``), after printing its URL; returns when it stops."""
    import uvicorn

    from ..store.db import in_memory
    from ..web.connections import guarded_http_protocol, paced_websocket_protocol
    from ..web.guard import MAX_HEAD_BYTES
    from ..web.logs import json_log_config

    as_json = log_format == "json"
    # text: uvicorn's own configuration of its loggers, as before
    logs = json_log_config(log_level) if as_json else _text_log_config(log_level)
    config = uvicorn.Config(
        application,
        log_level=log_level,
        ws_max_size=ws_max_size,
        http=guarded_http_protocol(header_timeout, MAX_HEAD_BYTES),
        ws=paced_websocket_protocol(),
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        proxy_headers=trust_proxy is not None,
        forwarded_allow_ips=trust_proxy,
        log_config=logs,
    )
    server = _draining_server(application.state.manager)(config)
    bound = sock.getsockname()[1]
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    if as_json:  # every line is a log record: the banner too
        logging.captureWarnings(True)
        log = logging.getLogger("cardtable.serve")
        log.info("cardtable is running at http://%s:%d/", shown, bound)
        if in_memory(db):
            log.info("the store is a throwaway one: its rooms and games go when it stops")
    else:
        Console().print(
            f"cardtable is running at [bold]http://{shown}:{bound}/[/bold]  (Ctrl+C stops it)"
        )
        if in_memory(db):
            Console().print("the store is a throwaway one: its rooms and games go when it stops")
    server.run(sockets=[sock])


def _text_log_config(level: str) -> dict[str, Any]:
    """uvicorn's own logging configuration, with the server's loggers (``cardtable.*``) on its
    handler at ``level`` too: the rooms' events at ``info``, the warnings at ``warning``."""
    import uvicorn

    config: dict[str, Any] = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config["loggers"]["cardtable"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    return config


def _draining_server(manager: Any) -> type[Any]:
    """uvicorn's server, which drains ``manager``'s rooms before it stops (SIGTERM, Ctrl+C)."""
    import uvicorn

    class DrainingServer(uvicorn.Server):
        """Before uvicorn closes the connections (code 1012: reconnect), the app is marked
        draining (``/readyz`` fails) and, in a cluster, gives up its rooms, so the clients
        reconnect to the other processes, which take the rooms over (:meth:`.RoomManager.drain`)."""

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            try:
                await asyncio.wait_for(manager.drain(), 5.0)
            except Exception:
                logging.getLogger("cardtable.serve").exception("draining the rooms failed")
            await super().shutdown(sockets)

    return DrainingServer


async def _open_and_close(store: Store) -> None:
    """Open ``store`` (bringing its schema up to date) and close it again."""
    await store.open()
    await store.close()
