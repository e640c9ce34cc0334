"""Nothing the person reads lies out of sight: on a laptop's screen the move log beside the table
keeps its newest line inside the window as the log grows, and once the game is over the own
seat no longer sticks over the field (a laptop) or docks over the end's buttons (a phone)."""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page

from cardtable.text.catalog import say

from ..webserver import Server
from .driver import choose_action, create_room, play_action, wait_actionable

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}

NEWEST_LINE = """() => {
    const last = document.querySelector('[data-ui=log] li:last-child');
    return last ? last.getBoundingClientRect().bottom : null;
}"""

# Each button of the end banner, scrolled into view: whether it is the element on top at its
# centre (no docked part of the page lies over it).
END_BUTTONS_ON_TOP = """() => [...document.querySelectorAll('.end-host button, .end-host a')]
    .filter((b) => b.getClientRects().length)
    .map((b) => {
        b.scrollIntoView({ block: 'nearest' });
        const r = b.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return [b.textContent, top === b || b.contains(top)];
    })"""


def in_view(page: Page, height: int) -> None:
    """Wait until the log's newest line (if any) ends inside a window ``height`` pixels tall;
    a clear failure after 5 s."""
    try:
        page.wait_for_function(
            f"() => {{ const b = ({NEWEST_LINE})(); return b === null || b <= {height}; }}",
            timeout=5_000,
        )
    except Exception as exc:
        raise AssertionError(f"the newest line ends at {page.evaluate(NEWEST_LINE)}") from exc


def box(page: Page, selector: str) -> dict[str, float]:
    """The bounding box of the first element ``selector`` finds (it must be drawn)."""
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def test_the_newest_move_stays_in_view_and_the_end_is_not_covered(
    server: Server, context: BrowserContext
) -> None:
    page = context.new_page()
    page.set_viewport_size(DESKTOP)
    create_room(page, server.url, "kaboo", ["human", "ai:casual", "ai:casual"])
    moves = 0
    while True:
        view = wait_actionable(page)["view"]
        if view["over"]:
            break
        page.evaluate("() => window.scrollTo(0, 0)")
        in_view(page, DESKTOP["height"])
        play_action(page, choose_action(view, moves))
        moves += 1
        assert moves < 200
    # the game is over: the log's last lines (the round and the game) are in view, at the top
    # of the page as the end banner pushes the table down
    page.wait_for_function("() => document.body.dataset.status === 'finished'")
    page.evaluate("() => window.scrollTo(0, 0)")
    in_view(page, DESKTOP["height"])
    assert say("game.over") in page.locator("[data-ui=log] li").last.inner_text()
    # the own seat lies under the field, over none of the hands shown
    field, me = box(page, ".table-field"), box(page, ".area-me")
    assert me["y"] >= field["y"] + field["height"], (field, me)
    # on a phone the own seat is no longer docked, and every button of the end is reachable
    page.set_viewport_size(PHONE)
    position = page.evaluate("() => getComputedStyle(document.querySelector('.area-me')).position")
    assert position == "static"
    try:  # (the page may take a frame to lay itself out for the new size)
        page.wait_for_function(
            f"() => ({END_BUTTONS_ON_TOP})().every(([, onTop]) => onTop)", timeout=5_000
        )
    finally:
        buttons = page.evaluate(END_BUTTONS_ON_TOP)
    assert len(buttons) >= 3 and all(on_top for _, on_top in buttons), buttons
