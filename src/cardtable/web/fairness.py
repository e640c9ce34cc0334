"""Budgets shared between client addresses (docs/protocol.md, "Limits"): the messages of each
address across all its connections, and the server's messages a second, shared fairly among
the addresses sending.

Both count in fixed windows with plain dictionaries (a lookup and an addition per message), and
take their clock as a parameter, so tests can drive time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["AddressWindows", "FairShare"]

Clock = Callable[[], float]

_SWEEP_EVERY = 1024
"""New keys after which the windows that are over are dropped (memory follows the addresses
seen in the last window)."""


class AddressWindows:
    """At most ``count`` events per address in each fixed window of ``seconds`` seconds, the
    window starting with the address's first event; ``count`` 0: no limit."""

    def __init__(self, count: int, seconds: float, clock: Clock = time.monotonic) -> None:
        self.count = count
        """Events allowed per window (0: no limit)."""
        self.seconds = seconds
        """Length of a window in seconds."""
        self._clock = clock
        self._windows: dict[str, list[float]] = {}  # address -> [end of window, events]
        self._new = 0

    def hit(self, key: str) -> float | None:
        """Count one event of ``key``: ``None`` if it is allowed, else the seconds until the
        key's window ends (the event is not counted)."""
        if self.count <= 0:
            return None
        now = self._clock()
        window = self._windows.get(key)
        if window is None or now >= window[0]:
            if window is None:
                self._new += 1
                if self._new >= _SWEEP_EVERY:
                    self._sweep(now)
            self._windows[key] = [now + self.seconds, 1.0]
            return None
        if window[1] >= self.count:
            return window[0] - now
        window[1] += 1
        return None

    def _sweep(self, now: float) -> None:
        self._new = 0
        for key in [k for k, (end, _) in self._windows.items() if now >= end]:
            del self._windows[key]

    def __len__(self) -> int:
        """Keys held (windows not yet swept)."""
        return len(self._windows)


class FairShare:
    """The server's budget of ``per_second`` messages in each one-second window, shared among
    the addresses sending: while the window's budget lasts, every message goes; once it is
    spent, a message goes only if its address has sent less than its share (the budget divided
    by the addresses that sent in this window or the last) and otherwise waits for the next
    window. So a flood from a few addresses cannot take the turns of the others: an address
    sending little is always served. ``per_second`` 0: no budget."""

    def __init__(self, per_second: int, clock: Clock = time.monotonic) -> None:
        self.per_second = per_second
        """Messages a second, across the server (0: no budget)."""
        self._clock = clock
        self._end = -1.0
        self._counts: dict[str, int] = {}
        self._total = 0
        self._last_active = 0

    def take(self, key: str) -> float:
        """Count one message of address ``key`` if it may go now (0.0); else, without counting
        it, the seconds until the next window, when it may ask again."""
        if self.per_second <= 0:
            return 0.0
        now = self._clock()
        if now >= self._end:
            self._last_active = len(self._counts)
            self._counts = {}
            self._total = 0
            self._end = now + 1.0
        sent = self._counts.get(key, 0)
        if self._total >= self.per_second and sent >= self.share(new=sent == 0):
            return self._end - now
        self._counts[key] = sent + 1
        self._total += 1
        return 0.0

    def share(self, *, new: bool = False) -> float:
        """An address's share of this window's budget (``new``: counting one more address)."""
        active = max(len(self._counts) + int(new), self._last_active, 1)
        return self.per_second / active

    @property
    def spent(self) -> int:
        """Messages counted in the current window."""
        return self._total
