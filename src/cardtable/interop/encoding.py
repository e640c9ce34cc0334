"""The integer action table and observation vectors, kept under their former name: they moved
to :mod:`cardtable.encoding`, below the agents and the batched engine that share them."""

from __future__ import annotations

from ..encoding import (
    DEFAULT_MAX_POSITIONS,
    Encoding,
    ObservationPiece,
    describe,
    encoding,
    supported,
    win_rewards,
)

__all__ = [
    "DEFAULT_MAX_POSITIONS",
    "Encoding",
    "ObservationPiece",
    "describe",
    "encoding",
    "supported",
    "win_rewards",
]
