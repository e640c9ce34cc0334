"""The log a join carries: every move of the current game so far, its events as the joining
connection may read them now — a seat without memory aid and a spectator the public parts (so a
refreshed person reads what everyone else reads), a seat with the memory aid everything it saw.
It never names a card that was seen only privately (in the events' fields nor in their words,
``said``), it keeps the newest entries, and a rebuilt room gives the same log.

Every variant is played in process with random moves (SQLite and a real PostgreSQL); each log
is compared with the engine replayed from the store.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable import variants
from cardtable.events import QuteDraw, QuteRoundStart
from cardtable.game import Event, Game
from cardtable.web.movelog import MAX_LOG_ENTRIES, MoveLog
from cardtable.web.protocol import ActMsg, ProtocolError
from cardtable.web.rooms import Room, RoomManager

from ..helpers import strings_in
from .inprocess import at_rest, manager_on
from .play import expected_log, replay_expected, said_cards, unsaid, unsaid_log
from .test_hold import join_answer, joined
from .test_turn_clock import Sink, run

CHECK_EVERY = 5
"""Moves between two checks of the logs."""


def private_only(events: list[Event], players: int) -> set[str]:
    """Codes some event showed only to a part of the table (a peek, a spy, a look, a private
    draw) and no event ever showed to everyone."""
    shown: set[str] = set()
    private: set[str] = set()
    for e in events:
        public = e.visible(0)
        shown.update(strings_in(public))
        private.update(set(strings_in(e.visible(-1))) - set(strings_in(public)))
    return private - shown


async def check_logs(manager: RoomManager, room: Room, tokens: list[str]) -> tuple[int, int]:
    """Join as seat 0 (no memory aid), seat 1 (memory aid) and a spectator; check each one's
    log against the engine replayed from the store. Returns the number of moves so far and of
    public cards the memory-less log names."""
    assert room.game_row is not None
    game_row = room.game_row
    bare, aided, watcher = [await joined(manager, room, t) for t in (tokens[0], tokens[1], None)]
    answers = {0: join_answer(bare), 1: join_answer(aided), None: join_answer(watcher)}
    # the AI seat may have moved between the joins: each answer is checked at its own version
    stored = await manager.store.actions(room.id, game_row.game_no)
    actions = [(a.seat, a.action) for a in stored]
    memory = [s.memory_aid for s in room.row.seats]
    moments = replay_expected(
        room.row.game, room.row.players, room.row.options, game_row.seed, actions, memory
    )
    logs = {}
    for seat, answer in answers.items():
        upto = answer["version"] - game_row.base_version
        assert 0 <= upto <= len(actions)
        logs[seat] = answer["log"]
        base = game_row.base_version
        assert unsaid_log(logs[seat]) == expected_log(moments, base, actions, upto, seat, 10**6)
        # every event in words, which name no card but the ones the event itself holds
        for entry in logs[seat]:
            for event, plain in zip(entry["events"], unsaid(entry["events"]), strict=True):
                assert event["said"]["text"] and event["said"]["tone"]
                assert said_cards(event["said"]["text"]) <= set(strings_in(plain)), event
    memory_game = moments[0].memory_game
    # the refreshed person reads what a spectator reads: the public parts (in Qute, a hand is
    # face up to its owner: a seat reads its own draws again, aid or not)
    # (in words told from each one's side: "you" for the seat, its name for the spectator)
    if answers[0]["version"] == answers[None]["version"] and memory_game:
        assert unsaid_log(logs[0]) == unsaid_log(logs[None])
    # no card seen only privately is named in a memory-less log
    codes = set(cardtable.new_game(room.row.game, players=room.row.players, seed=0).codes)
    seen: list[Event] = [e for m in moments for e in m.events]
    hidden = private_only(seen, room.row.players) & codes
    for seat in (0, None) if memory_game else (None,):
        named = set(strings_in(logs[seat])) & codes
        assert not named & hidden, (room.row.game, seat, named & hidden)
    if not memory_game:  # Qute: seat 0's own draws are in its log, and nobody else's
        upto0 = answers[0]["version"] - game_row.base_version
        mine = {
            c
            for m in moments[: upto0 + 1]
            for e in m.events
            if e.audience & 1
            for c in set(strings_in(e.visible(1))) - set(strings_in(e.visible(0)))
        }
        named0 = set(strings_in(logs[0])) & codes
        assert hidden & mine <= named0
        assert not (named0 & hidden) - mine
    # ... and every card shown to the whole table is named in it, as it is for everyone
    upto = answers[0]["version"] - game_row.base_version
    public = {
        c for m in moments[: upto + 1] for e in m.events for c in strings_in(e.visible(0))
    } & codes
    assert public <= set(strings_in(logs[0])), (room.row.game, public - set(strings_in(logs[0])))
    for sink in (bare, aided, watcher):
        sink.conn.drop()
    return len(actions), len(public)


@pytest.mark.parametrize("game", variants.names())
def test_every_log_is_what_its_reader_may_read_and_names_no_private_card(
    store_url: str, game: str
) -> None:
    async def scenario() -> None:
        async with manager_on(
            store_url, ai_delay=0.0, turn_time=0.0, peek_window=600.0, snap_window=600.0
        ) as manager:
            var = variants.get(game)
            seats = [("human", None, False), ("human", None, True)]
            if var.max_players >= 3:
                seats.append(("ai", "casual", False))
            rng = random.Random(f"log-{game}")
            call = var.details.get("call")
            mover = Sink()
            # the AI seat may end a Qute game early: how soon depends on when it moves between
            # the people's moves; a game over before a check in play is dealt again
            for _deal in range(10):
                room, tokens, g = await two_people_room(manager, game, seats)
                moves, checks = await play_checking(manager, room, tokens, g, rng, call, mover)
                if checks >= 2:
                    break
            played, named = await check_logs(manager, room, tokens)
            # one check in play at least, and one at the end
            assert played >= moves and checks >= 2
            assert named > 0  # the memory-less log names the public cards (a discard, a play)
            mover.conn.drop()

    run(scenario)


async def two_people_room(
    manager: RoomManager, game: str, seats: list[tuple[str, str | None, bool]]
) -> tuple[Room, list[str], Game]:
    """A new room of ``seats`` (two people first, the second named Bob), its tokens and game."""
    room, _, first = await manager.create(game, seats, options={"target": None})
    assert first is not None
    _, _, second = await manager.take_seat(room.id, "Bob")
    assert [s.memory_aid for s in room.row.seats][:2] == [False, True]
    assert room.game is not None
    return room, [first, second], room.game


async def play_checking(
    manager: RoomManager,
    room: Room,
    tokens: list[str],
    g: Game,
    rng: random.Random,
    call: object,
    mover: Sink,
) -> tuple[int, int]:
    """Play the people's seats at random (no early call) to the end of the game, checking the
    logs every :data:`CHECK_EVERY` moves and once at the end; the moves made and the checks."""
    moves = checks = 0
    while not g.over:
        await at_rest(manager.table(room), lambda: g.over or any(s in (0, 1) for s in g.actors))
        seat = next((s for s in g.actors if s in (0, 1)), None)
        if seat is None:
            continue
        legal = g.legal_actions(seat)
        # no early call: the round lasts long enough for several checks
        action = str(rng.choice([a for a in legal if a.name != call] or legal))
        msg = ActMsg(
            type="act",
            room=room.id,
            token=tokens[seat],
            action=action,
            version=room.version,
        )
        try:
            await manager.handle(mover.conn, msg)
        except ProtocolError as exc:  # the AI moved meanwhile
            assert exc.code in ("stale", "not_your_turn", "game_over"), exc.code
            continue
        moves += 1
        if moves % CHECK_EVERY == 0:
            await check_logs(manager, room, tokens)
            checks += 1
    return moves, checks + 1


def test_the_log_keeps_the_newest_entries() -> None:
    log = MoveLog(limit=3)
    deal = Event(1, QuteRoundStart(1, 0))
    log.reset(10, [deal])
    assert [e["seat"] for e in log.read(0)] == [None]  # the deal opens a whole log
    for k in range(1, 6):
        log.add(10 + k, k % 2, None, [Event(1 + k, QuteDraw(k % 2, False))])
    entries = log.read(0)
    assert [e["version"] for e in entries] == [13, 14, 15]  # the newest three, oldest first
    assert entries[0]["seat"] is not None  # the deal was left out: the log is not whole
    with pytest.raises(ValueError):
        MoveLog(limit=0)
    assert MoveLog().limit == MAX_LOG_ENTRIES


def test_a_join_carries_at_most_the_rooms_bound(store_url: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, ai_delay=0.0, turn_time=0.0) as manager:
            rng = random.Random(2)
            mover = Sink()
            for _deal in range(10):  # a deal the AI ends within four moves is dealt again
                room, _, token = await manager.create(
                    "qute",
                    [("human", None, False), ("ai", "casual", False)],
                    options={"target": None, "first": 1},
                )
                assert token is not None and room.game is not None
                room.moves = MoveLog(limit=4)  # as the server's bound, only smaller
                room.moves.reset(room.version, room.game.opening_events)
                game = room.game
                for _ in range(4):
                    await at_rest(manager.table(room), lambda g=game: g.over or 0 in g.actors)
                    if game.over:
                        break
                    msg = ActMsg(
                        type="act",
                        room=room.id,
                        token=token,
                        action=str(rng.choice(game.legal_actions(0))),
                        version=room.version,
                    )
                    await manager.handle(mover.conn, msg)
                await at_rest(manager.table(room), lambda: True)
                if not game.over:
                    break
            assert not game.over
            me = await joined(manager, room, token)
            answer = join_answer(me)
            log: list[dict[str, Any]] = answer["log"]
            now = answer["version"]
            assert len(log) == 4 and log[-1]["version"] == now
            assert [e["version"] for e in log] == list(range(now - 3, now + 1))
            assert all(e["seat"] is not None for e in log)
            me.conn.drop()
            mover.conn.drop()

    run(scenario)
