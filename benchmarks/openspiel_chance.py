"""What the OpenSpiel adapter's chance nodes cost: random playouts and full deals.

Every card that leaves a deck (or Qute's blind) is a chance node of the adapter
(``cardtable.interop.openspiel``). The script plays pyspiel random playouts (each player
action uniform among the legal ones, each chance outcome uniform among
``chance_outcomes()``, fixed seeds) and prints the states per second (applied actions,
chance outcomes included), then times full deals: a new game's chance nodes until the first
decision. Each figure is the best of ``--repeat`` runs (the machine's noise only slows).

``--old PATH`` measures another version of the adapter instead: the single-module adapter
file at ``PATH`` (for instance ``git show HEAD~1:src/cardtable/interop/openspiel.py``
saved outside the repository), loaded as a module of ``cardtable.interop`` in place of the
package (the two register the same game names, so one run measures one of them).

Run:

    .venv/bin/python benchmarks/openspiel_chance.py [--games 100] [--deals 200] [--repeat 5]
    .venv/bin/python benchmarks/openspiel_chance.py --old /tmp/openspiel_old.py
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import pyspiel

PLAYOUTS: list[tuple[str, dict[str, int]]] = [
    ("cardtable_kaboo", {"players": 4}),
    ("cardtable_qute", {"players": 4, "target": 0}),
]
"""(game, parameters) of the random playouts."""

DEALS: list[tuple[str, dict[str, int]]] = [
    ("cardtable_kaboo", {"players": 4}),
    ("cardtable_qute", {"players": 4}),
    ("cardtable_gabo", {"players": 10}),
]
"""(game, parameters) of the timed deals."""


def load_adapter(old: str | None) -> Any:
    """Import the adapter (registering its games): the package, or the module file ``old``."""
    if old is None:
        import cardtable.interop.openspiel as adapter

        return adapter
    name = "cardtable.interop._openspiel_old"
    spec = importlib.util.spec_from_file_location(name, old)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def playout(game: Any, seed: int) -> int:
    """One random playout; the number of actions applied (chance outcomes included)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    applied = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        applied += 1
    return applied


def deal(game: Any, seed: int) -> int:
    """A new game's chance nodes up to the first decision; how many there were."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    nodes = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        nodes += 1
    return nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="random playouts per game")
    parser.add_argument("--deals", type=int, default=200, help="timed deals per game")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    parser.add_argument("--old", metavar="PATH", help="measure the adapter module at PATH")
    args = parser.parse_args()
    load_adapter(args.old)
    print(f"adapter: {args.old or 'cardtable.interop.openspiel'}")
    for name, params in PLAYOUTS:
        game = pyspiel.load_game(name, params)
        playout(game, 10_000)  # warm-up (caches, imports)
        states, took = best(args.repeat, playout, game, args.games)
        print(
            f"{name} {params}: {args.games} random playouts, {states} states in {took:.2f} s: "
            f"{states / took:,.0f} states/s"
        )
    for name, params in DEALS:
        game = pyspiel.load_game(name, params)
        deal(game, 10_000)
        nodes, took = best(args.repeat, deal, game, args.deals)
        print(
            f"{name} {params}: full deal ({nodes // args.deals} chance nodes) "
            f"{took / args.deals * 1000:.3f} ms"
        )


def best(repeat: int, work: Callable[[Any, int], int], game: Any, seeds: int) -> tuple[int, float]:
    """The sum of ``work(game, seed)`` over ``seeds`` seeds, and its best wall time in seconds
    over ``repeat`` runs."""
    times = []
    total = 0
    for _ in range(repeat):
        start = time.perf_counter()
        total = sum(work(game, seed) for seed in range(seeds))
        times.append(time.perf_counter() - start)
    return total, min(times)


if __name__ == "__main__":
    main()
