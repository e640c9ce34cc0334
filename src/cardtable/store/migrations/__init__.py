"""The store's schema history: Alembic migrations kept inside the package.

The schema changes only through the revisions in ``versions/`` (``0001`` the baseline, then one
file per change). :meth:`cardtable.store.Store.open` runs :func:`upgrade` on every start, so a
store is always at :func:`head` before the server uses it. No configuration file is needed: the
configuration is built here, and the migrations run on the connection they are handed (the
"sharing a connection" pattern), inside the caller's transaction.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text, true
from sqlalchemy.engine import Connection

__all__ = [
    "BASELINE",
    "LOCK_KEY",
    "SCRIPT_LOCATION",
    "VERSION_TABLE",
    "config",
    "current",
    "downgrade",
    "head",
    "upgrade",
]

SCRIPT_LOCATION = Path(__file__).resolve().parent
"""The folder holding ``env.py``, ``script.py.mako`` and ``versions/``."""

BASELINE = "0001"
"""The revision that describes the tables as the store made them before it had migrations."""

VERSION_TABLE = "alembic_version"
"""The table in which a store records the revision it is at."""

LOCK_KEY = int.from_bytes(b"cardtabl", "big")
"""PostgreSQL advisory lock held while the schema is checked and upgraded, so servers starting
at the same time on one database upgrade it one after the other."""

_LEGACY_TABLES = frozenset({"rooms", "seats", "games", "actions"})


def config(connection: Connection | None = None) -> Config:
    """A configuration for the store's migrations, built in code; ``connection`` (if given) is
    the one every command run with it works on."""
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPT_LOCATION))
    cfg.set_main_option("version_table", VERSION_TABLE)
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision (what :func:`upgrade` brings a store to)."""
    rev = ScriptDirectory.from_config(config()).get_current_head()
    if rev is None:  # pragma: no cover - the package always ships its revisions
        raise RuntimeError("the store has no migrations")
    return rev


def current(connection: Connection) -> str | None:
    """The revision the database behind ``connection`` is at (``None``: none recorded)."""
    return MigrationContext.configure(connection).get_current_revision()


def _lock(connection: Connection) -> None:
    """Wait for (and hold until the transaction ends) the schema lock on PostgreSQL."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})


def _adopt_legacy(connection: Connection) -> None:
    """Bring a store made before migrations existed to the baseline's shape.

    Its tables were made by ``create_all``; the only later change was the seats' memory-aid
    column. Rooms created before it were played with every known card shown, so their seats
    keep the memory aid: ``true`` for every row that exists (new rows always give the value).
    """
    columns = {c["name"] for c in inspect(connection).get_columns("seats")}
    if "memory_aid" not in columns:
        default = true().compile(dialect=connection.dialect)
        connection.execute(
            text(f"ALTER TABLE seats ADD COLUMN memory_aid BOOLEAN NOT NULL DEFAULT {default}")
        )


def upgrade(connection: Connection, revision: str = "head") -> None:
    """Bring the schema behind ``connection`` up to ``revision`` (default: the newest).

    Runs inside the connection's transaction (the caller commits; on PostgreSQL every step
    is undone if one fails). An empty database gets every revision from the baseline; a store
    made before migrations existed (its tables, no version table) is first brought to the
    baseline's shape and stamped at :data:`BASELINE`; a store at ``revision`` is left as it
    is. On PostgreSQL the whole check-and-upgrade holds an advisory lock, so a second server
    starting at the same time waits, then finds nothing to do. On SQLite, once anything was
    migrated, every reference between rows is checked (``PRAGMA foreign_key_check``).
    """
    _lock(connection)
    cfg = config(connection)
    tables = set(inspect(connection).get_table_names())
    before = current(connection) if VERSION_TABLE in tables else None
    if VERSION_TABLE not in tables and _LEGACY_TABLES.issubset(tables):
        _adopt_legacy(connection)
        command.stamp(cfg, BASELINE)
    command.upgrade(cfg, revision)
    if connection.dialect.name == "sqlite" and current(connection) != before:
        _check_references(connection)


def _check_references(connection: Connection) -> None:
    """Raise if a row refers to a row that does not exist (SQLite: the store migrates with
    foreign keys off, so a migration that copies a table is checked once at its end)."""
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if broken:
        tables = sorted({str(row[0]) for row in broken})
        raise RuntimeError(
            f"the migration left {len(broken)} rows referring to missing rows "
            f"(in {', '.join(tables)}); nothing was changed"
        )


def downgrade(connection: Connection, revision: str) -> None:
    """Take the schema behind ``connection`` back to ``revision`` (``"base"``: no tables), in
    the connection's transaction. For repairs and for testing migrations; the store itself
    never downgrades."""
    _lock(connection)
    command.downgrade(config(connection), revision)
