"""The web server's settings: one frozen record, each default written once.

``cardtable serve`` builds a :class:`ServerSettings` from its options (whose defaults and help
it reads from :data:`DEFAULTS`), :func:`~cardtable.web.app.create_app` takes it, and the
:class:`~cardtable.web.rooms.RoomManager` gives it to its parts (the lobby, each room's table).

The module needs nothing beyond the standard library, so the command line can read the
defaults even where the ``web`` extra is not installed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .guard import Limits

__all__ = ["DEFAULTS", "MAX_QUICKPLAY_WAIT", "ServerSettings", "SettingError"]

MAX_QUICKPLAY_WAIT = 3600.0
"""Longest wait, in seconds, of a table opened by quick play."""


class SettingError(ValueError):
    """A setting out of its bounds: :attr:`name` is the field, :attr:`problem` says why."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name} {problem}")
        self.name = name
        """The field of :class:`ServerSettings` that is wrong (``quickplay_wait``)."""
        self.problem = problem
        """What is wrong with it (``is 0 to 3600 seconds``)."""


@dataclass(frozen=True)
class ServerSettings:
    """How a web server runs its rooms: clocks, AI players, chat and who may use it.

    Every duration is in seconds, finite and not negative; :class:`SettingError` names the
    first field out of its bounds.
    """

    ai_delay: float = 0.8
    """Seconds an AI seat waits before it acts (so people can follow its moves)."""
    peek_window: float = 30.0
    """Seconds the initial-peek phase stays open."""
    snap_window: float = 5.0
    """Seconds a snap window (gabo) stays open."""
    ai_workers: int | None = None
    """Worker processes that compute the moves of the search levels (expert, master) beside
    the server; ``None``: one per CPU; 0: a thread of the server instead (for debugging)."""
    turn_time: float = 60.0
    """Seconds a person has for each turn or decision before the server plays the timeout move
    for them (a room may choose another); 0 turns the clock off for every room."""
    away_time: float = 10.0
    """Seconds the clock gives a person already marked away (at most ``turn_time``)."""
    stand_in_after: int = 3
    """Turns and decisions in a row a person may let run out before an AI of the room's level
    takes their seat (until they come back); at least 1."""
    idle_time: float = 120.0
    """Seconds a room with nobody connected (and nobody asking about it) stays in memory; then
    it is paused (its AI and clocks stop) until someone asks for it again."""
    quickplay_wait: float = 20.0
    """Seconds a table opened by quick play waits for people before computer players take its
    open seats and the game starts (0: at once; at most :data:`MAX_QUICKPLAY_WAIT`)."""
    chat_rate: tuple[int, float] = (5, 10.0)
    """Chat messages (lines and reactions) a seat, or a spectator's connection, may send in any
    window of so many seconds: ``(messages, seconds)``."""
    allow_origins: tuple[str, ...] = ()
    """Origins (``https://host[:port]``) whose pages may also open WebSockets and send unsafe
    requests, besides the server's own; checked by the app (:func:`.guard.parse_origins`)."""
    allowed_hosts: tuple[str, ...] | None = None
    """Host names (or IP addresses) the server answers to, ports aside, against DNS
    rebinding: a request whose ``Host`` is another is refused (:class:`.guard.AllowedHosts`;
    ``*``: any; ``0.0.0.0`` or ``::``: any IP address). ``None``: not checked (an app built
    in-process); ``cardtable serve`` always gives its list (:func:`.guard.allowed_hosts`)."""
    limits: Limits | None = None
    """The rate limits and quotas per client address (``None``: the defaults of
    :class:`.guard.Limits`)."""
    max_spectators: int = 64
    """Spectators' connections one room takes at once; a spectator's ``join`` past it is refused
    (``too_many_spectators``); people joining their own seats never are. 0: no cap."""
    max_ai_rooms: int = 200
    """Rooms of AI players only (no person's seat) that may play in memory at once: creating
    one past it, or bringing a paused one back by watching it, is refused. 0: no cap."""
    ai_room_moves: float = 50.0
    """AI moves a second that the rooms of AI players only make together in this process: past
    it each such move waits its turn (the rooms take turns, in the order their moves fell
    due), so that matches nobody plays in cannot crowd out the tables of people. 0: no cap."""

    def __post_init__(self) -> None:
        for name in (
            "ai_delay",
            "peek_window",
            "snap_window",
            "turn_time",
            "away_time",
            "idle_time",
            "quickplay_wait",
        ):
            seconds = getattr(self, name)
            if not math.isfinite(seconds) or seconds < 0:
                raise SettingError(name, f"must be 0 seconds or more, got {seconds}")
        if self.ai_workers is not None and self.ai_workers < 0:
            raise SettingError("ai_workers", "cannot be negative")
        if self.max_spectators < 0:
            raise SettingError("max_spectators", "cannot be negative")
        if self.max_ai_rooms < 0:
            raise SettingError("max_ai_rooms", "cannot be negative")
        if not math.isfinite(self.ai_room_moves) or self.ai_room_moves < 0:
            raise SettingError("ai_room_moves", "must be 0 moves a second or more")
        if self.stand_in_after < 1:
            raise SettingError("stand_in_after", "must be 1 or more")
        if self.quickplay_wait > MAX_QUICKPLAY_WAIT:
            raise SettingError("quickplay_wait", f"is 0 to {MAX_QUICKPLAY_WAIT:g} seconds")
        count, seconds = self.chat_rate
        if count < 1 or not math.isfinite(seconds) or seconds <= 0:
            raise SettingError("chat_rate", "must be 1 message or more in more than 0 seconds")


DEFAULTS = ServerSettings()
"""The settings of a server started without options."""
