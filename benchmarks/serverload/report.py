"""The report: the results table, the lines under it for each N, and the goal."""

from __future__ import annotations

import math

from .measure import percentile
from .run import RunResult

__all__ = ["COLUMNS", "GOAL_P99_MS", "GOAL_TABLES", "details", "goal_text", "row_text"]

GOAL_TABLES = 1000
"""The issue's goal: this many tables ..."""
GOAL_P99_MS = 50.0
"""... with a p99 latency below this, no error and no lost action."""

COLUMNS = (
    ("tables", 6),
    ("clients", 7),
    ("dur s", 5),
    ("actions", 8),
    ("act/s", 7),
    ("p50 ms", 7),
    ("p95 ms", 7),
    ("p99 ms", 7),
    ("max ms", 7),
    ("errors", 7),
    ("stale", 6),
    ("lost", 5),
    ("srv CPU s", 9),
    ("srv CPU%", 8),
    ("cli CPU%", 9),
    ("other", 6),
)


def row_text(r: RunResult) -> str:
    """One line of the results table."""
    lat = r.latencies
    cpu = r.server_cpu_s
    cells = [
        f"{r.tables:,}",
        f"{r.clients:,}",
        f"{r.duration:g}",
        f"{r.acts:,}",
        f"{r.acts / r.duration:,.0f}",
        f"{percentile(lat, 50):.1f}",
        f"{percentile(lat, 95):.1f}",
        f"{percentile(lat, 99):.1f}",
        f"{lat[-1] if lat else math.nan:.1f}",
        f"{r.error_total:,}",
        f"{r.stale:,}",
        f"{r.check.lost:,}" if r.check else "?",
        f"{cpu:.1f}" if cpu is not None else "n/a",
        f"{100 * cpu / r.duration:.0f}" if cpu is not None else "n/a",
        "+".join(f"{c:.0f}" for c in r.client_cpu_pct),
        f"{r.other_cores:.2f}" if r.other_cores is not None else "n/a",
    ]
    return " ".join(c.rjust(w) for c, (_, w) in zip(cells, COLUMNS, strict=True))


def details(r: RunResult) -> list[str]:
    """The lines under the table for one N."""
    lines = [f"{r.tables:,} tables:"]
    errs = ", ".join(f"{k} {v:,}" for k, v in sorted(r.errors.items())) or "none"
    lines.append(f"  errors by code: {errs}")
    if r.check:
        c = r.check
        lines.append(
            f"  store check ({c.method}): {c.acked:,} acknowledged actions, lost {c.lost:,}; "
            f"sent but never acknowledged {c.unacked:,} (stored anyway: {c.unacked_stored:,}); "
            f"stored {c.stored:,}, not acknowledged {c.stored_not_acked:,} (of which "
            f"{c.stored_not_acked - c.unacked_stored:,} played by the server when a window closed)"
            + (f"; {c.count_only:,} checked by count only" if c.count_only else "")
        )
        lines.extend(f"    lost: {e}" for e in c.examples)
    rm = r.rematch_ms
    lines.append(
        f"  rematches {r.rematches:,} (p50 {percentile(rm, 50):.1f} ms, "
        f"p99 {percentile(rm, 99):.1f} ms); frames in {r.frames_per_s:,.0f}/s "
        f"of {r.frame_bytes:,.0f} chars on average"
    )
    busy = f"{r.machine_busy_pct:.0f} %" if r.machine_busy_pct is not None else "n/a"
    rss = f"{r.server_rss_mb:,.0f} MiB" if r.server_rss_mb is not None else "n/a"
    if r.ai_tables:
        moves = (
            f"{r.ai_moves:,} moves in the measured window ({r.ai_moves / r.duration:.1f}/s)"
            if r.ai_moves is not None
            else "moves not counted (store not readable from here)"
        )
        cpu = r.workers_cpu_s
        used = (
            f"{cpu:.1f} CPU s ({100 * cpu / r.duration:.0f} % of a core)"
            if cpu is not None
            else "n/a"
        )
        lines.append(f"  AI tables {r.ai_tables:,}: {moves}; search workers used {used}")
    lines.append(
        f"  machine busy {busy} of all cores; server RSS {rss}; client loop lag "
        f"p99 {r.client_lag_p99:.1f} ms, max {r.client_lag_max:.1f} ms; "
        f"setup {r.setup_s:.1f} s, connect {r.connect_s:.1f} s"
    )
    return lines


def goal_text(r: RunResult) -> str:
    """Whether the run met the issue's goal."""
    p99 = percentile(r.latencies, 99)
    lost = r.check.lost if r.check else None
    met = p99 < GOAL_P99_MS and r.error_total == 0 and lost == 0 and r.acts > 0
    return (
        f"goal ({GOAL_TABLES:,} tables, p99 < {GOAL_P99_MS:g} ms, 0 errors, 0 lost): "
        f"{'MET' if met else 'NOT MET'} at {r.tables:,} tables — p99 {p99:.1f} ms, "
        f"{r.error_total:,} errors, {lost if lost is not None else '?'} lost"
    )
