"""A room manager run in the test's own event loop, for scenarios that need the server's
clocks and rooms without a server process (tests of timers, chat, quick play)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from cardtable.store import Store
from cardtable.web.rooms import RoomManager

__all__ = ["manager_on", "until"]


@asynccontextmanager
async def manager_on(url: str, **kwargs: Any) -> AsyncIterator[RoomManager]:
    """A room manager on the store at ``url`` (a fresh store per test: its tables are made
    for the test and the rows stay; each test uses its own rooms)."""
    store = Store(url)
    await store.open()
    manager = RoomManager(store, ai_workers=0, **kwargs)
    try:
        yield manager
    finally:
        await manager.close()
        await store.close()


async def until(pred: Callable[[], bool], timeout: float = 20.0) -> None:
    """Wait until ``pred()`` holds (``timeout`` bounds the wait; it measures nothing)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not pred():
        if loop.time() > deadline:
            raise AssertionError("the condition never held")
        await asyncio.sleep(0.01)
