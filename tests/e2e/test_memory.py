"""Memory aid and match length in the browser: a card seen without memory aid shows for the
reveal time and turns back over; what reaches a memory-less seat over its WebSocket; the badge
of a seat with the memory aid; a match created from the lobby."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, expect

from cardtable.agents import LEVELS
from cardtable.ratings import level_ratings

from ..web.play import replay_expected, stored_game, unsaid
from ..webserver import Server, http
from .driver import (
    choose_action,
    create_room,
    play_action,
    play_to_end,
    state,
    wait_actionable,
)

FACE_UP = re.compile(r"\bface-up\b")
FACE_DOWN = re.compile(r"\bface-down\b")

# Event fields with cards that lie face up (on the pile, or shown to everybody) once the event
# is over, and the events that show a seat a card privately.
PUBLIC = {
    "discard": ("card",),
    "replace": ("out",),
    "claim": ("out", "shown"),
    "drop": ("card",),
    "snap": ("card",),
    "snap_open": ("card",),
    "round_start": ("discard",),
}
PRIVATE = {"peek": ("card",), "spy": ("card",), "look": ("cards",), "draw": ("card",)}
CODE_FIELDS = {"card", "cards", "out", "shown", "discard"}


def hand_codes(view: dict[str, Any]) -> list[str]:
    """Every card code a view gives for a card in a hand."""
    return [slot["card"] for hand in view["hands"] for slot in hand if slot and slot["card"]]


def record_frames(page: Page) -> list[list[dict[str, Any]]]:
    """Keep every frame the page's WebSockets receive, one list per socket."""
    sockets: list[list[dict[str, Any]]] = []

    def on_socket(ws: WebSocket) -> None:
        frames: list[dict[str, Any]] = []
        sockets.append(frames)
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return sockets


def set_reveal_seconds(page: Page, seconds: float) -> None:
    """Set the reveal time through the table page's settings."""
    page.click("[data-ui=settings]")
    page.fill("input[name=reveal-seconds]", str(seconds))
    page.press("input[name=reveal-seconds]", "Enter")
    page.keyboard.press("Escape")
    expect(page.locator(".settings-modal")).to_have_count(0)


def test_a_peek_shows_the_card_then_turns_it_over(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    create_room(page, server.url, "cabo", ["human", "ai:casual"])
    page.wait_for_function("() => document.body.dataset.phase === 'peek'")
    expect(page.locator("[data-ui=memory-aid]")).to_have_count(0)  # no switch any more
    set_reveal_seconds(page, 1.5)
    page.click("[data-ui=settings]")
    expect(page.locator("input[name=reveal-seconds]")).to_have_value("1.5")
    expect(page.locator(".settings-modal")).to_contain_text("no memory aid")
    page.keyboard.press("Escape")

    play_action(page, "peek 0")
    own = page.locator(".card[data-addr='0.0']")
    expect(own).to_have_class(FACE_UP)
    expect(own).to_have_class(re.compile(r"\brevealed\b"))
    code = own.get_attribute("data-face")
    assert code
    expect(page.locator("[data-ui=reveal-hint]")).to_contain_text("face up for 1.5 s")
    page.screenshot(path=str(screenshots / "peek-reveal.png"))
    # The card comes from the event of the moment: the view itself has no code for it.
    assert state(page)["view"]["hands"][0][0]["card"] is None
    # After the reveal time it is face down again.
    expect(own).to_have_class(FACE_DOWN)
    # The move log and the caption by the seat keep that a card was looked at, not which.
    line = page.locator(".log-list li", has_text="peeked at your card 0")
    expect(line).to_have_text("You peeked at your card 0")
    caption = page.locator(".seat[data-seat='0'] [data-ui=caption]")
    expect(caption).to_have_text("You peeked at your card 0")

    # A second peek, with a long reveal time: clicking the shown card turns it over at once.
    set_reveal_seconds(page, 30)
    play_action(page, "peek 1")
    second = page.locator(".card[data-addr='0.1']")
    expect(second).to_have_class(FACE_UP)
    second.click()
    expect(second).to_have_class(FACE_DOWN)

    # A reload gives back the table without the cards: nothing face up in the hands.
    page.reload()
    wait_actionable(page)
    assert page.locator(".table .hand .card.face-up").count() == 0
    assert hand_codes(state(page)["view"]) == []


def test_the_frames_of_a_seat_without_memory_aid(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    """A whole game of cabo against an AI through the page: no state frame of the seat holds a
    code of a face-down card in its view while the game is on, and every code in its events is
    one the seat learns at that moment (its own peek, spy, look or draw) or a card face up for
    all; frame by frame it is what the engine, replayed from the store, shows a seat without
    memory."""
    page = context.new_page()
    sockets = record_frames(page)
    room = create_room(page, server.url, "cabo", ["human", "ai:casual"])
    final = play_to_end(page)
    assert final["view"]["over"]
    page.screenshot(path=str(screenshots / "cabo-no-memory-aid-end.png"), full_page=True)

    frames = [f for socket in sockets for f in socket if f.get("type") == "state"]
    assert frames and all(f["seat"] == 0 for f in frames)
    learned = 0
    taken: set[str] = set()  # the cards taken from the discard pile so far (named to all)

    def allowed(e: dict[str, Any]) -> set[str]:
        """The code fields of ``e`` every seat may read: a card going into a hand only when
        it was taken, face up, from the discard pile."""
        public = set(PUBLIC.get(e["type"], ()))
        if e["type"] == "draw" and e.get("from") == "discard":
            public.add("card")
            taken.add(e["card"])
        if e["type"] in ("replace", "claim") and e.get("card") in taken:
            public.add("card")
        return public

    for frame in frames:
        view = frame["view"]
        if view is None:
            continue
        if not view["over"]:
            # no code of a face-down card (cabo's face-up cards show theirs to everyone)
            face_down = [s["card"] for h in view["hands"] for s in h if s and not s.get("face_up")]
            assert not any(face_down), view["hands"]
            # the view's own list of recent events keeps only the cards shown to everyone
            for e in view["events"]:
                assert CODE_FIELDS & set(e) <= allowed(e), e
        for e in frame["events"]:
            private = [f for f in PRIVATE.get(e["type"], ()) if f in e]
            if private:
                public_draw = e["type"] == "draw" and e.get("from") == "discard"
                assert e["seat"] == 0 or public_draw, e
                learned += e["type"] != "draw"
            else:
                assert CODE_FIELDS & set(e) <= allowed(e), e
    assert learned >= 2  # the two cards of the initial peek, at least

    # The exact frames, against the engine replayed from the store.
    # (in a thread of its own: Playwright's sync API keeps an event loop running in this one)
    with ThreadPoolExecutor(1) as pool:
        seed, base, actions = pool.submit(stored_game, server.db_url, room).result()
    _, summary = http("GET", f"{server.url}/api/rooms/{room}")
    assert [s["memory_aid"] for s in summary["seats"]] == [False, False]
    moments = replay_expected("cabo", 2, summary["options"], seed, actions, [False, False])
    for socket in sockets:
        states = [f for f in socket if f.get("type") == "state" and f["view"] is not None]
        for i, frame in enumerate(states):
            k = frame["version"] - base
            assert frame["view"] == moments[k].view(0), k
            if i == 0:  # the join's answer: the deal's events at most
                assert all(e in moments[0].events_for(0) for e in unsaid(frame["events"]))
            elif frame["events"]:
                assert unsaid(frame["events"]) == moments[k].events_for(0), k


def test_the_memory_aid_badge(
    server: Server, browser: Browser, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    create_room(page, server.url, "gabo", ["human+aid", "ai:casual", "ai:casual"], name="Ann")
    page.wait_for_function("() => document.body.dataset.phase === 'peek'")
    mine = page.locator(".seat[data-seat='0'] [data-ui=aid-badge]")
    expect(mine).to_be_visible()
    expect(mine).to_have_attribute("title", re.compile("Memory aid: this player sees every card"))
    expect(page.locator(".seat[data-seat='1'] [data-ui=aid-badge]")).to_have_count(0)
    expect(page.locator(".seat[data-seat='2'] [data-ui=aid-badge]")).to_have_count(0)
    # With the memory aid, a card seen stays face up: it is in the view, not a passing reveal.
    play_action(page, "peek 0")
    play_action(page, "peek 1")
    current = wait_actionable(page)
    assert current["seats"][0]["memory_aid"] is True
    for addr in ("0.0", "0.1"):
        card = page.locator(f".card[data-addr='{addr}']")
        expect(card).to_have_class(FACE_UP)
        expect(card).not_to_have_class(re.compile(r"\brevealed\b"))
    play_action(page, "draw deck")
    wait_actionable(page)
    assert state(page)["view"]["hands"][0][0]["card"] is not None
    expect(page.locator(".card[data-addr='0.0']")).to_have_class(FACE_UP)
    page.screenshot(path=str(screenshots / "gabo-memory-aid-badge.png"))

    # A spectator (another browser profile) sees the badge too; a table without the aid shows
    # none.
    elsewhere = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        watcher = elsewhere.new_page()
        watcher.goto(page.url + "?watch")
        expect(watcher.locator(".seat[data-seat='0'] [data-ui=aid-badge]")).to_be_visible()
        assert state(watcher)["seat"] is None
    finally:
        elsewhere.close()
    other = context.new_page()
    create_room(other, server.url, "gabo", ["human", "ai:casual", "ai:casual"])
    other.wait_for_function("() => document.body.dataset.phase === 'peek'")
    expect(other.locator("[data-ui=aid-badge]")).to_have_count(0)


def test_a_kaboo_match_from_the_lobby(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("select[name=game]", "kaboo")
    # Kaboo is one round unless told otherwise: the box is ticked and the target waits.
    expect(page.locator("input[name=single]")).to_be_checked()
    expect(page.locator("input[name=target]")).to_be_disabled()
    page.set_checked("input[name=single]", False)
    target = page.locator("input[name=target]")
    expect(target).to_be_enabled()
    expect(target).to_have_value("100")
    # A person's seat offers the memory aid; an AI seat does not, but says how its level plays.
    expect(page.locator("input[name=aid-0]")).to_be_visible()
    expect(page.locator("input[name=aid-1]")).to_be_hidden()
    expect(page.locator("#f-level-0")).to_be_hidden()
    expect(page.locator("#f-level-1")).to_be_visible()
    # … and its rating in this game, on the scale people are rated on (none if not rated)
    casual, expert = level_ratings("kaboo")["casual"], level_ratings("kaboo")["expert"]
    low, high = casual.interval
    expect(page.locator("#f-level-1")).to_have_text(
        f"{LEVELS['casual']} Rating in this game: about {casual.points} ({low}–{high}); "
        "a new player starts at 1500."
    )
    page.select_option("select[name=seat-1]", "ai:expert")
    expect(page.locator("#f-level-1")).to_contain_text(LEVELS["expert"])
    expect(page.locator("#f-level-1")).to_contain_text(f"about {expert.points} (")
    page.select_option("select[name=seat-1]", "ai:master")
    expect(page.locator("#f-level-1")).to_have_text(LEVELS["master"])
    page.select_option("select[name=seat-1]", "ai:expert")
    # Out of bounds: the form says so and nothing is created.
    target.fill("1001")
    page.click("[data-ui=create]")
    expect(page.locator("input[name=target]:invalid")).to_have_count(1)
    assert page.url.rstrip("/") == server.url
    page.screenshot(path=str(screenshots / "lobby-match-options.png"), full_page=True)

    def before(p: Page) -> None:
        p.screenshot(path=str(screenshots / "lobby-new-table.png"), full_page=True)

    room = create_room(
        page,
        server.url,
        "kaboo",
        ["human", "ai:casual"],
        single=False,
        target=40,
        before_create=before,
    )
    expect(page.locator(".room-bar [data-ui=room-format]")).to_have_text("Match to 40")
    _, summary = http("GET", f"{server.url}/api/rooms/{room}")
    assert summary["options"]["target"] == 40
    current = wait_actionable(page)
    assert current["view"]["target"] == 40
    page.screenshot(path=str(screenshots / "kaboo-match-table.png"))
    # The lobby lists the room with its length; a one-round room says so.
    single = context.new_page()
    create_room(single, server.url, "cabo", ["human", "ai:casual"], single=True)
    expect(single.locator(".room-bar [data-ui=room-format]")).to_have_text("One round")
    page.goto(server.url + "/")
    expect(page.locator(f"li[data-room='{room}'] [data-ui=room-format]")).to_have_text(
        "Match to 40"
    )
    page.screenshot(path=str(screenshots / "lobby-rooms.png"), full_page=True)

    # Round 2 of the match deals again: the new bottom row is shown for its reveal time, which
    # the round's results above the table do not lengthen (tests/e2e/test_fairness.py times it).
    page.goto(f"{server.url}/r/{room}")
    page.evaluate(
        "() => localStorage.setItem('cardtable:prefs', JSON.stringify({revealSeconds: 0.5}))"
    )
    moves = 0
    while True:
        current = wait_actionable(page)
        if current["view"]["round"] > 1 or current["view"]["over"]:
            break
        play_action(page, choose_action(current["view"], moves))
        moves += 1
    assert not current["view"]["over"]  # four cards cannot pass 40: a second round it is
    results = page.locator("[data-ui=round-panel]")
    expect(results).to_be_visible()
    expect(page.locator(".table .card.revealed")).to_have_count(0)  # turned over meanwhile
    expect(results).to_be_visible()
    page.screenshot(path=str(screenshots / "kaboo-round-2-under-results.png"))
    page.click("[data-ui=round-dismiss]")
    expect(results).to_have_count(0)


def test_kaboo_shows_the_bottom_row_once_at_the_start(
    server: Server, context: BrowserContext
) -> None:
    """The deal shows the seat its bottom row (positions 2 and 3) face up for the reveal time;
    the view never holds them, and a reload does not show them again."""
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate(
        "() => localStorage.setItem('cardtable:prefs', JSON.stringify({revealSeconds: 30}))"
    )
    sockets = record_frames(page)
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    wait_actionable(page)
    joined = next(f for f in sockets[0] if f.get("type") == "state")
    dealt = {
        e["at"]: e["card"]
        for e in joined["events"]
        if e["type"] == "peek" and e["seat"] == 0 and "card" in e
    }
    # Both, unless the AI played first and swapped one of them away before the page joined.
    assert set(dealt) <= {"0.2", "0.3"} and dealt
    shown = page.locator(".seat[data-seat='0'] .card.face-up.revealed")
    expect(shown).to_have_count(len(dealt))
    faces = shown.evaluate_all(
        "ns => Object.fromEntries(ns.map(n => [n.dataset.addr, n.dataset.face]))"
    )
    assert faces == dealt
    assert hand_codes(state(page)["view"]) == []
    page.reload()
    wait_actionable(page)
    assert page.locator(".table .hand .card.face-up").count() == 0
