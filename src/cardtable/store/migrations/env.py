"""Runs the store's migrations on the connection the store hands over.

Migrations never open a connection of their own: :func:`cardtable.store.migrations.upgrade`
passes one (already inside a transaction) through ``config.attributes["connection"]``, and
every step runs in that transaction.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from cardtable.store.db import metadata

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError(
        "the store's migrations run through cardtable.store (Store.open, or "
        "python -m cardtable.store upgrade --db URL), which hands them a connection"
    )
context.configure(
    connection=connection,
    target_metadata=metadata,
    # SQLite alters most things only by copying a table: new migrations are written in batch
    # operations, which do that on SQLite and plain ALTERs elsewhere
    render_as_batch=True,
)
with context.begin_transaction():
    context.run_migrations()
