"""Rematches offered, not imposed.

Once a room's game is over, a person at the table may offer the next game (``rematch``); the
offer counts as the offerer's accept, and every AI seat accepts at once. Each other person
answers (``rematch`` with ``accept``); the next game is dealt when every person's seat has
accepted — at once, where the offerer is the only person at the table. A decline ends the offer
for everyone: it stays in the room (``declined`` not empty) so that every connection can say
who declined, until someone offers again or the next game starts. Offers live in the room's
memory only (like the chat): a restarted server, or a room paused and rebuilt, has none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..catalog import say
from ..game import Game
from ..store import RoomRow
from .protocol import MsgId, ProtocolError, RematchOffer

__all__ = ["Offer", "RematchRoom", "answer"]


@dataclass
class Offer:
    """A rematch offered in a room."""

    by: int
    """The seat that offered it."""
    accepted: set[int] = field(default_factory=set)
    """Seats that accepted (the offerer and every AI seat among them)."""
    declined: set[int] = field(default_factory=set)
    """Seats that declined: one is enough to end the offer."""

    @property
    def open(self) -> bool:
        """Whether the offer may still be answered (nobody declined)."""
        return not self.declined

    def to_json(self) -> RematchOffer:
        """The offer as the protocol sends it (seats in order)."""
        return {
            "by": self.by,
            "accepted": sorted(self.accepted),
            "declined": sorted(self.declined),
        }


class RematchRoom(Protocol):
    """A room, as a rematch sees it: its seats, its game, and the offer open."""

    @property
    def row(self) -> RoomRow:
        """The room's seats."""

    @property
    def game(self) -> Game | None:
        """The game being played or just over."""

    rematch: Offer | None
    """The rematch offered, if any."""


def answer(room: RematchRoom, seat: int, accept: bool | None, msg_id: MsgId = None) -> bool:
    """Apply the ``rematch`` message of ``seat`` (a person's seat) to ``room``, whose lock is
    held: without ``accept`` an offer (or the accept of the offer open), else an answer to the
    offer open. Returns whether every person's seat has now accepted: the next game is to be
    dealt. Raises :class:`ProtocolError`, changing nothing, for a game not started or not over,
    and for an answer with no offer open."""
    game = room.game
    if game is None:
        raise ProtocolError("not_started", say("web.error.rematch_not_started"), msg_id)
    if not game.over:
        raise ProtocolError("game_over", say("web.error.rematch_not_over"), msg_id)
    offer = room.rematch
    if accept is None:
        if offer is None or not offer.open:
            robots = {s.seat for s in room.row.seats if s.type == "ai"}
            offer = room.rematch = Offer(seat, accepted={seat} | robots)
        else:
            offer.accepted.add(seat)
    elif offer is None or not offer.open:
        why = "none" if offer is None else "declined"
        raise ProtocolError("no_offer", say(f"web.error.no_offer.{why}"), msg_id)
    elif accept:
        offer.accepted.add(seat)
    else:
        offer.accepted.discard(seat)
        offer.declined.add(seat)
    people = {s.seat for s in room.row.seats if s.type == "human"}
    return offer.open and people <= offer.accepted
