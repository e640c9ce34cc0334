"""Messages of the web protocol (docs/protocol.md): parsing and checking what clients send, and
the types of what the server sends (:class:`StateFrame` and the room's :class:`RoomSummary`).

Incoming WebSocket frames are checked in a fixed order — text frame, size, nesting, JSON,
object, ``id``, text, known ``type``, fields — by :func:`parse_message`, which raises
:class:`ProtocolError` with an error code and a plain message. Error texts name fields, never
field values, so they cannot echo anything back; an error carries the message's ``id`` only if
that id is valid (:func:`valid_id`), so every error frame can be encoded.

People's display names (:data:`Name`) are checked here too: printable text of at most
:data:`MAX_NAME_CHARS` characters, whitespace collapsed, without bidirectional controls or lone
surrogates, and not one of the labels the server gives AI seats (:func:`ai_seat_label`).
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from typing import Annotated, Any, Literal, NotRequired, TypeAlias, TypeGuard

if sys.version_info >= (3, 12):
    from typing import TypedDict
else:  # pydantic (FastAPI) accepts only typing_extensions' TypedDict before Python 3.12
    from typing_extensions import TypedDict

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
    ValidationError,
)

from ..agents.registry import LEVELS
from ..text.phrase import Tone
from ..variants import Options
from ..views import View

__all__ = [
    "AI_LEVELS",
    "CHAT_LOG_LINES",
    "CHAT_REACTIONS",
    "MAX_CHAT_CHARS",
    "MAX_DEPTH",
    "MAX_ID",
    "MAX_ID_CHARS",
    "MAX_LANG_CHARS",
    "MAX_MESSAGE_BYTES",
    "MAX_NAME_CHARS",
    "MAX_OPTIONS",
    "MAX_TURN_TIME",
    "MIN_TURN_TIME",
    "ActMsg",
    "By",
    "ChatFrame",
    "ChatLog",
    "ChatMsg",
    "ClientMessage",
    "CreateRoom",
    "ErrorFrame",
    "Frame",
    "HintFrame",
    "HintLabels",
    "HintMsg",
    "HintRow",
    "HoldMsg",
    "JoinMsg",
    "JoinRoom",
    "LogEntry",
    "MsgId",
    "Phrasing",
    "PingMsg",
    "PlayedFor",
    "PongFrame",
    "PracticeMsg",
    "ProtocolError",
    "QuickPlay",
    "RematchMsg",
    "RematchOffer",
    "RoomSummary",
    "SeatInfo",
    "SeatSpec",
    "StartMsg",
    "StateFrame",
    "TimedWindow",
    "TurnClock",
    "ai_seat_label",
    "check_chat_text",
    "check_name",
    "error",
    "excerpt",
    "parse_message",
    "valid_id",
]

MIN_TURN_TIME = 10.0
"""Fewest seconds a room's creator may give each turn."""

MAX_TURN_TIME = 600.0
"""Most seconds a room's creator may give each turn."""

MAX_MESSAGE_BYTES = 4096
"""Largest WebSocket frame a client may send."""

MAX_DEPTH = 8
"""Deepest nesting of JSON arrays and objects a frame may have (messages are flat objects)."""

MAX_ID_CHARS = 64
"""Longest string ``id`` a message may carry."""

MAX_ID = 2**53
"""Largest magnitude of an integer ``id`` (every JSON reader holds it exactly)."""

MAX_LANG_CHARS = 35
"""Longest language tag a ``hint`` may name (``de-AT``, ``en-US``: BCP 47)."""

MAX_NAME_CHARS = 24
"""Longest display name, after whitespace is collapsed."""

AI_LEVELS: tuple[str, ...] = (*LEVELS, "random", "heuristic")
"""Agent names a room's AI seat may use."""

MAX_CHAT_CHARS = 200
"""Longest chat line, in characters, after surrounding whitespace is stripped."""

CHAT_LOG_LINES = 50
"""Chat lines a room keeps in memory and gives a connection when it joins."""

CHAT_REACTIONS: tuple[str, ...] = ("gg", "nice", "oops", "thinking", "thanks", "hurry")
"""The quick reactions a chat message may carry (the client shows each as a short label)."""


def ai_seat_label(level: str) -> str:
    """The name the server gives an AI seat of ``level`` (``"Casual AI"``)."""
    return f"{level.capitalize()} AI"


_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
"""Bidirectional controls: they can make a name read as something else."""

_SURROGATE = re.compile("[\ud800-\udfff]")
_SPACES = re.compile(r"\s+")


def _fold(text: str) -> str:
    """``text`` as names are compared: compatibility forms, whitespace collapsed, no case."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


_LOOKALIKES = str.maketrans(
    {
        # Cyrillic and Greek letters drawn like Latin ones (lower case: names are casefolded)
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "ɡ": "g",
        "ӏ": "l",
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ı": "i",
        # letters and digits that read alike in most fonts
        "l": "i",
        "1": "i",
        "|": "i",
        "!": "i",
        "0": "o",
        "5": "s",
        "3": "e",
    }
)
_INVISIBLE_OR_SEPARATOR = re.compile(r"[\s._\-·•*'\"`~]")


def _skeleton(text: str) -> str:
    """What ``text`` looks like, roughly: compatibility forms, no accents, no invisible
    (format) characters, separators or case, and lookalike letters and digits made one."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(
        ch
        for ch in decomposed
        if not unicodedata.combining(ch) and unicodedata.category(ch) != "Cf"
    )
    return _INVISIBLE_OR_SEPARATOR.sub("", kept.casefold().translate(_LOOKALIKES))


_AI_NAMES = frozenset(_skeleton(ai_seat_label(level)) for level in AI_LEVELS)


def check_name(name: str) -> str:
    """A display name made tidy (whitespace collapsed), or ``ValueError`` saying why it is
    refused. The message never quotes the name."""
    if _SURROGATE.search(name):
        raise ValueError("the name holds a lone surrogate (not valid Unicode text)")
    if any(ch in _BIDI for ch in name):
        raise ValueError("the name holds a bidirectional control character")
    tidy = _SPACES.sub(" ", name).strip()
    if not tidy.isprintable():
        raise ValueError("the name holds a control or other unprintable character")
    if len(tidy) > MAX_NAME_CHARS:
        raise ValueError(f"the name is longer than {MAX_NAME_CHARS} characters")
    if _skeleton(tidy) in _AI_NAMES:  # also "Cаsual AI" with a Cyrillic а, "Casual Al" …
        raise ValueError("the name is the label of an AI seat; choose another")
    return tidy


_ZWJ = "\u200d"
"""The zero-width joiner: it glues emoji into one picture, so a chat line may hold it."""


def check_chat_text(text: str) -> str:
    """A chat line with surrounding whitespace stripped, or ``ValueError`` saying why it is
    refused: empty, longer than :data:`MAX_CHAT_CHARS` characters, or holding a bidirectional
    control, a line break or any other unprintable character (nothing is silently removed).
    The message never quotes the line."""
    if _SURROGATE.search(text):
        raise ValueError("the line holds a lone surrogate (not valid Unicode text)")
    line = text.strip()
    if not line:
        raise ValueError("the line is empty")
    if len(line) > MAX_CHAT_CHARS:
        raise ValueError(f"the line is longer than {MAX_CHAT_CHARS} characters")
    if any(ch in _BIDI for ch in line):
        raise ValueError("the line holds a bidirectional control character")
    if not line.replace(_ZWJ, "").isprintable():
        raise ValueError("the line holds a line break, a control or another unprintable character")
    return line


def _check_id(value: str) -> str:
    if _SURROGATE.search(value):
        raise ValueError("a lone surrogate")
    return value


def valid_id(value: object) -> TypeGuard[str | int]:
    """Whether ``value`` may be echoed as a message ``id``: a string of at most
    :data:`MAX_ID_CHARS` characters of valid Unicode, or an integer within ±:data:`MAX_ID`
    (a :data:`MsgId`, then)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -MAX_ID <= value <= MAX_ID
    if isinstance(value, str):
        return len(value) <= MAX_ID_CHARS and not _SURROGATE.search(value)
    return False


def excerpt(value: object, limit: int = 80) -> str:
    """At most ``limit`` characters of ``value`` (its ``repr`` unless a string), lone
    surrogates replaced, for quoting input back in an error."""
    try:
        text = value if isinstance(value, str) else repr(value)
    except ValueError:  # an integer with more digits than Python converts
        text = "(a number too long to show)"
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.encode("utf-8", "replace").decode("utf-8")


RoomId = Annotated[str, StringConstraints(min_length=1, max_length=32)]
Token = Annotated[str, StringConstraints(min_length=1, max_length=128)]
MsgId: TypeAlias = (
    Annotated[str, StringConstraints(max_length=MAX_ID_CHARS), AfterValidator(_check_id)]
    | Annotated[int, Field(ge=-MAX_ID, le=MAX_ID)]
    | None
)
"""A message's ``id`` as a reply echoes it: a string or an integer (:func:`valid_id`);
``None`` when the message carried none (or one that may not be echoed)."""
Name = Annotated[str, AfterValidator(check_name)]


class ProtocolError(Exception):
    """A message refused before it reached a room: an error ``code`` and a plain ``message``."""

    def __init__(self, code: str, message: str, msg_id: MsgId = None) -> None:
        super().__init__(message)
        self.code = code
        """Error code (docs/protocol.md)."""
        self.message = message
        """Plain words for the person."""
        self.msg_id: MsgId = msg_id
        """The ``id`` of the message, if it could be read."""


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: MsgId = None


LanguageTag = Annotated[str, StringConstraints(max_length=35)]
"""A language a client reads (a BCP 47 tag: ``de``, ``de-AT``, ``en-US``)."""


class JoinMsg(_Msg):
    """Subscribe to a room, as a seat (with its token) or as a spectator; ``lang``: the
    language the connection reads (a tag such as ``de-AT``, matched to a shipped language:
    the words the server sends it from then on; none: the server's)."""

    type: Literal["join"]
    room: RoomId
    token: Token | None = None
    lang: LanguageTag | None = None


class ActMsg(_Msg):
    """Play an action for the seat the token holds, based on state ``version``."""

    type: Literal["act"]
    room: RoomId
    token: Token
    action: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    version: Annotated[int, Field(ge=0, le=MAX_ID)]


class StartMsg(_Msg):
    """Start the first game of a room created without autostart."""

    type: Literal["start"]
    room: RoomId
    token: Token


class RematchMsg(_Msg):
    """Once the game is over: without ``accept``, offer the next game (or accept the offer
    open); with ``accept``, answer the offer. Only a seat's token may (a spectator is refused
    by the room, with a plain message)."""

    type: Literal["rematch"]
    room: RoomId
    token: Token | None = None
    accept: StrictBool | None = None


class HoldMsg(_Msg):
    """Hold the room's clocks and AI players (``on``: true) while the person reads something,
    or let them go on (``on``: false). Only a seat's token may, from a connection listening to
    the room as that seat; it holds only where no other person sits at the table."""

    type: Literal["hold"]
    room: RoomId
    token: Token | None = None
    on: StrictBool


class ChatMsg(_Msg):
    """Say a line (``text``) or a quick reaction (``reaction``, one of :data:`CHAT_REACTIONS`)
    at a room's table: as the seat the token holds, or as a spectator without one. Exactly one
    of the two is given; what they hold is checked by the room (error ``bad_chat``)."""

    type: Literal["chat"]
    room: RoomId
    token: Token | None = None
    text: Annotated[str, StringConstraints(max_length=MAX_MESSAGE_BYTES)] | None = None
    reaction: Annotated[str, StringConstraints(max_length=32)] | None = None


class HintMsg(_Msg):
    """Ask for a hint at the seat's decision (the token's seat, based on state ``version``):
    every legal move with what the search expects of it, answered to this connection only
    (a :class:`HintFrame`), in the language ``lang`` names (a tag such as ``de-AT``; none: the
    server's). At a table of people the first hint marks the seat (shown to everyone, and the
    memory aid from then on): without ``handicap`` the answer only says so, with it the seat
    accepts that."""

    type: Literal["hint"]
    room: RoomId
    token: Token
    version: Annotated[int, Field(ge=0, le=MAX_ID)]
    lang: Annotated[str, StringConstraints(max_length=MAX_LANG_CHARS)] | None = None
    handicap: StrictBool = False


class PracticeMsg(_Msg):
    """Show the AI players' cards face up to the one person at a table of AI players (``on``),
    or turn them face down again. The first ``on`` makes the room a practice table for good:
    its games, that one and every later one, are never rated. Refused where two people or more
    sit at the table."""

    type: Literal["practice"]
    room: RoomId
    token: Token
    on: StrictBool


class PingMsg(_Msg):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


ClientMessage = (
    JoinMsg | ActMsg | StartMsg | RematchMsg | HoldMsg | ChatMsg | HintMsg | PracticeMsg | PingMsg
)
"""Any message a client may send."""

_MODELS: dict[str, type[ClientMessage]] = {
    "join": JoinMsg,
    "act": ActMsg,
    "start": StartMsg,
    "rematch": RematchMsg,
    "hold": HoldMsg,
    "chat": ChatMsg,
    "hint": HintMsg,
    "practice": PracticeMsg,
    "ping": PingMsg,
}


def _field_problem(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_input=False, include_url=False):
        where = excerpt(".".join(str(p) for p in err["loc"]) or "message", 40)
        kind = err["type"]
        if kind == "missing":
            parts.append(f"'{where}' is missing")
        elif kind == "extra_forbidden":
            parts.append(f"'{where}' is not a field of this message")
        else:
            parts.append(f"'{where}' is not valid ({kind.replace('_', ' ')})")
    return "; ".join(parts[:4])


def _depth(raw: str) -> int:
    """The deepest nesting of arrays and objects in ``raw`` (brackets inside strings aside)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _valid_text(data: object) -> bool:
    """Whether every string of ``data`` (keys too) is valid Unicode (no lone surrogate)."""
    stack: list[object] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def parse_message(raw: str | bytes) -> ClientMessage:
    """Check one incoming frame; return the message or raise :class:`ProtocolError`.

    Nothing of a refused frame is echoed but a valid ``id`` (:func:`valid_id`)."""
    if not isinstance(raw, str):
        raise ProtocolError(
            "binary_frame", "binary frames are not accepted: send JSON in a text frame"
        )
    size = len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large", f"message of {size} bytes is over the limit of {MAX_MESSAGE_BYTES}"
        )
    # messages are flat: a frame with many brackets is measured before the JSON reader
    # recurses into it
    if raw.count("[") + raw.count("{") > MAX_DEPTH and _depth(raw) > MAX_DEPTH:
        raise ProtocolError(
            "too_deep", f"the message nests arrays or objects more than {MAX_DEPTH} deep"
        )
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("malformed", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "the message must be a JSON object")
    raw_id: object = data.get("id")
    msg_id: MsgId = None
    if valid_id(raw_id):
        msg_id = raw_id
    elif raw_id is not None:
        raise ProtocolError(
            "bad_id",
            f"the message's 'id' is not valid (a string of at most {MAX_ID_CHARS} characters, "
            f"or an integer within ±2^53), so this answer carries no id",
        )
    if not _valid_text(data):
        raise ProtocolError(
            "bad_text", "the message holds a lone surrogate (not valid Unicode text)", msg_id
        )
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("malformed", "the message has no 'type'", msg_id)
    model = _MODELS.get(kind)
    if model is None:
        known = ", ".join(_MODELS)
        raise ProtocolError("unknown_type", f"unknown message type; known types: {known}", msg_id)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ProtocolError("malformed", _field_problem(exc), msg_id) from None


# -- what the server sends (static/types/protocol.d.ts states the same for the client) --------


class PlayedFor(TypedDict):
    """How many actions of a seat in the current game were chosen by someone else than its
    player: by the clock, by an AI standing in."""

    clock: int
    stand_in: int


class By(TypedDict):
    """Who chose an action when the seat's own player did not."""

    seat: int
    kind: Literal["clock", "stand_in"]
    """``clock``: the time ran out (the turn clock, or a timed window closing) and the engine's
    timeout move was played; ``stand_in``: an AI played for a person who is away."""
    name: str
    """``clock``: the seat's display name; ``stand_in``: the AI's label (``Casual AI``)."""


class Phrasing(TypedDict):
    """An event in words (the ``said`` of every event the server sends), from the side of the
    connection it is sent to (:mod:`.said`)."""

    text: str
    """The sentence (:func:`cardtable.text.phrase.phrase`): cards as tokens (``[7H]``), seats
    as the reader names them (``you``, a display name, ``Casual AI``)."""
    tone: Tone
    """How it weighs (``plain``, ``quiet``: a turn begins, ``strong``: a round begins or ends,
    ``call``, ``alarm``: a penalty, ``note``: the table changed by itself)."""


class LogEntry(TypedDict):
    """One accepted action of the current game (or its deal: ``seat`` ``None``) in the ``log``
    of the ``state`` answering a ``join``, its events as that connection may read them now."""

    version: int
    """The room's version right after it."""
    seat: int | None
    by: By | None
    events: list[dict[str, object]]
    """The events, each with its words (``said``: a :class:`Phrasing`)."""


class RematchOffer(TypedDict):
    """A rematch offered once the game is over: the offerer, the seats that accepted (every AI
    seat among them) and those that declined (an offer with a decline has ended)."""

    by: int
    accepted: list[int]
    declined: list[int]


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
    away: bool
    """A person's seat whose time ran out and who has not come back since."""
    stand_in: str | None
    """The AI level playing for a person who missed too many turns in a row, until they come
    back (join with their token, or act)."""
    played_for: PlayedFor
    """The seat's actions in the current game chosen by the clock or by a stand-in."""
    hints: bool
    """A person's seat that asked for a hint at a table of people: it has the memory aid from
    then on (a handicap everyone sees)."""


class RoomSummary(TypedDict):
    """A room as the lobby shows it (``GET /api/rooms/{room}``; no tokens, seeds or cards)."""

    room: str
    game: str
    title: str
    players: int
    options: Options
    """The resolved rule options."""
    status: str
    """``waiting``, ``playing`` or ``finished``."""
    game_no: int
    version: int
    created: float
    seats: list[SeatInfo]
    chat: bool
    """Whether the room has a chat: it has at least two people's seats."""
    spectator_chat: bool
    """Whether spectators may write in the chat (they always read it)."""
    rematch: RematchOffer | None
    """The rematch offered, if any (until the next game starts, or a new offer)."""
    hints: bool
    """Whether people may ask for hints at this table of people (at a table of one person and
    AI players they always may)."""
    practice: bool
    """Whether the room is a practice table (its person asked to see the AI players' cards):
    its games are never rated."""
    rated: bool
    """Whether the room's games are rated: only signed-in players may take its seats, and
    nobody at it has the memory aid or hints."""
    turn_time: NotRequired[float]
    """Seconds each person has per turn or decision (0: no clock)."""
    quickplay: NotRequired[bool]
    """Whether quick play opened the room."""
    paused: NotRequired[bool]
    """Whether the room is paused: nobody is at it, its AI players and clocks stand still until
    someone joins it (``GET /api/rooms/{room}``; the lobby lists only rooms not paused)."""
    ai_fill_in: NotRequired[float]
    """A quick-play room waiting for people: seconds until AI players take its open seats."""


class TimedWindow(TypedDict):
    """A timed window open now (a snap window, the initial peeks)."""

    phase: str
    closes_in: float
    """Seconds left (frozen while paused)."""
    paused: bool
    """Held by the only person at the table (``hold``)."""


class TurnClock(TypedDict):
    """The turn clock running now: the people's seats to act and the seconds they have left
    before the server plays the timeout move for them."""

    seats: list[int]
    closes_in: float
    """Seconds left (frozen while paused)."""
    paused: bool
    """Held by the only person at the table (``hold``)."""


class ChatFrame(TypedDict):
    """The ``chat`` frame: one line or quick reaction, sent to every connection of the room."""

    type: Literal["chat"]
    room: str
    seq: int
    """Numbers the room's chat lines from 1 (kept in memory only: a new count after the room
    is rebuilt)."""
    at: float
    """When the server accepted it (Unix seconds)."""
    seat: int | None
    """The seat that said it (``None``: a spectator)."""
    name: str
    """The seat's display name, or ``Spectator``."""
    text: str | None
    """The line, as plain text (``None`` for a reaction)."""
    reaction: str | None
    """One of :data:`CHAT_REACTIONS` (``None`` for a line)."""
    id: NotRequired[MsgId]
    """The ``id`` of the message, on the sender's copy only."""


class ChatLog(TypedDict):
    """The ``chat_log`` of the ``state`` that answers a ``join`` at a room with a chat: the
    room's last lines, oldest first, and whether this connection may write."""

    lines: list[ChatFrame]
    writable: bool
    """Whether this connection may send ``chat`` (a seat, or a spectator where allowed)."""


class StateFrame(TypedDict):
    """The ``state`` frame: the room and the game as one connection's seat sees them."""

    type: Literal["state"]
    room: str
    version: int
    game_no: int
    status: str
    seat: int | None
    seats: list[SeatInfo]
    view: View | None
    """The seat's view (a spectator's without a seat) of either game; ``None`` before the
    first game starts."""
    events: list[dict[str, object]]
    """The events of the change, as the seat may see them, each with its words (``said``: a
    :class:`Phrasing`, of what the seat may read again later: :mod:`.said`)."""
    window: TimedWindow | None
    clock: TurnClock | None
    """The turn clock, while people are to act outside a timed window (``None``: no clock)."""
    by: By | None
    """Who chose the action this frame reports when its seat's own player did not (``None``:
    they did, or the frame reports no action)."""
    rematch: RematchOffer | None
    """The rematch offered, if any."""
    ai_fill_in: NotRequired[float]
    """A quick-play room waiting for people: seconds until AI players take its open seats."""
    chat_log: NotRequired[ChatLog]
    """On the frame answering a ``join`` at a room with a chat only: its last lines."""
    log: NotRequired[list[LogEntry]]
    """On the frame answering a ``join`` only: the current game's moves so far, oldest first
    (the newest ``MAX_LOG_ENTRIES`` of them, :mod:`.movelog`)."""
    held: NotRequired[bool]
    """On the frame answering a ``hold`` only: whether the room's clocks and AI players are
    held now."""
    open_hands: NotRequired[bool]
    """To the one person at a table of AI players only: whether the AI players' cards are shown
    face up in ``view`` (``practice``)."""
    id: NotRequired[MsgId]
    """The ``id`` of the message this frame answers."""


class HintRow(TypedDict):
    """One legal move of a hint (:meth:`cardtable.learn.hints.HintRow.as_json`)."""

    action: str
    """The move, as ``act`` sends it."""
    words: str
    """The move in plain words, told to the seat, in the hint's language."""
    points: float
    """Expected points for the round after it (fewer are better)."""
    win: float
    """Chance to win the round after it (0 to 1)."""
    loss: float
    """Expected points it gives away against the move with the fewest."""
    best: bool
    """The search's choice (the first row)."""


class HintLabels(TypedDict):
    """The words of the hint panel, in the hint's language."""

    title: str
    order: str
    """How the rows are ranked."""
    best: str
    points: str
    """The heading of the expected points."""
    win: str
    """The heading of the chance to win."""
    play: str
    """What a row does when chosen."""
    close: str
    thinking: str
    accept: str
    """The button that asks for hints anyway (at a table of people)."""
    badge: str
    """The mark by a seat that asked for hints."""


class HintFrame(TypedDict):
    """The ``hint`` frame: the answer to a ``hint`` message, to that connection only. Its rows
    are every legal move of the seat at ``version``, best first; none when the answer only says
    that hints here are a handicap (``handicap``: the words, asked to accept)."""

    type: Literal["hint"]
    room: str
    version: int
    """The room's version the hint was computed for (sent only while it is still current)."""
    rows: list[HintRow]
    deals: int
    """Worlds the search dealt."""
    labels: HintLabels
    handicap: NotRequired[str]
    """At a table of people, before the seat's first hint: what asking means (no rows)."""
    id: NotRequired[MsgId]
    """The ``id`` of the ``hint`` message."""


class PongFrame(TypedDict):
    """The answer to ``ping``."""

    type: Literal["pong"]
    id: NotRequired[MsgId]


class ErrorFrame(TypedDict):
    """A refused message: an error ``code`` (docs/protocol.md) and plain words."""

    type: Literal["error"]
    code: str
    message: str
    id: NotRequired[MsgId]


Frame = StateFrame | ChatFrame | HintFrame | PongFrame | ErrorFrame
"""Any frame the server sends on the WebSocket."""


def error(code: str, message: str, msg_id: MsgId = None) -> ErrorFrame:
    """An ``error`` frame; ``msg_id`` is echoed only if :func:`valid_id`."""
    out: ErrorFrame = {"type": "error", "code": code, "message": excerpt(message, 300)}
    if msg_id is not None and valid_id(msg_id):
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


MAX_OPTIONS = 16
"""Most entries an ``options`` object may have."""


def _check_options(options: dict[str, object]) -> dict[str, object]:
    """Refuse option values no game could take (the variant's own check comes later, with its
    bounds): a number beyond ±2^53, a long string, an array or object. Never quotes a value."""
    if len(options) > MAX_OPTIONS:
        raise ValueError(f"at most {MAX_OPTIONS} options")
    for key, value in options.items():
        name = excerpt(key, 32)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ID:
            raise ValueError(f"option {name!r} is a number out of range (beyond ±2^53)")
        if isinstance(value, float) and not -MAX_ID <= value <= MAX_ID:
            raise ValueError(f"option {name!r} is a number out of range (beyond ±2^53)")
        if isinstance(value, str) and len(value) > 64:
            raise ValueError(f"option {name!r} is a string longer than 64 characters")
        if isinstance(value, list | dict):
            raise ValueError(f"option {name!r} is an array or object: no option takes one")
    return options


class CreateRoom(BaseModel):
    """Body of ``POST /api/rooms``."""

    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, StringConstraints(min_length=1, max_length=32)]
    players: Annotated[int, Field(ge=1, le=10)] | None = None
    # JSON values as they came: _check_options refuses what no game could take, and the
    # variant checks the rest (a wrong type is answered in its words)
    options: Annotated[
        dict[Annotated[str, StringConstraints(max_length=32)], Any],
        AfterValidator(_check_options),
    ] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=1, max_length=10)
    name: Name | None = None
    public: bool = True
    autostart: bool = True
    memory_aid: StrictBool = False
    """Give the memory aid to every person's seat of the room."""
    turn_time: Annotated[float, Field(ge=MIN_TURN_TIME, le=MAX_TURN_TIME)] | None = None
    """Seconds each person has per turn or decision in this room (``None``: the server's
    ``--turn-time``)."""
    spectator_chat: StrictBool = False
    """Spectators may write in the room's chat (they always read it)."""
    hints: StrictBool = False
    """People may ask for hints at this table of people (each one who does is marked, and
    has the memory aid from then on). At a table of one person and AI players hints are
    always allowed."""
    rated: StrictBool = False
    """The room's games are rated: only for a signed-in creator, with no memory aid and no
    hints at the table; every person's seat must be a signed-in player's."""


class JoinRoom(BaseModel):
    """Body of ``POST /api/rooms/{room}/join``."""

    model_config = ConfigDict(extra="forbid")

    name: Name | None = None


class QuickPlay(BaseModel):
    """Body of ``POST /api/quickplay``: the game (a variant's name) and the caller's name."""

    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, StringConstraints(min_length=1, max_length=32)]
    name: Name | None = None
