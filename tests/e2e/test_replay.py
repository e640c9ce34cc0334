"""Replays worth watching, in the browser: a finished game seen from your own seat (your peeks
face up) or as a spectator saw it, one step at a time or playing at a speed kept across visits,
with captions in words and the results at the end of the round."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from ..webserver import Server
from .driver import create_room, play_to_end

STEP = "() => Number(document.body.dataset.step)"
FACE_UP = re.compile(r"\bface-up\b")
FACE_DOWN = re.compile(r"\bface-down\b")


def seat_steps(server: Server, room: str, token: str) -> list[dict[str, Any]]:
    """Every step of the replay of game 1 as seat 0 saw it (asked with its token)."""
    steps: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        req = urllib.request.Request(
            f"{server.url}/api/rooms/{room}/games/1?seat=0&start={start}",
            headers={"X-Seat-Token": token},
        )
        with urllib.request.urlopen(req, timeout=30) as resp:
            page = json.loads(resp.read())
        steps += page["steps"]
        start = page["next"]
    return steps


def shown(page: Page, step: int, view: str) -> None:
    """Wait until the replay has drawn position ``step`` of ``view`` ("seat" or "spectator")."""
    page.wait_for_function(
        """([step, view]) => document.body.dataset.step === String(step)
            && document.body.dataset.replayView === view
            && !document.querySelector('.replay-loading')""",
        arg=[step, view],
    )


def test_replay_my_view_steps_speed_and_results(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    room = create_room(page, server.url, "cabo", ["human", "ai:random"])  # one round
    final = play_to_end(page)
    result = final["view"]["result"]
    held = page.evaluate("r => JSON.parse(localStorage.getItem('cardtable:seat:' + r))", room)
    assert held["seat"] == 0

    # the first of this seat's initial peeks, and the card it showed that seat
    steps = seat_steps(server, room, held["token"])
    k = next(i for i, s in enumerate(steps) if s["seat"] == 0 and s["action"].startswith("peek"))
    pos = int(steps[k]["action"].split()[1])
    code = steps[k]["view"]["hands"][0][pos]["card"]
    assert code, "the seat's view shows the card it peeked at"
    total = len(steps) + 1  # one round: every move, then its end

    # The replay opens on this browser's seat: "My view".
    page.goto(f"{server.url}/r/{room}/replay/1")
    shown(page, 0, "seat")
    expect(page.locator("[data-ui=view-seat]")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-ui=view-seat]")).to_contain_text("My view")
    expect(page.locator(".replay-caption")).to_contain_text("Start")

    # Next moves exactly one step at a time, up to the peek.
    for step in range(1, k + 2):
        page.click("[data-ui=next]")
        shown(page, step, "seat")
    caption = page.locator(".replay-caption")
    expect(caption).to_contain_text(f"Round 1 · move {k + 1} of {len(steps)}")
    expect(caption).to_contain_text(f"Step {k + 1} of {total}")
    words = page.locator(".replay-words").inner_text()
    assert words.strip() and steps[k]["action"] not in words, words  # words, not notation
    card = page.locator(f".table-host [data-addr='0.{pos}']")
    expect(card).to_have_class(FACE_UP)
    expect(card).to_have_attribute("data-face", code)
    page.screenshot(path=str(screenshots / "replay-my-view.png"), full_page=True)

    # The spectator saw that card face down; back in my view it is face up again.
    page.click("[data-ui=view-spectator]")
    shown(page, k + 1, "spectator")
    expect(page.locator("[data-ui=view-spectator]")).to_have_attribute("aria-pressed", "true")
    expect(card).to_have_class(FACE_DOWN)
    assert page.locator(f".table-host [data-addr='0.{pos}'][data-face]").count() == 0
    page.click("[data-ui=view-seat]")
    shown(page, k + 1, "seat")
    expect(card).to_have_attribute("data-face", code)

    # Back is one step too; so are the arrow keys.
    page.click("[data-ui=prev]")
    shown(page, k, "seat")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    shown(page, k + 1, "seat")
    page.keyboard.press("ArrowLeft")
    shown(page, k, "seat")
    assert page.evaluate(STEP) == k

    # Space plays and pauses (checked by the button's state, not by time).
    play = page.locator("[data-ui=play]")
    page.keyboard.press("Space")
    expect(play).to_have_attribute("aria-label", "pause")
    page.keyboard.press("Space")
    expect(play).to_have_attribute("aria-label", "play")

    # The speed is kept across visits.
    page.select_option("[data-ui=speed]", "2")
    page.reload()
    shown(page, 0, "seat")
    expect(page.locator("[data-ui=speed]")).to_have_value("2")
    page.select_option("[data-ui=speed]", "0.5")
    page.reload()
    shown(page, 0, "seat")
    expect(page.locator("[data-ui=speed]")).to_have_value("0.5")

    # "Next round" goes to the round's end: the results, the hands shown, the winner.
    page.click("[data-ui=next]")
    shown(page, 1, "seat")
    page.click("[data-ui=next-round]")
    shown(page, total, "seat")
    panel = page.locator("[data-ui=round-end]")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text("Game over")
    expect(panel.locator("[data-winners]")).to_have_attribute(
        "data-winners", ",".join(str(w) for w in result["winners"])
    )
    for seat, points in enumerate(result["totals"]):
        expect(panel.locator(f"tr[data-seat='{seat}']")).to_have_attribute(
            "data-total", str(points)
        )
    expect(panel.locator(".revealed-hand")).to_have_count(2)
    expect(page.locator(".replay-caption")).to_contain_text(f"Step {total} of {total}")
    # one step back: the last move, with no results panel
    page.click("[data-ui=prev]")
    shown(page, total - 1, "seat")
    expect(panel).to_have_count(0)
    page.screenshot(path=str(screenshots / "replay-last-move.png"), full_page=True)
