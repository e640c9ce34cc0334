"""The pieces of the full-screen table: a card or pile (:class:`CardBox`), a word that may come
next (:class:`ChoiceBox`), a seat's panel, and the help and result screens. The app
(:mod:`cardtable.tui.app`) lays them out and builds the moves."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.markdown import Markdown
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from ..text.catalog import say
from ..text.render import FACE_DOWN

__all__ = [
    "CARD_WIDTH",
    "MARK_STYLE",
    "CardBox",
    "ChoiceBox",
    "HelpScreen",
    "Picked",
    "ResultScreen",
    "SeatPanel",
    "value_mark",
]


def _face(code: str | None, empty: bool = False) -> Text:
    """A card face five columns wide: ``[7H]`` in its suit's colour, or :data:`FACE_DOWN`
    (``empty``: a pile with no card)."""
    if empty:
        return Text(say("tui.pile.empty").center(len(FACE_DOWN)), style="dim")
    if code is None:
        return Text(FACE_DOWN, style="blue")
    red = code in ("RJ",) or code[-1:] in ("D", "H")
    style = "bold red" if red else ("bold" if code[-1:] in ("C", "S", "J") else "bold cyan")
    return Text(f"[{code}]".center(len(FACE_DOWN)), style=style)


class Picked(Message):
    """A card, pile or word was clicked: ``word`` is what it adds to the move."""

    def __init__(self, word: str) -> None:
        self.word = word
        super().__init__()


CARD_WIDTH = len(FACE_DOWN)
"""The columns a card of a hand takes (the table's grid gives it no more)."""

MARK_STYLE = "bold black on yellow"
"""How the points of a card whose value is unusual are written beside it."""


def value_mark(value: int) -> str:
    """Points as the mark beside a card writes them: ``15``, ``−2`` (a real minus sign)."""
    return f"−{-value}" if value < 0 else str(value)


def _card_text(label: str, code: str | None, empty: bool, value: int | None, beside: bool) -> Text:
    """A card box's two lines: its label above its face, and where the card's value is
    unusual (``value`` given and the card face up), that value marked — at the right of the
    label line (tight against a long label: the mark's colours set it apart), or, ``beside``,
    after the face (a pile, as wide as its name)."""
    head = Text(label, style="bold")
    face = _face(code, empty)
    if value is None or code is None or empty:
        return Text.assemble(head, "\n", face)
    mark = Text(value_mark(value), style=MARK_STYLE)
    if beside:
        return Text.assemble(head, "\n", face, " ", mark)
    gap = max(0, CARD_WIDTH - len(label) - len(mark))
    return Text.assemble(head, " " * gap, mark, "\n", face)


class CardBox(Static):
    """One card or pile on the table: its number (or name) above its face, and the card's
    points where its value is unusual in the game (:func:`~cardtable.text.presentation.
    value_marks`): a gabo red king reads ``0  15`` over ``[KH]``."""

    def __init__(
        self,
        label: str,
        code: str | None,
        word: str,
        *,
        id: str,
        classes: str = "",
        empty: bool = False,
        value: int | None = None,
        beside: bool = False,
    ) -> None:
        self.label = label
        """The number shown above the card (the notation's), or the pile's name."""
        self.code = code
        """The card's code as shown (``None``: face down)."""
        self.word = word
        """What choosing this card adds to a move."""
        self.value = value if code is not None and not empty else None
        """The points marked beside the face (``None``: no mark, the value is usual or the
        card is face down)."""
        super().__init__(_card_text(label, code, empty, value, beside), id=id, classes=classes)

    def on_click(self) -> None:
        """Offer this card's word to the move being built."""
        self.post_message(Picked(self.word))


class ChoiceBox(Static):
    """A word that may come next in the move, with its key."""

    def __init__(self, key: str, word: str, label: str) -> None:
        self.word = word
        """What choosing it adds to the move (``""``: play the move as built)."""
        super().__init__(Text.assemble((f" {key} ", "reverse bold"), f" {label} "))

    def on_click(self) -> None:
        """Choose this word."""
        self.post_message(Picked(self.word))


class HelpScreen(ModalScreen[None]):
    """The keys, the notation of the game and its rules."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,q,h", "dismiss_help", "close")
    ]

    def __init__(self, markdown: str) -> None:
        self.markdown = markdown
        """The text shown."""
        super().__init__()

    def compose(self) -> ComposeResult:
        """A scrolling page of Markdown (drawn as one block of text: it opens at once)."""
        with VerticalScroll(id="help"):
            yield Static(Markdown(self.markdown), id="help-text")

    def action_dismiss_help(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class ResultScreen(ModalScreen[str]):
    """The final result, with play again (``n``) and quit (``q``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('again')", "play again"),
        Binding("q", "choose('quit')", "quit"),
        Binding("escape", "choose('table')", "look at the table"),
    ]

    def __init__(self, result: RenderableType) -> None:
        self.result = result
        """What the game's end looks like (the line mode's result table)."""
        super().__init__()

    def compose(self) -> ComposeResult:
        """The keys first (always in view), then the result, which scrolls (arrows,
        PageUp/PageDown)."""
        with VerticalScroll(id="result"):
            yield Static(
                Text(say("tui.result.keys"), style="bold"),
                classes="keys",
            )
            yield Static(self.result)

    def action_choose(self, what: str) -> None:
        """Close with ``what`` (``again``, ``quit`` or ``table``)."""
        self.dismiss(what)


class RoundScreen(ModalScreen[None]):
    """The results of a round of a match; the next round (its clocks, its bots) waits until
    the person closes them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "next_round", "next round"),
    ]

    def __init__(self, title: str, result: RenderableType) -> None:
        self.title_text = title
        """What the screen says first ("Round 2 is over.")."""
        self.result = result
        """The round's results (the line mode's round table)."""
        super().__init__()

    def compose(self) -> ComposeResult:
        """The title and the key first (always in view), then the results, which scroll."""
        with VerticalScroll(id="round"):
            yield Static(
                Text.assemble(
                    (self.title_text, "bold"),
                    "  ",
                    (say("tui.round.next"), "bold reverse"),
                    " " + say("tui.round.wait"),
                ),
                classes="keys",
            )
            yield Static(self.result)

    def action_next_round(self) -> None:
        """Close: the next round begins."""
        self.dismiss(None)


class SeatPanel(Vertical):
    """One seat: its name and total, then its cards."""
