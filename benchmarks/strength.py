"""Agent strength: the ladder of levels, the oracle ceiling, decision times and search speed.

For each variant (two players, one round per game, duplicate deals: every deal is played from
both seats) the arena plays the pairings below and prints each pairing's win share for the
stronger side with its 95% Wilson interval, against the goal:

* the ladder ``beginner`` > ``random``, ``casual`` > ``beginner``, ``expert`` > ``casual``,
  ``master`` > ``expert`` (goal ≥ 0.60 each);
* ``expert`` against today's rule-of-thumb ``heuristic`` (goal ≥ 0.65);
* the ceiling: ``oracle`` (rollouts that see every card — measurement only) against
  ``heuristic``, to read the expert's figure against;
* ``heuristic`` against ``random`` over whole matches (goal ≥ 0.95, match variants only).

A ``met`` needs the whole interval above the goal, ``not met`` the whole interval below it;
otherwise the figure is ``open`` (more games would tell). Then, per variant, the mean and 95th
percentile milliseconds per decision of every agent as measured inside those games (one
worker process per core, so one core each), and the expert configuration's search speed:
rollouts per second and simulated actions per second over 40 decisions of heuristic-played
games.

    .venv/bin/python benchmarks/strength.py [--variants kaboo,qute] [--games 1000]
        [--search-games 300] [--master-games 300] [--workers 2] [--seed 1]
        [--only expert-heuristic,oracle-heuristic] [--json out.json]

``--games`` applies to the cheap pairings (about 1,000 games give ±3% intervals),
``--search-games`` to those with ``expert`` or ``oracle`` (seconds per game) and
``--master-games`` to master against expert (the dearest: four times the expert's search).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from typing import Any

from cardtable import new_game
from cardtable.agents import get
from cardtable.agents.levels import EXPERT_SAMPLES
from cardtable.agents.search import RolloutAgent
from cardtable.arena import ArenaResult, percentile, run_arena
from cardtable.seat import Seat

VARIANTS = ["cabo", "cabo-german", "gabo", "kaboo", "qute"]


@dataclass(frozen=True)
class Pairing:
    """One line of the table: ``strong`` against ``weak``."""

    strong: str
    weak: str
    goal: float | None
    """The win share the stronger side should reach (None: a reference figure)."""
    cost: str
    """Which game count applies: ``cheap``, ``search`` or ``master``."""
    match: bool = False
    """Whole matches instead of one round."""

    @property
    def key(self) -> str:
        """The name ``--only`` selects it by."""
        return f"{self.strong}-{self.weak}" + ("-match" if self.match else "")


PAIRINGS = [
    Pairing("beginner", "random", 0.60, "cheap"),
    Pairing("casual", "beginner", 0.60, "cheap"),
    Pairing("expert", "casual", 0.60, "search"),
    Pairing("master", "expert", 0.60, "master"),
    Pairing("expert", "heuristic", 0.65, "search"),
    Pairing("oracle", "heuristic", None, "search"),
    Pairing("heuristic", "random", 0.95, "cheap", match=True),
]


def play(variant: str, p: Pairing, games: int, workers: int | None, seed: int) -> ArenaResult:
    """Play ``p.strong`` against ``p.weak`` for ``games`` games (seats rotated, duplicate
    deals; ``oracle`` admitted because this is a measurement)."""
    options: dict[str, Any] = {} if p.match else {"target": None}
    return run_arena(
        variant,
        [p.strong, p.weak],
        games,
        players=2,
        seed=seed,
        workers=workers,
        options=options,
        measure=True,
    )


def search_speed(variant: str, decisions: int = 40) -> tuple[float, float]:
    """Rollouts and simulated actions per second of the expert configuration, over the
    decisions (more than one legal action) of heuristic-played two-player rounds."""
    rollouts = actions = 0
    seconds = 0.0
    searcher = RolloutAgent(seed=1, samples=EXPERT_SAMPLES)
    mover = get("heuristic", seed=2)
    game_seed = 0
    while decisions > 0:
        g = new_game(variant, players=2, seed=game_seed, options={"target": None})
        game_seed += 1
        while not g.over and decisions > 0:
            seat = g.actors[0]
            if len(g.legal_actions(seat)) > 1:
                searcher.act(Seat(g, seat))
                rollouts += searcher.stats.iterations
                actions += searcher.stats.actions
                seconds += searcher.stats.seconds
                decisions -= 1
            g.play(seat, mover.act(Seat(g, seat)))
    return rollouts / seconds, actions / seconds


def verdict(low: float, high: float, goal: float | None) -> str:
    """``met``, ``not met`` or ``open`` for an interval against a goal."""
    if goal is None:
        return "ceiling"
    return "met" if low >= goal else ("not met" if high < goal else "open")


def main() -> None:
    """Play the pairings and print the tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--search-games", type=int, default=300)
    parser.add_argument("--master-games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated pairing keys")
    parser.add_argument("--no-speed", action="store_true", help="skip the search-speed table")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()
    names = [v.strip() for v in args.variants.split(",") if v.strip()]
    only = {k.strip() for k in args.only.split(",") if k.strip()}
    counts = {"cheap": args.games, "search": args.search_games, "master": args.master_games}
    times: dict[tuple[str, str], list[float]] = {}
    rows: list[dict[str, Any]] = []
    print("2 players, one round per game (whole matches where marked), duplicate deals")
    header = (
        f"{'variant':12} {'pairing':26} {'games':>6} {'share':>6} {'95% interval':>15}  "
        f"{'goal':>5} verdict"
    )
    print(header)
    print("-" * len(header))
    for variant in names:
        for p in PAIRINGS:
            if only and p.key not in only:
                continue
            if p.match and new_game(variant, players=2).target is None:
                continue  # a one-round game: no matches to play
            start = time.perf_counter()
            res = play(variant, p, counts[p.cost], args.workers, args.seed)
            elapsed = time.perf_counter() - start
            st = res.stats[0]
            for rec in res.records:
                for seat, entrant in enumerate(rec.lineup):
                    times.setdefault((variant, res.names[entrant]), []).extend(rec.times[seat])
            what = f"{p.strong} vs {p.weak}" + (" (matches)" if p.match else "")
            goal = f"{p.goal:.2f}" if p.goal is not None else "-"
            print(
                f"{variant:12} {what:26} {st.games:6d} {st.win_rate:6.3f} "
                f"[{st.ci_low:.3f}, {st.ci_high:.3f}]  {goal:>5} "
                f"{verdict(st.ci_low, st.ci_high, p.goal)}  ({elapsed:.0f} s)",
                flush=True,
            )
            rows.append(
                {
                    "variant": variant,
                    "pairing": p.key,
                    "games": st.games,
                    "share": st.win_rate,
                    "ci": [st.ci_low, st.ci_high],
                    "goal": p.goal,
                    "failures": len(res.failures),
                }
            )
    print()
    print("milliseconds per decision (mean / p95), measured inside the games above")
    agents = ["random", "heuristic", "beginner", "casual", "expert", "master", "oracle"]
    print(f"{'variant':12} " + " ".join(f"{a:>15}" for a in agents))
    timing: dict[str, dict[str, list[float]]] = {}
    for variant in names:
        cells = []
        for a in agents:
            got = times.get((variant, a))
            if not got:
                cells.append(f"{'-':>15}")
                continue
            mean, p95 = 1000 * sum(got) / len(got), 1000 * percentile(got, 95)
            timing.setdefault(variant, {})[a] = [mean, p95]
            cells.append(f"{mean:7.1f}/{p95:7.1f}")
        print(f"{variant:12} " + " ".join(cells), flush=True)
    speed: dict[str, list[float]] = {}
    if not args.no_speed:
        print()
        print(f"expert search speed ({EXPERT_SAMPLES} deals a decision, 40 decisions)")
        for variant in names:
            rps, aps = search_speed(variant)
            speed[variant] = [rps, aps]
            print(
                f"{variant:12} {rps:10,.0f} rollouts/s {aps:12,.0f} simulated actions/s",
                flush=True,
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"pairings": rows, "ms_per_decision": timing, "speed": speed}, f, indent=1)


if __name__ == "__main__":
    main()
