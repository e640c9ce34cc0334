"""Each game's rules version, each room's turn time, and indexes for start-up and the lobby.

- ``games.rules``: the rules version a game was recorded under (``"kaboo/1"``); ``NULL`` for
  games stored before this revision.
- ``rooms.turn_time``: seconds a person has per turn in the room; ``NULL``: the server's
  default.
- ``ix_rooms_public_created``: the lobby's newest public rooms without scanning every room.
- ``ix_games_finished``: the games that are not finished (``finished IS NULL``) at start-up.

Revision 0002, after 0001.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def _indexes(table: str) -> set[str | None]:
    return {i["name"] for i in sa.inspect(op.get_bind()).get_indexes(table)}


def upgrade() -> None:
    """Add the two columns and the two indexes.

    Each step first looks whether it is needed: a store made before migrations existed is
    stamped at 0001 without being inspected, and one made from the tables as they are now
    (as tests build "old" stores) already has some of these.
    """
    if "rules" not in _columns("games"):
        op.add_column("games", sa.Column("rules", sa.String(48), nullable=True))
    if "turn_time" not in _columns("rooms"):
        op.add_column("rooms", sa.Column("turn_time", sa.Float, nullable=True))
    if "ix_rooms_public_created" not in _indexes("rooms"):
        op.create_index("ix_rooms_public_created", "rooms", ["public", "created"])
    if "ix_games_finished" not in _indexes("games"):
        op.create_index("ix_games_finished", "games", ["finished"])


def downgrade() -> None:
    """Drop the two indexes and the two columns (SQLite 3.35 or later drops a column)."""
    op.drop_index("ix_games_finished", table_name="games")
    op.drop_index("ix_rooms_public_created", table_name="rooms")
    op.drop_column("rooms", "turn_time")
    op.drop_column("games", "rules")
