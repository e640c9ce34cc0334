"""A rematch is offered, not imposed (issue 24, item 8, in the browser): the end banner's
Rematch offers one; the other person sees "Ann offers a rematch" with Accept and Decline, and who
has accepted; a decline is shown to everyone and starts nothing; the next game starts when every
person accepted. Ann plays at desktop size, Bob on a phone, and a spectator watches."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server, http
from .driver import play_action, state, wait_actionable

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def open_page(browser: Browser, url: str, viewport: dict[str, int], held: list[object]) -> Page:
    """A page of its own profile at ``url`` (holding ``held`` = [room, seat, token] if given)."""
    ctx: BrowserContext = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        reduced_motion="reduce",
        is_mobile=viewport is PHONE,
        has_touch=viewport is PHONE,
    )
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    base = url.partition("/r/")[0]
    if held:
        page.goto(base + "/")
        page.evaluate(
            "([r, s, t]) => localStorage.setItem('cardtable:seat:' + r, "
            "JSON.stringify({ seat: s, token: t }))",
            held,
        )
    page.goto(url)
    page.wait_for_function("() => window.cardtable && window.cardtable.state()?.view")
    return page


_PEEKING_OR_DONE = """() => {
    const s = window.cardtable && window.cardtable.state();
    if (!s || !s.view || document.body.dataset.busy === "1") return false;
    return s.view.legal.length > 0 || !s.view.actors.includes(s.view.seat);
}"""


def finish_quickly(players: dict[int, Page]) -> None:
    """Both peek, then the first to play calls gabo: the round (and the game) ends at once."""
    for page in players.values():
        for n in (0, 1):
            # this seat may peek, or is done peeking (a slow answer to a click may have been
            # answered by the click made again): only then is there anything to decide
            page.wait_for_function(_PEEKING_OR_DONE)
            current = state(page)
            if f"peek {n}" in current["view"]["legal"]:
                play_action(page, f"peek {n}")
    while True:
        view = state(players[0])["view"]
        if view["over"]:
            return
        page = players[view["actors"][0]]
        current = wait_actionable(page)
        if current["view"]["over"]:
            return
        legal = current["view"]["legal"]
        play_action(page, "gabo" if "gabo" in legal else legal[0])


def test_a_rematch_is_offered_accepted_or_declined(
    server: Server, browser: Browser, screenshots: Path
) -> None:
    status, made = http(
        "POST",
        f"{server.url}/api/rooms",
        {
            "game": "gabo",
            "seats": [{"type": "human"}, {"type": "human"}, {"type": "ai"}],
            "name": "Ann",
            "options": {"target": None},
        },
    )
    assert status == 201, made
    room = made["room"]
    status, joined = http("POST", f"{server.url}/api/rooms/{room}/join", {"name": "Bob"})
    assert status in (200, 201), joined
    url = f"{server.url}/r/{room}"
    ann = open_page(browser, url, DESKTOP, [room, 0, made["token"]])
    bob = open_page(browser, url, PHONE, [room, 1, joined["token"]])
    watcher = open_page(browser, url + "?watch", DESKTOP, [])
    try:
        finish_quickly({0: ann, 1: bob})
        for page in (ann, bob, watcher):
            page.wait_for_function("() => window.cardtable.state().view.over")
        expect(watcher.locator("[data-ui=rematch]")).to_have_count(0)  # a spectator only reads

        # Ann offers: Bob is asked, Ann waits for him, the spectator reads who waits on whom.
        ann.click("[data-ui=rematch]")
        expect(bob.locator("[data-ui=rematch-offer]")).to_have_text(
            "Ann offers a rematch (accepted: Ann)"
        )
        expect(bob.locator("[data-ui=rematch-accept]")).to_be_visible()
        expect(bob.locator("[data-ui=rematch-decline]")).to_be_visible()
        expect(ann.locator("[data-ui=rematch-offer]")).to_have_text(
            "You offer a rematch — waiting for Bob (accepted: You)"
        )
        expect(ann.locator("[data-ui=rematch-accept]")).to_have_count(0)
        expect(watcher.locator("[data-ui=rematch-offer]")).to_contain_text(
            "Ann offers a rematch — waiting for Bob"
        )
        bob.screenshot(path=str(screenshots / "rematch-offered-phone.png"))
        ann.screenshot(path=str(screenshots / "rematch-waiting-desktop.png"))

        # Bob declines: everyone is told, and nothing starts.
        bob.click("[data-ui=rematch-decline]")
        for page, who in ((ann, "Bob"), (bob, "You"), (watcher, "Bob")):
            expect(page.locator("[data-ui=rematch-declined]")).to_have_text(
                f"{who} declined the rematch."
            )
        assert state(ann)["game_no"] == 1 and state(ann)["view"]["over"]
        ann.screenshot(path=str(screenshots / "rematch-declined-desktop.png"))

        # Bob offers after all, Ann accepts: the next game starts for everyone.
        bob.click("[data-ui=rematch]")
        expect(ann.locator("[data-ui=rematch-offer]")).to_have_text(
            "Bob offers a rematch (accepted: Bob)"
        )
        ann.click("[data-ui=rematch-accept]")
        for page in (ann, bob, watcher):
            page.wait_for_function("() => window.cardtable.state().game_no === 2")
            expect(page.locator("[data-ui=end-panel]")).to_have_count(0)
        assert not state(bob)["view"]["over"]
    finally:
        for page in (ann, bob, watcher):
            page.context.close()
