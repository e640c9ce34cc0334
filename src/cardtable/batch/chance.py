"""Chance for the batched engine: one Mersenne Twister per game, seeded as ``new_game`` seeds
its game, so a batch game and the reference game of the same seed deal the same cards.

Python's generator makes each ``random()`` from two 32-bit outputs. Each game's outputs are
fetched in blocks with ``getrandbits`` (the generator's C code, one call per block) and turned
into doubles with the same formula, so every shuffle and draw consumes exactly the numbers
:class:`cardtable.rng.Rng` would.
"""

from __future__ import annotations

import _random

import numpy as np
import numpy.typing as npt

__all__ = ["Doubles", "IntArray"]

IntArray = npt.NDArray[np.int64]
"""Indices of games (and other small integers) as arrays."""

_BLOCK = 128
"""Doubles fetched per game and refill."""


def _to_doubles(raw: bytes, rows: int) -> npt.NDArray[np.float64]:
    """``random()`` values from raw little-endian 32-bit outputs, two per value, ``rows`` rows."""
    words = np.frombuffer(raw, dtype=np.uint32).reshape(rows, -1).astype(np.uint64)
    hi, lo = words[:, 0::2] >> np.uint64(5), words[:, 1::2] >> np.uint64(6)
    out: npt.NDArray[np.float64] = (hi * np.uint64(67108864) + lo).astype(np.float64)
    return out / 9007199254740992.0


class Doubles:
    """The uniform doubles of ``size`` games, each from its own seeded generator."""

    def __init__(self, size: int) -> None:
        self._gens: list[_random.Random | None] = [None] * size
        """Each game's generator (``None``: not made yet; it is made from :attr:`_seeds` when
        the game first draws)."""
        self._seeds = np.zeros(size, dtype=np.int64)
        self._buf = np.zeros((size, 2 * _BLOCK), dtype=np.float64)
        self._pos = np.zeros(size, dtype=np.int64)
        self._end = np.zeros(size, dtype=np.int64)

    def seed(self, games: IntArray, seeds: IntArray, lazy: bool = False) -> None:
        """Start the generators of ``games`` afresh from ``seeds`` (as ``Rng(seed)`` does);
        ``lazy``: only when a game first draws (seeding costs more than a search's rollout,
        which often draws nothing)."""
        if lazy:
            self._seeds[games] = seeds
            for g in games.tolist():
                self._gens[g] = None
            self._pos[games] = 0
            self._end[games] = 0
            return
        gens = [_random.Random(s) for s in seeds.tolist()]
        bits, size = 64 * _BLOCK, 8 * _BLOCK
        raw = b"".join([gen.getrandbits(bits).to_bytes(size, "little") for gen in gens])
        self._buf[games, :_BLOCK] = _to_doubles(raw, len(gens))
        self._pos[games] = 0
        self._end[games] = _BLOCK
        for g, gen in zip(games.tolist(), gens, strict=True):
            self._gens[g] = gen

    def take_games(self, games: IntArray, detach: bool = True) -> Doubles:
        """The generators of ``games`` alone, in that order: copies (drawing from the new set
        leaves this one as it was), or with ``detach=False`` the generators themselves."""
        out = Doubles.__new__(Doubles)
        out._gens = []
        for g in games.tolist():
            gen = self._gens[g]
            if detach and gen is not None:
                original, gen = gen, _random.Random()
                gen.setstate(original.getstate())
            out._gens.append(gen)
        out._seeds = self._seeds[games].copy()
        out._buf = self._buf[games].copy()
        out._pos = self._pos[games].copy()
        out._end = self._end[games].copy()
        return out

    def take(self, games: IntArray, counts: IntArray) -> npt.NDArray[np.float64]:
        """The next ``counts[j]`` doubles of each game ``games[j]``, as rows of a matrix as wide
        as the largest count (a row's values past its count are meaningless)."""
        width = int(counts.max()) if len(counts) else 0
        if width > _BLOCK:
            raise ValueError(f"at most {_BLOCK} doubles at once, asked for {width}")
        short = self._pos[games] + counts > self._end[games]
        if short.any():
            self._refill(games[short])
        start = self._pos[games]
        cols = start[:, None] + np.arange(width)[None, :]
        cols = np.minimum(cols, 2 * _BLOCK - 1)
        out: npt.NDArray[np.float64] = self._buf[games[:, None], cols]
        self._pos[games] = start + counts
        return out

    def _refill(self, g: IntArray) -> None:
        """Move the unused doubles of games ``g`` to the front and fetch a block behind them."""
        pos, end = self._pos[g], self._end[g]
        left = end - pos
        cols = np.minimum(pos[:, None] + np.arange(_BLOCK)[None, :], 2 * _BLOCK - 1)
        unused = self._buf[g[:, None], cols]
        bits, size = 64 * _BLOCK, 8 * _BLOCK
        gens = self._gens
        for i in g.tolist():
            if gens[i] is None:
                gens[i] = _random.Random(int(self._seeds[i]))
        raw = b"".join([gens[i].getrandbits(bits).to_bytes(size, "little") for i in g.tolist()])
        fresh = _to_doubles(raw, len(g))
        self._buf[g, :_BLOCK] = unused
        self._buf[g[:, None], left[:, None] + np.arange(_BLOCK)[None, :]] = fresh
        self._pos[g] = 0
        self._end[g] = left + _BLOCK
