"""A room's old owner that wakes up cannot write past the new one: two room servers of a cluster
in this process, on one PostgreSQL and one Redis (both real, started here).

Process A plays a room and then stops beating (as a process paused by the system would): its
``alive`` key expires, process B takes the room over (its lease, then the store's fence) and
plays on. When A wakes and a client of its own acts, the store refuses the write, nothing of it
is stored, the client is told the room moved, and A lets the room go and closes its
connections with code 1012, so they reconnect to the new owner.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from cardtable.store import Store
from cardtable.web.cluster import RESTART_CODE, Cluster
from cardtable.web.protocol import ActMsg, JoinMsg, ProtocolError
from cardtable.web.room import Conn
from cardtable.web.rooms import RoomManager

from ..pgserver import PostgresServer
from ..redisserver import RedisServer
from .inprocess import IN_PROCESS, run, until

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def urls() -> Iterator[tuple[str, str]]:
    """A PostgreSQL store URL and a Redis URL, both throwaway servers."""
    with PostgresServer() as pg, RedisServer() as redis:
        yield pg.url, redis.url


class Sink:
    """A connection in process: the frames it was sent, decoded, and whether it was closed."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.closed = False
        self.conn = Conn(self._send, self._close)
        self.task = asyncio.ensure_future(self.conn.run_sender())

    async def _send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    async def _close(self) -> None:
        self.closed = True

    def answer(self, msg_id: int) -> dict[str, Any] | None:
        """The frame answering ``msg_id``, if it came."""
        return next((f for f in self.frames if f.get("id") == msg_id), None)


@asynccontextmanager
async def process(db: str, redis: str) -> AsyncIterator[tuple[RoomManager, Cluster]]:
    """One room server of the cluster, started as the app starts it."""
    store = Store(db, fenced=True)
    await store.open()
    manager = RoomManager(store, IN_PROCESS)
    cluster = Cluster(redis, beat=0.2, alive_ttl=0.6)
    manager.attach(cluster)
    manager.start()
    await cluster.start(manager)
    try:
        yield manager, cluster
    finally:
        await manager.close()
        await store.close()


def test_a_stale_owner_cannot_write_past_the_new_one(urls: tuple[str, str]) -> None:
    db, redis = urls

    async def scenario() -> None:
        async with process(db, redis) as (a, a_cluster), process(db, redis) as (b, _b_cluster):
            room, _seat, ann = await a.create(
                "qute", [("human", None, False)] * 2, options={"target": None, "first": 0}
            )
            _, _, bob = await a.take_seat(room.id, "Bob")
            assert ann is not None
            first = Sink()  # Ann, connected to A, the owner
            await a.handle(first.conn, JoinMsg(type="join", room=room.id, token=ann, id=1))
            await until(lambda: first.answer(1) is not None)
            # A stops beating, as if paused: its alive key runs out
            for task in a_cluster._tasks:
                task.cancel()
            await a_cluster.redis.delete(f"ct:alive:{a_cluster.id}")
            # Bob, connected to B, joins: B takes the room over and plays on
            second = Sink()
            await b.handle(second.conn, JoinMsg(type="join", room=room.id, token=bob, id=2))
            await until(lambda: second.answer(2) is not None)
            assert room.id in b.rooms
            assert await b.store.epoch(room.id) == 2
            stored = await b.store.games(room.id)
            moves_before = stored[-1].actions
            # A wakes: Ann's move is refused by the store; nothing of it is stored
            view = first.answer(1)
            assert view is not None and view["view"]["legal"], view
            game = b.rooms[room.id].game
            assert game is not None and 0 in game.actors
            action = view["view"]["legal"][0]
            msg = ActMsg(
                type="act", room=room.id, token=ann, action=action, version=view["version"], id=3
            )
            with pytest.raises(ProtocolError) as refused:
                await a.handle(first.conn, msg)
            assert refused.value.code == "room_moved"
            assert (await b.store.games(room.id))[-1].actions == moves_before
            # A lets the room go and closes Ann's connection with 1012
            await until(lambda: room.id not in a.rooms and first.closed)
            assert first.conn.close_code == RESTART_CODE
            # the new owner plays the same move for Ann, now connected to B
            again = Sink()
            await b.handle(again.conn, JoinMsg(type="join", room=room.id, token=ann, id=4))
            await until(lambda: again.answer(4) is not None)
            await b.handle(again.conn, msg.model_copy(update={"id": 5}))
            await until(lambda: again.answer(5) is not None)
            played = again.answer(5)
            assert played is not None and played["type"] == "state", played
            assert (await b.store.games(room.id))[-1].actions == moves_before + 1

    run(scenario)
