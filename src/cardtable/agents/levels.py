"""Difficulty levels: what a person picks in a menu, mapped onto agents.

``beginner`` and ``casual`` play like people (:mod:`.people`): the rules of thumb, a memory
that fades, now and then a slip — never an absurd move. ``expert`` and ``master`` search
(:mod:`.search`): belief rollouts, played out in the batched engine where it holds the game
(:mod:`.batched`), with four times the expert's deals for the master.
docs/agents.md says how each one plays and what it measured.
"""

from __future__ import annotations

from .base import Agent
from .batched import BatchRolloutAgent
from .people import PersonAgent

__all__ = ["EXPERT_SAMPLES", "build_level"]

EXPERT_SAMPLES = 200
"""Deals per decision of the ``expert`` level (``master``: four times as many)."""


def build_level(level: str, seed: int) -> Agent:
    """The agent behind a level (see :data:`cardtable.agents.LEVELS`)."""
    if level == "beginner":
        return PersonAgent(seed, half_life=3.0, ceiling=0.75, slip=0.15, open_slip=0.3)
    if level == "casual":
        return PersonAgent(seed, half_life=10.0, ceiling=0.35, slip=0.04, open_slip=0.0)
    if level == "expert":
        return BatchRolloutAgent(seed, samples=EXPERT_SAMPLES)
    if level == "master":
        return BatchRolloutAgent(seed, samples=4 * EXPERT_SAMPLES)
    raise ValueError(f"unknown level {level!r}")
