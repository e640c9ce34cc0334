"""How a Cabo-family round is scored and when a match ends: hooks a rule set chooses.

A rule set names a :class:`Scoring` (``SUM``, ``CABO``, ``GABO`` or one of its own) and a
:class:`MatchEnd` (``EXCEEDS``, ``REACHES``). The engine calls them with a :class:`RoundEnd`,
the revealed round, and never branches on a variant's name. A new scoring rule is a subclass
overriding :meth:`Scoring.adjustments` — each seat's steps from its hand's sum to its score,
with their reasons, which the round's results show — (or, for a rule with no such steps,
:meth:`Scoring.scores`), and :meth:`Scoring.winners` if the lowest score does not simply win,
passed to ``dataclasses.replace(rule_set, scoring=…)``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from ...match import lowest

__all__ = [
    "CABO",
    "EXCEEDS",
    "GABO",
    "REACHES",
    "SUM",
    "Adjustment",
    "AdjustmentReason",
    "MatchEnd",
    "RoundEnd",
    "Scoring",
    "explain",
]


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


AdjustmentReason = Literal["caller_lowest", "caller_penalty", "kamikaze", "kamikaze_victim", "rule"]
"""Why a hand's round score differs from its sum (the reasons views name)."""


class Adjustment(NamedTuple):
    """One step from a hand's sum to its round score, and why."""

    reason: AdjustmentReason
    """``caller_lowest`` (the caller had the lowest sum and scores 0), ``caller_penalty`` (a
    lost call), ``kamikaze`` (cabo's 12, 12, 13, 13 scores 0), ``kamikaze_victim`` (everyone
    else scores 50), or ``rule`` (a scoring rule that gives no reason of its own)."""
    points: int
    """What the step adds to the score (negative: takes away)."""


class Scoring:
    """Round scores: each seat scores its hand sum; the lowest score wins the round."""

    name = "sum"
    """The name views and documents show."""
    penalises_caller = False
    """Whether a caller can be charged extra for a lost call (agents weigh calls by it)."""

    def adjustments(self, end: RoundEnd) -> list[list[Adjustment]]:
        """Each seat's steps from its hand's sum to its score, in order (none: the sum)."""
        return [[] for _ in end.sums]

    def scores(self, end: RoundEnd) -> list[int]:
        """Each seat's score for the round: its sum and its adjustments."""
        if type(self).adjustments is Scoring.adjustments:
            return list(end.sums)
        return [
            total + sum(a.points for a in steps)
            for total, steps in zip(end.sums, self.adjustments(end), strict=True)
        ]

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

    def adjustments(self, end: RoundEnd) -> list[list[Adjustment]]:
        """Kamikaze first, then the caller rule."""
        sums = end.sums
        n = len(sums)
        for s, vals in enumerate(end.values):
            if sorted(vals) == [12, 12, 13, 13]:
                return [
                    [Adjustment("kamikaze", -sums[t])]
                    if t == s
                    else [Adjustment("kamikaze_victim", 50 - sums[t])]
                    for t in range(n)
                ]
        steps: list[list[Adjustment]] = [[] for _ in range(n)]
        caller = end.caller
        if caller >= 0 and sums[caller] > min(sums[t] for t in range(n) if t != caller):
            steps[caller].append(Adjustment("caller_penalty", end.caller_penalty))
        elif caller >= 0:
            steps[caller].append(Adjustment("caller_lowest", -sums[caller]))
        return steps


class GaboScoring(Scoring):
    """Gabo: a caller whose sum is above 5 or beaten by another seat adds the penalty; a
    caller tied for lowest wins the round alone."""

    name = "gabo"
    penalises_caller = True

    def adjustments(self, end: RoundEnd) -> list[list[Adjustment]]:
        """The caller's penalty where the call failed."""
        caller, sums = end.caller, end.sums
        steps: list[list[Adjustment]] = [[] for _ in sums]
        if caller >= 0:
            beaten = any(sums[t] < sums[caller] for t in range(len(sums)) if t != caller)
            if beaten or sums[caller] > 5:
                steps[caller].append(Adjustment("caller_penalty", end.caller_penalty))
        return steps

    def winners(self, end: RoundEnd, scores: list[int]) -> list[int]:
        """The caller alone when tied for lowest."""
        best = lowest(scores)
        return [end.caller] if end.caller in best else best


def explain(scoring: Scoring, end: RoundEnd, scores: list[int]) -> list[list[Adjustment]]:
    """The steps from each sum to each score: ``scoring``'s own, and one ``rule`` step for
    whatever a rule that overrides only :meth:`Scoring.scores` adds without saying why."""
    steps = scoring.adjustments(end)
    out = []
    for total, seat_steps, score in zip(end.sums, steps, scores, strict=True):
        rest = score - total - sum(a.points for a in seat_steps)
        out.append(list(seat_steps) + ([Adjustment("rule", rest)] if rest else []))
    return out


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
