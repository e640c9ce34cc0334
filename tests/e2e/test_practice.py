"""Open hands for practice in the browser: alone at a kaboo table with an AI, the settings' switch
shows the AI's cards face up, the room's head says "practice" (so does its summary, for good),
and the switch turns them face down again; at a table for two people the switch is not there.
Photographed for a person to look at (artifacts/screenshots/practice-*.png)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect

from ..webserver import Server, http
from .driver import create_room, describe, state, wait_actionable

AI_CARDS = '.table .seat[data-seat="1"] .hand .card'
"""The AI's hand cards (seat 1)."""


def ai_face_up(page: Page) -> list[str]:
    """The AI's hand cards the page shows face up (their codes)."""
    codes: list[str] = page.eval_on_selector_all(
        AI_CARDS + ".face-up", "nodes => nodes.map(n => n.dataset.face)"
    )
    return codes


def set_switch(page: Page, on: bool) -> None:
    """Open the settings, set the open-hands switch, close them."""
    page.click("[data-ui=settings]")
    box = page.locator("[data-ui=open-hands]")
    expect(box).to_be_visible()
    box.set_checked(on)
    page.keyboard.press("Escape")
    expect(page.locator(".settings-modal")).to_have_count(0)


def test_open_hands_at_a_kaboo_table_against_an_ai(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    room = create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    wait_actionable(page)
    page.wait_for_selector(AI_CARDS)
    assert ai_face_up(page) == [], describe(page)
    expect(page.locator("[data-ui=practice-tag]")).to_have_count(0)
    set_switch(page, True)
    page.wait_for_function("() => window.cardtable.state().open_hands === true")
    cards = page.locator(AI_CARDS).count()
    page.wait_for_function(
        f"n => document.querySelectorAll({(AI_CARDS + '.face-up')!r}).length === n", arg=cards
    )
    hand = state(page)["view"]["hands"][1]
    assert ai_face_up(page) == [slot["card"] for slot in hand if slot]
    expect(page.locator("[data-ui=practice-tag]")).to_contain_text("practice")
    status, summary = http("GET", f"{server.url}/api/rooms/{room}")
    assert status == 200 and summary["practice"] is True
    page.screenshot(path=str(screenshots / "practice-desktop.png"), full_page=True)
    # face down again: the table stays a practice table
    set_switch(page, False)
    page.wait_for_function("() => window.cardtable.state().open_hands === false")
    page.wait_for_function(f"() => !document.querySelector({(AI_CARDS + '.face-up')!r})")
    expect(page.locator("[data-ui=practice-tag]")).to_have_text("practice")
    # the lobby and the history say so too
    page.goto(f"{server.url}/r/{room}/history")
    expect(page.locator("[data-ui=history-practice]")).to_be_visible()


def test_no_open_hands_where_another_person_sits(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    create_room(page, server.url, "kaboo", ["human", "human"])
    page.wait_for_function("() => window.cardtable && window.cardtable.state() !== null")
    page.click("[data-ui=settings]")
    expect(page.locator(".settings-modal")).to_be_visible()
    expect(page.locator("[data-ui=open-hands]")).to_have_count(0)
