"""``python -m cardtable.store``: the store's schema from the command line.

- ``upgrade --db URL``: bring a store to the newest revision (what every server start does).
- ``current --db URL``: print the revision a store is at.
- ``revision -m MESSAGE``: write a new migration into the package's ``versions/`` folder,
  filled in from the difference between the tables in ``db.py`` and the newest revision
  (compared on a scratch SQLite store; read and complete it before committing it).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine
from sqlalchemy.ext.asyncio import create_async_engine

from . import migrations
from .db import DEFAULT_URL, Store


async def _upgrade(url: str) -> str | None:
    """Open (and so upgrade) the store at ``url``; its revision afterwards."""
    store = Store(url)
    await store.open()
    try:
        return await store.schema_revision()
    finally:
        await store.close()


async def _current(url: str) -> str | None:
    """The revision of the store at ``url``, without changing it."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(migrations.current)
    finally:
        await engine.dispose()


def _revision(message: str, autogenerate: bool) -> Path:
    """Write the next migration file; return its path."""
    rev_id = f"{int(migrations.head()) + 1:04d}"
    with tempfile.TemporaryDirectory(prefix="cardtable-revision-") as scratch:
        engine = create_engine(f"sqlite:///{Path(scratch) / 'head.db'}")
        try:
            with engine.begin() as conn:
                migrations.upgrade(conn)
                cfg = migrations.config(conn)
                script = command.revision(
                    cfg, message=message, autogenerate=autogenerate, rev_id=rev_id
                )
        finally:
            engine.dispose()
    if script is None or isinstance(script, list):  # pragma: no cover - one head only
        raise RuntimeError("no single revision was written")
    return Path(script.path)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m cardtable.store", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, helptext in (
        ("upgrade", "bring a store to the newest revision"),
        ("current", "print the revision a store is at"),
    ):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--db", default=DEFAULT_URL, help=f"store URL (default {DEFAULT_URL})")
    rev = sub.add_parser("revision", help="write a new migration file")
    rev.add_argument("-m", "--message", required=True, help="what the migration changes")
    rev.add_argument(
        "--empty",
        action="store_true",
        help="write an empty migration instead of one filled in from db.py's tables",
    )
    args = parser.parse_args(argv)
    if args.command == "upgrade":
        print(asyncio.run(_upgrade(args.db)))
    elif args.command == "current":
        print(asyncio.run(_current(args.db)) or "(none)")
    else:
        print(_revision(args.message, autogenerate=not args.empty))
    return 0


if __name__ == "__main__":
    sys.exit(main())
