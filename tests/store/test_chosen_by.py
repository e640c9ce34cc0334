"""Who chose each action: kept with the action (migration 0004), read back with it, refused when
it is not one of the known kinds; actions stored before the revision read as their seat's own."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

from cardtable.store import ActionRow, Store, migrations

from .helpers import execute, on_connection, query, with_store
from .test_writes import new_game


def test_who_chose_each_action_is_kept_and_read_back(url: str) -> None:
    async def body(store: Store) -> list[ActionRow]:
        await new_game(store, "r1")
        await store.append("r1", 1, 1, 0, "draw deck")
        await store.append("r1", 1, 2, 0, "discard", chosen_by="clock")
        await store.append("r1", 1, 3, 0, "draw deck", chosen_by="stand_in", stand_in="casual")
        return await store.actions("r1", 1)

    rows = asyncio.run(with_store(url, body))
    assert [(a.seq, a.chosen_by, a.stand_in) for a in rows] == [
        (1, None, None),
        (2, "clock", None),
        (3, "stand_in", "casual"),
    ]


@pytest.mark.parametrize(
    ("chosen_by", "stand_in"),
    [("robot", None), ("stand_in", None), ("clock", "casual"), (None, "casual"), ("", None)],
)
def test_an_unknown_chooser_is_refused_and_nothing_is_written(
    url: str, chosen_by: str | None, stand_in: str | None
) -> None:
    async def body(store: Store) -> list[ActionRow]:
        await new_game(store, "r1")
        with pytest.raises(ValueError):
            await store.append("r1", 1, 1, 0, "draw deck", chosen_by=chosen_by, stand_in=stand_in)
        return await store.actions("r1", 1)

    assert asyncio.run(with_store(url, body)) == []


def test_actions_stored_before_revision_0004_read_as_their_seats_own(url: str) -> None:
    """A store at 0003 with actions in it: the upgrade keeps every action, each read back with
    nobody else having chosen it; the new columns take new values at once."""

    async def at_0003() -> None:
        await with_store(url, Store.schema_revision)

        async def down(conn: AsyncConnection) -> None:
            await conn.run_sync(migrations.downgrade, "0003")

        await on_connection(url, down)
        await execute(
            url,
            "INSERT INTO rooms VALUES ('old1', 'kaboo', 2, '{\"target\": null}', TRUE, TRUE, "
            "1600000000.5, NULL, FALSE)",
            "INSERT INTO games (room_id, game_no, seed, base_version, started) "
            "VALUES ('old1', 1, 4242, 1, 1600000001.0)",
            "INSERT INTO actions VALUES ('old1', 1, 1, 0, 'draw deck', 1600000002.0), "
            "('old1', 1, 2, 0, 'discard', 1600000003.0)",
        )

    asyncio.run(at_0003())
    columns = asyncio.run(query(url, "SELECT * FROM actions"))
    assert all(len(row) == 6 for row in columns)  # the old shape, before the upgrade

    async def upgraded(store: Store) -> tuple[str | None, list[ActionRow], list[ActionRow]]:
        revision = await store.schema_revision()
        old = await store.actions("old1", 1)
        await store.append("old1", 1, 3, 1, "draw deck", chosen_by="clock")
        return revision, old, await store.actions("old1", 1)

    revision, old, now = asyncio.run(with_store(url, upgraded))
    assert revision == migrations.head()
    assert [(a.seq, a.action, a.chosen_by, a.stand_in) for a in old] == [
        (1, "draw deck", None, None),
        (2, "discard", None, None),
    ]
    assert now[-1].chosen_by == "clock" and now[:2] == old
