"""No round lost to a misclick: a call asks for confirmation, a replace takes one click, and a
move that crossed a change of the table is sent again (or explained) without jargon."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect

from ..webserver import Server
from .driver import CALLS, choose_action, create_room, play_action, state, wait_actionable

STALE_TEXT = "The table changed before your move arrived — look again."
CONFIRM = "[data-ui=call-confirm]"


def play_until(page: Page, wanted: Callable[[list[str]], bool], *, limit: int = 80) -> dict:
    """Play sensible moves (never a call) until this seat's legal actions satisfy ``wanted``;
    returns that state."""
    for moves in range(limit):
        current = wait_actionable(page)
        view = current["view"]
        assert not view["over"], "the game ended first"
        if wanted(view["legal"]):
            return current
        action = choose_action(view, moves % 8)
        if action in CALLS:
            action = next(a for a in view["legal"] if a not in CALLS)
        play_action(page, action)
    raise AssertionError("never reached the wanted actions")


def call_of(legal: list[str]) -> str | None:
    return next((a for a in legal if a in CALLS), None)


def version(page: Page) -> int:
    return int(state(page)["version"])


def test_call_needs_confirming(server: Server, context: BrowserContext, screenshots: Path) -> None:
    page = context.new_page()
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    current = play_until(page, lambda legal: call_of(legal) is not None)
    call = call_of(current["view"]["legal"])
    assert call is not None
    v = current["version"]
    button = page.locator(f"[data-action='{call}']")

    # One click only asks; Cancel (which has the focus) takes it back.
    button.click()
    expect(page.locator(CONFIRM)).to_be_visible()
    expect(page.locator("[data-ui=call-cancel]")).to_be_focused()
    expect(page.locator("[data-ui=call-yes]")).to_contain_text("Yes, call")
    page.screenshot(path=str(screenshots / "call-confirm.png"))
    page.click("[data-ui=call-cancel]")
    expect(page.locator(CONFIRM)).to_have_count(0)
    expect(button).to_be_visible()

    # Escape takes it back too.
    button.click()
    expect(page.locator(CONFIRM)).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator(CONFIRM)).to_have_count(0)

    # Unanswered, it takes itself back after about four seconds.
    page.keyboard.press("k")
    expect(page.locator(CONFIRM)).to_be_visible()
    expect(page.locator(CONFIRM)).to_have_count(0, timeout=6_000)
    assert version(page) == v, "nothing may be sent before the confirmation"
    assert call in state(page)["view"]["legal"]

    # K, then K again: the call is sent.
    page.keyboard.press("k")
    expect(page.locator(CONFIRM)).to_be_visible()
    assert version(page) == v
    page.keyboard.press("k")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)
    events = state(page)["view"]["events"]
    assert any(e.get("type") == "call" for e in events), events[-6:]


def test_call_button_then_yes(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    create_room(page, server.url, "gabo", ["human", "ai:casual"])
    current = play_until(page, lambda legal: call_of(legal) is not None)
    call = call_of(current["view"]["legal"])
    assert call is not None
    clicks = page.evaluate("a => window.cardtable.clicksFor(a)", call)
    assert clicks == [f'[data-action="{call}"]', '[data-ui="call-yes"]']
    v = current["version"]
    page.click(clicks[0])
    page.wait_for_timeout(500)
    assert version(page) == v
    page.click(clicks[1])
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)
    assert call not in state(page)["view"]["legal"]


def test_replace_takes_one_click(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    # Cabo: a card may also be claimed together with equal ones, yet one click replaces it.
    create_room(page, server.url, "cabo", ["human", "ai:casual"])
    current = play_until(page, lambda legal: "replace 0" in legal)
    legal = current["view"]["legal"]
    seat = current["seat"]
    claims = [a for a in legal if a.startswith("replace ") and len(a.split()) > 2]
    if claims:
        clicks = page.evaluate("a => window.cardtable.clicksFor(a)", claims[0])
        assert clicks[0] == '[data-ui="several"]', clicks
    expect(page.locator(".status-line")).to_contain_text("replace")
    v = current["version"]
    assert page.evaluate("() => window.cardtable.clicksFor('replace 0')") == [
        f'.card[data-addr="{seat}.0"]'
    ]
    page.click(f'.card[data-addr="{seat}.0"]')
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)
    events = state(page)["view"]["events"]
    assert any(e.get("type") == "replace" and e.get("seat") == seat for e in events), events[-4:]


def test_stale_move_is_sent_again_when_still_legal(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    current = play_until(page, lambda legal: "draw deck" in legal)
    v = current["version"]
    page.evaluate("() => window.cardtable.sendStale('draw deck')")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)
    after = wait_actionable(page)
    assert "draw deck" not in after["view"]["legal"]
    assert any(a.startswith("replace ") for a in after["view"]["legal"])
    expect(page.locator(".toast")).to_have_count(0)
    assert not page.evaluate("() => document.body.dataset.errors")


class HoldErrors:
    """A WebSocket route that can hold back the server's ``error`` frames."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self.route: WebSocketRoute | None = None

    def __call__(self, ws: WebSocketRoute) -> None:
        self.route = ws
        ws.connect_to_server().on_message(self.from_server)

    def from_server(self, message: str | bytes) -> None:
        assert self.route is not None
        text = message if isinstance(message, str) else message.decode()
        if self.holding and json.loads(text).get("type") == "error":
            self.held.append(message)
        else:
            self.route.send(message)

    def release(self) -> None:
        assert self.route is not None
        self.holding = False
        for message in self.held:
            self.route.send(message)
        self.held.clear()


def test_stale_move_no_longer_legal_is_told_plainly(
    server: Server, context: BrowserContext
) -> None:
    """The stale refusal arrives after another tab of the seat made a move that rules the
    action out: the page says so in plain words, never the server's versions."""
    first = context.new_page()
    room = create_room(first, server.url, "kaboo", ["human", "ai:casual"])
    play_until(first, lambda legal: "draw deck" in legal)

    hold = HoldErrors()
    page = context.new_page()
    page.route_web_socket("**/ws", hold)
    page.goto(f"{server.url}/r/{room}")
    v = wait_actionable(page)["version"]
    hold.holding = True
    page.evaluate("() => window.cardtable.sendStale('draw deck')")
    page.wait_for_timeout(300)
    assert hold.held, "the server refused the stale move"

    # The other tab draws: the page hears of it, then of its stale move.
    play_action(first, "draw deck")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v)
    hold.release()
    toast = page.locator(".toast[data-code=stale]")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text(STALE_TEXT)
    texts = page.locator(".toast").all_inner_texts()
    assert not any("version" in t for t in texts), texts
    assert "replace 0" in state(page)["view"]["legal"]


_CLAIM = """async ([legal, seat, game]) => {
    const { Picker } = await import('/static/actions.js');
    const p = new Picker();
    p.setLegal(legal, seat, game);
    const out = [p.clicksFor('replace 0'), p.clicksFor('replace 1 2'), p.click('0.3')];
    p.several = true;  // the "Claim several equal cards" button
    out.push(p.click('0.2'), p.complete().map(a => a.text), p.click('0.1'));
    out.push(p.complete().map(a => a.text), p.click('0.1'));
    p.clear();
    out.push(p.click('0.1', true), p.several);  // a Shift-click starts a claim too
    return out;
}"""


def test_claims_still_take_several_clicks(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=game]")
    legal = [
        "replace 0",
        "replace 1",
        "replace 2",
        "replace 3",
        "replace 1 2",
        "replace 1 2 3",
        "discard",
    ]
    out = page.evaluate(_CLAIM, [legal, 0, "cabo"])
    assert out[0] == ['.card[data-addr="0.0"]']
    assert out[1] == [
        '[data-ui="several"]',
        '.card[data-addr="0.1"]',
        '.card[data-addr="0.2"]',
        '[data-action="replace 1 2"]',
    ]
    assert out[2] == {"play": "replace 3"}
    assert out[3] == {"pending": True}
    assert out[4] == ["replace 2"]
    assert out[5] == {"pending": True}
    assert out[6] == ["replace 1 2"]
    assert out[7] == {"play": "replace 1 2"}
    assert out[8] == {"pending": True}
    assert out[9] is True
