"""The full-screen table's own words on its keys: the help page (``?``) and the keys line at
the foot of the screen, both for the game being played only. The help page also holds the
game's card values (the legend of its rules pages, its cards written ``[KH]``), whose unusual
values the table marks beside the cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text

from ..text.catalog import say
from ..text.keys import QUTE_SORT_KEY
from ..text.render import Front
from ..text.rules import cards_as_text, plain_rules, values_legend

__all__ = ["help_markdown", "keys_line"]


def keys_line(
    keys: Mapping[str, str],
    words: Sequence[str],
    *,
    qute: bool,
    events: bool,
    width: int = 0,
) -> Text:
    """The foot of the screen: help and quit first (never cut off), then the key of every
    word of this game (the same in every menu), then the table's own keys; ``events``: the
    scroll keys move the event panel. Where it would not fit two lines of ``width`` cells
    (Qute's many words at 80 columns), it is written tighter."""
    full = _keys_line(keys, words, qute=qute, events=events, tight=False, extras=True)
    if width <= 0:
        return full
    # two lines of the width, less what word wrapping may leave empty at the first line's end
    room = 2 * (width - 2) - 8
    for tight, extras in ((False, True), (False, False), (True, False)):
        line = _keys_line(keys, words, qute=qute, events=events, tight=tight, extras=extras)
        if line.cell_len <= room:
            return line
    return line


def _keys_line(
    keys: Mapping[str, str],
    words: Sequence[str],
    *,
    qute: bool,
    events: bool,
    tight: bool,
    extras: bool = True,
) -> Text:
    out = Text()
    gap = " " if tight else "  "

    def key(letter: str, meaning: str) -> None:
        out.append(letter, style="bold")
        out.append(f" {meaning}{gap}")

    key("?", say("tui.keys.help"))
    key("q", say("tui.keys.quit"))
    if extras:  # where the line has room (else the help page names them)
        key("b", say("hint.short"))
        key("f", say("practice.short"))
    out.append("│ ")
    # Qute's suits: their own capital letter, in the suit order
    suits = sorted((w for w in words if keys.get(w) == w), key="CDHS".find)
    for word in words:
        if word not in suits:
            key(keys[word], word)
    if suits:
        key("".join(suits) if tight else "/".join(suits), "♣♦♥♠")
    if qute:
        key(QUTE_SORT_KEY, say("tui.keys.sort"))
    panel, seats = say("tui.keys.events"), say("tui.keys.seats")
    scrolled, other = (panel, seats) if events else (seats, panel)
    if tight:
        key("PgUp/PgDn", say("tui.keys.scroll.tight", scrolled=scrolled))
    else:
        key("PgUp/PgDn", say("tui.keys.scroll", scrolled=scrolled, other=other))
    out.rstrip()
    out.stylize("dim")
    return out


def help_markdown(
    front: Front,
    keys: Mapping[str, str],
    words: Sequence[str],
    variant: str,
    *,
    memory_aid: bool,
    qute: bool,
    reveal: float,
) -> str:
    """The help page: this game's keys, the table's keys, its card values, its notation, the
    memory note and its rules, as Markdown."""
    letters = " · ".join(f"**{keys[w]}** {w}" for w in words)
    sort = f"- {say('tui.help.sort', key=QUTE_SORT_KEY)}\n" if qute else ""
    memory = front.memory(memory_aid) if front.memory else ""
    seen = "" if qute or memory_aid else f"- {say('tui.help.seen', reveal=reveal)}\n"
    rows = "\n".join(f"| `{text}` | {meaning} |" for text, meaning in front.notation)
    bullets = "".join(
        f"- {say(f'tui.help.{name}')}\n" for name in ("numbers", "arrows", "call", "undo", "scroll")
    )
    return (
        f"# {say('tui.help.keys')}\n\n"
        f"{say('tui.help.letters', letters=letters)}\n\n"
        f"{bullets}{sort}"
        f"- {say('tui.help.mouse')}\n"
        f"- {say('tui.help.help')}\n"
        f"- **b**: {say('hint.help')}\n"
        f"- **f**: {say('practice.help')}\n"
        f"- {say('tui.help.meaningless')}\n\n"
        f"# {say('tui.help.clocks')}\n\n"
        f"- {say('tui.help.clock')}\n"
        f"{seen}\n"
        f"# {say('rules.values.heading')}\n\n{cards_as_text(values_legend(variant))}\n"
        f"# {say('tui.help.notation')}\n\n"
        f"| {say('tui.help.text')} | {say('tui.help.meaning')} |\n|---|---|\n{rows}\n\n"
        f"{front.note} {memory}\n\n" + plain_rules(variant)
    )
