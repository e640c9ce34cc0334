"""The full-screen lesson: the table of :class:`~cardtable.tui.app.CardtableApp` with a panel
that says what to do, :class:`LessonApp` (``cardtable learn GAME`` opens it on a terminal).

Everything of the table is the normal one — the seats, the piles, the hand, the menu of the
words that may come next, the keys — except who decides: the person's moves go to the lesson
(:meth:`cardtable.learn.lessons.LessonRun.try_move`), which plays the one the step expects and
the other seats' scripted answers, or says why it does not (a move the step does not want is
explained in the panel and not played). No AI moves, no clock runs, nothing is saved. A step
that is only read goes on with Enter; the round's results open over the table when the round
ends. At the last step Enter closes the lesson and :func:`run_lesson` starts the normal table
for a real round against the beginner AI.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Unpack

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from ..catalog import say
from ..events import Pass
from ..game import Event
from ..games.family.rulesets import RULESETS
from ..learn.lessons import LessonRun, Outcome, answer
from .app import CardtableApp, ChoiceBar, Dock, EventLog, TableArea
from .board import Board
from .flow import TableSettings

__all__ = ["LessonApp", "LessonResults", "run_lesson"]


class LessonResults(ModalScreen[None]):
    """The round's results, over the table; Enter goes back to the lesson."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", "back to the lesson"),
    ]

    def __init__(self, result: RenderableType) -> None:
        self.result = result
        """The round's results (the line mode's round table)."""
        super().__init__()

    def compose(self) -> ComposeResult:
        """The key first (always in view), then the results."""
        with VerticalScroll(id="round"):
            yield Static(Text(say("learn.ui.go_on"), style="bold reverse"), classes="keys")
            yield Static(self.result)

    def action_close(self) -> None:
        """Back to the lesson."""
        self.dismiss(None)


class LessonApp(CardtableApp):
    """A lesson on the full-screen table for the learner of ``run`` (see the module's text);
    ``settings`` as :class:`~cardtable.tui.flow.TableFlow`'s (tests pass their clock)."""

    CSS: ClassVar[str] = """
    LessonApp LessonResults { align: center middle; }
    #lesson { height: auto; max-height: 12; padding: 0 1; border: round $success;
              border-title-color: $success; border-title-style: bold; }
    LessonApp.-compact #lesson { border: none; border-top: round $success; }
    """

    def __init__(self, run: LessonRun, **settings: Unpack[TableSettings]) -> None:
        fixed: TableSettings = {
            "peek_window": 0.0,
            "snap_window": 0.0,
            "bot_pause": 0.0,
            "save": False,
        }
        fixed.update(settings)
        super().__init__(run.game, run.me, opponents="beginner", **fixed)
        self.run_ = run
        """The lesson being played."""
        self.said: Outcome | None = None
        """What the lesson answered the last move it did not play (until the next move)."""
        self.wants_real_round = False
        """Whether the learner closed the lesson at its end asking for a real round."""
        self._results_shown = False

    # ------------------------------------------------------------------ drawing
    def compose(self) -> ComposeResult:
        """The table's layout, with the lesson's panel above the prompt."""
        yield Static(id="status")
        with Horizontal(id="body"):
            yield TableArea(id="table")
            yield EventLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Dock(id="dock")
        yield Static(id="lesson")
        yield Static(id="prompt")
        yield ChoiceBar(id="choices")
        yield Static(id="keys")

    def board(self) -> Board:
        """The table's drawing; the other seats are named as the lesson's, not as AI
        players (they play the lesson's script)."""
        return dataclasses.replace(super().board(), opponents="lesson")

    def lesson_text(self) -> Text:
        """What the panel says: the step's words, then the answer to a move not played."""
        run = self.run_
        out = Text(run.words)
        if self.said is not None:
            style = "bold red" if self.said.kind == "refused" else "bold yellow"
            out.append("\n\n")
            out.append(answer(self.said), style=style)
        return out

    def _draw_bars(self) -> None:
        super()._draw_bars()
        found: list[Widget] = list(self.query("#lesson"))
        if found and isinstance(found[0], Static):
            found[0].border_title = (
                say("learn.title", game=self.run_.lesson.title) + " · " + self.run_.progress
            )
            found[0].update(self.lesson_text())

    def _prompt(self) -> Text:
        run = self.run_
        if run.done:
            return Text(say("learn.ui.real_round"), style="bold")
        if run.reading:
            return Text(say("learn.ui.go_on"), style="bold")
        return super()._prompt()

    def _show_result(self) -> None:
        """The round's results over the table, once (the lesson goes on under them)."""
        if self._results_shown or self.last_round is None:
            return
        self._results_shown = True
        self._cover()
        shown = LessonResults(self.front.round_end(self.last_round, self.me))
        self.push_screen(shown, lambda _: self._uncover())

    # ------------------------------------------------------------------ how it goes on
    def _advance(self) -> None:
        """After a change: draw the table; the round's results when it has just ended. The
        other seats never move by themselves: the lesson plays their answers."""
        self.table = self._view()
        self.window, self.thinking, self.between = None, None, None
        self._redraw()
        if self.game.over:
            self._show_result()

    def _apply(self, seat: int, action: str, *, by_clock: bool = False) -> None:
        """The learner's move goes to the lesson: played with its scripted answers, or
        answered in the panel and not played."""
        if seat != self.me:  # pragma: no cover - nobody else moves on a lesson's table
            return
        initial_peek = self.table.get("phase") == "peek"
        outcome = self.run_.try_move(action)
        self.prefix, self.typed, self.cursor, self.confirm = [], "", -1, None
        if not outcome.accepted:
            self.said = outcome
            self.bell()
            self._redraw()
            return
        self.said = None
        if not initial_peek:
            self.reveals.clear()  # a card just seen turns down at the learner's next move
        self._tell(self._news(list(outcome.events)), together=initial_peek)
        self._advance()

    def _news(self, events_: list[Event]) -> list[Event]:
        """The events worth telling: not the other seats' passes in a snap window."""
        rs = RULESETS.get(self.game.variant)
        if rs is None or not rs.drops.snaps:
            return events_
        return [ev for ev in events_ if not (isinstance(ev.full, Pass) and ev.full.seat != self.me)]

    def go_on(self) -> None:
        """Enter on a step to read: the next step, or at the end the real round."""
        run = self.run_
        if run.done:
            self.wants_real_round = True
            self.exit()
            return
        outcome = run.go_on()
        self.said = None if outcome.accepted else outcome
        self._redraw()

    def on_key(self, event: events.Key) -> None:
        """Enter goes on from a step to read; any other key there says so. Every other key —
        and every key on a step that waits for a move — is the table's (its handler comes next
        in the class order, then the bindings: help, quit, a screen's own keys)."""
        if self.screen is not self.screen_stack[0] or event.key in _APP_KEYS:
            return
        if not self.run_.reading or event.key in _SCROLL_KEYS:
            return
        event.stop()
        event.prevent_default()  # the table would answer that the game is over, or not yours
        if event.key in ("enter", "space"):
            self.go_on()
        else:
            self.said = Outcome(False, self.run_.phrase("learn.read_on"), "read")
            self.bell()
            self._draw_bars()

    def action_hint(self) -> None:
        """No hints in a lesson: the step says what to do (hints come in the real round)."""
        self._say(say("hint.lesson"))
        self._draw_bars()

    def action_open_hands(self) -> None:
        """No open hands in a lesson either: the step says what to do."""
        self.action_hint()

    def help_markdown(self) -> str:
        """The table's help, after what the lesson says now."""
        return self.run_.words + "\n\n---\n\n" + super().help_markdown()


_APP_KEYS = frozenset({"question_mark", "f1", "h", "q", "ctrl+q", "ctrl+c", "b", "f"})
"""Keys the app's bindings take (help, quit, hint, open hands) before the lesson sees them."""

_SCROLL_KEYS = frozenset({"pageup", "pagedown", "home", "end", "tab"})
"""Keys that scroll the other seats or the event panel, on every step."""


def run_lesson(run: LessonRun, *, seed: int = 0, **settings: Unpack[TableSettings]) -> str:
    """Run the lesson on the full screen; at its end, if the learner asks for it, a real round
    against the beginner AI on the normal table (dealt from ``seed``). Returns what to print
    once the screen is given back."""
    from . import run_table

    app = LessonApp(run, **settings)
    app.run()
    name = run.lesson.game
    if not app.wants_real_round:
        return say("learn.ui.finished" if run.done else "learn.ui.left", name=name)
    real = run.real_round(seed)
    return run_table(real.game, real.seat, opponents=real.opponents, bot_seed=real.bot_seed)
