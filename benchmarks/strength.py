"""Agent strength: the ladder of agents and levels, search speed, and decision times.

For each variant (two players, one round per game unless ``--match``) the arena plays the
ladder pairings below with rotated seats and duplicate deals, and prints each pairing's win
rate with its 95% Wilson interval against the goal. Then, per variant, it prints the ISMCTS
simulations per second (one simulation = determinize, tree descent, rollout, backup) and the
mean and 95th-percentile seconds per decision of every level.

    .venv/bin/python benchmarks/strength.py [--variants kaboo,qute] [--games 1000]
        [--search-games 200] [--workers 2] [--seed 1] [--match]

``--games`` applies to the rule-of-thumb pairings (about 1,000 games give ±3% intervals);
``--search-games`` to the pairings that involve ISMCTS levels, which cost seconds per game.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from cardtable import new_game
from cardtable.agents import get
from cardtable.agents.ismcts import ISMCTSAgent
from cardtable.arena import ArenaResult, run_arena

LADDER: list[tuple[str, str, float, bool]] = [
    # (stronger, weaker, goal win rate, uses search)
    ("heuristic", "random", 0.95, False),
    ("casual", "beginner", 0.60, False),
    ("expert", "casual", 0.60, True),
    ("expert", "heuristic", 0.70, True),
    ("master", "expert", 0.60, True),
]
VARIANTS = ["cabo", "cabo-german", "gabo", "kaboo", "qute"]


def pairing(
    variant: str, a: str, b: str, games: int, workers: int | None, seed: int, match: bool
) -> ArenaResult:
    """Play ``a`` against ``b`` for ``games`` games (seats rotated, duplicate deals)."""
    options: dict[str, Any] = {} if match else {"target": None}
    return run_arena(variant, [a, b], games, players=2, seed=seed, workers=workers, options=options)


def simulations_per_second(variant: str, decisions: int = 40, iterations: int = 400) -> float:
    """ISMCTS simulations per second over the decisions of a few heuristic-played games."""
    sims = 0
    seconds = 0.0
    searcher = ISMCTSAgent(seed=1, iterations=iterations)
    mover = get("heuristic", seed=2)
    game_seed = 0
    while decisions > 0:
        g = new_game(variant, players=2, seed=game_seed, options={"target": None})
        game_seed += 1
        while not g.over and decisions > 0:
            seat = g.actors[0]
            if len(g.legal_actions(seat)) > 1:
                searcher.act(g, seat)
                sims += searcher.stats.iterations
                seconds += searcher.stats.seconds
                decisions -= 1
            g.play(seat, mover.act(g, seat))
    return sims / seconds


def main() -> None:
    """Play the ladder and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--search-games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--match", action="store_true", help="whole matches, not one round")
    parser.add_argument("--skip-search", action="store_true", help="rule-of-thumb pairings only")
    args = parser.parse_args()
    names = [v.strip() for v in args.variants.split(",") if v.strip()]
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    print(f"ladder: 2 players, {'whole matches' if args.match else 'one round per game'}")
    header = f"{'variant':12} {'pairing':22} {'games':>6} {'win rate':>9} {'95% CI':>15}  goal"
    print(header)
    print("-" * len(header))
    for variant in names:
        for strong, weak, goal, search in LADDER:
            if search and args.skip_search:
                continue
            games = args.search_games if search else args.games
            start = time.perf_counter()
            res = pairing(variant, strong, weak, games, args.workers, args.seed, args.match)
            elapsed = time.perf_counter() - start
            st = res.stats[0]
            for s in res.stats:
                times.setdefault((variant, s.agent), []).append((s.time_mean, s.time_p95))
            met = "met" if st.ci_low >= goal else ("not met" if st.ci_high < goal else "open")
            print(
                f"{variant:12} {strong + ' vs ' + weak:22} {st.games:6d} {st.win_rate:9.3f} "
                f"[{st.ci_low:.3f}, {st.ci_high:.3f}]  ≥{goal:.2f} {met}  ({elapsed:.0f} s)",
                flush=True,
            )
    print()
    print("ISMCTS simulations per second (400 iterations per decision, 40 decisions)")
    for variant in names:
        print(f"{variant:12} {simulations_per_second(variant):10,.0f} sims/s", flush=True)
    print()
    print("seconds per decision (mean / p95), measured inside the arena games above")
    levels = ["random", "heuristic", "beginner", "casual", "expert", "master"]
    print(f"{'variant':12} " + " ".join(f"{lv:>17}" for lv in levels))
    for variant in names:
        cells = []
        for lv in levels:
            got = times.get((variant, lv))
            if not got:
                cells.append(f"{'-':>17}")
                continue
            mean = statistics.fmean(m for m, _ in got)
            p95 = max(p for _, p in got)
            cells.append(f"{mean:8.4f}/{p95:8.4f}")
        print(f"{variant:12} " + " ".join(cells))


if __name__ == "__main__":
    main()
