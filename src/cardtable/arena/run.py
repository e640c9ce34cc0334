"""The arena's front door: check a run's settings, cut it into chunks, run it, aggregate."""

from __future__ import annotations

import importlib.util
import os
import time
from collections.abc import Sequence

from ..variants import Options
from ..variants import get as get_variant
from .backends import (
    BACKENDS,
    RAY_HINT,
    Backend,
    Interrupted,
    ProgressFn,
    interrupt_once,
    run_process,
    run_ray,
    run_serial,
)
from .errors import ArenaError
from .play import MAX_DECISIONS, Chunk, GameRecord, build_agent
from .result import ArenaResult, aggregate

__all__ = ["ArenaInterrupted", "check_settings", "run_arena"]


class ArenaInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run_arena`: the workers are stopped, and :attr:`result` holds the
    statistics of the games that finished (:attr:`planned` games were asked for)."""

    def __init__(self, result: ArenaResult, planned: int) -> None:
        super().__init__(f"interrupted after {result.games} of {planned} games")
        self.result = result
        """The statistics over the finished games."""
        self.planned = planned
        """The number of games the run was to play."""


def check_settings(
    variant: str,
    names: Sequence[str],
    games: int,
    players: int | None,
    seed: int,
    backend: str,
    workers: int | None,
    options: Options | None,
    measure: bool = False,
) -> tuple[str, int, Options]:
    """Validate a run's settings before any game is played.

    Returns the variant's registry name, the number of seats (see :func:`run_arena` for the
    default) and the rule options as given. Raises :class:`ArenaError` with a message a person
    can act on: unknown variant, agent, option or backend, a bad seat, game or worker count, or
    a missing extra (openskill for ratings, Ray for the ``ray`` backend).
    """
    try:
        spec = get_variant(variant)
    except ValueError as err:
        raise ArenaError(str(err)) from None
    if backend not in BACKENDS:
        raise ArenaError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    if type(games) is not int or games < 1:
        raise ArenaError(f"the number of games must be at least 1, got {games!r}")
    if type(seed) is not int:
        raise ArenaError(f"the seed must be an integer, got {seed!r}")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ArenaError(f"workers must be at least 1, got {workers!r}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise ArenaError(RAY_HINT)
    if importlib.util.find_spec("openskill") is None:
        raise ArenaError("the arena's ratings need openskill: pip install cardtable[arena]")
    if not names:
        raise ArenaError("name at least one agent")
    for name in names:
        try:
            build_agent(name, 0, measure)
        except (ValueError, ImportError) as err:
            raise ArenaError(f"agent {name!r} is not available: {err}") from None
    if players is None:
        n = len(names)
        players = n if spec.min_players <= n <= spec.max_players else spec.default_players
    try:
        spec.check_players(players)
        spec.resolve_options(options)  # checks each option given (and fills in the others)
    except ValueError as err:
        raise ArenaError(str(err)) from None
    return spec.name, players, dict(options or {})


def _chunks(games: int, workers: int, chunk_size: int | None) -> list[tuple[int, int]]:
    """``(start, stop)`` game spans of ``chunk_size`` games (default: about eight per worker,
    at most 64 games each)."""
    size = chunk_size or max(1, min(64, games // (workers * 8)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def run_arena(
    variant: str,
    agents: Sequence[str],
    games: int,
    players: int | None = None,
    seed: int = 0,
    backend: Backend | str = "process",
    workers: int | None = None,
    address: str | None = None,
    options: Options | None = None,
    progress: ProgressFn | None = None,
    *,
    duplicate: bool = True,
    chunk_size: int | None = None,
    max_decisions: int = MAX_DECISIONS,
    measure: bool = False,
) -> ArenaResult:
    """Play ``games`` games of ``variant`` between ``agents`` and gather the statistics.

    ``agents`` are agent names or levels (:func:`cardtable.agents.get`); repeating a name
    enters that agent twice. ``players`` defaults to the number of agents when the variant
    allows it, else to the variant's usual count. Seats follow :class:`Schedule`; game ``i`` is
    dealt with a seed derived from ``seed`` and ``i`` — with ``duplicate`` (the default) the
    rotations of one lineup share a deal, so every entrant plays it from every seat — and seat
    ``s``'s agent gets its own derived seed.

    ``backend``: ``"process"`` (a pool of ``workers`` processes, default: one per CPU),
    ``"ray"`` (the Ray cluster at ``address``, an already initialized Ray, or a new local
    instance with ``workers`` CPUs) or ``"serial"`` (this process, for debugging). The result
    is the same for every backend and worker count. ``progress(done, total)`` is called as
    games finish (as chunks of games finish on Ray).

    Ctrl-C (``KeyboardInterrupt``) stops the workers at once and raises
    :class:`ArenaInterrupted`, which carries the statistics of the games that finished.

    Raises :class:`ArenaError` for settings that cannot run (unknown variant, agent, option or
    backend, a bad seat or game count, Ray or openskill missing). A game that an agent breaks
    (an illegal action, an exception) does not raise: it is recorded as a :class:`Failure`
    naming the agent and left out of the statistics; check :attr:`ArenaResult.failures`.
    ``measure`` admits the measuring-only ``oracle`` (:func:`build_agent`); the command line
    never sets it.
    """
    names = list(agents)
    name, seats, given = check_settings(
        variant, names, games, players, seed, backend, workers, options, measure
    )
    if workers is None and backend != "ray":
        workers = os.cpu_count() or 1
    spans = _chunks(games, workers or os.cpu_count() or 1, chunk_size)
    chunks = [
        Chunk(name, seats, given, tuple(names), seed, duplicate, a, b, max_decisions, measure)
        for a, b in spans
    ]
    started = time.perf_counter()
    # The first Ctrl-C stops the run; another one must not lose the games that finished.
    with interrupt_once():
        records, used, interrupted = _play(backend, chunks, workers, address, progress, games)
        result = aggregate(
            name,
            seats,
            seed,
            given,
            names,
            records,
            duplicate=duplicate,
            backend=backend,
            workers=used,
            elapsed=time.perf_counter() - started,
        )
    if interrupted:
        raise ArenaInterrupted(result, games)
    return result


def _play(
    backend: Backend | str,
    chunks: list[Chunk],
    workers: int | None,
    address: str | None,
    progress: ProgressFn | None,
    games: int,
) -> tuple[list[GameRecord], int, bool]:
    """Play ``chunks`` on ``backend``: the records of the games that finished, the number of
    workers used, and whether Ctrl-C stopped the run (the records are then those of the games
    that finished before it)."""
    used = 1
    try:
        if backend == "serial":
            return run_serial(chunks, progress, games), used, False
        if backend == "process":
            assert workers is not None
            used = min(workers, len(chunks))
            return run_process(chunks, used, progress, games), used, False
        records, used = run_ray(chunks, workers, address, progress, games)
        return records, used, False
    except Interrupted as stop:
        return stop.records, stop.workers or used, True
