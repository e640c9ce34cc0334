"""The view of a Qute game: :class:`QuteView`, its card slots, the run on top of the stack,
round results and every event it carries."""

from __future__ import annotations

import sys
from typing import Annotated, Literal, NotRequired, TypeAlias

if sys.version_info >= (3, 12):
    from typing import TypedDict
else:  # pydantic accepts only typing_extensions' TypedDict before Python 3.12
    from typing_extensions import TypedDict

from .common import BY_TYPE, GameOverEvent, GameResult, TurnEvent, forbid_extra

__all__ = [
    "ContinueEvent",
    "DeadEndEvent",
    "EightsEvent",
    "JPointsEvent",
    "MaxTurnsEvent",
    "PlayEvent",
    "QuteCallEvent",
    "QuteDrawEvent",
    "QuteEvent",
    "QutePenaltyEvent",
    "QuteRank",
    "QuteRoundEndEvent",
    "QuteRoundResult",
    "QuteRoundStartEvent",
    "QuteRun",
    "QuteSlot",
    "QuteView",
    "RefillEvent",
    "SkipEvent",
    "Suit",
    "SuitEvent",
]

QuteRank: TypeAlias = Literal["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
"""A rank of Qute's 36-card short deck."""
Suit: TypeAlias = Literal["C", "D", "H", "S"]
"""A suit letter."""


class QuteSlot(TypedDict):
    """One card of a Qute hand."""

    card: str | None
    """The card's code for its holder (and for everyone once the game is over), else
    ``null``."""


class QuteRun(TypedDict):
    """The run of equal ranks on top of the stack."""

    rank: QuteRank | None
    """Its rank; ``null`` while the stack is empty."""
    cards: list[str]
    """Its cards, bottom first."""


class QuteRoundResult(TypedDict):
    """One finished Qute round (an entry of ``round_results``)."""

    round: int
    """The round's number, from 1."""
    scores: list[int]
    """The round's score per seat."""
    hand_points: list[int]
    """Points left in hand per seat, before J points and multiplier."""
    jpoints: list[int]
    """J points per seat (``jpoints minus`` / ``plus``)."""
    multiplier: int
    """The round's multiplier (1 + refills)."""
    winners: list[int]
    """Seats that won the round."""
    finisher: int
    """The seat whose turn ended the round."""
    qute: bool
    """Whether the round ended with a qute."""
    hands: list[list[str]]
    """Every hand shown at the round's end."""
    totals: list[int]
    """Match totals after the round."""
    reset: list[int]
    """Seats whose total hit the target exactly and went back to 0."""


class QuteRoundStartEvent(TypedDict):
    """A Qute round is dealt."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["round_start"]
    """The event's kind."""
    round: int
    """The round's number, from 1."""
    first: int
    """The seat that plays first."""


class RefillEvent(TypedDict):
    """The stack (all but its top) was shuffled into a new blind."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["refill"]
    """The event's kind."""
    blind: int
    """Cards in the new blind."""
    refills: int
    """Refills this round."""


class QuteCallEvent(TypedDict):
    """A seat said qute (ending the round with a run of four)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["qute"]
    """The event's kind."""
    seat: int
    """The seat."""


class ContinueEvent(TypedDict):
    """A seat chose to play on after a run of four."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["continue"]
    """The event's kind."""
    seat: int
    """The seat."""


class SuitEvent(TypedDict):
    """A seat chose the suit for its J."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["suit"]
    """The event's kind."""
    seat: int
    """The seat."""
    suit: Suit
    """The suit chosen."""


class EightsEvent(TypedDict):
    """A seat chose how its 8s' draws are spread."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["eights"]
    """The event's kind."""
    seat: int
    """The seat."""
    mode: Literal["all", "next"]
    """``all``: over every other seat; ``next``: all to the next seat."""


class JPointsEvent(TypedDict):
    """A seat that finished on Js chose how they count."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["jpoints"]
    """The event's kind."""
    seat: int
    """The seat."""
    mode: Literal["minus", "plus"]
    """``minus``: off its own score; ``plus``: onto every other seat's."""


class PlayEvent(TypedDict):
    """A seat laid cards on the stack."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["play"]
    """The event's kind."""
    seat: int
    """The seat."""
    cards: list[str]
    """The cards laid, in order."""
    left: int
    """Cards left in the seat's hand."""


class DeadEndEvent(TypedDict):
    """A seat had to cover a 6 and could neither play nor draw: its turn ends the round."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["dead_end"]
    """The event's kind."""
    seat: int
    """The seat."""


class QuteDrawEvent(TypedDict):
    """A seat drew from the blind."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["draw"]
    """The event's kind."""
    seat: int
    """The drawing seat."""
    card: bool
    """Whether a card came (false: the blind and the stack below its top were empty)."""
    drawn: NotRequired[str]
    """The card's code, for the drawing seat only."""


QutePenaltyEvent = TypedDict(
    "QutePenaltyEvent",
    {
        "seq": int,
        "type": Literal["penalty"],
        "seat": int,
        "count": int,
        "for": Literal["7", "8"],
        "cards": NotRequired[list[str]],
    },
)
QutePenaltyEvent.__doc__ = """A seat drew ``count`` cards ``for`` a 7 or an 8; ``cards`` their
codes, for that seat only."""

SkipEvent = TypedDict(
    "SkipEvent",
    {
        "seq": int,
        "type": Literal["skip"],
        "seats": list[int],
        "for": Literal["8", "A"],
    },
)
SkipEvent.__doc__ = """Seats skipped ``for`` an 8 or an A, in order (a seat may repeat)."""


class MaxTurnsEvent(TypedDict):
    """The round reached its safety net of turns and ended."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["max_turns"]
    """The event's kind."""
    turns: int
    """Turns played."""


class QuteRoundEndEvent(TypedDict):
    """A Qute round ended: everything its :class:`QuteRoundResult` holds."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["round_end"]
    """The event's kind."""
    round: int
    """The round's number, from 1."""
    scores: list[int]
    """The round's score per seat."""
    hand_points: list[int]
    """Points left in hand per seat, before J points and multiplier."""
    jpoints: list[int]
    """J points per seat."""
    multiplier: int
    """The round's multiplier (1 + refills)."""
    winners: list[int]
    """Seats that won the round."""
    finisher: int
    """The seat whose turn ended the round."""
    qute: bool
    """Whether the round ended with a qute."""
    hands: list[list[str]]
    """Every hand shown at the round's end."""
    totals: list[int]
    """Match totals after the round."""
    reset: list[int]
    """Seats whose total hit the target exactly and went back to 0."""


QuteEvent: TypeAlias = Annotated[
    QuteRoundStartEvent
    | RefillEvent
    | TurnEvent
    | PlayEvent
    | QuteDrawEvent
    | QutePenaltyEvent
    | SkipEvent
    | QuteCallEvent
    | ContinueEvent
    | SuitEvent
    | EightsEvent
    | JPointsEvent
    | DeadEndEvent
    | MaxTurnsEvent
    | QuteRoundEndEvent
    | GameOverEvent,
    BY_TYPE,
]
"""Any Qute event, told apart by ``type``."""


class QuteView(TypedDict):
    """The view of a Qute game."""

    game: Literal["qute"]
    """Always ``qute``."""
    seat: int | None
    """The viewing seat; ``null`` for a spectator."""
    players: int
    """Number of seats."""
    phase: Literal["play", "cover", "decide", "over"]
    """What the table waits for (``cover``: a 6 on top must be covered)."""
    actors: list[int]
    """Seats that may act now (one at a time)."""
    turn: int
    """The seat whose turn it is."""
    first: int
    """The seat that played first this round."""
    hand: list[str] | None
    """The viewer's own hand; ``null`` for a spectator."""
    hands: list[list[QuteSlot]]
    """Every seat's hand (codes only for the holder, or for all once over)."""
    counts: list[int]
    """Cards in each seat's hand."""
    stack: list[str]
    """The stack, bottom first, top last."""
    top: str | None
    """The stack's top card; ``null`` while empty."""
    suit: Suit | None
    """The suit chosen for a J on top, else ``null``."""
    run: QuteRun
    """The run of equal ranks on top."""
    blind: int
    """Cards left in the blind."""
    refills: int
    """Refills this round."""
    multiplier: int
    """The round's multiplier so far (1 + refills)."""
    laid: list[str]
    """Cards laid this turn."""
    drawn: str | None
    """The card the viewer drew this turn, if it is the viewer's turn."""
    penalty_drawn: list[str]
    """Cards the viewer drew as a penalty in the last resolution."""
    penalty_counts: list[int]
    """Penalty cards each seat drew in the last resolution."""
    must_cover: bool
    """True while a 6 on top must be covered."""
    pending: Literal["qute", "suit", "eights", "jpoints"] | None
    """The decision the seat to act must make, or ``null``."""
    turns: int
    """Turns played this round."""
    max_turns: int
    """The round's safety net: it ends after this many turns."""
    totals: list[int]
    """Match totals per seat."""
    round: int
    """The round's number, from 1."""
    target: int | None
    """The match target; ``null`` for a single round."""
    round_results: list[QuteRoundResult]
    """Every finished round."""
    events: list[QuteEvent]
    """The most recent events, oldest first, as the viewer may see them."""
    over: bool
    """True once the game has ended."""
    result: GameResult | None
    """The result once over, else ``null``."""
    legal: list[str]
    """The viewer's legal actions in canonical text (empty for spectators)."""


TYPED_DICTS: tuple[type, ...] = (
    QuteSlot,
    QuteRun,
    QuteRoundResult,
    QuteRoundStartEvent,
    RefillEvent,
    QuteCallEvent,
    ContinueEvent,
    SuitEvent,
    EightsEvent,
    JPointsEvent,
    PlayEvent,
    DeadEndEvent,
    QuteDrawEvent,
    QutePenaltyEvent,
    SkipEvent,
    MaxTurnsEvent,
    QuteRoundEndEvent,
    QuteView,
)
"""Every TypedDict of this module (each passed to :func:`.common.forbid_extra`)."""
forbid_extra(*TYPED_DICTS)
