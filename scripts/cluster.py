"""Run several ``cardtable serve`` processes behind HAProxy on this machine (through
``scripts/cluster``).

It starts a throwaway PostgreSQL (the shared store), a throwaway Redis (``--redis URL`` for
every process; ``--no-redis`` leaves it out), N app processes on free ports of 127.0.0.1 and
HAProxy in front of them (round robin, health checks on ``/readyz``): the harness of the tests,
``tests/cluster.py``. It prints the balancer's URL and every part's address, reports each
process going DOWN or UP in HAProxy's eyes while it runs, and stops everything on Ctrl+C or
SIGTERM. The store and Redis are empty at start and gone at the end.

Usage: ``scripts/cluster [--processes 2] [--port P] [--no-redis] [--ai-workers N]
[--workdir DIR] [-- SERVE OPTIONS ...]`` (options after ``--`` go to every ``cardtable
serve``, e.g. ``-- --log-level info``).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
"""The repository."""

sys.path.insert(0, str(ROOT))  # the root: the harness the tests use
from tests.cluster import Cluster  # noqa: E402

from cardtable.web.settings import DEFAULTS  # noqa: E402


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (and SIGINT, even where a shell started the script with it ignored) stops the
    cluster the way Ctrl+C does."""
    raise KeyboardInterrupt


def _print_addresses(cluster: Cluster) -> None:
    """The balancer's URL (as ``cardtable serve`` prints its own), then every part."""
    print(f"cardtable is running at {cluster.url}/  (Ctrl+C stops it)")
    print(f"  balancer   HAProxy, pid {cluster.haproxy.pid if cluster.haproxy else '?'}")
    print(f"             stats socket {cluster.stats_socket}")
    for i, server in enumerate(cluster.processes):
        pid = server.proc.pid if server.proc else "?"
        print(f"  app{i}       {server.url}/  pid {pid}")
    print(f"  PostgreSQL {cluster.db_url}")
    print(f"  Redis      {cluster.redis_url or 'none (--no-redis)'}")
    print(f"  logs       {cluster.workdir}")
    sys.stdout.flush()


def _watch(cluster: Cluster) -> None:
    """Until interrupted: say when a process changes state in HAProxy; end if HAProxy dies."""
    seen = cluster.backend_status()
    while True:
        time.sleep(1)
        if cluster.haproxy is None or cluster.haproxy.poll() is not None:
            print("HAProxy exited; stopping", file=sys.stderr)
            return
        now = cluster.backend_status()
        for i, (before, after) in enumerate(zip(seen, now, strict=True)):
            if before != after:
                print(f"app{i} is {after} (was {before})", flush=True)
        seen = now


def main(argv: Sequence[str] | None = None) -> int:
    """Run the cluster until interrupted; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    serve_args: list[str] = []
    if "--" in args:
        at = args.index("--")
        args, serve_args = args[:at], args[at + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2, help="app processes (default 2)")
    parser.add_argument("--port", type=int, help="the balancer's port (default: a free one)")
    parser.add_argument(
        "--no-redis", action="store_true", help="no Redis: the processes share PostgreSQL only"
    )
    parser.add_argument(
        "--ai-workers",
        type=int,
        help="search workers of each process (default: the CPUs shared among the processes)",
    )
    parser.add_argument("--workdir", type=Path, help="keep the logs in this folder")
    options = parser.parse_args(args)
    if options.processes < 1:
        parser.error("--processes must be at least 1")
    ai_workers = options.ai_workers
    if ai_workers is None:
        ai_workers = max(1, (os.cpu_count() or 1) // options.processes)
    cluster = Cluster(
        options.processes,
        redis=not options.no_redis,
        port=options.port,
        extra_args=serve_args,
        ai_delay=DEFAULTS.ai_delay,
        ai_workers=ai_workers,
        generous_limits=False,
        workdir=options.workdir,
    )
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    try:
        print(f"starting {options.processes} processes behind HAProxy ...", flush=True)
        cluster.start()
        _print_addresses(cluster)
        _watch(cluster)
        return 1
    except KeyboardInterrupt:
        return 0
    except (RuntimeError, TimeoutError) as exc:
        print(f"the cluster failed: {exc}", file=sys.stderr)
        return 1
    finally:
        print("stopping ...", flush=True)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl+C must not cut the stop
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
