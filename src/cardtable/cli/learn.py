"""``cardtable learn GAME``: a guided lesson of one game, then a real round against the beginner
AI.

On a terminal the lesson opens on the full-screen table (:mod:`cardtable.tui.lesson`); with
``--plain``, in a pipe or without the ``tui`` extra it runs in line mode, :func:`lesson_loop`:
the step's words, the table when it changed, and the move built from the same menus as
``cardtable play`` (:mod:`cardtable.cli.play`), which the lesson plays, explains or refuses
(:meth:`cardtable.learn.lessons.LessonRun.try_move`). A step that is only read goes on with
Enter. At the end the line mode asks whether to play the real round, and plays it with
:func:`~cardtable.cli.play.play_loop`.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable
from typing import Annotated

import typer
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from ..catalog import say
from ..learn.lessons import LessonRun, Outcome, answer, load
from ..tui import table_available
from .checks import number_in
from .errors import fail
from .play import (
    _QUIT,
    CONFIRM_QUIT,
    InputFn,
    _ask,
    _drop_typeahead,
    _line_reader,
    _LineTable,
    _plain,
    _reader,
    play_loop,
)
from .rules import complete_variant, resolve_variant

__all__ = ["learn_command", "lesson_loop"]

_YES = ("", "y", "yes", "j", "ja")
"""Answers that take the real round (Enter included: it is the default)."""


def _panel(run: LessonRun) -> Panel:
    """The step's words, framed, with where the lesson is."""
    body = Text(run.words)
    title = say("learn.title", game=run.lesson.title) + " · " + run.progress
    return Panel(body, title=title, title_align="left", border_style="green")


def _answer(outcome: Outcome) -> Text:
    """The answer to a move the lesson did not play, styled by its kind."""
    style = "bold red" if outcome.kind == "refused" else "bold yellow"
    return Text(answer(outcome), style=style)


def lesson_loop(
    run: LessonRun,
    console: Console,
    source: Iterable[str] | InputFn,
) -> bool | None:
    """Go through the lesson ``run`` in line mode: ``source`` gives the learner's lines (an
    iterable, or a callable taking the prompt; running out counts as ``quit``). Returns
    ``None`` if the learner left, else whether they want the real round (asked at the end)."""
    read = _reader(source, console)
    game, me = run.game, run.me
    table = _LineTable(game, me, console, False, "suit", None)
    console.print(Text(say("learn.ui.how"), style="dim"))
    table.tell(game.opening_events)
    told = -1  # the step whose words were printed last
    while not run.done:
        if run.index != told:
            console.print(_panel(run))
            told = run.index
        if run.reading:
            try:
                line = read(say("learn.ui.go_on") + " › ").strip().lower()
            except EOFError:
                return None
            if line in _QUIT:
                if _sure(read):
                    return None
            elif not line or not table.extra(line):
                outcome = run.go_on()
                if not outcome.accepted:
                    console.print(_answer(outcome))
            continue
        view = table.view_now(table.sights)
        table.sights.clear()  # shown once: later tables hide them again
        shown = table.shown.table(view, me, table.title)
        flat = _plain(shown, console.width)
        if flat != table.last_table:
            console.print(shown)
            table.last_table = flat
        legal = [str(a) for a in game.legal_actions(me)]
        answer = _ask(
            legal,
            read,
            console,
            snap=game.timed_window() == "snap",
            start=[],
            extra=table.extra,
            keys=table.keys,
        )
        if answer is None:
            return None
        outcome = run.try_move(answer[0])
        if outcome.accepted:
            table.tell(list(outcome.events))
        else:
            console.print(_answer(outcome))
    console.print(_panel(run))
    try:
        wanted = read(say("learn.ui.real_question")).strip().lower()
    except EOFError:
        return False
    return wanted in _YES


def _sure(read: InputFn) -> bool:
    """Whether the learner confirms leaving."""
    try:
        return read(CONFIRM_QUIT).strip().lower() in ("y", "yes", "j", "ja")
    except EOFError:
        return True


# ---------------------------------------------------------------------------- the command
_GameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME",
        help="the game to learn, in any case ('cardtable variants' lists them)",
        autocompletion=complete_variant,
        show_default=False,
    ),
]
_PlainOpt = Annotated[
    bool,
    typer.Option(
        "--plain",
        metavar="",
        help="line mode even on a terminal (for pipes, scripts and screen readers); "
        "otherwise a terminal gets the full-screen table",
    ),
]
_SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        "-s",
        metavar="N",
        help="seed of the real round after the lesson (default: a fresh one)",
        callback=number_in(0, 2**63 - 1, optional=True),
    ),
]


def learn_command(variant: _GameArg, plain: _PlainOpt = False, seed: _SeedOpt = None) -> None:
    """Learn a game step by step on a prepared table, then play a round against the beginner AI.

    The lesson tells you what to do and why; a move it does not expect is explained, not
    played.
    """
    try:
        name = resolve_variant(variant)
        lesson = load(name)
    except ValueError as err:
        fail(str(err))
    if seed is None:
        seed = random.SystemRandom().randrange(100_000)
    run = lesson.start(seed)
    if not plain and sys.stdin.isatty() and sys.stdout.isatty() and table_available():
        from ..tui.lesson import run_lesson

        Console().print(Text(run_lesson(run, seed=seed), style="dim"))
        return
    console = Console()
    try:
        wanted = lesson_loop(run, console, _line_reader())
        if wanted is None:
            console.print(Text(say("learn.ui.left", name=name), style="bold"))
            return
        if not wanted:
            console.print(Text(say("learn.ui.finished", name=name), style="dim"))
            return
        real = run.real_round(seed)
        play_loop(
            real.game,
            real.seat,
            console,
            _line_reader(),
            bot_seed=real.bot_seed,
            opponents=real.opponents,
            after_bots=_drop_typeahead if sys.stdin.isatty() else None,
        )
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        raise typer.Exit(code=130) from None
