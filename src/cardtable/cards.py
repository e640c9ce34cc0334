"""Card codes and the decks used by cardtable's games.

A card is identified by a short *code*: ``"10H"``, ``"QS"``, ``"AD"`` for standard cards
(rank then suit), ``"RJ"``/``"BJ"`` for the red and black jokers, and the bare value ``"0"`` …
``"13"`` for the Cabo deck. Engines work on small integer ids (an index into a deck list);
codes are only used at the edges.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "RANKS",
    "SUITS",
    "Card",
    "cabo_deck",
    "card",
    "codes_text",
    "short_deck",
    "standard_deck",
]

SUITS: tuple[str, ...] = ("C", "D", "H", "S")
"""Suit letters: clubs, diamonds, hearts, spades."""

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Standard ranks, ace low."""

SHORT_RANKS: tuple[str, ...] = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Ranks of the 36-card short deck (Qute)."""

JOKERS: tuple[str, ...] = ("RJ", "BJ")
"""The two jokers, red and black."""


@dataclass(frozen=True, slots=True)
class Card:
    """A parsed card code."""

    code: str
    """The canonical code, e.g. ``"10H"``, ``"RJ"`` or ``"7"`` (Cabo deck)."""
    rank: str
    """``"A"``…``"K"``, ``"JOKER"``, or the Cabo value as text."""
    suit: str | None
    """``"C"``, ``"D"``, ``"H"``, ``"S"``; ``None`` for jokers and Cabo cards."""

    @property
    def red(self) -> bool:
        """True for hearts, diamonds and the red joker."""
        return self.suit in ("D", "H") or self.code == "RJ"

    @property
    def black(self) -> bool:
        """True for clubs, spades and the black joker."""
        return self.suit in ("C", "S") or self.code == "BJ"

    def __str__(self) -> str:
        return self.code


def card(code: str) -> Card:
    """Parse a card code; raise ``ValueError`` if it is not one."""
    if code in JOKERS:
        return Card(code, "JOKER", None)
    if code.isdigit() and str(int(code)) == code and 0 <= int(code) <= 13:
        return Card(code, code, None)
    rank, suit = code[:-1], code[-1:]
    if rank in RANKS and suit in SUITS:
        return Card(code, rank, suit)
    raise ValueError(f"{code!r} is not a card code")


def standard_deck(jokers: bool = False) -> list[str]:
    """The 52-card deck in a fixed order (suit by suit), plus two jokers if asked."""
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    if jokers:
        deck.extend(JOKERS)
    return deck


def cabo_deck() -> list[str]:
    """The Cabo deck of 52: two 0s, two 13s and four each of 1 to 12."""
    deck: list[str] = []
    for value in range(14):
        deck.extend([str(value)] * (2 if value in (0, 13) else 4))
    return deck


def short_deck() -> list[str]:
    """The 36-card deck (6 to ace in four suits) used by Qute."""
    return [rank + suit for suit in SUITS for rank in SHORT_RANKS]


def codes_text(codes: list[str]) -> str:
    """Card codes joined by spaces, or ``-`` for none (debug dumps and plain texts)."""
    return " ".join(codes) if codes else "-"
