"""Hints: at a decision, every legal move with what the search expects of it, best first.

A hint is the rollout search's appraisal (:meth:`cardtable.agents.search.RolloutAgent.appraise`)
of the seat as the seat knows the table — everything it has been shown, remembered for it even
where the person plays without the memory aid, never a card it was not shown. That is why a
hint at a table of people is a handicap that includes the memory aid.

The rows are ordered by what the search maximises (the chance to win the round in a single
round; in a match, the projected standing), best first, then by expected points; moves the
search dropped half-way as clearly worse come last. Each row has its expected round points,
its chance to win the round and the points it gives away against the move with the fewest.
The ``expert`` plays the first row unless its rule of thumb is within the noise of it
(``benchmarks/hints.py`` measures how often they agree). The words of each move are
:func:`cardtable.text.moves.move_words`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..agents.levels import EXPERT_SAMPLES
from ..agents.search import RolloutAgent
from ..catalog import decimal, say
from ..notation import Action
from ..seat import Seat
from ..text.moves import move_words

__all__ = ["HINT_LEAST", "HINT_SECONDS", "Hint", "HintRow", "hint"]

HINT_SECONDS = 0.8
"""The time a hint may take by default (the search stops dealing worlds at it)."""

HINT_LEAST = 48
"""Worlds a hint deals even past its time (on a busy machine): fewer rank the moves by luck."""


@dataclass(frozen=True)
class HintRow:
    """One legal move and what the search expects of it."""

    action: Action
    """The move."""
    words: str
    """The move in plain words, told to the seat."""
    points: float
    """Expected points for the round after it (lower is better)."""
    win: float
    """Chance to win the round after it (0 to 1)."""
    loss: float
    """Expected points it gives away against the move with the fewest."""
    best: bool
    """Whether it is the search's choice."""

    def as_json(self) -> dict[str, object]:
        """The row as the browser receives it."""
        return {
            "action": str(self.action),
            "words": self.words,
            "points": round(self.points, 1),
            "win": round(self.win, 3),
            "loss": round(self.loss, 1),
            "best": self.best,
        }

    def line(self) -> str:
        """The row as one line of text (the terminal's hint panel)."""
        return say(
            "hint.row",
            move=self.words,
            points=decimal(self.points),
            win=f"{100 * self.win:.0f}",
        )


@dataclass(frozen=True)
class Hint:
    """Every legal move of one decision, ranked."""

    rows: tuple[HintRow, ...]
    """Best first."""
    deals: int
    """Worlds the search dealt."""
    seconds: float
    """Time the search took."""

    def as_json(self) -> dict[str, object]:
        """The hint as the browser receives it."""
        return {"rows": [r.as_json() for r in self.rows], "deals": self.deals}


def hint(
    seat: Seat,
    *,
    seed: int = 0,
    seconds: float | None = HINT_SECONDS,
    samples: int = EXPERT_SAMPLES,
    names: Sequence[str] = (),
) -> Hint:
    """The hint for ``seat`` at its decision: the search's numbers for every legal move,
    within ``seconds`` (``None``: all ``samples`` deals; at least :data:`HINT_LEAST` in any
    case), with the moves in words (``names``: the seats' names)."""
    agent = RolloutAgent(seed=seed, samples=samples, seconds=seconds, least=HINT_LEAST)
    legal = seat.legal_actions()
    if len(legal) == 1:
        only = legal[0]
        row = HintRow(only, move_words(only, seat.number, names), 0.0, 0.0, 0.0, True)
        return Hint((row,), 0, 0.0)
    appraisal = agent.appraise(seat)
    ranked = sorted(
        appraisal.values, key=lambda v: (v.samples < appraisal.deals, -v.value, v.points)
    )
    rows = tuple(
        HintRow(
            v.action,
            move_words(v.action, seat.number, names),
            v.points,
            v.win,
            v.loss,
            k == 0,
        )
        for k, v in enumerate(ranked)
    )
    return Hint(rows, appraisal.deals, appraisal.seconds)
