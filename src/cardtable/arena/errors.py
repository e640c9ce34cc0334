"""The arena's one exception (the bottom of the package: it imports nothing from it)."""

from __future__ import annotations

__all__ = ["ArenaError"]


class ArenaError(ValueError):
    """A tournament that cannot run as asked: unknown game or agent, bad counts, missing extra."""
