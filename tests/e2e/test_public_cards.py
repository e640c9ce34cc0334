"""Every public card is named (issue 24, item 3, in the browser): the move log and the captions
name a card at the moment it becomes public — a card drawn face up in cabo-german (the person's
and an AI's), one taken from the discard pile, a replaced or discarded card, a snapped or dropped
card, a failed claim's cards, Qute's plays and what they were laid on — and a refreshed page
rebuilds the same log from the join's ``log``: what a seat may read, every seat may read again
later. Qute's eights are told the right way round."""

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


def short(code: str) -> str:
    """A card as the words name it: "the 7♥", "the 7" (Cabo's deck), "the red joker"."""
    if code in ("RJ", "BJ"):
        return "the red joker" if code == "RJ" else "the black joker"
    if code.isdigit():
        return f"the {code}"
    return f"the {code[:-1]}{SUITS[code[-1]]}"


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


def words(page: Page, script: str) -> Any:
    """Run ``script`` (an async arrow function taking the words module) in the page."""
    return page.evaluate(
        f"async () => {{ const w = await import('/static/words.js'); return ({script})(w); }}"
    )


def log_lines(page: Page) -> list[str]:
    """The move log's lines, oldest first."""
    return page.locator("[data-ui=log] li").all_inner_texts()


def test_the_words_name_the_cards_with_articles(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    said = words(
        page,
        """(w) => {
            const names = (s) => ["Ann", "Bob", "Cy"][s];
            const d = (ev, viewer = 0, opts = {}) => w.describeEvent(ev, names, viewer, opts);
            return [
                d({ seq: 1, type: "draw", seat: 1, from: "discard", card: "7H" }),
                d({ seq: 2, type: "draw", seat: 1, from: "deck", card: "QS" }),
                d({ seq: 3, type: "draw", seat: 1, from: "deck" }),
                d({ seq: 4, type: "replace", seat: 1, at: ["1.2"], out: ["9C"], card: "7H" }),
                d({ seq: 5, type: "discard", seat: 0, card: "RJ", power: null }),
                d({ seq: 6, type: "snap", seat: 1, at: "1.0", ok: false, card: "5D" }),
                d({ seq: 7, type: "drop", seat: 2, at: "0.3", ok: true, card: "10H" }),
                d({ seq: 8, type: "claim", seat: 1, at: ["1.0", "1.1"], ok: false,
                    shown: ["3", "5"], new: "1.4" }),
                d({ seq: 9, type: "play", seat: 1, cards: ["7H"], left: 3 }, 0, { on: "7C" }),
                d({ seq: 10, type: "play", seat: 0, cards: ["8H", "8S"], left: 2 }, 0,
                  { on: null }),
                d({ seq: 11, type: "eights", seat: 1, mode: "all" }),
                d({ seq: 12, type: "eights", seat: 1, mode: "next" }),
                d({ seq: 13, type: "skip", seats: [2], for: "A" }),
                d({ seq: 14, type: "skip", seats: [2], for: "8" }),
                d({ seq: 15, type: "round_start", round: 1, first: 0, discard: ["4D"] }),
                d({ seq: 16, type: "penalty", seat: 2, count: 4, for: "8" }),
                d({ seq: 17, type: "skip", seats: [1, 2, 1], for: "8" }),
                d({ seq: 18, type: "skip", seats: [1, 2, 1], for: "A" }),
                d({ seq: 19, type: "skip", seats: [2, 0], for: "A" }),
            ];
        }""",
    )
    assert said == [
        "Bob took the 7♥ from the discard pile",
        "Bob drew the Q♠ from the deck",
        "Bob drew a card from the deck",
        "Bob put the 7♥ in place of their card 2 and threw away the 9♣",
        "You threw away the red joker",
        "Bob snapped their card 0 (the 5♦): no match, it stays on the pile",
        "Cy dropped your card 3 (the 10♥) on the pile: a match",
        "Bob claimed their card 0 and their card 1 are equal — wrong: the 3 and the 5 now lie "
        "face up; the drawn card joins the hand",
        "Bob played the 7♥ on the 7♣ (3 left)",
        "You played the 8♥ and the 8♠ to start the stack (2 left)",
        "Bob sent the 8s round: every other player in turn draws two per 8",
        "Bob gave the 8s to the next player, who draws two per 8 and is skipped",
        "Cy is skipped (an ace)",
        "Cy is skipped (an 8)",
        "Round 1 begins — the 4♦ starts the discard pile",
        "Cy drew four cards for the 8s",
        # eights all with more 8s than other seats: Bob drew twice, and may be next to play
        "After the 8s (Bob and Cy drew), play goes on after the last to draw",
        "Bob twice and Cy are skipped (the aces)",
        "You and Cy are skipped (the aces)",
    ]
    status = words(
        page,
        """(w) => w.statusLine({ game: "qute", over: false, phase: "decide", actors: [0],
            legal: ["eights all", "eights next"], hands: [], players: 3 }, 0, (s) => "P" + s)""",
    )
    assert "next player draws two per 8 and is skipped" in status
    assert "every other player draws two per 8 in turn" in status
    holding = words(
        page,
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
                        assert short(card) in text, (event, text)
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
        if game == "qute":
            assert any(" on the " in line for line in log_lines(page)), log_lines(page)
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
