"""The ``cardtable serve`` command: the web app (rooms, AI opponents, the browser table)."""

from __future__ import annotations

import asyncio
import math
import socket
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from .checks import number_in
from .render import FAILURE, fail
from .render import fail as _fail

if TYPE_CHECKING:
    from ..store import Store

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


def serve_command(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            "--port",
            help="port to listen on (0 to 65535; 0: any free one)",
            callback=number_in(0, 65535),
        ),
    ] = 8000,
    db: Annotated[
        str,
        typer.Option(
            "--db",
            help="SQLAlchemy URL of the store, e.g. sqlite+aiosqlite:///cardtable.db "
            "or postgresql+asyncpg://user@host/db",
        ),
    ] = "sqlite+aiosqlite:///cardtable.db",
    ai_delay: Annotated[
        float,
        typer.Option(
            "--ai-delay", help="seconds an AI seat waits before it acts", callback=_SECONDS
        ),
    ] = 0.8,
    peek_window: Annotated[
        float,
        typer.Option(
            "--peek-window", help="seconds the initial-peek phase stays open", callback=_SECONDS
        ),
    ] = 30.0,
    snap_window: Annotated[
        float,
        typer.Option(
            "--snap-window", help="seconds a gabo snap window stays open", callback=_SECONDS
        ),
    ] = 5.0,
    ai_workers: Annotated[
        int | None,
        typer.Option(
            "--ai-workers",
            help="worker processes that compute the moves of the search levels (expert, "
            "master) beside the server; default: one per CPU; 0 runs them in a thread of the "
            "server instead (for debugging)",
            show_default=False,
        ),
    ] = None,
    turn_time: Annotated[
        float,
        typer.Option(
            "--turn-time",
            callback=_SECONDS,
            help="seconds a person has for each turn or decision before the server plays the "
            "timeout move for them; 0 turns the clock off",
        ),
    ] = 60.0,
    idle_time: Annotated[
        float,
        typer.Option(
            "--idle-time",
            callback=_SECONDS,
            help="seconds a room with nobody connected (and nobody asking about it) stays in "
            "memory; then it is paused (its AI and clocks stop) until someone asks for it again",
        ),
    ] = 120.0,
    quickplay_wait: Annotated[
        float,
        typer.Option(
            "--quickplay-wait",
            callback=_SECONDS,
            help="seconds a table opened by Play now waits for people before computer players "
            "(casual) take its open seats and the game starts; 0: at once",
        ),
    ] = 20.0,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            help="an origin (https://host[:port]) whose pages may also use the server: open "
            "WebSockets and create or join rooms (repeatable); the server's own origin always "
            "may",
            show_default=False,
        ),
    ] = None,
    rate_rooms: Annotated[
        str,
        typer.Option(
            "--rate-rooms", help=f"rooms one client address may create a minute ({_RATE_HELP})"
        ),
    ] = "20",
    rate_joins: Annotated[
        str,
        typer.Option(
            "--rate-joins", help=f"seats one client address may take a minute ({_RATE_HELP})"
        ),
    ] = "60",
    rate_requests: Annotated[
        str,
        typer.Option(
            "--rate-requests",
            help=f"HTTP requests (WebSocket handshakes included) one client address may make "
            f"a minute ({_RATE_HELP})",
        ),
    ] = "600",
    rate_messages: Annotated[
        str,
        typer.Option(
            "--rate-messages",
            help="WebSocket messages one connection may send a second on average, in bursts of "
            f"up to twice as many ({_RATE_HELP}); the first message over it is answered "
            "rate_limited and the connection is not read again until its window ends",
        ),
    ] = "20",
    flood_close: Annotated[
        int,
        typer.Option(
            "--flood-close",
            help="close (code 1008) a connection that goes over its message rate this many "
            "windows in a row; 0: never",
        ),
    ] = 10,
    tarpit: Annotated[
        float,
        typer.Option(
            "--tarpit",
            callback=_SECONDS,
            help="seconds a request or handshake over a limit is held before its 429 is sent "
            "(so a flood waits instead of being answered as fast as it asks); 0: at once",
        ),
    ] = 1.0,
    max_connections: Annotated[
        int,
        typer.Option(
            "--max-connections",
            help="WebSocket connections one client address may hold open at once; 0: no limit",
        ),
    ] = 32,
    ws_max_size: Annotated[
        int,
        typer.Option(
            "--ws-max-size",
            help="largest WebSocket frame the server reads, in bytes (4096 to 16777216); a "
            "larger one closes the connection",
        ),
    ] = WS_MAX_SIZE,
    header_timeout: Annotated[
        float,
        typer.Option(
            "--header-timeout",
            callback=_SECONDS,
            help="seconds a client has to send a whole request (head and body) once it starts "
            "one, or once it connects; a connection still sending is closed; 0: no limit",
        ),
    ] = 10.0,
    trust_proxy: Annotated[
        str | None,
        typer.Option(
            "--trust-proxy",
            help="addresses of reverse proxies (comma-separated; * for any) whose "
            "X-Forwarded-For and X-Forwarded-Proto give the client's address and scheme; "
            "by default the connection's own address counts",
            show_default=False,
        ),
    ] = None,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn log level")] = "warning",
) -> None:
    """Run the web app: rooms, AI opponents and the browser table (prints its URL)."""
    try:
        import uvicorn
        from sqlalchemy import make_url

        from ..store.db import Store, in_memory, url_problem
        from ..web.app import create_app
        from ..web.connections import guarded_http_protocol, paced_websocket_protocol
        from ..web.guard import MAX_HEAD_BYTES, Limits, Rate
    except ImportError as err:  # pragma: no cover - depends on the install
        fail(f"the web app needs the 'web' extra: pip install 'cardtable[web]' ({err})", FAILURE)
    problem = url_problem(db)
    if problem is not None:
        _fail(f"--db: {problem}")
    if min(ai_delay, peek_window, snap_window) < 0:
        _fail("delays and windows cannot be negative")
    if ai_workers is not None and ai_workers < 0:
        _fail("--ai-workers cannot be negative")
    if turn_time < 0 or header_timeout < 0:
        _fail("--turn-time and --header-timeout cannot be negative")
    if idle_time <= 0:
        _fail("--idle-time must be more than 0")
    if not 0 <= quickplay_wait <= 3600:
        _fail("--quickplay-wait is 0 to 3600 seconds")
    if max_connections < 0 or flood_close < 0 or not 0 <= tarpit <= 10:
        _fail("--max-connections and --flood-close cannot be negative; --tarpit is 0 to 10")
    if not WS_MAX_SIZE_RANGE[0] <= ws_max_size <= WS_MAX_SIZE_RANGE[1]:
        _fail(f"--ws-max-size must be from {WS_MAX_SIZE_RANGE[0]} to {WS_MAX_SIZE_RANGE[1]}")
    rates: dict[str, Rate] = {}
    for flag, text, seconds in (
        ("--rate-rooms", rate_rooms, 60),
        ("--rate-joins", rate_joins, 60),
        ("--rate-requests", rate_requests, 60),
        ("--rate-messages", rate_messages, 1),
    ):
        try:
            rates[flag] = Rate.parse(text, seconds)
        except ValueError as err:
            _fail(f"{flag}: {err}")
    limits = Limits(
        rooms=rates["--rate-rooms"],
        joins=rates["--rate-joins"],
        requests=rates["--rate-requests"],
        messages=rates["--rate-messages"],
        connections=max_connections,
        flood_close=flood_close,
        tarpit=tarpit,
    )
    try:
        application = create_app(
            db,
            ai_delay=ai_delay,
            peek_window=peek_window,
            snap_window=snap_window,
            ai_workers=ai_workers,
            turn_time=turn_time,
            idle_time=idle_time,
            quickplay_wait=quickplay_wait,
            allow_origins=allow_origin or (),
            limits=limits,
        )
    except ValueError as err:  # an --allow-origin that is not an origin
        _fail(str(err))
    # open the store once first, so that one out of reach is said plainly, before any URL
    try:
        asyncio.run(_open_and_close(Store(db)))
    except Exception as err:
        shown_db = make_url(db).render_as_string(hide_password=True)
        fail(f"cannot open the store at {shown_db}: {err}", FAILURE)
    # bind first, so the URL printed is one that really answers (and a busy port says so)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        _fail(f"cannot listen on {host}:{port}: {err.strerror or err}")
    bound = sock.getsockname()[1]
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
    )
    server = uvicorn.Server(config)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    Console().print(
        f"cardtable is running at [bold]http://{shown}:{bound}/[/bold]  (Ctrl+C stops it)"
    )
    if in_memory(db):
        Console().print("the store is a throwaway one: its rooms and games go when it stops")
    server.run(sockets=[sock])


async def _open_and_close(store: Store) -> None:
    """Open ``store`` (bringing its schema up to date) and close it again."""
    await store.open()
    await store.close()
