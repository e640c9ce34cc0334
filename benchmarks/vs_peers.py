"""Qute and kaboo against their peers: 2-player rounds and actions per second under uniform
random play.

Five contenders are measured in the same run, interleaved (run 1 of each, then run 2 of each,
…) so that a noisy shared machine slows them alike; each figure is the median of the runs:

* **qute, public API** — ``new_game("qute", players=2, seed=s, options={"target": None})``
  for every round, then ``legal_actions`` + ``play(seat, str(action))`` until ``over``.
* **kaboo, public API** — the same loop as qute's public API with ``new_game("kaboo", …)``:
  what the server, the arena and the terminal pay per action in the Cabo family.
* **qute, fast path** — ``clone()`` of a freshly dealt game (200 deals made before the clock
  starts, used in turn), then ``legal_actions`` + ``apply`` until ``over``.
* **OpenSpiel crazy_eights** — the C++ game ``pyspiel.load_game("crazy_eights",
  {"players": 2})`` (default parameters) driven from a Python loop: ``new_initial_state``,
  chance nodes sampled from ``chance_outcomes()``, otherwise a uniformly random choice from
  ``legal_actions()``, until ``is_terminal()``. Actions counted are the players' only.
* **RLCard uno** — ``rlcard.make("uno", config={"seed": s})`` with two ``RandomAgent`` and
  ``env.run(is_training=False)`` per game. Actions are ``len(env.action_recorder)``.

The Python-driven loops (qute, kaboo and crazy_eights) draw from the same ``random.Random``.
The table ends with the goals, every ratio measured in this run (printed, never asserted):
qute's public API against crazy_eights (rounds/s, goal ≥ 1.2×) and uno (rounds/s, goal ≥ 5×),
kaboo's public API against crazy_eights (actions/s, goal ≥ 0.5×), and the fast paths beside
them for reference.

The peers are never dependencies of cardtable. If ``pyspiel`` or ``rlcard`` cannot be imported,
this script creates ``.bench-venv/`` in the repository root, installs
``benchmarks/requirements.txt`` and the project itself (``pip install -e .``) into it with pip,
and runs itself again with that virtualenv's Python. Run:

    .venv/bin/python benchmarks/vs_peers.py [--seconds 5] [--runs 5] [--skip-peers]
                                    [--only qute-api,qute-fast,kaboo-api,crazy_eights,uno]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
"""The repository root (``pip install -e`` target, home of ``.bench-venv/``)."""
REQUIREMENTS = ROOT / "benchmarks" / "requirements.txt"
BENCH_VENV = ROOT / ".bench-venv"
STAMP = BENCH_VENV / ".installed"
"""Hash of the requirements and pyproject.toml the bench venv was last installed from."""
REEXEC_MARK = "CARDTABLE_VS_PEERS_REEXEC"
"""Set in the environment when the script re-executes itself, so it never loops."""

PLAYERS = 2
FAST_DEALS = 200

Measure = Callable[[float, int], tuple[int, int, float]]
"""``fn(seconds, seed)`` → (rounds, actions, elapsed seconds); at least one round."""


@dataclass(frozen=True)
class Contender:
    """One line of the table: a name for ``--only``, a label and a measuring function."""

    key: str
    label: str
    measure: Measure
    peer: bool


# --------------------------------------------------------------------------- cardtable qute


def qute_available() -> str | None:
    """``None`` if cardtable registers ``qute``, else a message saying why it cannot run."""
    try:
        import cardtable
    except ImportError as exc:  # pragma: no cover - the project is always installed here
        return f"cardtable cannot be imported ({exc})"
    names = cardtable.variants.names()
    if "qute" not in names:
        return f"'qute' is not registered yet (cardtable.variants.names() = {names})"
    try:  # one short round through each path: an engine under construction may still fail
        qute_public(0.0, 0)
        qute_fast(0.0, 0)
    except Exception as exc:
        return f"qute is registered but a round fails ({type(exc).__name__}: {exc})"
    return None


def qute_public(seconds: float, seed: int) -> tuple[int, int, float]:
    """Rounds through ``new_game`` + ``legal_actions`` + ``play(seat, str(action))``."""
    return public_api("qute", seconds, seed)


def kaboo_public(seconds: float, seed: int) -> tuple[int, int, float]:
    """Kaboo rounds through ``new_game`` + ``legal_actions`` + ``play(seat, str(action))``."""
    return public_api("kaboo", seconds, seed)


def public_api(variant: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Rounds of ``variant`` through the public API (see the module docstring)."""
    from cardtable import new_game

    rng = random.Random(seed)
    choice = rng.choice
    rounds = actions = 0
    base = seed * 1_000_000
    start = time.perf_counter()
    while True:  # at least one round
        g = new_game(variant, players=PLAYERS, seed=base + rounds, options={"target": None})
        while not g.over:
            actors = g.actors
            seat = actors[0] if len(actors) == 1 else choice(actors)
            g.play(seat, str(choice(g.legal_actions(seat))))
            actions += 1
        rounds += 1
        if time.perf_counter() - start >= seconds:
            return rounds, actions, time.perf_counter() - start


def qute_fast(seconds: float, seed: int) -> tuple[int, int, float]:
    """Rounds through ``clone`` of a dealt game + ``legal_actions`` + ``apply``."""
    from cardtable import new_game

    rng = random.Random(seed)
    choice = rng.choice
    base = seed * 1_000_000
    deals = [
        new_game("qute", players=PLAYERS, seed=base + s, options={"target": None})
        for s in range(FAST_DEALS)
    ]
    rounds = actions = 0
    start = time.perf_counter()
    while True:  # at least one round
        g = deals[rounds % FAST_DEALS].clone()
        while not g.over:
            actors = g.actors
            seat = actors[0] if len(actors) == 1 else choice(actors)
            g.apply(seat, choice(g.legal_actions(seat)))
            actions += 1
        rounds += 1
        if time.perf_counter() - start >= seconds:
            return rounds, actions, time.perf_counter() - start


# --------------------------------------------------------------------------- peers


def crazy_eights(seconds: float, seed: int) -> tuple[int, int, float]:
    """Rounds of OpenSpiel's C++ ``crazy_eights`` driven from a Python loop."""
    import pyspiel

    game: Any = pyspiel.load_game("crazy_eights", {"players": PLAYERS})
    rng = random.Random(seed)
    choice = rng.choice
    choices = rng.choices
    rounds = actions = 0
    start = time.perf_counter()
    while True:  # at least one round
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choices(outcomes, probs)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                actions += 1
        rounds += 1
        if time.perf_counter() - start >= seconds:
            return rounds, actions, time.perf_counter() - start


def uno(seconds: float, seed: int) -> tuple[int, int, float]:
    """Games of RLCard's ``uno`` between two ``RandomAgent`` via ``env.run``."""
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    np.random.seed(seed)  # RandomAgent draws from numpy's global generator
    env: Any = rlcard.make("uno", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions)] * PLAYERS)
    rounds = actions = 0
    start = time.perf_counter()
    while True:  # at least one round
        env.run(is_training=False)
        actions += len(env.action_recorder)
        rounds += 1
        if time.perf_counter() - start >= seconds:
            return rounds, actions, time.perf_counter() - start


CONTENDERS = (
    Contender("qute-api", "cardtable qute, public API", qute_public, peer=False),
    Contender("qute-fast", "cardtable qute, fast path", qute_fast, peer=False),
    Contender("kaboo-api", "cardtable kaboo, public API", kaboo_public, peer=False),
    Contender("crazy_eights", "OpenSpiel crazy_eights (C++)", crazy_eights, peer=True),
    Contender("uno", "RLCard uno, random agents", uno, peer=True),
)


# --------------------------------------------------------------------------- bench venv


def peers_importable() -> bool:
    """Whether ``pyspiel`` and ``rlcard`` can be imported by this interpreter."""
    try:
        import pyspiel  # noqa: F401
        import rlcard  # noqa: F401
    except ImportError:
        return False
    return True


def venv_python(directory: Path) -> Path:
    """The Python executable inside the virtualenv at ``directory``."""
    return directory / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def install_fingerprint() -> str:
    """Hash of what the bench venv is installed from; a change triggers a new install."""
    digest = hashlib.sha256()
    for path in (REQUIREMENTS, ROOT / "pyproject.toml"):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def prepare_bench_venv() -> Path:
    """Create ``.bench-venv/`` if needed, install the peers and the project; its Python.

    Everything comes from the package index through pip; nothing else is downloaded.
    Raises ``subprocess.CalledProcessError`` if pip fails.
    """
    python = venv_python(BENCH_VENV)
    if not python.exists():
        print(f"creating {BENCH_VENV} …", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(BENCH_VENV)
    fingerprint = install_fingerprint()
    if not STAMP.exists() or STAMP.read_text().strip() != fingerprint:
        print(f"installing {REQUIREMENTS.relative_to(ROOT)} and -e {ROOT} …", flush=True)
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, "-r", str(REQUIREMENTS), "-e", str(ROOT)], check=True)
        STAMP.write_text(fingerprint + "\n")
    return python


def reexec_in_bench_venv() -> str:
    """Re-run this script inside ``.bench-venv/``; returns only with a reason on failure."""
    if os.environ.get(REEXEC_MARK):
        return f"pyspiel or rlcard still cannot be imported by {sys.executable}"
    try:
        python = prepare_bench_venv()
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"could not set up {BENCH_VENV}: {exc}"
    print(f"re-running with {python}", flush=True)
    sys.stdout.flush()
    env = {**os.environ, REEXEC_MARK: "1"}
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]], env)
    return "unreachable"  # pragma: no cover - execve does not return


# --------------------------------------------------------------------------- report


def median_figures(
    contenders: list[Contender], runs: int, seconds: float
) -> dict[str, tuple[float, float, float]]:
    """Median rounds/s and actions/s, and mean actions/round, of each contender.

    The runs are interleaved (run 1 of every contender, then run 2, …) after one short
    warm-up run each, so that slow phases of a shared machine hit all contenders alike.
    """
    per_run = seconds / runs
    samples: dict[str, list[tuple[int, int, float]]] = {c.key: [] for c in contenders}
    for c in contenders:  # warm-up: imports, caches, first allocations
        c.measure(min(0.2, per_run / 4), 999)
    for run in range(runs):
        for c in contenders:
            samples[c.key].append(c.measure(per_run, run))
    figures: dict[str, tuple[float, float, float]] = {}
    for key, results in samples.items():
        rps = statistics.median(r / e for r, _, e in results)
        aps = statistics.median(a / e for _, a, e in results)
        apr = sum(a for _, a, _ in results) / sum(r for r, _, _ in results)
        figures[key] = (rps, aps, apr)
    return figures


def version(dist: str) -> str:
    """Installed version of a distribution, or ``-``."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "-"


def print_table(
    contenders: list[Contender], figures: dict[str, tuple[float, float, float]]
) -> None:
    """Print the figures and, when both sides were measured, the qute/peer ratios."""
    header = f"{'contender':<30} {'rounds/s':>10} {'actions/s':>11} {'actions/round':>14}"
    print(header)
    print("-" * len(header))
    for c in contenders:
        rps, aps, apr = figures[c.key]
        print(f"{c.label:<30} {rps:>10,.0f} {aps:>11,.0f} {apr:>14.1f}")
    keys = {c.key for c in contenders}
    goals = [
        ("qute-api", "crazy_eights", 0, "rounds/s", 1.2),
        ("qute-api", "uno", 0, "rounds/s", 5.0),
        ("kaboo-api", "crazy_eights", 1, "actions/s", 0.5),
        ("qute-fast", "crazy_eights", 0, "rounds/s", None),
        ("qute-fast", "uno", 0, "rounds/s", None),
    ]
    rows = [g for g in goals if g[0] in keys and g[1] in keys]
    if not rows:
        return
    print()
    header = f"{'ratio, same run':<44} {'measured':>9} {'goal':>7}  met"
    print(header)
    print("-" * len(header))
    for ours, peer, col, unit, goal in rows:
        ratio = figures[ours][col] / figures[peer][col]
        label = f"{ours} / {peer} ({unit})"
        if goal is None:
            print(f"{label:<44} {ratio:>8.2f}× {'-':>7}")
        else:
            met = "yes" if ratio >= goal else "no"
            print(f"{label:<44} {ratio:>8.2f}× {f'≥ {goal:g}×':>7}  {met}")


def main() -> None:
    """Parse options, make sure the peers are importable, measure and print."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="time per figure, split over the runs"
    )
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure (median)")
    parser.add_argument(
        "--skip-peers", action="store_true", help="measure qute only (no OpenSpiel, no RLCard)"
    )
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated subset of: " + ",".join(c.key for c in CONTENDERS),
    )
    args = parser.parse_args()
    if args.seconds <= 0 or args.runs < 1:
        parser.error("--seconds must be > 0 and --runs ≥ 1")

    chosen = list(CONTENDERS)
    if args.only:
        wanted = [k.strip() for k in args.only.split(",") if k.strip()]
        unknown = sorted(set(wanted) - {c.key for c in CONTENDERS})
        if unknown:
            parser.error(f"--only: unknown {', '.join(unknown)}")
        chosen = [c for c in chosen if c.key in wanted]
    if args.skip_peers:
        chosen = [c for c in chosen if not c.peer]

    if any(c.peer for c in chosen) and not peers_importable():
        failure = reexec_in_bench_venv()
        print(f"NOTE: peers skipped — {failure}", flush=True)
        chosen = [c for c in chosen if not c.peer]

    if any(not c.peer for c in chosen):
        reason = qute_available()
        if reason is not None:
            print(f"NOTE: qute skipped — {reason}; measuring the rest.", flush=True)
            chosen = [c for c in chosen if c.peer]
    if not chosen:
        print("nothing to measure")
        return

    dists = ["cardtable"] + (
        ["open_spiel", "rlcard", "numpy"] if any(c.peer for c in chosen) else []
    )
    print(
        f"uniform random play, {PLAYERS} players, Python {platform.python_version()}, "
        + ", ".join(f"{d} {version(d)}" for d in dists)
    )
    print(f"median of {args.runs} interleaved runs of {args.seconds / args.runs:.2f} s per figure")
    print()
    print_table(chosen, median_figures(chosen, args.runs, args.seconds))


if __name__ == "__main__":
    main()
