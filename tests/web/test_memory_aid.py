"""Memory aid over the wire (real uvicorn, SQLite and PostgreSQL): a seat without it is sent the
table as a person sees it — no code of a face-down card — and learns a card only in the events
of that moment; a seat with it keeps what it knows; spectators see face-up cards only; the
choice is made when the room is created, shown to everyone, and stored (old stores open)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import (
    Column,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    String,
    Table,
    make_url,
    text,
)
from sqlalchemy.ext.asyncio import create_async_engine

import cardtable
from cardtable.events import Peek
from cardtable.store import Store
from cardtable.store.db import metadata as db_metadata

from ..webserver import Server, http, running_server
from .client import Client, create_room, join_room
from .play import drive, replay_expected, stored_game, unsaid

CODE_FIELDS = ("card", "cards", "shown", "out", "discard")
"""Event fields that carry card codes (the Cabo family)."""


def hand_codes(view: dict[str, Any]) -> list[str]:
    """Every card code a view gives for a face-down card in a hand (a card lying face up in a
    hand, ``face_up``, is public: cabo's card taken from the discard pile)."""
    return [
        slot["card"]
        for hand in view["hands"]
        for slot in hand
        if slot and slot["card"] and not slot.get("face_up")
    ]


def every_hand_code(view: dict[str, Any]) -> list[str]:
    """Every card code a view gives for a card in a hand, face up or down."""
    return [slot["card"] for hand in view["hands"] for slot in hand if slot and slot["card"]]


def unfinished(url: str) -> list[str]:
    """Ids of the stored rooms that are waiting or in play (read with the project's store)."""

    async def read() -> list[str]:
        store = Store(url)
        await store.open()
        try:
            return await store.unfinished_rooms()
        finally:
            await store.close()

    return asyncio.run(read())


def seats_of(server: Server, room: str) -> list[dict[str, Any]]:
    """The room summary's seats."""
    status, summary = http("GET", f"{server.url}/api/rooms/{room}")
    assert status == 200, summary
    seats: list[dict[str, Any]] = summary["seats"]
    return seats


# -- the views ----------------------------------------------------------------------------------


def test_a_seat_without_memory_aid_learns_cards_only_at_the_moment(server: Server) -> None:
    made = create_room(server, "cabo", ["human", "human+aid"], options={"target": None})
    room = made["room"]
    other = join_room(server, room, "Bo")
    bare, aided = Client(server, room, made["token"]), Client(server, room, other["token"])
    watcher = Client(server, room)
    for c in (bare, aided, watcher):
        c.join()
    # everyone (the spectator too) sees who has the memory aid
    for c in (bare, aided, watcher):
        assert c.state is not None
        assert [s["memory_aid"] for s in c.state["seats"]] == [False, True]
    assert [s["memory_aid"] for s in seats_of(server, room)] == [False, True]

    # Seat 0 (no memory aid) peeks at its card 0: the answer's event carries the card, to it
    # alone; its view does not.
    answer = bare.act("peek 0")
    assert answer["type"] == "state"
    peek = [e for e in answer["events"] if e["type"] == "peek"]
    assert len(peek) == 1 and peek[0]["at"] == "0.0" and peek[0]["card"]
    seen = peek[0]["card"]
    assert answer["view"]["hands"][0][0]["card"] is None
    assert hand_codes(answer["view"]) == []
    assert answer["view"]["hands"][0][0]["seen"] == [0]  # who looked stays public
    for c in (aided, watcher):
        frame = c.wait(lambda s: s["version"] == answer["version"])
        assert [e for e in unsaid(frame["events"]) if e["type"] == "peek"] == [
            {k: v for k, v in peek[0].items() if k not in ("card", "said")}
        ]
        assert hand_codes(frame["view"]) == []

    # Seat 1 (memory aid) peeks at two cards: its view keeps both codes, nobody else gets them.
    aided.act("peek 0")
    last = aided.act("peek 1")
    assert last["type"] == "state"
    kept = [last["view"]["hands"][1][0]["card"], last["view"]["hands"][1][1]["card"]]
    assert all(kept) and hand_codes(last["view"]) == kept
    for c in (bare, watcher):
        frame = c.wait(lambda s: s["version"] == last["version"])
        assert hand_codes(frame["view"]) == []
        assert all("card" not in e for e in frame["events"] if e.get("seat") == 1)

    # A reconnect gives seat 0 the table without its card, and no events; the engine agrees.
    bare.act("peek 1")
    again = Client(server, room, made["token"])
    state = again.join()
    assert state["seat"] == 0 and state["events"] == []
    assert hand_codes(state["view"]) == []
    seed, _, actions = stored_game(server.db_url, room)
    now = replay_expected("cabo", 2, {"target": None}, seed, actions, [False, True])[-1]
    assert state["view"] == now.views[0]  # the engine's view without memory
    perfect = replay_expected("cabo", 2, {"target": None}, seed, actions)[-1]
    assert perfect.views[0]["hands"][0][0]["card"] == seen  # what seat 0 saw, and forgot
    again.close()

    # The rest of the game: seat 0's frames never hold a code of a face-down card; seat 1's
    # hold what it knows; the spectator's only face-up cards; the end shows everything.
    drive([bare, aided, watcher], random.Random(8))
    for c in (bare, aided, watcher):
        c.drain(0.2)
    for c in (bare, watcher):
        playing = [f for f in c.frames if f["type"] == "state" and not f["view"]["over"]]
        assert playing
        for frame in playing:
            assert hand_codes(frame["view"]) == [], frame["view"]["hands"]
    aided_codes = [hand_codes(f["view"]) for f in aided.frames if f["type"] == "state"]
    assert any(aided_codes[:-1])
    # seat 0 learnt cards only through events, and every such event was its own or public
    for frame in bare.frames:
        for e in frame.get("events", []) if frame["type"] == "state" else []:
            if e["type"] in ("peek", "spy") and "card" in e:
                assert e["seat"] == 0, e
            if e["type"] == "draw" and "card" in e:
                assert e["seat"] == 0 or e["from"] == "discard", e
    final = bare.state
    assert final is not None and final["view"]["over"]
    assert len(every_hand_code(final["view"])) == sum(
        1 for hand in final["view"]["hands"] for slot in hand if slot
    )
    for c in (bare, aided, watcher):
        c.close()


def test_memory_aid_for_everyone_at_the_table(server: Server) -> None:
    made = create_room(server, "gabo", ["human", "human", "casual"], memory_aid=True)
    room = made["room"]
    expected = [True, True, False]  # an AI seat has no memory aid: its level models memory
    assert [s["memory_aid"] for s in seats_of(server, room)] == expected
    _, lobby = http("GET", server.url + "/api/rooms")
    listed = {r["room"]: r for r in lobby["rooms"]}
    assert [s["memory_aid"] for s in listed[room]["seats"]] == expected
    c = Client(server, room)
    state = c.join()
    assert [s["memory_aid"] for s in state["seats"]] == expected
    c.close()
    plain = create_room(server, "gabo", ["human", "human+aid", "casual"])
    assert [s["memory_aid"] for s in seats_of(server, plain["room"])] == [False, True, False]


def test_the_deal_reaches_each_seat_once(server: Server) -> None:
    """Kaboo shows each seat its bottom row when the cards are dealt: in the start's frame for
    a seat that is there, in the first join for a seat that was not; never again after."""
    made = create_room(server, "kaboo", ["human", "human"], options={"target": None})
    room = made["room"]
    first = Client(server, room, made["token"])
    assert first.join()["events"] == []  # waiting: nothing dealt yet
    other = join_room(server, room, "Bo")  # the last seat is taken: the game starts
    start = first.wait(lambda s: s["view"] is not None)
    seed, base, actions = stored_game(server.db_url, room)
    assert actions == [] and start["version"] == base
    game = cardtable.new_game("kaboo", players=2, seed=seed, options={"target": None})
    truth = game.view(0)["hands"]

    def peeks(frame: dict[str, Any]) -> dict[str, str | None]:
        """The deal's sights in a frame: address -> the card, if shown to this seat."""
        return {e["at"]: e.get("card") for e in frame["events"] if e["type"] == "peek"}

    assert peeks(start) == {
        "0.2": truth[0][2]["card"],
        "0.3": truth[0][3]["card"],
        "1.2": None,
        "1.3": None,
    }
    assert hand_codes(start["view"]) == []
    second = Client(server, room, other["token"])
    joined = second.join()
    assert peeks(joined) == {
        "0.2": None,
        "0.3": None,
        "1.2": game.view(1)["hands"][1][2]["card"],
        "1.3": game.view(1)["hands"][1][3]["card"],
    }
    assert hand_codes(joined["view"]) == []
    # a second tab, a reload: no events, the table without the cards
    for token in (made["token"], other["token"]):
        again = Client(server, room, token)
        state = again.join()
        assert state["events"] == [] and hand_codes(state["view"]) == []
        again.close()

    # while the game is on, its replay is refused (a replay never shows more than the table)
    status, refused = http("GET", f"{server.url}/api/rooms/{room}/games/1")
    assert status == 409, refused
    drive([first, second], random.Random(2))
    over = first.wait(lambda s: s["view"]["over"])
    # seat 0 offers a rematch, seat 1 accepts, the game deals again: both seats are there and
    # see their new bottom rows at once
    offer = first.request(type="rematch", room=room, token=first.token)
    assert offer["game_no"] == 1 and offer["rematch"] == {"by": 0, "accepted": [0], "declined": []}
    again = second.request(type="rematch", room=room, token=second.token, accept=True)
    assert again["game_no"] == 2 and again["rematch"] is None
    seed2, _, _ = stored_game(server.db_url, room, 2)
    game2 = cardtable.new_game("kaboo", players=2, seed=seed2, options={"target": None})
    assert peeks(again)["1.3"] == game2.view(1)["hands"][1][3]["card"]
    assert peeks(again)["0.2"] is None
    seen2 = first.wait(lambda s: s["version"] == again["version"])
    assert peeks(seen2)["0.2"] == game2.view(0)["hands"][0][2]["card"]
    assert over["version"] + 1 == again["version"]
    for c in (first, second):
        c.close()


def _swap_a_bottom_card_of_seat_0(server: Server, rng: random.Random) -> tuple[str, str] | None:
    """A kaboo room of two people where seat 1 (first to play) swaps away a card of seat 0's
    bottom row before seat 0 ever joined (seat 0 plays its turns without joining, never
    touching its own hand). Returns the room and seat 0's token, or ``None`` if no J or Q came
    to seat 1 before the round ended."""
    made = create_room(server, "kaboo", ["human", "human"], options={"target": None, "first": 1})
    room = made["room"]
    other = join_room(server, room, "Bo")
    mover = Client(server, room, other["token"])
    ghost = Client(server, room, made["token"])  # acts for seat 0, never joins
    mover.join()
    try:
        for _ in range(400):
            mover.drain()
            state = mover.state
            assert state is not None
            view = state["view"]
            if view["over"]:
                return None
            if view["actors"] == [0]:
                ghost.drain()
                mine = ghost.state["view"]["legal"] if ghost.state else ["draw deck"]
                if ghost.state is None or ghost.state["version"] != state["version"]:
                    mine = ["draw deck"] if view["drawer"] is None else ["discard"]
                pick = next(a for a in ("draw deck", "discard", "pass") if a in mine)
                ghost.act(pick, state["version"])
                mover.wait(lambda s, v=state["version"]: s["version"] > v)
                continue
            legal = view["legal"]
            if not legal:
                mover.recv(1)
                continue
            swaps = [
                a
                for a in legal
                if a.startswith(("exchange ", "look ")) and (" 0.2" in a or " 0.3" in a)
            ]
            if "exchange" in legal:  # after a look at a card of seat 0's bottom row
                mover.act("exchange")
                return room, made["token"]
            if swaps:
                answer = mover.act(swaps[0])
                if swaps[0].startswith("exchange "):
                    return room, made["token"]
                assert answer["type"] == "state"
                continue
            if view["drawer"] == 1:  # throw a drawn card away: its power may be a swap
                mover.act("discard" if "discard" in legal else legal[0])
                continue
            choice = "draw deck" if "draw deck" in legal else rng.choice(legal)
            if choice == "knock" or choice.startswith(("peek", "spy")):
                choice = "pass" if "pass" in legal else choice
            mover.act(choice)
        return None
    finally:
        mover.close()
        ghost.close()


def test_a_late_first_join_is_not_shown_a_card_that_moved(server: Server) -> None:
    """A seat first joins after another seat swapped one of its bottom cards away: the deal's
    sight of that position is left out (it would show a card that is no longer there), the
    other position's sight is given."""
    rng = random.Random(4)
    found = None
    for _ in range(10):  # a J or Q reaches seat 1 in nearly every round; try a few deals
        found = _swap_a_bottom_card_of_seat_0(server, rng)
        if found:
            break
    assert found is not None, "no deal gave seat 1 a swap"
    room, token = found
    first = Client(server, room, token)
    joined = first.join()
    seed, _, actions = stored_game(server.db_url, room)
    options = {"target": None, "first": 1}
    game = cardtable.new_game("kaboo", players=2, seed=seed, options=options)
    dealt = {
        e.for_seat(0)["at"]: e.for_seat(0)["card"]
        for e in game.opening_events
        if isinstance(e.full, Peek) and e.full.seat == 0
    }
    for seat, action in actions:
        game.play(seat, action)
    now = game.view(0)["hands"][0]
    still = {at: now[int(at.split(".")[1])]["card"] == card for at, card in dealt.items()}
    assert not all(still.values()), "a card of the bottom row has moved"
    shown = {e["at"]: e.get("card") for e in joined["events"] if e["type"] == "peek"}
    for at, card in dealt.items():
        assert (shown.get(at) == card) is still[at], (at, card, shown, now)
    assert hand_codes(joined["view"]) == []
    # and only once
    again = Client(server, room, token)
    assert again.join()["events"] == []
    first.close()
    again.close()


# -- bad bodies ---------------------------------------------------------------------------------

HUMANS = [{"type": "human"}, {"type": "human"}]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (
            {"game": "kaboo", "seats": [{"type": "human"}, {"type": "ai", "memory_aid": True}]},
            400,
            "memory aid",
        ),
        (
            {
                "game": "cabo",
                "seats": [{"type": "human"}, {"type": "ai", "level": "casual", "memory_aid": True}],
                "memory_aid": True,
            },
            400,
            "AI",
        ),
        ({"game": "kaboo", "seats": HUMANS, "options": {"target": 0}}, 400, "target"),
        ({"game": "cabo", "seats": HUMANS, "options": {"target": 1001}}, 400, "1000"),
        (
            {"game": "qute", "seats": HUMANS, "options": {"target": 2**70}},
            422,
            "target",
        ),  # beyond ±2^53: refused by the body check (422)
        ({"game": "gabo", "seats": HUMANS * 2, "options": {"target": "100"}}, 400, "target"),
        ({"game": "kaboo", "seats": HUMANS, "options": {"target": 50.0}}, 400, "target"),
        ({"game": "kaboo", "seats": HUMANS, "options": {"target": True}}, 400, "target"),
        (
            {"game": "kaboo", "seats": [{"type": "human", "memory_aid": "yes"}, {"type": "human"}]},
            422,
            "memory_aid",
        ),
        ({"game": "kaboo", "seats": HUMANS, "memory_aid": 1}, 422, "memory_aid"),
    ],
)
def test_bad_create_bodies_are_refused_and_create_nothing(
    server: Server, body: dict[str, Any], status: int, words: str
) -> None:
    before = unfinished(server.db_url)
    _, lobby_before = http("GET", server.url + "/api/rooms")
    got, answer = http("POST", server.url + "/api/rooms", body)
    assert got == status, answer
    assert words in json.dumps(answer["detail"]), answer
    assert unfinished(server.db_url) == before
    _, lobby_after = http("GET", server.url + "/api/rooms")
    assert lobby_after == lobby_before


def test_every_variant_plays_one_round_or_a_match(server: Server) -> None:
    for game in ("cabo", "cabo-german", "gabo", "kaboo", "qute"):
        for target in (None, 1, 60, 1000):
            made = create_room(server, game, ["human", "casual"], options={"target": target})
            _, summary = http("GET", f"{server.url}/api/rooms/{made['room']}")
            assert summary["options"]["target"] == target, (game, target)


# -- stores made before the memory aid was a seat's choice ----------------------------------------

old = MetaData()
for _name in ("rooms", "games", "actions"):  # unchanged since
    db_metadata.tables[_name].to_metadata(old)
Table(  # the seats table as it was: no memory_aid column
    "seats",
    old,
    Column("room_id", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("type", String(8), nullable=False),
    Column("level", String(32)),
    Column("name", String(32)),
    Column("token_hash", String(64)),
    ForeignKeyConstraint(["room_id"], ["rooms.id"]),
)
"""The tables as the store made them before seats had a ``memory_aid`` column."""


@pytest.fixture
def empty_store(store_url: str, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database of the module's kind (a new SQLite file, or a new database
    on the module's PostgreSQL server)."""
    if store_url.startswith("sqlite"):
        yield f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
        return
    name = f"old_{secrets.token_hex(4)}"

    async def create() -> None:
        engine = create_async_engine(store_url, isolation_level="AUTOCOMMIT")
        async with engine.connect() as conn:
            await conn.execute(text(f"CREATE DATABASE {name}"))
        await engine.dispose()

    asyncio.run(create())
    yield make_url(store_url).set(database=name).render_as_string(hide_password=False)


def test_a_store_from_before_the_memory_aid_opens_and_its_rooms_resume(
    empty_store: str, tmp_path: Path
) -> None:
    seed, token = 424242, "old-token"
    options = cardtable.new_game("kaboo", players=2, seed=seed, options={}).options
    game = cardtable.new_game("kaboo", players=2, seed=seed, options=options)
    played: list[tuple[int, str]] = []
    for _ in range(3):  # a few moves of the game in the old store
        seat = game.actors[0]
        action = str(game.legal_actions(seat)[0])
        game.play(seat, action)
        played.append((seat, action))
    now = time.time()

    async def build() -> None:
        engine = create_async_engine(empty_store)
        async with engine.begin() as conn:
            await conn.run_sync(old.create_all)
            t = old.tables
            await conn.execute(
                t["rooms"].insert(),
                {
                    "id": "oldroom",
                    "game": "kaboo",
                    "players": 2,
                    "options": options,
                    "public": True,
                    "autostart": True,
                    "created": now,
                },
            )
            await conn.execute(
                t["seats"].insert(),
                [
                    {
                        "room_id": "oldroom",
                        "seat": 0,
                        "type": "human",
                        "level": None,
                        "name": "Ann",
                        "token_hash": hashlib.sha256(token.encode()).hexdigest(),
                    },
                    {
                        "room_id": "oldroom",
                        "seat": 1,
                        "type": "human",
                        "level": None,
                        "name": "Bo",
                        "token_hash": hashlib.sha256(b"other").hexdigest(),
                    },
                ],
            )
            await conn.execute(
                t["games"].insert(),
                {
                    "room_id": "oldroom",
                    "game_no": 1,
                    "seed": seed,
                    "base_version": 1,
                    "started": now,
                },
            )
            await conn.execute(
                t["actions"].insert(),
                [
                    {
                        "room_id": "oldroom",
                        "game_no": 1,
                        "seq": i + 1,
                        "seat": seat,
                        "action": action,
                        "at": now,
                    }
                    for i, (seat, action) in enumerate(played)
                ],
            )
        await engine.dispose()

    asyncio.run(build())
    with running_server(tmp_path, db_url=empty_store) as srv:
        status, summary = http("GET", f"{srv.url}/api/rooms/oldroom")
        assert status == 200 and summary["status"] == "playing", summary
        c = Client(srv, "oldroom", token)
        state = c.join()
        # the room was made when everyone had the memory aid: its seats keep it
        assert [s["memory_aid"] for s in state["seats"]] == [True, True]
        assert state["version"] == 1 + len(played) and state["seat"] == 0
        assert state["view"] == game.view(0)
        assert hand_codes(state["view"])  # kaboo: the bottom row, remembered
        # the store takes new rooms, which record the choice
        made = create_room(srv, "kaboo", ["human", "casual"])
        assert [s["memory_aid"] for s in seats_of(srv, made["room"])] == [False, False]
        c.close()
    # the column is there now, and a second start leaves it be
    with running_server(tmp_path, db_url=empty_store) as srv:
        again = Client(srv, "oldroom", token)
        assert again.join()["view"] == game.view(0)
        again.close()
