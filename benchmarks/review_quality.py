"""Review quality against the oracle: does the review call the beginner's real mistakes, and
only those?

For each Cabo-family variant, ``--games`` single rounds are played by a ``beginner`` (seat 0)
against a ``casual`` player. Every decision of the beginner with a choice is judged twice:

* by the review (``learn.review.review``: the rollout search from what the seat knew), which
  labels it inaccuracy / mistake / blunder by expected points lost;
* by the oracle (``agents.oracle.OracleAgent.appraise`` on an ``OpenSeat``: the same search
  seeing every hand, the deck order alone unknown), whose points lost for the played move are
  the yardstick.

It prints per variant: decisions, the oracle's bad moves (loss ≥ 3 points), the share of those
the review labels mistake or blunder (goal ≥ 80%), the labelled moves, and the share of the
labelled moves the oracle judges fine (loss < 1.5 points; goal ≤ 10%).

    .venv/bin/python benchmarks/review_quality.py [--variants cabo,kaboo] [--games 200]
        [--samples 200] [--workers 2] [--seed 1] [--json out.json]

The oracle's loss includes luck the seat could not know (swapping an unseen card that was a
0): a move that was right on what the seat knew can be "bad" for the oracle. The table also
prints how many of the oracle's bad moves the seat's own search (the review) thought cost at
most 1.5 points — moves no review that respects hidden information can call mistakes.
"""

from __future__ import annotations

import argparse
import json
import os
from concurrent.futures import ProcessPoolExecutor

from cardtable import new_game
from cardtable.agents import get
from cardtable.agents.oracle import OpenSeat, OracleAgent
from cardtable.learn.review import INACCURACY, MISTAKE, review, start
from cardtable.notation import parse
from cardtable.seat import Seat

VARIANTS = ["cabo", "cabo-german", "gabo", "kaboo"]


def one_game(variant: str, seed: int, samples: int) -> list[tuple[float, float, str | None]]:
    """One beginner game: per judged decision (oracle loss, review loss, review label)."""
    g = new_game(variant, players=2, seed=seed, options={"target": None})
    players = [get("beginner", seed=seed), get("casual", seed=seed + 1)]
    while not g.over:
        s = g.actors[0]
        g.play(s, str(players[s].act(Seat(g, s))))
    log = g.log
    judged = {j.index: j for j in review(log, [0], samples=samples, seed=seed).judgements}
    game, steps = start(log)
    out = []
    for index, (actor, text) in enumerate(steps):
        j = judged.get(index)
        if j is not None:
            played = parse(text)
            oracle = OracleAgent(seed=seed * 1000 + index, samples=samples)
            appraisal = oracle.appraise(OpenSeat(game, actor), keep=[played])
            out.append((appraisal.of(played).loss, j.loss, j.label))
        game.play(actor, text)
    return out


def summarise(rows: list[tuple[float, float, str | None]]) -> dict[str, float]:
    """The figures of one variant."""
    bad = [r for r in rows if r[0] >= MISTAKE]
    caught = [r for r in bad if r[2] in ("mistake", "blunder")]
    unseen = [r for r in bad if r[1] < INACCURACY]
    labelled = [r for r in rows if r[2] is not None]
    false = [r for r in labelled if r[0] < INACCURACY]
    return {
        "decisions": len(rows),
        "oracle_bad": len(bad),
        "caught_share": len(caught) / len(bad) if bad else float("nan"),
        "bad_seat_could_not_know": len(unseen),
        "labelled": len(labelled),
        "labelled_fine_share": len(false) / len(labelled) if labelled else float("nan"),
    }


def main() -> None:
    """Play, judge and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json")
    args = parser.parse_args()
    print(
        f"games {args.games} per variant, {args.samples} deals per judgement, "
        f"{args.workers} workers"
    )
    head = f"{'variant':12} {'decisions':>9} {'bad':>5} {'caught':>7} {'unknowable':>10}"
    print(head + f" {'labelled':>8} {'fine':>6}")
    out = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for variant in args.variants.split(","):
            futures = [
                pool.submit(one_game, variant, args.seed + 7919 * k, args.samples)
                for k in range(args.games)
            ]
            rows = [r for f in futures for r in f.result()]
            row = summarise(rows)
            out[variant] = row
            print(
                f"{variant:12} {row['decisions']:9.0f} {row['oracle_bad']:5.0f} "
                f"{row['caught_share']:7.0%} {row['bad_seat_could_not_know']:10.0f} "
                f"{row['labelled']:8.0f} {row['labelled_fine_share']:6.0%}"
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
