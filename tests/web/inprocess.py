"""A room manager run in the test's own event loop, for scenarios that need the server's
clocks and rooms without a server process (tests of timers, chat, quick play), and an event
loop whose clock the test moves on (:class:`ClockLoop`), so that timers run out when the test
says instead of after a real wait."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from cardtable.store import Store
from cardtable.web.room import Room
from cardtable.web.rooms import RoomManager
from cardtable.web.settings import ServerSettings

__all__ = ["IN_PROCESS", "ClockLoop", "manager_on", "run_clocked", "settled", "until"]

IN_PROCESS = ServerSettings(ai_workers=0)
"""The settings of a manager in the test's own process: the server's defaults, with the search
levels thinking in a thread instead of worker processes."""


class ClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock the test moves on: ``time()`` is the loop's own clock plus
    every :meth:`advance` so far. The server's timers all run on it (``asyncio.sleep``,
    ``call_later``, the deadlines it reads from ``loop.time()``), so a window, a turn clock, an
    AI's delay or a hold's bound runs out exactly when the test advances past it."""

    def __init__(self) -> None:
        self.offset = 0.0
        """Seconds added to the loop's own clock so far."""
        super().__init__()

    def time(self) -> float:
        """The loop's clock: its own, moved on by every :meth:`advance`."""
        return super().time() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``: the timers due by then run at the next turn."""
        self.offset += seconds


def run_clocked(scenario: Callable[[ClockLoop], Coroutine[Any, Any, None]]) -> None:
    """Run ``scenario(loop)`` on a new :class:`ClockLoop`."""
    with asyncio.Runner(loop_factory=ClockLoop) as runner:
        loop = runner.get_loop()
        assert isinstance(loop, ClockLoop)
        runner.run(scenario(loop))


async def settled(room: Room) -> None:
    """Return once the timers of ``room`` that are due have done their work: a few turns of
    the loop (a timer that ran out wakes its task, which asks for the room's lock), then the
    room's lock once (it is handed out in order, so the timers that asked first finish first)."""
    for _ in range(8):
        await asyncio.sleep(0)
    async with room.lock:
        pass


@asynccontextmanager
async def manager_on(url: str, **changes: Any) -> AsyncIterator[RoomManager]:
    """A room manager on the store at ``url`` (a fresh store per test: its tables are made
    for the test and the rows stay; each test uses its own rooms), with the settings of
    :data:`IN_PROCESS` but for ``changes`` (fields of :class:`ServerSettings`)."""
    store = Store(url)
    await store.open()
    manager = RoomManager(store, dataclasses.replace(IN_PROCESS, **changes))
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
