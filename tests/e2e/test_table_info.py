"""The round's facts beside the piles say what is going on in words, not in the notation: the
gap a cabo-german drop left, the decision a Qute player is making."""

from __future__ import annotations

from playwright.sync_api import BrowserContext

from ..webserver import Server

# The info row of a view through the page's own modules; returns its words.
INFO = """async ([kind, view]) => {
    const { familyInfo } = await import('/static/familytable.js');
    const { quteInfo } = await import('/static/qutetable.js');
    const ctx = { viewer: 0, names: (i) => ['Ann', 'Bob', 'Cy'][i] };
    return (kind === 'qute' ? quteInfo : familyInfo)(view, ctx).textContent;
}"""

FAMILY = {
    "game": "cabo-german",
    "round": 1,
    "turns": 3,
    "max_turns": 90,
    "target": None,
    "reshuffles": 0,
    "caller": None,
    "call": "cabo",
    "snap": None,
}
QUTE = {"round": 2, "target": 125, "multiplier": 1, "run": None, "must_cover": False}


def test_the_gap_of_a_drop_and_a_qute_decision_in_words(
    server: Server, context: BrowserContext
) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    text = page.evaluate(INFO, ["family", {**FAMILY, "pending": {"give": "1.2"}}])
    assert "Gap to fill: Bob's card 2" in text, text
    assert "1.2" not in text
    for word, words in [
        ("eights", "who draws for the 8s"),
        ("suit", "the suit to follow"),
        ("qute", "Qute, or play on"),
        ("jpoints", "the J points"),
    ]:
        text = page.evaluate(INFO, ["qute", {**QUTE, "pending": word}])
        assert f"Deciding: {words}" in text, text
