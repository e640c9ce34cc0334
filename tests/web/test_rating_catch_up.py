"""A rated game whose ratings update was cut short (the process stopped between the game's end
and the update) is rated when a server starts again, once, with the model's real update."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from cardtable.ratings import level_ratings
from cardtable.store import GameRow, RoomRow, SeatRow, Store
from cardtable.store.players import level_subject, player_subject
from cardtable.web.accounts import Accounts
from cardtable.web.clock import ManualClock

RESULT: Any = {"rounds": [[3, 12]], "totals": [3, 12], "winners": [0], "round_winners": [[0]]}


def test_a_rated_game_left_unrated_is_rated_at_the_next_start(tmp_path: Path) -> None:
    async def body() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}")
        await store.open()
        try:
            clock = ManualClock(time.time())
            accounts = Accounts(store, clock)
            ann = await accounts.players.create("Ann", "ann", "h", clock.now())
            row = RoomRow(
                "r1",
                "kaboo",
                2,
                {"target": None},
                True,
                True,
                clock.now(),
                seats=[
                    SeatRow(0, "human", name="Ann", token_hash="a" * 64, player_id=ann.id),
                    SeatRow(1, "ai", "expert", "Expert AI"),
                ],
                rated=True,
            )
            await store.create_room(row)
            await store.start_game(GameRow("r1", 1, 5, 1, clock.now()))
            await store.append("r1", 1, 1, 0, "knock", result=RESULT)  # no update followed
            assert await accounts.players.rating(player_subject(ann.id), "kaboo") is None

            again = Accounts(store, clock)  # the next start
            assert await again.catch_up() == 1
            assert await again.catch_up() == 0  # once only
            mine = await again.players.rating(player_subject(ann.id), "kaboo")
            level = await again.players.rating(level_subject("expert"), "kaboo")
            assert mine is not None and level is not None
            assert mine.mu > 25.0 and mine.games == 1  # she beat the expert
            calibrated = level_ratings("kaboo")["expert"]
            assert level.mu < calibrated.mu and level.sigma < calibrated.sigma
        finally:
            await store.close()

    asyncio.run(body())
