"""The browser client under the server's content security policy: the lobby, a whole game at a
table, its history and replay, and the rules modal run without the browser blocking anything.

Every ``securitypolicyviolation`` event of every page, and every console message about the
policy, is collected; a control at the end shows the collection would see a violation.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, expect

from cardtable.web.guard import CONTENT_SECURITY_POLICY

from ..webserver import Server
from .driver import create_room, play_to_end

# Runs before any script of each page: report every violation to the test.
_REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
    const where = `${e.sourceFile}:${e.lineNumber}`;
    const what = e.blockedURI || "inline";
    window.reportViolation(`${e.effectiveDirective} blocked ${what} at ${where}`);
});
"""


class Violations:
    """What the browser reported about the policy: violation events and console messages."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.console: list[str] = []

    def on_console(self, msg: ConsoleMessage) -> None:
        if "Content Security Policy" in msg.text or "Content-Security-Policy" in msg.text:
            self.console.append(msg.text)

    def none(self) -> bool:
        return not self.events and not self.console


@pytest.fixture
def watched(context: BrowserContext) -> Iterator[tuple[Page, Violations]]:
    """A page whose policy violations (on every page it opens) are collected."""
    seen = Violations()
    context.expose_binding("reportViolation", lambda _source, text: seen.events.append(text))
    context.add_init_script(script=_REPORT_VIOLATIONS)
    page = context.new_page()
    page.on("console", seen.on_console)
    yield page, seen


def test_the_client_runs_under_the_policy(server: Server, watched: tuple[Page, Violations]) -> None:
    page, seen = watched
    lobby = page.goto(server.url + "/")
    assert lobby is not None
    assert lobby.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert lobby.headers["x-frame-options"] == "DENY"
    page.wait_for_selector("select[name=game]")
    page.get_by_role("button", name="Rules").first.click()  # Markdown put in by innerHTML
    expect(page.locator(".rules-text")).to_be_visible()
    page.keyboard.press("Escape")

    room = create_room(page, server.url, "kaboo", ["human", "ai:random"])
    play_to_end(page)
    page.click("[data-ui=end-panel] [data-ui=history]")
    expect(page.locator("tr[data-game='1']")).to_contain_text("finished")
    page.click("tr[data-game='1'] [data-ui=replay]")
    page.wait_for_url(f"**/r/{room}/replay/1")
    expect(page.locator(".replay-caption")).to_contain_text("Start")
    page.click("[data-ui=next]")
    expect(page.locator(".replay-caption")).to_contain_text("Step 1 of")
    page.click("[data-ui=last]")
    expect(page.locator(".end-panel [data-winners]")).to_be_attached()
    assert seen.none(), (seen.events, seen.console)

    # control: an inline script and a style attribute are blocked, and reported
    page.evaluate(
        """() => {
        const s = document.createElement("script");
        s.textContent = "window.inlineRan = true";
        document.head.append(s);
        document.body.insertAdjacentHTML("beforeend", '<p style="color: red">x</p>');
    }"""
    )
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.inlineRan === undefined")
    assert any(e.startswith("script-src") for e in seen.events), seen.events
    assert any(e.startswith("style-src") for e in seen.events), seen.events
    assert seen.console
