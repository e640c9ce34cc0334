"""Baseline: the tables as the store made them before it had migrations.

Rooms, their seats (with the memory-aid choice), games and every accepted action. Stores made
before migrations existed already have these tables: they are stamped at this revision instead
of running it (see :func:`cardtable.store.migrations.upgrade`).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("autostart", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("type", sa.String(8), nullable=False),
        sa.Column("level", sa.String(32)),
        sa.Column("name", sa.String(32)),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("memory_aid", sa.Boolean, nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"]),
    )
    op.create_table(
        "games",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("base_version", sa.Integer, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float),
        sa.Column("result", sa.JSON),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"]),
    )
    op.create_table(
        "actions",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.ForeignKeyConstraint(["room_id", "game_no"], ["games.room_id", "games.game_no"]),
    )


def downgrade() -> None:
    """Drop the four tables (and everything in them)."""
    for table in ("actions", "games", "seats", "rooms"):
        op.drop_table(table)
