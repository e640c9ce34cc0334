"""Results of a game: per-round scores, match totals and winners."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .views import GameResult

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["Result", "lowest", "places"]


def lowest(scores: list[int]) -> list[int]:
    """Seats holding the lowest score (ties share)."""
    best = min(scores)
    return [s for s, v in enumerate(scores) if v == best]


def places(totals: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Finishing place of every seat (1 is best; equal places are ties).

    Winners share first place; the other seats follow by final total, lower first (every
    cardtable game counts penalty points), with standard competition ranking.
    """
    first = set(winners)
    others = [totals[s] for s in range(len(totals)) if s not in first]
    return [
        1 if s in first else 1 + len(first) + sum(1 for t in others if t < total)
        for s, total in enumerate(totals)
    ]


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game (a single round or a whole match)."""

    rounds: list[list[int]]
    """Round scores, one list per round, indexed by seat."""
    totals: list[int]
    """Match totals after the last round, indexed by seat."""
    winners: list[int]
    """Seats that won the game (several when tied)."""
    round_winners: list[list[int]] = field(default_factory=list)
    """Winners of each round."""

    def to_dict(self) -> GameResult:
        """A JSON-ready copy."""
        return {
            "rounds": [list(r) for r in self.rounds],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "round_winners": [list(w) for w in self.round_winners],
        }
