"""Qute's fixed tables: card points, the short deck's card ids, the engine's phases and the
decision actions (shared by the engine, its view and its messages)."""

from __future__ import annotations

from ...cards import short_deck
from ...notation import Action

__all__ = [
    "CARD_POINTS",
    "EIGHT_DRAWS",
    "J_POINTS",
    "PH_DECIDE",
    "PH_OVER",
    "PH_PLAY",
    "POINTS",
    "RUN",
    "SUITS",
]

POINTS = {"6": 0, "7": 0, "8": 0, "9": 0, "10": 10, "Q": 10, "K": 10, "A": 15, "J": 20}
"""Points of a card left in hand at the end of a round."""

J_POINTS = 20
"""Points per J laid in the finishing turn (``jpoints minus`` / ``jpoints plus``)."""

EIGHT_DRAWS = 2
"""Cards drawn for each 8 laid (by the next seat, or by each other seat after ``eights all``)."""

RUN = 4
"""Cards of one rank in a row on top of the stack that make Qute."""

SUITS = "CDHS"
"""The suits, in the order a play lays same-rank cards."""
PH_PLAY, PH_DECIDE, PH_OVER = 0, 1, 2
"""The phases: a turn's play, a decision asked, the end."""
DECISIONS = {
    "qute": (Action("qute"), Action("continue")),
    "suit": tuple(Action("suit", (s,)) for s in SUITS),
    "eights": (Action("eights", ("all",)), Action("eights", ("next",))),
    "jpoints": (Action("jpoints", ("minus",)), Action("jpoints", ("plus",))),
}
"""The actions of each decision."""
DRAW = Action("draw")
"""The draw action."""

CODES = tuple(short_deck())
"""Card codes by card id (a card id % 9 is its rank index, card id // 9 its suit index)."""
RANK_OF = tuple(c[:-1] for c in CODES)
"""Rank text by card id."""
SUIT_OF = tuple(c[-1] for c in CODES)
"""Suit letter by card id."""
ID_OF = {c: i for i, c in enumerate(CODES)}
"""Card id by code."""
SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}
"""Place of each suit in :data:`SUITS`."""
J_RANK = RANK_OF.index("J")
"""Rank index of the J."""
SEVEN_RANK, EIGHT_RANK, ACE_RANK = RANK_OF.index("7"), RANK_OF.index("8"), RANK_OF.index("A")
"""Rank indexes of the 7, the 8 and the ace."""
CARD_POINTS = tuple(POINTS[r] for r in RANK_OF)
"""Points of each card id left in hand (a card id below 9 is also its rank index)."""
