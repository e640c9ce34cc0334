"""Single-Observer Information-Set MCTS (Cowling, Powley & Whitehouse 2012).

One tree per decision, rooted at the deciding seat's information set. Every iteration draws a
fresh world (``seat.worlds(rng)``: a full deal consistent with all the
seat knows), walks down the tree choosing among the actions legal in that deal with UCB —
counting for each edge how often it was *available*, not how often its parent was visited —
adds one edge, finishes the round with the rule-of-thumb policy for every seat (cut off after
``depth`` actions and scored from the deal's current sums), and backs the result up, each
edge scored from the view of the seat that chose it.

Action texts are public in these games, so the tree is keyed by actions; but an action can
also show the searching seat a card (its own draw, a peek, a 7 in Qute), so after each action
the tree branches on what the seat now sees. Without that, the search would have to choose
"replace or discard" once for every card it might draw (strategy fusion).
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from typing import TYPE_CHECKING

from ..game import Game
from ..notation import Action
from ..rng import Rng
from ..seat import Seat
from .base import Agent, rng_for_view
from .belief import weights_for
from .heuristic import policy_move

if TYPE_CHECKING:
    from ..views import View

__all__ = ["EXPERT_ITERATIONS", "ISMCTSAgent", "SearchStats", "evaluate"]

EXPERT_ITERATIONS = 2000
"""Iterations per decision when none are given (``ismcts``; once the ``expert`` level's)."""


class _Node:
    """An information set of the searching seat: the edges (actions) tried from it."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[Action, _Edge] = {}


class _Edge:
    """An action from a node, its statistics, and the nodes reached per observation."""

    __slots__ = ("avail", "outcomes", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.visits = 0
        self.reward = 0.0
        self.avail = 1
        self.player = player
        self.outcomes: dict[Hashable, _Node] = {}

    def child(self, key: Hashable) -> _Node:
        node = self.outcomes.get(key)
        if node is None:
            node = self.outcomes[key] = _Node()
        return node


class SearchStats:
    """What the last search did: iterations, simulated actions and seconds."""

    __slots__ = ("actions", "iterations", "seconds")

    def __init__(self) -> None:
        self.iterations = 0
        """Simulations run (one determinization, descent, rollout and backup each)."""
        self.actions = 0
        """Actions applied in the simulated deals."""
        self.seconds = 0.0
        """Wall time of the search."""


def _shares(winners: list[int], n: int) -> list[float]:
    """1 shared among ``winners``, 0 for the others."""
    share = 1.0 / len(winners)
    return [share if s in winners else 0.0 for s in range(n)]


def _smooth(scores: list[float], scale: float) -> list[float]:
    """A reward in (0, 1) per seat from scores (lower is better): a logistic function of the
    margin to the best other seat. Far less noisy than win/lose, and it agrees with it on
    who is ahead."""
    out = []
    exp = math.exp
    for s, mine in enumerate(scores):
        best_other = min(x for t, x in enumerate(scores) if t != s)
        z = (best_other - mine) / scale
        out.append(1.0 / (1.0 + exp(-z)) if z > -30 else 0.0)
    return out


def evaluate(world: Game, start_round: int) -> list[float]:
    """Reward per seat at the end of a simulation (finished game, finished round, or cut off).

    A finished match scores its winners; otherwise the seats' projected totals (totals, plus
    the round's scores as the deal stands if the round is still on) are turned into a smooth
    margin reward. A one-round game's totals are its round scores."""
    if world.over and world.target is not None:
        result = world.result
        assert result is not None
        return _shares(result.winners, world.players)
    projected = [float(t) for t in world.totals]
    if not world.over and world.round_no == start_round:
        current = world.projected_scores()
        projected = [t + x for t, x in zip(projected, current, strict=True)]
    scale = world.SCORE_SCALE
    return _smooth(projected, scale if world.target is None else 2 * scale)


class ISMCTSAgent(Agent):
    """SO-ISMCTS with an iteration budget (deterministic for its seed) or a time budget."""

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = EXPERT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = 0.7,
        depth: int = 60,
        opponents: str = "policy",
        prior: float = 2.0,
        rollout: str = "policy",
        belief: bool = False,
    ) -> None:
        super().__init__(seed)
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.iterations = iterations
        """Simulations per decision (the budget when ``seconds`` is None)."""
        self.seconds = seconds
        """Optional time budget per decision; results then depend on the machine's speed."""
        self.exploration = exploration
        """UCB exploration constant (rewards are in [0, 1])."""
        self.depth = depth
        """Most rollout actions before a simulation is scored from the deal's sums."""
        if opponents not in ("policy", "tree"):
            raise ValueError("opponents must be 'policy' or 'tree'")
        self.opponents = opponents
        """``tree``: other seats choose by UCB in the tree (plain SO-ISMCTS); ``policy``:
        they play the rule-of-thumb policy inside the tree (an opponent model)."""
        self.prior = prior
        """Standard errors by which the search must beat the rule-of-thumb move to replace
        it (0: always play the most visited move)."""
        if rollout not in ("policy", "random"):
            raise ValueError("rollout must be 'policy' or 'random'")
        self.rollout = rollout
        """``policy``: rollouts play the rule-of-thumb policy for every seat; ``random``:
        uniformly random legal actions (plain ISMCTS, as in most libraries)."""
        self.belief = belief
        """Deal the hidden cards from the seat's belief (:mod:`.belief`) instead of
        uniformly."""
        self.stats = SearchStats()
        """Figures of the last search."""

    def act(self, seat: Seat) -> Action:
        """The root action most visited after the search."""
        legal = self._legal(seat)
        if len(legal) == 1:
            return legal[0]
        view = seat.view()
        rng = rng_for_view(self.seed, view)
        weights = weights_for(seat) if self.belief else None
        first = seat.worlds(rng, weights)
        search = _Search(self, seat.number, view["round"], rng)
        t0 = time.perf_counter()
        deadline = t0 + self.seconds if self.seconds is not None else None
        budget = self.iterations
        it = 0
        applied = 0
        while True:
            if deadline is not None:
                if it and time.perf_counter() >= deadline:
                    break
            elif it >= budget:
                break
            world = first if it == 0 else seat.worlds(rng, weights)
            it += 1
            applied += search.simulate(world)
        stats = SearchStats()
        stats.iterations = it
        stats.actions = applied
        stats.seconds = time.perf_counter() - t0
        self.stats = stats
        return self._choice(seat, view, legal, search.root.edges)

    def _choice(
        self,
        seat: Seat,
        view: View,
        legal: list[Action],
        edges: dict[Action, _Edge],
    ) -> Action:
        """The most visited of the ``legal`` root actions, unless the rule-of-thumb move is
        not clearly worse (see :attr:`prior`)."""
        best_action = max(legal, key=lambda a: edges[a].visits if a in edges else -1)
        if self.prior:
            # Keep the rule-of-thumb move unless the search found a clearly better one: the
            # difference of the two means must exceed ``z`` standard errors.
            anchor = policy_move(seat, rng_for_view(self.seed + 1, view), legal)
            if anchor != best_action and anchor in edges:
                e0, e1 = edges[anchor], edges[best_action]
                m0, m1 = e0.reward / e0.visits, e1.reward / e1.visits
                var = m0 * (1 - m0) / e0.visits + m1 * (1 - m1) / e1.visits
                if m1 - m0 <= self.prior * math.sqrt(var):
                    best_action = anchor
        return best_action


class _Search:
    """One decision's tree and what each simulation of it needs: the searching seat, the
    round it searches in, the agent's settings, the rule-of-thumb policy and the generator."""

    __slots__ = (
        *("c", "depth", "modelled", "random_rollout"),
        *("rng", "root", "seat", "start_round"),
    )

    def __init__(self, agent: ISMCTSAgent, seat: int, start_round: int, rng: Rng) -> None:
        self.root = _Node()
        """The searching seat's information set now."""
        self.seat = seat
        self.start_round = start_round
        self.rng = rng
        self.c = agent.exploration
        self.depth = agent.depth
        self.modelled = agent.opponents == "policy"
        self.random_rollout = agent.rollout == "random"

    def simulate(self, world: Game) -> int:
        """One iteration on the deal ``world``: descend the tree (adding one edge), finish the
        round, back the rewards up. Returns how many actions it applied."""
        path, applied = self._descend(world)
        applied += self._rollout(world)
        rewards = evaluate(world, self.start_round)
        for e in path:
            e.visits += 1
            e.reward += rewards[e.player]
        return applied

    def _descend(self, world: Game) -> tuple[list[_Edge], int]:
        """Selection and expansion: the edges chosen (by the seats in the tree) down to the
        new one, and the number of actions applied."""
        seat, start_round, rng = self.seat, self.start_round, self.rng
        c, modelled = self.c, self.modelled
        root = node = self.root
        log, sqrt = math.log, math.sqrt
        applied = 0
        path: list[_Edge] = []
        p = seat
        while not world.over and world.round_no == start_round:
            if node is not root:
                p = world.actors[0]
            edges = node.edges
            if p != seat and modelled:
                # another seat moves as the rule-of-thumb policy would (it uses only
                # its own knowledge in this deal); its public action picks the branch
                a = world.rule_of_thumb(p, rng)
                world.apply(p, a)
                applied += 1
                edge = edges.get(a)
                if edge is None:
                    edge = edges[a] = _Edge(p)
                node = edge.child(world.seen_key(seat))
                continue
            acts = world.legal_actions(p)
            untried = [a for a in acts if a not in edges]
            if untried:
                a = untried[0] if len(untried) == 1 else rng.pick(untried)
                for b in acts:
                    e = edges.get(b)
                    if e is not None:
                        e.avail += 1
                edge = edges[a] = _Edge(p)
                world.apply(p, a)
                applied += 1
                path.append(edge)
                break
            best = edges[acts[0]]
            best_a = acts[0]
            best_score = -1.0
            for b in acts:
                e = edges[b]
                e.avail += 1
                if not e.visits:  # made by another seat's modelled move here, never tried
                    best, best_a = e, b
                    break
                score = e.reward / e.visits + c * sqrt(log(e.avail) / e.visits)
                if score > best_score:
                    best, best_a, best_score = e, b, score
            world.apply(p, best_a)
            applied += 1
            path.append(best)
            node = best.child(world.seen_key(seat))
        return path, applied

    def _rollout(self, world: Game) -> int:
        """Finish the round with the rule-of-thumb policy (or at random), cut off after the
        agent's ``depth`` actions. Returns how many actions it applied."""
        rng, start_round = self.rng, self.start_round
        random_rollout = self.random_rollout
        depth = self.depth
        steps = 0
        while steps < depth and not world.over and world.round_no == start_round:
            q = world.actors[0]
            if random_rollout:
                acts = world.legal_actions(q)
                world.apply(q, acts[0] if len(acts) == 1 else rng.pick(acts))
            else:
                world.apply(q, world.rule_of_thumb(q, rng))
            steps += 1
        return steps
