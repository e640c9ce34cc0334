"""The ``cardtable rules`` and ``cardtable variants`` commands, and the rule options.

Everything here is read from the variant registry (:mod:`cardtable.variants`): the written
rules (the plain page in the catalog's language, or with ``--notation`` the page of the words
a player types, with its option table), the list of games.
"""

from __future__ import annotations

import difflib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from typing import Annotated

import typer
from rich.console import Console, ConsoleOptions, RenderableType
from rich.markdown import Markdown
from rich.segment import Segment
from rich.style import Style
from rich.table import Table

from .. import variants
from ..catalog import say
from ..text.render import card_text
from ..text.rules import plain_rules, rules_markdown
from ..variants import OptionValue
from .errors import fail

__all__ = [
    "RuleOptions",
    "complete_variant",
    "list_variants",
    "parse_option",
    "resolve_variant",
    "rules_command",
]


RuleOptions = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="NAME=VALUE",
        help="any rule option (repeatable; 'cardtable rules GAME' lists them)",
    ),
]
"""The ``-o NAME=VALUE`` option of the commands that make a game (``play``, ``arena``)."""


def _spellings() -> dict[str, str]:
    """Every accepted spelling of a game, lower case: its name and its aliases → its name."""
    out: dict[str, str] = {}
    for name in variants.names():
        out[name.lower()] = name
        for alias in variants.get(name).aliases:
            out.setdefault(alias.lower(), name)
    return out


def resolve_variant(text: str, playable: tuple[str, ...] | None = None) -> str:
    """The registered name of the game ``text`` names, ignoring case (an alias works too).

    ``playable`` narrows the choice. Raises ``ValueError`` for an unknown game, suggesting the
    nearest name (``did you mean 'gabo'?``) when there is one.
    """
    spellings = _spellings()
    if playable is not None:
        spellings = {k: v for k, v in spellings.items() if v in playable}
    key = text.strip().lower()
    if key in spellings:
        return spellings[key]
    choices = list(playable) if playable is not None else variants.names()
    near = difflib.get_close_matches(key, list(spellings), n=1, cutoff=0.6)
    hint = f"; did you mean {spellings[near[0]]!r}?" if near else ""
    raise ValueError(f"unknown game {text!r}{hint} (games: {', '.join(choices)})")


def complete_variant(incomplete: str) -> list[str]:
    """Shell completion for a game argument: the names that start with what is typed."""
    return [n for n in variants.names() if n.startswith(incomplete.lower())]


def parse_option(text: str, variant: str) -> tuple[str, OptionValue]:
    """Turn ``NAME=VALUE`` into an option for ``variant``; ``ValueError`` if it makes no sense."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not sep or not name:
        raise ValueError(f"options are written NAME=VALUE, got {text!r}")
    specs = {o.name: o for o in variants.get(variant).options}
    if name not in specs:
        raise ValueError(
            f"unknown option {name!r} for {variant}; known options: " + ", ".join(sorted(specs))
        )
    types = specs[name].types
    low = raw.lower()
    if low in ("none", "null") and type(None) in types:
        return name, None
    if bool in types:
        if low in ("true", "yes", "on", "1"):
            return name, True
        if low in ("false", "no", "off", "0"):
            return name, False
    if int in types:
        try:
            return name, int(raw)
        except ValueError:
            pass
    want = " or ".join("none" if t is type(None) else t.__name__ for t in types)
    raise ValueError(f"option {name!r} must be {want}, got {raw!r}")


def _pager() -> tuple[list[str], bool] | None:
    """The pager to show the rules in, and whether it renders colours: ``$PAGER`` if set (with
    colours only when it is ``less`` and ``-R`` or ``-r`` is in its options or in ``$LESS``),
    else ``less -R``; ``None`` when there is none to run."""
    chosen = os.environ.get("PAGER", "").strip()
    if not chosen:
        return (["less", "-R"], True) if shutil.which("less") else None
    try:
        command = shlex.split(chosen)
    except ValueError:
        return None
    if not command or shutil.which(command[0]) is None:
        return None
    flags = " ".join([*command[1:], os.environ.get("LESS", "")])
    colour = os.path.basename(command[0]) == "less" and re.search(r"-\w*[rR]", flags) is not None
    return command, colour


_CARD = re.compile(r"\[([0-9]{1,2}|[0-9AJQK]{1,2}[CDHS]|RJ|BJ)\]")
"""A card as the rules write it in the terminal: ``[KH]``, ``[10C]``, ``[RJ]``, ``[7]``."""


class CardsColoured:
    """A renderable that draws ``inner`` with every card in it (``[KH]``) coloured as the
    table colours cards (:func:`~cardtable.text.render.card_text`): red suits red."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner
        """What is drawn."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        """The inner renderable's segments, each card in them restyled (a card is never
        split over two segments: it holds no space to wrap at)."""
        for seg in console.render(self.inner, options):
            if seg.control or "[" not in seg.text:
                yield seg
                continue
            end = 0
            for match in _CARD.finditer(seg.text):
                yield Segment(seg.text[end : match.start()], seg.style)
                drawn = card_text(match.group(1))
                colour = drawn.get_style_at_offset(console, len(drawn) - 1)
                yield Segment(match.group(), (seg.style or Style()) + colour)
                end = match.end()
            yield Segment(seg.text[end:], seg.style)


def _page(markdown: str) -> None:
    """Show ``markdown`` in a pager on this terminal; printed plain if no pager runs."""
    pager = _pager()
    width = shutil.get_terminal_size().columns
    styled = pager is not None and pager[1]
    buf = io.StringIO()
    Console(
        file=buf, width=width, force_terminal=styled, color_system="standard" if styled else None
    ).print(CardsColoured(Markdown(markdown)))
    if pager is not None:
        try:
            subprocess.run(pager[0], input=buf.getvalue(), text=True, check=False)
            return
        except OSError:
            pass
    sys.stdout.write(buf.getvalue())


def rules_command(
    variant: Annotated[
        str,
        typer.Argument(
            metavar="GAME",
            help="the game whose rules to print (any case; 'cardtable variants' lists them)",
            autocompletion=complete_variant,
            show_default=False,
        ),
    ],
    notation: Annotated[
        bool,
        typer.Option(
            "--notation",
            help="print the words you type to play (draw deck, replace 2 …) and the rule "
            "options instead of the rules in plain words",
        ),
    ] = False,
) -> None:
    """Print the rules of a game in plain words, with its card values, in the language of
    the messages (CARDTABLE_LANG: en, de); --notation prints the page of the words you type
    and the rule options.

    On a terminal the rules open in a pager: $PAGER, else less -R (colours only where the
    pager shows them: less with -R; any other pager gets plain text); piped, they are printed
    plain.
    """
    try:
        name = resolve_variant(variant)
        text = rules_markdown(name) if notation else _plain_page(name)
    except ValueError as err:
        fail(str(err))
    if sys.stdout.isatty():
        _page(text)
    else:
        Console().print(CardsColoured(Markdown(text)))


def _plain_page(name: str) -> str:
    """The plain rules of the game ``name`` for the terminal, in the catalog's language, and
    where the notation page is."""
    return plain_rules(name) + "\n---\n\n*" + say("rules.notation_hint", game=name) + "*\n"


def list_variants() -> None:
    """List the games, their player counts and a one-line summary."""
    table = Table(title="Games", title_style="bold")
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("title")
    table.add_column("players", no_wrap=True)
    table.add_column("summary")
    for name in variants.names():
        v = variants.get(name)
        table.add_row(
            name,
            v.title,
            f"{v.min_players}–{v.max_players} ({v.default_players})",
            v.summary,
        )
    Console().print(table)
