"""The full-screen table: :class:`CardtableApp`, a Textual app that plays one game against bots.

It talks to the engine only through the public game contract and draws from the person's
``view`` alone: ``view(seat, memory=False)`` by default, with the cards the person has just
seen added until their next move (:func:`~cardtable.cli.sights.table_view`, as in line mode);
``view(seat)`` with the memory aid. Events are told in the line mode's words (the variant's
:class:`~cardtable.cli.render.Front`); without the memory aid their public part only, so the
event panel keeps no card the person should have to remember.

A move is built step by step: a word with a letter key (or a click on its button), a card
with its number (the notation's: ``2`` is your card 2, ``1.3`` seat 1's card 3), the arrow
keys and Enter, or a click. Only continuations of legal actions are offered.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, VerticalScroll
from textual.widgets import RichLog, Static

from .. import Game, IllegalAction, agents, new_game, replay, variants
from ..cli.fronts import front
from ..cli.render import Front, is_position, render_result
from ..cli.rules import rules_markdown
from ..cli.sights import note_sights, table_view
from ..games.family.rulesets import RULESETS
from . import REVEAL_SECONDS, saves
from .steps import (
    PHASE_NAMES,
    choice_keys,
    event_places,
    next_words,
    public_event,
    seat_word,
    verb_words,
)
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

PEEK_WINDOW = 30.0
"""Seconds the person has for the initial peek before it is done for them (as on the server)."""

SNAP_WINDOW = 5.0
"""Seconds a snap window stays open for the person before they pass (as on the server)."""

FLASH = 1.5
"""Seconds the cards an event involved stay highlighted."""

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class TableArea(VerticalScroll):
    """The table: the other seats, the piles, then the person's seat (drawn by the app)."""

    def compose(self) -> ComposeResult:
        """The app's table as it is now."""
        app = self.app
        if isinstance(app, CardtableApp):
            yield from app.compose_table()


class ChoiceBar(Horizontal):
    """The words that may come next in the move (drawn by the app)."""

    def compose(self) -> ComposeResult:
        """The app's choices as they are now."""
        app = self.app
        if isinstance(app, CardtableApp):
            yield from app.choice_boxes()


class CardtableApp(App[None]):
    """A full-screen table for one person (seat ``seat``) against bots.

    ``game`` is a new game (or one rebuilt from a save: ``resumed``). Bots are ``opponents``
    agents seeded from ``bot_seed``; ``bot_pause`` seconds pass before each bot move so that a
    person can follow it. ``peek_window`` and ``snap_window`` are the seconds the person has in
    a timed window (0: no clock). ``save`` keeps the game in the user's data directory after
    every move (:mod:`cardtable.tui.saves`).
    """

    CSS_PATH = "table.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "help"),
        Binding("q,ctrl+q", "quit", "quit"),
    ]

    def __init__(
        self,
        game: Game,
        seat: int = 0,
        *,
        opponents: str = "casual",
        bot_seed: int = 0,
        memory_aid: bool = False,
        peek_window: float = PEEK_WINDOW,
        snap_window: float = SNAP_WINDOW,
        reveal: float = REVEAL_SECONDS,
        bot_pause: float = 0.6,
        flash: float = FLASH,
        save: bool = True,
        resumed: bool = False,
    ) -> None:
        super().__init__()
        self.game = game
        """The game on the table."""
        self.me = seat
        """The person's seat."""
        self.opponents = opponents
        """The bots' level or agent name."""
        self.bot_seed = bot_seed
        """Seed of the bots."""
        self.memory_aid = memory_aid
        """Whether every card the person has seen stays shown."""
        self.peek_window = peek_window
        """Seconds of the initial-peek window (0: no clock)."""
        self.snap_window = snap_window
        """Seconds of a snap window (0: no clock)."""
        self.reveal = reveal
        """Seconds a card the person sees stays face up without the memory aid."""
        self.bot_pause = bot_pause
        """Seconds before each bot move."""
        self.flash_seconds = flash
        """Seconds the cards an event involved stay highlighted (0: not at all)."""
        self.save = save
        """Whether the game is saved after every move."""
        self.prefix: list[str] = []
        """The words of the move being built."""
        self.typed = ""
        """Digits (and dots) typed toward a card number."""
        self.cursor = -1
        """Index of the highlighted target among :meth:`targets` (-1: none)."""
        self.thinking: int | None = None
        """The bot seat deciding now, if any."""
        self.deadline: float | None = None
        """When the person's timed window runs out (``time.monotonic``), if one is open."""
        self.flash: set[str] = set()
        """Ids of the table widgets an event just involved."""
        self.last_round: Mapping[str, Any] | None = None
        """The ``round_end`` event of the last round that ended (shown with the game's end)."""
        self.between: Mapping[str, Any] | None = None
        """The ``round_end`` event of a round of a match just over, while its results are shown:
        the next round's clocks and bots wait until the person closes them."""
        self.table: Mapping[str, Any] = {}
        """The view the table is drawn from (see the module's text)."""
        self._sights: dict[str, str] = {}
        self._marks: dict[str, set[str]] = {}
        self._table_up = False
        self._resumed = resumed
        self._generation = 0
        self._spin = 0
        self._start(game)

    # ------------------------------------------------------------------ building blocks
    @classmethod
    def from_save(cls, record: Mapping[str, Any], **kwargs: Any) -> CardtableApp:
        """The app continuing a saved game (a record of :func:`cardtable.tui.saves.load_save`):
        its actions are replayed."""
        game = replay(record["log"])
        return cls(
            game,
            int(record.get("seat", 0)),
            opponents=str(record.get("opponents", "casual")),
            bot_seed=int(record.get("bot_seed", 0)),
            memory_aid=bool(record.get("memory_aid", False)),
            resumed=True,
            **kwargs,
        )

    def _start(self, game: Game) -> None:
        self.game = game
        self.front: Front = front(game.variant)
        self.title = variants.get(game.variant).title
        self.bots = [
            agents.get(self.opponents, seed=self.bot_seed * 16 + s) for s in range(game.players)
        ]
        self.prefix, self.typed, self.cursor = [], "", -1
        self.deadline, self.thinking = None, None
        self.between = self.last_round = None
        self._sights = {}
        self._generation += 1
        self.table = self._view()

    @property
    def mine(self) -> bool:
        """Whether the person may act now (input is ignored otherwise)."""
        return (
            not self.game.over
            and self.me in self.game.actors
            and self.thinking is None
            and self.between is None
        )

    def _view(self) -> Mapping[str, Any]:
        return table_view(self.game, self.me, self.memory_aid, self._sights, self.front)

    @property
    def qute(self) -> bool:
        """Whether the game on the table is Qute (hands held face up, cards named by code)."""
        return "blind" in self.table

    @property
    def legal(self) -> list[str]:
        """The person's legal actions now (none while it is not their turn)."""
        return [str(a) for a in self.game.legal_actions(self.me)] if self.mine else []

    def words(self) -> list[str]:
        """What may follow the move built so far."""
        return next_words(self.legal, self.prefix)

    def _hand_words(self) -> dict[str, str]:
        """The person's cards as words of a move: in Qute their codes, else their numbers."""
        hand = self.table["hands"][self.me]
        out: dict[str, str] = {}
        for i, cell in enumerate(hand):
            if cell is None:
                continue
            out[str(i)] = str(cell["card"]) if self.qute and cell["card"] else str(i)
        return out

    def targets(self) -> list[tuple[str, str, str]]:
        """The cards and piles that may come next, as ``(widget id, label, word)``: the
        person's cards first, then the piles, then the other seats' cards."""
        words = set(self.words())
        out: list[tuple[str, str, str]] = []
        for label, word in self._hand_words().items():
            if word in words:
                out.append((f"card-{self.me}-{label}", label, word))
        pile_ids = {"deck": "pile-deck", "discard": "pile-discard", "draw": "pile-deck"}
        piles = ("draw",) if self.qute else ("deck", "discard") if self.prefix == ["draw"] else ()
        for word in piles:
            if word in words:
                out.append((pile_ids[word], word, word))
        for w in self.words():
            if is_position(w) and "." in w:
                seat, _, pos = w.partition(".")
                out.append((f"card-{seat}-{pos}", w, w))
        return out

    def choices(self) -> dict[str, str]:
        """The words (not cards) that may come next, each with its key; ``""`` (play the move
        as built) is Enter's."""
        cards = set(self._hand_words().values())
        return choice_keys(verb_words(self.words(), cards))

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        """Status bar, table and event panel, the move bar and the keys line."""
        yield Static(id="status")
        with Horizontal(id="body"):
            yield TableArea(id="table")
            yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Static(id="prompt")
        yield ChoiceBar(id="choices")
        yield Static(id="keys")

    def on_mount(self) -> None:
        """Tell the opening, start the clocks and let the first actor move."""
        self._table_up = True
        self._layout(self.size.width)
        log = self.query_one("#log", RichLog)
        log.border_title = "Events"
        if self._resumed:
            moves = len(self.game.log["actions"])
            log.write(Text(f"Game resumed after {moves} moves.", style="bold"))
        else:
            self._tell(self.game.opening_events)
        self.set_interval(0.2, self._tick)
        self._advance()

    def on_resize(self, event: events.Resize) -> None:
        """Put the event panel under the table on a narrow screen."""
        self._layout(event.size.width)
        self._redraw()

    def _layout(self, width: int) -> None:
        self.set_class(width < 100, "-narrow")

    def _opponent_columns(self) -> int:
        width = self.size.width - (0 if self.size.width < 100 else 36) - 2
        return max(1, min(self.game.players - 1, width // 30))

    def _seat_panel(self, seat: int) -> SeatPanel:
        view = self.table
        me = seat == self.me
        cells: list[CardBox] = []
        hand = view["hands"][seat]
        for i, cell in enumerate(hand):
            if cell is None:
                continue
            label = str(i) if me else f"{seat}.{i}"
            code = cell.get("card")
            word = str(code) if me and self.qute and code else label
            box_id = f"card-{seat}-{i}"
            cells.append(CardBox(label, code, word, id=box_id, classes=self._marks_of(box_id)))
        name = f"You (seat {seat})" if me else f"Seat {seat} · {self.opponents} AI"
        tags = [f"total {view['totals'][seat]}"]
        if self.thinking == seat:
            tags.append(f"{SPINNER[self._spin % len(SPINNER)]} thinking…")
        elif seat in view["actors"] and not view["over"]:
            tags.append("▶ to act")
        if view.get("caller") == seat:
            tags.append(f"called {view.get('call')}")
        if self.qute and not me:
            tags.append(f"{len(hand)} card{'s' if len(hand) != 1 else ''}")
            cells = []
        hand_box = Container(*cells, classes="hand")
        rules = RULESETS.get(str(view["game"]))
        square = len(hand) <= 4 and rules is not None and rules.hand_layout == "square"
        per_row = 2 if square else (min(8, max(1, len(cells))) if me else 4)
        hand_box.styles.grid_size_columns = max(1, per_row)
        panel = SeatPanel(Static(" · ".join(tags), classes="tags"), hand_box)
        panel.border_title = name
        panel.set_class(me, "-mine")
        panel.set_class(seat in view["actors"] and not view["over"], "-actor")
        return panel

    def _piles(self) -> Horizontal:
        view = self.table
        boxes: list[Static] = []
        if self.qute:
            boxes.append(self._pile(f"blind {view['blind']}", None, "draw", "pile-deck"))
            top = view.get("top")
            boxes.append(self._pile("stack", top, "", "pile-stack", top is None))
            if view.get("suit"):
                boxes.append(Static(f"suit to follow\n{view['suit']}", classes="note"))
        else:
            boxes.append(self._pile(f"deck {view['deck']}", None, "deck", "pile-deck"))
            pile = view["discard"]
            top = pile[-1] if pile else None
            boxes.append(
                self._pile(f"discard {len(pile)}", top, "discard", "pile-discard", not pile)
            )
            if view.get("drawer") is not None:
                who = seat_word(int(view["drawer"]), self.me)
                boxes.append(self._pile(f"held by {who}", view.get("drawn"), "", "pile-drawn"))
        boxes.append(Static(self._note(), classes="note"))
        return Horizontal(*boxes, id="piles")

    def _pile(
        self, label: str, code: str | None, word: str, box_id: str, empty: bool = False
    ) -> CardBox:
        return CardBox(label, code, word, id=box_id, classes=self._marks_of(box_id), empty=empty)

    def _note(self) -> Text:
        """A line on what the table waits for (a power, a snap window, a Qute decision)."""
        view = self.table
        me = self.me
        parts: list[str] = []
        pending = view.get("pending")
        if isinstance(pending, dict):
            if "give" in pending:
                parts.append(f"{seat_word(int(view['turn']), me)} may give a card or pass")
            elif pending.get("power"):
                parts.append(f"power: {pending['power']}")
        elif isinstance(pending, str):
            parts.append(f"to decide: {pending}")
        snap = view.get("snap")
        if snap:
            parts.append(f"snap window for rank {snap['rank']}: drop a card of that rank or pass")
        if self.qute and view.get("phase") == "cover":
            parts.append("the 6 on top must be covered")
        seen: dict[str, str] = dict(view.get("seen_now") or {})
        if seen:
            parts.append("shown until your next move: remember it")
        return Text("\n".join(parts), style="italic")

    def compose_table(self) -> Iterator[Container | Horizontal | SeatPanel]:
        """The other seats in a grid, the piles, the person's seat."""
        others = [(self.me + k) % self.game.players for k in range(1, self.game.players)]
        grid = Container(*(self._seat_panel(s) for s in others), id="opponents")
        grid.styles.grid_size_columns = self._opponent_columns()
        yield grid
        yield self._piles()
        yield self._seat_panel(self.me)

    def _redraw(self) -> None:
        """Draw everything again from :attr:`table` (and the move being built)."""
        if not self._table_up:
            return
        self._marks = self._mark_sets()
        self.query_one("#table", TableArea).refresh(recompose=True)
        self._draw_bars()

    def _mark_sets(self) -> dict[str, set[str]]:
        """Which widgets get which mark: ``-target``, ``-cursor``, ``-chosen``, ``-flash``."""
        targets = self.targets()
        cursor = {targets[self.cursor][0]} if 0 <= self.cursor < len(targets) else set()
        chosen = {f"card-{w.replace('.', '-')}" for w in self.prefix if "." in w}
        chosen |= {f"card-{self.me}-{w}" for w in self.prefix if w.isdigit()}
        if self.qute:
            hand = self._hand_words()
            chosen |= {f"card-{self.me}-{i}" for i, w in hand.items() if w in self.prefix}
        return {
            "-target": {t[0] for t in targets},
            "-cursor": cursor,
            "-chosen": chosen,
            "-flash": set(self.flash),
        }

    def _marks_of(self, widget_id: str) -> str:
        return " ".join(mark for mark, ids in self._marks.items() if widget_id in ids)

    def _mark(self) -> None:
        """Mark the cards and piles on the table again (after the cursor moved or a flash)."""
        self._marks = self._mark_sets()
        for box in self.query(CardBox):
            for mark, ids in self._marks.items():
                box.set_class(box.id in ids, mark)

    def _status(self) -> Text:
        view, me = self.table, self.me
        parts = [f"{self.title} · round {view['round']}"]
        phase = str(view["phase"])
        parts.append(PHASE_NAMES.get(phase, phase))
        # what cannot wait comes first: the clock and a bot at work
        if self.deadline is not None:
            parts.append(f"⏱ {max(0, round(self.deadline - time.monotonic()))} s")
        if self.thinking is not None:
            parts.append(f"{SPINNER[self._spin % len(SPINNER)]} seat {self.thinking} thinking…")
        if not view["over"]:
            if phase in ("peek", "snap"):
                parts.append("to act: " + ", ".join(seat_word(s, me) for s in view["actors"]))
            else:
                parts.append(f"turn: {seat_word(int(view['turn']), me)}")
        left = view.get("final_turns_left")
        if view.get("caller") is not None:
            who = seat_word(int(view["caller"]), me)
            parts.append(f"{who} called {view.get('call')}; final turns left: {left or 0}")
        if not self.qute:
            parts.append("memory aid" if self.memory_aid else "no memory aid")
        # wraps on a narrow terminal rather than cutting anything off
        return Text(" · ".join(parts))

    def _prompt(self) -> Text:
        if self.game.over:
            return Text("The game is over — n: play again · q: quit", style="bold")
        if self.between is not None:
            return Text("The round is over — Enter: next round", style="bold")
        if not self.mine:
            who = self.thinking if self.thinking is not None else self.game.actors[0]
            return Text(f"Waiting for seat {who}…", style="dim")
        out = Text("Your move: ", style="bold")
        out.append(" ".join(self.prefix) + " › " if self.prefix else "", style="bold cyan")
        if self.typed:
            out.append(f"typed {self.typed} ", style="bold yellow")
        targets = self.targets()
        if targets:
            labels = ", ".join(t[1] for t in targets[:12]) + (" …" if len(targets) > 12 else "")
            numbered = any(t[0].startswith("card-") for t in targets)
            how = "number, arrows or click" if numbered else "letter, arrows or click"
            out.append(f"choose {labels} ({how})")
        return out

    def choice_boxes(self) -> list[ChoiceBox]:
        """A button for each word that may come next (and Enter's, when it does something)."""
        boxes: list[ChoiceBox] = []
        if self.mine:
            words = self.words()
            if words and words[0] == "" and self.prefix:
                boxes.append(ChoiceBox("⏎", "", f"play '{' '.join(self.prefix)}'"))
            for word, key in self.choices().items():
                boxes.append(ChoiceBox(key, word, word))
            whole = bool(words) and words[0] == "" and bool(self.prefix)
            if not whole and self.game.timed_window() and "pass" not in self.choices():
                boxes.append(ChoiceBox("⏎", "", "choose for me"))
        return boxes

    def _draw_bars(self) -> None:
        self.query_one("#status", Static).update(self._status())
        self.query_one("#prompt", Static).update(self._prompt())
        self.query_one("#choices", ChoiceBar).refresh(recompose=True)
        keys = "?: help · q: quit (saved)"
        if self.mine:
            keys = "letters: words · numbers/arrows/click: cards · Esc: back · " + keys
        self.query_one("#keys", Static).update(Text(keys, no_wrap=True, overflow="ellipsis"))

    # ------------------------------------------------------------------ the flow
    def _advance(self) -> None:
        """After any change: finish, wait for the person, or let a bot think."""
        self.table = self._view()
        if self.game.over:
            self.deadline, self.thinking, self.between = None, None, None
            self._redraw()
            if self.save:
                saves.clear_save()
            self._show_result()
            return
        if self.between is not None:
            self.deadline = None
            self._redraw()
            if not isinstance(self.screen, RoundScreen):
                title = f"Round {self.between.get('round')} is over."
                shown = RoundScreen(title, self.front.round_end(self.between, self.me))
                self.push_screen(shown, self._next_round)
            return
        if self.me in self.game.actors:
            window = self.game.timed_window()
            length = {"peek": self.peek_window, "snap": self.snap_window}.get(window or "", 0.0)
            if window is None or length <= 0:
                self.deadline = None
            elif self.deadline is None:
                self.deadline = time.monotonic() + length
            self._auto()
            self._redraw()
            return
        self.deadline = None
        bot = self.game.actors[0]
        self.thinking = bot
        self._redraw()
        generation = self._generation
        self.run_worker(
            lambda: self._think(bot, generation), thread=True, group="bots", exit_on_error=True
        )

    def _next_round(self, _: None = None) -> None:
        """The person closed a round's results: the next round goes on."""
        self.between = None
        self._advance()

    def _think(self, bot: int, generation: int) -> None:
        """A bot decides (in a worker thread), then its move is played on the app's thread."""
        if self.bot_pause > 0:
            time.sleep(self.bot_pause)
        action = str(self.bots[bot].act(self.game, bot))
        self.call_from_thread(self._bot_moved, bot, action, generation)

    def _bot_moved(self, bot: int, action: str, generation: int) -> None:
        if generation != self._generation:
            return  # a new game was started meanwhile
        self.thinking = None
        self._apply(bot, action)

    def _apply(self, seat: int, action: str) -> None:
        """Play ``action`` for ``seat`` and tell what happened."""
        initial_peek = self.table.get("phase") == "peek"
        events_ = self.game.play(seat, action)
        if seat == self.me:
            if not initial_peek:
                # a card just seen is shown until the person's next move; the initial peeks
                # are seen together, until the first move after them
                self._sights.clear()
            self.prefix, self.typed, self.cursor = [], "", -1
        self._tell(events_)
        if self.save:
            saves.write_save(self.record())
        self._advance()

    def _tell(self, events_: list[Any]) -> None:
        """Write ``events_`` in words to the event panel and flash the cards they involve."""
        seen = [ev.for_seat(self.me) for ev in events_]
        note_sights(seen, self._sights)
        ends = [ev for ev in seen if ev.get("type") == "round_end"]
        if ends:
            self.last_round = ends[-1]
            if not self.game.over:
                self.between = ends[-1]
        told = seen if self.memory_aid else [public_event(ev, self.me) for ev in events_]
        log = self.query_one("#log", RichLog) if self._table_up else None
        flash: set[str] = set()
        for ev in told:
            flash.update(event_places(ev))
            if log is not None:
                parts = self.front.event(ev, self.me)
                if ev.get("type") == "round_end":
                    parts = parts[:1]  # the results have their own screen
                for part in parts:
                    log.write(part)
        if self.flash_seconds <= 0:
            return
        self.flash = flash
        generation = self._generation
        if self._table_up:
            self.set_timer(self.flash_seconds, lambda: self._unflash(flash, generation))

    def _unflash(self, flash: set[str], generation: int) -> None:
        if generation == self._generation and self.flash is flash:
            self.flash = set()
            self._mark()

    def _tick(self) -> None:
        """Every fifth of a second: the spinner, the clock, and a timed-out window."""
        self._spin += 1
        if not self.query("#status"):  # the table is going away (the app closes)
            return
        if self.thinking is not None:
            self._draw_bars()
        if self.deadline is None:
            return
        if time.monotonic() >= self.deadline and self.mine:
            self.deadline = None
            self._apply(self.me, str(self.game.timeout_action(self.me)))
            return
        self.query_one("#status", Static).update(self._status())

    def record(self) -> dict[str, Any]:
        """What is saved: the game's log and the table's settings."""
        return {
            "log": self.game.log,
            "seat": self.me,
            "opponents": self.opponents,
            "bot_seed": self.bot_seed,
            "memory_aid": self.memory_aid,
            "peek_window": self.peek_window,
            "snap_window": self.snap_window,
            "reveal": self.reveal,
        }

    def _show_result(self) -> None:
        result: RenderableType = render_result(
            self.game.view(self.me, memory=self.memory_aid), self.me
        )
        if self.last_round is not None:  # the last round's hands, then the match
            last = self.front.round_end(self.last_round, self.me)
            result = Group(last, Text(""), result)

        def done(choice: str | None) -> None:
            if choice == "again":
                self.action_play_again()
            elif choice == "quit":
                self.exit()

        self.push_screen(ResultScreen(result), done)

    # ------------------------------------------------------------------ input
    def choose(self, word: str) -> None:
        """Add ``word`` to the move (``""``: play the move as built, or in a timed window let
        the clock's choice be played now); a whole move is played at once."""
        if not self.mine:
            return
        words = self.words()
        if word == "":
            if self.prefix and words and words[0] == "":
                self._play(" ".join(self.prefix))
            elif self.game.timed_window():
                self._play(str(self.game.timeout_action(self.me)))
            return
        if word not in words:
            self.bell()
            return
        self.prefix.append(word)
        self.typed, self.cursor = "", -1
        if self.words() == [""]:
            self._play(" ".join(self.prefix))
            return
        self._auto()
        self._redraw()

    def _auto(self) -> None:
        """Take the only word that may come next when it is not a card (``peek`` in the
        initial peek, ``play`` when Qute's hand must play), so the person picks the card."""
        while True:
            words = self.words()
            if len(words) != 1 or not words[0] or words[0] not in self.choices():
                return
            self.prefix.append(words[0])

    def _play(self, action: str) -> None:
        try:
            self._apply(self.me, action)
        except IllegalAction as err:  # pragma: no cover - only legal words are offered
            self.notify(str(err), severity="error")
            self.prefix = []
            self._redraw()

    def on_picked(self, message: Picked) -> None:
        """A click on a card, pile or word."""
        if message.word or isinstance(message.control, ChoiceBox):
            self.choose(message.word)

    def back(self) -> None:
        """Undo the last step: the typed number, else the last word."""
        if self.typed:
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
            self.bell()
            return
        if matching == [typed]:
            self.choose(labels[typed])
            return
        self.typed = typed
        self._draw_bars()

    def _enter(self) -> None:
        if self.typed:
            labels = {t[1]: t[2] for t in self.targets()}
            if self.typed in labels:
                self.choose(labels[self.typed])
            else:
                self.bell()
            return
        targets = self.targets()
        if 0 <= self.cursor < len(targets):
            self.choose(targets[self.cursor][2])
            return
        self.choose("")

    def _move_cursor(self, step: int) -> None:
        targets = self.targets()
        if not targets:
            return
        self.cursor = (self.cursor + step) % len(targets) if self.cursor >= 0 else 0
        self._mark()

    def on_key(self, event: events.Key) -> None:
        """Cards by number, words by letter, arrows, Enter and Esc (only on your turn)."""
        if self.screen is not self.screen_stack[0]:
            return
        if self.game.over and event.key == "n":
            self.action_play_again()
            return
        if not self.mine:
            return
        key = event.key
        char = event.character or ""
        if key in ("enter", "space"):
            self._enter()
        elif key in ("escape", "backspace"):
            self.back()
        elif key in ("left", "up"):
            self._move_cursor(-1)
        elif key in ("right", "down"):
            self._move_cursor(1)
        elif char.isdigit() or char == ".":
            self._type(char)
        elif char.isalpha():
            for word, letter in self.choices().items():
                if letter == char:
                    self.choose(word)
                    break
            else:
                return
        else:
            return
        event.stop()

    def action_help(self) -> None:
        """Open the help overlay."""
        self.push_screen(HelpScreen(self.help_markdown()))

    def help_markdown(self) -> str:
        """The keys, the game's notation, the memory note and its rules, as Markdown."""
        rows = "\n".join(f"| `{text}` | {meaning} |" for text, meaning in self.front.notation)
        memory = self.front.memory(self.memory_aid) if self.front.memory else ""
        return (
            "# Keys\n\n"
            "- **letters**: the words offered in the bar at the bottom (draw, discard, pass …)\n"
            "- **numbers**: a card by its number on the table — `2` is your card 2, `1.3` is "
            "seat 1's card 3 (counted from 0, as in the notation)\n"
            "- **arrows** move over the cards that may come next; **Enter** or **Space** "
            "chooses one, or plays the move as built; in a peek or snap window Enter passes\n"
            "- **mouse**: click a card, a pile or a word\n"
            "- **Esc**: undo the last step · **?** / **F1**: this help · **q**: quit (the "
            "game is saved: `cardtable play --resume` continues it) · **n**: play again "
            "when the game is over\n\n"
            f"# Notation\n\n| text | meaning |\n|---|---|\n{rows}\n\n"
            f"{self.front.note} {memory}\n\n" + rules_markdown(self.game.variant)
        )

    def action_play_again(self) -> None:
        """A new game of the same kind, with the next seed."""
        g = self.game
        fresh = new_game(g.variant, players=g.players, seed=g.seed + 1, options=dict(g.options))
        while self.screen is not self.screen_stack[0]:
            self.pop_screen()
        self._start(fresh)
        log = self.query_one("#log", RichLog)
        log.write(Text("— a new game —", style="bold"))
        self._tell(self.game.opening_events)
        self._advance()
