"""The client's modules on their own, run in the browser: click building, Markdown, card names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page

from ..webserver import Server

# Runs a sequence of picker operations; returns what each one answered.
_PICKER = """async ([legal, seat, game, ops]) => {
    const { Picker } = await import('/static/actions.js');
    const p = new Picker();
    p.setLegal(legal, seat, game);
    const out = [];
    for (const [op, arg] of ops) {
        if (op === 'click') out.push(p.click(arg));
        else if (op === 'clicksFor') out.push(p.clicksFor(arg));
        else if (op === 'complete') out.push(p.complete().map(a => a.text));
        else if (op === 'next') out.push([...p.nextTargets()].sort());
        else if (op === 'words') out.push(p.words().map(a => a.text));
        else if (op === 'pile') out.push(p.pileAction(arg)?.text ?? null);
        else if (op === 'clear') out.push(p.clear() ?? null);
        else if (op === 'several') { p.several = true; out.push(null); }
    }
    return out;
}"""

CABO_HOLDING = [
    "replace 0",
    "replace 1",
    "replace 2",
    "replace 3",
    "replace 0 1",
    "replace 0 2",
    "replace 1 2",
    "replace 0 1 2",
    "replace 1 2 3",
    "discard",
]


@pytest.fixture
def page(server: Server, context: BrowserContext) -> Iterator[Page]:
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=game]")
    yield page


def picker(page: Page, legal: list[str], seat: int, game: str, ops: list[Any]) -> list[Any]:
    result: list[Any] = page.evaluate(_PICKER, [legal, seat, game, ops])
    return result


def test_claims_are_clicked_in_any_order(page: Page) -> None:
    out = picker(
        page,
        CABO_HOLDING,
        0,
        "cabo",
        [
            ["clicksFor", "replace 0"],
            ["clicksFor", "replace 1 2"],
            ["clicksFor", "discard"],
            ["click", "0.2"],  # one click replaces, as the status line says
            ["several", None],  # "Claim several equal cards" (or a Shift-click)
            ["click", "0.2"],
            ["complete", None],
            ["next", None],
            ["click", "0.1"],
            ["complete", None],
            ["click", "0.1"],  # clicking the last card again confirms
        ],
    )
    assert out[0] == ['.card[data-addr="0.0"]']
    assert out[1][0] == '[data-ui="several"]'
    assert out[1][1:3] == ['.card[data-addr="0.1"]', '.card[data-addr="0.2"]']
    assert out[2] == ['[data-pile="discard"]']
    assert out[3] == {"play": "replace 2"}
    assert out[5] == {"pending": True}
    assert out[6] == ["replace 2"]
    assert out[7] == ["0.0", "0.1", "0.3"]
    assert out[8] == {"pending": True}
    assert out[9] == ["replace 1 2"]
    assert out[10] == {"play": "replace 1 2"}


def test_a_complete_action_with_nothing_beyond_plays_at_once(page: Page) -> None:
    look = ["look 0 1.0", "look 0 1.1", "look 1 1.0", "look 1 1.1"]
    out = picker(
        page,
        look,
        0,
        "kaboo",
        [["click", "1.1"], ["next", None], ["click", "0.0"], ["clicksFor", "look 1 1.0"]],
    )
    assert out[0] == {"pending": True}
    assert out[1] == ["0.0", "0.1"]
    assert out[2] == {"play": "look 0 1.1"}
    assert out[3] == ['.card[data-addr="0.1"]', '.card[data-addr="1.0"]']


def test_two_verbs_on_one_card_are_offered_as_buttons(page: Page) -> None:
    legal = ["replace 0", "replace 1", "drop 0", "drop 1.0", "discard", "cabo"]
    out = picker(
        page,
        legal,
        0,
        "cabo-german",
        [
            ["click", "0.0"],
            ["complete", None],
            ["clicksFor", "drop 0"],
            ["clear", None],
            ["click", "1.0"],
            ["complete", None],
            ["words", None],
            ["click", "2.0"],
        ],
    )
    assert out[0] == {"pending": True}
    assert out[1] == ["replace 0", "drop 0"]
    assert out[2] == ['.card[data-addr="0.0"]', '[data-action="drop 0"]']
    # a drop risks penalty cards: even the only action on a card waits for its button
    assert out[4] == {"pending": True}
    assert out[5] == ["drop 1.0"]
    assert out[6] == ["discard", "cabo"]
    assert out[7] == {"invalid": True}


def test_qute_plays_are_ordered_card_codes(page: Page) -> None:
    legal = ["play 8D", "play 8D 8H", "play 8H", "play 8H 8D", "play QS", "draw", "suit H"]
    out = picker(
        page,
        legal,
        1,
        "qute",
        [
            ["clicksFor", "play QS"],
            ["clicksFor", "play 8H"],
            ["clicksFor", "draw"],
            ["clicksFor", "suit H"],
            ["pile", "deck"],
            ["click", "8H"],
            ["click", "8D"],
        ],
    )
    assert out[0] == ['[data-card="QS"]']
    assert out[1] == ['[data-card="8H"]', '[data-action="play 8H"]']
    assert out[2] == ['[data-pile="deck"]']
    assert out[3] == ['[data-action="suit H"]']
    assert out[4] == "draw"
    assert out[5] == {"pending": True}
    assert out[6] == {"play": "play 8H 8D"}


def test_markdown_is_escaped_and_formatted(page: Page) -> None:
    html: str = page.evaluate(
        """async (md) => (await import('/static/rules.js')).markdownToHtml(md)""",
        "# Title\n\nText with <script>x</script>, **bold**, *it* and `code <b>`.\n\n"
        "- one\n  continued\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    )
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert '<h1 id="title">Title</h1>' in html
    assert "<strong>bold</strong>" in html and "<em>it</em>" in html
    assert "<code>code &lt;b&gt;</code>" in html
    assert "<ul><li>one continued</li><li>two</li></ul>" in html
    assert "<th>a</th>" in html and "<td>2</td>" in html


def test_card_names(page: Page) -> None:
    names = page.evaluate(
        """async (codes) => {
            const { cardName } = await import('/static/cards.js');
            return codes.map(cardName);
        }""",
        ["10H", "QS", "AC", "RJ", "BJ", "7", "0"],
    )
    assert names == [
        "10 of hearts",
        "queen of spades",
        "ace of clubs",
        "red joker",
        "black joker",
        "Cabo 7",
        "Cabo 0",
    ]
