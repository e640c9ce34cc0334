"""What every abuse scenario shares: its configuration, its measured window, its outcome."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from .common import Endpoint, source_address

__all__ = ["AbuseConfig", "Outcome", "Window", "kib", "median", "plural"]


@dataclass(frozen=True)
class AbuseConfig:
    """What an abuser process needs."""

    scenario: str
    """Its name."""
    base_url: str
    """``http://host:port`` of the server."""
    index: int
    """Which loopback address it comes from (see :func:`common.source_address`)."""
    seconds: float
    """How long the abuse lasts."""
    rooms: tuple[str, ...]
    """The ordinary tables' rooms (busy rooms to join or aim at)."""
    replay: tuple[str, int] | None = None
    """(room, game number) of the long finished game (``replays``)."""
    knobs: dict[str, Any] = field(default_factory=dict)
    """Sizes of the abuse (see ``cli``)."""
    drain: float = 0.0
    """Seconds it may take after the window to let what it started end (``ai_rooms``)."""
    nice: int = 0
    """Lower the process's priority by this much."""

    @property
    def endpoint(self) -> Endpoint:
        """Where the server is."""
        return Endpoint.parse(self.base_url)

    @property
    def source(self) -> str | None:
        """The address it binds before connecting (``None``: none)."""
        return source_address(self.endpoint, self.index)

    def knob(self, name: str) -> Any:
        """One size of the abuse."""
        return self.knobs[name]


@dataclass
class Outcome:
    """What an abuser saw, sent back to the parent."""

    scenario: str
    counts: Counter[str] = field(default_factory=Counter)
    """Answers and failures by kind (HTTP statuses, error codes, ``closed`` …)."""
    summary: str = ""
    """The table's "abuser outcome" cell."""
    details: list[str] = field(default_factory=list)
    """Lines under the table."""
    throttled: bool | None = None
    """Whether the server pushed back at all (429, ``rate_limited``, 403, closed)."""
    source: str | None = None
    """The address it came from."""
    cpu_s: float = 0.0
    """CPU seconds the abuser used."""
    figures: dict[str, Any] = field(default_factory=dict)
    """Numbers for ``--json``."""
    fatal: str | None = None
    """Set when the abuser failed as a whole."""


class Window:
    """The measured window of a scenario: the parent hears when it begins and ends."""

    def __init__(self, cfg: AbuseConfig, pipe: Connection) -> None:
        self.cfg = cfg
        self.pipe = pipe
        self.start = 0.0
        self.deadline = 0.0
        self.ended = False

    def begin(self) -> float:
        """The abuse starts now; returns its deadline (``time.monotonic()``)."""
        self.start = time.monotonic()
        self.deadline = self.start + self.cfg.seconds
        self.pipe.send(("begin", self.start))
        # the window ends on time, whatever the scenario is still closing or waiting for
        asyncio.get_running_loop().call_later(self.cfg.seconds, self.end)
        return self.deadline

    def end(self) -> None:
        """The abuse is over (what follows is cleanup, outside the window)."""
        if not self.ended:
            self.ended = True
            self.pipe.send(("end", max(time.monotonic(), self.start)))

    def left(self) -> float:
        """Seconds until the deadline."""
        return self.deadline - time.monotonic()

    def elapsed(self) -> float:
        """Seconds since the start."""
        return time.monotonic() - self.start


def kib(n: float) -> str:
    """Bytes as KiB or MiB, shortly."""
    if n >= 1 << 20:
        return f"{n / (1 << 20):,.1f} MiB"
    return f"{n / 1024:,.0f} KiB"


def median(values: list[float]) -> float:
    """The median (``nan`` when empty)."""
    if not values:
        return float("nan")
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def plural(counts: Counter[str], keys: list[str]) -> str:
    """``"429 ×12, 403 ×3"`` for the keys that occur (empty when none)."""
    return ", ".join(f"{k} ×{counts[k]:,}" for k in keys if counts.get(k))
