"""The lessons' page in the browser (``/learn``, ``learn.js``): a newcomer opens the kaboo lesson
from the lobby, reads a step and goes on, plays the first moves by clicking the deck and a card,
makes a wrong move and reads why it was not played (nothing changes), sees the card a peek shows,
and reaches the end, where a real round against the beginner AI opens a normal table. On a
desktop and on a phone (390×844: the lesson under the table, nothing wider than the screen), in
English and, for a browser that speaks German, in German. Screenshots go to
``artifacts/screenshots/learn-*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from cardtable.catalog import language, say
from cardtable.learn.lessons import load

from ..webserver import Server

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}

TOUCH_TARGET = 44
"""The least width and height of a control on a touch screen (px)."""

SMALL_CONTROLS = """least => [...document.querySelectorAll('main button, main a.btn, header .btn')]
    .filter(n => n.getClientRects().length > 0)
    .map(n => [n.outerHTML.slice(0, 80), n.getBoundingClientRect()])
    .filter(([, r]) => r.width < least - 0.5 || r.height < least - 0.5)
    .map(([what, r]) => `${what} ${r.width}x${r.height}`)"""
"""The buttons of the page smaller than a finger (``least`` px either way)."""

KABOO = [
    "draw deck",
    "replace 2",
    "draw discard",
    "replace 0",
    "draw deck",
    "discard",
    "peek 1",
    "draw deck",
    "discard",
    "spy 1.2",
    "draw deck",
    "discard",
    "exchange 1 1.0",
    "draw deck",
    "discard",
    "look 0 1.1",
    "pass",
    "knock",
]
"""The moves the kaboo lesson asks for, in order (its reading steps aside)."""


@pytest.fixture(params=["desktop", "phone"])
def size(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def open_context(browser: Browser, size: str, locale: str) -> BrowserContext:
    """A fresh profile of a desktop or a phone whose browser speaks ``locale``."""
    if size == "phone":
        ctx = browser.new_context(
            viewport=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            reduced_motion="reduce",
            locale=locale,
        )
    else:
        ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce", locale=locale)
    ctx.set_default_timeout(15_000)
    return ctx


@pytest.fixture
def english(browser: Browser, size: str) -> Iterator[BrowserContext]:
    ctx = open_context(browser, size, "en-US")
    yield ctx
    ctx.close()


@pytest.fixture
def german(browser: Browser, size: str) -> Iterator[BrowserContext]:
    ctx = open_context(browser, size, "de-DE")
    yield ctx
    ctx.close()


# ---------------------------------------------------------------------------- driving the page
def answers(page: Page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.answers ?? 0)"))


def lesson(page: Page) -> dict[str, object]:
    state = page.evaluate("() => window.lesson.state()")
    assert isinstance(state, dict)
    return state


def step(page: Page) -> int:
    number = page.evaluate("() => window.lesson.state().step.number")
    assert isinstance(number, int)
    return number


def answered(page: Page, before: int) -> None:
    """Wait for the page to show the answer to what was just sent."""
    page.wait_for_function(
        "n => Number(document.body.dataset.answers ?? 0) > n && !window.lesson.busy()", arg=before
    )


def click_and_wait(page: Page, selector: str) -> None:
    before = answers(page)
    page.click(selector)
    answered(page, before)


def play(page: Page, action: str) -> None:
    """Play ``action`` by clicking what the page offers for it (the piles, the cards, a move's
    button), and wait for the answer."""
    clicks = page.evaluate("a => window.lesson.clicksFor(a)", action)
    assert clicks, f"the page offers no clicks for {action!r}"
    before = answers(page)
    for selector in clicks:
        page.click(selector)
    answered(page, before)


def go_on(page: Page) -> None:
    click_and_wait(page, "[data-ui=next]")


def opened(page: Page, server: Server) -> None:
    """The kaboo lesson, at its first step."""
    page.goto(server.url + "/learn/kaboo")
    page.wait_for_function("() => Number(document.body.dataset.answers ?? 0) > 0")


def shot(page: Page, screenshots: Path, name: str) -> None:
    page.screenshot(path=str(screenshots / f"learn-{name}.png"), full_page=True)


def fits(page: Page, size: str) -> None:
    """Nothing wider than the screen; on a phone the lesson lies under the table."""
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= (PHONE if size == "phone" else DESKTOP)["width"], f"{width}px wide"
    table = page.locator("[data-ui=learn-table]").bounding_box()
    panel = page.locator("[data-ui=lesson]").bounding_box()
    assert table and panel
    if size == "phone":
        assert panel["y"] >= table["y"] + table["height"] - 1
        assert panel["x"] >= 0 and panel["x"] + panel["width"] <= PHONE["width"]
        small = page.evaluate(SMALL_CONTROLS, TOUCH_TARGET)
        assert not small, f"controls under {TOUCH_TARGET}px: {small}"
    else:
        assert panel["x"] >= table["x"] + table["width"] - 1  # beside it
        assert panel["y"] < 200


# ---------------------------------------------------------------------------- the tests
def test_a_newcomer_learns_kaboo_by_clicking(
    server: Server, english: BrowserContext, size: str, screenshots: Path
) -> None:
    page = english.new_page()
    # the lobby leads to the lessons, the list to the game's
    page.goto(server.url + "/")
    page.click("[data-ui=learn]")
    page.wait_for_url("**/learn")
    expect(page.locator("[data-ui=lesson-list] a[data-game=kaboo]")).to_have_text("Kaboo")
    for name in ("cabo", "cabo-german", "gabo", "qute"):
        expect(page.locator(f"[data-ui=lesson-list] a[data-game={name}]")).to_be_visible()
    shot(page, screenshots, f"list-en-{size}")
    before = answers(page)
    page.click("[data-ui=lesson-list] a[data-game=kaboo]")
    page.wait_for_url("**/learn/kaboo")
    answered(page, before)
    first = load("kaboo").start()

    # step 1 is read: the deal's first sight of the bottom row is face up
    expect(page.locator("[data-ui=step-words]")).to_have_text(first.words)
    expect(page.locator("[data-ui=progress]")).to_have_text("Step 1 of 21")
    expect(page.locator('.seat-me .card[data-addr="0.2"]')).to_have_attribute("data-face", "9H")
    expect(page.locator("[data-ui=seen]")).to_be_visible()
    fits(page, size)
    shot(page, screenshots, f"start-en-{size}")
    go_on(page)
    assert step(page) == 2
    expect(page.locator('.seat-me .card[data-addr="0.2"]')).not_to_have_attribute("data-face", "9H")

    # a wrong move, from its button: explained, not played
    view = lesson(page)["view"]
    click_and_wait(page, '[data-action="knock"]')
    note = page.locator("[data-ui=answer]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Not this move (call Knock):")
    expect(note).to_contain_text("first take a card from the deck")
    assert step(page) == 2 and lesson(page)["view"] == view
    fits(page, size)
    shot(page, screenshots, f"wrong-en-{size}")

    # the first moves by clicking the table: the deck, then a card of the hand
    click_and_wait(page, "[data-pile=deck]")
    assert step(page) == 3
    expect(page.locator("[data-ui=answer]")).to_have_count(0)
    expect(page.locator(".drawn .card")).to_have_attribute("data-face", "2H")
    # a card that is not the one asked for: why not, and the drawn card still in hand
    click_and_wait(page, '.seat-me .card[data-addr="0.0"]')
    assert step(page) == 3
    expect(page.locator("[data-ui=answer]")).to_contain_text(
        "Not this move (put the drawn card in place of your card 0)"
    )
    click_and_wait(page, '.seat-me .card[data-addr="0.2"]')
    assert step(page) == 4
    expect(page.locator(".pile-discard .card")).to_have_attribute("data-face", "AS")
    expect(page.locator("[data-ui=happened]")).to_contain_text("Opponent drew a card from the deck")
    click_and_wait(page, "[data-pile=discard]")
    click_and_wait(page, '.seat-me .card[data-addr="0.0"]')
    assert step(page) == 6

    # on to the peek: the card seen stays face up for the next step, named by the lesson
    for action in KABOO[4:7]:
        play(page, action)
    assert step(page) == 9
    expect(page.locator('.seat-me .card[data-addr="0.1"]')).to_have_attribute("data-face", "QD")
    expect(page.locator("[data-ui=step-words]")).to_contain_text("queen of diamonds")
    expect(page.locator("[data-ui=seen]")).to_be_visible()
    fits(page, size)
    shot(page, screenshots, f"peek-en-{size}")
    play(page, "draw deck")
    expect(page.locator('.seat-me .card[data-addr="0.1"]')).not_to_have_attribute("data-face", "QD")

    # the swap: two cards clicked, the moves offered narrowing to the first card's
    play(page, "discard")
    play(page, "spy 1.2")
    play(page, "draw deck")
    play(page, "discard")
    assert step(page) == 14
    page.click('.seat-me .card[data-addr="0.1"]')
    moves = page.locator("[data-ui=moves] [data-action]")
    expect(moves).to_have_count(4)  # the card of the other seat it goes to
    expect(moves.first).to_have_text("Swap your card 1 and Opponent's card 0 unseen")
    expect(page.locator("[data-ui=clear]")).to_be_visible()
    fits(page, size)
    shot(page, screenshots, f"swap-en-{size}")
    click_and_wait(page, '.seat:not(.seat-me) .card[data-addr="1.0"]')
    assert step(page) == 15

    # to the end, and a real round against the beginner AI
    for action in KABOO[13:]:
        play(page, action)
    assert step(page) == 20
    expect(page.locator("[data-ui=step-words]")).to_contain_text("every card is shown")
    go_on(page)
    assert step(page) == 21 and lesson(page)["done"]
    fits(page, size)
    shot(page, screenshots, f"end-en-{size}")
    page.click("[data-ui=real-round]")
    page.wait_for_url("**/r/*")
    page.wait_for_function(
        "() => window.cardtable && window.cardtable.state() && window.cardtable.state().view"
    )
    table = page.evaluate("() => window.cardtable.state()")
    assert table["view"]["game"] == "kaboo" and table["seat"] == 0
    assert [s["type"] for s in table["seats"]] == ["human", "ai"]
    assert table["seats"][1]["level"] == "beginner"


def test_the_lesson_speaks_german_to_a_german_browser(
    server: Server, german: BrowserContext, size: str, screenshots: Path
) -> None:
    page = german.new_page()
    page.goto(server.url + "/learn")
    expect(page.locator("h1")).to_have_text("Spielen lernen")
    expect(page.locator("[data-ui=lesson-list] a[data-game=kaboo]")).to_be_visible()
    opened(page, server)
    run = load("kaboo").start()
    with language("de"):
        words = run.words
        heading = say("learn.title", game="Kaboo")
        move = say("move.call", word="Knock")
    expect(page.locator("[data-ui=step-words]")).to_have_text(words)
    expect(page.locator(".learn-title")).to_have_text(heading)
    expect(page.locator("[data-ui=next]")).to_contain_text("Weiter")
    expect(page.locator(".seat-me .seat-name")).to_have_text("Du")
    fits(page, size)
    shot(page, screenshots, f"start-de-{size}")
    go_on(page)
    click_and_wait(page, '[data-action="knock"]')
    expect(page.locator("[data-ui=answer]")).to_contain_text(f"({move}):")
    shot(page, screenshots, f"wrong-de-{size}")
    click_and_wait(page, "[data-pile=deck]")
    click_and_wait(page, '.seat-me .card[data-addr="0.2"]')
    assert step(page) == 4
    expect(page.locator("[data-ui=happened]")).to_contain_text("Gegner")
    fits(page, size)
    shot(page, screenshots, f"later-de-{size}")


def test_a_reload_goes_on_where_the_lesson_was(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    opened(page, server)
    go_on(page)
    click_and_wait(page, "[data-pile=deck]")
    page.reload()
    page.wait_for_function("() => Number(document.body.dataset.answers ?? 0) > 0")
    assert step(page) == 3
    expect(page.locator(".drawn .card")).to_have_attribute("data-face", "2H")


def test_a_game_without_a_lesson_says_so(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.url + "/learn/poker")
    expect(page.locator("[data-ui=lesson] .error-text")).to_have_text(
        "There is no lesson for this game."
    )
