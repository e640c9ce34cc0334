"""Driving the browser client like a player: lobby form, clicks on the table, waits on states.

Everything happens through real clicks on the selectors the page's
``window.cardtable.clicksFor(action)`` names; the tests never send WebSocket messages.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

__all__ = [
    "CALLS",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "choose_action",
    "create_room",
    "describe",
    "face_up_hand_cards",
    "play_action",
    "play_to_end",
    "state",
    "wait_actionable",
    "wait_version",
]

CHROMIUM = Path(os.environ.get("CARDTABLE_CHROMIUM", "/usr/bin/chromium"))
"""The browser binary (Debian's package; Playwright's own downloads are never used)."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Chromium's flags for the tests and the screenshots: no sandbox (root in a container), no
GPU, nothing fetched in the background."""

CALLS = frozenset({"knock", "cabo", "gabo"})
"""Words that call the end of a Cabo-family round."""

State = dict[str, Any]

# The page is ready for this seat's next action: a view that is over, or legal actions and no
# action of ours waiting for its answer.
_ACTIONABLE = """() => {
    const s = window.cardtable && window.cardtable.state();
    if (!s || !s.view || document.body.dataset.busy === "1") return false;
    return s.view.over || s.view.legal.length > 0;
}"""


def create_room(
    page: Page,
    base: str,
    game: str,
    seats: list[str],
    *,
    single: bool = True,
    target: int | None = None,
    aid_all: bool = False,
    name: str = "Ann",
    public: bool = True,
    before_create: Any = None,
) -> str:
    """Create a room through the lobby form; ``seats`` are "human", "human+aid" (a person with
    the memory aid) or "ai:LEVEL"; ``single=False`` plays a match (to ``target`` if given);
    ``aid_all`` ticks the memory aid for everyone. ``before_create(page)`` runs on the filled
    form. Returns the room's id once the table page is open."""
    page.goto(base + "/")
    page.select_option("select[name=game]", game)
    page.fill("input[name=players]", str(len(seats)))
    for i, seat in enumerate(seats):
        page.select_option(f"select[name=seat-{i}]", "human" if seat == "human+aid" else seat)
        if seat.startswith("human"):
            page.set_checked(f"input[name=aid-{i}]", seat == "human+aid")
    page.set_checked("input[name=aid-all]", aid_all)
    page.set_checked("input[name=single]", single)
    if target is not None:
        page.fill("input[name=target]", str(target))
    page.fill("input[name=name]", name)
    page.set_checked("input[name=public]", public)
    if before_create is not None:
        before_create(page)
    page.click("[data-ui=create]")
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    return page.url.rsplit("/", 1)[1]


def state(page: Page) -> State:
    """The last state the page received (there must be one)."""
    result: State | None = page.evaluate("() => window.cardtable ? window.cardtable.state() : null")
    assert result is not None, f"the page has no state yet: {describe(page)}"
    return result


# The page may act, or it shows a finished round's results and waits for "Got it" (the table's
# clocks and AI players wait while the only person at the table reads them).
_ACTIONABLE_OR_RESULTS = """() => {
    const s = window.cardtable && window.cardtable.state();
    if (!s || !s.view || document.body.dataset.busy === "1") return false;
    return s.view.over || s.view.legal.length > 0
        || document.querySelector("[data-ui=round-dismiss]") !== null;
}"""


def wait_actionable(page: Page, timeout: float = 20_000) -> State:
    """Wait until the page may act (or the game is over); return that state.

    A round's results shown above the table hold the AI players while the only person reads
    them: when the page cannot act, they are dismissed, as a person going on would."""
    for _ in range(8):
        try:
            page.wait_for_function(_ACTIONABLE_OR_RESULTS, timeout=timeout)
        except PlaywrightError as err:
            raise AssertionError(f"the page never became actionable: {describe(page)}") from err
        current = state(page)
        if current["view"]["over"] or current["view"]["legal"]:
            return current
        dismiss = page.locator("[data-ui=round-dismiss]")
        if dismiss.count():
            dismiss.click()
    raise AssertionError(f"the page never became actionable: {describe(page)}")


def describe(page: Page) -> str:
    """What a page shows, for failure messages: its state summary and messages."""
    info = page.evaluate(
        """() => {
        const s = window.cardtable && window.cardtable.state();
        const v = s && s.view;
        return {
            url: location.pathname, seat: s && s.seat, version: s && s.version,
            status: s && s.status, phase: v && v.phase, actors: v && v.actors,
            legal: v && v.legal, busy: document.body.dataset.busy,
            conn: document.body.dataset.conn,
            toasts: [...document.querySelectorAll('.toast')].map(t => t.textContent),
        };
    }"""
    )
    return repr(info)


def wait_version(page: Page, version: int, timeout: float = 15_000) -> None:
    """Wait until the page has drawn a state of at least ``version``."""
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v", arg=version, timeout=timeout
    )


def play_action(page: Page, action: str) -> None:
    """Play ``action`` by clicking what the page says produces it, then wait for the answer:
    a new state, or an error (shown by the page) — e.g. a stale action in a simultaneous
    phase, where another seat moved first. With no answer in ten seconds it clicks once more,
    as a person would."""
    marks = "() => [document.body.dataset.version ?? '', document.body.dataset.errors ?? '']"
    moved = f"([v, e]) => {{ const [v2, e2] = ({marks})(); return v2 !== v || e2 !== e; }}"
    before = page.evaluate(marks)
    for attempt in range(2):
        clicks: list[str] | None = page.evaluate("a => window.cardtable.clicksFor(a)", action)
        if not clicks:
            raise RuntimeError(f"the page offers no clicks for {action!r}")
        for selector in clicks:
            page.click(selector)
        try:
            page.wait_for_function(moved, arg=before, timeout=10_000 if attempt == 0 else None)
            return
        except PlaywrightTimeoutError:
            if page.evaluate(marks) != before:
                return  # the answer came just then
            if attempt:
                raise
            # nothing answered: a click that landed while a busy machine was still drawing the
            # table did nothing, and a person would click again


def play_unless_moved_on(page: Page, current: State, action: str) -> bool:
    """:func:`play_action`, unless the table moved on since ``current`` was read (a timed
    window, such as a snap, closed and its move was played; the turn clock played for the
    seat while its clicks were under way, taking away what they aimed at): then what is left
    is not clicked. True if the action was played."""
    try:
        play_action(page, action)
    except (RuntimeError, PlaywrightTimeoutError):
        if state(page)["version"] == current["version"]:
            raise
        return False
    return True


def _targets(action: str) -> int:
    return len(action.split()) - 1


def choose_action(view: State, my_moves: int) -> str:
    """A sensible, bounded choice among ``view["legal"]``.

    Family games: peek, draw (from the deck, or the pile every third turn), keep the card,
    use powers (so that swaps and looks are clicked), pass snap windows, and call the end after
    a few turns. Qute: play the longest play, pick suits, call Qute when offered.
    """
    legal: list[str] = view["legal"]
    if view["game"] == "qute":
        for word in ("qute", "eights all", "jpoints minus"):
            if word in legal:
                return word
        plays = [a for a in legal if a.startswith("play ")]
        if plays:
            return max(plays, key=_targets)
        for prefix in ("suit ", "eights ", "draw", "continue"):
            for a in legal:
                if a.startswith(prefix):
                    return a
        return legal[0]
    if view["phase"] == "snap":
        return "pass"
    calls = [a for a in legal if a in CALLS]
    if calls and my_moves >= 12:
        return calls[0]
    if "draw deck" in legal:
        if "draw discard" in legal and my_moves % 3 == 2:
            return "draw discard"
        return "draw deck"
    if "draw discard" in legal:
        return "draw discard"
    if "exchange" in legal:  # after a look
        return "exchange"
    # Holding a card: alternate keeping it (a plain replace, sometimes a two-card claim in
    # cabo) and throwing it away to use its power.
    replaces = [a for a in legal if a.startswith("replace ")]
    if replaces and (my_moves % 2 == 0 or "discard" not in legal):
        claims = [a for a in replaces if _targets(a) == 2]
        if claims and my_moves % 4 == 0:
            return claims[0]
        singles = [a for a in replaces if _targets(a) == 1]
        return singles[my_moves % len(singles)] if singles else replaces[0]
    if "discard" in legal:
        return "discard"
    # Powers, gives: the first target action (two-card swaps and looks included).
    targets = [a for a in legal if a not in CALLS and a != "pass" and not a.startswith("drop ")]
    if targets:
        return max(targets, key=_targets)
    return "pass" if "pass" in legal else legal[0]


def play_to_end(page: Page, *, max_moves: int = 400) -> State:
    """Play this seat until the game is over; returns the final state."""
    moves = 0
    while True:
        current = wait_actionable(page)
        view = current["view"]
        if view["over"]:
            return current
        play_action(page, choose_action(view, moves))
        moves += 1
        assert moves < max_moves, f"no end after {max_moves} moves"


def face_up_hand_cards(page: Page) -> list[str]:
    """Codes of the hand cards the page shows face up (the piles and panels not counted)."""
    codes: list[str] = page.eval_on_selector_all(
        ".table .hand .card.face-up", "nodes => nodes.map(n => n.dataset.face)"
    )
    return codes
