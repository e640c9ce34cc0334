"""The agent protocol: what every AI player implements, and how it gets its randomness.

An agent sees a game only through ``game.view(seat)``, ``game.legal_actions(seat)`` and
``game.determinize(seat, rng)``. Its randomness for a decision is drawn from its own seed and
the seat's view, so the same agent with the same seed makes the same choice in every state
the seat cannot tell apart — and never depends on a hidden card.
"""

from __future__ import annotations

import zlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from ..game import Game
from ..notation import Action
from ..rng import Rng

__all__ = ["Agent", "decision_rng", "rng_for_view", "view_digest"]


def view_digest(view: Mapping[str, Any]) -> int:
    """A 32-bit digest of a view, stable across processes and Python versions."""
    return zlib.crc32(repr(view).encode())


def rng_for_view(seed: int, view: Mapping[str, Any]) -> Rng:
    """The generator for one decision: a function of the agent's seed and the seat's view."""
    return Rng(seed * 4_294_967_296 + view_digest(view))


def decision_rng(seed: int, game: Game, seat: int) -> Rng:
    """:func:`rng_for_view` of ``seat``'s current view."""
    return rng_for_view(seed, game.view(seat))


class Agent(ABC):
    """An AI player. ``act`` returns one of ``game.legal_actions(seat)``."""

    name: str = "agent"
    """Registry name (or level) this agent was built from."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        """The seed every decision's randomness is derived from."""

    @abstractmethod
    def act(self, game: Game, seat: int) -> Action:
        """Choose a legal action for ``seat`` (which must be among ``game.actors``)."""

    def _legal(self, game: Game, seat: int) -> list[Action]:
        legal = game.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do now")
        return legal

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, seed={self.seed})"


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def act(self, game: Game, seat: int) -> Action:
        """A uniformly random legal action."""
        legal = self._legal(game, seat)
        return decision_rng(self.seed, game, seat).pick(legal)
