"""The chat beside a table with people: lines shown as text only, quick reactions, spectators
who read without writing, and no chat at a table of one person."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, expect

from ..webserver import Server, http

MARKUP = "<b>hi</b> & <i>there</i> <img src=x>"


def _create(server: Server, seats: list[str]) -> dict[str, object]:
    spec = [{"type": "human"} if s == "human" else {"type": "ai", "level": s} for s in seats]
    status, made = http(
        "POST", f"{server.url}/api/rooms", {"game": "kaboo", "seats": spec, "name": "Ann"}
    )
    assert status == 201, made
    assert isinstance(made, dict)
    return made


def _seated(browser: Browser, room: str, seat: object, token: object) -> BrowserContext:
    """A browser profile that holds ``seat`` of ``room`` (as the page keeps it after joining)."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, reduced_motion="reduce")
    ctx.set_default_timeout(15_000)
    held = json.dumps({"seat": seat, "token": token})
    ctx.add_init_script(
        f"localStorage.setItem({json.dumps(f'cardtable:seat:{room}')}, {json.dumps(held)})"
    )
    return ctx


def test_lines_are_text_reactions_show_and_spectators_only_read(
    browser: Browser, server: Server, screenshots: Path
) -> None:
    made = _create(server, ["human", "human"])
    room = str(made["room"])
    ann_ctx = _seated(browser, room, made["seat"], made["token"])
    bob_ctx = browser.new_context(viewport={"width": 1200, "height": 900}, reduced_motion="reduce")
    watch_ctx = browser.new_context(
        viewport={"width": 1200, "height": 900}, reduced_motion="reduce"
    )
    try:
        ann, bob, watcher = ann_ctx.new_page(), bob_ctx.new_page(), watch_ctx.new_page()
        ann.goto(f"{server.url}/r/{room}")
        bob.goto(f"{server.url}/r/{room}")
        bob.fill("input[name=join-name]", "Bob")
        bob.click("[data-ui=take-seat]")
        watcher.goto(f"{server.url}/r/{room}?watch")
        for page in (ann, bob):
            page.wait_for_function("() => document.body.dataset.status === 'playing'")
            expect(page.locator("[data-ui=chat-input]")).to_be_visible()

        ann.fill("[data-ui=chat-input]", MARKUP)
        ann.press("[data-ui=chat-input]", "Enter")
        expect(ann.locator("[data-ui=chat-input]")).to_have_value("")
        line = bob.locator("[data-ui=chat-list] li").first
        expect(line.locator(".chat-name")).to_have_text("Ann:")
        expect(line.locator(".chat-text")).to_have_text(MARKUP)
        # shown as the characters typed: no element was made of the markup
        for page in (ann, bob, watcher):
            expect(page.locator("[data-ui=chat-list] li").first.locator(".chat-text")).to_have_text(
                MARKUP
            )
            assert (
                page.locator("[data-ui=chat] b, [data-ui=chat] i, [data-ui=chat] img").count() == 0
            )

        ann.click("[data-ui=chat-reaction][data-reaction=nice]")
        reaction = bob.locator("[data-ui=chat-list] li[data-seat='0']").nth(1)
        expect(reaction).to_contain_text("Nice!")
        # and, for a moment, over Ann's seat on Bob's table
        expect(bob.locator("[data-ui=chat-bubble][data-seat='0']")).to_contain_text("Nice!")
        expect(watcher.locator("[data-ui=chat-list] li")).to_have_count(2)
        # the spectator reads, and has no way to write
        expect(watcher.locator("[data-ui=chat-input]")).to_be_hidden()
        expect(watcher.locator("[data-ui=chat-reaction]").first).to_be_hidden()
        expect(watcher.locator("[data-ui=chat-readonly]")).to_contain_text(
            "Spectators can read this chat"
        )
        bob.screenshot(path=str(screenshots / "chat-player.png"), full_page=True)

        bob.fill("[data-ui=chat-input]", "thanks, you too")
        bob.click("[data-ui=chat-send]")
        expect(ann.locator("[data-ui=chat-list] li").nth(2)).to_have_text("Bob: thanks, you too")
    finally:
        for ctx in (ann_ctx, bob_ctx, watch_ctx):
            ctx.close()


def test_a_table_of_one_person_shows_no_chat(browser: Browser, server: Server) -> None:
    made = _create(server, ["human", "casual"])
    ctx = _seated(browser, str(made["room"]), made["seat"], made["token"])
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/r/{made['room']}")
        page.wait_for_function("() => document.body.dataset.status === 'playing'")
        expect(page.locator(".table-host .seat").first).to_be_visible()
        expect(page.locator("[data-ui=chat]")).to_have_count(0)
    finally:
        ctx.close()
