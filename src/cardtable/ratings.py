"""Ratings on one scale for people and the AI levels.

A rating is an openskill Plackett–Luce estimate of skill, ``mu`` with its uncertainty
``sigma`` (the model the arena rates agents with: it takes any number of seats, so one model
serves two-seat and many-seat games alike; docs/decisions.md says why). It is shown to people
as *points*: 1500 for the model's starting ``mu`` of 25, and :data:`POINTS_PER_MU` points per
unit of ``mu`` above or below it, so that differences read roughly like Elo's (400 points
between two players: about 10 to 1). The interval shown is ``mu ± 2 sigma``.

The AI levels' ratings are *calibrated* from arena games among the levels
(:func:`calibrate`, ``cardtable ratings --calibrate``) and stored as data beside the agents
(:data:`LEVEL_RATINGS`), one table per game type; :func:`level_ratings` reads it. Reading needs
nothing beyond the standard library; calibrating needs the ``arena`` extra (openskill).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from .match import places
from .variants import Options

__all__ = [
    "CALIBRATED_LEVELS",
    "LEVEL_RATINGS",
    "MU",
    "POINTS_PER_MU",
    "Calibration",
    "Rating",
    "calibrate",
    "level_ratings",
    "load_calibrations",
    "load_level_calibration",
    "places",
    "rate_game",
    "to_points",
    "write_calibrations",
]

MU = 25.0
"""openskill's starting ``mu``: 1500 points."""
SIGMA = MU / 3
"""openskill's starting ``sigma``."""
POINTS_PER_MU = 30.0
"""Points per unit of ``mu``. Between two players the model's chance of the first finishing
ahead is about ``1 / (1 + exp(-Δmu / c))`` with ``c = sqrt(2) * beta`` (``beta = 25/6``) once
their ``sigma`` is small; Elo's is ``1 / (1 + 10 ** (-Δ / 400))``; they agree for
``Δ ≈ 400 / ln 10 / c ≈ 29.5`` points per unit of ``mu``."""

CALIBRATED_LEVELS: tuple[str, ...] = ("random", "beginner", "casual", "expert", "master")
"""The levels a calibration rates by default: those a person can pick, and ``random`` as the
floor of the scale."""

LEVEL_RATINGS = "agents/level_ratings.json"
"""Where the calibrated ratings are kept, in the package."""


@dataclass(frozen=True)
class Rating:
    """A skill estimate: ``mu`` and its uncertainty ``sigma`` (openskill Plackett–Luce)."""

    mu: float = MU
    """The estimate."""
    sigma: float = SIGMA
    """Its uncertainty (one standard deviation)."""

    @property
    def points(self) -> int:
        """The rating as shown: 1500 at the starting ``mu``."""
        return to_points(self.mu)

    @property
    def interval(self) -> tuple[int, int]:
        """The points of ``mu - 2 sigma`` and ``mu + 2 sigma``."""
        return to_points(self.mu - 2 * self.sigma), to_points(self.mu + 2 * self.sigma)

    def to_dict(self) -> dict[str, float | int]:
        """As JSON: ``mu``, ``sigma``, ``rating`` (points) and its interval ``low``–``high``."""
        low, high = self.interval
        return {
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "rating": self.points,
            "low": low,
            "high": high,
        }


def rate_game(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Everyone's rating after one game: ``before[i]`` is seat ``i``'s rating going in,
    ``places[i]`` its finishing place (1 is best, equal places are ties); each seat is a team
    of one in openskill's Plackett–Luce model. Needs openskill (the ``web``, ``tui`` and
    ``arena`` extras)."""
    if len(before) != len(places):
        raise ValueError("one place per rating")
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = model.rate(teams, ranks=[float(p) for p in places])
    return [Rating(team[0].mu, team[0].sigma) for team in after]


def to_points(mu: float) -> int:
    """``mu`` in points (:data:`POINTS_PER_MU`, 1500 at :data:`MU`)."""
    return round(1500 + POINTS_PER_MU * (mu - MU))


@dataclass(frozen=True)
class Calibration:
    """The levels' ratings in one game type, and how they were found."""

    game: str
    """The game type (a variant's name)."""
    ratings: Mapping[str, Rating]
    """Each level's rating."""
    games: int
    """Arena games played."""
    players: int
    """Seats per game."""
    seed: int
    """The arena's seed (the same seed gives the same games)."""
    options: Mapping[str, object]
    """The rule options the games were played with."""

    def to_dict(self) -> dict[str, Any]:
        """As stored: the settings and each level's ``mu`` and ``sigma``."""
        return {
            **self.about(),
            "levels": {
                name: {"mu": round(r.mu, 4), "sigma": round(r.sigma, 4)}
                for name, r in self.ratings.items()
            },
        }

    def about(self) -> dict[str, Any]:
        """How it was found: the games, seats, seed and rule options."""
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
        }

    @classmethod
    def from_dict(cls, game: str, data: Mapping[str, Any]) -> Calibration:
        """What :meth:`to_dict` wrote (``ValueError`` for anything else)."""
        try:
            levels = {
                str(name): Rating(float(v["mu"]), float(v["sigma"]))
                for name, v in data["levels"].items()
            }
            made = cls(
                game,
                levels,
                int(data["games"]),
                int(data["players"]),
                int(data["seed"]),
                dict(data.get("options") or {}),
            )
        except (KeyError, TypeError, AttributeError, ValueError) as err:
            raise ValueError(f"not a calibration of {game}: {err}") from None
        for name, r in levels.items():
            if not (math.isfinite(r.mu) and math.isfinite(r.sigma) and r.sigma > 0):
                raise ValueError(f"the rating of {name} in {game} is not a rating")
        return made


def _stored() -> Path:
    return Path(str(files("cardtable") / LEVEL_RATINGS))


def load_calibrations(path: Path | None = None) -> dict[str, Calibration]:
    """The calibrations stored at ``path`` (default: the package's :data:`LEVEL_RATINGS`), by
    game type; none if there is no such file."""
    where = _stored() if path is None else path
    if not where.exists():
        return {}
    data = json.loads(where.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{where} holds no calibrations")
    return {str(game): Calibration.from_dict(str(game), v) for game, v in data.items()}


def write_calibrations(found: Mapping[str, Calibration], path: Path | None = None) -> Path:
    """Store ``found`` at ``path`` (default: the package's :data:`LEVEL_RATINGS`), keeping the
    stored calibrations of the other game types; returns where it wrote."""
    where = _stored() if path is None else path
    kept = load_calibrations(where) if where.exists() else {}
    kept.update(found)
    body = {game: kept[game].to_dict() for game in sorted(kept)}
    where.write_text(json.dumps(body, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    _cached.cache_clear()
    return where


@cache
def _cached() -> dict[str, Calibration]:
    return load_calibrations()


def load_level_calibration(game: str) -> Calibration | None:
    """The stored calibration of the AI levels in ``game`` (``None``: not calibrated yet)."""
    return _cached().get(game)


def level_ratings(game: str) -> dict[str, Rating]:
    """The calibrated ratings of the AI levels in ``game`` (a variant's name), by level; empty
    for a game type not calibrated yet."""
    found = load_level_calibration(game)
    return dict(found.ratings) if found is not None else {}


def calibrate(
    game: str,
    levels: Sequence[str] = CALIBRATED_LEVELS,
    games: int = 200,
    *,
    players: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    options: Options | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Calibration:
    """Rate ``levels`` in ``game`` from ``games`` arena games among them (seats rotated, each
    deal replayed from every seat; one round a game unless ``options`` say otherwise), played
    on ``workers`` processes. Needs the ``arena`` extra."""
    from .arena import run_arena  # the arena's extra (openskill), only when calibrating

    chosen: Options = {"target": None}
    chosen.update(options or {})
    result = run_arena(
        game,
        list(levels),
        games,
        players=players,
        seed=seed,
        workers=workers,
        options=chosen,
        progress=progress,
    )
    ratings = {s.agent: Rating(s.mu, s.sigma) for s in result.stats}
    return Calibration(game, ratings, result.games, result.players, seed, chosen)
