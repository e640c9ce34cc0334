"""The table tells what happened: each move in words by the seat that made it, the cards it
touched marked, the log beside the table (a drawer on phones), every move read out; and the
end of a round or a game in view, with the standings coloured by who leads."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server
from .driver import CALLS, choose_action, create_room, play_action, play_to_end, wait_actionable

# A card's address as the notation writes it ("1.2"): never in the words a person reads.
ADDRESS = re.compile(r"\b\d\.\d\b")


def play_some(page: Page, moves: int) -> None:
    """Play ``moves`` sensible moves of this seat (never a call)."""
    for n in range(moves):
        view = wait_actionable(page)["view"]
        assert not view["over"]
        action = choose_action(view, n % 8)
        if action in CALLS:
            action = next(a for a in view["legal"] if a not in CALLS)
        play_action(page, action)


def test_moves_are_told_in_words_by_the_seat_that_made_them(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    page.set_viewport_size({"width": 1366, "height": 900})
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    play_some(page, 4)
    wait_actionable(page)
    # The AI's last move, in words, in its own panel (seat 1); ours in ours.
    theirs = page.locator(".seat[data-seat='1'] [data-ui=caption]")
    expect(theirs).to_have_count(1)
    assert theirs.inner_text().startswith("Casual AI")
    mine = page.locator(".seat[data-seat='0'] [data-ui=caption]")
    expect(mine).to_have_count(1)
    assert mine.inner_text().startswith("You ")
    # The log is open beside the table, in names and words, newest at the bottom.
    log = page.locator("[data-ui=log] li")
    expect(page.locator("[data-ui=log-panel]")).to_be_in_viewport()
    lines = log.all_inner_texts()
    assert len(lines) >= 6, lines
    assert not [line for line in lines if ADDRESS.search(line)], lines
    seqs = [int(s) for s in log.evaluate_all("items => items.map(i => i.dataset.seq)")]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert lines[0].startswith("Round 1 begins")
    # The newest line, at the bottom, is part of the caption of whoever moved last.
    assert lines[-1] in theirs.inner_text() or lines[-1] in mine.inner_text(), lines[-1]
    # Screen readers hear each move: the live region holds the newest state's lines.
    announced = page.locator("[data-ui=announcer]")
    assert announced.get_attribute("aria-live") == "polite"
    assert announced.inner_text().strip()
    assert set(announced.inner_text().strip().splitlines()) <= set(lines)
    page.screenshot(path=str(screenshots / "table-story.png"))


def test_the_cards_a_move_touched_are_marked(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    view = wait_actionable(page)["view"]
    while not any(a.startswith("draw") for a in view["legal"]):
        play_some(page, 1)
        view = wait_actionable(page)["view"]
    # Record the marks that appear from now on (they fade after a moment).
    page.evaluate(
        """() => {
            window.touched = new Set();
            new MutationObserver(() => {
                for (const n of document.querySelectorAll('.card.touched'))
                    window.touched.add(n.dataset.addr);
            }).observe(document.body, {subtree: true, childList: true});
        }"""
    )
    play_action(page, "draw deck")
    replace = next(a for a in wait_actionable(page)["view"]["legal"] if a.startswith("replace"))
    play_action(page, replace)
    touched = set(page.evaluate("() => [...window.touched]"))
    assert replace.split()[1] in {a.split(".")[1] for a in touched if a.startswith("0.")}, touched
    # They fade: after a while no card is marked any more.
    expect(page.locator(".card.touched")).to_have_count(0, timeout=5000)


def test_on_a_phone_the_log_is_a_drawer(server: Server, browser: Browser) -> None:
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, reduced_motion="reduce"
    )
    try:
        page = phone.new_page()
        create_room(page, server.url, "kaboo", ["human", "ai:casual"])
        play_some(page, 2)
        panel = page.locator("[data-ui=log-panel]")
        expect(panel).not_to_be_in_viewport()
        toggle = page.locator("[data-ui=log-toggle]")
        expect(toggle).to_have_attribute("aria-expanded", "false")
        toggle.click()
        expect(panel).to_be_in_viewport()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        expect(page.locator("[data-ui=log] li").last).to_be_in_viewport()
        page.get_by_role("button", name="Close the moves").click()
        expect(panel).not_to_be_in_viewport()
    finally:
        phone.close()


def test_the_winner_is_in_view_at_the_end(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    page.set_viewport_size({"width": 1366, "height": 900})
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    final = play_to_end(page)
    winners = final["view"]["result"]["winners"]
    banner = page.locator("[data-ui=winner]")
    expect(banner).to_be_in_viewport()
    expect(page.locator(".end-panel [data-winners]")).to_have_attribute(
        "data-winners", ",".join(map(str, winners))
    )
    headline = {(0,): "You win!", (1,): "Casual AI wins!"}.get(tuple(winners))
    expect(banner).to_contain_text(headline or "You share the win with Casual AI!")
    # The standings, best first, and the rematch are in view without scrolling.
    rows = page.locator("[data-ui=standings] tbody tr")
    expect(rows).to_have_count(2)
    totals = [int(t) for t in rows.evaluate_all("rs => rs.map(r => r.dataset.total)")]
    assert totals == sorted(totals)
    expect(rows.first).to_be_in_viewport()
    expect(page.locator("[data-ui=rematch]")).to_be_in_viewport()
    page.screenshot(path=str(screenshots / "winner-banner.png"))


def results_of(page: Page, view: dict[str, Any], opts: dict[str, Any] | None = None) -> None:
    """Draw the standings and the results of ``view`` (a real view, altered) into the page."""
    page.evaluate(
        """async ([view, opts]) => {
            const r = await import('/static/results.js');
            const names = (s) => ['Ann', 'Bob', 'Cy'][s];
            const host = document.createElement('div');
            host.id = 'probe';
            host.append(r.standingsTable(view, names, opts ?? {}), r.renderResults(view, names));
            const note = r.resetNote(view, names, opts?.round);
            if (note) host.append(note);
            document.body.prepend(host);
        }""",
        [view, opts or {}],
    )


def test_totals_are_coloured_by_standing_and_a_reset_is_shown(
    server: Server, context: BrowserContext
) -> None:
    page = context.new_page()
    create_room(page, server.url, "qute", ["human", "ai:casual", "ai:casual"], single=False)
    view = dict(wait_actionable(page)["view"])
    # Round 2 won by Bob, yet Ann leads the match; Cy hit 125 exactly and went back to 0.
    rounds = [
        {"round": 1, "scores": [5, 40, 115], "winners": [0], "totals": [5, 40, 115], "reset": []},
        {"round": 2, "scores": [12, 0, 10], "winners": [1], "totals": [17, 40, 0], "reset": [2]},
    ]
    base = {"hand_points": [0, 0, 0], "jpoints": [0, 0, 0], "multiplier": 1}
    base |= {"finisher": 1, "qute": False, "hands": [[], [], []]}
    view["round_results"] = [base | r for r in rounds]
    view["totals"] = [17, 40, 0]
    view["target"] = 125
    view["result"] = None
    results_of(page, view, {"round": view["round_results"][1]})
    rows = page.locator("#probe [data-ui=standings] tbody tr")
    assert rows.evaluate_all("rs => rs.map(r => r.dataset.seat)") == ["2", "0", "1"]
    assert rows.evaluate_all("rs => rs.map(r => r.className)") == ["leading", "", "trailing"]
    # Bob won the round, but his total is the worst: red, not green.
    bob = page.locator("#probe table.results:not(.standings) tr[data-seat='1'] td.total")
    assert "trailing" in (bob.get_attribute("class") or "")
    cy = page.locator("#probe table.results:not(.standings) tr[data-seat='2'] td.total")
    assert "leading" in (cy.get_attribute("class") or "")
    colour = "n => getComputedStyle(n).color"
    assert bob.evaluate(colour) != cy.evaluate(colour)
    # Cy's reset is shown as it happens: 125 → 0, and in words.
    expect(page.locator("#probe [data-ui=standings] [data-ui=reset]")).to_have_text("125 → 0")
    expect(page.locator("#probe [data-ui=reset-note]")).to_have_text(
        "Cy reached exactly 125: back to 0."
    )


def test_round_results_sit_above_the_table_and_leave_the_timer_in_view(
    server: Server, context: BrowserContext, screenshots: Path
) -> None:
    page = context.new_page()
    page.set_viewport_size({"width": 1366, "height": 900})
    create_room(page, server.url, "cabo", ["human", "ai:casual"], single=False, target=5)
    for moves in range(300):
        current = wait_actionable(page)
        if current["view"]["round_results"] or current["view"]["over"]:
            break
        play_action(page, choose_action(current["view"], moves))
    view = current["view"]
    if view["over"]:
        # The first round already ended the match: its banner says so instead.
        expect(page.locator("[data-ui=winner]")).to_be_in_viewport()
        return
    panel = page.locator("[data-ui=round-panel]")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Round 1 over")
    assert page.locator(".modal-backdrop").count() == 0  # nothing covers the table
    # The next round's peek timer runs in view, not behind the results.
    countdown = page.locator(".window-countdown")
    if countdown.is_visible():
        expect(countdown).to_be_in_viewport()
        box = countdown.bounding_box()
        assert box is not None
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('.window-countdown') !== null",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert hit
    page.screenshot(path=str(screenshots / "round-results.png"))
    page.click("[data-ui=round-dismiss]")
    expect(panel).to_have_count(0)


def test_the_turn_cap_is_shown_only_when_it_is_near(
    server: Server, context: BrowserContext
) -> None:
    page = context.new_page()
    create_room(page, server.url, "kaboo", ["human", "ai:casual"])
    wait_actionable(page)
    expect(page.locator("[data-ui=turn-cap]")).to_have_count(0)
    left = page.evaluate(
        """async () => {
            const { renderTable } = await import('/static/table.js');
            const view = structuredClone(window.cardtable.state().view);
            view.turns = view.max_turns - 3;
            const table = renderTable(view, { viewer: 0, names: (s) => `P${s}` });
            return table.querySelector('[data-ui=turn-cap]')?.textContent ?? null;
        }"""
    )
    assert left == "3 turns left before the round must end"
