"""Open hands for practice (``practice``): the one person at a table of AI players may see the AI
players' cards face up; the room is then a practice table for good (stored, shown in its
summary, for that game and every later one, never rated) and the switch turns the cards face
down again; refused where another person sits at the table. Only the person's own frames carry
the cards: a spectator's never do, and no view path but ``Game.open_view`` fills a code the seat
does not know.

A room manager runs in process on a :class:`ManualClock`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable import new_game, variants
from cardtable.catalog import language, say
from cardtable.game import Game
from cardtable.web import table
from cardtable.web.clock import ManualClock
from cardtable.web.protocol import PracticeMsg, ProtocolError, RematchMsg
from cardtable.web.rooms import Room, RoomManager

from .inprocess import advance_until, manager_on, run, until
from .test_hints import game_of, me_act, people, solo
from .test_hold import joined
from .test_turn_clock import Sink

_ids = iter(range(20_000_000, 21_000_000))
"""Ids of the messages sent here (apart from the joins' ids of test_hold)."""


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every game dealt from one seed."""
    monkeypatch.setattr(table.secrets, "randbits", lambda _bits: 777)
    yield


async def switch(manager: RoomManager, sink: Sink, room: Room, token: str, on: bool) -> Any:
    """Send ``practice`` and return its answer (a ``state``)."""
    msg_id = next(_ids)
    await manager.handle(
        sink.conn, PracticeMsg(type="practice", room=room.id, token=token, on=on, id=msg_id)
    )
    await until(lambda: any(f.get("id") == msg_id for f in sink.frames))
    return next(f for f in sink.frames if f.get("id") == msg_id)


async def play_out(
    clock: ManualClock, manager: RoomManager, me: Sink, room: Room, token: str
) -> None:
    """Play the person's seat (calling the end as soon as it may) until the game is over."""
    lock = manager.table(room).lock
    for _ in range(200):
        game = game_of(room)
        await advance_until(clock, lambda g=game: (g.over or g.actors == [0]) and not lock.locked())
        if game.over:
            return
        legal = [str(a) for a in game.legal_actions(0)]
        move = next((a for a in ("knock", "draw deck", "discard") if a in legal), legal[0])
        await me_act(manager, me, room, token, move)
    raise AssertionError("the game did not end")


def ai_codes(view: dict[str, Any], ai: int = 1) -> list[str | None]:
    """The codes a view gives for the AI's hand cards."""
    return [slot["card"] if slot else None for slot in view["hands"][ai]]


def truth(game: Game, ai: int = 1) -> list[str | None]:
    """The AI's hand as it is."""
    hand = game.view(ai)["hands"][ai]
    return [game.card_at(ai, pos) if slot else None for pos, slot in enumerate(hand)]


def test_the_one_person_sees_the_ai_cards_and_the_room_is_practice_for_good(
    store_url: str,
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, ai_delay=1.0) as manager:
            room, token = await solo(manager)
            me = await joined(manager, room, token)
            watcher = await joined(manager, room, None)
            game = game_of(room)
            assert me.state["open_hands"] is False and "open_hands" not in watcher.state
            assert not any(ai_codes(me.state["view"]))
            assert manager.summary(room)["practice"] is False
            opened = await switch(manager, me, room, token, True)
            assert opened["open_hands"] is True
            assert ai_codes(opened["view"]) == truth(game) and all(truth(game))
            assert opened["view"]["hands"][0] == game.view(0, memory=False)["hands"][0]
            assert manager.summary(room)["practice"] is True
            stored = await manager.store.room(room.id)
            assert stored is not None and stored.practice is True
            # the spectator is told the table changed, and still sees no AI card
            await until(lambda: watcher.state["version"] == room.version)
            assert not any(ai_codes(watcher.state["view"]))
            # the AI's moves keep the hands open
            version = room.version
            await advance_until(clock, lambda: room.version > version)
            await until(lambda: me.state["version"] == room.version)
            assert ai_codes(me.state["view"]) == truth(game)
            # face down again: the room stays practice
            closed = await switch(manager, me, room, token, False)
            assert closed["open_hands"] is False
            assert not any(ai_codes(closed["view"]))
            assert manager.summary(room)["practice"] is True
            # the next game is practice too, its hands open again once asked
            await switch(manager, me, room, token, True)
            await play_out(clock, manager, me, room, token)
            rematch = RematchMsg(type="rematch", room=room.id, token=token, id=next(_ids))
            await manager.handle(me.conn, rematch)
            await until(lambda: room.game is not game and room.game is not None)
            await until(lambda: me.state["game_no"] == 2)
            assert me.state["open_hands"] is True
            assert ai_codes(me.state["view"]) == truth(game_of(room))
            for sink in (me, watcher):
                sink.conn.drop()
        # a restart: still a practice table, its hands open
        async with manager_on(store_url, ManualClock()) as again:
            back = await again.get(room.id)
            assert back is not None and again.summary(back)["practice"] is True
            sink = await joined(again, back, token)
            assert sink.state["open_hands"] is True
            assert ai_codes(sink.state["view"]) == truth(game_of(back))
            sink.conn.drop()

    run(scenario)


def test_open_hands_are_refused_where_another_person_sits(store_url: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, ManualClock()) as manager:
            room, ann, bob = await people(manager, hints=False)
            for token in (ann, bob):
                sink = await joined(manager, room, token)
                assert "open_hands" not in sink.state
                with pytest.raises(ProtocolError) as err:
                    await switch(manager, sink, room, token, True)
                with language("en"):
                    assert err.value.code == "not_allowed"
                    assert err.value.message == say("practice.people")
                sink.conn.drop()
            assert manager.summary(room)["practice"] is False
            stored = await manager.store.room(room.id)
            assert stored is not None and stored.practice is False
            # a free seat is a person's too: a table waiting for a friend is not practice
            waiting, _, token = await manager.create(
                "kaboo",
                [("human", None, False), ("human", None, False), ("ai", "casual", False)],
                options={"target": None},
            )
            assert token is not None
            sink = await joined(manager, waiting, token)
            with pytest.raises(ProtocolError):
                await switch(manager, sink, waiting, token, True)
            sink.conn.drop()

    run(scenario)


@pytest.mark.parametrize("variant", variants.names())
def test_no_view_path_but_open_view_names_a_card_the_seat_does_not_know(variant: str) -> None:
    """Through a game, every view path a seat, a spectator or a log reads (the view with and
    without memory, the spectator's view, the history, the knowledge) is the same whether or
    not the open view was asked for just before, and names no card of another seat's hand
    that the seat does not know; the open view names them all."""
    g = new_game(variant, players=3, seed=9)
    r = random.Random(9)
    for _ in range(30):
        if g.over:
            break
        me = g.actors[0]
        paths = _paths(g, me)
        opened = g.open_view(me, False)
        assert _paths(g, me) == paths
        known = g.knowledge(me)
        for owner, row in enumerate(paths[0]["hands"]):
            if owner == me:
                continue
            for pos, slot in enumerate(row):
                if not slot or slot.get("face_up"):
                    continue
                if known is None or known[owner][pos] < 0:
                    for view in paths[:4]:
                        cell = view["hands"][owner][pos]
                        assert cell is None or cell.get("card") is None, (variant, owner, pos)
                assert opened["hands"][owner][pos]["card"] == g.card_at(owner, pos)
        g.play(me, str(r.choice(g.legal_actions(me))))


def _paths(g: Game, seat: int) -> tuple[Any, ...]:
    """What every view path but the open view gives ``seat`` (and a spectator) now."""
    return (
        g.view(seat, False),
        g.view(seat, True),
        g.spectator_view(False),
        g.spectator_view(True),
        g.history(seat),
        g.knowledge(seat),
    )
