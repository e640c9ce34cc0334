"""The hint overlay of the full-screen table: every legal move with what the search expects of
it, best first; choosing a row plays that move."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..catalog import say
from ..learn.hints import Hint

__all__ = ["HintScreen"]


class HintScreen(ModalScreen[str | None]):
    """The hint's rows; Enter (or a click) on a row plays its move, Escape closes."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,b,q", "close", "close")]

    def __init__(self, found: Hint) -> None:
        self.found = found
        """The hint shown."""
        super().__init__()

    def compose(self) -> ComposeResult:
        """The title, the rows (the best marked) and how to use them."""
        with Vertical(id="hint"):
            yield Static(Text(say("hint.title"), style="bold"), id="hint-title")
            options = []
            for row in self.found.rows:
                mark = "★ " if row.best else "  "
                line = Text(mark + row.line(), style="bold green" if row.best else "")
                options.append(Option(line, id=str(row.action)))
            yield OptionList(*options, id="hint-rows")
            yield Static(Text(say("hint.use"), style="dim"), id="hint-use")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Play the chosen row's move."""
        self.dismiss(event.option.id)

    def action_close(self) -> None:
        """Back to the table, nothing played."""
        self.dismiss(None)
