"""Hints: how long a person waits for one, and how often its best move is the expert's.

For each variant, two-seat single rounds are played by the ``casual`` level; at every
``--every``-th decision with a choice (up to ``--positions`` per variant) the script times
``learn.hints.hint`` on the seat (its default budget, as the terminal and the browser ask for
it) and compares the hint's best move with the move the ``expert`` level plays there (same
seed, its full 200 deals). It prints per variant: positions, mean and 95th percentile
seconds to the hint, and the agreement share.

    .venv/bin/python benchmarks/hints.py [--variants kaboo,qute] [--positions 40] [--every 3]
        [--seed 1] [--json out.json]

The time is wall-clock on this machine, one core, with whatever else runs beside it: read it
with the machine's load (printed).
"""

from __future__ import annotations

import argparse
import json
import os
import time

from cardtable import new_game
from cardtable.agents import get
from cardtable.arena import percentile
from cardtable.learn.hints import hint
from cardtable.seat import Seat

VARIANTS = ["cabo", "cabo-german", "gabo", "kaboo", "qute"]


def measure(variant: str, positions: int, every: int, seed: int) -> dict[str, float]:
    """Time hints and compare their best move with the expert's on ``positions`` decisions."""
    times: list[float] = []
    agree = 0
    game_no = 0
    seen = 0
    while len(times) < positions:
        options = {"target": None}
        g = new_game(variant, players=2, seed=seed + game_no, options=options)
        players = [get("casual", seed=seed + game_no + s) for s in range(2)]
        game_no += 1
        while not g.over and len(times) < positions:
            s = g.actors[0]
            seat = Seat(g, s)
            if len(g.legal_actions(s)) > 1:
                seen += 1
                if seen % every == 0:
                    t0 = time.perf_counter()
                    found = hint(seat, seed=seen)
                    times.append(time.perf_counter() - t0)
                    expert = get("expert", seed=seen).act(seat)
                    agree += found.rows[0].action == expert
            g.play(s, str(players[s].act(seat)))
    return {
        "positions": len(times),
        "mean_s": sum(times) / len(times),
        "p95_s": percentile(times, 95),
        "agreement": agree / len(times),
    }


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'variant':12} {'positions':>9} {'mean s':>8} {'p95 s':>8} {'agrees':>7}")
    out = {}
    for variant in args.variants.split(","):
        row = measure(variant, args.positions, args.every, args.seed)
        out[variant] = row
        print(
            f"{variant:12} {row['positions']:9.0f} {row['mean_s']:8.3f} {row['p95_s']:8.3f} "
            f"{row['agreement']:7.0%}"
        )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
