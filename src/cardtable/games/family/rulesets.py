"""The four Cabo-family rule sets: data plus a few small hooks for one shared engine."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal, NamedTuple

from ...cards import cabo_deck, card, standard_deck
from ...variants import Options, OptionSpec, bool_option, int_option, optional_int_option
from . import scoring
from .hooks import DROP, END_ROUND, MULTI_REPLACE, NO_DROPS, RESHUFFLE, SNAP, DeckEnd, Drops
from .scoring import EXCEEDS, REACHES, MatchEnd, Scoring

__all__ = [
    "BUILT_IN",
    "CABO",
    "CABO_GERMAN",
    "GABO",
    "KABOO",
    "LOOK",
    "PEEK",
    "POWER_NAMES",
    "RULESETS",
    "SPY",
    "SWAP",
    "SWAP_ANY",
    "FamilyOptions",
    "Power",
    "RuleSet",
    "family_options",
]


class Power(IntEnum):
    """What a card lets its discarder do (an ``int``, so engines index tables with it)."""

    PEEK = 1
    """Look at one of your own cards."""
    SPY = 2
    """Look at another seat's card."""
    SWAP = 3
    """Blindly swap one of your cards with another seat's."""
    LOOK = 4
    """Look at one own card and one of another seat, then swap them or not."""
    SWAP_ANY = 5
    """Blindly swap any two cards of two different seats."""


PEEK, SPY, SWAP, LOOK, SWAP_ANY = Power.PEEK, Power.SPY, Power.SWAP, Power.LOOK, Power.SWAP_ANY
"""The power kinds under their short names."""

PowerWord = Literal["peek", "spy", "exchange", "look"]
"""The action word a power is used with."""

POWER_NAMES: dict[int, PowerWord] = {
    PEEK: "peek",
    SPY: "spy",
    SWAP: "exchange",
    LOOK: "look",
    SWAP_ANY: "exchange",
}
"""The action word each power is used with."""


@dataclass(frozen=True)
class RuleSet:
    """Everything that distinguishes one Cabo-family variant from another."""

    name: str
    """Registry name."""
    title: str
    """Human title."""
    summary: str
    """One line for menus."""
    deck: tuple[str, ...]
    """Card codes of the full deck (card id = index)."""
    value: Callable[[str], int]
    """Points of a card."""
    powers: dict[str, Power]
    """Rank or code → power kind, for cards that have one."""
    must_use: frozenset[Power]
    """Powers that cannot be declined with ``pass``."""
    call: str
    """The word that calls the end (an action without arguments; ``cabo``, ``gabo``,
    ``knock`` …). Registering the rule set teaches it to the notation."""
    call_ends_round: bool
    """True if the call ends the round at once (gabo), else every other seat plays one turn."""
    drops: Drops
    """Which cards may leave a hand besides the turn's one (a hook, :mod:`.hooks`:
    :data:`~.hooks.NO_DROPS`, :data:`~.hooks.MULTI_REPLACE` (cabo), :data:`~.hooks.DROP`
    (cabo-german), :data:`~.hooks.SNAP` (gabo), or a record of its own)."""
    deck_end: DeckEnd
    """What an empty deck does (a hook, :mod:`.hooks`: :data:`~.hooks.END_ROUND`, the round
    ends after the turn that drew the last card; :data:`~.hooks.RESHUFFLE`; or a subclass)."""
    discard_starts: bool
    """Whether one card starts the discard pile face up."""
    drawn_public: bool
    """Whether a card drawn from the deck is shown to everyone (cabo-german)."""
    pile_draw_free: bool
    """Whether a card taken from the discard pile is handled like a deck-drawn card (cabo-german:
    ``replace N`` or ``discard``, and discarding it triggers its power); else it must replace."""
    auto_peek: tuple[int, ...]
    """Positions each seat sees automatically (kaboo); empty → a phase of two ``peek``."""
    peek_shown_until_draw: bool
    """Whether the cards of a seat's initial peek stay face up to it, even without memory aid,
    until its first draw (gabo, seed 003)."""
    match_key: Callable[[str], Hashable]
    """What must be equal for a drop or snap to match."""
    target: int | None
    """Default match target (``None``: one round)."""
    target_reached: MatchEnd
    """When a match ends (a hook: :data:`~.scoring.EXCEEDS`, total > target, or
    :data:`~.scoring.REACHES`, total ≥ target)."""
    random_first: bool
    """Whether round 1's first seat is drawn from the seed (kaboo)."""
    min_players: int
    """Fewest seats."""
    max_players: int
    """Most seats."""
    default_players: int
    """Seats when not given."""
    scoring: Scoring
    """How a round is scored (a hook: :data:`~.scoring.SUM`, :data:`~.scoring.CABO` with the
    caller rule and Kamikaze, :data:`~.scoring.GABO` with its call penalty)."""
    caller_penalty: int = 0
    """Default points added to a caller who loses the call."""
    extra_options: tuple[OptionSpec, ...] = ()
    """Options beyond the common ones."""
    hand_size: int = 4
    """Cards dealt to each seat (positions ``0 .. hand_size-1``)."""
    initial_peeks: int = 2
    """Own cards each seat looks at before the first turn (a phase of ``peek N``), unless
    ``auto_peek`` shows fixed positions instead."""
    max_positions: int = 8
    """Hand positions the learners' action table covers (hands can grow past ``hand_size``
    with penalty cards and failed claims; see :mod:`cardtable.encoding`)."""
    call_threshold: float = 9.0
    """Estimated hand sum at or below which the rules-of-thumb agents consider calling."""
    face_up_in_hand: bool = False
    """Whether a card the whole table saw face up lies face up when it goes into a hand (cabo:
    a card taken from the discard pile, the cards of a failed claim), shown in every view,
    memory-less and spectators' included; otherwise a card in a hand is face down."""

    def power_of(self, code: str) -> int:
        """The power of a card code (0 for none)."""
        if code in self.powers:
            return self.powers[code]
        return self.powers.get(card(code).rank, 0)


class FamilyOptions(NamedTuple):
    """The rule options of one Cabo-family game, read once from its resolved options
    (``Game.options``: every option a family variant takes, :func:`family_options`)."""

    target: int | None
    """The total that ends the match; ``None`` for a single round."""
    first: int | None
    """The seat that starts round 1; ``None``: drawn from the seed or seat 0, as the rule set
    says (:attr:`RuleSet.random_first`)."""
    max_turns: int
    """Turns per seat after which a round with no call ends."""
    caller_penalty: int
    """Points added to a caller who loses the call (the rule set's default where the variant
    takes no such option)."""
    reset_at_exact_target: bool
    """Whether a total of exactly the target drops to half of it, once per seat (cabo)."""


def family_options(options: Options, rs: RuleSet) -> FamilyOptions:
    """The typed record of a Cabo-family game's resolved ``options`` under ``rs`` (an option
    the variant does not take has its rule set's value). ``KeyError`` or ``TypeError`` for
    options that :meth:`~cardtable.variants.Variant.resolve_options` did not give."""
    return FamilyOptions(
        target=optional_int_option(options, "target"),
        first=optional_int_option(options, "first"),
        max_turns=int_option(options, "max_turns"),
        caller_penalty=(
            int_option(options, "caller_penalty")
            if "caller_penalty" in options
            else rs.caller_penalty
        ),
        reset_at_exact_target=(
            bool_option(options, "reset_at_exact_target")
            if "reset_at_exact_target" in options
            else False
        ),
    )


def _rank(code: str) -> str:
    return card(code).rank


def _standard_value(code: str, red_king: int, black_king: int, joker: int) -> int:
    c = card(code)
    if c.rank == "JOKER":
        return joker
    if c.rank == "A":
        return 1
    if c.rank in ("J", "Q"):
        return 10
    if c.rank == "K":
        return red_king if c.red else black_king
    return int(c.rank)


def _cabo_german_value(code: str) -> int:
    return _standard_value(code, red_king=-1, black_king=10, joker=0)


def _gabo_value(code: str) -> int:
    return _standard_value(code, red_king=15, black_king=0, joker=-2)


def _kaboo_value(code: str) -> int:
    return _standard_value(code, red_king=-1, black_king=-1, joker=0)


_POW_CABO = {"7": PEEK, "8": PEEK, "9": SPY, "10": SPY, "11": SWAP, "12": SWAP}
_POW_STD = {"7": PEEK, "8": PEEK, "9": SPY, "10": SPY, "J": SWAP, "Q": LOOK}
_POW_GABO = {"7": PEEK, "8": SPY, "J": SWAP_ANY, "Q": SWAP_ANY}


def _german_key(code: str) -> Hashable:
    # Same value and same power: a black K (10, no power) does not match a 10 (spy).
    return (_cabo_german_value(code), CABO_GERMAN_POWERS.get(_rank(code), 0))


CABO_GERMAN_POWERS = _POW_STD

_CABO_OPTIONS = (
    OptionSpec("caller_penalty", (int,), 10, "points added to a caller who is not lowest", 0),
    OptionSpec(
        "reset_at_exact_target",
        (bool,),
        False,
        "a total of exactly the target drops to half of it, once per player",
    ),
)
_GABO_OPTIONS = (
    OptionSpec(
        "caller_penalty",
        (int,),
        20,
        "points added to a caller whose sum is above 5 or beaten by another seat",
        0,
    ),
)

CABO = RuleSet(
    name="cabo",
    title="Cabo",
    summary="Melissa Limes' Cabo: 0–13 deck, multi-replace, Kamikaze, rounds to 100",
    deck=tuple(cabo_deck()),
    value=int,
    powers=_POW_CABO,
    must_use=frozenset(),
    call="cabo",
    call_ends_round=False,
    drops=MULTI_REPLACE,
    deck_end=END_ROUND,
    discard_starts=True,
    drawn_public=False,
    pile_draw_free=False,
    auto_peek=(),
    peek_shown_until_draw=False,
    match_key=int,
    target=100,
    target_reached=EXCEEDS,
    random_first=False,
    min_players=2,
    max_players=6,
    default_players=2,
    scoring=scoring.CABO,
    caller_penalty=10,
    extra_options=_CABO_OPTIONS,
    face_up_in_hand=True,
)

CABO_GERMAN = RuleSet(
    name="cabo-german",
    title="Cabo (German rules)",
    summary="German Cabo: 54 cards, drop matching cards any time in your turn",
    deck=tuple(standard_deck(jokers=True)),
    value=_cabo_german_value,
    powers=_POW_STD,
    must_use=frozenset({PEEK, SPY, LOOK}),
    call="cabo",
    call_ends_round=False,
    drops=DROP,
    deck_end=RESHUFFLE,
    discard_starts=True,
    drawn_public=True,
    pile_draw_free=True,
    auto_peek=(),
    peek_shown_until_draw=False,
    match_key=_german_key,
    target=None,
    target_reached=EXCEEDS,
    random_first=False,
    min_players=2,
    max_players=6,
    default_players=2,
    scoring=scoring.SUM,
)

GABO = RuleSet(
    name="gabo",
    title="Gabo",
    summary="Gabo: 54 cards with jokers, snap matching ranks, 'gabo' ends the round at once",
    deck=tuple(standard_deck(jokers=True)),
    value=_gabo_value,
    powers=_POW_GABO,
    must_use=frozenset(),
    call="gabo",
    call_ends_round=True,
    drops=SNAP,
    deck_end=RESHUFFLE,
    discard_starts=True,
    drawn_public=False,
    pile_draw_free=False,
    auto_peek=(),
    peek_shown_until_draw=True,
    match_key=_rank,
    target=100,
    target_reached=REACHES,
    random_first=False,
    min_players=2,
    max_players=10,
    default_players=3,
    scoring=scoring.GABO,
    caller_penalty=20,
    extra_options=_GABO_OPTIONS,
    call_threshold=5.0,  # above 5 the caller is penalised whatever happens
)

KABOO = RuleSet(
    name="kaboo",
    title="Kaboo",
    summary="Kaboo: 2×2 square, see your bottom row, knock; a round runs to the last card",
    deck=tuple(standard_deck()),
    value=_kaboo_value,
    powers=_POW_STD,
    must_use=frozenset(),
    call="knock",
    call_ends_round=False,
    drops=NO_DROPS,
    deck_end=END_ROUND,
    discard_starts=False,
    drawn_public=False,
    pile_draw_free=False,
    auto_peek=(2, 3),
    peek_shown_until_draw=False,
    match_key=_rank,
    target=None,
    target_reached=EXCEEDS,
    random_first=True,
    min_players=2,
    max_players=4,
    default_players=2,
    scoring=scoring.SUM,
    max_positions=4,  # kaboo hands never grow
    call_threshold=7.0,
)

BUILT_IN = (CABO, CABO_GERMAN, GABO, KABOO)
"""The four rule sets cardtable ships (registered on import with ``add_variant``)."""

RULESETS: dict[str, RuleSet] = {}
"""Every registered family rule set by name (filled by
:func:`cardtable.games.family.add_variant`; the built-in four on import)."""
