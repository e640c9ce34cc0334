"""The rooms quick play opens: their ids, their wait for people, and the seats AI players fill.

A room opened by quick play (:func:`is_quickplay`, :mod:`.quickplay` finds or opens one) waits
``quickplay_wait`` seconds from its creation for people (:func:`fill_in`); then AI players of
:data:`QUICKPLAY_LEVEL` take its open seats and the game starts — as soon as one of its people is
connected (a room nobody is at waits for its next visitor; its table runs the wait,
:mod:`.table`). Such a seat is stored as a person's seat taken under the mark :data:`AI_FILLED`,
which :func:`restore_ai_fill` turns back into an AI seat when the room is read from the store.
"""

from __future__ import annotations

from ..store import RoomRow
from .room import Room

__all__ = [
    "AI_FILLED",
    "QUICKPLAY_LEVEL",
    "QUICKPLAY_PLAYERS",
    "QUICKPLAY_PREFIX",
    "fill_in",
    "is_quickplay",
    "restore_ai_fill",
]

QUICKPLAY_PREFIX = "qp-"
"""How the id of a room opened by quick play begins (``qp-`` and 8 characters; the ids of other
rooms have 8 characters in all), so the store keeps which rooms quick play opened."""

QUICKPLAY_PLAYERS = 4
"""Seats of a room opened by quick play (brought within the game's player range)."""

QUICKPLAY_LEVEL = "casual"
"""The AI level that fills the open seats of a quick-play room (the lobby form's default)."""

AI_FILLED = "ai-filled:"
"""The mark stored in place of a token digest (which is 64 hex digits, so no token can match it)
for a person's seat an AI took when a quick-play room's wait ran out; the level follows it."""


def is_quickplay(room_id: str) -> bool:
    """Whether the room ``room_id`` was opened by quick play."""
    return room_id.startswith(QUICKPLAY_PREFIX) and len(room_id) == len(QUICKPLAY_PREFIX) + 8


def restore_ai_fill(row: RoomRow) -> RoomRow:
    """``row`` as read from the store, with each seat an AI took at the end of a quick-play wait
    (stored as a person's seat under :data:`AI_FILLED`) an AI seat again."""
    for seat in row.seats:
        mark = seat.token_hash or ""
        if seat.type == "human" and mark.startswith(AI_FILLED):
            seat.type, seat.level = "ai", mark[len(AI_FILLED) :] or QUICKPLAY_LEVEL
            seat.token_hash, seat.memory_aid = None, False
    return row


def fill_in(room: Room, wait: float, now: float) -> float | None:
    """Seconds until AI players take the open seats of ``room`` at wall time ``now``, for a wait
    of ``wait`` seconds from its creation (0: as soon as one of its people is connected);
    ``None`` unless it is a quick-play room still waiting for people."""
    if not is_quickplay(room.id) or room.game is not None or room.refusal is not None:
        return None
    if not room.free_seats():
        return None
    return round(max(0.0, room.row.created + wait - now), 2)
