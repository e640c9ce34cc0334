"""The full-screen table's two kinds of time, both read from one injected clock.

- A :class:`Countdown` is a timed window of the person's (the initial peek, a snap window):
  when it runs out, the table plays the engine's timeout move for them. The table has one
  person against AI players, so nobody else waits on them: while they read something that
  covers the table (the help, a round's results) the countdown is paused, and it goes on with
  the time that was left.
- :class:`Reveals` are the face-down cards the person just saw (a peek, spy or look, a card a
  wrong claim or drop showed). Each stays face up for its reveal time and no longer, whatever
  covers the table meanwhile: a reveal is never paused or stretched. (A reveal of the next
  round, which begins only once its results are closed, starts then.)

The clock is a function returning seconds (``time.monotonic`` by default); tests pass their
own, so no test waits on real time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..events import At

__all__ = ["REVEAL_RANGE", "REVEAL_SECONDS", "Clock", "Countdown", "Reveal", "Reveals"]

REVEAL_SECONDS = 5.0
"""Seconds a face-down card the person sees (a peek, spy or look, a card a failed claim or
drop shows) stays face up on the table without the memory aid, unless their next move comes
first."""

REVEAL_RANGE = (0.5, 30.0)
"""The bounds of ``cardtable play --reveal`` (the browser's reveal time has the same)."""

Clock = Callable[[], float]
"""Returns the time now, in seconds (only differences matter)."""


@dataclass
class Countdown:
    """A timed window of ``kind`` (``peek``, ``snap``) that ends ``length`` seconds after it
    starts, not counting the time it is paused."""

    kind: str
    """The engine's name of the window (:meth:`cardtable.Game.timed_window`)."""
    length: float
    """Its whole length, in seconds."""
    started: float
    """When it started (clock seconds)."""
    left_when_paused: float | None = None
    """The seconds that were left when it was paused (``None``: it runs)."""
    _deadline: float = field(init=False)

    def __post_init__(self) -> None:
        self._deadline = self.started + self.length

    @property
    def paused(self) -> bool:
        """Whether it is paused."""
        return self.left_when_paused is not None

    def left(self, now: float) -> float:
        """Seconds left at ``now`` (never below 0; frozen while paused)."""
        if self.left_when_paused is not None:
            return self.left_when_paused
        return max(0.0, self._deadline - now)

    def expired(self, now: float) -> bool:
        """Whether it has run out (never while paused)."""
        return not self.paused and now >= self._deadline

    def pause(self, now: float) -> None:
        """Stop it, keeping the seconds left."""
        if self.left_when_paused is None:
            self.left_when_paused = self.left(now)

    def resume(self, now: float) -> None:
        """Go on from ``now`` with the seconds that were left."""
        if self.left_when_paused is not None:
            self._deadline = now + self.left_when_paused
            self.left_when_paused = None


@dataclass
class Reveal:
    """A face-down card shown face up for a while."""

    code: str
    """The card's code."""
    until: float | None
    """When it turns face down again (``None``: its time has not started yet)."""


class Reveals:
    """The cards the person is being shown, by place, each until its time is up."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        """How long a card stays face up."""
        self._shown: dict[At, Reveal] = {}

    def add(self, sights: Iterable[tuple[At, str]], now: float, *, together: bool = False) -> None:
        """Show the cards ``sights`` (``(place, code)`` pairs) from ``now``; ``together``:
        the cards shown already stay as long as these (the initial peek's cards, which a
        player lifts together)."""
        until = now + self.seconds
        for at, code in sights:
            self._shown[at] = Reveal(code, until)
        if together:
            for reveal in self._shown.values():
                if reveal.until is not None:
                    reveal.until = max(reveal.until, until)

    def hold(self, sights: Iterable[tuple[At, str]]) -> None:
        """Keep ``sights`` to show once :meth:`start` is called (the next round's, while the
        last round's results are read)."""
        for at, code in sights:
            self._shown[at] = Reveal(code, None)

    def start(self, now: float) -> None:
        """Start the time of every held card."""
        for reveal in self._shown.values():
            if reveal.until is None:
                reveal.until = now + self.seconds

    def active(self, now: float) -> dict[At, str]:
        """The cards face up at ``now``, place → code."""
        return {
            at: r.code for at, r in self._shown.items() if r.until is not None and now < r.until
        }

    def left(self, now: float) -> float:
        """Seconds until the last card shown turns down (0: none is shown)."""
        ends = [r.until - now for r in self._shown.values() if r.until is not None]
        return max([0.0, *ends])

    def expire(self, now: float) -> bool:
        """Forget the cards whose time is up; whether any was."""
        gone = [a for a, r in self._shown.items() if r.until is not None and now >= r.until]
        for at in gone:
            del self._shown[at]
        return bool(gone)

    def clear(self) -> None:
        """Turn every card down (the person's next move, a new deal)."""
        self._shown.clear()

    def __bool__(self) -> bool:
        return bool(self._shown)
