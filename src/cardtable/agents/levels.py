"""Difficulty levels: what a person picks in a menu, mapped onto agents and a memory model."""

from __future__ import annotations

from .base import Agent
from .heuristic import HeuristicAgent
from .ismcts import EXPERT_ITERATIONS, ISMCTSAgent

__all__ = ["build_level"]


def build_level(level: str, seed: int) -> Agent:
    """The agent behind a level (see :data:`cardtable.agents.LEVELS`)."""
    if level == "beginner":
        return HeuristicAgent(seed, forget=0.5, noise=1 / 6)
    if level == "casual":
        return HeuristicAgent(seed, forget=0.2)
    if level == "expert":
        return ISMCTSAgent(seed, iterations=EXPERT_ITERATIONS)
    if level == "master":
        return ISMCTSAgent(seed, iterations=4 * EXPERT_ITERATIONS)
    raise ValueError(f"unknown level {level!r}")
