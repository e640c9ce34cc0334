"""Messages of the web protocol (docs/protocol.md): parsing and checking what clients send.

Incoming WebSocket frames are checked in a fixed order — size, JSON, object, known ``type``,
fields — by :func:`parse_message`, which raises :class:`ProtocolError` with an error code and a
plain message. Error texts name fields, never field values, so they cannot echo anything back.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

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
    "JoinMsg",
    "JoinRoom",
    "PingMsg",
    "ProtocolError",
    "RematchMsg",
    "SeatSpec",
    "StartMsg",
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


def error(code: str, message: str, msg_id: Any = None) -> dict[str, Any]:
    """An ``error`` frame."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
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
