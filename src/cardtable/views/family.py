"""The view of a Cabo-family game (cabo, cabo-german, gabo, kaboo: every variant the family
engine plays): :class:`FamilyView`, its card slots, pending decisions, snap window, round results
and every event it carries."""

from __future__ import annotations

import sys
from typing import Annotated, Literal, NotRequired, TypeAlias, final

if sys.version_info >= (3, 12):
    from typing import TypedDict
else:  # pydantic accepts only typing_extensions' TypedDict before Python 3.12
    from typing_extensions import TypedDict

from .common import BY_TYPE, GameOverEvent, GameResult, TurnEvent, forbid_extra

__all__ = [
    "CallEvent",
    "ClaimEvent",
    "DiscardEvent",
    "DropEvent",
    "ExchangeEvent",
    "FamilyDrawEvent",
    "FamilyEvent",
    "FamilyPenaltyEvent",
    "FamilyRoundEndEvent",
    "FamilyRoundResult",
    "FamilyRoundStartEvent",
    "FamilySlot",
    "FamilyView",
    "GiveEvent",
    "GivePending",
    "LookEvent",
    "LookPending",
    "PassEvent",
    "PeekEvent",
    "Pending",
    "PowerName",
    "PowerPending",
    "ReplaceEvent",
    "ReshuffleEvent",
    "ScoreAdjustment",
    "SnapEvent",
    "SnapOpenEvent",
    "SnapWindow",
    "SpyEvent",
]

PowerName: TypeAlias = Literal["peek", "spy", "exchange", "look"]
"""A Cabo-family power, as named in views and events."""


class FamilySlot(TypedDict):
    """One occupied position of a Cabo-family hand (an empty position is ``null``)."""

    card: str | None
    """The card's code if the viewer knows it (without memory aid: only if it is face up or
    in gabo's initial peek until the seat's first draw), else ``null``."""
    seen: list[int]
    """The seats that know the card, in seat order."""
    face_up: NotRequired[Literal[True]]
    """Present (and true) only on a card lying face up in the hand (cabo: one taken from the
    discard pile, or shown by a failed claim); every view shows its code."""


@final  # a pending decision is exactly one of the three: `in` tells them apart
class PowerPending(TypedDict):
    """A power card was discarded and its power waits to be used (phase ``power``)."""

    power: PowerName
    """The power to use."""
    card: str
    """The code of the discarded power card."""
    any: NotRequired[Literal[True]]
    """Present (and true) only for gabo's exchange, which may swap any two cards."""


@final  # a pending decision is exactly one of the three: `in` tells them apart
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


@final  # a pending decision is exactly one of the three: `in` tells them apart
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


class ScoreAdjustment(TypedDict):
    """One step from a hand's sum to its round score, and why."""

    reason: Literal["caller_lowest", "caller_penalty", "kamikaze", "kamikaze_victim", "rule"]
    """``caller_lowest``: the caller had the lowest sum (ties included) and scores 0;
    ``caller_penalty``: the call was lost (cabo: not lowest; gabo: beaten or above 5);
    ``kamikaze``: cabo's 12, 12, 13, 13 scores 0; ``kamikaze_victim``: everyone else then scores
    50; ``rule``: a scoring rule that names no reason."""
    points: int
    """What the step adds (negative: takes away)."""


class FamilyRoundResult(TypedDict):
    """One finished Cabo-family round (an entry of ``round_results``)."""

    round: int
    """The round's number, from 1."""
    scores: list[int]
    """The round's score per seat."""
    sums: list[int]
    """Hand sums per seat, before the caller's rule."""
    adjustments: list[list[ScoreAdjustment]]
    """Per seat, the steps from its sum to its score, in order (empty: the score is the sum)."""
    winners: list[int]
    """Seats that won the round."""
    caller: int | None
    """The seat that called, or ``null``."""
    hands: list[list[str | None]]
    """Every hand shown at the round's end (``null``: an empty position)."""
    totals: list[int]
    """Match totals after the round."""
    reset: list[int]
    """Seats whose total hit the target exactly and was halved (cabo's
    ``reset_at_exact_target``)."""


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
    discard: list[str]
    """The starting discard pile (public: face up)."""


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
its code where it is public (always from the discard pile; from the deck in cabo-german, whose
drawn card lies face up), else for the drawer only (with memory aid, or at that moment)."""


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
    out: list[str]
    """The code of the card put on the pile (public)."""
    card: NotRequired[str]
    """The card put in the hand, when the whole table knows it (taken from the discard pile,
    or drawn face up)."""


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
    """Claim held: the cards put on the pile (public)."""
    card: NotRequired[str]
    """The card put in the hand, when the whole table knows it (taken from the discard pile,
    or drawn face up)."""
    shown: NotRequired[list[str]]
    """Claim failed: the cards shown to everyone (public; they now lie face up in the hand)."""


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
    card: str
    """The card's code (public)."""


class SnapOpenEvent(TypedDict):
    """gabo: a snap window opened."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["snap_open"]
    """The event's kind."""
    card: str
    """The card that opened it (public)."""


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
    card: str
    """The snapped card (public: it lands on the pile, right or wrong)."""


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
    card: str
    """The card (public: shown to everyone, right or wrong)."""


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
    adjustments: list[list[ScoreAdjustment]]
    """Per seat, the steps from its sum to its score, in order (empty: the score is the sum)."""
    winners: list[int]
    """Seats that won the round."""
    caller: int | None
    """The seat that called, or ``null``."""
    hands: list[list[str | None]]
    """Every hand shown at the round's end (``null``: an empty position)."""
    totals: list[int]
    """Match totals after the round."""
    reset: list[int]
    """Seats whose total hit the target exactly and was halved (cabo's
    ``reset_at_exact_target``)."""


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
    BY_TYPE,
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


TYPED_DICTS: tuple[type, ...] = (
    FamilySlot,
    PowerPending,
    LookPending,
    GivePending,
    SnapWindow,
    ScoreAdjustment,
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
)
"""Every TypedDict of this module (each passed to :func:`.common.forbid_extra`)."""
forbid_extra(*TYPED_DICTS)
