"""How the full-screen table's game goes on: the bots' moves, the person's clocks and
reveals, the event panel's words, the save — :class:`TableFlow`, the base of
:class:`~cardtable.tui.app.CardtableApp` (which adds the drawing and the keys).

The table has one person against AI players, so nobody else waits on them: while a screen
covers the table (the help, a round's results) the person's timed window is paused and the
bots wait (:attr:`TableFlow.covers`); a card just seen keeps its own time
(:mod:`cardtable.tui.timing`). A move the clock plays for the person is marked
:data:`TIMED_OUT` in the event panel.
"""

from __future__ import annotations

import time
from typing import TypedDict, cast

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App
from textual.widgets import RichLog

from .. import Game, agents, new_game, variants
from ..events import ROUND_ENDS, ROUND_STARTS, At
from ..game import Event
from ..learn.hints import Hint
from ..seat import Seat
from ..text.catalog import say
from ..text.fronts import front
from ..text.keys import word_keys
from ..text.render import Front, RoundResult, render_result
from ..text.sights import TableView, sights_in, table_view
from . import history, saves
from .steps import event_places, public_event
from .timing import REVEAL_SECONDS, Clock, Countdown, Reveals
from .widgets import ResultScreen, RoundScreen

__all__ = ["FLASH", "PEEK_WINDOW", "SNAP_WINDOW", "TIMED_OUT", "TableFlow", "TableSettings"]

PEEK_WINDOW = 30.0
"""Seconds the person has for the initial peek before it is done for them (as on the server)."""

SNAP_WINDOW = 5.0
"""Seconds a snap window stays open for the person before they pass (as on the server)."""

FLASH = 1.5
"""Seconds the cards an event involved stay highlighted."""

TIMED_OUT = "time ran out: "
"""How the event panel marks a move the clock played for the person, in English (the panel
reads it from the catalog in use: ``tui.timed_out``)."""


class TableSettings(TypedDict, total=False):
    """The table's settings a caller may give besides the game, the seat, the bots and the
    memory aid (:class:`TableFlow`'s keyword arguments of the same names; each one left out
    keeps its default)."""

    peek_window: float
    """Seconds of the initial-peek window (0: no clock)."""
    snap_window: float
    """Seconds of a snap window (0: no clock)."""
    reveal: float
    """Seconds a card the person sees stays face up without the memory aid."""
    bot_pause: float
    """Seconds before each bot move."""
    flash: float
    """Seconds the cards an event involved stay highlighted (0: not at all)."""
    save: bool
    """Whether the game and the settings are saved."""
    clock: Clock
    """The time now, in seconds."""


class TableFlow(App[None]):
    """The game on a full-screen table for one person (seat ``seat``) against bots.

    ``game`` is a new game (or one rebuilt from a save: ``resumed``). Bots are ``opponents``
    agents seeded from ``bot_seed``; ``bot_pause`` seconds pass before each bot move so that a
    person can follow it. ``peek_window`` and ``snap_window`` are the seconds the person has in
    a timed window (0: no clock); ``reveal`` the seconds a card just seen stays face up.
    ``clock`` gives the time (tests pass their own). ``save`` keeps the game and the settings in
    the user's data directory (:mod:`cardtable.tui.saves`).
    """

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
        clock: Clock = time.monotonic,
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
        """Whether the game and the settings are saved."""
        self.clock = clock
        """The time now, in seconds."""
        self._init_move()
        self._init_table()
        self._resumed = resumed
        self._start(game)

    def _init_move(self) -> None:
        """The move being built and what the prompt says about it."""
        self.prefix: list[str] = []
        """The words of the move being built."""
        self.typed = ""
        """Digits (and dots) typed toward a card number."""
        self.cursor = -1
        """Index of the highlighted target among :meth:`targets` (-1: none)."""
        self.confirm: str | None = None
        """A call that waits for its confirmation."""
        self.message: Text | None = None
        """What the last key did not do (shown in the prompt until the next key)."""

    def _init_table(self) -> None:
        """What the table shows and waits on: the bots, the clocks, the reveals, the screens
        over it, the person's hand order (from the saved settings, when saving)."""
        self.thinking: int | None = None
        """The bot seat deciding now, if any."""
        self.window: Countdown | None = None
        """The person's timed window, while one is open."""
        self.reveals = Reveals(self.reveal)
        """The cards the person is being shown."""
        self.flash: set[str] = set()
        """Ids of the table widgets an event just involved."""
        self.last_round: RoundResult | None = None
        """The results of the last round that ended (shown with the game's end)."""
        self.between: RoundResult | None = None
        """The results of a round of a match just over, while they are shown: the next round's
        clocks and bots wait until the person closes them."""
        self.look_at: At | None = None
        """Another seat's card just seen, which the table scrolls into view (``None``: none)."""
        self.covers = 0
        self.open_hands = False  # the AI players' cards face up (practice)
        self.practice = False  # open hands were shown in this game: a practice game
        self.hinting = False  # a hint is being weighed
        self.hints_asked = 0  # hints weighed
        self.last_hint: tuple[tuple[int, int], Hint] | None = None  # (generation, moves), hint
        """How many screens cover the table (help, a round's results): while any does, the
        clocks are paused and the bots wait; a reveal's time goes on."""
        self.scroll_events = False
        """Whether the scroll keys move the event panel (Tab) rather than the other seats."""
        self.order = "suit"
        """How the person's Qute hand is sorted (``suit`` or ``rank``; remembered)."""
        if self.save:
            order = saves.load_settings().get("qute_sort")
            self.order = order if order in ("suit", "rank") else "suit"
        self.table: TableView
        """The view the table is drawn from (see the module's text; set when a game starts)."""
        self._marks: dict[str, set[str]] = {}
        self._table_up = False
        self._held: tuple[int, str, int] | None = None
        self._generation = 0
        self._spin = 0

    def _start(self, game: Game) -> None:
        self.game = game
        self.front: Front = front(game.variant)
        self.keys = word_keys(game.variant)
        self.title = variants.get(game.variant).title
        self.bots = [
            agents.get(self.opponents, seed=self.bot_seed * 16 + s) for s in range(game.players)
        ]
        self.prefix, self.typed, self.cursor = [], "", -1
        self.window, self.thinking, self.confirm, self.message = None, None, None, None
        self.between = self.last_round = None
        self.reveals.clear()
        self._held = None
        self._generation += 1
        self._kept = False  # this game is not in the history yet
        self._hints_before = self.hints_asked  # hints asked in earlier games of this table
        self.table = self._view()

    @property
    def mine(self) -> bool:
        """Whether the person may act now (input is refused otherwise)."""
        return (
            not self.game.over
            and self.me in self.game.actors
            and self.thinking is None
            and self.between is None
            and self.covers == 0
        )

    def _view(self) -> TableView:
        sights = self.reveals.active(self.clock())
        view = table_view(self.game, self.me, self.memory_aid, sights, self.front)
        if not self.open_hands:
            return view
        opened = cast("list[object]", self.game.open_view(self.me)["hands"])
        mine = cast("list[object]", view["hands"])
        hands = [mine[s] if s == self.me else row for s, row in enumerate(opened)]
        return cast(TableView, {**view, "hands": hands})

    @property
    def qute(self) -> bool:
        """Whether the game on the table is Qute (hands held face up, cards named by code)."""
        return "blind" in self.table

    def _advance(self) -> None:
        """After any change: finish, wait for the person, or let a bot think."""
        self.table = self._view()
        if self.game.over:
            self.window, self.thinking, self.between = None, None, None
            self._redraw()
            if self.save:
                saves.finish_save(self.record())
                self._keep()
            self._show_result()
            return
        if self.between is not None:
            self.window = None
            self._redraw()
            if not any(isinstance(s, RoundScreen) for s in self.screen_stack):
                title = say("round.over", round=self.between["round"])
                shown = RoundScreen(title, self.front.round_end(self.between, self.me))
                self._cover()
                self.push_screen(shown, self._next_round)
            return
        if self.me in self.game.actors:
            self._open_window()
            self._redraw()
            return
        self.window = None
        if self.covers:  # the bots wait while the person reads
            self._redraw()
            return
        bot = self.game.actors[0]
        self.thinking = bot
        self._redraw()
        generation = self._generation
        self.run_worker(
            lambda: self._think(bot, generation), thread=True, group="bots", exit_on_error=True
        )

    def _open_window(self) -> None:
        """Start the clock of a timed window the person has just entered (kept while they stay
        in it, over several moves: the initial peek's two cards share one window)."""
        kind = self.game.timed_window()
        length = {"peek": self.peek_window, "snap": self.snap_window}.get(kind or "", 0.0)
        if kind is None or length <= 0:
            self.window = None
        elif self.window is None or self.window.kind != kind:
            self.window = Countdown(kind, length, self.clock())
            if self.covers:
                self.window.pause(self.clock())

    def _cover(self) -> None:
        """A screen now covers the table: the clocks pause."""
        self.covers += 1
        if self.window is not None:
            self.window.pause(self.clock())

    def _uncover(self) -> None:
        """A covering screen is gone: the clocks go on with the time they had left, and a bot
        move that waited is played."""
        self.covers = max(0, self.covers - 1)
        if self.covers:
            return
        if self.window is not None:
            self.window.resume(self.clock())
        held, self._held = self._held, None
        if held is not None:
            self._bot_moved(*held)
        else:
            self._advance()

    def _next_round(self, _: None = None) -> None:
        """The person closed a round's results: the next round goes on (its reveals start)."""
        self.between = None
        self.reveals.start(self.clock())
        self._uncover()

    def _think(self, bot: int, generation: int) -> None:
        """A bot decides (in a worker thread), then its move is played on the app's thread."""
        if self.bot_pause > 0:
            time.sleep(self.bot_pause)
        action = str(self.bots[bot].act(Seat(self.game, bot)))
        self.call_from_thread(self._bot_moved, bot, action, generation)

    def _table_gone(self) -> bool:
        """Whether the table is going away (the app closes): nothing is drawn on it then."""
        return not self.query("#status")

    def _bot_moved(self, bot: int, action: str, generation: int) -> None:
        if generation != self._generation:
            return  # a new game was started meanwhile
        if self._table_gone():  # an answer that came back while the app closes
            return
        if self.covers:  # played once the person is back at the table
            self._held = (bot, action, generation)
            return
        self.thinking = None
        self._apply(bot, action)

    def _apply(self, seat: int, action: str, *, by_clock: bool = False) -> None:
        """Play ``action`` for ``seat`` and tell what happened (``by_clock``: the person's time
        ran out and the clock chose)."""
        initial_peek = self.table.get("phase") == "peek"
        snap = self.game.timed_window() == "snap"
        events_ = self.game.play(seat, action)
        if snap and seat != self.me:  # an AI's pass in a snap window is not news
            events_ = [ev for ev in events_ if ev.type != "pass"]
        if seat == self.me:
            if not initial_peek:
                # a card just seen turns down at the person's next move; the initial peeks
                # are seen together, until the first move after them
                self.reveals.clear()
            self.prefix, self.typed, self.cursor, self.confirm = [], "", -1, None
        self._tell(events_, by_clock=by_clock, together=initial_peek)
        if self.save:
            saves.write_save(self.record())
        self._advance()

    def _tell(self, events_: list[Event], *, by_clock: bool = False, together: bool = True) -> None:
        """Write ``events_`` in words to the event panel, show the cards they let the person
        see, and flash the places they involve."""
        now = self.clock()
        seen = [ev.seen_by(self.me) for ev in events_]
        ended = False
        for ev in seen:
            if isinstance(ev, ROUND_STARTS):
                self.reveals.clear()
            if isinstance(ev, ROUND_ENDS):
                self.last_round = ev.result
                if not self.game.over:
                    self.between, ended = ev.result, True
            sights = sights_in(ev)
            if not sights:
                continue
            if ended:  # the next round's: shown once its results are closed
                self.reveals.hold(sights)
            else:
                self.reveals.add(sights, now, together=together)
                self.look_at = next((a for a, _ in sights if a.seat != self.me), None)
        told = seen if self.memory_aid else [public_event(ev, self.me) for ev in events_]
        log = self.query_one("#log", RichLog) if self._table_up else None
        flash: set[str] = set()
        first = True
        for ev in told:
            flash.update(event_places(ev))
            if log is None:
                continue
            parts = self.front.event(ev, self.me)
            if isinstance(ev, ROUND_ENDS):
                parts = parts[:1]  # the results have their own screen
            for part in parts:
                if first and by_clock and isinstance(part, Text):
                    part = Text(say("tui.timed_out") + " ", style="bold red") + part
                first = False
                log.write(part)
        if log is not None and not self.scroll_events:  # the latest line in view, once laid out
            self.call_after_refresh(log.scroll_end, animate=False)
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

    def tick(self) -> None:
        """Five times a second: the spinner, the clock, a card whose reveal time is up, and a
        timed window that ran out (the clock's move is played and labelled)."""
        self._spin += 1
        if self._table_gone():
            return
        now = self.clock()
        if self.reveals.expire(now):
            self.table = self._view()
            self._redraw()
        elif self.table.get("seen_now"):
            self._redraw_sight()
        if self.thinking is not None:
            self._draw_bars()
        if self.look_at is not None:
            self._scroll_to_sight()
        if self.window is None:
            return
        if self.window.expired(now) and self.mine:
            self._apply(self.me, str(self.game.timeout_action(self.me)), by_clock=True)
            return
        self._draw_status()

    def record(self) -> saves.SaveRecord:
        """What is saved: the game's log and the table's settings."""
        return {
            "log": self.game.log,
            "seat": self.me,
            "opponents": self.opponents,
            "bot_seed": self.bot_seed,
            "memory_aid": self.memory_aid,
            "practice": self.practice,
            "hinted": self.hints_asked > self._hints_before,
            "peek_window": self.peek_window,
            "snap_window": self.snap_window,
            "reveal": self.reveal,
        }

    def _keep(self) -> None:
        """Keep the finished game in the person's history, once, and say what it did to their
        rating (:mod:`cardtable.tui.history`)."""
        if self._kept:
            return
        self._kept = True
        kept = history.record_game(
            self.game,
            self.me,
            self.opponents,
            memory_aid=self.memory_aid,
            hints_used=self.hints_asked > self._hints_before,
            practice=self.practice,
        )
        self.notify(history.kept_line(kept), severity="warning" if kept.error else "information")

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

    def action_play_again(self) -> None:
        """A new game of the same kind, with the next seed."""
        g = self.game
        fresh = new_game(g.variant, players=g.players, seed=g.seed + 1, options=dict(g.options))
        while self.screen is not self.screen_stack[0]:
            self.pop_screen()
        self.covers = 0
        self._start(fresh)
        log = self.query_one("#log", RichLog)
        log.write(Text(say("tui.new_game"), style="bold"))
        self._tell(self.game.opening_events)
        self._advance()

    # ------------------------------------------------------------------ drawn by the app
    def _redraw(self) -> None:
        """Draw everything again (the app's)."""
        raise NotImplementedError

    def _draw_bars(self) -> None:
        """Draw the status, prompt, words and keys again (the app's)."""
        raise NotImplementedError

    def _redraw_sight(self) -> None:
        """Draw the line of the cards just seen again (the app's)."""
        raise NotImplementedError

    def _mark(self) -> None:
        """Mark the cards and piles again (the app's)."""
        raise NotImplementedError

    def _draw_status(self) -> None:
        """Draw the status bar again (the app's)."""
        raise NotImplementedError

    def _scroll_to_sight(self) -> None:
        """Bring another seat's card just seen into view (the app's)."""
        raise NotImplementedError
