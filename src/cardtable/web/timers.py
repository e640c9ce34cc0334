"""The clocks of a live room: timed windows, the turn clock, and AI stand-ins for people away.

:class:`Timers` is the part of :class:`~.rooms.RoomManager` that runs them. A timed window (the
initial peeks, a snap window) closes after a fixed time and plays the engine's timeout move for
every seat still to act. Outside windows, the turn clock gives the people to act
``turn_time`` seconds (a room may choose another time); when it runs out, the server plays the
engine's timeout move for them and marks them away; one who lets ``stand_in_after`` turns in a
row run out gets an AI of the room's level in their seat until they come back with their token.
The moves the clock plays are marked as the clock's (:data:`~.movelog.CLOCK`).

The only person at a table of AI players may **hold** the clocks while they read something
(``hold``): the timed window and the turn clock stop with the time they have left, and the AI
players wait, until the hold ends — ``on: false``, the connection closing, or
:data:`HOLD_LIMIT` seconds after it began — and then go on with that time. Where another
person sits at the table a hold changes nothing: nobody may keep the others waiting.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..agents import Agent
from ..agents import get as get_agent
from ..game import Event
from ..store import Store
from .movelog import CLOCK, Chosen
from .protocol import By, ProtocolError, StateFrame, TimedWindow, TurnClock
from .room import Conn, Room, ai_seed
from .search import SEARCH_LEVELS, SearchPool

__all__ = ["HOLD_LIMIT", "Timers"]

log = logging.getLogger("cardtable.web")

HOLD_LIMIT = 600.0
"""Seconds a hold lasts at most from its start (a repeated ``on: true`` does not extend it)."""


class Timers:
    """Windows, the turn clock and stand-ins (a base of :class:`~.rooms.RoomManager`)."""

    peek_window: float
    """Seconds the initial-peek phase stays open."""
    snap_window: float
    """Seconds a snap window stays open."""
    turn_time: float
    """Seconds a person has for each turn or decision (0: no clock)."""
    away_time: float
    """Seconds the clock gives a person already away."""
    stand_in_after: int
    """Turns in a row a person may let run out before an AI stands in."""
    search: SearchPool
    """Where search-level AI moves are computed."""
    store: Store
    """Where every change goes first."""
    _closing: bool

    async def _act(
        self,
        room: Room,
        seat: int,
        text: str,
        version: int | None,
        sender: Conn | None,
        msg_id: Any,
        *,
        person: bool = False,
        chosen: Chosen | None = None,
    ) -> None:
        raise NotImplementedError  # the manager's

    def _after_change(self, room: Room) -> None:
        raise NotImplementedError  # the manager's

    def _state(
        self,
        room: Room,
        seat: int | None,
        events: list[Event],
        msg_id: Any = None,
        by: By | None = None,
    ) -> StateFrame:
        raise NotImplementedError  # the manager's

    async def _start_game(self, room: Room, sender: Conn | None = None, msg_id: Any = None) -> None:
        raise NotImplementedError  # the manager's

    def _broadcast(
        self,
        room: Room,
        events: list[Event],
        sender: Conn | None = None,
        msg_id: Any = None,
        skip: Conn | None = None,
        by: By | None = None,
    ) -> None:
        raise NotImplementedError  # the manager's

    def _stop_timers(self, room: Room) -> None:
        for task in (room.ai_task, room.window_task, room.turn_task, *room.holds.values()):
            if task is not None:
                task.cancel()
        room.ai_task = room.window_task = room.turn_task = None
        room.ai_version = room.window_key = room.turn_key = None
        room.holds.clear()

    @staticmethod
    def _window(room: Room) -> TimedWindow | None:
        if room.window_key is None:
            return None
        if room.held:
            left = room.window_left
        else:
            left = max(0.0, room.window_deadline - asyncio.get_running_loop().time())
        return {"phase": room.window_key[-1], "closes_in": round(left, 2), "paused": room.held}

    @staticmethod
    def _clock(room: Room) -> TurnClock | None:
        if room.turn_key is None:
            return None
        if room.held:
            left = room.turn_left
        else:
            left = max(0.0, room.turn_deadline - asyncio.get_running_loop().time())
        return {"seats": list(room.turn_key[1]), "closes_in": round(left, 2), "paused": room.held}

    # -- holding the clocks ------------------------------------------------------------------
    @staticmethod
    def _only_person(room: Room, seat: int) -> bool:
        """Whether ``seat`` is the only person's seat of the room (every other is an AI's)."""
        return all(s.type != "human" or s.seat == seat for s in room.row.seats)

    def _hold(self, room: Room, conn: Conn, seat: int, on: bool, msg_id: Any) -> None:
        """A ``hold`` from ``conn``, listening as ``seat`` (the room's lock is held): record or
        end its hold, hold or release the room's clocks, tell everyone when that changed and
        answer the sender (``held``: whether the room is held now). With another person at the
        table the hold is answered and changes nothing."""
        if on and self._only_person(room, seat):
            if conn not in room.holds:
                room.holds[conn] = asyncio.create_task(self._hold_bound(room, conn))
        elif not on:
            task = room.holds.pop(conn, None)
            if task is not None:
                task.cancel()
        if self._apply_holds(room):
            self._broadcast(room, [], skip=conn)
        answer = self._state(room, seat, [], msg_id)
        answer["held"] = room.held
        conn.push(answer)

    def _apply_holds(self, room: Room) -> bool:
        """Hold the room's clocks and AI players if a hold is on, else let them run (the lock is
        held); whether that changed. Held, the window and the turn keep the time they had left;
        released, they run on from it and the AI players are scheduled again."""
        held = bool(room.holds) and not room.evicted and not self._closing
        if held == room.held:
            return False
        now = asyncio.get_running_loop().time()
        room.held = held
        if held:
            room.window_left = max(0.0, room.window_deadline - now)
            room.turn_left = max(0.0, room.turn_deadline - now)
            for task in (room.window_task, room.turn_task, room.ai_task):
                if task is not None:
                    task.cancel()
            room.window_task = room.turn_task = room.ai_task = None
            room.ai_version = None
            return True
        if room.window_key is not None:
            self._arm_window(room, room.window_key, room.window_left)
        if room.turn_key is not None:
            self._arm_turn(room, room.turn_key, room.turn_left)
        self._after_change(room)
        return True

    async def _hold_bound(self, room: Room, conn: Conn) -> None:
        """A hold reached :data:`HOLD_LIMIT`: it ends, and the clocks go on."""
        await asyncio.sleep(HOLD_LIMIT)
        async with room.lock:
            if room.holds.get(conn) is not asyncio.current_task():
                return
            del room.holds[conn]
            if self._apply_holds(room):
                self._broadcast(room, [])

    async def _unhold(self, room: Room, conn: Conn) -> None:
        """``conn`` closed (or left the room): its hold ends."""
        async with room.lock:
            task = room.holds.pop(conn, None)
            if task is None:
                return
            task.cancel()
            if self._apply_holds(room):
                self._broadcast(room, [])

    # -- the turn clock ----------------------------------------------------------------------
    def _turn_time(self, room: Room) -> float:
        """Seconds each turn of ``room`` has (0: no clock)."""
        if self.turn_time <= 0:
            return 0.0
        return self.turn_time if room.row.turn_time is None else room.row.turn_time

    def _update_clock(self, room: Room) -> None:
        """Run the turn clock for the people to act now, outside timed windows (which have
        their own); a new turn or decision starts it again."""
        game = room.game
        key: tuple[int, tuple[int, ...]] | None = None
        length = self._turn_time(room)
        if length > 0 and game is not None and not game.over and room.window_key is None:
            people = tuple(s for s in game.actors if room.agent(s) is None)
            if people:
                key = (room.version, people)
        if key == room.turn_key:
            return
        if room.turn_task is not None:
            room.turn_task.cancel()
            room.turn_task = None
        room.turn_key = key
        if key is None:
            return
        if all(s in room.away for s in key[1]):
            length = min(length, self.away_time)
        self._arm_turn(room, key, length)

    def _arm_turn(self, room: Room, key: tuple[int, tuple[int, ...]], length: float) -> None:
        """Run the turn clock of ``key`` for ``length`` seconds (held: keep them for later)."""
        if room.held:
            room.turn_left = length
            return
        room.turn_deadline = asyncio.get_running_loop().time() + length
        room.turn_task = asyncio.create_task(self._turn_out(room, key, length))

    async def _turn_out(self, room: Room, key: tuple[int, tuple[int, ...]], length: float) -> None:
        """The time of a turn ran out: each person still to act is marked away and the engine's
        timeout move is played for them; one who let ``stand_in_after`` turns in a row run out
        gets an AI of the room's level in their seat until they come back."""
        await asyncio.sleep(length)
        async with room.lock:
            if room.turn_key != key or room.evicted:
                return
            room.turn_task = None
            for seat in key[1]:
                game = room.game
                if game is None or game.over or seat not in game.actors:
                    continue
                if room.agent(seat) is not None:
                    continue
                room.missed[seat] = room.missed.get(seat, 0) + 1
                room.away.add(seat)
                if room.missed[seat] >= self.stand_in_after:
                    room.stand_ins[seat] = self._stand_in(room, seat)
                    log.info("room %s: an AI stands in for seat %d", room.id, seat)
                try:
                    action = str(game.timeout_action(seat))
                    await self._act(room, seat, action, None, None, None, chosen=CLOCK)
                except (ProtocolError, ValueError):
                    log.exception("the timeout move was refused in room %s", room.id)
                    break

    @staticmethod
    def _back(room: Room, seat: int) -> bool:
        """A person is back at their seat (they joined with their token, or acted): not away,
        no missed turns, their stand-in leaves. Whether anything changed."""
        changed = seat in room.away or seat in room.stand_ins
        room.away.discard(seat)
        room.missed.pop(seat, None)
        room.stand_ins.pop(seat, None)
        return changed

    def _stand_in(self, room: Room, seat: int) -> Agent:
        """The AI that plays ``seat`` while its person is away: the room's AI level (its first
        AI seat's), else ``casual``."""
        level = next((s.level for s in room.row.seats if s.type == "ai" and s.level), "casual")
        seed = room.game_row.seed if room.game_row is not None else 0
        agent = get_agent(level, seed=ai_seed(seed, seat))
        if agent.name in SEARCH_LEVELS:
            self.search.warm()
        return agent

    def _update_window(self, room: Room) -> None:
        game = room.game
        key: tuple[Any, ...] | None = None
        # a window opens with several seats to act; only then is the phase worth reading
        if (
            game is not None
            and not game.over
            and (room.window_key is not None or len(game.actors) > 1)
        ):
            phase = game.timed_window()
            if phase is not None:
                pub = game.spectator_view()
                key = (
                    room.game_row.game_no if room.game_row else 0,
                    pub.get("round"),
                    pub.get("turns"),
                    phase,
                )
        if key == room.window_key:
            return
        if room.window_task is not None:
            room.window_task.cancel()
            room.window_task = None
        room.window_key = key
        if key is None:
            return
        length = self.peek_window if key[-1] == "peek" else self.snap_window
        self._arm_window(room, key, length)

    def _arm_window(self, room: Room, key: tuple[Any, ...], length: float) -> None:
        """Close the window of ``key`` in ``length`` seconds (held: keep them for later)."""
        if room.held:
            room.window_left = length
            return
        room.window_deadline = asyncio.get_running_loop().time() + length
        room.window_task = asyncio.create_task(self._close_window(room, key, length))

    async def _close_window(self, room: Room, key: tuple[Any, ...], length: float) -> None:
        await asyncio.sleep(length)
        async with room.lock:
            if room.window_key != key or room.evicted:
                return
            room.window_task = None
            for _ in range(64):  # each seat still to act gets its default, one at a time
                game = room.game
                if game is None or game.over or room.window_key != key:
                    break
                seat = game.actors[0]
                action = str(game.timeout_action(seat))
                try:
                    await self._act(room, seat, action, None, None, None, chosen=CLOCK)
                except ProtocolError:
                    log.exception("window default refused in room %s", room.id)
                    break
