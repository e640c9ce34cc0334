"""Through the balancer: the same load, for each process count, against a cluster of that many
``cardtable serve --redis`` processes behind HAProxy (``tests/cluster.py``), and the tables
each count held at p99 < 50 ms.

For every process count P of ``--processes`` one cluster is started (PostgreSQL, Redis, P
processes, HAProxy; each process with the run's windows and an idle time of a day), the table
counts of ``--tables`` are played in ascending order through the balancer's address (rooms made,
seats taken and WebSockets opened round robin over the processes, so about (P-1)/P of the
connections are forwarded to their room's owner over Redis), stopping after the first count that
misses the bar (p99 >= 50 ms, an error or a lost action; ``--keep-going``: play every count
anyway, to see the trend on a busy machine); the cluster is then stopped. A table
count *held* is one that met the bar; the tables held by P processes is the largest of them.
The rooms of a smaller count stay in the store (idle) while the next count plays.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .measure import percentile, progress
from .report import GOAL_P99_MS
from .run import RunResult, Target, run_once
from .server import IDLE_TIME

__all__ = ["ClusterRuns", "held", "meets_bar", "run_cluster"]


@dataclass
class ClusterRuns:
    """The runs of one process count."""

    processes: int
    runs: list[RunResult] = field(default_factory=list)

    @property
    def held(self) -> int:
        """The largest table count that met the bar, as every smaller one (0: none)."""
        return held(self.runs)


def meets_bar(r: RunResult) -> bool:
    """p99 below the goal's bound, no error, no lost action, and some action measured."""
    p99 = percentile(r.latencies, 99)
    lost = r.check.lost if r.check else None
    return (
        r.acts > 0
        and not math.isnan(p99)
        and p99 < GOAL_P99_MS
        and r.error_total == 0
        and lost == 0
    )


def held(runs: list[RunResult]) -> int:
    """The largest table count met, every smaller count of ``runs`` met too (0: none)."""
    best = 0
    for r in sorted(runs, key=lambda r: r.tables):
        if not meets_bar(r):
            break
        best = r.tables
    return best


def run_cluster(
    args: argparse.Namespace,
    processes: int,
    counts: list[int],
    options: dict[str, Any],
    on_run: Callable[[RunResult], None] | None = None,
) -> ClusterRuns:
    """Start a cluster of ``processes``, play each of ``counts`` through its balancer until
    one misses the bar, stop it; ``on_run(result)`` is called after each count."""
    from tests.cluster import Cluster  # the repository root is on sys.path (see .server)

    out = ClusterRuns(processes)
    extra = [
        "--idle-time",
        str(IDLE_TIME),
        "--peek-window",
        str(args.peek_window),
        "--snap-window",
        str(args.snap_window),
    ]
    workdir = Path(args.tmpdir) if args.tmpdir else None
    cluster = Cluster(
        processes,
        redis=True,
        ai_workers=args.ai_workers,
        extra_args=extra,
        workdir=workdir / f"cluster-{processes}" if workdir else None,
    )
    progress(f"{processes} process(es): starting the cluster")
    cluster.start(timeout=120)
    try:
        pids = tuple(s.proc.pid for s in cluster.processes if s.proc is not None)
        target = Target(cluster.url, cluster.db_url, pids)
        for n in sorted(counts):
            r = run_once(args, n, options, target)
            out.runs.append(r)
            if on_run is not None:
                on_run(r)
            if not meets_bar(r) and not args.keep_going:
                break
    finally:
        cluster.stop()
    return out
