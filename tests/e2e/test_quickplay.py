"""Play now, a name asked once, and the invite page's preview of a table, in Chromium."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from ..webserver import Server, http, running_server
from .driver import state

TABLE_URL = re.compile(r"/r/qp-[A-Za-z0-9_-]+$")
GUEST = re.compile(r"^Guest [A-Z][a-z]{3}$")


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose quick-play tables wait three seconds for people."""
    workdir: Path = tmp_path_factory.mktemp("e2e-quickplay")
    with running_server(workdir, ai_delay=0.0, extra_args=["--quickplay-wait", "3"]) as srv:
        yield srv


def test_play_now_seats_you_then_computer_players_fill_the_table(
    quick: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    page.goto(quick.url + "/")
    page.select_option("select[name=quick-game]", "kaboo")
    page.fill("input[name=quick-name]", "Zed")
    page.click("[data-ui=play-now]")
    page.wait_for_url(TABLE_URL)
    # the waiting screen says plainly what happens if nobody comes
    notice = page.locator("[data-ui=ai-fill]")
    expect(notice).to_contain_text(
        re.compile(r"Computer players will fill the empty seats in (about \d seconds?|a moment)")
    )
    expect(notice).to_contain_text("if nobody else comes")
    expect(page.locator(".waiting-seats li")).to_have_count(4)
    expect(page.locator(".waiting-seats li").first).to_contain_text("Zed")
    page.screenshot(path=str(screenshots / "quickplay-waiting.png"))
    # ... and then they come: three casual AI players, and the game is on
    page.wait_for_function("() => document.body.dataset.status === 'playing'")
    seats = state(page)["seats"]
    assert [(s["type"], s["level"]) for s in seats] == [("human", None)] + [("ai", "casual")] * 3
    assert seats[0]["name"] == "Zed" and state(page)["seat"] == 0
    expect(page.locator("[data-ui=ai-fill]")).to_have_count(0)


def test_a_name_typed_once_is_offered_again(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    # a newcomer is offered a friendly guest name, the same in both forms
    offered = page.locator("input[name=quick-name]").input_value()
    assert GUEST.match(offered), offered
    expect(page.locator("input[name=name]")).to_have_value(offered)
    # the name typed for Play now is the one of the whole page, and it is kept
    page.fill("input[name=quick-name]", "Mira Lindqvist")
    expect(page.locator("input[name=name]")).to_have_value("Mira Lindqvist")
    page.select_option("select[name=quick-game]", "cabo")
    page.click("[data-ui=play-now]")
    page.wait_for_url(TABLE_URL)
    room = page.url.rsplit("/", 1)[1]
    expect(page.locator(".waiting-seats li").first).to_contain_text("Mira Lindqvist")

    again = context.new_page()  # a later visit, same browser
    again.goto(server.url + "/")
    expect(again.locator("input[name=quick-name]")).to_have_value("Mira Lindqvist")
    expect(again.locator("input[name=name]")).to_have_value("Mira Lindqvist")
    expect(again.locator("select[name=quick-game]")).to_have_value("cabo")  # the last game
    # Play now again takes this browser back to its waiting table, not to a second seat
    expect(again.locator(f".room-item[data-room='{room}']")).to_be_visible()
    again.click("[data-ui=play-now]")
    again.wait_for_url(re.compile(f"/r/{re.escape(room)}$"))
    _, summary = http("GET", f"{server.url}/api/rooms/{room}")
    assert [s["taken"] for s in summary["seats"]] == [True, False, False, False]

    # an invite to someone else's table offers the same name
    _, made = http(
        "POST",
        server.url + "/api/rooms",
        {"game": "qute", "seats": [{"type": "human"}, {"type": "human"}], "name": "Host"},
    )
    invite = context.new_page()
    invite.goto(f"{server.url}/r/{made['room']}")
    expect(invite.locator("input[name=join-name]")).to_have_value("Mira Lindqvist")


def test_the_invite_page_previews_the_table_before_joining(
    server: Server, browser: Browser, screenshots: Path
) -> None:
    host = "Annabel Featherstonehaugh"[:24]
    _, made = http(
        "POST",
        server.url + "/api/rooms",
        {
            "game": "gabo",
            "seats": [{"type": "human"}, {"type": "ai", "level": "expert"}, {"type": "human"}],
            "options": {"target": 50},
            "turn_time": 30,
            "name": host,
        },
    )
    room = made["room"]
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, reduced_motion="reduce"
    )
    phone.set_default_timeout(15_000)
    try:
        page = phone.new_page()
        page.goto(f"{server.url}/r/{room}")
        preview = page.locator("[data-ui=invite-preview]")
        expect(preview.locator("[data-ui=preview-game]")).to_have_text("Gabo")
        expect(preview.locator("[data-ui=preview-facts]")).to_have_text(
            "Match to 50 · 3 players · 30 s per turn · 1 free seat"
        )
        seats = preview.locator("[data-ui=preview-seats] li")
        expect(seats).to_have_count(3)
        expect(seats.nth(0)).to_contain_text(host)
        expect(seats.nth(1)).to_contain_text("Expert AI")
        expect(seats.nth(1)).to_contain_text("computer player")
        expect(seats.nth(2)).to_contain_text("Free seat")
        # the whole name shows on a phone: nothing of it is cut off
        name = seats.nth(0).locator(".seat-who-name")
        assert name.evaluate("n => n.scrollWidth <= n.clientWidth + 1")
        expect(page.locator(".conn-text")).not_to_have_text("connecting…")
        offered = page.locator("input[name=join-name]").input_value()
        assert GUEST.match(offered), offered
        page.screenshot(path=str(screenshots / "invite-preview-phone.png"), full_page=True)

        page.fill("input[name=join-name]", "Bo")
        page.click("[data-ui=take-seat]")
        page.wait_for_function("() => document.body.dataset.status === 'playing'")
        assert state(page)["seat"] == 2
        assert state(page)["seats"][2]["name"] == "Bo"
        expect(preview).to_have_count(0)
    finally:
        phone.close()
