"""Cabo's face-up cards (RULES.md, cabo, "Face-up cards in the hand") at the browser table: a card
taken from the discard pile lies face up in the hand, for its holder without memory aid long after
any reveal time, for the other seats and for a spectator; and it is drawn unlike a card that a
seat with the memory aid only remembers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server
from .driver import create_room, play_action, state, wait_actionable

OPEN = re.compile(r"\bopen\b")
KNOWN = re.compile(r"\bknown\b")


def take_from_the_pile(page: Page) -> tuple[str, str]:
    """Peek (if asked), then at the person's turn take the discard pile's top card into position
    0. Returns the card's code and its address."""
    while True:
        current = wait_actionable(page)
        view = current["view"]
        assert not view["over"], "the round ended before the person's turn"
        legal = view["legal"]
        peeks = [a for a in legal if a.startswith("peek ")]
        if peeks:
            play_action(page, peeks[-1])  # the last card: position 0 stays unknown to them
            continue
        if "draw discard" in legal:
            break
        play_action(page, "pass" if "pass" in legal else legal[0])
    top = view["discard"][-1]
    play_action(page, "draw discard")
    wait_actionable(page)
    play_action(page, "replace 0")
    return top, f"{current['seat']}.0"


@pytest.mark.parametrize("aid", [False, True], ids=["no-aid", "memory-aid"])
def test_a_card_from_the_pile_lies_face_up_in_the_hand(
    aid: bool, server: Server, browser: Browser, screenshots: Path
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        page, watcher = (ctx.new_page() for ctx in contexts)
        page.add_init_script(
            "localStorage.setItem('cardtable:prefs', JSON.stringify({revealSeconds: 0.5}))"
        )
        room = create_room(page, server.url, "cabo", ["human+aid" if aid else "human", "ai:casual"])
        watcher.goto(f"{server.url}/r/{room}?watch")
        code, addr = take_from_the_pile(page)
        card = page.locator(f".seat-me .card[data-addr='{addr}']")
        # Face up, as a card on the pile: never a remembered one, with or without the aid.
        expect(card).to_have_attribute("data-face", code)
        expect(card).to_have_class(OPEN)
        expect(card).not_to_have_class(KNOWN)
        # The looks of the opening peek turn back over (no aid) …
        if not aid:
            expect(page.locator(".seat-me .card.revealed")).to_have_count(0)
        # … the card from the pile does not: the view says it lies face up.
        current = state(page)
        if not current["view"]["over"]:
            slot = current["view"]["hands"][current["seat"]][0]
            assert slot["card"] == code and slot.get("face_up") is True
            expect(card).to_have_attribute("data-face", code)
            expect(card).to_have_class(OPEN)
            # With the memory aid, the card peeked at is remembered, and drawn so: unlike it.
            if aid:
                assert page.locator(".seat-me .card.known.face-up").count() >= 1
                expect(page.locator(".seat-me .card.known.open")).to_have_count(0)
            # The spectator sees it face up too.
            seen = watcher.locator(f".card[data-addr='{addr}']")
            expect(seen).to_have_attribute("data-face", code)
            expect(seen).to_have_class(OPEN)
        page.screenshot(path=str(screenshots / f"cabo-face-up-{'aid' if aid else 'no-aid'}.png"))
    finally:
        for ctx in contexts:
            ctx.close()


def test_face_up_only_in_cabo(server: Server, context: BrowserContext) -> None:
    """Elsewhere a card taken from the pile goes face down (no aid: face down after its time)."""
    page = context.new_page()
    page.add_init_script(
        "localStorage.setItem('cardtable:prefs', JSON.stringify({revealSeconds: 0.5}))"
    )
    create_room(page, server.url, "gabo", ["human", "ai:casual"])
    _, addr = take_from_the_pile(page)
    card = page.locator(f".seat-me .card[data-addr='{addr}']")
    expect(card).not_to_have_class(OPEN)
    expect(page.locator(".seat-me .card.face-up")).to_have_count(0)
