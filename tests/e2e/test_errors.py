"""Errors are shown plainly: a bad seat token, an action from a lagging tab, a lost server."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import BrowserContext, WebSocketRoute, expect

from ..webserver import Server, running_server
from .driver import choose_action, create_room, play_action, state, wait_actionable


def test_bad_token_is_reported(server: Server, context: BrowserContext, screenshots: Path) -> None:
    page = context.new_page()
    room = create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    wait_actionable(page)

    # Another browser profile claims seat 0 with a token that holds no seat.
    other = context.browser.new_context(reduced_motion="reduce")  # type: ignore[union-attr]
    try:
        intruder = other.new_page()
        intruder.goto(server.url + "/")
        intruder.evaluate(
            "room => localStorage.setItem(`cardtable:seat:${room}`,"
            " JSON.stringify({seat: 0, token: 'not-a-real-token'}))",
            room,
        )
        intruder.goto(f"{server.url}/r/{room}")
        banner = intruder.locator(".banner[data-code=bad_token]")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("token")
        expect(intruder.locator(".toast-error")).to_contain_text("token")
        intruder.screenshot(path=str(screenshots / "error-bad-token.png"))
        # The banner offers to forget the token; with no free seat the page then watches.
        intruder.click(".banner[data-code=bad_token] button")
        # the button reloads the page: wait for the new page to define window.cardtable too
        intruder.wait_for_function("() => window.cardtable?.state()?.seat === null")
        expect(intruder.locator(".banner[data-code=bad_token]")).to_have_count(0)
    finally:
        other.close()


class Lag:
    """A WebSocket route that can hold back the server's ``state`` frames (a slow network);
    errors and everything else pass at once."""

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
        if self.holding and json.loads(text).get("type") == "state":
            self.held.append(message)
        else:
            self.route.send(message)

    def release(self) -> None:
        assert self.route is not None
        self.holding = False
        for message in self.held:
            self.route.send(message)
        self.held.clear()


def test_action_from_a_lagging_tab(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    """Two tabs of one seat; the second one's connection holds back the server's states, so it
    still offers a move the first tab has already made. Clicking it gets the server's refusal,
    shown as an error; once the states arrive the tab catches up."""
    first = context.new_page()
    room = create_room(first, server.url, "kaboo", ["human", "ai:casual"])
    wait_actionable(first)

    lag = Lag()
    second = context.new_page()
    second.route_web_socket("**/ws", lag)
    second.goto(f"{server.url}/r/{room}")
    start = wait_actionable(second)
    assert start["seat"] == 0
    lag.holding = True

    # The first tab moves; the second does not hear of it.
    action = choose_action(wait_actionable(first)["view"], 0)
    play_action(first, action)
    assert state(second)["version"] == start["version"]

    # The second tab still offers that move: clicking it is refused by the server.
    play_action(second, action)
    toast = second.locator(".toast-error").last
    expect(toast).to_be_visible()
    code = toast.get_attribute("data-code")
    assert code in {"illegal", "stale"}, code
    assert toast.inner_text().strip()
    second.screenshot(path=str(screenshots / "error-lagging-tab.png"))

    # The held states arrive: the tab catches up with the first one.
    lag.release()
    second.wait_for_function(
        "v => Number(document.body.dataset.version) >= v", arg=state(first)["version"]
    )


def test_lost_server_and_reconnect(
    context: BrowserContext, tmp_path: Path, screenshots: Path
) -> None:
    """The server goes away: the page says so; it comes back: the page reconnects by itself
    and play goes on at the same seat."""
    with running_server(tmp_path, ai_delay=0.0) as srv:
        page = context.new_page()
        create_room(page, srv.url, "kaboo", ["human", "ai:casual"])
        current = wait_actionable(page)
        play_action(page, choose_action(current["view"], 0))
        version = state(page)["version"]
        port, db_url = srv.port, srv.db_url
    # The server is stopped: the page shows the lost connection.
    expect(page.locator("[data-ui=offline]")).to_be_visible()
    expect(page.locator("[data-ui=offline]")).to_contain_text("lost")
    page.screenshot(path=str(screenshots / "offline.png"))
    with running_server(tmp_path, ai_delay=0.0, db_url=db_url, port=port):
        # No click needed: the page retries with backoff (at most 10 s apart).
        page.wait_for_function("() => document.body.dataset.conn === 'open'", timeout=20_000)
        expect(page.locator("[data-ui=offline]")).to_have_count(0)
        page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)
        again = wait_actionable(page)
        assert again["seat"] == 0
        play_action(page, choose_action(again["view"], 1))
