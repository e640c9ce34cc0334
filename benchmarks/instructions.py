"""Engine cost in machine instructions per round, a figure the machine's load does not move.

Timings on a shared machine swing by tens of percent between two runs of the same code, too
much to see a change of a few percent. This script counts instead what a round costs in
instructions, with Valgrind's callgrind (Debian's ``valgrind`` package), for the two paths
``benchmarks/engine.py`` times:

* **checked** — what a front end does: ``new_game`` for every round, then ``legal_actions`` +
  ``play(seat, text)`` until the end (parsing, validation, events, log);
* **fast** — what searches do: ``clone()`` of a dealt state, then ``legal_actions`` + ``apply``.

Each figure is the difference between two runs (``--rounds`` and ten times as many), divided
by the rounds between them, so Python's start-up and the imports cancel out. Give ``--src``
another checkout's ``src`` to count that code with this same script (a before/after
comparison in one run)::

    python benchmarks/instructions.py --variants kaboo,gabo,qute
    python benchmarks/instructions.py --src ../before/src --variants kaboo
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_DRIVER = """
import sys
from cardtable import new_game
from cardtable.rng import Rng

name, path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
if path == "checked":
    rng = Rng(12345)
    for r in range(rounds):
        g = new_game(name, players=2, seed=r, options={"target": None})
        while not g.over:
            actors = g.actors
            seat = actors[rng.below(len(actors))]
            g.play(seat, str(rng.pick(g.legal_actions(seat))))
else:
    rng = Rng(54321)
    starts = [new_game(name, players=2, seed=s, options={"target": None}) for s in range(50)]
    rnd = rng.random
    for r in range(rounds):
        g = starts[r % 50].clone()
        while not g.over:
            actors = g.actors
            seat = actors[0] if len(actors) == 1 else actors[int(rnd() * len(actors))]
            legal = g.legal_actions(seat)
            g.apply(seat, legal[int(rnd() * len(legal))])
"""

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def instructions(src: Path, driver: Path, variant: str, path: str, rounds: int) -> int:
    """Instructions callgrind counts for ``rounds`` rounds of ``variant`` on ``path``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            str(driver),
            variant,
            path,
            str(rounds),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = _COLLECTED.search(out.stderr)
    if found is None:
        raise RuntimeError("callgrind printed no instruction count:\n" + out.stderr[-2000:])
    return int(found.group(1))


def per_round(src: Path, driver: Path, variant: str, path: str, rounds: int) -> int:
    """Instructions per round: the difference of ``rounds`` and ``10 * rounds`` rounds."""
    few = instructions(src, driver, variant, path, rounds)
    many = instructions(src, driver, variant, path, 10 * rounds)
    return (many - few) // (9 * rounds)


def main() -> None:
    """Print instructions per round for each variant and path."""
    here = Path(__file__).resolve().parent.parent / "src"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=here, help="the src folder to measure")
    parser.add_argument("--variants", default="kaboo,gabo,qute")
    parser.add_argument("--paths", default="checked,fast")
    parser.add_argument("--rounds", type=int, default=50, help="rounds of the shorter run")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        driver = Path(tmp) / "driver.py"
        driver.write_text(_DRIVER, encoding="utf-8")
        print(f"instructions per round, code in {args.src}")
        for variant in args.variants.split(","):
            for path in args.paths.split(","):
                count = per_round(args.src.resolve(), driver, variant, path, args.rounds)
                print(f"{variant:<12} {path:<8} {count:>12,}")


if __name__ == "__main__":
    main()
