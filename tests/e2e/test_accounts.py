"""Accounts in the browser: signing up, out and in again (a wrong password said plainly); the
seats this browser played as a guest claimed for the account, and such a seat opened from
another browser signed in to it — from the lobby's "Your tables" and by the table's own
address; a player's profile (numbers per game, recent games, the rating chart drawn as an
SVG) and the leaderboard, on a desktop and a phone screen without sideways scrolling; and the
player's own data downloaded, then the account deleted."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server, http
from .driver import create_room, play_to_end
from .test_csp import _REPORT_VIOLATIONS, Violations
from .test_phone_first import MEASURE, TOUCH_TARGET

PASSWORD = "correct horse"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# The page is no wider than its window (nothing scrolls sideways), and nothing in it sticks out
# to be cut off (but what a table's own scroller holds).
_FITS = """() => document.documentElement.scrollWidth <= innerWidth
    && document.body.scrollWidth <= innerWidth
    && [...document.querySelectorAll("main *, .dialog *")].every(
        (n) => n.getBoundingClientRect().right <= innerWidth + 0.5
            || n.closest(".table-scroll, .board-scroll") !== null)"""


def unique(stem: str) -> str:
    """A name no other test of the session signs up with."""
    return f"{stem}{uuid.uuid4().hex[:6]}"


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    """A phone: 390×844, touch, reduced motion."""
    ctx = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, reduced_motion="reduce"
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def open_dialog(page: Page, base: str) -> None:
    """The lobby's "Sign in" dialog."""
    if not page.url.startswith(base):
        page.goto(base + "/")
    page.click("[data-ui=sign-in]")
    expect(page.locator("[data-ui=account-dialog]")).to_be_visible()


def sign_up(page: Page, base: str, name: str) -> None:
    """Create an account in the lobby's dialog; returns once the top bar names the player."""
    page.goto(base + "/")
    open_dialog(page, base)
    page.click("[data-ui=account-mode]")  # "Create one"
    page.fill("#acc-name", name)
    page.fill("#acc-password", PASSWORD)
    page.click("[data-ui=account-submit]")
    expect(page.locator("[data-ui=account-name]")).to_have_text(name)


def sign_in(page: Page, base: str, name: str, password: str = PASSWORD) -> None:
    """Sign in from the lobby; returns once the top bar names the player."""
    page.goto(base + "/")
    open_dialog(page, base)
    page.fill("#acc-name", name)
    page.fill("#acc-password", password)
    page.click("[data-ui=account-submit]")
    expect(page.locator("[data-ui=account-name]")).to_have_text(name)


def assert_fits(page: Page, what: str) -> None:
    if page.evaluate(_FITS):
        return
    wide = page.evaluate(
        """() => [...document.querySelectorAll("main *, .dialog *")]
            .map((n) => [n.tagName, n.className?.baseVal ?? n.className,
                         Math.round(n.getBoundingClientRect().right)])
            .filter(([, , right]) => right > innerWidth).slice(0, 8)"""
    )
    raise AssertionError(f"{what} is wider than the window: {wide}")


def test_sign_up_then_out_and_in_again(
    browser: Browser, context: BrowserContext, server: Server
) -> None:
    name = unique("Ann")
    page = context.new_page()
    page.goto(server.url + "/")
    # a guest plays as before: the lobby asks for nothing
    expect(page.locator("[data-ui=sign-in]")).to_be_visible()
    expect(page.locator("[data-ui=your-tables]")).to_be_hidden()
    expect(page.locator("[data-ui=leaderboards]")).to_have_attribute("href", "/leaderboard")
    expect(page.locator("[data-ui=rated-field]")).to_be_hidden()
    # a password too short is refused in words
    open_dialog(page, server.url)
    page.click("[data-ui=account-mode]")
    page.fill("#acc-name", name)
    page.fill("#acc-password", "short")
    page.evaluate("() => document.querySelector('#acc-password').removeAttribute('minlength')")
    page.click("[data-ui=account-submit]")
    expect(page.locator("[data-ui=account-error]")).to_be_visible()
    assert "8" in page.locator("[data-ui=account-error]").inner_text()
    page.fill("#acc-password", PASSWORD)
    page.click("[data-ui=account-submit]")
    expect(page.locator("[data-ui=account-name]")).to_have_text(name)
    expect(page.locator("[data-ui=account-name]")).to_have_attribute("href", f"/p/{name}")
    expect(page.locator("[data-ui=your-tables]")).to_be_visible()
    # the lobby plays under the account's name, and a table alone against the computer is rated
    expect(page.locator("input[name=quick-name]")).to_have_value(name)
    expect(page.locator("[data-ui=rated-field]")).to_be_visible()
    expect(page.locator("input[name=rated]")).to_be_checked()
    expect(page.locator("input[name=aid-all]")).to_be_disabled()
    page.select_option("select[name=seat-1]", "human")  # a friend: rated no more by itself
    expect(page.locator("input[name=rated]")).not_to_be_checked()
    expect(page.locator("input[name=aid-all]")).to_be_enabled()
    # the name is taken now
    other = browser.new_context()
    try:
        stranger = other.new_page()
        stranger.goto(server.url + "/")
        open_dialog(stranger, server.url)
        stranger.click("[data-ui=account-mode]")
        stranger.fill("#acc-name", name)
        stranger.fill("#acc-password", PASSWORD)
        stranger.click("[data-ui=account-submit]")
        expect(stranger.locator("[data-ui=account-error]")).to_be_visible()
        expect(stranger.locator("[data-ui=sign-in]")).to_have_count(1)
    finally:
        other.close()

    page.click("[data-ui=sign-out]")
    expect(page.locator("[data-ui=sign-in]")).to_be_visible()
    expect(page.locator("[data-ui=your-tables]")).to_be_hidden()
    page.reload()
    expect(page.locator("[data-ui=sign-in]")).to_be_visible()

    # a wrong password: the dialog says so and stays open
    open_dialog(page, server.url)
    page.fill("#acc-name", name)
    page.fill("#acc-password", "not the password")
    page.click("[data-ui=account-submit]")
    error = page.locator("[data-ui=account-error]")
    expect(error).to_be_visible()
    assert error.inner_text().strip(), "the refusal has no words"
    expect(page.locator("[data-ui=account-dialog]")).to_be_visible()
    page.fill("#acc-password", PASSWORD)
    page.click("[data-ui=account-submit]")
    expect(page.locator("[data-ui=account-name]")).to_have_text(name)
    expect(page.locator("[data-ui=account-dialog]")).to_have_count(0)
    # still signed in on the next page
    page.reload()
    expect(page.locator("[data-ui=account-name]")).to_have_text(name)


def test_the_dialog_fits_a_finger(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    page.goto(server.url + "/")
    open_dialog(page, server.url)
    assert_fits(page, "the sign-in dialog")
    dialog_controls = [
        c
        for c in page.evaluate(MEASURE)["controls"]
        if "acc-" in c["what"] or "account" in c["what"] or "modal-close" in c["what"]
    ]
    assert dialog_controls
    small = [c for c in dialog_controls if min(c["w"], c["h"]) < TOUCH_TARGET - 0.5]
    assert not small, small
    page.keyboard.press("Escape")
    expect(page.locator("[data-ui=account-dialog]")).to_have_count(0)


def test_a_guest_seat_is_claimed_and_resumed_on_another_device(
    browser: Browser, context: BrowserContext, phone: BrowserContext, server: Server
) -> None:
    name = unique("Bea")
    page = context.new_page()
    room = create_room(page, server.url, "kaboo", ["human", "ai:random"], name="Guest Bea")
    page.wait_for_function("() => document.body.dataset.seat === '0'")
    # signing up claims the seat this browser holds, and says so
    sign_up(page, server.url, name)
    expect(page.locator(".toast").filter(has_text="guest")).to_contain_text("1 game")
    tables = page.request.get(server.url + "/api/account/tables").json()["tables"]
    assert [t["room"] for t in tables] == [room], tables
    mine = page.locator(f"[data-ui=your-table][data-room='{room}']")
    expect(mine).to_be_visible()

    # another device signed in to the account: "Your tables" opens the table, seated
    other = phone.new_page()
    sign_in(other, server.url, name)
    theirs = other.locator(f"[data-ui=your-table][data-room='{room}']")
    expect(theirs).to_be_visible()
    assert other.evaluate(f"() => localStorage.getItem('cardtable:seat:{room}')") is None
    theirs.locator("[data-ui=resume]").click()
    other.wait_for_url(re.compile(rf"/r/{room}$"))
    other.wait_for_function("() => document.body.dataset.seat === '0'")
    held = json.loads(other.evaluate(f"() => localStorage.getItem('cardtable:seat:{room}')"))
    assert held["seat"] == 0 and held["token"]

    # a third browser, signed in, opening the table's address: seated there too
    third = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    try:
        again = third.new_page()
        sign_in(again, server.url, name)
        again.goto(f"{server.url}/r/{room}")
        again.wait_for_function("() => document.body.dataset.seat === '0'")
        # and a room where the player has no seat: a spectator, silently
        watched = ai_room(server)
        again.goto(f"{server.url}/r/{watched}")
        again.wait_for_function("() => document.body.dataset.version !== undefined")
        assert again.evaluate("() => document.body.dataset.seat") == ""
        expect(again.locator(".toast-error")).to_have_count(0)
    finally:
        third.close()


def ai_room(server: Server) -> str:
    """A room of AI players only (nobody's seat); returns its id."""
    seats = [{"type": "ai", "level": "random"}] * 2
    status, answer = http(
        "POST",
        server.url + "/api/rooms",
        {"game": "kaboo", "players": 2, "seats": seats, "options": {"target": None}},
    )
    assert status in (200, 201), answer
    return str(answer["room"])


def test_profile_and_leaderboard_on_desktop_and_phone(
    context: BrowserContext, phone: BrowserContext, server: Server, screenshots: Path
) -> None:
    name = unique("Cy")
    seen = Violations()  # the content security policy blocks nothing on these pages
    for ctx in (context, phone):
        ctx.expose_binding("reportViolation", lambda _source, text: seen.events.append(text))
        ctx.add_init_script(script=_REPORT_VIOLATIONS)
    page = context.new_page()
    page.on("console", seen.on_console)
    sign_up(page, server.url, name)
    room = create_room(page, server.url, "kaboo", ["human", "ai:random"], name=name)
    play_to_end(page)
    # the seat is the account's (claiming it again is harmless)
    held = json.loads(page.evaluate(f"() => localStorage.getItem('cardtable:seat:{room}')"))
    page.request.post(
        server.url + "/api/account/claim",
        data={"seats": [{"room": room, **held}]},
    )
    phone_page = phone.new_page()
    phone_page.on("console", seen.on_console)
    sign_in(phone_page, server.url, name)

    for size, shown in (("desktop", page), ("phone", phone_page)):
        shown.set_viewport_size(DESKTOP if size == "desktop" else PHONE)
        shown.goto(f"{server.url}/p/{name}")
        expect(shown.locator("[data-ui=profile-name]")).to_contain_text(name)
        row = shown.locator("[data-ui=stats] tr[data-game=kaboo]")
        expect(row).to_be_visible()
        expect(row.locator("td").first).to_have_text("1")  # played
        recent = shown.locator(f"[data-ui=recent] li[data-room='{room}']")
        expect(recent).to_be_visible()
        expect(recent.locator("[data-ui=replay]")).to_have_attribute(
            "href", re.compile(rf"/r/{room}/replay/1")
        )
        expect(recent.locator("[data-ui=review]")).to_have_attribute(
            "href", re.compile(rf"/r/{room}/review/1")
        )
        chart = shown.locator("[data-ui=rating-chart] svg")
        expect(chart).to_be_visible()
        assert chart.locator("path.chart-line").count() == 1
        assert chart.locator("path.chart-line").get_attribute("d")
        expect(shown.locator("[data-ui=played-with]")).to_be_visible()
        expect(shown.locator("[data-ui=export]")).to_be_visible()
        assert_fits(shown, f"the profile on a {size}")
        shown.screenshot(path=str(screenshots / f"accounts-profile-{size}.png"), full_page=True)

        shown.goto(f"{server.url}/leaderboard")
        expect(shown.locator("[data-ui=board-game]")).to_be_visible()
        shown.select_option("[data-ui=board-game]", "kaboo")
        shown.wait_for_url(re.compile(r"/leaderboard/kaboo$"))
        shown.wait_for_function("() => document.body.dataset.ready === '1'")
        board = shown.locator("[data-ui=board]")
        expect(board).to_be_visible()
        assert board.locator("tr.level-row").count() >= 1  # the AI levels on the scale
        listed = board.locator(f"tr[data-player='{name}']").count()
        empty = shown.locator("[data-ui=board-empty]").count()
        assert listed or empty or board.locator("tr.player-row").count()
        assert_fits(shown, f"the leaderboard on a {size}")
        shown.screenshot(path=str(screenshots / f"accounts-leaderboard-{size}.png"), full_page=True)

    # a name nobody has
    page.goto(f"{server.url}/p/{unique('Nobody')}")
    expect(page.locator("[data-ui=no-player]")).to_be_visible()
    assert seen.none(), (seen.events, seen.console)


def test_own_data_downloaded_then_the_account_deleted(
    context: BrowserContext, server: Server
) -> None:
    name = unique("Dee")
    page = context.new_page()
    sign_up(page, server.url, name)
    page.goto(f"{server.url}/p/{name}")
    with page.expect_download() as download:
        page.click("[data-ui=export]")
    data = json.loads(Path(download.value.path()).read_text("utf-8"))
    assert name in json.dumps(data)

    page.click("[data-ui=delete-account]")
    dialog = page.locator("[data-ui=delete-dialog]")
    expect(dialog).to_be_visible()
    page.fill("#del-password", "not the password")
    page.click("[data-ui=delete-confirm]")
    expect(dialog.locator(".error-text")).to_be_visible()
    page.fill("#del-password", PASSWORD)
    page.click("[data-ui=delete-confirm]")
    expect(page.locator("[data-ui=account-deleted]")).to_be_visible()
    expect(page.locator("[data-ui=sign-in]")).to_be_visible()
    # the name signs in no more
    open_dialog(page, server.url)
    page.fill("#acc-name", name)
    page.fill("#acc-password", PASSWORD)
    page.click("[data-ui=account-submit]")
    expect(page.locator("[data-ui=account-error]")).to_be_visible()
