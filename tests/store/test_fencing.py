"""Fencing (migration 0007): two stores on one database stand for two server processes. A room's
owner claims it (its lease epoch goes up); every write of a store whose fence is no longer the
room's epoch is refused whole with FencedOut, without sinking the other writes of its batch;
stores that hold no fence write as before."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

from cardtable.store import FencedOut, GameRow, SeatRow, Store, StoreError, migrations

from .helpers import execute, on_connection, with_store
from .test_writes import RESULT, room_row

T = TypeVar("T")

PEOPLE = [SeatRow(0, "human", name="Ann"), SeatRow(1, "human"), SeatRow(2, "ai", level="casual")]
"""Seats of the fenced room: a person, a free person's seat, an AI."""


async def with_two(
    url: str, body: Callable[[Store, Store], Awaitable[T]], fenced: bool = True
) -> T:
    """Open two stores on ``url`` (two server processes), run ``body`` with them, close them."""
    a, b = Store(url, fenced=fenced), Store(url, fenced=fenced)
    await a.open()
    await b.open()
    try:
        return await body(a, b)
    finally:
        await a.close()
        await b.close()


async def everything(store: Store, room_id: str) -> Any:
    """What the store reads back about a room: the room and seats, its games, their actions,
    its lease epoch."""
    games = await store.games(room_id)
    acts = [await store.actions(room_id, g.game_no) for g in games]
    return await store.room(room_id), games, acts, await store.epoch(room_id)


async def a_game_under_way(store: Store, room_id: str) -> None:
    """Create ``room_id`` (three seats, one free) with game 1 started and one action."""
    await store.create_room(room_row(room_id, players=3, seats=PEOPLE))
    await store.start_game(GameRow(room_id, 1, 11, 1, time.time()))
    await store.append(room_id, 1, 1, 0, "draw deck")


def every_write(store: Store, room_id: str) -> list[Callable[[], Awaitable[None]]]:
    """Each kind of write of an existing room with game 1 under way (one action stored)."""
    return [
        lambda: store.take_seat(room_id, 1, "Bo", "bb"),
        lambda: store.mark_hints(room_id, 0),
        lambda: store.mark_practice(room_id),
        lambda: store.append(room_id, 1, 2, 0, "discard"),
        lambda: store.append(room_id, 1, 2, 0, "knock", result=RESULT),
        lambda: store.finish_game(room_id, 1, RESULT),
        lambda: store.start_game(GameRow(room_id, 2, 12, 9, time.time())),
    ]


def test_a_fenced_store_owns_the_rooms_it_creates_and_a_plain_one_does_not(url: str) -> None:
    async def body(fenced: Store, plain: Store) -> Any:
        await fenced.create_room(room_row("f"))
        await plain.create_room(room_row("p"))
        return fenced.fences, plain.fences, await plain.epoch("f"), await fenced.epoch("p")

    async def run() -> Any:
        fenced = Store(url, fenced=True)
        await fenced.open()
        try:
            return await with_store(url, lambda plain: body(fenced, plain))
        finally:
            await fenced.close()

    assert asyncio.run(run()) == ({"f": 1}, {}, 1, 0)
    assert asyncio.run(with_store(url, lambda s: s.epoch("nowhere"))) is None


def test_a_claim_bumps_the_epoch_and_holds_it_as_the_fence(url: str) -> None:
    async def body(a: Store, b: Store) -> None:
        await a.create_room(room_row("r1"))
        assert await b.claim("r1") == 2
        assert (a.fences, b.fences) == ({"r1": 1}, {"r1": 2})
        assert await a.claim("r1") == 3
        assert await b.claim("r1") == 4
        assert (a.fences, b.fences, await a.epoch("r1")) == ({"r1": 3}, {"r1": 4}, 4)
        with pytest.raises(StoreError, match="no room 'nowhere'") as refused:
            await a.claim("nowhere")
        assert not isinstance(refused.value, FencedOut)
        assert "nowhere" not in a.fences and await a.epoch("nowhere") is None

    asyncio.run(with_two(url, body))


def test_every_write_of_a_store_fenced_out_is_refused_and_stores_nothing(url: str) -> None:
    async def body(a: Store, b: Store) -> None:
        await a_game_under_way(a, "r1")
        assert await b.claim("r1") == 2
        before = await everything(a, "r1")
        for write in every_write(a, "r1"):
            with pytest.raises(FencedOut) as refused:
                await write()
            assert refused.value.room == "r1" and "r1" in str(refused.value)
        assert await everything(b, "r1") == before
        assert a.fences == {"r1": 1}  # A still holds its (stale) fence: it is told, not changed

        # the new owner's writes go through, each of them
        for write in every_write(b, "r1")[:4]:
            await write()  # seat, hints, practice, action 2
        await b.append("r1", 1, 3, 0, "knock", result=RESULT)
        await b.finish_game("r1", 1, RESULT)  # (a repair: already over, it matches the row)
        await b.start_game(GameRow("r1", 2, 12, 9, time.time()))
        room, games, acts, epoch = await everything(a, "r1")
        assert [(s.name, s.token_hash, s.hints) for s in room.seats[:2]] == [
            ("Ann", None, True),
            ("Bo", "bb", False),
        ]
        assert room.practice and epoch == 2
        assert [(g.game_no, g.result) for g in games] == [(1, RESULT), (2, None)]
        assert [[(x.seq, x.action) for x in game] for game in acts] == [
            [(1, "draw deck"), (2, "discard"), (3, "knock")],
            [],
        ]

    asyncio.run(with_two(url, body))


def test_a_write_fenced_out_in_a_batch_sinks_none_of_the_others(url: str) -> None:
    """Writes of a stale room, of a room the store owns and of a room nobody claimed are queued
    together: they share one transaction, which fails; each is then retried alone, and only the
    stale one is refused, as FencedOut."""

    async def body(a: Store, b: Store) -> None:
        await a_game_under_way(a, "stale")
        await a_game_under_way(a, "own")
        await b.claim("stale")
        plain = Store(a.url)
        await plain.open()
        try:
            await a_game_under_way(plain, "free")
        finally:
            await plain.close()
        assert a.fences == {"stale": 1, "own": 1} and await a.epoch("free") == 0

        # first, good writes of the owned and the free room queued together: one commit
        commits, writes = a.commits, a.writes
        await asyncio.gather(
            a.append("own", 1, 2, 0, "discard"),
            a.append("free", 1, 2, 0, "discard"),
            a.append("own", 1, 3, 0, "discard"),
        )
        assert (a.commits - commits, a.writes - writes) == (1, 3)

        commits, writes = a.commits, a.writes
        stale_before = await everything(a, "stale")
        done = await asyncio.gather(
            a.append("own", 1, 4, 0, "draw deck"),
            a.append("stale", 1, 2, 0, "discard"),
            a.append("free", 1, 3, 0, "knock", result=RESULT),
            a.take_seat("stale", 1, "Eve", "ee"),
            a.take_seat("own", 1, "Bo", "bb"),
            return_exceptions=True,
        )
        ok = type(None)
        assert [type(d) for d in done] == [ok, FencedOut, ok, FencedOut, ok]
        # one failed batch, then the three good writes one by one
        assert (a.commits - commits, a.writes - writes) == (3, 3)
        assert await everything(a, "stale") == stale_before
        own = await everything(a, "own")
        assert [x.action for x in own[2][0]] == ["draw deck", "discard", "discard", "draw deck"]
        assert own[0].seats[1].name == "Bo"
        free = await everything(a, "free")
        assert [x.action for x in free[2][0]] == ["draw deck", "discard", "knock"]
        assert free[1][0].result == RESULT

    asyncio.run(with_two(url, body))


def test_a_claim_is_never_batched_with_other_writes(url: str) -> None:
    """A claim queued among writes commits alone, in queue order: a claim of no room fails by
    itself; writes queued before one's own claim committed carry the old fence and are refused
    (they were decided under the old ownership), writes after it carry the new one."""

    async def body(a: Store, b: Store) -> None:
        await a_game_under_way(a, "r1")
        commits = a.commits
        done = await asyncio.gather(
            a.append("r1", 1, 2, 0, "discard"),
            a.claim("nowhere"),
            a.append("r1", 1, 3, 0, "discard"),
            a.claim("r1"),
            a.append("r1", 1, 4, 0, "discard"),
            return_exceptions=True,
        )
        assert [type(d) for d in done[:3]] == [type(None), StoreError, type(None)]
        assert done[3] == 2 and isinstance(done[4], FencedOut)
        # the first two appends shared nothing with the claims: append, append, claim
        assert a.commits - commits == 3
        assert a.fences == {"r1": 2}
        await a.append("r1", 1, 4, 0, "knock")
        assert [x.seq for x in (await everything(b, "r1"))[2][0]] == [1, 2, 3, 4]

        # all good this time: still the append alone, then the claim alone
        commits = a.commits
        done = await asyncio.gather(
            a.append("r1", 1, 5, 0, "discard"),
            a.claim("r1"),
            a.append("r1", 1, 6, 0, "discard"),
            return_exceptions=True,
        )
        assert done[:2] == [None, 3] and isinstance(done[2], FencedOut)
        assert a.commits - commits == 2 and a.fences == {"r1": 3}
        assert [x.seq for x in (await everything(b, "r1"))[2][0]] == [1, 2, 3, 4, 5]

    asyncio.run(with_two(url, body))


def test_a_failed_create_holds_no_fence(url: str) -> None:
    """A fenced store that cannot create a room (its id is taken) must not think it owns the
    room that is there."""

    async def body(a: Store, b: Store) -> None:
        await a.create_room(room_row("r1"))
        with pytest.raises(StoreError):
            await b.create_room(room_row("r1", public=False))
        assert b.fences == {} and a.fences == {"r1": 1}
        room = await b.room("r1")
        assert room is not None and room.public

    asyncio.run(with_two(url, body))


def test_a_released_room_is_written_unfenced(url: str) -> None:
    """Release only forgets the fence: the store's later writes of the room are unchecked, as a
    single server's are. Wanted for the store (a room released and claimed again starts from
    the claim); a process that gave a room up must not write it at all, which is the web
    layer's part, not the store's."""

    async def body(a: Store, b: Store) -> None:
        await a_game_under_way(a, "r1")
        await b.claim("r1")
        with pytest.raises(FencedOut):
            await a.append("r1", 1, 2, 0, "discard")
        a.release("r1")
        a.release("never-held")  # nothing to forget: no error
        assert a.fences == {}
        await a.append("r1", 1, 2, 0, "discard")
        assert [x.action for x in (await everything(b, "r1"))[2][0]] == ["draw deck", "discard"]
        await b.append("r1", 1, 3, 0, "discard")  # the owner still writes
        assert await b.epoch("r1") == 2

    asyncio.run(with_two(url, body))


def test_stores_that_never_claim_write_as_before(url: str) -> None:
    """Single-server mode: no fence, no check, the epoch stays 0, and another store's claim does
    not stop a store that holds no fence."""

    async def body(a: Store, b: Store) -> None:
        await a_game_under_way(a, "r1")
        await b.append("r1", 1, 2, 0, "discard")
        await a.append("r1", 1, 3, 0, "discard")
        assert (a.fences, b.fences, await a.epoch("r1")) == ({}, {}, 0)
        await b.claim("r1")
        await a.append("r1", 1, 4, 0, "knock", result=RESULT)
        _, games, acts, epoch = await everything(a, "r1")
        assert [x.seq for x in acts[0]] == [1, 2, 3, 4] and games[0].result == RESULT
        assert epoch == 1

    asyncio.run(with_two(url, body, fenced=False))


def test_rooms_stored_before_revision_0007_are_at_epoch_0_and_can_be_claimed(url: str) -> None:
    async def at_0006() -> None:
        await with_store(url, Store.schema_revision)

        async def down(conn: AsyncConnection) -> None:
            await conn.run_sync(migrations.downgrade, "0006")

        await on_connection(url, down)
        await execute(
            url,
            "INSERT INTO rooms VALUES ('old1', 'kaboo', 2, '{\"target\": null}', TRUE, TRUE, "
            "1600000000.5, NULL, FALSE, FALSE, FALSE)",
        )

    asyncio.run(at_0006())

    async def upgraded(a: Store, b: Store) -> None:
        assert await a.schema_revision() == migrations.head() == "0008"
        assert await a.epoch("old1") == 0
        assert await a.claim("old1") == 1
        await a.mark_practice("old1")
        assert await b.claim("old1") == 2
        with pytest.raises(FencedOut):
            await a.mark_practice("old1")

    asyncio.run(with_two(url, upgraded))
