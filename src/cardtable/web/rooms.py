"""Rooms: live games, their seats and connections, AI seats and real-time windows.

A :class:`RoomManager` owns every live room. All changes to a room happen under its lock, in
the order docs/protocol.md gives: check, append to the store (committed), apply to the game,
push every connection its own state. The engine is reached only through ``view``,
``spectator_view``, ``legal_actions``, ``actors``, ``check``, ``play`` and ``opening_events``.

People play without memory aid unless their seat was given one when the room was made: such a
seat (and every spectator) is sent ``view(seat, memory=False)``, the table without the code of
any face-down card; what it learns reaches it only in the events of the moment it learns it.

AI seats of the cheap levels decide at once, on the live game, under the room's lock. The
search levels (``expert``, ``master``) think in worker processes (:mod:`.search`): the move is
computed from a snapshot of the game taken under the lock, the lock is released meanwhile (the
room goes on answering joins, and people act in simultaneous phases), and the answer is played
under the lock only if the room is still at the version the snapshot was taken at. A change of
the room cancels a search whose state is gone and schedules a new move.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from typing import Any

from .. import variants
from ..agents import Agent
from ..agents import get as get_agent
from ..errors import GameOver, IllegalAction, NotYourTurn
from ..game import Event, Game
from ..seat import Seat
from ..store import GameRow, RoomRow, SeatRow, Store, StoreError
from .chat import chat_log, say
from .frames import first_sight, log_bit, push_all, state_frame
from .movelog import Chosen, MoveLog, by_label, stand_in
from .protocol import (
    AI_LEVELS,
    ActMsg,
    By,
    ChatMsg,
    ClientMessage,
    HoldMsg,
    JoinMsg,
    PingMsg,
    PongFrame,
    ProtocolError,
    RematchMsg,
    RoomSummary,
    StartMsg,
    StateFrame,
    ai_seat_label,
)
from .quickplay import QUICKPLAY_PREFIX, QuickPlay, is_quickplay, restore_ai_fill
from .rematch import answer as answer_rematch
from .room import Conn, Room, RoomError, ai_seed, hash_token
from .search import SEARCH_LEVELS, SearchPool, default_workers, snapshot
from .settings import DEFAULTS, ServerSettings

__all__ = ["AI_LEVELS", "Conn", "Room", "RoomError", "RoomManager", "ai_seed", "hash_token"]

_REFUSALS: dict[type[IllegalAction], str] = {GameOver: "game_over", NotYourTurn: "not_your_turn"}
"""The protocol's error code for each kind of refusal that has its own; every other is
``illegal`` (its words say which rule)."""

log = logging.getLogger("cardtable.web")


class RoomManager(QuickPlay):
    """Every live room, and the one place that changes them."""

    def __init__(self, store: Store, settings: ServerSettings = DEFAULTS) -> None:
        self.store = store
        """Where every accepted action goes first."""
        self.ai_delay = settings.ai_delay
        """Seconds an AI seat waits before acting."""
        self.peek_window = settings.peek_window
        """Seconds the initial-peek phase stays open."""
        self.snap_window = settings.snap_window
        """Seconds a snap window stays open."""
        self.rooms: dict[str, Room] = {}
        """Live rooms by id."""
        workers = settings.ai_workers
        self.search = SearchPool(default_workers() if workers is None else workers)
        """Where search-level AI moves are computed (``settings.ai_workers`` processes; 0: a
        thread; ``None``: one per CPU)."""
        self.turn_time = settings.turn_time
        """Seconds a person has for each turn or decision (a room may choose another); 0 turns
        the clock off for every room."""
        self.away_time = settings.away_time
        """Seconds the clock gives a person already marked away (at most ``turn_time``)."""
        self.stand_in_after = settings.stand_in_after
        """Turns and decisions in a row a person may let run out before an AI of the room's
        level takes their seat (until they come back)."""
        self.idle_time = settings.idle_time
        """Seconds a room with no connection (and no request about it) stays in memory; then
        it is paused: its timers and AI stop, and it is rebuilt from the store when asked for."""
        self.quickplay_wait = settings.quickplay_wait
        """Seconds a room opened by quick play waits for people before AI players take its open
        seats (see :mod:`.quickplay`)."""
        self.chat_rate = settings.chat_rate
        """Chat messages a seat (or a spectator's connection) may send in so many seconds."""
        self._fills: dict[str, asyncio.Task[None]] = {}
        self._quickplay = asyncio.Lock()
        self._loading: dict[str, asyncio.Lock] = {}
        self._closing = False
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- life cycle --------------------------------------------------------------------------
    def start(self) -> None:
        """Start a running server's background work: the sweep pausing idle rooms, the repair
        of games whose end was never marked, and loading the lobby's rooms. Rooms themselves
        load lazily, when first asked for: start-up does not depend on how many there are."""
        self._spawn(self._sweep_loop())
        self._spawn(self.repair())
        self._spawn(self._load_lobby())

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stop background work, AI moves and timers, then the search workers."""
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        for room in self.rooms.values():
            self._stop_timers(room)
        await self.search.close()

    async def _sweep_loop(self) -> None:
        period = max(0.2, min(30.0, self.idle_time / 4))
        while True:
            await asyncio.sleep(period)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of idle rooms failed")

    async def sweep(self) -> int:
        """Pause every room nobody has been connected to, or asked about, for ``idle_time``
        seconds: its AI and timers stop and it leaves memory (and the lobby); the store keeps
        it, and it is rebuilt exactly when someone asks for it. Returns how many."""
        now = asyncio.get_running_loop().time()
        paused = 0
        for room in list(self.rooms.values()):
            if room.conns or now - room.idle_since < self.idle_time:
                continue
            async with room.lock:
                if room.conns or room.evicted or now - room.idle_since < self.idle_time:
                    continue
                room.evicted = True
                self._stop_timers(room)
                if self.rooms.get(room.id) is room:
                    del self.rooms[room.id]
                paused += 1
        return paused

    async def repair(self) -> int:
        """Mark over every stored game whose moves end it but whose end was never marked (a
        server stopped between the two writes, before they were one transaction); returns how
        many. Runs in the background at start-up, one room at a time."""
        repaired = 0
        for room_id, game_no in await self.store.unfinished_games():
            if self._closing:
                break
            if room_id in self.rooms:  # a live room repaired itself when it loaded
                continue
            row = await self.store.room(room_id)
            game_row = next(
                (g for g in await self.store.games(room_id) if g.game_no == game_no), None
            )
            if row is None or game_row is None:
                continue
            try:
                game = await self._replayed(row, game_row, None)
            except Exception:
                continue  # recorded under other rules: the room says so when it is opened
            if game.over and game.result is not None and game_row.finished is None:
                with contextlib.suppress(StoreError):
                    await self.store.finish_game(room_id, game_no, game.result.to_dict())
                    repaired += 1
            await asyncio.sleep(0)
        if repaired:
            log.warning("marked %d game(s) over whose end had not been stored", repaired)
        return repaired

    async def _replayed(self, row: RoomRow, game_row: GameRow, moves: MoveLog | None) -> Game:
        """A stored game replayed move by move, each move and who chose it entered in ``moves``
        if given; ``ValueError`` if it was recorded under other rules or its moves no longer
        replay."""
        recorded = game_row.rules
        rules = variants.rules_version(row.game)
        if recorded is not None and recorded != rules:
            raise ValueError(
                f"game {game_row.game_no} of this room was recorded under the rules {recorded}, "
                f"and this server plays {rules}: it cannot go on"
            )
        game = self._new_game(row, game_row.seed)
        if moves is not None:
            moves.reset(game_row.base_version, game.opening_events)
        try:
            for a in await self.store.actions(row.id, game_row.game_no):
                events = game.play(a.seat, a.action)
                if moves is not None:
                    by = by_label(Chosen.of(a), a.seat, row)
                    moves.add(game_row.base_version + a.seq, a.seat, by, events)
        except (IllegalAction, ValueError, KeyError, IndexError) as exc:
            raise ValueError(
                f"the stored moves of game {game_row.game_no} do not replay under the rules "
                f"{rules}: it cannot go on"
            ) from exc
        return game

    async def _load_lobby(self) -> None:
        """Bring back to the lobby, after a restart, the public rooms of the last hour still
        waiting for people (paused again if nobody comes). Rooms in play come back when someone
        asks for them: loading them would set their AI seats playing with nobody watching."""
        for room_id in await self.store.lobby_candidates(100, since=time.time() - 3600):
            if self._closing:
                return
            row = await self.store.room(room_id)
            if row is None or not any(s.type == "human" and not s.token_hash for s in row.seats):
                continue
            with contextlib.suppress(Exception):
                await self.get(room_id)

    async def get(self, room_id: str) -> Room | None:
        """A live room, rebuilt from the store if needed; ``None`` if unknown."""
        room = self.rooms.get(room_id)
        if room is not None:
            room.idle_since = asyncio.get_running_loop().time()
            return room
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(room_id)
            if room is not None:
                return room
            row = await self.store.room(room_id)
            if row is None:
                self._loading.pop(room_id, None)
                return None
            row = restore_ai_fill(row)
            room = Room(row=row, idle_since=asyncio.get_running_loop().time())
            room.tokens = {s.token_hash: s.seat for s in row.seats if s.token_hash}
            stored = await self.store.games(room_id)
            if stored:
                last = stored[-1]
                room.game_row = last
                room.version = last.base_version + last.actions
                try:
                    game = await self._replayed(row, last, room.moves)
                except ValueError as exc:
                    room.refusal = str(exc)  # the room opens, says why, and plays no more
                    log.warning("room %s cannot go on: %s", room_id, exc)
                else:
                    room.game = game
                    room.agents = self._agents(row, last.seed)
                    if not last.actions:  # dealt, and nobody has moved: the deal is still news
                        room.unopened = {s.seat for s in row.seats if s.type == "human"}
                    result = game.result
                    if result is not None and last.finished is None:  # its end was not stored
                        with contextlib.suppress(StoreError):
                            await self.store.finish_game(room_id, last.game_no, result.to_dict())
                            last.finished, last.result = time.time(), result.to_dict()
            self.rooms[room_id] = room
            self._loading.pop(room_id, None)
        async with room.lock:
            self._after_change(room)
        return room

    # -- rooms -------------------------------------------------------------------------------
    @staticmethod
    def _new_game(row: RoomRow, seed: int) -> Game:
        return variants.new_game(row.game, players=row.players, seed=seed, options=row.options)

    def _agents(self, row: RoomRow, seed: int) -> dict[int, Agent]:
        """The agents of the AI seats for a game dealt from ``seed``; a search level among
        them starts the search workers (once), so its first move does not wait for them."""
        agents = {
            s.seat: get_agent(s.level or "casual", seed=ai_seed(seed, s.seat))
            for s in row.seats
            if s.type == "ai"
        }
        if any(a.name in SEARCH_LEVELS for a in agents.values()):
            self.search.warm()
        return agents

    async def create(
        self,
        game: str,
        seats: list[tuple[str, str | None, bool]],
        *,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        name: str | None = None,
        public: bool = True,
        autostart: bool = True,
        memory_aid: bool = False,
        turn_time: float | None = None,
        quickplay: bool = False,
        spectator_chat: bool = False,
    ) -> tuple[Room, int | None, str | None]:
        """Create a room; the creator takes the first person's seat. Returns the room, that
        seat and its token (``None`` when every seat is an AI). Raises ``ValueError``.

        ``seats`` lists ``(type, level, memory_aid)``; ``memory_aid=True`` gives the memory
        aid to every person's seat. An AI seat cannot be given one: it always reads the
        perfect-memory view, its level models how well it remembers. ``turn_time`` gives the
        room's people another time per turn than the server's. ``quickplay``: the room is opened
        by quick play (its id says so, and its open seats go to AI players after a wait).
        ``spectator_chat``: spectators may write in the room's chat."""
        var = variants.get(game)
        if players is not None and players != len(seats):
            raise ValueError(f"'players' is {players} but {len(seats)} seats are listed")
        n = len(seats)
        if not var.min_players <= n <= var.max_players:
            raise ValueError(
                f"{var.title} is played by {var.min_players} to {var.max_players} players"
            )
        resolved = variants.new_game(var.name, players=n, seed=0, options=options).options
        rows = self._seat_rows(seats, memory_aid)
        seat, token = self._seat_creator(rows, name)
        row = RoomRow(
            id=(QUICKPLAY_PREFIX if quickplay else "") + secrets.token_urlsafe(6),
            game=var.name,
            players=n,
            options=resolved,
            public=public,
            autostart=autostart,
            created=time.time(),
            seats=rows,
            turn_time=turn_time,
            spectator_chat=spectator_chat,
        )
        await self.store.create_room(row)
        room = Room(
            row=row,
            tokens={r.token_hash: r.seat for r in rows if r.token_hash},
            idle_since=asyncio.get_running_loop().time(),
        )
        self.rooms[row.id] = room
        if autostart and not room.free_seats():
            async with room.lock:
                await self._start_game(room)
        if quickplay:
            self._update_fill(room)
        return room, seat, token

    @staticmethod
    def _seat_rows(seats: list[tuple[str, str | None, bool]], memory_aid: bool) -> list[SeatRow]:
        """The rows of a new room's seats, from :meth:`create`'s ``seats`` and
        ``memory_aid``. Raises ``ValueError`` for a seat that cannot be."""
        rows: list[SeatRow] = []
        for i, (kind, level, aid) in enumerate(seats):
            if kind == "ai":
                if aid:
                    raise ValueError(
                        f"seat {i} is an AI: only a person's seat can have the memory aid "
                        "(an AI's level decides how well it remembers)"
                    )
                lvl = (level or "casual").strip().lower()
                if lvl not in AI_LEVELS:
                    raise ValueError(
                        f"unknown AI level {level!r}; choose from: {', '.join(AI_LEVELS)}"
                    )
                rows.append(SeatRow(i, "ai", lvl, ai_seat_label(lvl)))
            elif kind == "human":
                if level is not None:
                    raise ValueError("a person's seat has no level")
                rows.append(SeatRow(i, "human", memory_aid=bool(aid or memory_aid)))
            else:
                raise ValueError(f"a seat is 'human' or 'ai', not {kind!r}")
        return rows

    @staticmethod
    def _seat_creator(rows: list[SeatRow], name: str | None) -> tuple[int | None, str | None]:
        """Give a new room's creator the first person's seat among ``rows`` (named ``name``, or
        after the seat): that seat and its token, or ``None`` twice when every seat is an AI."""
        humans = [r for r in rows if r.type == "human"]
        if not humans:
            return None, None
        token = secrets.token_urlsafe(24)
        seat = humans[0].seat
        humans[0].name = name or f"Player {seat + 1}"
        humans[0].token_hash = hash_token(token)
        return seat, token

    async def take_seat(self, room_id: str, name: str | None) -> tuple[Room, int, str]:
        """Give the caller the first free person's seat; returns room, seat and token."""
        room = await self.get(room_id)
        if room is None:
            raise RoomError("unknown_room", "there is no such room")
        async with room.lock:
            if room.evicted:  # paused while this request waited: ask the store again
                return await self.take_seat(room_id, name)
            if room.refusal is not None:
                raise RoomError("rules_changed", room.refusal)
            free = room.free_seats()
            if not free:
                raise RoomError("room_full", "every person's seat in this room is taken")
            seat = free[0]
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            shown = name or f"Player {seat + 1}"
            try:
                await self.store.take_seat(room.id, seat, shown, digest)
            except StoreError:
                raise RoomError("room_full", "that seat was just taken") from None
            srow = room.row.seats[seat]
            srow.name, srow.token_hash = shown, digest
            room.tokens[digest] = seat
            if room.row.autostart and room.game is None and not room.free_seats():
                # the seat is taken and stored: whatever happens to the deal, its token is
                # given (a deal that failed can be asked for again with ``start``)
                try:
                    await self._start_game(room)
                except Exception as exc:
                    log.error("room %s: the game could not start (%s)", room.id, type(exc).__name__)
            else:
                self._broadcast(room, [])
        return room, seat, token

    def lobby(self) -> list[RoomSummary]:
        """Public rooms waiting for people or in play, newest first."""
        live = [
            r for r in self.rooms.values() if r.row.public and r.status in ("waiting", "playing")
        ]
        live.sort(key=lambda r: r.row.created, reverse=True)
        return [self.summary(r) for r in live[:100]]

    def summary(self, room: Room) -> RoomSummary:
        """The room's summary with what the manager knows of it: the seconds each turn has
        (``turn_time``, 0: no clock), whether quick play opened it, and while such a room
        waits, the seconds until AI players take its open seats (``ai_fill_in``)."""
        out = room.summary()
        out["turn_time"] = self._turn_time(room)
        out["quickplay"] = is_quickplay(room.id)
        fill = self.ai_fill_in(room)
        if fill is not None:
            out["ai_fill_in"] = fill
        return out

    # -- messages ----------------------------------------------------------------------------
    async def handle(self, conn: Conn, msg: ClientMessage) -> None:
        """Handle one checked message from ``conn``."""
        if isinstance(msg, PingMsg):
            pong: PongFrame = {"type": "pong"}
            if msg.id is not None:
                pong["id"] = msg.id
            conn.push(pong)
        elif isinstance(msg, JoinMsg):
            await self._join(conn, msg)
        elif isinstance(msg, ChatMsg):
            await self._chat(conn, msg)
        else:
            await self._seat_message(conn, msg)

    async def _join(self, conn: Conn, msg: JoinMsg) -> None:
        """Make ``conn`` listen to a room, as the token's seat or as a spectator, and send it
        the room's state with the move log and the chat so far (a refused join leaves
        ``conn`` listening to no room)."""
        try:
            room = await self.get(msg.room)
            if room is None:
                raise ProtocolError("unknown_room", "there is no such room", msg.id)
            if room.refusal is not None:
                raise ProtocolError("rules_changed", room.refusal, msg.id)
            seat = None
            if msg.token is not None:
                seat = self._seat_of(room, msg.token, msg.id)
        except ProtocolError:
            self.leave(conn)  # a refused join listens to no room (docs/protocol.md)
            raise
        async with room.lock:
            if room.evicted:  # paused while this join waited: join the room rebuilt
                await self.handle(conn, msg)
                return
            was_online = room.online()
            if conn.room is not None and conn.room is not room:
                self.leave(conn)
            conn.room, conn.seat = room, seat
            conn.on_drop = self._dropped
            room.conns.add(conn)
            self._update_fill(room)  # a quick-play room whose wait is over fills now
            back = seat is not None and self._back(room, seat)
            if back:
                self._after_change(room)
            if back or room.online() != was_online:
                self._broadcast(room, [], skip=conn)
            state = self._state(room, seat, first_sight(room, seat), msg.id)
            state["log"] = room.moves.read(log_bit(room, seat))
            lines = chat_log(room, seat)
            if lines is not None:
                state["chat_log"] = lines
            conn.push(state)

    async def _seat_message(
        self, conn: Conn, msg: ActMsg | HoldMsg | RematchMsg | StartMsg
    ) -> None:
        """An action, a hold, a rematch or a start: what only a seat's token may send."""
        room = await self.get(msg.room)
        if room is None:
            raise ProtocolError("unknown_room", "there is no such room", msg.id)
        if room.refusal is not None:
            raise ProtocolError("rules_changed", room.refusal, msg.id)
        if msg.token is None:  # a rematch or a hold from a spectator
            what = "hold the clocks" if isinstance(msg, HoldMsg) else "offer or answer a rematch"
            raise ProtocolError(
                "not_allowed",
                f"a spectator cannot {what}: only a person at the table can (with the seat's "
                f"token)",
                msg.id,
            )
        seat = self._seat_of(room, msg.token, msg.id)
        async with room.lock:
            if room.evicted:
                raise ProtocolError(
                    "room_paused", "the room was paused meanwhile: join it again", msg.id
                )
            if isinstance(msg, ActMsg):
                await self._act(room, seat, msg.action, msg.version, conn, msg.id, person=True)
            elif isinstance(msg, HoldMsg):
                if conn.room is not room or conn.seat != seat:
                    raise ProtocolError(
                        "not_joined",
                        "join the room with this seat's token first: a hold lasts while the "
                        "connection that asked for it listens to the room",
                        msg.id,
                    )
                self._hold(room, conn, seat, msg.on, msg.id)
            elif isinstance(msg, RematchMsg):
                if answer_rematch(room, seat, msg.accept, msg.id):
                    await self._start_game(room, sender=conn, msg_id=msg.id)
                else:
                    self._broadcast(room, [], sender=conn, msg_id=msg.id)
            else:
                await self._start_asked(room, conn, msg)
            if conn not in room.conns:  # not listening: answer the sender anyway
                conn.push(self._state(room, seat, [], msg.id))

    async def _start_asked(self, room: Room, conn: Conn, msg: StartMsg) -> None:
        """Start the first game of a room made without autostart, once every person's seat
        is taken (under the room's lock)."""
        if room.game is not None:
            raise ProtocolError("not_allowed", "the room has already started", msg.id)
        if room.free_seats():
            raise ProtocolError(
                "not_allowed", "people's seats are still free: share the link", msg.id
            )
        await self._start_game(room, sender=conn, msg_id=msg.id)

    async def _chat(self, conn: Conn, msg: ChatMsg) -> None:
        """A chat line or reaction (:mod:`.chat`): as the token's seat, or as a spectator."""
        room = await self.get(msg.room)
        if room is None:
            raise ProtocolError("unknown_room", "there is no such room", msg.id)
        seat = None if msg.token is None else self._seat_of(room, msg.token, msg.id)
        say(room, conn, seat, msg, self.chat_rate)

    def leave(self, conn: Conn, *, later: bool = False) -> None:
        """Forget a connection (closed, or moved to another room); with ``later`` the others
        hear of it right after the frame being sent now (a connection dropped mid-broadcast)."""
        room = conn.room
        if room is None or conn not in room.conns:
            conn.room = None
            return
        before = room.online()
        room.conns.discard(conn)
        conn.room = None
        if conn in room.holds and not self._closing:
            self._spawn(self._unhold(room, conn))
        if not room.conns:
            room.idle_since = asyncio.get_running_loop().time()
        if room.online() != before and not self._closing:
            if later:
                asyncio.get_running_loop().call_soon(self._broadcast, room, [])
            else:
                self._broadcast(room, [])

    def _dropped(self, conn: Conn) -> None:
        """A connection the server dropped (too slow, or failing) stops counting as online at
        once, not when its socket finally closes."""
        self.leave(conn, later=True)

    @staticmethod
    def _seat_of(room: Room, token: str, msg_id: Any) -> int:
        digest = hash_token(token)
        for known, seat in room.tokens.items():
            if hmac.compare_digest(known, digest):
                return seat
        raise ProtocolError("bad_token", "this token holds no seat in this room", msg_id)

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
        """Check, store, apply and push one action (the room's lock is held); ``person``: the
        seat's person played it themselves (so they are back if they were away); ``chosen``:
        who chose it when not the seat's own player (the clock, a stand-in)."""
        game = room.game
        if game is None:
            raise ProtocolError("not_started", "the game has not started", msg_id)
        try:
            action = game.check(seat, text)
        except IllegalAction as exc:
            code = _REFUSALS.get(type(exc), "illegal")
            raise ProtocolError(code, str(exc), msg_id) from None
        if version is not None and version != room.version:
            raise ProtocolError(
                "stale",
                f"the table has moved on: version {version} is not the current {room.version}",
                msg_id,
            )
        assert room.game_row is not None
        canonical = str(action)
        seq = room.version - room.game_row.base_version + 1
        # the move and, when it ends the game, the game's end are stored in one transaction:
        # first on a copy, to know whether it ends the game before anything is stored
        after = game.clone()
        after.play(seat, action)
        result = after.result.to_dict() if after.over and after.result is not None else None
        try:
            await self.store.append(
                room.id,
                room.game_row.game_no,
                seq,
                seat,
                canonical,
                result=result,
                chosen_by=chosen.kind if chosen is not None else None,
                stand_in=chosen.level if chosen is not None else None,
            )
        except StoreError:
            log.exception("store refused an action of room %s", room.id)
            raise ProtocolError(
                "store", "the server could not save the move; nothing changed", msg_id
            ) from None
        events = game.play(seat, action)
        room.version += 1
        by = by_label(chosen, seat, room.row)
        room.moves.add(room.version, seat, by, events)
        if result is not None:
            room.game_row.finished = time.time()
            room.game_row.result = result
        if person:
            self._back(room, seat)
        self._after_change(room)
        self._broadcast(room, events, sender=sender, msg_id=msg_id, by=by)

    async def _start_game(self, room: Room, sender: Conn | None = None, msg_id: Any = None) -> None:
        """Deal a new game in ``room`` (the room's lock is held)."""
        seed = secrets.randbits(62)
        game_no = room.game_row.game_no + 1 if room.game_row else 1
        row = GameRow(
            room.id,
            game_no,
            seed,
            room.version + 1,
            time.time(),
            rules=variants.rules_version(room.row.game),
        )
        await self.store.start_game(row)
        room.game = self._new_game(room.row, seed)
        room.game_row = row
        room.version += 1
        room.moves.reset(room.version, room.game.opening_events)
        room.rematch = None
        room.agents = self._agents(room.row, seed)
        room.stand_ins = {s: self._stand_in(room, s) for s in room.stand_ins}
        self._after_change(room)
        # The deal's events (kaboo: each seat's first sight of its bottom row) reach every seat
        # now; a person not connected gets them when it first joins (see frames.first_sight).
        self._broadcast(room, room.game.opening_events, sender=sender, msg_id=msg_id)
        online = room.online()
        room.unopened = {s.seat for s in room.row.seats if s.type == "human"} - online

    # -- pushing states ----------------------------------------------------------------------
    def _state(
        self,
        room: Room,
        seat: int | None,
        events: list[Event],
        msg_id: Any = None,
        by: By | None = None,
    ) -> StateFrame:
        """The ``state`` frame of ``room`` for a connection of ``seat`` (:func:`.state_frame`)."""
        return state_frame(
            room,
            seat,
            events,
            window=self._window(room),
            clock=self._clock(room),
            fill_in=self.ai_fill_in(room),
            by=by,
            msg_id=msg_id,
        )

    def _broadcast(
        self,
        room: Room,
        events: list[Event],
        sender: Conn | None = None,
        msg_id: Any = None,
        skip: Conn | None = None,
        by: By | None = None,
    ) -> None:
        """Push every connection of the room (but ``skip``) its own state reporting ``events``,
        chosen ``by`` someone else than their seat's player if so (:func:`.push_all`)."""

        def build(seat: int | None, frame_id: Any) -> StateFrame:
            return self._state(room, seat, events, frame_id, by)

        push_all(room, build, sender, msg_id, skip)

    # -- AI seats and windows ------------------------------------------------------------
    def _after_change(self, room: Room) -> None:
        """Schedule AI moves and window timers after the room changed (lock held)."""
        if self._closing or room.evicted:
            return
        self._update_window(room)
        self._update_clock(room)
        self._update_fill(room)
        if room.ai_task is not None and room.ai_version not in (None, room.version):
            # a search is thinking about a state that is gone: drop it (a job no worker has
            # taken yet leaves the queue) and think again about the new one
            room.ai_task.cancel()
            room.ai_task = room.ai_version = None
        game = room.game
        if game is None or game.over or room.held:  # held: the AI players wait too
            return
        if room.ai_task is None and any(room.agent(s) is not None for s in game.actors):
            room.ai_task = asyncio.create_task(self._ai_move(room))

    async def _ai_move(self, room: Room) -> None:
        """Play the move of the first AI seat to act, ``ai_delay`` seconds from now.

        A cheap level decides at once, on the live game, under the room's lock. A search level
        thinks in the search pool on a snapshot taken under the lock, with the lock released;
        its answer is played under the lock if the room is still at the snapshot's version
        (:meth:`_after_change` cancels this task as soon as it is not)."""
        me = asyncio.current_task()
        try:
            await asyncio.sleep(self.ai_delay)
            async with room.lock:
                game = room.game
                live = game is not None and not game.over and not room.evicted and not room.held
                seats = game.actors if game is not None and live else []
                seat = next((s for s in seats if room.agent(s) is not None), None)
                agent = room.agent(seat) if seat is not None else None
                if game is None or seat is None or agent is None:
                    room.ai_task = None
                    return
                # an AI standing in for a person is marked, an AI seat's own move is not
                chosen = None if seat in room.agents else stand_in(agent.name)
                if agent.name not in SEARCH_LEVELS:
                    room.ai_task = None
                    action = str(agent.act(Seat(game, seat)))
                    await self._act(room, seat, action, None, None, None, chosen=chosen)
                    return
                version = room.ai_version = room.version
                state = snapshot(game, seat)
            action = await self.search.choose(agent.name, agent.seed, seat, state)
            async with room.lock:
                if room.ai_task is not me:  # replaced meanwhile: that task plays
                    return
                room.ai_task = room.ai_version = None
                if room.version != version or room.agent(seat) is not agent or room.held:
                    # the room moved on, or the person is back: never play on another state
                    self._after_change(room)
                    return
                await self._act(room, seat, action, None, None, None, chosen=chosen)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI move failed in room %s", room.id)
            if room.ai_task is me:
                room.ai_task = room.ai_version = None
