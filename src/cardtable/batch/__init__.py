"""N games at once as NumPy arrays: the Cabo family's rules for learners and searches.

:class:`FamilyBatch` plays many games of one variant in lockstep with the same rule-set
records as the reference engine, and is proven equal to it action by action (legal masks,
observations, scores) by the parity tests.
"""

from __future__ import annotations

from .family import FamilyBatch, Step

__all__ = ["FamilyBatch", "Step"]
