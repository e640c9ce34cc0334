"""A live room and one WebSocket connection: the state a :class:`~.table.Table` changes.

A :class:`Room` holds the stored description of a room, its current game and the moves played in
it, its seats' tokens, the connections listening to it, who is away and who stands in for them,
the log of the current game, its chat and the rematch offered. Its lock and its timers are its
table's (:mod:`.table`). A :class:`Conn` is one connection's queue of outgoing frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

import orjson

from .. import variants
from ..agents import Agent
from ..catalog import Catalog, language, process_language
from ..game import Game
from ..store import GameRow, RoomRow, SeatRow
from .chat import ChatLines, has_chat
from .movelog import MoveLog
from .protocol import Frame, RoomSummary, SeatInfo
from .rematch import Offer

__all__ = ["Conn", "Room", "RoomError", "ai_only", "ai_seed", "dumps", "hash_token"]

log = logging.getLogger("cardtable.web")

_MAX_QUEUE = 256
"""Frames a connection may have waiting before it is dropped as too slow."""


def dumps(frame: Frame) -> str:
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
        self.lang: str | None = None
        """The shipped language it reads (its ``join`` said so; ``None``: the server's)."""
        self.closed = False
        """Set once the connection is gone or dropped."""
        self.on_drop: Callable[[Conn], None] | None = None
        """Called once when the server drops this connection (so its room stops counting it
        online at once, not when its socket finally closes)."""
        self.close_code: int | None = None
        """The code its socket is closed with when the server drops it (``None``: the
        connection's own; 1012 when its room moved to another process: reconnect at once)."""

    def speaking(self) -> AbstractContextManager[Catalog]:
        """A ``with`` block in which the catalog speaks this connection's language (the
        server's when it named none): the words of the frames built for it."""
        return language(self.lang or process_language())

    def push(self, frame: Frame | str) -> None:
        """Queue a frame (a dict is serialised to JSON)."""
        if self.closed:
            return
        if self.queue.qsize() >= _MAX_QUEUE:
            self.drop()  # a client this far behind is dropped rather than buffered
            return
        text = frame if isinstance(frame, str) else dumps(frame)
        self.queue.put_nowait(text)

    def drop(self) -> None:
        """Stop serving this connection: nothing more is queued, the sender stops and closes
        the socket."""
        if self.closed:
            return
        self.closed = True
        self.queue.put_nowait(None)
        if self.on_drop is not None:
            self.on_drop(self)

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


def ai_only(seats: list[SeatRow]) -> bool:
    """Whether every one of ``seats`` is an AI's (no person ever sits there)."""
    return all(s.type == "ai" for s in seats)


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
    conns: set[Conn] = field(default_factory=set)
    """Connections listening."""
    agents: dict[int, Agent] = field(default_factory=dict)
    """Agents of the AI seats for the current game."""
    tokens: dict[str, int] = field(default_factory=dict)
    """Seat by token digest."""
    unopened: set[int] = field(default_factory=set)
    """People's seats that have not yet been sent the current game's opening events (nobody
    was connected for them when it was dealt)."""
    missed: dict[int, int] = field(default_factory=dict)
    """Turns and decisions in a row each person's seat let run out."""
    away: set[int] = field(default_factory=set)
    """People's seats whose time ran out and who have not come back since."""
    stand_ins: dict[int, Agent] = field(default_factory=dict)
    """AI players holding the seats of people who missed too many turns, until they are back."""
    idle_since: float = 0.0
    """When the room last had a connection or a request (the server clock's monotonic time)."""
    evicted: bool = False
    """Set when the room left memory (paused); its object must not change any more."""
    refusal: str | None = None
    """Why the room's current game cannot go on (recorded under other rules), if so."""
    chat: ChatLines = field(default_factory=ChatLines)
    """The room's chat: its last lines, in memory only (:mod:`.chat`)."""
    moves: MoveLog = field(default_factory=MoveLog)
    """The current game's moves with their events and who chose them (:mod:`.movelog`)."""
    played: list[tuple[int, str]] = field(default_factory=list)
    """The current game's accepted moves, ``(seat, action)`` in order: what the game is rebuilt
    from if the store refuses a move already played on it (:meth:`.table.Table.act`)."""
    rematch: Offer | None = None
    """The rematch offered since the game ended (:mod:`.rematch`)."""

    @property
    def id(self) -> str:
        """Room id."""
        return self.row.id

    @property
    def status(self) -> str:
        """``waiting``, ``playing``, ``finished``, or ``closed`` (its game was recorded under
        other rules and cannot go on)."""
        if self.refusal is not None:
            return "closed"
        if self.game is None:
            return "waiting"
        return "finished" if self.game.over else "playing"

    @property
    def ai_only(self) -> bool:
        """Whether every seat is an AI's: no person ever sits at this room (its moves are
        paced by ``ai_room_moves`` and its count capped by ``max_ai_rooms``)."""
        return ai_only(self.row.seats)

    def free_seats(self) -> list[int]:
        """People's seats nobody has taken yet."""
        return [s.seat for s in self.row.seats if s.type == "human" and s.token_hash is None]

    def agent(self, seat: int) -> Agent | None:
        """The AI playing ``seat``: its own, or the stand-in of a person who is away."""
        return self.agents.get(seat) or self.stand_ins.get(seat)

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
                "away": s.seat in self.away,
                "stand_in": self.stand_ins[s.seat].name if s.seat in self.stand_ins else None,
                "played_for": self.moves.played_for(s.seat),
                "hints": s.hints,
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
            "chat": has_chat(self.row),
            "spectator_chat": self.row.spectator_chat,
            "rematch": self.rematch.to_json() if self.rematch is not None else None,
            "hints": self.row.hints,
            "practice": self.row.practice,
            "rated": self.row.rated,
        }
