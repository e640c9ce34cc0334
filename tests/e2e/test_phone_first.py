"""Phone first: on a 390×844 touch screen, every game at its fewest, usual and most seats is played
to its end, and at EVERY decision of the person their own hand, the prompt and the action bar's
buttons lie on the screen without scrolling, the prompt says "tap", and every control drawn is
at least 44 px each way. On a desktop (1366×900) kaboo's once-only bottom row is in view when it
is shown, with three and four players."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from cardtable import variants

from ..webserver import Server, http
from .driver import choose_action, play_unless_moved_on, state, wait_actionable

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
TOUCH_TARGET = 44
"""The least width and height of a control on a touch screen (px)."""

GAMES = ("cabo", "cabo-german", "gabo", "kaboo", "qute")


def seat_counts(game: str) -> list[int]:
    """The fewest, the usual and the most seats the game allows."""
    var = variants.get(game)
    return sorted({var.min_players, var.default_players, var.max_players})


# Everything the checks need, measured in one go in the page (an AI's move may redraw the
# table between two measurements): the boxes of the own hand's cards, of the prompt and of the
# action bar's buttons, the prompt's words, and every control drawn with its box (a checkbox
# with its labels, which take the tap too; a card of Qute's fanned hand by the part of it that
# is not under the next card).
MEASURE = """() => {
    const box = (n) => { const r = n.getBoundingClientRect();
        return {x: r.x, y: r.y, w: r.width, h: r.height}; };
    const shown = (n) => n.getClientRects().length > 0
        && getComputedStyle(n).visibility !== 'hidden' && !n.closest('.sr-only, [hidden]');
    const controls = [];
    for (const n of document.querySelectorAll('button, input, select, a.btn')) {
        if (!shown(n) || n.closest('.skip-link')) continue;
        let b = box(n);
        if (n.type === 'checkbox' || n.type === 'radio') {
            for (const l of n.labels ?? []) {
                const r = box(l);
                const x = Math.min(b.x, r.x), y = Math.min(b.y, r.y);
                b = {x, y, w: Math.max(b.x + b.w, r.x + r.w) - x,
                     h: Math.max(b.y + b.h, r.y + r.h) - y};
            }
        }
        const next = n.closest('.hand-fan') && n.nextElementSibling;
        if (next && next.matches('.card') && box(next).y === b.y) b.w = box(next).x - b.x;
        controls.push({what: n.outerHTML.slice(0, 90), ...b});
    }
    const status = document.querySelector('.status-line');
    return {
        hand: [...document.querySelectorAll('.seat-me .hand .card')].map(box),
        prompt: status ? box(status) : null,
        words: status ? status.textContent : '',
        bar: [...document.querySelectorAll('.action-bar button')].filter(shown).map(box),
        controls,
        scrolled: window.scrollY,
    };
}"""


def inside(b: dict[str, float], screen: dict[str, int]) -> bool:
    """Whether a box lies wholly on the screen (half a pixel of rounding allowed)."""
    return (
        b["w"] > 0
        and b["h"] > 0
        and b["x"] >= -0.5
        and b["y"] >= -0.5
        and b["x"] + b["w"] <= screen["width"] + 0.5
        and b["y"] + b["h"] <= screen["height"] + 0.5
    )


def check_decision(page: Page, screen: dict[str, int], *, touch: bool, where: str) -> None:
    """The own hand, the prompt and the bar's buttons are on screen, where the page is scrolled
    now and at its top; on a touch screen the prompt says "tap" and every control is big enough
    for a finger."""
    for scroll in (None, 0):
        if scroll is not None:
            page.evaluate("y => window.scrollTo(0, y)", scroll)
        m: dict[str, Any] = page.evaluate(MEASURE)
        at = f"{where}, scrolled {m['scrolled']} px"
        assert m["prompt"] is not None and m["words"].strip(), f"no prompt ({at})"
        assert inside(m["prompt"], screen), f"the prompt is off screen ({at}): {m['prompt']}"
        off = [b for b in m["hand"] if not inside(b, screen)]
        assert not off, f"own cards off screen ({at}): {off}"
        off = [b for b in m["bar"] if not inside(b, screen)]
        assert not off, f"action bar buttons off screen ({at}): {off}"
        if touch:
            assert "click" not in m["words"].lower(), f"a touch screen is told to click ({at})"
            small = [
                c
                for c in m["controls"]
                if c["w"] < TOUCH_TARGET - 0.5 or c["h"] < TOUCH_TARGET - 0.5
            ]
            assert not small, f"controls smaller than {TOUCH_TARGET} px ({at}): {small}"


def open_table(
    browser: Browser,
    server: Server,
    game: str,
    players: int,
    *,
    phone: bool,
    target: int | None = None,
) -> tuple[BrowserContext, Page]:
    """A single round of ``game`` (a match to ``target`` if given): the person in seat 0, casual
    AI players in the others; the page opened on a phone (touch) or a desktop, holding the
    person's seat."""
    seats = [{"type": "human"}] + [{"type": "ai", "level": "casual"}] * (players - 1)
    status, room = http(
        "POST",
        server.url + "/api/rooms",
        {
            "game": game,
            "players": players,
            "seats": seats,
            "name": "Ann",
            "options": {"target": target},
        },
    )
    assert status in (200, 201), room
    ctx = browser.new_context(
        viewport=PHONE if phone else DESKTOP,
        is_mobile=phone,
        has_touch=phone,
        device_scale_factor=1,
        reduced_motion="reduce",
    )
    ctx.set_default_timeout(15_000)
    held = json.dumps({"seat": room["seat"], "token": room["token"]})
    # A long reveal time: kaboo's bottom row is still face up when it is looked at.
    prefs = json.dumps({"revealSeconds": 30})
    ctx.add_init_script(
        f"localStorage.setItem({json.dumps('cardtable:seat:' + room['room'])}, {json.dumps(held)});"
        f"localStorage.setItem('cardtable:prefs', {json.dumps(prefs)});"
    )
    page = ctx.new_page()
    page.goto(f"{server.url}/r/{room['room']}")
    return ctx, page


# The page may act, or it shows a finished round's results and waits for "Got it" (the table's
# clocks and AI players wait while the only person reads them).
_ACTIONABLE_OR_RESULTS = """() => {
    const s = window.cardtable && window.cardtable.state();
    if (!s || !s.view || document.body.dataset.busy === "1") return false;
    return s.view.over || s.view.legal.length > 0
        || Boolean(document.querySelector('[data-ui=round-dismiss]'));
}"""


def play_checking(
    page: Page, screen: dict[str, int], *, touch: bool, max_moves: int = 300
) -> tuple[int, int]:
    """Play the person's seat to the end of the game, checking every decision (a match's round
    results read and dismissed between rounds); returns the number of decisions and of the
    decisions made while a round's results were shown."""
    beside_results = 0
    for moves in range(max_moves):
        page.wait_for_function(_ACTIONABLE_OR_RESULTS, timeout=20_000)
        current = state(page)
        view = current["view"]
        if not view["over"] and not view["legal"]:
            page.click("[data-ui=round-dismiss]")
            continue
        if view["over"]:
            return moves, beside_results
        beside_results += page.locator("[data-ui=round-panel]").count()
        check_decision(page, screen, touch=touch, where=f"decision {moves}, phase {view['phase']}")
        # A timed window (a snap) may close while the checks run: then the table moved on.
        play_unless_moved_on(page, current, choose_action(view, moves))
    raise AssertionError(f"no end after {max_moves} decisions")


def test_a_match_fits_a_phone_with_the_round_results_shown(
    server: Server, browser: Browser
) -> None:
    """Between the rounds of a match the results show above the table while the next round's
    opening peeks are to be made: the hand, the prompt and the bar stay on screen."""
    for _deal in range(4):  # a match may end with its first round: then deal another
        ctx, page = open_table(browser, server, "gabo", 3, phone=True, target=60)
        try:
            _, beside_results = play_checking(page, PHONE, touch=True)
        finally:
            ctx.close()
        if beside_results:
            return
    raise AssertionError("no match went beyond its first round")


def every_seat_count(game: str) -> list[int]:
    """The seat counts :func:`seat_counts` leaves out (for the slow sweep)."""
    var = variants.get(game)
    shown = seat_counts(game)
    return [n for n in range(var.min_players, var.max_players + 1) if n not in shown]


@pytest.mark.parametrize(
    ("game", "players"), [(g, n) for g in GAMES for n in seat_counts(g)], ids=str
)
def test_every_decision_fits_a_phone(
    game: str, players: int, server: Server, browser: Browser
) -> None:
    for _deal in range(3):  # a round may end before the person's second turn: deal another
        ctx, page = open_table(browser, server, game, players, phone=True)
        try:
            decisions, _ = play_checking(page, PHONE, touch=True)
        finally:
            ctx.close()
        if decisions >= 2:
            return
    raise AssertionError(f"{game}: no deal gave the person more than one decision")


@pytest.mark.parametrize("players", [3, 4])
def test_kaboo_bottom_row_in_view_on_a_desktop(
    players: int, server: Server, browser: Browser
) -> None:
    ctx, page = open_table(browser, server, "kaboo", players, phone=False)
    try:
        current = wait_actionable(page)
        seat = current["seat"]
        # The bottom row is shown at the start: both cards face up and wholly on screen.
        bottom = [f".seat-me .card[data-addr='{seat}.{n}']" for n in (2, 3)]
        for sel in bottom:
            assert "face-up" in (page.get_attribute(sel, "class") or ""), sel
        boxes = [
            page.eval_on_selector(sel, "n => n.getBoundingClientRect().toJSON()") for sel in bottom
        ]
        for b in boxes:
            assert inside({"x": b["x"], "y": b["y"], "w": b["width"], "h": b["height"]}, DESKTOP), b
        play_checking(page, DESKTOP, touch=False)
    finally:
        ctx.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players"), [(g, n) for g in GAMES for n in every_seat_count(g)], ids=str
)
def test_every_decision_fits_a_phone_at_every_seat_count(
    game: str, players: int, server: Server, browser: Browser
) -> None:
    ctx, page = open_table(browser, server, game, players, phone=True)
    try:
        play_checking(page, PHONE, touch=True)
    finally:
        ctx.close()
