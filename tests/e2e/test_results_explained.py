"""Results explain themselves (issue 24, item 7, in the browser): the round-results panel and the
end banner show, under each player's name, the hand's sum (Qute: its points), every step to the
round's score with its reason in words — the caller's bonus or penalty, Kamikaze, Qute's J
points and multiplier — and the score; an exact-target reset says what it did. All of it is
text on the page (a phone cannot hover), checked at desktop and phone size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server
from .driver import choose_action, play_action, state, wait_actionable
from .fairness import open_seat

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}

REASON_WORDS = {
    "caller_lowest": "called with the lowest sum",
    "caller_penalty": "called",
    "kamikaze": "Kamikaze",
    "kamikaze_victim": "Kamikaze",
}


def results_module(page: Page, script: str) -> Any:
    """Run ``script`` (a function of the results module) in the page."""
    return page.evaluate(
        f"async () => {{ const r = await import('/static/results.js'); return ({script})(r); }}"
    )


def test_each_reason_in_words(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    said = results_module(
        page,
        """(r) => {
            const names = (s) => ["Ann", "Bob", "Cy"][s];
            const cabo = { game: "cabo", target: 100 };
            const fam = (sums, scores, adjustments, extra = {}) => ({ round: 1, sums, scores,
                adjustments, winners: [0], caller: 0, hands: [], totals: scores, reset: [],
                ...extra });
            const kamikaze = fam([50, 14, 9], [0, 50, 50], [
                [{ reason: "kamikaze", points: -50 }],
                [{ reason: "kamikaze_victim", points: 36 }],
                [{ reason: "kamikaze_victim", points: 41 }]]);
            const lowest = fam([3, 9, 12], [0, 9, 12], [[{ reason: "caller_lowest", points: -3 }],
                [], []]);
            const lost = fam([26, 9, 12], [36, 9, 12], [[{ reason: "caller_penalty",
                points: 10 }], [], []]);
            const gabo = { game: "gabo", target: 100 };
            const above = fam([6, 9, 12], [26, 9, 12], [[{ reason: "caller_penalty",
                points: 20 }], [], []]);
            const beaten = fam([4, 2, 12], [24, 2, 12], [[{ reason: "caller_penalty",
                points: 20 }], [], []]);
            const reset = fam([10, 9, 12], [10, 9, 12], [[], [], []],
                { totals: [50, 40, 30], reset: [0] });
            const qute = { game: "qute", target: 125 };
            const q = { round: 2, scores: [-80, 100, 0], hand_points: [0, 10, 0],
                jpoints: [-40, 40, 0], multiplier: 2, winners: [0], finisher: 0, qute: false,
                hands: [[], [], []], totals: [0, 125, 30], reset: [1] };
            return {
                kamikaze: [0, 1].map((s) => r.scoreHow(cabo, kamikaze, s, names)),
                lowest: [0, 1].map((s) => r.scoreHow(cabo, lowest, s, names)),
                lost: r.scoreHow(cabo, lost, 0, names),
                above: r.scoreHow(gabo, above, 0, names),
                beaten: r.scoreHow(gabo, beaten, 0, names),
                qute: [0, 1, 2].map((s) => r.scoreHow(qute, q, s, names)),
                caboReset: r.resetNote(cabo, names, reset).textContent,
                quteReset: r.resetNote(qute, names, q).textContent,
                playedFor: r.playedForWords({ played_for: { clock: 2, stand_in: 3 } }),
                nobody: r.playedForWords({ played_for: { clock: 0, stand_in: 0 } }),
            };
        }""",
    )
    assert said["kamikaze"] == [
        "sum 50 − 50 (Kamikaze (12, 12, 13, 13): scores 0) = 0",
        "sum 14 + 36 (another player's Kamikaze: scores 50) = 50",
    ]
    assert said["lowest"] == ["sum 3 − 3 (called with the lowest sum: scores 0) = 0", "sum 9"]
    assert said["lost"] == "sum 26 + 10 (called without the lowest sum) = 36"
    assert said["above"] == "sum 6 + 20 (called with a sum above 5) = 26"
    assert said["beaten"] == "sum 4 + 20 (called, but Bob had a lower sum) = 24"
    assert said["qute"] == [
        "points 0 − 40 (J points off their own score) × 2 (the draw pile was refilled once) = -80",
        "points 10 + 40 (J points from Ann) × 2 (the draw pile was refilled once) = 100",
        "points 0 × 2 (the draw pile was refilled once) = 0",
    ]
    assert said["caboReset"] == "Ann reached exactly 100: halved to 50."
    assert said["quteReset"] == "Bob reached exactly 125: back to 0."
    assert said["playedFor"] == "played by an AI for 3 moves, time ran out twice"
    assert said["nobody"] == ""


def check_rows(page: Page, host: str, round_result: dict[str, Any]) -> None:
    """Each seat's row under ``host`` tells its sum, its steps and its score, in view."""
    for seat, score in enumerate(round_result["scores"]):
        how = page.locator(f"{host} tr[data-seat='{seat}'] [data-ui=score-how]")
        expect(how).to_be_visible()
        text = how.inner_text()
        assert text.startswith(f"sum {round_result['sums'][seat]}"), text
        steps = round_result["adjustments"][seat]
        for adjustment in steps:
            points = adjustment["points"]
            assert f"{'−' if points < 0 else '+'} {abs(points)} (" in text, text
            assert REASON_WORDS[adjustment["reason"]] in text, text
        if steps:
            assert text.endswith(f"= {score}"), text
        else:
            assert text == f"sum {score}", text
        assert not how.get_attribute("title")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_round_results_and_the_end_explain_each_score(
    server: Server, browser: Browser, viewport: dict[str, int], screenshots: Path
) -> None:
    """A cabo match where Ann calls early: the round panel explains the caller's score and
    everyone's sum; a one-round gabo game's end banner does the same."""
    ctx = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        reduced_motion="reduce",
        is_mobile=viewport is PHONE,
        has_touch=viewport is PHONE,
    )
    ctx.set_default_timeout(20_000)
    size = "phone" if viewport is PHONE else "desktop"
    try:
        seats = [{"type": "human"}, {"type": "ai", "level": "casual"}, {"type": "ai"}]
        page, _ = open_seat(ctx, server, "cabo", seats, options={"target": 100})
        moves = 0
        while not state(page)["view"]["round_results"]:
            current = wait_actionable(page)
            legal = current["view"]["legal"]
            play_action(page, "cabo" if "cabo" in legal else choose_action(current["view"], moves))
            moves += 1
        panel = page.locator("[data-ui=round-panel]")
        expect(panel).to_be_visible()
        result = state(page)["view"]["round_results"][0]
        assert result["caller"] == 0 and result["adjustments"][0], result
        check_rows(page, "[data-ui=round-panel]", result)
        page.screenshot(path=str(screenshots / f"results-round-{size}.png"), full_page=True)

        page, _ = open_seat(ctx, server, "gabo", seats, options={"target": None})
        moves = 0
        while True:
            current = wait_actionable(page)
            if current["view"]["over"]:
                break
            legal = current["view"]["legal"]
            play_action(page, "gabo" if "gabo" in legal else choose_action(current["view"], moves))
            moves += 1
        banner = page.locator("[data-ui=end-panel]")
        expect(banner).to_be_visible()
        result = state(page)["view"]["round_results"][0]
        check_rows(page, "[data-ui=end-panel]", result)
        # the last hands, under the details, say the same
        page.click("[data-ui=end-details] summary")
        hows = page.locator("[data-ui=end-panel] [data-ui=hand-how]").all_inner_texts()
        assert len(hows) == 3 and hows[0].startswith(f"sum {result['sums'][0]}"), hows
        page.screenshot(path=str(screenshots / f"results-end-{size}.png"), full_page=True)
    finally:
        ctx.close()
