"""Hints in the browser: at a kaboo table against an AI the "Hint" button (or the H key) opens a
panel listing every legal move best first, in words, with its expected points and chance to win;
a click on a row plays that move. On a desktop and on a phone (the docked layout). At a table of
two people made with hints, the first hint says what it means and asks; accepted, the seat is
marked for the other person to see. Each photographed for a person to look at
(artifacts/screenshots/hints-*.png)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, expect

from ..webserver import Server, http
from .driver import create_room, describe, state, wait_actionable, wait_version
from .test_phone import HEIGHT, WIDTH, assert_fits

HINT_WAIT = 60_000
"""How long a hint may take to arrive (ms): the search's 0.8 s, and the first time a worker
process starting."""


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    """A phone's screen, touch and all."""
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


def sent_messages(page: Page) -> list[dict[str, Any]]:
    """Every message the page sends on its WebSockets from now on (filled as they go)."""
    out: list[dict[str, Any]] = []

    def watch(ws: WebSocket) -> None:
        def sent(payload: str | bytes) -> None:
            if isinstance(payload, str):
                out.append(json.loads(payload))

        ws.on("framesent", sent)

    page.on("websocket", watch)
    return out


def open_hint_panel(page: Page, *, key: bool) -> list[dict[str, Any]]:
    """Ask for a hint at this decision (the H key, or the button) and wait for its rows; the
    rows as the page draws them (action, best, words)."""
    if key:
        page.keyboard.press("h")
    else:
        page.locator("[data-ui=hint]").click()
    panel = page.locator("[data-ui=hint-panel]")
    expect(panel).to_be_visible()
    try:
        page.wait_for_selector("[data-ui=hint-row]", timeout=HINT_WAIT)
    except Exception as err:
        raise AssertionError(f"no hint rows came: {describe(page)}") from err
    rows: list[dict[str, Any]] = page.eval_on_selector_all(
        "[data-ui=hint-row]",
        """ns => ns.map(n => ({action: n.dataset.action, best: n.dataset.best === "1",
                              words: n.querySelector(".hint-words").textContent}))""",
    )
    return rows


def check_rows(page: Page, rows: list[dict[str, Any]]) -> None:
    """The rows are the seat's legal moves, once each, the best first and only it marked, each in
    words with its numbers and their labels."""
    legal = state(page)["view"]["legal"]
    assert sorted(r["action"] for r in rows) == sorted(legal)
    assert [r["best"] for r in rows] == [True] + [False] * (len(rows) - 1)
    assert all(r["words"] and r["words"] != r["action"] for r in rows)
    first = page.locator("[data-ui=hint-row]").first
    expect(first).to_contain_text("best")
    expect(first).to_contain_text("points")
    expect(first).to_contain_text("%")
    expect(page.locator(".hint-title")).to_contain_text("Hint")


def play_best(page: Page, rows: list[dict[str, Any]], sent: list[dict[str, Any]]) -> None:
    """Click the best row: that move is sent and played, and the panel closes."""
    version = state(page)["version"]
    best = rows[0]["action"]
    page.locator("[data-ui=hint-row][data-best='1']").click()
    wait_version(page, version + 1)
    acts = [m for m in sent if m.get("type") == "act"]
    assert acts and acts[-1]["action"] == best and acts[-1]["version"] == version
    expect(page.locator("[data-ui=hint-panel]")).to_have_count(0)
    assert not page.evaluate("() => document.body.dataset.errors"), describe(page)


def test_a_hint_at_a_kaboo_table_on_a_desktop(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    sent = sent_messages(page)
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    wait_actionable(page)
    expect(page.locator("[data-ui=hint]")).to_be_visible()
    rows = open_hint_panel(page, key=True)
    check_rows(page, rows)
    hints = [m for m in sent if m.get("type") == "hint"]
    assert len(hints) == 1 and hints[0]["version"] == state(page)["version"]
    page.screenshot(path=str(screenshots / "hints-desktop.png"), full_page=True)
    # Escape closes it; the button opens it again, for the same decision
    page.keyboard.press("Escape")
    expect(page.locator("[data-ui=hint-panel]")).to_have_count(0)
    rows = open_hint_panel(page, key=False)
    play_best(page, rows, sent)
    # the next decision has its own hint
    current = wait_actionable(page)
    if not current["view"]["over"]:
        rows = open_hint_panel(page, key=True)
        check_rows(page, rows)
        page.screenshot(path=str(screenshots / "hints-desktop-2.png"), full_page=True)
        play_best(page, rows, sent)
    # nobody is marked at a table against the computer
    assert not any(s["hints"] for s in state(page)["seats"])
    expect(page.locator("[data-ui=hints-badge]")).to_have_count(0)


def test_a_hint_at_a_kaboo_table_on_a_phone(
    server: Server, phone: BrowserContext, screenshots: Path
) -> None:
    page = phone.new_page()
    sent = sent_messages(page)
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    wait_actionable(page)
    rows = open_hint_panel(page, key=False)
    check_rows(page, rows)
    assert_fits(page)
    # the panel lies above the dock, every row on the screen (scrolled within the panel)
    box = page.locator("[data-ui=hint-panel]").bounding_box()
    bar = page.locator(".action-bar").bounding_box()
    assert box is not None and bar is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH + 0.5
    assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 0.5
    best = page.locator("[data-ui=hint-row][data-best='1']")
    row_box = best.bounding_box()
    assert row_box is not None and row_box["height"] >= 44 - 0.5  # a finger's target
    page.screenshot(path=str(screenshots / "hints-phone.png"))
    play_best(page, rows, sent)
    assert_fits(page)


def seated(browser: Browser, room: str, seat: object, token: object) -> BrowserContext:
    """A desktop browser profile that holds ``seat`` of ``room``."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, reduced_motion="reduce")
    ctx.set_default_timeout(15_000)
    held = json.dumps({"seat": seat, "token": token})
    ctx.add_init_script(
        f"localStorage.setItem({json.dumps(f'cardtable:seat:{room}')}, {json.dumps(held)})"
    )
    return ctx


def test_a_hint_at_a_table_of_people_is_a_handicap_everyone_sees(
    server: Server, browser: Browser, screenshots: Path
) -> None:
    spec = [{"type": "human"}, {"type": "human"}]
    body = {"game": "kaboo", "seats": spec, "name": "Ann", "hints": True}
    status, made = http("POST", f"{server.url}/api/rooms", body)
    assert status == 201, made
    room = made["room"]
    status, bob = http("POST", f"{server.url}/api/rooms/{room}/join", {"name": "Bob"})
    assert status == 200, bob
    contexts = [
        seated(browser, room, made["seat"], made["token"]),
        seated(browser, room, bob["seat"], bob["token"]),
    ]
    try:
        pages = [ctx.new_page() for ctx in contexts]
        for page in pages:
            page.goto(f"{server.url}/r/{room}")
            page.wait_for_function("() => document.body.dataset.status === 'playing'")
        first = state(pages[0])["view"]["actors"][0]
        asker, other = pages[first], pages[1 - first]
        wait_actionable(asker)
        asker.locator("[data-ui=hint]").click()
        expect(asker.locator("[data-ui=hint-handicap]")).to_contain_text("handicap")
        expect(asker.locator("[data-ui=hint-row]")).to_have_count(0)
        asker.screenshot(path=str(screenshots / "hints-people-ask.png"))
        assert not state(other)["seats"][first]["hints"]
        asker.locator("[data-ui=hint-accept]").click()
        asker.wait_for_selector("[data-ui=hint-row]", timeout=HINT_WAIT)
        check_rows(
            asker,
            [
                {"action": a, "best": b, "words": w}
                for a, b, w in asker.eval_on_selector_all(
                    "[data-ui=hint-row]",
                    """ns => ns.map(n => [n.dataset.action, n.dataset.best === "1",
                                      n.querySelector(".hint-words").textContent])""",
                )
            ],
        )
        # both tables show the mark by the asker's name; the asker now has the memory aid
        for page in (asker, other):
            badge = page.locator(f'.seat[data-seat="{first}"] [data-ui=hints-badge]')
            expect(badge).to_be_visible()
        assert state(asker)["seats"][first]["memory_aid"] is True
        other.screenshot(path=str(screenshots / "hints-people-badge.png"))
        expect(asker.locator("[data-ui=reveal-hint]")).to_be_hidden()
    finally:
        for ctx in contexts:
            ctx.close()
