"""The phase table of the Cabo family: who acts in each phase, which moves it offers, and why
a move is refused — one declaration that both the legal actions and the refusals read.

Each :class:`Phase` names the seats that act in it and its :class:`Move` entries. A move is
one kind of action (``draw deck``, ``replace N``, ``drop P.N`` …) with three parts:

* ``offer(game, seat)`` — the move's legal actions now, or, when the move is closed, the
  reason (a :class:`Closed`: a catalog message). :func:`legal_actions` concatenates the offers
  that are open; :func:`refusal` returns the reason of the closed move an action belongs to.
  Since both read the same function, a refusal cannot disagree with the generator.
* ``misfit(game, seat, action)`` — why an action of this move's word with other arguments is
  refused (an own card already looked at, a seat's own card where another seat's is asked …).
* ``exists(rule_set)`` — whether the variant has the move at all; a word no move of the
  variant has is refused as such ("there is no dropping in kaboo").

A word the variant has but the current phase does not take is refused with the phases that
do take it, read from the table ("the end can only be called at the start of your turn").
Reasons mention only public facts: positions, phases, counts, the rules. Their words are the
catalogs' (``refusal.family.…``, ``refusal.when.<phase>``: see :mod:`cardtable.errors`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from ...errors import IllegalAction, NoSuchCard, NotInThisGame, Param, RuleForbids, WrongPhase
from ...notation import Action, Address, sort_addresses
from .rulesets import LOOK, PEEK, POWER_NAMES, SPY, SWAP, SWAP_ANY, RuleSet

if TYPE_CHECKING:
    from .table import Table

__all__ = [
    "CALL",
    "FROM_DECK",
    "FROM_DISCARD",
    "FROM_NONE",
    "MAX_CLAIM",
    "PHASES",
    "PHASE_TABLE",
    "PH_DRAWN",
    "PH_GIVE",
    "PH_LOOKED",
    "PH_OVER",
    "PH_PEEK",
    "PH_POWER",
    "PH_SNAP",
    "PH_TURN",
    "Closed",
    "Move",
    "Phase",
    "PhaseName",
    "legal_actions",
    "moves_by_word",
    "moves_of",
    "refusal",
]

PH_PEEK, PH_TURN, PH_DRAWN, PH_POWER, PH_LOOKED, PH_GIVE, PH_SNAP, PH_OVER = range(8)
PhaseName = Literal["peek", "turn", "drawn", "power", "look", "give", "snap", "over"]
"""The name of a phase as views show it."""
PHASES: tuple[PhaseName, ...] = ("peek", "turn", "drawn", "power", "look", "give", "snap", "over")
"""Phase names as they appear in views, indexed by the engine's phase number."""

FROM_NONE, FROM_DECK, FROM_DISCARD = 0, 1, 2
"""Where the card in hand came from."""

MAX_CLAIM = 4
"""Most cards a cabo multi-replace may claim (no value has more than four copies)."""

CALL = "<call>"
"""The word of the call move in the table: each rule set's own ``call`` word stands for it."""


@dataclass(frozen=True, slots=True)
class Closed:
    """Why a move is closed now (or an action of it refused): a catalog message and its
    placeholders (see :class:`~cardtable.errors.IllegalAction`)."""

    key: str
    """The message's catalog key (``refusal.…``)."""
    params: Mapping[str, Param] = field(default_factory=dict)
    """Its placeholder values, by name."""


def _why(key: str, **params: Param) -> Closed:
    """The reason ``refusal.family.<key>`` with ``params``."""
    return Closed(f"refusal.family.{key}", params)


Offer = Sequence[Action] | Closed
"""A move's legal actions now, or the reason it is closed."""


_DECK_EMPTY = _why("deck_empty")
_PILE_EMPTY = _why("pile_empty")
_NOTHING_TO_REPLACE = _why("nothing_to_replace")
_CALLED = _why("called")
_MUST_REPLACE = _why("must_replace")
_NOTHING_TO_MATCH = _why("nothing_to_match")
_PEEKED_ALL = _why("peeked_all")
_ALREADY_LOOKED = _why("already_looked")
_SPY_OTHER = _why("spy_other")
_EXCHANGE_OWN_OTHER = _why("exchange_own_other")
_EXCHANGE_TWO_SEATS = _why("exchange_two_seats")
_LOOKED_GONE = _why("looked_gone")
_AFTER_LOOK = _why("after_look")
_SNAP_OWN = _why("snap_own")
_ANSWER_LOOK = _why("answer_look")
_GIVE_OR_PASS = _why("give_or_pass")
_SNAP_OR_PASS = _why("snap_or_pass")
_GAME_OVER = Closed("refusal.game_over")
"""The reasons that take no placeholders, made once."""


def _always(rs: RuleSet) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Move:
    """One kind of action a phase offers (see the module docstring)."""

    word: str
    """The action word (:data:`CALL` for the rule set's call word)."""
    offer: Callable[[Table, int], Offer]
    """The legal actions of this move for a seat that may act, or why it is closed now."""
    misfit: Callable[[Table, int, Action], Closed | None] | None = None
    """Why an action with this word but arguments the offer lacks is refused (``None``: this
    move has nothing to say about it)."""
    exists: Callable[[RuleSet], bool] = _always
    """Whether a variant has this move at all."""
    fits: Callable[[Action], bool] | None = None
    """Which actions of the word this move is about (``None``: all of them)."""


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase: who acts, the moves it offers, when it happens, what it waits for."""

    name: str
    """The phase's name in views."""
    actors: Callable[[Table], list[int]]
    """The seats that may act."""
    moves: tuple[Move, ...]
    """The moves offered, in the order legal actions list them (a refusal says when a word can
    be played with the names of the phases that take it: ``refusal.when.<name>``)."""
    waits: Callable[[Table, int], Closed] | None
    """What the phase waits for, in a phase that insists on its own moves (the
    first peeks, a power, a look, a give, a snap window): the refusal of any word it does not
    take. ``None`` in the turn's own phases, where a word is refused with when it can be
    played, or with the legal actions."""


# ---------------------------------------------------------------------------- interned actions
_A_DRAW_DECK = Action("draw", ("deck",))
_A_DRAW_DISCARD = Action("draw", ("discard",))
_A_DISCARD = Action("discard")
_A_PASS = Action("pass")
_A_EXCHANGE = Action("exchange")
_CALLS: dict[str, Action] = {}
"""The call action of every call word the engine has met."""
_POS_CACHE: dict[tuple[str, int], Action] = {}
_LIST_CACHE: dict[tuple[Hashable, ...], list[Action]] = {}


def call_action(word: str) -> Action:
    """The (interned) action of a call word."""
    act = _CALLS.get(word)
    if act is None:
        act = _CALLS[word] = Action(word)
    return act


def is_call_word(word: str) -> bool:
    """Whether ``word`` is the call word of a rule set the engine has met."""
    return word in _CALLS


def _pos_action(name: str, pos: int) -> Action:
    key = (name, pos)
    act = _POS_CACHE.get(key)
    if act is None:
        act = _POS_CACHE[key] = Action(name, (pos,))
    return act


def _cached(key: tuple[Hashable, ...], build: Callable[[], list[Action]]) -> list[Action]:
    acts = _LIST_CACHE.get(key)
    if acts is None:
        if len(_LIST_CACHE) > 50_000:
            _LIST_CACHE.clear()
        acts = _LIST_CACHE[key] = build()
    return acts


def _others(g: Table, seat: int) -> tuple[tuple[int, int], ...]:
    return tuple((s, i) for s in range(g.n) if s != seat for i in g.occupied(s))


# ---------------------------------------------------------------------------- who acts
def _turn_seat(g: Table) -> list[int]:
    return [g.turn]


def _peekers(g: Table) -> list[int]:
    return [s for s in range(g.n) if g.peeks_left[s]]


def _snappers(g: Table) -> list[int]:
    passed = g.snap_passed
    return [s for s in range(g.n) if not passed >> s & 1]


def _nobody(g: Table) -> list[int]:
    return []


# ---------------------------------------------------------------------------- offers
def _draw_deck(g: Table, seat: int) -> Offer:
    if g.rs.deck_end.can_draw(g):
        return (_A_DRAW_DECK,)
    return _DECK_EMPTY


def _draw_discard(g: Table, seat: int) -> Offer:
    if not g.discard:
        return _PILE_EMPTY
    if not g.rs.pile_draw_free and not g.occupied(seat):
        return _NOTHING_TO_REPLACE
    return (_A_DRAW_DISCARD,)


def _call(g: Table, seat: int) -> Offer:
    if g.caller >= 0:
        return _CALLED
    return (call_action(g.rs.call),)


def _replace_list(own: tuple[int, ...], multi: bool) -> list[Action]:
    acts = [_pos_action("replace", i) for i in own]
    if multi:
        for k in range(2, MAX_CLAIM + 1):
            acts.extend(Action("replace", combo) for combo in itertools.combinations(own, k))
    return acts


def _replace(g: Table, seat: int) -> Offer:
    own = g.occupied(seat)
    multi = g.rs.drops.claims
    return _cached(("replace", own, multi), lambda: _replace_list(own, multi))


def _replace_misfit(g: Table, seat: int, action: Action) -> Closed | None:
    if len(action.args) > 1 and not g.rs.drops.claims:
        return _why("replace_one", variant=g.variant)
    if len(action.args) > MAX_CLAIM:
        return _why("claim_most", n=MAX_CLAIM)
    return None


def _discard(g: Table, seat: int) -> Offer:
    if g.drawn_from == FROM_DECK or g.rs.pile_draw_free or not g.occupied(seat):
        return (_A_DISCARD,)
    return _MUST_REPLACE


def _drop(g: Table, seat: int) -> Offer:
    if not g.discard:
        return _NOTHING_TO_MATCH
    own = g.occupied(seat)
    others = _others(g, seat)
    return _cached(
        ("drop", own, others),
        lambda: [_pos_action("drop", i) for i in own] + [Action("drop", (a,)) for a in others],
    )


@dataclass(frozen=True)
class _DropsIn:
    """Whether a variant takes ``drop`` in ``phase``: its drops rule says (:mod:`.hooks`).

    An object, not a closure: an engine holds its moves, and engines are pickled (a search
    worker's world, an OpenSpiel node)."""

    phase: PhaseName

    def __call__(self, rs: RuleSet) -> bool:
        return rs.drops.allowed_in(self.phase)


def _drops_in(phase: PhaseName) -> Callable[[RuleSet], bool]:
    """Whether a variant takes ``drop`` in ``phase`` (see :class:`_DropsIn`)."""
    return _DropsIn(phase)


def _initial_peek(g: Table, seat: int) -> Offer:
    kn = g.known[seat]
    bit = 1 << seat
    acts = [_pos_action("peek", i) for i in g.occupied(seat) if not kn[i] & bit]
    return acts or _PEEKED_ALL


def _initial_peek_misfit(g: Table, seat: int, action: Action) -> Closed | None:
    return _ALREADY_LOOKED


def _optional(g: Table) -> bool:
    return g.power not in g.rs.must_use


def _power_peek(g: Table, seat: int) -> Offer:
    if g.power != PEEK:
        return _wrong_power(g)
    own = g.occupied(seat)
    return _cached(("peek", own), lambda: [_pos_action("peek", i) for i in own])


def _power_spy(g: Table, seat: int) -> Offer:
    if g.power != SPY:
        return _wrong_power(g)
    others = _others(g, seat)
    return _cached(("spy", others), lambda: [Action("spy", (a,)) for a in others])


def _power_look(g: Table, seat: int) -> Offer:
    if g.power != LOOK:
        return _wrong_power(g)
    own = g.occupied(seat)
    others = _others(g, seat)
    return _cached(
        ("look", own, others), lambda: [Action("look", (i, a)) for i in own for a in others]
    )


def _addr_seat(seat: int, addr: Address) -> int:
    return seat if isinstance(addr, int) else addr[0]


def _power_exchange(g: Table, seat: int) -> Offer:
    own = g.occupied(seat)
    others = _others(g, seat)
    if g.power == SWAP:
        return _cached(
            ("swap", own, others), lambda: [Action("exchange", (i, a)) for i in own for a in others]
        )
    if g.power == SWAP_ANY:
        addrs: list[Address] = [*own, *others]
        return _cached(
            ("swapany", seat, own, others),
            lambda: [
                Action("exchange", sort_addresses((a, b)))
                for a, b in itertools.combinations(addrs, 2)
                if _addr_seat(seat, a) != _addr_seat(seat, b)
            ],
        )
    return _wrong_power(g)


def _wrong_power(g: Table) -> Closed:
    return _why("use_power", power=POWER_NAMES[g.power])


def _power_misfit(g: Table, seat: int, action: Action) -> Closed | None:
    name = action.name
    if name == "spy":
        return _SPY_OTHER
    if name == "exchange" and g.power == SWAP:
        return _EXCHANGE_OWN_OTHER
    if name == "exchange":
        return _EXCHANGE_TWO_SEATS
    return None


_POWER_OFFERS: dict[int, Callable[[Table, int], Offer]] = {}
"""The offer of each power kind (filled below the offers)."""


def _power_pass(g: Table, seat: int) -> Offer:
    if _optional(g) or not _POWER_OFFERS[g.power](g, seat):
        # a power that cannot be used (nothing to peek at, no card of another seat) is passed
        # even where it must be used (RULES.md §1, Powers)
        return (_A_PASS,)
    return _why("must_use", power=POWER_NAMES[g.power], variant=g.variant)


_POWER_OFFERS.update({PEEK: _power_peek, SPY: _power_spy, SWAP: _power_exchange, LOOK: _power_look})
_POWER_OFFERS[SWAP_ANY] = _power_exchange


def _looked_exchange(g: Table, seat: int) -> Offer:
    if g.look_valid:
        return (_A_EXCHANGE,)
    return _LOOKED_GONE


def _looked_exchange_misfit(g: Table, seat: int, action: Action) -> Closed | None:
    return _AFTER_LOOK


def _pass(g: Table, seat: int) -> Offer:
    return (_A_PASS,)


def _give(g: Table, seat: int) -> Offer:
    own = g.occupied(seat)
    return _cached(("give", own), lambda: [_pos_action("give", i) for i in own])


def _snap(g: Table, seat: int) -> Offer:
    own = g.occupied(seat)
    return _cached(("snap", own), lambda: [_pos_action("drop", i) for i in own])


def _snap_misfit(g: Table, seat: int, action: Action) -> Closed | None:
    if action.args and isinstance(action.args[0], tuple):
        return _SNAP_OWN
    return None


def _is_deck_draw(action: Action) -> bool:
    return action.args == ("deck",)


def _is_pile_draw(action: Action) -> bool:
    return action.args == ("discard",)


# ---------------------------------------------------------------------------- the table
def _drop_in(phase: PhaseName) -> Move:
    """The drop against the pile, in one phase of a seat's own turn."""
    return Move("drop", _drop, exists=_drops_in(phase))


PHASE_TABLE: tuple[Phase, ...] = (
    Phase(
        "peek",
        _peekers,
        (Move("peek", _initial_peek, _initial_peek_misfit),),
        lambda g, seat: _why("first_peeks", count=g.rs.initial_peeks),
    ),
    Phase(
        "turn",
        _turn_seat,
        (
            Move("draw", _draw_deck, fits=_is_deck_draw),
            Move("draw", _draw_discard, fits=_is_pile_draw),
            Move(CALL, _call),
            _drop_in("turn"),
        ),
        None,
    ),
    Phase(
        "drawn",
        _turn_seat,
        (
            Move("replace", _replace, _replace_misfit),
            Move("discard", _discard),
            _drop_in("drawn"),
        ),
        None,
    ),
    Phase(
        "power",
        _turn_seat,
        (
            Move("peek", _power_peek),
            Move("spy", _power_spy, _power_misfit),
            Move("exchange", _power_exchange, _power_misfit),
            Move("look", _power_look),
            Move("pass", _power_pass),
            _drop_in("power"),
        ),
        lambda g, seat: _wrong_power(g),
    ),
    Phase(
        "look",
        _turn_seat,
        (
            Move("exchange", _looked_exchange, _looked_exchange_misfit),
            Move("pass", _pass),
            _drop_in("look"),
        ),
        lambda g, seat: _ANSWER_LOOK,
    ),
    Phase(
        "give",
        _turn_seat,
        (Move("give", _give), Move("pass", _pass)),
        lambda g, seat: _GIVE_OR_PASS,
    ),
    Phase(
        "snap",
        _snappers,
        (Move("drop", _snap, _snap_misfit, exists=_drops_in("snap")), Move("pass", _pass)),
        lambda g, seat: _SNAP_OR_PASS,
    ),
    Phase("over", _nobody, (), lambda g, seat: _GAME_OVER),
)
"""Every phase of the family, indexed by the engine's phase number."""

assert tuple(p.name for p in PHASE_TABLE) == PHASES

_WORDS = {"draw": "draw", "replace": "replace", "discard": "discard", "drop": "drop", CALL: "call"}
"""The words that shape a turn, each with the message that says when it can be played
(``refusal.family.only.<name>``, completed by the phases that take it). Any other word a phase
does not take is answered with what an insisting phase waits for, or with the legal actions."""

_WITHOUT = frozenset({"drop"})
"""The words a variant may lack altogether, refused as such (``refusal.family.without.<word>``)."""

Moves = tuple[tuple[Move, ...], ...]
"""The moves of every phase of one variant, indexed by phase number."""
ByWord = tuple[dict[str, tuple[Move, ...]], ...]
"""The same moves, per phase, by action word (the call under the variant's own word)."""

_VARIANT_MOVES: dict[int, tuple[RuleSet, Moves, ByWord]] = {}


def _variant_moves(rs: RuleSet) -> tuple[RuleSet, Moves, ByWord]:
    entry = _VARIANT_MOVES.get(id(rs))
    if entry is None or entry[0] is not rs:
        call_action(rs.call)
        moves = tuple(tuple(m for m in p.moves if m.exists(rs)) for p in PHASE_TABLE)
        by_word: list[dict[str, tuple[Move, ...]]] = []
        for ms in moves:
            words: dict[str, tuple[Move, ...]] = {}
            for m in ms:
                word = rs.call if m.word == CALL else m.word
                words[word] = (*words.get(word, ()), m)
            by_word.append(words)
        entry = _VARIANT_MOVES[id(rs)] = (rs, moves, tuple(by_word))
    return entry


def moves_of(rs: RuleSet) -> Moves:
    """The moves each phase offers in the variant of ``rs`` (computed once per rule set)."""
    return _variant_moves(rs)[1]


def moves_by_word(rs: RuleSet) -> ByWord:
    """The moves of each phase of ``rs`` by action word: what validation looks up."""
    return _variant_moves(rs)[2]


def legal_actions(g: Table, seat: int, moves: tuple[Move, ...]) -> list[Action]:
    """Every action of the open ``moves`` (those of ``g``'s phase) for a seat that may act."""
    acts: list[Action] = []
    for move in moves:
        offer = move.offer(g, seat)
        if not isinstance(offer, Closed):
            acts.extend(offer)
    return acts


def _word(g: Table, name: str) -> str:
    return CALL if name == g.rs.call else name


def refusal(g: Table, seat: int, action: Action) -> IllegalAction:
    """Why ``action`` (canonical, not legal now) is refused for ``seat``, which may act: the
    refusal of its kind, a catalog message."""
    rs = g.rs
    name = action.name
    for arg in action.args:  # positions first: they are refused the same way in every phase
        if isinstance(arg, tuple):
            s, pos = arg
            if not 0 <= s < g.n:
                return NoSuchCard("refusal.no_such_seat", seat, number=s)
            if not 0 <= pos < len(g.hands[s]) or g.hands[s][pos] < 0:
                return NoSuchCard("refusal.no_card_at", seat, who=s, pos=pos)
        elif isinstance(arg, int):
            hand = g.hands[seat]
            if not 0 <= arg < len(hand) or hand[arg] < 0:
                return NoSuchCard("refusal.no_card_at", seat, who=seat, pos=arg)
    if is_call_word(name) and name != rs.call:
        return NotInThisGame("refusal.family.call_word", seat, variant=g.variant, word=rs.call)
    word = _word(g, name)
    table = moves_of(rs)
    phase = PHASE_TABLE[g.phase]
    here = [m for m in table[g.phase] if m.word == word and (m.fits is None or m.fits(action))]
    for move in here:
        offer = move.offer(g, seat)
        if isinstance(offer, Closed):
            return RuleForbids(offer.key, seat, **offer.params)
        if move.misfit is not None:
            reason = move.misfit(g, seat, action)
            if reason is not None:
                return RuleForbids(reason.key, seat, **reason.params)
    if not here:
        phases = tuple(
            p.name
            for p, ms in zip(PHASE_TABLE, table, strict=True)
            if any(m.word == word for m in ms)
        )
        if not phases and word in _WITHOUT:
            return NotInThisGame(f"refusal.family.without.{word}", seat, variant=g.variant)
        if phases and word in _WORDS:
            return WrongPhase(f"refusal.family.only.{_WORDS[word]}", seat, when=phases)
        if phase.waits is not None:
            why = phase.waits(g, seat)
            return WrongPhase(why.key, seat, **why.params)
    legal = tuple(str(a) for a in g.legal_actions(seat))
    key = "refusal.not_allowed.legal" if len(legal) <= 10 else "refusal.not_allowed.more"
    refused = RuleForbids if here else WrongPhase
    return refused(key, seat, action=str(action), legal=legal[:10])
