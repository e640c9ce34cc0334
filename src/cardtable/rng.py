"""Seeded randomness that gives the same sequence on every supported Python version.

Python only promises that ``random.Random(seed).random()`` is stable across versions; its
``shuffle`` and ``randrange`` may change. Everything here is built on ``random()`` alone.
"""

from __future__ import annotations

import random
from typing import TypeVar

__all__ = ["Rng"]

T = TypeVar("T")


class Rng(random.Random):
    """A ``random.Random`` whose ``below`` / ``shuffled_in_place`` are version-stable."""

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        return int(self.random() * n)

    def pick(self, items: list[T]) -> T:
        """A uniform element of a non-empty list."""
        return items[int(self.random() * len(items))]

    def shuffle_stable(self, items: list[T]) -> None:
        """Fisher–Yates shuffle in place using only ``random()``."""
        rnd = self.random
        for i in range(len(items) - 1, 0, -1):
            j = int(rnd() * (i + 1))
            items[i], items[j] = items[j], items[i]

    def fork(self) -> Rng:
        """A new generator seeded from this one (for determinized copies)."""
        return Rng(int(self.random() * 2**53))
