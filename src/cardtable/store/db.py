"""SQLAlchemy 2 (async) implementation of the store.

Writes go through one writer task that commits in groups: every write waits until the
transaction holding it is committed (SQLite: WAL journal, ``synchronous=FULL``; PostgreSQL: its
default durable commit), and writes that arrive while a commit is under way share the next one.
So "durable before anyone is told" costs one commit per burst, not one per action.

The tables below are the runtime model of the schema; the schema itself changes only through
the migrations in :mod:`cardtable.store.migrations`, which :meth:`Store.open` runs, and the two
must agree (a test compares them).

Fencing (for several server processes sharing one PostgreSQL store, each room owned by one
process at a time through a lease kept elsewhere): each room stores a ``lease_epoch``.
:meth:`Store.claim` bumps it and keeps the new number as this store's *fence* for the room
(:attr:`Store.fences`); from then on every write of that room carries, in its own transaction and
before anything else, the check that the stored number is still the fence (an ``UPDATE`` that
must match the room's row, so on PostgreSQL it also holds the row until the commit: a claim by
another process either waits for the write or makes it fail). A process that lost the room to a
later claim is refused with :class:`FencedOut` and nothing of that write is stored. Writes of
rooms this store holds no fence for are written as before, with no check (a single server never
claims). ``Store(url, fenced=True)`` creates every room at epoch 1 and keeps that fence.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Delete,
    Float,
    ForeignKeyConstraint,
    Index,
    Insert,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    Update,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    literal,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import Connection, CursorResult, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry, NullPool

from ..match import places
from ..variants import Options
from ..views import GameResult
from . import migrations

__all__ = [
    "CHOSEN_BY",
    "ActionRow",
    "FencedOut",
    "GameRow",
    "RoomRow",
    "SeatRow",
    "Store",
    "StoreError",
    "in_memory",
    "url_problem",
]

DEFAULT_URL = "sqlite+aiosqlite:///cardtable.db"
"""The store used when no URL is given: a SQLite file in the working folder."""


def in_memory(url: str) -> bool:
    """Whether ``url`` asks for an in-memory SQLite database (``sqlite+aiosqlite://``,
    ``…:///:memory:``)."""
    try:
        parsed = make_url(url)
    except ArgumentError:  # not a URL at all (url_problem says so)
        return False
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


DRIVERS = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
"""The databases a store can be kept in, each with the async driver it is reached through."""


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot name a store, in words (``None``: it can): not a SQLAlchemy URL, a
    database other than SQLite and PostgreSQL, or a driver that is not their async one."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return f"{url!r} is not a database URL (e.g. {DEFAULT_URL})"
    backend, driver = parsed.get_backend_name(), parsed.get_driver_name()
    wanted = DRIVERS.get(backend)
    if wanted is None:
        return f"the store is kept in SQLite or PostgreSQL, not {backend}"
    if driver != wanted:
        return f"{backend} is reached through {wanted}: use a URL beginning {backend}+{wanted}://"
    return None


metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("public", Boolean, nullable=False),
    Column("autostart", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Column("turn_time", Float),
    Column("spectator_chat", Boolean, nullable=False, server_default=false()),
    Column("hints", Boolean, nullable=False, server_default=false()),
    Column("practice", Boolean, nullable=False, server_default=false()),
    Column("lease_epoch", Integer, nullable=False, server_default=text("0")),
    Column("rated", Boolean, nullable=False, server_default=false()),
    Index("ix_rooms_public_created", "public", "created"),
)

seats = Table(
    "seats",
    metadata,
    Column("room_id", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("type", String(8), nullable=False),
    Column("level", String(32)),
    Column("name", String(32)),
    Column("token_hash", String(64)),
    Column("memory_aid", Boolean, nullable=False),
    Column("hints", Boolean, nullable=False, server_default=false()),
    Column("player_id", Integer),
    ForeignKeyConstraint(["room_id"], ["rooms.id"]),
    Index("ix_seats_player", "player_id"),
)

games = Table(
    "games",
    metadata,
    Column("room_id", String(16), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("base_version", Integer, nullable=False),
    Column("started", Float, nullable=False),
    Column("finished", Float),
    Column("result", JSON),
    Column("rules", String(48)),
    ForeignKeyConstraint(["room_id"], ["rooms.id"]),
    Index("ix_games_finished", "finished"),
)

actions = Table(
    "actions",
    metadata,
    Column("room_id", String(16), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Column("chosen_by", String(8)),
    Column("stand_in", String(32)),
    ForeignKeyConstraint(["room_id", "game_no"], ["games.room_id", "games.game_no"]),
)

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(32)),
    Column("name_key", String(64)),
    Column("password_hash", String(255)),
    Column("created", Float, nullable=False),
    Column("deleted", Float),
    UniqueConstraint("name_key", name="uq_players_name_key"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    ForeignKeyConstraint(["player_id"], ["players.id"]),
    Index("ix_sessions_player", "player_id"),
)

results = Table(
    "results",
    metadata,
    Column("room_id", String(16), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer),
    Column("game", String(32), nullable=False),
    Column("finished", Float, nullable=False),
    Column("score", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    ForeignKeyConstraint(["room_id", "game_no"], ["games.room_id", "games.game_no"]),
    Index("ix_results_player_finished", "player_id", "finished"),
    Index("ix_results_player_game", "player_id", "game", "won", "score", "rounds"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("subject", String(48), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_ratings_game_mu", "game", "mu"),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("subject", String(48), nullable=False),
    Column("game", String(32), nullable=False),
    Column("at", Float, nullable=False),
    Column("room_id", String(16), nullable=False),
    Column("game_no", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Index("ix_rating_history_subject", "subject", "game", "at"),
    Index("ix_rating_history_game", "room_id", "game_no"),
)


class StoreError(Exception):
    """A write the store refused (e.g. a duplicate action number) or a closed store."""


class FencedOut(StoreError):
    """A write of a room this store no longer owns: another store claimed the room since this
    one did (its ``lease_epoch`` is no longer this store's fence); nothing of it was stored."""

    def __init__(self, room: str) -> None:
        super().__init__(f"room {room!r} was claimed by another owner: the write is refused")
        self.room = room
        """The room's id."""


@dataclass
class SeatRow:
    """One seat of a room: a person (with a token digest once taken) or an AI level."""

    seat: int
    """Seat number."""
    type: str
    """``"human"`` or ``"ai"``."""
    level: str | None = None
    """AI level (``None`` for people)."""
    name: str | None = None
    """Display name."""
    token_hash: str | None = None
    """SHA-256 digest of the seat's token (``None``: not taken, or an AI seat)."""
    memory_aid: bool = False
    """A person's seat that is sent perfect-memory views (always ``False`` for AI seats)."""
    hints: bool = False
    """A person's seat that asked for a hint at a table of people: marked for everyone to see,
    and given the memory aid from then on (:meth:`Store.mark_hints`)."""
    player_id: int | None = None
    """The account a person's seat belongs to (``None``: a guest's seat, or an AI's)."""


@dataclass
class RoomRow:
    """A room as stored."""

    id: str
    """Room id (URL-safe)."""
    game: str
    """Variant name."""
    players: int
    """Number of seats."""
    options: Options
    """Resolved rule options."""
    public: bool
    """Listed in the lobby."""
    autostart: bool
    """Start the first game as soon as every person's seat is taken."""
    created: float
    """Creation time (Unix seconds)."""
    seats: list[SeatRow] = field(default_factory=list)
    """Seats in order."""
    turn_time: float | None = None
    """Seconds a person has per turn in this room (``None``: the server's default)."""
    spectator_chat: bool = False
    """Spectators may write in the room's chat (they always read it)."""
    hints: bool = False
    """People may ask for hints at this table of people (a seat that does is marked); at a
    table of one person and AI players hints are always allowed."""
    practice: bool = False
    """A practice table: its one person asked to see the AI players' cards, so its games (that
    one and every later one) are never rated (:meth:`Store.mark_practice`)."""
    rated: bool = False
    """Its creator asked for rated games: nobody at it has the memory aid or hints, and every
    person's seat is taken by a signed-in player (:mod:`cardtable.web.accounts`)."""


@dataclass
class GameRow:
    """One game of a room."""

    room: str
    """Room id."""
    game_no: int
    """1 for the first game, then one more per rematch."""
    seed: int
    """The seed the game was dealt from (never sent to clients)."""
    base_version: int
    """The room's version right after the game started."""
    started: float
    """Start time (Unix seconds)."""
    finished: float | None = None
    """End time, once over."""
    result: GameResult | None = None
    """``Result.to_dict()``, once over."""
    actions: int = 0
    """Number of actions (filled by :meth:`Store.games`)."""
    rules: str | None = None
    """The rules version the game is recorded under (``"kaboo/1"``, see
    :func:`cardtable.variants.rules_version`); ``None`` for games stored before it was kept."""


CHOSEN_BY = ("clock", "stand_in")
"""Who may have chosen an action instead of its seat's own player (``ActionRow.chosen_by``):
the clock (the time ran out and the engine's timeout move was played), or an AI standing in
for a person who is away."""


@dataclass(frozen=True)
class ActionRow:
    """One accepted action."""

    game_no: int
    """Game it belongs to."""
    seq: int
    """1-based number within its game."""
    seat: int
    """Seat that played it."""
    action: str
    """Canonical notation."""
    chosen_by: str | None = None
    """Who chose it when not the seat's own player: ``"clock"`` or ``"stand_in"``
    (:data:`CHOSEN_BY`); ``None``: the seat's player (a person, or an AI seat's own agent).
    Actions stored before this was kept read ``None``."""
    stand_in: str | None = None
    """The AI level that chose it, for ``chosen_by == "stand_in"``."""


def _sqlite_pragmas(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def _sqlite_migration_pragmas(dbapi_conn: DBAPIConnection, record: ConnectionPoolEntry) -> None:
    """The store's pragmas but with foreign keys off, as SQLite's procedure for schema changes
    asks (a table is altered by copying it; the references are checked after the migration,
    see :func:`cardtable.store.migrations.upgrade`), and the driver's own transaction handling
    off (see :func:`_sqlite_begin`)."""
    _sqlite_pragmas(dbapi_conn, record)
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=OFF")
    cur.close()
    dbapi_conn.isolation_level = None


def _sqlite_begin(conn: Connection) -> None:
    """Begin with ``BEGIN IMMEDIATE``: the driver would begin only at the first data change,
    leaving the schema changes before it outside the transaction; and a second server starting
    at the same time waits here (busy timeout) instead of failing half-way."""
    conn.exec_driver_sql("BEGIN IMMEDIATE")


_MIGRATING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


def _migration_lock() -> asyncio.Lock:
    """The running event loop's migration lock. The migration library keeps the run under way
    in module-level state, so two stores of one process must not migrate at the same time (the
    database's own lock only keeps processes apart)."""
    loop = asyncio.get_running_loop()
    lock = _MIGRATING.get(loop)
    if lock is None:
        lock = _MIGRATING[loop] = asyncio.Lock()
    return lock


async def _migrate(engine: AsyncEngine) -> None:
    """Bring the store's schema to the newest revision in one transaction."""
    async with _migration_lock():
        if engine.dialect.name != "sqlite":
            async with engine.begin() as conn:
                await conn.run_sync(migrations.upgrade)
            return
        own = create_async_engine(
            engine.url, poolclass=NullPool, connect_args={"check_same_thread": False}
        )
        event.listen(own.sync_engine, "connect", _sqlite_migration_pragmas)
        event.listen(own.sync_engine, "begin", _sqlite_begin)
        try:
            async with own.begin() as conn:
                await conn.run_sync(migrations.upgrade)
        finally:
            await own.dispose()


_Append = tuple[str, int, int, int, str, GameResult | None, str | None, str | None]
"""An accepted action: room, game number, seq, seat, action, the game's result if the action
ends it, who chose it (``chosen_by``) and the stand-in's level."""

_Write = (
    tuple[Literal["room"], tuple[RoomRow, int]]
    | tuple[Literal["seat"], tuple[str, int, str, str, int | None]]
    | tuple[Literal["hints"], tuple[str, int]]
    | tuple[Literal["practice"], str]
    | tuple[Literal["game"], GameRow]
    | tuple[Literal["action"], _Append]
    | tuple[Literal["finish"], tuple[str, int, GameResult]]
    | tuple[Literal["claim"], str]
)
"""One write for the writer task: its kind and what it writes (a new room with its lease epoch,
a seat taken by ``(room, seat, name, token_hash, player_id)``, a seat marked for its hints by
``(room, seat)``, a room marked practice by its id, a new game, an action, a game's end by
``(room, game_no, result)``, a claim of a room by its id)."""

_Fenced = tuple[_Write, int | None]
"""A write and the fence it is checked against (``None``: its room is not fenced)."""

_Queued = tuple[_Write, int | None, "asyncio.Future[int | None]"]
"""A write waiting for the writer, with its fence and the future its caller awaits (a claim's
future gives the room's new epoch)."""

_Params = dict[str, object] | list[dict[str, object]]
"""A statement's parameters: one row, or several (one statement, many rows)."""

_Step = tuple[Insert | Update | Delete, _Params | None, int | None, str | None]
"""One statement of a batch: statement, parameters, expected row count (or ``None``), and the
room whose fence it checks (``None``: not a fence check): a fence check that matches no row
raises :class:`FencedOut`, any other unmet expectation :class:`StoreError`. A statement with
``RETURNING`` gives its first row's first column as the plan's value (a claim's new epoch)."""


def _room_of(write: _Write) -> str | None:
    """The room an existing room's write changes (``None`` for a new room and for a claim,
    which are never checked against a fence)."""
    if write[0] == "game":
        return write[1].room
    if write[0] == "practice":
        return write[1]
    if write[0] in ("seat", "hints", "action", "finish"):
        return write[1][0]
    return None


def _fence_step(room: str, epoch: int) -> _Step:
    """The check that ``room`` is still at ``epoch``: an update that changes nothing but must
    find the room's row at that epoch (and, on PostgreSQL, holds the row until the commit)."""
    stmt = (
        update(rooms)
        .where(rooms.c.id == room, rooms.c.lease_epoch == epoch)
        .values(lease_epoch=rooms.c.lease_epoch)
    )
    return (stmt, None, 1, room)


def _claim_step(room: str) -> _Step:
    """The update that bumps a room's lease epoch and returns the new one (it must find the
    room)."""
    stmt = (
        update(rooms)
        .where(rooms.c.id == room)
        .values(lease_epoch=rooms.c.lease_epoch + 1)
        .returning(rooms.c.lease_epoch)
    )
    return (stmt, None, 1, None)


def _finish(room: str, game_no: int, result: GameResult, now: float) -> list[_Step]:
    """The update that marks a game as over (it must match the game's row), and the insert of
    every seat's result (:data:`results`: the seat's account and whether the game is rated are
    read from its seat's and its room's rows in the same transaction)."""
    stmt = (
        update(games)
        .where(games.c.room_id == room, games.c.game_no == game_no)
        .values(finished=now, result=result)
    )
    steps: list[_Step] = [(stmt, None, 1, None)]
    rows = result_rows(room, game_no, result, now)
    if rows:  # (a game's end written again, as a repair, replaces its results)
        gone = delete(results).where(results.c.room_id == room, results.c.game_no == game_no)
        steps += [(gone, None, None, None), (_RESULTS_INSERT, rows, None, None)]
    return steps


_RESULTS_INSERT = insert(results).values(
    room_id=bindparam("r_room"),
    seat=bindparam("r_seat"),
    player_id=select(seats.c.player_id)
    .where(seats.c.room_id == bindparam("r_room"), seats.c.seat == bindparam("r_seat"))
    .scalar_subquery(),
    game=select(rooms.c.game).where(rooms.c.id == bindparam("r_room")).scalar_subquery(),
    rated=func.coalesce(
        select(rooms.c.rated)
        .where(rooms.c.id == bindparam("r_room"), rooms.c.practice == false())
        .scalar_subquery(),
        false(),
    ),
)
"""The insert of a finished game's results, one row per seat (its parameters:
:func:`result_rows`)."""


def result_rows(room: str, game_no: int, result: GameResult, now: float) -> list[dict[str, object]]:
    """The parameters of :data:`_RESULTS_INSERT` for a finished game: each seat's final total,
    number of rounds, place (1 is best, equal places are ties; winners share the first) and
    whether it won (a result without totals has none)."""
    totals = list(result.get("totals", []))
    winners = list(result.get("winners", []))
    rounds = len(result.get("rounds", []))
    return [
        {
            "r_room": room,
            "game_no": game_no,
            "r_seat": seat,
            "finished": now,
            "score": total,
            "rounds": rounds,
            "place": place,
            "won": seat in winners,
        }
        for seat, (total, place) in enumerate(zip(totals, places(totals, winners), strict=True))
    ]


def _plan(batch: Sequence[_Fenced]) -> list[_Step]:
    """The statements that carry out a batch of writes, in order (consecutive appends are one
    multi-row insert, followed by the updates of the games those appends finish). A fenced
    write is preceded by its fence check, once per room and epoch in the batch (the first check
    holds for the rest of the transaction)."""
    steps: list[_Step] = []
    checked: set[tuple[str, int]] = set()
    now = time.time()
    i = 0
    while i < len(batch):
        write, _ = batch[i]
        if write[0] == "action":
            i = _plan_actions(batch, i, now, steps, checked)
            continue
        _check_fence(batch[i], steps, checked)
        if write[0] == "room":
            steps.extend(_room_steps(*write[1]))
        elif write[0] == "seat":
            steps.append(_seat_step(*write[1]))
        elif write[0] == "hints":
            steps.append(_hints_step(*write[1]))
        elif write[0] == "practice":
            steps.append(_practice_step(write[1]))
        elif write[0] == "game":
            steps.append(_game_step(write[1]))
        elif write[0] == "finish":
            room, game_no, result = write[1]
            steps.extend(_finish(room, game_no, result, now))
        elif write[0] == "claim":
            steps.append(_claim_step(write[1]))
        else:  # pragma: no cover - programming error
            raise StoreError(f"unknown write {write[0]!r}")
        i += 1
    return steps


def _check_fence(item: _Fenced, steps: list[_Step], checked: set[tuple[str, int]]) -> None:
    """Add to ``steps`` the fence check of a fenced write, unless the plan already has it."""
    write, fence = item
    room = _room_of(write)
    if fence is None or room is None or (room, fence) in checked:
        return
    checked.add((room, fence))
    steps.append(_fence_step(room, fence))


def _plan_actions(
    batch: Sequence[_Fenced],
    i: int,
    now: float,
    steps: list[_Step],
    checked: set[tuple[str, int]],
) -> int:
    """Add to ``steps`` the fence checks of the appends from ``batch[i]`` on, then the appends
    as one multi-row insert, and the updates of the games they finish; returns the index of the
    first write after them."""
    rows: list[dict[str, object]] = []
    ends: list[_Step] = []
    while i < len(batch):
        write = batch[i][0]
        if write[0] != "action":
            break
        _check_fence(batch[i], steps, checked)
        room, game_no, seq, seat, action, result, chosen_by, stand_in = write[1]
        rows.append(
            {
                "room_id": room,
                "game_no": game_no,
                "seq": seq,
                "seat": seat,
                "action": action,
                "at": now,
                "chosen_by": chosen_by,
                "stand_in": stand_in,
            }
        )
        if result is not None:
            ends.extend(_finish(room, game_no, result, now))
        i += 1
    steps.append((insert(actions), rows, None, None))
    steps.extend(ends)
    return i


def _room_steps(r: RoomRow, epoch: int) -> list[_Step]:
    """The inserts of a new room (at lease epoch ``epoch``) and its seats."""
    room_row: dict[str, object] = {
        "id": r.id,
        "game": r.game,
        "players": r.players,
        "options": r.options,
        "public": r.public,
        "autostart": r.autostart,
        "created": r.created,
        "turn_time": r.turn_time,
        "spectator_chat": r.spectator_chat,
        "hints": r.hints,
        "practice": r.practice,
        "rated": r.rated,
        "lease_epoch": epoch,
    }
    steps: list[_Step] = [(insert(rooms), room_row, None, None)]
    seat_rows: list[dict[str, object]] = [
        {
            "room_id": r.id,
            "seat": s.seat,
            "type": s.type,
            "level": s.level,
            "name": s.name,
            "token_hash": s.token_hash,
            "memory_aid": s.memory_aid,
            "hints": s.hints,
            "player_id": s.player_id,
        }
        for s in r.seats
    ]
    if seat_rows:  # (an empty list would insert one row of nothing)
        steps.append((insert(seats), seat_rows, None, None))
    return steps


def _seat_step(room: str, seat: int, name: str, token_hash: str, player: int | None) -> _Step:
    """The update that gives a free seat a person, with the account it belongs to (``None``: a
    guest's); it must find the seat still free."""
    stmt = (
        update(seats)
        .where(
            seats.c.room_id == room,
            seats.c.seat == seat,
            seats.c.token_hash.is_(None),
        )
        .values(name=name, token_hash=token_hash, player_id=player)
    )
    return (stmt, None, 1, None)


def _hints_step(room: str, seat: int) -> _Step:
    """The update that marks a person's seat for its hints: from then on it has the memory aid
    too (it must find the seat)."""
    stmt = (
        update(seats)
        .where(seats.c.room_id == room, seats.c.seat == seat, seats.c.type == "human")
        .values(hints=True, memory_aid=True)
    )
    return (stmt, None, 1, None)


def _practice_step(room: str) -> _Step:
    """The update that marks a room practice (it must find the room)."""
    return (update(rooms).where(rooms.c.id == room).values(practice=True), None, 1, None)


def _game_step(g: GameRow) -> _Step:
    """The insert of a new game of a room."""
    row: dict[str, object] = {
        "room_id": g.room,
        "game_no": g.game_no,
        "seed": g.seed,
        "base_version": g.base_version,
        "started": g.started,
        "rules": g.rules,
    }
    return (insert(games), row, None, None)


def _outcome(res: CursorResult[Any], expect: int | None, fence: str | None) -> int | None:
    """Check one executed step against its expected row count (:class:`FencedOut` for a fence
    check, else :class:`StoreError`); the first column of its first row if it returns rows."""
    value: int | None = None
    if res.returns_rows:
        rows = res.all()
        count = len(rows)
        value = rows[0][0] if rows else None
    else:
        count = res.rowcount
    if expect is not None and count != expect:
        if fence is not None:
            raise FencedOut(fence)
        raise StoreError("a write matched no row")
    return value


def _run_sync(conn: Connection, plan: list[_Step]) -> int | None:
    """Carry out a plan in one transaction on a synchronous connection; the value of its
    statement with ``RETURNING``, if any."""
    value: int | None = None
    with conn.begin():
        for stmt, params, expect, fence in plan:
            got = _outcome(conn.execute(stmt, params), expect, fence)
            value = got if got is not None else value
    return value


def _refusal(write: _Write, exc: Exception) -> StoreError:
    """What the caller of a write that failed alone is told: :class:`FencedOut` as raised, a
    claim of a room that is not there, or the store's refusal."""
    if isinstance(exc, FencedOut):
        return FencedOut(exc.room)
    if write[0] == "claim" and isinstance(exc, StoreError):
        return StoreError(f"no room {write[1]!r} to claim")
    return StoreError("the store refused a write")


class Store:
    """Async access to the event store at a SQLAlchemy URL.

    An in-memory SQLite URL (:func:`in_memory`) gets a throwaway file instead, in a temporary
    folder removed when the store closes: the writer, the readers and the migrations each hold
    their own connection, and every connection to ``:memory:`` would open a database of its
    own.

    ``fenced``: this store is one of several server processes sharing the database, each room
    owned by one of them at a time; every room it creates starts at lease epoch 1 with this
    store's fence (see :meth:`claim`). Off (a single server), rooms start at 0 and nothing is
    fenced unless claimed."""

    def __init__(self, url: str = DEFAULT_URL, *, fenced: bool = False) -> None:
        self._scratch: str | None = None
        if in_memory(url):
            self._scratch = tempfile.mkdtemp(prefix="cardtable-store-")
            scratch = make_url(url).set(database=f"{self._scratch}/store.db")
            url = scratch.render_as_string(hide_password=False)
        self.url = url
        """The SQLAlchemy URL (for an in-memory URL, that of its throwaway file)."""
        self._engine: AsyncEngine | None = None
        self._queue: asyncio.Queue[_Queued | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._closed = False
        self.commits = 0
        """Number of transactions the writer committed (for benchmarks)."""
        self.writes = 0
        """Number of writes committed."""
        self.fenced = fenced
        """Whether rooms this store creates are claimed by it at once (epoch 1)."""
        self.fences: dict[str, int] = {}
        """The lease epoch this store holds for each room it claimed (room id → epoch): every
        write of such a room is refused (:class:`FencedOut`) unless the room is still at it."""

    @property
    def engine(self) -> AsyncEngine:
        """The open engine."""
        if self._engine is None:
            raise StoreError("the store is not open")
        return self._engine

    async def open(self) -> None:
        """Connect, bring the schema to the newest revision (see
        :mod:`cardtable.store.migrations`) and start the writer.

        Opening a store that is up to date changes nothing; servers opening the same store at
        the same time upgrade it once (the others wait, then find nothing to do)."""
        # SQLite: the writer's thread and the event loop's share connections
        sqlite = self.url.startswith("sqlite")
        connect_args = {"check_same_thread": False} if sqlite else {}
        engine = create_async_engine(self.url, connect_args=connect_args)
        if engine.dialect.name == "sqlite":
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        try:
            await _migrate(engine)
        except BaseException:
            await engine.dispose()
            raise
        self._engine = engine
        self._writer = asyncio.create_task(self._write_loop())

    async def close(self) -> None:
        """Finish pending writes, stop the writer and close connections."""
        if self._closed:
            return
        self._closed = True
        if self._writer is not None:
            await self._queue.put(None)
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if self._engine is not None:
            await self._engine.dispose()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)

    # -- writes ----------------------------------------------------------------------------
    async def _submit(self, write: _Write) -> int | None:
        """Queue ``write`` with the fence this store holds for its room now, and wait for its
        commit (a claim: the room's new epoch)."""
        if self._closed or self._writer is None:
            raise StoreError("the store is closed")
        room = _room_of(write)
        fence = None if room is None else self.fences.get(room)
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        await self._queue.put((write, fence, fut))
        return await fut

    async def create_room(self, room: RoomRow) -> None:
        """Store a new room and its seats. A :attr:`fenced` store creates it at lease epoch 1
        and holds that fence once it is committed (no claim needed)."""
        await self._submit(("room", (room, 1 if self.fenced else 0)))

    async def claim(self, room_id: str) -> int:
        """Take ownership of a room: bump its lease epoch in one statement of its own
        transaction (never shared with other writes) and hold the new epoch as this store's
        fence for it (:attr:`fences`, set before this returns); the new epoch is returned.
        Another store that held the room is fenced out from then on. :class:`StoreError` if
        there is no such room."""
        epoch = await self._submit(("claim", room_id))
        assert epoch is not None  # a committed claim always returns its epoch
        return epoch

    def release(self, room_id: str) -> None:
        """Forget this store's fence for a room (nothing is written): its later writes are
        unfenced again. A process that gave a room up should not write it at all; keeping to
        that is the caller's part."""
        self.fences.pop(room_id, None)

    async def take_seat(
        self, room: str, seat: int, name: str, token_hash: str, player: int | None = None
    ) -> None:
        """Record that a person took ``seat`` under ``name`` (signed in as the account
        ``player``, or a guest)."""
        await self._submit(("seat", (room, seat, name, token_hash, player)))

    async def mark_hints(self, room: str, seat: int) -> None:
        """Record that the person at ``seat`` asked for a hint at a table of people: the seat is
        marked (``hints``) and has the memory aid from then on. :class:`StoreError` if there is
        no such person's seat."""
        await self._submit(("hints", (room, seat)))

    async def mark_practice(self, room: str) -> None:
        """Record that ``room`` is a practice table (its person saw the AI players' cards): its
        games are never rated, from then on. :class:`StoreError` if there is no such room."""
        await self._submit(("practice", room))

    async def start_game(self, game: GameRow) -> None:
        """Store the start of a game (its seed, base version and rules version)."""
        await self._submit(("game", game))

    async def append(
        self,
        room: str,
        game_no: int,
        seq: int,
        seat: int,
        action: str,
        *,
        result: GameResult | None = None,
        chosen_by: str | None = None,
        stand_in: str | None = None,
    ) -> None:
        """Append an accepted action; returns once it is committed.

        With ``result`` (the action ended the game), the action and the game's end (finished
        time and result) are committed in one transaction: both are written or neither is
        (:class:`StoreError`), so a stored game is never over without its last move, nor its
        last move stored without the game being over. ``chosen_by`` (one of
        :data:`CHOSEN_BY`, with the AI's level as ``stand_in`` for a stand-in) says who chose
        the action when its seat's own player did not; ``ValueError`` for anything else.
        """
        if chosen_by is not None and chosen_by not in CHOSEN_BY:
            raise ValueError(f"chosen_by is one of {', '.join(CHOSEN_BY)}, or None")
        if (chosen_by == "stand_in") != (stand_in is not None):
            raise ValueError("stand_in gives the level of a stand-in's move, and only then")
        await self._submit(
            ("action", (room, game_no, seq, seat, action, result, chosen_by, stand_in))
        )

    async def finish_game(self, room: str, game_no: int, result: GameResult) -> None:
        """Mark a game as over with its result (for repairs: a game's last action marks it
        over by itself when appended with its ``result``)."""
        await self._submit(("finish", (room, game_no, result)))

    async def epoch(self, room_id: str) -> int | None:
        """The room's stored lease epoch (``None``: no such room): whether this store still owns
        it is ``await store.epoch(room) == store.fences.get(room)``."""
        async with self.engine.connect() as conn:
            stmt = select(rooms.c.lease_epoch).where(rooms.c.id == room_id)
            value: int | None = (await conn.execute(stmt)).scalar_one_or_none()
            return value

    async def _write_loop(self) -> None:
        engine = self.engine
        if engine.dialect.name == "sqlite":
            # SQLite: each batch is one synchronous transaction in a dedicated thread (one hop
            # per commit instead of one per statement; measured with benchmarks/server_load.py)
            sync = create_engine(
                engine.url.set(drivername="sqlite"), connect_args={"check_same_thread": False}
            )
            event.listen(sync, "connect", _sqlite_pragmas)
            pool = ThreadPoolExecutor(1, thread_name_prefix="cardtable-store")
            loop = asyncio.get_running_loop()
            try:
                with sync.connect() as conn:

                    async def run(plan: list[_Step]) -> int | None:
                        return await loop.run_in_executor(pool, _run_sync, conn, plan)

                    await self._batches(run)
            finally:
                pool.shutdown(wait=True)
                sync.dispose()
            return
        async with engine.connect() as aconn:

            async def run_async(plan: list[_Step]) -> int | None:
                value: int | None = None
                async with aconn.begin():
                    for stmt, params, expect, fence in plan:
                        got = _outcome(await aconn.execute(stmt, params), expect, fence)
                        value = got if got is not None else value
                return value

            await self._batches(run_async)

    async def _batches(self, run: Callable[[list[_Step]], Awaitable[int | None]]) -> None:
        """Take writes off the queue in groups and commit each group with ``run``."""
        while True:
            item = await self._queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while not self._queue.empty():
                nxt = self._queue.get_nowait()
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            await self._commit_in_order(run, batch)
            if stop:
                return

    async def _commit_in_order(
        self, run: Callable[[list[_Step]], Awaitable[int | None]], batch: list[_Queued]
    ) -> None:
        """Commit the writes of ``batch`` in queue order: each claim in a transaction of its
        own, the writes between claims in shared ones (:meth:`_commit_batch`)."""
        group: list[_Queued] = []
        for item in batch:
            if item[0][0] != "claim":
                group.append(item)
                continue
            if group:
                await self._commit_batch(run, group)
                group = []
            await self._commit_batch(run, [item])
        if group:
            await self._commit_batch(run, group)

    async def _commit_batch(
        self, run: Callable[[list[_Step]], Awaitable[int | None]], batch: list[_Queued]
    ) -> None:
        """Commit a batch in one transaction; if that fails, each write in a transaction of its
        own (a write is one item, e.g. an action with the end of its game: it stays whole). A
        write refused alone by its fence check fails with :class:`FencedOut`, any other with
        :class:`StoreError`."""
        try:
            value = await run(_plan([(write, fence) for write, fence, _ in batch]))
        except Exception as exc:
            if len(batch) == 1:
                write, _, fut = batch[0]
                if not fut.done():
                    fut.set_exception(_refusal(write, exc))
                return
            # One bad write must not sink the others: retry each in its own transaction.
            for item in batch:
                await self._commit_batch(run, [item])
            return
        self.commits += 1
        self.writes += len(batch)
        for write, _, fut in batch:
            result = None
            if write[0] == "claim" and value is not None:
                # held before anyone hears of the claim: writes queued after it carry it
                result = self.fences[write[1]] = value
            elif write[0] == "room" and write[1][1] > 0:
                self.fences[write[1][0].id] = write[1][1]
            if not fut.done():
                fut.set_result(result)

    # -- reads -----------------------------------------------------------------------------
    async def room(self, room_id: str) -> RoomRow | None:
        """A room and its seats, or ``None``."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(rooms).where(rooms.c.id == room_id))).first()
            if row is None:
                return None
            seat_rows = (
                await conn.execute(
                    select(seats).where(seats.c.room_id == room_id).order_by(seats.c.seat)
                )
            ).all()
        return RoomRow(
            id=row.id,
            game=row.game,
            players=row.players,
            options=dict(row.options),
            public=bool(row.public),
            autostart=bool(row.autostart),
            created=row.created,
            turn_time=row.turn_time,
            spectator_chat=bool(row.spectator_chat),
            hints=bool(row.hints),
            practice=bool(row.practice),
            rated=bool(row.rated),
            seats=[
                SeatRow(
                    s.seat,
                    s.type,
                    s.level,
                    s.name,
                    s.token_hash,
                    bool(s.memory_aid),
                    bool(s.hints),
                    s.player_id,
                )
                for s in seat_rows
            ],
        )

    async def games(self, room_id: str) -> list[GameRow]:
        """Every game of a room, oldest first, with its number of actions."""
        counts = (
            select(actions.c.game_no, func.count().label("n"))
            .where(actions.c.room_id == room_id)
            .group_by(actions.c.game_no)
            .subquery()
        )
        stmt = (
            select(games, counts.c.n)
            .outerjoin(counts, counts.c.game_no == games.c.game_no)
            .where(games.c.room_id == room_id)
            .order_by(games.c.game_no)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(stmt)).all()
        return [
            GameRow(
                room=r.room_id,
                game_no=r.game_no,
                seed=r.seed,
                base_version=r.base_version,
                started=r.started,
                finished=r.finished,
                result=r.result,
                actions=r.n or 0,
                rules=r.rules,
            )
            for r in rows
        ]

    async def actions(self, room_id: str, game_no: int) -> list[ActionRow]:
        """The actions of one game, in order."""
        stmt = (
            select(
                actions.c.game_no,
                actions.c.seq,
                actions.c.seat,
                actions.c.action,
                actions.c.chosen_by,
                actions.c.stand_in,
            )
            .where(actions.c.room_id == room_id, actions.c.game_no == game_no)
            .order_by(actions.c.seq)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(stmt)).all()
        return [
            ActionRow(r.game_no, r.seq, r.seat, r.action, r.chosen_by, r.stand_in) for r in rows
        ]

    async def unfinished_rooms(self) -> list[str]:
        """Ids of rooms whose latest game is not over, or that have not started yet."""
        latest = (
            select(games.c.room_id, func.max(games.c.game_no).label("g"))
            .group_by(games.c.room_id)
            .subquery()
        )
        stmt = (
            select(rooms.c.id)
            .outerjoin(latest, latest.c.room_id == rooms.c.id)
            .outerjoin(
                games,
                (games.c.room_id == rooms.c.id) & (games.c.game_no == latest.c.g),
            )
            .where((latest.c.g.is_(None)) | (games.c.finished.is_(None)))
            .order_by(rooms.c.created)
        )
        async with self.engine.connect() as conn:
            return [r.id for r in (await conn.execute(stmt)).all()]

    async def lobby_candidates(self, limit: int = 100, since: float | None = None) -> list[str]:
        """Ids of public rooms that are waiting or in play (their latest game is not finished,
        or they have no game yet), created at or after ``since`` if given; newest first, at
        most ``limit``.

        The newest public rooms are read through an index and each is checked against its
        latest game only, so the cost follows the rooms looked at, not the rooms stored.
        """
        latest_finished = (
            select(games.c.finished)
            .where(games.c.room_id == rooms.c.id)
            .order_by(games.c.game_no.desc())
            .limit(1)
            .scalar_subquery()
        )
        stmt = select(rooms.c.id).where(rooms.c.public == true(), latest_finished.is_(None))
        if since is not None:
            stmt = stmt.where(rooms.c.created >= since)
        stmt = stmt.order_by(rooms.c.created.desc(), rooms.c.id.desc()).limit(limit)
        async with self.engine.connect() as conn:
            return [r.id for r in (await conn.execute(stmt)).all()]

    async def unfinished_games(self, limit: int | None = None) -> list[tuple[str, int]]:
        """``(room id, game number)`` of every game not marked finished, oldest start first
        (at most ``limit`` if given).

        For the start-up repair of games whose last action was stored without the finished
        mark (possible before an action and the end of its game were written together).
        """
        stmt = (
            select(games.c.room_id, games.c.game_no)
            .where(games.c.finished.is_(None))
            .order_by(games.c.started, games.c.room_id, games.c.game_no)
        )
        if limit is not None:
            stmt = stmt.limit(limit)
        async with self.engine.connect() as conn:
            return [(r.room_id, r.game_no) for r in (await conn.execute(stmt)).all()]

    async def schema_revision(self) -> str | None:
        """The migration revision the store's schema is at (after :meth:`open`: the newest,
        :func:`cardtable.store.migrations.head`)."""
        async with self.engine.connect() as conn:
            return await conn.run_sync(migrations.current)

    async def ping(self) -> None:
        """Ask the store a trivial question (``SELECT 1``) and return once it answers;
        :class:`StoreError` if the store is not open or its writer has stopped, else whatever
        the database driver raises (a server out of reach, a refused connection)."""
        writer = self._writer
        if self._closed or writer is None or writer.done():
            raise StoreError("the store is not open, or its writer has stopped")
        async with self.engine.connect() as conn:
            await conn.execute(select(literal(1)))
