"""The ``cardtable ratings`` command: the AI levels' ratings per game type, shown, or
calibrated again from arena games among the levels (:mod:`cardtable.ratings`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import TaskID
from rich.table import Table

from .. import variants
from ..agents import names as agent_names
from ..ratings import CALIBRATED_LEVELS, Calibration, calibrate, load_calibrations
from ..ratings import write_calibrations as store
from .arena import arena_progress
from .errors import fail

__all__ = ["ratings_command", "ratings_table"]

_LEVELS = ",".join(CALIBRATED_LEVELS)


def ratings_table(found: dict[str, Calibration]) -> Table:
    """The levels' ratings as a Rich table: per game type, best first, each with its interval
    (``mu ± 2 sigma``), ``mu ± sigma`` and the games it rests on."""
    table = Table(
        title="AI levels' ratings (1500: a new player)",
        title_style="bold",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("game", style="bold", no_wrap=True)
    table.add_column("level", no_wrap=True)
    table.add_column("rating", justify="right", no_wrap=True)
    table.add_column("interval\n(95%)", justify="right", no_wrap=True)
    table.add_column("μ ± σ", justify="right", no_wrap=True)
    table.add_column("games", justify="right", no_wrap=True)
    for game in sorted(found):
        cal = found[game]
        ranked = sorted(cal.ratings.items(), key=lambda kv: -kv[1].mu)
        for k, (level, r) in enumerate(ranked):
            low, high = r.interval
            table.add_row(
                game if k == 0 else "",
                level,
                f"{r.points:,}",
                f"{low:,}–{high:,}",
                f"{r.mu:.2f} ± {r.sigma:.2f}",
                f"{cal.games:,}" if k == 0 else "",
            )
    return table


_Games = Annotated[
    list[str] | None,
    typer.Argument(metavar="[GAME]...", help="game types (default: every one)"),
]
_Calibrate = Annotated[
    bool,
    typer.Option(
        "--calibrate",
        help="play arena games among the levels and store their ratings again (needs the "
        "arena extra; master thinks a few seconds a move, so this takes long)",
    ),
]
_Count = Annotated[
    int, typer.Option("--games", "-n", metavar="N", help="arena games per game type")
]
_Levels = Annotated[
    str, typer.Option("--levels", metavar="NAMES", help="comma-separated levels to rate")
]
_Seed = Annotated[int, typer.Option("--seed", "-s", metavar="N", help="seed of the games")]
_Workers = Annotated[
    int | None,
    typer.Option("--workers", "-w", metavar="N", help="worker processes (default: all CPUs)"),
]
_Out = Annotated[
    Path | None,
    typer.Option(
        "--out", metavar="PATH", help="where to store them (default: the package's own file)"
    ),
]


def ratings_command(
    games: _Games = None,
    recalibrate: _Calibrate = False,
    count: _Count = 200,
    levels: _Levels = _LEVELS,
    seed: _Seed = 0,
    workers: _Workers = None,
    out: _Out = None,
) -> None:
    """Show the AI levels' ratings per game type, on the scale people are rated on; with
    --calibrate, play arena games among the levels and store their ratings again."""
    console = Console()
    chosen = list(games or variants.names())
    for game in chosen:
        if game not in variants.names():
            fail(f"no game called {game!r} ('cardtable variants' lists them)")
    if recalibrate:
        picked = [name.strip() for name in levels.split(",") if name.strip()]
        unknown = [name for name in picked if name not in agent_names()]
        if len(picked) < 2 or unknown:
            fail(f"--levels needs two known levels or more, got {levels!r}")
        if count < 1:
            fail("--games must be 1 or more")
        found: dict[str, Calibration] = {}
        with arena_progress(console) as bar:
            for game in chosen:
                task = bar.add_task(game, total=count)

                def advance(done: int, _total: int, task: TaskID = task) -> None:
                    bar.update(task, completed=done)

                found[game] = calibrate(
                    game, picked, count, seed=seed, workers=workers, progress=advance
                )
        where = store(found, out)
        console.print(f"stored in {where}")
        shown = load_calibrations(out)
    else:
        shown = load_calibrations(out)
    table = {game: shown[game] for game in chosen if game in shown}
    if not table:
        fail("no ratings stored for these games yet: run with --calibrate")
    console.print(ratings_table(table))
