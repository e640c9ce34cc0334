"""Budgets shared between client addresses (docs/protocol.md, "Limits"): the messages of each
address across all its connections, paced, and the server's messages a second, shared fairly
among the addresses sending.

Both count with plain dictionaries (a lookup and an addition or two per message), and take
their clock as a parameter, so tests can drive time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["AddressPace", "FairShare", "ai_burst"]

Clock = Callable[[], float]

_SWEEP_EVERY = 1024
"""New keys after which the keys whose time is past are dropped (memory follows the addresses
seen lately)."""


def ai_burst(rate: float) -> int:
    """The burst of the AI moves of rooms of AI players only at ``rate`` a second: a tenth of a
    second's worth, at least one (so that a backlog comes out smoothly, not as a wave)."""
    return max(1, round(rate / 10))


class AddressPace:
    """Messages per address at ``rate`` a second on average, ``burst`` at once: a message over
    that waits its turn, the turns of an address's messages spaced ``1 / rate`` seconds apart
    (each waiting message holds its own turn, so those of many connections do not all wake at
    once). The counting is the generic cell rate algorithm: one time per address, the
    theoretical arrival of its next message. ``rate`` 0: no limit."""

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        """Messages a second, on average (0: no limit)."""
        self.interval = 1.0 / rate if rate > 0 else 0.0
        """Seconds between two turns of one address."""
        self.tolerance = max(0, burst - 1) * self.interval
        """How far ahead of the average an address may be (its burst)."""
        self._clock = clock
        self._next: dict[str, float] = {}  # address -> theoretical time of its next message
        self._new = 0

    def take(self, key: str) -> float:
        """Take the next turn of address ``key``: the seconds to wait before its message goes
        (0.0: at once)."""
        if self.rate <= 0:
            return 0.0
        now = self._clock()
        due = self._next.get(key)
        if due is None:
            self._new += 1
            if self._new >= _SWEEP_EVERY:
                self._new = 0
                self._next = {k: t for k, t in self._next.items() if t > now}
            due = now
        due = max(due, now)
        self._next[key] = due + self.interval
        return max(0.0, due - now - self.tolerance)

    def __len__(self) -> int:
        """Addresses held (not yet swept)."""
        return len(self._next)


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
