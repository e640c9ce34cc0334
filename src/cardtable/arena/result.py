"""What a run gives back: :class:`ArenaResult`, built from game records by :func:`aggregate`,
and written out as a dict, JSON, CSV or a chart."""

from __future__ import annotations

import csv
import importlib.util
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..variants import Options
from .chart import chart_format, win_rate_chart
from .errors import ArenaError
from .play import Failure, GameRecord
from .schedule import Schedule, entrant_labels
from .statistics import (
    AgentStats,
    HeadToHead,
    compute_head_to_head,
    percentile,
    ratings,
    wilson_interval,
)

__all__ = ["ArenaResult", "aggregate", "check_output_paths"]


def _check_writable(path: Path, what: str) -> None:
    """Raise :class:`ArenaError` unless a file can be written at ``path``."""
    parent = path.parent
    if path.is_dir():
        raise ArenaError(f"{what} {os.fspath(path)!r} is a directory, not a file")
    if not parent.is_dir():
        raise ArenaError(f"cannot write {what} {os.fspath(path)!r}: no directory {str(parent)!r}")
    if path.exists():
        if not os.access(path, os.W_OK):
            raise ArenaError(f"cannot write {what} {os.fspath(path)!r}: permission denied")
    elif not os.access(parent, os.W_OK | os.X_OK):
        raise ArenaError(
            f"cannot write {what} {os.fspath(path)!r}: the directory {str(parent)!r} "
            "is not writable"
        )


def check_output_paths(
    json_path: str | os.PathLike[str] | None = None,
    csv_path: str | os.PathLike[str] | None = None,
    chart_path: str | os.PathLike[str] | None = None,
) -> None:
    """Check, before any game is played, that the result files can be written.

    Each given path must name a file (not a directory) in an existing, writable directory; the
    chart's extension must be one it is drawn in (``.png``, ``.svg``, ``.pdf``, see
    :func:`~cardtable.arena.chart.chart_format`), and matplotlib must be installed for it;
    no two outputs may name the same file. Raises :class:`ArenaError` saying which.
    """
    given = [
        (Path(p), what)
        for p, what in (
            (json_path, "the JSON file"),
            (csv_path, "the CSV file"),
            (chart_path, "the chart"),
        )
        if p is not None
    ]
    for path, what in given:
        _check_writable(path, what)
    if chart_path is not None:
        chart_format(chart_path)
        if importlib.util.find_spec("matplotlib") is None:
            raise ArenaError("charts need matplotlib: pip install cardtable[arena]")
    seen: dict[Path, str] = {}
    for path, what in given:
        key = path.resolve()
        if key in seen:
            raise ArenaError(f"{seen[key]} and {what} are the same file, {os.fspath(path)!r}")
        seen[key] = what


@dataclass(frozen=True)
class ArenaResult:
    """The outcome of :func:`run_arena`: the settings, every game, and the statistics."""

    variant: str
    """The game played."""
    players: int
    """Seats per game."""
    seed: int
    """The arena seed every game and agent seed was derived from."""
    options: Options
    """Rule options given to every game."""
    duplicate: bool
    """Whether the rotations of one lineup replay the same deal."""
    labels: tuple[str, ...]
    """Entrant labels, in the order given."""
    names: tuple[str, ...]
    """Agent names the entrants were built from."""
    records: tuple[GameRecord, ...]
    """Every game, in game order."""
    stats: tuple[AgentStats, ...]
    """Per-entrant statistics, in entrant order."""
    head_to_head: HeadToHead | None
    """Pairwise results when there are three or more entrants."""
    backend: str = "serial"
    """Where the games ran (not part of the outcome)."""
    workers: int = 1
    """How many workers ran them (not part of the outcome)."""
    elapsed: float = 0.0
    """Wall-clock seconds the run took (not part of the outcome)."""

    @property
    def games(self) -> int:
        """Games played (finished or not)."""
        return len(self.records)

    @property
    def failures(self) -> list[Failure]:
        """Every game that stopped early, in game order."""
        return [r.failure for r in self.records if r.failure is not None]

    @property
    def period(self) -> int:
        """The seating schedule's period (runs of a multiple of it are exactly balanced)."""
        return Schedule(len(self.labels), self.players).period

    def to_dict(self, timings: bool = True, games: bool = True) -> dict[str, object]:
        """A JSON-ready copy.

        ``timings=False`` leaves out everything that depends on the machine or the scheduling
        rather than on the games (decision times, elapsed time, backend, workers): two runs with
        the same settings and seed give equal dicts then. ``games=False`` leaves out the
        per-game records.
        """
        out: dict[str, object] = {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "options": dict(self.options),
            "duplicate": self.duplicate,
            "agents": list(self.labels),
            "names": list(self.names),
            "period": self.period,
            "stats": [s.to_dict(timings) for s in self.stats],
            "head_to_head": (
                self.head_to_head.to_dict(self.labels) if self.head_to_head is not None else None
            ),
            "failures": [f.to_dict(self.labels) for f in self.failures],
        }
        if games:
            out["records"] = [r.to_dict(self.labels) for r in self.records]
        if timings:
            out["run"] = {"backend": self.backend, "workers": self.workers, "elapsed": self.elapsed}
        return out

    def to_json(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_dict` (with timings and games) to ``path`` as JSON."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write one row per entrant to ``path`` (decision times in milliseconds)."""
        columns = [
            *("agent", "name", "games", "seats", "wins", "win_rate", "ci_low", "ci_high"),
            *("mean_score", "score_se", "mu", "sigma", "ordinal", "decisions"),
            *("time_mean_ms", "time_p95_ms", "failures"),
        ]
        with Path(path).open("w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow(columns)
            for s in self.stats:
                row = s.to_dict()
                row["time_mean_ms"] = s.time_mean * 1000
                row["time_p95_ms"] = s.time_p95 * 1000
                writer.writerow([row[c] for c in columns])

    def chart(self, path: str | os.PathLike[str]) -> None:
        """Draw the win rates with their 95% intervals as a bar chart at ``path``: PNG, SVG or
        PDF after its extension (:func:`~cardtable.arena.chart.win_rate_chart`).

        A dashed line marks ``1 / players``, the win rate of equally strong agents.
        """
        win_rate_chart(
            path,
            self.stats,
            variant=self.variant,
            players=self.players,
            games=self.games,
            seed=self.seed,
        )


def aggregate(
    variant: str,
    players: int,
    seed: int,
    options: Options,
    names: Sequence[str],
    records: Sequence[GameRecord],
    *,
    duplicate: bool = True,
    backend: str = "serial",
    workers: int = 1,
    elapsed: float = 0.0,
) -> ArenaResult:
    """Turn game records (any order) into an :class:`ArenaResult` with every statistic."""
    records = sorted(records, key=lambda r: r.index)
    labels = entrant_labels(names)
    n = len(names)
    rated = ratings(records, n)
    stats = [_entrant_stats(e, labels[e], names[e], players, records, rated[e]) for e in range(n)]
    return ArenaResult(
        variant=variant,
        players=players,
        seed=seed,
        options=dict(options),
        duplicate=duplicate,
        labels=tuple(labels),
        names=tuple(n.strip().lower() for n in names),
        records=tuple(records),
        stats=tuple(stats),
        head_to_head=compute_head_to_head(records, n) if n > 2 else None,
        backend=backend,
        workers=workers,
        elapsed=elapsed,
    )


def _entrant_stats(
    e: int,
    label: str,
    name: str,
    players: int,
    records: Sequence[GameRecord],
    rating: tuple[float, float],
) -> AgentStats:
    """The statistics of entrant ``e`` (``name``, shown as ``label``) over ``records`` (in
    game order), with its openskill ``rating`` (μ, σ). A failed game counts its decisions and
    times and, for the entrant that broke it, a failure; it is left out of the rest."""
    seats = 0
    games = 0
    wins = 0.0
    scores: list[int] = []
    seat_counts = [0] * players
    times: list[float] = []
    decisions = 0
    failures = 0
    for rec in records:
        mine = [s for s, who in enumerate(rec.lineup) if who == e]
        if not mine:
            continue
        for s in mine:
            times.extend(rec.times[s])
            decisions += rec.decisions[s]
        if rec.failure is not None:
            failures += rec.failure.entrant == e
            continue
        games += 1
        for s in mine:
            seats += 1
            seat_counts[s] += 1
            scores.append(rec.totals[s])
            if s in rec.winners:
                wins += 1 / len(rec.winners)
    mean, se = _mean_and_error(scores)
    low, high = wilson_interval(wins, seats)
    mu, sigma = rating
    return AgentStats(
        label=label,
        agent=name.strip().lower(),
        games=games,
        seats=seats,
        wins=wins,
        win_rate=wins / seats if seats else 0.0,
        ci_low=low,
        ci_high=high,
        mean_score=mean,
        score_se=se,
        mu=mu,
        sigma=sigma,
        ordinal=mu - 3 * sigma,
        seat_counts=tuple(seat_counts),
        decisions=decisions,
        time_mean=sum(times) / len(times) if times else 0.0,
        time_p95=percentile(times, 95),
        failures=failures,
    )


def _mean_and_error(scores: list[int]) -> tuple[float, float]:
    """The mean of ``scores`` and its standard error (0 for fewer than two scores)."""
    mean = sum(scores) / len(scores) if scores else 0.0
    if len(scores) > 1:
        var = sum((x - mean) ** 2 for x in scores) / (len(scores) - 1)
        return mean, math.sqrt(var / len(scores))
    return mean, 0.0
