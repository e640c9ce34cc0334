"""Finding agents by name or difficulty level."""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent, RandomAgent

__all__ = ["AGENTS", "LEVELS", "describe", "get", "names"]


def _heuristic(seed: int) -> Agent:
    from .heuristic import HeuristicAgent

    return HeuristicAgent(seed)


def _ismcts(seed: int, iterations: int | None = None) -> Agent:
    from .ismcts import ISMCTSAgent

    return ISMCTSAgent(seed, iterations=iterations) if iterations else ISMCTSAgent(seed)


def _level(level: str) -> Callable[[int], Agent]:
    def build(seed: int) -> Agent:
        from .levels import build_level

        return build_level(level, seed)

    return build


AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "heuristic": _heuristic,
    "ismcts": _ismcts,
}
"""Agent kinds by name: each builds an agent from a seed."""

LEVELS: dict[str, str] = {
    "beginner": "rules of thumb; forgets half of the cards it has seen; one move in six at random",
    "casual": "rules of thumb; forgets one card in five it has seen",
    "expert": "ISMCTS search (perfect memory), about a third of a second per move",
    "master": "ISMCTS search (perfect memory), four times the expert's budget",
}
"""The difficulty levels a person picks, with what each one is."""


def names() -> list[str]:
    """Every agent name and level accepted by :func:`get`."""
    return [*AGENTS, *LEVELS]


def describe(name: str) -> str:
    """One line saying what an agent or level is."""
    if name in LEVELS:
        return LEVELS[name]
    return {
        "random": "a uniformly random legal action",
        "heuristic": "rules of thumb per game, perfect memory",
        "ismcts": "Single-Observer Information-Set MCTS over determinized deals",
    }.get(name.split(":")[0], "unknown agent")


def get(name_or_level: str, seed: int = 0) -> Agent:
    """An agent by name (``random``, ``heuristic``, ``ismcts``, ``ismcts:N``) or by level
    (``beginner``, ``casual``, ``expert``, ``master``), deterministic for ``seed``."""
    if not isinstance(name_or_level, str):
        raise ValueError(f"an agent name must be text, got {name_or_level!r}")
    key = name_or_level.strip().lower()
    if key in LEVELS:
        agent = _level(key)(seed)
    elif key.startswith("ismcts:"):
        text = key.split(":", 1)[1]
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"'{name_or_level}': give ismcts a positive iteration count")
        agent = _ismcts(seed, int(text))
    elif key in AGENTS:
        agent = AGENTS[key](seed)
    else:
        raise ValueError(
            f"unknown agent {name_or_level!r}; choose from: {', '.join(names())} or ismcts:N"
        )
    agent.name = key
    return agent
