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


def _rollout(seed: int, samples: int | None = None) -> Agent:
    from .search import RolloutAgent

    return RolloutAgent(seed, samples=samples) if samples else RolloutAgent(seed)


def _level(level: str) -> Callable[[int], Agent]:
    def build(seed: int) -> Agent:
        from .levels import build_level

        return build_level(level, seed)

    return build


AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "heuristic": _heuristic,
    "ismcts": _ismcts,
    "rollout": _rollout,
}
"""Agent kinds by name: each builds an agent from a seed."""

LEVELS: dict[str, str] = {
    "beginner": "Plays sensibly but soon forgets the cards it has seen, and slips now and then.",
    "casual": "Plays sensibly and remembers most of what it has seen, forgetting older cards.",
    "expert": "Remembers everything, reads what your moves say about your cards, and thinks "
    "each move through over hundreds of possible deals.",
    "master": "The expert with four times the thinking: the strongest opponent, a few seconds "
    "a move.",
}
"""The difficulty levels a person picks, with what each one is, in a player's words."""


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
        "rollout": "belief rollouts: every move tried on deals from the seat's belief",
    }.get(name.split(":")[0], "unknown agent")


def get(name_or_level: str, seed: int = 0) -> Agent:
    """An agent by name (``random``, ``heuristic``, ``ismcts``, ``ismcts:N``, ``rollout``,
    ``rollout:N``) or by level (``beginner``, ``casual``, ``expert``, ``master``),
    deterministic for ``seed``."""
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
    elif key.startswith("rollout:"):
        text = key.split(":", 1)[1]
        if not text.isdigit() or int(text) < 2:
            raise ValueError(f"'{name_or_level}': give rollout a number of deals, at least 2")
        agent = _rollout(seed, int(text))
    elif key in AGENTS:
        agent = AGENTS[key](seed)
    else:
        raise ValueError(
            f"unknown agent {name_or_level!r}; choose from: {', '.join(names())}, ismcts:N "
            "or rollout:N"
        )
    agent.name = key
    return agent
