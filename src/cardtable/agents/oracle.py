"""The oracle: a measuring stick that sees every hand, never an opponent.

:class:`OracleAgent` is the ``expert``'s search (belief rollouts, :mod:`.search`) run on the
real deal instead of deals from a belief: it knows every card in every hand and the card
anyone holds, but not the order of the deck (each simulated draw takes a random card of it).
Its win share against the rules of thumb is the ceiling the other agents are read against
(``benchmarks/strength.py``): how much of what search can win comes from knowing the cards.

It reads the game's hidden state, so it is not in the agent registry: no level, no name the web
app, the terminal or ``cardtable arena`` accepts. Build it in Python for measurements.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar

from ..game import Game
from ..notation import Action
from ..rng import Rng
from ..seat import Seat
from .search import Appraisal, RolloutAgent

__all__ = ["OpenSeat", "OracleAgent"]


class OpenSeat(Seat):
    """A seat that sees every hand: each of its worlds is the real deal, the order of the
    face-down pile alone unknown. For measurements only (the oracle's seat)."""

    __slots__ = ()

    def worlds(
        self,
        rng: Rng | int,
        weights: Mapping[tuple[int, int], Sequence[float]] | None = None,
    ) -> Game:
        """The real deal, with its own generator for future draws, from an unordered pile."""
        return self._game.open_world(rng if isinstance(rng, Rng) else Rng(rng))


class OracleAgent(RolloutAgent):
    """Belief rollouts on the real deal (every hand seen; the deck order not)."""

    name = "oracle"
    sees_all: ClassVar[bool] = True

    def __init__(self, seed: int = 0, samples: int = 200) -> None:
        super().__init__(seed, samples=samples, belief=False)

    def act(self, seat: Seat) -> Action:
        """The rollout search's choice with every hand known (``seat`` must be an
        :class:`OpenSeat`)."""
        _open(seat)
        return super().act(seat)

    def appraise(self, seat: Seat, keep: Iterable[Action] = ()) -> Appraisal:
        """Every legal action's numbers with every hand known (``seat`` must be an
        :class:`OpenSeat`): the yardstick a review is measured against."""
        _open(seat)
        return super().appraise(seat, keep)


def _open(seat: Seat) -> None:
    if not isinstance(seat, OpenSeat):
        raise TypeError("the oracle plays an OpenSeat only: it is a measuring stick")
