"""The batched Cabo-family engine: actions per second against the reference engine and peers.

Three kinds of figures are measured in one run, all under uniformly random play at 2 players:

* **batched** — :class:`cardtable.batch.FamilyBatch` for each family variant (``cabo``,
  ``cabo-german``, ``gabo``, ``kaboo``), at each batch size (default 1, 16, 256, 1024, 4096,
  16384), once with ``reseed=True`` (each new game seeded as ``new_game`` seeds it) and once
  with ``reseed=False`` (a slot's next game continues its generator). Every timed step is
  ``eng.step(random_actions(eng.legal_mask(), rng))`` and plays one action in every game
  (finished games restart inside ``step``), so actions = steps × batch size. The engine is
  built and one warm-up step played before the clock starts.
* **reference fast path** — per game ``new_game(variant, players=2, seed=s)``, then
  ``p = g.actors[0]; g.apply(p, rng.choice(g.legal_actions(p)))`` until ``g.over``, with a
  ``random.Random``; the deal is inside the timing, as restarts are for the batch.
* **OpenSpiel crazy_eights** — the C++ game driven from a Python loop, players' actions only,
  exactly as ``benchmarks/vs_peers.py`` measures it (its ``crazy_eights`` is imported).

Each figure is one timed stretch of ``--seconds`` (rounded up to the end of the step or game
in progress). The run ends with the issue's goals, every ratio taken from this run and printed
as met or not met (never asserted): batched kaboo ≥ 2,000,000 actions/s and ≥ 5× crazy_eights,
and every family variant's best batched figure ≥ 1,000,000 actions/s.

If ``pyspiel`` cannot be imported, the script sets up ``.bench-venv/`` the way
``benchmarks/vs_peers.py`` does and runs itself again there (``--skip-peers`` avoids that).
Run:

    .venv/bin/python benchmarks/batch.py [--seconds 2] [--sizes 1,16,256,1024,4096,16384]
                                         [--variants cabo,cabo-german,gabo,kaboo] [--skip-peers]
                                         [--decisions 30] [--samples 200] [--only-search]

Last, the expert's search before and after: rollouts per second, simulated actions per second
and seconds per decision of the reference search and of the batched one, on the same
decisions of heuristic-played games (``--decisions`` per variant, ``--samples`` deals each;
``--only-search`` measures that alone).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # as when run as a script
from vs_peers import crazy_eights, prepare_bench_venv

PLAYERS = 2
VARIANTS = ("cabo", "cabo-german", "gabo", "kaboo")
SIZES = (1, 16, 256, 1024, 4096, 16384)
MODES = (True, False)
"""The ``reseed`` settings measured, in table order."""
REEXEC_MARK = "CARDTABLE_BATCH_BENCH_REEXEC"
"""Set in the environment when the script re-executes itself, so it never loops."""

GOAL_KABOO = 2_000_000.0
"""Batched kaboo, actions per second."""
GOAL_KABOO_VS_C8 = 5.0
"""Batched kaboo against OpenSpiel's crazy_eights, ratio of actions per second."""
GOAL_VARIANT = 1_000_000.0
"""Every family variant's best batched figure, actions per second."""


# --------------------------------------------------------------------------- measures


def batched(variant: str, size: int, reseed: bool, seconds: float, seed: int) -> float:
    """Actions per second of ``FamilyBatch`` under ``random_actions`` (construction and one
    warm-up step are outside the timing)."""
    from cardtable.batch import FamilyBatch
    from cardtable.batch.agents import random_actions

    eng = FamilyBatch(variant, PLAYERS, size, seed=seed, reseed=reseed)
    rng = np.random.default_rng(seed)
    step, legal_mask = eng.step, eng.legal_mask
    step(random_actions(legal_mask(), rng))  # warm-up
    steps = 0
    clock = time.perf_counter
    start = clock()
    while True:  # at least one step
        step(random_actions(legal_mask(), rng))
        steps += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps * size / elapsed


def reference(variant: str, seconds: float, seed: int) -> float:
    """Actions per second of the reference engine's fast path (``new_game`` + ``apply``)."""
    from cardtable import new_game

    rng = random.Random(seed)
    choice = rng.choice
    base = seed * 1_000_000
    games = actions = 0
    clock = time.perf_counter
    start = clock()
    while True:  # at least one game
        g = new_game(variant, players=PLAYERS, seed=base + games)
        while not g.over:
            p = g.actors[0]
            g.apply(p, choice(g.legal_actions(p)))
            actions += 1
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return actions / elapsed


def peer(seconds: float, seed: int) -> float:
    """Actions per second of OpenSpiel's C++ crazy_eights (``vs_peers.crazy_eights``)."""
    crazy_eights(min(0.2, seconds / 4), 999)  # warm-up: import, first allocations
    _, actions, elapsed = crazy_eights(seconds, seed)
    return actions / elapsed


# --------------------------------------------------------------------------- bench venv


def pyspiel_importable() -> bool:
    """Whether ``pyspiel`` can be imported by this interpreter."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def reexec_in_bench_venv() -> str:
    """Re-run this script inside ``.bench-venv/``; returns only with a reason on failure."""
    if os.environ.get(REEXEC_MARK):
        return f"pyspiel still cannot be imported by {sys.executable}"
    try:
        python = prepare_bench_venv()
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"could not set up the bench venv: {exc}"
    print(f"re-running with {python}", flush=True)
    env = {**os.environ, REEXEC_MARK: "1"}
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]], env)
    return "unreachable"  # pragma: no cover - execve does not return


# --------------------------------------------------------------------------- report


def machine_info() -> str:
    """One line: CPUs, platform, Python and the versions that matter here."""
    from importlib.metadata import PackageNotFoundError, version

    def ver(dist: str) -> str:
        """Installed version of ``dist``, or ``-``."""
        try:
            return version(dist)
        except PackageNotFoundError:
            return "-"

    return (
        f"{os.cpu_count()} CPUs, {platform.machine()} {platform.system()}, "
        f"Python {platform.python_version()}, NumPy {np.__version__}, "
        f"cardtable {ver('cardtable')}, open_spiel {ver('open_spiel')}"
    )


def fmt(rate: float) -> str:
    """Actions per second with thousands separators."""
    return f"{rate:,.0f}"


def verdict(ok: bool) -> str:
    """``met`` or ``NOT met``."""
    return "met" if ok else "NOT met"


def measure_batched(
    variants: list[str], sizes: list[int], seconds: float
) -> dict[tuple[str, bool], dict[int, float]]:
    """Measure and print the batched table row by row; ``{(variant, reseed): {size: rate}}``."""
    label_w = 24
    header = f"{'batched engine':<{label_w}}" + "".join(f"{f'N={n}':>12}" for n in sizes)
    print(header)
    print("-" * len(header))
    rates: dict[tuple[str, bool], dict[int, float]] = {}
    for variant in variants:
        for reseed in MODES:
            label = f"{variant}, reseed={reseed}"
            print(f"{label:<{label_w}}", end="", flush=True)
            row: dict[int, float] = {}
            for n in sizes:
                row[n] = batched(variant, n, reseed, seconds, seed=0)
                print(f"{fmt(row[n]):>12}", end="", flush=True)
            print()
            rates[(variant, reseed)] = row
    return rates


def measure_reference(variants: list[str], seconds: float) -> dict[str, float]:
    """Measure and print the reference fast path of each variant; ``{variant: rate}``."""
    header = f"{'one game at a time':<34}{'actions/s':>12}"
    print(header)
    print("-" * len(header))
    rates: dict[str, float] = {}
    for variant in variants:
        reference(variant, min(0.2, seconds / 4), 999)  # warm-up: imports, caches
        rates[variant] = reference(variant, seconds, 0)
        print(f"{f'{variant}, reference apply path':<34}{fmt(rates[variant]):>12}", flush=True)
    return rates


def best(row: dict[int, float]) -> tuple[int, float]:
    """The batch size with the highest rate in ``row``, and that rate."""
    n = max(row, key=lambda k: row[k])
    return n, row[n]


def print_goals(
    batch_rates: dict[tuple[str, bool], dict[int, float]],
    ref_rates: dict[str, float],
    c8: float | None,
) -> None:
    """Print the ratios of this run and the issue's goals as met or not met."""
    variants = list(dict.fromkeys(v for v, _ in batch_rates))
    w = 64
    header = f"{'same run':<{w}}{'measured':>14}  {'goal':>12}  verdict"
    print(header)
    print("-" * len(header))
    if "kaboo" in variants:
        for reseed in MODES:
            n, rate = best(batch_rates[("kaboo", reseed)])
            label = f"batched kaboo, reseed={reseed}, best N={n} (actions/s)"
            goal = f"≥ {fmt(GOAL_KABOO)}"
            print(f"{label:<{w}}{fmt(rate):>14}  {goal:>12}  {verdict(rate >= GOAL_KABOO)}")
        for reseed in MODES:
            n, rate = best(batch_rates[("kaboo", reseed)])
            label = f"batched kaboo, reseed={reseed}, N={n} / crazy_eights"
            goal = f"≥ {GOAL_KABOO_VS_C8:g}×"
            if c8 is None:
                print(f"{label:<{w}}{'-':>14}  {goal:>12}  not measured (no peers)")
            else:
                ratio = rate / c8
                ok = ratio >= GOAL_KABOO_VS_C8
                print(f"{label:<{w}}{f'{ratio:.2f}×':>14}  {goal:>12}  {verdict(ok)}")
    else:
        print("batched kaboo: not measured (--variants leaves it out)")
    every = True
    for variant in variants:
        n, rate, reseed = max(
            ((*best(batch_rates[(variant, r)]), r) for r in MODES), key=lambda t: t[1]
        )
        ok = rate >= GOAL_VARIANT
        every &= ok
        label = f"batched {variant}, best: reseed={reseed}, N={n} (actions/s)"
        goal = f"≥ {fmt(GOAL_VARIANT)}"
        print(f"{label:<{w}}{fmt(rate):>14}  {goal:>12}  {verdict(ok)}")
    missing = [v for v in VARIANTS if v not in variants]
    scope = "every family variant" if not missing else f"every measured variant ({len(variants)})"
    label = f"{scope} ≥ {fmt(GOAL_VARIANT)} actions/s"
    print(f"{label:<{w}}{'':>14}  {'':>12}  {verdict(every)}")
    print()
    header = f"{'for reference, same run':<{w}}{'measured':>14}"
    print(header)
    print("-" * len(header))
    for variant in variants:
        if variant in ref_rates:
            n, rate = best(batch_rates[(variant, True)])
            label = f"batched {variant}, reseed=True, N={n} / its apply path"
            print(f"{label:<{w}}{f'{rate / ref_rates[variant]:.2f}×':>14}")
    if c8 is not None:
        for variant in variants:
            if variant in ref_rates:
                label = f"{variant} apply path / crazy_eights"
                print(f"{label:<{w}}{f'{ref_rates[variant] / c8:.2f}×':>14}")


def search_speed(variant: str, decisions: int, samples: int, seed: int) -> None:
    """The expert's search before and after: rollouts and simulated actions per second and
    seconds per decision of the reference search (``RolloutAgent``) and of the same search
    with its rollouts in the batch (``BatchRolloutAgent``, what the levels now run), on the
    same decisions of heuristic-played 2-player games (the searching seat's, where it has a
    choice)."""
    from cardtable import new_game
    from cardtable.agents import get
    from cardtable.agents.batched import BatchRolloutAgent
    from cardtable.agents.search import RolloutAgent
    from cardtable.seat import Seat

    agents = {
        "reference search": RolloutAgent(seed, samples=samples),
        "batched search": BatchRolloutAgent(seed, samples=samples),
    }
    mover = get("heuristic", seed=seed)
    seconds = dict.fromkeys(agents, 0.0)
    rollouts = dict.fromkeys(agents, 0)
    actions = dict.fromkeys(agents, 0)
    done = 0
    game_seed = seed
    while done < decisions:
        game = new_game(variant, players=2, seed=game_seed, options={"target": None})
        game_seed += 1
        while not game.over and done < decisions:
            p = game.actors[0]
            seat = Seat(game, p)
            if len(game.legal_actions(p)) > 1:
                for name, agent in agents.items():
                    start = time.perf_counter()
                    agent.act(seat)
                    seconds[name] += time.perf_counter() - start
                    rollouts[name] += agent.stats.iterations
                    actions[name] += agent.stats.actions
                done += 1
            game.play(p, mover.act(seat))
    for name in agents:
        label = f"{variant}, {name} ({samples} deals)"
        print(
            f"{label:<44}{fmt(rollouts[name] / seconds[name]):>12} rollouts/s"
            f"{fmt(actions[name] / seconds[name]):>14} actions/s"
            f"{seconds[name] / decisions:>9.3f} s/decision",
            flush=True,
        )


def parse_list(text: str) -> list[str]:
    """The non-empty, stripped items of a comma-separated option."""
    return [item.strip() for item in text.split(",") if item.strip()]


def main() -> None:
    """Parse options, make sure pyspiel is importable if wanted, measure and print."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="timed seconds per figure")
    parser.add_argument(
        "--sizes", default=",".join(map(str, SIZES)), help="comma-separated batch sizes"
    )
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help="comma-separated family variants"
    )
    parser.add_argument(
        "--skip-peers", action="store_true", help="do not measure OpenSpiel's crazy_eights"
    )
    parser.add_argument(
        "--decisions", type=int, default=30, help="decisions per variant for the search speed"
    )
    parser.add_argument("--samples", type=int, default=200, help="deals per search decision")
    parser.add_argument("--only-search", action="store_true", help="measure the search speed alone")
    args = parser.parse_args()
    if args.seconds <= 0:
        parser.error("--seconds must be > 0")
    try:
        sizes = [int(s) for s in parse_list(args.sizes)]
    except ValueError:
        parser.error("--sizes must be a comma-separated list of integers")
    if not sizes or min(sizes) < 1:
        parser.error("--sizes must name at least one size, each ≥ 1")
    variants = parse_list(args.variants)
    unknown = sorted(set(variants) - set(VARIANTS))
    if unknown or not variants:
        parser.error(f"--variants: choose from {', '.join(VARIANTS)} (unknown: {unknown})")
    variants = list(dict.fromkeys(variants))

    peers = not args.skip_peers
    if peers and not pyspiel_importable():
        failure = reexec_in_bench_venv()
        print(f"NOTE: crazy_eights skipped — {failure}", flush=True)
        peers = False

    if args.only_search:
        print(f"the expert's search, before and after; {machine_info()}")
        for variant in variants:
            search_speed(variant, args.decisions, args.samples, 1)
        return
    print(f"uniform random play, {PLAYERS} players; {machine_info()}")
    cells = len(variants) * len(MODES) * len(sizes) + len(variants) + peers
    print(f"{args.seconds:g} s per figure, {cells} figures; actions per second")
    print()
    batch_rates = measure_batched(variants, sizes, args.seconds)
    print()
    ref_rates = measure_reference(variants, args.seconds)
    c8: float | None = None
    if peers:
        c8 = peer(args.seconds, 0)
        print(f"{'OpenSpiel crazy_eights (C++)':<34}{fmt(c8):>12}", flush=True)
    print()
    print_goals(batch_rates, ref_rates, c8)
    print()
    print("the expert's search, before and after (same decisions; goal ≥ 50,000 rollouts/s)")
    for variant in variants:
        search_speed(variant, args.decisions, args.samples, 1)


if __name__ == "__main__":
    main()
