"""The client processes: one bot per seat, each on its own WebSocket (asyncio, uvloop if
installed), started by :func:`worker_main` and reporting a :class:`WorkerResult` through a pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from .server import TableSpec

__all__ = [
    "Bot",
    "Clock",
    "WorkerConfig",
    "WorkerResult",
    "sleep_until",
    "worker_main",
]


@dataclass(frozen=True)
class WorkerConfig:
    """What a client process needs to know."""

    worker: int
    """Its number."""
    ws_url: str
    """``ws://host:port/ws``."""
    think: tuple[float, float]
    """Think time range in seconds."""
    seed: int
    """Seeds the bots' choices and think times."""
    compression: bool
    """Offer permessage-deflate (what browsers do)."""
    race: bool
    """Let every seat with legal actions act, not only the first actor."""
    drain: float
    """Seconds to wait for outstanding replies after the run."""
    connect_parallel: int
    """Connections opened at a time."""


@dataclass
class WorkerResult:
    """What a client process measured (sent back to the parent)."""

    worker: int
    connections: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    """Act latencies of actions sent in the measured window."""
    rematch_ms: list[float] = field(default_factory=list)
    """Rematch latencies (measured window)."""
    measured_acts: int = 0
    """Acknowledged actions sent in the measured window."""
    total_acts: int = 0
    """Acknowledged actions over the whole run."""
    rematches: int = 0
    """Acknowledged rematches over the whole run."""
    errors: Counter[str] = field(default_factory=Counter)
    """Error frames and failures by code, whole run."""
    acked: list[tuple[str, int, int, int, str]] = field(default_factory=list)
    """(room, game_no, version of the acknowledging state, seat, action)."""
    unacked: list[tuple[str, int, int, int, str]] = field(default_factory=list)
    """(room, game_no, version it was based on, seat, action) of actions never answered."""
    frames_in: int = 0
    """State/error frames received in the measured window."""
    bytes_in: int = 0
    """Their characters."""
    cpu_s: float = 0.0
    """CPU seconds this process used during the measured window."""
    lag_ms: list[float] = field(default_factory=list)
    """Event-loop lag samples (10 ms ticks) in the measured window."""
    fatal: str | None = None
    """Set when the worker failed as a whole."""


class Clock:
    """The run's phases in ``time.monotonic()`` seconds (shared by every process)."""

    def __init__(self) -> None:
        self.start = math.inf
        """Bots may act from here."""
        self.measure = math.inf
        """Measured window start."""
        self.end = math.inf
        """Measured window end: no message is sent after it."""

    def playing(self, now: float) -> bool:
        """Bots may send now."""
        return self.start <= now < self.end

    def measuring(self, now: float) -> bool:
        """``now`` is inside the measured window."""
        return self.measure <= now < self.end


class Bot:
    """One seat of one table on its own WebSocket."""

    def __init__(
        self,
        table: TableSpec,
        seat: int,
        ws: Any,
        cfg: WorkerConfig,
        clock: Clock,
        res: WorkerResult,
        ids: Iterable[int],
    ) -> None:
        self.table = table
        self.seat = seat
        self.token = table.tokens[seat]
        self.ws = ws
        self.cfg = cfg
        self.clock = clock
        self.res = res
        self.ids = iter(ids)
        self.rng = random.Random(f"{cfg.seed}:{table.index}:{seat}")
        self.version = -1
        self.game_no = 0
        self.status = "waiting"
        self.legal: list[str] = []
        self.actors: list[int] = []
        self.rematched = -1
        """The version at which this seat sent its ``rematch`` (an offer, or the accept of the
        offer open): once per finished game, the next game waits for every seat's."""
        self.pending: tuple[int, str, float, float, int, int, str] | None = None
        """(id, kind, perf_counter sent, monotonic sent, version, game_no, action)."""
        self.timer: asyncio.TimerHandle | None = None
        self.send_task: asyncio.Future[None] | None = None
        self.joined = asyncio.get_running_loop().create_future()
        self.closed = False

    # -- receiving ---------------------------------------------------------------------------
    async def receive_loop(self) -> None:
        """Read frames until the connection closes."""
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                self.on_frame(raw)
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            if not self.joined.done():
                self.joined.set_exception(ConnectionError("closed before the join answer"))
            if self.timer is not None:
                self.timer.cancel()
            if time.monotonic() < self.clock.end + self.cfg.drain:
                self.res.errors["disconnect"] += 1

    def on_frame(self, raw: str | bytes) -> None:
        """Handle one frame from the server."""
        now = time.monotonic()
        perf = time.perf_counter()
        if self.clock.measuring(now):
            self.res.frames_in += 1
            self.res.bytes_in += len(raw)
        msg = json.loads(raw)
        kind = msg.get("type")
        msg_id = msg.get("id")
        if kind == "state":
            version = msg["version"]
            if version >= self.version:
                changed = version != self.version
                self.version = version
                self.game_no = msg["game_no"]
                self.status = msg["status"]
                view = msg.get("view") or {}
                self.legal = view.get("legal") or []
                self.actors = view.get("actors") or []
                if changed and self.timer is not None:
                    self.timer.cancel()
                    self.timer = None
            if msg_id is not None:
                self.on_answer(msg_id, perf, now, msg)
            self.consider()
        elif kind == "error":
            self.res.errors[msg.get("code", "?")] += 1
            if msg_id is not None:
                self.on_answer(msg_id, perf, now, None)
            self.consider()

    def on_answer(self, msg_id: Any, perf: float, now: float, state: dict[str, Any] | None) -> None:
        """The answer to one of our messages: a state (accepted) or ``None`` (an error)."""
        if isinstance(msg_id, str) and msg_id.startswith("j"):
            if not self.joined.done():
                if state is None:
                    self.joined.set_exception(ConnectionError("join refused"))
                else:
                    self.joined.set_result(None)
            return
        pending = self.pending
        if pending is None or pending[0] != msg_id:
            return
        self.pending = None
        if state is None:
            return
        _, kind, sent_perf, sent_mono, _, _, action = pending
        latency = (perf - sent_perf) * 1000.0
        measured = self.clock.measuring(sent_mono)
        if kind == "act":
            self.res.total_acts += 1
            self.res.acked.append(
                (self.table.room, state["game_no"], state["version"], self.seat, action)
            )
            if measured:
                self.res.measured_acts += 1
                self.res.latencies_ms.append(latency)
        else:
            self.res.rematches += 1
            if measured:
                self.res.rematch_ms.append(latency)

    # -- acting ------------------------------------------------------------------------------
    def consider(self) -> None:
        """Schedule a move if this seat should make one now."""
        if self.closed or self.pending is not None or self.timer is not None:
            return
        if not self.clock.playing(time.monotonic()):
            return
        if self.status == "finished":
            if self.rematched == self.version:
                return
        elif not (
            self.status == "playing"
            and self.legal
            and (self.cfg.race or (self.actors and self.actors[0] == self.seat))
        ):
            return
        lo, hi = self.cfg.think
        delay = self.rng.uniform(lo, hi) if hi > 0 else 0.0
        self.timer = asyncio.get_running_loop().call_later(delay, self.fire, self.version)

    def fire(self, version: int) -> None:
        """The think time is over: send the move for the current state."""
        self.timer = None
        if self.closed or self.pending is not None or version != self.version:
            self.consider()
            return
        if not self.clock.playing(time.monotonic()):
            return
        msg_id = next(self.ids)
        msg: dict[str, Any]
        if self.status == "finished":
            kind, action = "rematch", ""
            msg = {"type": "rematch", "room": self.table.room, "token": self.token, "id": msg_id}
            self.rematched = self.version
        else:
            kind, action = "act", self.rng.choice(self.legal)
            msg = {
                "type": "act",
                "room": self.table.room,
                "token": self.token,
                "action": action,
                "version": self.version,
                "id": msg_id,
            }
        text = json.dumps(msg, separators=(",", ":"))
        self.pending = (
            msg_id,
            kind,
            time.perf_counter(),
            time.monotonic(),
            self.version,
            self.game_no,
            action,
        )
        self.send_task = asyncio.ensure_future(self._send(text))

    async def _send(self, text: str) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send(text)


async def sleep_until(when: float) -> None:
    """Sleep until ``time.monotonic() >= when`` (loop timers may wake a little early)."""
    while (left := when - time.monotonic()) > 0:
        await asyncio.sleep(left)


async def _lag_monitor(clock: Clock, res: WorkerResult, stop: asyncio.Event) -> None:
    """Sample how late 10 ms sleeps wake up (client event-loop saturation)."""
    tick = 0.01
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(tick)
        if clock.measuring(time.monotonic()):
            res.lag_ms.append(max(0.0, (time.perf_counter() - before - tick) * 1000.0))


async def _worker_async(cfg: WorkerConfig, tables: list[TableSpec], pipe: Connection) -> None:
    from websockets.asyncio.client import connect

    res = WorkerResult(worker=cfg.worker)
    clock = Clock()
    ids = iter(range(1, 1 << 62))
    bots: list[Bot] = []
    readers: list[asyncio.Task[None]] = []
    gate = asyncio.Semaphore(cfg.connect_parallel)

    async def open_seat(table: TableSpec, seat: int) -> None:
        async with gate:
            ws = await connect(
                cfg.ws_url,
                compression="deflate" if cfg.compression else None,
                ping_interval=None,
                max_size=1 << 20,
                open_timeout=60,
                close_timeout=5,
            )
            bot = Bot(table, seat, ws, cfg, clock, res, ids)
            bots.append(bot)
            readers.append(asyncio.create_task(bot.receive_loop()))
            join = {"type": "join", "room": table.room, "token": bot.token, "id": f"j{seat}"}
            await ws.send(json.dumps(join))
            await asyncio.wait_for(bot.joined, 60)

    outcomes = await asyncio.gather(
        *(open_seat(t, s) for t in tables for s in range(len(t.tokens))), return_exceptions=True
    )
    for out in outcomes:
        if isinstance(out, BaseException):
            res.errors["connect"] += 1
    res.connections = len(bots)
    loop = asyncio.get_running_loop()
    pipe.send(("ready", res.connections))
    go = await loop.run_in_executor(None, pipe.recv)
    clock.start, clock.measure, clock.end = go
    stop = asyncio.Event()
    lag_task = asyncio.create_task(_lag_monitor(clock, res, stop))
    await sleep_until(clock.start)
    for bot in bots:
        bot.consider()
    await sleep_until(clock.measure)
    cpu0 = time.process_time()
    await sleep_until(clock.end)
    res.cpu_s = time.process_time() - cpu0
    stop.set()
    for bot in bots:
        if bot.timer is not None:
            bot.timer.cancel()
            bot.timer = None
    deadline = clock.end + cfg.drain
    while time.monotonic() < deadline and any(b.pending is not None for b in bots):
        await asyncio.sleep(0.02)
    for bot in bots:
        if bot.pending is not None:
            _, kind, _, _, version, game_no, action = bot.pending
            res.errors["no_reply"] += 1
            if kind == "act":
                res.unacked.append((bot.table.room, game_no, version, bot.seat, action))
    await lag_task
    clock.end = -math.inf  # disconnects from here on are ours
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.gather(*(b.ws.close() for b in bots)), 30)
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    pipe.send(("result", res))


def worker_main(cfg: WorkerConfig, tables: list[TableSpec], pipe: Connection) -> None:
    """Entry point of a client process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    runner: Callable[[Any], Any] = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop

        runner = uvloop.run
    try:
        runner(_worker_async(cfg, tables, pipe))
    except Exception as exc:
        pipe.send(("result", WorkerResult(worker=cfg.worker, fatal=repr(exc))))
