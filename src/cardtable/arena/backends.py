"""Where the games run: this process, a local process pool, or a Ray cluster.

Every runner takes the chunks of a run and gives back their game records (the statistics sort
them by game), so the result does not depend on which backend played them. Ctrl-C stops a
runner at once, workers included, and raises :class:`Interrupted` with the games finished.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import importlib
import logging
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.queues import SimpleQueue
from typing import Literal

from .errors import ArenaError
from .play import Chunk, GameRecord, iter_chunk

__all__ = [
    "BACKENDS",
    "RAY_HINT",
    "Backend",
    "Interrupted",
    "ProgressFn",
    "interrupt_once",
    "run_process",
    "run_ray",
    "run_serial",
]

Backend = Literal["process", "ray", "serial"]
"""Where the games run: a local process pool, a Ray cluster, or this process one by one."""

BACKENDS: tuple[str, ...] = ("process", "ray", "serial")
"""Every backend :func:`run_arena` accepts."""

ProgressFn = Callable[[int, int], None]
"""Progress callback: ``progress(games_done, games_total)``, called as games finish (as chunks
finish on Ray)."""

RAY_HINT = "the ray backend needs Ray: pip install cardtable[ray]"
"""The message given when the Ray backend is asked for but Ray is not installed."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a runner: its workers are gone and ``records`` holds the games that
    finished before it (in no particular order)."""

    def __init__(self, records: list[GameRecord], workers: int | None = None) -> None:
        super().__init__("interrupted")
        self.records = records
        """The games that finished."""
        self.workers = workers
        """How many workers played them, when the runner knows it (Ray: the cluster's CPUs)."""


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C for the duration (main thread only; elsewhere nothing changes).

    Processes started meanwhile inherit the ignored SIGINT from their first instruction on, so
    a Ctrl-C in the terminal, which reaches the whole process group, leaves them to the parent.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def interrupt_once(keep_ignoring: bool = False) -> Iterator[None]:
    """Within the block the first Ctrl-C raises ``KeyboardInterrupt`` and later ones are
    ignored, so stopping the workers and gathering the finished games cannot be cut short.

    On leaving, Python's usual handler comes back — unless Ctrl-C was pressed and
    ``keep_ignoring`` is set (for a command that is about to exit). Nothing changes outside the
    main thread or when SIGINT already has a handler of its own (or is ignored).
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    pressed = False

    def first_press(signum: int, frame: object) -> None:
        nonlocal pressed
        pressed = True
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, first_press)
    try:
        yield
    finally:
        if not (pressed and keep_ignoring):
            signal.signal(signal.SIGINT, signal.default_int_handler)


def run_serial(
    chunks: Sequence[Chunk], progress: ProgressFn | None, total: int
) -> list[GameRecord]:
    """Play ``chunks`` one game after the other in this process (for debugging); the records
    in game order. ``progress(done, total)`` is called as each game ends."""
    records: list[GameRecord] = []
    try:
        for chunk in chunks:
            for record in iter_chunk(chunk):
                records.append(record)
                if progress is not None:
                    progress(len(records), total)
    except KeyboardInterrupt:
        raise Interrupted(records) from None
    return records


_reports: SimpleQueue[GameRecord] | None = None
"""In a pool worker: the queue its finished games go to (set by :func:`_init_worker`)."""


def _init_worker(reports: SimpleQueue[GameRecord]) -> None:
    """Set up a pool worker: Ctrl-C is the parent's to handle, and games go to ``reports``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _reports
    _reports = reports


def _play_and_report(chunk: Chunk) -> int:
    """In a pool worker: play ``chunk``, sending each record to the parent as its game ends;
    the number of games played."""
    played = 0
    reports = _reports
    assert reports is not None, "a pool worker is set up by _init_worker"
    for record in iter_chunk(chunk):
        reports.put(record)
        played += 1
    return played


def _stop_pool(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now, running games included."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[Callable[[], None]]:
    """Hold Ctrl-C back for the duration (main thread, when SIGINT has a Python handler): a
    press is only noted, and the function yielded delivers it, at a point of the caller's
    choosing, to the handler that was there before (which raises ``KeyboardInterrupt``).

    A ``KeyboardInterrupt`` raised anywhere could land inside the pool's own locks (a future's
    condition, taken by ``concurrent.futures.wait``) and leave one held: the pool's manager
    thread then waits on it forever, and so does the interpreter's exit.
    """
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield lambda: None
        return
    pressed = threading.Event()

    def note(signum: int, frame: object) -> None:
        pressed.set()

    def deliver() -> None:
        if pressed.is_set() and signal.getsignal(signal.SIGINT) is note:
            signal.signal(signal.SIGINT, previous)
            previous(signal.SIGINT, None)

    signal.signal(signal.SIGINT, note)
    try:
        yield deliver
    finally:
        if signal.getsignal(signal.SIGINT) is note:
            signal.signal(signal.SIGINT, previous)


def run_process(
    chunks: Sequence[Chunk], workers: int, progress: ProgressFn | None, total: int
) -> list[GameRecord]:
    """Play ``chunks`` in a pool of ``workers`` spawned processes; the records, in no particular
    order. ``progress(done, total)`` is called as each game ends, whichever worker played it.

    Workers ignore Ctrl-C; in the parent it cancels the chunks not started, terminates the
    workers and raises :class:`Interrupted` with the games received so far. The press is acted
    on between two waits for the workers, never inside the pool's own code.
    """
    context = multiprocessing.get_context("spawn")  # safe beside threads (Ray, test runners)
    reports: SimpleQueue[GameRecord] = context.SimpleQueue()
    records: list[GameRecord] = []

    def drain() -> None:
        while not reports.empty():
            records.append(reports.get())
            if progress is not None:
                progress(len(records), total)

    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(reports,)
    )
    try:
        with _sigint_deferred() as deliver:
            with _sigint_ignored():  # the workers start during submit
                pending = {pool.submit(_play_and_report, chunk) for chunk in chunks}
            while pending:
                deliver()  # a Ctrl-C pressed meanwhile is raised here
                done, pending = concurrent.futures.wait(
                    pending, timeout=0.1, return_when=concurrent.futures.FIRST_COMPLETED
                )
                drain()
                for future in done:
                    future.result()  # a worker's own error (not an agent's: those are records)
            drain()  # every worker put its records before its chunk completed
            deliver()
    except KeyboardInterrupt:
        with _sigint_ignored():  # a second Ctrl-C must not cut the clean-up short
            _stop_pool(pool)
        raise Interrupted(records) from None
    except BaseException:
        with _sigint_ignored():
            _stop_pool(pool)
        raise
    pool.shutdown()
    reports.close()
    return records


def run_ray(
    chunks: Sequence[Chunk],
    workers: int | None,
    address: str | None,
    progress: ProgressFn | None,
    total: int,
) -> tuple[list[GameRecord], int]:
    """Play ``chunks`` as Ray tasks: on the cluster at ``address``, on an already initialized
    Ray, or on a new local instance with ``workers`` CPUs (shut down afterwards). Returns the
    records (in no particular order) and the cluster's CPU count. Each task streams its records
    as its games end (a Ray generator task), so ``progress(done, total)`` is called per game;
    Ctrl-C cancels the tasks and raises :class:`Interrupted`."""
    try:
        ray = importlib.import_module("ray")
    except ImportError as err:
        raise ArenaError(RAY_HINT) from err
    started = False
    if not ray.is_initialized():
        # Ray's own processes (started now) ignore the terminal's Ctrl-C, as the pool's workers
        # do: it is the driver's to handle, by cancelling the tasks and shutting Ray down.
        with _sigint_ignored():
            if address:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
            else:
                ray.init(
                    num_cpus=workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                )
        started = True
    records: list[GameRecord] = []
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        remote = ray.remote(num_cpus=1, num_returns="streaming")(iter_chunk)
        pending = [remote.remote(chunk) for chunk in chunks]
        try:
            with _sigint_deferred() as deliver:
                while pending:
                    deliver()  # a Ctrl-C pressed meanwhile is raised here, not inside Ray
                    # a task's stream is ready when its next record is, or when it has ended;
                    # the wait is short, so a Ctrl-C is acted on within a fraction of a second
                    ready, pending = ray.wait(pending, num_returns=1, timeout=0.2)
                    for stream in ready:
                        try:
                            ref = next(stream)
                        except StopIteration:
                            continue  # the chunk is played out
                        records.append(ray.get(ref))
                        pending.append(stream)
                        if progress is not None:
                            progress(len(records), total)
                deliver()
        except KeyboardInterrupt:
            with _sigint_ignored():
                for ref in pending:
                    ray.cancel(ref, force=True)
            raise Interrupted(records, cpus) from None
        return records, cpus
    finally:
        if started:
            with _sigint_ignored():
                ray.shutdown()
