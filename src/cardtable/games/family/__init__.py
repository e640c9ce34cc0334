"""The Cabo family (``cabo``, ``cabo-german``, ``gabo``, ``kaboo``): one engine, four rule sets.

A Cabo-like variant is one :class:`RuleSet` record registered with :func:`add_variant`::

    import dataclasses
    from cardtable.games.family import add_variant
    from cardtable.games.family.rulesets import KABOO

    add_variant(dataclasses.replace(KABOO, name="pablo", title="Pablo", call="pablo"))

Everything else derives from the registry: the notation learns the call word, the engine
dispatches it, the variant registry builds games of it, and the adapters (OpenSpiel,
Gymnasium, PettingZoo) and the web client pick it up through :func:`cardtable.variants.subscribe`.
The four built-in rule sets are registered the same way when this package is imported.
"""

from __future__ import annotations

from ... import notation
from ...game import DrawSource
from ...variants import (
    MAX_TARGET,
    ChanceFactory,
    Factory,
    Options,
    OptionSpec,
    Variant,
    get,
    names,
    register,
    unregister,
)
from .chance import ChanceFamily
from .engine import PHASES, FamilyGame, add_call_word, forget_rule_set
from .hooks import DeckEnd, Drops
from .rulesets import BUILT_IN, RULESETS, FamilyOptions, RuleSet, family_options
from .scoring import MatchEnd, Scoring

__all__ = [
    "FAMILY",
    "PHASES",
    "RULESETS",
    "FamilyGame",
    "FamilyOptions",
    "RuleSet",
    "add_variant",
    "family_options",
    "remove_variant",
    "variant_of",
]

FAMILY = "cabo"
"""The ``family`` of every variant this package registers (:attr:`Variant.family`)."""

MAX_TURNS = 1000
"""Largest ``max_turns`` (turns per seat) a Cabo-family round accepts."""


def _common_options(rs: RuleSet) -> tuple[OptionSpec, ...]:
    return (
        OptionSpec(
            "target",
            (int, type(None)),
            rs.target,
            "None plays one round; a number plays a match until a total "
            + rs.target_reached.name
            + " it",
            1,
            MAX_TARGET,
        ),
        OptionSpec(
            "first",
            (int, type(None)),
            None,
            "seat that starts round 1 (default: "
            + ("drawn from the seed" if rs.random_first else "seat 0")
            + ")",
            0,
        ),
        OptionSpec(
            "max_turns",
            (int,),
            30,
            "turns per seat after which a round with no call ends (scored as if nobody called)",
            1,
            MAX_TURNS,
        ),
    )


def _factory(rs: RuleSet) -> Factory:
    def build(players: int, seed: int, options: Options, deck: list[str] | None) -> FamilyGame:
        return FamilyGame(rs, players, seed, options, deck)

    return build


def _chance_factory(rs: RuleSet) -> ChanceFactory:
    def build(players: int, options: Options, draws: DrawSource) -> ChanceFamily:
        return ChanceFamily(rs, players, options, draws)

    return build


def _details(rs: RuleSet) -> dict[str, object]:
    """The rule set's facts a front end shows (JSON-ready; ``/api/variants`` serves them with
    the words and layout the text layer adds, :mod:`cardtable.text.presentation`)."""
    codes = list(dict.fromkeys(rs.deck))
    return {
        "call": rs.call,
        "values": {code: rs.value(code) for code in codes},
        "hand_size": rs.hand_size,
        "initial_peeks": rs.initial_peeks,
        "auto_peek": list(rs.auto_peek),
    }


def variant_of(rs: RuleSet) -> Variant:
    """The registry entry of a rule set (how :func:`add_variant` registers it)."""
    return Variant(
        name=rs.name,
        title=rs.title,
        min_players=rs.min_players,
        max_players=rs.max_players,
        default_players=rs.default_players,
        options=_common_options(rs) + rs.extra_options,
        factory=_factory(rs),
        chance_factory=_chance_factory(rs),
        summary=rs.summary,
        aliases=(rs.name.replace("-", "_"),) if "-" in rs.name else (),
        family=FAMILY,
        details=_details(rs),
    )


def _check(rs: RuleSet) -> None:
    """``ValueError`` unless ``rs`` can be registered next to the rule sets already there."""
    if not isinstance(rs, RuleSet):
        raise ValueError(f"add_variant takes a RuleSet, got {type(rs).__name__}")
    taken = set(names()) | {alias for n in names() for alias in get(n).aliases}
    aliases = {rs.name, rs.name.replace("-", "_")}
    if aliases & taken:
        raise ValueError(f"the name {rs.name!r} is already taken by a registered game")
    notation.check_word(rs.call)  # a new word, or the call word of another family variant
    if rs.hand_size < 1:
        raise ValueError("hand_size must be at least 1")
    if not 0 <= rs.initial_peeks <= rs.hand_size:
        raise ValueError("initial_peeks must be between 0 and hand_size")
    if any(not 0 <= pos < rs.hand_size for pos in rs.auto_peek):
        raise ValueError("auto_peek names a position beyond hand_size")
    if not 1 <= rs.max_positions <= 64:
        raise ValueError("max_positions must be between 1 and 64")
    if not isinstance(rs.scoring, Scoring) or not isinstance(rs.target_reached, MatchEnd):
        raise ValueError("scoring must be a Scoring and target_reached a MatchEnd")
    if not isinstance(rs.drops, Drops) or not isinstance(rs.deck_end, DeckEnd):
        raise ValueError("drops must be a Drops and deck_end a DeckEnd")
    if not 1 <= rs.min_players <= rs.default_players <= rs.max_players:
        raise ValueError("players must satisfy 1 ≤ min_players ≤ default_players ≤ max_players")
    if rs.hand_size * rs.max_players + int(rs.discard_starts) > len(rs.deck):
        raise ValueError("the deck is too small to deal every seat at the largest table")


def add_variant(rs: RuleSet) -> Variant:
    """Register a Cabo-like variant given as one :class:`RuleSet` record; return its entry.

    The rule set joins :data:`RULESETS`, its call word joins the notation and the engine, and
    a :class:`~cardtable.variants.Variant` built by :func:`variant_of` joins the variant
    registry (which tells every subscriber: the OpenSpiel and Gymnasium adapters, …).
    ``ValueError`` if the name (or its ``_`` alias) is taken, if the call word is already
    another action word, or if the record is inconsistent (hand size, peeks, players, deck).
    """
    _check(rs)
    notation.add_word(rs.call)
    add_call_word(rs.call)
    RULESETS[rs.name] = rs
    variant = variant_of(rs)
    register(variant)
    return variant


def remove_variant(name: str) -> RuleSet:
    """Undo :func:`add_variant` for the variant called ``name`` and return its rule set
    (for tests and plugins; the built-in variants can be removed too, at your own risk).

    ``ValueError`` if ``name`` is not a registered family variant.
    """
    if name not in RULESETS:
        raise ValueError(f"{name!r} is not a registered Cabo-family variant")
    unregister(name)
    rs = RULESETS.pop(name)
    forget_rule_set(rs)
    if rs.call not in {r.call for r in RULESETS.values()}:
        notation.remove_word(rs.call)
    return rs


for _rs in BUILT_IN:
    add_variant(_rs)
