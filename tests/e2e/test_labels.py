"""Moves are labelled with who chose them (issue 24, item 4, in the browser).

Ann and Bob play kaboo on a server whose turns last two seconds. Ann lets her time run out:
the clock plays for her, then an AI stands in. Both tables tell those moves as chosen by the
clock ("Time ran out for Ann: …") or the stand-in ("Casual AI for Ann: …") in the log and the
captions — Ann's own page too, never as "You" — and a refreshed page tells them the same way.
The end banner says how many of a seat's moves others played."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from ..webserver import Server, http, running_server
from .driver import (
    CALLS,
    choose_action,
    play_action,
    play_unless_moved_on,
    state,
    wait_actionable,
    wait_version,
)

LABEL_ANN = re.compile(r"^(Time ran out for Ann|Casual AI for Ann): ", re.MULTILINE)
LABEL_YOU = re.compile(r"^(Time ran out for you|Casual AI for you): ")
DEALT = re.compile(r"^(Ann peeked at their|You peeked at your) card [23]$")
"""The deal's first sight of the bottom row: nobody chose it."""


@pytest.fixture(scope="module")
def quick_clock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose turns last two seconds (AI seats move at once)."""
    workdir: Path = tmp_path_factory.mktemp("labels-server")
    with running_server(workdir, ai_delay=0.0, extra_args=["--turn-time", "2"]) as srv:
        yield srv


def seat_page(browser: Browser, url: str, room: str, seat: int, token: str) -> Page:
    """A page of its own browser profile holding ``seat`` of ``room``."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, reduced_motion="reduce")
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    page.goto(url + "/")
    page.evaluate(
        "([r, s, t]) => localStorage.setItem('cardtable:seat:' + r, "
        "JSON.stringify({ seat: s, token: t }))",
        [room, seat, token],
    )
    page.goto(f"{url}/r/{room}")
    page.wait_for_function("() => window.cardtable && window.cardtable.state()?.view")
    return page


def lines(page: Page) -> list[str]:
    """The move log's lines."""
    return page.locator("[data-ui=log] li").all_inner_texts()


def test_moves_chosen_by_the_clock_or_a_stand_in_are_labelled(
    quick_clock: Server, browser: Browser, screenshots: Path
) -> None:
    status, made = http(
        "POST",
        f"{quick_clock.url}/api/rooms",
        {"game": "kaboo", "seats": [{"type": "human"}, {"type": "human"}], "name": "Ann"},
    )
    assert status == 201, made
    room = made["room"]
    status, joined = http("POST", f"{quick_clock.url}/api/rooms/{room}/join", {"name": "Bob"})
    assert status in (200, 201), joined
    ann = seat_page(browser, quick_clock.url, room, 0, made["token"])
    bob = seat_page(browser, quick_clock.url, room, 1, joined["token"])
    try:
        # Bob plays his turns at once; Ann does nothing until an AI stands in for her.
        moves = 0
        while not state(bob)["seats"][0]["stand_in"] or moves < 2:
            current = wait_actionable(bob, timeout=30_000)
            assert not current["view"]["over"]
            action = choose_action(current["view"], moves)
            if action in CALLS:
                action = next(a for a in current["view"]["legal"] if a not in CALLS)
            play_action(bob, action)
            moves += 1
            assert moves < 40, "no AI stood in for Ann"
        # Bob's table tells Ann's moves as the clock's, then the stand-in's.
        expect(
            bob.locator("[data-ui=log] li", has_text="Time ran out for Ann: ")
        ).not_to_have_count(0)
        expect(bob.locator("[data-ui=log] li", has_text="Casual AI for Ann: ")).not_to_have_count(
            0, timeout=20_000
        )
        for line in lines(bob):
            assert DEALT.match(line) or not line.startswith("Ann "), line  # never Ann's choice
        caption = bob.locator(".seat[data-seat='0'] [data-ui=caption]")
        expect(caption).to_have_text(LABEL_ANN)
        bob.screenshot(path=str(screenshots / "labels-bob.png"))
        # Ann's table tells them as chosen for her, never "You …".
        ann_lines = lines(ann)
        labelled = [line for line in ann_lines if LABEL_YOU.match(line)]
        assert labelled, ann_lines
        assert not [
            line for line in ann_lines if line.startswith("You ") and not DEALT.match(line)
        ], ann_lines
        expect(ann.locator('[data-code="away"]')).to_contain_text("computer player")
        ann.screenshot(path=str(screenshots / "labels-ann-away.png"))
        # A refresh tells the same moves the same way (the join's log keeps who chose them).
        before = lines(ann)
        version = state(ann)["version"]
        ann.reload()
        wait_version(ann, version)
        assert lines(ann)[: len(before)] == before
        # Coming back (the join of the refresh says so) she plays on herself: her own moves
        # are "You …" again.
        expect(ann.locator('[data-code="away"]')).to_have_count(0)
        players = {0: ann, 1: bob}
        count = {0: 0, 1: 0}
        while True:
            view = state(bob)["view"]
            if view["over"]:
                break
            seat = view["actors"][0]
            page = players[seat]
            current = wait_actionable(page)
            if current["view"]["over"]:
                break
            legal = current["view"]["legal"]
            action = "knock" if "knock" in legal else choose_action(current["view"], count[seat])
            # turns last two seconds: on a busy machine the clock may play one first
            play_unless_moved_on(page, current, action)
            count[seat] += 1
        wait_actionable(ann)
        wait_actionable(bob)
        assert any(line.startswith("You ") and not DEALT.match(line) for line in lines(ann))
        # The end banner: who played how many of Ann's moves, on both tables.
        played = state(bob)["seats"][0]["played_for"]
        assert played["clock"] >= 1 and played["stand_in"] >= 1, played
        row = bob.locator("[data-ui=end-panel] tr[data-seat='0'] [data-ui=played-for]")
        expect(row).to_contain_text(f"played by an AI for {played['stand_in']} move")
        expect(ann.locator("[data-ui=you-played-for]")).to_contain_text(
            f"An AI played {played['stand_in']} of your moves"
        )
        # (Bob may have been too slow once on a busy machine: his row says so, or nothing)
        bob_played = state(bob)["seats"][1]["played_for"]
        bob_row = bob.locator("[data-ui=end-panel] tr[data-seat='1'] [data-ui=played-for]")
        if bob_played["clock"] or bob_played["stand_in"]:
            expect(bob_row).to_contain_text("time ran out" if bob_played["clock"] else "an AI")
        else:
            expect(bob_row).to_have_count(0)
        ann.screenshot(path=str(screenshots / "labels-end-ann.png"), full_page=True)
        # The replay tells the same moves the same way, step by step.
        bob.goto(f"{quick_clock.url}/r/{room}/replay/1")
        said: set[str] = set()
        for _ in range(30):
            said.update(LABEL_ANN.findall(bob.locator("main").inner_text()))
            if len(said) == 2:
                break
            bob.click("[data-ui=next]")
        assert said == {"Time ran out for Ann", "Casual AI for Ann"}, said
    finally:
        ann.context.close()
        bob.context.close()
