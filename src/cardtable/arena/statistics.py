"""The arena's statistics: intervals, percentiles, places, ratings and head-to-head counts."""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..match import places
from .errors import ArenaError
from .play import GameRecord

__all__ = [
    "Z95",
    "AgentStats",
    "HeadToHead",
    "compute_head_to_head",
    "format_seconds",
    "percentile",
    "places",
    "ratings",
    "wilson_interval",
]

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``successes`` may be fractional).

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]

    With no trials the interval is ``(0.0, 1.0)``.
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if p <= 0 else max(0.0, centre - half)  # exact ends, free of rounding
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return low, high


def format_seconds(seconds: float) -> str:
    """A duration in the unit that suits it, with three significant digits.

    >>> [format_seconds(x) for x in (0.0000123, 0.00116, 0.0999999, 1.5, 2345.6)]
    ['12.3 µs', '1.16 ms', '100 ms', '1.50 s', '2350 s']

    Below a microsecond it still counts in µs (``0.0420 µs``, ``0 µs`` for nothing).
    """
    if not math.isfinite(seconds):
        return str(seconds)
    if seconds == 0:
        return "0 µs"
    sign = "-" if seconds < 0 else ""
    unit, scaled = "s", float(f"{abs(seconds):.3g}")
    for name, scale in (("ms", 1e-3), ("µs", 1e-6)):
        smaller = float(f"{abs(seconds) / scale:.3g}")
        if scaled >= 1 or smaller >= 1000:
            break
        unit, scaled = name, smaller
    digits = max(0, 2 - math.floor(math.log10(scaled)))
    return f"{sign}{scaled:.{digits}f} {unit}"


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by linear interpolation, as numpy's default; 0 if empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


@dataclass(frozen=True)
class AgentStats:
    """Everything the arena measured about one entrant."""

    label: str
    """How the entrant is shown (its agent name, numbered if entered twice)."""
    agent: str
    """The agent name it was built from."""
    games: int
    """Finished games it took part in."""
    seats: int
    """Seats it played in finished games (more than ``games`` when it fills several seats)."""
    wins: float
    """Seat wins, a tie among ``n`` winners counting ``1/n`` for each."""
    win_rate: float
    """``wins / seats``; ``1 / players`` is what equal strength gives."""
    ci_low: float
    """Lower end of the 95% Wilson score interval of the win rate."""
    ci_high: float
    """Upper end of the 95% Wilson score interval of the win rate."""
    mean_score: float
    """Mean final total per seat (lower is better in every cardtable game)."""
    score_se: float
    """Standard error of :attr:`mean_score`."""
    mu: float
    """openskill Plackett–Luce rating: the estimate of skill."""
    sigma: float
    """openskill rating: the uncertainty of :attr:`mu`."""
    ordinal: float
    """``mu - 3 * sigma``: a conservative skill figure to rank by."""
    seat_counts: tuple[int, ...]
    """How often it sat in each seat (finished games)."""
    decisions: int
    """Decisions it took (all games)."""
    time_mean: float
    """Mean seconds per decision (machine-dependent)."""
    time_p95: float
    """95th percentile of seconds per decision (machine-dependent)."""
    failures: int
    """Games that ended because of this entrant."""

    def to_dict(self, timings: bool = True) -> dict[str, object]:
        """A JSON-ready copy; ``timings=False`` drops the decision times."""
        out: dict[str, object] = {
            "agent": self.label,
            "name": self.agent,
            "games": self.games,
            "seats": self.seats,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "mean_score": self.mean_score,
            "score_se": self.score_se,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "seat_counts": list(self.seat_counts),
            "decisions": self.decisions,
            "failures": self.failures,
        }
        if timings:
            out["time_mean"] = self.time_mean
            out["time_p95"] = self.time_p95
        return out


@dataclass(frozen=True)
class HeadToHead:
    """Pairwise results: how often each entrant finished ahead of each other one."""

    score: tuple[tuple[float, ...], ...]
    """``score[a][b]``: seat pairs where ``a`` finished ahead of ``b`` (ties count half)."""
    meetings: tuple[tuple[int, ...], ...]
    """``meetings[a][b]``: seat pairs of ``a`` and ``b`` compared (in finished games)."""

    def rate(self, a: int, b: int) -> float | None:
        """Share of meetings ``a`` won against ``b`` (``None`` if they never met)."""
        n = self.meetings[a][b]
        return self.score[a][b] / n if n else None

    def to_dict(self, labels: Sequence[str]) -> dict[str, object]:
        """A JSON-ready copy: ``{"agents", "rate", "meetings"}`` with rows and columns in the
        order of ``agents``."""
        n = len(labels)
        return {
            "agents": list(labels),
            "rate": [[self.rate(a, b) for b in range(n)] for a in range(n)],
            "meetings": [list(row) for row in self.meetings],
        }


def ratings(records: Sequence[GameRecord], entrants: int) -> list[tuple[float, float]]:
    """openskill Plackett–Luce ``(mu, sigma)`` per entrant, from finished games in index order.

    Each seat is a team of one. An entrant holding several seats of a game is rated from each
    seat with its current rating, and takes the mean of the resulting ratings.
    """
    try:
        models = importlib.import_module("openskill.models")
    except ImportError as err:
        raise ArenaError("ratings need openskill: pip install cardtable[arena]") from err
    model = models.PlackettLuce()
    current: list[tuple[float, float]] = [(model.mu, model.sigma)] * entrants
    for rec in sorted(records, key=lambda r: r.index):
        if not rec.ok:
            continue
        teams = [[model.rating(mu=current[e][0], sigma=current[e][1])] for e in rec.lineup]
        new = model.rate(teams, ranks=places(rec.totals, rec.winners))
        gathered: dict[int, list[tuple[float, float]]] = {}
        for seat, e in enumerate(rec.lineup):
            gathered.setdefault(e, []).append((new[seat][0].mu, new[seat][0].sigma))
        for e, values in gathered.items():
            current[e] = (
                sum(v[0] for v in values) / len(values),
                sum(v[1] for v in values) / len(values),
            )
    return current


def compute_head_to_head(records: Sequence[GameRecord], entrants: int) -> HeadToHead:
    """How often each entrant finished ahead of each other one, over the finished games.

    Every pair of seats held by different entrants is compared by finishing place
    (:func:`places`); a tie counts half."""
    score = [[0.0] * entrants for _ in range(entrants)]
    meetings = [[0] * entrants for _ in range(entrants)]
    for rec in records:
        if not rec.ok:
            continue
        place = places(rec.totals, rec.winners)
        for s, a in enumerate(rec.lineup):
            for t, b in enumerate(rec.lineup):
                if s == t or a == b:
                    continue
                meetings[a][b] += 1
                if place[s] < place[t]:
                    score[a][b] += 1.0
                elif place[s] == place[t]:
                    score[a][b] += 0.5
    return HeadToHead(tuple(map(tuple, score)), tuple(map(tuple, meetings)))
