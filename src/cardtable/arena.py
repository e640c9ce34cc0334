"""The arena: seeded tournaments between agents, with statistics fit to report.

>>> from cardtable.arena import run_arena
>>> result = run_arena("kaboo", ["random", "random"], games=4, backend="serial")
>>> [s.seats for s in result.stats]
[4, 4]

:func:`run_arena` plays ``games`` games of one variant between *entrants* (agent names, see
:func:`cardtable.agents.get`), spreads them over worker processes (or a Ray cluster, or runs
them one by one) and returns an :class:`ArenaResult`: per-entrant win rates with 95% Wilson
score intervals, mean final scores, decision times, an openskill (Plackett–Luce) rating and,
with three or more entrants, a head-to-head matrix. The result writes itself as JSON, CSV or a
PNG chart.

Fairness comes from the seating schedule (:class:`Schedule`): over one *period* every entrant
sits in every seat equally often. Reproducibility comes from seeds derived from the arena seed
and the game index alone (:func:`derive_seed`), so the outcome of a run does not depend on the
backend, the number of workers or the order in which chunks finish. Decision times are the
only numbers that change from run to run; :meth:`ArenaResult.to_dict` leaves them out on
request.

This module belongs to the services layer: it uses the game contract and the agent registry
and prints nothing (progress goes to a callback).
"""

from __future__ import annotations

import concurrent.futures
import csv
import hashlib
import importlib
import importlib.util
import json
import logging
import math
import multiprocessing
import os
import time
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from . import agents as registry
from .agents import Agent
from .notation import Action
from .variants import get as get_variant
from .variants import new_game

__all__ = [
    "BACKENDS",
    "MAX_DECISIONS",
    "RAY_HINT",
    "Z95",
    "AgentStats",
    "ArenaError",
    "ArenaResult",
    "Backend",
    "Chunk",
    "Failure",
    "GameRecord",
    "HeadToHead",
    "ProgressFn",
    "Schedule",
    "aggregate",
    "build_agent",
    "check_settings",
    "derive_seed",
    "entrant_labels",
    "percentile",
    "places",
    "play_chunk",
    "play_game",
    "run_arena",
    "wilson_interval",
]

Backend = Literal["process", "ray", "serial"]
"""Where the games run: a local process pool, a Ray cluster, or this process one by one."""

BACKENDS: tuple[str, ...] = ("process", "ray", "serial")
"""Every backend :func:`run_arena` accepts."""

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""

ProgressFn = Callable[[int, int], None]
"""Progress callback: ``progress(games_done, games_total)``, called as chunks finish."""

MAX_DECISIONS = 200_000
"""A game that needs more decisions than this is stopped and counted as a failure."""

RAY_HINT = "the ray backend needs Ray: pip install cardtable[ray]"
"""The message given when the Ray backend is asked for but Ray is not installed."""


class ArenaError(ValueError):
    """A tournament that cannot run as asked: unknown game or agent, bad counts, missing extra."""


# ------------------------------------------------------------------------------------ seeds
def derive_seed(seed: int, *parts: int | str) -> int:
    """A 63-bit seed that depends on ``seed`` and ``parts`` only (stable on every platform).

    The arena derives each game's deal seed and each seat's agent seed this way, so game ``i``
    is the same game whichever worker plays it.
    """
    text = ":".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


# ------------------------------------------------------------------------------------ seating
def _unrank_combination(n: int, k: int, rank: int) -> tuple[int, ...]:
    """The ``rank``-th ``k``-subset of ``range(n)`` in lexicographic order."""
    out: list[int] = []
    x = 0
    for i in range(k):
        while True:
            count = math.comb(n - x - 1, k - i - 1)
            if rank < count:
                break
            rank -= count
            x += 1
        out.append(x)
        x += 1
    return tuple(out)


@dataclass(frozen=True)
class Schedule:
    """Who sits where in each game: a cycle of lineups that is fair to every entrant.

    With ``A`` entrants and ``P`` seats, a *group* of ``k = min(A, P)`` entrants plays at a
    time. Groups are the ``k``-subsets of the entrants in lexicographic order (just one group
    when ``A <= P``). Each group is seated in a fixed order, rotated one seat per game
    (``k`` games); with three or more in the group the reversed order follows, rotated the same
    way, so every entrant also follows every other one equally often at a 3-seat table. When
    ``A < P`` the group's order is repeated around the table to fill it.

    Over one :attr:`period` of games, every entrant therefore sits in every seat equally often
    and plays the same number of seats; with ``A > P`` every group gets the same number of
    games. A run whose length is a multiple of the period is exactly balanced; otherwise the
    imbalance is at most one period's worth of games.
    """

    entrants: int
    """Number of entrants (agents in the tournament, repeats included)."""
    players: int
    """Seats at the table."""

    def __post_init__(self) -> None:
        if self.entrants < 1 or self.players < 1:
            raise ArenaError("a schedule needs at least one entrant and one seat")

    @property
    def group_size(self) -> int:
        """How many different entrants sit at one table: ``min(entrants, players)``."""
        return min(self.entrants, self.players)

    @property
    def directions(self) -> int:
        """2 when the group's order is also played reversed (groups of three or more), else 1."""
        return 2 if self.group_size >= 3 else 1

    @property
    def groups(self) -> int:
        """How many different groups take turns at the table."""
        return math.comb(self.entrants, self.group_size)

    @property
    def period(self) -> int:
        """Games after which the schedule repeats (and is exactly balanced)."""
        return self.groups * self.directions * self.group_size

    def lineup(self, game: int) -> tuple[int, ...]:
        """The entrant (index) in each seat of game ``game``."""
        k = self.group_size
        j = game % self.period
        rotation = j % k
        direction = (j // k) % self.directions
        group = _unrank_combination(self.entrants, k, j // (k * self.directions))
        order = group[::-1] if direction else group
        return tuple(order[(seat + rotation) % k] for seat in range(self.players))

    def deal(self, game: int) -> int:
        """The duplicate-deal block of game ``game``: the ``k`` rotations of one order share it."""
        return game // self.group_size


def entrant_labels(names: Sequence[str]) -> list[str]:
    """Display labels for entrants: the agent name, numbered ``name#1``, ``name#2`` … when the
    same agent is entered more than once (``random,random`` plays an agent against itself)."""
    keys = [n.strip().lower() for n in names]
    counts = {k: keys.count(k) for k in keys}
    seen: dict[str, int] = {}
    labels = []
    for key in keys:
        if counts[key] == 1:
            labels.append(key)
        else:
            seen[key] = seen.get(key, 0) + 1
            labels.append(f"{key}#{seen[key]}")
    return labels


# ------------------------------------------------------------------------------------ one game
@dataclass(frozen=True)
class Failure:
    """A game that could not be finished, and whose fault it was."""

    game: int
    """Index of the game."""
    seat: int | None
    """Seat that was acting (``None`` if no seat was to blame)."""
    entrant: int | None
    """Entrant in that seat (``None`` if no seat was to blame)."""
    action: str | None
    """The action the agent returned, if it got that far."""
    error: str
    """What went wrong: the exception's type and message."""

    def to_dict(self, labels: Sequence[str]) -> dict[str, Any]:
        """A JSON-ready copy, with the entrant named."""
        return {
            "game": self.game,
            "seat": self.seat,
            "agent": labels[self.entrant] if self.entrant is not None else None,
            "action": self.action,
            "error": self.error,
        }


@dataclass(frozen=True)
class GameRecord:
    """What happened in one arena game (seats are the table's; entrants index the arena's list)."""

    index: int
    """Position of the game in the run (0 is the first)."""
    seed: int
    """The seed the game was dealt with."""
    lineup: tuple[int, ...]
    """The entrant in each seat."""
    totals: tuple[int, ...]
    """Final totals by seat (empty if the game failed)."""
    winners: tuple[int, ...]
    """Winning seats (empty if the game failed)."""
    decisions: tuple[int, ...]
    """Decisions taken by each seat."""
    times: tuple[array[float], ...] = field(compare=False, repr=False)
    """Seconds each of the seat's decisions took (machine-dependent; never compared)."""
    failure: Failure | None = None
    """Why the game stopped early, if it did."""

    @property
    def ok(self) -> bool:
        """True if the game was played to its end."""
        return self.failure is None

    def to_dict(self, labels: Sequence[str]) -> dict[str, Any]:
        """A JSON-ready copy without decision times."""
        return {
            "game": self.index,
            "seed": self.seed,
            "lineup": [labels[e] for e in self.lineup],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "decisions": list(self.decisions),
            "failure": self.failure.to_dict(labels) if self.failure else None,
        }


def play_game(
    variant: str,
    players: int,
    options: Mapping[str, Any] | None,
    names: Sequence[str],
    lineup: Sequence[int],
    game_seed: int,
    agent_seeds: Sequence[int],
    index: int = 0,
    max_decisions: int = MAX_DECISIONS,
    measure: bool = False,
) -> GameRecord:
    """Play one game to its end through the checked path (:meth:`~cardtable.Game.play`).

    Seat ``s`` is played by ``agents.get(names[lineup[s]], seed=agent_seeds[s])``. Whatever an
    agent does wrong — an illegal action, an exception — ends the game as a :class:`Failure`
    charged to that agent; it is never skipped over.
    """
    game = new_game(variant, players=players, seed=game_seed, options=options)
    bots = [build_agent(names[lineup[s]], agent_seeds[s], measure) for s in range(players)]
    times: tuple[array[float], ...] = tuple(array("d") for _ in range(players))
    decisions = [0] * players
    clock = time.perf_counter
    seat: int | None = None
    action: Action | None = None
    try:
        total = 0
        while not game.over:
            if total >= max_decisions:
                seat, action = None, None
                raise RuntimeError(f"the game did not end within {max_decisions} decisions")
            seat = game.actors[0]
            action = None
            start = clock()
            action = bots[seat].act(game, seat)
            times[seat].append(clock() - start)
            decisions[seat] += 1
            total += 1
            game.play(seat, action)
    except Exception as err:  # IllegalAction above all: charged to the agent
        failure = Failure(
            game=index,
            seat=seat,
            entrant=lineup[seat] if seat is not None else None,
            action=str(action) if action is not None else None,
            error=f"{type(err).__name__}: {err}",
        )
        return GameRecord(index, game_seed, tuple(lineup), (), (), tuple(decisions), times, failure)
    result = game.result
    assert result is not None
    return GameRecord(
        index,
        game_seed,
        tuple(lineup),
        tuple(result.totals),
        tuple(result.winners),
        tuple(decisions),
        times,
    )


@dataclass(frozen=True)
class Chunk:
    """A run of consecutive games of one arena run: the unit of work sent to a worker."""

    variant: str
    """The game's registry name."""
    players: int
    """Seats per game."""
    options: dict[str, Any]
    """Rule options for every game."""
    names: tuple[str, ...]
    """Agent name of each entrant."""
    seed: int
    """The arena seed."""
    duplicate: bool
    """Whether the rotations of one lineup share a deal."""
    start: int
    """Index of the first game."""
    stop: int
    """Index one past the last game."""
    max_decisions: int
    """Decisions after which a game is stopped as a failure."""
    measure: bool = False
    """Whether measuring-only agents (``oracle``) may play (see :func:`build_agent`)."""


def build_agent(name: str, seed: int, measure: bool = False) -> Agent:
    """The agent behind an entrant's name (:func:`cardtable.agents.get`); with ``measure``,
    also ``oracle`` / ``oracle:N``, the agent that sees every hand (benchmarks only: it is
    never reachable from the web app or the terminal)."""
    key = name.strip().lower()
    if measure and (key == "oracle" or key.startswith("oracle:")):
        from .agents.oracle import OracleAgent

        text = key.partition(":")[2]
        if text and (not text.isdigit() or int(text) < 2):
            raise ValueError(f"'{name}': give oracle a number of deals, at least 2")
        agent: Agent = OracleAgent(seed, samples=int(text)) if text else OracleAgent(seed)
        agent.name = key
        return agent
    return registry.get(name, seed=seed)


def play_chunk(chunk: Chunk) -> list[GameRecord]:
    """Play games ``chunk.start`` to ``chunk.stop - 1`` of a run (the unit of parallel work).

    Everything about game ``i`` — lineup, deal seed, agent seeds — comes from the arena seed and
    ``i`` alone, so any worker produces the same records for it.
    """
    schedule = Schedule(len(chunk.names), chunk.players)
    out = []
    for i in range(chunk.start, chunk.stop):
        deal = derive_seed(chunk.seed, "deal", schedule.deal(i) if chunk.duplicate else i)
        out.append(
            play_game(
                chunk.variant,
                chunk.players,
                chunk.options,
                chunk.names,
                schedule.lineup(i),
                deal,
                [derive_seed(chunk.seed, "agent", i, s) for s in range(chunk.players)],
                index=i,
                max_decisions=chunk.max_decisions,
                measure=chunk.measure,
            )
        )
    return out


# ------------------------------------------------------------------------------------ statistics
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


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by linear interpolation, as numpy's default; 0 if empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def places(totals: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Finishing place of every seat (1 is best; equal places are ties).

    Winners share first place; the other seats follow by final total, lower first (every
    cardtable game counts penalty points), with standard competition ranking.
    """
    first = set(winners)
    others = [totals[s] for s in range(len(totals)) if s not in first]
    out = []
    for s, total in enumerate(totals):
        if s in first:
            out.append(1)
        else:
            out.append(1 + len(first) + sum(1 for t in others if t < total))
    return out


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

    def to_dict(self, timings: bool = True) -> dict[str, Any]:
        """A JSON-ready copy; ``timings=False`` drops the decision times."""
        out: dict[str, Any] = {
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

    def to_dict(self, labels: Sequence[str]) -> dict[str, Any]:
        """A JSON-ready copy: ``{"agents", "rate", "meetings"}`` with rows and columns in the
        order of ``agents``."""
        n = len(labels)
        return {
            "agents": list(labels),
            "rate": [[self.rate(a, b) for b in range(n)] for a in range(n)],
            "meetings": [list(row) for row in self.meetings],
        }


def _ratings(records: Sequence[GameRecord], entrants: int) -> list[tuple[float, float]]:
    """openskill Plackett–Luce ``(mu, sigma)`` per entrant, from finished games in index order.

    Each seat is a team of one. An entrant holding several seats of a game is rated from each
    seat with its current rating, and takes the mean of the resulting ratings.
    """
    try:
        models = importlib.import_module("openskill.models")
    except ImportError as err:
        raise ArenaError("ratings need openskill: pip install cardtable[arena]") from err
    model = models.PlackettLuce()
    ratings: list[tuple[float, float]] = [(model.mu, model.sigma)] * entrants
    for rec in sorted(records, key=lambda r: r.index):
        if not rec.ok:
            continue
        teams = [[model.rating(mu=ratings[e][0], sigma=ratings[e][1])] for e in rec.lineup]
        new = model.rate(teams, ranks=places(rec.totals, rec.winners))
        gathered: dict[int, list[tuple[float, float]]] = {}
        for seat, e in enumerate(rec.lineup):
            gathered.setdefault(e, []).append((new[seat][0].mu, new[seat][0].sigma))
        for e, values in gathered.items():
            ratings[e] = (
                sum(v[0] for v in values) / len(values),
                sum(v[1] for v in values) / len(values),
            )
    return ratings


def _head_to_head(records: Sequence[GameRecord], entrants: int) -> HeadToHead:
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


@dataclass(frozen=True)
class ArenaResult:
    """The outcome of :func:`run_arena`: the settings, every game, and the statistics."""

    variant: str
    """The game played."""
    players: int
    """Seats per game."""
    seed: int
    """The arena seed every game and agent seed was derived from."""
    options: dict[str, Any]
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

    def to_dict(self, timings: bool = True, games: bool = True) -> dict[str, Any]:
        """A JSON-ready copy.

        ``timings=False`` leaves out everything that depends on the machine or the scheduling
        rather than on the games (decision times, elapsed time, backend, workers): two runs with
        the same settings and seed give equal dicts then. ``games=False`` leaves out the
        per-game records.
        """
        out: dict[str, Any] = {
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
        """Draw the win rates with their 95% intervals as a PNG bar chart at ``path``.

        A dashed line marks ``1 / players``, the win rate of equally strong agents.
        """
        try:
            matplotlib = importlib.import_module("matplotlib")
        except ImportError as err:
            raise ArenaError("charts need matplotlib: pip install cardtable[arena]") from err
        matplotlib.use("Agg")
        plt = importlib.import_module("matplotlib.pyplot")
        labels = [s.label for s in self.stats]
        rates = [s.win_rate for s in self.stats]
        below = [s.win_rate - s.ci_low for s in self.stats]
        above = [s.ci_high - s.win_rate for s in self.stats]
        fig, ax = plt.subplots(figsize=(max(4.0, 1.3 * len(labels) + 2), 4.0), dpi=120)
        try:
            ax.bar(labels, rates, color="#4C72B0", yerr=[below, above], capsize=6)
            ax.axhline(
                1 / self.players,
                color="grey",
                linestyle="--",
                linewidth=1,
                label=f"equal strength (1/{self.players})",
            )
            ax.legend(loc="upper right", fontsize=8)
            ax.set_ylim(0, 1)
            ax.set_ylabel("win rate (95% Wilson interval)")
            ax.set_title(
                f"{self.variant} · {self.players} players · {self.games} games (seed {self.seed})"
            )
            for x, rate in enumerate(rates):
                ax.annotate(
                    f"{rate:.3f}",
                    (x, rate),
                    ha="center",
                    va="bottom",
                    fontsize=8,
                    xytext=(12, 2),
                    textcoords="offset points",
                )
            fig.tight_layout()
            fig.savefig(os.fspath(path), format="png")
        finally:
            plt.close(fig)


def aggregate(
    variant: str,
    players: int,
    seed: int,
    options: Mapping[str, Any],
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
    ratings = _ratings(records, n)
    stats = []
    for e in range(n):
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
        mean = sum(scores) / len(scores) if scores else 0.0
        if len(scores) > 1:
            var = sum((x - mean) ** 2 for x in scores) / (len(scores) - 1)
            se = math.sqrt(var / len(scores))
        else:
            se = 0.0
        low, high = wilson_interval(wins, seats)
        mu, sigma = ratings[e]
        stats.append(
            AgentStats(
                label=labels[e],
                agent=names[e].strip().lower(),
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
        )
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
        head_to_head=_head_to_head(records, n) if n > 2 else None,
        backend=backend,
        workers=workers,
        elapsed=elapsed,
    )


# ------------------------------------------------------------------------------------ running
def check_settings(
    variant: str,
    names: Sequence[str],
    games: int,
    players: int | None,
    seed: int,
    backend: str,
    workers: int | None,
    options: Mapping[str, Any] | None,
    measure: bool = False,
) -> tuple[str, int, dict[str, Any]]:
    """Validate a run's settings before any game is played.

    Returns the variant's registry name, the number of seats (see :func:`run_arena` for the
    default) and the rule options as given. Raises :class:`ArenaError` with a message a person
    can act on: unknown variant, agent, option or backend, a bad seat, game or worker count, or
    a missing extra (openskill for ratings, Ray for the ``ray`` backend).
    """
    try:
        spec = get_variant(variant)
    except ValueError as err:
        raise ArenaError(str(err)) from None
    if backend not in BACKENDS:
        raise ArenaError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    if type(games) is not int or games < 1:
        raise ArenaError(f"the number of games must be at least 1, got {games!r}")
    if type(seed) is not int:
        raise ArenaError(f"the seed must be an integer, got {seed!r}")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ArenaError(f"workers must be at least 1, got {workers!r}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise ArenaError(RAY_HINT)
    if importlib.util.find_spec("openskill") is None:
        raise ArenaError("the arena's ratings need openskill: pip install cardtable[arena]")
    if not names:
        raise ArenaError("name at least one agent")
    for name in names:
        try:
            build_agent(name, 0, measure)
        except (ValueError, ImportError) as err:
            raise ArenaError(f"agent {name!r} is not available: {err}") from None
    if players is None:
        n = len(names)
        players = n if spec.min_players <= n <= spec.max_players else spec.default_players
    try:
        spec.check_players(players)
        resolved = spec.resolve_options(options)
    except ValueError as err:
        raise ArenaError(str(err)) from None
    given = {k: resolved[k] for k in (options or {})}
    return spec.name, players, given


def _chunks(games: int, workers: int, chunk_size: int | None) -> list[tuple[int, int]]:
    size = chunk_size or max(1, min(64, games // (workers * 8)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def _run_process(
    chunks: Sequence[Chunk], workers: int, progress: ProgressFn | None, total: int
) -> list[list[GameRecord]]:
    results: list[list[GameRecord] | None] = [None] * len(chunks)
    done = 0
    context = multiprocessing.get_context("spawn")  # safe beside threads (Ray, test runners)
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(play_chunk, chunk): k for k, chunk in enumerate(chunks)}
        try:
            for future in concurrent.futures.as_completed(futures):
                k = futures[future]
                results[k] = future.result()
                done += chunks[k].stop - chunks[k].start
                if progress is not None:
                    progress(done, total)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return [r for r in results if r is not None]


def _run_ray(
    chunks: Sequence[Chunk],
    workers: int | None,
    address: str | None,
    progress: ProgressFn | None,
    total: int,
) -> tuple[list[list[GameRecord]], int]:
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError as err:
        raise ArenaError(RAY_HINT) from err
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        else:
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        remote = ray.remote(num_cpus=1)(play_chunk)
        refs = [remote.remote(chunk) for chunk in chunks]
        sizes = {ref: chunk.stop - chunk.start for ref, chunk in zip(refs, chunks, strict=True)}
        pending = list(refs)
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            done += sum(sizes[r] for r in ready)
            if progress is not None:
                progress(done, total)
        return list(ray.get(refs)), cpus
    finally:
        if started:
            ray.shutdown()


def run_arena(
    variant: str,
    agents: Sequence[str],
    games: int,
    players: int | None = None,
    seed: int = 0,
    backend: Backend | str = "process",
    workers: int | None = None,
    address: str | None = None,
    options: Mapping[str, Any] | None = None,
    progress: ProgressFn | None = None,
    *,
    duplicate: bool = True,
    chunk_size: int | None = None,
    max_decisions: int = MAX_DECISIONS,
    measure: bool = False,
) -> ArenaResult:
    """Play ``games`` games of ``variant`` between ``agents`` and gather the statistics.

    ``agents`` are agent names or levels (:func:`cardtable.agents.get`); repeating a name
    enters that agent twice. ``players`` defaults to the number of agents when the variant
    allows it, else to the variant's usual count. Seats follow :class:`Schedule`; game ``i`` is
    dealt with a seed derived from ``seed`` and ``i`` — with ``duplicate`` (the default) the
    rotations of one lineup share a deal, so every entrant plays it from every seat — and seat
    ``s``'s agent gets its own derived seed.

    ``backend``: ``"process"`` (a pool of ``workers`` processes, default: one per CPU),
    ``"ray"`` (the Ray cluster at ``address``, an already initialized Ray, or a new local
    instance with ``workers`` CPUs) or ``"serial"`` (this process, for debugging). The result
    is the same for every backend and worker count. ``progress(done, total)`` is called as
    chunks of games finish.

    Raises :class:`ArenaError` for settings that cannot run (unknown variant, agent, option or
    backend, a bad seat or game count, Ray or openskill missing). A game that an agent breaks
    (an illegal action, an exception) does not raise: it is recorded as a :class:`Failure`
    naming the agent and left out of the statistics; check :attr:`ArenaResult.failures`.
    ``measure`` admits the measuring-only ``oracle`` (:func:`build_agent`); the command line
    never sets it.
    """
    names = list(agents)
    name, seats, given = check_settings(
        variant, names, games, players, seed, backend, workers, options, measure
    )
    if workers is None and backend != "ray":
        workers = os.cpu_count() or 1
    spans = _chunks(games, workers or os.cpu_count() or 1, chunk_size)
    chunks = [
        Chunk(name, seats, given, tuple(names), seed, duplicate, a, b, max_decisions, measure)
        for a, b in spans
    ]
    started = time.perf_counter()
    used = 1
    if backend == "serial":
        parts = []
        done = 0
        for chunk in chunks:
            parts.append(play_chunk(chunk))
            done += chunk.stop - chunk.start
            if progress is not None:
                progress(done, games)
    elif backend == "process":
        assert workers is not None
        used = min(workers, len(chunks))
        parts = _run_process(chunks, used, progress, games)
    else:
        parts, used = _run_ray(chunks, workers, address, progress, games)
    records = [rec for part in parts for rec in part]
    return aggregate(
        name,
        seats,
        seed,
        given,
        names,
        records,
        duplicate=duplicate,
        backend=backend,
        workers=used,
        elapsed=time.perf_counter() - started,
    )
