"""Learn when to knock in kaboo, against cardtable's rule-of-thumb (``heuristic``) agent.

The learner plays exactly like the heuristic agent except for one decision: at the start of
each of its turns, while ``knock`` is legal, a learned table decides whether to knock. The
table is indexed by three features read from the learner's own view (``game.view(seat)``),
never from hidden cards:

* its estimated hand sum: the values of its cards it has seen, plus, for each of its cards it
  has not seen, the mean value of all the cards it has not seen;
* how many of its own cards it has not seen;
* how many of their own cards the opponent has seen (public: the views' ``seen`` lists). A
  player who knows its hand has had the chance to make it low.

Training is tabular Q-learning with ε-greedy exploration on seeded games against the heuristic
agent, the learner's seat alternating. Knocking ends the learner's decisions, so the value of
knocking from a cell is the mean final reward (win 1, tie 0.5, loss 0) after knocking there;
the value of going on is learned towards the greedy value of the learner's next decision (or
the final reward when there is none). The policy knocks where knocking is worth more.

The untrained table values both actions at 1/2 everywhere, so the untrained policy knocks with
probability 1/2 whenever knocking is legal (a uniformly random knock choice): that is the
"before" policy. Evaluation plays a fixed set of deals, disjoint from the training deals, each
twice with the evaluated player in either seat (kaboo draws the first player from the deal's
seed, so both hands and both orders are covered), before and after training. As references,
the heuristic agent itself (its own knock rule) and a never-knocking copy of it play the same
games.

Run::

    .venv/bin/python examples/train_kaboo_knock.py            # default budget, 1-3 minutes
    .venv/bin/python examples/train_kaboo_knock.py --quick    # a few seconds
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardtable import Action, new_game
from cardtable.agents import Agent, decision_rng
from cardtable.agents import get as get_agent
from cardtable.games.family import RULESETS, FamilyGame
from cardtable.games.family.policy import choose as heuristic_choose
from cardtable.rng import Rng
from cardtable.seat import Seat

KNOCK = Action("knock")
"""The call that ends kaboo after every other seat's last turn."""
_DRAW_DECK = Action("draw", ("deck",))

_KABOO = RULESETS["kaboo"]
_DECK_SUM = sum(_KABOO.value(c) for c in _KABOO.deck)
_DECK_SIZE = len(_KABOO.deck)

# Training deals are ``seed * _SEED_STRIDE + i``; evaluation deals start at
# ``seed * _SEED_STRIDE + _EVAL_OFFSET``, so the two sets never overlap.
_SEED_STRIDE = 10_000_000
_EVAL_OFFSET = 5_000_000

DEFAULT_TRAIN_GAMES, DEFAULT_EVAL_GAMES = 20_000, 3_000
"""The default budget (about 1-3 minutes on one core)."""
QUICK_TRAIN_GAMES, QUICK_EVAL_GAMES = 1_500, 200
"""The ``--quick`` budget (a few seconds)."""

OWN_EDGES: tuple[float, ...] = (3.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 14.0)
"""Upper bounds of the buckets of the own estimated sum (the last bucket: everything above)."""
OPP_KNOWN_MIN, OPP_KNOWN_MAX = 2, 4
"""The opponent's self-knowledge is counted 2 (two or fewer cards), 3 or 4."""
MAX_UNKNOWN = 2
"""Own unseen cards are counted 0, 1 or 2 (two or more)."""
SHAPE = (len(OWN_EDGES) + 1, OPP_KNOWN_MAX - OPP_KNOWN_MIN + 1, MAX_UNKNOWN + 1)
"""Cells along each axis of the table: own sum, opponent's self-known cards, own unseen."""


# -- features ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Features:
    """What the learner uses to decide whether to knock, all read from its view."""

    own_sum: float
    """Estimated own hand sum (unseen cards at the mean of all the cards it has not seen)."""
    own_unknown: int
    """How many of its own cards the learner has not seen."""
    opp_self_known: int
    """Most of their own cards any other seat has seen."""


def features(view: dict[str, Any]) -> Features:
    """The knock features of the seat whose view this is (kaboo, any number of seats).

    Only what the view shows is used: a card the seat has not seen is ``{"card": None}``, so
    the features cannot depend on it.
    """
    seat: int = view["seat"]
    seen_sum = 0
    seen_count = 0
    for code in view["discard"]:
        seen_sum += _KABOO.value(code)
        seen_count += 1
    if view.get("drawn"):
        seen_sum += _KABOO.value(view["drawn"])
        seen_count += 1
    own_known = own_unknown = 0
    opp_self_known = 0
    for s, hand in enumerate(view["hands"]):
        self_known = 0
        for slot in hand:
            if slot is None:  # an empty position
                continue
            if slot["card"] is None:
                if s == seat:
                    own_unknown += 1
            else:
                value = _KABOO.value(slot["card"])
                seen_sum += value
                seen_count += 1
                if s == seat:
                    own_known += value
            if s in slot["seen"]:
                self_known += 1
        if s != seat:
            opp_self_known = max(opp_self_known, self_known)
    rest = _DECK_SIZE - seen_count
    mean = (_DECK_SUM - seen_sum) / rest if rest > 0 else 0.0
    return Features(own_known + mean * own_unknown, own_unknown, opp_self_known)


Cell = tuple[int, int, int]
"""A table cell: indices of the own sum, the opponent's self-known cards, own unseen cards."""


def cell_of(f: Features) -> Cell:
    """The table cell a feature vector falls into."""
    own = next((i for i, edge in enumerate(OWN_EDGES) if f.own_sum < edge), len(OWN_EDGES))
    known = min(max(f.opp_self_known, OPP_KNOWN_MIN), OPP_KNOWN_MAX)
    return own, known - OPP_KNOWN_MIN, min(f.own_unknown, MAX_UNKNOWN)


# -- the learned table -----------------------------------------------------------------------------


class KnockTable:
    """Action values of (cell, knock) and (cell, go on), and the greedy policy they define.

    Both values use sample-average step sizes (1/n). Knocking ends the learner's decisions, so
    its target is the final reward. Going on is learned by Q-learning: the target is the value
    of the learner's next decision cell under the greedy policy (the better of its tried
    actions), or the final reward if the learner does not decide again in that game.
    """

    def __init__(self) -> None:
        self.knock_value = np.full(SHAPE, 0.5)
        """Mean final reward after knocking from each cell (1/2 until tried)."""
        self.knock_visits = np.zeros(SHAPE, dtype=np.int64)
        """Times the learner knocked from each cell."""
        self.go_value = np.full(SHAPE, 0.5)
        """Estimated reward of going on (not knocking) from each cell (1/2 until tried)."""
        self.go_visits = np.zeros(SHAPE, dtype=np.int64)
        """Times the learner went on from each cell."""

    def knock_probability(self, cell: Cell) -> float:
        """The greedy policy: 1 if knocking looks better, 0 if worse, 1/2 on a tie (untrained)."""
        yes = self.knock_value[cell]
        no = self.go_value[cell]
        if yes > no:
            return 1.0
        if yes < no:
            return 0.0
        return 0.5

    def probabilities(self) -> np.ndarray:
        """Knock probability of every cell (an array of :data:`SHAPE`)."""
        out = np.empty(SHAPE)
        for own, known, unknown in itertools.product(*map(range, SHAPE)):
            out[own, known, unknown] = self.knock_probability((own, known, unknown))
        return out

    def state_value(self, cell: Cell) -> float | None:
        """Value of deciding in ``cell`` under the greedy policy (``None``: never tried)."""
        tried = []
        if self.knock_visits[cell]:
            tried.append(float(self.knock_value[cell]))
        if self.go_visits[cell]:
            tried.append(float(self.go_value[cell]))
        return max(tried) if tried else None

    def learn_game(self, decisions: Sequence[tuple[Cell, bool]], reward: float) -> None:
        """Update from one game: the learner's (cell, knocked) decisions in order and its
        final reward (updated last to first, so each target uses the freshest values)."""
        for t in range(len(decisions) - 1, -1, -1):
            cell, knocked = decisions[t]
            if knocked:
                self.knock_visits[cell] += 1
                step = 1.0 / self.knock_visits[cell]
                self.knock_value[cell] += step * (reward - self.knock_value[cell])
                continue
            target = self.state_value(decisions[t + 1][0]) if t + 1 < len(decisions) else None
            if target is None:
                target = reward
            self.go_visits[cell] += 1
            step = 1.0 / self.go_visits[cell]
            self.go_value[cell] += step * (target - self.go_value[cell])


# -- agents ----------------------------------------------------------------------------------------


def heuristic_turn_without_knock(seat: Seat, seed: int) -> Action:
    """What the heuristic agent seeded ``seed`` plays at the start of its turn if it does not
    knock: its own rule of thumb, on the same world it would use, told that the knock is
    already taken (so the rule only picks where to draw from)."""
    rng = decision_rng(seed, seat)
    world = seat.worlds(rng)
    assert isinstance(world, FamilyGame)
    world.caller = seat.number  # a throwaway world; the real game is untouched
    action: Action = heuristic_choose(world, seat.number, rng)
    if action == KNOCK or action not in seat.legal_actions():
        return _DRAW_DECK
    return action


KnockChooser = Callable[[Features], bool]
"""Decides, from the features, whether to knock now."""


class KnockLearnerAgent(Agent):
    """The heuristic agent, except that ``chooser`` decides every legal knock."""

    name = "knock-learner"

    def __init__(self, seed: int, chooser: KnockChooser) -> None:
        super().__init__(seed)
        self.heuristic = get_agent("heuristic", seed)
        """The rule-of-thumb agent that plays every other decision."""
        self.chooser = chooser
        """The knock policy."""
        self.decisions: list[tuple[Cell, bool]] = []
        """Every (cell, knocked) this agent decided, in order (for the table's updates)."""

    def act(self, seat: Seat) -> Action:
        """Knock or not by ``chooser`` when knocking is legal; otherwise the heuristic."""
        legal = self._legal(seat)
        if KNOCK not in legal:
            return self.heuristic.act(seat)
        f = features(seat.view())
        knock = self.chooser(f)
        self.decisions.append((cell_of(f), knock))
        if knock:
            return KNOCK
        return heuristic_turn_without_knock(seat, self.seed)


def play(deal: int, seat: int, agent: Agent) -> float:
    """Play the 2-player kaboo deal ``deal`` with ``agent`` in ``seat`` against the heuristic
    agent; ``agent``'s reward (win 1, shared win 1/2, loss 0)."""
    g = new_game("kaboo", players=2, seed=deal)
    agents = [agent, agent]
    agents[1 - seat] = get_agent("heuristic", deal + 1)
    while not g.over:
        s = g.actors[0]
        g.play(s, agents[s].act(Seat(g, s)))
    result = g.result
    assert result is not None
    winners = result.winners
    return 1.0 / len(winners) if seat in winners else 0.0


# -- training and evaluation -----------------------------------------------------------------------


def epsilon_at(progress: float) -> float:
    """Exploration rate after a share ``progress`` of training: 0.3 falling to 0.02."""
    return max(0.02, 0.3 * (1.0 - progress))


def train(table: KnockTable, games: int, seed: int, log: Callable[[str], None]) -> None:
    """Q-learning of the knock decision: ``games`` ε-greedy games against the heuristic
    agent (deals and exploration drawn from ``seed``), the learner's seat alternating."""
    explore = Rng(seed)
    report_every = max(1, games // 5)
    recent: list[float] = []
    for i in range(games):
        eps = epsilon_at(i / games)

        def chooser(f: Features, eps: float = eps) -> bool:
            if explore.random() < eps:
                return explore.random() < 0.5
            p = table.knock_probability(cell_of(f))
            return p == 1.0 or (p == 0.5 and explore.random() < 0.5)

        deal = seed * _SEED_STRIDE + i
        agent = KnockLearnerAgent(deal + 7, chooser)
        reward = play(deal, i % 2, agent)
        table.learn_game(agent.decisions, reward)
        recent.append(reward)
        if (i + 1) % report_every == 0:
            log(
                f"  {i + 1:>7} games  ε={eps:.3f}  win rate while training, last "
                f"{len(recent)} games: {100 * sum(recent) / len(recent):5.1f}%"
            )
            recent = []


def ci_half_width(rewards: np.ndarray) -> float:
    """Half-width of a normal 95% confidence interval of the mean of per-game ``rewards``
    given deal by deal (the two games of a deal, one per seat, side by side).

    The deal is the unit: the two games of a deal share their cards and are far from
    independent (the heuristic agent against itself wins exactly one of the two).
    """
    per_deal = rewards.reshape(-1, 2).mean(axis=1)
    if len(per_deal) < 2:
        return math.inf
    return 1.96 * float(per_deal.std(ddof=1)) / math.sqrt(len(per_deal))


@dataclass
class Evaluation:
    """Per-game rewards of one player on the evaluation games."""

    label: str
    """What was evaluated."""
    rewards: np.ndarray
    """Reward of every evaluation game, in a fixed order (deal by deal, seat 0 then 1)."""
    decisions: int = 0
    """Knock decisions taken (players built on :class:`KnockLearnerAgent` only)."""
    knocks: int = 0
    """Of which knocks."""

    @property
    def rate(self) -> float:
        """Win rate in percent (ties count half)."""
        return 100.0 * float(self.rewards.mean())

    @property
    def half_width(self) -> float:
        """Half-width of the 95% confidence interval of the win rate, in points."""
        return 100.0 * ci_half_width(self.rewards)


def evaluate(
    label: str, make_agent: Callable[[int, int], Agent], deals: int, seed: int
) -> Evaluation:
    """Play every evaluation deal twice against the heuristic agent: the player built by
    ``make_agent(deal, seat)`` in seat 0, then in seat 1."""
    rewards = []
    decisions = knocks = 0
    base = seed * _SEED_STRIDE + _EVAL_OFFSET
    for deal in range(base, base + deals):
        for seat in (0, 1):
            agent = make_agent(deal, seat)
            rewards.append(play(deal, seat, agent))
            if isinstance(agent, KnockLearnerAgent):
                decisions += len(agent.decisions)
                knocks += sum(knocked for _, knocked in agent.decisions)
    return Evaluation(label, np.array(rewards), decisions, knocks)


def greedy_agent(table: KnockTable) -> Callable[[int, int], Agent]:
    """Players that knock where ``table`` says knocking is better (no exploration); a coin
    seeded by the deal and seat decides a tie (every decision, for an untrained table)."""

    def make(deal: int, seat: int) -> Agent:
        coin = Rng(deal * 2 + seat)

        def chooser(f: Features) -> bool:
            p = table.knock_probability(cell_of(f))
            return p == 1.0 or (p == 0.5 and coin.random() < 0.5)

        return KnockLearnerAgent(deal + 7, chooser)

    return make


def heuristic_agent(deal: int, seat: int) -> Agent:
    """The heuristic agent itself in the evaluated seat (its own knock rule)."""
    return get_agent("heuristic", deal + 7)


def never_knock_agent(deal: int, seat: int) -> Agent:
    """The heuristic agent that never knocks (the game then ends by the other's knock or the
    deck running out)."""
    return KnockLearnerAgent(deal + 7, lambda f: False)


# -- report ----------------------------------------------------------------------------------------


def format_table(table: KnockTable) -> str:
    """The learned policy as text: rows are own estimated sums, columns the own unseen cards
    and then how many of their cards the opponent has seen.

    A cell shows ``K`` (knock) or ``.`` (go on), then the value of knocking minus the value of
    going on, in points of win rate; ``?`` marks a cell where one action was never tried (the
    untried action keeps the initial value 1/2), and an empty cell was never reached.
    """
    width = 9
    own_labels = [f"<{OWN_EDGES[0]:g}"]
    own_labels += [f"{lo:g}..{hi:g}" for lo, hi in itertools.pairwise(OWN_EDGES)]
    own_labels.append(f">={OWN_EDGES[-1]:g}")
    known_labels = [
        f"<={k}" if k == OPP_KNOWN_MIN else str(k) for k in range(OPP_KNOWN_MIN, OPP_KNOWN_MAX + 1)
    ]
    group = width * len(known_labels)
    unknown_labels = [f"{u}+" if u == MAX_UNKNOWN else str(u) for u in range(MAX_UNKNOWN + 1)]
    lines = [
        "Learned knock policy. K = knock, . = go on; the number is the value of knocking minus",
        "that of going on, in points of win rate; ? = one of the two never tried.",
        "",
        f"{'own unseen':>10}" + "".join(f"{u:^{group}}" for u in unknown_labels).rstrip(),
        f"{'opp knows':>10}"
        + "".join(f"{k:>{width}}" for _ in unknown_labels for k in known_labels),
        f"{'own sum':>10}",
    ]
    for o, own_label in enumerate(own_labels):
        cells = []
        for u in range(MAX_UNKNOWN + 1):
            for k in range(len(known_labels)):
                cell = (o, k, u)
                tried_knock = table.knock_visits[cell] > 0
                tried_go = table.go_visits[cell] > 0
                if not (tried_knock or tried_go):
                    text = ""
                elif not (tried_knock and tried_go):
                    text = "?"
                else:
                    advantage = 100 * (table.knock_value[cell] - table.go_value[cell])
                    mark = "K" if table.knock_probability(cell) == 1.0 else "."
                    text = f"{mark} {advantage:+6.1f}"
                cells.append(f"{text:>{width}}")
        lines.append(f"{own_label:>10}" + "".join(cells))
    return "\n".join(lines)


def _rate_line(ev: Evaluation) -> str:
    line = f"  {ev.label:<42} {ev.rate:5.1f}% ± {ev.half_width:3.1f}"
    if ev.decisions:
        games = len(ev.rewards)
        line += f"  (knocks in {ev.knocks}/{games} games; {ev.decisions} decisions)"
    return line


def _diff_line(label: str, a: Evaluation, b: Evaluation) -> str:
    d = a.rewards - b.rewards
    mean, half = 100 * float(d.mean()), 100 * ci_half_width(d)
    return f"  {label:<42} {mean:+5.1f} points ± {half:3.1f} (paired by game)"


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Evaluate the untrained policy, train, evaluate again, print the report."""
    parser = argparse.ArgumentParser(
        description="Learn when to knock in kaboo against the heuristic agent."
    )
    parser.add_argument(
        "--train-games", type=_positive, help=f"training games (default {DEFAULT_TRAIN_GAMES})"
    )
    parser.add_argument(
        "--eval-games",
        type=_positive,
        help=f"evaluation games per player, rounded up to even (default {DEFAULT_EVAL_GAMES})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of all deals and exploration")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"tiny budget: {QUICK_TRAIN_GAMES} training, {QUICK_EVAL_GAMES} evaluation games",
    )
    args = parser.parse_args(argv)
    train_games: int = args.train_games or (
        QUICK_TRAIN_GAMES if args.quick else DEFAULT_TRAIN_GAMES
    )
    eval_games: int = args.eval_games or (QUICK_EVAL_GAMES if args.quick else DEFAULT_EVAL_GAMES)
    deals = (eval_games + 1) // 2
    started = time.perf_counter()

    def log(text: str = "") -> None:
        print(text, flush=True)

    log("Learning kaboo's knock decision against the heuristic agent (2 players).")
    log(f"seed {args.seed}; {train_games} training games; {2 * deals} evaluation games per player")
    log(f"({deals} deals, each played with the evaluated player in seat 0 and in seat 1).")
    log()
    table = KnockTable()
    t0 = time.perf_counter()
    before = evaluate(
        "before: untrained (knocks with p = 1/2)", greedy_agent(table), deals, args.seed
    )
    log(_rate_line(before))
    log(f"  evaluation took {time.perf_counter() - t0:.1f}s")
    log()
    log("training (tabular Q-learning, ε-greedy):")
    t0 = time.perf_counter()
    train(table, train_games, args.seed, log)
    log(f"  training took {time.perf_counter() - t0:.1f}s")
    log()
    log(format_table(table))
    log()
    t0 = time.perf_counter()
    after = evaluate("after: learned knock policy", greedy_agent(table), deals, args.seed)
    heuristic = evaluate(
        "reference: heuristic (its own knock rule)", heuristic_agent, deals, args.seed
    )
    never = evaluate("reference: heuristic that never knocks", never_knock_agent, deals, args.seed)
    log(f"evaluation took {time.perf_counter() - t0:.1f}s")
    log()
    log("Win rate against the heuristic agent on the evaluation games (ties count half),")
    log("with 95% confidence intervals (deals as the unit):")
    for ev in (before, after, heuristic, never):
        log(_rate_line(ev))
    log(_diff_line("after - before", after, before))
    log(_diff_line("after - heuristic", after, heuristic))
    log(_diff_line("after - never knock", after, never))
    log()
    log(f"elapsed: {time.perf_counter() - started:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
