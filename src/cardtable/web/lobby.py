"""The lobby: every live room's table by id, and the rooms' lives in memory.

A :class:`Lobby` makes rooms and seats people at them, loads a room lazily from the store the
first time it is asked for (replaying its current game), pauses a room nobody has been at for
``idle_time`` seconds (its table stops; the store keeps it), repairs at start-up the games whose
end was never marked, brings the public rooms still waiting for people back to the list after a
restart, and lists the public rooms. Each live room has a :class:`~.table.Table`, built with the
:class:`~.table.Services` the lobby was given.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine

from .. import variants
from ..catalog import say
from ..errors import IllegalAction
from ..game import Game
from ..store import GameRow, RoomRow, SeatRow, StoreError
from ..store.players import Players
from ..variants import Options
from .fill import QUICKPLAY_PREFIX, restore_ai_fill
from .movelog import Chosen, MoveLog, by_label
from .protocol import AI_LEVELS, RoomSummary, ai_seat_label
from .room import Room, RoomError, ai_only, hash_token
from .table import Services, Table, new_game

__all__ = ["AI_ROOMS_RETRY", "PAUSED_KEPT", "Lobby"]

log = logging.getLogger("cardtable.web")

PAUSED_KEPT = 256
"""Paused rooms whose last state the lobby keeps to answer reads (a summary, a replay's
seats) without replaying their game from the store again; the least recently read go first."""

AI_ROOMS_RETRY = 30
"""Seconds a refusal past ``max_ai_rooms`` asks the client to wait (``Retry-After``)."""


class Lobby:
    """Every live room's table by id: made, loaded, seated, paused, repaired and listed."""

    def __init__(self, services: Services) -> None:
        self.services = services
        """What every table is given (the store, the settings, the clock, the search pool)."""
        self.store = services.store
        """Where rooms are made and read."""
        self.clock = services.clock
        """The clock of the idle times and of the stored times."""
        self.idle_time = services.settings.idle_time
        """Seconds a room nobody is at (and nobody asks about) stays in memory."""
        self.tables: dict[str, Table] = {}
        """The live rooms' tables by room id."""
        self.paused: OrderedDict[str, Room] = OrderedDict()
        """Rooms not in memory as read last (paused, or read since a restart): what a read
        answers from (:meth:`read`), at most :data:`PAUSED_KEPT`, the oldest read first out."""
        self.max_ai_rooms = services.settings.max_ai_rooms
        """Rooms of AI players only that may play in memory at once (0: no cap)."""
        self._ai_making = 0  # rooms of AI players only being made (stored, not yet in memory)
        self._ai_tables: dict[str, Table] = {}  # the tables of rooms of AI players only
        self.closing = False
        """Set once the server closes: nothing new starts."""
        self.claim: Callable[[str], Awaitable[bool]] | None = None
        """In a cluster: take a room for this process before it is loaded (its lease, then
        the store's fence); ``False`` if there is no such room, ``RoomError``
        (``room_moved``) if another process plays it (:mod:`.cluster`)."""
        self.claim_new: Callable[[str], Awaitable[None]] | None = None
        """In a cluster: take the lease of a room this process just made."""
        self.released: Callable[[str], Awaitable[None]] | None = None
        """In a cluster: give up a room that left memory (paused)."""
        self.keep_reads = True
        """Whether reads of rooms not in memory are kept (:attr:`paused`); a cluster keeps
        none: another process may play the room meanwhile."""
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[object]] = set()
        self._startup: list[asyncio.Task[object]] = []

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> list[asyncio.Task[object]]:
        """Start a running server's background work: the sweep pausing idle rooms, the repair
        of games whose end was never marked, and loading the lobby's rooms. Rooms themselves
        load lazily, when first asked for: start-up does not depend on how many there are.
        Returns the start-up's two one-off tasks (the repair, the lobby's rooms)."""
        self._spawn(self._sweep_loop())
        if self.claim is not None:  # a cluster's rooms come back when asked for
            self._startup = [self._spawn(self.repair())]
        else:
            self._startup = [self._spawn(self.repair()), self._spawn(self._load_lobby())]
        return list(self._startup)

    def _spawn(self, work: Coroutine[object, object, object]) -> asyncio.Task[object]:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def close(self) -> None:
        """Stop background work and every table's timers and AI moves. The start-up's one-off
        tasks are not cancelled: they stop at their next room (:attr:`closing`), and the
        server waits for them (:meth:`.RoomManager.close`) — a read cancelled in the middle
        leaves the store's connection to be thrown away after the loop is gone."""
        self.closing = True
        for task in list(self._tasks):
            if task not in self._startup:
                task.cancel()
        for table in self.tables.values():
            table.stop()

    async def _sweep_loop(self) -> None:
        period = max(0.2, min(30.0, self.idle_time / 4))
        while True:
            await self.clock.sleep(period)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of idle rooms failed")

    async def sweep(self) -> int:
        """Pause every room nobody has been connected to, or asked about, for ``idle_time``
        seconds: its table stops and it leaves memory (and the lobby); the store keeps it, and
        it is rebuilt exactly when someone asks for it. Returns how many."""
        now = self.clock.monotonic()
        paused = 0
        for table in list(self.tables.values()):
            room = table.room
            if room.conns or now - room.idle_since < self.idle_time:
                continue
            async with table.lock:
                if room.conns or room.evicted or now - room.idle_since < self.idle_time:
                    continue
                if self.take_out(table):
                    self._keep_paused(room)
                    if self.released is not None:
                        await self.released(room.id)
                paused += 1
        return paused

    def take_out(self, table: Table) -> bool:
        """Stop ``table`` and take its room out of memory (the caller holds the table's lock):
        the room is marked evicted. Whether ``table`` was the room's live table."""
        room = table.room
        room.evicted = True
        table.stop()
        if self.tables.get(room.id) is not table:
            return False
        del self.tables[room.id]
        self._ai_tables.pop(room.id, None)
        return True

    async def repair(self) -> int:
        """Mark over every stored game whose moves end it but whose end was never marked (a
        server stopped between the two writes, before they were one transaction); returns how
        many. Runs in the background at start-up, one room at a time."""
        repaired = 0
        for room_id, game_no in await self.store.unfinished_games():
            if self.closing:
                break
            if room_id in self.tables:  # a live room repaired itself when it loaded
                continue
            row = await self.store.room(room_id)
            game_row = next(
                (g for g in await self.store.games(room_id) if g.game_no == game_no), None
            )
            if row is None or game_row is None:
                continue
            try:
                game, _played = await self._replayed(row, game_row, None)
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

    async def _replayed(
        self, row: RoomRow, game_row: GameRow, moves: MoveLog | None
    ) -> tuple[Game, list[tuple[int, str]]]:
        """A stored game replayed move by move, and its moves ``(seat, action)``; each move and
        who chose it entered in ``moves`` if given; ``ValueError`` if it was recorded under
        other rules or its moves no longer replay."""
        recorded = game_row.rules
        rules = variants.rules_version(row.game)
        if recorded is not None and recorded != rules:
            raise ValueError(
                f"game {game_row.game_no} of this room was recorded under the rules {recorded}, "
                f"and this server plays {rules}: it cannot go on"
            )
        game = new_game(row, game_row.seed)
        played: list[tuple[int, str]] = []
        if moves is not None:
            moves.reset(game_row.base_version, game.opening_events)
        try:
            for a in await self.store.actions(row.id, game_row.game_no):
                events = game.play(a.seat, a.action)
                played.append((a.seat, a.action))
                if moves is not None:
                    by = by_label(Chosen.of(a), a.seat, row)
                    moves.add(game_row.base_version + a.seq, a.seat, by, events)
        except (IllegalAction, ValueError, KeyError, IndexError) as exc:
            raise ValueError(
                f"the stored moves of game {game_row.game_no} do not replay under the rules "
                f"{rules}: it cannot go on"
            ) from exc
        return game, played

    async def _load_lobby(self) -> None:
        """Bring back to the lobby, after a restart, the public rooms of the last hour still
        waiting for people (paused again if nobody comes). Rooms in play come back when someone
        asks for them: loading them would set their AI seats playing with nobody watching."""
        since = self.clock.now() - 3600
        for room_id in await self.store.lobby_candidates(100, since=since):
            if self.closing:
                return
            row = await self.store.room(room_id)
            if row is None or not any(s.type == "human" and not s.token_hash for s in row.seats):
                continue
            with contextlib.suppress(Exception):
                await self.get(room_id)

    # -- rooms --------------------------------------------------------------------------------
    def table_of(self, room: Room) -> Table | None:
        """The live table of ``room`` (``None`` once the room was paused)."""
        table = self.tables.get(room.id)
        return table if table is not None and table.room is room else None

    async def get(self, room_id: str) -> Table | None:
        """A live room's table, the room rebuilt from the store if needed (and set playing
        again: its AI players and clocks); ``None`` if unknown. Someone asked for the room to
        act at it or watch it: its idle time starts again. ``RoomError``
        (``too_many_ai_rooms``) for a room of AI players only that would play past
        ``max_ai_rooms``."""
        table = self.tables.get(room_id)
        if table is not None:
            table.touch()
            return table
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(room_id)
            if table is not None:
                return table
            try:
                claimed = self.claim is None or await self.claim(room_id)
            except BaseException:
                self._loading.pop(room_id, None)
                raise
            row = await self.store.room(room_id) if claimed else None
            if row is None:
                self._loading.pop(room_id, None)
                return None
            table = await self._load(restore_ai_fill(row))
            if self._past_ai_cap(row.seats, table.room.status):
                self._loading.pop(room_id, None)
                self._keep_paused(table.room)
                if self.released is not None:
                    await self.released(room_id)
                raise RoomError("too_many_ai_rooms", self._ai_rooms_refusal())
            self._keep(table)
            self.paused.pop(room_id, None)
            self._loading.pop(room_id, None)
        async with table.lock:
            table.after_change()
        return table

    async def read(self, room_id: str) -> Room | None:
        """The room ``room_id`` to read, not to run: its live object if it is in memory, else
        its paused state (kept, or rebuilt from the store and kept) — which nothing sets
        playing: no AI player or clock starts, and its idle time does not start again.
        ``None`` if unknown. What the HTTP reads answer from (summary, games, replays)."""
        table = self.tables.get(room_id)
        if table is not None:
            return table.room
        room = self.paused.get(room_id)
        if room is not None:
            self.paused.move_to_end(room_id)
            return room
        row = await self.store.room(room_id)
        if row is None:
            return None
        table = self.tables.get(room_id)  # brought back meanwhile
        if table is not None:
            return table.room
        room = (await self._load(restore_ai_fill(row))).room  # never started: runs nothing
        self._keep_paused(room)
        return room

    def _keep_paused(self, room: Room) -> None:
        """Keep ``room``'s state, out of memory's play, for the reads to come."""
        if not self.keep_reads:
            return
        self.paused[room.id] = room
        self.paused.move_to_end(room.id)
        while len(self.paused) > PAUSED_KEPT:
            self.paused.popitem(last=False)

    def summary(self, room: Room) -> RoomSummary:
        """The summary of ``room``, live or paused (:meth:`.Table.summary`), and whether it is
        paused (``paused``: not in memory; it plays on when someone joins it)."""
        table = self.table_of(room)
        live = table is not None
        out = (table if table is not None else Table(room, self.services)).summary()
        out["paused"] = not live
        return out

    def ai_rooms(self) -> int:
        """Rooms of AI players only in memory that are waiting or in play, and those being
        made (a burst of creations all count before any of them is stored)."""
        return self._ai_making + sum(
            t.room.status in ("waiting", "playing") for t in self._ai_tables.values()
        )

    def _keep(self, table: Table) -> None:
        """Hold ``table`` in memory (counted among the rooms of AI players only if it is one)."""
        room = table.room
        self.tables[room.id] = table
        if room.ai_only:
            self._ai_tables[room.id] = table

    def _past_ai_cap(self, seats: list[SeatRow], status: str) -> bool:
        """Whether one more room of these ``seats`` and ``status`` in memory would take the
        rooms of AI players only that wait or play past ``max_ai_rooms``."""
        if not self.max_ai_rooms or status not in ("waiting", "playing"):
            return False
        if not ai_only(seats):
            return False
        return self.ai_rooms() >= self.max_ai_rooms

    def _ai_rooms_refusal(self) -> str:
        """The words of a refusal past ``max_ai_rooms``."""
        return say("web.error.too_many_ai_rooms", most=self.max_ai_rooms, retry=AI_ROOMS_RETRY)

    async def _load(self, row: RoomRow) -> Table:
        """The table of the stored room ``row``, its current game replayed from the store."""
        room = Room(row=row, idle_since=self.clock.monotonic())
        room.tokens = {s.token_hash: s.seat for s in row.seats if s.token_hash}
        table = Table(room, self.services)
        stored = await self.store.games(row.id)
        if not stored:
            return table
        last = stored[-1]
        room.game_row = last
        room.version = last.base_version + last.actions
        try:
            game, played = await self._replayed(row, last, room.moves)
        except ValueError as exc:
            room.refusal = str(exc)  # the room opens, says why, and plays no more
            log.warning("room %s cannot go on: %s", row.id, exc, extra={"room": row.id})
            return table
        room.game, room.played = game, played
        room.agents = table.agents(last.seed)
        if not last.actions:  # dealt, and nobody has moved: the deal is still news
            room.unopened = {s.seat for s in row.seats if s.type == "human"}
        result = game.result
        if result is not None and last.finished is None:  # its end was not stored
            with contextlib.suppress(StoreError):
                await self.store.finish_game(row.id, last.game_no, result.to_dict())
                last.finished, last.result = self.clock.now(), result.to_dict()
        return table

    async def create(
        self,
        game: str,
        seats: list[tuple[str, str | None, bool]],
        *,
        players: int | None = None,
        options: Options | None = None,
        name: str | None = None,
        public: bool = True,
        autostart: bool = True,
        memory_aid: bool = False,
        turn_time: float | None = None,
        quickplay: bool = False,
        spectator_chat: bool = False,
        hints: bool = False,
        rated: bool = False,
        player: int | None = None,
    ) -> tuple[Table, int | None, str | None]:
        """Create a room; the creator takes the first person's seat. Returns its table, that
        seat and its token (``None`` when every seat is an AI). Raises ``ValueError``.

        ``seats`` lists ``(type, level, memory_aid)``; ``memory_aid=True`` gives the memory
        aid to every person's seat. An AI seat cannot be given one: it always reads the
        perfect-memory view, its level models how well it remembers. ``turn_time`` gives the
        room's people another time per turn than the server's. ``quickplay``: the room is opened
        by quick play (its id says so, and its open seats go to AI players after a wait).
        ``spectator_chat``: spectators may write in the room's chat. ``hints``: people may ask
        for hints at this table of people (each who does is marked and has the memory aid from
        then on; at a table of one person and AI players hints are always allowed).
        ``rated``: the room's games are rated (:mod:`.accounts`): nobody at it may have the
        memory aid or hints, and every person's seat is a signed-in player's (``player``, the
        creator's account, takes the first). ``RoomError`` (``too_many_ai_rooms``) for a room
        of AI players only past ``max_ai_rooms``: nothing is stored."""
        var = variants.get(game)
        if players is not None and players != len(seats):
            raise ValueError(f"'players' is {players} but {len(seats)} seats are listed")
        n = len(seats)
        if not var.min_players <= n <= var.max_players:
            raise ValueError(
                f"{var.title} is played by {var.min_players} to {var.max_players} players"
            )
        resolved = variants.new_game(var.name, players=n, seed=0, options=options).options
        rows = _seat_rows(seats, memory_aid)
        if rated:
            _check_rated(rows, hints, player)
        if self._past_ai_cap(rows, "waiting"):
            raise RoomError("too_many_ai_rooms", self._ai_rooms_refusal())
        seat, token = _seat_creator(rows, name)
        if seat is not None:
            rows[seat].player_id = player
        row = RoomRow(
            id=(QUICKPLAY_PREFIX if quickplay else "") + secrets.token_urlsafe(6),
            game=var.name,
            players=n,
            options=resolved,
            public=public,
            autostart=autostart,
            created=self.clock.now(),
            seats=rows,
            turn_time=turn_time,
            spectator_chat=spectator_chat,
            hints=hints,
            rated=rated,
        )
        making = int(ai_only(rows))
        self._ai_making += making  # counted against the cap until its table is in memory
        try:
            await self.store.create_room(row)
            if self.claim_new is not None:
                await self.claim_new(row.id)
        finally:
            self._ai_making -= making
        room = Room(
            row=row,
            tokens={r.token_hash: r.seat for r in rows if r.token_hash},
            idle_since=self.clock.monotonic(),
        )
        table = Table(room, self.services)
        self._keep(table)
        if autostart and not room.free_seats():
            async with table.lock:
                await table.start_game()
        if quickplay:
            table.update_fill()
        return table, seat, token

    async def take_seat(
        self, room_id: str, name: str | None, player: int | None = None
    ) -> tuple[Table, int, str]:
        """Give the caller (signed in as the account ``player``, or a guest) the first free
        person's seat; returns the table, seat and token. At a rated room a guest is refused,
        and so is an account already seated there."""
        table = await self.get(room_id)
        if table is None:
            raise RoomError("unknown_room", say("web.error.unknown_room"))
        room = table.room
        async with table.lock:
            if room.evicted:  # paused while this request waited: ask the store again
                return await self.take_seat(room_id, name, player)
            if room.row.rated and player is None:
                raise RoomError("rated_guest", say("web.error.rated_guest"))
            if room.row.rated and any(s.player_id == player for s in room.row.seats):
                raise RoomError("rated_twice", say("web.error.rated_twice"))
            if room.refusal is not None:
                raise RoomError("rules_changed", room.refusal)
            free = room.free_seats()
            if not free:
                raise RoomError("room_full", say("web.error.room_full"))
            seat = free[0]
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            shown = name or f"Player {seat + 1}"
            try:
                await self.store.take_seat(room.id, seat, shown, digest, player)
            except StoreError:
                raise RoomError("room_full", say("web.error.seat_taken")) from None
            srow = room.row.seats[seat]
            srow.name, srow.token_hash, srow.player_id = shown, digest, player
            room.tokens[digest] = seat
            if room.row.autostart and room.game is None and not room.free_seats():
                # the seat is taken and stored: whatever happens to the deal, its token is
                # given (a deal that failed can be asked for again with ``start``)
                try:
                    await table.start_game()
                except Exception as exc:
                    log.error(
                        "room %s: the game could not start (%s)",
                        room.id,
                        type(exc).__name__,
                        extra={"room": room.id},
                    )
            else:
                table.broadcast([])
        return table, seat, token

    async def rekey(self, room_id: str, seat: int) -> tuple[Table, int, str]:
        """A fresh key to a taken person's seat (its account's player on another device): the
        store keeps the newest key; the keys given before keep working until the room is
        loaded again. ``RoomError`` if there is no such room or seat."""
        table = await self.get(room_id)
        if table is None:
            raise RoomError("unknown_room", say("web.error.unknown_room"))
        room = table.room
        async with table.lock:
            if room.evicted:
                return await self.rekey(room_id, seat)
            if not 0 <= seat < len(room.row.seats) or room.row.seats[seat].token_hash is None:
                raise RoomError("unknown_room", say("web.error.unknown_room"))
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            await Players(self.store).rekey(room.id, seat, digest)
            room.row.seats[seat].token_hash = digest
            room.tokens[digest] = seat
        return table, seat, token

    def listing(self) -> list[RoomSummary]:
        """Public rooms waiting for people or in play, newest first."""
        live = [
            t
            for t in self.tables.values()
            if t.room.row.public and t.room.status in ("waiting", "playing")
        ]
        live.sort(key=lambda t: t.room.row.created, reverse=True)
        return [self.summary(t.room) for t in live[:100]]


def _seat_rows(seats: list[tuple[str, str | None, bool]], memory_aid: bool) -> list[SeatRow]:
    """The rows of a new room's seats, from :meth:`Lobby.create`'s ``seats`` and
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
                raise ValueError(f"unknown AI level {level!r}; choose from: {', '.join(AI_LEVELS)}")
            rows.append(SeatRow(i, "ai", lvl, ai_seat_label(lvl)))
        elif kind == "human":
            if level is not None:
                raise ValueError("a person's seat has no level")
            rows.append(SeatRow(i, "human", memory_aid=bool(aid or memory_aid)))
        else:
            raise ValueError(f"a seat is 'human' or 'ai', not {kind!r}")
    return rows


def _check_rated(rows: list[SeatRow], hints: bool, player: int | None) -> None:
    """Raise ``ValueError`` if a room of these seats cannot be rated: its creator is not
    signed in, it has no person's seat, or a seat has the memory aid, or hints are on."""
    if player is None:
        raise ValueError("rated tables are for signed-in players: sign in first")
    if not any(r.type == "human" for r in rows):
        raise ValueError("a rated table needs at least one person's seat")
    if hints or any(r.memory_aid for r in rows):
        raise ValueError("a rated table has no memory aid and no hints")


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
