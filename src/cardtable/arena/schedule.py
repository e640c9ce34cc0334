"""Who plays which game: seeds derived from the arena seed, and the fair seating schedule."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import ArenaError

__all__ = ["Schedule", "derive_seed", "entrant_labels"]


# ------------------------------------------------------------------------------------ seeds
def derive_seed(seed: int, *parts: int | str) -> int:
    """A 63-bit seed that depends on ``seed`` and ``parts`` only (stable on every platform).

    The arena derives each game's deal seed and each seat's agent seed this way, so game ``i``
    is the same game whichever worker plays it.
    """
    text = ":".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


# ------------------------------------------------------------------------------------ seating
def _unrank_combination(n: int, k: int, rank: int) -> tuple[int, ...]:
    """The ``rank``-th ``k``-subset of ``range(n)`` in lexicographic order."""
    out: list[int] = []
    x = 0
    for i in range(k):
        while True:
            count = math.comb(n - x - 1, k - i - 1)
            if rank < count:
                break
            rank -= count
            x += 1
        out.append(x)
        x += 1
    return tuple(out)


@dataclass(frozen=True)
class Schedule:
    """Who sits where in each game: a cycle of lineups that is fair to every entrant.

    With ``A`` entrants and ``P`` seats, a *group* of ``k = min(A, P)`` entrants plays at a
    time. Groups are the ``k``-subsets of the entrants in lexicographic order (just one group
    when ``A <= P``). Each group is seated in a fixed order, rotated one seat per game
    (``k`` games); with three or more in the group the reversed order follows, rotated the same
    way, so every entrant also follows every other one equally often at a 3-seat table. When
    ``A < P`` the group's order is repeated around the table to fill it.

    Over one :attr:`period` of games, every entrant therefore sits in every seat equally often
    and plays the same number of seats; with ``A > P`` every group gets the same number of
    games. A run whose length is a multiple of the period is exactly balanced; otherwise the
    imbalance is at most one period's worth of games.
    """

    entrants: int
    """Number of entrants (agents in the tournament, repeats included)."""
    players: int
    """Seats at the table."""

    def __post_init__(self) -> None:
        if self.entrants < 1 or self.players < 1:
            raise ArenaError("a schedule needs at least one entrant and one seat")

    @property
    def group_size(self) -> int:
        """How many different entrants sit at one table: ``min(entrants, players)``."""
        return min(self.entrants, self.players)

    @property
    def directions(self) -> int:
        """2 when the group's order is also played reversed (groups of three or more), else 1."""
        return 2 if self.group_size >= 3 else 1

    @property
    def groups(self) -> int:
        """How many different groups take turns at the table."""
        return math.comb(self.entrants, self.group_size)

    @property
    def period(self) -> int:
        """Games after which the schedule repeats (and is exactly balanced)."""
        return self.groups * self.directions * self.group_size

    def lineup(self, game: int) -> tuple[int, ...]:
        """The entrant (index) in each seat of game ``game``."""
        k = self.group_size
        j = game % self.period
        rotation = j % k
        direction = (j // k) % self.directions
        group = _unrank_combination(self.entrants, k, j // (k * self.directions))
        order = group[::-1] if direction else group
        return tuple(order[(seat + rotation) % k] for seat in range(self.players))

    def deal(self, game: int) -> int:
        """The duplicate-deal block of game ``game``: the ``k`` rotations of one order share it."""
        return game // self.group_size


def entrant_labels(names: Sequence[str]) -> list[str]:
    """Display labels for entrants: the agent name, numbered ``name#1``, ``name#2`` … when the
    same agent is entered more than once (``random,random`` plays an agent against itself)."""
    keys = [n.strip().lower() for n in names]
    counts = {k: keys.count(k) for k in keys}
    seen: dict[str, int] = {}
    labels = []
    for key in keys:
        if counts[key] == 1:
            labels.append(key)
        else:
            seen[key] = seen.get(key, 0) + 1
            labels.append(f"{key}#{seen[key]}")
    return labels
