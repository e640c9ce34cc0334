"""Qute's hand fan: a few cards lie apart, a big hand overlaps, on a desktop and on a phone."""

from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import Browser

from ..webserver import Server

# Draws the viewer's fanned hand of `codes` through the page's own module, in a box as wide as
# the hand's panel, and returns each card's layout box (before the tilt).
RENDER_FAN = """async ([codes, width]) => {
    const { quteHand } = await import('/static/qutetable.js');
    const host = document.createElement('div');
    host.className = 'seat seat-me';
    host.style.cssText = `position:absolute;left:0;top:0;width:${width}px`;
    document.body.append(host);
    const view = { hands: [codes.map((card) => ({ card })), []], counts: [codes.length, 0] };
    const ctx = { viewer: 0, names: (i) => `Seat ${i}`, interactive: false };
    const fan = quteHand(view, 0, ctx);
    host.append(fan);
    const cards = [...fan.querySelectorAll('.card')].map((c) => ({
        left: c.offsetLeft, top: c.offsetTop, width: c.offsetWidth,
    }));
    host.remove();
    return cards;
}"""

FOUR = ["QC", "7D", "JH", "KH"]
TWELVE = ["6C", "8C", "10C", "QC", "7D", "9D", "JD", "KD", "6H", "AH", "9S", "AS"]


@pytest.mark.parametrize(
    ("screen", "apart"), [((1366, 900), 6), ((390, 844), 4)], ids=["desktop", "phone"]
)
def test_the_fan_overlaps_only_a_big_hand(
    screen: tuple[int, int], apart: int, server: Server, browser: Browser
) -> None:
    context = browser.new_context(viewport={"width": screen[0], "height": screen[1]})
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        panel = min(screen[0] - 40, 700)  # the width of the middle of the table
        for codes in (FOUR[: min(4, apart)], FOUR + ["9S", "AS"][: apart - 4]):
            cards = page.evaluate(RENDER_FAN, [codes, panel])
            assert len(cards) == len(codes)
            for a, b in itertools.pairwise(cards):
                # side by side, a little apart: every corner readable
                assert b["top"] == a["top"] and b["left"] >= a["left"] + a["width"] + 2, cards
        cards = page.evaluate(RENDER_FAN, [TWELVE, panel])
        rows: dict[int, list[dict[str, int]]] = {}
        for card in cards:
            rows.setdefault(card["top"], []).append(card)
        for row in rows.values():
            for a, b in itertools.pairwise(row):
                step = b["left"] - a["left"]
                # overlapped, yet at least the corner (a quarter of a card) shows
                assert a["width"] * 0.25 <= step < a["width"], row
        assert len(rows) <= 2, "twelve cards fit in two rows"
    finally:
        context.close()
