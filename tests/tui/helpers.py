"""Driving the full-screen table by keys, as a person would."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from textual.pilot import Pilot

from cardtable import agents, new_game
from cardtable.seat import Seat
from cardtable.tui.app import CardtableApp, RoundScreen

KEY_NAMES = {".": "full_stop"}


class FakeClock:
    """A clock the test moves by hand (the table reads the time only from it)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_app(
    variant: str,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    players: int | None = None,
    **kwargs: Any,
) -> CardtableApp:
    """A single round (where the variant allows it; ``options`` may ask for a match) of
    ``players`` seats against the cheapest bots, no clocks."""
    options = {"target": None} if options is None else options
    settings: dict[str, Any] = {
        "opponents": "random",
        "bot_pause": 0.0,
        "peek_window": 0.0,
        "snap_window": 0.0,
        "flash": 0.0,
        "save": False,
        "clock": FakeClock(),  # a reveal's time passes only when a test says so
    }
    settings.update(kwargs)
    return CardtableApp(new_game(variant, players, seed=seed, options=options), **settings)


async def settle(app: CardtableApp, pilot: Pilot[Any]) -> None:
    """Wait until it is the person's turn or the game is over (the bots think in threads); a
    round's results are read and closed with Enter."""
    for _ in range(2000):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if isinstance(app.screen, RoundScreen):
            await pilot.press("enter")
            continue
        if app.game.over or app.mine:
            return
    raise AssertionError("the bots never gave the turn back")


async def enter(app: CardtableApp, pilot: Pilot[Any], action: str) -> None:
    """Build ``action`` with keys only: letters for words, numbers for cards, Enter to end."""
    moves = len(app.game.log["actions"])
    words = action.split()
    for i, word in enumerate(words):
        if i < len(app.prefix):
            assert app.prefix[i] == word, (app.prefix, action)
            continue
        cards = {t[2]: t[1] for t in app.targets() if t[1][:1].isdigit()}
        if word in cards:
            for char in cards[word]:
                await pilot.press(KEY_NAMES.get(char, char))
            if app.typed:
                await pilot.press("enter")
        else:
            await pilot.press(app.choices()[word])
    if len(app.game.log["actions"]) == moves:
        await pilot.press("enter")
    assert len(app.game.log["actions"]) > moves, f"{action!r} was not played"
    assert app.game.log["actions"][moves] == [app.me, action]


async def play_out(app: CardtableApp, pilot: Pilot[Any], seed: int = 0, limit: int = 600) -> int:
    """Play the person's moves (a simple policy's choice) by keys until the game ends; the
    number of moves played."""
    player = agents.get("heuristic", seed=seed)
    played = 0
    while True:
        await settle(app, pilot)
        if app.game.over:
            return played
        await enter(app, pilot, str(player.act(Seat(app.game, app.me))))
        played += 1
        assert played < limit, "the game does not end"


def sync(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test on its own event loop (pytest runs plain functions)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run
