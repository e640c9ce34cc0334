"""The full-screen table's own words on its keys: the help page (``?``) and the keys line at
the foot of the screen, both for the game being played only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text

from ..text.keys import QUTE_SORT_KEY
from ..text.render import Front
from ..text.rules import rules_markdown

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
    full = _keys_line(keys, words, qute=qute, events=events, tight=False)
    if width <= 0 or full.cell_len <= 2 * (width - 2):
        return full
    return _keys_line(keys, words, qute=qute, events=events, tight=True)


def _keys_line(
    keys: Mapping[str, str], words: Sequence[str], *, qute: bool, events: bool, tight: bool
) -> Text:
    out = Text()
    gap = " " if tight else "  "

    def key(letter: str, meaning: str) -> None:
        out.append(letter, style="bold")
        out.append(f" {meaning}{gap}")

    key("?", "help")
    key("q", "quit")
    out.append("│ ")
    # Qute's suits: their own capital letter, in the suit order
    suits = sorted((w for w in words if keys.get(w) == w), key="CDHS".find)
    for word in words:
        if word not in suits:
            key(keys[word], word)
    if suits:
        key("".join(suits) if tight else "/".join(suits), "♣♦♥♠")
    if qute:
        key(QUTE_SORT_KEY, "sort")
    if tight:
        key("PgUp/PgDn", f"{'events' if events else 'seats'} (Tab)")
    else:
        scrolled, other = ("events", "seats") if events else ("seats", "events")
        key("PgUp/PgDn", f"{scrolled} (Tab: {other})")
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
    """The help page: this game's keys, the table's keys, its notation, the memory note and
    its rules, as Markdown."""
    letters = " · ".join(f"**{keys[w]}** {w}" for w in words)
    sort = (
        f"- **{QUTE_SORT_KEY}**: sort your hand by suit or by rank (remembered)\n" if qute else ""
    )
    memory = front.memory(memory_aid) if front.memory else ""
    seen = (
        ""
        if qute or memory_aid
        else f"- A card you see stays face up for {reveal:g} s (or until your next move), "
        "whatever covers the table meanwhile; the line *Seen now* names it while it lasts.\n"
    )
    rows = "\n".join(f"| `{text}` | {meaning} |" for text, meaning in front.notation)
    return (
        "# Keys\n\n"
        f"Every word of a move has one key, the same in every menu: {letters}\n\n"
        "- **numbers**: a card by its number on the table — `2` is your card 2, `1.3` is "
        "seat 1's card 3 (counted from 0, as in the notation); where one word alone leads to "
        "a card (`peek` in the initial peek), the card alone is enough\n"
        "- **arrows** move over the cards that may come next; **Enter** or **Space** "
        "chooses one, or plays the move as built; in a peek or snap window Enter lets the "
        "table choose for you\n"
        "- a **call** that ends the round asks first: its key again (or Enter) calls, "
        "**Esc** takes it back\n"
        "- **Esc** / **Backspace**: undo the last step\n"
        "- **PageUp** / **PageDown** / **Home** / **End**: scroll the other seats; **Tab** "
        "gives these keys to the event panel and back (your hand, the piles and the cards "
        "just seen are always on screen)\n"
        f"{sort}"
        "- **mouse**: click a card, a pile or a word\n"
        "- **?** / **h** / **F1**: this help · **q**: quit (the game is saved: "
        "`cardtable play --resume` continues it) · **n**: play again when the game is over\n"
        "- A key that means nothing at that moment says so in the prompt line.\n\n"
        "# Clocks\n\n"
        "- A peek or snap window has a clock (⏱ in the status bar); when it runs out the "
        "table plays for you and the event panel says *time ran out*. While this help or a "
        "round's results cover the table, the clock and the AI players wait.\n"
        f"{seen}\n"
        f"# Notation\n\n| text | meaning |\n|---|---|\n{rows}\n\n"
        f"{front.note} {memory}\n\n" + rules_markdown(variant)
    )
