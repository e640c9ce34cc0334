"""The abuse scenarios by name, and the abuser process that runs one of them."""

from __future__ import annotations

import asyncio
import contextlib
import time
import traceback
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from typing import Any

from .base import AbuseConfig, Outcome, Window
from .common import child_setup
from .flood import connection_flood, message_flood, room_flood
from .heavy import ai_rooms, replays
from .slow import big_bodies, slow_clients
from .spread import big_heads, handshake_flood, ping_flood, spectators

__all__ = ["SCENARIOS", "abuser_main"]

Scenario = Callable[[AbuseConfig, Window], Awaitable[Outcome]]

SCENARIOS: dict[str, Scenario] = {
    "room_flood": room_flood,
    "message_flood": message_flood,
    "connection_flood": connection_flood,
    "slow_clients": slow_clients,
    "big_bodies": big_bodies,
    "replays": replays,
    "ping_flood": ping_flood,
    "spectators": spectators,
    "handshake_flood": handshake_flood,
    "big_heads": big_heads,
    "ai_rooms": ai_rooms,
}
"""Every scenario, in the default order (the AI rooms last: their games may go on a little
after their window)."""


async def _run(cfg: AbuseConfig, pipe: Connection) -> Outcome:
    win = Window(cfg, pipe)
    cpu0 = time.process_time()
    limit = cfg.seconds + cfg.drain + 180.0  # setup (a replay's first fetch) and cleanup
    try:
        out = await asyncio.wait_for(SCENARIOS[cfg.scenario](cfg, win), limit)
    finally:
        win.end()
    out.cpu_s = time.process_time() - cpu0
    return out


def abuser_main(cfg: AbuseConfig, pipe: Connection) -> None:
    """Entry point of an abuser process: run the scenario, send the :class:`Outcome`."""
    child_setup(cfg.nice)
    runner: Callable[[Any], Any] = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop

        runner = uvloop.run
    try:
        out = runner(_run(cfg, pipe))
    except BaseException as exc:
        detail = traceback.format_exc(limit=4).strip().splitlines()[-3:]
        out = Outcome(
            cfg.scenario,
            source=cfg.source,
            fatal=f"{type(exc).__name__}: {exc} | {' / '.join(detail)}",
        )
    with contextlib.suppress(Exception):
        pipe.send(("result", out))
