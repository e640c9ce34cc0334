"""The ``cardtable stats`` command: the person's finished terminal games and their rating per
game type, beside the AI levels' calibrated ratings on the same scale
(:mod:`cardtable.tui.history`; no account, nothing leaves this machine)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from .. import variants
from ..catalog import decimal, say
from ..ratings import Rating
from ..tui.history import (
    RECENT,
    GameStats,
    History,
    game_stats,
    history_path,
    level_name,
    read_history,
    standing,
    stats_json,
)
from .errors import FAILURE, fail
from .rules import complete_variant, resolve_variant

__all__ = ["game_table", "stats_command"]


def _title(game: str) -> str:
    """A game type's title (its name, for one no longer registered)."""
    try:
        return variants.get(game).title
    except (KeyError, ValueError):
        return game


def _percent(rate: float) -> str:
    return say("stats.percent", value=decimal(100 * rate, 0))


def _ratings(stats: GameStats) -> Table:
    """The person's rating among the AI levels' ratings, best first."""
    table = Table(
        title=say("stats.ratings.title"),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("", no_wrap=True)
    table.add_column(say("stats.head.player"), no_wrap=True)
    table.add_column(say("stats.head.rating"), justify="right", no_wrap=True)
    table.add_column(say("stats.head.interval"), justify="right", no_wrap=True)
    rows: list[tuple[float, bool, str, Rating | None]] = [
        (r.mu, False, say("stats.ai", level=level_name(name)), r)
        for name, r in stats.levels.items()
    ]
    me = stats.rating
    rows.append((me.mu if me else float("-inf"), True, say("stats.you"), me))
    for _, mine, name, r in sorted(rows, key=lambda row: -row[0]):
        if r is None:
            table.add_row("▸", name, say("stats.you.unrated"), "", style="bold")
            continue
        low, high = r.interval
        table.add_row(
            "▸" if mine else "", name, str(r.points), f"{low}–{high}", style="bold" if mine else ""
        )
    return table


def _standing(stats: GameStats) -> str:
    """Where the person stands among the levels, in one sentence."""
    if stats.rating is None:
        return say("stats.unrated_note")
    if not stats.levels:
        return say("stats.standing.none")
    below, above = standing(stats.rating, stats.levels)
    if below is not None and above is not None:
        return say("stats.standing.between", low=level_name(below), high=level_name(above))
    if above is not None:
        return say("stats.standing.below", level=level_name(above))
    return say("stats.standing.above", level=level_name(below or ""))


def game_table(stats: GameStats) -> RenderableType:
    """One game type: games played and won, the averages, and the person's rating beside the
    AI levels'."""
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="dim", no_wrap=True)
    facts.add_column(justify="right", no_wrap=True)
    facts.add_row(say("stats.row.played"), str(stats.played))
    facts.add_row(say("stats.row.won"), f"{stats.won} ({_percent(stats.win_rate)})")
    facts.add_row(say("stats.row.avg_total"), decimal(stats.avg_score, 1))
    if stats.avg_round_score is not None:
        facts.add_row(say("stats.row.avg_round"), decimal(stats.avg_round_score, 1))
    facts.add_row(say("stats.row.rated"), str(stats.rated))
    return Group(
        Text(_title(stats.game), style="bold underline"),
        facts,
        Text(""),
        _ratings(stats),
        Text(_standing(stats), style="italic"),
        Text(""),
    )


def _when(time: str) -> str:
    """A kept time in the local time zone, to the minute (as kept if it cannot be read)."""
    try:
        return datetime.fromisoformat(time).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return time


def _recent(history: History, games: list[str]) -> Table:
    """The latest games, newest first."""
    table = Table(
        title=say("stats.recent.title"),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
    )
    table.add_column(say("stats.head.when"), no_wrap=True)
    table.add_column(say("stats.head.game"), no_wrap=True)
    table.add_column(say("stats.head.place"), justify="right", no_wrap=True)
    table.add_column(say("stats.head.total"), justify="right", no_wrap=True)
    table.add_column(say("stats.head.after"), justify="right", no_wrap=True)
    shown = [r for r in history.records if r["game"] in games][-RECENT:]
    for r in reversed(shown):
        kept = r["rating"]
        after = str(Rating(kept["mu"], kept["sigma"]).points) if kept else say("stats.not_rated")
        table.add_row(
            _when(r["time"]),
            _title(r["game"]),
            say("stats.place", place=r["place"], players=r["players"]),
            str(r["totals"][r["seat"]]),
            after,
        )
    return table


_GameArg = Annotated[
    str | None,
    typer.Argument(
        metavar="GAME",
        help="one game type, in any case (default: every one played)",
        autocompletion=complete_variant,
        show_default=False,
    ),
]
_HistoryOpt = Annotated[
    Path | None,
    typer.Option(
        "--history",
        metavar="PATH",
        help="the history file to read (default: the one cardtable play keeps)",
        show_default=False,
    ),
]
_JsonOpt = Annotated[
    bool, typer.Option("--json", help="print the same as JSON (games by type, recent games)")
]


def stats_command(
    game: _GameArg = None, history: _HistoryOpt = None, as_json: _JsonOpt = False
) -> None:
    """Your finished games in the terminal and your rating per game type, beside the AI
    levels' ratings on the same scale (kept on this machine: no account needed)."""
    chosen: str | None = None
    if game is not None:
        try:
            chosen = resolve_variant(game)
        except ValueError as err:
            fail(str(err))
    where = history
    if where is None:
        try:
            where = history_path()
        except ImportError:  # pragma: no cover - depends on the install
            fail("without --history, stats needs the 'tui' extra (it finds the history)")
    try:
        found = read_history(where)
    except OSError as err:
        fail(f"cannot read {where}: {err.strerror or err}", FAILURE)
    games = [chosen] if chosen is not None else found.games()
    if as_json:
        body = stats_json(found, [g for g in games if found.of(g)])
        typer.echo(json.dumps(body, ensure_ascii=False, indent=2))
        return
    console = Console()
    if found.skipped:
        note = say("stats.skipped", n=found.skipped, path=str(found.path))
        console.print(Text(note, style="yellow"))
    played = [g for g in games if found.of(g)]
    if not played:
        if chosen is None:
            console.print(say("stats.none"))
        else:
            console.print(say("stats.none.game", game=_title(chosen), name=chosen))
        return
    for name in played:
        console.print(game_table(game_stats(found, name)))
    console.print(_recent(found, played))
