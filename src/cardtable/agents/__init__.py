"""AI players for every cardtable game, behind one protocol (:class:`Agent`).

>>> import cardtable
>>> from cardtable.agents import get
>>> from cardtable.seat import Seat
>>> g = cardtable.new_game("kaboo", seed=3)
>>> seat = Seat(g, g.actors[0])
>>> get("heuristic", seed=1).act(seat) in seat.legal_actions()
True

Names: ``random``, ``heuristic``, ``ismcts`` (``ismcts:N`` for N iterations per move) and the
levels a person picks — ``beginner``, ``casual``, ``expert``, ``master`` (see :data:`LEVELS`).
"""

from __future__ import annotations

from .base import Agent, RandomAgent, decision_rng, view_digest
from .registry import AGENTS, LEVELS, describe, get, names

__all__ = [
    "AGENTS",
    "LEVELS",
    "Agent",
    "RandomAgent",
    "decision_rng",
    "describe",
    "get",
    "names",
    "view_digest",
]
