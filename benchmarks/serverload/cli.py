"""The command line: the options, the header, one run per N, then the report."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Any

from .balanced import ClusterRuns, run_cluster
from .measure import fs_type, raise_fd_limit, versions
from .report import COLUMNS, GOAL_P99_MS, GOAL_TABLES, details, goal_text, row_text
from .run import RunResult, run_once
from .store import sqlite_path

__all__ = ["DESCRIPTION", "main", "parse_think"]

DESCRIPTION = (
    "Server load: N concurrent tables of bot clients over real WebSockets against one server."
)
"""The first line of ``--help`` (and of the package's doc)."""


def parse_think(text: str) -> tuple[float, float]:
    """``"0.5-1.5"`` -> ``(0.5, 1.5)``; ``"0"`` or ``"0.2"`` -> a fixed think time."""
    lo_text, sep, hi_text = text.partition("-")
    try:
        lo = float(lo_text)
        hi = float(hi_text) if sep else lo
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"think time {text!r} is not 'SECONDS' or 'LO-HI'"
        ) from None
    if lo < 0 or hi < lo:
        raise argparse.ArgumentTypeError(f"think time {text!r}: need 0 <= LO <= HI")
    return lo, hi


def main() -> None:
    """Parse the options, run every N and print the table."""
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--tables", default="100,500,1000", help="comma-separated table counts")
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured play first (s)")
    parser.add_argument("--drain", type=float, default=15.0, help="wait for late replies (s)")
    parser.add_argument(
        "--think", type=parse_think, default=(0.5, 1.5), help="think time LO-HI s (0: none)"
    )
    parser.add_argument("--variant", default="kaboo")
    parser.add_argument("--seats", type=int, default=2, help="seats per table (all people)")
    parser.add_argument("--options", default='{"target": null}', help="room options (JSON)")
    parser.add_argument("--client-procs", type=int, default=2, help="client processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--race", action="store_true", help="every seat with moves may act")
    parser.add_argument(
        "--compression",
        choices=("deflate", "none"),
        default="deflate",
        help="offer permessage-deflate like browsers do (default) or not",
    )
    parser.add_argument("--db", help="store URL for the started server (default: fresh SQLite)")
    parser.add_argument("--url", help="target this running server instead of starting one")
    parser.add_argument("--server-pid", type=int, help="with --url: its pid, for CPU figures")
    parser.add_argument("--tmpdir", help="where the fresh store goes (default: system temp)")
    parser.add_argument("--peek-window", type=float, default=5.0, help="server's peek window")
    parser.add_argument("--snap-window", type=float, default=5.0, help="server's snap window")
    parser.add_argument("--http-parallel", type=int, default=16, help="HTTP requests at a time")
    parser.add_argument("--connect-parallel", type=int, default=64, help="connects at a time")
    parser.add_argument("--verify-http", action="store_true", help="check via HTTP, not SQLite")
    parser.add_argument("--keep-logs", action="store_true", help="print the server log after")
    parser.add_argument(
        "--ai-tables", type=int, default=0, help="all-AI tables playing beside the measured ones"
    )
    parser.add_argument("--ai-level", default="expert", help="the level of every AI seat there")
    parser.add_argument(
        "--ai-options",
        default='{"target": 1000}',
        help="their room options (JSON; default a long match, so they play all through the run)",
    )
    parser.add_argument(
        "--ai-workers",
        type=int,
        help="the server's --ai-workers (default: its own, one per CPU; 0: search in a thread)",
    )
    parser.add_argument(
        "--processes",
        help="comma-separated process counts: for each, a cluster of that many processes with "
        "Redis behind HAProxy (tests/cluster.py), the table counts played through the balancer "
        "in ascending order until one misses p99 < 50 ms (default: one server, no balancer)",
    )
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="with --processes: play every table count, not only up to the first that misses",
    )
    args = parser.parse_args()
    counts = [int(x) for x in args.tables.split(",") if x.strip()]
    options = json.loads(args.options)
    if args.client_procs < 1 or args.seats < 1 or args.duration <= 0 or not counts:
        parser.error("need at least one table count, client process and seat, and a duration")
    if args.ai_tables < 0 or (args.ai_workers is not None and args.ai_workers < 0):
        parser.error("--ai-tables and --ai-workers cannot be negative")
    if args.url and (args.ai_workers is not None):
        parser.error("--ai-workers is for a server this script starts, not with --url")
    sizes = [int(x) for x in (args.processes or "").split(",") if x.strip()]
    if args.processes and (not sizes or min(sizes) < 1 or args.url or args.db):
        parser.error("--processes needs counts >= 1 and starts its own store (no --url, --db)")
    limit = raise_fd_limit(4 * max(counts) * args.seats + 1024)

    exe = sys.executable
    if not os.path.relpath(exe).startswith(".."):
        exe = os.path.relpath(exe)
    print("$ " + shlex.join([exe, *sys.argv]))
    print(f"{versions()}; {os.cpu_count()} CPUs ({platform.processor() or platform.machine()})")
    lo, hi = args.think
    store_dir = Path(args.tmpdir or tempfile.gettempdir())
    store = args.db or (
        f"fresh SQLite per N in {store_dir} ({fs_type(store_dir)}), WAL, synchronous=FULL"
    )
    print(
        f"{args.variant}, {args.seats} seats per table, options {json.dumps(options)}; think "
        f"uniform {lo:g}-{hi:g} s; {args.client_procs} client process(es), compression "
        f"{args.compression}; warm-up {args.warmup:g} s, measured {args.duration:g} s; "
        f"open-file limit {limit:,}"
    )
    started = "python -m cardtable serve --ai-delay 0"
    if args.ai_workers is not None:
        started += f" --ai-workers {args.ai_workers}"
    if sizes:
        started = f"a cluster per process count ({args.processes}): {started} --redis URL"
        store = "PostgreSQL per cluster (tests/cluster.py), Redis, HAProxy round robin"
    print(f"server: {args.url or started}; store: {store}")
    if args.ai_tables:
        print(
            f"beside the measured tables: {args.ai_tables:,} tables of {args.seats} "
            f"{args.ai_level} AI seats, options {args.ai_options} (not measured)"
        )
    print()
    if sizes:
        cluster_main(args, sizes, counts, options)
        return
    header = " ".join(name.rjust(w) for name, w in COLUMNS)
    print(header)
    print("-" * len(header), flush=True)
    runs: list[RunResult] = []
    for n in counts:
        r = run_once(args, n, options)
        runs.append(r)
        print(row_text(r), flush=True)
    print()
    print_notes(args, runs)
    goal_runs = [r for r in runs if r.tables >= GOAL_TABLES]
    if goal_runs:
        for r in goal_runs:
            print(goal_text(r))
    else:
        print(f"goal: not measured (no run with {GOAL_TABLES:,} tables)")


def cluster_main(
    args: argparse.Namespace, sizes: list[int], counts: list[int], options: dict[str, Any]
) -> None:
    """``--processes``: for each process count a cluster, its runs, then the tables held."""
    header = "procs " + " ".join(name.rjust(w) for name, w in COLUMNS)
    clusters: list[ClusterRuns] = []
    for size in sizes:
        print(f"{size} process(es) behind the balancer:")
        print(header)
        print("-" * len(header), flush=True)
        clusters.append(
            run_cluster(
                args,
                size,
                counts,
                options,
                lambda r, size=size: print(f"{size:>5} {row_text(r)}", flush=True),
            )
        )
        print()
    runs = [r for c in clusters for r in c.runs]
    for c in clusters:
        for r in c.runs:
            print(f"{c.processes} process(es), " + "\n".join(details(r)))
    print()
    print_legend(args, runs)
    print(
        "(with --processes: srv CPU is the sum of the app processes; PostgreSQL, Redis and "
        "HAProxy are counted in other; about (P-1)/P of the connections reach their room's owner "
        "through another process and Redis)"
    )
    print()
    for c in clusters:
        tried = ", ".join(f"{r.tables:,}" for r in c.runs)
        print(
            f"{c.processes} process(es): held {c.held:,} tables at p99 < {GOAL_P99_MS:g} ms, "
            f"0 errors, 0 lost (counts tried: {tried})"
        )
    by_size = {c.processes: c.held for c in clusters}
    if 1 in by_size and 2 in by_size:
        one, two = by_size[1], by_size[2]
        ratio = f"{two / one:.2f}" if one else "n/a (1 process held none)"
        met = "MET" if one and two / one >= 1.6 else "NOT MET"
        print(
            f"ratio 2 processes / 1 process (same run): {ratio}; goal >= 1.6: {met} "
            "(the resolution is that of --tables)"
        )
    if runs:
        print(
            f"the load generator used up to {max(sum(r.client_cpu_pct) for r in runs):.0f} % "
            "of a core in total (the client processes share the machine with the servers, "
            "PostgreSQL, Redis and HAProxy)"
        )


def print_notes(args: argparse.Namespace, runs: list[RunResult]) -> None:
    """The lines under the table: each N's details, the legend and the load warnings."""
    for r in runs:
        print("\n".join(details(r)))
    print()
    print_legend(args, runs)


def print_legend(args: argparse.Namespace, runs: list[RunResult]) -> None:
    """What the columns mean, and a warning for each N measured on a shared machine."""
    print(
        "latency: act sent -> state with its id received, in the client, for actions sent in "
        "the measured window; srv CPU% is one core = 100 %; cli CPU% per client process"
    )
    print(
        "errors: error frames by code except stale, plus no_reply (no answer within --drain s),"
        " disconnect and connect failures; stale: the move crossed another (see the doc); "
        "lost: acknowledged actions missing from the store; other: CPU cores used by other "
        "processes on this machine during the measured window"
        + (" (a database server among them)" if args.db and not sqlite_path(args.db) else "")
    )
    for r in runs:
        if r.other_cores is not None and r.other_cores > 0.25:
            print(
                f"WARNING: at {r.tables:,} tables other processes used {r.other_cores:.2f} "
                "cores: the machine was shared, latencies are inflated; run again when idle"
            )
