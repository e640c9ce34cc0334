"""Writes: a game's last action and its end are stored together or not at all; rooms keep their
turn time and games their rules version."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from cardtable import variants
from cardtable.store import GameRow, RoomRow, SeatRow, Store, StoreError

from .helpers import with_store

RESULT: Any = {"rounds": [[3, 12]], "totals": [3, 12], "winners": [0]}


def room_row(room_id: str, **kw: Any) -> RoomRow:
    """A two-seat kaboo room."""
    fields: dict[str, Any] = {
        "id": room_id,
        "game": "kaboo",
        "players": 2,
        "options": {"target": None},
        "public": True,
        "autostart": True,
        "created": time.time(),
        "seats": [SeatRow(0, "human", name="Ann"), SeatRow(1, "ai", level="casual")],
    }
    fields.update(kw)
    return RoomRow(**fields)


async def new_game(store: Store, room_id: str, game_no: int = 1, **kw: Any) -> None:
    """Store a room (for game 1) and the start of one of its games."""
    if game_no == 1:
        await store.create_room(room_row(room_id))
    await store.start_game(GameRow(room_id, game_no, 7 + game_no, 1, time.time(), **kw))


async def stored(store: Store, room_id: str) -> tuple[list[GameRow], list[tuple[int, str]]]:
    """The room's games and the actions of its first game."""
    games = await store.games(room_id)
    actions = [(a.seq, a.action) for a in await store.actions(room_id, 1)]
    return games, actions


def test_the_last_action_and_the_end_of_the_game_are_written_together(url: str) -> None:
    async def body(store: Store) -> None:
        await new_game(store, "r1")
        before = store.commits
        await store.append("r1", 1, 1, 0, "draw deck")
        await store.append("r1", 1, 2, 0, "discard", result=RESULT)
        assert store.commits == before + 2  # one transaction for the pair
        games, actions = await stored(store, "r1")
        assert actions == [(1, "draw deck"), (2, "discard")]
        (game,) = games
        assert game.result == RESULT and game.finished is not None
        assert game.finished >= game.started and game.actions == 2
        assert await store.unfinished_games() == []
        assert await store.lobby_candidates() == []

    asyncio.run(with_store(url, body))


def test_a_pair_whose_action_is_refused_writes_neither(url: str) -> None:
    """A duplicate action number: the insert fails, so the game is not marked over."""

    async def body(store: Store) -> None:
        await new_game(store, "r1")
        await store.append("r1", 1, 1, 0, "draw deck")
        with pytest.raises(StoreError):
            await store.append("r1", 1, 1, 0, "discard", result=RESULT)
        games, actions = await stored(store, "r1")
        assert actions == [(1, "draw deck")]
        assert games[0].finished is None and games[0].result is None
        assert await store.unfinished_games() == [("r1", 1)]
        # the store goes on: the right number is taken, with the end of the game
        await store.append("r1", 1, 2, 0, "discard", result=RESULT)
        games, actions = await stored(store, "r1")
        assert actions == [(1, "draw deck"), (2, "discard")]
        assert games[0].result == RESULT

    asyncio.run(with_store(url, body))


def test_a_pair_for_a_game_that_does_not_exist_writes_nothing(url: str) -> None:
    async def body(store: Store) -> None:
        await new_game(store, "r1")
        with pytest.raises(StoreError):
            await store.append("r1", 2, 1, 0, "discard", result=RESULT)
        with pytest.raises(StoreError):
            await store.append("nope", 1, 1, 0, "discard", result=RESULT)
        assert await store.actions("r1", 2) == []
        assert await store.actions("nope", 1) == []
        assert [g.game_no for g in await store.games("r1")] == [1]
        assert await store.unfinished_games() == [("r1", 1)]

    asyncio.run(with_store(url, body))


def test_a_pair_whose_end_cannot_be_written_leaves_out_the_action_too(url: str) -> None:
    """The action's insert succeeds and the game's update then fails (a result that cannot be
    stored): the transaction is rolled back, the action is not stored."""

    async def body(store: Store) -> None:
        await new_game(store, "r1")
        await store.append("r1", 1, 1, 0, "draw deck")
        with pytest.raises(StoreError):
            await store.append("r1", 1, 2, 0, "discard", result={"totals": {1, 2}})
        games, actions = await stored(store, "r1")
        assert actions == [(1, "draw deck")]
        assert games[0].finished is None and games[0].actions == 1

    asyncio.run(with_store(url, body))


def test_a_bad_pair_in_a_batch_sinks_neither_itself_half_way_nor_the_others(url: str) -> None:
    """Writes queued together share one transaction; when it fails, each write is retried
    alone, and the action-with-end pair is one write: it stays whole."""

    async def body(store: Store) -> None:
        for room_id in ("a", "b", "c"):
            await new_game(store, room_id)
        commits, writes = store.commits, store.writes
        # created in one go: every write is queued before the writer takes the first
        tasks = [
            asyncio.ensure_future(store.append("a", 1, 1, 0, "draw deck")),
            asyncio.ensure_future(store.append("b", 1, 1, 1, "discard", result=RESULT)),
            asyncio.ensure_future(store.append("c", 1, 1, 0, "knock", result={"x": {0}})),
            asyncio.ensure_future(store.append("a", 1, 2, 0, "discard", result=RESULT)),
        ]
        done = await asyncio.gather(*tasks, return_exceptions=True)
        assert [type(d) for d in done] == [type(None), type(None), StoreError, type(None)]
        # one failed batch, then the three good writes one by one
        assert (store.commits - commits, store.writes - writes) == (3, 3)
        both = {"a": [(1, "draw deck"), (2, "discard")], "b": [(1, "discard")]}
        for room_id, expected in both.items():
            games, actions = await stored(store, room_id)
            assert actions == expected
            assert games[0].result == RESULT
        games, actions = await stored(store, "c")
        assert actions == [] and games[0].finished is None
        assert await store.unfinished_games() == [("c", 1)]

    asyncio.run(with_store(url, body))


def test_appends_without_a_result_leave_the_game_open_and_finish_game_repairs(url: str) -> None:
    async def body(store: Store) -> None:
        await new_game(store, "r1")
        await asyncio.gather(*(store.append("r1", 1, i, 0, f"a{i}") for i in range(1, 6)))
        games, actions = await stored(store, "r1")
        assert [seq for seq, _ in actions] == [1, 2, 3, 4, 5]
        assert games[0].finished is None
        await store.finish_game("r1", 1, RESULT)
        games, _ = await stored(store, "r1")
        assert games[0].result == RESULT and games[0].finished is not None
        with pytest.raises(StoreError):
            await store.finish_game("r1", 9, RESULT)

    asyncio.run(with_store(url, body))


def test_the_rules_version_round_trips(url: str) -> None:
    async def body(store: Store) -> None:
        await new_game(store, "r1", rules=variants.rules_version("kaboo"))
        await store.append("r1", 1, 1, 0, "discard", result=RESULT)
        await new_game(store, "r1", game_no=2, rules="kaboo/7")
        await new_game(store, "r2")  # no rules version given
        assert [g.rules for g in await store.games("r1")] == ["kaboo/1", "kaboo/7"]
        assert [g.rules for g in await store.games("r2")] == [None]

    assert variants.rules_version("kaboo") == "kaboo/1"
    asyncio.run(with_store(url, body))
    # and once more after the store is closed and opened again
    again = asyncio.run(with_store(url, lambda s: s.games("r1")))
    assert [g.rules for g in again] == ["kaboo/1", "kaboo/7"]


def test_a_rooms_turn_time_round_trips(url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_room(room_row("timed", turn_time=42.5))
        await store.create_room(room_row("default"))
        await store.create_room(room_row("quick", turn_time=0.25))

    asyncio.run(with_store(url, body))

    async def read(store: Store) -> list[RoomRow | None]:
        return [await store.room(r) for r in ("timed", "default", "quick", "missing")]

    timed, default, quick, missing = asyncio.run(with_store(url, read))
    assert timed is not None and timed.turn_time == 42.5
    assert default is not None and default.turn_time is None
    assert quick is not None and quick.turn_time == 0.25
    assert missing is None
    assert timed.seats == room_row("timed").seats
    assert timed.options == {"target": None} and timed.public and timed.autostart


def test_rules_versions_of_the_variants() -> None:
    for name in variants.names():
        variant = variants.get(name)
        assert variant.rules_version >= 1
        assert variants.rules_version(name) == f"{name}/{variant.rules_version}"
        for alias in variant.aliases:
            assert variants.rules_version(alias) == variants.rules_version(name)
    with pytest.raises(ValueError):
        variants.rules_version("no-such-game")
    assert "rules_version" in variants.__all__
