"""Practice tables.

- ``rooms.practice``: ``true`` once the one person at a table of AI players asked to see the AI
  players' cards: the room's games, that one and every later one, are practice games and never
  rated; rooms stored before this revision get ``false``.

Revision 0006, after 0005.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    """Add the column (``false`` for every room already stored), unless a store made from the
    tables as they are now already has it."""
    if "practice" not in _columns("rooms"):
        op.add_column(
            "rooms",
            sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()),
        )


def downgrade() -> None:
    """Drop the column (SQLite 3.35 or later drops a column)."""
    op.drop_column("rooms", "practice")
