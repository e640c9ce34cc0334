"""Search-level AI moves off the event loop: a pool of worker processes.

An ``expert`` or ``master`` move is a search over belief-sampled deals: 0.1–1 s (master: a
few seconds) of pure-Python CPU. In a thread of the server it would hold the GIL against the
event loop, and every person's action would wait behind it. :class:`SearchPool` runs these
moves in a ``ProcessPoolExecutor`` instead: a fixed number of worker processes (``cardtable serve
--ai-workers N``, by default one per CPU), started with ``spawn`` (the server runs threads, which
forking does not copy safely) at the lowest CPU priority (:data:`WORKER_NICE`), so that on a
busy machine the server's own work — people's moves — comes first and searches take what is
left. ``--ai-workers 0`` runs the same function in a thread of the server instead (for
debugging, and for comparison in ``benchmarks/server_load.py``).

What crosses the process boundary: the agent's level and seed and the seat (plain values; agents
keep no state between decisions and are deterministic for their seed and what the seat sees, so
the worker builds the same agent again with ``cardtable.agents.get``), a *world* of the seat as
:func:`snapshot` pickled it under the room's lock, and back the chosen action as text. The world
is the game with every card the seat does not know dealt again (``Game.determinize``): the
seat cannot tell it from the game — same view, with its recent events, same history, same legal
actions — so an agent, which decides only from what its seat knows, chooses exactly what it
would on the live game (``tests/test_agents.py`` checks that every agent does), while the
game's hidden cards never leave the server's process. The worker hands the agent a
:class:`~cardtable.seat.Seat` of that world.

A person's hint (the ``hint`` message) is the pool's other job, :func:`appraise`: the same world
of the seat, and back every legal move with what the search expects of it
(:func:`cardtable.learn.hints.hint`), phrased in the language the person reads.

Why a pickled world rather than the log replayed in the worker (``cardtable.replay(game.log)``):
a log holds the seed, from which every hidden card follows, and a replay costs the worker time
in proportion to the whole match, while a pickle costs about the same whatever the match's
length. Measured on the 2-core dev machine for the pickled game (``benchmarks/snapshot_cost.py``;
per move, median; a world pickles the same state):

=======================  =======  ====================  ====================
game                     actions  pickle: loop, worker  replay: loop, worker
=======================  =======  ====================  ====================
kaboo, one round              30  0.23 ms, 0.16 ms      0.01 ms, 0.4 ms
qute, match to 125           100  0.31 ms, 0.28 ms      0.03 ms, 1.9 ms
cabo, match to 100           400  0.27 ms, 0.34 ms      0.07 ms, 3.7 ms
gabo, match to 1000        3,000  0.43 ms, 0.76 ms      0.77 ms, 32 ms
=======================  =======  ====================  ====================
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.sharedctypes import Synchronized

from .. import variants
from ..agents import get as get_agent
from ..catalog import language
from ..game import Game
from ..learn.hints import HINT_SECONDS, hint
from ..rng import Rng
from ..seat import Seat

__all__ = [
    "SEARCH_LEVELS",
    "WORKER_NICE",
    "SearchPool",
    "appraise",
    "default_workers",
    "detach_worker",
    "snapshot",
    "think",
]

log = logging.getLogger("cardtable.web")

SEARCH_LEVELS = frozenset({"expert", "master"})
"""The AI levels whose moves are searched in the pool; the others decide in the server."""

WORKER_NICE = 19
"""How much the workers lower their CPU priority (``os.nice``): people's moves first. On the
2-core dev machine two busy workers at nice 10 delayed the wake-ups of a process of normal
priority by 2–3 ms at the 99th percentile; at nice 19, by less than 0.2 ms."""

_PARENT_CHECK = 1.0
"""Seconds between a worker's checks that the server still runs."""


def default_workers() -> int:
    """Worker processes when ``--ai-workers`` is not given: the machine's CPU count (≥ 1)."""
    return max(1, os.cpu_count() or 1)


def snapshot(game: Game, seat: int) -> bytes:
    """What a worker receives for ``seat``'s move: a world of the seat (the game with every
    card the seat does not know dealt again), pickled. Taken under the room's lock: the live
    game may change as soon as the lock is released, the snapshot does not."""
    world = game.determinize(seat, Rng(0))
    return pickle.dumps(world, protocol=pickle.HIGHEST_PROTOCOL)


def _world(state: bytes) -> Game:
    """The world a job's ``state`` holds (:func:`snapshot`)."""
    world = pickle.loads(state)
    if not isinstance(world, Game):
        raise TypeError(f"a search job holds a world, not {type(world).__name__}")
    return world


def think(level: str, seed: int, seat: int, state: bytes) -> str:
    """The worker's job: the action (text) that ``cardtable.agents.get(level, seed=seed)``
    chooses for ``seat`` given its world as :func:`snapshot` pickled it in ``state``."""
    return str(get_agent(level, seed=seed).act(Seat(_world(state), seat)))


def appraise(
    seed: int,
    seat: int,
    state: bytes,
    lang: str,
    names: tuple[str, ...] = (),
    seconds: float = HINT_SECONDS,
) -> dict[str, object]:
    """The worker's other job: the hint for ``seat`` (:func:`cardtable.learn.hints.hint`,
    within ``seconds``) given its world as :func:`snapshot` pickled it in ``state``, its moves
    in words of the language ``lang`` (seats named ``names``), as the browser receives it
    (``{"rows": [...], "deals": n}``, best first)."""
    world = _world(state)
    with language(lang):
        return hint(Seat(world, seat), seed=seed, seconds=seconds, names=names).as_json()


def _ready() -> int:
    """A no-op job that starts a worker (and tells which one it was)."""
    return os.getpid()


def detach_worker(nice: int, server: int) -> None:
    """Set up a worker process of the server (the search pool's, the reviews'): what Ctrl+C
    does, its priority, a watch on the ``server`` (the pid of the process that started it)."""
    # Ctrl+C reaches the whole process group: the server stops its workers itself, after
    # the moves they are computing.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        with contextlib.suppress(AttributeError, OSError):
            os.nice(nice)
    # A server killed outright (SIGKILL, the OOM killer) cannot stop its workers, and they
    # would wait for work for ever: each one leaves once it is no longer the server's child
    # (the server may be gone before this runs: its pid is given, not read here).
    threading.Thread(
        target=_watch_parent, args=(server,), name="cardtable-parent-watch", daemon=True
    ).start()


def _init_worker(nice: int, server: int, started: Synchronized[int] | None = None) -> None:
    """Set up a search worker (:func:`detach_worker`) and import the agents and engines now,
    not during the first move; then count the worker as ready in ``started``."""
    detach_worker(nice, server)
    get_agent("expert")
    for name in variants.names():  # every engine a world's pickle may name, loaded now
        variants.new_game(name)
    if started is not None:
        with started.get_lock():
            started.value += 1


def _watch_parent(parent: int) -> None:
    """Leave the process as soon as the server that started it is gone."""
    while os.getppid() == parent:
        time.sleep(_PARENT_CHECK)
    os._exit(0)


def _log_failure(future: Future[int]) -> None:
    """Done-callback of a warm-up job: say so if it failed."""
    if not future.cancelled() and future.exception() is not None:
        log.error("a search worker failed to start", exc_info=future.exception())


class SearchPool:
    """Where the server computes search-level moves: ``workers`` processes, or a thread of
    the server when ``workers`` is 0.

    Processes start with the server (:meth:`warm`, in the background; or when first needed)
    and live until :meth:`close`. A worker that dies (killed, out of memory)
    breaks a ``ProcessPoolExecutor`` for good; the pool then starts a new one and tries the
    moves that were in flight once more."""

    def __init__(self, workers: int, *, nice: int = WORKER_NICE) -> None:
        if workers < 0:
            raise ValueError(f"the number of AI workers cannot be negative, got {workers}")
        self.workers = workers
        """Worker processes (0: search in a thread of the server)."""
        self.nice = nice
        """Priority the workers give up (see :data:`WORKER_NICE`)."""
        self._pool: ProcessPoolExecutor | None = None
        self._started: Synchronized[int] | None = None
        self._warm = False
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor | None:
        """The process pool, made when first needed (``None``: threads)."""
        if self.workers == 0:
            return None
        if self._closed:
            raise RuntimeError("the search pool is closed")
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._started = context.Value("i", 0)
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_init_worker,
                initargs=(self.nice, os.getpid(), self._started),
            )
        return self._pool

    @property
    def ready(self) -> int:
        """Worker processes of the current pool that have started and imported the agents
        and engines: ready to search at once (0 for a thread: it needs no start)."""
        started = self._started
        return 0 if started is None else int(started.value)

    def warm(self) -> None:
        """Start every worker now, in the background (a thread starts the processes, which
        then import the agents and engines), so that the first move does not wait for a
        process to start: the server starts it with itself (:meth:`.RoomManager.start`), and
        again after a broken pool is replaced. Does nothing once done, nor for a thread."""
        if self.workers == 0 or self._warm or self._closed:
            return
        self._warm = True
        pool = self._executor()
        assert pool is not None
        # With ``spawn`` the executor starts a process per job while none is idle; starting
        # a process takes milliseconds of the caller's time, so the event loop does not.
        threading.Thread(
            target=self._start_workers, args=(pool,), name="cardtable-search-warm", daemon=True
        ).start()

    def _start_workers(self, pool: ProcessPoolExecutor) -> None:
        """Submit one no-op job per worker, which starts every process of ``pool``."""
        for _ in range(self.workers):
            try:
                pool.submit(_ready).add_done_callback(_log_failure)
            except RuntimeError:  # closed, or broken, meanwhile: nothing to warm
                return

    async def choose(self, level: str, seed: int, seat: int, state: bytes) -> str:
        """The action (text) of :func:`think` for these arguments, computed in a worker.

        Cancelling the caller drops the job if no worker has taken it yet; a job already
        running finishes in its worker and its answer is thrown away."""
        loop = asyncio.get_running_loop()
        pool = self._executor()
        try:
            return await loop.run_in_executor(pool, think, level, seed, seat, state)
        except BrokenProcessPool:
            if self._closed or pool is None:
                raise
            self._replace(pool)
            return await loop.run_in_executor(self._executor(), think, level, seed, seat, state)

    async def hint(
        self,
        seed: int,
        seat: int,
        state: bytes,
        lang: str,
        names: tuple[str, ...] = (),
        seconds: float = HINT_SECONDS,
    ) -> dict[str, object]:
        """The hint of :func:`appraise` for these arguments, computed in a worker (as
        :meth:`choose` computes a move: never on the event loop)."""
        loop = asyncio.get_running_loop()
        pool = self._executor()
        args = (seed, seat, state, lang, names, seconds)
        try:
            return await loop.run_in_executor(pool, appraise, *args)
        except BrokenProcessPool:
            if self._closed or pool is None:
                raise
            self._replace(pool)
            return await loop.run_in_executor(self._executor(), appraise, *args)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Give up a broken process pool for a new one (once, whoever notices first)."""
        if self._pool is not broken:
            return
        log.error("a search worker died; starting the search pool again")
        self._pool = None
        self._warm = False
        broken.shutdown(wait=False, cancel_futures=True)
        self.warm()

    async def close(self, grace: float = 10.0) -> None:
        """Stop the workers: moves not yet taken are dropped, moves being computed finish —
        for at most ``grace`` seconds, then their workers are killed."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is None:
            return
        done = asyncio.ensure_future(
            asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
        )
        try:
            await asyncio.wait_for(asyncio.shield(done), grace)
        except TimeoutError:
            log.error("search workers still busy %g s after the server stopped: killed", grace)
            for proc in multiprocessing.active_children():  # the server's only children
                proc.kill()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done, grace)
