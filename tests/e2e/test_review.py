"""The review of a finished game in the browser: a short game played to its end through the
table page, then its review page at desktop and phone size, in English and German — the
decisions listed with their labels coloured and their words, the summary line, and the replay
beside them with every hand open and the cards the reviewed seat knew marked; a click on a
decision shows the table as the seat faced it. The replay page's own open-hands view, with the
seat whose knowledge is marked chosen at any step. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import contextlib
import json
import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from ..webserver import Server, running_server
from .conftest import PEEK_WINDOW, SNAP_WINDOW
from .driver import create_room, play_to_end

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
LABELS = {"fine", "not clear", "inaccuracy", "mistake", "blunder"}
LABELS_DE = {"gut", "unklar", "Ungenauigkeit", "Fehler", "Patzer"}
SHOWN = """view => document.body.dataset.replayView === view
    && !document.querySelector('.replay-loading')"""


REVIEW_ENV = {"CARDTABLE_REVIEW_SAMPLES": "40", "CARDTABLE_REVIEW_NICE": "0"}
"""This module's server reviews on 40 deals a decision, its worker at normal priority: a
review in seconds on a busy machine (the server's worker waits at the lowest priority)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of this module's own (as the session's, with :data:`REVIEW_ENV`)."""
    saved = {k: os.environ.get(k) for k in REVIEW_ENV}
    with contextlib.ExitStack() as stack:
        os.environ.update(REVIEW_ENV)
        try:
            srv = stack.enter_context(
                running_server(
                    tmp_path_factory.mktemp("review-server"),
                    ai_delay=0.0,
                    peek_window=PEEK_WINDOW,
                    snap_window=SNAP_WINDOW,
                )
            )
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        yield srv


@pytest.fixture(scope="module")
def game(browser: Browser, server: Server) -> Iterator[tuple[str, dict[str, Any]]]:
    """A room whose one game (cabo, Ann without the memory aid against a random AI) is over,
    played through the table page, with the browser profile that holds Ann's seat; and the
    open-hands replay of the game from the API."""
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    room = create_room(page, server.url, "cabo", ["human", "ai:random"])
    assert play_to_end(page)["view"]["over"]
    seat = page.evaluate("r => localStorage.getItem('cardtable:seat:' + r)", room)
    page.close()
    ctx.close()
    yield room, {"seat": seat, "replay": open_replay(server, room)}


@pytest.fixture
def ann(browser: Browser, game: tuple[str, dict[str, Any]]) -> Iterator[BrowserContext]:
    """A browser profile that holds Ann's seat (seat 0) of the room, as the one that played."""
    room, info = game
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(
        f"localStorage.setItem({json.dumps('cardtable:seat:' + room)}, {json.dumps(info['seat'])})"
    )
    yield ctx
    ctx.close()


def open_replay(server: Server, room: str) -> dict[str, Any]:
    """The open-hands replay of game 1: its first view and every step."""
    steps: list[dict[str, Any]] = []
    initial = None
    start: int | None = 0
    while start is not None:
        url = f"{server.url}/api/rooms/{room}/games/1/open?start={start}"
        with urllib.request.urlopen(url, timeout=30) as resp:
            page = json.loads(resp.read())
        initial = page.get("initial", initial)
        steps += page["steps"]
        start = page["next"]
    return {"initial": initial, "steps": steps}


def review_ready(page: Page) -> None:
    """Wait until the review page shows a ready review (the server computes it first)."""
    page.wait_for_function("() => document.body.dataset.review === 'ready'", timeout=120_000)


def check_open_hands(table: Locator, view: dict[str, Any], seat: int) -> None:
    """Every hand card of ``view`` is drawn face up with its face, marked as known to ``seat``
    exactly where the server says that seat knew it."""
    known = set(view["known"][seat])
    for owner, hand in enumerate(view["hands"]):
        for pos, cell in enumerate(hand):
            if cell is None:
                continue
            card = table.locator(f".hand .card[data-addr='{owner}.{pos}']")
            expect(card).to_have_attribute("data-face", cell["card"])
            expect(card).to_have_attribute("data-known", "1" if f"{owner}.{pos}" in known else "0")
    expect(table.locator(".hand .card.face-down")).to_have_count(0)
    expect(table.locator(".hand .card.known .known-mark")).to_have_count(len(known))


def test_review_at_desktop_and_phone_size_in_both_languages(
    server: Server, ann: BrowserContext, game: tuple[str, dict[str, Any]], screenshots: Path
) -> None:
    room, info = game
    steps = info["replay"]["steps"]
    page = ann.new_page()

    # The history links to the review of this browser's seat.
    page.goto(f"{server.url}/r/{room}/history")
    link = page.locator("[data-ui=review]").first
    expect(link).to_have_attribute("href", f"/r/{room}/review/1?seat=0")
    link.click()
    page.wait_for_url(f"**/r/{room}/review/1?seat=0")
    review_ready(page)

    expect(page.locator("[data-ui=review-summary]")).to_contain_text("Ann: ")
    expect(page.locator("[data-ui=review-summary]")).to_contain_text("decisions")
    items = page.locator("[data-ui=decisions] li.review-item")
    count = items.count()
    assert count > 0
    labels = items.locator("[data-ui=label]").all_inner_texts()
    assert len(labels) == count and set(labels) <= LABELS, labels
    # each label in its colour, and none the colour of another
    colours = {
        lab: items.locator(f".label-{lab}").first.evaluate(
            "e => getComputedStyle(e).backgroundColor"
        )
        for lab in ("unclear", "inaccuracy", "mistake", "blunder")
        if items.locator(f".label-{lab}").count()
    }
    assert len(set(colours.values())) == len(colours), colours
    # a memory slip is said in words (Ann played without the memory aid)
    for slip in items.locator("[data-ui=slip]").all_inner_texts():
        assert slip.startswith("Memory slip") and "[" not in slip, slip

    # Every hand open at the deal, Ann's knowledge marked; the legend says what the marks mean.
    table = page.locator(".review-replay .table-host")
    expect(table).to_have_class("table-host open-hands")
    check_open_hands(table, info["replay"]["initial"], 0)
    legend = page.locator("[data-ui=open-legend]")
    expect(legend).to_contain_text("An eye marks the cards Ann knew at this moment")

    # A decision clicked: the table before that move, the decision opened with the best moves.
    chosen = items.nth(min(2, count - 1))
    index = int(chosen.get_attribute("data-index") or "0")
    chosen.locator("button").click()
    expect(chosen).to_have_attribute("aria-current", "step")
    expect(chosen.locator("[data-ui=moves] tbody tr").first).to_be_visible()
    expect(page.locator("[data-ui=decision-banner]")).to_contain_text("Before move")
    before = steps[index - 1]["view"] if index > 0 else info["replay"]["initial"]
    check_open_hands(table, before, 0)
    page.screenshot(path=str(screenshots / "review-desktop-en.png"), full_page=True)

    # Another seat: its decisions, its knowledge marked, at the same step.
    page.select_option("[data-ui=review-seat]", "1")
    review_ready(page)
    expect(page.locator("[data-ui=review-summary]")).to_contain_text("Random AI: ")
    expect(legend).to_contain_text("the cards Random AI knew")
    check_open_hands(table, before, 1)
    assert "seat=1" in page.url
    page.select_option("[data-ui=review-seat]", "0")
    review_ready(page)

    # In German: the summary, the labels and the page's own words.
    page.select_option("[data-ui=review-lang]", "de")
    page.wait_for_url("**lang=de")
    review_ready(page)
    expect(page.locator("[data-ui=review-summary]")).to_contain_text("Entscheidungen")
    expect(page.locator(".review-list-head")).to_have_text("Entscheidungen")
    labels = items.locator("[data-ui=label]").all_inner_texts()
    assert set(labels) <= LABELS_DE, labels
    expect(legend).to_contain_text("Ein Auge markiert die Karten, die Ann")
    expect(page.locator("[data-ui=play]")).to_contain_text("Abspielen")
    items.nth(min(2, count - 1)).locator("button").click()
    expect(page.locator("[data-ui=decision-banner]")).to_contain_text("Vor Zug")
    page.screenshot(path=str(screenshots / "review-desktop-de.png"), full_page=True)

    # A phone: the decisions below the table, nothing wider than the screen.
    for lang in ("en", "de"):
        page.set_viewport_size(PHONE)
        page.goto(f"{server.url}/r/{room}/review/1?seat=0&lang={lang}")
        review_ready(page)
        table_box = table.bounding_box()
        list_box = page.locator(".review-side").bounding_box()
        assert table_box is not None and list_box is not None
        assert list_box["y"] >= table_box["y"] + table_box["height"] - 1
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        # no button's word cut off ("Abspielen")
        clipped = page.eval_on_selector_all(
            ".review-page button, .replay-controls button",
            "bs => bs.filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.innerText)",
        )
        assert clipped == [], clipped
        items.nth(min(2, count - 1)).locator("button").click()
        check_open_hands(table, before, 0)
        page.screenshot(path=str(screenshots / f"review-phone-{lang}.png"), full_page=True)


def test_open_hands_in_the_replay_with_the_seat_chosen_at_any_step(
    server: Server, ann: BrowserContext, game: tuple[str, dict[str, Any]], screenshots: Path
) -> None:
    room, info = game
    steps = info["replay"]["steps"]
    page = ann.new_page()
    page.goto(f"{server.url}/r/{room}/replay/1")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    pick = page.locator("[data-ui=known-seat]")
    expect(pick).to_be_hidden()  # only with open hands
    page.click("[data-ui=view-open]")
    expect(page.locator("[data-ui=view-open]")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(SHOWN, arg="open")
    table = page.locator(".table-host")
    check_open_hands(table, info["replay"]["initial"], 0)
    k = min(5, len(steps) - 1)
    for _ in range(k + 1):
        page.click("[data-ui=next]")
    page.wait_for_function(f"() => document.body.dataset.step === '{k + 1}'")
    check_open_hands(table, steps[k]["view"], 0)
    # the other seat's knowledge at the same step
    page.select_option("[data-ui=known-seat]", "1")
    check_open_hands(table, steps[k]["view"], 1)
    assert page.evaluate("() => document.body.dataset.step") == str(k + 1)
    page.screenshot(path=str(screenshots / "replay-open-hands.png"), full_page=True)
    # back to the spectator's view: the hands face down again
    page.click("[data-ui=view-spectator]")
    page.wait_for_function(SHOWN, arg="spectator")
    expect(table.locator(".hand .card[data-known]")).to_have_count(0)
    expect(pick).to_be_hidden()
