"""Engine speed: random-play rounds and actions per second, for every variant.

Two paths are measured for each variant:

* **public API** — what a front end does: ``new_game`` for every round, then
  ``legal_actions`` + ``play(seat, text)`` (parsing, validation, events, log) until the end.
* **fast path** — what agents do in search: ``clone()`` a dealt state, then
  ``legal_actions`` + ``apply`` (no parsing, no validation, no events) until the end.

Both pick a uniformly random legal action for a uniformly random actor. Each figure is the
median of five equal runs (shared machines are noisy). Run:

    .venv/bin/python benchmarks/engine.py [--seconds 3] [--players 2] [--variants kaboo,cabo]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from cardtable import new_game, variants
from cardtable.rng import Rng


def public_api(name: str, players: int, seconds: float) -> tuple[float, float]:
    """Rounds/s and actions/s through ``new_game`` + ``legal_actions`` + ``play(text)``."""
    rng = Rng(12345)
    rounds = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = new_game(name, players=players, seed=rounds, options={"target": None})
        while not g.over:
            actors = g.actors
            seat = actors[rng.below(len(actors))]
            g.play(seat, str(rng.pick(g.legal_actions(seat))))
            actions += 1
        rounds += 1
    elapsed = time.perf_counter() - start
    return rounds / elapsed, actions / elapsed


def fast_path(name: str, players: int, seconds: float) -> tuple[float, float]:
    """Rounds/s and actions/s through ``clone`` + ``legal_actions`` + ``apply``."""
    rng = Rng(54321)
    starts = [new_game(name, players=players, seed=s, options={"target": None}) for s in range(200)]
    rounds = actions = 0
    rnd = rng.random
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for base in starts:
            g = base.clone()
            while not g.over:
                actors = g.actors
                seat = actors[0] if len(actors) == 1 else actors[int(rnd() * len(actors))]
                legal = g.legal_actions(seat)
                g.apply(seat, legal[int(rnd() * len(legal))])
                actions += 1
            rounds += 1
    elapsed = time.perf_counter() - start
    return rounds / elapsed, actions / elapsed


def median_of(runs: int, fn: Any, *args: Any) -> tuple[float, float]:
    """Median rounds/s and actions/s over ``runs`` runs of ``fn(*args)``."""
    results = [fn(*args) for _ in range(runs)]
    return (
        statistics.median(r[0] for r in results),
        statistics.median(r[1] for r in results),
    )


def main() -> None:
    """Print a table of figures for every variant."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variants", default=",".join(variants.names()))
    args = parser.parse_args()
    print(f"random play, {args.players} players, {args.seconds:g} s per figure")
    header = f"{'variant':<12} {'path':<11} {'rounds/s':>10} {'actions/s':>11}"
    print(header)
    print("-" * len(header))
    for name in args.variants.split(","):
        for label, fn in (("public API", public_api), ("fast path", fast_path)):
            rps, aps = median_of(5, fn, name, args.players, args.seconds / 5)
            print(f"{name:<12} {label:<11} {rps:>10,.0f} {aps:>11,.0f}")


if __name__ == "__main__":
    main()
