"""Fencing of room owners.

- ``rooms.lease_epoch``: the number of the room's current owner, bumped each time a server
  process claims the room (:meth:`cardtable.store.Store.claim`); a write of a process that holds
  an older number is refused. Rooms stored before this revision get ``0`` (never claimed).

Revision 0007, after 0006.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    """Add the column (``0`` for every room already stored), unless a store made from the
    tables as they are now already has it."""
    if "lease_epoch" not in _columns("rooms"):
        op.add_column(
            "rooms",
            sa.Column("lease_epoch", sa.Integer, nullable=False, server_default=sa.text("0")),
        )


def downgrade() -> None:
    """Drop the column (SQLite 3.35 or later drops a column)."""
    op.drop_column("rooms", "lease_epoch")
