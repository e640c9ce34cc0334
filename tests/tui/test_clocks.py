"""Memory that cannot be gamed, on the full-screen table: a reveal lasts its time whatever
covers the table; the clocks (and the bots) wait while the help or a round's results are
read; a move the clock plays is labelled, and the card it shows is a reveal like any other.
Time comes from a fake clock."""

from __future__ import annotations

import threading

from textual.widgets import RichLog

from cardtable import Action, new_game
from cardtable.agents import Agent
from cardtable.events import At
from cardtable.seat import Seat
from cardtable.tui.app import CardBox, CardtableApp, HelpScreen, RoundScreen

from .helpers import FakeClock, enter, make_app, settle, sync

CABO_DEAL = ["13", "4", "0", "4", "5", "6", "5", "6", "9", "3", "8", "7"]
"""Two-seat cabo: seat 0 holds 13, 0, 5, 5, seat 1 4, 4, 6, 6; the pile starts with 9."""


def _cabo(clock: FakeClock, **kwargs: object) -> CardtableApp:
    game = new_game("cabo", players=2, seed=1, deck=CABO_DEAL, options={"target": None})
    settings: dict[str, object] = {
        "opponents": "random",
        "bot_pause": 0.0,
        "flash": 0.0,
        "save": False,
        "clock": clock,
        "reveal": 5.0,
        **kwargs,
    }
    return CardtableApp(game, **settings)  # type: ignore[arg-type]


def _log(app: CardtableApp) -> str:
    return " ".join(" ".join(line.text for line in app.query_one("#log", RichLog).lines).split())


def _shown(app: CardtableApp, seat: int, pos: int) -> str | None:
    return app.query_one(f"#card-{seat}-{pos}", CardBox).code


@sync
async def test_the_help_pauses_the_peek_clock_which_goes_on_with_the_time_left() -> None:
    clock = FakeClock()
    app = _cabo(clock, peek_window=30.0)
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        assert app.window is not None and app.window.left(clock()) == 30
        clock.advance(10)
        app.tick()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen) and app.window.paused
        clock.advance(600)  # a long read
        app.tick()
        await pilot.pause()
        assert app.game.log["actions"] == []  # nothing was played behind the help
        await pilot.press("escape")
        assert not app.window.paused and app.window.left(clock()) == 20
        clock.advance(19)
        app.tick()
        assert app.game.log["actions"] == []
        clock.advance(2)
        for _ in range(2):  # each tick of the run-out window plays one of the two peeks
            app.tick()
            await settle(app, pilot)
        # the clock chose: labelled, and the card it showed is a reveal like any other
        assert app.game.log["actions"][:2] == [[0, "peek 0"], [0, "peek 1"]]
        assert "time ran out: you peeked at your card 0" in _log(app)
        assert _shown(app, 0, 0) == "13" and _shown(app, 0, 1) == "0"
        assert "Seen now" in str(app.query_one("#sight").render())
        clock.advance(5)
        app.tick()
        await pilot.pause()
        assert _shown(app, 0, 0) is None and _shown(app, 0, 1) is None


@sync
async def test_the_help_never_stretches_a_reveal() -> None:
    clock = FakeClock()
    app = _cabo(clock, peek_window=0.0)
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("0")
        clock.advance(2)
        await pilot.press("1")  # the two initial peeks are seen together: 5 s from now
        await settle(app, pilot)
        assert _shown(app, 0, 0) == "13" and _shown(app, 0, 1) == "0"
        await pilot.press("question_mark")
        clock.advance(4.9)
        app.tick()
        assert app.reveals.active(clock()) == {At(0, 0): "13", At(0, 1): "0"}
        clock.advance(0.2)
        app.tick()
        assert app.reveals.active(clock()) == {}
        await pilot.press("escape")
        await pilot.pause()
        # back at the table: the time ran while the help was up, the cards are face down
        assert _shown(app, 0, 0) is None and _shown(app, 0, 1) is None
        assert "[13]" not in app.export_screenshot().replace("&#160;", " ")


class _Gated(Agent):
    """A bot that decides as ``inner`` does, once ``gate`` is set (the test says when)."""

    def __init__(self, inner: Agent, gate: threading.Event) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.gate = gate

    def act(self, seat: Seat) -> Action:
        self.gate.wait(timeout=60)
        return self.inner.act(seat)


@sync
async def test_the_bots_wait_behind_the_help() -> None:
    clock = FakeClock()
    app = _cabo(clock, peek_window=0.0)
    gate = threading.Event()
    app.bots[1] = _Gated(app.bots[1], gate)  # the bot decides only once the help is open
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("0")
        await pilot.press("1")  # the bots start their peeks
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        gate.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert [s for s, _ in app.game.log["actions"]] == [0, 0]  # the bot's move waits
        await pilot.press("escape")
        await settle(app, pilot)
        assert [s for s, _ in app.game.log["actions"]][:4] == [0, 0, 1, 1]


@sync
async def test_a_timed_out_snap_window_is_labelled() -> None:
    clock = FakeClock()
    app = make_app("gabo", seed=2, players=3, snap_window=5.0, clock=clock)
    async with app.run_test(size=(100, 35)) as pilot:
        for _ in range(300):
            await settle(app, pilot)
            if app.game.over or app.game.timed_window() == "snap":
                break
            await enter(app, pilot, str(app.game.legal_actions(0)[0]))
        assert app.game.timed_window() == "snap" and app.window is not None
        clock.advance(5)
        app.tick()
        await settle(app, pilot)
        assert "time ran out: you passed" in _log(app)
        # the AI players' passes in a snap window are not news (as in line mode)
        after = _log(app).rsplit("a snap window opens", 1)[1]
        assert "seat 1 passed" not in after and "seat 2 passed" not in after


@sync
async def test_the_next_rounds_first_look_starts_when_its_results_are_closed() -> None:
    """Kaboo shows each round's bottom row once, as it is dealt. The deal comes with the move
    that ended the last round, behind the results: its reveal time starts when they close."""
    clock = FakeClock()
    app = make_app("kaboo", seed=2, options={"target": 200}, clock=clock, reveal=5.0)
    async with app.run_test(size=(100, 35)) as pilot:
        for _ in range(600):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.screen, RoundScreen) or app.game.over:
                break
            if app.mine:
                await enter(app, pilot, str(app.game.legal_actions(0)[0]))
        assert isinstance(app.screen, RoundScreen)
        clock.advance(60)  # reading the results
        app.tick()
        await pilot.press("enter")
        await pilot.pause()
        bottom = {At(0, i) for i in (2, 3)}
        assert set(app.reveals.active(clock())) == bottom  # seen now, for its whole time
        clock.advance(5)
        app.tick()
        assert app.reveals.active(clock()) == {}
