"""Reads for a lazy start-up: the lobby's candidate rooms and the games not marked finished."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sqlalchemy import event, insert, text

from cardtable.store import GameRow, Store
from cardtable.store.db import games, rooms

from .helpers import with_store
from .test_writes import RESULT, room_row

T0 = 1_700_000_000.0


async def room(
    store: Store, room_id: str, created: float, games_done: list[bool], public: bool = True
) -> None:
    """A room created at ``created`` with one game per entry of ``games_done`` (finished or
    not); each finished game ends with an action stored together with its result."""
    await store.create_room(room_row(room_id, created=created, public=public))
    for no, done in enumerate(games_done, start=1):
        await store.start_game(GameRow(room_id, no, no, 1, created + no / 10))
        if done:
            await store.append(room_id, no, 1, 0, "knock", result=RESULT)


async def scene(store: Store) -> None:
    """Rooms of every kind, created one second apart (not in id order)."""
    await room(store, "waiting", T0 + 1, [])
    await room(store, "playing", T0 + 2, [False])
    await room(store, "over", T0 + 3, [True])
    await room(store, "rematch", T0 + 4, [True, False])
    await room(store, "private", T0 + 5, [False], public=False)
    await room(store, "private-wait", T0 + 6, [], public=False)
    await room(store, "repaired", T0 + 7, [False, True])  # game 1 lost its finished mark
    await room(store, "newest", T0 + 8, [False])
    await room(store, "again-over", T0 + 9, [True, True])


def test_lobby_candidates_are_public_rooms_not_over_newest_first(url: str) -> None:
    async def body(store: Store) -> None:
        await scene(store)
        assert await store.lobby_candidates() == ["newest", "rematch", "playing", "waiting"]
        assert await store.lobby_candidates(limit=2) == ["newest", "rematch"]
        assert await store.lobby_candidates(limit=0) == []
        assert await store.lobby_candidates(since=T0 + 2) == ["newest", "rematch", "playing"]
        assert await store.lobby_candidates(since=T0 + 2.5, limit=1) == ["newest"]
        assert await store.lobby_candidates(since=T0 + 100) == []
        # a room's last game ending takes it out; a new game of a room puts it back
        await store.append("newest", 1, 1, 0, "knock", result=RESULT)
        await store.start_game(GameRow("over", 2, 5, 9, time.time()))
        assert await store.lobby_candidates() == ["rematch", "over", "playing", "waiting"]

    asyncio.run(with_store(url, body))


def test_unfinished_games_lists_every_game_without_a_finished_mark(url: str) -> None:
    async def body(store: Store) -> None:
        await scene(store)
        expected = [
            ("playing", 1),
            ("rematch", 2),
            ("private", 1),
            ("repaired", 1),
            ("newest", 1),
        ]  # by start time
        assert await store.unfinished_games() == expected
        assert await store.unfinished_games(limit=2) == expected[:2]
        await store.finish_game("repaired", 1, RESULT)
        assert ("repaired", 1) not in await store.unfinished_games()
        assert len(await store.unfinished_games()) == 4
        # the rooms the old start-up rebuilt are still there for it
        assert set(await store.unfinished_rooms()) == {
            "waiting",
            "playing",
            "rematch",
            "private",
            "private-wait",
            "newest",
        }

    asyncio.run(with_store(url, body))


N = 10_000


def test_ten_thousand_rooms_answer_through_the_indexes(url: str) -> None:
    """10,000 rooms, most of them over: the lobby's 100 newest candidates and the unfinished
    games come back right, and the query plans use the indexes (speed is measured by
    benchmarks/server_abuse.py --startup, not asserted here)."""

    def rows() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        room_rows, game_rows = [], []
        for i in range(N):
            room_rows.append(
                {
                    "id": f"r{i:05d}",
                    "game": "kaboo",
                    "players": 2,
                    "options": {},
                    "public": i % 3 != 0,
                    "autostart": True,
                    "created": T0 + i,
                }
            )
            for no in (1, 2) if i % 2 else (1,):
                open_game = i % 10 == 7 and no == (2 if i % 2 else 1)
                game_rows.append(
                    {
                        "room_id": f"r{i:05d}",
                        "game_no": no,
                        "seed": i,
                        "base_version": 1,
                        "started": T0 + i + no,
                        "finished": None if open_game else T0 + i + no + 0.5,
                    }
                )
        return room_rows, game_rows

    room_rows, game_rows = rows()
    open_rooms = {g["room_id"] for g in game_rows if g["finished"] is None}
    want_lobby = [r["id"] for r in reversed(room_rows) if r["public"] and r["id"] in open_rooms]
    want_open = [(g["room_id"], g["game_no"]) for g in game_rows if g["finished"] is None]

    async def body(store: Store) -> None:
        async with store.engine.begin() as conn:
            await conn.execute(insert(rooms), room_rows)
            await conn.execute(insert(games), game_rows)
            if conn.dialect.name == "postgresql":
                await conn.execute(text("ANALYZE"))
        lobby = await store.lobby_candidates(limit=100)
        open_games = await store.unfinished_games()
        assert lobby == want_lobby[:100]
        assert open_games == want_open and len(open_games) == N // 10
        assert await store.lobby_candidates(limit=N) == want_lobby
        plans = await query_plans(store)
        assert "ix_rooms_public_created" in plans["lobby"], plans["lobby"]
        assert "ix_games_finished" in plans["unfinished"], plans["unfinished"]

    asyncio.run(with_store(url, body))


async def query_plans(store: Store) -> dict[str, str]:
    """The database's plans for the two queries, exactly as the store sends them."""
    sent: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        sent.append((statement, parameters))

    engine = store.engine.sync_engine
    event.listen(engine, "before_cursor_execute", capture)
    try:
        await store.lobby_candidates(limit=100)
        await store.unfinished_games()
    finally:
        event.remove(engine, "before_cursor_execute", capture)
    assert len(sent) == 2, sent
    plans = {}
    async with store.engine.connect() as conn:
        explain = "EXPLAIN QUERY PLAN " if conn.dialect.name == "sqlite" else "EXPLAIN "
        for name, (statement, parameters) in zip(("lobby", "unfinished"), sent, strict=True):
            rows = (await conn.exec_driver_sql(explain + statement, parameters)).all()
            plans[name] = "\n".join(str(tuple(r)) for r in rows)
    return plans
