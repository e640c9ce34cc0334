"""One live room's table: its lock, its moves, its clocks, its AI players and its frames.

A :class:`Table` is the part of the server that changes one :class:`~.room.Room`. All changes
happen under its :attr:`~Table.lock`, in the order docs/protocol.md gives: check, append to the
store (committed), push every connection its own state. The engine is reached only through
``view``, ``spectator_view``, ``legal_actions``, ``actors``, ``check``, ``play``,
``timed_window``, ``timeout_action`` and ``opening_events``. What a table needs from the server
(the store, the settings, the clock, the search pool) it is given as :class:`Services`.

**The clocks.** A timed window (the initial peeks, a snap window) closes after a fixed time and
plays the engine's timeout move for every seat still to act. Outside windows, the turn clock
gives the people to act ``turn_time`` seconds (a room may choose another time); when it runs
out, the table plays the engine's timeout move for them and marks them away; one who lets
``stand_in_after`` turns in a row run out gets an AI of the room's level in their seat until
they come back with their token. The moves the clock plays are marked as the clock's
(:data:`~.movelog.CLOCK`). A room opened by quick play waits for people (:mod:`.fill`) on this
clock too. Every timer waits on the injected :class:`~.clock.Clock`.

**Holds.** The only person at a table of AI players may hold the clocks while they read
something (``hold``): the timed window and the turn clock stop with the time they have left, and
the AI players wait, until the hold ends — ``on: false``, the connection closing, or
:data:`HOLD_LIMIT` seconds after it began — and then go on with that time. Where another person
sits at the table a hold changes nothing: nobody may keep the others waiting.

**AI players.** The cheap levels decide at once, on the live game, under the lock. The search
levels (``expert``, ``master``) think in worker processes (:mod:`.search`): the move is computed
from a snapshot of the game taken under the lock, the lock is released meanwhile, and the answer
is played under the lock only if the room is still at the version the snapshot was taken at. A
change of the room cancels a search whose state is gone and schedules a new move.

People play without memory aid unless their seat was given one when the room was made: such a
seat (and every spectator) is sent ``view(seat, memory=False)``, the table without the code of
any face-down card; what it learns reaches it only in the events of the moment it learns it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import cast

from .. import variants
from ..agents import Agent
from ..agents import get as get_agent
from ..catalog import catalog, language, negotiate, say
from ..errors import GameOver, IllegalAction, NotYourTurn
from ..game import Event, Game
from ..notation import Action
from ..seat import Seat
from ..store import FencedOut, GameRow, RoomRow, Store, StoreError
from ..text.phrase import refusal
from ..views import GameResult
from .chat import chat_log
from .clock import Clock
from .fairness import AddressPace
from .fill import AI_FILLED, QUICKPLAY_LEVEL, fill_in, is_quickplay
from .frames import first_sight, join_log, push_all, state_frame
from .metrics import Metrics
from .movelog import CLOCK, Chosen, by_label, stand_in
from .protocol import (
    By,
    HintFrame,
    HintLabels,
    HintRow,
    MsgId,
    ProtocolError,
    RoomSummary,
    StateFrame,
    TimedWindow,
    TurnClock,
    ai_seat_label,
)
from .protocol import error as error_frame
from .rematch import answer as answer_rematch
from .room import Conn, Room, ai_seed
from .said import reader_for, seat_names
from .search import SEARCH_LEVELS, SearchPool, snapshot
from .settings import ServerSettings

__all__ = ["HOLD_LIMIT", "Services", "Table", "hint_labels", "hint_language", "new_game"]

log = logging.getLogger("cardtable.web")

HOLD_LIMIT = 600.0
"""Seconds a hold lasts at most from its start (a repeated ``on: true`` does not extend it)."""

_REFUSALS: dict[str, str] = {GameOver.code: "game_over", NotYourTurn.code: "not_your_turn"}
"""The protocol's error code for each kind of refusal (the exception's ``code``) that has its
own; every other is ``illegal`` (its words say which rule)."""


def new_game(row: RoomRow, seed: int) -> Game:
    """A new game of the room ``row`` dealt from ``seed``."""
    return variants.new_game(row.game, players=row.players, seed=seed, options=row.options)


def hint_language(tag: str | None) -> str:
    """The language a hint is phrased in: the shipped one ``tag`` names (``de-AT``: German),
    else English; no tag: the server's."""
    return negotiate([tag]) if tag else catalog().language


def hint_labels() -> HintLabels:
    """The hint panel's words, in the language in use (:func:`cardtable.catalog.language`)."""
    return {
        "title": say("hint.title"),
        "order": say("hint.order"),
        "best": say("hint.best"),
        "points": say("hint.points"),
        "win": say("hint.win"),
        "play": say("hint.play"),
        "close": say("hint.close"),
        "thinking": say("hint.thinking"),
        "accept": say("hint.accept"),
        "badge": say("hint.badge"),
    }


WindowKey = tuple[int, int, int, str]
"""A timed window: the game's number, the round, the turn count and the phase (``peek``,
``snap`` …) it opened in."""


@dataclass(frozen=True)
class Services:
    """What every table of a server is given: where moves are stored, the settings, the clock
    and where the search levels think."""

    store: Store
    """Where every accepted action goes first."""
    settings: ServerSettings
    """The server's clocks, AI and chat settings."""
    clock: Clock
    """Every timer's clock."""
    search: SearchPool
    """Where search-level AI moves are computed."""
    metrics: Metrics = field(default_factory=Metrics)
    """The server's metrics (:mod:`.metrics`)."""
    ai_pace: AddressPace | None = None
    """The turns of the AI moves of rooms of AI players only (``ai_room_moves`` a second, one
    key for the whole process; ``None``: not paced)."""
    game_ended: Callable[[Room, int], None] | None = None
    """Told each room whose game has just ended, with the game's number, once its end is
    stored (the ratings of a rated game are updated from it: :mod:`.accounts`)."""
    fenced_out: Callable[[str], None] | None = None
    """Told the id of a room whose write the store refused because another process took the
    room over (:class:`.FencedOut`): this process lets the room go (:mod:`.cluster`)."""


class Table:
    """One live room's lock, moves, clocks, AI players and frames."""

    def __init__(self, room: Room, services: Services) -> None:
        self.room = room
        """The room this table changes."""
        self.store = services.store
        """Where every accepted action goes first."""
        self.settings = services.settings
        """The server's settings."""
        self.clock = services.clock
        """Every timer's clock."""
        self.search = services.search
        """Where search-level AI moves are computed."""
        self.metrics = services.metrics
        """The server's metrics (:mod:`.metrics`)."""
        self.ai_pace = services.ai_pace
        """The turns of the AI moves of rooms of AI players only (:attr:`Services.ai_pace`)."""
        self.fenced_out = services.fenced_out
        """Told a room the store refused a write of (:attr:`Services.fenced_out`)."""
        self.game_ended = services.game_ended
        """Told each room whose game has just ended (:attr:`Services.game_ended`)."""
        self.lock = asyncio.Lock()
        """Held while the room changes."""
        self.stopped = False
        """Set by :meth:`stop` (the room was paused, or the server closes): nothing is
        scheduled any more."""
        self.ai_task: asyncio.Task[None] | None = None
        """The pending AI move (at most one)."""
        self.ai_version: int | None = None
        """The room's version the pending AI move is being searched for (``None`` while it
        waits its delay, or for a level that decides at once)."""
        self.window_key: WindowKey | None = None
        """Which timed window the timer runs for."""
        self.window_deadline = 0.0
        """When that window closes (the clock's monotonic time)."""
        self.window_task: asyncio.Task[None] | None = None
        """The timer closing the window."""
        self.turn_key: tuple[int, tuple[int, ...]] | None = None
        """Which turn the clock runs for: the room's version and the people's seats to act."""
        self.turn_deadline = 0.0
        """When that turn's time runs out (the clock's monotonic time)."""
        self.turn_task: asyncio.Task[None] | None = None
        """The timer of the turn clock."""
        self.holds: dict[Conn, asyncio.Task[None]] = {}
        """Connections of the only person at the table holding the clocks, each with the task
        that ends its hold at the bound."""
        self.held = False
        """Whether the clocks and AI players are held now: the timers do not run, and the time
        left of the window and of the turn is kept in :attr:`window_left` and
        :attr:`turn_left`."""
        self.window_left = 0.0
        """Seconds the timed window has left while held."""
        self.turn_left = 0.0
        """Seconds the turn clock has left while held."""
        self.fill_task: asyncio.Task[None] | None = None
        """The end of a quick-play room's wait for people, while it runs."""
        self.hinting: set[Conn] = set()
        self.hint_cache: dict[tuple[int, int, str], dict[str, object]] = {}
        """Hints already computed at this version, by (version, seat, language): asking
        again gets the same rows, not another sample's."""
        """Connections with a hint being computed (one at a time each)."""
        self.open_hands = room.row.practice
        """Whether the one person at this table of AI players is shown the AI players' cards
        (:meth:`practice`; a practice room opens with them shown)."""
        self._tasks: set[asyncio.Task[None]] = set()

    # -- life ---------------------------------------------------------------------------------
    def stop(self) -> None:
        """Stop every timer, AI move and hold of the table, for good."""
        self.stopped = True
        tasks = (self.ai_task, self.window_task, self.turn_task, self.fill_task)
        for task in (*tasks, *self.holds.values(), *self._tasks):
            if task is not None:
                task.cancel()
        self.ai_task = self.window_task = self.turn_task = self.fill_task = None
        self.ai_version = self.window_key = self.turn_key = None
        self.holds.clear()

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _until(self, when: float) -> None:
        """Return at ``when``, on the clock's monotonic time. A timer's deadline is taken when
        it is set, not when its task first runs."""
        await self.clock.sleep(when - self.clock.monotonic())

    def touch(self) -> None:
        """The room was asked about: its idle time starts again."""
        self.room.idle_since = self.clock.monotonic()

    # -- moves --------------------------------------------------------------------------------
    async def act(
        self,
        seat: int,
        text: str,
        version: int | None,
        sender: Conn | None,
        msg_id: MsgId,
        *,
        person: bool = False,
        chosen: Chosen | None = None,
    ) -> None:
        """Check, store and push one action (the lock is held); ``person``: the seat's person
        played it themselves (so they are back if they were away); ``chosen``: who chose it when
        not the seat's own player (the clock, a stand-in).

        Each accepted move is played once, on the live game, before it is stored: the move and,
        when it ends the game, the game's end go to the store in one transaction, so the game
        must know whether it is over. Nobody is told anything until the store has it (the lock
        is held meanwhile, and every frame is built under it). If the store refuses it, the game
        is dealt again from its seed and the room's accepted moves (:attr:`.Room.played`) are
        played again on it: the room is exactly as it was before, and the sender is answered
        ``store``."""
        started = time.perf_counter()
        room = self.room
        game = room.game
        if game is None:
            raise ProtocolError("not_started", say("web.error.not_started"), msg_id)
        try:
            action = game.check(seat, text)
        except IllegalAction as exc:
            code = _REFUSALS.get(exc.code, "illegal")
            words = refusal(exc, reader_for(seat, room.seats_public()))
            raise ProtocolError(code, words, msg_id) from None
        if version is not None and version != room.version:
            raise ProtocolError(
                "stale",
                say("web.error.stale", version=version, current=room.version),
                msg_id,
            )
        events, result = await self._play_and_store(game, seat, action, chosen, msg_id)
        room.played.append((seat, str(action)))
        room.version += 1
        by = by_label(chosen, seat, room.row)
        room.moves.add(room.version, seat, by, events)
        if result is not None:
            assert room.game_row is not None
            room.game_row.finished = self.clock.now()
            room.game_row.result = result
            if self.game_ended is not None:
                self.game_ended(room, room.game_row.game_no)
        if person:
            self.back(seat)
        self.after_change()
        self.broadcast(events, sender=sender, msg_id=msg_id, by=by)
        self.metrics.acted(person, chosen, started)

    async def _play_and_store(
        self, game: Game, seat: int, action: Action, chosen: Chosen | None, msg_id: MsgId
    ) -> tuple[list[Event], GameResult | None]:
        """Play a checked ``action`` on the live game and store it (with the game's result if it
        ended it); the events and that result. If anything fails the game is rebuilt as it was
        (:meth:`_rebuild`); a store refusal is answered ``store``."""
        room = self.room
        assert room.game_row is not None
        seq = room.version - room.game_row.base_version + 1
        try:
            events = game.play(seat, action)
            result = game.result.to_dict() if game.over and game.result is not None else None
            await self.store.append(
                room.id,
                room.game_row.game_no,
                seq,
                seat,
                str(action),
                result=result,
                chosen_by=chosen.kind if chosen is not None else None,
                stand_in=chosen.level if chosen is not None else None,
            )
        except FencedOut:  # another process plays the room now: this one lets it go
            log.warning(
                "room %s was taken over by another process", room.id, extra={"room": room.id}
            )
            self._rebuild()
            if self.fenced_out is not None:
                self.fenced_out(room.id)
            raise ProtocolError("room_moved", say("web.error.room_moved"), msg_id) from None
        except StoreError:
            log.exception("store refused an action of room %s", room.id, extra={"room": room.id})
            self._rebuild()
            raise ProtocolError("store", say("web.error.store_move"), msg_id) from None
        except BaseException:
            self._rebuild()
            raise
        return events, result

    def _rebuild(self) -> None:
        """The current game as it was before the move being played: dealt again from its seed,
        with the room's accepted moves played again."""
        room = self.room
        assert room.game_row is not None
        game = new_game(room.row, room.game_row.seed)
        for seat, action in room.played:
            game.play(seat, action)
        room.game = game

    async def start_game(self, sender: Conn | None = None, msg_id: MsgId = None) -> None:
        """Deal a new game (the lock is held)."""
        room = self.room
        seed = secrets.randbits(62)
        game_no = room.game_row.game_no + 1 if room.game_row else 1
        row = GameRow(
            room.id,
            game_no,
            seed,
            room.version + 1,
            self.clock.now(),
            rules=variants.rules_version(room.row.game),
        )
        await self.store.start_game(row)
        room.game = new_game(room.row, seed)
        room.game_row = row
        room.played = []
        room.version += 1
        room.moves.reset(room.version, room.game.opening_events)
        room.rematch = None
        room.agents = self.agents(seed)
        room.stand_ins = {s: self.stand_in(s) for s in room.stand_ins}
        self.after_change()
        # The deal's events (kaboo: each seat's first sight of its bottom row) reach every seat
        # now; a person not connected gets them when it first joins (see frames.first_sight).
        self.broadcast(room.game.opening_events, sender=sender, msg_id=msg_id)
        online = room.online()
        room.unopened = {s.seat for s in room.row.seats if s.type == "human"} - online

    async def start_asked(self, conn: Conn, msg_id: MsgId) -> None:
        """Start the first game of a room made without autostart, once every person's seat
        is taken (the lock is held)."""
        if self.room.game is not None:
            raise ProtocolError("not_allowed", say("web.error.already_started"), msg_id)
        if self.room.free_seats():
            raise ProtocolError("not_allowed", say("web.error.seats_free"), msg_id)
        await self.start_game(sender=conn, msg_id=msg_id)

    async def rematch(self, conn: Conn, seat: int, accept: bool | None, msg_id: MsgId) -> None:
        """A rematch offered, accepted or declined by ``seat`` (the lock is held): the next game
        starts once everyone accepted (:mod:`.rematch`)."""
        if answer_rematch(self.room, seat, accept, msg_id):
            await self.start_game(sender=conn, msg_id=msg_id)
        else:
            self.broadcast([], sender=conn, msg_id=msg_id)

    def agents(self, seed: int) -> dict[int, Agent]:
        """The agents of the AI seats for a game dealt from ``seed``; a search level among
        them starts the search workers (once), so its first move does not wait for them."""
        agents = {
            s.seat: get_agent(s.level or "casual", seed=ai_seed(seed, s.seat))
            for s in self.room.row.seats
            if s.type == "ai"
        }
        if any(a.name in SEARCH_LEVELS for a in agents.values()):
            self.search.warm()
        return agents

    # -- connections --------------------------------------------------------------------------
    def join(self, conn: Conn, seat: int | None, msg_id: MsgId) -> None:
        """``conn`` listens to the room now, as ``seat`` (``None``: a spectator); it is sent the
        room's state with the move log and the chat so far (the lock is held)."""
        room = self.room
        was_online = room.online()
        conn.room, conn.seat = room, seat
        room.conns.add(conn)
        self.update_fill()  # a quick-play room whose wait is over fills now
        back = seat is not None and self.back(seat)
        if back:
            self.after_change()
        if back or room.online() != was_online:
            self.broadcast([], skip=conn)
        state = self.state(seat, first_sight(room, seat), msg_id)
        state["log"] = join_log(room, seat)
        lines = chat_log(room, seat)
        if lines is not None:
            state["chat_log"] = lines
        conn.push(state)

    def leave(self, conn: Conn, *, later: bool = False) -> None:
        """Forget a connection of the room (closed, or moved to another room); with ``later``
        the others hear of it right after the frame being sent now (a connection dropped
        mid-broadcast)."""
        room = self.room
        before = room.online()
        room.conns.discard(conn)
        conn.room = None
        if conn in self.holds and not self.stopped:
            self._spawn(self.unhold(conn))
        if not room.conns:
            self.touch()
        if room.online() != before and not self.stopped:
            if later:
                asyncio.get_running_loop().call_soon(self.broadcast, [])
            else:
                self.broadcast([])

    # -- frames -------------------------------------------------------------------------------
    def state(
        self, seat: int | None, events: list[Event], msg_id: MsgId = None, by: By | None = None
    ) -> StateFrame:
        """The ``state`` frame of the room for a connection of ``seat`` (:func:`.state_frame`);
        for the one person at a table of AI players, whether the AI players' cards are shown
        (``open_hands``), and where they are, the view with them face up
        (:meth:`.Game.open_view`)."""
        out = state_frame(
            self.room,
            seat,
            events,
            window=self.window(),
            clock=self.turn_clock(),
            fill_in=self.fill_in(),
            by=by,
            msg_id=msg_id,
        )
        if seat is not None and self.only_person(seat):
            out["open_hands"] = self.open_hands
            game = self.room.game
            if self.open_hands and game is not None:
                out["view"] = game.open_view(seat, self.room.row.seats[seat].memory_aid)
        return out

    def broadcast(
        self,
        events: list[Event],
        sender: Conn | None = None,
        msg_id: MsgId = None,
        skip: Conn | None = None,
        by: By | None = None,
    ) -> None:
        """Push every connection of the room (but ``skip``) its own state reporting ``events``,
        chosen ``by`` someone else than their seat's player if so (:func:`.push_all`)."""

        def build(seat: int | None, frame_id: MsgId) -> StateFrame:
            return self.state(seat, events, frame_id, by)

        push_all(self.room, build, sender, msg_id, skip)

    def summary(self) -> RoomSummary:
        """The room's summary with what its table knows: the seconds each turn has
        (``turn_time``, 0: no clock), whether quick play opened it, and while such a room
        waits, the seconds until AI players take its open seats (``ai_fill_in``)."""
        out = self.room.summary()
        out["turn_time"] = self.turn_time()
        out["quickplay"] = is_quickplay(self.room.id)
        fill = self.fill_in()
        if fill is not None:
            out["ai_fill_in"] = fill
        return out

    def window(self) -> TimedWindow | None:
        """The timed window open now, and the seconds it has left."""
        if self.window_key is None:
            return None
        if self.held:
            left = self.window_left
        else:
            left = max(0.0, self.window_deadline - self.clock.monotonic())
        return {"phase": self.window_key[-1], "closes_in": round(left, 2), "paused": self.held}

    def turn_clock(self) -> TurnClock | None:
        """The turn clock running now: for whom, and the seconds it has left."""
        if self.turn_key is None:
            return None
        if self.held:
            left = self.turn_left
        else:
            left = max(0.0, self.turn_deadline - self.clock.monotonic())
        return {"seats": list(self.turn_key[1]), "closes_in": round(left, 2), "paused": self.held}

    # -- after each change: AI players and clocks -----------------------------------------------
    def after_change(self) -> None:
        """Schedule AI moves and the clocks after the room changed (the lock is held)."""
        room = self.room
        if self.stopped or room.evicted:
            return
        self._update_window()
        self._update_turn()
        self.update_fill()
        if self.ai_task is not None and self.ai_version not in (None, room.version):
            # a search is thinking about a state that is gone: drop it (a job no worker has
            # taken yet leaves the queue) and think again about the new one
            self.ai_task.cancel()
            self.ai_task = self.ai_version = None
        game = room.game
        if game is None or game.over or self.held:  # held: the AI players wait too
            return
        if self.ai_task is None and any(room.agent(s) is not None for s in game.actors):
            due = self.clock.monotonic() + self.settings.ai_delay
            self.ai_task = asyncio.create_task(self._ai_move(due))

    async def _ai_move(self, due: float) -> None:
        """Play the move of the first AI seat to act at ``due`` (the clock's monotonic time:
        ``ai_delay`` seconds after it was scheduled); in a room of AI players only, at its
        turn of ``ai_room_moves`` after that (:attr:`ai_pace`).

        A cheap level decides at once, on the live game, under the lock. A search level thinks
        in the search pool on a snapshot taken under the lock, with the lock released; its
        answer is played under the lock if the room is still at the snapshot's version
        (:meth:`after_change` cancels this task as soon as it is not)."""
        room = self.room
        me = asyncio.current_task()
        try:
            await self._until(due)
            if self.ai_pace is not None and room.ai_only:
                # a match nobody plays in waits its turn of the process's AI moves a second
                wait = self.ai_pace.take("")
                if wait > 0:
                    await self.clock.sleep(wait)
            async with self.lock:
                game = room.game
                live = game is not None and not game.over and not room.evicted and not self.held
                seats = game.actors if game is not None and live else []
                seat = next((s for s in seats if room.agent(s) is not None), None)
                agent = room.agent(seat) if seat is not None else None
                if game is None or seat is None or agent is None:
                    self.ai_task = None
                    return
                # an AI standing in for a person is marked, an AI seat's own move is not
                chosen = None if seat in room.agents else stand_in(agent.name)
                if agent.name not in SEARCH_LEVELS:
                    self.ai_task = None
                    action = str(agent.act(Seat(game, seat)))
                    await self.act(seat, action, None, None, None, chosen=chosen)
                    return
                version = self.ai_version = room.version
                state = snapshot(game, seat)
            action = await self.metrics.decided(
                self.search.choose(agent.name, agent.seed, seat, state)
            )
            async with self.lock:
                if self.ai_task is not me:  # replaced meanwhile: that task plays
                    return
                self.ai_task = self.ai_version = None
                if room.version != version or room.agent(seat) is not agent or self.held:
                    # the room moved on, or the person is back: never play on another state
                    self.after_change()
                    return
                await self.act(seat, action, None, None, None, chosen=chosen)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI move failed in room %s", room.id, extra={"room": room.id})
            if self.ai_task is me:
                self.ai_task = self.ai_version = None

    # -- open hands for practice ---------------------------------------------------------------
    async def practice(self, conn: Conn, seat: int, on: bool, msg_id: MsgId) -> None:
        """A ``practice`` from ``seat`` (the lock is held): show the AI players' cards face up to
        the one person at this table of AI players (``on``), or face down again; the first
        ``on`` marks the room practice for good, stored first (its games are never rated).
        Refused where another person sits at the table (a free seat counts)."""
        room = self.room
        if not self.only_person(seat):
            raise ProtocolError("not_allowed", say("practice.people"), msg_id)
        if on and not room.row.practice:
            try:
                await self.store.mark_practice(room.id)
            except StoreError:
                log.exception(
                    "store refused the practice mark of room %s", room.id, extra={"room": room.id}
                )
                raise ProtocolError("store", say("web.error.store_practice"), msg_id) from None
            room.row.practice = True
        self.open_hands = on
        self.broadcast([], sender=conn, msg_id=msg_id)

    def opens_hands(self, seat: int | None) -> bool:
        """Whether a frame for ``seat`` shows the AI players' cards: the one person's, at a
        table whose hands they opened (never a spectator's, never at a table of people)."""
        return seat is not None and self.open_hands and self.only_person(seat)

    # -- hints ----------------------------------------------------------------------------------
    def hints_free(self, seat: int) -> bool:
        """Whether ``seat`` may have hints without being marked: every other seat is an AI's."""
        return self.only_person(seat)

    async def hint(
        self,
        conn: Conn,
        seat: int,
        version: int,
        lang: str | None,
        handicap: bool,
        msg_id: MsgId,
    ) -> None:
        """A ``hint`` from ``conn``, listening as ``seat`` (the lock is held): check it, and
        start computing the hint in the search pool (:meth:`.SearchPool.hint`) on a world of the
        seat taken now; the lock is not held while it thinks, and its answer goes to ``conn``
        only, if the room is still at ``version`` then (:meth:`_send_hint`).

        Refused (in the hint's language) when the room is not at ``version``, when it is not
        the seat's decision, where hints are off (a table of people made without them), and
        while the connection's last hint is still being computed. At a table of people the
        seat's first hint is answered with what asking means (``handicap``, no rows) unless it
        accepts that (``handicap``): then the seat is marked, stored first, and shown to
        everyone, and from then on it has the memory aid."""
        room = self.room
        game = room.game
        if game is None:
            raise ProtocolError("not_started", say("web.error.not_started"), msg_id)
        if conn.room is not room or conn.seat != seat:
            raise ProtocolError(
                "not_joined",
                say("web.error.hint_not_joined"),
                msg_id,
            )
        tongue = hint_language(lang)
        with language(tongue):
            if room.row.rated:
                raise ProtocolError("hints_off", say("hint.rated"), msg_id)
            if version != room.version:
                raise ProtocolError("stale", say("hint.stale"), msg_id)
            if game.over or seat not in game.actors or not game.legal_actions(seat):
                raise ProtocolError("not_your_turn", say("hint.wait"), msg_id)
            people = not self.hints_free(seat)
            if people and not room.row.hints:
                raise ProtocolError("hints_off", say("hint.off"), msg_id)
            if conn in self.hinting:
                raise ProtocolError("busy", say("hint.busy"), msg_id)
            labels = hint_labels()
            srow = room.row.seats[seat]
            if people and not srow.hints and not handicap:
                conn.push(_handicap_question(room.id, version, labels, msg_id))
                return
        if people and not srow.hints:
            try:
                await self.store.mark_hints(room.id, seat)
            except StoreError:
                log.exception(
                    "store refused the hints mark of room %s", room.id, extra={"room": room.id}
                )
                raise ProtocolError("store", say("web.error.store_hints"), msg_id) from None
            srow.hints = srow.memory_aid = True
            self.broadcast([])  # the mark for everyone; the seat's view has the memory aid
        state = snapshot(game, seat)
        names = tuple(seat_names(room.seats_public()))
        self.hinting.add(conn)
        key = (version, seat, tongue)
        cached = self.hint_cache.get(key)
        job: Callable[[], Awaitable[dict[str, object]]]
        if cached is not None:

            async def again() -> dict[str, object]:
                return cached

            job = again
        else:
            seed = version * 16 + seat  # the same position, the same deals
            job = functools.partial(self.search.hint, seed, seat, state, tongue, names)
        self._spawn(self._send_hint(conn, seat, version, job, labels, msg_id, key))

    async def _send_hint(
        self,
        conn: Conn,
        seat: int,
        version: int,
        job: Callable[[], Awaitable[dict[str, object]]],
        labels: HintLabels,
        msg_id: MsgId,
        key: tuple[int, int, str] | None = None,
    ) -> None:
        """Wait for a hint being computed, then send it to ``conn`` if the room is still at
        ``version`` and ``conn`` still listens as ``seat``; else it is dropped (the table moved
        on: the rows would be about a decision that is gone). The hint is kept under ``key``
        while the room stays at ``version``."""
        room = self.room
        try:
            found = await job()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "a hint failed in room %s", room.id, extra={"room": room.id, "seat": seat}
            )
            found = None
        finally:
            self.hinting.discard(conn)
        if found is None:
            with conn.speaking():
                failed = say("web.error.hint_failed")
            conn.push(error_frame("server_error", failed, msg_id))
            return
        async with self.lock:
            if room.evicted or room.version != version or conn.room is not room:
                return
            if key is not None:
                self.hint_cache = {k: v for k, v in self.hint_cache.items() if k[0] == version}
                self.hint_cache[key] = found
            if conn.seat != seat:
                return
            rows = found.get("rows")
            deals = found.get("deals")
            frame: HintFrame = {
                "type": "hint",
                "room": room.id,
                "version": version,
                "rows": cast("list[HintRow]", rows),
                "deals": deals if isinstance(deals, int) else 0,
                "labels": labels,
            }
            if msg_id is not None:
                frame["id"] = msg_id
            conn.push(frame)

    # -- holding the clocks ---------------------------------------------------------------------
    def only_person(self, seat: int) -> bool:
        """Whether ``seat`` is the only person's seat of the room (every other is an AI's)."""
        return all(s.type != "human" or s.seat == seat for s in self.room.row.seats)

    def hold(self, conn: Conn, seat: int, on: bool, msg_id: MsgId) -> None:
        """A ``hold`` from ``conn``, listening as ``seat`` (the lock is held): record or end its
        hold, hold or release the clocks, tell everyone when that changed and answer the sender
        (``held``: whether the room is held now). With another person at the table the hold is
        answered and changes nothing."""
        if on and self.only_person(seat):
            if conn not in self.holds:
                bound = self.clock.monotonic() + HOLD_LIMIT
                self.holds[conn] = asyncio.create_task(self._hold_bound(conn, bound))
        elif not on:
            task = self.holds.pop(conn, None)
            if task is not None:
                task.cancel()
        if self._apply_holds():
            self.broadcast([], skip=conn)
        answer = self.state(seat, [], msg_id)
        answer["held"] = self.held
        conn.push(answer)

    def _apply_holds(self) -> bool:
        """Hold the clocks and AI players if a hold is on, else let them run (the lock is held);
        whether that changed. Held, the window and the turn keep the time they had left;
        released, they run on from it and the AI players are scheduled again."""
        held = bool(self.holds) and not self.room.evicted and not self.stopped
        if held == self.held:
            return False
        now = self.clock.monotonic()
        self.held = held
        if held:
            self.window_left = max(0.0, self.window_deadline - now)
            self.turn_left = max(0.0, self.turn_deadline - now)
            for task in (self.window_task, self.turn_task, self.ai_task):
                if task is not None:
                    task.cancel()
            self.window_task = self.turn_task = self.ai_task = None
            self.ai_version = None
            return True
        if self.window_key is not None:
            self._arm_window(self.window_key, self.window_left)
        if self.turn_key is not None:
            self._arm_turn(self.turn_key, self.turn_left)
        self.after_change()
        return True

    async def _hold_bound(self, conn: Conn, bound: float) -> None:
        """A hold reached its bound (:data:`HOLD_LIMIT` after it began): it ends, and the clocks
        go on."""
        await self._until(bound)
        async with self.lock:
            if self.holds.get(conn) is not asyncio.current_task():
                return
            del self.holds[conn]
            if self._apply_holds():
                self.broadcast([])

    async def unhold(self, conn: Conn) -> None:
        """``conn`` closed (or left the room): its hold ends."""
        async with self.lock:
            task = self.holds.pop(conn, None)
            if task is None:
                return
            task.cancel()
            if self._apply_holds():
                self.broadcast([])

    # -- the turn clock, people away and stand-ins ----------------------------------------------
    def turn_time(self) -> float:
        """Seconds each turn of the room has (0: no clock)."""
        if self.settings.turn_time <= 0:
            return 0.0
        own = self.room.row.turn_time
        return self.settings.turn_time if own is None else own

    def _update_turn(self) -> None:
        """Run the turn clock for the people to act now, outside timed windows (which have
        their own); a new turn or decision starts it again."""
        room = self.room
        game = room.game
        key: tuple[int, tuple[int, ...]] | None = None
        length = self.turn_time()
        if length > 0 and game is not None and not game.over and self.window_key is None:
            people = tuple(s for s in game.actors if room.agent(s) is None)
            if people:
                key = (room.version, people)
        if key == self.turn_key:
            return
        if self.turn_task is not None:
            self.turn_task.cancel()
            self.turn_task = None
        self.turn_key = key
        if key is None:
            return
        if all(s in room.away for s in key[1]):
            length = min(length, self.settings.away_time)
        self._arm_turn(key, length)

    def _arm_turn(self, key: tuple[int, tuple[int, ...]], length: float) -> None:
        """Run the turn clock of ``key`` for ``length`` seconds (held: keep them for later)."""
        if self.held:
            self.turn_left = length
            return
        self.turn_deadline = self.clock.monotonic() + length
        self.turn_task = asyncio.create_task(self._turn_out(key, self.turn_deadline))

    async def _turn_out(self, key: tuple[int, tuple[int, ...]], deadline: float) -> None:
        """At ``deadline`` the time of a turn runs out: each person still to act is marked away
        and the engine's timeout move is played for them; one who let ``stand_in_after`` turns
        in a row run out gets an AI of the room's level in their seat until they come back."""
        room = self.room
        await self._until(deadline)
        async with self.lock:
            if self.turn_key != key or room.evicted:
                return
            self.turn_task = None
            for seat in key[1]:
                game = room.game
                if game is None or game.over or seat not in game.actors:
                    continue
                if room.agent(seat) is not None:
                    continue
                room.missed[seat] = room.missed.get(seat, 0) + 1
                room.away.add(seat)
                if room.missed[seat] >= self.settings.stand_in_after:
                    room.stand_ins[seat] = self.stand_in(seat)
                    log.info(
                        "room %s: an AI stands in for seat %d",
                        room.id,
                        seat,
                        extra={"room": room.id, "seat": seat},
                    )
                try:
                    action = str(game.timeout_action(seat))
                    await self.act(seat, action, None, None, None, chosen=CLOCK)
                except (ProtocolError, ValueError):
                    log.exception(
                        "the timeout move was refused in room %s",
                        room.id,
                        extra={"room": room.id, "seat": seat},
                    )
                    break

    def back(self, seat: int) -> bool:
        """A person is back at their seat (they joined with their token, or acted): not away,
        no missed turns, their stand-in leaves. Whether anything changed."""
        room = self.room
        changed = seat in room.away or seat in room.stand_ins
        room.away.discard(seat)
        room.missed.pop(seat, None)
        room.stand_ins.pop(seat, None)
        return changed

    def stand_in(self, seat: int) -> Agent:
        """The AI that plays ``seat`` while its person is away: the room's AI level (its first
        AI seat's), else ``casual``."""
        room = self.room
        level = next((s.level for s in room.row.seats if s.type == "ai" and s.level), "casual")
        seed = room.game_row.seed if room.game_row is not None else 0
        agent = get_agent(level, seed=ai_seed(seed, seat))
        if agent.name in SEARCH_LEVELS:
            self.search.warm()
        return agent

    # -- timed windows --------------------------------------------------------------------------
    def _update_window(self) -> None:
        room = self.room
        game = room.game
        key: WindowKey | None = None
        # a window opens with several seats to act; only then is the phase worth reading
        if (
            game is not None
            and not game.over
            and (self.window_key is not None or len(game.actors) > 1)
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
        if key == self.window_key:
            return
        if self.window_task is not None:
            self.window_task.cancel()
            self.window_task = None
        self.window_key = key
        if key is None:
            return
        settings = self.settings
        length = settings.peek_window if key[-1] == "peek" else settings.snap_window
        self._arm_window(key, length)

    def _arm_window(self, key: WindowKey, length: float) -> None:
        """Close the window of ``key`` in ``length`` seconds (held: keep them for later)."""
        if self.held:
            self.window_left = length
            return
        self.window_deadline = self.clock.monotonic() + length
        self.window_task = asyncio.create_task(self._close_window(key, self.window_deadline))

    async def _close_window(self, key: WindowKey, deadline: float) -> None:
        """At ``deadline`` the window of ``key`` closes: each seat still to act gets the
        engine's timeout move, one at a time."""
        room = self.room
        await self._until(deadline)
        async with self.lock:
            if self.window_key != key or room.evicted:
                return
            self.window_task = None
            for _ in range(64):  # each seat still to act gets its default, one at a time
                game = room.game
                if game is None or game.over or self.window_key != key:
                    break
                seat = game.actors[0]
                action = str(game.timeout_action(seat))
                try:
                    await self.act(seat, action, None, None, None, chosen=CLOCK)
                except ProtocolError:
                    log.exception(
                        "window default refused in room %s",
                        room.id,
                        extra={"room": room.id, "seat": seat},
                    )
                    break

    # -- a quick-play room's wait ---------------------------------------------------------------
    def fill_in(self) -> float | None:
        """Seconds until AI players take the open seats of the room (0: as soon as one of its
        people is connected); ``None`` unless it is a quick-play room still waiting for
        people (:func:`.fill.fill_in`)."""
        return fill_in(self.room, self.settings.quickplay_wait, self.clock.now())

    def update_fill(self) -> None:
        """Run the quick-play wait of the room while it waits for people: AI players take its
        open seats when the wait is over and one of its people is connected (a room whose wait
        ran out with nobody there fills when someone comes: call this on every join)."""
        room = self.room
        left = None if self.stopped or room.evicted else self.fill_in()
        task = self.fill_task
        if left is None:
            if task is not None and task is not asyncio.current_task():
                self.fill_task = None
                task.cancel()
            return
        if task is not None or (left <= 0 and not room.online()):
            return
        self.fill_task = asyncio.create_task(self._fill_later(self.clock.monotonic() + left))
        self.fill_task.add_done_callback(self._forget_fill)

    def _forget_fill(self, task: asyncio.Task[None]) -> None:
        if self.fill_task is task:
            self.fill_task = None

    async def _fill_later(self, due: float) -> None:
        """At ``due`` the wait of a quick-play room is over: with one of its people connected,
        AI players take the open seats and the game starts."""
        room = self.room
        await self._until(due)
        async with self.lock:
            me = asyncio.current_task()
            if me is not None:
                self._forget_fill(me)
            if room.evicted or self.stopped or not room.online() or self.fill_in() is None:
                return
            await self._fill_with_ai()

    async def _fill_with_ai(self) -> None:
        """Give every open person's seat to an AI of :data:`.fill.QUICKPLAY_LEVEL` and start the
        game (the lock is held). A person whose seat is taken but who is not here gets an AI
        stand-in at once, until they come back."""
        room = self.room
        label = ai_seat_label(QUICKPLAY_LEVEL)
        for seat in room.free_seats():
            try:
                await self.store.take_seat(room.id, seat, label, AI_FILLED + QUICKPLAY_LEVEL)
            except StoreError:
                log.exception(
                    "room %s: an AI could not take seat %d",
                    room.id,
                    seat,
                    extra={"room": room.id, "seat": seat},
                )
                self.broadcast([])
                return
            srow = room.row.seats[seat]
            srow.type, srow.level, srow.name = "ai", QUICKPLAY_LEVEL, label
            srow.token_hash, srow.memory_aid = None, False
        online = room.online()
        for srow in room.row.seats:
            if srow.type == "human" and srow.seat not in online:
                room.away.add(srow.seat)
                room.stand_ins[srow.seat] = self.stand_in(srow.seat)
        log.info("room %s: AI players took the open seats", room.id, extra={"room": room.id})
        await self.start_game()


def _handicap_question(room: str, version: int, labels: HintLabels, msg_id: MsgId) -> HintFrame:
    """The answer to a first hint at a table of people: no rows yet, the handicap to accept."""
    ask: HintFrame = {
        "type": "hint",
        "room": room,
        "version": version,
        "rows": [],
        "deals": 0,
        "labels": labels,
        "handicap": say("hint.handicap"),
    }
    if msg_id is not None:
        ask["id"] = msg_id
    return ask
