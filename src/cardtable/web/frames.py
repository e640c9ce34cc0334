"""The ``state`` frames a room sends: what each connection may see of the table and of the
events of a change, the log a joining connection gets, and the push of a change to every
connection of the room (each room's :class:`~.table.Table` builds its frames with these).

A seat without memory aid, and every spectator (else a second tab watching the room would give
back the cards a player should remember), sees the table as a person does: no code of a
face-down card; the events of each change carry the moment a card is seen. Every event comes
with its words (``said``, :mod:`.said`), phrased from what the connection may read again later,
as its log does: the moment a card is seen shows the card, the words never name it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..events import FamilyRoundStart, Peek, QuteRoundStart
from ..game import Event
from ..views import View
from .protocol import By, LogEntry, MsgId, StateFrame, TimedWindow, TurnClock
from .room import Conn, Room, dumps
from .said import reader_for, told

__all__ = ["first_sight", "join_log", "log_bit", "push_all", "state_frame"]

log = logging.getLogger("cardtable.web")


def log_bit(room: Room, seat: int | None) -> int:
    """Whose parts of the events a connection reads again (its log): everything its seat saw
    with the memory aid, or in a game without memory (Qute: a hand is held face up by its
    owner, so a seat reads its own draws again); else, and for a spectator, the public parts
    only."""
    if seat is None:
        return 0
    game = room.game
    if room.row.seats[seat].memory_aid or (game is not None and not game.memory_game):
        return 1 << seat
    return 0


def first_sight(room: Room, seat: int | None) -> list[Event]:
    """The opening events for a seat that joins the current game for the first time, after it
    was dealt without it (e.g. against AI players, the game starts when the room is made);
    empty for every later join, so a reload never shows a card again.

    A card the deal showed the seat is shown only if it is still where it was: the
    perfect-memory view must still give the seat that card at that address (another seat may
    have moved it meanwhile), and the first round must still be on."""
    game = room.game
    if seat is None or game is None or seat not in room.unopened:
        return []
    room.unopened.discard(seat)
    if game.over:
        return []
    known = game.view(seat)
    out: list[Event] = []
    for event in game.opening_events:
        match event.seen_by(seat):
            case FamilyRoundStart(round=n) | QuteRoundStart(round=n) if n != known.get("round"):
                return []
            case Peek(seat=looker, at=at, card=card) if looker == seat:
                try:
                    slot = known["hands"][at.seat][at.pos]
                except (IndexError, KeyError, TypeError):
                    continue
                if not slot or slot.get("card") != card:
                    continue
        out.append(event)
    return out


def state_frame(
    room: Room,
    seat: int | None,
    events: list[Event],
    *,
    window: TimedWindow | None,
    clock: TurnClock | None,
    fill_in: float | None,
    by: By | None = None,
    msg_id: MsgId = None,
) -> StateFrame:
    """The ``state`` frame of ``room`` for a connection of ``seat`` (``None``: a spectator),
    reporting ``events`` (chosen ``by`` someone else than the seat's player, if so)."""
    game = room.game
    bit = 1 << (seat if seat is not None else room.row.players)
    view: View | None = None
    if game is not None:
        if seat is None:
            view = game.spectator_view(memory=False)
        else:
            view = game.view(seat, memory=room.row.seats[seat].memory_aid)
    seats = room.seats_public()
    reader, again = reader_for(seat, seats), log_bit(room, seat)
    out: StateFrame = {
        "type": "state",
        "room": room.id,
        "version": room.version,
        "game_no": room.game_row.game_no if room.game_row else 0,
        "status": room.status,
        "seat": seat,
        "seats": seats,
        "view": view,
        "events": [told(e.visible(bit), e.seen(again), reader, room.row.game, by) for e in events],
        "window": window,
        "clock": clock,
        "by": by,
        "rematch": room.rematch.to_json() if room.rematch is not None else None,
    }
    if fill_in is not None:
        out["ai_fill_in"] = fill_in
    if msg_id is not None:
        out["id"] = msg_id
    return out


def join_log(room: Room, seat: int | None) -> list[LogEntry]:
    """The log a joining connection of ``seat`` (``None``: a spectator) gets: the current
    game's moves as it may read them again (:func:`log_bit`), each event with its words."""
    reader = reader_for(seat, room.seats_public())
    entries = room.moves.read(log_bit(room, seat))
    for entry in entries:
        by = entry["by"]
        entry["events"] = [told(e, e, reader, room.row.game, by) for e in entry["events"]]
    return entries


def push_all(
    room: Room,
    build: Callable[[int | None, MsgId], StateFrame],
    sender: Conn | None = None,
    msg_id: MsgId = None,
    skip: Conn | None = None,
) -> None:
    """Push every connection of the room (but ``skip``) the frame ``build(seat, id)`` makes
    for its seat, in its language (:meth:`.Conn.speaking`), serialised once per seat and
    language (the ``sender``'s own with ``msg_id``). Each
    connection is served on its own: one whose frame cannot be built, encoded or queued is
    logged (room, seat and the kind of failure: never a card) and dropped, and the others
    still get theirs."""
    frames: dict[tuple[int | None, str | None], str] = {}
    for conn in list(room.conns):
        if conn is skip:
            continue
        try:
            if conn is sender and msg_id is not None:
                with conn.speaking():
                    conn.push(build(conn.seat, msg_id))
                continue
            text = frames.get((conn.seat, conn.lang))
            if text is None:
                with conn.speaking():
                    text = frames[conn.seat, conn.lang] = dumps(build(conn.seat, None))
            conn.push(text)
        except Exception as exc:
            log.warning(
                "room %s: the state for seat %s could not be sent (%s); dropping that connection",
                room.id,
                conn.seat,
                type(exc).__name__,
                extra={"room": room.id, "seat": conn.seat},
            )
            conn.drop()  # its socket closes; leave() then takes it out of the room
