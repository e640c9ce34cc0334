"""The web server's one clock: wall time for what is stored, a monotonic time for deadlines, and
timers.

Every timer of the server (the timed windows, the turn clock, the AI players' delays, the holds,
the quick-play waits, the sweep of idle rooms, the chat's rate) reads and waits on a
:class:`Clock` it was given. :class:`LoopClock` is the real one, on the running asyncio loop;
:class:`ManualClock` stands still until :meth:`ManualClock.advance` moves it on, so a test says
when a timer runs out instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol

__all__ = ["Clock", "LoopClock", "ManualClock", "Timer"]


class Timer(Protocol):
    """A call scheduled by :meth:`Clock.call_later`."""

    def cancel(self) -> None:
        """Do not make the call (nothing happens if it was made already)."""


class Clock(Protocol):
    """What the server knows of time."""

    def now(self) -> float:
        """Wall time, in seconds since the epoch: what is stored (a room's creation, a game's
        start and end, a chat line's time)."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back: what deadlines and idle times are read on."""

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        """Call ``fn()`` in ``delay`` seconds (on the running loop)."""

    async def sleep(self, delay: float) -> None:
        """Return in ``delay`` seconds (cancelling the awaiting task cancels the wait)."""


class LoopClock:
    """The real clock: wall time, the monotonic clock, and the running asyncio loop's timers."""

    def now(self) -> float:
        """Wall time (``time.time()``)."""
        return time.time()

    def monotonic(self) -> float:
        """The monotonic clock (``time.monotonic()``, which the asyncio loop runs on)."""
        return time.monotonic()

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        """``loop.call_later`` on the running loop."""
        return asyncio.get_running_loop().call_later(max(0.0, delay), fn)

    async def sleep(self, delay: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(max(0.0, delay))


class _Call:
    """One call waiting on a :class:`ManualClock`."""

    def __init__(self, fn: Callable[[], None]) -> None:
        self.fn = fn
        """What to call."""
        self.cancelled = False
        """Set by :meth:`cancel`."""

    def cancel(self) -> None:
        """Do not make the call."""
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told (:meth:`advance`): for tests of timers.

    Its wall time starts at ``start`` (the real time by default) and its monotonic time at 0;
    both move on together. A wait of 0 seconds or less only yields to the loop once, as
    ``asyncio.sleep(0)`` does."""

    def __init__(self, start: float | None = None) -> None:
        self._wall = time.time() if start is None else start
        self._elapsed = 0.0
        self._due: list[tuple[float, int, _Call]] = []
        self._order = itertools.count()

    def now(self) -> float:
        """Wall time: the start plus every advance so far."""
        return self._wall + self._elapsed

    def monotonic(self) -> float:
        """Seconds advanced so far."""
        return self._elapsed

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        """Call ``fn()`` once the clock has been advanced by ``delay`` seconds from now."""
        call = _Call(fn)
        when = self._elapsed + max(0.0, delay)
        heapq.heappush(self._due, (when, next(self._order), call))
        return call

    async def sleep(self, delay: float) -> None:
        """Return once the clock has been advanced by ``delay`` seconds from now."""
        if delay <= 0:
            await asyncio.sleep(0)
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not waiter.done():
                waiter.set_result(None)

        timer = self.call_later(delay, wake)
        try:
            await waiter
        finally:
            timer.cancel()

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``, making every call due by then, in the order of their
        times (the clock reads each one's time while it is made). A task woken this way runs at
        the loop's next turn."""
        target = self._elapsed + max(0.0, seconds)
        while self._due and self._due[0][0] <= target:
            when, _, call = heapq.heappop(self._due)
            self._elapsed = max(self._elapsed, when)
            if not call.cancelled:
                call.fn()
        self._elapsed = target

    def pending(self) -> int:
        """Calls scheduled and not cancelled, not made yet."""
        return sum(not call.cancelled for _, _, call in self._due)
