"""Who chose each action when its seat's own player did not.

- ``actions.chosen_by``: ``"clock"`` (the time ran out and the server played the engine's
  timeout move) or ``"stand_in"`` (an AI played for a person who was away); ``NULL`` for a move
  chosen by the seat's own player, and for every action stored before this revision (who chose
  those was not kept).
- ``actions.stand_in``: the AI level of a stand-in's move (``NULL`` otherwise).

Revision 0004, after 0003.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    """Add the two columns (``NULL`` for every action already stored), unless a store made from
    the tables as they are now already has them."""
    have = _columns("actions")
    if "chosen_by" not in have:
        op.add_column("actions", sa.Column("chosen_by", sa.String(8), nullable=True))
    if "stand_in" not in have:
        op.add_column("actions", sa.Column("stand_in", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop the two columns (SQLite 3.35 or later drops a column)."""
    op.drop_column("actions", "stand_in")
    op.drop_column("actions", "chosen_by")
