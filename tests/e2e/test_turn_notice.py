"""The person's turn is noticed: the tab's title says when it is their turn or when someone else
called the end, and goes back when neither holds; a browser notification (asked for in Settings,
never on page load) says the same while the tab is hidden; a short sound when sound is on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server, http
from .driver import play_action, state, wait_actionable

APP = " — cardtable"

# Every title the page sets, in order (recorded as it is set, so a title that lasts one state is
# seen too).
RECORD_TITLES = """
window.__titles = [];
const titleProp = Object.getOwnPropertyDescriptor(Document.prototype, 'title');
Object.defineProperty(Document.prototype, 'title', {
    configurable: true,
    get() { return titleProp.get.call(this); },
    set(t) {
        titleProp.set.call(this, t);
        if (window.__titles.at(-1) !== t) window.__titles.push(t);
    },
});
"""

# Notifications observed, not shown: the real permission (granted to the context) is read
# through, and each notification made is recorded with what it says.
STUB_NOTIFICATION = """
window.__notes = [];
window.__asked = 0;
const Real = window.Notification;
window.Notification = class {
    static get permission() { return Real.permission; }
    static requestPermission() { window.__asked += 1; return Real.requestPermission(); }
    constructor(title, options) { window.__notes.push({title, body: options && options.body}); }
    close() {}
};
"""

# Sound observed: each tone the page plays is recorded by its pitch.
STUB_AUDIO = """
window.__tones = [];
window.AudioContext = class {
    constructor() { this.currentTime = 0; this.state = 'running'; this.destination = {}; }
    resume() {}
    createGain() {
        return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect: (d) => d};
    }
    createOscillator() {
        const o = {type: '', frequency: {value: 0}, connect: (g) => g, stop() {},
                   start: () => window.__tones.push(o.frequency.value)};
        return o;
    }
};
"""

TURN_TONES = [660, 880]
CALL_TONES = [784, 784, 988]


def seat_context(
    browser: Browser, room: str, seat: dict[str, Any], *scripts: str, sound: bool = False
) -> BrowserContext:
    """A browser profile holding ``seat`` of ``room``, with the given scripts run before the
    page's own."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, reduced_motion="reduce")
    ctx.set_default_timeout(15_000)
    held = json.dumps({"seat": seat["seat"], "token": seat["token"]})
    prefs = json.dumps({"sound": sound, "revealSeconds": 0.5})
    ctx.add_init_script(
        f"localStorage.setItem({json.dumps('cardtable:seat:' + room)}, {json.dumps(held)});"
        f"localStorage.setItem('cardtable:prefs', {json.dumps(prefs)});"
    )
    for script in (RECORD_TITLES, *scripts):
        ctx.add_init_script(script)
    return ctx


def new_room(server: Server, game: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A single round of ``game`` created through the API; its answer (room, seat 0's token)."""
    status, room = http(
        "POST",
        server.url + "/api/rooms",
        {
            "game": game,
            "players": len(seats),
            "seats": seats,
            "name": "Ann",
            "options": {"target": None},
        },
    )
    assert status in (200, 201), room
    return room


def titles(page: Page) -> list[str]:
    found: list[str] = page.evaluate("() => window.__titles")
    return found


def peek_all(page: Page) -> None:
    """Play the opening peeks of this seat (then others may still be peeking)."""
    while True:
        page.wait_for_function(
            """() => { const s = window.cardtable && window.cardtable.state();
                return s && s.view && document.body.dataset.busy !== '1' && (s.view.phase !== 'peek'
                    || s.view.legal.some(a => a.startsWith('peek '))
                    || (s.view.peeks_left || [])[s.seat] === 0); }"""
        )
        peeks = [a for a in state(page)["view"]["legal"] if a.startswith("peek ")]
        if not peeks:
            return
        play_action(page, peeks[0])


@pytest.fixture
def two_people(browser: Browser, server: Server) -> Iterator[tuple[Page, Page]]:
    """Ann and Bob at a table of cabo: Ann's page plain, Bob's with sound on (observed)."""
    room = new_room(server, "cabo", [{"type": "human"}, {"type": "human"}])
    status, bob = http("POST", f"{server.url}/api/rooms/{room['room']}/join", {"name": "Bob"})
    assert status == 200, bob
    contexts = [
        seat_context(browser, room["room"], room),
        seat_context(browser, room["room"], bob, STUB_AUDIO, sound=True),
    ]
    try:
        pages = [ctx.new_page() for ctx in contexts]
        for page in pages:
            page.goto(f"{server.url}/r/{room['room']}")
        yield pages[0], pages[1]
    finally:
        for ctx in contexts:
            ctx.close()


def test_the_title_says_your_turn_then_goes_back(browser: Browser, server: Server) -> None:
    room = new_room(server, "gabo", [{"type": "human"}, {"type": "ai", "level": "casual"}])
    ctx = seat_context(browser, room["room"], room)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/r/{room['room']}")
        base = f"Gabo · room {room['room']}{APP}"
        turn = f"▶ Your turn · Gabo{APP}"
        # The opening peek is the person's turn.
        page.wait_for_function("t => document.title === t", arg=turn)
        peek_all(page)
        # Play until the AI has had a turn and it is the person's again.
        for _ in range(6):
            current = wait_actionable(page)
            if current["view"]["over"]:
                break
            legal = current["view"]["legal"]
            move = (
                "draw deck"
                if "draw deck" in legal
                else ("discard" if "discard" in legal else "pass")
            )
            play_action(page, move if move in legal else legal[0])
        seen = titles(page)
        # The title said "your turn" and went back to the room's plain title, more than once.
        assert seen.count(turn) >= 2, seen
        assert seen.count(base) >= 2, seen
        assert all(t in (turn, base) or t.startswith("cardtable") for t in seen), seen
    finally:
        ctx.close()


def test_a_call_by_someone_else_is_in_the_title_and_sounds(
    two_people: tuple[Page, Page], server: Server
) -> None:
    ann, bob = two_people
    for page in (ann, bob):
        page.wait_for_function("() => document.body.dataset.status === 'playing'")
        peek_all(page)
    # Ann (seat 0) opens the play and calls at once.
    current = wait_actionable(ann)
    assert "cabo" in current["view"]["legal"], current["view"]["legal"]
    tones_before = len(bob.evaluate("() => window.__tones"))
    play_action(ann, "cabo")
    # Bob's title: his last turn, and the call.
    expected = f"▶ Your turn · Ann called cabo! · Cabo{APP}"
    bob.wait_for_function("t => document.title === t", arg=expected)
    # Ann's own call is not news to her: her title is the room's plain one.
    assert "called" not in ann.title() and not ann.title().startswith("▶"), ann.title()
    # Bob heard the call's cue.
    tones = bob.evaluate("() => window.__tones")[tones_before:]
    assert tones[: len(CALL_TONES)] == CALL_TONES, tones
    # Bob plays his last turn: the round ends and his title no longer says "your turn".
    play_action(bob, "draw deck")
    current = wait_actionable(bob)
    play_action(bob, next(a for a in current["view"]["legal"] if a.startswith("replace ")))
    bob.wait_for_function("() => window.cardtable.state().view.over")
    assert not bob.title().startswith("▶"), bob.title()
    assert "called" not in bob.title()


def test_a_notification_of_the_turn_while_the_tab_is_hidden(
    browser: Browser, server: Server
) -> None:
    room = new_room(server, "cabo", [{"type": "human"}, {"type": "ai", "level": "casual"}])
    ctx = seat_context(browser, room["room"], room, STUB_NOTIFICATION, STUB_AUDIO, sound=True)
    ctx.grant_permissions(["notifications"], origin=server.url)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/r/{room['room']}")
        wait_actionable(page)
        # Nothing is asked on page load, and nothing is notified while the tab is in view.
        assert page.evaluate("() => window.__asked") == 0
        # The turn's cue sounded when the person's first turn (the peek) came.
        assert page.evaluate("() => window.__tones")[:2] == TURN_TONES
        # The person allows notifications in Settings.
        page.click("[data-ui=settings]")
        page.check("input[name=notify]")
        expect(page.locator("[data-ui=notify-note]")).to_contain_text("notification comes")
        page.keyboard.press("Escape")
        stored = page.evaluate("() => JSON.parse(localStorage.getItem('cardtable:prefs')).notify")
        assert stored is True
        peek_all(page)
        assert page.evaluate("() => window.__notes") == []
        # The person looks at another tab; the AI plays; the person's turn is notified.
        page.evaluate(
            """() => {
                Object.defineProperty(document, 'visibilityState',
                                      {configurable: true, get: () => 'hidden'});
                document.dispatchEvent(new Event('visibilitychange'));
            }"""
        )
        current = wait_actionable(page)
        if "draw deck" in current["view"]["legal"]:  # seat 0 plays first: move, then wait
            play_action(page, "draw deck")
            current = wait_actionable(page)
            play_action(page, "replace 0")
        page.wait_for_function("() => window.__notes.length > 0")
        notes = page.evaluate("() => window.__notes")
        assert notes[0]["title"] == "Your turn", notes
        assert notes[0]["body"] == f"Cabo · room {room['room']}", notes
    finally:
        ctx.close()
