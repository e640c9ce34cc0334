"""The full-screen lesson (:mod:`cardtable.tui.lesson`), driven by keys as a learner would: the
panel says the step, a move the step does not want is explained there and not played, the
expected one is played with the scripted answers, and the end offers the real round."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.widgets import Static

from cardtable.catalog import say, set_default
from cardtable.learn.lessons import load
from cardtable.tui.lesson import LessonApp, LessonResults

from .helpers import FakeClock, enter, sync

SIZE = (100, 32)


def _app() -> LessonApp:
    return LessonApp(load("kaboo").start(seed=2), flash=0.0, clock=FakeClock())


def _panel(app: LessonApp) -> str:
    """What the lesson's panel shows now."""
    shown = app.query_one("#lesson", Static)
    assert shown.border_title is not None and app.run_.progress in str(shown.border_title)
    return app.lesson_text().plain


@pytest.fixture
def english() -> Iterator[None]:
    set_default("en")
    yield
    set_default(None)


@sync
async def test_the_first_steps_of_the_kaboo_lesson(english: None) -> None:
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert _panel(app) == say("learn.kaboo.welcome")
        assert not app.mine or app.run_.reading
        await pilot.press("x")  # a step to read waits for Enter
        assert say("learn.read_on") in _panel(app)
        await pilot.press("enter")
        assert _panel(app) == say("learn.kaboo.draw")

        # a legal move the step does not want: explained, not played
        await pilot.press(app.choices()["knock"])
        await pilot.press("enter")  # the call's confirmation
        await pilot.pause()
        panel = _panel(app)
        assert panel.startswith(say("learn.kaboo.draw"))
        assert say("learn.ui.not_this_move", move="call Knock") in panel
        assert panel.endswith(say("learn.kaboo.draw.knock"))
        assert app.game.moves_played == 0
        assert app.mine and app.prefix == []

        await pilot.press("b")  # no hints in a lesson: the step says what to do
        await pilot.pause()
        assert app.message is not None and app.message.plain == say("hint.lesson")
        assert app.game.moves_played == 0

        # the expected move: played, the panel moves on
        await enter(app, pilot, "draw deck")
        await pilot.pause()
        assert _panel(app) == say("learn.kaboo.replace")
        assert app.table["drawn"] == "2H"

        # another wrong one, then the right one with the opponent's scripted answer
        await pilot.press(app.choices()["discard"])
        await pilot.pause()
        assert say("learn.kaboo.replace.discard") in _panel(app)
        await enter(app, pilot, "replace 2")
        await pilot.pause()
        assert _panel(app) == say("learn.kaboo.take")
        assert app.game.log["actions"] == [[0, "draw deck"], [0, "replace 2"], *_opp()]
        assert app.table["discard"][-1] == "AS"


def _opp() -> list[list[Any]]:
    return [[1, "draw deck"], [1, "replace 0"]]


@sync
async def test_the_panel_speaks_german() -> None:
    set_default("de")
    try:
        app = _app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert _panel(app).startswith("Willkommen bei Kaboo!")
            await pilot.press("enter")
            await pilot.press(app.choices()["knock"])
            await pilot.press("enter")
            await pilot.pause()
            assert "Nicht dieser Zug (Knock rufen): Mit dem Klopfen" in _panel(app)
    finally:
        set_default(None)


@sync
async def test_the_round_ends_with_its_results_and_the_lesson_offers_a_real_round(
    english: None,
) -> None:
    app = _app()
    run = app.run_
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while not run.done:
            if run.reading:
                if isinstance(app.screen, LessonResults):
                    await pilot.press("enter")  # back from the round's results
                await pilot.press("enter")
            else:
                await enter(app, pilot, run.expected()[0])
            await pilot.pause()
        assert app.game.over
        assert say("learn.ui.real_round") in app._prompt().plain
        assert _panel(app) == say("learn.final", game="Kaboo")
        await pilot.press("enter")
        await pilot.pause()
    assert app.wants_real_round
