"""``cardtable review``: a finished game's decisions weighed by the search, in words or JSON.

FILE is a game log as :attr:`cardtable.Game.log` gives it (JSON: game, players, seed,
options, deck, actions) or a terminal save record holding one (``{"log": …, "seat": …,
"memory_aid": …}``); without FILE, the last game finished on the terminal table.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from ..catalog import decimal, say
from ..errors import IllegalAction
from ..learn.review import Judgement, Review, review
from ..text.moves import move_words
from ..text.phrase import Reader
from .errors import FAILURE, fail

__all__ = ["review_command"]


def _read(file: Path | None) -> tuple[dict[str, object], int | None, bool | None]:
    """The log in ``file`` (or the last finished terminal game), with the seat and memory
    aid a save record names."""
    if file is None:
        try:
            from ..tui import saves
        except ImportError:  # pragma: no cover - depends on the install
            fail("without FILE, review needs the 'tui' extra (it keeps finished games)")
        record = saves.load_finished()
        if record is None:
            fail(f"no finished game to review (looked in {saves.finished_path()}); give a FILE")
        data: object = dict(record)
    else:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except OSError as err:
            fail(f"cannot read {file}: {err.strerror or err}")
        except ValueError as err:
            fail(f"{file} is not JSON: {err}")
    if not isinstance(data, dict):
        fail("a game log is a JSON object (game, players, seed, options, deck, actions)")
    if "log" in data:
        log, seat, aid = data["log"], data.get("seat"), data.get("memory_aid")
        if not isinstance(log, dict):
            fail("the record's log is not a JSON object")
        return (
            log,
            seat if isinstance(seat, int) else None,
            aid if isinstance(aid, bool) else None,
        )
    return data, None, None


def review_command(
    file: Annotated[
        Path | None,
        typer.Argument(
            metavar="[FILE]",
            help="a game log (JSON, as Game.log gives it) or a terminal save; default: the "
            "last game finished on the terminal table",
            show_default=False,
        ),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option("--seat", "-s", min=0, help="the seat to review (default: yours, or 0)"),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="print a JSON list, one object per decision: index, played, best, loss, label",
        ),
    ] = False,
    samples: Annotated[
        int, typer.Option(min=2, max=5000, help="deals the search weighs each decision on")
    ] = 200,
    seed: Annotated[int, typer.Option(help="seed of the search")] = 0,
    hands: Annotated[
        bool,
        typer.Option(
            "--hands",
            help="under each decision, every hand open: [card] the seat knew, (card) it did not",
        ),
    ] = False,
    memory_aid: Annotated[
        bool | None,
        typer.Option(
            "--memory-aid/--no-memory-aid",
            help="whether the seat played with the memory aid (then no memory slips); "
            "default: as the save says, else without",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Review a finished game: each decision of a seat weighed by the search against the best
    alternative (expected round points lost; inaccuracy ≥ 1.5, mistake ≥ 3, blunder ≥ 6) and
    the memory slips of a player without the memory aid."""
    log, saved_seat, saved_aid = _read(file)
    who = seat if seat is not None else (saved_seat if saved_seat is not None else 0)
    aid = memory_aid if memory_aid is not None else bool(saved_aid)
    err_console = Console(stderr=True)
    try:
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=err_console,
            transient=True,
            disable=not err_console.is_terminal,
        ) as bar:
            task = bar.add_task(str(log.get("game", "")), total=None)
            result = review(
                log,
                [who],
                samples=samples,
                seed=seed,
                memory_aid=aid,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    except IllegalAction as exc:
        fail(f"the log cannot be replayed: {exc}", FAILURE)
    except (ValueError, KeyError, TypeError) as exc:
        fail(f"the log cannot be replayed: {exc}", FAILURE)
    names = _names(log)
    if as_json:
        sys.stdout.write(json.dumps([j.as_json() for j in result.of(who)], indent=1) + "\n")
        return
    _print(result, who, names, hands=hands)


def _names(log: dict[str, object]) -> tuple[str, ...]:
    """The seats' names a log carries (none: ``seat N``)."""
    names = log.get("names")
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        return tuple(names)
    return ()


def _open_hands(j: Judgement, names: tuple[str, ...]) -> str:
    """Every hand at the decision: ``[7H]`` a card the seat knew, ``(7H)`` one it did not."""
    reader = Reader(j.seat, names)
    parts = []
    for owner, (row, known) in enumerate(zip(j.hands, j.known, strict=True)):
        cards = " ".join(
            "—" if code is None else (f"[{code}]" if seen else f"({code})")
            for code, seen in zip(row, known, strict=True)
        )
        parts.append(f"{reader.name(owner)}: {cards}")
    return " · ".join(parts)


def _print(result: Review, seat: int, names: tuple[str, ...], *, hands: bool = False) -> None:
    """The review as a table in words, its slips and the seat's summary line (``hands``: every
    hand open under each decision)."""
    console = Console()
    summary = next(s for s in result.summaries if s.seat == seat)
    table = Table(
        title=say("review.title", game=result.game, who=summary.words(names).split(":")[0]),
        title_style="bold",
    )
    for key in ("step", "played", "best", "loss", "label"):
        table.add_column(say(f"review.head.{key}"), overflow="fold")
    for j in result.of(seat):
        label = say(f"review.label.{j.label}") if j.label else ""
        close = j.best == j.played or j.loss < 0.05
        best = "" if close else move_words(j.best, seat, names)
        style = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}.get(
            j.label or "", ""
        )
        table.add_row(
            str(j.index),
            Text(move_words(j.played, seat, names)),
            Text(best),
            decimal(j.loss),
            label,
            style=style,
        )
        if j.slip is not None:
            table.add_row("", Text(j.slip.words(seat, names)), "", "", "", style="magenta")
        if hands and j.hands:
            table.add_row("", Text(_open_hands(j, names)), "", "", "", style="dim")
    console.print(table)
    if hands:
        console.print(Text(say("review.hands.legend"), style="dim"))
    console.print(Text(summary.words(names)))
