"""The full-screen table: :class:`CardtableApp`, a Textual app that plays one game against bots.

It talks to the engine only through the public game contract and draws from the person's
``view`` alone: ``view(seat, memory=False)`` by default, with the cards the person has just
seen added for their reveal time (:class:`~cardtable.tui.timing.Reveals`, until their next
move at the latest); ``view(seat)`` with the memory aid. Events are told in the line mode's
words (the variant's :class:`~cardtable.text.render.Front`); without the memory aid their public
part only, which names every card the whole table saw and none a peek showed.

A move is built step by step: a word by its fixed key (:mod:`cardtable.text.keys`; the same in
every menu) or a click on its button, a card by its number (``2`` your card 2, ``1.3`` seat
1's card 3), the arrow keys and Enter, or a click. Nothing is chosen for the person; a call
that ends the round asks to be confirmed; a key that means nothing now says so.

Layout: the status bar, then the other seats (scrolled with PageUp/PageDown/Home/End) beside or
above the event panel (Tab gives those keys to it), then — always on screen — the piles, the
line of the cards just seen and the person's own hand, the prompt, the words that may come
next and the keys of the game. A short screen gets the compact layout (no borders).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Unpack

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.widgets import RichLog, Static

from .. import IllegalAction, replay
from ..catalog import say
from ..events import ROUND_ENDS
from ..games.family.rulesets import RULESETS
from ..learn.hints import Hint, hint
from ..seat import Seat
from ..text.keys import QUTE_SORT_KEY, key_words
from ..text.phrase import refusal
from ..text.render import is_position
from ..views import is_family_view
from . import saves
from .board import SPINNER, Board, hand_cells
from .flow import PEEK_WINDOW, SNAP_WINDOW, TableFlow, TableSettings
from .help import help_markdown, keys_line
from .hintscreen import HintScreen
from .steps import PHASE_NAMES, choice_keys, next_words, seat_word
from .widgets import CardBox, ChoiceBox, HelpScreen, Picked, ResultScreen, RoundScreen, SeatPanel

__all__ = [
    "PEEK_WINDOW",
    "SNAP_WINDOW",
    "CardBox",
    "CardtableApp",
    "HelpScreen",
    "ResultScreen",
    "RoundScreen",
]

COMPACT_HEIGHT = 32
"""Screens shorter than this get the compact layout."""

NARROW_WIDTH = 100
"""Screens narrower than this put the event panel under the other seats."""

WIDE_WIDTH = 160
"""Screens at least this wide give the event panel a third of the width."""

_APP_KEYS = frozenset({"question_mark", "f1", "h", "q", "ctrl+q", "ctrl+c", "b", "f"})
"""Keys the app's bindings take (help, quit, hint, open hands) before the table sees them."""


class TableArea(VerticalScroll, can_focus=False):
    """The other seats (drawn by the app); the scroll keys move it."""

    def compose(self) -> ComposeResult:
        """The app's other seats as they are now."""
        app = self.app
        if isinstance(app, CardtableApp):
            yield app.board().opponents_grid(app.game.players, app.opponent_columns())


class Dock(Vertical):
    """What is always on screen: the piles, the cards just seen, the person's hand."""

    def compose(self) -> ComposeResult:
        """The app's piles and the person's seat as they are now."""
        app = self.app
        if isinstance(app, CardtableApp):
            yield from app.compose_dock()


class ChoiceBar(Horizontal):
    """The words that may come next in the move (drawn by the app)."""

    def compose(self) -> ComposeResult:
        """The app's choices as they are now."""
        app = self.app
        if isinstance(app, CardtableApp):
            yield from app.choice_boxes()


class EventLog(RichLog, can_focus=False):
    """The event panel (the scroll keys move it after Tab)."""

    def on_resize(self, event: events.Resize) -> None:
        """Keep the latest line in view when the panel changes size (the dock above grows
        with a card just seen), unless the person is scrolling it."""
        app = self.app
        if not (isinstance(app, CardtableApp) and app.scroll_events):
            self.call_after_refresh(self.scroll_end, animate=False)


class CardtableApp(TableFlow):
    """A full-screen table for one person (seat ``seat``) against bots (see
    :class:`~cardtable.tui.flow.TableFlow` for the arguments): its drawing and its keys."""

    CSS_PATH = "table.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1,h", "help", "help"),
        Binding("q,ctrl+q", "quit", "quit"),
        Binding("b", "hint", "hint"),
        Binding("f", "open_hands", "open hands"),
    ]

    @classmethod
    def from_save(cls, record: saves.SaveRecord, **kwargs: Unpack[TableSettings]) -> CardtableApp:
        """The app continuing a saved game (a record of :func:`cardtable.tui.saves.load_save`):
        its actions are replayed."""
        game = replay(record["log"])
        app = cls(
            game,
            int(record.get("seat", 0)),
            opponents=str(record.get("opponents", "casual")),
            bot_seed=int(record.get("bot_seed", 0)),
            memory_aid=bool(record.get("memory_aid", False)),
            resumed=True,
            **kwargs,
        )
        app.practice = app.open_hands = bool(record.get("practice", False))
        if record.get("hinted", False):  # a hint asked before the save: still not rated
            app.hints_asked += 1
        return app

    @property
    def legal(self) -> list[str]:
        """The person's legal actions now (none while it is not their turn)."""
        return [str(a) for a in self.game.legal_actions(self.me)] if self.mine else []

    def words(self) -> list[str]:
        """What may follow the move built so far."""
        return next_words(self.legal, self.prefix)

    def _hand_words(self) -> dict[str, str]:
        """The person's cards as words of a move, by their number on the table."""
        return {c.label: c.word for c in hand_cells(self.table, self.me, self.me, self.order)}

    def targets(self) -> list[tuple[str, str, str]]:
        """The cards and piles that may come next, as ``(widget id, label, word)``: the
        person's cards first, then the piles, then the other seats' cards. Where one word
        alone leads to cards (``peek`` in the initial peek), its cards are targets at once:
        choosing one plays that word with it."""
        prefix = self._steps()
        following = next_words(self.legal, prefix)
        words = set(following)
        out: list[tuple[str, str, str]] = []
        for cell in hand_cells(self.table, self.me, self.me, self.order):
            if cell.word in words:
                out.append((cell.box_id, cell.label, cell.word))
        pile_ids = {"deck": "pile-deck", "discard": "pile-discard", "draw": "pile-deck"}
        piles = ("draw",) if self.qute else ("deck", "discard") if prefix == ["draw"] else ()
        for word in piles:
            if word in words:
                out.append((pile_ids[word], word, word))
        for w in following:
            if is_position(w) and "." in w:
                seat, _, pos = w.partition(".")
                out.append((f"card-{seat}-{pos}", w, w))
        return out

    def _steps(self) -> list[str]:
        """The move so far, with the one word a card chosen now would stand for."""
        implied = self._card_first()
        return [*self.prefix, implied] if implied else list(self.prefix)

    def choices(self) -> dict[str, str]:
        """The words (not cards) that may come next, each with its key; ``""`` (play the move
        as built) is Enter's."""
        cards = set(self._hand_words().values())
        words = [w for w in self.words() if w and not is_position(w) and w not in cards]
        return choice_keys(words, self.keys)

    def board(self) -> Board:
        """What the table's drawing needs now."""
        return Board(
            self.table,
            self.me,
            self.opponents,
            thinking=self.thinking,
            spin=self._spin,
            marks=self._marks,
            order=self.order,
            compact=self.has_class("-compact"),
            memory_aid=self.memory_aid,
        )

    def compose(self) -> ComposeResult:
        """Status bar, other seats and event panel, the dock, the move bar and the keys."""
        yield Static(id="status")
        with Horizontal(id="body"):
            yield TableArea(id="table")
            yield EventLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Dock(id="dock")
        yield Static(id="prompt")
        yield ChoiceBar(id="choices")
        yield Static(id="keys")

    def compose_dock(self) -> Iterator[Container | Horizontal | SeatPanel | Static]:
        """The piles, the line of the cards just seen, the person's own seat."""
        board = self.board()
        yield board.piles()
        seen: dict[str, str] = dict(self.table.get("seen_now") or {})
        if seen:
            yield Static(board.sight_line(seen, self.reveals.left(self.clock())), id="sight")
        kept = board.kept_until_draw(seen)
        if kept is not None:
            yield Static(kept, id="kept")
        yield board.seat_panel(self.me)

    def opponent_columns(self) -> int:
        """How many of the other seats' panels fit side by side."""
        width = self.size.width
        log = 0 if width < NARROW_WIDTH else (width // 3 if width >= WIDE_WIDTH else 40)
        per = 26 if self.has_class("-compact") else 30
        return max(1, min(self.game.players - 1, (width - log - 2) // per))

    def on_mount(self) -> None:
        """Tell the opening (or the round so far, when resumed), start the clocks and let the
        first actor move."""
        self._table_up = True
        self._layout(self.size.width, self.size.height)
        log = self.query_one("#log", EventLog)
        log.border_title = say("tui.app.events")
        if self._resumed:
            moves = self.game.moves_played
            log.write(Text(say("tui.line.resumed", n=moves), style="bold"))
            for ev in Seat(self.game, self.me, memory=self.memory_aid).history():
                if not isinstance(ev, ROUND_ENDS):
                    for part in self.front.event(ev, self.me):
                        log.write(part)
        else:
            self._tell(self.game.opening_events)
        self.set_interval(0.2, self.tick)
        self._advance()

    def on_resize(self, event: events.Resize) -> None:
        """Choose the layout for the new size."""
        self._layout(event.size.width, event.size.height)
        self._redraw()
        if not self.scroll_events:  # a new size: the latest events in view again
            self.call_after_refresh(self.query_one("#log", EventLog).scroll_end, animate=False)

    def _layout(self, width: int, height: int) -> None:
        self.set_class(width < NARROW_WIDTH, "-narrow")
        self.set_class(width >= WIDE_WIDTH, "-wide")
        self.set_class(height < COMPACT_HEIGHT, "-compact")

    def _redraw(self) -> None:
        """Draw everything again from :attr:`table` (and the move being built)."""
        if not self._table_up:
            return
        self._marks = self._mark_sets()
        self.query_one("#table", TableArea).refresh(recompose=True)
        self.query_one("#dock", Dock).refresh(recompose=True)
        self._draw_bars()
        if self.look_at is not None:  # another seat's card just seen: bring it into view
            self.call_after_refresh(self._scroll_to_sight)

    def _scroll_to_sight(self) -> None:
        """Scroll the other seats to the card just seen there (again at each tick while it is
        shown, as the dock above may have grown meanwhile), unless the person scrolled."""
        at = self.look_at
        if at is None or at not in self.reveals.active(self.clock()):
            self.look_at = None
            return
        found = self.query(f"#card-{at.seat}-{at.pos}")
        if found:
            self.query_one("#table", TableArea).scroll_to_widget(found.first(), animate=False)

    def _mark_sets(self) -> dict[str, set[str]]:
        """Which widgets get which mark: ``-target``, ``-cursor``, ``-chosen``, ``-flash``."""
        targets = self.targets()
        cursor = {targets[self.cursor][0]} if 0 <= self.cursor < len(targets) else set()
        chosen = {f"card-{w.replace('.', '-')}" for w in self.prefix if "." in w}
        if self.qute:
            hand = self._hand_words()
            chosen |= {f"card-{self.me}-{i}" for i, w in hand.items() if w in self.prefix}
        else:
            chosen |= {f"card-{self.me}-{w}" for w in self.prefix if w.isdigit()}
        return {
            "-target": {t[0] for t in targets},
            "-cursor": cursor,
            "-chosen": chosen,
            "-flash": set(self.flash),
        }

    def _mark(self) -> None:
        """Mark the cards and piles on the table again (after the cursor moved or a flash)."""
        self._marks = self._mark_sets()
        for box in self.query(CardBox):
            for mark, ids in self._marks.items():
                box.set_class(box.id in ids, mark)

    def _status(self) -> Text:
        view, me = self.table, self.me
        parts = [say("tui.app.round", title=self.title, round=view["round"])]
        phase = str(view["phase"])
        parts.append(PHASE_NAMES.get(phase, phase))
        # what cannot wait comes first: the clock and a bot at work
        if self.window is not None:
            now = self.clock()
            left = max(0, round(self.window.left(now)))
            clock = "tui.app.clock.paused" if self.window.paused else "tui.app.clock"
            parts.append(say(clock, seconds=left))
        if self.thinking is not None:
            spinner = SPINNER[self._spin % len(SPINNER)]
            parts.append(say("tui.app.thinking", spinner=spinner, seat=self.thinking))
        if not view["over"]:
            if phase in ("peek", "snap"):
                actors = ", ".join(seat_word(s, me) for s in view["actors"])
                parts.append(say("tui.app.to_act", seats=actors))
            else:
                parts.append(say("tui.app.turn", who=seat_word(int(view["turn"]), me)))
        if is_family_view(view) and view["caller"] is not None:
            caller = view["caller"]
            left = view["final_turns_left"] or 0
            who, word = seat_word(caller, me), view["call"]
            parts.append(say("tui.app.called", you=caller == me, who=who, word=word, left=left))
        if not self.qute:
            parts.append(say("tui.memory.short.on" if self.memory_aid else "tui.memory.off"))
        if self.practice:
            parts.append(say("practice.status.open" if self.open_hands else "practice.status"))
        return Text(" · ".join(parts), no_wrap=True, overflow="ellipsis")

    def _prompt(self) -> Text:
        out = self.message.copy() + Text("  ") if self.message is not None else Text()
        if self.game.over:
            return out + Text(say("tui.app.game_over"), style="bold")
        if self.between is not None:
            return out + Text(say("tui.app.round_over"), style="bold")
        if self.confirm is not None:
            return out + Text(self._confirm_words(self.confirm), style="bold yellow")
        if not self.mine:
            who = self.thinking if self.thinking is not None else self.game.actors[0]
            return out + Text(say("tui.app.waiting", seat=who), style="dim")
        out.append(say("tui.app.your_move") + " ", style="bold")
        out.append(" ".join(self.prefix) + " › " if self.prefix else "", style="bold cyan")
        implied = self._card_first()
        if implied:  # the card alone will do: say which word it stands for
            out.append(f"{implied} › ", style="cyan")
        if self.typed:
            out.append(say("tui.app.typed", typed=self.typed) + " ", style="bold yellow")
        targets = self.targets()
        if targets:
            labels = ", ".join(t[1] for t in targets[:12]) + (" …" if len(targets) > 12 else "")
            numbered = any(t[0].startswith("card-") for t in targets)
            how = say("tui.app.how.number" if numbered else "tui.app.how.letter")
            if self.prefix and self.words()[:1] == [""]:  # whole already, and it may grow
                what = say("tui.app.add.qute" if self.qute else "tui.app.add.claim")
                out.append(say("tui.app.enter_or_add", what=what, labels=labels, how=how))
            else:
                out.append(say("tui.app.choose", labels=labels, how=how))
        elif self.words():
            out.append(say("tui.app.choose_word"))
        return out

    def _confirm_words(self, word: str) -> str:
        rs = RULESETS.get(self.game.variant)
        ends = rs is not None and rs.call_ends_round
        when = say("tui.app.confirm.ends" if ends else "tui.app.confirm.last_turns")
        key = self.keys.get(word, word)
        return say("tui.app.confirm", word=word, when=when, key=key)

    def choice_boxes(self) -> list[ChoiceBox]:
        """A button for each word that may come next (and Enter's, when it does something)."""
        boxes: list[ChoiceBox] = []
        if self.mine:
            words = self.words()
            if words and words[0] == "" and self.prefix:
                play = say("tui.app.play_it", move=" ".join(self.prefix))
                boxes.append(ChoiceBox("⏎", "", play))
            for word, key in self.choices().items():
                boxes.append(ChoiceBox(key, word, word))
            whole = bool(words) and words[0] == "" and bool(self.prefix)
            if not whole and self.game.timed_window() and "pass" not in self.choices():
                boxes.append(ChoiceBox("⏎", "", say("tui.app.choose_for_me")))
        return boxes

    def _draw_bars(self) -> None:
        self.query_one("#status", Static).update(self._status())
        self.query_one("#prompt", Static).update(self._prompt())
        self.query_one("#choices", ChoiceBar).refresh(recompose=True)
        self.query_one("#keys", Static).update(
            keys_line(
                self.keys,
                self._game_words(),
                qute=self.qute,
                events=self.scroll_events,
                width=self.size.width,
            )
        )

    def _game_words(self) -> list[str]:
        """The words of this game's moves, in the order its help lists them."""
        out: list[str] = []
        for text, _ in self.front.notation:
            for part in text.replace("/", " ").replace("|", " ").split():
                if part in self.keys and part not in out:
                    out.append(part)
        if "suit" in out:
            out += [s for s in ("C", "D", "H", "S") if s not in out]
        return out

    def _draw_status(self) -> None:
        self.query_one("#status", Static).update(self._status())

    def _redraw_sight(self) -> None:
        sight = self.query("#sight")
        seen: dict[str, str] = dict(self.table.get("seen_now") or {})
        if sight and seen:
            line = self.board().sight_line(seen, self.reveals.left(self.clock()))
            sight.first(Static).update(line)

    def choose(self, word: str) -> None:
        """Add ``word`` to the move (``""``: play the move as built, or in a timed window let
        the clock's choice be played now); a whole move is played at once; a call waits for
        its confirmation."""
        if not self.mine:
            return
        words = self.words()
        if word == "":
            if self.confirm is not None:
                self._play(self.confirm)
            elif self.prefix and words and words[0] == "":
                self._play(" ".join(self.prefix))
            elif self.game.timed_window():
                self._play(str(self.game.timeout_action(self.me)))
            return
        implied = self._card_first() if word not in words else ""
        if implied and word in next_words(self.legal, [*self.prefix, implied]):
            self.prefix.append(implied)  # a card alone: its only word goes first
            words = self.words()
        if word not in words:
            self._say(say("tui.app.not_possible", word=word))
            return
        if not self.prefix and self._is_call(word) and self.confirm != word:
            self.confirm = word
            self._draw_bars()
            return
        self.confirm = None
        self.prefix.append(word)
        self.typed, self.cursor = "", -1
        if self.words() == [""]:
            self._play(" ".join(self.prefix))
            return
        self._redraw()

    def _is_call(self, word: str) -> bool:
        rs = RULESETS.get(self.game.variant)
        return rs is not None and word == rs.call

    def _card_first(self) -> str:
        """The word a card typed now stands for, where it is the only word that may come next
        and cards follow it (``peek`` in the initial peek); ``""`` otherwise."""
        words = [w for w in self.words() if w]
        if len(words) != 1 or is_position(words[0]) or words[0] not in self.choices():
            return ""
        after = next_words(self.legal, [*self.prefix, words[0]])
        cards = set(self._hand_words().values())
        return words[0] if any(is_position(w) or w in cards for w in after) else ""

    def _play(self, action: str) -> None:
        try:
            self._apply(self.me, action)
        except IllegalAction as err:  # pragma: no cover - only legal words are offered
            self._say(refusal(err, self.me))
            self.prefix = []
            self._redraw()

    def _say(self, words: str) -> None:
        """Show what a key did not do, in the prompt (until the next key)."""
        self.message = Text(words, style="bold red")
        self.bell()
        self._draw_bars()

    def on_picked(self, message: Picked) -> None:
        """A click on a card, pile or word."""
        if message.word or isinstance(message.control, ChoiceBox):
            self.message = None
            self.choose(message.word)

    def back(self) -> None:
        """Undo the last step: a call waiting, the typed number, else the last word."""
        if self.confirm is not None:
            self.confirm = None
            self.message = Text(say("tui.app.call_back"), style="yellow")
        elif self.typed:
            self.typed = ""
        elif self.prefix:
            self.prefix.pop()
        self.cursor = -1
        self._redraw()

    def _type(self, char: str) -> None:
        """A digit or dot toward a card number: chosen as soon as it can be no other."""
        typed = self.typed + char
        labels = {t[1]: t[2] for t in self.targets() if t[1][:1].isdigit()}
        matching = [label for label in labels if label.startswith(typed)]
        if not matching:
            self._say(say("tui.app.no_card", typed=typed))
            return
        if matching == [typed]:
            self.choose(labels[typed])
            return
        self.typed = typed
        self._redraw()

    def _enter(self) -> None:
        if self.typed:
            labels = {t[1]: t[2] for t in self.targets()}
            if self.typed in labels:
                self.choose(labels[self.typed])
            else:
                self._say(say("tui.app.no_card", typed=self.typed))
            return
        targets = self.targets()
        if 0 <= self.cursor < len(targets) and self.confirm is None:
            self.choose(targets[self.cursor][2])
            return
        if self.confirm is None and not self.prefix and not self.game.timed_window():
            self._say(say("tui.app.enter_first"))
            return
        self.choose("")

    def _move_cursor(self, step: int) -> None:
        targets = self.targets()
        if not targets:
            self._say(say("tui.app.no_card_now"))
            return
        self.cursor = (self.cursor + step) % len(targets) if self.cursor >= 0 else 0
        self._mark()

    def _scroll(self, key: str) -> None:
        """PageUp/PageDown/Home/End on the other seats or (after Tab) the event panel."""
        target = self.query_one("#log" if self.scroll_events else "#table")
        match key:
            case "pageup":
                target.scroll_page_up(animate=False)
            case "pagedown":
                target.scroll_page_down(animate=False)
            case "home":
                target.scroll_home(animate=False)
            case "end":
                target.scroll_end(animate=False)

    def on_key(self, event: events.Key) -> None:
        """Every key of the table: scrolling, sorting, then (on the person's turn) cards by
        number, words by letter, arrows, Enter and Esc; a key that means nothing now says so."""
        if self.screen is not self.screen_stack[0]:
            return
        key, char = event.key, event.character or ""
        if key in _APP_KEYS:
            return  # help and quit: the app's bindings
        event.stop()
        self.message = None
        if key in ("pageup", "pagedown", "home", "end"):
            self.look_at = None  # the person scrolls: the table follows them
            self._scroll(key)
        elif key == "tab":
            self.scroll_events = not self.scroll_events
            self.query_one("#log").set_class(self.scroll_events, "-scrolling")
            self._draw_bars()
        elif self.qute and char == QUTE_SORT_KEY:
            self._sort()
        elif self.game.over:
            if key == "n":
                self.action_play_again()
            else:
                self._say(say("tui.app.over_keys"))
        elif not self.mine:
            self._say(self._not_now())
        elif self.confirm is not None and char == self.keys.get(self.confirm):
            self.choose(self.confirm)
        elif key in ("enter", "space"):
            self._enter()
        elif key in ("escape", "backspace"):
            self.back()
        elif key in ("left", "up"):
            self._move_cursor(-1)
        elif key in ("right", "down"):
            self._move_cursor(1)
        elif char.isdigit() or char == ".":
            self.confirm = None
            self._type(char)
        elif char.isalpha():
            self._letter(char)
        else:
            self._say(say("tui.app.no_meaning", key=char or key))

    def _letter(self, char: str) -> None:
        had = self.confirm
        self.confirm = None
        for word, letter in self.choices().items():
            if letter == char:
                self.choose(word)
                return
        meant = key_words(self.keys).get(char)
        if had is not None:
            self.message = Text(say("tui.app.call_back"), style="yellow")
            self._draw_bars()
        if meant is not None:
            self._say(say("tui.line.not_now", key=char, word=meant))
        else:
            self._say(say("tui.app.no_meaning.game", key=char))

    def _not_now(self) -> str:
        if self.between is not None:
            return say("tui.app.round_over.keys")
        who = self.thinking if self.thinking is not None else self.game.actors[0]
        return say("tui.app.not_your_turn", seat=who)

    def _sort(self) -> None:
        """Sort the person's Qute hand the other way; remembered for the next games."""
        self.order = "rank" if self.order == "suit" else "suit"
        if self.save:
            saves.write_settings({"qute_sort": self.order})
        self.prefix, self.typed, self.cursor = (
            [p for p in self.prefix if not p[:1].isdigit()],
            "",
            -1,
        )
        self.message = Text(say(f"tui.line.sorted.{self.order}"), style="dim")
        self._redraw()

    def action_open_hands(self) -> None:
        """Show the AI players' cards face up, or hide them again; once shown, the game is a
        practice game (saved so)."""
        self.open_hands = not self.open_hands
        if self.open_hands and not self.practice:
            self.practice = True
            self.message = Text(say("practice.now"), style="yellow")
        self.table = self._view()
        self._redraw()
        if self.save and not self.game.over:
            saves.write_save(self.record())

    def action_hint(self) -> None:
        """Weigh every legal move of the person's decision with the search (in a thread; the
        clocks wait), then show them best first; a chosen row is played."""
        if not self.mine or self.game.over or self.hinting:
            self._say(say("hint.wait"))
            self._draw_bars()
            return
        self.hinting = True
        self._cover()
        seat, generation = Seat(self.game, self.me), self._generation
        moves = self.game.moves_played
        if self.last_hint is not None and self.last_hint[0] == (generation, moves):
            self._show_hint(self.last_hint[1], generation)  # the same decision: the same rows
            return
        self.message = Text(say("hint.thinking"), style="dim")
        self._draw_bars()
        self.hints_asked += 1

        def weigh() -> None:
            found = hint(seat, seed=moves)
            self.last_hint = ((generation, moves), found)
            self.call_from_thread(self._show_hint, found, generation)

        self.run_worker(weigh, thread=True, group="hint", exit_on_error=True)

    def _show_hint(self, found: Hint, generation: int) -> None:
        """Show the weighed moves (unless the table moved on meanwhile)."""
        self.hinting = False
        self.message = None
        if generation != self._generation or self._table_gone():
            self._uncover()
            return
        self._draw_bars()

        def chosen(action: str | None) -> None:
            self._uncover()
            if action is not None and action in self.legal:
                self.prefix, self.typed, self.cursor = [], "", -1
                self._play(action)
            else:
                self._draw_bars()

        self.push_screen(HintScreen(found), chosen)

    def action_help(self) -> None:
        """Open the help overlay (the clocks wait; a reveal's time goes on)."""
        if any(isinstance(s, HelpScreen) for s in self.screen_stack):
            return
        self._cover()
        self.push_screen(HelpScreen(self.help_markdown()), lambda _: self._uncover())

    def help_markdown(self) -> str:
        """The keys of this game, its notation, the memory note and its rules, as Markdown."""
        return help_markdown(
            self.front,
            self.keys,
            self._game_words(),
            self.game.variant,
            memory_aid=self.memory_aid,
            qute=self.qute,
            reveal=self.reveal,
        )
