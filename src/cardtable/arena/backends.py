"""Where the games run: this process, a local process pool, or a Ray cluster.

Every runner takes the chunks of a run and gives back their game records in chunk order, so
the result does not depend on which backend played them.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import logging
import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any, Literal

from .errors import ArenaError
from .play import Chunk, GameRecord, play_chunk

__all__ = [
    "BACKENDS",
    "RAY_HINT",
    "Backend",
    "ProgressFn",
    "run_process",
    "run_ray",
    "run_serial",
]

Backend = Literal["process", "ray", "serial"]
"""Where the games run: a local process pool, a Ray cluster, or this process one by one."""

BACKENDS: tuple[str, ...] = ("process", "ray", "serial")
"""Every backend :func:`run_arena` accepts."""

ProgressFn = Callable[[int, int], None]
"""Progress callback: ``progress(games_done, games_total)``, called as chunks finish."""

RAY_HINT = "the ray backend needs Ray: pip install cardtable[ray]"
"""The message given when the Ray backend is asked for but Ray is not installed."""


def run_serial(
    chunks: Sequence[Chunk], progress: ProgressFn | None, total: int
) -> list[list[GameRecord]]:
    """Play ``chunks`` one after the other in this process (for debugging); the records by
    chunk, in chunk order."""
    parts = []
    done = 0
    for chunk in chunks:
        parts.append(play_chunk(chunk))
        done += chunk.stop - chunk.start
        if progress is not None:
            progress(done, total)
    return parts


def run_process(
    chunks: Sequence[Chunk], workers: int, progress: ProgressFn | None, total: int
) -> list[list[GameRecord]]:
    """Play ``chunks`` in a pool of ``workers`` spawned processes; the records by chunk, in
    chunk order. ``progress(done, total)`` is called as chunks finish."""
    results: list[list[GameRecord] | None] = [None] * len(chunks)
    done = 0
    context = multiprocessing.get_context("spawn")  # safe beside threads (Ray, test runners)
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(play_chunk, chunk): k for k, chunk in enumerate(chunks)}
        try:
            for future in concurrent.futures.as_completed(futures):
                k = futures[future]
                results[k] = future.result()
                done += chunks[k].stop - chunks[k].start
                if progress is not None:
                    progress(done, total)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return [r for r in results if r is not None]


def run_ray(
    chunks: Sequence[Chunk],
    workers: int | None,
    address: str | None,
    progress: ProgressFn | None,
    total: int,
) -> tuple[list[list[GameRecord]], int]:
    """Play ``chunks`` as Ray tasks: on the cluster at ``address``, on an already initialized
    Ray, or on a new local instance with ``workers`` CPUs (shut down afterwards). Returns the
    records by chunk, in chunk order, and the cluster's CPU count."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError as err:
        raise ArenaError(RAY_HINT) from err
    started = False
    if not ray.is_initialized():
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
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        remote = ray.remote(num_cpus=1)(play_chunk)
        refs = [remote.remote(chunk) for chunk in chunks]
        sizes = {ref: chunk.stop - chunk.start for ref, chunk in zip(refs, chunks, strict=True)}
        pending = list(refs)
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            done += sum(sizes[r] for r in ready)
            if progress is not None:
                progress(done, total)
        return list(ray.get(refs)), cpus
    finally:
        if started:
            ray.shutdown()
