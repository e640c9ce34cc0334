"""The view's type: what ``Game.view(seat)`` and ``Game.spectator_view()`` return.

Every front end (browser, terminal, adapters, agents) reads the view and nothing else, so its
shape is a contract. This package states it as :class:`typing.TypedDict` definitions: one for the
Cabo family (:class:`FamilyView`, every variant the family engine plays) and one for Qute
(:class:`QuteView`), with the card slots, pending decisions, snap window, round results, result
and every event type they carry. No key beyond those listed appears; a key marked
``NotRequired`` is present only in the cases its documentation names (chiefly the card codes of
an event, present only for the seats allowed to see them and only with memory aid).

The types live in :mod:`.common` (what both games share), :mod:`.family` and :mod:`.qute`;
:mod:`.schema` joins them into :data:`View` and :data:`Event`. Everything is re-exported here:
import from ``cardtable.views``.

Card codes (``"QS"``, ``"10H"``, ``"0"`` …) and positions (``"seat.position"``, as in the action
notation) are plain strings here.

:func:`view_schema` exports the JSON Schema (``python -m cardtable.views > docs/view.schema.json``
regenerates the checked-in copy) and :func:`validate_view` checks a view against it. Both need
pydantic, imported only when they are called: the types themselves cost nothing at import.
"""

from __future__ import annotations

from .common import TYPED_DICTS as _COMMON
from .common import (
    GameOverEvent,
    GameResult,
    TurnEvent,
    ViewTail,
)
from .family import TYPED_DICTS as _FAMILY
from .family import (
    CallEvent,
    ClaimEvent,
    DiscardEvent,
    DropEvent,
    ExchangeEvent,
    FamilyDrawEvent,
    FamilyEvent,
    FamilyPenaltyEvent,
    FamilyRoundEndEvent,
    FamilyRoundResult,
    FamilyRoundStartEvent,
    FamilySlot,
    FamilyView,
    GiveEvent,
    GivePending,
    LookEvent,
    LookPending,
    PassEvent,
    PeekEvent,
    Pending,
    PowerName,
    PowerPending,
    ReplaceEvent,
    ReshuffleEvent,
    ScoreAdjustment,
    SnapEvent,
    SnapOpenEvent,
    SnapWindow,
    SpyEvent,
)
from .qute import TYPED_DICTS as _QUTE
from .qute import (
    ContinueEvent,
    DeadEndEvent,
    EightsEvent,
    JPointsEvent,
    MaxTurnsEvent,
    PlayEvent,
    QuteCallEvent,
    QuteDrawEvent,
    QuteEvent,
    QutePenaltyEvent,
    QuteRank,
    QuteRoundEndEvent,
    QuteRoundResult,
    QuteRoundStartEvent,
    QuteRun,
    QuteSlot,
    QuteView,
    RefillEvent,
    SkipEvent,
    Suit,
    SuitEvent,
)
from .schema import (
    Event,
    View,
    is_family_view,
    is_qute_view,
    main,
    validate_event,
    validate_view,
    view_schema,
)

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
    "PowerName",
    "PowerPending",
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
    "ReplaceEvent",
    "ReshuffleEvent",
    "ScoreAdjustment",
    "SkipEvent",
    "SnapEvent",
    "SnapOpenEvent",
    "SnapWindow",
    "SpyEvent",
    "Suit",
    "SuitEvent",
    "TurnEvent",
    "View",
    "ViewTail",
    "is_family_view",
    "is_qute_view",
    "main",
    "validate_event",
    "validate_view",
    "view_schema",
]

TYPED_DICTS = _COMMON + _FAMILY + _QUTE
"""Every TypedDict of the package (each configured for pydantic where it is defined)."""
