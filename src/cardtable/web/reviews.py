"""Reviews of finished games in the browser: each decision of one seat weighed by the search,
computed once per game and seat off the event loop, told in the language asked for.

``GET /api/rooms/{room}/games/{n}/review?seat=N&lang=xx`` answers with what
:func:`cardtable.learn.review.review` finds — the same evaluation as ``cardtable review`` —
for one seat of one finished game. A review weighs every decision of the seat with the
rollout search (0.2–0.4 s a decision with the default :data:`REVIEW_SAMPLES` deals), so:

* It runs in a **worker process** of a :class:`ReviewService` (``spawn``ed, at the lowest CPU
  priority, like the search pool of :mod:`.search`), never in the server's process: a thread
  would hold the interpreter lock against the event loop for the whole review. ``workers=0``
  runs it in a thread instead (tests, debugging).
* Until it is ready a request is answered ``202`` with the **progress**: the seat's moves
  weighed so far of all its moves (``done``, ``total``), and how many other reviews are ahead of
  it (``waiting``); each worker tells the server after every move through a queue.
* A review is computed **once per (room, game, seat)** and kept (:data:`CACHE_ENTRIES`, least
  recently used dropped first); its answer in each language is made from it once and kept too,
  per (room, game, seat, language). Requests for a review under way wait for that one; none
  starts a second (:attr:`ReviewService.computed` counts them).
* At most :data:`MAX_PENDING` reviews wait or run at once; past that a new one is refused
  (``503``, try again later): reviews take CPU that the tables need.

The server's service is made by :meth:`ReviewService.from_env`: one worker at the lowest
priority, :data:`REVIEW_SAMPLES` deals, unless the environment says otherwise
(``CARDTABLE_REVIEW_WORKERS``, ``CARDTABLE_REVIEW_SAMPLES``, ``CARDTABLE_REVIEW_NICE``: for a
machine that reviews a lot, or for tests that need a review in seconds on a busy machine).

Only a finished game is reviewed: the log holds the seed, from which every card follows, and
the answer names cards (the best move, a memory slip) that no seat may know while the game
is played. The routes check that the game is over before a review starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, TypedDict

import orjson
from fastapi import HTTPException

from ..agents.search import ActionValue
from ..catalog import language, negotiate, say, supported
from ..learn.review import INACCURACY, Judgement, Review, SeatSummary, review
from ..text.moves import move_words
from .search import WORKER_NICE, detach_worker

if TYPE_CHECKING:
    from multiprocessing.queues import SimpleQueue

__all__ = [
    "CACHE_ENTRIES",
    "MAX_PENDING",
    "REVIEW_SAMPLES",
    "TEXT_KEYS",
    "TOP_MOVES",
    "Progress",
    "ReviewKey",
    "ReviewService",
    "ReviewSource",
    "page_text",
    "pick_language",
    "review_body",
]

log = logging.getLogger("cardtable.web")

REVIEW_SAMPLES = 200
"""Deals the search weighs each decision on (as ``cardtable review``'s default)."""

MAX_PENDING = 8
"""Reviews that may wait or run at once; a request for another is refused (``503``)."""

CACHE_ENTRIES = 256
"""Reviews a :class:`ReviewService` keeps (and answers per language made from them)."""

TOP_MOVES = 3
"""The search's best moves an answer lists for each decision (the move played as well, if it
is not among them)."""

TEXT_KEYS = (
    "review.web.title",
    "review.web.whose",
    "review.web.language",
    "review.web.decisions",
    "review.web.running",
    "review.web.none",
    "review.web.explain",
    "review.web.knew",
    "review.web.before",
    "review.web.moves",
    "review.web.head.move",
    "review.web.head.points",
    "review.web.head.loss",
    "review.web.head.win",
    "review.web.slip",
    "review.web.fine",
    "review.web.unclear",
    "review.web.aid",
    "review.web.no_aid",
    "review.web.history",
    "review.web.replay",
    "review.web.failed",
    "review.web.show",
    "review.web.filter.all",
    "review.web.filter.marked",
    "review.web.waiting",
    "review.web.move",
    "review.web.loss",
    "review.web.best",
    "review.web.round",
    "review.web.replay.first",
    "review.web.replay.back",
    "review.web.replay.play",
    "review.web.replay.pause",
    "review.web.replay.next",
    "review.web.replay.next_round",
    "review.web.replay.last",
    "review.web.replay.speed",
    "review.web.replay.start",
    "review.web.replay.deal_of",
    "review.web.replay.move_at",
    "review.web.replay.deal_at",
    "review.web.replay.round_over",
    "review.web.replay.game_over",
    "review.web.replay.step",
    "review.web.replay.won_by",
    "review.web.replay.totals",
    "review.web.replay.next_deal",
)
"""The words of the review page that the server sends in the language asked for (keys of
``review.po``; ``{placeholders}`` are filled in by the page)."""

ReviewKey = tuple[str, int, int]
"""A review: ``(room id, game number, seat)``."""


class Progress(TypedDict):
    """A review not ready yet, as the ``202`` answer says it."""

    status: str
    """``"running"`` (or ``"waiting"`` while other reviews are ahead of it)."""
    done: int
    """The seat's moves weighed so far."""
    total: int
    """The seat's moves in the game."""
    waiting: int
    """Reviews ahead of this one."""


@dataclasses.dataclass(frozen=True)
class ReviewSource:
    """What a review is computed from: a finished game's log and the reviewed seat."""

    log: Mapping[str, object]
    """The game's log (game, players, seed, options, actions), as :meth:`Game.log` gives it."""
    seat: int
    """The seat reviewed."""
    memory_aid: bool
    """Whether the seat played with the memory aid (then it has no memory slips)."""
    names: tuple[str, ...] = ()
    """Each seat's name as the browser shows it."""
    game_no: int = 0
    """The game's number in its room."""
    names_in: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """Each seat's name as the browser shows it in each language (an AI seat's label is
    ``Casual AI`` in English, ``Hobby-KI`` in German); :attr:`names` where a language is
    missing."""

    def names_for(self, lang: str) -> tuple[str, ...]:
        """The seats' names for words in ``lang``."""
        return self.names_in.get(lang, self.names)

    @property
    def moves(self) -> int:
        """The seat's moves in the game (the review's progress counts them)."""
        actions = self.log.get("actions")
        if not isinstance(actions, Sequence):
            return 0
        return sum(1 for a in actions if isinstance(a, Sequence) and a and a[0] == self.seat)


def pick_language(lang: str | None, accept: str | None) -> str:
    """The language to answer in: ``lang`` if given (``422`` for one that does not ship), else
    the first shipped one of an ``Accept-Language`` header, else English."""
    if lang is not None:
        if lang not in supported():
            raise HTTPException(422, f"lang must be one of {', '.join(supported())}")
        return lang
    wanted = [part.split(";")[0].strip() for part in (accept or "").split(",")[:20]]
    return negotiate([w for w in wanted if w and w != "*"])


def _round(x: float, digits: int) -> float | None:
    """``x`` rounded, ``None`` for an infinite or undefined number (JSON has neither)."""
    return round(x, digits) if math.isfinite(x) else None


def _moves(j: Judgement, names: tuple[str, ...]) -> list[dict[str, object]]:
    """The search's best moves of a decision (and the one played), each in figures and words,
    fewest expected points first."""
    ranked = sorted(j.values, key=lambda v: (v.loss, v.points))
    chosen: list[ActionValue] = ranked[:TOP_MOVES]
    if all(v.action != j.played for v in chosen):
        chosen += [v for v in ranked if v.action == j.played]
    return [
        {
            "action": str(v.action),
            "words": move_words(v.action, j.seat, names),
            "points": _round(v.points, 2),
            "win": _round(v.win, 3),
            "loss": _round(v.loss, 2),
            "error": _round(v.loss_error, 2),
            "played": v.action == j.played,
            "best": v.action == j.best,
        }
        for v in chosen
    ]


def _decision(j: Judgement, names: tuple[str, ...]) -> dict[str, object]:
    """One decision as the answer carries it: :meth:`Judgement.as_json`, its words, the
    memory slip's words, its label in words, whether it is ``unclear`` (it lost at least an
    inaccuracy's points, not clearly more than the search's noise: no label) and the search's
    best moves."""
    return {
        **j.as_json(),
        "seat": j.seat,
        "error": _round(j.error, 2),
        "words": j.words(names),
        "played_words": move_words(j.played, j.seat, names),
        "best_words": move_words(j.best, j.seat, names),
        "label_words": say(f"review.label.{j.label}") if j.label else None,
        "slip": j.slip.words(j.seat, names) if j.slip is not None else None,
        # a loss as large as an inaccuracy's that the search cannot tell from its noise
        "unclear": j.label is None and j.loss >= INACCURACY,
        "moves": _moves(j, names),
    }


def _figures(s: SeatSummary) -> dict[str, object]:
    """A seat's summary in figures."""
    return {
        "decisions": s.decisions,
        "inaccuracies": s.inaccuracies,
        "mistakes": s.mistakes,
        "blunders": s.blunders,
        "mean_loss": round(s.mean_loss, 2),
        "slips": s.slips,
    }


def page_text(lang: str) -> dict[str, str]:
    """The review page's own words in ``lang`` (:data:`TEXT_KEYS`, by the key's last parts:
    ``"head.move"``), their placeholders left for the page to fill."""
    with language(lang) as words:
        return {key.removeprefix("review.web."): words.template(key) for key in TEXT_KEYS}


def review_body(result: Review, src: ReviewSource, lang: str, samples: int) -> bytes:
    """The answer of a ready review (JSON) for ``src``'s seat, in ``lang``."""
    with language(lang):
        summary = next(s for s in result.summaries if s.seat == src.seat)
        body = {
            "status": "ready",
            "game": result.game,
            "game_no": src.game_no,
            "seat": src.seat,
            "lang": lang,
            "languages": supported(),
            "memory_aid": src.memory_aid,
            "samples": samples,
            "summary": summary.words(src.names_for(lang)),
            "figures": _figures(summary),
            "decisions": [_decision(j, src.names_for(lang)) for j in result.of(src.seat)],
        }
    body["text"] = page_text(lang)
    return orjson.dumps(body)


# -- the workers -------------------------------------------------------------------------------

_TELL: Callable[[tuple[int, int, int]], None] | None = None
"""In a worker process: how it tells the server of a review's progress (``(job, done,
total)`` onto the service's queue)."""

_HELLO = 0
"""The job number of a worker's first message: ``(0, its pid, 0)``."""


def _init_worker(queue: object, nice: int, server: int) -> None:
    """Set up a worker process: its progress queue, then as the search pool's workers
    (:func:`.search.detach_worker`: Ctrl+C left to the server, the lowest CPU priority, a
    watch that ends it once the ``server``, its parent's pid, is gone)."""
    global _TELL
    put = getattr(queue, "put", None)
    _TELL = put if callable(put) else None
    if _TELL is not None:
        _TELL((_HELLO, os.getpid(), 0))  # so that the server can stop this worker by its pid
    detach_worker(nice, server)


def compute(
    job: int,
    log_: Mapping[str, object],
    seat: int,
    samples: int,
    seed: int,
    memory_aid: bool,
) -> Review:
    """A worker's job: :func:`~cardtable.learn.review.review` of ``seat`` in the game of
    ``log_``, telling the server its progress (as job number ``job``) after every move."""
    tell = _TELL

    def progress(done: int, total: int) -> None:
        if tell is not None:
            tell((job, done, total))

    return review(
        log_, [seat], samples=samples, seed=seed, memory_aid=memory_aid, progress=progress
    )


# -- the service -------------------------------------------------------------------------------


@dataclasses.dataclass
class _Job:
    """A review waiting or under way."""

    number: int
    source: ReviewSource
    total: int
    done: int = 0
    task: asyncio.Task[Review] | None = None


class ReviewService:
    """Where the server computes reviews and keeps them: ``workers`` processes (``0``: a
    thread of the server), each review weighing every decision on ``samples`` deals with the
    search seeded by ``seed`` (the same numbers as ``cardtable review --samples S --seed N``).

    :meth:`answer` gives a ready review's JSON in a language, or its progress while it is
    computed (and starts it if it has not started)."""

    def __init__(
        self,
        workers: int = 1,
        *,
        samples: int = REVIEW_SAMPLES,
        seed: int = 0,
        nice: int = WORKER_NICE,
        max_pending: int = MAX_PENDING,
        max_entries: int = CACHE_ENTRIES,
    ) -> None:
        if workers < 0 or samples < 2 or max_pending < 1 or max_entries < 1:
            raise ValueError("workers ≥ 0, samples ≥ 2, max_pending and max_entries ≥ 1")
        self.workers = workers
        """Worker processes (0: reviews in a thread of the server)."""
        self.samples = samples
        """Deals per decision."""
        self.seed = seed
        """The search's seed."""
        self.nice = nice
        """CPU priority the workers give up."""
        self.max_pending = max_pending
        """Reviews that may wait or run at once."""
        self.max_entries = max_entries
        """Reviews kept."""
        self.computed = 0
        """Reviews started so far (one per game and seat, unless dropped and asked again)."""
        self.hits = 0
        """Answers given from a kept review."""
        self._numbers = itertools.count(_HELLO + 1)
        self._jobs: dict[ReviewKey, _Job] = {}
        self._by_number: dict[int, _Job] = {}
        self._done: OrderedDict[ReviewKey, tuple[Review, ReviewSource]] = OrderedDict()
        self._bodies: OrderedDict[tuple[ReviewKey, str], bytes] = OrderedDict()
        self._executor: Executor | None = None
        self._queue: SimpleQueue[tuple[int, int, int] | None] | None = None
        self._reader: threading.Thread | None = None
        self._pids: set[int] = set()
        self._closed = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ReviewService:
        """The server's service: the defaults, or what ``CARDTABLE_REVIEW_WORKERS``,
        ``CARDTABLE_REVIEW_SAMPLES`` and ``CARDTABLE_REVIEW_NICE`` say (whole numbers;
        ``ValueError`` for anything else) in ``environ`` (default: :data:`os.environ`)."""
        env = os.environ if environ is None else environ
        found: dict[str, int] = {}
        for name, field in (("WORKERS", "workers"), ("SAMPLES", "samples"), ("NICE", "nice")):
            value = env.get(f"CARDTABLE_REVIEW_{name}")
            if value is None or not value.strip():
                continue
            try:
                found[field] = int(value)
            except ValueError:
                raise ValueError(
                    f"CARDTABLE_REVIEW_{name} is a whole number, not {value!r}"
                ) from None
        return cls(**found)

    def __contains__(self, key: object) -> bool:
        return key in self._done

    def pending(self) -> int:
        """Reviews waiting or under way (or ended, their failure not yet told)."""
        return len(self._jobs)

    def under_way(self) -> list[Progress]:
        """The progress of each review waiting or under way, oldest first."""
        return [self._progress(job) for job in sorted(self._jobs.values(), key=lambda j: j.number)]

    def idle(self) -> bool:
        """Whether no review is waiting or being computed."""
        return all(job.task is None or job.task.done() for job in self._jobs.values())

    def workers_seen(self) -> int:
        """Worker processes that have told this service they started."""
        return len(self._pids)

    async def answer(
        self,
        key: ReviewKey,
        lang: str,
        source: Callable[[], Awaitable[ReviewSource]],
    ) -> bytes | Progress:
        """The review of ``key`` in ``lang`` (JSON), if it is ready; else its progress, the
        review started from ``source()`` if it was not under way (what ``source`` raises
        reaches the caller and nothing starts). ``HTTPException`` ``503`` when too many
        reviews are pending, ``409`` for a game whose moves do not replay, ``500`` for a review
        that failed (a later request tries again)."""
        body = self._bodies.get((key, lang))
        if body is not None:
            self._bodies.move_to_end((key, lang))
            self._done.move_to_end(key)
            self.hits += 1
            return body
        kept = self._done.get(key)
        if kept is not None:
            self._done.move_to_end(key)
            self.hits += 1
            return self._keep_body(key, lang, review_body(*kept, lang, self.samples))
        job = self._jobs.get(key)
        if job is None:
            if self._closed:
                raise HTTPException(503, "the server is stopping")
            src = await source()
            job = self._jobs.get(key)  # another request may have started it meanwhile
            if job is None:
                if len(self._jobs) >= self.max_pending:
                    raise HTTPException(
                        503, "the server is busy with other reviews: try again in a minute"
                    )
                job = self._start(key, src)
        if job.task is not None and job.task.done():
            return self._finish(key, job, lang)
        return self._progress(job)

    def _progress(self, job: _Job) -> Progress:
        """How far ``job`` has come, and how many reviews are ahead of it."""
        ahead = sum(
            1
            for other in self._jobs.values()
            if other.number < job.number and other.task is not None and not other.task.done()
        )
        waiting = max(0, ahead - max(self.workers, 1) + 1) if job.done == 0 else 0
        return {
            "status": "waiting" if waiting else "running",
            "done": job.done,
            "total": job.total,
            "waiting": waiting,
        }

    def _start(self, key: ReviewKey, src: ReviewSource) -> _Job:
        """Start computing the review of ``key``."""
        job = _Job(next(self._numbers), src, src.moves)
        self._jobs[key] = job
        self._by_number[job.number] = job
        self.computed += 1
        job.task = asyncio.get_running_loop().create_task(self._run(job))
        job.task.add_done_callback(lambda t: self._settle(key, job, t))
        return job

    async def _run(self, job: _Job) -> Review:
        """Compute ``job`` in a worker (or the thread)."""
        loop = asyncio.get_running_loop()
        src = job.source
        started = time.perf_counter()
        if self.workers == 0:

            def tell(done: int, total: int) -> None:
                job.done, job.total = done, total  # plain int stores: the loop reads them

            result = await loop.run_in_executor(
                self._pool(),
                lambda: review(
                    src.log,
                    [src.seat],
                    samples=self.samples,
                    seed=self.seed,
                    memory_aid=src.memory_aid,
                    progress=tell,
                ),
            )
        else:
            args = (job.number, src.log, src.seat, self.samples, self.seed, src.memory_aid)
            pool = self._pool()
            try:
                result = await loop.run_in_executor(pool, compute, *args)
            except BrokenProcessPool:
                self._replace(pool)
                result = await loop.run_in_executor(self._pool(), compute, *args)
        log.info(
            "review of game %d seat %d: %d moves weighed in %.1f s",
            src.game_no,
            src.seat,
            job.total,
            time.perf_counter() - started,
        )
        return result

    def _settle(self, key: ReviewKey, job: _Job, task: asyncio.Task[Review]) -> None:
        """A review ended: keep it (a failure stays until a request has seen it)."""
        self._by_number.pop(job.number, None)
        if not task.cancelled() and task.exception() is None:
            self._keep(key, job, task.result())

    def _keep(self, key: ReviewKey, job: _Job, result: Review) -> None:
        """Keep the review of ``job`` (once: whoever sees it ended first, the request or the
        task's end) and forget the job; drop the least recently used beyond the bound."""
        if self._jobs.get(key) is not job:
            return  # kept already
        del self._jobs[key]
        self._done[key] = (result, job.source)
        self._done.move_to_end(key)
        while len(self._done) > self.max_entries:
            dropped, _ = self._done.popitem(last=False)
            for k in [k for k in self._bodies if k[0] == dropped]:
                del self._bodies[k]

    def _finish(self, key: ReviewKey, job: _Job, lang: str) -> bytes:
        """The answer of a job that has ended: its review in ``lang``, or its failure."""
        assert job.task is not None
        if job.task.cancelled() or job.task.exception() is not None:
            if self._jobs.get(key) is job:
                del self._jobs[key]
            err = None if job.task.cancelled() else job.task.exception()
            if isinstance(err, ValueError):
                raise HTTPException(409, "this game's moves do not replay under these rules")
            log.error("a review failed", exc_info=err)
            raise HTTPException(500, "the review failed; try again")
        result = job.task.result()
        self._keep(key, job, result)
        return self._keep_body(key, lang, review_body(result, job.source, lang, self.samples))

    def _keep_body(self, key: ReviewKey, lang: str, body: bytes) -> bytes:
        """Keep the answer of ``key`` in ``lang`` beside its review."""
        self._bodies[(key, lang)] = body
        while len(self._bodies) > 2 * self.max_entries:
            self._bodies.popitem(last=False)
        return body

    def _pool(self) -> Executor:
        """The executor reviews run in, made when first needed."""
        if self._closed:
            raise RuntimeError("the review service is closed")
        if self._executor is None:
            if self.workers == 0:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="review")
            else:
                ctx = multiprocessing.get_context("spawn")
                if self._queue is None:
                    self._queue = ctx.SimpleQueue()
                    self._reader = threading.Thread(
                        target=self._read_progress,
                        args=(self._queue,),
                        name="cardtable-review-progress",
                        daemon=True,
                    )
                    self._reader.start()
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=ctx,
                    initializer=_init_worker,
                    initargs=(self._queue, self.nice, os.getpid()),
                )
        return self._executor

    def _read_progress(self, queue: SimpleQueue[tuple[int, int, int] | None]) -> None:
        """The progress reader (a thread): note each ``(job, done, total)`` the workers send
        on the job it names, until ``None``."""
        while True:
            item = queue.get()
            if item is None:
                return
            number, done, total = item
            if number == _HELLO:
                self._pids.add(done)
                continue
            job = self._by_number.get(number)
            if job is not None:
                job.done, job.total = done, total  # plain int stores: the loop reads them

    def _replace(self, broken: Executor) -> None:
        """Give up a broken process pool for a new one (once, whoever notices first)."""
        if self._executor is not broken:
            return
        log.error("a review worker died; starting the review workers again")
        self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    async def close(self, grace: float = 5.0) -> None:
        """Stop: reviews not started are dropped; those under way get ``grace`` seconds, then
        their workers are killed."""
        self._closed = True
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()
        pool, self._executor = self._executor, None
        if pool is not None:
            done = asyncio.ensure_future(
                asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
            )
            try:
                await asyncio.wait_for(asyncio.shield(done), grace)
            except TimeoutError:
                log.error("review workers still busy %g s after the server stopped: killed", grace)
                for pid in self._pids:  # this service's workers only
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done, grace)
        if self._queue is not None and self._reader is not None:
            self._queue.put(None)
            await asyncio.to_thread(self._reader.join, grace)
            self._queue = None
            self._reader = None
