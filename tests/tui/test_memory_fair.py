"""The property of issue 24, item 1, on the full-screen table: however the person navigates
(help opened and closed, round results read slowly, scroll keys, Tab, resizes, time passing),
no face-down card of a game without memory aid is on the screen past its reveal time.

Random games of every variant are played by keys against random bots, under a fake clock; a
step is a move, a wait, the help, a scroll key or a resize. After each step the screen is read:

The table looks at the clock five times a second (:meth:`CardtableApp.tick`); the screen is
read after a tick has been drawn.

- every card box of a hand shows a code only where the memory-less view shows it (a face-up
  card, gabo's initial peek until the first draw, the end of the round) or where the person
  saw that very card less than the reveal time ago (the initial peek's cards count from the
  last of them, as they are lifted together; a card dealt with the next round counts from
  the moment its results were closed), and never a card that is not there;
- every card code written anywhere on the screen (event panel, prompt, status, help, results)
  is one the whole table saw, one the table shows now, or one in its reveal time (checked for
  the decks whose codes are unique).
"""

from __future__ import annotations

import asyncio
import html
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import Game, new_game
from cardtable.text.rules import plain_rules
from cardtable.text.sights import sights_in
from cardtable.tui.app import CardBox, CardtableApp, HelpScreen, ResultScreen, RoundScreen

from .helpers import FakeClock, enter

REVEAL = 3.0
VARIANTS = ["cabo", "cabo-german", "gabo", "kaboo", "qute"]
UNIQUE_CODES = {"cabo-german", "gabo", "kaboo", "qute"}
"""Decks in which a code names one card (cabo's numbers repeat)."""
SIZES = [(80, 24), (100, 35), (160, 50), (64, 20)]
STEPS = ["move", "move", "move", "wait", "wait", "help", "scroll", "tab", "resize", "peek"]
CARD = re.compile(r"\[([0-9AJQKRB][0-9]?[CDHSJ]?|10[CDHS])\]")


class Tracker:
    """What the person may be shown, followed independently of the table: the events of the
    game as they happen, each with the (fake) time the person could first see it."""

    def __init__(self, game: Game, me: int, clock: FakeClock) -> None:
        self.me = me
        self.clock = clock
        self.public: set[str] = set()
        self.seen: dict[str, tuple[str, float | None]] = {}  # address → (code, since)
        self.peek_group: set[str] = set()
        self.waiting = False  # the next round's events, behind the results
        self.wrap(game)
        self.note(game.opening_events, initial=True)

    def wrap(self, game: Game) -> None:
        play: Callable[..., Any] = game.play

        def recorded(seat: int, action: Any) -> Any:
            initial = game.view(self.me)["phase"] == "peek"
            events = play(seat, action)
            self.note(events, initial=initial)
            return events

        game.play = recorded  # type: ignore[method-assign]

    def note(self, events: list[Any], *, initial: bool) -> None:
        now = self.clock()
        for ev in events:
            public = ev.visible(0)
            self.public.update(_codes(public))
            mine = ev.for_seat(self.me)
            if mine["type"] == "round_start":
                self.seen.clear()
                self.peek_group.clear()
            if mine["type"] == "round_end":
                self.public.update(c for hand in mine["hands"] for c in hand if c)
                self.waiting = "round_start" in {e.type for e in events}
            sights = [(str(at), code) for at, code in sights_in(ev.seen_by(self.me))]
            for addr, code in sights:
                self.seen[addr] = (code, None if self.waiting else now)
                if initial:
                    self.peek_group.add(addr)
            if initial and sights:  # lifted together: all count from the last
                for addr in self.peek_group:
                    code, _ = self.seen[addr]
                    self.seen[addr] = (code, now)

    def results_closed(self) -> None:
        now = self.clock()
        self.waiting = False
        for addr, (code, since) in list(self.seen.items()):
            if since is None:
                self.seen[addr] = (code, now)

    def revealed(self, addr: str) -> str | None:
        """The code the person may see at ``addr`` now, if any."""
        code, since = self.seen.get(addr, ("", None))
        if since is None or self.clock() >= since + REVEAL:
            return None
        return code

    def codes_in_reveal(self) -> set[str]:
        return {code for addr in self.seen if (code := self.revealed(addr) or "")}


def _codes(ev: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key in ("card", "out", "shown", "discard", "cards", "drawn"):
        value = ev.get(key)
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            out.extend(str(v) for v in value if v)
    return out


def _screen_text(app: CardtableApp) -> str:
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg.split("</style>", 1)[-1]))


def check(app: CardtableApp, tracker: Tracker) -> None:
    """The property, on the screen as it is now."""
    game, me = app.game, app.me
    table = game.view(me, memory=False)
    full = game.view(me)
    if "hands" in table and "blind" not in table:  # a memory game
        for box in app.query(CardBox):
            if not box.id or not box.id.startswith("card-") or box.code is None:
                continue
            _, seat, pos = box.id.split("-")
            s, p = int(seat), int(pos)
            slot = table["hands"][s][p]
            assert full["hands"][s][p]["card"] == box.code, (box.id, "not the card there")
            if slot is not None and slot["card"] is not None:
                continue  # face up, or gabo's initial peek, or the round's end
            assert tracker.revealed(f"{s}.{p}") == box.code, (
                f"{box.id} shows {box.code} past its reveal time at {tracker.clock()}"
            )
    if game.variant in UNIQUE_CODES:
        allowed = set(tracker.public) | tracker.codes_in_reveal()
        allowed |= set(re.findall(r"'([0-9AJQKRB]{1,2}[CDHSJ]?)'", repr(table)))
        if isinstance(app.screen, HelpScreen):
            # the rules' example cards and value legend: the same page whatever was dealt, a
            # reminder of no card the person saw
            allowed |= set(CARD.findall(plain_rules(game.variant)))
        shown = set(CARD.findall(_screen_text(app)))
        leaked = shown - allowed
        assert not leaked, f"on screen but not the person's to see now: {leaked}"


async def run_example(variant: str, seed: int, steps: list[str], waits: list[float]) -> None:
    clock = FakeClock()
    players = {"gabo": 4, "qute": 3}.get(variant)
    game = new_game(variant, players, seed=seed, options={"target": 60})
    tracker = Tracker(game, 0, clock)
    app = CardtableApp(
        game,
        opponents="random",
        bot_seed=seed,
        bot_pause=0.0,
        flash=0.0,
        save=False,
        clock=clock,
        reveal=REVEAL,
        peek_window=20.0,
        snap_window=4.0,
    )
    rng = random.Random(seed)
    async with app.run_test(size=SIZES[seed % len(SIZES)]) as pilot:
        for i, step in enumerate(steps):
            await app.workers.wait_for_complete()
            await pilot.pause()
            check(app, tracker)
            if app.game.over or isinstance(app.screen, ResultScreen):
                return
            wait = waits[i % len(waits)]
            if isinstance(app.screen, RoundScreen):
                clock.advance(wait * 5)  # the results read slowly
                app.tick()
                await pilot.pause()  # the table as drawn after that tick
                check(app, tracker)
                await pilot.press("enter")
                tracker.results_closed()
                continue
            if step == "move" and app.mine:
                legal = [str(a) for a in app.game.legal_actions(0)]
                await enter(app, pilot, rng.choice(legal))
            elif step == "peek" and app.mine and any(a.startswith("peek") for a in app.legal):
                await enter(app, pilot, next(a for a in app.legal if a.startswith("peek")))
            elif step == "help":
                await pilot.press("question_mark")
                assert isinstance(app.screen, HelpScreen)
                clock.advance(wait)
                app.tick()
                await pilot.pause()
                check(app, tracker)
                await pilot.press("escape")
            elif step == "scroll":
                await pilot.press(rng.choice(["pageup", "pagedown", "home", "end"]))
            elif step == "tab":
                await pilot.press("tab")
            elif step == "resize":
                await pilot.resize_terminal(*rng.choice(SIZES))
            clock.advance(wait)
            app.tick()


EXAMPLES = given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    steps=st.lists(st.sampled_from(STEPS), min_size=10, max_size=30),
    waits=st.lists(st.floats(0.0, 4.0), min_size=1, max_size=6),
)
"""Random games: the variant, its seed, the person's steps and the time between them."""

SLOW_EXAMPLES = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
"""Each example plays a whole table: no deadline, and no complaint that it takes time."""


@settings(SLOW_EXAMPLES, max_examples=6)
@EXAMPLES
def test_no_face_down_card_on_screen_past_its_reveal_time(
    variant: str, seed: int, steps: list[str], waits: list[float]
) -> None:
    asyncio.run(run_example(variant, seed, steps, waits))


@pytest.mark.slow
@settings(SLOW_EXAMPLES, max_examples=40)
@EXAMPLES
def test_no_face_down_card_on_screen_past_its_reveal_time_long(
    variant: str, seed: int, steps: list[str], waits: list[float]
) -> None:
    """The same property over more random games."""
    asyncio.run(run_example(variant, seed, steps, waits))
