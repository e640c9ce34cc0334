"""Who chose each move, and the log of a room's current game.

An action is chosen by its seat's own player — a person, or an AI seat's own agent — unless the
server chose it for them: the **clock** (a person's turn clock ran out, or a timed window closed,
and the engine's ``timeout_action`` was played) or an AI **standing in** for a person who is
away. :class:`Chosen` is that choice as the store keeps it (``actions.chosen_by``,
``actions.stand_in``); :func:`by_label` makes it the ``by`` of the protocol (:class:`.By`), with
the name a person reads.

A :class:`MoveLog` keeps the current game's moves with their events, so that a connection that
joins (a refresh, a second tab) gets the whole game's log as it may read it now
(:meth:`MoveLog.read`), and counts per seat the moves the clock and the stand-ins chose
(:meth:`MoveLog.played_for`). It keeps the newest :data:`MAX_LOG_ENTRIES` entries: a round of
the Cabo family is bounded by its ``max_turns`` but a match is not, and one entry is about 100
to 400 bytes of JSON.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Literal

from ..game import Event
from ..store import ActionRow, RoomRow
from .protocol import By, LogEntry, PlayedFor, ai_seat_label

__all__ = ["CLOCK", "MAX_LOG_ENTRIES", "Chosen", "Move", "MoveLog", "by_label", "stand_in"]

MAX_LOG_ENTRIES = 300
"""Entries a room's log keeps (the newest; the deal is the first while it is among them)."""


@dataclass(frozen=True)
class Chosen:
    """Who chose an action instead of its seat's own player."""

    kind: Literal["clock", "stand_in"]
    """``clock`` or ``stand_in``."""
    level: str | None = None
    """The AI level of a stand-in (``None`` for the clock)."""

    @staticmethod
    def of(row: ActionRow) -> Chosen | None:
        """Who chose a stored action (``None``: its seat's own player)."""
        if row.chosen_by == "clock":
            return CLOCK
        if row.chosen_by == "stand_in":
            return stand_in(row.stand_in or "casual")
        return None


CLOCK = Chosen("clock")
"""The time ran out: the server played the engine's timeout move."""


def stand_in(level: str) -> Chosen:
    """An AI of ``level`` standing in for a person who is away."""
    return Chosen("stand_in", level)


def seat_name(row: RoomRow, seat: int) -> str:
    """The name a seat goes by: its display name, else ``Player N``."""
    return row.seats[seat].name or f"Player {seat + 1}"


def by_label(chosen: Chosen | None, seat: int, row: RoomRow) -> By | None:
    """The protocol's ``by`` of an action ``seat`` played in the room ``row``: ``None`` when
    its own player chose it; for the clock the seat's name, for a stand-in the AI's label."""
    if chosen is None:
        return None
    if chosen.kind == "clock":
        return {"seat": seat, "kind": "clock", "name": seat_name(row, seat)}
    return {"seat": seat, "kind": "stand_in", "name": ai_seat_label(chosen.level or "casual")}


@dataclass(frozen=True)
class Move:
    """One entry of the log: an accepted action (or the deal: ``seat`` ``None``)."""

    version: int
    """The room's version right after it."""
    seat: int | None
    """The seat that played it (``None``: the deal)."""
    by: By | None
    """Who chose it, when not the seat's own player."""
    events: tuple[Event, ...]
    """The events it caused, each with its audience."""


class MoveLog:
    """The current game's moves (the newest ``limit``) and, per seat, how many of them the clock
    and the stand-ins chose."""

    def __init__(self, limit: int = MAX_LOG_ENTRIES) -> None:
        if limit < 1:
            raise ValueError("a log keeps at least one entry")
        self.limit = limit
        """Most entries kept."""
        self.entries: deque[Move] = deque(maxlen=limit)
        """The newest entries, oldest first."""
        self._counts: dict[int, PlayedFor] = {}

    def reset(self, version: int, opening: list[Event]) -> None:
        """A new game was dealt (the room is at ``version``): its deal is the only entry."""
        self.entries.clear()
        self._counts = {}
        self.entries.append(Move(version, None, None, tuple(opening)))

    def add(self, version: int, seat: int, by: By | None, events: list[Event]) -> None:
        """Record an accepted action of ``seat`` and its events (the room is at ``version``)."""
        self.entries.append(Move(version, seat, by, tuple(events)))
        if by is not None:
            counts = self._counts.setdefault(seat, {"clock": 0, "stand_in": 0})
            counts[by["kind"]] += 1

    def played_for(self, seat: int) -> PlayedFor:
        """How many of ``seat``'s actions in this game the clock and the stand-ins chose."""
        counts = self._counts.get(seat)
        if counts is None:
            return {"clock": 0, "stand_in": 0}
        return {"clock": counts["clock"], "stand_in": counts["stand_in"]}

    def read(self, bit: int) -> list[LogEntry]:
        """The entries as the holder of ``bit`` may read them: ``0`` for the public parts only
        (a seat without memory aid, a spectator), ``1 << seat`` for everything that seat saw."""
        return [
            {
                "version": m.version,
                "seat": m.seat,
                "by": m.by,
                "events": [e.visible(bit) for e in m.events],
            }
            for m in self.entries
        ]
