"""The hint overlay of the full-screen table: ``b`` weighs every legal move, a chosen row is
played, Escape plays nothing."""

from __future__ import annotations

from textual.widgets import OptionList

from cardtable.tui.hintscreen import HintScreen

from .helpers import enter, make_app, settle, sync


@sync
async def test_b_lists_every_move_best_first_and_a_row_plays_it() -> None:
    app = make_app("cabo")
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(app, pilot)
        await enter(app, pilot, "peek 0")
        await enter(app, pilot, "peek 1")
        await settle(app, pilot)
        await enter(app, pilot, "draw deck")
        legal = list(app.legal)
        await pilot.press("b")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, HintScreen)
        first = app.screen.found
        rows = first.rows
        assert sorted(str(r.action) for r in rows) == sorted(legal)
        assert rows[0].best
        listing = app.screen.query_one("#hint-rows", OptionList)
        assert listing.option_count == len(legal)
        assert "win chance" in str(listing.get_option_at_index(0).prompt)
        moves = len(app.game.log["actions"])
        await pilot.press("escape")  # nothing played
        await pilot.pause()
        assert not isinstance(app.screen, HintScreen)
        assert len(app.game.log["actions"]) == moves
        await pilot.press("b")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, HintScreen)
        assert app.screen.found is first  # the same decision: the same rows, not weighed again
        assert app.hints_asked == 1
        best = str(app.screen.found.rows[0].action)
        await pilot.press("enter")  # the highlighted first row: the best
        await pilot.pause()
        assert app.game.log["actions"][moves] == [app.me, best]


@sync
async def test_b_with_no_decision_to_weigh_says_so() -> None:
    app = make_app("kaboo")
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(app, pilot)
        app.hinting = True  # a hint is being weighed: not a second one
        app.action_hint()
        assert not isinstance(app.screen, HintScreen)
        assert app.message is not None and "wait for your turn" in app.message.plain
        app.hinting = False
        await enter(app, pilot, "knock")
        await settle(app, pilot)
        assert app.game.over
        app.action_hint()
        assert not isinstance(app.screen, HintScreen)
        assert app.message is not None and "wait for your turn" in app.message.plain
