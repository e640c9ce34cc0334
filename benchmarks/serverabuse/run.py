"""The whole abuse run: the server, the ordinary tables, the baseline, each scenario in turn
with the server watched from /proc, then the figures of every phase."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import math
import multiprocessing
import os
import shlex
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from .base import AbuseConfig, Outcome
from .common import (
    AbuseServer,
    Endpoint,
    children_cpu_seconds,
    children_pids,
    fd_count,
    machine_busy,
    percentile,
    proc_cpu_seconds,
    proc_rss_mb,
    progress,
    source_address,
)
from .prepare import FinishedGame, write_finished_game
from .scenarios import abuser_main
from .tables import TablesConfig, TablesResult, tables_main

__all__ = ["Phase", "RunReport", "run_abuse"]

PROBE_INDEX = 200
"""The recovery probe's loopback address (``source_address``: 127.0.0.202), apart from the
ordinary tables' and from every abuser's."""


@dataclass
class Phase:
    """One measured window: the baseline or one scenario."""

    name: str
    start: float = math.nan
    """``time.monotonic()`` at its start."""
    end: float = math.nan
    """… and at its end."""
    outcome: Outcome | None = None
    """What the abuser saw (``None`` for the baseline)."""
    act_ms: list[float] = field(default_factory=list)
    """Act→view latencies of the ordinary tables (own answer and the other seat), sorted;
    ``inf`` for an act never answered."""
    self_ms: list[float] = field(default_factory=list)
    """Own answers only."""
    other_ms: list[float] = field(default_factory=list)
    """The other seat's new version only."""
    ping_ms: list[float] = field(default_factory=list)
    """Ping round trips, sorted (``inf``: never answered)."""
    events: Counter[str] = field(default_factory=Counter)
    """The ordinary tables' errors and failures by code."""
    lag_p99: float = math.nan
    """Event-loop lag of the tables process (ms)."""
    lag_max: float = math.nan
    server_cpu_s: float | None = None
    workers_cpu_s: float | None = None
    busy_pct: float | None = None
    """All CPUs of the machine, busy share."""
    tables_cpu_s: float | None = None
    """CPU the ordinary tables' process used."""
    abuser_cpu_s: float | None = None
    """CPU the abuser process used in the window."""
    other_cores: float | None = None
    """Cores other processes of the machine used meanwhile (on average)."""
    rss_end: float | None = None
    """Server RSS (MiB) at the end of the window."""
    rss_peak: float | None = None
    workers_rss_peak: float | None = None
    """The search workers' RSS together (MiB), at their peak."""
    fds_peak: int | None = None
    """The server's open descriptors at their peak."""
    recovery_s: float | None = None
    """Seconds after the window until the server answered quickly again."""
    stopped: str | None = None
    """Why the scenario was cut short or failed, if it was."""

    @property
    def seconds(self) -> float:
        """The window's length."""
        return self.end - self.start if self.end > self.start else math.nan

    def p(self, values: list[float], pct: float) -> float:
        """Nearest-rank percentile of ``values`` (already sorted)."""
        return percentile(values, pct)


@dataclass
class RunReport:
    """Everything the run measured."""

    phases: list[Phase] = field(default_factory=list)
    replay: FinishedGame | None = None
    rooms: list[str] = field(default_factory=list)
    setup_429: int = 0
    server_log: str = ""
    db_url: str | None = None
    notes: list[str] = field(default_factory=list)


class Sampler:
    """Samples the server's RSS, descriptors and workers' RSS four times a second."""

    def __init__(self, pid: int | None, max_rss_mb: float) -> None:
        self.pid = pid
        self.max_rss_mb = max_rss_mb
        self.samples: list[tuple[float, float | None, int | None, float]] = []
        self.over = False
        """Set once the server's RSS went over ``max_rss_mb``."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        """Start sampling."""
        if self.pid is not None:
            self._thread.start()

    def stop(self) -> None:
        """Stop sampling."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(2)

    def _run(self) -> None:
        assert self.pid is not None
        while not self._stop.wait(0.25):
            rss = proc_rss_mb(self.pid)
            kids = sum(proc_rss_mb(k) or 0.0 for k in children_pids(self.pid))
            self.samples.append((time.monotonic(), rss, fd_count(self.pid), kids))
            if rss is not None and rss > self.max_rss_mb:
                self.over = True

    def window(self, start: float, end: float) -> tuple[float | None, int | None, float | None]:
        """Peak RSS, descriptors and workers' RSS between ``start`` and ``end``."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        rss = [s[1] for s in inside if s[1] is not None]
        fds = [s[2] for s in inside if s[2] is not None]
        kids = [s[3] for s in inside]
        return (max(rss) if rss else None, max(fds) if fds else None, max(kids) if kids else None)


class Probe:
    """The recovery probe: ``GET /api/levels`` from its own address until it answers quickly."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        self.source = source_address(endpoint, PROBE_INDEX)

    def once(self, timeout: float) -> float | None:
        """One request's round trip in ms (``None``: failed)."""
        source = (self.source, 0) if self.source else None
        conn = http.client.HTTPConnection(
            self.endpoint.host, self.endpoint.port, timeout=timeout, source_address=source
        )
        try:
            t0 = time.perf_counter()
            conn.request("GET", "/api/levels")
            resp = conn.getresponse()
            resp.read()
            return (time.perf_counter() - t0) * 1000.0 if resp.status == 200 else None
        except (OSError, http.client.HTTPException):
            return None
        finally:
            conn.close()

    def recover(self, limit: float, fast_ms: float = 50.0) -> float | None:
        """Seconds until three answers in a row came within ``fast_ms`` (``None``: not within
        ``limit`` s). At most five requests a second, well under any per-address limit."""
        t0 = time.monotonic()
        good = 0
        while time.monotonic() - t0 < limit:
            t = time.monotonic()
            rtt = self.once(max(0.5, min(5.0, limit - (t - t0))))
            good = good + 1 if rtt is not None and rtt < fast_ms else 0
            if good >= 3:
                return time.monotonic() - t0
            time.sleep(max(0.0, 0.2 - (time.monotonic() - t)))
        return None


class Meter:
    """CPU over a window — the server's, its search workers', the tables process's, the
    abuser's, the whole machine's (what is left is other processes') — and the server's RSS
    at its end."""

    def __init__(self, pid: int | None, tables_pid: int | None) -> None:
        self.pid = pid
        self.tables_pid = tables_pid
        self.abuser_pid: int | None = None
        self._at: dict[str, float | None] = {}
        self._busy: tuple[float, float] | None = None

    def _read(self) -> dict[str, float | None]:
        pid = self.pid
        return {
            "server": proc_cpu_seconds(pid) if pid else None,
            "workers": children_cpu_seconds(pid) if pid else None,
            "tables": proc_cpu_seconds(self.tables_pid) if self.tables_pid else None,
            "abuser": proc_cpu_seconds(self.abuser_pid) if self.abuser_pid else None,
            "me": time.process_time(),
        }

    def begin(self, abuser_pid: int | None = None) -> None:
        """The window starts."""
        self.abuser_pid = abuser_pid
        self._at = self._read()
        self._busy = machine_busy()

    def end(self, phase: Phase) -> None:
        """The window ends: fill ``phase``."""
        now = self._read()
        busy = machine_busy()
        used: dict[str, float] = {}
        for key, value in now.items():
            before = self._at.get(key)
            if value is not None and before is not None:
                used[key] = max(0.0, value - before)
        phase.server_cpu_s = used.get("server")
        phase.workers_cpu_s = used.get("workers")
        phase.tables_cpu_s = used.get("tables")
        phase.abuser_cpu_s = used.get("abuser")
        if busy and self._busy and busy[1] > self._busy[1]:
            phase.busy_pct = 100.0 * (busy[0] - self._busy[0]) / (busy[1] - self._busy[1])
            secs = phase.seconds
            if self.pid and not math.isnan(secs) and secs > 0:
                cores = phase.busy_pct / 100.0 * (os.cpu_count() or 1)
                phase.other_cores = max(0.0, cores - sum(used.values()) / secs)
        phase.rss_end = proc_rss_mb(self.pid) if self.pid else None


def _wait(pipe: Connection, timeout: float, alive: Any) -> Any:
    """The next message on ``pipe`` within ``timeout`` s; raises ``TimeoutError`` (or
    ``RuntimeError`` when ``alive()`` says what died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pipe.poll(0.25):
            return pipe.recv()
        problem = alive()
        if problem:
            raise RuntimeError(problem)
    raise TimeoutError(f"no word within {timeout:g} s")


def _knobs(args: argparse.Namespace) -> dict[str, Any]:
    import json

    return {
        "room_clients": args.room_clients,
        "flood_sockets": args.flood_sockets,
        "flood_conns": args.flood_conns,
        "connect_parallel": args.connect_parallel,
        "slowloris": args.slowloris,
        "loris_interval": args.loris_interval,
        "stalled_ws": args.stalled_ws,
        "stall_interval": args.stall_interval,
        "big_parallel": args.big_parallel,
        "body_mib": args.body_mib,
        "body_path": args.body_path,
        "nested_sockets": args.nested_sockets,
        "replay_clients": args.replay_clients,
        "ai_master": args.ai_master,
        "ai_expert": args.ai_expert,
        "ai_seats": args.ai_seats,
        "ai_variant": args.ai_variant,
        "ai_options": json.loads(args.ai_options),
        "ai_casual": args.ai_casual,
        "ai_addresses": args.ai_addresses,
        "pf_sockets": args.pf_sockets,
        "pf_addresses": args.pf_addresses,
        "pf_interval": args.pf_interval,
        "sp_sockets": args.sp_sockets,
        "sp_addresses": args.sp_addresses,
        "hs_parallel": args.hs_parallel,
        "bh_parallel": args.bh_parallel,
    }


def run_abuse(args: argparse.Namespace, scenarios: list[str]) -> RunReport:
    """The whole run; every process it starts is stopped before it returns (or raises)."""
    report = RunReport()
    ctx = multiprocessing.get_context("spawn")
    procs: list[multiprocessing.process.BaseProcess] = []
    server: AbuseServer | None = None
    sampler: Sampler | None = None
    tmp = tempfile.TemporaryDirectory(prefix="cardtable-abuse-", dir=args.tmpdir)
    try:
        workdir = Path(tmp.name)
        if args.url:
            base_url, pid, db_url = args.url.rstrip("/"), args.server_pid, args.db
        else:
            db_url = args.db or f"sqlite+aiosqlite:///{workdir / 'cardtable.db'}"
            base_url, pid = "", None
        report.db_url = db_url
        if "replays" in scenarios:
            report.replay = _replay_game(args, db_url, report)
        if not args.url:
            server = AbuseServer(
                workdir,
                db_url,
                ai_delay=args.ai_delay,
                ai_workers=args.ai_workers,
                extra_args=shlex.split(args.server_args),
            )
            progress(f"starting the server ({db_url})")
            server.start()
            base_url, pid = server.url, server.pid
        endpoint = Endpoint.parse(base_url)
        if not endpoint.loopback:
            report.notes.append(
                "the server is not on a loopback address: abusers cannot come from other "
                "addresses, so per-address limits see them as the ordinary tables"
            )

        def alive() -> str | None:
            if server is not None and server.proc is not None and server.proc.poll() is not None:
                return f"the server exited ({server.proc.returncode}):\n{server.log()}"
            return None

        sampler = Sampler(pid, args.max_rss_mb)
        sampler.start()
        cfg = TablesConfig(
            base_url, args.tables, args.think, args.seed, args.ping_interval, args.reply_timeout
        )
        parent, child = ctx.Pipe()
        tables_proc = ctx.Process(target=tables_main, args=(cfg, child), daemon=True)
        tables_proc.start()
        procs.append(tables_proc)
        child.close()
        kind, payload = _wait(parent, 300, alive)
        if kind != "ready":
            raise RuntimeError(f"the ordinary tables failed: {payload.fatal}")
        report.rooms = list(payload)
        progress(f"{args.tables} ordinary tables playing; warm-up {args.warmup:g} s")
        time.sleep(args.warmup)
        probe = Probe(endpoint)

        meter = Meter(pid, tables_proc.pid)
        base = Phase("baseline")
        progress(f"baseline: {args.seconds:g} s")
        base.start = time.monotonic()
        meter.begin()
        time.sleep(args.seconds)
        base.end = time.monotonic()
        meter.end(base)
        report.phases.append(base)
        knobs = _knobs(args)
        for i, name in enumerate(scenarios):
            problem = alive()
            if problem:
                report.notes.append(problem)
                break
            phase = Phase(name)
            report.phases.append(phase)
            if name == "replays" and report.replay is None:
                phase.stopped = "skipped: no finished game to replay (see the notes)"
                continue
            time.sleep(args.settle)
            acfg = AbuseConfig(
                scenario=name,
                base_url=base_url,
                index=i,
                seconds=args.seconds,
                rooms=tuple(report.rooms),
                replay=(report.replay.room, report.replay.game_no) if report.replay else None,
                knobs=knobs,
                drain=_drain(name, args),
                nice=args.abuser_nice,
            )
            progress(f"{name}: from {acfg.source or 'the default address'}, {args.seconds:g} s")
            _abuse_window(ctx, acfg, phase, procs, alive, sampler, meter)
            outcome = phase.outcome
            if outcome is not None and outcome.fatal:
                phase.stopped = f"the abuser failed: {outcome.fatal}"
            if alive():
                continue
            phase.recovery_s = probe.recover(args.recover)
            rec = f"{phase.recovery_s:.1f} s" if phase.recovery_s is not None else "not yet"
            progress(f"{name}: done ({outcome.summary if outcome else '?'}); recovered: {rec}")
        progress("stopping the ordinary tables")
        parent.send("stop")
        kind, result = _wait(parent, args.reply_timeout + 120, lambda: None)
        if result.fatal:
            raise RuntimeError(f"the ordinary tables failed: {result.fatal}")
        report.setup_429 = result.setup_429
        for phase in report.phases:
            _fill(phase, result, sampler)
    finally:
        if sampler is not None:
            sampler.stop()
        for proc in procs:
            proc.join(0.1)
            if proc.is_alive():
                proc.kill()
                proc.join(5)
        if server is not None:
            server.stop()
            report.server_log = server.log()
        tmp.cleanup()
    return report


def _drain(name: str, args: argparse.Namespace) -> float:
    """Unmeasured time a scenario may take after its window: AI rooms finish their games, slow
    clients wait to be closed."""
    if name == "ai_rooms":
        return float(args.recover)
    if name == "slow_clients":
        return min(float(args.recover), 30.0)
    return 0.0


def _replay_game(
    args: argparse.Namespace, db_url: str | None, report: RunReport
) -> FinishedGame | None:
    """The long finished game the ``replays`` scenario asks for: ``--replay-room``, or one
    played here and written to the store (before the server starts, or beside a running one)."""
    if args.replay_room:
        room, _, n = args.replay_room.partition("/")
        return FinishedGame(room, int(n or 1), -1, "?", (), {})
    if db_url is None:
        report.notes.append("replays: skipped (with --url, give --db or --replay-room)")
        return None
    levels = [args.replay_level] * args.replay_seats
    options = {"target": args.replay_target}
    game = asyncio.run(write_finished_game(db_url, args.replay_variant, levels, options))
    progress(f"replay game: room {game.room}, game {game.game_no}: {game.moves:,} moves")
    return game


def _abuse_window(
    ctx: Any,
    acfg: AbuseConfig,
    phase: Phase,
    procs: list[multiprocessing.process.BaseProcess],
    alive: Any,
    sampler: Sampler | None,
    meter: Meter,
) -> None:
    """Run one abuser process; its "begin" and "end" make the phase's window."""
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=abuser_main, args=(acfg, child), daemon=True)
    proc.start()
    procs.append(proc)
    child.close()
    setup_limit = 900.0 if acfg.scenario == "replays" else 120.0

    def watch() -> str | None:
        problem: str | None = alive()
        if problem:
            return problem
        if sampler is not None and sampler.over:
            return f"the server's RSS went over {sampler.max_rss_mb:,.0f} MiB"
        if not proc.is_alive() and not parent.poll():
            return "the abuser process died"
        return None

    try:
        deadline = time.monotonic() + setup_limit + acfg.seconds + acfg.drain + 120
        while time.monotonic() < deadline:
            kind, payload = _wait(parent, deadline - time.monotonic(), watch)
            if kind == "begin":
                phase.start = payload
                meter.begin(proc.pid)
            elif kind == "end":
                phase.end = payload
                meter.end(phase)
            elif kind == "result":
                phase.outcome = payload
                break
        else:
            phase.stopped = "the abuser did not finish in time"
    except (RuntimeError, TimeoutError, EOFError) as exc:
        phase.stopped = str(exc).splitlines()[0]
        progress(f"{acfg.scenario}: stopped: {phase.stopped}")
    finally:
        if math.isnan(phase.end) and not math.isnan(phase.start):
            phase.end = time.monotonic()
            meter.end(phase)
        proc.join(10)
        if proc.is_alive():
            proc.kill()
            proc.join(5)
        with contextlib.suppress(ValueError):
            procs.remove(proc)
        parent.close()


def _fill(phase: Phase, result: TablesResult, sampler: Sampler | None) -> None:
    """Sort the ordinary tables' samples of the phase's window into it."""
    if math.isnan(phase.start) or math.isnan(phase.end):
        return
    a, b = phase.start, phase.end
    for sent, ms, kind in result.acts:
        if a <= sent < b:
            phase.act_ms.append(ms)
            (phase.self_ms if kind == "self" else phase.other_ms).append(ms)
    phase.ping_ms = sorted(ms for sent, ms in result.pings if a <= sent < b)
    phase.act_ms.sort()
    phase.self_ms.sort()
    phase.other_ms.sort()
    phase.events = Counter(code for when, code in result.events if a <= when < b)
    lags = sorted(ms for when, ms in result.lag if a <= when < b)
    phase.lag_p99 = percentile(lags, 99)
    phase.lag_max = lags[-1] if lags else math.nan
    if sampler is not None:
        phase.rss_peak, phase.fds_peak, phase.workers_rss_peak = sampler.window(a, b)
