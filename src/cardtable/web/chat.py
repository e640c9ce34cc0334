"""The chat of a table with people: plain-text lines and quick reactions (docs/protocol.md).

A room has a chat only when it has at least two people's seats (:func:`has_chat`): at a table of
one person and AI players there is nobody to talk to. Every connection of such a room reads it;
a seat writes with its token, a spectator only if the room was created with ``spectator_chat``.
A line is plain text (:func:`~.protocol.check_chat_text`: at most
:data:`~.protocol.MAX_CHAT_CHARS` printable characters), a reaction one of
:data:`~.protocol.CHAT_REACTIONS`; each seat (each spectator's connection) may say
``rate[0]`` of them in any ``rate[1]`` seconds. The last :data:`~.protocol.CHAT_LOG_LINES`
lines stay in the room's memory (:class:`ChatLines`) and are sent to a connection when it joins;
they are never stored, so they are gone when the room is paused or the server restarts.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection
from typing import Protocol

from ..catalog import say as words
from ..store import RoomRow
from .clock import Clock
from .protocol import (
    CHAT_LOG_LINES,
    CHAT_REACTIONS,
    ChatFrame,
    ChatLog,
    ChatMsg,
    ProtocolError,
    check_chat_text,
)

__all__ = [
    "SPECTATOR_NAME",
    "ChatLines",
    "ChatRoom",
    "Listener",
    "chat_log",
    "has_chat",
    "say",
    "writable",
]

SPECTATOR_NAME = "Spectator"
"""The name a spectator's lines are shown under (their ``seat`` is ``None``)."""


class Listener(Protocol):
    """A connection, as the chat sees it: the room it listens to, and a way to send it a frame."""

    @property
    def room(self) -> object:
        """The room it listens to (``None`` if none)."""

    def push(self, frame: ChatFrame) -> None:
        """Send it a frame."""


class ChatRoom(Protocol):
    """A room, as the chat sees it."""

    @property
    def id(self) -> str:
        """The room's id."""

    @property
    def row(self) -> RoomRow:
        """The room's seats and settings."""

    @property
    def chat(self) -> ChatLines:
        """Its chat lines."""

    @property
    def conns(self) -> Collection[Listener]:
        """The connections listening to it."""


def has_chat(row: RoomRow) -> bool:
    """Whether the room has a chat: at least two of its seats are people's."""
    return sum(s.type == "human" for s in row.seats) >= 2


def writable(room: ChatRoom, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: a spectator) may write in the room's chat."""
    return has_chat(room.row) and (seat is not None or room.row.spectator_chat)


class ChatLines:
    """A room's chat in memory: its last lines and what each writer sent lately."""

    def __init__(self) -> None:
        self.lines: deque[ChatFrame] = deque(maxlen=CHAT_LOG_LINES)
        """The last lines, oldest first."""
        self.seq = 0
        """The number of the last line (lines are numbered from 1)."""
        self._sent: dict[object, deque[float]] = {}

    def wait(self, writer: object, rate: tuple[int, float], now: float) -> float | None:
        """Count one message of ``writer`` (a seat number, or a spectator's connection) at
        ``now`` (monotonic seconds): ``None`` if ``rate`` allows it, else the seconds until it
        would. A refused message is not counted."""
        count, seconds = rate
        for key in [k for k, times in self._sent.items() if now - times[-1] >= seconds]:
            del self._sent[key]  # nothing of theirs left in any window: forget them
        times = self._sent.setdefault(writer, deque())
        while times and now - times[0] >= seconds:
            times.popleft()
        if len(times) >= count:
            if not times:  # a count of 0: nobody may chat
                del self._sent[writer]
                return seconds
            return seconds - (now - times[0])
        times.append(now)
        return None

    def add(
        self,
        room: str,
        seat: int | None,
        name: str,
        text: str | None,
        reaction: str | None,
        at: float,
    ) -> ChatFrame:
        """Keep a new line, said at wall time ``at``, and return its frame."""
        self.seq += 1
        frame: ChatFrame = {
            "type": "chat",
            "room": room,
            "seq": self.seq,
            "at": at,
            "seat": seat,
            "name": name,
            "text": text,
            "reaction": reaction,
        }
        self.lines.append(frame)
        return frame


def _content(msg: ChatMsg) -> tuple[str | None, str | None]:
    """The line or reaction of ``msg``, checked; ``ProtocolError`` (``bad_chat``) if refused."""
    if (msg.text is None) == (msg.reaction is None):
        raise ProtocolError("bad_chat", words("web.error.chat_one"), msg.id)
    if msg.reaction is not None:
        if msg.reaction not in CHAT_REACTIONS:
            known = ", ".join(CHAT_REACTIONS)
            raise ProtocolError("bad_chat", words("web.error.chat_reaction", known=known), msg.id)
        return None, msg.reaction
    assert msg.text is not None
    try:
        return check_chat_text(msg.text), None
    except ValueError as exc:
        raise ProtocolError("bad_chat", words("web.error.chat_line", why=exc), msg.id) from None


def say(
    room: ChatRoom,
    conn: Listener,
    seat: int | None,
    msg: ChatMsg,
    rate: tuple[int, float],
    clock: Clock,
) -> None:
    """Check a chat message of ``conn`` (as ``seat``, ``None``: a spectator) and send it to
    every connection of the room, or raise :class:`ProtocolError`; a refusal changes nothing
    and sends nothing to anybody else. The sender's copy carries the message's ``id``. The
    rate is counted on ``clock``'s monotonic time, and a line is dated by its wall time."""
    if conn.room is not room or conn not in room.conns:
        raise ProtocolError("not_joined", words("web.error.chat_not_joined"), msg.id)
    if not has_chat(room.row):
        raise ProtocolError("no_chat", words("web.error.no_chat"), msg.id)
    if not writable(room, seat):
        raise ProtocolError("chat_read_only", words("web.error.chat_read_only"), msg.id)
    text, reaction = _content(msg)
    wait = room.chat.wait(seat if seat is not None else conn, rate, clock.monotonic())
    if wait is not None:
        count, seconds = rate
        within = f"{seconds:g}"
        again = max(1, math.ceil(wait))
        raise ProtocolError(
            "chat_rate_limited",
            words("web.error.chat_rate", count=count, seconds=within, again=again),
            msg.id,
        )
    name = SPECTATOR_NAME
    if seat is not None:
        name = room.row.seats[seat].name or f"Player {seat + 1}"
    frame = room.chat.add(room.id, seat, name, text, reaction, clock.now())
    for other in list(room.conns):
        if other is conn and msg.id is not None:
            other.push({**frame, "id": msg.id})
        else:
            other.push(frame)


def chat_log(room: ChatRoom, seat: int | None) -> ChatLog | None:
    """The ``chat_log`` for a connection of ``seat`` that joins the room, which the ``state``
    answering its ``join`` carries (``None``: the room has no chat)."""
    if not has_chat(room.row):
        return None
    return {"lines": list(room.chat.lines), "writable": writable(room, seat)}
