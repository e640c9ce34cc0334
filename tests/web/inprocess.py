"""A room manager run in the test's own event loop, for scenarios that need the server's
clocks and rooms without a server process (tests of timers, chat, quick play), on a clock the
test moves on (:class:`~cardtable.web.clock.ManualClock`), so that timers run out when the test
says instead of after a real wait."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from cardtable.store import Store
from cardtable.web.clock import Clock, ManualClock
from cardtable.web.rooms import RoomManager
from cardtable.web.settings import ServerSettings
from cardtable.web.table import Table

__all__ = ["IN_PROCESS", "advance_until", "manager_on", "run", "settled", "until"]

IN_PROCESS = ServerSettings(ai_workers=0, ai_room_moves=1_000_000)
"""The settings of a manager in the test's own process: the server's defaults, with the search
levels thinking in a thread instead of worker processes, and the pace of matches of AI players
far above what a test plays (still on, so their moves go through it)."""


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run one async scenario."""
    asyncio.run(scenario())


async def settled(table: Table) -> None:
    """Return once the timers of ``table`` that are due have done their work: a few turns of
    the loop (a timer that ran out wakes its task, which asks for the table's lock), then the
    lock once (it is handed out in order, so the timers that asked first finish first)."""
    for _ in range(8):
        await asyncio.sleep(0)
    async with table.lock:
        pass


@asynccontextmanager
async def manager_on(
    url: str, clock: Clock | None = None, **changes: Any
) -> AsyncIterator[RoomManager]:
    """A room manager on the store at ``url`` (a fresh store per test: its tables are made
    for the test and the rows stay; each test uses its own rooms), on ``clock`` (the real one
    if ``None``), with the settings of :data:`IN_PROCESS` but for ``changes`` (fields of
    :class:`ServerSettings`)."""
    store = Store(url)
    await store.open()
    manager = RoomManager(store, dataclasses.replace(IN_PROCESS, **changes), clock)
    try:
        yield manager
    finally:
        await manager.close()
        await store.close()


async def until(pred: Callable[[], bool], timeout: float = 20.0) -> None:
    """Wait until ``pred()`` holds (``timeout`` bounds the real wait, whatever the loop's
    clock says; it measures nothing)."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        await asyncio.sleep(0.01)


async def advance_until(
    clock: ManualClock, pred: Callable[[], bool], step: float = 0.05, limit: float = 3600.0
) -> float:
    """Move ``clock`` on by ``step`` seconds at a time, letting the loop run the work each step
    wakes, until ``pred()`` holds; returns the seconds advanced. Fails if ``limit`` seconds of
    the clock pass first (a bound on the clock, whatever the real time)."""
    moved = 0.0
    while True:
        for _ in range(3):  # the work a step woke, and the store's answers to it
            if pred():
                return moved
            await asyncio.sleep(0.005)
        if moved >= limit:
            raise AssertionError(f"the condition never held within {limit} s of the clock")
        clock.advance(step)
        moved += step


async def at_rest(table: Table, pred: Callable[[], bool], timeout: float = 20.0) -> None:
    """Wait until ``pred()`` holds with nothing under way at ``table`` (its lock is free): a
    move is played on the live game before it is stored, so what ``pred`` reads of the game is
    stored, and told, only once the move's work under the lock is done."""
    await until(lambda: pred() and not table.lock.locked(), timeout)
