"""Fixtures: an empty store database of each kind (a new SQLite file, or a new database on a
throwaway PostgreSQL server shared by the whole run)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from ..pgserver import PostgresServer

STORES = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for every store test that needs one."""
    with PostgresServer() as server:
        yield server


@pytest.fixture(scope="module", params=STORES)
def store_url(request: pytest.FixtureRequest) -> str:
    """The kind of store a test runs on: ``"sqlite"``, or the URL of the PostgreSQL server's
    database (``tests/conftest.py`` marks the PostgreSQL runs ``postgres``)."""
    if request.param == "sqlite":
        return "sqlite"
    server: PostgresServer = request.getfixturevalue("pg_server")
    return server.url


@pytest.fixture
def url(store_url: str, tmp_path: Path) -> str:
    """The URL of a new, empty database of the module's kind."""
    if store_url == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'store.db'}"
    name = f"store_{secrets.token_hex(6)}"

    async def create() -> None:
        engine = create_async_engine(store_url, isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as conn:
                await conn.execute(text(f"CREATE DATABASE {name}"))
        finally:
            await engine.dispose()

    asyncio.run(create())
    return make_url(store_url).set(database=name).render_as_string(hide_password=False)
