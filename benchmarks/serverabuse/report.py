"""The report: one row per phase, the lines under the table, the goal, the JSON figures."""

from __future__ import annotations

import math
from typing import Any

from .common import jsonable, percentile
from .run import Phase, RunReport

__all__ = [
    "COLUMNS",
    "GOAL_P99_MS",
    "details",
    "figures",
    "goal_text",
    "ordinary_errors",
    "shared_warning",
    "table",
]

GOAL_P99_MS = 50.0
"""The goal: the ordinary tables' act→view p99 below this under every abuse."""

COLUMNS: tuple[tuple[str, int, str], ...] = (
    ("scenario", 16, "<"),
    ("acts", 5, ">"),
    ("p50 ms", 7, ">"),
    ("p99 ms", 7, ">"),
    ("max ms", 7, ">"),
    ("ping p99", 8, ">"),
    ("ord.err", 7, ">"),
    ("abuser outcome", 14, "<"),
    ("RSS MB", 11, ">"),
)
"""Name, (least) width and alignment of each column: the outcome column is as wide as its
longest cell."""


def _ms(value: float) -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "lost"
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def _line(cells: list[str], widths: list[int]) -> str:
    out = []
    for text, width, (_, _, align) in zip(cells, widths, COLUMNS, strict=True):
        out.append(text.ljust(width) if align == "<" else text.rjust(width))
    return " ".join(out).rstrip()


def ordinary_errors(phase: Phase) -> int:
    """Errors and failures the ordinary tables met during the phase."""
    return sum(phase.events.values())


def _row(phase: Phase) -> list[str]:
    lat = phase.act_ms
    rss = "-"
    if phase.rss_end is not None:
        rss = f"{phase.rss_end:,.0f}"
        if phase.rss_peak is not None and phase.rss_peak > phase.rss_end + 0.5:
            rss += f" ({phase.rss_peak:,.0f})"
    if phase.outcome is not None and not phase.outcome.fatal:
        outcome = phase.outcome.summary
    elif phase.stopped:
        outcome = phase.stopped.splitlines()[0][:100]
    else:
        outcome = "-" if phase.name == "baseline" else "?"
    return [
        phase.name,
        f"{len(lat):,}",
        _ms(percentile(lat, 50)),
        _ms(percentile(lat, 99)),
        _ms(lat[-1] if lat else math.nan),
        _ms(percentile(phase.ping_ms, 99)),
        f"{ordinary_errors(phase):,}",
        outcome,
        rss,
    ]


def table(phases: list[Phase]) -> list[str]:
    """The results table: a header, a rule, one row per phase."""
    rows = [_row(p) for p in phases]
    widths = [
        max([w, *(len(r[i]) for r in rows)]) if align == "<" else w
        for i, (_, w, align) in enumerate(COLUMNS)
    ]
    head = _line([name for name, _, _ in COLUMNS], widths)
    return [head, "-" * len(head), *(_line(r, widths) for r in rows)]


def details(phase: Phase) -> list[str]:
    """The lines under the table for one phase."""
    lines = [
        f"{phase.name} ({phase.seconds:.1f} s):"
        if not math.isnan(phase.seconds)
        else f"{phase.name}:"
    ]
    if phase.stopped:
        lines.append(f"  stopped: {phase.stopped}")
    s, o, pg = phase.self_ms, phase.other_ms, phase.ping_ms
    lines.append(
        f"  act→view: own answer n={len(s):,} p50 {_ms(percentile(s, 50))} p99 "
        f"{_ms(percentile(s, 99))} max {_ms(s[-1] if s else math.nan)} ms; other seat "
        f"n={len(o):,} p50 {_ms(percentile(o, 50))} p99 {_ms(percentile(o, 99))} max "
        f"{_ms(o[-1] if o else math.nan)} ms; ping n={len(pg):,} p50 {_ms(percentile(pg, 50))} "
        f"p99 {_ms(percentile(pg, 99))} max {_ms(pg[-1] if pg else math.nan)} ms"
    )
    if phase.events:
        lines.append(f"  ordinary tables' errors: {dict(sorted(phase.events.items()))}")
    cpu = phase.server_cpu_s
    secs = phase.seconds
    parts = []
    if cpu is not None and not math.isnan(secs):
        parts.append(f"server CPU {100 * cpu / secs:.0f}% of a core")
    if phase.workers_cpu_s:
        parts.append(f"search workers {100 * phase.workers_cpu_s / secs:.0f}%")
    if phase.tables_cpu_s is not None and not math.isnan(secs):
        parts.append(f"tables' client {100 * phase.tables_cpu_s / secs:.0f}%")
    if phase.abuser_cpu_s is not None and not math.isnan(secs):
        parts.append(f"abuser {100 * phase.abuser_cpu_s / secs:.0f}%")
    if phase.busy_pct is not None:
        parts.append(f"machine {phase.busy_pct:.0f}% busy")
    if phase.other_cores is not None:
        parts.append(f"other processes {phase.other_cores:.2f} cores")
    if phase.fds_peak is not None:
        parts.append(f"server descriptors ≤{phase.fds_peak:,}")
    if phase.workers_rss_peak:
        parts.append(f"workers' RSS ≤{phase.workers_rss_peak:,.0f} MB")
    parts.append(f"client loop lag p99 {_ms(phase.lag_p99)} / max {_ms(phase.lag_max)} ms")
    if phase.name != "baseline":
        rec = phase.recovery_s
        parts.append(
            "recovered " + (f"{rec:.1f} s after" if rec is not None else "NOT within the limit")
        )
    lines.append("  " + "; ".join(parts))
    if phase.outcome is not None:
        out = phase.outcome
        if out.fatal:
            lines.append(f"  abuser failed: {out.fatal}")
        src = out.source or "the default address"
        throttled = {True: "yes", False: "no", None: "?"}[out.throttled]
        lines.append(f"  abuser from {src}; pushed back: {throttled}")
        lines.extend(f"  {d}" for d in out.details)
    return lines


def goal_text(phases: list[Phase]) -> str:
    """Whether the ordinary tables' p99 stayed under the goal in every scenario."""
    abused = [p for p in phases if p.name != "baseline"]
    if not abused:
        return f"goal (act→view p99 < {GOAL_P99_MS:g} ms under every abuse): no scenario ran"
    over = []
    for p in abused:
        p99 = percentile(p.act_ms, 99)
        if not p.act_ms or not p99 < GOAL_P99_MS:
            over.append(f"{p.name} {_ms(p99)}" + (" ms" if p.act_ms and math.isfinite(p99) else ""))
    met = not over
    return f"goal: ordinary tables' act→view p99 < {GOAL_P99_MS:g} ms under every abuse: " + (
        "MET" if met else "NOT MET (" + ", ".join(over) + ")"
    )


def figures(report: RunReport, config: dict[str, Any]) -> dict[str, Any]:
    """Everything for ``--json``."""

    def pct(values: list[float]) -> dict[str, Any]:
        return {
            "n": len(values),
            "p50": percentile(values, 50),
            "p95": percentile(values, 95),
            "p99": percentile(values, 99),
            "max": values[-1] if values else None,
            "lost": sum(1 for v in values if math.isinf(v)),
        }

    phases = []
    for p in report.phases:
        out = p.outcome
        phases.append(
            {
                "scenario": p.name,
                "seconds": p.seconds,
                "act_to_view_ms": pct(p.act_ms),
                "own_answer_ms": pct(p.self_ms),
                "other_seat_ms": pct(p.other_ms),
                "ping_ms": pct(p.ping_ms),
                "ordinary_errors": dict(p.events),
                "client_lag_ms": {"p99": p.lag_p99, "max": p.lag_max},
                "server_cpu_s": p.server_cpu_s,
                "workers_cpu_s": p.workers_cpu_s,
                "machine_busy_pct": p.busy_pct,
                "tables_cpu_s": p.tables_cpu_s,
                "abuser_cpu_s": p.abuser_cpu_s,
                "other_cores": p.other_cores,
                "server_rss_mb": {"end": p.rss_end, "peak": p.rss_peak},
                "workers_rss_mb_peak": p.workers_rss_peak,
                "server_fds_peak": p.fds_peak,
                "recovery_s": p.recovery_s,
                "stopped": p.stopped,
                "abuser": None
                if out is None
                else {
                    "summary": out.summary,
                    "source": out.source,
                    "throttled": out.throttled,
                    "counts": dict(out.counts),
                    "details": out.details,
                    "figures": out.figures,
                    "cpu_s": out.cpu_s,
                    "fatal": out.fatal,
                },
            }
        )
    replay = report.replay
    result: dict[str, Any] = jsonable(
        {
            "config": config,
            "replay_game": None
            if replay is None
            else {
                "room": replay.room,
                "game_no": replay.game_no,
                "moves": replay.moves,
                "variant": replay.variant,
                "seats": list(replay.seats),
            },
            "phases": phases,
            "goal": goal_text(report.phases),
            "notes": report.notes,
        }
    )
    return result


def shared_warning(phases: list[Phase]) -> list[str]:
    """Warnings for the phases during which other processes used the machine."""
    return [
        f"WARNING: during {p.name} other processes used {p.other_cores:.2f} cores: the machine "
        "was shared and the latencies are inflated; run again when it is idle"
        for p in phases
        if p.other_cores is not None and p.other_cores > 0.25
    ]
