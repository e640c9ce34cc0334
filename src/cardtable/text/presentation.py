"""How a game is shown to people, apart from its rules: the call as a button reads it, the word
a card face prints for its power, the points marked beside a card whose value is unusual, and
how a Cabo-family hand is laid out.

None of this changes what is legal, so none of it is in a rule set. Each is keyed by the rule
data it shows: a call's label by the call word (``cabo`` → ``Cabo!``, ``knock`` → ``Knock``),
a power's word by the power, and a hand's layout is derived from the rule set (four cards whose
bottom row, positions 2 and 3, is seen at the deal lie in a 2×2 square: kaboo, and any variant
made from it). A variant that wants otherwise says so here, by its call word
(:func:`set_call_label`) or its name (:func:`set_hand_layout`).

**Unusual values.** A card's *usual* value is what a player reads off its face: a number card
is worth its number (the Cabo deck's 0 … 13 included), an ace 1, a jack, a queen or a king 10 —
what the three standard-deck games of the Cabo family agree on (RULES.md §2). A joker shows no
number, so it has no usual value. A card whose value in a game differs from its usual value (or
that has none) is *unusual* there (:func:`unusual_values`): gabo's red kings (15), black kings
(0) and jokers (−2), cabo-german's red kings (−1) and jokers (0), every kaboo king (−1), Qute's
6 to 9 (0), aces (15) and jacks (20). The front ends mark those cards with their points
(:func:`value_marks`: a badge on the browser's card, the points beside ``[KH]`` in the
terminal); the rules pages list every value (:func:`card_values`).

The web app serves these beside the rules' own facts (:func:`served_details`, for
``/api/variants``); the terminal reads :func:`hand_layout` and :func:`value_marks`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Literal, TypeGuard

from ..cards import card
from ..games.family.rulesets import LOOK, PEEK, RULESETS, SPY, SWAP, SWAP_ANY, Power, RuleSet
from ..games.qute.tables import CODES as QUTE_CODES
from ..games.qute.tables import POINTS as QUTE_POINTS
from ..variants import Variant, get

__all__ = [
    "CALL_LABELS",
    "HAND_LAYOUTS",
    "POWER_LABELS",
    "HandLayout",
    "call_label",
    "card_values",
    "hand_layout",
    "power_labels",
    "served_details",
    "set_call_label",
    "set_hand_layout",
    "unusual_values",
    "usual_value",
    "value_marks",
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
    "value_marks",
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


def usual_value(code: str) -> int | None:
    """What a player assumes card ``code`` is worth from its face: a number card its number
    (the Cabo deck's ``0`` … ``13`` too), an ace 1, a jack, queen or king 10; ``None`` for a
    joker, which shows no number. ``ValueError`` for a code that is not a card."""
    c = card(code)
    if c.rank == "JOKER":
        return None
    if c.rank == "A":
        return 1
    if c.rank in ("J", "Q", "K"):
        return 10
    return int(c.rank)


def unusual_values(codes: Iterable[str], value: Callable[[str], int]) -> dict[str, int]:
    """The cards among ``codes`` whose ``value`` is not their :func:`usual_value` (every
    joker), card code → value, in the order of ``codes`` (each code once)."""
    out: dict[str, int] = {}
    for code in dict.fromkeys(codes):
        points = value(code)
        if points != usual_value(code):
            out[code] = points
    return out


def card_values(name: str) -> dict[str, int]:
    """What every card of the game ``name`` is worth at the end of a round, card code →
    points, in deck order (a Cabo-family game: its rule set's values; Qute: the points of a
    card left in hand). Empty for a game that gives its cards no values; ``ValueError`` for an
    unknown game."""
    return _values_of(get(name).name)


def _values_of(name: str) -> dict[str, int]:
    """:func:`card_values` of the game registered (or about to be) as ``name``."""
    rs = RULESETS.get(name)
    if rs is not None:
        return {code: rs.value(code) for code in dict.fromkeys(rs.deck)}
    if name == "qute":
        return {code: QUTE_POINTS[card(code).rank] for code in QUTE_CODES}
    return {}


def value_marks(name: str) -> dict[str, int]:
    """The cards of the game ``name`` whose value is unusual (:func:`unusual_values` of
    :func:`card_values`), card code → points: the front ends mark these cards with their
    points. ``ValueError`` for an unknown game."""
    return _marks_of(card_values(name))


def _marks_of(values: Mapping[str, int]) -> dict[str, int]:
    return unusual_values(values, values.__getitem__)


def _shown(details: Mapping[str, object], variant: Variant) -> dict[str, object]:
    """The words, values and layout shown beside a variant's ``details``."""
    shown: dict[str, object] = {}
    if "call" in details:
        shown["call_label"] = call_label(str(details["call"]))
    values = _values_of(variant.name)
    if values and "values" not in details:
        shown["values"] = values
    shown["value_marks"] = _marks_of(values)
    rs = RULESETS.get(variant.name)
    if rs is not None:
        shown["powers"] = power_labels(rs)
        shown["hand_layout"] = hand_layout(rs)
    return shown


def served_details(variant: Variant) -> dict[str, object]:
    """A variant's details as ``/api/variants`` serves them: the facts of its rules
    (:attr:`Variant.details`) and, beside them, the call's label, every card's value (Qute's
    from its points table), the unusual values the front ends mark (:func:`value_marks`) and,
    for the Cabo family, the power words by card code and the hand layout."""
    merged = {**variant.details, **_shown(variant.details, variant)}
    first = [key for key in _ORDER if key in merged]
    return {key: merged[key] for key in first + [k for k in merged if k not in _ORDER]}
