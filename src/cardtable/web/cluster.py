"""Several server processes, one service: rooms leased over Redis (docs/deploy.md).

Every process of a cluster runs the whole app on the same store (PostgreSQL) and the same
Redis; a load balancer spreads clients over them with no sticky sessions. A room is played by
one process at a time, its *owner*:

- **Leases.** The owner holds the key ``ct:lease:<room>`` (its process id, renewed every
  :data:`BEAT` seconds, expiring after :data:`LEASE_TTL`). A process that needs a room nobody
  holds, or whose holder is dead (its ``ct:alive:<process>`` key, renewed every beat, expired
  after :data:`ALIVE_TTL`), takes the lease in one atomic step (:data:`_ACQUIRE`) and then
  claims the room in the store (:meth:`.Store.claim`), which fences out the old owner: a write
  of a process that lost the room is refused by the store (:class:`.FencedOut`), so a stale
  owner that wakes up cannot write past the new one. A process that finds at its next beat that
  its lease is gone lets the room go (its connections are closed with code 1012: reconnect).
- **Forwarding.** A client may be connected to any process. A message about a room another
  process owns is forwarded to that owner over its Redis channel ``ct:proc:<process>``
  (:meth:`Cluster.forward`); the owner handles it for a :class:`RemoteConn` that stands for
  the client, and each frame the room builds for that connection (its seat's own view, or a
  spectator's) goes back over the client's process's channel to the client alone. Messages of
  one connection are handled in order.
- **Failover.** A process that dies stops renewing its ``alive`` key: within
  :data:`ALIVE_TTL` seconds the processes holding its clients' connections close them with
  code 1012, the clients reconnect through the balancer, and the first process asked for one
  of its rooms takes the lease and rebuilds the room from the store, where every acknowledged
  move already is.
- **The lobby** is every process's public rooms: each publishes its listing under
  ``ct:listing:<process>`` at every beat (:meth:`Cluster.listings` merges them). A seat is
  taken, and a room summarised, by its owner (:meth:`Cluster.call`).

Redis pub/sub delivers at most once: a message to a process that just died is lost, and its
client, whose connection is closed and opened again, joins again and is sent the whole state.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import redis.asyncio as aioredis

from .protocol import ClientMessage, ProtocolError, error, parse_message
from .room import Conn

__all__ = [
    "ALIVE_TTL",
    "BEAT",
    "LEASE_TTL",
    "RESTART_CODE",
    "Cluster",
    "Owner",
    "RemoteConn",
    "RemoteError",
]

log = logging.getLogger(__name__)

BEAT = 1.0
"""Seconds between two beats of a process: its ``alive`` key and its leases are renewed, its
listing published, and the processes it talks to checked."""
ALIVE_TTL = 3.0
"""Seconds a process counts as alive after its last beat: how long a dead owner's rooms wait
before another process may take them."""
LEASE_TTL = 10.0
"""Seconds a room's lease lasts after its owner's last beat (a lease outlives a dead owner's
``alive`` key, so the key is what decides; the expiry only cleans up)."""
CALL_TIMEOUT = 5.0
"""Seconds a process waits for another's answer to a call (:meth:`Cluster.call`)."""
RESTART_CODE = 1012
"""The close code of a connection whose room moved to another process (or whose process
stops): the client reconnects at once."""

_PREFIX = "ct:"
_LEASE = _PREFIX + "lease:"
_ALIVE = _PREFIX + "alive:"
_INBOX = _PREFIX + "proc:"
_LISTING = _PREFIX + "listing:"

# Take the lease of KEYS[1] for ARGV[1] (for ARGV[2] ms) when nobody holds it, or ARGV[1]
# already does, or its holder's alive key (prefix ARGV[3]) is gone; returns the holder after.
_ACQUIRE = """
local cur = redis.call('GET', KEYS[1])
if (not cur) or cur == ARGV[1] or redis.call('EXISTS', ARGV[3] .. cur) == 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
return cur
"""
# Renew each lease of KEYS still held by ARGV[1]; 1 per key renewed, 0 per key lost.
_RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
# Give up the lease of KEYS[1] if ARGV[1] holds it.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RemoteError(Exception):
    """A call to another process was refused (``code``, ``message``: the owner's refusal) or
    went unanswered (``code`` ``unavailable``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        """The refusal's code (a :class:`.RoomError`'s, or ``unavailable``)."""
        self.message = message
        """Plain words."""


class Owner(Protocol):
    """What a cluster needs of the process's room server (:class:`.RoomManager`)."""

    async def handle(self, conn: Conn, msg: ClientMessage) -> None:
        """Handle a message of a connection (a forwarded one: a :class:`RemoteConn`)."""

    def leave(self, conn: Conn) -> None:
        """Forget a connection."""

    def owned(self) -> list[str]:
        """The rooms this process plays now (their leases are renewed)."""

    async def lost(self, rooms: list[str]) -> None:
        """Rooms whose lease another process took: let them go."""

    def listing(self) -> list[Any]:
        """This process's public rooms (the lobby's summaries)."""

    async def answer(self, op: str, args: list[Any]) -> Any:
        """Carry out a call of another process (``take_seat``, ``summary``)."""


class RemoteConn(Conn):
    """A client connected to another process, as its room's owner sees it: the frames pushed to
    it go to that process, which sends them to the client; its messages are handled in order."""

    def __init__(self, cluster: Cluster, process: str, number: int, lang: str | None) -> None:
        channel = _INBOX + process
        prefix = f"F{number} "

        async def send(text: str) -> None:
            await cluster.redis.publish(channel, prefix + text)

        async def close() -> None:
            await cluster.redis.publish(channel, f"D{number}")

        super().__init__(send, close)
        self.process = process
        """The process the client is connected to."""
        self.number = number
        """The connection's number there."""
        self.lang = lang
        self.inbox: asyncio.Queue[ClientMessage | None] = asyncio.Queue()
        """Its messages waiting to be handled."""


@dataclass
class _Forward:
    """A connection of this process that talks to rooms of other processes."""

    number: int
    """Its number, as the other processes know it."""
    owners: set[str]
    """The processes it sent messages to (each holds a :class:`RemoteConn` for it)."""
    joined: str | None = None
    """The process whose room it listens to."""


class Cluster:
    """This process's part in a cluster: its id, its Redis connections, the leases it holds,
    the connections it forwards and those forwarded to it (see the module's description)."""

    def __init__(self, url: str, *, beat: float = BEAT, alive_ttl: float = ALIVE_TTL) -> None:
        self.url = url
        """The Redis URL."""
        self.id = secrets.token_hex(8)
        """This process's id (new at every start)."""
        self.beat = beat
        """Seconds between two beats."""
        self.alive_ttl = alive_ttl
        """Seconds this process counts as alive after a beat."""
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url, decode_responses=True)
        """Commands and publishing."""
        self._sub: aioredis.Redis = aioredis.Redis.from_url(url, decode_responses=True)
        self._owner: Owner | None = None
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._numbers = itertools.count(1)
        self._local: dict[int, Conn] = {}
        self._forwards: dict[Conn, _Forward] = {}
        self._remote: dict[tuple[str, int], RemoteConn] = {}
        self._workers: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._calls: dict[int, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()
        self.closing = False
        """Set once the process stops: it takes no more rooms."""

    # -- life cycle --------------------------------------------------------------------------
    async def start(self, owner: Owner) -> None:
        """Join the cluster: mark this process alive, listen on its channel, start beating.
        Raises if Redis cannot be reached."""
        self._owner = owner
        await self.redis.set(_ALIVE + self.id, "1", px=self._ms(self.alive_ttl))
        self._tasks = [
            asyncio.create_task(self._listen(), name="cluster-listen"),
            asyncio.create_task(self._beat_loop(), name="cluster-beat"),
        ]
        await asyncio.wait_for(self._ready.wait(), CALL_TIMEOUT)
        log.info("process %s joined the cluster at %s", self.id, _shown(self.url))

    async def close(self) -> None:
        """Leave the cluster: give up every lease (after the rooms stopped), tell the processes
        whose clients this one served that their connections end (code 1012: they reconnect to
        another process), and stop."""
        self.closing = True
        for task in self._tasks:
            task.cancel()
        for task in self._workers.values():
            task.cancel()
        with contextlib.suppress(Exception):
            for remote in list(self._remote.values()):
                await self.redis.publish(_INBOX + remote.process, f"D{remote.number}")
            owner = self._owner
            for room in owner.owned() if owner is not None else []:
                await self._release(keys=[_LEASE + room], args=[self.id])
            await self.redis.delete(_ALIVE + self.id, _LISTING + self.id)
        for conn in list(self._local.values()):
            conn.close_code = RESTART_CODE
            conn.drop()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
            await self._sub.aclose()

    async def ping(self) -> None:
        """Raise unless Redis answers (for ``/readyz``)."""
        await self.redis.ping()

    # -- leases -------------------------------------------------------------------------------
    async def acquire(self, room: str) -> str:
        """Take the lease of ``room`` if nobody alive holds it; the process that holds it
        after (this one's id if it is now this process's)."""
        if self.closing:
            holder = await self.redis.get(_LEASE + room)
            return holder if isinstance(holder, str) and holder != self.id else ""
        holder = await self._acquire(
            keys=[_LEASE + room], args=[self.id, self._ms(LEASE_TTL), _ALIVE]
        )
        return str(holder)

    async def holder(self, room: str) -> str | None:
        """The live process holding ``room``'s lease, if any."""
        holder = await self.redis.get(_LEASE + room)
        if not isinstance(holder, str):
            return None
        if holder != self.id and not await self.redis.exists(_ALIVE + holder):
            return None
        return holder

    async def release(self, room: str) -> None:
        """Give up the lease of ``room`` (it was paused, or could not be loaded)."""
        with contextlib.suppress(Exception):
            await self._release(keys=[_LEASE + room], args=[self.id])

    # -- forwarding (the client's side) --------------------------------------------------------
    async def forward(self, conn: Conn, msg: ClientMessage, owner: str, *, join: bool) -> None:
        """Send ``msg`` of the local connection ``conn`` to ``owner``, which plays its room
        (``join``: the message is a ``join``; the processes of the rooms it listened to before
        forget it)."""
        fwd = self._forwards.get(conn)
        if fwd is None:
            fwd = _Forward(next(self._numbers), set())
            self._forwards[conn] = fwd
            self._local[fwd.number] = conn
        if join:
            for other in fwd.owners - {owner}:
                self._send_leave(other, fwd.number)
            fwd.owners = {owner}
            fwd.joined = owner
        fwd.owners.add(owner)
        envelope = {
            "k": "m",
            "p": self.id,
            "c": fwd.number,
            "l": conn.lang,
            "r": msg.model_dump_json(exclude_none=True),
        }
        # awaited: the next message of the connection is published after this one, in order
        await self.redis.publish(_INBOX + owner, json.dumps(envelope))

    def unforward(self, conn: Conn) -> None:
        """The local connection ``conn`` no longer talks to rooms of other processes (it
        closed, or joined a room of this one): they forget it."""
        fwd = self._forwards.pop(conn, None)
        if fwd is None:
            return
        self._local.pop(fwd.number, None)
        for owner in fwd.owners:
            self._send_leave(owner, fwd.number)

    def _send_leave(self, owner: str, number: int) -> None:
        envelope = {"k": "l", "p": self.id, "c": number}
        self._publish(owner, json.dumps(envelope))

    def _publish(self, process: str, text: str) -> None:
        task = asyncio.ensure_future(self.redis.publish(_INBOX + process, text))
        task.add_done_callback(_log_failure)

    # -- calls ---------------------------------------------------------------------------------
    async def call(self, process: str, op: str, args: list[Any]) -> Any:
        """Ask ``process`` to carry out ``op`` (:meth:`Owner.answer`) and return its answer;
        :class:`RemoteError` with its refusal, or ``unavailable`` with no answer in time."""
        number = next(self._numbers)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[number] = fut
        envelope = {"k": "q", "p": self.id, "i": number, "o": op, "a": args}
        try:
            await self.redis.publish(_INBOX + process, json.dumps(envelope))
            return await asyncio.wait_for(fut, CALL_TIMEOUT)
        except TimeoutError:
            raise RemoteError("unavailable", "the room's server did not answer") from None
        finally:
            self._calls.pop(number, None)

    # -- the lobby -----------------------------------------------------------------------------
    async def listings(self) -> list[Any]:
        """Every live process's public rooms (their last published listings)."""
        keys = [key async for key in self.redis.scan_iter(match=_LISTING + "*", count=200)]
        out: list[Any] = []
        for text in await self.redis.mget(keys) if keys else []:
            if isinstance(text, str):
                out.extend(json.loads(text))
        return out

    # -- what comes in ---------------------------------------------------------------------------
    async def _listen(self) -> None:
        pubsub = self._sub.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(_INBOX + self.id)
        self._ready.set()
        try:
            while True:
                message = await pubsub.get_message(timeout=None)
                if message is None:
                    continue
                data = message.get("data")
                if isinstance(data, str):
                    try:
                        await self._take(data)
                    except Exception:
                        log.exception("a message from another process could not be handled")
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _take(self, data: str) -> None:
        kind = data[:1]
        if kind == "F":  # a frame for a local connection
            head, _, text = data.partition(" ")
            conn = self._local.get(int(head[1:]))
            if conn is not None:
                conn.push(text)
            return
        if kind == "D":  # the owner dropped a local connection's remote side
            conn = self._local.get(int(data[1:]))
            if conn is not None:
                self.unforward(conn)
                conn.close_code = RESTART_CODE
                conn.drop()
            return
        envelope = json.loads(data)
        k = envelope["k"]
        if k == "m":
            self._take_message(envelope)
        elif k == "l":
            self._take_leave((envelope["p"], envelope["c"]))
        elif k == "q":
            asyncio.ensure_future(self._answer(envelope)).add_done_callback(_log_failure)
        elif k == "a":
            fut = self._calls.get(envelope["i"])
            if fut is not None and not fut.done():
                if envelope["ok"]:
                    fut.set_result(envelope["v"])
                else:
                    code, text = envelope["e"]
                    fut.set_exception(RemoteError(code, text))

    def _take_message(self, envelope: dict[str, Any]) -> None:
        key = (str(envelope["p"]), int(envelope["c"]))
        conn = self._remote.get(key)
        if conn is None:
            conn = RemoteConn(self, key[0], key[1], envelope.get("l"))
            conn.on_drop = self._dropped
            self._remote[key] = conn
            sender = asyncio.ensure_future(conn.run_sender())
            sender.add_done_callback(_log_failure)
            self._workers[key] = asyncio.create_task(self._work(conn))
        try:
            conn.inbox.put_nowait(parse_message(envelope["r"]))
        except ProtocolError as exc:
            conn.push(error(exc.code, exc.message, exc.msg_id))

    async def _work(self, conn: RemoteConn) -> None:
        """Handle the messages of a forwarded connection, one at a time, in order."""
        owner = self._owner
        assert owner is not None
        while True:
            msg = await conn.inbox.get()
            if msg is None:
                return
            try:
                await owner.handle(conn, msg)
            except ProtocolError as exc:
                conn.push(error(exc.code, exc.message, exc.msg_id))
                if exc.code == "room_moved":  # the client reconnects, to the room's new owner
                    conn.drop()
            except Exception as exc:
                log.exception("a forwarded message could not be handled (%s)", type(exc).__name__)
                conn.push(error("server_error", "the server failed on this message"))

    def _dropped(self, conn: Conn) -> None:
        """The owner dropped a forwarded connection (too far behind, or its room moved): it
        leaves its room here, and its process closes the client's socket (``D``)."""
        if isinstance(conn, RemoteConn):
            key = (conn.process, conn.number)
            if self._remote.get(key) is conn:
                del self._remote[key]
                conn.inbox.put_nowait(None)
                self._workers.pop(key, None)
        if self._owner is not None:
            self._owner.leave(conn)

    def _take_leave(self, key: tuple[str, int]) -> None:
        conn = self._remote.pop(key, None)
        if conn is None:
            return
        conn.inbox.put_nowait(None)
        self._workers.pop(key, None)
        conn.closed = True
        conn.queue.put_nowait(None)
        if self._owner is not None:
            self._owner.leave(conn)

    async def _answer(self, envelope: dict[str, Any]) -> None:
        owner = self._owner
        assert owner is not None
        reply: dict[str, Any] = {"k": "a", "i": envelope["i"]}
        try:
            reply["v"] = await owner.answer(str(envelope["o"]), list(envelope["a"]))
            reply["ok"] = True
        except RemoteError as exc:
            reply["ok"], reply["e"] = False, [exc.code, exc.message]
        except Exception as exc:
            code = getattr(exc, "code", "server_error")
            message = getattr(exc, "message", "the room's server failed")
            reply["ok"], reply["e"] = False, [str(code), str(message)]
        await self.redis.publish(_INBOX + str(envelope["p"]), json.dumps(reply))

    # -- the beat --------------------------------------------------------------------------------
    async def _beat_loop(self) -> None:
        while True:
            try:
                await self.beat_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a beat of the cluster failed")
            await asyncio.sleep(self.beat)

    async def beat_once(self) -> None:
        """One beat: stay alive, renew the leases (letting go of the rooms lost), publish the
        listing, and end the connections whose other process died."""
        owner = self._owner
        assert owner is not None
        await self.redis.set(_ALIVE + self.id, "1", px=self._ms(self.alive_ttl))
        rooms = owner.owned()
        if rooms:
            kept = await self._renew(
                keys=[_LEASE + r for r in rooms], args=[self.id, self._ms(LEASE_TTL)]
            )
            lost = [r for r, ok in zip(rooms, kept, strict=True) if not ok]
            if lost:
                log.warning("%d rooms were taken over by another process", len(lost))
                await owner.lost(lost)
        await self.redis.set(
            _LISTING + self.id, json.dumps(owner.listing()), px=self._ms(self.alive_ttl)
        )
        await self._check_peers()

    async def _check_peers(self) -> None:
        """End what this process holds for processes that died: its local connections to
        their rooms (closed with 1012, so the clients reconnect and another process takes the
        rooms over), and the remote connections of their clients."""
        peers = {o for f in self._forwards.values() for o in f.owners} | {
            k[0] for k in self._remote
        }
        if not peers:
            return
        order = sorted(peers)
        async with self.redis.pipeline(transaction=False) as pipe:
            for process in order:
                pipe.exists(_ALIVE + process)
            flags = await pipe.execute()
        dead = {p for p, up in zip(order, flags, strict=True) if not up}
        if not dead:
            return
        for conn, fwd in list(self._forwards.items()):
            fwd.owners -= dead
            if fwd.joined in dead:  # its room's process died: reconnect, to its new owner
                self._forwards.pop(conn, None)
                self._local.pop(fwd.number, None)
                conn.close_code = RESTART_CODE
                conn.drop()
        for key in [k for k in self._remote if k[0] in dead]:
            self._take_leave(key)

    def drop_local(self, conns: Iterable[Conn]) -> None:
        """Close local connections with code 1012 (their room moved): they reconnect."""
        for conn in conns:
            if isinstance(conn, RemoteConn):
                conn.drop()  # its process closes the client's socket (``D``)
            else:
                conn.close_code = RESTART_CODE
                conn.drop()

    @staticmethod
    def _ms(seconds: float) -> int:
        return max(1, round(seconds * 1000))


def _shown(url: str) -> str:
    """``url`` without a password."""
    head, sep, tail = url.rpartition("@")
    if not sep:
        return url
    scheme, _, _auth = head.partition("://")
    return f"{scheme}://***@{tail}"


def _log_failure(fut: asyncio.Future[Any]) -> None:
    if not fut.cancelled() and fut.exception() is not None:
        log.warning("a cluster message failed (%s)", type(fut.exception()).__name__)
