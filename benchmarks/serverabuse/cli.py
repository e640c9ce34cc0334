"""The command line: options, the time limit, the run (or ``--startup``), the report."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from .common import progress, raise_fd_limit, versions
from .scenarios import SCENARIOS

__all__ = ["DESCRIPTION", "main", "parse_args"]

DESCRIPTION = "Server abuse: ordinary tables' latency while the server is abused."
"""The first line of ``--help``."""


class TimeLimit(Exception):
    """The run went over ``--time-limit``."""


def _think(text: str) -> tuple[float, float]:
    lo, sep, hi = text.partition("-")
    try:
        pair = (float(lo), float(hi) if sep else float(lo))
    except ValueError:
        raise argparse.ArgumentTypeError(f"think time {text!r} is not 'S' or 'LO-HI'") from None
    if pair[0] < 0 or pair[1] < pair[0]:
        raise argparse.ArgumentTypeError(f"think time {text!r}: need 0 <= LO <= HI")
    return pair


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The options."""
    p = argparse.ArgumentParser(description=DESCRIPTION)
    add = p.add_argument
    add("--scenarios", default=",".join(SCENARIOS), help="comma-separated ('none': baseline)")
    add("--seconds", type=float, default=15.0, help="length of the baseline and each scenario")
    add("--tables", type=int, default=8, help="ordinary tables (2 people each)")
    add("--think", type=_think, default=(0.3, 0.8), help="ordinary think time LO-HI s")
    add("--ping-interval", type=float, default=0.1, help="seconds between pings")
    add("--warmup", type=float, default=2.0, help="unmeasured play before the baseline (s)")
    add("--settle", type=float, default=2.0, help="pause before each scenario (s)")
    add("--recover", type=float, default=60.0, help="wait at most this long for recovery (s)")
    add("--reply-timeout", type=float, default=10.0, help="ordinary answer waited for (s)")
    add("--seed", type=int, default=1)
    add("--db", help="store URL for the started server (default: fresh SQLite)")
    add("--url", help="abuse this running server instead of starting one")
    add("--server-pid", type=int, help="with --url: its pid, for RSS and CPU")
    add("--ai-delay", type=float, default=0.3, help="the started server's --ai-delay")
    add("--ai-workers", type=int, help="the started server's --ai-workers")
    add("--server-args", default="", help="more options for the started server (one string)")
    add("--tmpdir", help="where the store and logs go (default: system temp)")
    add("--json", dest="json_file", help="save the figures to this file")
    add("--abuser-nice", type=int, default=10, help="abusers' niceness (see the doc)")
    add("--max-rss-mb", type=float, default=8000.0, help="stop a scenario past this server RSS")
    add("--time-limit", type=float, help="give up after so many seconds (default: estimated)")
    add("--keep-logs", action="store_true", help="print the server's log at the end")
    g = p.add_argument_group("abuse sizes")
    g.add_argument("--room-clients", type=int, default=8, help="room_flood: HTTP clients")
    g.add_argument("--flood-sockets", type=int, default=20, help="message_flood: sockets")
    g.add_argument("--flood-conns", type=int, default=10000, help="connection_flood: at most")
    g.add_argument("--connect-parallel", type=int, default=128, help="handshakes at a time")
    g.add_argument("--slowloris", type=int, default=500, help="slow_clients: half heads")
    g.add_argument("--loris-interval", type=float, default=5.0, help="s between header lines")
    g.add_argument("--stalled-ws", type=int, default=50, help="slow_clients: sockets not read")
    g.add_argument("--stall-interval", type=float, default=0.1, help="s between their joins")
    g.add_argument("--big-parallel", type=int, default=4, help="big_bodies: parallel POSTs")
    g.add_argument("--body-mib", type=int, default=200, help="big_bodies: MiB per body")
    g.add_argument("--body-path", default="/api/rooms", help="big_bodies: where they go")
    g.add_argument("--nested-sockets", type=int, default=2, help="big_bodies: nested frames")
    g.add_argument("--replay-clients", type=int, default=20, help="replays: parallel clients")
    g.add_argument("--replay-variant", default="kaboo", help="replays: the long game's variant")
    g.add_argument("--replay-level", default="casual", help="… the level of every seat")
    g.add_argument("--replay-seats", type=int, default=4, help="… its seats")
    g.add_argument("--replay-target", type=int, default=1000, help="… its target")
    g.add_argument("--replay-room", help="replays: ROOM/N, a finished game (no setup)")
    g.add_argument("--ai-master", type=int, default=3, help="ai_rooms: rooms of master")
    g.add_argument("--ai-expert", type=int, default=3, help="ai_rooms: rooms of expert")
    g.add_argument("--ai-casual", type=int, default=0, help="ai_rooms: rooms of casual")
    g.add_argument("--ai-addresses", type=int, default=40, help="ai_rooms: their addresses")
    g.add_argument("--ai-seats", type=int, default=4, help="ai_rooms: seats per room")
    g.add_argument("--pf-sockets", type=int, default=256, help="ping_flood: sockets")
    g.add_argument("--pf-addresses", type=int, default=8, help="ping_flood: their addresses")
    g.add_argument("--pf-interval", type=float, default=0.05, help="ping_flood: s between pings")
    g.add_argument("--sp-sockets", type=int, default=384, help="spectators: sockets")
    g.add_argument("--sp-addresses", type=int, default=12, help="spectators: their addresses")
    g.add_argument("--hs-parallel", type=int, default=64, help="handshake_flood: clients")
    g.add_argument("--bh-parallel", type=int, default=16, help="big_heads: clients")
    g.add_argument("--ai-variant", default="kaboo", help="ai_rooms: game")
    g.add_argument(
        "--ai-options", default='{"target": null, "max_turns": 1}', help="ai_rooms: options"
    )
    s = p.add_argument_group("start-up")
    s.add_argument(
        "--startup",
        action="store_true",
        help="measure start-up instead (with --db: an empty database, measured, then filled)",
    )
    s.add_argument("--startup-rooms", type=int, default=10000, help="abandoned rooms")
    s.add_argument("--startup-runs", type=int, default=3, help="runs per store")
    s.add_argument("--startup-timeout", type=float, default=300.0, help="per run (s)")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.tables < 1:
        p.error("--seconds must be positive and --tables at least 1")
    names = [] if args.scenarios == "none" else [n.strip() for n in args.scenarios.split(",")]
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        p.error(f"unknown scenario(s) {', '.join(unknown)}; choose from {', '.join(SCENARIOS)}")
    args.scenario_list = [n for n in names if n]
    if args.url and args.ai_workers is not None:
        p.error("--ai-workers is for a server this script starts, not with --url")
    return args


def _estimate(args: argparse.Namespace) -> float:
    """A generous time limit for the whole run."""
    if args.startup:
        return 600.0 + float(args.startup_runs * 2 * args.startup_timeout)
    per = args.seconds + args.settle + args.recover + 60.0
    extra = 900.0 if "replays" in args.scenario_list else 0.0
    extra += args.recover if "ai_rooms" in args.scenario_list else 0.0
    return float(300.0 + args.seconds + per * len(args.scenario_list) + extra)


def _alarm(_signum: int, _frame: FrameType | None) -> None:
    raise TimeLimit("the run went over its time limit")


def _terminate(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # stop as on Ctrl+C: every process started is stopped


def main(argv: list[str] | None = None) -> None:
    """Run and print."""
    args = parse_args(argv)
    limit = args.time_limit or _estimate(args)
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started ignoring it
    signal.alarm(max(1, int(limit)))
    fds = raise_fd_limit(max(4 * args.flood_conns, 4 * args.slowloris) + 4096)
    exe = sys.executable
    if not os.path.relpath(exe).startswith(".."):
        exe = os.path.relpath(exe)
    print("$ " + shlex.join([exe, *(argv if argv is not None else sys.argv)]))
    print(f"{versions()}; {os.cpu_count()} CPUs ({platform.processor() or platform.machine()})")
    try:
        if args.startup:
            _startup(args)
        else:
            _abuse(args, fds, limit)
    except TimeLimit as exc:
        progress(f"stopped: {exc} ({limit:.0f} s); every process started was stopped")
        sys.exit(2)
    except KeyboardInterrupt:
        progress("interrupted; every process started was stopped")
        sys.exit(130)
    finally:
        signal.alarm(0)


def _startup(args: argparse.Namespace) -> None:
    from .startup import run_startup, startup_figures, startup_text

    print(
        f"start-up: launch → first GET /api/levels, and → GET /api/rooms asked right after; "
        f"{args.startup_runs} runs per store; store: {args.db or 'fresh SQLite file'}"
    )
    print()
    rows = run_startup(args)
    print("\n".join(startup_text(rows)), flush=True)
    if args.json_file:
        Path(args.json_file).write_text(json.dumps(startup_figures(rows), indent=2))


def _abuse(args: argparse.Namespace, fds: int, limit: float) -> None:
    from .report import details, figures, goal_text, shared_warning, table
    from .run import run_abuse

    lo, hi = args.think
    print(
        f"{args.tables} ordinary kaboo tables of 2 people from 127.0.0.1 (think {lo:g}-{hi:g} s, "
        f"ping every {args.ping_interval:g} s); baseline and each scenario {args.seconds:g} s; "
        f"abusers from 127.0.0.2… at nice +{args.abuser_nice}; open-file limit {fds:,}; "
        f"time limit {limit:.0f} s"
    )
    started = (
        f"python -m cardtable serve --ai-delay {args.ai_delay:g}"
        + (f" --ai-workers {args.ai_workers}" if args.ai_workers is not None else "")
        + (f" {args.server_args}" if args.server_args else "")
        + " (its own default limits)"
    )
    print(f"server: {args.url or started}; store: {args.db or 'fresh SQLite file'}")
    if args.tables * 2 + 1 > 32:
        print(
            f"note: {args.tables * 2 + 1} ordinary connections from one address; a per-address "
            "connection cap below that refuses some of them"
        )
    report = run_abuse(args, args.scenario_list)
    if report.replay is not None and report.replay.moves >= 0:
        g = report.replay
        print(
            f"replayed game: room {g.room} game {g.game_no}, {g.variant}, "
            f"{len(g.seats)} {g.seats[0] if g.seats else ''} AI seats, "
            f"options {json.dumps(g.options)}: {g.moves:,} moves"
        )
    print()
    print("\n".join(table(report.phases)))
    print()
    print(goal_text(report.phases))
    print()
    for phase in report.phases:
        print("\n".join(details(phase)))
    print()
    print(
        "acts, p50/p99/max: the ordinary tables' act→view latency in the window (own answer "
        "and the other seat's new version together; 'lost' = an act never answered); ping "
        "p99: round trip of a ping every "
        f"{args.ping_interval:g} s; ord.err: error frames, disconnects and unanswered messages "
        "of the ordinary tables; RSS MB: the server's at the window's end (its peak)"
    )
    for warning in shared_warning(report.phases):
        print(warning)
    if report.setup_429:
        print(f"note: creating the ordinary tables met {report.setup_429} × 429 (retried)")
    for note in report.notes:
        print(f"note: {note}")
    if args.keep_logs:
        print(report.server_log, file=sys.stderr)
    if args.json_file:
        config: dict[str, Any] = {
            k: v for k, v in vars(args).items() if isinstance(v, int | float | str | list | tuple)
        }
        Path(args.json_file).write_text(json.dumps(figures(report, config), indent=2))
        progress(f"figures saved to {args.json_file}")
