"""One N: start the server (unless ``--url``), make the rooms, run the client processes,
measure the window, check the store."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from .clients import WorkerConfig, WorkerResult, worker_main
from .measure import (
    children_cpu_seconds,
    machine_busy,
    percentile,
    proc_cpu_seconds,
    proc_rss_mb,
    progress,
)
from .server import ServerProcess, TableSpec, create_ai_tables, create_tables
from .store import (
    StoreCheck,
    check_store,
    count_moves,
    read_store_http,
    read_store_sqlalchemy,
    read_store_sqlite,
    sqlite_path,
)

__all__ = ["RunResult", "Target", "merge", "run_once", "start_workers"]


@dataclass(frozen=True)
class Target:
    """Servers started elsewhere (a cluster behind a balancer): where to play and what to
    measure."""

    url: str
    """The address the clients use (the balancer's)."""
    db_url: str
    """The shared store, read back for the check."""
    pids: tuple[int, ...]
    """The server processes, whose CPU (and their search workers') is summed."""


def _cpu(pids: tuple[int, ...], read: Callable[[int], float | None]) -> float | None:
    """The sum of ``read(pid)`` over ``pids`` (``None`` when any is unknown or no pid)."""
    values = [read(pid) for pid in pids]
    if not values or any(v is None for v in values):
        return None
    return float(sum(values))


@dataclass
class RunResult:
    """The figures of one N."""

    tables: int
    clients: int
    duration: float
    acts: int = 0
    latencies: list[float] = field(default_factory=list)
    rematch_ms: list[float] = field(default_factory=list)
    rematches: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    check: StoreCheck | None = None
    server_cpu_s: float | None = None
    server_rss_mb: float | None = None
    machine_busy_pct: float | None = None
    client_cpu_pct: list[float] = field(default_factory=list)
    client_lag_p99: float = math.nan
    client_lag_max: float = math.nan
    frames_per_s: float = 0.0
    frame_bytes: float = 0.0
    setup_s: float = 0.0
    connect_s: float = 0.0
    ai_tables: int = 0
    """All-AI tables playing beside the measured ones."""
    ai_moves: int | None = None
    """Their moves stored during the measured window (``None``: store not readable)."""
    workers_cpu_s: float | None = None
    """CPU seconds the server's search workers used during the measured window."""

    @property
    def error_total(self) -> int:
        """Every error, failure and missing reply except ``stale`` (counted apart)."""
        return sum(v for k, v in self.errors.items() if k != "stale")

    @property
    def stale(self) -> int:
        """``stale`` answers: a message crossed a move (see the package doc)."""
        return self.errors["stale"]

    @property
    def other_cores(self) -> float | None:
        """Cores other processes of the machine used during the measured window."""
        if self.machine_busy_pct is None or self.server_cpu_s is None:
            return None
        ours = 100 * (self.server_cpu_s + (self.workers_cpu_s or 0.0)) / self.duration
        ours += sum(self.client_cpu_pct)
        return max(0.0, self.machine_busy_pct * (os.cpu_count() or 1) - ours) / 100


def run_once(
    args: argparse.Namespace, n: int, options: dict[str, Any], target: Target | None = None
) -> RunResult:
    """Start a server (unless ``--url`` or a ``target``), play ``n`` tables, check the store,
    stop."""
    server: ServerProcess | None = None
    tmp: tempfile.TemporaryDirectory[str] | None = None
    pids: tuple[int, ...] = ()
    if target is not None:
        base_url = target.url
        db_url = target.db_url
        pids = target.pids
    elif args.url:
        base_url = args.url.rstrip("/")
        db_url = args.db
        pids = (args.server_pid,) if args.server_pid else ()
    else:
        tmp = tempfile.TemporaryDirectory(prefix="cardtable-load-", dir=args.tmpdir)
        workdir = Path(tmp.name)
        db_url = args.db or f"sqlite+aiosqlite:///{workdir / 'cardtable.db'}"
        server = ServerProcess(
            workdir,
            db_url,
            peek_window=args.peek_window,
            snap_window=args.snap_window,
            ai_workers=args.ai_workers,
        )
        server.start()
        base_url = server.url
        pids = (server.pid,) if server.pid else ()
    ws_url = base_url.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/ws"
    out = RunResult(
        tables=n, clients=n * args.seats, duration=args.duration, ai_tables=args.ai_tables
    )
    try:
        ai_rooms: set[str] = set()
        if args.ai_tables:
            t0 = time.monotonic()
            ai_rooms = set(
                create_ai_tables(
                    base_url,
                    args.ai_tables,
                    args.ai_level,
                    args.variant,
                    args.seats,
                    json.loads(args.ai_options),
                    args.http_parallel,
                )
            )
            progress(
                f"{args.ai_tables:,} {args.ai_level} AI tables created in "
                f"{time.monotonic() - t0:.1f} s; they play from now on"
            )
        t0 = time.monotonic()
        tables = create_tables(base_url, n, args.variant, args.seats, options, args.http_parallel)
        out.setup_s = time.monotonic() - t0
        progress(f"{n:,} tables: rooms created in {out.setup_s:.1f} s")
        procs, pipes = start_workers(args, ws_url, tables)
        try:
            t0 = time.monotonic()
            ready = 0
            for pipe in pipes:
                kind, payload = pipe.recv()
                if kind != "ready":
                    raise RuntimeError(f"a client process failed: {payload.fatal}")
                ready += payload
            out.connect_s = time.monotonic() - t0
            progress(f"{n:,} tables: {ready:,} connections joined in {out.connect_s:.1f} s")
            start = time.monotonic() + 0.5
            clock = (start, start + args.warmup, start + args.warmup + args.duration)
            for pipe in pipes:
                pipe.send(clock)
            time.sleep(max(0.0, clock[1] - time.monotonic()))
            progress(f"{n:,} tables: measuring for {args.duration:g} s")
            cpu0 = _cpu(pids, proc_cpu_seconds)
            kids0 = _cpu(pids, children_cpu_seconds)
            wall0 = time.time()
            busy0 = machine_busy()
            time.sleep(max(0.0, clock[2] - time.monotonic()))
            cpu1 = _cpu(pids, proc_cpu_seconds)
            kids1 = _cpu(pids, children_cpu_seconds)
            wall1 = time.time()
            busy1 = machine_busy()
            if cpu0 is not None and cpu1 is not None:
                out.server_cpu_s = cpu1 - cpu0
            if kids0 is not None and kids1 is not None:
                out.workers_cpu_s = max(0.0, kids1 - kids0)
            if busy0 and busy1 and busy1[1] > busy0[1]:
                out.machine_busy_pct = 100.0 * (busy1[0] - busy0[0]) / (busy1[1] - busy0[1])
            out.server_rss_mb = _cpu(pids, proc_rss_mb)
            progress(f"{n:,} tables: measured; waiting for late replies")
            results: list[WorkerResult] = []
            for pipe in pipes:
                kind, res = pipe.recv()
                assert kind == "result"
                results.append(res)
        finally:
            for proc in procs:
                proc.join(60)
                if proc.is_alive():
                    proc.kill()
        for res in results:
            if res.fatal:
                raise RuntimeError(f"client process {res.worker} failed: {res.fatal}")
        merge(out, results, args)
        progress(f"{n:,} tables: checking the store")
        if ai_rooms and db_url and (target is not None or not args.url):
            out.ai_moves = count_moves(db_url, ai_rooms, wall0, wall1)
        rooms = {t.room for t in tables}
        path = sqlite_path(db_url) if db_url else None
        if path is not None and path.exists() and not args.verify_http:
            stored = read_store_sqlite(path, rooms)
            out.check = check_store(stored, results, "sqlite file")
        elif db_url and path is None and not args.verify_http:
            stored = asyncio.run(read_store_sqlalchemy(db_url, rooms))
            out.check = check_store(stored, results, "store tables via SQLAlchemy")
        else:
            stored, _ = read_store_http(base_url, rooms, args.http_parallel)
            out.check = check_store(stored, results, "HTTP API")
    finally:
        if server is not None:
            server.stop()
            if args.keep_logs:
                print(server.log(), file=sys.stderr)
        if tmp is not None:
            tmp.cleanup()
    return out


def start_workers(
    args: argparse.Namespace, ws_url: str, tables: list[TableSpec]
) -> tuple[list[multiprocessing.process.BaseProcess], list[Connection]]:
    """Start the client processes, each with an equal share of the tables."""
    ctx = multiprocessing.get_context("spawn")
    procs: list[multiprocessing.process.BaseProcess] = []
    pipes: list[Connection] = []
    for w in range(args.client_procs):
        share = tables[w :: args.client_procs]
        cfg = WorkerConfig(
            worker=w,
            ws_url=ws_url,
            think=args.think,
            seed=args.seed,
            compression=args.compression == "deflate",
            race=args.race,
            drain=args.drain,
            connect_parallel=args.connect_parallel,
        )
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=worker_main, args=(cfg, share, child), daemon=True)
        proc.start()
        child.close()
        procs.append(proc)
        pipes.append(parent)
    return procs, pipes


def merge(out: RunResult, results: list[WorkerResult], args: argparse.Namespace) -> None:
    """Fold the client processes' figures into ``out``."""
    lags: list[float] = []
    frames = chars = 0
    for res in results:
        out.acts += res.measured_acts
        out.latencies.extend(res.latencies_ms)
        out.rematch_ms.extend(res.rematch_ms)
        out.rematches += res.rematches
        out.errors.update(res.errors)
        out.client_cpu_pct.append(100.0 * res.cpu_s / args.duration)
        lags.extend(res.lag_ms)
        frames += res.frames_in
        chars += res.bytes_in
    out.latencies.sort()
    out.rematch_ms.sort()
    lags.sort()
    out.client_lag_p99 = percentile(lags, 99)
    out.client_lag_max = lags[-1] if lags else math.nan
    out.frames_per_s = frames / args.duration
    out.frame_bytes = chars / frames if frames else 0.0
