"""Round length under adversarial policies, against the bound the tests derive.

For every variant at its smallest and largest seat count, plays single rounds with the default
``max_turns`` under four policies — always the first legal action, always the last, uniformly
random, and random but never calling the end — and prints the longest round seen (in actions)
beside the bound derived in ``tests/test_round_length.py``. Run from the repository root:

    .venv/bin/python benchmarks/round_length.py [--games 20]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_round_length import POLICIES, round_bound, round_lengths

from cardtable import new_game, variants


def main() -> None:
    """Print one Markdown row per variant and seat count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="rounds per policy (default 20)")
    args = parser.parse_args()
    names = sorted(POLICIES)
    print("| variant | players | bound | " + " | ".join(f"longest, {p}" for p in names) + " |")
    print("|---|---:|---:|" + "---:|" * len(names))
    for name in variants.names():
        v = variants.get(name)
        max_turns = v.resolve_options({})["max_turns"]
        for players in sorted({v.min_players, v.max_players}):
            bound = round_bound(name, players, max_turns)
            longest = []
            for policy in names:
                pick = POLICIES[policy]
                worst = 0
                for seed in range(args.games):
                    rng = random.Random(seed)
                    game = new_game(name, players=players, seed=seed, options={"target": None})
                    lengths = round_lengths(
                        game, lambda _s, legal, r=rng, p=pick: p(legal, r), bound
                    )
                    worst = max(worst, *lengths)
                longest.append(worst)
            cells = " | ".join(f"{x:,}" for x in longest)
            print(f"| {name} | {players} | {bound:,} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
