"""The ``cardtable arena`` command: tournaments between agents, shown as tables.

It runs them through :mod:`cardtable.arena` (seeded, on any backend) and draws the results
with :func:`arena_table` and :func:`head_to_head_table`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..arena import (
    ArenaError,
    ArenaInterrupted,
    ArenaResult,
    ProgressFn,
    Schedule,
    check_output_paths,
    check_settings,
    format_seconds,
    interrupt_once,
    run_arena,
)
from ..text.render import plural_s
from ..variants import Options
from .checks import number_in
from .errors import fail
from .rules import RuleOptions, parse_option, resolve_variant

__all__ = ["arena_command", "arena_progress", "arena_table", "head_to_head_table"]


def arena_table(result: ArenaResult) -> Table:
    """The arena's results as a Rich table, best win rate first.

    Columns: agent, games (seats, when an agent fills several seats of a game), win rate
    with its 95% Wilson interval, mean final score ± its standard error, openskill rating
    μ ± σ, and time per decision (mean / 95th percentile, in µs, ms or s). Failures get a
    column when there are any. An agent without finished games says "no games" instead of
    figures it does not have.
    """
    seats_differ = any(s.seats != s.games for s in result.stats)
    table = Table(
        title=f"{result.variant}: {result.players} players, {result.games} games",
        title_style="bold",
        caption=(
            f"seed {result.seed} · seating period {result.period} · "
            f"{format_seconds(result.elapsed)}, "
            f"{result.workers} {result.backend} worker{plural_s(result.workers)} · "
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
    table.add_column("time/move\nmean / p95", justify="right", no_wrap=True)
    if result.failures:
        table.add_column("failures", justify="right", style="red")
    for st in sorted(result.stats, key=lambda x: (x.seats == 0, -x.win_rate, -x.ordinal)):
        played = st.seats > 0
        times = (
            f"{format_seconds(st.time_mean)} / {format_seconds(st.time_p95)}"
            if st.decisions
            else "–"
        )
        row = [
            st.label,
            str(st.seats if seats_differ else st.games),
            f"{st.win_rate:.3f} [{st.ci_low:.3f}, {st.ci_high:.3f}]" if played else "no games",
            f"{st.mean_score:.1f} ± {st.score_se:.1f}" if played else "–",
            f"{st.mu:.1f} ± {st.sigma:.1f}" if played else "–",
            times,
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


def arena_progress(console: Console, get_time: Callable[[], float] | None = None) -> Progress:
    """The run's progress bar: games done of all, time spent and left, and a spinner that
    turns (ten frames a second) while a game is being played, however long an agent thinks
    over one move, so a slow run never looks frozen. ``get_time``: the clock (tests)."""
    return Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        get_time=get_time,
    )


# The command's arguments and options (each used once, by :func:`arena_command`).
_GameArg = Annotated[
    str,
    typer.Argument(metavar="GAME", help="the game to play ('cardtable variants' lists them)"),
]
_AgentsOpt = Annotated[
    str,
    typer.Option(
        "--agents",
        "-a",
        metavar="NAMES",
        help="comma-separated agent names or levels, e.g. expert,heuristic (repeat a name "
        "to play an agent against itself)",
    ),
]
_GamesOpt = Annotated[
    int, typer.Option("--games", "-n", metavar="N", help="games to play (1 or more)")
]
_PlayersOpt = Annotated[
    int | None,
    typer.Option(
        "--players",
        "-p",
        metavar="N",
        help="seats per game (default: one per agent if the game allows, else the game's)",
    ),
]
_SeedOpt = Annotated[
    int,
    typer.Option(
        "--seed",
        "-s",
        metavar="N",
        help="seed of the whole run (0 or more)",
        callback=number_in(0, 2**63 - 1),
    ),
]
_BackendOpt = Annotated[
    str,
    typer.Option("--backend", "-b", metavar="NAME", help="process (default), ray or serial"),
]
_WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        metavar="N",
        help="worker processes or Ray CPUs (default: all CPUs)",
    ),
]
_AddressOpt = Annotated[
    str | None,
    typer.Option("--address", metavar="HOST:PORT", help="address of a running Ray cluster"),
]
_JsonOpt = Annotated[
    Path | None,
    typer.Option("--json", metavar="PATH", help="write every result and game as JSON"),
]
_CsvOpt = Annotated[
    Path | None,
    typer.Option("--csv", metavar="PATH", help="write one row per agent as CSV"),
]
_ChartOpt = Annotated[
    Path | None,
    typer.Option(
        "--chart",
        metavar="PATH",
        help="draw the win rates as a chart: PATH ends in .png, .svg or .pdf",
    ),
]
_DuplicateOpt = Annotated[
    bool,
    typer.Option(
        "--duplicate/--no-duplicate",
        metavar="",
        help="replay each deal once per seat rotation (less luck in the comparison)",
    ),
]


def arena_command(
    variant: _GameArg,
    agent_list: _AgentsOpt,
    games: _GamesOpt = 200,
    players: _PlayersOpt = None,
    seed: _SeedOpt = 0,
    backend: _BackendOpt = "process",
    workers: _WorkersOpt = None,
    address: _AddressOpt = None,
    json_path: _JsonOpt = None,
    csv_path: _CsvOpt = None,
    chart_path: _ChartOpt = None,
    option: RuleOptions = None,
    duplicate: _DuplicateOpt = True,
) -> None:
    """Play agents against each other over many seeded games and compare them.

    Seats rotate so that every agent sits in every seat equally often; the same seed gives the
    same games and the same numbers on any backend. Exit code 1 if an agent broke a game, 2
    for settings or output paths that cannot work (checked before the first game), 130 after
    Ctrl-C (the results of the games that finished are shown).
    """
    names = [n.strip() for n in agent_list.split(",") if n.strip()]
    if not names:
        fail("--agents needs at least one agent name, e.g. --agents heuristic,random")
    options: Options = {}
    try:
        name = resolve_variant(variant)  # any case; a typo gets a suggestion
        for text in option or []:
            key, value = parse_option(text, name)
            options[key] = value
        name, seats, options = check_settings(
            name, names, games, players, seed, backend, workers, options
        )
        check_output_paths(json_path, csv_path, chart_path)
    except ValueError as err:  # ArenaError is a ValueError
        fail(str(err))
    console = Console()
    err_console = Console(stderr=True)
    _warn_unbalanced(err_console, games, Schedule(len(names), seats).period)

    def run(progress: ProgressFn) -> ArenaResult:
        return run_arena(
            name,
            names,
            games,
            players=seats,
            seed=seed,
            backend=backend,
            workers=workers,
            address=address,
            options=options,
            progress=progress,
            duplicate=duplicate,
        )

    result = _run_shown(console, err_console, f"{name} · {' vs '.join(names)}", games, run)
    _print_results(console, err_console, result)
    _write_files(console, result, json_path, csv_path, chart_path)
    if result.failures:
        _report_failures(err_console, result)
        raise typer.Exit(code=1)


def _warn_unbalanced(err_console: Console, games: int, period: int) -> None:
    """Warn when ``games`` is fewer than one seating ``period``."""
    if games < period:
        err_console.print(
            Text(
                f"warning: {games} game{plural_s(games)} is fewer than one seating period "
                f"({period} games, every agent in every seat): the seats are not balanced "
                "and some agents may play no games",
                style="yellow",
            )
        )


def _run_shown(
    console: Console,
    err_console: Console,
    title: str,
    games: int,
    run: Callable[[ProgressFn], ArenaResult],
) -> ArenaResult:
    """Run the arena (``run``, given the progress callback) under a progress bar titled
    ``title``. The first Ctrl-C stops it and shows the results of the games that finished
    (later ones are ignored); it exits 130. An :class:`ArenaError` exits 2."""
    with interrupt_once(keep_ignoring=True):
        try:
            with arena_progress(console) as bar:
                task = bar.add_task(title, total=games)

                def advance(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                return run(advance)
        except ArenaError as err:
            fail(str(err))
        except ArenaInterrupted as stop:
            console.print(
                f"\nInterrupted after {stop.result.games} of {stop.planned} games; "
                "the statistics below cover those games (no files written)."
            )
            _print_results(console, err_console, stop.result)
            raise typer.Exit(code=130) from None
        except KeyboardInterrupt:
            console.print("\nInterrupted.")
            raise typer.Exit(code=130) from None


def _write_files(
    console: Console,
    result: ArenaResult,
    json_path: Path | None,
    csv_path: Path | None,
    chart_path: Path | None,
) -> None:
    """Write the JSON, CSV and chart files asked for, saying each; a failure exits 2."""
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
        fail(str(err))


def _report_failures(err_console: Console, result: ArenaResult) -> None:
    """Print the first ten failed games (and how many more) and the error line."""
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
            f"error: {len(result.failures)} game{plural_s(len(result.failures))} stopped "
            "because an agent failed; they are left out of the statistics",
            style="bold red",
        )
    )


def _print_results(console: Console, err_console: Console, result: ArenaResult) -> None:
    """Print the results table, the head-to-head table, and a warning naming every agent
    that finished no game."""
    console.print(arena_table(result))
    pairs = head_to_head_table(result)
    if pairs is not None:
        console.print(pairs)
    idle = [st.label for st in result.stats if st.seats == 0]
    if idle:
        err_console.print(
            Text(
                f"warning: no games finished for {', '.join(idle)}: "
                f"{'it has' if len(idle) == 1 else 'they have'} no statistics "
                "(play more games, at least one seating period)",
                style="yellow",
            )
        )
