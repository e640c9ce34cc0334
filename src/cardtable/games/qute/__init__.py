"""Qute: a Mau-Mau–like shedding game on 36 cards (RULES.md §3)."""

from __future__ import annotations

from ...game import DrawSource
from ...variants import MAX_TARGET, Options, OptionSpec, Variant, register
from .chance import ChanceQute
from .engine import POINTS, QuteGame, QuteOptions, qute_options

__all__ = ["FAMILY", "POINTS", "QuteGame", "QuteOptions", "qute_options"]

MAX_TURNS = 10_000
"""Largest ``max_turns`` (turns of all seats together) a Qute round accepts."""

FAMILY = "qute"
"""The ``family`` of the variant this package registers (:attr:`Variant.family`)."""


def _build(players: int, seed: int, options: Options, deck: list[str] | None) -> QuteGame:
    return QuteGame(players, seed, options, deck)


def _build_chance(players: int, options: Options, draws: DrawSource) -> ChanceQute:
    return ChanceQute(players, options, draws)


register(
    Variant(
        name="qute",
        title="Qute",
        min_players=2,
        max_players=4,
        default_players=2,
        options=(
            OptionSpec(
                "target",
                (int, type(None)),
                125,
                "None plays one round; a number plays until a total exceeds it",
                1,
                MAX_TARGET,
            ),
            OptionSpec("first", (int, type(None)), None, "seat that starts round 1 (seat 0)", 0),
            OptionSpec(
                "max_turns",
                (int,),
                200,
                "turns after which a round with no end is stopped",
                1,
                MAX_TURNS,
            ),
        ),
        factory=_build,
        chance_factory=_build_chance,
        summary="Qute: shed your cards on 36 cards; 6s must be covered, 7s and 8s make others "
        "draw, aces skip, Js choose the suit, four in a row may end the round",
        family=FAMILY,
        details={"call": "qute"},
    )
)
