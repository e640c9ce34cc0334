"""What happens at a table, typed: one frozen dataclass per kind of event, for both games.

An engine builds these as things happen (``game.emit(Peek(seat, at(seat, pos), card))``, where
:func:`at` names a place) and keeps each with the seats allowed to see its secret fields
(:class:`cardtable.game.Event`). Consumers — agents, the belief, the text package, the
terminal tables — read them as the seat sees them (:meth:`cardtable.seat.Seat.history`,
:meth:`~cardtable.seat.Seat.play`) and match on the class::

    match ev:
        case Peek(seat=s, at=At(seat=owner, pos=p), card=code): ...

A field listed in a kind's ``SECRET`` holds a card only some seats saw (a peek, a spy, a private
draw); for everyone else it is ``None``. Addresses are :class:`At` values (ints), written
``"S.P"`` only on the wire.

:meth:`Happening.to_json` gives the event as views, frames and logs carry it (the schema of
:mod:`cardtable.views`: ``seq`` and ``type`` first, a secret field left out where it is
``None``); :func:`decode` reads such an object back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal, TypeAlias, TypeVar, cast

if TYPE_CHECKING:
    from dataclasses import dataclass as _event

    from .views import FamilyRoundResult, GameResult, PowerName, QuteRoundResult, Suit
else:

    def _event(*, frozen: bool, slots: bool) -> Callable[[type], type]:
        """An event class: immutable by contract, as the type checker reads ``frozen=True``
        (any assignment to a field is refused there), and built at run time without the
        frozen guard: that guard sets each field through ``object.__setattr__``, which made
        recording a move's events a third dearer; equality and hashing stay by value."""
        assert frozen and slots
        return dataclass(slots=True, eq=True, unsafe_hash=True)


__all__ = [
    "FAMILY_KINDS",
    "QUTE_KINDS",
    "ROUND_ENDS",
    "ROUND_STARTS",
    "At",
    "Call",
    "Claim",
    "Continue",
    "DeadEnd",
    "Discard",
    "Drop",
    "Eights",
    "Exchange",
    "FamilyDraw",
    "FamilyEvent",
    "FamilyPenalty",
    "FamilyRoundEnd",
    "FamilyRoundStart",
    "GameOver",
    "Give",
    "Happening",
    "JPoints",
    "Look",
    "MaxTurns",
    "Pass",
    "Peek",
    "Play",
    "QuteCall",
    "QuteDraw",
    "QuteEvent",
    "QutePenalty",
    "QuteRoundEnd",
    "QuteRoundStart",
    "Refill",
    "Replace",
    "Reshuffle",
    "Skip",
    "Snap",
    "SnapOpen",
    "Spy",
    "SuitChosen",
    "Turn",
    "at",
    "decode",
    "turn_of",
]

H = TypeVar("H", bound="Happening")


@dataclass(frozen=True, slots=True, order=True)
class At:
    """A place in a hand: seat ``seat``'s position ``pos``; written ``"S.P"``."""

    seat: int
    """Whose hand."""
    pos: int
    """The position in it, from 0."""

    def __str__(self) -> str:
        return f"{self.seat}.{self.pos}"

    @classmethod
    def parse(cls, text: str) -> At:
        """The place written ``"S.P"`` (as views and logs carry it)."""
        seat, dot, pos = text.partition(".")
        if not dot or not seat.isdigit() or not pos.isdigit():
            raise ValueError(f"not a place: {text!r}")
        return cls(int(seat), int(pos))


_PLACES: tuple[tuple[At, ...], ...] = tuple(
    tuple(At(seat, pos) for pos in range(64)) for seat in range(16)
)
"""Every place of a table of up to 16 seats and hands of up to 64 cards, made once."""


def at(seat: int, pos: int) -> At:
    """The place ``At(seat, pos)``, shared rather than made anew (engines name places on every
    recorded move; an ``At`` is immutable, so one instance serves every event)."""
    if 0 <= seat < 16 and 0 <= pos < 64:
        return _PLACES[seat][pos]
    return At(seat, pos)


def _wire(name: str, *, omit: bool = False) -> dict[str, object]:
    """Field metadata: the key on the wire, and whether ``None`` leaves the key out."""
    return {"wire": name, "omit": omit}


_OMIT: Mapping[str, object] = {"omit": True}
"""Field metadata: ``None`` leaves the key out of the JSON (a secret field, for the seats
that may not see it, and the optional fields)."""


@_event(frozen=True, slots=True)
class Happening:
    """Base of every kind of event. ``KIND`` is its ``type`` on the wire."""

    KIND: ClassVar[str] = ""
    """The event's ``type``."""
    SECRET: ClassVar[tuple[str, ...]] = ()
    """The fields only the event's audience sees."""

    def hidden(self: H) -> H:
        """The event as a seat outside its audience sees it: every secret field ``None``."""
        if not self.SECRET:
            return self
        secret = self.SECRET
        return type(self)(
            *[None if name in secret else getattr(self, name) for name, *_ in _layout(type(self))]
        )

    def to_json(self, seq: int) -> dict[str, object]:
        """The event as views and frames carry it, numbered ``seq``."""
        out: dict[str, object] = {"seq": seq, "type": self.KIND}
        for name, key, omit, flat in _layout(type(self)):
            value = getattr(self, name)
            if flat:
                out.update(cast("Mapping[str, object]", value))
            elif value is not None or not omit:
                out[key] = _to_wire(value)
        return out


def _to_wire(value: object) -> object:
    if isinstance(value, At):
        return str(value)
    if isinstance(value, tuple):
        return [_to_wire(v) for v in value]
    return value


_LAYOUTS: dict[type[Happening], tuple[tuple[str, str, bool, bool], ...]] = {}


def _layout(cls: type[Happening]) -> tuple[tuple[str, str, bool, bool], ...]:
    """Each field of ``cls``: its name, its key on the wire, whether ``None`` is left out, and
    whether it is a mapping spread into the event (a round's or the game's result)."""
    known = _LAYOUTS.get(cls)
    if known is not None:
        return known
    known = _LAYOUTS[cls] = tuple(
        (
            f.name,
            str(f.metadata.get("wire", f.name)),
            bool(f.metadata.get("omit", False)),
            bool(f.metadata.get("flat", False)),
        )
        for f in dataclasses.fields(cls)
    )
    return known


# ------------------------------------------------------------------------------ both games
@_event(frozen=True, slots=True)
class Turn(Happening):
    """A seat's turn begins."""

    KIND: ClassVar[str] = "turn"
    seat: int
    """The seat whose turn it is."""


_TURNS: dict[int, Turn] = {}


def turn_of(seat: int) -> Turn:
    """The :class:`Turn` of ``seat``: one per seat, shared (events are frozen), so that an
    engine need not build one each turn."""
    turn = _TURNS.get(seat)
    if turn is None:
        turn = _TURNS[seat] = Turn(seat)
    return turn


@_event(frozen=True, slots=True)
class GameOver(Happening):
    """The game (the whole match) has ended: its result."""

    KIND: ClassVar[str] = "game_over"
    result: GameResult = field(metadata={"flat": True})
    """Rounds, totals, winners and each round's winners."""


# ------------------------------------------------------------------------------ Cabo family
@_event(frozen=True, slots=True)
class FamilyRoundStart(Happening):
    """A round is dealt; ``discard`` is the starting discard pile (face up)."""

    KIND: ClassVar[str] = "round_start"
    round: int
    """The round's number, from 1."""
    first: int
    """The seat that plays first."""
    discard: tuple[str, ...]
    """The starting discard pile's codes."""


@_event(frozen=True, slots=True)
class Peek(Happening):
    """A seat looked at one of its own cards (the first peeks or the peek power)."""

    KIND: ClassVar[str] = "peek"
    SECRET: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    """The seat that peeked."""
    at: At
    """The place peeked at."""
    card: str | None = field(default=None, metadata=_OMIT)
    """The card seen (for the peeking seat)."""


@_event(frozen=True, slots=True)
class FamilyDraw(Happening):
    """A seat drew a card from the deck or took the discard pile's top."""

    KIND: ClassVar[str] = "draw"
    SECRET: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    """The drawing seat."""
    source: Literal["deck", "discard"] = field(metadata=_wire("from"))
    """Where the card came from (``from`` on the wire)."""
    card: str | None = field(default=None, metadata=_OMIT)
    """The card, where the reader may know it (always from the discard pile)."""


@_event(frozen=True, slots=True)
class Reshuffle(Happening):
    """The discard pile (all but its top) became the new deck."""

    KIND: ClassVar[str] = "reshuffle"
    deck: int
    """Cards in the new deck."""


@_event(frozen=True, slots=True)
class Replace(Happening):
    """A seat put the drawn card in its hand; the card it replaced went to the pile."""

    KIND: ClassVar[str] = "replace"
    seat: int
    """The seat that replaced."""
    at: tuple[At, ...]
    """The place replaced (one)."""
    card: str | None = field(default=None, metadata=_OMIT)
    """The card put in the hand, when the whole table knows it."""
    out: tuple[str, ...] = ()
    """The card put on the pile."""


@_event(frozen=True, slots=True)
class Claim(Happening):
    """cabo: a seat claimed several of its cards have one value, to replace them all."""

    KIND: ClassVar[str] = "claim"
    seat: int
    """The claiming seat."""
    at: tuple[At, ...]
    """The places claimed."""
    ok: bool
    """Whether the claim held."""
    new: At | None = field(default=None, metadata=_OMIT)
    """The claim failed: the place the drawn card went."""
    card: str | None = field(default=None, metadata=_OMIT)
    """The card put in the hand, when the whole table knows it."""
    out: tuple[str, ...] | None = field(default=None, metadata=_OMIT)
    """The claim held: the cards put on the pile."""
    shown: tuple[str, ...] | None = field(default=None, metadata=_OMIT)
    """The claim failed: the cards shown to everyone (now face up in the hand)."""


@_event(frozen=True, slots=True)
class Discard(Happening):
    """A seat discarded the drawn card, maybe gaining its power."""

    KIND: ClassVar[str] = "discard"
    seat: int
    """The discarding seat."""
    power: PowerName | None
    """The power the card gives, or ``None``."""
    card: str
    """The card's code."""


@_event(frozen=True, slots=True)
class SnapOpen(Happening):
    """gabo: a snap window opened on ``card``."""

    KIND: ClassVar[str] = "snap_open"
    card: str
    """The card that opened it."""


@_event(frozen=True, slots=True)
class Spy(Happening):
    """A seat looked at another seat's card (the spy power)."""

    KIND: ClassVar[str] = "spy"
    SECRET: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    """The spying seat."""
    at: At
    """The place spied on."""
    card: str | None = field(default=None, metadata=_OMIT)
    """The card seen (for the spying seat)."""


@_event(frozen=True, slots=True)
class Exchange(Happening):
    """Two cards were swapped unseen (the exchange power, or the look power's swap)."""

    KIND: ClassVar[str] = "exchange"
    seat: int
    """The seat that exchanged."""
    at: tuple[At, ...]
    """The two places swapped."""


@_event(frozen=True, slots=True)
class Look(Happening):
    """A seat looked at one own card and one other card (the look power)."""

    KIND: ClassVar[str] = "look"
    SECRET: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    """The looking seat."""
    at: tuple[At, ...]
    """The two places looked at, its own first."""
    cards: tuple[str, ...] | None = field(default=None, metadata=_OMIT)
    """The two cards seen (for the looking seat)."""


@_event(frozen=True, slots=True)
class Pass(Happening):
    """A seat passed (a power, a give, or a snap window)."""

    KIND: ClassVar[str] = "pass"
    seat: int
    """The passing seat."""


@_event(frozen=True, slots=True)
class Call(Happening):
    """A seat called the end of the round with the rule set's ``word``."""

    KIND: ClassVar[str] = "call"
    seat: int
    """The calling seat."""
    word: str
    """The call word (``cabo``, ``gabo``, ``kaboo`` …)."""


@_event(frozen=True, slots=True)
class FamilyPenalty(Happening):
    """A seat took a penalty card, at ``at`` (``None``: the deck had none left)."""

    KIND: ClassVar[str] = "penalty"
    seat: int
    """The penalised seat."""
    at: At | None
    """Where the card went."""


@_event(frozen=True, slots=True)
class Snap(Happening):
    """gabo: a seat snapped a card onto the pile in a snap window."""

    KIND: ClassVar[str] = "snap"
    seat: int
    """The snapping seat."""
    at: At
    """The place the card came from (any seat's)."""
    ok: bool
    """Whether it matched the window's rank."""
    card: str
    """The snapped card (public: it lands on the pile, right or wrong)."""


@_event(frozen=True, slots=True)
class Drop(Happening):
    """cabo-german: a seat dropped a card on the pile's top, or tried to."""

    KIND: ClassVar[str] = "drop"
    seat: int
    """The dropping seat."""
    at: At
    """The place the card came from (any seat's)."""
    ok: bool
    """Whether it matched (a wrong drop is shown, put back and costs a penalty card)."""
    card: str
    """The card (public: shown to everyone, right or wrong)."""


@_event(frozen=True, slots=True)
class Give(Happening):
    """cabo-german: after dropping another seat's card, a seat gave one of its own cards
    (from ``source``) into the gap (``to``)."""

    KIND: ClassVar[str] = "give"
    seat: int
    """The giving seat."""
    source: At = field(metadata=_wire("from"))
    """The giver's place (``from`` on the wire)."""
    to: At
    """The gap filled."""


@_event(frozen=True, slots=True)
class FamilyRoundEnd(Happening):
    """A round ended: its result, every hand shown."""

    KIND: ClassVar[str] = "round_end"
    result: FamilyRoundResult = field(metadata={"flat": True})
    """Scores, sums, adjustments, winners, caller, hands, totals, resets."""


FamilyEvent: TypeAlias = (
    FamilyRoundStart
    | Peek
    | Turn
    | FamilyDraw
    | Reshuffle
    | Replace
    | Claim
    | Discard
    | SnapOpen
    | Spy
    | Exchange
    | Look
    | Pass
    | Call
    | FamilyPenalty
    | Snap
    | Drop
    | Give
    | FamilyRoundEnd
    | GameOver
)
"""Any Cabo-family event."""


# ------------------------------------------------------------------------------ Qute
@_event(frozen=True, slots=True)
class QuteRoundStart(Happening):
    """A Qute round is dealt."""

    KIND: ClassVar[str] = "round_start"
    round: int
    """The round's number, from 1."""
    first: int
    """The seat that plays first."""


@_event(frozen=True, slots=True)
class Refill(Happening):
    """The stack (all but its top) was shuffled into a new blind."""

    KIND: ClassVar[str] = "refill"
    blind: int
    """Cards in the new blind."""
    refills: int
    """Refills this round."""


@_event(frozen=True, slots=True)
class Play(Happening):
    """A seat laid ``cards`` on the stack, in order; ``left`` stay in its hand."""

    KIND: ClassVar[str] = "play"
    seat: int
    """The seat."""
    cards: tuple[str, ...]
    """The cards laid."""
    left: int
    """Cards left in the seat's hand."""


@_event(frozen=True, slots=True)
class QuteDraw(Happening):
    """A seat drew from the blind (``card``: whether one came; ``drawn``: its code, for the
    drawer)."""

    KIND: ClassVar[str] = "draw"
    SECRET: ClassVar[tuple[str, ...]] = ("drawn",)
    seat: int
    """The drawing seat."""
    card: bool
    """Whether a card came (no: the blind and the stack below its top were empty)."""
    drawn: str | None = field(default=None, metadata=_OMIT)
    """The card's code, for the drawing seat only."""


@_event(frozen=True, slots=True)
class QutePenalty(Happening):
    """A seat drew ``count`` cards for a 7 or an 8 (``reason``, ``for`` on the wire)."""

    KIND: ClassVar[str] = "penalty"
    SECRET: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    """The seat that drew."""
    count: int
    """How many cards came."""
    reason: Literal["7", "8"] = field(metadata=_wire("for"))
    """The rank that made it draw."""
    cards: tuple[str, ...] | None = field(default=None, metadata=_OMIT)
    """Their codes, for that seat only."""


@_event(frozen=True, slots=True)
class Skip(Happening):
    """Seats skipped for an 8 or an A, in order (a seat may repeat)."""

    KIND: ClassVar[str] = "skip"
    seats: tuple[int, ...]
    """The seats skipped."""
    reason: Literal["8", "A"] = field(metadata=_wire("for"))
    """The rank that skipped them (``for`` on the wire)."""


@_event(frozen=True, slots=True)
class QuteCall(Happening):
    """A seat said qute (ending the round with a run of four)."""

    KIND: ClassVar[str] = "qute"
    seat: int
    """The seat."""


@_event(frozen=True, slots=True)
class Continue(Happening):
    """A seat chose to play on after a run of four."""

    KIND: ClassVar[str] = "continue"
    seat: int
    """The seat."""


@_event(frozen=True, slots=True)
class SuitChosen(Happening):
    """A seat chose the suit for its J."""

    KIND: ClassVar[str] = "suit"
    seat: int
    """The seat."""
    suit: Suit
    """The suit chosen."""


@_event(frozen=True, slots=True)
class Eights(Happening):
    """A seat chose how its 8s' draws are spread (``all`` others, or the ``next`` seat)."""

    KIND: ClassVar[str] = "eights"
    seat: int
    """The seat."""
    mode: Literal["all", "next"]
    """The choice."""


@_event(frozen=True, slots=True)
class JPoints(Happening):
    """A seat that finished on Js chose how they count (``minus`` its own, ``plus`` the
    others')."""

    KIND: ClassVar[str] = "jpoints"
    seat: int
    """The seat."""
    mode: Literal["minus", "plus"]
    """The choice."""


@_event(frozen=True, slots=True)
class DeadEnd(Happening):
    """A seat had to cover a 6 and could neither play nor draw: the round ends."""

    KIND: ClassVar[str] = "dead_end"
    seat: int
    """The seat."""


@_event(frozen=True, slots=True)
class MaxTurns(Happening):
    """The round reached its safety net of turns and ended."""

    KIND: ClassVar[str] = "max_turns"
    turns: int
    """Turns played."""


@_event(frozen=True, slots=True)
class QuteRoundEnd(Happening):
    """A Qute round ended: its result, every hand shown."""

    KIND: ClassVar[str] = "round_end"
    result: QuteRoundResult = field(metadata={"flat": True})
    """Scores, hand points, J points, multiplier, winners, hands, totals, resets."""


QuteEvent: TypeAlias = (
    QuteRoundStart
    | Refill
    | Turn
    | Play
    | QuteDraw
    | QutePenalty
    | Skip
    | QuteCall
    | Continue
    | SuitChosen
    | Eights
    | JPoints
    | DeadEnd
    | MaxTurns
    | QuteRoundEnd
    | GameOver
)
"""Any Qute event."""


ROUND_STARTS = (FamilyRoundStart, QuteRoundStart)
"""The classes of a round's deal, both games'."""
ROUND_ENDS = (FamilyRoundEnd, QuteRoundEnd)
"""The classes of a round's end, both games'."""


def _kinds(*classes: type[Happening]) -> dict[str, type[Happening]]:
    return {c.KIND: c for c in classes}


FAMILY_KINDS: Mapping[str, type[Happening]] = _kinds(
    FamilyRoundStart, Peek, Turn, FamilyDraw, Reshuffle, Replace, Claim, Discard, SnapOpen, Spy,
    Exchange, Look, Pass, Call, FamilyPenalty, Snap, Drop, Give, FamilyRoundEnd, GameOver,
)  # fmt: skip
"""The Cabo family's event classes by ``type``."""
QUTE_KINDS: Mapping[str, type[Happening]] = _kinds(
    QuteRoundStart, Refill, Turn, Play, QuteDraw, QutePenalty, Skip, QuteCall, Continue,
    SuitChosen, Eights, JPoints, DeadEnd, MaxTurns, QuteRoundEnd, GameOver,
)  # fmt: skip
"""Qute's event classes by ``type``."""


# ------------------------------------------------------------------------------ reading back
def _at(v: object) -> At:
    return At.parse(str(v))


def _ats(v: object) -> tuple[At, ...]:
    return tuple(_at(a) for a in cast("list[object]", v))


def _strs(v: object) -> tuple[str, ...]:
    return tuple(str(c) for c in cast("list[object]", v))


def _ints(v: object) -> tuple[int, ...]:
    return tuple(int(cast("int", s)) for s in cast("list[object]", v))


_READ: dict[str, Callable[[object], object]] = {
    "At": _at,
    "At | None": _at,
    "tuple[At, ...]": _ats,
    "tuple[str, ...]": _strs,
    "tuple[str, ...] | None": _strs,
    "tuple[int, ...]": _ints,
}
"""How a field's value is read back from JSON, by its annotation (others are taken as they
are)."""


def decode(obj: Mapping[str, object], kinds: Mapping[str, type[Happening]]) -> Happening:
    """The typed event of a JSON event ``obj`` (as :meth:`Happening.to_json` writes it), its
    class looked up by ``type`` in ``kinds`` (:data:`FAMILY_KINDS` or :data:`QUTE_KINDS`).
    Raises ``ValueError`` for an unknown kind or a missing field."""
    cls = kinds.get(str(obj.get("type")))
    if cls is None:
        raise ValueError(f"unknown event type {obj.get('type')!r}")
    values: dict[str, object] = {}
    for f in dataclasses.fields(cls):
        key = str(f.metadata.get("wire", f.name))
        if f.metadata.get("flat"):
            values[f.name] = {k: v for k, v in obj.items() if k not in ("seq", "type")}
            continue
        if key not in obj:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"a {cls.KIND} event needs {key!r}")
            continue
        raw = obj[key]
        read = _READ.get(str(f.type))
        values[f.name] = raw if raw is None or read is None else read(raw)
    return cls(**values)
