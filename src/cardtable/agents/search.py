"""Belief rollouts: one-step policy improvement over the rules of thumb, on belief-dealt deals.

For each decision the agent deals ``samples`` worlds from its seat's belief (``determinize``
with the weights of :mod:`.belief`: a card the opponent kept is probably low), and in every
world tries every legal action followed by the rule-of-thumb policy for every seat to the end
of the round. The worlds, and each world's future draws and policy choices, are the same for
every action (common random numbers), so actions are compared on equal luck and the noise of
the comparison is small. The action with the best mean result is played — unless the
rule-of-thumb move is within ``prior`` standard errors of it, then that one (the search must
clearly beat the policy to overrule it). Half-way through, actions clearly behind the best are
dropped so the rest get the samples (successive halving).

This is Tesauro's rollout algorithm with a belief: it cannot do worse than the policy it rolls
out when its deals follow the true distribution, which is what the belief is for. With uniform
deals it overrates the opponents' hands (their kept cards are low) and plays worse than the
policy itself (docs/agents.md has the figures).

A result is the win share at the end of a single-round game; in a match, a smooth function of
the projected totals (:func:`cardtable.agents.ismcts.evaluate`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

from ..game import Game
from ..notation import Action
from ..rng import Rng
from ..seat import Seat
from .base import Agent, rng_for_view
from .belief import weights_for
from .heuristic import policy_move
from .ismcts import SearchStats, evaluate

__all__ = ["ActionValue", "Appraisal", "RolloutAgent"]


def _result(world: Game, seat: int, start_round: int) -> float:
    """The seat's result in a finished simulation: its win share when the game is over (one
    round), else the smooth projection of :func:`evaluate`."""
    if world.over:
        result = world.result
        assert result is not None
        return 1.0 / len(result.winners) if seat in result.winners else 0.0
    return evaluate(world, start_round)[seat]


def _round_points(world: Game, seat: int, start_round: int) -> tuple[float, float]:
    """The seat's points for the round a simulation started in, and its share of the round's
    win (lowest score; shared on a tie): the round's scores once it ended, else the scores as
    the hands stand."""
    if world.round_no == start_round:
        scores: Sequence[int] = world.projected_scores()
    else:
        scores = cast("Sequence[int]", world.round_results[-1]["scores"])
    low = min(scores)
    best = [s for s in range(len(scores)) if scores[s] == low]
    return float(scores[seat]), (1.0 / len(best) if seat in best else 0.0)


@dataclass(frozen=True)
class ActionValue:
    """What the search expects of one legal action."""

    action: Action
    """The action."""
    points: float
    """The seat's mean points for the round after it (lower is better)."""
    win: float
    """The seat's mean share of the round's win after it (0 to 1)."""
    value: float
    """The mean result the search maximises (the win share of a one-round game)."""
    samples: int
    """Dealt worlds it was tried in (fewer when it left the race half-way)."""
    loss: float
    """Expected points it gives away against the best action, on the worlds both were tried
    in (paired; ``0.0`` for the best itself, never below zero)."""
    loss_error: float
    """The standard error of :attr:`loss` (``inf`` when fewer than two worlds are shared)."""


@dataclass(frozen=True)
class Appraisal:
    """The search's numbers for every legal action of one decision."""

    values: tuple[ActionValue, ...]
    """Every legal action, the search's choice first, then by mean result, best first."""
    choice: Action
    """The action the agent plays (:meth:`RolloutAgent.act`)."""
    best: Action
    """The action with the fewest expected points among those tried in every world."""
    deals: int
    """Worlds dealt."""
    seconds: float
    """Time the search took."""
    by_action: dict[Action, ActionValue] = field(default_factory=dict, compare=False)
    """The same values by action."""

    def of(self, action: Action) -> ActionValue:
        """The value of ``action`` (``KeyError`` if it was not legal)."""
        return self.by_action[action]


class _Tally:
    """Per-action results of one race: the searched value, round points and round win."""

    __slots__ = ("keeps_points", "points", "results", "wins")

    def __init__(self, legal: Iterable[Action], *, points: bool = True) -> None:
        self.keeps_points = points
        """Whether the round's points and wins are kept (an appraisal's; ``act`` needs none)."""
        self.results: dict[Action, list[float]] = {a: [] for a in legal}
        self.points: dict[Action, list[float]] = {a: [] for a in self.results}
        self.wins: dict[Action, list[float]] = {a: [] for a in self.results}


class RolloutAgent(Agent):
    """Belief rollouts with common random numbers (see the module's docstring)."""

    name = "rollout"

    def __init__(
        self,
        seed: int = 0,
        samples: int = 200,
        seconds: float | None = None,
        belief: bool = True,
        prior: float = 1.0,
        depth: int = 400,
        prune: float = 3.0,
        least: int = 2,
    ) -> None:
        super().__init__(seed)
        if samples < 2:
            raise ValueError("samples must be at least 2")
        self.samples = samples
        """Dealt worlds per decision (each tries every action still in the race)."""
        self.seconds = seconds
        """Optional time budget per decision (then ``samples`` is a ceiling)."""
        self.belief = belief
        """Deal from the seat's belief (False: uniformly, for comparison)."""
        self.prior = prior
        """Standard errors by which a move must beat the rule-of-thumb move to replace it."""
        self.depth = depth
        """Most actions a rollout plays before it is scored as the deal stands."""
        self.prune = prune
        """Standard errors behind the best at which an action leaves the race half-way."""
        self.least = max(2, min(least, samples))
        """Worlds dealt whatever the time budget says (a hint's floor against noise)."""
        self.stats = SearchStats()
        """Figures of the last decision (iterations = rollouts)."""

    def act(self, seat: Seat) -> Action:
        """The action with the best mean rollout result (see the module's docstring)."""
        legal = self._legal(seat)
        if len(legal) == 1:
            return legal[0]
        return self._search(seat, (), points=False)[2]

    def appraise(self, seat: Seat, keep: Iterable[Action] = ()) -> Appraisal:
        """What the search expects of every legal action of ``seat`` (the numbers behind
        :meth:`act`, whose choice it names): expected round points, round win share and the
        points each gives away against the best. Actions in ``keep`` never leave the race
        (a review keeps the move that was played)."""
        tally, alive, choice = self._search(seat, keep, points=True)
        return _appraisal(tally, alive, choice, self.stats.seconds)

    def _search(
        self, seat: Seat, keep: Iterable[Action], *, points: bool
    ) -> tuple[_Tally, list[Action], Action]:
        """The race (its tallies, with the round points and wins only where ``points``), the
        actions left in it and the choice among them."""
        legal = self._legal(seat)
        t0 = time.perf_counter()
        view = seat.view()
        rng = rng_for_view(self.seed, view)
        start_round: int = view["round"]
        weights = weights_for(seat) if self.belief else None
        anchor = policy_move(seat, rng_for_view(self.seed + 1, view), legal)
        tally = _Tally(legal, points=points)
        deadline = t0 + self.seconds if self.seconds is not None else None
        self.stats = SearchStats()
        kept = {a for a in keep if a in tally.results} | {anchor}
        alive = self._race(seat, rng, weights, legal, kept, tally, deadline, start_round)
        results = tally.results
        choice = max(alive, key=lambda a: sum(results[a]) / len(results[a]))
        if self.prior and anchor in alive and choice != anchor:
            lead, err = _paired(results[choice], results[anchor])
            if lead <= self.prior * err:
                choice = anchor
        self.stats.seconds = time.perf_counter() - t0
        return tally, alive, choice

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
        """Roll every action still in the race out in each dealt world (counted in
        :attr:`stats`); the actions left in the race at the end."""
        me = seat.number
        alive = list(legal)
        rollouts = applied = 0
        depth = self.depth
        for k in range(self.samples):
            if deadline is not None and k >= self.least and time.perf_counter() >= deadline:
                break
            # every clone of ``base`` starts from the same generator state, so it draws the
            # same cards; ``moves`` repeats the policy's own random choices
            base = seat.worlds(rng, weights)
            luck = int(rng.random() * 2**53)
            for a in alive:
                world = base.clone()
                moves = Rng(luck)
                world.apply(me, a)
                steps = 0
                while steps < depth and not world.over and world.round_no == start_round:
                    q = world.actors[0]
                    world.apply(q, world.rule_of_thumb(q, moves))
                    steps += 1
                applied += steps + 1
                rollouts += 1
                tally.results[a].append(_result(world, me, start_round))
                if tally.keeps_points:
                    points, win = _round_points(world, me, start_round)
                    tally.points[a].append(points)
                    tally.wins[a].append(win)
            if k + 1 == self.samples // 2 and len(alive) > 2:
                alive = self._survivors(alive, tally.results, kept)
        self.stats.iterations, self.stats.actions = rollouts, applied
        return alive

    def _survivors(
        self, alive: list[Action], results: dict[Action, list[float]], kept: set[Action]
    ) -> list[Action]:
        """The actions not clearly behind the best so far (the policy's move and those in
        ``kept`` always stay)."""
        top = max(alive, key=lambda a: sum(results[a]))
        keep = []
        for a in alive:
            if a == top or a in kept:
                keep.append(a)
                continue
            lead, err = _paired(results[top], results[a])
            if lead <= self.prune * err:
                keep.append(a)
        return keep


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else math.nan


def _appraisal(tally: _Tally, alive: list[Action], choice: Action, seconds: float) -> Appraisal:
    """The race's tallies as an :class:`Appraisal`."""
    points = tally.points
    deals = max(len(v) for v in points.values())
    best = min(alive, key=lambda a: _mean(points[a]))
    values: dict[Action, ActionValue] = {}
    for a, results in tally.results.items():
        if a == best:
            loss, err = 0.0, 0.0
        else:
            loss, err = _paired(points[a], points[best])
        values[a] = ActionValue(
            a,
            _mean(points[a]),
            _mean(tally.wins[a]),
            _mean(results),
            len(results),
            max(0.0, loss),
            err,
        )
    order = sorted(
        values.values(),
        key=lambda v: (v.action != choice, v.action not in alive, -v.value, v.points),
    )
    return Appraisal(tuple(order), choice, best, deals, seconds, values)


def _paired(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Mean of ``x - y`` over the common samples, and its standard error."""
    n = min(len(xs), len(ys))
    if n < 2:
        return 0.0, math.inf
    d = [x - y for x, y in zip(xs[:n], ys[:n], strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n) if var > 0 else 1e-9
