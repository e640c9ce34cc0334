"""Messages of the web protocol (docs/protocol.md): parsing and checking what clients send, and
the types of what the server sends (:class:`StateFrame` and the room's :class:`RoomSummary`).

Incoming WebSocket frames are checked in a fixed order — size, JSON, object, known ``type``,
fields — by :func:`parse_message`, which raises :class:`ProtocolError` with an error code and a
plain message. Error texts name fields, never field values, so they cannot echo anything back.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Annotated, Any, Literal, NotRequired

if sys.version_info >= (3, 12):
    from typing import TypedDict
else:  # pydantic (FastAPI) accepts only typing_extensions' TypedDict before Python 3.12
    from typing_extensions import TypedDict

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
    ValidationError,
)

__all__ = [
    "MAX_MESSAGE_BYTES",
    "ActMsg",
    "ClientMessage",
    "CreateRoom",
    "ErrorFrame",
    "Frame",
    "JoinMsg",
    "JoinRoom",
    "PingMsg",
    "PongFrame",
    "ProtocolError",
    "RematchMsg",
    "RoomSummary",
    "SeatInfo",
    "SeatSpec",
    "StartMsg",
    "StateFrame",
    "TimedWindow",
    "error",
    "parse_message",
]

MAX_MESSAGE_BYTES = 4096
"""Largest WebSocket frame a client may send."""

RoomId = Annotated[str, StringConstraints(min_length=1, max_length=32)]
Token = Annotated[str, StringConstraints(min_length=1, max_length=128)]
MsgId = Annotated[str, StringConstraints(max_length=64)] | int | None
Name = Annotated[str, StringConstraints(strip_whitespace=True, max_length=24)]


class ProtocolError(Exception):
    """A message refused before it reached a room: an error ``code`` and a plain ``message``."""

    def __init__(self, code: str, message: str, msg_id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        """Error code (docs/protocol.md)."""
        self.message = message
        """Plain words for the person."""
        self.msg_id = msg_id
        """The ``id`` of the message, if it could be read."""


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: MsgId = None


class JoinMsg(_Msg):
    """Subscribe to a room, as a seat (with its token) or as a spectator."""

    type: Literal["join"]
    room: RoomId
    token: Token | None = None


class ActMsg(_Msg):
    """Play an action for the seat the token holds, based on state ``version``."""

    type: Literal["act"]
    room: RoomId
    token: Token
    action: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    version: Annotated[int, Field(ge=0)]


class StartMsg(_Msg):
    """Start the first game of a room created without autostart."""

    type: Literal["start"]
    room: RoomId
    token: Token


class RematchMsg(_Msg):
    """Start the next game of a room once the current one is over."""

    type: Literal["rematch"]
    room: RoomId
    token: Token


class PingMsg(_Msg):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


ClientMessage = JoinMsg | ActMsg | StartMsg | RematchMsg | PingMsg
"""Any message a client may send."""

_MODELS: dict[str, type[_Msg]] = {
    "join": JoinMsg,
    "act": ActMsg,
    "start": StartMsg,
    "rematch": RematchMsg,
    "ping": PingMsg,
}


def _field_problem(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_input=False, include_url=False):
        where = ".".join(str(p) for p in err["loc"]) or "message"
        kind = err["type"]
        if kind == "missing":
            parts.append(f"'{where}' is missing")
        elif kind == "extra_forbidden":
            parts.append(f"'{where}' is not a field of this message")
        else:
            parts.append(f"'{where}' is not valid ({kind.replace('_', ' ')})")
    return "; ".join(parts[:4])


def parse_message(raw: str | bytes) -> ClientMessage:
    """Check one incoming frame; return the message or raise :class:`ProtocolError`."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large", f"message of {size} bytes is over the limit of {MAX_MESSAGE_BYTES}"
        )
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("malformed", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "the message must be a JSON object")
    msg_id = data.get("id")
    if not (msg_id is None or isinstance(msg_id, int | str)) or isinstance(msg_id, bool):
        msg_id = None
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("malformed", "the message has no 'type'", msg_id)
    model = _MODELS.get(kind)
    if model is None:
        known = ", ".join(_MODELS)
        raise ProtocolError("unknown_type", f"unknown message type; known types: {known}", msg_id)
    try:
        msg: Any = model.model_validate(data)
    except ValidationError as exc:
        raise ProtocolError("malformed", _field_problem(exc), msg_id) from None
    return msg  # type: ignore[no-any-return]


# -- what the server sends (static/types/protocol.d.ts states the same for the client) --------


class SeatInfo(TypedDict):
    """A seat as anyone may know it (``seats`` of a room summary and of every ``state``)."""

    type: str
    """``human`` or ``ai``."""
    level: str | None
    """The AI level (``None`` for a person)."""
    name: str | None
    """The person's display name, if they gave one."""
    taken: bool
    """An AI seat, or a person's seat someone holds the token of."""
    online: bool
    """An AI seat, or a person's seat with a connection open."""
    memory_aid: bool
    """A person's seat that is sent perfect-memory views."""


class RoomSummary(TypedDict):
    """A room as the lobby shows it (``GET /api/rooms/{room}``; no tokens, seeds or cards)."""

    room: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    """The resolved rule options."""
    status: str
    """``waiting``, ``playing`` or ``finished``."""
    game_no: int
    version: int
    created: float
    seats: list[SeatInfo]


class TimedWindow(TypedDict):
    """A timed window open now (a snap window, the initial peeks)."""

    phase: str
    closes_in: float
    """Seconds left."""


class StateFrame(TypedDict):
    """The ``state`` frame: the room and the game as one connection's seat sees them."""

    type: Literal["state"]
    room: str
    version: int
    game_no: int
    status: str
    seat: int | None
    seats: list[SeatInfo]
    view: Mapping[str, Any] | None
    """The seat's view (a spectator's without a seat) of either game; ``None`` before the
    first game starts."""
    events: list[Mapping[str, Any]]
    """The events of the change, as the seat may see them."""
    window: TimedWindow | None
    id: NotRequired[Any]
    """The ``id`` of the message this frame answers."""


class PongFrame(TypedDict):
    """The answer to ``ping``."""

    type: Literal["pong"]
    id: NotRequired[Any]


class ErrorFrame(TypedDict):
    """A refused message: an error ``code`` (docs/protocol.md) and plain words."""

    type: Literal["error"]
    code: str
    message: str
    id: NotRequired[Any]


Frame = StateFrame | PongFrame | ErrorFrame
"""Any frame the server sends on the WebSocket."""


def error(code: str, message: str, msg_id: Any = None) -> ErrorFrame:
    """An ``error`` frame."""
    out: ErrorFrame = {"type": "error", "code": code, "message": message}
    if msg_id is not None:
        out["id"] = msg_id
    return out


# -- HTTP bodies -----------------------------------------------------------------------------


class SeatSpec(BaseModel):
    """One seat of a new room: a person (with or without memory aid), or an AI of a level."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["human", "ai"]
    level: Annotated[str, StringConstraints(max_length=32)] | None = None
    memory_aid: StrictBool = False
    """A person's seat only: its table keeps showing every card it has seen (a handicap the
    whole table sees). Without it a card shows only at the moment it is seen."""


class CreateRoom(BaseModel):
    """Body of ``POST /api/rooms``."""

    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, StringConstraints(min_length=1, max_length=32)]
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=1, max_length=10)
    name: Name | None = None
    public: bool = True
    autostart: bool = True
    memory_aid: StrictBool = False
    """Give the memory aid to every person's seat of the room."""


class JoinRoom(BaseModel):
    """Body of ``POST /api/rooms/{room}/join``."""

    model_config = ConfigDict(extra="forbid")

    name: Name | None = None
