"""Cards that read right: underlined 6 and 9, two-digit corners that fit, empty positions that
keep a hand's shape, seen-by markers with names clear of the rank, phone-sized tap targets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from ..webserver import Server
from .driver import choose_action, create_room, play_action, play_to_end, state, wait_actionable

# Renders card faces through the page's own module into a test container; returns, per code,
# how many underline marks the face has.
RENDER_FACES = """async (codes) => {
    const { cardFace } = await import('/static/cards.js');
    const box = document.createElement('div');
    box.id = 'face-test';
    document.body.append(box);
    const out = {};
    for (const code of codes) {
        const svg = cardFace(code);
        svg.style.width = '84px';
        box.append(svg);
        out[code] = svg.querySelectorAll('.rank-underline').length;
    }
    return out;
}"""

# Renders one card element of `size` with `code` and measures its corner ranks and its box.
MEASURE_CORNER = """async ([code, size]) => {
    const { cardElement } = await import('/static/table.js');
    const host = document.createElement('div');
    host.style.cssText = 'position:absolute;left:20px;top:20px;display:flex';
    document.body.append(host);
    const card = cardElement({ code, faceUp: true, size });
    host.append(card);
    const box = card.getBoundingClientRect();
    const ranks = [...card.querySelectorAll('.corner .rank')].map(t => {
        const r = t.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
    });
    host.remove();
    return { card: { x: box.x, y: box.y, w: box.width, h: box.height }, ranks };
}"""

# Draws the page's current view again, changed: an opponent's position 1 empty and position 0
# face up as `code` with seen-by marks of seats `seen`. Returns what the test measures.
RENDER_CHANGED = """async ([code, seen]) => {
    const { renderTable, seatName } = await import('/static/table.js');
    const s = window.cardtable.state();
    const view = structuredClone(s.view);
    const opp = (s.seat + 1) % view.players;
    const hand = view.hands[opp];
    hand[0] = { ...hand[0], card: code, seen };
    hand[1] = null;
    view.phase = 'play';
    view.over = false;
    document.getElementById('changed-table')?.remove();
    const host = document.createElement('div');
    host.id = 'changed-table';
    document.querySelector('main').append(host);
    host.append(renderTable(view, {
        viewer: s.seat, seats: s.seats, names: (i) => seatName(s.seats, i),
        interactive: true,
    }));
    const rect = (n) => {
        const r = n.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
    };
    const seatEl = host.querySelector(`.seat[data-seat="${opp}"]`);
    const cards = [...seatEl.querySelectorAll('.hand .card')].map(rect);
    const empty = rect(seatEl.querySelector('.card.empty'));
    const first = seatEl.querySelector(`[data-addr="${opp}.0"]`);
    const ranks = [...first.querySelectorAll('.rank')].map(rect);
    const dots = [...first.parentElement.querySelectorAll('.seen-dot')].map(d => ({
        ...rect(d), title: d.title, label: d.getAttribute('aria-label'), text: d.textContent,
    }));
    const legend = host.querySelector('[data-ui=seen-legend]');
    const names = seen.map(i => seatName(s.seats, i));
    const square = seatEl.querySelector('.hand').classList.contains('hand-square');
    return {
        cards, empty, ranks, dots, names, square,
        legend: legend ? legend.textContent : null,
    };
}"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and a["y"] < b["y"] + b["h"]
        and b["y"] < a["y"] + a["h"]
    )


def test_six_and_nine_are_underlined(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    counts = page.evaluate(RENDER_FACES, ["6H", "9S", "7C", "6", "9", "7", "10D", "8", "13"])
    # Two corners each; a numbered card's big centre value is underlined too.
    assert counts["6H"] == 2 and counts["9S"] == 2, counts
    assert counts["6"] == 3 and counts["9"] == 3, counts
    assert counts["7C"] == 0 and counts["7"] == 0 and counts["8"] == 0, counts
    assert counts["10D"] == 0 and counts["13"] == 0, counts


@pytest.mark.parametrize("size", ["sm", "md", "lg"])
def test_two_digit_corners_fit(size: str, server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    for code in ["10H", "13", "12"]:
        found = page.evaluate(MEASURE_CORNER, [code, size])
        card = found["card"]
        assert len(found["ranks"]) == 2, found
        for r in found["ranks"]:
            assert r["x"] >= card["x"] - 0.5 and r["y"] >= card["y"] - 0.5, (code, found)
            assert r["x"] + r["w"] <= card["x"] + card["w"] + 0.5, (code, found)
            assert r["y"] + r["h"] <= card["y"] + card["h"] + 0.5, (code, found)
            # Within the corner: the outer quarter of the card's width.
            assert r["w"] <= card["w"] * 0.27, (code, found)


def check_changed_table(page: Page, code: str) -> dict[str, Any]:
    current = state(page)
    seen = [s for s in range(current["view"]["players"]) if s != current["seat"]]
    found: dict[str, Any] = page.evaluate(RENDER_CHANGED, [code, seen])
    cards, empty = found["cards"], found["empty"]
    # The empty position is the size of the other cards and the hand keeps its shape: one row
    # (two of two for a square hand), the empty position in its place.
    assert abs(empty["w"] - cards[0]["w"]) < 1 and abs(empty["h"] - cards[0]["h"]) < 1, found
    rows = {round(c["y"]) for c in cards}
    assert len(rows) == (2 if found["square"] else 1), f"the hand wraps: {found}"
    assert abs(empty["x"] - cards[1]["x"]) < 1 and abs(empty["y"] - cards[1]["y"]) < 1, found
    # Seen-by marks: initials, the full name as tooltip and label, clear of the rank.
    assert len(found["dots"]) == len(seen), found
    for dot, name in zip(found["dots"], found["names"], strict=True):
        assert name in dot["title"] and name in dot["label"], found
        assert 0 < len(dot["text"]) <= 4, found
        for rank in found["ranks"]:
            assert not overlaps(dot, rank), found
    assert found["legend"] and all(n in found["legend"] for n in found["names"]), found
    return found


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("cabo-german", ["human", "ai:casual", "ai:casual"]),
        ("kaboo", ["human", "ai:casual"]),
        ("gabo", ["human", "ai:casual", "ai:casual", "ai:casual"]),
    ],
)
def test_empty_position_and_seen_marks(
    game: str, seats: list[str], server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    create_room(page, server.url, game, seats)
    wait_actionable(page)
    check_changed_table(page, "9H")
    page.locator("#changed-table").screenshot(path=str(screenshots / f"{game}-empty-seen.png"))


WIDTH, HEIGHT = 390, 844


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
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


OPPONENT_BOXES = """() => [...document.querySelectorAll('#app .seat:not(.seat-me) button.card')]
    .map(n => { const r = n.getBoundingClientRect(); return [r.width, r.height]; })"""


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("gabo", ["human", "ai:casual", "ai:casual", "ai:casual"]),
        ("cabo-german", ["human", "ai:casual", "ai:casual"]),
        ("kaboo", ["human", "ai:casual"]),
    ],
)
def test_phone_tap_targets(
    game: str, seats: list[str], server: Server, phone: BrowserContext, screenshots: Path
) -> None:
    page = phone.new_page()
    create_room(page, server.url, game, seats)
    for moves in range(4):
        current = wait_actionable(page)
        if current["view"]["over"]:
            break
        boxes = page.evaluate(OPPONENT_BOXES)
        assert boxes, "no opponent cards drawn"
        small = [b for b in boxes if b[0] < 44 or b[1] < 44]
        assert not small, f"opponent cards under 44×44: {small}"
        width = page.evaluate("() => document.scrollingElement.scrollWidth")
        assert width <= WIDTH, f"the page is {width}px wide"
        if moves == 2:
            page.screenshot(path=str(screenshots / f"phone-{game}-faces.png"), full_page=True)
        play_action(page, choose_action(current["view"], moves))
    if game == "gabo":
        check_changed_table(page, "10S")
        page.locator("#changed-table").screenshot(
            path=str(screenshots / "phone-gabo-empty-seen.png")
        )


def test_round_end_faces(server: Server, context: BrowserContext, screenshots: Path) -> None:
    """A finished Cabo table shows every card: the 6s and 9s among them are underlined."""
    page = context.new_page()
    create_room(page, server.url, "cabo", ["human", "ai:casual", "ai:casual"])
    final = play_to_end(page)
    assert final["view"]["over"]
    page.screenshot(path=str(screenshots / "cabo-faces-end.png"), full_page=True)
    faces = page.eval_on_selector_all(
        "#app .card.face-up",
        "ns => ns.map(n => [n.dataset.face, n.querySelectorAll('.rank-underline').length])",
    )
    assert faces
    for code, marks in faces:
        value = code.rstrip("CDHS") if not code.isdigit() else code
        assert (marks > 0) == (value in {"6", "9"}), (code, marks)
