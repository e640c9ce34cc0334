"""Tests of the batched engine."""
