"""The view's type: what ``Game.view(seat)`` and ``Game.spectator_view()`` return.

Every front end (browser, terminal, adapters, agents) reads the view and nothing else, so its
shape is a contract. This module states it as :class:`typing.TypedDict` definitions: one for the
Cabo family (:class:`FamilyView`, every variant the family engine plays) and one for Qute
(:class:`QuteView`), with the card slots, pending decisions, snap window, round results, result
and every event type they carry. No key beyond those listed appears; a key marked
``NotRequired`` is present only in the cases its documentation names (chiefly the card codes of
an event, present only for the seats allowed to see them and only with memory aid).

Card codes (``"QS"``, ``"10H"``, ``"0"`` …) and positions (``"seat.position"``, as in the action
notation) are plain strings here.

:func:`view_schema` exports the JSON Schema (``python -m cardtable.views > docs/view.schema.json``
regenerates the checked-in copy) and :func:`validate_view` checks a view against it. Both need
pydantic, imported only when they are called: the types themselves cost nothing at import.
"""

from __future__ import annotations

import sys
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, TypeAlias

if sys.version_info >= (3, 12):
    from typing import TypedDict
else:  # pydantic accepts only typing_extensions' TypedDict before Python 3.12
    from typing_extensions import TypedDict

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, TypeAdapter
    from pydantic_core import CoreSchema

__all__ = [
    "CallEvent",
    "ClaimEvent",
    "ContinueEvent",
    "DeadEndEvent",
    "DiscardEvent",
    "DropEvent",
    "EightsEvent",
    "Event",
    "ExchangeEvent",
    "FamilyDrawEvent",
    "FamilyEvent",
    "FamilyPenaltyEvent",
    "FamilyRoundEndEvent",
    "FamilyRoundResult",
    "FamilyRoundStartEvent",
    "FamilySlot",
    "FamilyView",
    "GameOverEvent",
    "GameResult",
    "GiveEvent",
    "GivePending",
    "JPointsEvent",
    "LookEvent",
    "LookPending",
    "MaxTurnsEvent",
    "PassEvent",
    "PeekEvent",
    "Pending",
    "PlayEvent",
    "PowerPending",
    "QuteCallEvent",
    "QuteDrawEvent",
    "QuteEvent",
    "QutePenaltyEvent",
    "QuteRoundEndEvent",
    "QuteRoundResult",
    "QuteRoundStartEvent",
    "QuteRun",
    "QuteSlot",
    "QuteView",
    "RefillEvent",
    "ReplaceEvent",
    "ReshuffleEvent",
    "SkipEvent",
    "SnapEvent",
    "SnapOpenEvent",
    "SnapWindow",
    "SpyEvent",
    "SuitEvent",
    "TurnEvent",
    "View",
    "ViewTail",
    "main",
    "validate_event",
    "validate_view",
    "view_schema",
]

PowerName: TypeAlias = Literal["peek", "spy", "exchange", "look"]
"""A Cabo-family power, as named in views and events."""
QuteRank: TypeAlias = Literal["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
"""A rank of Qute's 36-card short deck."""
Suit: TypeAlias = Literal["C", "D", "H", "S"]
"""A suit letter."""


class _ByType:
    """Marks a union of events as told apart by their ``type`` key.

    pydantic (when a schema or validator is built) then picks the member by its tag instead of
    trying each: one check per event rather than twenty, and a ``discriminator`` in the JSON
    Schema. The marker itself needs no pydantic at import time.
    """

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic import Discriminator

        return handler(Annotated[source, Discriminator("type")])


_BY_TYPE = _ByType()


# ==================================================================== shared parts
class GameResult(TypedDict):
    """The outcome of a finished game (``result`` once ``over``; the ``game_over`` event)."""

    rounds: list[list[int]]
    """Round scores, one list per round, indexed by seat."""
    totals: list[int]
    """Match totals after the last round, indexed by seat."""
    winners: list[int]
    """Seats that won the game (several when tied)."""
    round_winners: list[list[int]]
    """Winners of each round."""


class TurnEvent(TypedDict):
    """A seat's turn begins (both games)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["turn"]
    """The event's kind."""
    seat: int
    """The seat whose turn it is."""


class GameOverEvent(TypedDict):
    """The game (the whole match) has ended: its result (both games)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["game_over"]
    """The event's kind."""
    rounds: list[list[int]]
    """Round scores, one list per round, indexed by seat."""
    totals: list[int]
    """Match totals after the last round, indexed by seat."""
    winners: list[int]
    """Seats that won the game (several when tied)."""
    round_winners: list[list[int]]
    """Winners of each round."""


# ==================================================================== the Cabo family
class FamilySlot(TypedDict):
    """One occupied position of a Cabo-family hand (an empty position is ``null``)."""

    card: str | None
    """The card's code if the viewer knows it (without memory aid: only if it is face up or
    in gabo's initial peek until the seat's first draw), else ``null``."""
    seen: list[int]
    """The seats that know the card, in seat order."""


class PowerPending(TypedDict):
    """A power card was discarded and its power waits to be used (phase ``power``)."""

    power: PowerName
    """The power to use."""
    card: str
    """The code of the discarded power card."""
    any: NotRequired[Literal[True]]
    """Present (and true) only for gabo's exchange, which may swap any two cards."""


class LookPending(TypedDict):
    """The look power showed two cards; the seat now exchanges them or not (phase ``look``)."""

    power: Literal["look"]
    """Always ``look``."""
    card: str
    """The code of the discarded power card."""
    looked: list[str]
    """The two positions looked at (own first)."""
    can_exchange: bool
    """False once a drop or give has moved one of the looked-at cards."""


class GivePending(TypedDict):
    """cabo-german: after dropping another seat's card, the dropper gives one of its own
    cards into the gap, or passes (phase ``give``)."""

    give: str
    """The position to fill."""


Pending: TypeAlias = PowerPending | LookPending | GivePending
"""A Cabo-family decision in progress (the view's ``pending``)."""


class SnapWindow(TypedDict):
    """gabo: the window after a card lands on the pile, when any seat may snap a match."""

    card: str
    """The code of the card that opened the window."""
    rank: str
    """The rank a snapped card must match."""
    passed: list[int]
    """Seats that have passed (or snapped wrongly) in this window."""


class FamilyRoundResult(TypedDict):
    """One finished Cabo-family round (an entry of ``round_results``)."""

    round: int
    """The round's number, from 1."""
    scores: list[int]
    """The round's score per seat."""
    sums: list[int]
    """Hand sums per seat, before the caller's rule."""
    winners: list[int]
    """Seats that won the round."""
    caller: int | None
    """The seat that called, or ``null``."""
    hands: list[list[str | None]]
    """Every hand shown at the round's end (``null``: an empty position)."""
    totals: list[int]
    """Match totals after the round."""


class FamilyRoundStartEvent(TypedDict):
    """A round is dealt."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["round_start"]
    """The event's kind."""
    round: int
    """The round's number, from 1."""
    first: int
    """The seat that plays first."""
    discard: NotRequired[list[str]]
    """The starting discard pile (with memory aid only)."""


class PeekEvent(TypedDict):
    """A seat looked at one of its own cards (initial peek or the peek power)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["peek"]
    """The event's kind."""
    seat: int
    """The seat that peeked."""
    at: str
    """The position peeked at."""
    card: NotRequired[str]
    """The card seen (for the peeking seat, with memory aid)."""


FamilyDrawEvent = TypedDict(
    "FamilyDrawEvent",
    {
        "seq": int,
        "type": Literal["draw"],
        "from": Literal["deck", "discard"],
        "seat": int,
        "card": NotRequired[str],
    },
)
FamilyDrawEvent.__doc__ = """A seat drew a card: ``from`` the deck or the discard pile; ``card``
its code, for the seats allowed to see it, with memory aid."""


class ReshuffleEvent(TypedDict):
    """The discard pile (all but its top) became the new deck."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["reshuffle"]
    """The event's kind."""
    deck: int
    """Cards in the new deck."""


class ReplaceEvent(TypedDict):
    """A seat put the drawn card in its hand; the replaced card went to the pile."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["replace"]
    """The event's kind."""
    seat: int
    """The seat that replaced."""
    at: list[str]
    """The position replaced (one)."""
    out: NotRequired[list[str]]
    """The code of the card put on the pile (with memory aid)."""


class ClaimEvent(TypedDict):
    """cabo: a seat claimed several of its cards have one value, to replace them all."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["claim"]
    """The event's kind."""
    seat: int
    """The claiming seat."""
    at: list[str]
    """The positions claimed."""
    ok: bool
    """Whether the claim held."""
    new: NotRequired[str]
    """Present only when the claim failed: the position where the drawn card went."""
    out: NotRequired[list[str]]
    """Claim held, with memory aid: the cards put on the pile."""
    shown: NotRequired[list[str]]
    """Claim failed, with memory aid: the cards shown, now face down again."""


class DiscardEvent(TypedDict):
    """A seat discarded the drawn card."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["discard"]
    """The event's kind."""
    seat: int
    """The discarding seat."""
    power: PowerName | None
    """The power the card gives, or ``null``."""
    card: NotRequired[str]
    """The card's code (with memory aid)."""


class SnapOpenEvent(TypedDict):
    """gabo: a snap window opened."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["snap_open"]
    """The event's kind."""
    card: NotRequired[str]
    """The card that opened it (with memory aid)."""


class SpyEvent(TypedDict):
    """A seat looked at another seat's card (the spy power)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["spy"]
    """The event's kind."""
    seat: int
    """The spying seat."""
    at: str
    """The position spied on."""
    card: NotRequired[str]
    """The card seen (for the spying seat, with memory aid)."""


class ExchangeEvent(TypedDict):
    """Two cards were swapped unseen (exchange power, or the look power's exchange)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["exchange"]
    """The event's kind."""
    seat: int
    """The seat that exchanged."""
    at: list[str]
    """The two positions swapped."""


class LookEvent(TypedDict):
    """A seat looked at one own card and one other card (the look power)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["look"]
    """The event's kind."""
    seat: int
    """The looking seat."""
    at: list[str]
    """The two positions looked at (own first)."""
    cards: NotRequired[list[str]]
    """The two cards seen (for the looking seat, with memory aid)."""


class PassEvent(TypedDict):
    """A seat passed (a power, a give, or a snap window)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["pass"]
    """The event's kind."""
    seat: int
    """The passing seat."""


class CallEvent(TypedDict):
    """A seat called the end of the round."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["call"]
    """The event's kind."""
    seat: int
    """The calling seat."""
    word: str
    """The variant's call word (``cabo``, ``gabo``, ``knock`` …: a rule set's data)."""


class FamilyPenaltyEvent(TypedDict):
    """A seat took a penalty card (a wrong drop or snap)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["penalty"]
    """The event's kind."""
    seat: int
    """The penalised seat."""
    at: str | None
    """Where the card went; ``null`` if the deck had none left."""


class SnapEvent(TypedDict):
    """gabo: a seat snapped a card onto the pile during a snap window."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["snap"]
    """The event's kind."""
    seat: int
    """The snapping seat."""
    at: str
    """The position the card came from (any seat's)."""
    ok: bool
    """Whether it matched the window's rank (a wrong snap costs two penalty cards)."""
    card: NotRequired[str]
    """The snapped card (with memory aid)."""


class DropEvent(TypedDict):
    """cabo-german: a seat dropped a card matching the pile's top, or tried to."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["drop"]
    """The event's kind."""
    seat: int
    """The dropping seat."""
    at: str
    """The position the card came from (any seat's)."""
    ok: bool
    """Whether it matched (a wrong drop is shown, put back and costs a penalty card)."""
    card: NotRequired[str]
    """The card (with memory aid)."""


GiveEvent = TypedDict(
    "GiveEvent",
    {
        "seq": int,
        "type": Literal["give"],
        "seat": int,
        "from": str,
        "to": str,
    },
)
GiveEvent.__doc__ = """cabo-german: after dropping another seat's card, a seat gave one of its
own cards (position ``from``) into the gap (position ``to``)."""


class FamilyRoundEndEvent(TypedDict):
    """A round ended: everything its :class:`FamilyRoundResult` holds."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["round_end"]
    """The event's kind."""
    round: int
    """The round's number, from 1."""
    scores: list[int]
    """The round's score per seat."""
    sums: list[int]
    """Hand sums per seat, before the caller's rule."""
    winners: list[int]
    """Seats that won the round."""
    caller: int | None
    """The seat that called, or ``null``."""
    hands: list[list[str | None]]
    """Every hand shown at the round's end (``null``: an empty position)."""
    totals: list[int]
    """Match totals after the round."""


FamilyEvent: TypeAlias = Annotated[
    FamilyRoundStartEvent
    | PeekEvent
    | TurnEvent
    | FamilyDrawEvent
    | ReshuffleEvent
    | ReplaceEvent
    | ClaimEvent
    | DiscardEvent
    | SnapOpenEvent
    | SpyEvent
    | ExchangeEvent
    | LookEvent
    | PassEvent
    | CallEvent
    | FamilyPenaltyEvent
    | SnapEvent
    | DropEvent
    | GiveEvent
    | FamilyRoundEndEvent
    | GameOverEvent,
    _BY_TYPE,
]
"""Any Cabo-family event, told apart by ``type``."""


class FamilyView(TypedDict):
    """The view of a Cabo-family game (cabo, cabo-german, gabo, kaboo)."""

    game: str
    """The variant's registry name (any registered Cabo-family variant; never ``qute``)."""
    seat: int | None
    """The viewing seat; ``null`` for a spectator."""
    players: int
    """Number of seats."""
    phase: Literal["peek", "turn", "drawn", "power", "look", "give", "snap", "over"]
    """What the table waits for."""
    actors: list[int]
    """Seats that may act now."""
    turn: int
    """The seat whose turn it is."""
    first: int
    """The seat that played first this round."""
    hands: list[list[FamilySlot | None]]
    """Every seat's hand, position by position (``null``: an empty position)."""
    discard: list[str]
    """The discard pile, bottom first, top last."""
    deck: int
    """Cards left in the deck."""
    reshuffles: int
    """Times the pile was reshuffled into the deck this round."""
    drawn: str | None
    """The card in hand, when the viewer may see it."""
    drawer: int | None
    """The seat holding a drawn card, or ``null``."""
    drawn_from: Literal["deck", "discard"] | None
    """Where the card in hand came from, or ``null``."""
    call: str
    """The variant's call word (``cabo``, ``gabo``, ``knock`` …: a rule set's data)."""
    caller: int | None
    """The seat that called this round, or ``null``."""
    final_turns_left: int | None
    """Turns left after a call, or ``null`` before one."""
    pending: Pending | None
    """The decision in progress (power, look, give), or ``null``."""
    snap: SnapWindow | None
    """gabo's open snap window, or ``null``."""
    peeks_left: list[int] | None
    """Initial peeks left per seat during phase ``peek``, else ``null``."""
    turns: int
    """Turns played this round."""
    max_turns: int
    """The round's safety net: it ends after this many turns."""
    target_rule: Literal["reaches", "exceeds"]
    """Whether the match ends when a total reaches or exceeds the target."""
    totals: list[int]
    """Match totals per seat."""
    round: int
    """The round's number, from 1."""
    target: int | None
    """The match target; ``null`` for a single round."""
    round_results: list[FamilyRoundResult]
    """Every finished round."""
    events: list[FamilyEvent]
    """The most recent events, oldest first, as the viewer may see them."""
    over: bool
    """True once the game has ended."""
    result: GameResult | None
    """The result once over, else ``null``."""
    legal: list[str]
    """The viewer's legal actions in canonical text (empty for spectators)."""


# ==================================================================== Qute
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
    _BY_TYPE,
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


class _ByGame:
    """Marks the union of views as told apart by ``game`` (``qute`` or a family variant)."""

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic import Discriminator, Tag

        def game(view: Any) -> str | None:
            if not isinstance(view, dict):
                return None
            return "qute" if view.get("game") == "qute" else "family"

        family = Annotated[FamilyView, Tag("family")]
        qute = Annotated[QuteView, Tag("qute")]
        return handler(Annotated[family | qute, Discriminator(game)])


class ViewTail(TypedDict):
    """The fields every game's view ends with (``Game._view_tail``); each game's view narrows
    ``round_results`` and ``events`` to its own types."""

    totals: list[int]
    """Match totals per seat."""
    round: int
    """The round's number, from 1."""
    target: int | None
    """The match target; ``null`` for a single round."""
    round_results: list[Any]
    """Every finished round."""
    events: list[Any]
    """The most recent events, oldest first, as the viewer may see them."""
    over: bool
    """True once the game has ended."""
    result: GameResult | None
    """The result once over, else ``null``."""
    legal: list[str]
    """The viewer's legal actions in canonical text (empty for spectators)."""


View: TypeAlias = Annotated[FamilyView | QuteView, _ByGame()]
"""What ``Game.view`` and ``Game.spectator_view`` return."""

Event: TypeAlias = FamilyEvent | QuteEvent
"""Any event as a seat sees it (``Event.for_seat``, ``Game.history``, a view's ``events``)."""

_TYPED_DICTS: tuple[Any, ...] = (
    GameResult,
    TurnEvent,
    GameOverEvent,
    FamilySlot,
    PowerPending,
    LookPending,
    GivePending,
    SnapWindow,
    FamilyRoundResult,
    FamilyRoundStartEvent,
    PeekEvent,
    FamilyDrawEvent,
    ReshuffleEvent,
    ReplaceEvent,
    ClaimEvent,
    DiscardEvent,
    SnapOpenEvent,
    SpyEvent,
    ExchangeEvent,
    LookEvent,
    PassEvent,
    CallEvent,
    FamilyPenaltyEvent,
    SnapEvent,
    DropEvent,
    GiveEvent,
    FamilyRoundEndEvent,
    FamilyView,
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
    ViewTail,
)

# pydantic's configuration, read from each TypedDict when a schema or validator is built: no
# key beyond those declared, and each field's docstring becomes its description. (A plain dict
# is what pydantic's ConfigDict is at run time; setting it here keeps pydantic unimported.)
for _td in _TYPED_DICTS:
    _td.__pydantic_config__ = {"extra": "forbid", "use_attribute_docstrings": True}


@cache
def _adapter() -> TypeAdapter[View]:
    from pydantic import TypeAdapter

    return TypeAdapter(View)


def view_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a view of either game, as pydantic generates it
    from :data:`View`."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "View",
        "description": "What Game.view(seat) and Game.spectator_view() return (cardtable).",
        **_adapter().json_schema(),
    }


def validate_view(view: Any) -> None:
    """Check that ``view`` has exactly the shape of :data:`View`.

    Strict: no key beyond those declared, none missing, no value of another type (no ``True``
    for an int, no tuple for a list). Raises :class:`pydantic.ValidationError` on a mismatch.
    """
    _adapter().validate_python(view, strict=True)


@cache
def _event_adapter() -> TypeAdapter[Event]:
    from pydantic import TypeAdapter

    return TypeAdapter(Event)


def validate_event(event: Any) -> None:
    """Check that ``event`` (as a seat sees it: ``Event.for_seat``, ``Game.history``) has
    exactly the shape of one of the :data:`Event` types, strictly as :func:`validate_view`.
    Raises :class:`pydantic.ValidationError` on a mismatch."""
    _event_adapter().validate_python(event, strict=True)


def main() -> None:
    """Print the JSON Schema (``python -m cardtable.views > docs/view.schema.json``)."""
    import json

    print(json.dumps(view_schema(), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
