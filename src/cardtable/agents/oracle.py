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

from collections.abc import Mapping, Sequence
from typing import Any

from ..game import RANDOM_DRAWS, Game
from ..notation import Action
from ..rng import Rng
from .search import RolloutAgent

__all__ = ["OracleAgent"]


class _Open:
    """A game whose every deal is the real one (the oracle's view of it)."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def determinize(
        self, seat: int, rng: Any, weights: Mapping[tuple[int, int], Sequence[float]] | None = None
    ) -> Game:
        """The real deal, with its own generator for future draws, from an unordered deck."""
        world: Any = self._game.clone()
        world.seed_from(rng if isinstance(rng, Rng) else Rng(int(rng.random() * 2**53)))
        if hasattr(world, "blind"):  # Qute: the blind's order stays unknown
            world.random.shuffle_stable(world.blind)
        else:
            world.draws = RANDOM_DRAWS
        return world  # type: ignore[no-any-return]


class OracleAgent(RolloutAgent):
    """Belief rollouts on the real deal (every hand seen; the deck order not)."""

    name = "oracle"

    def __init__(self, seed: int = 0, samples: int = 200) -> None:
        super().__init__(seed, samples=samples, belief=False)

    def act(self, game: Game, seat: int) -> Action:
        """The rollout search's choice with every hand known."""
        return super().act(_Open(game), seat)  # type: ignore[arg-type]
