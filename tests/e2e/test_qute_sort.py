"""Qute's hand sorted by suit or by rank, as the person chooses (seed 002's "Sort by"): by suit
unless they chose otherwise, remembered across visits, kept as the table changes, and the same
in the replay of the game from their seat."""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page, expect

from ..webserver import Server
from .driver import create_room, play_action, play_to_end, wait_actionable

RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "CDHS"


def by_suit(code: str) -> tuple[int, int]:
    return SUITS.index(code[-1]), RANKS.index(code[:-1])


def by_rank(code: str) -> tuple[int, int]:
    return RANKS.index(code[:-1]), SUITS.index(code[-1])


def hand(page: Page) -> list[str]:
    """The own hand's cards, left to right as drawn."""
    codes: list[str] = page.eval_on_selector_all(
        ".seat-me .hand-fan .card", "nodes => nodes.map(n => n.dataset.card)"
    )
    assert codes and all(codes), codes
    return codes


def assert_sorted(page: Page, key: str) -> None:
    """The hand is in the order ``key`` ("suit" or "rank") gives, and the choice shows so."""
    codes = hand(page)
    assert codes == sorted(codes, key=by_suit if key == "suit" else by_rank), (key, codes)
    expect(page.locator(f"[data-ui=qute-sort] input[value={key}]")).to_be_checked()


def test_the_hand_sorted_by_suit_or_rank_and_remembered(
    server: Server, context: BrowserContext
) -> None:
    page = context.new_page()
    room = create_room(page, server.url, "qute", ["human", "ai:casual"])
    wait_actionable(page)
    # By suit unless the person chose otherwise.
    assert_sorted(page, "suit")
    # By rank: at once, and kept in the preferences.
    page.click("[data-ui=qute-sort] label[for=qute-sort-rank]")
    assert_sorted(page, "rank")
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('cardtable:prefs')).quteSort")
    assert stored == "rank"
    # A new state of the table is drawn in the same order.
    current = wait_actionable(page)
    legal = current["view"]["legal"]
    plays = [a for a in legal if a.startswith("play ")]
    play_action(page, plays[0] if plays else "draw")
    current = wait_actionable(page)
    if not current["view"]["over"]:
        assert_sorted(page, "rank")
    # Remembered on the next visit; and back to suits.
    page.goto(f"{server.url}/r/{room}")
    current = wait_actionable(page)
    if not current["view"]["over"]:
        assert_sorted(page, "rank")
        page.click("[data-ui=qute-sort] label[for=qute-sort-suit]")
        assert_sorted(page, "suit")
        page.click("[data-ui=qute-sort] label[for=qute-sort-rank]")
    # The replay from the person's seat shows the hand as they sort it.
    play_to_end(page)
    page.goto(f"{server.url}/r/{room}/replay/1")
    page.wait_for_function(
        """() => document.body.dataset.replayView === 'seat'
            && !document.querySelector('.replay-loading')"""
    )
    assert_sorted(page, "rank")
    page.click("[data-ui=qute-sort] label[for=qute-sort-suit]")
    assert_sorted(page, "suit")
    page.click("[data-ui=next]")
    page.wait_for_function("() => document.body.dataset.step === '1'")
    assert_sorted(page, "suit")
