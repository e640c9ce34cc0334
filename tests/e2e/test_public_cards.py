"""Every public card is named (issue 24, item 3, in the browser): the move log and the captions
name a card at the moment it becomes public — a card drawn face up in cabo-german (the person's
and an AI's), one taken from the discard pile, a replaced or discarded card, a snapped or dropped
card, a failed claim's cards, Qute's plays — and a refreshed page rebuilds the same log from the
join's ``log``: what a seat may read, every seat may read again later. The words are the
server's (each event's ``said``); the page writes their cards as the table names them. The
status line tells Qute's eights the right way round."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server
from .driver import CALLS, choose_action, play_action, state, wait_actionable, wait_version
from .fairness import RECORD_FRAMES, open_seat

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

# Event fields whose cards every seat may read (docs/protocol.md, the engine's public parts).
PUBLIC: dict[str, tuple[str, ...]] = {
    "discard": ("card",),
    "replace": ("out",),
    "snap": ("card",),
    "drop": ("card",),
    "round_start": ("discard",),
    "play": ("cards",),
}


def shown(code: str) -> str:
    """A card as the page writes it in words: "7♥", "7" (Cabo's deck), "red joker"."""
    if code in ("RJ", "BJ"):
        return "red joker" if code == "RJ" else "black joker"
    if code.isdigit():
        return code
    return f"{code[:-1]}{SUITS[code[-1]]}"


def public_cards(event: dict[str, Any], game: str) -> list[str]:
    """The codes an event shows the whole table."""
    fields = list(PUBLIC.get(event["type"], ()))
    if event["type"] == "draw" and (event.get("from") == "discard" or game == "cabo-german"):
        fields.append("card")
    if event["type"] == "claim":
        fields += ["out", "shown"]
    out: list[str] = []
    for name in fields:
        value = event.get(name)
        out += value if isinstance(value, list) else [value] if isinstance(value, str) else []
    return out


SNAPSHOT = """() => ({
    frames: window.__ctFrames.map((f) => f.msg),
    state: window.cardtable.state(),
    lines: [...document.querySelectorAll("[data-ui=log] li")].map((i) => [i.dataset.seq,
        i.textContent]),
    captions: Object.fromEntries([...document.querySelectorAll(".seat[data-seat]")].map((n) =>
        [n.dataset.seat, n.querySelector("[data-ui=caption]")?.textContent ?? ""])),
})"""


def module(page: Page, name: str, script: str) -> Any:
    """Run ``script`` (an async arrow function taking the module ``/static/{name}``) in the
    page."""
    return page.evaluate(
        f"async () => {{ const m = await import('/static/{name}'); return ({script})(m); }}"
    )


def log_lines(page: Page) -> list[str]:
    """The move log's lines, oldest first."""
    return page.locator("[data-ui=log] li").all_inner_texts()


def test_the_words_write_their_cards_as_the_table_names_them(
    server: Server, context: BrowserContext
) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    said = module(
        page,
        "said.js",
        """(s) => [
            "Bob took the [7H] from the discard pile",
            "you threw away the [RJ] — its power: peek at an own card",
            "seat 1 lays [10D] [10S] — 1 card left",
            "Round 1 begins; you play first; the discard pile starts with the [4]",
            "the [BJ] is on the discard pile: a snap window opens",
            "the 8s skip Cy twice",
        ].map(s.saidText)""",
    )
    assert said == [
        "Bob took the 7♥ from the discard pile",
        "You threw away the red joker — its power: peek at an own card",
        "Seat 1 lays 10♦ 10♠ — 1 card left",
        "Round 1 begins; you play first; the discard pile starts with the 4",
        "The black joker is on the discard pile: a snap window opens",
        "The 8s skip Cy twice",
    ]
    # in the page, each card is a span of its own, a red suit marked red
    html = module(
        page,
        "said.js",
        """(s) => s.saidNodes({ text: "Ann put the [9H] at your card 2 and threw away the [QS]",
            tone: "plain" }).map((n) => (typeof n === "string" ? n : n.outerHTML)).join("")""",
    )
    assert html == (
        'Ann put the <span class="said-card red">9♥</span> at your card 2 and threw away the '
        '<span class="said-card">Q♠</span>'
    )
    status = module(
        page,
        "words.js",
        """(w) => w.statusLine({ game: "qute", over: false, phase: "decide", actors: [0],
            legal: ["eights all", "eights next"], hands: [], players: 3 }, 0, (s) => "P" + s)""",
    )
    assert "next player draws two per 8 and is skipped" in status
    assert "every other player draws two per 8 in turn" in status
    holding = module(
        page,
        "words.js",
        """(w) => w.statusLine({ game: "cabo-german", over: false, phase: "drawn", actors: [0],
            drawn: "9S", drawer: 0, legal: ["replace 0", "discard", "drop 1"], hands: [],
            players: 2 }, 0, (s) => "P" + s)""",
    )
    assert holding.startswith("Click one of your cards to replace it, or the discard pile")
    assert holding.endswith("(a card that matches the pile may be dropped first)")


def forced_move(view: dict[str, Any], moves: int, rnd: random.Random) -> str:
    """The driver's sensible move, except that now and then the person snaps or drops blindly
    (gabo, cabo-german), so that such cards are shown, right or wrong, and calls late."""
    legal: list[str] = view["legal"]
    drops = [a for a in legal if a.startswith("drop ")]
    if drops and rnd.random() < 0.4:
        return rnd.choice(drops)
    action = choose_action(view, moves)
    if action in CALLS and moves < 16:
        action = next((a for a in legal if a not in CALLS), action)
    return action


@pytest.mark.parametrize(
    ("game", "viewport"),
    [
        ("cabo", DESKTOP),
        ("cabo-german", PHONE),
        ("gabo", DESKTOP),
        ("kaboo", PHONE),
        ("qute", DESKTOP),
    ],
    ids=["cabo-desktop", "cabo-german-phone", "gabo-desktop", "kaboo-phone", "qute-desktop"],
)
def test_every_public_card_is_named_then_and_after_a_refresh(
    server: Server, browser: Browser, game: str, viewport: dict[str, int], screenshots: Path
) -> None:
    ctx = browser.new_context(viewport=viewport, reduced_motion="reduce")  # type: ignore[arg-type]
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(RECORD_FRAMES)
    try:
        seats = [{"type": "human"}, {"type": "ai", "level": "casual"}, {"type": "ai"}]
        page, _ = open_seat(ctx, server, game, seats)
        rnd = random.Random(24)
        named: dict[str, int] = {}
        checked = 0
        for moves in range(40):
            current = wait_actionable(page)
            if current["view"]["over"]:
                break
            play_action(page, forced_move(current["view"], moves, rnd))
            wait_actionable(page)
            # One look at the page (the AI players and the windows move on meanwhile): its
            # frames, its state, its log and its captions.
            seen = page.evaluate(SNAPSHOT)
            latest = seen["state"]
            lines = {int(seq): text for seq, text in seen["lines"]}
            # Every event of every frame so far: its public cards are named in its log line.
            for frame in seen["frames"]:
                if frame.get("type") != "state" or frame.get("game_no") != latest["game_no"]:
                    continue
                for event in frame.get("events", []):
                    cards = public_cards(event, game)
                    if not cards or event["seq"] not in lines:
                        continue
                    text = lines[event["seq"]]
                    for card in cards:
                        assert shown(card) in text, (event, text)
                        named[event["type"]] = named.get(event["type"], 0) + 1
                    checked += 1
            # The newest moves' captions (a seat's last two lines) name their cards too.
            told = [e for e in latest["events"] if e["seq"] in lines]
            for event in told:
                seat = event.get("seat")
                mine = [e for e in told if e.get("seat") == seat]
                if seat is None or not public_cards(event, game) or event not in mine[-2:]:
                    continue
                assert lines[event["seq"]] in seen["captions"].get(str(seat), ""), seen["captions"]
        assert checked >= 5, named
        expected = {"qute": {"play"}, "cabo-german": {"discard"}}.get(game, {"discard"})
        assert expected <= set(named), named
        if game == "cabo-german":
            # the deck's card is face up in this game: the AIs' draws are named too
            ai_draws = [
                line
                for line in log_lines(page)
                if line.startswith("Casual AI") and "from the deck" in line
            ]
            assert ai_draws and all("drew the " in line for line in ai_draws), ai_draws
        page.screenshot(path=str(screenshots / f"public-cards-{game}.png"))
        # A refresh rebuilds the same log from the join's log.
        before = log_lines(page)
        version = state(page)["version"]
        page.reload()
        wait_version(page, version)
        expect(page.locator("[data-ui=log] li")).to_have_count(len(before))
        assert log_lines(page) == before
    finally:
        ctx.close()
