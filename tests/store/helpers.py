"""Helpers of the store tests: run code with an open store, or plain SQL on a database."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine

from cardtable.store import Store

T = TypeVar("T")


async def with_store(url: str, body: Callable[[Store], Awaitable[T]]) -> T:
    """Open the store at ``url``, run ``body`` with it, close it."""
    store = Store(url)
    await store.open()
    try:
        return await body(store)
    finally:
        await store.close()


async def on_connection(url: str, body: Callable[[AsyncConnection], Awaitable[T]]) -> T:
    """Run ``body`` on a plain connection to ``url`` (no store), in a committed transaction."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            return await body(conn)
    finally:
        await engine.dispose()


async def execute(url: str, *statements: str) -> None:
    """Run plain SQL statements on ``url`` in one committed transaction."""

    async def body(conn: AsyncConnection) -> None:
        for statement in statements:
            await conn.execute(text(statement))

    await on_connection(url, body)


async def query(url: str, statement: str) -> list[tuple[Any, ...]]:
    """The rows of one plain SQL query on ``url``."""

    async def body(conn: AsyncConnection) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in (await conn.execute(text(statement))).all()]

    return await on_connection(url, body)
