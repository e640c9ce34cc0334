"""``--startup``: how long ``cardtable serve`` takes to answer, on an empty store and on one
holding thousands of abandoned rooms.

The empty store is opened once through the store API first (schema created, migrations run),
so both measurements start from a store that exists and the difference is the cost of the
rooms. Each run launches the server, asks ``GET /api/levels`` every 10 ms until it answers
(connections are refused until uvicorn listens, which it does once the application's start-up
is over), then asks ``GET /api/rooms`` once; both times are from the launch. Runs are
repeated and the median is printed.

With ``--db URL`` that database is used: it must be empty (it is measured as the empty store,
then filled).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import statistics
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .common import AbuseServer, jsonable, proc_rss_mb, progress
from .prepare import fill_abandoned

__all__ = ["GOAL_S", "StartupRow", "run_startup", "startup_text"]

GOAL_S = 1.0
"""The goal: the abandoned rooms cost less than this much start-up time."""


@dataclass
class StartupRow:
    """The runs on one store."""

    label: str
    rooms: int
    levels_s: list[float] = field(default_factory=list)
    """Launch → first ``/api/levels`` answer, per run."""
    lobby_s: list[float] = field(default_factory=list)
    """Launch → the ``/api/rooms`` answer asked right after, per run."""
    lobby_rooms: list[int] = field(default_factory=list)
    """Rooms the lobby listed."""
    rss_mb: list[float] = field(default_factory=list)
    """Server RSS right after."""
    fill_s: float | None = None
    """Seconds it took to write the rooms."""

    def median(self, values: list[float]) -> float:
        """Median of a list of run figures."""
        return statistics.median(values) if values else float("nan")


def _get(url: str, timeout: float) -> tuple[int, Any]:
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        return resp.status, json.loads(resp.read())


def _one_run(
    workdir: Path, db_url: str, row: StartupRow, timeout: float, extra_args: list[str]
) -> None:
    server = AbuseServer(workdir, db_url, ai_delay=0.8, extra_args=extra_args)
    server.launch()
    try:
        assert server.proc is not None
        t0 = server.launched
        deadline = t0 + timeout
        levels = None
        while time.monotonic() < deadline:
            if server.proc.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{server.log()}")
            try:
                status, _ = _get(server.url + "/api/levels", 5)
                if status == 200:
                    levels = time.monotonic() - t0
                    break
            except (OSError, urllib.error.URLError, ValueError):
                pass
            time.sleep(0.01)
        if levels is None:
            raise RuntimeError(f"the server did not answer within {timeout:g} s")
        status, lobby = _get(server.url + "/api/rooms", 60)
        row.levels_s.append(levels)
        row.lobby_s.append(time.monotonic() - t0)
        row.lobby_rooms.append(len(lobby.get("rooms", [])) if isinstance(lobby, dict) else -1)
        rss = proc_rss_mb(server.proc.pid)
        if rss is not None:
            row.rss_mb.append(rss)
    finally:
        server.stop()


def run_startup(args: argparse.Namespace) -> list[StartupRow]:
    """Measure the empty store, fill it, measure again."""
    with tempfile.TemporaryDirectory(prefix="cardtable-startup-", dir=args.tmpdir) as tmp:
        workdir = Path(tmp)
        db_url = args.db or f"sqlite+aiosqlite:///{workdir / 'cardtable.db'}"
        from cardtable.store import Store

        async def touch() -> None:
            store = Store(db_url)
            await store.open()
            await store.close()

        asyncio.run(touch())
        rows = [StartupRow("empty store", 0), StartupRow("abandoned rooms", args.startup_rooms)]
        for row in rows:
            if row.rooms:
                progress(f"writing {row.rooms:,} abandoned rooms through the store API")
                row.fill_s = asyncio.run(fill_abandoned(db_url, row.rooms))
                progress(f"written in {row.fill_s:.1f} s")
            for i in range(args.startup_runs):
                _one_run(workdir, db_url, row, args.startup_timeout, shlex.split(args.server_args))
                progress(
                    f"{row.label}: run {i + 1}: /api/levels after {row.levels_s[-1]:.2f} s, "
                    f"/api/rooms after {row.lobby_s[-1]:.2f} s"
                )
        return rows


def startup_text(rows: list[StartupRow]) -> list[str]:
    """The table and the goal."""
    lines = [
        f"{'store':<24} {'rooms':>7} {'runs: levels / rooms (s)':<44} {'median levels':>13} "
        f"{'median rooms':>12} {'lobby':>6} {'RSS MB':>7}",
    ]
    lines.append("-" * len(lines[0]))
    for r in rows:
        runs = ", ".join(f"{a:.2f}/{b:.2f}" for a, b in zip(r.levels_s, r.lobby_s, strict=True))
        rss = f"{statistics.median(r.rss_mb):,.0f}" if r.rss_mb else "-"
        lobby = f"{r.lobby_rooms[-1]:,}" if r.lobby_rooms else "-"
        lines.append(
            f"{r.label:<24} {r.rooms:>7,} {runs:<44} {r.median(r.levels_s):>13.2f} "
            f"{r.median(r.lobby_s):>12.2f} {lobby:>6} {rss:>7}"
        )
    empty, full = rows[0], rows[-1]
    d_levels = full.median(full.levels_s) - empty.median(empty.levels_s)
    d_lobby = full.median(full.lobby_s) - empty.median(empty.lobby_s)
    lines.append("")
    lines.append(
        f"cost of {full.rooms:,} abandoned rooms (medians, full − empty): "
        f"{d_levels:+.2f} s to /api/levels, {d_lobby:+.2f} s to /api/rooms"
        + (f"; writing them took {full.fill_s:.1f} s" if full.fill_s is not None else "")
    )
    met = max(d_levels, d_lobby) < GOAL_S
    lines.append(
        f"goal: {full.rooms:,} abandoned rooms cost < {GOAL_S:g} s of start-up: "
        + ("MET" if met else "NOT MET")
    )
    return lines


def startup_figures(rows: list[StartupRow]) -> dict[str, Any]:
    """Everything for ``--json``."""
    out: dict[str, Any] = jsonable(
        {
            "startup": [
                {
                    "store": r.label,
                    "rooms": r.rooms,
                    "levels_s": r.levels_s,
                    "lobby_s": r.lobby_s,
                    "median_levels_s": r.median(r.levels_s),
                    "median_lobby_s": r.median(r.lobby_s),
                    "lobby_rooms": r.lobby_rooms,
                    "rss_mb": r.rss_mb,
                    "fill_s": r.fill_s,
                }
                for r in rows
            ],
            "lines": startup_text(rows),
        }
    )
    return out
