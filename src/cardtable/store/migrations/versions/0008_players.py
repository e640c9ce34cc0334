"""Players: accounts, their sessions, every person's seat's result, and ratings.

- ``players``: an account (a display name, its key for uniqueness after Unicode normalisation
  and case folding, an argon2 password hash; ``deleted`` once its owner deleted it: the name and
  hash are gone, the games stay under "deleted player").
- ``sessions``: a signed-in browser (the SHA-256 digest of its cookie, never the cookie).
- ``seats.player_id``: the account a person's seat belongs to (``NULL``: a guest's seat).
- ``rooms.rated``: the room's creator asked for rated games.
- ``results``: each seat's outcome of every finished game (written with the game's end), the
  source of a player's history and stats; games finished before this revision get none.
- ``ratings`` and ``rating_history``: the rating per game type of each player (``p:<id>``) and
  AI level (``ai:<level>``), and every change of it.

Revision 0008, after 0007.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    """Add the tables, the two columns and their indexes."""
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32)),
        sa.Column("name_key", sa.String(64)),
        sa.Column("password_hash", sa.String(255)),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Float),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    if "player_id" not in _columns("seats"):
        op.add_column("seats", sa.Column("player_id", sa.Integer))
    op.create_index("ix_seats_player", "seats", ["player_id"])
    if "rated" not in _columns("rooms"):
        op.add_column(
            "rooms", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_table(
        "results",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.ForeignKeyConstraint(["room_id", "game_no"], ["games.room_id", "games.game_no"]),
    )
    op.create_index("ix_results_player_finished", "results", ["player_id", "finished"])
    op.create_index(
        "ix_results_player_game", "results", ["player_id", "game", "won", "score", "rounds"]
    )
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(48), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_game_mu", "ratings", ["game", "mu"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("subject", sa.String(48), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("game_no", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_subject", "rating_history", ["subject", "game", "at"])
    op.create_index("ix_rating_history_game", "rating_history", ["room_id", "game_no"])


def downgrade() -> None:
    """Drop what :func:`upgrade` added (and everything in it)."""
    op.drop_index("ix_rating_history_game", "rating_history")
    op.drop_index("ix_rating_history_subject", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_game_mu", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_results_player_game", "results")
    op.drop_index("ix_results_player_finished", "results")
    op.drop_table("results")
    op.drop_column("rooms", "rated")
    op.drop_index("ix_seats_player", "seats")
    op.drop_column("seats", "player_id")
    op.drop_index("ix_sessions_player", "sessions")
    op.drop_table("sessions")
    op.drop_table("players")
