"""Card values where they are unusual, in the browser: a badge with the points on every face-up
card whose value differs from its face (a gabo red king's 15, a joker's −2), none on a plain
card; and the rules dialog in plain words, in the browser's language, its cards drawn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server
from .driver import create_room, play_to_end, wait_actionable

# Draws the page's current view again, changed: an opponent's cards 0 and 1 face up as
# `codes[0]` and `codes[1]`, the top of the discard pile `codes[2]`. Returns, per card, its
# badge's text (null: none), its label, and the sizes of the card and of the badge's number.
RENDER_MARKED = """async (codes) => {
    const { renderTable, seatName } = await import('/static/table.js');
    const s = window.cardtable.state();
    const view = structuredClone(s.view);
    const opp = (s.seat + 1) % view.players;
    view.hands[opp][0] = { ...view.hands[opp][0], card: codes[0] };
    view.hands[opp][1] = { ...view.hands[opp][1], card: codes[1] };
    view.discard = [...view.discard, codes[2]];
    view.phase = 'play';
    view.over = false;
    document.getElementById('marked-table')?.remove();
    const host = document.createElement('div');
    host.id = 'marked-table';
    document.querySelector('main').append(host);
    host.append(renderTable(view, {
        viewer: s.seat, seats: s.seats, names: (i) => seatName(s.seats, i), interactive: true,
    }));
    const about = (card) => {
        const badge = card.querySelector('.value-mark text');
        const r = card.getBoundingClientRect();
        const b = badge ? badge.getBoundingClientRect() : null;
        return {
            badge: badge ? badge.textContent : null,
            value: card.dataset.value ?? null,
            label: card.getAttribute('aria-label'),
            card: { w: r.width, h: r.height },
            number: b ? { w: b.width, h: b.height } : null,
        };
    };
    return {
        first: about(host.querySelector(`[data-addr="${opp}.0"]`)),
        second: about(host.querySelector(`[data-addr="${opp}.1"]`)),
        pile: about(host.querySelector('.pile-top')),
    };
}"""


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def _marked(page: Page, codes: list[str]) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(RENDER_MARKED, codes)
    return found


def test_a_gabo_red_king_has_a_badge_and_a_seven_none(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    create_room(page, server.url, "gabo", ["human", "ai:casual", "ai:casual"])
    wait_actionable(page)
    found = _marked(page, ["KH", "7H", "BJ"])
    king, seven, joker = found["first"], found["second"], found["pile"]
    assert king["badge"] == "15" and king["value"] == "15", found
    assert "king of hearts (15 points)" in king["label"], found
    assert seven["badge"] is None and seven["value"] is None, found
    assert "(" not in seven["label"].split(",")[0], found
    assert joker["badge"] == "\u22122" and joker["value"] == "-2", found
    page.locator("#marked-table").screenshot(path=str(screenshots / "gabo-value-marks.png"))


def test_no_badge_in_a_game_where_every_value_is_usual(
    server: Server, context: BrowserContext
) -> None:
    page = context.new_page()
    create_room(page, server.url, "cabo", ["human", "ai:casual"])
    wait_actionable(page)
    found = _marked(page, ["13", "7", "0"])
    assert [found[k]["badge"] for k in ("first", "second", "pile")] == [None, None, None]


def test_the_badge_reads_on_a_phone(
    server: Server, phone: BrowserContext, screenshots: Path
) -> None:
    page = phone.new_page()
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    wait_actionable(page)
    found = _marked(page, ["KS", "7C", "KD"])
    for key in ("first", "pile"):
        card = found[key]
        assert card["badge"] == "\u22121", found
        # The number is at least 9 CSS px tall on the smallest card a phone shows.
        assert card["number"]["h"] >= 9, found
    assert found["second"]["badge"] is None
    page.evaluate("document.getElementById('marked-table').remove()")
    # A whole game: at its end every card is shown, the kings with their badge.
    play_to_end(page)
    kings = page.locator('#app .card[data-face^="K"]')
    if kings.count():
        expect(kings.first.locator(".value-mark")).to_have_text("\u22121")
    page.screenshot(path=str(screenshots / "phone-kaboo-value-marks.png"), full_page=True)


@pytest.mark.parametrize(
    ("locale", "heading", "words"),
    [
        ("de-DE", "Regeln: Gabo", ["Einwerfen", "rote Könige", "Ablagestapel"]),
        ("en-GB", "Rules: Gabo", ["Snapping", "red kings", "discard pile"]),
    ],
)
def test_the_rules_dialog_speaks_plainly_with_cards(
    locale: str, heading: str, words: list[str], browser: Browser, server: Server, screenshots: Path
) -> None:
    for size, viewport in (("desktop", (1366, 900)), ("phone", (390, 844))):
        ctx = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]},
            locale=locale,
            reduced_motion="reduce",
        )
        try:
            page = ctx.new_page()
            page.goto(server.url + "/")
            page.wait_for_selector("select[name=game] option", state="attached")
            page.select_option("select[name=game]", "gabo")
            page.click(".create-form .row .btn")
            box = page.locator(".rules-modal")
            expect(box).to_be_visible()
            expect(box.locator(".modal-head h2")).to_have_text(heading)
            text = box.inner_text()
            for word in words:
                assert word in text, (locale, word)
            assert "{{" not in text and "draw deck" not in text
            # Cards are drawn, with their badges: the legend's red kings carry 15.
            assert box.locator(".rules-text .card.face-up").count() > 20
            expect(box.locator('.rules-text .card[data-face="KH"] .value-mark').first).to_have_text(
                "15"
            )
            assert box.locator('.rules-text .card[data-face="7D"] .value-mark').count() == 0
            lang = locale[:2]
            page.screenshot(path=str(screenshots / f"rules-gabo-{lang}-{size}.png"))
            box.locator("table").first.screenshot(
                path=str(screenshots / f"rules-gabo-{lang}-{size}-legend.png")
            )
        finally:
            ctx.close()
