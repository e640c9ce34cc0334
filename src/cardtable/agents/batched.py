"""Belief rollouts played out in the batched engine: the search of :mod:`.search`, with every
(deal, action) pair of a decision rolled out at once.

The deals are dealt as before, from the seat's belief, by the reference engine
(``Seat.worlds``); each is copied into the batch once per legal action, the copies of one deal
sharing their future chances (common random numbers, as the reference's clones share a
generator), and the batched rules of thumb (:mod:`cardtable.batch.policy`, the same moves as
the reference's) play every seat to the end of the round. A result is scored as the reference
scores it: the win share of a finished one-round game, else a smooth function of the projected
totals. Games the batch cannot hold (Qute, a variant with hooks it has no twin of) and actions
without an integer fall back to the reference search.
"""

from __future__ import annotations

import math
import time

import numpy as np
import numpy.typing as npt

from ..batch import FamilyBatch
from ..batch.policy import rules_of_thumb
from ..encoding import encoding
from ..game import Game
from ..notation import Action
from ..rng import Rng
from ..seat import Seat
from .search import RolloutAgent, _Tally

__all__ = ["BatchRolloutAgent", "rollout_values"]

Floats = npt.NDArray[np.float64]
"""Per-game results."""
_SCALE = Game.SCORE_SCALE


def _smooth(projected: Floats, seat: int, scale: float) -> Floats:
    """The reference's smooth reward of ``seat`` (a logistic of its margin to the best other
    seat, 0 far behind), for every row of projected totals."""
    others = np.delete(projected, seat, axis=1).min(axis=1)
    z = (others - projected[:, seat]) / scale
    out: Floats = np.where(z > -30, 1.0 / (1.0 + np.exp(-np.maximum(z, -30))), 0.0)
    return out


def _share(winners: npt.NDArray[np.bool_], seat: int) -> Floats:
    """The seat's share of the win: 1 split among the winners, 0 if not among them."""
    count = np.maximum(winners.sum(axis=1), 1)
    out: Floats = np.where(winners[:, seat], 1.0 / count, 0.0)
    return out


def rollout_values(
    batch: FamilyBatch,
    seat: int,
    depth: int,
    rng: np.random.Generator,
    active: npt.NDArray[np.bool_] | None = None,
) -> tuple[Floats, Floats, Floats, int]:
    """Play the games of ``batch`` (those ``active``, default all) with the rules of thumb to
    the end of their current round (at most ``depth`` actions) and score them for ``seat``:
    the searched value, the round's points and the seat's share of the round's win (0 for the
    games not played), and the actions played."""
    size = batch.size
    values = np.zeros(size)
    points = np.zeros(size)
    wins = np.zeros(size)
    rows = np.arange(size) if active is None else np.nonzero(active)[0]  # row -> game
    if len(rows) < size:
        batch = batch.take(rows, detach=False)
    batch.auto_reset = False
    running = np.ones(len(rows), dtype=bool)
    one_round = batch.target is None
    scale = _SCALE if one_round else 2 * _SCALE
    played = 0
    for _ in range(depth):
        if not running.any():
            break
        result = batch.step(rules_of_thumb(batch, rng), where=running)
        played += int(running.sum())
        ended = running & (result.done | result.round_ended)
        if ended.any():
            done = ended & result.done
            going = ended & ~result.done  # a match goes on: its totals after the round
            values[rows[done]] = _share(result.winners[done], seat)
            values[rows[going]] = _smooth(batch.totals[going].astype(np.float64), seat, scale)
            points[rows[ended]] = result.round_scores[ended, seat]
            wins[rows[ended]] = _share(result.round_winners[ended], seat)
            running &= ~ended
            if running.sum() < 0.7 * len(running):  # compact: finished games cost every step
                keep = np.nonzero(running)[0]
                rows, running = rows[keep], running[keep]
                if len(rows):
                    batch = batch.take(keep, detach=False)
    if running.any():  # cut off: the round as the hands stand
        scores, winners = batch.projected_scores()
        projected = (batch.totals + scores).astype(np.float64)
        cut = rows[running]
        values[cut] = _smooth(projected[running], seat, scale)
        points[cut] = scores[running, seat]
        wins[cut] = _share(winners[running], seat)
    return values, points, wins, played


class BatchRolloutAgent(RolloutAgent):
    """The belief-rollout search with its rollouts in the batched engine (see the module)."""

    name = "batch-rollout"

    def _race(
        self,
        seat: Seat,
        rng: Rng,
        weights: dict[tuple[int, int], list[float]] | None,
        legal: list[Action],
        kept: set[Action],
        tally: _Tally,
        deadline: float | None,
        start_round: int,
    ) -> list[Action]:
        """Deal the worlds, then roll every (world, action) pair out in one batch."""
        view = seat.view()
        me = seat.number
        enc = encoding(view["game"], view["players"])
        rows = [enc.encode(me, a) for a in legal]
        if not FamilyBatch.plays(view["game"]) or any(r is None for r in rows):
            return super()._race(seat, rng, weights, legal, kept, tally, deadline, start_round)
        worlds: list[Game] = []
        lucks: list[int] = []
        started = time.perf_counter()
        for k in range(self.samples):
            # the deals take half the budget at most; the rollouts, about as much again
            late = deadline is not None and time.perf_counter() >= (started + deadline) / 2
            if late and k >= self.least:
                break
            worlds.append(seat.worlds(rng, weights))
            lucks.append(int(rng.random() * 2**53) % 2**62)
        count = len(legal)
        batch = FamilyBatch.from_games(worlds, lucks, copies=count)
        first = batch.step(np.tile(np.array(rows, dtype=np.int64), len(worlds)))
        values, points, wins, played = self._score_first(batch, first, me)
        pending = np.isnan(values)
        if pending.any():
            policy_rng = np.random.default_rng(lucks[0] % 2**32)
            rest = rollout_values(batch, me, self.depth, policy_rng, pending)
            values[pending] = rest[0][pending]
            points[pending] = rest[1][pending]
            wins[pending] = rest[2][pending]
            played += rest[3]
        for j, action in enumerate(legal):
            tally.results[action] = values[j::count].tolist()
            if tally.keeps_points:
                tally.points[action] = points[j::count].tolist()
                tally.wins[action] = wins[j::count].tolist()
        self.stats.iterations = batch.size
        self.stats.actions = played + batch.size
        return list(legal)

    @staticmethod
    def _score_first(
        batch: FamilyBatch, first: object, seat: int
    ) -> tuple[Floats, Floats, Floats, int]:
        """Score the games whose round ended with the searched action itself; the others are
        ``nan`` (to be rolled out)."""
        from ..batch import Step

        assert isinstance(first, Step)
        values = np.full(batch.size, math.nan)
        points = np.zeros(batch.size)
        wins = np.zeros(batch.size)
        ended = first.done | first.round_ended
        if ended.any():
            scale = _SCALE if batch.target is None else 2 * _SCALE
            over = ended & first.done
            values[over] = _share(first.winners[over], seat)
            going = ended & ~first.done
            values[going] = _smooth(batch.totals[going].astype(np.float64), seat, scale)
            points[ended] = first.round_scores[ended, seat]
            wins[ended] = _share(first.round_winners[ended], seat)
        return values, points, wins, 0
