"""Quick play: "Play now" seats a visitor at a public table of a game that waits for people.

:class:`QuickPlay` finds such a room among the lobby's, or opens one (:mod:`.fill` says which
rooms quick play opened and how long they wait; each room's table runs its wait).
"""

from __future__ import annotations

import asyncio

from .. import variants
from .fill import QUICKPLAY_PLAYERS, is_quickplay
from .lobby import Lobby
from .room import RoomError
from .table import Table

__all__ = ["QuickPlay"]


class QuickPlay:
    """Picking or opening a table for quick play, among the rooms of a :class:`~.lobby.Lobby`."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        """Where the rooms are."""
        self._lock = asyncio.Lock()

    async def seat(
        self, game: str, name: str | None, player: int | None = None
    ) -> tuple[Table, int, str]:
        """Seat the caller at the oldest room of ``game`` opened by quick play that is public
        and still waiting for people (rooms made with the lobby form are left to their
        creators), or open one: :data:`.fill.QUICKPLAY_PLAYERS` seats (within the game's
        range), every one a person's, whose open seats go to AI players after
        ``quickplay_wait`` seconds; the seat is the account ``player``'s if the caller is
        signed in. Returns the table, the seat and its token; ``ValueError``
        for an unknown game (nothing is created)."""
        var = variants.get(game)
        async with self._lock:  # two at once must not both open a room
            waiting = [
                t.room
                for t in self.lobby.tables.values()
                if is_quickplay(t.room.id)
                and t.room.row.game == var.name
                and t.room.row.public
                and not t.room.evicted
                and t.room.status == "waiting"
                and t.room.free_seats()
            ]
            for room in sorted(waiting, key=lambda r: (r.row.created, r.id)):
                try:
                    return await self.lobby.take_seat(room.id, name, player)
                except RoomError:  # taken or closed meanwhile: the next one
                    continue
            n = min(max(QUICKPLAY_PLAYERS, var.min_players), var.max_players)
            table, seat, token = await self.lobby.create(
                var.name, [("human", None, False)] * n, name=name, quickplay=True, player=player
            )
        assert seat is not None and token is not None  # every seat is a person's
        return table, seat, token
