"""What it costs to hand a game to a search worker: pickle it whole, or send its log to replay.

The web server computes the moves of its search levels in worker processes
(``cardtable.web.search``). A worker needs the game with everything an agent may read: views
(with the recent events), legal actions, ``determinize`` and the round's history. Two ways:

* **pickle**: the server pickles the live game (``snapshot``), the worker unpickles it;
* **replay**: the server takes ``game.log``, the worker replays it (``cardtable.replay``).

For games of growing length (casual players, fixed seeds) the script checks that both give a
game with the same views, legal actions and history for every seat, then times each side
(median of repeats): what the server's event loop pays, and what the worker pays.

Run:

    .venv/bin/python benchmarks/snapshot_cost.py
"""

from __future__ import annotations

import pickle
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import cardtable
from cardtable.agents import get as get_agent
from cardtable.game import Game
from cardtable.seat import Seat
from cardtable.web.search import snapshot

CASES: list[tuple[str, str, dict[str, Any], int]] = [
    ("kaboo, one round", "kaboo", {"target": None}, 30),
    ("qute, match to 125", "qute", {}, 100),
    ("cabo, match to 100", "cabo", {}, 400),
    ("gabo, match to 1000", "gabo", {"target": 1000}, 3000),
]
"""(label, variant, options, actions to play before measuring)."""


def play(variant: str, options: dict[str, Any], actions: int) -> Game:
    """A game after ``actions`` moves of casual players (fewer if it ends)."""
    g = cardtable.new_game(variant, seed=5, options=options)
    agents = [get_agent("casual", seed=s) for s in range(g.players)]
    for _ in range(actions):
        if g.over:
            break
        seat = g.actors[0]
        g.play(seat, agents[seat].act(Seat(g, seat)))
    return g


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``fn`` in milliseconds."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def same(a: Game, b: Game, seat: int) -> bool:
    """Whether the agent of ``seat`` could tell the two games apart (view, legal actions,
    history)."""
    return (
        a.view(seat) == b.view(seat)
        and a.legal_actions(seat) == b.legal_actions(seat)
        and a.history(seat) == b.history(seat)
    )


def main() -> None:
    """Print one line per game length."""
    print(
        f"{'game':22} {'actions':>7} | {'pickle: loop':>12} {'worker':>7} {'KiB':>5} | "
        f"{'replay: loop':>12} {'worker':>7} {'KiB':>5}"
    )
    for label, variant, options, n in CASES:
        g = play(variant, options, n)
        seat = g.actors[0]
        blob = snapshot(g, seat)
        log_blob = pickle.dumps(g.log, protocol=pickle.HIGHEST_PROTOCOL)
        replayed = cardtable.replay(pickle.loads(log_blob))
        assert same(pickle.loads(blob), g, seat) and same(replayed, g, seat)
        dump = median_ms(lambda g=g, s=seat: snapshot(g, s), 50)  # type: ignore[misc]
        load = median_ms(lambda b=blob: pickle.loads(b), 50)  # type: ignore[misc]
        log_dump = median_ms(
            lambda g=g: pickle.dumps(g.log, protocol=pickle.HIGHEST_PROTOCOL),  # type: ignore[misc]
            50,
        )
        replay = median_ms(
            lambda b=log_blob: cardtable.replay(pickle.loads(b)),  # type: ignore[misc]
            5,
        )
        print(
            f"{label:22} {len(g.log['actions']):7,} | {dump:10.2f} ms {load:4.2f} ms "
            f"{len(blob) / 1024:5.0f} | {log_dump:10.2f} ms {replay:4.1f} ms "
            f"{len(log_blob) / 1024:5.0f}"
        )
    print("loop: the server's event loop (under the room's lock); worker: the search process")


if __name__ == "__main__":
    main()
