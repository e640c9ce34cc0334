"""Whole games in the browser: every variant against AI opponents, then its history and replay."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server
from .driver import (
    choose_action,
    create_room,
    play_action,
    play_to_end,
    state,
    wait_actionable,
)

# Seats per game: you and casual AIs (three seats where the layout has sides to show).
SEATS = {
    "cabo": ["human", "ai:casual", "ai:casual"],
    "cabo-german": ["human", "ai:casual"],
    "gabo": ["human", "ai:casual", "ai:casual"],
    "kaboo": ["human", "ai:casual"],
    "qute": ["human", "ai:casual", "ai:casual"],
}


def check_end_panel(page: Page, result: dict[str, object]) -> None:
    """The end-of-game panel names the winners and the totals of ``view.result``."""
    panel = page.locator("[data-ui=end-panel]")
    expect(panel).to_be_visible()
    winners = result["winners"]
    totals = result["totals"]
    assert isinstance(winners, list) and isinstance(totals, list)
    expect(panel.locator("[data-winners]")).to_have_attribute(
        "data-winners", ",".join(str(w) for w in winners)
    )
    # The standings in view: every total, best first.
    standings = panel.locator("[data-ui=standings]")
    for seat, total in enumerate(totals):
        row = standings.locator(f"tr[data-seat='{seat}']")
        expect(row).to_have_attribute("data-total", str(total))
    order = standings.locator("tbody tr").evaluate_all("rs => rs.map(r => +r.dataset.total)")
    assert order == sorted(totals)
    expect(panel.locator("[data-ui=rematch]")).to_be_visible()


@pytest.mark.parametrize("game", list(SEATS))
def test_whole_game_against_ai(
    game: str, server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    room = create_room(page, server.url, game, SEATS[game])
    moves = 0
    # A few moves, then a picture of the table in play.
    while moves < 4:
        current = wait_actionable(page)
        if current["view"]["over"]:
            break
        play_action(page, choose_action(current["view"], moves))
        moves += 1
    page.screenshot(path=str(screenshots / f"{game}-midgame.png"), full_page=True)

    final = play_to_end(page)
    result = final["view"]["result"]
    assert result is not None
    assert final["status"] == "finished"
    check_end_panel(page, result)
    page.screenshot(path=str(screenshots / f"{game}-end.png"), full_page=True)

    # The room's history lists the game; its replay steps through to the same result.
    page.click("[data-ui=end-panel] [data-ui=history]")
    expect(page.locator("tr[data-game='1']")).to_contain_text("finished")
    page.click("tr[data-game='1'] [data-ui=replay]")
    page.wait_for_url(f"**/r/{room}/replay/1")
    expect(page.locator(".replay-caption")).to_contain_text("Start")
    page.click("[data-ui=next]")
    expect(page.locator(".replay-caption")).to_contain_text("Step 1 of")
    page.click("[data-ui=last]")
    expect(page.locator(".end-panel [data-winners]")).to_have_attribute(
        "data-winners", ",".join(str(w) for w in result["winners"])
    )
    # A spectator's replay never shows a card that was not public: at the end all are.
    page.screenshot(path=str(screenshots / f"{game}-replay-end.png"), full_page=True)


def test_moves_are_animated_unless_motion_is_reduced(
    server: Server, browser: Browser, context: BrowserContext
) -> None:
    moving = browser.new_context(viewport={"width": 1100, "height": 850})
    try:
        for ctx, animated in ((moving, True), (context, False)):
            page = ctx.new_page()
            create_room(page, server.url, "kaboo", ["human", "ai:casual"])
            wait_actionable(page)
            # Record every animation class that appears on the table from now on.
            page.evaluate(
                """() => {
                    window.seenAnimations = new Set();
                    new MutationObserver(records => {
                        for (const r of records) {
                            for (const c of r.target.classList || []) {
                                if (c.startsWith('anim-')) window.seenAnimations.add(c);
                            }
                        }
                    }).observe(document.body,
                        {subtree: true, attributes: true, attributeFilter: ['class']});
                }"""
            )
            play_action(page, "draw deck")
            play_action(page, choose_action(wait_actionable(page)["view"], 0))
            seen = set(page.evaluate("() => [...window.seenAnimations]"))
            if animated:
                assert "anim-move" in seen, seen
            else:
                assert not seen, seen
    finally:
        moving.close()


def test_keyboard_shortcuts(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    start = wait_actionable(page)
    assert "draw deck" in start["view"]["legal"]
    page.keyboard.press("d")
    page.wait_for_function("() => window.cardtable.state().view.drawer === 0")
    held = state(page)
    page.keyboard.press("2")  # replace 2: complete, nothing beyond it, so played at once
    page.wait_for_function(
        """v => {
            const s = window.cardtable.state();
            return s.version > v && s.view.drawer === null;
        }""",
        arg=held["version"],
    )
    page.keyboard.press("?")
    expect(page.locator(".help-modal")).to_be_visible()
    expect(page.locator(".help-modal")).to_contain_text("draw from the deck")
    page.keyboard.press("Escape")
    expect(page.locator(".help-modal")).to_have_count(0)
    page.keyboard.press("r")
    expect(page.locator(".rules-modal")).to_contain_text("Kaboo")
    page.keyboard.press("Escape")
    expect(page.locator(".rules-modal")).to_have_count(0)
