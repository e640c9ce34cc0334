"""Hints at tables of people.

- ``rooms.hints``: ``true`` when the room's creator allowed hints at a table of people (at a
  table of one person and AI players they are always allowed); rooms stored before this
  revision get ``false``.
- ``seats.hints``: ``true`` for a person's seat that asked for a hint at a table of people (it
  is shown to everyone, and the seat has the memory aid from then on); ``false`` for every seat
  stored before this revision.

Revision 0005, after 0004.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    """Add the two columns (``false`` for every row already stored), unless a store made from
    the tables as they are now already has them."""
    for table in ("rooms", "seats"):
        if "hints" not in _columns(table):
            op.add_column(
                table,
                sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
            )


def downgrade() -> None:
    """Drop the two columns (SQLite 3.35 or later drops a column)."""
    op.drop_column("seats", "hints")
    op.drop_column("rooms", "hints")
