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
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from .. import variants
from ..agents import Agent
from ..agents import get as get_agent
from ..errors import IllegalAction
from ..game import Event, Game
from ..store import GameRow, RoomRow, SeatRow, Store, StoreError
from .protocol import (
    AI_LEVELS,
    ActMsg,
    ClientMessage,
    Frame,
    JoinMsg,
    PingMsg,
    PongFrame,
    ProtocolError,
    RematchMsg,
    RoomSummary,
    SeatInfo,
    StateFrame,
    TimedWindow,
    ai_seat_label,
)
from .search import SEARCH_LEVELS, SearchPool, default_workers, snapshot

__all__ = ["AI_LEVELS", "Conn", "Room", "RoomError", "RoomManager", "ai_seed", "hash_token"]

log = logging.getLogger("cardtable.web")

_MAX_QUEUE = 256
"""Frames a connection may have waiting before it is dropped as too slow."""


def _dumps(frame: Frame) -> str:
    """A frame as compact JSON text (orjson: JSON encoding was a sixth of the server's CPU)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def ai_seed(seed: int, seat: int) -> int:
    """The seed of the agent at AI seat ``seat`` in a game dealt from ``seed``."""
    return (seed * 31 + seat) & (2**62 - 1)


def hash_token(token: str) -> str:
    """The digest under which a seat's token is stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class RoomError(Exception):
    """A request about a room that cannot be met: an error ``code`` and a plain message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        """Error code (docs/protocol.md)."""
        self.message = message
        """Plain words."""


class Conn:
    """One WebSocket connection: where it listens and its queue of outgoing frames.

    A connection that cannot be served (a frame that cannot be encoded, a send that fails, a
    client too far behind) is dropped: :meth:`drop` marks it closed, stops its sender and
    closes the socket (``close``), and nothing else is affected."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._send = send
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        """Frames waiting to be sent (``None`` stops the sender)."""
        self.room: Room | None = None
        """The room this connection listens to."""
        self.seat: int | None = None
        """Its seat there (``None``: spectator)."""
        self.closed = False
        """Set once the connection is gone or dropped."""

    def push(self, frame: Frame | str) -> None:
        """Queue a frame (a dict is serialised to JSON)."""
        if self.closed:
            return
        if self.queue.qsize() >= _MAX_QUEUE:
            self.drop()  # a client this far behind is dropped rather than buffered
            return
        text = frame if isinstance(frame, str) else _dumps(frame)
        self.queue.put_nowait(text)

    def drop(self) -> None:
        """Stop serving this connection: nothing more is queued, the sender stops and closes
        the socket."""
        if self.closed:
            return
        self.closed = True
        self.queue.put_nowait(None)

    async def run_sender(self) -> None:
        """Send queued frames in order until stopped; a failing send drops the connection."""
        while True:
            text = await self.queue.get()
            if text is None:
                break
            try:
                await self._send(text)
            except Exception as exc:
                log.warning("a send failed (%s); dropping the connection", type(exc).__name__)
                self.closed = True
                break
        if self._close is not None:
            with contextlib.suppress(Exception):
                await self._close()


@dataclass
class Room:
    """A live room: its stored description, current game and listeners."""

    row: RoomRow
    """The room as stored."""
    game: Game | None = None
    """The current game (``None`` before the first start)."""
    game_row: GameRow | None = None
    """The current game as stored."""
    version: int = 0
    """Accepted actions and game starts so far."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the room changes."""
    conns: set[Conn] = field(default_factory=set)
    """Connections listening."""
    agents: dict[int, Agent] = field(default_factory=dict)
    """Agents of the AI seats for the current game."""
    tokens: dict[str, int] = field(default_factory=dict)
    """Seat by token digest."""
    ai_task: asyncio.Task[None] | None = None
    """The pending AI move (at most one per room)."""
    ai_version: int | None = None
    """The room's version the pending AI move is being searched for (``None`` while it waits
    its delay, or for a level that decides at once)."""
    window_key: tuple[Any, ...] | None = None
    """Which simultaneous window the timer runs for."""
    window_deadline: float = 0.0
    """When that window closes (loop time)."""
    window_task: asyncio.Task[None] | None = None
    """The timer closing the window."""
    unopened: set[int] = field(default_factory=set)
    """People's seats that have not yet been sent the current game's opening events (nobody
    was connected for them when it was dealt)."""

    @property
    def id(self) -> str:
        """Room id."""
        return self.row.id

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``finished``."""
        if self.game is None:
            return "waiting"
        return "finished" if self.game.over else "playing"

    def free_seats(self) -> list[int]:
        """People's seats nobody has taken yet."""
        return [s.seat for s in self.row.seats if s.type == "human" and s.token_hash is None]

    def online(self) -> set[int]:
        """Seats with at least one connection."""
        return {c.seat for c in self.conns if c.seat is not None}

    def seats_public(self) -> list[SeatInfo]:
        """What anyone may know about the seats."""
        on = self.online()
        return [
            {
                "type": s.type,
                "level": s.level,
                "name": s.name,
                "taken": s.type == "ai" or s.token_hash is not None,
                "online": s.type == "ai" or s.seat in on,
                "memory_aid": s.memory_aid,
            }
            for s in self.row.seats
        ]

    def summary(self) -> RoomSummary:
        """The room as the lobby shows it (no tokens, seeds or cards)."""
        var = variants.get(self.row.game)
        return {
            "room": self.id,
            "game": self.row.game,
            "title": var.title,
            "players": self.row.players,
            "options": self.row.options,
            "status": self.status,
            "game_no": self.game_row.game_no if self.game_row else 0,
            "version": self.version,
            "created": self.row.created,
            "seats": self.seats_public(),
        }


class RoomManager:
    """Every live room, and the one place that changes them."""

    def __init__(
        self,
        store: Store,
        *,
        ai_delay: float = 0.8,
        peek_window: float = 30.0,
        snap_window: float = 5.0,
        ai_workers: int | None = None,
    ) -> None:
        self.store = store
        """Where every accepted action goes first."""
        self.ai_delay = ai_delay
        """Seconds an AI seat waits before acting."""
        self.peek_window = peek_window
        """Seconds the initial-peek phase stays open."""
        self.snap_window = snap_window
        """Seconds a snap window stays open."""
        self.rooms: dict[str, Room] = {}
        """Live rooms by id."""
        self.search = SearchPool(default_workers() if ai_workers is None else ai_workers)
        """Where search-level AI moves are computed (``ai_workers`` processes; 0: a thread;
        ``None``: one per CPU)."""
        self._loading: dict[str, asyncio.Lock] = {}
        self._closing = False

    # -- life cycle --------------------------------------------------------------------------
    async def resume(self) -> int:
        """Rebuild every unfinished room from the store; return how many."""
        ids = await self.store.unfinished_rooms()
        for room_id in ids:
            await self.get(room_id)
        return len(ids)

    async def close(self) -> None:
        """Stop AI moves and timers, then the search workers."""
        self._closing = True
        for room in self.rooms.values():
            for task in (room.ai_task, room.window_task):
                if task is not None:
                    task.cancel()
        await self.search.close()

    async def get(self, room_id: str) -> Room | None:
        """A live room, rebuilt from the store if needed; ``None`` if unknown."""
        room = self.rooms.get(room_id)
        if room is not None:
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
            room = Room(row=row)
            room.tokens = {s.token_hash: s.seat for s in row.seats if s.token_hash}
            stored = await self.store.games(room_id)
            if stored:
                last = stored[-1]
                game = self._new_game(row, last.seed)
                for a in await self.store.actions(room_id, last.game_no):
                    game.play(a.seat, a.action)
                room.game, room.game_row = game, last
                room.version = last.base_version + last.actions
                room.agents = self._agents(row, last.seed)
                if not last.actions:  # dealt, and nobody has moved: the deal is still news
                    room.unopened = {s.seat for s in row.seats if s.type == "human"}
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
    ) -> tuple[Room, int | None, str | None]:
        """Create a room; the creator takes the first person's seat. Returns the room, that
        seat and its token (``None`` when every seat is an AI). Raises ``ValueError``.

        ``seats`` lists ``(type, level, memory_aid)``; ``memory_aid=True`` gives the memory
        aid to every person's seat. An AI seat cannot be given one: it always reads the
        perfect-memory view, its level models how well it remembers."""
        var = variants.get(game)
        if players is not None and players != len(seats):
            raise ValueError(f"'players' is {players} but {len(seats)} seats are listed")
        n = len(seats)
        if not var.min_players <= n <= var.max_players:
            raise ValueError(
                f"{var.title} is played by {var.min_players} to {var.max_players} players"
            )
        resolved = variants.new_game(var.name, players=n, seed=0, options=options).options
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
        token: str | None = None
        seat: int | None = None
        humans = [r for r in rows if r.type == "human"]
        if humans:
            token = secrets.token_urlsafe(24)
            seat = humans[0].seat
            humans[0].name = name or f"Player {seat + 1}"
            humans[0].token_hash = hash_token(token)
        row = RoomRow(
            id=secrets.token_urlsafe(6),
            game=var.name,
            players=n,
            options=resolved,
            public=public,
            autostart=autostart,
            created=time.time(),
            seats=rows,
        )
        await self.store.create_room(row)
        room = Room(row=row, tokens={r.token_hash: r.seat for r in rows if r.token_hash})
        self.rooms[row.id] = room
        if autostart and not room.free_seats():
            async with room.lock:
                await self._start_game(room)
        return room, seat, token

    async def take_seat(self, room_id: str, name: str | None) -> tuple[Room, int, str]:
        """Give the caller the first free person's seat; returns room, seat and token."""
        room = await self.get(room_id)
        if room is None:
            raise RoomError("unknown_room", "there is no such room")
        async with room.lock:
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
        live = [r for r in self.rooms.values() if r.row.public and r.status != "finished"]
        live.sort(key=lambda r: r.row.created, reverse=True)
        return [r.summary() for r in live[:100]]

    # -- messages ----------------------------------------------------------------------------
    async def handle(self, conn: Conn, msg: ClientMessage) -> None:
        """Handle one checked message from ``conn``."""
        if isinstance(msg, PingMsg):
            pong: PongFrame = {"type": "pong"}
            if msg.id is not None:
                pong["id"] = msg.id
            conn.push(pong)
            return
        if isinstance(msg, JoinMsg):
            try:
                room = await self.get(msg.room)
                if room is None:
                    raise ProtocolError("unknown_room", "there is no such room", msg.id)
                seat = None
                if msg.token is not None:
                    seat = self._seat_of(room, msg.token, msg.id)
            except ProtocolError:
                self.leave(conn)  # a refused join listens to no room (docs/protocol.md)
                raise
            async with room.lock:
                was_online = room.online()
                if conn.room is not None and conn.room is not room:
                    self.leave(conn)
                conn.room, conn.seat = room, seat
                room.conns.add(conn)
                if room.online() != was_online:
                    self._broadcast(room, [], skip=conn)
                conn.push(self._state(room, seat, self._first_sight(room, seat), msg.id))
            return
        room = await self.get(msg.room)
        if room is None:
            raise ProtocolError("unknown_room", "there is no such room", msg.id)
        seat = self._seat_of(room, msg.token, msg.id)
        async with room.lock:
            if isinstance(msg, ActMsg):
                await self._act(room, seat, msg.action, msg.version, conn, msg.id)
            elif isinstance(msg, RematchMsg):
                if room.game is None:
                    raise ProtocolError("not_started", "the first game has not started", msg.id)
                if not room.game.over:
                    raise ProtocolError("game_over", "the game is not over yet", msg.id)
                await self._start_game(room, sender=conn, msg_id=msg.id)
            else:  # StartMsg
                if room.game is not None:
                    raise ProtocolError("not_allowed", "the room has already started", msg.id)
                if room.free_seats():
                    raise ProtocolError(
                        "not_allowed", "people's seats are still free: share the link", msg.id
                    )
                await self._start_game(room, sender=conn, msg_id=msg.id)
            if conn not in room.conns:  # not listening: answer the sender anyway
                conn.push(self._state(room, seat, [], msg.id))

    def leave(self, conn: Conn) -> None:
        """Forget a connection (closed, or moved to another room)."""
        room = conn.room
        if room is None:
            return
        before = room.online()
        room.conns.discard(conn)
        conn.room = None
        if room.online() != before and not self._closing:
            self._broadcast(room, [])

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
    ) -> None:
        """Check, store, apply and push one action (the room's lock is held)."""
        game = room.game
        if game is None:
            raise ProtocolError("not_started", "the game has not started", msg_id)
        if game.over:
            raise ProtocolError("game_over", "the game is over", msg_id)
        actors = game.actors
        if seat not in actors:
            who = (
                f"seat {actors[0]} is to act"
                if len(actors) == 1
                else f"waiting for seats {', '.join(map(str, actors))}"
            )
            raise ProtocolError("not_your_turn", f"seat {seat} cannot act now: {who}", msg_id)
        try:
            action = game.check(seat, text)
        except IllegalAction as exc:
            raise ProtocolError("illegal", str(exc), msg_id) from None
        if version is not None and version != room.version:
            raise ProtocolError(
                "stale",
                f"the table has moved on: version {version} is not the current {room.version}",
                msg_id,
            )
        assert room.game_row is not None
        canonical = str(action)
        seq = room.version - room.game_row.base_version + 1
        try:
            await self.store.append(room.id, room.game_row.game_no, seq, seat, canonical)
        except StoreError:
            log.exception("store refused an action of room %s", room.id)
            raise ProtocolError(
                "store", "the server could not save the move; nothing changed", msg_id
            ) from None
        events = game.play(seat, action)
        room.version += 1
        if game.over:
            result = game.result
            assert result is not None
            with contextlib.suppress(StoreError):
                await self.store.finish_game(room.id, room.game_row.game_no, result.to_dict())
            room.game_row.finished = time.time()
            room.game_row.result = result.to_dict()
        self._after_change(room)
        self._broadcast(room, events, sender=sender, msg_id=msg_id)

    async def _start_game(self, room: Room, sender: Conn | None = None, msg_id: Any = None) -> None:
        """Deal a new game in ``room`` (the room's lock is held)."""
        seed = secrets.randbits(62)
        game_no = room.game_row.game_no + 1 if room.game_row else 1
        row = GameRow(room.id, game_no, seed, room.version + 1, time.time())
        await self.store.start_game(row)
        room.game = self._new_game(room.row, seed)
        room.game_row = row
        room.version += 1
        room.agents = self._agents(room.row, seed)
        self._after_change(room)
        # The deal's events (kaboo: each seat's first sight of its bottom row) reach every seat
        # now; a person not connected gets them when it first joins (see _first_sight).
        self._broadcast(room, room.game.opening_events, sender=sender, msg_id=msg_id)
        online = room.online()
        room.unopened = {s.seat for s in room.row.seats if s.type == "human"} - online

    def _first_sight(self, room: Room, seat: int | None) -> list[Event]:
        """The opening events for a seat that joins the current game for the first time, after
        it was dealt without it (e.g. against AI players, the game starts when the room is
        made); empty for every later join, so a reload never shows a card again.

        A card the deal showed the seat is shown only if it is still where it was: the
        perfect-memory view must still give the seat that card at that address (another seat
        may have moved it meanwhile), and the first round must still be on."""
        game = room.game
        if seat is None or game is None or seat not in room.unopened:
            return []
        room.unopened.discard(seat)
        if game.over:
            return []
        known = game.view(seat)
        out: list[Event] = []
        for event in game.opening_events:
            seen = event.for_seat(seat)
            if event.type == "round_start" and seen.get("round") != known.get("round"):
                return []
            if event.type == "peek" and seen.get("seat") == seat:
                where = str(seen.get("at", "")).split(".")
                try:
                    slot = known["hands"][int(where[0])][int(where[1])]
                except (IndexError, KeyError, TypeError, ValueError):
                    continue
                if not slot or slot.get("card") != seen.get("card"):
                    continue
            out.append(event)
        return out

    # -- pushing states ----------------------------------------------------------------------
    def _window(self, room: Room) -> TimedWindow | None:
        if room.window_key is None:
            return None
        left = max(0.0, room.window_deadline - asyncio.get_running_loop().time())
        return {"phase": room.window_key[-1], "closes_in": round(left, 2)}

    def _state(
        self, room: Room, seat: int | None, events: list[Event], msg_id: Any = None
    ) -> StateFrame:
        game = room.game
        bit = 1 << (seat if seat is not None else room.row.players)
        view: Mapping[str, Any] | None = None
        if game is not None:
            # A seat without memory aid, and every spectator (else a second tab watching the
            # room would give back the cards a player should remember), sees the table as a
            # person does: no code of a face-down card; the events below carry the moment.
            if seat is None:
                view = game.spectator_view(memory=False)
            else:
                view = game.view(seat, memory=room.row.seats[seat].memory_aid)
        out: StateFrame = {
            "type": "state",
            "room": room.id,
            "version": room.version,
            "game_no": room.game_row.game_no if room.game_row else 0,
            "status": room.status,
            "seat": seat,
            "seats": room.seats_public(),
            "view": view,
            "events": [e.visible(bit) for e in events],
            "window": self._window(room),
        }
        if msg_id is not None:
            out["id"] = msg_id
        return out

    def _broadcast(
        self,
        room: Room,
        events: list[Event],
        sender: Conn | None = None,
        msg_id: Any = None,
        skip: Conn | None = None,
    ) -> None:
        """Push every connection of the room (but ``skip``) its own state (one serialisation
        per seat). Each connection is served on its own: one whose frame cannot be built,
        encoded or queued is logged (room, seat and the kind of failure: never a card) and
        dropped, and the others still get theirs."""
        frames: dict[int | None, str] = {}
        for conn in list(room.conns):
            if conn is skip:
                continue
            try:
                if conn is sender and msg_id is not None:
                    conn.push(self._state(room, conn.seat, events, msg_id))
                    continue
                text = frames.get(conn.seat)
                if text is None:
                    text = frames[conn.seat] = _dumps(self._state(room, conn.seat, events))
                conn.push(text)
            except Exception as exc:
                log.warning(
                    "room %s: the state for seat %s could not be sent (%s); dropping that "
                    "connection",
                    room.id,
                    conn.seat,
                    type(exc).__name__,
                )
                conn.drop()  # its socket closes; leave() then takes it out of the room

    # -- AI seats and windows ------------------------------------------------------------
    def _after_change(self, room: Room) -> None:
        """Schedule AI moves and window timers after the room changed (lock held)."""
        if self._closing:
            return
        self._update_window(room)
        if room.ai_task is not None and room.ai_version not in (None, room.version):
            # a search is thinking about a state that is gone: drop it (a job no worker has
            # taken yet leaves the queue) and think again about the new one
            room.ai_task.cancel()
            room.ai_task = room.ai_version = None
        game = room.game
        if game is None or game.over:
            return
        if room.ai_task is None and any(s in room.agents for s in game.actors):
            room.ai_task = asyncio.create_task(self._ai_move(room))

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
        room.window_deadline = asyncio.get_running_loop().time() + length
        room.window_task = asyncio.create_task(self._close_window(room, key, length))

    async def _close_window(self, room: Room, key: tuple[Any, ...], length: float) -> None:
        await asyncio.sleep(length)
        async with room.lock:
            if room.window_key != key:
                return
            room.window_task = None
            for _ in range(64):  # each seat still to act gets its default, one at a time
                game = room.game
                if game is None or game.over or room.window_key != key:
                    break
                seat = game.actors[0]
                action = str(game.timeout_action(seat))
                try:
                    await self._act(room, seat, action, None, None, None)
                except ProtocolError:
                    log.exception("window default refused in room %s", room.id)
                    break

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
                seats = [] if game is None or game.over else game.actors
                seat = next((s for s in seats if s in room.agents), None)
                if game is None or seat is None:
                    room.ai_task = None
                    return
                agent = room.agents[seat]
                if agent.name not in SEARCH_LEVELS:
                    room.ai_task = None
                    await self._act(room, seat, str(agent.act(game, seat)), None, None, None)
                    return
                version = room.ai_version = room.version
                state = snapshot(game)
            action = await self.search.choose(agent.name, agent.seed, seat, state)
            async with room.lock:
                if room.ai_task is not me:  # replaced meanwhile: that task plays
                    return
                room.ai_task = room.ai_version = None
                if room.version != version:  # the room moved on: never play on another state
                    self._after_change(room)
                    return
                await self._act(room, seat, action, None, None, None)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI move failed in room %s", room.id)
            if room.ai_task is me:
                room.ai_task = room.ai_version = None
