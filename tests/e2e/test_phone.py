"""The client on a phone (390×844): no horizontal scrolling, cards and buttons in reach."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from ..webserver import Server, http
from .driver import choose_action, create_room, play_action, wait_actionable
from .test_phone_first import MEASURE, TOUCH_TARGET

WIDTH, HEIGHT = 390, 844


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def assert_fits(page: Page) -> None:
    """Nothing sticks out sideways: the page does not scroll horizontally."""
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= WIDTH, f"the page is {width}px wide"


def assert_in_view(page: Page, selector: str) -> None:
    """Every element matching ``selector`` is drawn and lies within the viewport's width.

    Measured in one go in the page, and waited for: the table redraws with every state, and an
    AI's move may land between two measurements."""
    check = f"""() => {{
        const boxes = [...document.querySelectorAll({selector!r})]
            .map(n => n.getBoundingClientRect());
        return boxes.length > 0 && boxes.every(
            r => r.width > 0 && r.height > 0 && r.x >= 0 && r.x + r.width <= {WIDTH + 0.5});
    }}"""
    try:
        page.wait_for_function(check, timeout=3_000)
    except PlaywrightError as err:
        boxes = page.eval_on_selector_all(
            selector, "ns => ns.map(n => JSON.stringify(n.getBoundingClientRect()))"
        )
        raise AssertionError(f"{selector} not within the screen: {boxes}") from err


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("gabo", ["human", "ai:casual", "ai:casual", "ai:casual"]),
        ("qute", ["human", "ai:casual", "ai:casual", "ai:casual"]),
        ("kaboo", ["human", "ai:casual"]),
    ],
)
def test_phone_table(
    game: str, seats: list[str], server: Server, phone: BrowserContext, screenshots: Path
) -> None:
    page = phone.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=game]")
    assert_fits(page)
    page.screenshot(path=str(screenshots / "phone-lobby.png"), full_page=True)
    create_room(page, server.url, game, seats)
    for moves in range(8):
        current = wait_actionable(page)
        if current["view"]["over"]:
            break
        assert_fits(page)
        if any(slot is not None for slot in current["view"]["hands"][current["seat"]]):
            assert_in_view(page, ".seat-me .card")
        if page.locator(".action-bar .btn").count():
            assert_in_view(page, ".action-bar .btn")
        if moves == 3:
            page.screenshot(path=str(screenshots / f"phone-{game}.png"), full_page=True)
        play_action(page, choose_action(current["view"], moves))
    assert_fits(page)
    # The rules dialog fits too.
    page.click("[data-ui=rules]")
    expect(page.locator(".rules-modal")).to_be_visible()
    assert_fits(page)
    page.screenshot(path=str(screenshots / f"phone-{game}-rules.png"))
    # Help speaks of taps, not of keys a phone has not.
    page.keyboard.press("Escape")
    page.click("[data-ui=help]")
    help_box = page.locator(".help-modal")
    expect(help_box).to_contain_text("Tap cards to build an action")
    assert help_box.locator("kbd").count() == 0
    assert "click" not in help_box.inner_text().lower()


def assert_big_enough(page: Page) -> None:
    """Every control drawn is at least TOUCH_TARGET px each way (a checkbox with its label)."""
    controls = page.evaluate(MEASURE)["controls"]
    assert controls, "no controls measured"
    small = [c for c in controls if min(c["w"], c["h"]) < TOUCH_TARGET - 0.5]
    assert not small, f"controls smaller than {TOUCH_TARGET} px: {small}"


def test_the_lobby_and_its_dialog_fit_a_finger(server: Server, phone: BrowserContext) -> None:
    page = phone.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=game] option", state="attached")
    page.wait_for_selector("input[name=aid-all]")
    assert_big_enough(page)
    # The rules dialog's close button too; Escape closes the dialog.
    page.click(".create-form .row .btn")
    expect(page.locator(".rules-modal")).to_be_visible()
    assert_big_enough(page)
    page.keyboard.press("Escape")
    expect(page.locator(".rules-modal")).to_have_count(0)


def test_a_spectator_scrolls_to_every_seat(server: Server, phone: BrowserContext) -> None:
    """A spectator has no hand of their own to keep in view: the seat drawn at the bottom stays
    in the table, and scrolled to the end it lies above the docked prompt."""
    seats = [{"type": "ai", "level": "casual"}] * 3
    status, room = http(
        "POST",
        server.url + "/api/rooms",
        {"game": "gabo", "players": 3, "seats": seats, "options": {"target": None}},
    )
    assert status in (200, 201), room
    page = phone.new_page()
    page.goto(f"{server.url}/r/{room['room']}?watch")
    page.wait_for_selector(".table .area-me .card")
    assert page.eval_on_selector(".area-me", "n => getComputedStyle(n).position") != "fixed"
    page.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
    page.wait_for_function(
        """() => {
            const cards = [...document.querySelectorAll('.area-me .card')];
            const prompt = document.querySelector('.status-row').getBoundingClientRect();
            return cards.length > 0 && cards.every(c => {
                const r = c.getBoundingClientRect();
                return r.top >= 0 && r.bottom <= prompt.top + 0.5;
            });
        }"""
    )
