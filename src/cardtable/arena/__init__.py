"""The arena: seeded tournaments between agents, with statistics fit to report.

>>> from cardtable.arena import run_arena
>>> result = run_arena("kaboo", ["random", "random"], games=4, backend="serial")
>>> [s.seats for s in result.stats]
[4, 4]

:func:`run_arena` plays ``games`` games of one variant between *entrants* (agent names, see
:func:`cardtable.agents.get`), spreads them over worker processes (or a Ray cluster, or runs
them one by one) and returns an :class:`ArenaResult`: per-entrant win rates with 95% Wilson
score intervals, mean final scores, decision times, an openskill (Plackett–Luce) rating and,
with three or more entrants, a head-to-head matrix. The result writes itself as JSON, CSV or a
chart (PNG, SVG or PDF). Ctrl-C stops a run at once and raises :class:`ArenaInterrupted` with
the statistics of the games that finished.

Fairness comes from the seating schedule (:class:`Schedule`): over one *period* every entrant
sits in every seat equally often. Reproducibility comes from seeds derived from the arena seed
and the game index alone (:func:`derive_seed`), so the outcome of a run does not depend on the
backend, the number of workers or the order in which chunks finish. Decision times are the
only numbers that change from run to run; :meth:`ArenaResult.to_dict` leaves them out on
request.

This package belongs to the services layer: it uses the game contract and the agent registry
and prints nothing (progress goes to a callback). Its modules, each importing only those above
it in this list:

- :mod:`~cardtable.arena.errors` — :class:`ArenaError`;
- :mod:`~cardtable.arena.schedule` — :func:`derive_seed`, :class:`Schedule`, entrant labels;
- :mod:`~cardtable.arena.play` — one game (:func:`play_game`), the worker's unit
  (:class:`Chunk`, :func:`play_chunk`) and what a game leaves (:class:`GameRecord`);
- :mod:`~cardtable.arena.statistics` — Wilson intervals, percentiles, places, ratings,
  head-to-head counts;
- :mod:`~cardtable.arena.chart` — the chart (matplotlib; PNG, SVG or PDF);
- :mod:`~cardtable.arena.result` — :class:`ArenaResult`, :func:`aggregate` and the output
  checks (:func:`check_output_paths`);
- :mod:`~cardtable.arena.backends` — the serial, process-pool and Ray runners;
- :mod:`~cardtable.arena.run` — :func:`check_settings`, :func:`run_arena` and
  :class:`ArenaInterrupted`.
"""

from __future__ import annotations

from .backends import BACKENDS, RAY_HINT, Backend, ProgressFn, interrupt_once
from .errors import ArenaError
from .play import (
    MAX_DECISIONS,
    Chunk,
    Failure,
    GameRecord,
    build_agent,
    iter_chunk,
    play_chunk,
    play_game,
)
from .result import ArenaResult, aggregate, check_output_paths
from .run import ArenaInterrupted, check_settings, run_arena
from .schedule import Schedule, derive_seed, entrant_labels
from .statistics import (
    Z95,
    AgentStats,
    HeadToHead,
    format_seconds,
    percentile,
    places,
    wilson_interval,
)

__all__ = [
    "BACKENDS",
    "MAX_DECISIONS",
    "RAY_HINT",
    "Z95",
    "AgentStats",
    "ArenaError",
    "ArenaInterrupted",
    "ArenaResult",
    "Backend",
    "Chunk",
    "Failure",
    "GameRecord",
    "HeadToHead",
    "ProgressFn",
    "Schedule",
    "aggregate",
    "build_agent",
    "check_output_paths",
    "check_settings",
    "derive_seed",
    "entrant_labels",
    "format_seconds",
    "interrupt_once",
    "iter_chunk",
    "percentile",
    "places",
    "play_chunk",
    "play_game",
    "run_arena",
    "wilson_interval",
]
