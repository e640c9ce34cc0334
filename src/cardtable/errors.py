"""Exceptions raised by the rules engine."""

from __future__ import annotations

__all__ = ["IllegalAction"]


class IllegalAction(ValueError):
    """An action that cannot be played now; the message says why in plain words.

    Raising it never changes the game: every check happens before any state is touched.
    The message only ever refers to public information, so it is safe to show to anyone.
    """
