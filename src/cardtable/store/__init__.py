"""The event store: rooms, games and every accepted action, on SQLite or PostgreSQL.

The store keeps what it takes to rebuild every room exactly: each room's variant, options and
seats, each game's seed, and the ordered actions of every game. A room's state is never stored
as such; it is replayed from the log (see :mod:`cardtable.web.lobby`). The schema changes only
through the migrations in :mod:`cardtable.store.migrations`, which :meth:`Store.open` runs.
"""

from .db import ActionRow, FencedOut, GameRow, RoomRow, SeatRow, Store, StoreError

__all__ = ["ActionRow", "FencedOut", "GameRow", "RoomRow", "SeatRow", "Store", "StoreError"]
