"""The ``cardtable serve`` command: the web app (rooms, AI opponents, the browser table)."""

from __future__ import annotations

import socket
from typing import Annotated

import typer
from rich.console import Console

from .render import _fail

__all__ = ["serve_command"]


def serve_command(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            "--db",
            help="SQLAlchemy URL of the store, e.g. sqlite+aiosqlite:///cardtable.db "
            "or postgresql+asyncpg://user@host/db",
        ),
    ] = "sqlite+aiosqlite:///cardtable.db",
    ai_delay: Annotated[
        float, typer.Option("--ai-delay", help="seconds an AI seat waits before it acts")
    ] = 0.8,
    peek_window: Annotated[
        float, typer.Option("--peek-window", help="seconds the initial-peek phase stays open")
    ] = 30.0,
    snap_window: Annotated[
        float, typer.Option("--snap-window", help="seconds a gabo snap window stays open")
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
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn log level")] = "warning",
) -> None:
    """Run the web app: rooms, AI opponents and the browser table (prints its URL)."""
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as err:  # pragma: no cover - depends on the install
        _fail(f"the web app needs the 'web' extra: pip install 'cardtable[web]' ({err})")
    if min(ai_delay, peek_window, snap_window) < 0:
        _fail("delays and windows cannot be negative")
    if ai_workers is not None and ai_workers < 0:
        _fail("--ai-workers cannot be negative")
    application = create_app(
        db,
        ai_delay=ai_delay,
        peek_window=peek_window,
        snap_window=snap_window,
        ai_workers=ai_workers,
    )
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
    config = uvicorn.Config(application, log_level=log_level, ws_max_size=1 << 20)
    server = uvicorn.Server(config)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    Console().print(
        f"cardtable is running at [bold]http://{shown}:{bound}/[/bold]  (Ctrl+C stops it)"
    )
    server.run(sockets=[sock])
