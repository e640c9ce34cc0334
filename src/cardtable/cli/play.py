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

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Annotated, Any

import typer
from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from .. import Game, IllegalAction, agents, new_game, variants
from ..views import FamilySlot
from .fronts import FRONTS, PLAYABLE, front
from .render import Front, _fail, render_legal, render_result
from .rules import parse_option, rules_markdown

__all__ = ["PROMPT", "InputFn", "play_command", "play_loop"]

InputFn = Callable[[str], str]
"""Reads one line of input after showing a prompt; raises ``EOFError`` when there is none."""

PROMPT = "Your move (number, action, help, rules, quit): "
"""The prompt shown when the human seat may act."""


def _help(game: str, memory_aid: bool = False) -> RenderableType:
    shown = front(game)
    note = shown.note
    if shown.memory is not None:
        note += " " + shown.memory(memory_aid)
    table = Table(title="What to type", title_style="bold", show_lines=False)
    table.add_column("input", style="bold", no_wrap=True)
    table.add_column("meaning")
    table.add_row("a number", "the action with that number in the list of legal actions")
    for word, meaning in shown.notation:
        table.add_row(word, meaning)
    table.add_row("help", "this list")
    table.add_row("rules", "the rules of this game")
    hidden = shown.memory is not None and not memory_aid
    table.add_row(
        "table",
        "draw the table again" + (" (no card you saw earlier: no memory aid)" if hidden else ""),
    )
    table.add_row("quit", "leave the game")
    return Group(table, Text(note, style="dim"))


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


def _sights(ev: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The face-down cards event ``ev`` (as the seat sees it) showed: ``(address, code)`` pairs.

    A peek, spy or look shows its looker the cards (another seat's carries no code); a failed
    claim (``cabo``) or a failed drop (``cabo-german``) shows everyone cards that go back face
    down.
    """
    kind = ev.get("type")
    at = ev.get("at")
    addrs = [at] if isinstance(at, str) else [str(a) for a in at or []]
    if kind in ("peek", "spy") or (kind == "drop" and ev.get("ok") is False):
        return [(addrs[0], str(ev["card"]))] if addrs and "card" in ev else []
    if kind == "look" or (kind == "claim" and ev.get("ok") is False):
        codes = ev.get("cards" if kind == "look" else "shown") or []
        return list(zip(addrs, [str(c) for c in codes], strict=False))
    return []


def _note_sights(events: Iterable[Mapping[str, Any]], sights: dict[str, str]) -> None:
    """Add to ``sights`` (address → code: what the seat has seen since the last table) the
    cards ``events`` showed; a new deal forgets them."""
    for ev in events:
        if ev.get("type") == "round_start":
            sights.clear()
        sights.update(_sights(ev))


def _table_view(
    game: Game, me: int, memory_aid: bool, sights: dict[str, str], shown: Front
) -> Mapping[str, Any]:
    """The view a table is drawn from, with the terminal's own keys ``memory_aid`` and
    ``seen_now``.

    With the memory aid it is ``view(me)``: every card the seat has ever known. Without it, it
    is ``view(me, memory=False)`` plus the face-down cards in ``sights`` — those the seat has
    just seen — each only where ``view(me)`` still knows that card: a card moved since (a
    replace, a blind exchange, a drop …) is not shown at its old place (unless, in the Cabo
    deck, whose values repeat, a known card of the same value took it), and the table never
    names a card the seat does not know. A game with nothing to remember (``shown``, its
    front, has no ``memory``) gets its view as it is.
    """
    if memory_aid:
        return {**game.view(me), "memory_aid": True}
    view = {**game.view(me, memory=False), "memory_aid": False}
    if not sights or shown.memory is None:
        return view
    # Only a memory game gets here: a Cabo-family one, whose hands are rows of FamilySlot.
    known: list[list[FamilySlot | None]] = game.view(me)["hands"]
    view_hands: list[list[FamilySlot | None]] = view["hands"]
    hands = [list(hand) for hand in view_hands]
    seen_now: dict[str, str] = {}
    for addr, code in sights.items():
        seat, _, pos = addr.partition(".")
        s, p = int(seat), int(pos)
        if not (0 <= s < len(hands) and 0 <= p < len(hands[s])):
            continue
        cell, memo = hands[s][p], known[s][p]
        if cell is None or memo is None or memo["card"] != code or cell["card"] is not None:
            continue  # gone, moved, or already shown (gabo's initial peek)
        hands[s][p] = {**cell, "card": code}
        seen_now[addr] = code
    return {**view, "hands": hands, "seen_now": seen_now}


def _print_events(
    events: Iterable[Mapping[str, Any]], me: int, console: Console, shown: Front
) -> None:
    """Print events (as seat ``me`` sees them: ``Event.for_seat``) in words."""
    for ev in events:
        for part in shown.event(ev, me):
            console.print(part)


def play_loop(
    game: Game,
    seat: int,
    console: Console,
    source: Iterable[str] | InputFn,
    *,
    bot_seed: int = 0,
    opponents: str = "casual",
    memory_aid: bool = False,
) -> bool:
    """Play ``game`` to its end in the terminal: ``seat`` is the human, the others are bots.

    ``game`` is a new game: the loop starts by printing its ``opening_events``, then the events
    each move returns. ``source`` gives the human's lines (an iterable, or a callable taking
    the prompt); running out of input counts as ``quit``. Bots are ``opponents`` agents (a name
    or level from :mod:`cardtable.agents`) seeded from ``bot_seed``; whenever the human seat is
    among the actors (also in simultaneous phases) the human acts first.

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
    _note_sights(seen, sights)
    while not game.over:
        if seat in game.actors:
            view = _table_view(game, seat, memory_aid, sights, shown)
            sights.clear()  # shown once: later tables hide them again
            console.print(shown.table(view, seat, title))
            legal: list[str] = view["legal"]
            console.print(render_legal(legal))
            while True:
                try:
                    line = read(PROMPT)
                except EOFError:
                    line = "quit"
                text = line.strip()
                word = text.lower()
                if not text:
                    continue
                if word in ("quit", "exit", "q"):
                    console.print(Text("You left the game.", style="bold"))
                    return False
                if word in ("help", "h", "?"):
                    console.print(_help(game.variant, memory_aid))
                    continue
                if word == "rules":
                    console.print(Markdown(rules_markdown(game.variant)))
                    continue
                if word == "table":
                    again = _table_view(game, seat, memory_aid, {}, shown)
                    console.print(shown.table(again, seat, title))
                    console.print(render_legal(legal))
                    continue
                if word.isdigit():
                    k = int(word)
                    if not 1 <= k <= len(legal):
                        console.print(Text(f"choose a number from 1 to {len(legal)}", style="red"))
                        continue
                    text = legal[k - 1]
                try:
                    events = game.play(seat, text)
                except IllegalAction as err:
                    console.print(Text(str(err), style="red"))
                    continue
                break
        else:
            bot = game.actors[0]
            events = game.play(bot, bots[bot].act(game, bot))
        seen = [ev.for_seat(seat) for ev in events]
        _print_events(seen, seat, console, shown)
        _note_sights(seen, sights)
    console.print(render_result(game.view(seat, memory=memory_aid), seat))
    return True


# ---------------------------------------------------------------------------- the command
def play_command(
    variant: Annotated[
        str, typer.Argument(help="the game to play ('cardtable variants' lists them)")
    ],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of seats (default: the game's)")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="seed for the deal and the bots")] = 0,
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
) -> None:
    """Play one game against AI opponents (casual by default).

    A memory game: without --memory-aid, a card you look at is shown only once — remember it.
    """
    try:
        name = variants.get(variant).name
    except ValueError as err:
        _fail(str(err))
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
    console = Console()
    try:
        play_loop(
            game,
            seat,
            console,
            console.input,
            bot_seed=seed,
            opponents=opponents,
            memory_aid=memory_aid,
        )
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        raise typer.Exit(code=130) from None
