"""Whether a room's spectators may write in its chat.

- ``rooms.spectator_chat``: ``true`` when the room's creator let spectators write in the chat
  (they always read it); rooms stored before this revision get ``false``.

Revision 0003, after 0002.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    """Add the column (``false`` for every room already stored), unless a store made from the
    tables as they are now already has it."""
    if "spectator_chat" not in _columns("rooms"):
        op.add_column(
            "rooms",
            sa.Column("spectator_chat", sa.Boolean, nullable=False, server_default=sa.false()),
        )


def downgrade() -> None:
    """Drop the column (SQLite 3.35 or later drops a column)."""
    op.drop_column("rooms", "spectator_chat")
