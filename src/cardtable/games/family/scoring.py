"""How a Cabo-family round is scored and when a match ends: hooks a rule set chooses.

A rule set names a :class:`Scoring` (``SUM``, ``CABO``, ``GABO`` or one of its own) and a
:class:`MatchEnd` (``EXCEEDS``, ``REACHES``). The engine calls them with a :class:`RoundEnd`,
the revealed round, and never branches on a variant's name. A new scoring rule is a subclass
overriding :meth:`Scoring.scores` (and :meth:`Scoring.winners` if the lowest score does not
simply win), passed to ``dataclasses.replace(rule_set, scoring=…)``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from ...match import lowest

__all__ = ["CABO", "EXCEEDS", "GABO", "REACHES", "SUM", "MatchEnd", "RoundEnd", "Scoring"]


class RoundEnd(NamedTuple):
    """A finished round as scoring sees it (every card revealed)."""

    values: list[list[int]]
    """The values of the cards each seat holds (empty positions left out)."""
    sums: list[int]
    """Each seat's hand sum."""
    caller: int
    """The seat that called the end, or -1."""
    caller_penalty: int
    """Points the variant adds to a caller who loses the call (the game's option)."""


class Scoring:
    """Round scores: each seat scores its hand sum; the lowest score wins the round."""

    name = "sum"
    """The name views and documents show."""
    penalises_caller = False
    """Whether a caller can be charged extra for a lost call (agents weigh calls by it)."""

    def scores(self, end: RoundEnd) -> list[int]:
        """Each seat's score for the round."""
        return list(end.sums)

    def winners(self, end: RoundEnd, scores: list[int]) -> list[int]:
        """The seats that won the round (ties share it)."""
        return lowest(scores)

    def __repr__(self) -> str:
        return f"<{self.name} scoring>"


class CaboScoring(Scoring):
    """Cabo: a caller not strictly lowest scores its sum plus the penalty, a caller who is
    scores 0; a hand of exactly two 12s and two 13s (Kamikaze) gives everyone else 50."""

    name = "cabo"
    penalises_caller = True

    def scores(self, end: RoundEnd) -> list[int]:
        """Kamikaze first, then the caller rule."""
        n = len(end.sums)
        for s, vals in enumerate(end.values):
            if sorted(vals) == [12, 12, 13, 13]:
                return [0 if t == s else 50 for t in range(n)]
        scores = list(end.sums)
        caller, sums = end.caller, end.sums
        if caller >= 0 and sums[caller] > min(sums[t] for t in range(n) if t != caller):
            scores[caller] = sums[caller] + end.caller_penalty
        elif caller >= 0:
            scores[caller] = 0
        return scores


class GaboScoring(Scoring):
    """Gabo: a caller whose sum is above 5 or beaten by another seat adds the penalty; a
    caller tied for lowest wins the round alone."""

    name = "gabo"
    penalises_caller = True

    def scores(self, end: RoundEnd) -> list[int]:
        """The caller's penalty where the call failed."""
        scores = list(end.sums)
        caller, sums = end.caller, end.sums
        if caller >= 0:
            beaten = any(sums[t] < sums[caller] for t in range(len(sums)) if t != caller)
            if beaten or sums[caller] > 5:
                scores[caller] = sums[caller] + end.caller_penalty
        return scores

    def winners(self, end: RoundEnd, scores: list[int]) -> list[int]:
        """The caller alone when tied for lowest."""
        best = lowest(scores)
        return [end.caller] if end.caller in best else best


class MatchEnd:
    """When a match with a target ends: once a total exceeds the target."""

    name: Literal["exceeds", "reaches"] = "exceeds"
    """The rule as views show it (``target_rule``; the client phrases these two)."""

    def over(self, totals: list[int], target: int) -> bool:
        """Whether these totals end the match."""
        return max(totals) > target

    def __repr__(self) -> str:
        return f"<match ends when a total {self.name} the target>"


class _Reaches(MatchEnd):
    """The match ends once a total reaches the target."""

    name: Literal["exceeds", "reaches"] = "reaches"

    def over(self, totals: list[int], target: int) -> bool:
        """Whether a total is at or above the target."""
        return max(totals) >= target


SUM = Scoring()
"""Hand sums, lowest wins (cabo-german, kaboo)."""
CABO = CaboScoring()
"""Cabo's caller rule and Kamikaze."""
GABO = GaboScoring()
"""Gabo's call penalty and the caller's tie-break."""
EXCEEDS = MatchEnd()
"""A total above the target ends the match."""
REACHES = _Reaches()
"""A total at or above the target ends the match."""
