"""The agent protocol: what every AI player implements, and how it gets its randomness.

An agent receives a :class:`~cardtable.seat.Seat` (with the memory aid), never the game: its
view, history, legal actions, the match state and, to search, worlds drawn from what the seat
knows. Its randomness for a decision is drawn from its own seed and the seat's view, so the
same agent with the same seed makes the same choice in every state the seat cannot tell apart
— and never depends on a hidden card.
"""

from __future__ import annotations

import zlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar

from ..notation import Action
from ..rng import Rng
from ..seat import Seat

__all__ = ["Agent", "decision_rng", "rng_for_view", "view_digest"]


def view_digest(view: Mapping[str, object]) -> int:
    """A 32-bit digest of a view, stable across processes and Python versions."""
    return zlib.crc32(repr(view).encode())


def rng_for_view(seed: int, view: Mapping[str, object]) -> Rng:
    """The generator for one decision: a function of the agent's seed and the seat's view."""
    return Rng(seed * 4_294_967_296 + view_digest(view))


def decision_rng(seed: int, seat: Seat) -> Rng:
    """:func:`rng_for_view` of the seat's current view."""
    return rng_for_view(seed, seat.view())


class Agent(ABC):
    """An AI player. ``act`` returns one of the seat's legal actions."""

    name: str = "agent"
    """Registry name (or level) this agent was built from."""
    sees_all: ClassVar[bool] = False
    """Whether the agent plays an :class:`~cardtable.agents.oracle.OpenSeat`, which sees every
    hand (the oracle, a measuring stick): the table hosting it must give it one."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        """The seed every decision's randomness is derived from."""

    @abstractmethod
    def act(self, seat: Seat) -> Action:
        """Choose a legal action for ``seat`` (which must be to act)."""

    def _legal(self, seat: Seat) -> list[Action]:
        legal = seat.legal_actions()
        if not legal:
            raise ValueError(f"seat {seat.number} has nothing to do now")
        return legal

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, seed={self.seed})"


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def act(self, seat: Seat) -> Action:
        """A uniformly random legal action."""
        legal = self._legal(seat)
        return decision_rng(self.seed, seat).pick(legal)
