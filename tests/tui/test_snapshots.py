"""Snapshots of the table at 80×24 (the compact layout) and 160×50 (the wide one), and what
must be on screen at any size: the person's hand, the piles and the card just revealed.

Update the snapshots after a deliberate change of the look:
``pytest tests/tui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from cardtable import new_game
from cardtable.cards import standard_deck
from cardtable.tui.app import CardBox, CardtableApp

from .helpers import FakeClock, enter, make_app, settle

SIZES = [(80, 24), (160, 50)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("variant", "players"), [("gabo", 10), ("kaboo", 4), ("qute", 3)])
def test_the_table_at_size(
    snap_compare: Any, variant: str, players: int, size: tuple[int, int]
) -> None:
    app = make_app(variant, seed=3, players=players)

    async def ready(pilot: Pilot[Any]) -> None:
        await settle(app, pilot)

    assert snap_compare(app, terminal_size=size, run_before=ready)


def _on_screen(app: CardtableApp, widget: Widget) -> bool:
    """Whether all of ``widget`` is drawn on the screen (not scrolled or cut off)."""
    region = widget.region
    screen = Region(0, 0, app.size.width, app.size.height)
    visible = app.screen.find_widget(widget).visible_region if widget.display else Region()
    return region.area > 0 and screen.contains_region(region) and visible == region


def _spy_far_away() -> CardtableApp:
    """Ten-seat gabo whose first card drawn is an 8 (spy): the person spies on seat 9's card
    3, the last card of the last panel."""
    deck = standard_deck(jokers=True)
    eight = deck.index("8S")
    deck[eight], deck[41] = deck[41], deck[eight]
    game = new_game("gabo", players=10, seed=1, deck=deck, options={"target": None})
    return CardtableApp(
        game,
        opponents="random",
        bot_pause=0.0,
        peek_window=0.0,
        snap_window=0.0,
        flash=0.0,
        save=False,
        clock=FakeClock(),
    )


@pytest.mark.parametrize("size", [(64, 22), (80, 24), (100, 30), (160, 50)])
def test_your_hand_and_the_card_just_seen_are_always_on_screen(size: tuple[int, int]) -> None:
    app = _spy_far_away()

    async def look() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await enter(app, pilot, "peek 0")
            await enter(app, pilot, "peek 1")
            await settle(app, pilot)
            await enter(app, pilot, "draw deck")
            assert app.game.view(0)["drawn"] == "8S"
            assert _on_screen(app, app.query_one("#pile-drawn"))  # the card drawn
            await enter(app, pilot, "discard")
            await enter(app, pilot, "spy 9.3")
            await pilot.pause()
            code = app.game.view(0)["hands"][9][3]["card"]
            for i in range(4):  # your own hand, whatever the size
                assert _on_screen(app, app.query_one(f"#card-0-{i}", CardBox)), i
            sight = app.query_one("#sight")
            assert _on_screen(app, sight)  # the card just seen, named where it is
            assert f"9.3 [{code}]" in str(sight.render())
            app.tick()  # a fifth of a second later
            await pilot.pause()
            assert _on_screen(app, app.query_one("#card-9-3"))  # the table scrolled to it
            for pile in ("#pile-deck", "#pile-discard"):
                assert _on_screen(app, app.query_one(pile))
            log = app.query_one("#log")  # the latest event in view, though the dock grew
            assert log.scroll_y == log.max_scroll_y

    asyncio.run(look())


def test_the_wide_layout_uses_its_width() -> None:
    app = make_app("gabo", seed=3, players=6)

    async def look() -> tuple[int, int, int]:
        async with app.run_test(size=(160, 50)) as pilot:
            await settle(app, pilot)
            log = app.query_one("#log").size.width
            grid = app.query_one("#opponents").styles.grid_size_columns or 0
            return log, grid, app.query_one("#table").size.width

    log, columns, table = asyncio.run(look())
    assert log >= 50  # a third of the width for the events
    assert columns == 3  # the other seats side by side
    assert table >= 100
