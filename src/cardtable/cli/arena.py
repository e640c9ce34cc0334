"""The ``cardtable arena`` command: tournaments between agents, shown as tables.

It runs them through :mod:`cardtable.arena` (seeded, on any backend) and draws the results
with :func:`arena_table` and :func:`head_to_head_table`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from .. import variants
from ..arena import ArenaError, ArenaResult, check_settings, run_arena
from .render import _fail, _s
from .rules import parse_option

__all__ = ["arena_command", "arena_table", "head_to_head_table"]


def arena_table(result: ArenaResult) -> Table:
    """The arena's results as a Rich table, best win rate first.

    Columns: agent, games (seats, when an agent fills several seats of a game), win rate
    with its 95% Wilson interval, mean final score ± its standard error, openskill rating
    μ ± σ, and milliseconds per decision (mean / 95th percentile). Failures get a column when
    there are any.
    """
    seats_differ = any(s.seats != s.games for s in result.stats)
    table = Table(
        title=f"{result.variant}: {result.players} players, {result.games} games",
        title_style="bold",
        caption=(
            f"seed {result.seed} · seating period {result.period} · {result.elapsed:.1f} s, "
            f"{result.workers} {result.backend} worker{_s(result.workers)} · "
            f"equal agents win {1 / result.players:.3f}"
        ),
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("agent", style="bold", no_wrap=True)
    table.add_column("seats" if seats_differ else "games", justify="right", no_wrap=True)
    table.add_column("win rate\n[95% CI]", justify="right", no_wrap=True)
    table.add_column("mean score\n± s.e.", justify="right", no_wrap=True)
    table.add_column("rating\nμ ± σ", justify="right", no_wrap=True)
    table.add_column("ms/move\nmean / p95", justify="right", no_wrap=True)
    if result.failures:
        table.add_column("failures", justify="right", style="red")
    for st in sorted(result.stats, key=lambda x: (-x.win_rate, -x.ordinal)):
        row = [
            st.label,
            str(st.seats if seats_differ else st.games),
            f"{st.win_rate:.3f} [{st.ci_low:.3f}, {st.ci_high:.3f}]",
            f"{st.mean_score:.1f} ± {st.score_se:.1f}",
            f"{st.mu:.1f} ± {st.sigma:.1f}",
            f"{st.time_mean * 1000:.3g} / {st.time_p95 * 1000:.3g}",
        ]
        if result.failures:
            row.append(str(st.failures))
        table.add_row(*row)
    return table


def head_to_head_table(result: ArenaResult) -> Table | None:
    """How often the row's agent finished ahead of the column's (``None`` for two entrants)."""
    h2h = result.head_to_head
    if h2h is None:
        return None
    table = Table(title="Head to head: row finished ahead of column", title_style="bold")
    table.add_column("", style="bold", no_wrap=True)
    for label in result.labels:
        table.add_column(label, justify="right")
    for a, label in enumerate(result.labels):
        cells = []
        for b in range(len(result.labels)):
            rate = h2h.rate(a, b)
            cells.append("–" if rate is None else f"{rate:.3f}")
        table.add_row(label, *cells)
    return table


def arena_command(
    variant: Annotated[
        str, typer.Argument(help="the game to play ('cardtable variants' lists them)")
    ],
    agent_list: Annotated[
        str,
        typer.Option(
            "--agents",
            "-a",
            help="comma-separated agent names or levels, e.g. expert,heuristic (repeat a name "
            "to play an agent against itself)",
        ),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="games to play")] = 200,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            help="seats per game (default: one per agent if the game allows, else the game's)",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="seed of the whole run")] = 0,
    backend: Annotated[
        str, typer.Option("--backend", "-b", help="process (default), ray or serial")
    ] = "process",
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", help="worker processes or Ray CPUs (default: all CPUs)"),
    ] = None,
    address: Annotated[
        str | None, typer.Option("--address", help="address of a running Ray cluster")
    ] = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="write every result and game as JSON")
    ] = None,
    csv_path: Annotated[
        Path | None, typer.Option("--csv", help="write one row per agent as CSV")
    ] = None,
    chart_path: Annotated[
        Path | None, typer.Option("--chart", help="draw the win rates as a PNG chart")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="any rule option as NAME=VALUE (repeatable)"),
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate/--no-duplicate",
            help="replay each deal once per seat rotation (less luck in the comparison)",
        ),
    ] = True,
) -> None:
    """Play agents against each other over many seeded games and compare them.

    Seats rotate so that every agent sits in every seat equally often; the same seed gives the
    same games and the same numbers on any backend. Exit code 1 if an agent broke a game.
    """
    names = [n.strip() for n in agent_list.split(",") if n.strip()]
    if not names:
        _fail("--agents needs at least one agent name, e.g. --agents heuristic,random")
    options: dict[str, Any] = {}
    try:
        name = variants.get(variant).name
        for text in option or []:
            key, value = parse_option(text, name)
            options[key] = value
        name, seats, options = check_settings(
            name, names, games, players, seed, backend, workers, options
        )
    except ValueError as err:  # ArenaError is a ValueError
        _fail(str(err))
    console = Console()
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console) as bar:
            task = bar.add_task(f"{name} · {' vs '.join(names)}", total=games)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = run_arena(
                name,
                names,
                games,
                players=seats,
                seed=seed,
                backend=backend,
                workers=workers,
                address=address,
                options=options,
                progress=advance,
                duplicate=duplicate,
            )
    except ArenaError as err:
        _fail(str(err))
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        raise typer.Exit(code=130) from None
    console.print(arena_table(result))
    pairs = head_to_head_table(result)
    if pairs is not None:
        console.print(pairs)
    try:
        for path, write in (
            (json_path, result.to_json),
            (csv_path, result.to_csv),
            (chart_path, result.chart),
        ):
            if path is not None:
                write(path)
                console.print(f"wrote {path}")
    except (OSError, ArenaError) as err:
        _fail(str(err))
    if result.failures:
        err_console = Console(stderr=True)
        for failure in result.failures[:10]:
            info = failure.to_dict(result.labels)
            who = info["agent"] or "no agent"
            did = f" playing {info['action']!r}" if info["action"] else ""
            err_console.print(
                Text(f"game {info['game']}: {who} (seat {info['seat']}){did}: {info['error']}")
            )
        more = len(result.failures) - 10
        if more > 0:
            err_console.print(f"… and {more} more")
        err_console.print(
            Text(
                f"error: {len(result.failures)} game{_s(len(result.failures))} stopped "
                "because an agent failed; they are left out of the statistics",
                style="bold red",
            )
        )
        raise typer.Exit(code=1)
