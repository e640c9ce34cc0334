"""Agents over a whole batch: one action per game from its legal mask, as array code."""

from __future__ import annotations

import numpy as np

from .chance import IntArray
from .family import BoolArray

__all__ = ["random_actions"]


def random_actions(mask: BoolArray, rng: np.random.Generator) -> IntArray:
    """A uniformly random legal action of every game (``mask``: ``[N, actions]``, each row
    with at least one legal action)."""
    ranks = mask.cumsum(axis=1, dtype=np.int16)
    pick = (rng.random(len(mask)) * ranks[:, -1]).astype(np.int16)
    out: IntArray = np.argmax(ranks > pick[:, None], axis=1).astype(np.int64)
    return out
