"""Players in the store (migration 0008), on SQLite and PostgreSQL: a store of today (0007, with
rooms and games in it) upgrades and keeps its rows; each game's end writes every seat's result
with its account; accounts, claims, deletion under "deleted player"; ratings and leaderboards."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from cardtable.store import GameRow, RoomRow, SeatRow, Store, migrations
from cardtable.store.db import results
from cardtable.store.players import NameTaken, Players, level_subject, player_subject

from .helpers import on_connection, with_store

RESULT: Any = {"rounds": [[3, 12, 7]], "totals": [3, 12, 7], "winners": [0], "round_winners": [[0]]}


def room(room_id: str, *, rated: bool = False, player: int | None = None) -> RoomRow:
    """A room of two people and one AI, the first seat ``player``'s."""
    return RoomRow(
        room_id,
        "kaboo",
        3,
        {"target": None},
        True,
        True,
        1.0,
        seats=[
            SeatRow(0, "human", name="Ann", token_hash="a" * 64, player_id=player),
            SeatRow(1, "human", name="Bo", token_hash="b" * 64),
            SeatRow(2, "ai", "casual", "Casual AI"),
        ],
        rated=rated,
    )


async def played(store: Store, row: RoomRow) -> None:
    """Store the room and one finished game of it."""
    await store.create_room(row)
    await store.start_game(GameRow(row.id, 1, 7, 1, time.time()))
    await store.append(row.id, 1, 1, 0, "knock", result=RESULT)


def test_a_store_of_today_upgrades_and_keeps_its_rows(url: str) -> None:
    async def at_0007(conn: AsyncConnection) -> None:
        await conn.run_sync(migrations.upgrade, "0007")

    asyncio.run(on_connection(url, at_0007))

    async def fill_old(conn: AsyncConnection) -> None:
        await conn.exec_driver_sql(
            "INSERT INTO rooms (id, game, players, options, public, autostart, created) "
            "VALUES ('old', 'kaboo', 2, '{}', true, true, 1.0)"
        )
        await conn.exec_driver_sql(
            "INSERT INTO seats (room_id, seat, type, name, token_hash, memory_aid) "
            "VALUES ('old', 0, 'human', 'Ann', 'aa', false), ('old', 1, 'ai', 'Casual AI', "
            "null, false)"
        )

    asyncio.run(on_connection(url, fill_old))

    async def read(store: Store) -> Any:
        assert await store.schema_revision() == migrations.head() == "0008"
        return await store.room("old")

    old = asyncio.run(with_store(url, read))
    assert old is not None and not old.rated
    assert [(s.name, s.token_hash, s.player_id) for s in old.seats] == [
        ("Ann", "aa", None),
        ("Casual AI", None, None),
    ]


def test_a_games_end_writes_every_seats_result_with_its_account(url: str) -> None:
    async def body(store: Store) -> Any:
        players = Players(store)
        ann = await players.create("Ann", "ann", "hash", 1.0)
        await played(store, room("r1", rated=True, player=ann.id))
        await played(store, room("r2", player=ann.id))
        # a rated room made a practice table before its game ended: not rated
        await store.create_room(room("r3", rated=True, player=ann.id))
        await store.start_game(GameRow("r3", 1, 7, 1, time.time()))
        await store.mark_practice("r3")
        await store.append("r3", 1, 1, 0, "knock", result=RESULT)
        async with store.engine.connect() as conn:
            rows = (await conn.execute(select(results).order_by("room_id", "seat"))).all()
        return ann.id, [
            (r.room_id, r.seat, r.player_id, r.score, r.place, r.won, r.rated) for r in rows
        ]

    ann, rows = asyncio.run(with_store(url, body))
    assert rows[:3] == [
        ("r1", 0, ann, 3, 1, True, True),
        ("r1", 1, None, 12, 3, False, True),
        ("r1", 2, None, 7, 2, False, True),
    ]
    assert [r[6] for r in rows[3:]] == [False] * 6  # unrated room; practice room


def test_accounts_claims_and_deletion(url: str) -> None:
    async def body(store: Store) -> None:
        players = Players(store)
        ann = await players.create("Ann", "ann", "hash", 1.0)
        with pytest.raises(NameTaken):
            await players.create("ANN", "ann", "hash", 2.0)
        bo = await players.create("Bo", "bo", "hash", 1.0)
        await played(store, room("g1"))  # two guests and an AI
        # a wrong key claims nothing; the right one claims the seat and its result
        assert await players.claim(ann.id, [("g1", 0, "z" * 64)]) == 0
        assert await players.claim(ann.id, [("g1", 0, "a" * 64)]) == 1
        assert await players.claim(bo.id, [("g1", 0, "a" * 64), ("g1", 1, "b" * 64)]) == 1
        assert (await players.stats(ann.id))["kaboo"] == {
            "played": 1,
            "won": 1,
            "avg_total": 3.0,
            "avg_score": 3.0,
        }
        assert [m["name"] for m in await players.played_with(ann.id)] == ["Bo"]
        recent = await players.recent(bo.id)
        assert [(g["room"], g["place"], g["won"]) for g in recent] == [("g1", 3, False)]
        assert [p["name"] for p in recent[0]["players"]] == ["Ann", "Bo", "Casual AI"]

        await players.open_session("s" * 64, ann.id, 5.0)
        assert (await players.session("s" * 64, 0.0)) == ann
        assert await players.session("s" * 64, 6.0) is None  # too old
        await players.open_session("o" * 64, ann.id, 1.0)
        await players.open_session("n" * 64, ann.id, 8.0, expired=3.0)  # forgets those before 3
        assert await players.session("o" * 64, 0.0) is None
        assert await players.session("n" * 64, 0.0) == ann
        await players.delete(ann.id, 9.0)
        assert await players.session("s" * 64, 0.0) is None
        assert await players.by_key("ann") is None
        gone = await players.by_id(ann.id)
        assert gone is not None and gone.name is None and gone.deleted == 9.0
        # the game stays, the seat under "deleted player"
        recent = await players.recent(bo.id)
        assert [p["name"] for p in recent[0]["players"]] == ["deleted player", "Bo", "Casual AI"]
        assert await players.played_with(bo.id) == []
        # the name is free again
        assert (await players.create("Ann", "ann", "hash", 10.0)).id != ann.id

    asyncio.run(with_store(url, body))


def _start(subject: str | None, game: str) -> tuple[float, float]:
    return (30.0, 5.0) if subject == "ai:casual" else (25.0, 25.0 / 3)


def _first_gains(before: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """A made-up update: the winners gain 1, the others lose 1; sigma shrinks by 1."""
    return [
        (mu + (1 if p == 1 else -1), sigma - 1)
        for (mu, sigma), p in zip(before, places, strict=True)
    ]


def test_ratings_once_per_game_history_and_leaderboard(url: str) -> None:
    async def body(store: Store) -> None:
        players = Players(store)
        ann, bo = [(await players.create(n, n.lower(), "h", 1.0)).id for n in ("Ann", "Bo")]
        for i in range(3):
            row = room(f"r{i}", rated=True, player=ann)
            row.seats[1].player_id = bo
            await played(store, row)  # Ann wins, the AI second, Bo last
        await played(store, room("plain", player=ann))  # not rated
        assert await players.unrated_games(0.0) == [("r0", 1), ("r1", 1), ("r2", 1)]
        assert not await players.rate("plain", 1, _start, _first_gains, 1.0)
        for i in range(3):
            assert await players.rate(f"r{i}", 1, _start, _first_gains, float(i))
            assert not await players.rate(f"r{i}", 1, _start, _first_gains, 9.0)  # once only
        assert await players.unrated_games(0.0) == []
        board = await players.leaderboard("kaboo", 3)
        assert [(name, r.mu, r.games) for name, r in board] == [("Ann", 28.0, 3), ("Bo", 22.0, 3)]
        assert await players.leaderboard("kaboo", 4) == []
        history = await players.history(player_subject(ann))
        assert [p["mu"] for p in history["kaboo"]] == [26.0, 27.0, 28.0]
        level = await players.rating(level_subject("casual"), "kaboo")
        assert level is not None and (level.mu, level.sigma, level.games) == (27.0, 2.0, 3)
        await players.delete(ann, 10.0)
        assert [name for name, _ in await players.leaderboard("kaboo", 3)] == ["Bo"]
        assert await players.history(player_subject(ann)) == {}

    asyncio.run(with_store(url, body))
