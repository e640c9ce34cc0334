"""Fitting the belief models the AI players load (Cabo family), from self-play.

:class:`~cardtable.agents.belief.BeliefModel` is a conditional logit model, ``P(card c at place
| context) = w(value(c)) / sum of w over the place's pool``. It is fitted here by maximum
likelihood on self-play positions of the rule-of-thumb players (:func:`collect`, :func:`fit`);
:func:`log_likelihood` measures a model on held-out positions against uniform dealing.

The fitted models are data: ``agents/beliefs/<variant>.json``, which the agents read at play
time through :func:`cardtable.agents.belief.load`. ``python -m cardtable.training.belief``
retrains them and prints the measurement.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..agents import belief
from ..agents.belief import BeliefModel, FamilyTracker, context_key
from ..game import Game
from ..games.family.rulesets import RULESETS, RuleSet
from ..rng import Rng
from ..seat import Seat
from ..views.schema import is_family_view

__all__ = ["MODELS", "Sample", "collect", "fit", "log_likelihood", "main", "value_axis"]

MODELS = Path(belief.__file__).with_name("beliefs")
"""Where the shipped models live (``agents/beliefs/``): the default place to write them."""


def value_axis(rs: RuleSet) -> tuple[int, ...]:
    """The distinct card values of a rule set, in increasing order: a fitted model's axis
    (:attr:`BeliefModel.values`)."""
    return tuple(sorted({rs.value(code) for code in rs.deck}))


@dataclass(frozen=True)
class Sample:
    """One hidden card in a self-play position: its context, the value counts of the cards
    the watcher does not know (its pool), and the card's true value."""

    key: str
    """Context key."""
    pool: tuple[int, ...]
    """Count of each value (model axis) among the cards the watcher does not know."""
    value: int
    """Index of the card's true value on the axis."""


def _pool_counts(seat: Seat, rs: RuleSet, axis: Mapping[int, int]) -> list[int]:
    """Counts per value index of the cards ``seat`` does not know (deck, hidden hand cards,
    a hidden drawn card): the whole deck less what it sees where it is now."""
    view = seat.view()
    assert is_family_view(view)
    known = seat.knowledge()
    assert known is not None
    seen = [rs.deck[c] for hand in known for c in hand if c >= 0] + view["discard"]
    if view["drawn"] is not None:
        seen.append(view["drawn"])
    counts = [0] * len(axis)
    for code in rs.deck:
        counts[axis[rs.value(code)]] += 1
    for code in seen:
        counts[axis[rs.value(code)]] -= 1
    return counts


def collect(variant: str, games: int, seed: int = 0, every: int = 3) -> list[Sample]:
    """Samples from ``games`` two-seat single rounds of the rule-of-thumb policy playing
    itself: every ``every``-th action, every seat's hidden places of the other hand, labelled
    with the true card (:meth:`~cardtable.game.Game.card_at`)."""
    from cardtable import new_game

    rs = RULESETS[variant]
    axis = {v: i for i, v in enumerate(value_axis(rs))}
    out: list[Sample] = []
    for k in range(games):
        g = new_game(variant, players=2, seed=seed * 1_000_003 + k, options={"target": None})
        rng = Rng(seed * 7919 + k)
        step = 0
        while not g.over:
            if step % every == 0:
                for watcher in range(g.players):
                    out.extend(_samples(g, Seat(g, watcher), rs, axis))
            seat = g.actors[0]
            g.play(seat, g.rule_of_thumb(seat, rng))
            step += 1
    return out


def _samples(g: Game, seat: Seat, rs: RuleSet, axis: Mapping[int, int]) -> list[Sample]:
    """The samples of one position for one watching seat: each hidden place it has a context
    for, labelled with the card's true value (read from the game, which hosts the table)."""
    tracker = FamilyTracker(seat)
    if not tracker.contexts:
        return []
    pool = tuple(_pool_counts(seat, rs, axis))
    out = []
    for (s, p), ctx in tracker.contexts.items():
        code = g.card_at(s, p)
        assert code is not None, "a context is only ever kept for a hidden card"
        out.append(Sample(context_key(ctx), pool, axis[rs.value(code)]))
    return out


def _arrays(
    samples: Sequence[Sample], keys: Mapping[str, int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    known = [s for s in samples if s.key in keys]
    k = np.array([keys[s.key] for s in known], dtype=np.int64)
    pool = np.array([s.pool for s in known], dtype=np.float64)
    v = np.array([s.value for s in known], dtype=np.int64)
    return k, pool, v


def fit(
    variant: str,
    samples: Sequence[Sample],
    iterations: int = 400,
    l2: float = 0.01,
    min_count: int = 30,
) -> BeliefModel:
    """The maximum-likelihood conditional logit model (with a little L2 pull toward uniform)
    for the contexts seen at least ``min_count`` times."""
    axis = value_axis(RULESETS[variant])
    counts: dict[str, int] = {}
    for s in samples:
        counts[s.key] = counts.get(s.key, 0) + 1
    names = sorted(k for k, n in counts.items() if n >= min_count)
    keys = {k: i for i, k in enumerate(names)}
    k, pool, v = _arrays(samples, keys)
    theta = np.zeros((len(names), len(axis)))
    m = np.zeros_like(theta)
    s2 = np.zeros_like(theta)
    n = max(1, len(v))
    onehot = np.zeros((len(v), len(axis)))
    onehot[np.arange(len(v)), v] = 1.0
    for t in range(1, iterations + 1):  # Adam on the mean negative log-likelihood
        th = theta[k]
        th = th - th.max(axis=1, keepdims=True)
        w = pool * np.exp(th)
        p = w / w.sum(axis=1, keepdims=True)
        grad = np.zeros_like(theta)
        np.add.at(grad, k, p - onehot)
        grad = grad / n + l2 * theta / len(names)
        m = 0.9 * m + 0.1 * grad
        s2 = 0.999 * s2 + 0.001 * grad * grad
        step = 0.1 * (m / (1 - 0.9**t)) / (np.sqrt(s2 / (1 - 0.999**t)) + 1e-8)
        theta -= step
    theta -= theta.mean(axis=1, keepdims=True)
    logw = {name: [round(float(x), 4) for x in theta[i]] for name, i in keys.items()}
    return BeliefModel(variant, axis, logw)


def log_likelihood(model: BeliefModel, samples: Iterable[Sample]) -> tuple[float, float, int]:
    """Mean log-likelihood (nats per hidden card) of the true cards under the model and under
    uniform dealing from the same pools, and the number of cards."""
    total_model = total_uniform = 0.0
    count = 0
    for s in samples:
        row = model.logw.get(s.key)
        size = sum(s.pool)
        if size <= 0:
            continue
        if row is None:
            lm = -math.log(size)
        else:
            top = max(row)
            z = sum(n * math.exp(x - top) for n, x in zip(s.pool, row, strict=True))
            lm = (row[s.value] - top) - math.log(z)
        total_model += lm
        total_uniform += -math.log(size)
        count += 1
    if not count:
        return 0.0, 0.0, 0
    return total_model / count, total_uniform / count, count


def main(argv: Sequence[str] | None = None) -> None:
    """Retrain the shipped models and print held-out log-likelihoods against uniform."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--variants", default=",".join(RULESETS))
    parser.add_argument("--games", type=int, default=3000, help="training games per variant")
    parser.add_argument("--test-games", type=int, default=500, help="held-out games")
    parser.add_argument("--out", default=str(MODELS))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print("| variant | train cards | held-out cards | model nats/card | uniform | gain (bits) |")
    print("|---|---:|---:|---:|---:|---:|")
    for variant in [v.strip() for v in args.variants.split(",") if v.strip()]:
        train = collect(variant, args.games, seed=1)
        test = collect(variant, args.test_games, seed=2)
        model = fit(variant, train)
        (out / f"{variant}.json").write_text(model.to_json() + "\n", encoding="utf-8")
        lm, lu, n = log_likelihood(model, test)
        print(
            f"| {variant} | {len(train):,} | {n:,} | {lm:.3f} | {lu:.3f} | "
            f"{(lm - lu) / math.log(2):+.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
