"""The terminal play loop, :func:`play_loop`, and the ``cardtable play`` command.

It talks to the engine only through the public game contract (``new_game``, ``actors``,
``legal_actions``, ``play``, ``opening_events``, ``view``, ``over``, ``result``) and draws the
table from the human seat's ``view`` alone, so it can never show a card that seat does not know.

These are memory games, and the person plays without memory aid by default (RULES.md, "Memory"):
the tables come from ``view(seat, memory=False)``, which shows no face-down card. A card the
person sees — a peek, spy or look, kaboo's first sight of the bottom row, a card a failed claim
or drop shows to everyone — is named in the event line that reports it and shown in the next
table (the ``Seen now`` row says so), then hidden again. With a memory aid (``--memory-aid``)
every card the seat has ever seen stays shown.

One loop, prompt and error handling serve every game; what differs — the table, the words for
events, the round results and the notation — is the variant's
:class:`~cardtable.cli.render.Front` (see :mod:`cardtable.cli.fronts`).

The loop takes its input from any iterable of lines or callable ``prompt -> line`` and writes to
any Rich :class:`~rich.console.Console`, so tests can feed it lines and read what it printed.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Annotated, Any

import typer
from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from .. import Game, IllegalAction, agents, new_game, variants
from ..tui import resume_callback, run_table, table_available
from .fronts import FRONTS, PLAYABLE, front
from .render import (
    Choice,
    Front,
    _fail,
    continuations,
    is_position,
    render_choices,
    render_result,
    step_choices,
)
from .rules import complete_variant, parse_option, resolve_variant, rules_markdown
from .sights import note_sights, table_view

__all__ = ["PROMPT", "InputFn", "play_command", "play_loop"]

InputFn = Callable[[str], str]
"""Reads one line of input after showing a prompt; raises ``EOFError`` when there is none."""

PROMPT = "> "
"""The prompt shown when the human seat may choose the first word of a move."""

CONFIRM_QUIT = "quit? y/N "
"""The question asked before leaving a game."""

_KEYS = (
    "Moves are built step by step: the menu offers only what may come next. Type a letter for "
    "an entry; a card is always typed as its position — N for your card N, P.N for seat P's "
    "card N, counted from 0 as on the table (numbers are never menu numbers). A whole move in "
    "one line works too (replace 3, draw deck), and so does the start of a word (dr for draw)."
)


def _help(game: str, memory_aid: bool = False) -> RenderableType:
    shown = front(game)
    note = shown.note
    if shown.memory is not None:
        note += " " + shown.memory(memory_aid)
    table = Table(title="What to type", title_style="bold", show_lines=False)
    table.add_column("input", style="bold", no_wrap=True)
    table.add_column("meaning")
    table.add_row("a letter", "the menu entry with that letter")
    table.add_row("N or P.N", "the card at that position (your card N; seat P's card N)")
    for word, meaning in shown.notation:
        table.add_row(word, meaning)
    table.add_row("Enter", "in a snap window: pass; after a whole move: play it as it is")
    table.add_row("back", "undo the last step of the move you are building")
    table.add_row("help", "this list")
    table.add_row("rules", "the rules of this game")
    hidden = shown.memory is not None and not memory_aid
    table.add_row(
        "table",
        "draw the table again" + (" (no card you saw earlier: no memory aid)" if hidden else ""),
    )
    table.add_row("quit", "leave the game (asks first)")
    return Group(Text(_KEYS), table, Text(note, style="dim"))


# ---------------------------------------------------------------------------- the loop
def _reader(source: Iterable[str] | InputFn, console: Console) -> InputFn:
    if callable(source):
        return source
    lines: Iterator[str] = iter(source)

    def read(prompt: str) -> str:
        try:
            line = next(lines)
        except StopIteration:
            raise EOFError from None
        console.print(Text(prompt, style="bold") + Text(line))
        return line

    return read


def _print_events(
    events: Iterable[Mapping[str, Any]], me: int, console: Console, shown: Front
) -> None:
    """Print events (as seat ``me`` sees them: ``Event.for_seat``) in words."""
    for ev in events:
        for part in shown.event(ev, me):
            console.print(part)


_QUIT = ("quit", "exit", "q")
_HELP = ("help", "h", "?")
_BACK = ("back", "-")
_YES = ("y", "yes")


def _resolve(token: str, words: list[str], choices: list[Choice]) -> Choice | None:
    """The menu entry ``token`` picks at one step: a continuation's own word (any case), a
    letter, a seat group's key (``1.``), or the start (two letters or more) of exactly one
    word that is not a position; ``None`` if it picks nothing."""
    low = token.lower()
    for w in words:
        if w.lower() == low:
            return Choice(w, w, w)
    for c in choices:
        if c.key == low or (c.group and c.word == low):
            return c
    if len(low) >= 2 and not is_position(low):
        starts = [w for w in words if not is_position(w) and w.lower().startswith(low)]
        if len(starts) == 1:
            return Choice(starts[0], starts[0], starts[0])
    return None


def _walk_line(
    tokens: list[str], legal: list[str], prefix: list[str], group: str
) -> tuple[list[str], str, bool] | None:
    """Follow the words of one line from the step ``prefix`` (inside seat ``group``).

    Returns the new step and whether the move is chosen whole, or ``None`` if a word picks
    nothing there.
    """
    prefix, done = list(prefix), False
    for tok in tokens:
        if done:
            return None
        words = [w for w in continuations(legal, prefix) if w]
        pick = _resolve(tok, words, step_choices(legal, prefix, group))
        if pick is None:
            return None
        if pick.group:
            group = pick.word
        elif pick.word == "":
            done = True
        else:
            prefix.append(pick.word)
            group = ""
    words = continuations(legal, prefix)
    if prefix and words == [""]:
        done = True  # a whole move that nothing can extend
    return prefix, group, done


def _ask(
    legal: list[str],
    read: InputFn,
    console: Console,
    *,
    snap: bool,
    start: list[str],
    extra: Callable[[str], bool],
) -> tuple[str, list[str]] | None:
    """Ask for one move, step by step; ``None`` if the person quits.

    Returns the move's text and the step the last line started from (to go back to if the
    game refuses the move). A line that picks nothing is returned as typed after the step
    (the game then says what is wrong with it). ``extra`` handles ``help``, ``rules`` and
    ``table`` (it returns whether it did).
    """
    prefix, group = list(start), ""
    while True:
        choices = step_choices(legal, prefix, group)
        one = [c for c in choices if not c.group]
        if len(choices) == 1 and one and one[0].word:
            after = continuations(legal, [*prefix, one[0].word])
            if prefix or "" not in after:  # one way on (never a whole move unasked): take it
                prefix.append(one[0].word)
                if after == [""]:
                    return " ".join(prefix), start
                continue
        menu = render_choices(prefix + ([group] if group else []), choices)
        if snap and not prefix and "pass" in legal:
            menu.append("  ·  Enter) pass", style="dim")
        elif prefix and choices and choices[0].word == "" and not choices[0].group:
            menu.append("  ·  Enter) play it", style="dim")
        if prefix:
            menu.append("  ·  back", style="dim")
        console.print(menu)
        try:
            line = read(" ".join(prefix) + " › " if prefix else PROMPT)
        except EOFError:
            return None
        text = line.strip()
        word = text.lower()
        if not text:
            if prefix and "" in continuations(legal, prefix):
                return " ".join(prefix), start
            if snap and not prefix and "pass" in legal:
                return "pass", start
            continue
        if word in _QUIT:
            try:
                sure = read(CONFIRM_QUIT).strip().lower()
            except EOFError:
                return None
            if sure in _YES:
                return None
            continue
        if word in _BACK:
            if group:
                group = ""
            elif prefix:
                prefix.pop()
            continue
        if extra(word):
            continue
        walked = _walk_line(text.split(), legal, prefix, group)
        if walked is None and prefix:  # a whole move typed in the middle of one
            walked = _walk_line(text.split(), legal, [], "")
        if walked is None:  # the game says what is wrong with it
            tokens = text.split()
            here = is_position(tokens[0]) or _walk_line(tokens[:1], legal, prefix, group)
            return " ".join([*prefix, text] if prefix and here else [text]), list(prefix)
        before = list(prefix)
        prefix, group, done = walked
        if len(text.split()) > 1 and "" in continuations(legal, prefix):
            done = True  # a whole move typed in one line is played as it is
        if done:
            return " ".join(prefix), before


def _plain(renderable: RenderableType, width: int) -> str:
    """``renderable`` as plain text at ``width`` columns (to tell whether a table changed)."""
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None, force_terminal=False).print(renderable)
    return buf.getvalue()


def play_loop(
    game: Game,
    seat: int,
    console: Console,
    source: Iterable[str] | InputFn,
    *,
    bot_seed: int = 0,
    opponents: str = "casual",
    memory_aid: bool = False,
    after_bots: Callable[[], None] | None = None,
) -> bool:
    """Play ``game`` to its end in the terminal: ``seat`` is the human, the others are bots.

    ``game`` is a new game: the loop starts by printing its ``opening_events``, then the events
    each move returns. ``source`` gives the human's lines (an iterable, or a callable taking
    the prompt); running out of input counts as ``quit``. Bots are ``opponents`` agents (a name
    or level from :mod:`cardtable.agents`) seeded from ``bot_seed``; whenever the human seat is
    among the actors (also in simultaneous phases) the human acts first.

    A move is built step by step (:func:`~cardtable.cli.render.step_choices`): the menu offers
    only continuations of legal actions, a card is typed as its position, other entries by
    letter. The table is printed again only when it changed; ``quit`` asks first; a snap window
    is passed with a bare Enter (and one the seat cannot snap in is passed without asking),
    and the bots' passes in it are not printed. ``after_bots`` runs before the human is asked
    again after bots moved (the terminal drops the keys typed meanwhile). While a bot decides,
    a terminal console shows that it is thinking.

    Without ``memory_aid`` (the default) the human plays as a person without memory aid: a
    face-down card is shown in the event line that reports its sight and in the next table
    only. With it, every card the seat has seen stays shown. Returns ``True`` if the game was
    played to its end, ``False`` if the human quit.
    """
    shown = front(game.variant)
    read = _reader(source, console)
    bots = [agents.get(opponents, seed=bot_seed * 16 + s) for s in range(game.players)]
    title = variants.get(game.variant).title
    sights: dict[str, str] = {}  # face-down cards seen since the last table: address → code
    seen = [ev.for_seat(seat) for ev in game.opening_events]
    _print_events(seen, seat, console, shown)
    note_sights(seen, sights)
    last_table = ""
    bots_moved = False

    def extra(word: str) -> bool:
        if word in _HELP:
            console.print(_help(game.variant, memory_aid))
        elif word == "rules":
            console.print(Markdown(rules_markdown(game.variant)))
        elif word == "table":
            again = table_view(game, seat, memory_aid, {}, shown)
            console.print(shown.table(again, seat, title))
        else:
            return False
        return True

    while not game.over:
        if seat in game.actors:
            view = table_view(game, seat, memory_aid, sights, shown)
            sights.clear()  # shown once: later tables hide them again
            legal: list[str] = view["legal"]
            snap = game.timed_window() == "snap"
            if snap and legal == ["pass"]:
                events = game.play(seat, "pass")  # nothing to snap with: no question
            else:
                table = shown.table(view, seat, title)
                flat = _plain(table, console.width)
                if snap:  # only the pile changed: one line, not the whole table
                    console.print(
                        Text(
                            "Snap window: drop N to throw your card N of the top card's rank, "
                            "Enter to pass ('table' shows the table)",
                            style="yellow",
                        )
                    )
                elif flat != last_table:
                    console.print(table)
                    last_table = flat
                if bots_moved and after_bots is not None:
                    after_bots()
                bots_moved = False
                start: list[str] = []
                while True:
                    answer = _ask(legal, read, console, snap=snap, start=start, extra=extra)
                    if answer is None:
                        console.print(Text("You left the game.", style="bold"))
                        return False
                    text, start = answer
                    try:
                        events = game.play(seat, text)
                    except IllegalAction as err:
                        console.print(Text(str(err), style="red"))
                        continue
                    break
        else:
            bot = game.actors[0]
            quiet = game.timed_window() == "snap"
            if console.is_terminal:
                with console.status(f"seat {bot} is thinking…", spinner="dots"):
                    events = game.play(bot, bots[bot].act(game, bot))
            else:
                events = game.play(bot, bots[bot].act(game, bot))
            bots_moved = True
            if quiet:  # a bot's pass in a snap window is not news
                events = [ev for ev in events if ev.type != "pass"]
        seen = [ev.for_seat(seat) for ev in events]
        _print_events(seen, seat, console, shown)
        note_sights(seen, sights)
    console.print(render_result(game.view(seat, memory=memory_aid), seat))
    return True


# ---------------------------------------------------------------------------- the terminal
def _line_reader() -> InputFn:
    """Read a line with ``input``: on a terminal with line editing and an in-memory history
    (the ``readline`` module, where Python has it)."""
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (importing it gives input() editing and history)
    return input


def _drop_typeahead() -> None:
    """Throw away the keys typed while the bots played (they were not meant for the next
    question)."""
    try:
        import termios

        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):
        pass


# ---------------------------------------------------------------------------- the command
def play_command(
    variant: Annotated[
        str,
        typer.Argument(
            help="the game to play, in any case ('cardtable variants' lists them)",
            autocompletion=complete_variant,
            show_default=False,
        ),
    ],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of seats (default: the game's)")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            "-s",
            help="seed for the deal and the bots (default: a fresh one, printed to replay)",
        ),
    ] = None,
    seat: Annotated[int, typer.Option("--seat", help="your seat (0 is the first)")] = 0,
    target: Annotated[
        str | None,
        typer.Option("--target", "-t", help="points that end the match, or 'none' for one round"),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="any rule option as NAME=VALUE (repeatable)"),
    ] = None,
    opponents: Annotated[
        str,
        typer.Option(
            "--opponents",
            "-a",
            help="the bots' level (beginner, casual, expert, master) or agent (random, …)",
        ),
    ] = "casual",
    memory_aid: Annotated[
        bool,
        typer.Option(
            "--memory-aid",
            help="keep every card you have seen shown (default: a face-down card is shown only "
            "when you see it — a peek, spy or look — and then hidden again)",
        ),
    ] = False,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain",
            help="line mode even on a terminal (for pipes, scripts and screen readers); "
            "otherwise a terminal gets the full-screen table",
        ),
    ] = False,
    peek_window: Annotated[
        float,
        typer.Option(
            "--peek-window", help="full-screen table: seconds for the initial peek (0: no clock)"
        ),
    ] = 30.0,
    snap_window: Annotated[
        float,
        typer.Option(
            "--snap-window", help="full-screen table: seconds of a snap window (0: no clock)"
        ),
    ] = 5.0,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            is_eager=True,
            expose_value=False,
            callback=resume_callback,
            help="continue the last game of the full-screen table (it is saved after every move)",
        ),
    ] = False,
) -> None:
    """Play one game against AI opponents (casual by default).

    A memory game: without --memory-aid, a card you look at is shown only once — remember it.
    """
    try:
        name = resolve_variant(variant)
    except ValueError as err:
        _fail(str(err))
    if seed is None:
        seed = random.SystemRandom().randrange(100_000)
    try:
        agents.get(opponents)
    except ValueError as err:
        _fail(str(err))
    if name not in FRONTS:
        _fail(f"the terminal cannot draw {name} yet; playable here: {', '.join(PLAYABLE)}")
    options: dict[str, Any] = {}
    try:
        for text in option or []:
            key, value = parse_option(text, name)
            options[key] = value
        if target is not None:
            options["target"] = parse_option(f"target={target}", name)[1]
        game = new_game(name, players=players, seed=seed, options=options)
    except ValueError as err:
        _fail(str(err))
    if not 0 <= seat < game.players:
        _fail(f"--seat must be a seat from 0 to {game.players - 1}, got {seat}")
    if not plain and sys.stdin.isatty() and sys.stdout.isatty() and table_available():
        farewell = run_table(
            game,
            seat,
            opponents=opponents,
            bot_seed=seed,
            memory_aid=memory_aid,
            peek_window=peek_window,
            snap_window=snap_window,
        )
        Console().print(Text(farewell, style="dim"))
        return
    console = Console()
    replay = f"seed {seed}: replay this deal with --seed {seed}"
    console.print(Text(replay, style="dim"))
    try:
        play_loop(
            game,
            seat,
            console,
            _line_reader(),
            bot_seed=seed,
            opponents=opponents,
            memory_aid=memory_aid,
            after_bots=_drop_typeahead if sys.stdin.isatty() else None,
        )
        console.print(Text(replay, style="dim"))
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        raise typer.Exit(code=130) from None
