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
:class:`~cardtable.text.render.Front` (see :mod:`cardtable.text.fronts`).

The loop takes its input from any iterable of lines or callable ``prompt -> line`` and writes to
any Rich :class:`~rich.console.Console`, so tests can feed it lines and read what it printed.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Protocol

import typer
from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from .. import Game, IllegalAction, agents, new_game, replay, variants
from ..catalog import say
from ..events import ROUND_ENDS, At, Happening
from ..game import Event
from ..learn.hints import hint
from ..seat import Seat
from ..text.fronts import FRONTS, PLAYABLE, front
from ..text.keys import FAMILY_KEYS, key_words, word_keys
from ..text.phrase import refusal
from ..text.render import (
    MENU_MAX,
    Choice,
    Front,
    continuations,
    is_position,
    render_choices,
    render_result,
    step_choices,
)
from ..text.rules import plain_rules
from ..text.sights import TableView, note_sights, table_view, with_keys
from ..tui import REVEAL_RANGE, REVEAL_SECONDS, run_table, table_available
from ..variants import Options
from .checks import number_in
from .errors import fail
from .rules import RuleOptions, complete_variant, parse_option, resolve_variant

if TYPE_CHECKING:
    from ..tui.saves import SaveRecord

__all__ = ["PROMPT", "InputFn", "play_command", "play_loop"]

InputFn = Callable[[str], str]
"""Reads one line of input after showing a prompt; raises ``EOFError`` when there is none."""

PROMPT = "> "
"""The prompt shown when the human seat may choose the first word of a move."""

CONFIRM_QUIT = "quit? y/N "
"""The question asked before leaving a game, in English (the loop asks it in the catalog's
words: ``tui.line.confirm_quit``)."""


def _help(game: str, memory_aid: bool = False) -> RenderableType:
    shown = front(game)
    note = shown.note
    if shown.memory is not None:
        note += " " + shown.memory(memory_aid)
    table = Table(title=say("tui.line.help.title"), title_style="bold", show_lines=False)
    table.add_column(say("tui.line.help.input"), style="bold", no_wrap=True)
    table.add_column(say("tui.line.help.meaning"))
    keys = word_keys(game)
    letters = " · ".join(f"{key} {word}" for word, key in keys.items() if word in _words(game))
    table.add_row(say("tui.line.help.a_letter"), say("tui.line.help.letter", letters=letters))
    table.add_row(say("tui.line.help.n_or_pn"), say("tui.line.help.card"))
    for word, meaning in shown.notation:
        table.add_row(word, meaning)
    table.add_row("Enter", say("tui.line.help.enter"))
    table.add_row("back", say("tui.line.help.back"))
    table.add_row("help", say("tui.line.help.help"))
    table.add_row("rules", say("tui.line.help.rules"))
    table.add_row("hint", say("hint.help"))
    hidden = shown.memory is not None and not memory_aid
    table.add_row("table", say("tui.line.help.table.hidden" if hidden else "tui.line.help.table"))
    if shown.memory is None:
        table.add_row("sort", say("tui.line.help.sort"))
    table.add_row("quit", say("tui.line.help.quit"))
    return Group(Text(say("tui.line.keys")), table, Text(note, style="dim"))


def _words(game: str) -> set[str]:
    """The words of ``game``'s notation (its help rows' first words and their options)."""
    out: set[str] = set()
    for text, _ in front(game).notation:
        out.update(text.replace("/", " ").replace("|", " ").split())
    if "suit" in out:
        out.update(("C", "D", "H", "S"))
    return out


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


def _print_events(events: Iterable[Happening], me: int, console: Console, shown: Front) -> None:
    """Print events (as seat ``me`` sees them: ``Event.seen_by``) in words."""
    for ev in events:
        for part in shown.event(ev, me):
            console.print(part)


_QUIT = ("quit", "exit", "q")
_HELP = ("help", "h", "?")
_BACK = ("back", "-")


def _yes(answer: str) -> bool:
    """Whether ``answer`` says yes, in the catalog's words (``tui.line.yes``: ``y yes``)."""
    return answer in say("tui.line.yes").split()


def _resolve(token: str, words: list[str], choices: list[Choice]) -> Choice | None:
    """The menu entry ``token`` picks at one step: a continuation's own word (any case), its
    key, a seat group's key (``1.``, ``y``), or the start (two letters or more) of exactly one
    word that is not a position; ``None`` if it picks nothing."""
    low = token.lower()
    for w in words:
        if w.lower() == low:
            return Choice(w, w, w)
    for c in choices:
        if c.key in (token, low) or (c.group and c.word == low):
            return c
    if len(low) >= 2 and not is_position(low):
        starts = [w for w in words if not is_position(w) and w.lower().startswith(low)]
        if len(starts) == 1:
            return Choice(starts[0], starts[0], starts[0])
    return None


def _card_first(token: str, legal: list[str], prefix: list[str], strict: bool = True) -> str | None:
    """The word a card typed before it stands for: where ``token`` is a position that cannot
    come next but one word alone may, and that word is followed by cards (``0`` in the initial
    peek is ``peek 0``). ``strict``: only if that word may be followed by this very card."""
    if not is_position(token):
        return None
    words = [w for w in continuations(legal, prefix) if w]
    if len(words) != 1 or is_position(words[0]):
        return None
    after = continuations(legal, [*prefix, words[0]])
    if token in after or (not strict and any(is_position(w) for w in after)):
        return words[0]
    return None


def _walk_line(
    tokens: list[str],
    legal: list[str],
    prefix: list[str],
    group: str,
    keys: Mapping[str, str] | None = None,
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
        pick = _resolve(tok, words, step_choices(legal, prefix, group, keys))
        if pick is None and (implied := _card_first(tok, legal, prefix)) is not None:
            prefix.append(implied)
            pick = Choice(tok, tok, tok)
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


def _not_now(token: str, keys: Mapping[str, str]) -> str | None:
    """What to say of a key that means a word of the game which cannot come next (``x`` when
    nothing can be exchanged); ``None`` for any other text."""
    by_key = key_words(keys)
    word = by_key.get(token) or by_key.get(token.lower())
    if word is None or len(token) != 1:
        return None
    return say("tui.line.not_now", key=token, word=word)


def _ask(
    legal: list[str],
    read: InputFn,
    console: Console,
    *,
    snap: bool,
    start: list[str],
    extra: Callable[[str], bool],
    keys: Mapping[str, str] | None = None,
) -> tuple[str, list[str]] | None:
    """Ask for one move, step by step; ``None`` if the person quits.

    No step is ever taken for the person: the menu shows what may come next, each word with
    its fixed key (``keys``). Returns the move's text and the step the last line started from
    (to go back to if the game refuses the move). A line that picks nothing is returned as
    typed after the step (the game then says what is wrong with it), except a key of a word
    that cannot come next, which is answered at once. ``extra`` handles ``help``, ``rules``,
    ``table`` and ``sort`` (it returns whether it did).
    """
    prefix, group = list(start), ""
    while True:
        choices = step_choices(legal, prefix, group, keys)
        menu = render_choices(prefix + ([group] if group else []), choices)
        lone = [c.word for c in choices if not c.group and c.word and not is_position(c.word)]
        cards = [w for w in continuations(legal, [*prefix, *lone]) if is_position(w)]
        if len(choices) == 1 and len(lone) == 1 and cards and len(cards) <= MENU_MAX:
            menu.append("  ·  " + say("tui.line.card_alone", cards=" ".join(cards)), style="dim")
        if snap and not prefix and "pass" in legal:
            menu.append("  ·  Enter) pass", style="dim")
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
                sure = read(say("tui.line.confirm_quit")).strip().lower()
            except EOFError:
                return None
            if _yes(sure):
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
        walked = _walk_line(text.split(), legal, prefix, group, keys)
        if walked is None and prefix and len(text) > 1:  # a move typed in the middle of one
            walked = _walk_line(text.split(), legal, [], "", keys)
        if walked is None and (said := _not_now(text, keys or FAMILY_KEYS)) is not None:
            console.print(Text(said, style="red"))
            continue
        if walked is None:  # the game says what is wrong with it
            tokens = text.split()
            implied = _card_first(tokens[0], legal, prefix, strict=False)
            if implied is not None:  # "99" in the initial peek: "peek 99"
                return " ".join([*prefix, implied, text]), list(prefix)
            here = is_position(tokens[0]) or _walk_line(tokens[:1], legal, prefix, group, keys)
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
    resumed: bool = False,
    after_move: Callable[[Game], None] | None = None,
    hand_order: str = "suit",
    on_sort: Callable[[str], None] | None = None,
    on_over: Callable[[Game, bool], None] | None = None,
) -> bool:
    """Play ``game`` to its end in the terminal: ``seat`` is the human, the others are bots.

    ``game`` is a new game: the loop starts by printing its ``opening_events``, then the events
    each move returns (``resumed``: a game rebuilt from a save, whose round so far is told
    again first, as the seat may read it again: without memory aid, the public parts, with
    every card shown to the whole table). ``source`` gives the human's lines (an iterable, or
    a callable taking the prompt); running out of input counts as ``quit``. Bots are
    ``opponents`` agents (a name or level from :mod:`cardtable.agents`) seeded from
    ``bot_seed``; whenever the human seat is among the actors (also in simultaneous phases) the
    human acts first. ``after_move`` runs after every move (the save); ``on_over`` once the
    game is over, with whether the person asked for a hint (the history keeps the game).

    A move is built step by step (:func:`~cardtable.text.render.step_choices`): the menu offers
    only continuations of legal actions, a card is typed as its position, every word by its
    fixed key (:mod:`cardtable.text.keys`). The table is printed again only when it changed;
    ``quit`` asks first; a snap window is passed with a bare Enter (and one the seat cannot
    snap in is passed without asking), and the bots' passes in it are not printed.
    ``after_bots`` runs before the human is asked again after bots moved (the terminal drops
    the keys typed meanwhile). While a bot decides, a terminal console shows that it is
    thinking. A Qute hand is sorted by ``hand_order`` (``suit`` or ``rank``); ``sort`` turns
    it the other way and tells ``on_sort``.

    Without ``memory_aid`` (the default) the human plays as a person without memory aid: a
    face-down card is shown in the event line that reports its sight and in the next table
    only. With it, every card the seat has seen stays shown. Returns ``True`` if the game was
    played to its end, ``False`` if the human quit.
    """
    shown = front(game.variant)
    read = _reader(source, console)
    bots = [agents.get(opponents, seed=bot_seed * 16 + s) for s in range(game.players)]
    table = _LineTable(game, seat, console, memory_aid, hand_order, on_sort)
    if resumed:
        moves = game.moves_played
        console.print(Text(say("tui.line.resumed", n=moves), style="bold"))
        again = Seat(game, seat, memory=memory_aid).history()
        _print_events([ev for ev in again if not isinstance(ev, ROUND_ENDS)], seat, console, shown)
    else:
        table.tell(game.opening_events)
    while not game.over:
        if seat in game.actors:
            events = table.person_moves(read, after_bots)
            if events is None:
                console.print(Text(say("tui.line.left"), style="bold"))
                return False
        else:
            events = _bot_moves(game, bots, console)
            table.bots_moved = True
        if after_move is not None:
            after_move(game)
        table.tell(events)
    console.print(render_result(game.view(seat, memory=memory_aid), seat))
    if on_over is not None:
        on_over(game, table.hints > 0)
    return True


class _LineTable:
    """What :func:`play_loop` keeps between moves: the variant's front and word keys, the
    person's hand order, the face-down cards seen since the last table, the last table printed
    and whether bots moved since the person was last asked."""

    def __init__(
        self,
        game: Game,
        seat: int,
        console: Console,
        memory_aid: bool,
        hand_order: str,
        on_sort: Callable[[str], None] | None,
    ) -> None:
        self.game = game
        self.seat = seat
        self.console = console
        self.memory_aid = memory_aid
        self.shown = front(game.variant)
        self.keys = word_keys(game.variant)
        self.title = variants.get(game.variant).title
        self.sights: dict[At, str] = {}  # seen since the last table: place → code
        self.order = hand_order
        self.on_sort = on_sort
        self.last_table = ""
        self.bots_moved = False
        self.hints = 0  # hints asked for (each its own search seed)

    def view_now(self, sights_now: Mapping[At, str]) -> TableView:
        """The seat's table view, showing ``sights_now``, with the hand order."""
        game, seat = self.game, self.seat
        view = table_view(game, seat, self.memory_aid, sights_now, self.shown)
        return with_keys(view, hand_order=self.order)

    def tell(self, events: list[Event]) -> None:
        """Print ``events`` as the seat sees them and note the face-down cards they show it."""
        seen = [ev.seen_by(self.seat) for ev in events]
        _print_events(seen, self.seat, self.console, self.shown)
        note_sights(seen, self.sights)

    def extra(self, word: str) -> bool:
        """Answer ``help``, ``rules``, ``table``, ``hint`` and ``sort``; whether ``word`` was
        one."""
        console, shown = self.console, self.shown
        if word == "hint":
            self.hint()
        elif word in _HELP:
            console.print(_help(self.game.variant, self.memory_aid))
        elif word == "rules":
            console.print(Markdown(plain_rules(self.game.variant)))
        elif word == "table":
            console.print(shown.table(self.view_now({}), self.seat, self.title))
        elif word == "sort" and shown.memory is None:
            self.order = "rank" if self.order == "suit" else "suit"
            if self.on_sort is not None:
                self.on_sort(self.order)
            console.print(Text(say(f"tui.line.sorted.{self.order}"), style="dim"))
            console.print(shown.table(self.view_now({}), self.seat, self.title))
        else:
            return False
        return True

    def hint(self) -> None:
        """Print the hint for the person's decision: every legal move with the search's
        numbers, best first."""
        if not self.game.legal_actions(self.seat):
            self.console.print(Text(say("hint.wait"), style="dim"))
            return
        self.hints += 1
        found = hint(Seat(self.game, self.seat), seed=self.hints)
        self.console.print(Text(say("hint.title"), style="bold"))
        for row in found.rows:
            mark = "★ " if row.best else "  "
            self.console.print(
                Text(f"{mark}{row.line()}   ({row.action})", style="green" if row.best else "")
            )

    def person_moves(
        self, read: InputFn, after_bots: Callable[[], None] | None
    ) -> list[Event] | None:
        """The person's move: the table (or the snap window's line) when it changed, then the
        question until the game takes an answer. Its events, or ``None`` if the person left."""
        game, seat, console = self.game, self.seat, self.console
        view = self.view_now(self.sights)
        self.sights.clear()  # shown once: later tables hide them again
        legal: list[str] = view["legal"]
        snap = game.timed_window() == "snap"
        if snap and legal == ["pass"]:
            return game.play(seat, "pass")  # nothing to snap with: no question
        table = self.shown.table(view, seat, self.title)
        flat = _plain(table, console.width)
        if snap:  # only the pile changed: one line, not the whole table
            console.print(Text(say("tui.line.snap", key=self.keys["drop"]), style="yellow"))
        elif flat != self.last_table:
            console.print(table)
            self.last_table = flat
        if self.bots_moved and after_bots is not None:
            after_bots()
        self.bots_moved = False
        start: list[str] = []
        while True:
            answer = _ask(
                legal, read, console, snap=snap, start=start, extra=self.extra, keys=self.keys
            )
            if answer is None:
                return None
            text, start = answer
            try:
                return game.play(seat, text)
            except IllegalAction as err:
                console.print(Text(refusal(err, seat), style="red"))


def _bot_moves(game: Game, bots: list[agents.Agent], console: Console) -> list[Event]:
    """The first acting bot's move (a spinner meanwhile on a terminal); its events, less its
    pass in a snap window (not news)."""
    bot = game.actors[0]
    quiet = game.timed_window() == "snap"
    if console.is_terminal:
        with console.status(say("tui.line.thinking", seat=bot), spinner="dots"):
            events = game.play(bot, bots[bot].act(Seat(game, bot)))
    else:
        events = game.play(bot, bots[bot].act(Seat(game, bot)))
    if quiet:  # a bot's pass in a snap window is not news
        events = [ev for ev in events if ev.type != "pass"]
    return events


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
class _Store(Protocol):
    """What the line mode uses of :mod:`cardtable.tui.saves`: the save and the settings."""

    def save_path(self) -> Path: ...
    def load_save(self) -> SaveRecord | None: ...
    def write_save(self, record: SaveRecord) -> Path: ...
    def clear_save(self) -> None: ...
    def finish_save(self, record: SaveRecord) -> None: ...
    def load_settings(self) -> dict[str, object]: ...
    def write_settings(self, changes: Mapping[str, object]) -> None: ...


def _settings() -> _Store | None:
    """The module keeping the terminal's save and settings (``None`` without the ``tui``
    extra, whose ``platformdirs`` finds the user's data directory)."""
    try:
        from ..tui import saves
    except ImportError:  # pragma: no cover - depends on the install
        return None
    return saves


def _remember_order(order: str) -> None:
    saves = _settings()
    if saves is not None:
        saves.write_settings({"qute_sort": order})


def _hand_order() -> str:
    saves = _settings()
    order = saves.load_settings().get("qute_sort") if saves is not None else None
    return order if order in ("suit", "rank") else "suit"


def _keep(
    game: Game,
    seat: int,
    opponents: str,
    console: Console,
    *,
    memory_aid: bool,
    hints_used: bool,
) -> None:
    """Keep the finished ``game`` in the person's history (with the ``tui`` extra, which finds
    its folder) and say what it did to their rating."""
    if _settings() is None:  # pragma: no cover - depends on the install
        return
    from ..tui import history

    kept = history.record_game(game, seat, opponents, memory_aid=memory_aid, hints_used=hints_used)
    console.print(Text(history.kept_line(kept), style="yellow" if kept.error else "dim"))


def _use_table(plain: bool) -> bool:
    """Whether to open the full-screen table: a terminal on both ends, no ``--plain``, and
    the ``tui`` extra."""
    return not plain and sys.stdin.isatty() and sys.stdout.isatty() and table_available()


def _line_mode(
    game: Game,
    seat: int,
    *,
    seed: int,
    opponents: str,
    memory_aid: bool,
    resumed: bool = False,
    save: Callable[[Game], None] | None = None,
) -> None:
    """Play ``game`` in line mode on this terminal (or pipe), saying the seed before and
    after."""
    console = Console()
    replay_line = say("tui.line.replay", seed=seed)
    console.print(Text(replay_line, style="dim"))

    def keep(done: Game, hinted: bool) -> None:
        _keep(done, seat, opponents, console, memory_aid=memory_aid, hints_used=hinted)

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
            resumed=resumed,
            after_move=save,
            hand_order=_hand_order(),
            on_sort=_remember_order,
            on_over=keep,
        )
        console.print(Text(replay_line, style="dim"))
    except KeyboardInterrupt:
        console.print("\n" + say("tui.line.interrupted"))
        raise typer.Exit(code=130) from None


def _resume(plain: bool, windows: Mapping[str, float]) -> None:
    """``play --resume``: the saved game, on the full-screen table or (``--plain``, a pipe)
    in line mode, which keeps saving it after every move."""
    saves = _settings()
    if saves is None:
        fail("--resume needs the 'tui' extra (it keeps the save): pip install 'cardtable[tui]'")
    record = saves.load_save()
    if record is None:
        fail(f"no saved game to resume (looked in {saves.save_path()})")
    if _use_table(plain):
        given: dict[str, float | None] = {  # else the saved ones
            k: (v if v != _DEFAULTS[k] else None) for k, v in windows.items()
        }
        try:
            farewell = run_table(None, resume=True, clocks=given)
        except ValueError as err:
            fail(str(err))
        Console().print(Text(farewell, style="dim"))
        return
    try:
        game = replay(record["log"])
    except (ValueError, KeyError, TypeError, IllegalAction) as err:
        fail(f"the saved game cannot be read again ({err}); it is in {saves.save_path()}")

    def save(g: Game) -> None:
        if g.over:
            saves.finish_save({**record, "log": g.log})
        else:
            saves.write_save({**record, "log": g.log})

    _line_mode(
        game,
        int(record.get("seat", 0)),
        seed=game.seed,
        opponents=str(record.get("opponents", "casual")),
        memory_aid=bool(record.get("memory_aid", False)),
        resumed=True,
        save=save,
    )


_DEFAULTS = {"peek_window": 30.0, "snap_window": 5.0, "reveal": REVEAL_SECONDS}
"""The clocks' defaults (a resumed game keeps its own unless others are given)."""

_WINDOW = number_in(0.0, 3600.0, "seconds")
_REVEAL = number_in(REVEAL_RANGE[0], REVEAL_RANGE[1], "seconds")


# The command's argument and options (each used once, by :func:`play_command`).
_GameArg = Annotated[
    str | None,
    typer.Argument(
        metavar="GAME",
        help="the game to play, in any case ('cardtable variants' lists them); not with --resume",
        autocompletion=complete_variant,
        show_default=False,
    ),
]
_PlayersOpt = Annotated[
    int | None,
    typer.Option("--players", "-p", metavar="N", help="number of seats (default: the game's)"),
]
_SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        "-s",
        metavar="N",
        help="seed for the deal and the bots, 0 or more (default: a fresh one, printed to replay)",
        callback=number_in(0, 2**63 - 1, optional=True),
    ),
]
_SeatOpt = Annotated[int, typer.Option("--seat", metavar="N", help="your seat (0 is the first)")]
_TargetOpt = Annotated[
    str | None,
    typer.Option(
        "--target",
        "-t",
        metavar="POINTS",
        help="points that end the match, or 'none' for one round",
    ),
]
_OpponentsOpt = Annotated[
    str,
    typer.Option(
        "--opponents",
        "-a",
        metavar="LEVEL",
        help="the bots' level (beginner, casual, expert, master) or agent (random, …)",
    ),
]
_MemoryAidOpt = Annotated[
    bool,
    typer.Option(
        "--memory-aid",
        metavar="",
        help="keep every card you have seen shown (default: a face-down card is shown only "
        "when you see it — a peek, spy or look — and then hidden again)",
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
_PeekWindowOpt = Annotated[
    float,
    typer.Option(
        "--peek-window",
        metavar="SECONDS",
        help="full-screen table: seconds for the initial peek, 0 to 3600 (0: no clock)",
        callback=_WINDOW,
    ),
]
_SnapWindowOpt = Annotated[
    float,
    typer.Option(
        "--snap-window",
        metavar="SECONDS",
        help="full-screen table: seconds of a snap window, 0 to 3600 (0: no clock)",
        callback=_WINDOW,
    ),
]
_RevealOpt = Annotated[
    float,
    typer.Option(
        "--reveal",
        metavar="SECONDS",
        help="full-screen table, no memory aid: seconds a card you see stays face up "
        f"({REVEAL_RANGE[0]:g} to {REVEAL_RANGE[1]:g}; it also turns down at your next move)",
        callback=_REVEAL,
    ),
]
_ResumeOpt = Annotated[
    bool,
    typer.Option(
        "--resume",
        metavar="",
        help="continue the last game of the full-screen table (it is saved after every "
        "move); with --plain or a pipe, in line mode",
    ),
]


def play_command(
    variant: _GameArg = None,
    players: _PlayersOpt = None,
    seed: _SeedOpt = None,
    seat: _SeatOpt = 0,
    target: _TargetOpt = None,
    option: RuleOptions = None,
    opponents: _OpponentsOpt = "casual",
    memory_aid: _MemoryAidOpt = False,
    plain: _PlainOpt = False,
    peek_window: _PeekWindowOpt = _DEFAULTS["peek_window"],
    snap_window: _SnapWindowOpt = _DEFAULTS["snap_window"],
    reveal: _RevealOpt = REVEAL_SECONDS,
    resume: _ResumeOpt = False,
) -> None:
    """Play one game against AI opponents (casual by default).

    A memory game: without --memory-aid, a card you look at is shown only once — remember it.
    """
    windows: dict[str, float] = {
        "peek_window": peek_window,
        "snap_window": snap_window,
        "reveal": reveal,
    }
    if resume:
        if variant is not None:
            fail("--resume continues the saved game: give no game name with it")
        _resume(plain, windows)
        return
    if variant is None:
        fail("which game? name one (cardtable variants lists them), or give --resume")
    game, seed = _new_game(variant, players, seed, option, target, opponents)
    if not 0 <= seat < game.players:
        fail(f"--seat must be a seat from 0 to {game.players - 1}, got {seat}")
    if _use_table(plain):
        farewell = run_table(
            game,
            seat,
            opponents=opponents,
            bot_seed=seed,
            memory_aid=memory_aid,
            clocks=dict(windows),
        )
        Console().print(Text(farewell, style="dim"))
        return
    _line_mode(game, seat, seed=seed, opponents=opponents, memory_aid=memory_aid)


def _new_game(
    variant: str,
    players: int | None,
    seed: int | None,
    option: list[str] | None,
    target: str | None,
    opponents: str,
) -> tuple[Game, int]:
    """The game ``play`` asks for and its seed (default: a fresh one); any setting that
    cannot work (the game, the bots, a rule option, the target, the players) fails."""
    try:
        name = resolve_variant(variant)
    except ValueError as err:
        fail(str(err))
    if seed is None:
        seed = random.SystemRandom().randrange(100_000)
    try:
        agents.get(opponents)
    except ValueError as err:
        fail(str(err))
    if name not in FRONTS:
        fail(f"the terminal cannot draw {name} yet; playable here: {', '.join(PLAYABLE)}")
    options: Options = {}
    try:
        for text in option or []:
            key, value = parse_option(text, name)
            options[key] = value
        if target is not None:
            options["target"] = parse_option(f"target={target}", name)[1]
        return new_game(name, players=players, seed=seed, options=options), seed
    except ValueError as err:
        fail(str(err))
