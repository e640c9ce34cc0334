"""Quick play: "Play now" seats a visitor at a public table of a game that waits for people.

:class:`QuickPlay` is the part of :class:`~.rooms.RoomManager` that finds or opens such a room
and runs its wait. A room opened by quick play (:func:`is_quickplay`) waits ``quickplay_wait``
seconds from its creation for people; then AI players of :data:`QUICKPLAY_LEVEL` take its open
seats and the game starts — as soon as one of its people is connected (a room nobody is at waits
for its next visitor). Such a seat is stored as a person's seat taken under the mark
:data:`AI_FILLED`, which :func:`restore_ai_fill` turns back into an AI seat when the room is read
from the store.
"""

from __future__ import annotations

import asyncio
import logging
import time

from .. import variants
from ..store import RoomRow, StoreError
from .protocol import ai_seat_label
from .room import Room, RoomError
from .timers import Timers

__all__ = [
    "AI_FILLED",
    "QUICKPLAY_LEVEL",
    "QUICKPLAY_PLAYERS",
    "QUICKPLAY_PREFIX",
    "QuickPlay",
    "is_quickplay",
    "restore_ai_fill",
]

log = logging.getLogger("cardtable.web")

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


class QuickPlay(Timers):
    """Quick play and the wait of its rooms (a base of :class:`~.rooms.RoomManager`)."""

    rooms: dict[str, Room]
    """Live rooms by id."""
    quickplay_wait: float
    """Seconds a quick-play room waits for people before AI players take its open seats."""
    _fills: dict[str, asyncio.Task[None]]
    _quickplay: asyncio.Lock
    _closing: bool

    async def create(
        self,
        game: str,
        seats: list[tuple[str, str | None, bool]],
        *,
        name: str | None = None,
        quickplay: bool = False,
    ) -> tuple[Room, int | None, str | None]:
        raise NotImplementedError  # the manager's

    async def take_seat(self, room_id: str, name: str | None) -> tuple[Room, int, str]:
        raise NotImplementedError  # the manager's

    async def quickplay(self, game: str, name: str | None) -> tuple[Room, int, str]:
        """Seat the caller at the oldest room of ``game`` opened by quick play that is public
        and still waiting for people (rooms made with the lobby form are left to their
        creators), or open one: :data:`QUICKPLAY_PLAYERS` seats (within the game's
        range), every one a person's, whose open seats go to AI players after
        ``quickplay_wait`` seconds. Returns the room, the seat and its token; ``ValueError`` for
        an unknown game (nothing is created)."""
        var = variants.get(game)
        async with self._quickplay:  # two at once must not both open a room
            waiting = [
                r
                for r in self.rooms.values()
                if is_quickplay(r.id)
                and r.row.game == var.name
                and r.row.public
                and not r.evicted
                and r.status == "waiting"
                and r.free_seats()
            ]
            for room in sorted(waiting, key=lambda r: (r.row.created, r.id)):
                try:
                    return await self.take_seat(room.id, name)
                except RoomError:  # taken or closed meanwhile: the next one
                    continue
            n = min(max(QUICKPLAY_PLAYERS, var.min_players), var.max_players)
            room, seat, token = await self.create(
                var.name, [("human", None, False)] * n, name=name, quickplay=True
            )
        assert seat is not None and token is not None  # every seat is a person's
        return room, seat, token

    def _stop_timers(self, room: Room) -> None:
        super()._stop_timers(room)
        fill = self._fills.pop(room.id, None)
        if fill is not None:
            fill.cancel()

    def ai_fill_in(self, room: Room) -> float | None:
        """Seconds until AI players take the open seats of ``room`` (0: as soon as one of its
        people is connected); ``None`` unless it is a quick-play room still waiting for people."""
        if not is_quickplay(room.id) or room.game is not None or room.refusal is not None:
            return None
        if not room.free_seats():
            return None
        return round(max(0.0, room.row.created + self.quickplay_wait - time.time()), 2)

    def _update_fill(self, room: Room) -> None:
        """Run the quick-play wait of ``room`` while it waits for people: AI players take its
        open seats when the wait is over and one of its people is connected (a room whose wait
        ran out with nobody there fills when someone comes: call this on every join)."""
        left = None if self._closing or room.evicted else self.ai_fill_in(room)
        task = self._fills.get(room.id)
        if left is None:
            if task is not None and task is not asyncio.current_task():
                del self._fills[room.id]
                task.cancel()
            return
        if task is not None or (left <= 0 and not room.online()):
            return
        task = asyncio.create_task(self._fill_later(room, left))
        self._fills[room.id] = task
        task.add_done_callback(lambda done: self._forget_fill(room.id, done))

    def _forget_fill(self, room_id: str, task: asyncio.Task[None]) -> None:
        if self._fills.get(room_id) is task:
            del self._fills[room_id]

    async def _fill_later(self, room: Room, delay: float) -> None:
        """The wait of a quick-play room is over: with one of its people connected, AI players
        take the open seats and the game starts."""
        await asyncio.sleep(delay)
        async with room.lock:
            me = asyncio.current_task()
            if me is not None:
                self._forget_fill(room.id, me)
            if room.evicted or self._closing or not room.online() or self.ai_fill_in(room) is None:
                return
            await self._fill_with_ai(room)

    async def _fill_with_ai(self, room: Room) -> None:
        """Give every open person's seat of ``room`` to an AI of :data:`QUICKPLAY_LEVEL` and start
        the game (the room's lock is held). A person whose seat is taken but who is not here gets
        an AI stand-in at once, until they come back."""
        label = ai_seat_label(QUICKPLAY_LEVEL)
        for seat in room.free_seats():
            try:
                await self.store.take_seat(room.id, seat, label, AI_FILLED + QUICKPLAY_LEVEL)
            except StoreError:
                log.exception("room %s: an AI could not take seat %d", room.id, seat)
                self._broadcast(room, [])
                return
            srow = room.row.seats[seat]
            srow.type, srow.level, srow.name = "ai", QUICKPLAY_LEVEL, label
            srow.token_hash, srow.memory_aid = None, False
        online = room.online()
        for srow in room.row.seats:
            if srow.type == "human" and srow.seat not in online:
                room.away.add(srow.seat)
                room.stand_ins[srow.seat] = self._stand_in(room, srow.seat)
        log.info("room %s: AI players took the open seats", room.id)
        await self._start_game(room)
