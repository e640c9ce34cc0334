"""One key, one meaning: the fixed letter of every word of a move, in both terminal front ends.

A word has the same letter in every menu of a game (``pass`` is always ``a``, ``drop`` always
``o``, ``draw`` always ``d``), so a key typed out of habit never means something else in the
next menu. A card is typed as its number; a key that means nothing at a step is refused with a
message, never taken for the nearest word. ``h`` (help), ``q`` (quit), ``n`` (play again,
once a game is over), ``b`` (the hint: the best moves) and ``f`` (faces: open hands, for
practice) are never a word's key.

The Cabo family shares one map (:data:`FAMILY_KEYS`); a call word of a variant registered at
run time gets the first letter of its own that no word of the map holds. Qute has its own
(:data:`QUTE_KEYS`): its suits are the capital letters of the notation (``C``, ``D``, ``H``,
``S``: with Shift), so ``h`` stays help.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import variants
from ..games.family.rulesets import RULESETS
from ..games.qute import FAMILY as QUTE_KIND

__all__ = [
    "FAMILY_KEYS",
    "QUTE_KEYS",
    "QUTE_SORT_KEY",
    "RESERVED",
    "SEAT_GROUP_KEY",
    "key_words",
    "word_keys",
]

RESERVED = frozenset("hqnbf")
"""Keys that are never a word's: help, quit, play again (at the end of a game), the hint
(the best moves) and open hands (the AI players' faces, for practice)."""

FAMILY_KEYS: Mapping[str, str] = {
    "draw": "d",
    "deck": "e",
    "discard": "i",
    "replace": "r",
    "peek": "p",
    "spy": "s",
    "look": "l",
    "exchange": "x",
    "pass": "a",
    "drop": "o",
    "give": "v",
    "cabo": "c",
    "gabo": "g",
    "knock": "k",
}
"""The key of every word of the Cabo family's moves (the same in all its variants)."""

QUTE_KEYS: Mapping[str, str] = {
    "play": "p",
    "draw": "d",
    "suit": "u",
    "C": "C",
    "D": "D",
    "H": "H",
    "S": "S",
    "eights": "e",
    "all": "a",
    "next": "x",
    "qute": "t",
    "continue": "c",
    "jpoints": "j",
    "minus": "m",
    "plus": "l",
}
"""The key of every word of Qute's moves (a suit is its capital letter)."""

QUTE_SORT_KEY = "o"
"""Qute: the key that sorts the hand the other way (by suit, by rank)."""

SEAT_GROUP_KEY = "y"
"""Line mode: the key of the group "your cards" when a long list of cards goes seat by seat
(another seat's group is typed as ``P.``)."""

_TAKEN = frozenset(FAMILY_KEYS.values()) | RESERVED | {SEAT_GROUP_KEY}


def word_keys(variant: str | None) -> dict[str, str]:
    """Every word of ``variant``'s moves with its key (``None``: the Cabo family's map).

    A call word the family map lacks (a variant registered at run time) gets its first letter
    that no other word holds, else the first free letter of the alphabet.
    """
    known = variant is not None and variant not in RULESETS and variant in variants.names()
    if known and variants.get(str(variant)).family == QUTE_KIND:
        return dict(QUTE_KEYS)
    keys = dict(FAMILY_KEYS)
    rs = RULESETS.get(variant or "")
    if rs is not None and rs.call not in keys:
        free = [c for c in rs.call.lower() + "abcdefgijklmoprstuvwxyz" if c not in _TAKEN]
        keys[rs.call] = free[0] if free else "?"
    return keys


def key_words(keys: Mapping[str, str]) -> dict[str, str]:
    """The word of each key of ``keys`` (the inverse map)."""
    return {key: word for word, key in keys.items()}
