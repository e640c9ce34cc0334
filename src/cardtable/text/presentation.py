"""How a game is shown to people, apart from its rules: the call as a button reads it, the word
a card face prints for its power, and how a Cabo-family hand is laid out.

None of this changes what is legal, so none of it is in a rule set. Each is keyed by the rule
data it shows: a call's label by the call word (``cabo`` → ``Cabo!``, ``knock`` → ``Knock``),
a power's word by the power, and a hand's layout is derived from the rule set (four cards whose
bottom row, positions 2 and 3, is seen at the deal lie in a 2×2 square: kaboo, and any variant
made from it). A variant that wants otherwise says so here, by its call word
(:func:`set_call_label`) or its name (:func:`set_hand_layout`).

The web app serves these beside the rules' own facts (:func:`served_details`, for
``/api/variants``); the terminal reads :func:`hand_layout`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, TypeGuard

from ..games.family.rulesets import LOOK, PEEK, RULESETS, SPY, SWAP, SWAP_ANY, Power, RuleSet
from ..variants import Variant

__all__ = [
    "CALL_LABELS",
    "HAND_LAYOUTS",
    "POWER_LABELS",
    "HandLayout",
    "call_label",
    "hand_layout",
    "power_labels",
    "served_details",
    "set_call_label",
    "set_hand_layout",
]

HandLayout = Literal["row", "square"]
"""How a hand is laid out: one ``row``, or a ``square`` of two rows of two."""

HAND_LAYOUTS: tuple[HandLayout, ...] = ("row", "square")
"""Every hand layout the front ends draw."""

POWER_LABELS: dict[Power, str] = {
    PEEK: "peek",
    SPY: "spy",
    SWAP: "swap",
    LOOK: "look",
    SWAP_ANY: "swap",
}
"""The word a card face shows for its power (the browser prints it on numbered cards)."""

CALL_LABELS: dict[str, str] = {"cabo": "Cabo!", "gabo": "Gabo!", "knock": "Knock", "qute": "Qute!"}
"""The call as a button or badge reads it, by call word: shouted names are exclaimed, a knock
is not. A word missing here reads capitalized (``pablo`` → ``Pablo``)."""

_LAYOUTS: dict[str, HandLayout] = {}
"""Hand layouts set by variant name (:func:`set_hand_layout`), over the derived one."""

_ORDER = (
    "call",
    "call_label",
    "values",
    "powers",
    "hand_size",
    "initial_peeks",
    "auto_peek",
    "hand_layout",
)
"""The order of the details ``/api/variants`` serves (any others follow)."""


def call_label(word: str) -> str:
    """The call word ``word`` as a button or badge reads it: ``Cabo!``, ``Knock``, ``Pablo``."""
    return CALL_LABELS.get(word) or word.capitalize()


def set_call_label(word: str, label: str) -> None:
    """Show the call word ``word`` as ``label`` (``set_call_label("pablo", "Pablo!")``)."""
    if not label.strip():
        raise ValueError("a call label must not be blank")
    CALL_LABELS[word] = label


def _is_layout(layout: str) -> TypeGuard[HandLayout]:
    return layout in HAND_LAYOUTS


def set_hand_layout(name: str, layout: str) -> None:
    """Lay out the hands of the variant called ``name`` as ``layout`` (``row``, ``square``),
    whatever its rule set; ``ValueError`` for another layout."""
    if not _is_layout(layout):
        raise ValueError(f"hand_layout must be one of {list(HAND_LAYOUTS)}")
    _LAYOUTS[name] = layout


def hand_layout(rs: RuleSet) -> HandLayout:
    """How a hand of ``rs`` is laid out: as set for its name, else a ``square`` for four cards
    whose bottom row (positions 2 and 3) is seen at the deal (RULES.md, kaboo), else a ``row``."""
    if rs.name in _LAYOUTS:
        return _LAYOUTS[rs.name]
    return "square" if rs.hand_size == 4 and rs.auto_peek == (2, 3) else "row"


def power_labels(rs: RuleSet) -> dict[str, str]:
    """The word printed on each card code of ``rs`` that has a power (card code → word)."""
    codes = dict.fromkeys(rs.deck)
    return {code: POWER_LABELS[Power(power)] for code in codes if (power := rs.power_of(code))}


def _shown(details: Mapping[str, object], rs: RuleSet | None) -> dict[str, object]:
    """The words and layout shown beside a variant's ``details``."""
    shown: dict[str, object] = {}
    if "call" in details:
        shown["call_label"] = call_label(str(details["call"]))
    if rs is not None:
        shown["powers"] = power_labels(rs)
        shown["hand_layout"] = hand_layout(rs)
    return shown


def served_details(variant: Variant) -> dict[str, object]:
    """A variant's details as ``/api/variants`` serves them: the facts of its rules
    (:attr:`Variant.details`) and, beside them, the call's label and, for the Cabo family, the
    power words by card code and the hand layout."""
    merged = {**variant.details, **_shown(variant.details, RULESETS.get(variant.name))}
    first = [key for key in _ORDER if key in merged]
    return {key: merged[key] for key in first + [k for k in merged if k not in _ORDER]}
