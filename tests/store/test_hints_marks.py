"""Hints at tables of people (migration 0005): a room keeps whether its people may ask for hints,
a seat keeps whether its person asked (and then has the memory aid); rooms and seats stored
before the revision read as without hints. Practice tables (migration 0006): a room keeps that
its person saw the AI players' cards; rooms stored before read as not practice."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

from cardtable.store import RoomRow, SeatRow, Store, StoreError, migrations

from .helpers import execute, on_connection, with_store
from .test_writes import room_row


def test_a_rooms_hints_and_a_seats_mark_are_kept_and_read_back(url: str) -> None:
    async def body(store: Store) -> tuple[RoomRow | None, RoomRow | None]:
        people = [SeatRow(0, "human", name="Ann"), SeatRow(1, "human", name="Bo")]
        await store.create_room(room_row("r1", hints=True, seats=people))
        await store.create_room(room_row("r2"))
        await store.mark_hints("r1", 1)
        return await store.room("r1"), await store.room("r2")

    r1, r2 = asyncio.run(with_store(url, body))
    assert r1 is not None and r2 is not None
    assert r1.hints is True and r2.hints is False
    assert [(s.hints, s.memory_aid) for s in r1.seats] == [(False, False), (True, True)]
    assert [(s.hints, s.memory_aid) for s in r2.seats] == [(False, False), (False, False)]


def test_only_a_persons_seat_can_be_marked(url: str) -> None:
    async def body(store: Store) -> RoomRow | None:
        await store.create_room(room_row("r1"))
        with pytest.raises(StoreError):
            await store.mark_hints("r1", 1)  # an AI's seat
        with pytest.raises(StoreError):
            await store.mark_hints("r1", 5)  # no such seat
        return await store.room("r1")

    room = asyncio.run(with_store(url, body))
    assert room is not None and not any(s.hints for s in room.seats)


def test_rooms_and_seats_stored_before_revision_0005_have_no_hints(url: str) -> None:
    async def at_0004() -> None:
        await with_store(url, Store.schema_revision)

        async def down(conn: AsyncConnection) -> None:
            await conn.run_sync(migrations.downgrade, "0004")

        await on_connection(url, down)
        await execute(
            url,
            "INSERT INTO rooms VALUES ('old1', 'kaboo', 2, '{\"target\": null}', TRUE, TRUE, "
            "1600000000.5, NULL, FALSE)",
            "INSERT INTO seats VALUES ('old1', 0, 'human', NULL, 'Ann', 'aa', TRUE), "
            "('old1', 1, 'human', NULL, 'Bo', 'bb', FALSE)",
        )

    asyncio.run(at_0004())

    async def upgraded(store: Store) -> tuple[str | None, RoomRow | None, RoomRow | None]:
        revision = await store.schema_revision()
        old = await store.room("old1")
        await store.mark_hints("old1", 1)
        return revision, old, await store.room("old1")

    revision, old, now = asyncio.run(with_store(url, upgraded))
    assert revision == migrations.head()
    assert old is not None and now is not None
    assert old.hints is False
    assert [(s.hints, s.memory_aid) for s in old.seats] == [(False, True), (False, False)]
    assert [(s.hints, s.memory_aid) for s in now.seats] == [(False, True), (True, True)]


def test_a_practice_room_is_kept_and_read_back(url: str) -> None:
    async def body(store: Store) -> tuple[RoomRow | None, RoomRow | None]:
        await store.create_room(room_row("r1"))
        await store.create_room(room_row("r2"))
        await store.mark_practice("r1")
        with pytest.raises(StoreError):
            await store.mark_practice("nowhere")
        return await store.room("r1"), await store.room("r2")

    r1, r2 = asyncio.run(with_store(url, body))
    assert r1 is not None and r2 is not None
    assert (r1.practice, r2.practice) == (True, False)


def test_rooms_stored_before_revision_0006_are_not_practice(url: str) -> None:
    async def at_0005() -> None:
        await with_store(url, Store.schema_revision)

        async def down(conn: AsyncConnection) -> None:
            await conn.run_sync(migrations.downgrade, "0005")

        await on_connection(url, down)
        await execute(
            url,
            "INSERT INTO rooms VALUES ('old1', 'kaboo', 2, '{\"target\": null}', TRUE, TRUE, "
            "1600000000.5, NULL, FALSE, TRUE)",
        )

    asyncio.run(at_0005())

    async def upgraded(store: Store) -> tuple[RoomRow | None, RoomRow | None]:
        old = await store.room("old1")
        await store.mark_practice("old1")
        return old, await store.room("old1")

    old, now = asyncio.run(with_store(url, upgraded))
    assert old is not None and now is not None
    assert (old.practice, old.hints) == (False, True)
    assert (now.practice, now.hints) == (True, True)
