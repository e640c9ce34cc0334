"""Memory is fair by construction (issue 24, item 1).

A card a person without memory aid sees for a moment (a peek, a spy, a look, kaboo's first sight,
a card a timeout showed) is face up for exactly its reveal time, whatever else is on screen — the
round's results, the rules, settings, help — and never longer; while the person has something to
read in front of the table the page asks the clocks to wait (``hold``).

The property test plays random games of every variant at desktop and phone size while it
navigates at random (moves, the results panel, dialogs, scrolling, the log drawer, refreshes)
with the page's time under Playwright's clock, and checks after every step that no card the
seat saw for a moment is anywhere in the page past its reveal time (tests/e2e/fairness.py).
The default run plays one short game per variant; ``-m slow`` plays many more.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server, http
from .driver import (
    CALLS,
    choose_action,
    play_action,
    play_unless_moved_on,
    state,
    wait_actionable,
    wait_version,
)
from .fairness import RECORD_FRAMES, check_memory, frames_sent, open_seat

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
REVEAL_S = 2.0
SEATS = {"cabo": 4, "cabo-german": 4, "gabo": 5, "kaboo": 4, "qute": 4}
"""Each game with up to this many seats in the test (its rules allow at least as many)."""
TARGET = {"cabo": 40, "cabo-german": 30, "gabo": 40, "kaboo": 30, "qute": 60}
"""A short match, so that round results come and go."""
NAVIGATION = [
    "move",
    "move",
    "move",
    "move",
    "wait",
    "rules",
    "settings",
    "help",
    "results",
    "scroll",
    "drawer",
    "refresh",
]
REVEALED = re.compile(r"\brevealed\b")


def new_context(browser: Browser, viewport: dict[str, int], motion: bool) -> BrowserContext:
    """A browser profile of that size whose pages record their frames, under a paused clock."""
    ctx = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        reduced_motion="no-preference" if motion else "reduce",
        has_touch=viewport is PHONE,
        is_mobile=viewport is PHONE,
    )
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(RECORD_FRAMES)
    ctx.clock.install(time=1_700_000_000)
    ctx.clock.pause_at(1_700_000_100)
    return ctx


def pick_move(view: dict[str, Any], moves: int, rnd: random.Random) -> str:
    """A sensible move most of the time, else any legal one (a call only after a few moves)."""
    legal: list[str] = view["legal"]
    if view["game"] != "qute" and moves >= 4 and rnd.random() < 0.15:
        calls = [a for a in legal if a in CALLS]
        if calls:
            return calls[0]
    if rnd.random() < 0.3:
        others = [a for a in legal if a not in CALLS] or legal
        return rnd.choice(others)
    return choose_action(view, moves)


def close_dialog(page: Page) -> None:
    """Close the open dialog with Escape."""
    page.keyboard.press("Escape")
    expect(page.locator(".modal-backdrop")).to_have_count(0)


def navigate(
    page: Page,
    step: str,
    rnd: random.Random,
    ctx: BrowserContext,
    earlier: list[Any],
    moves: list[int],
) -> Page:
    """Do one step of the person's navigation; returns the page (the same one)."""
    if step == "move":
        # A round's results above the table hold the AI players while they are read: a person
        # who waits on them goes on by dismissing the results (wait_actionable does).
        current = wait_actionable(page)
        if current["view"]["over"]:
            return page
        # (a snap window may close meanwhile: the server's clock is not the page's)
        if play_unless_moved_on(page, current, pick_move(current["view"], moves[0], rnd)):
            moves[0] += 1
    elif step == "wait":
        ctx.clock.run_for(int(rnd.uniform(0, 2.2) * REVEAL_S * 1000))
    elif step in ("rules", "settings", "help"):
        page.click(f"[data-ui={step}]")
        expect(page.locator(".modal-backdrop")).to_have_count(1)
        # the time passes in steps, each checked, while the dialog stays open
        for _ in range(rnd.randint(1, 3)):
            ctx.clock.run_for(int(rnd.uniform(0.2, 1.2) * REVEAL_S * 1000))
            problems = check_memory(page, earlier, REVEAL_S)["problems"]
            assert not problems, f"with the {step} open: {problems}"
        close_dialog(page)
    elif step == "results":
        for ui in ("round-dismiss", "end-toggle"):
            button = page.locator(f"[data-ui={ui}]")
            if button.count():
                button.click()
                break
    elif step == "scroll":
        page.mouse.wheel(0, rnd.choice([-600, -200, 200, 600]))
    elif step == "drawer":
        # the phone's log drawer: opened, read a while (checked), closed
        toggle = page.locator("[data-ui=log-toggle]")
        if toggle.is_visible():
            toggle.click()
            expect(page.locator("[data-ui=log-panel]")).to_be_in_viewport()
            ctx.clock.run_for(int(rnd.uniform(0.2, 1.2) * REVEAL_S * 1000))
            problems = check_memory(page, earlier, REVEAL_S)["problems"]
            assert not problems, f"with the log drawer open: {problems}"
            page.locator("[data-ui=log-panel] .log-close").click()
    elif step == "refresh":
        earlier.extend(page.evaluate("() => window.__ctFrames"))
        version = state(page)["version"]
        page.reload()
        wait_version(page, version)
    return page


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", sorted(SEATS))
@settings(
    max_examples=1,
    deadline=None,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32))
def test_no_card_stays_in_view_past_its_reveal_time(
    server: Server, browser: Browser, game: str, viewport: dict[str, int], seed: int
) -> None:
    play_and_check(server, browser, game, viewport, seed, steps=30)


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", sorted(SEATS))
@settings(
    max_examples=6,
    deadline=None,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32))
def test_no_card_stays_in_view_past_its_reveal_time_long(
    server: Server, browser: Browser, game: str, viewport: dict[str, int], seed: int
) -> None:
    play_and_check(server, browser, game, viewport, seed, steps=120)


def play_and_check(
    server: Server,
    browser: Browser,
    game: str,
    viewport: dict[str, int],
    seed: int,
    *,
    steps: int,
) -> None:
    """One random game of ``game`` (seats, a match or a round, motion, the person's moves and
    navigation all drawn from ``seed``); the check after every step."""
    # (each game and size plays its own plan, even from hypothesis's first seed, 0)
    rnd = random.Random(f"{game}-{viewport['width']}-{seed}")
    players = rnd.randint(2, SEATS[game])
    motion = rnd.random() < 0.5
    match = rnd.random() < 0.7
    plan = [rnd.choice(NAVIGATION) for _ in range(steps)]
    ctx = new_context(browser, viewport, motion)
    try:
        seats = [{"type": "human"}] + [{"type": "ai", "level": "casual"}] * (players - 1)
        page, _ = open_seat(
            ctx,
            server,
            game,
            seats,
            options={"target": TARGET[game] if match else None},
            reveal_seconds=REVEAL_S,
        )
        wait_actionable(page)
        earlier: list[Any] = []
        moves = [0]
        private = 0
        for n, step in enumerate(plan):
            page = navigate(page, step, rnd, ctx, earlier, moves)
            result = check_memory(page, earlier, REVEAL_S)
            assert not result["problems"], f"after step {n} ({step}) of {plan}: {result}"
            private = max(private, result["private"])
            # After the reveal time, every card seen for a moment is face down again.
            if step == "move" and rnd.random() < 0.5:
                ctx.clock.run_for(int(REVEAL_S * 1000))
                result = check_memory(page, earlier, REVEAL_S)
                assert not result["problems"], f"{REVEAL_S} s after step {n}: {result}"
                assert page.locator(".table .card.revealed").count() == 0
            if state(page)["view"]["over"]:
                break
        if game != "qute":
            assert private >= 1, "the seat never saw a card for a moment"
    finally:
        ctx.close()


# --- the reveal time, exactly -------------------------------------------------------------


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_peek_lasts_its_reveal_time_under_every_dialog(
    server: Server, browser: Browser, viewport: dict[str, int], screenshots: Path
) -> None:
    """A peeked card is face up until exactly its reveal time is up, with the rules, settings
    or help open over the table; closing them gives it no time back. Each dialog asks the
    clocks to wait while it is open (``hold`` on, then off)."""
    ctx = new_context(browser, viewport, motion=False)
    try:
        page, _ = open_seat(ctx, server, "cabo", [{"type": "human"}, {"type": "ai"}])
        wait_actionable(page)
        size = "phone" if viewport is PHONE else "desktop"
        for position, dialog in ((0, "rules"), (1, "settings")):
            play_action(page, f"peek {position}")
            card = page.locator(f".card[data-addr='0.{position}']")
            expect(card).to_have_class(REVEALED)
            page.click(f"[data-ui={dialog}]")
            expect(page.locator(".modal-backdrop")).to_have_count(1)
            ctx.clock.run_for(int(REVEAL_S * 1000) - 1)
            expect(card).to_have_class(REVEALED)
            page.screenshot(path=str(screenshots / f"fair-{dialog}-open-{size}.png"))
            ctx.clock.run_for(1)
            expect(card).not_to_have_class(REVEALED)
            assert not check_memory(page, [], REVEAL_S)["problems"]
            close_dialog(page)
            expect(card).not_to_have_class(REVEALED)
        holds = [f["on"] for f in frames_sent(page, "hold")]
        assert holds == [True, False, True, False], holds
        # Help, with no card face up: it holds the clocks too.
        page.click("[data-ui=help]")
        expect(page.locator(".modal-backdrop")).to_have_count(1)
        close_dialog(page)
        assert [f["on"] for f in frames_sent(page, "hold")][-2:] == [True, False]
    finally:
        ctx.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_kaboo_round_two_shows_the_bottom_row_for_its_time_beside_the_results(
    server: Server, browser: Browser, viewport: dict[str, int], screenshots: Path
) -> None:
    """Round 2 of a kaboo match deals while round 1's results are shown: the new bottom row is
    face up for exactly the reveal time (the results panel gives it no more), and the page
    holds the clocks until the results are dismissed."""
    ctx = new_context(browser, viewport, motion=False)
    try:
        page, _ = open_seat(
            ctx, server, "kaboo", [{"type": "human"}, {"type": "ai"}], options={"target": 40}
        )
        moves = 0
        while True:
            # (round 2 may begin with the AI's turn, which waits while the results are read)
            page.wait_for_function(
                """() => {
                    const s = window.cardtable.state();
                    return document.body.dataset.busy !== "1" && (s.view.round > 1 ||
                        s.view.over || s.view.legal.length > 0);
                }"""
            )
            current = state(page)
            if current["view"]["round"] > 1 or current["view"]["over"]:
                break
            view = current["view"]
            action = choose_action(view, moves)
            if "knock" in view["legal"] and moves >= 2:
                action = "knock"
            play_action(page, action)
            moves += 1
        assert not current["view"]["over"]
        dealt = page.evaluate(
            """() => {
                const f = window.__ctFrames.filter((x) => x.msg.type === "state" &&
                    (x.msg.events ?? []).some((e) => e.type === "round_start" && e.round === 2));
                return f.length ? f[f.length - 1].t : null;
            }"""
        )
        assert dealt is not None
        results = page.locator("[data-ui=round-panel]")
        expect(results).to_be_visible()
        bottom = page.locator(".seat[data-seat='0'] .card.revealed")
        # the AI may have moved one of them already; at least one is there
        assert bottom.count() >= 1
        size = "phone" if viewport is PHONE else "desktop"
        page.screenshot(path=str(screenshots / f"fair-kaboo-round-2-{size}.png"), full_page=True)
        elapsed = page.evaluate("() => Date.now()") - dealt
        ctx.clock.run_for(int(REVEAL_S * 1000) - elapsed - 1)
        assert bottom.count() >= 1
        ctx.clock.run_for(1)
        expect(bottom).to_have_count(0)
        expect(results).to_be_visible()  # the results stay as long as the person wants
        assert not check_memory(page, [], REVEAL_S)["problems"]
        assert frames_sent(page, "hold")[-1]["on"] is True
        page.click("[data-ui=round-dismiss]")
        expect(results).to_have_count(0)
        expect(page.locator(".table .card.revealed")).to_have_count(0)
        assert frames_sent(page, "hold")[-1]["on"] is False
    finally:
        ctx.close()


def test_the_clocks_wait_for_a_reader_only_at_a_table_without_other_people(
    server: Server, browser: Browser, screenshots: Path
) -> None:
    """Alone with an AI player, the rules dialog holds the peek window: the countdown says it
    is paused, and runs again once the dialog is closed. With another person at the table the
    same dialog holds nothing."""
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")  # type: ignore[arg-type]
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(RECORD_FRAMES)
    try:
        page, _ = open_seat(ctx, server, "gabo", [{"type": "human"}, {"type": "ai"}])
        countdown = page.locator(".window-countdown")
        expect(countdown).to_contain_text("Peek window")
        expect(countdown).not_to_contain_text("paused")
        page.click("[data-ui=rules]")
        expect(countdown).to_contain_text("(paused)")
        assert state(page)["window"]["paused"] is True
        page.screenshot(path=str(screenshots / "fair-paused-clock.png"))
        close_dialog(page)
        expect(countdown).not_to_contain_text("paused")
        assert state(page)["window"]["paused"] is False

        status, made = http(
            "POST",
            f"{server.url}/api/rooms",
            {"game": "gabo", "seats": [{"type": "human"}, {"type": "human"}], "name": "Ann"},
        )
        assert status == 201, made
        status, _ = http("POST", f"{server.url}/api/rooms/{made['room']}/join", {"name": "Bob"})
        assert status in (200, 201)
        shared = ctx.new_page()
        shared.goto(server.url + "/")
        shared.evaluate(
            "([r, t]) => localStorage.setItem('cardtable:seat:' + r, "
            "JSON.stringify({ seat: 0, token: t }))",
            [made["room"], made["token"]],
        )
        shared.goto(f"{server.url}/r/{made['room']}")
        wait_actionable(shared)
        shared.click("[data-ui=rules]")
        shared.wait_for_function(
            "() => window.__ctFrames.some((f) => f.msg.type === 'state' && f.msg.held === false)"
        )
        assert state(shared)["window"]["paused"] is False
        expect(shared.locator(".window-countdown")).not_to_contain_text("paused")
    finally:
        ctx.close()
