"""The ordinary tables: K rooms of two people and a ping client, in one client process, all
from 127.0.0.1, playing from setup to the end of the run while the abuse scenarios come and go.

Each person is a WebSocket of its own. When a ``state`` arrives whose ``view.legal`` is not
empty and whose ``view.actors`` holds its seat (as the tests' driver decides a seat may move),
the person waits a think time and sends ``act`` with a random legal action, the state's
``version`` and an ``id``. When the game is over, each seat sends ``rematch`` once after a think
time (the first offers the next game, the other accepts it).

Measured, with the time each message was sent (the parent sorts the samples into the phases
of the run by that time):

- **act→view, self**: ``act`` sent → the ``state`` frame carrying its ``id``;
- **act→view, other**: the same ``act`` sent → the other seat receiving the new version;
- **ping**: ``{"type": "ping", "id"}`` every ``ping_interval`` s on a connection of its own →
  its ``pong``;
- every error frame by code, connections the server closed (``disconnect``), reconnections
  that failed, and messages never answered (``no_reply``: their latency is infinite);
- the client's own event-loop lag, so a starved client can be told from a slow server.

A closed connection is reopened (and the seat joins again) after a short pause.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from .common import Endpoint, HttpClient, child_setup, describe_error

__all__ = ["TablesConfig", "TablesResult", "tables_main"]


@dataclass(frozen=True)
class TablesConfig:
    """What the tables process needs."""

    base_url: str
    """``http://host:port`` of the server."""
    tables: int
    """Rooms of two people."""
    think: tuple[float, float]
    """Think time range (s)."""
    seed: int
    """Seeds the choices and think times."""
    ping_interval: float
    """Seconds between pings."""
    reply_timeout: float
    """After this long without an answer a person stops waiting (the message counts as
    ``no_reply`` unless its answer still comes)."""
    variant: str = "kaboo"
    """The game of every table."""


@dataclass
class TablesResult:
    """What the tables process measured (sent back to the parent)."""

    rooms: list[str] = field(default_factory=list)
    """The rooms (the abusers' "busy rooms")."""
    acts: list[tuple[float, float, str]] = field(default_factory=list)
    """(sent, latency ms or ``inf``, ``self``/``other``)."""
    pings: list[tuple[float, float]] = field(default_factory=list)
    """(sent, round trip ms or ``inf``)."""
    events: list[tuple[float, str]] = field(default_factory=list)
    """(when, what): error codes, ``disconnect``, ``connect_fail``, ``no_reply``…"""
    lag: list[tuple[float, float]] = field(default_factory=list)
    """(when, event-loop lag ms)."""
    rematches: int = 0
    """Rematches answered."""
    setup_429: int = 0
    """``429`` answers while creating the rooms (retried)."""
    fatal: str | None = None
    """Set when the process failed as a whole."""


class Table:
    """One room and what its two seats share: when each version was asked for."""

    def __init__(self, index: int, room: str, tokens: list[str]) -> None:
        self.index = index
        self.room = room
        self.tokens = tokens
        self.sent: dict[int, tuple[float, int]] = {}
        """New version -> (when the act that should make it was sent, by which seat)."""


class Play:
    """Everything the process runs: the tables' people, the ping client, the measurements."""

    def __init__(self, cfg: TablesConfig) -> None:
        self.cfg = cfg
        self.endpoint = Endpoint.parse(cfg.base_url)
        self.res = TablesResult()
        self.stopping = False
        self.ids = itertools.count(1)

    # -- setup -----------------------------------------------------------------------------------
    async def _post(self, client: HttpClient, path: str, body: dict[str, Any]) -> Any:
        """POST with retries on ``429`` (honouring ``Retry-After``, at most 30 s a time)."""
        for _ in range(20):
            answer = await client.request("POST", path, json.dumps(body).encode(), timeout=60)
            if answer.status in (200, 201):
                return json.loads(answer.body)
            if answer.status != 429:
                raise RuntimeError(f"POST {path} answered {answer.status}: {answer.body[:200]!r}")
            self.res.setup_429 += 1
            wait = float(answer.headers.get("retry-after", "1") or 1)
            await asyncio.sleep(min(30.0, max(0.5, wait)))
        raise RuntimeError(f"POST {path}: refused with 429 twenty times")

    async def create_tables(self) -> list[Table]:
        """Create the rooms (two people's seats each) over HTTP from 127.0.0.1."""
        client = HttpClient(self.endpoint)
        tables = []
        try:
            for i in range(self.cfg.tables):
                seats = [{"type": "human"}, {"type": "human"}]
                made = await self._post(
                    client, "/api/rooms", {"game": self.cfg.variant, "seats": seats}
                )
                room = made["room"]
                joined = await self._post(client, f"/api/rooms/{room}/join", {})
                tables.append(Table(i, room, [made["token"], joined["token"]]))
        finally:
            client.close()
        self.res.rooms = [t.room for t in tables]
        return tables

    # -- the run ---------------------------------------------------------------------------------
    async def lag_monitor(self) -> None:
        """Sample how late 20 ms sleeps wake up."""
        tick = 0.02
        while not self.stopping:
            before = time.perf_counter()
            await asyncio.sleep(tick)
            late = (time.perf_counter() - before - tick) * 1000.0
            self.res.lag.append((time.monotonic(), max(0.0, late)))

    async def run(self, pipe: Connection) -> None:
        """Set up, tell the parent, play until it says stop, then report."""
        tables = await self.create_tables()
        people = [Person(self, t, s) for t in tables for s in range(2)]
        pinger = Pinger(self)
        tasks = [asyncio.create_task(p.run()) for p in people]
        tasks.append(asyncio.create_task(pinger.run()))
        try:
            await asyncio.wait_for(
                asyncio.gather(*(p.joined.wait() for p in people), pinger.joined.wait()), 120
            )
        except TimeoutError:
            missing = sum(1 for p in [*people, pinger] if not p.joined.is_set())
            seen = Counter(code for _, code in self.res.events)
            raise RuntimeError(
                f"{missing} of {len(people) + 1} connections could not join within 120 s "
                f"(a per-address connection cap?); events: {dict(seen)}"
            ) from None
        lag = asyncio.create_task(self.lag_monitor())
        for p in people:
            p.consider()
        pipe.send(("ready", self.res.rooms))
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, pipe.recv)  # "stop"
        self.stopping = True
        for p in people:
            p.cancel_timer()
        deadline = time.monotonic() + self.cfg.reply_timeout
        while time.monotonic() < deadline and any(p.outstanding for p in people):
            await asyncio.sleep(0.05)
        for p in people:
            p.give_up()
        pinger.give_up()
        await lag
        for sock in [*people, pinger]:
            await sock.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pipe.send(("result", self.res))


class Socket:
    """A connection that reopens itself: subclasses handle the frames."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.ws: Any = None
        self.joined = asyncio.Event()
        self.outstanding: dict[Any, tuple[float, str]] = {}
        """Message id -> (when sent, kind) of messages not answered yet."""

    def join_message(self) -> dict[str, Any] | None:
        """What to send after (re)connecting."""
        return None

    def on_frame(self, msg: dict[str, Any], now: float) -> None:
        """Handle one frame."""

    async def run(self) -> None:
        """Connect, read until closed, reconnect (unless stopping)."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        res = self.play.res
        pause = 0.2
        while not self.play.stopping:
            try:
                self.ws = await connect(
                    self.play.endpoint.ws_url,
                    ping_interval=None,
                    max_size=1 << 22,
                    open_timeout=20,
                    close_timeout=2,
                )
            except Exception as exc:
                res.events.append((time.monotonic(), f"connect_fail:{describe_error(exc)}"))
                await asyncio.sleep(pause)
                pause = min(5.0, pause * 2)
                continue
            pause = 0.2
            try:
                hello = self.join_message()
                if hello is not None:
                    await self.ws.send(json.dumps(hello))
                else:
                    self.joined.set()
                async for raw in self.ws:
                    self.on_frame(json.loads(raw), time.monotonic())
            except ConnectionClosed:
                pass
            finally:
                self.ws = None
            if not self.play.stopping:
                res.events.append((time.monotonic(), "disconnect"))
                self.lost_connection()
                await asyncio.sleep(pause)

    def lost_connection(self) -> None:
        """The connection closed: what was waiting for an answer will never get one."""
        self.give_up()

    def give_up(self) -> None:
        """Count every message still without an answer as never answered."""
        for sent, kind in self.outstanding.values():
            self.record(kind, sent, math.inf)
            self.play.res.events.append((sent, f"no_reply:{kind}"))
        self.outstanding.clear()

    def record(self, kind: str, sent: float, ms: float) -> None:
        """Keep one measurement."""
        if kind == "act":
            self.play.res.acts.append((sent, ms, "self"))
        elif kind == "ping":
            self.play.res.pings.append((sent, ms))

    async def send(self, msg: dict[str, Any], kind: str) -> None:
        """Send ``msg`` with a fresh id, waiting for its answer under ``kind``."""
        msg_id = next(self.play.ids)
        msg["id"] = msg_id
        ws = self.ws
        if ws is None:
            return
        self.outstanding[msg_id] = (time.monotonic(), kind)
        with contextlib.suppress(Exception):
            await ws.send(json.dumps(msg, separators=(",", ":")))

    async def close(self) -> None:
        """Close the connection."""
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)


class Person(Socket):
    """One seat of one table."""

    def __init__(self, play: Play, table: Table, seat: int) -> None:
        super().__init__(play)
        self.table = table
        self.seat = seat
        self.token = table.tokens[seat]
        self.rng = random.Random(f"{play.cfg.seed}:{table.index}:{seat}")
        self.version = -1
        self.status = "waiting"
        self.legal: list[str] = []
        self.actors: list[int] = []
        self.waiting: Any = None
        """Id of our message being answered (``None``: free to move)."""
        self.timer: asyncio.TimerHandle | None = None
        self.patience: asyncio.TimerHandle | None = None
        self.asked: int | None = None
        self.rematched = -1
        """The version at which this seat sent its ``rematch`` (once per finished game)."""
        self.sending: asyncio.Future[None] | None = None
        """The version our pending ``act`` should make."""

    def join_message(self) -> dict[str, Any]:
        return {"type": "join", "room": self.table.room, "token": self.token, "id": "join"}

    def on_frame(self, msg: dict[str, Any], now: float) -> None:
        kind = msg.get("type")
        msg_id = msg.get("id")
        if kind == "state":
            version = msg["version"]
            if msg_id == "join":
                self.joined.set()
            if version > self.version:
                asked = self.table.sent.get(version)
                if asked is not None and asked[1] != self.seat:
                    del self.table.sent[version]
                    self.play.res.acts.append((asked[0], (now - asked[0]) * 1000.0, "other"))
                self.version = version
                self.status = msg["status"]
                view = msg.get("view") or {}
                self.legal = view.get("legal") or []
                self.actors = view.get("actors") or []
                self.cancel_timer()
        elif kind == "error":
            code = str(msg.get("code", "?"))
            self.play.res.events.append((now, code))
            if msg_id is not None and msg_id == self.waiting and self.asked is not None:
                self.table.sent.pop(self.asked, None)  # refused: no new version comes of it
        if msg_id is not None and msg_id in self.outstanding:
            sent, what = self.outstanding.pop(msg_id)
            if kind == "state":
                if what == "rematch":
                    self.play.res.rematches += 1
                else:
                    self.record(what, sent, (now - sent) * 1000.0)
            if msg_id == self.waiting:
                self.waiting = None
                if self.patience is not None:
                    self.patience.cancel()
                    self.patience = None
        self.consider()

    def lost_connection(self) -> None:
        super().lost_connection()
        self.waiting = None
        self.cancel_timer()

    def cancel_timer(self) -> None:
        """Forget a move being thought about."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def consider(self) -> None:
        """Think about a move if this seat may make one now."""
        if self.play.stopping or self.ws is None or self.waiting is not None:
            return
        if self.timer is not None:
            return
        if self.status == "finished":
            if self.rematched == self.version:
                return
        elif not (self.status == "playing" and self.legal and self.seat in self.actors):
            return
        lo, hi = self.play.cfg.think
        delay = self.rng.uniform(lo, hi)
        self.timer = asyncio.get_running_loop().call_later(delay, self.fire, self.version)

    def fire(self, version: int) -> None:
        """The think time is over: move on the state thought about."""
        self.timer = None
        if self.play.stopping or self.waiting is not None or version != self.version:
            self.consider()
            return
        msg: dict[str, Any]
        if self.status == "finished":
            kind = "rematch"
            self.asked = None
            self.rematched = self.version
            msg = {"type": "rematch", "room": self.table.room, "token": self.token}
        else:
            kind = "act"
            msg = {
                "type": "act",
                "room": self.table.room,
                "token": self.token,
                "action": self.rng.choice(self.legal),
                "version": self.version,
            }
            self.asked = self.version + 1
            self.table.sent[self.asked] = (time.monotonic(), self.seat)
            for old in [v for v in self.table.sent if v < self.version - 8]:
                del self.table.sent[old]
        self.waiting = next(self.play.ids)
        msg["id"] = self.waiting
        if self.ws is None:
            self.waiting = None
            return
        self.outstanding[self.waiting] = (time.monotonic(), kind)
        loop = asyncio.get_running_loop()
        self.patience = loop.call_later(self.play.cfg.reply_timeout, self.impatient, self.waiting)
        self.sending = asyncio.ensure_future(self._send(msg))

    async def _send(self, msg: dict[str, Any]) -> None:
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.send(json.dumps(msg, separators=(",", ":")))

    def impatient(self, msg_id: Any) -> None:
        """No answer for too long: move on (the answer still counts if it comes)."""
        self.patience = None
        if self.waiting == msg_id:
            self.play.res.events.append((time.monotonic(), "slow_reply"))
            self.waiting = None
            self.consider()


class Pinger(Socket):
    """The ping client: one connection, one ping every ``ping_interval`` s."""

    def on_frame(self, msg: dict[str, Any], now: float) -> None:
        msg_id = msg.get("id")
        if msg.get("type") == "error":
            self.play.res.events.append((now, f"ping:{msg.get('code', '?')}"))
        if msg_id in self.outstanding:
            sent, kind = self.outstanding.pop(msg_id)
            if msg.get("type") == "pong":
                self.record(kind, sent, (now - sent) * 1000.0)

    async def run(self) -> None:
        sender = asyncio.create_task(self._pings())
        try:
            await super().run()
        finally:
            sender.cancel()

    async def _pings(self) -> None:
        await self.joined.wait()
        interval = self.play.cfg.ping_interval
        next_at = time.monotonic()
        while not self.play.stopping:
            if self.ws is not None:
                await self.send({"type": "ping"}, "ping")
            next_at += interval
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))


def tables_main(cfg: TablesConfig, pipe: Connection) -> None:
    """Entry point of the tables process."""
    child_setup()
    runner: Any = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop

        runner = uvloop.run
    try:
        runner(Play(cfg).run(pipe))
    except BaseException as exc:
        with contextlib.suppress(Exception):
            pipe.send(("result", TablesResult(fatal=f"{type(exc).__name__}: {exc}")))
