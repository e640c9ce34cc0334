"""The throwaway PostgreSQL server for tests starts, answers queries and cleans up."""

from __future__ import annotations

import asyncio

import asyncpg

from .pgserver import DATABASE, PostgresServer, start_postgres


async def _select_one(url: str) -> tuple[int, str]:
    """Connect to a SQLAlchemy asyncpg URL with asyncpg itself; run ``SELECT 1``."""
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        one = await connection.fetchval("SELECT 1")
        database = await connection.fetchval("SELECT current_database()")
        fsync = await connection.fetchval("SHOW fsync")
        assert fsync == "on"
        return one, database
    finally:
        await connection.close()


def test_server_starts_answers_and_is_removed() -> None:
    with PostgresServer() as server:
        data_dir = server.data_dir
        assert data_dir.is_dir()
        assert server.url.startswith("postgresql+asyncpg://postgres@127.0.0.1:")
        assert asyncio.run(_select_one(server.url)) == (1, DATABASE)
    assert not data_dir.exists()
    assert not data_dir.parent.exists()
    server.stop()  # stopping twice is harmless


def test_start_postgres_returns_url_and_stop() -> None:
    url, stop = start_postgres()
    try:
        assert asyncio.run(_select_one(url)) == (1, DATABASE)
    finally:
        stop()
    stop()
