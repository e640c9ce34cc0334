"""Qute's fixed tables: card points, the short deck's card ids, the engine's phases and the
decision actions (shared by the engine, its view and its messages)."""

from __future__ import annotations

from ...cards import short_deck
from ...notation import Action

__all__ = ["CARD_POINTS", "J_POINTS", "PH_DECIDE", "PH_OVER", "PH_PLAY", "POINTS", "SUITS"]

POINTS = {"6": 0, "7": 0, "8": 0, "9": 0, "10": 10, "Q": 10, "K": 10, "A": 15, "J": 20}
"""Points of a card left in hand at the end of a round."""

J_POINTS = 20
"""Points per J laid in the finishing turn (``jpoints minus`` / ``jpoints plus``)."""

SUITS = "CDHS"
PH_PLAY, PH_DECIDE, PH_OVER = 0, 1, 2
_DECISIONS = {
    "qute": (Action("qute"), Action("continue")),
    "suit": tuple(Action("suit", (s,)) for s in SUITS),
    "eights": (Action("eights", ("all",)), Action("eights", ("next",))),
    "jpoints": (Action("jpoints", ("minus",)), Action("jpoints", ("plus",))),
}
_A_DRAW = Action("draw")

_CODES = tuple(short_deck())
_RANK = tuple(c[:-1] for c in _CODES)
_SUIT = tuple(c[-1] for c in _CODES)
_ID = {c: i for i, c in enumerate(_CODES)}
_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}
# A card id % 9 is its rank index, card id // 9 its suit index.
_J = _RANK.index("J")
_SEVEN, _EIGHT, _ACE = _RANK.index("7"), _RANK.index("8"), _RANK.index("A")
CARD_POINTS = tuple(POINTS[r] for r in _RANK)
"""Points of each card id left in hand (a card id below 9 is also its rank index)."""
