"""Engine speed: random-play rounds and actions per second, for every variant.

Two paths are measured for each variant:

* **public API** — what a front end does: ``new_game`` for every round, then
  ``legal_actions`` + ``play(seat, text)`` (parsing, validation, events, log) until the end.
* **fast path** — what agents do in search: ``clone()`` a dealt state, then
  ``legal_actions`` + ``apply`` (no parsing, no validation, no events) until the end.

Both pick a uniformly random legal action for a uniformly random actor. Each figure is the
median of five equal runs (shared machines are noisy). When OpenSpiel is importable (the
``openspiel`` extra), its C++ ``crazy_eights`` driven from Python is measured in the same run
(before and after the variants, median of both) and each path's actions/s is printed as a
ratio of it (the goal for kaboo's public API is ≥ 0.5×). Run:

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


def crazy_eights(players: int, seconds: float) -> tuple[float, float]:
    """Rounds/s and player actions/s of OpenSpiel's C++ ``crazy_eights`` from Python."""
    import random

    import pyspiel

    game: Any = pyspiel.load_game("crazy_eights", {"players": players})
    rng = random.Random(7)
    rounds = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
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
    try:
        import pyspiel  # noqa: F401

        peer = True
    except ImportError:
        peer = False
        print("(OpenSpiel not importable: no ratios; install the openspiel extra for them)")
    names = args.variants.split(",")
    figures: dict[tuple[str, str], tuple[float, float]] = {}
    peer_runs: list[tuple[float, float]] = []
    if peer:
        peer_runs.append(median_of(5, crazy_eights, args.players, args.seconds / 5))
    for name in names:
        for label, fn in (("public API", public_api), ("fast path", fast_path)):
            figures[name, label] = median_of(5, fn, name, args.players, args.seconds / 5)
    if peer:
        peer_runs.append(median_of(5, crazy_eights, args.players, args.seconds / 5))
    peer_aps = statistics.median(r[1] for r in peer_runs) if peer else 0.0
    ratio_head = f" {'vs crazy_eights':>16}" if peer else ""
    header = f"{'variant':<12} {'path':<11} {'rounds/s':>10} {'actions/s':>11}{ratio_head}"
    print(header)
    print("-" * len(header))
    for (name, label), (rps, aps) in figures.items():
        ratio = f" {aps / peer_aps:>15.2f}×" if peer else ""
        print(f"{name:<12} {label:<11} {rps:>10,.0f} {aps:>11,.0f}{ratio}")
    if peer:
        print(f"{'crazy_eights':<12} {'C++':<11} {'':>10} {peer_aps:>11,.0f}")
        if "kaboo" in names:
            ratio = figures["kaboo", "public API"][1] / peer_aps
            verdict = "met" if ratio >= 0.5 else "not met"
            print(f"goal: kaboo public API ≥ 0.5× crazy_eights actions/s: {ratio:.2f}× ({verdict})")


if __name__ == "__main__":
    main()
