"""Playing games: one game through the checked path, and a chunk of games for a worker.

A worker process (or a Ray task) receives a pickled :class:`Chunk` and plays it with
:func:`iter_chunk`, reached by its qualified name (``cardtable.arena.play.iter_chunk``), which
yields each game's record as it ends; :func:`play_chunk` is the same as a list. They must stay
importable at module level here.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .. import agents as registry
from ..agents import Agent
from ..agents.oracle import OpenSeat
from ..notation import Action
from ..seat import Seat
from ..variants import Options, new_game
from .schedule import Schedule, derive_seed

__all__ = [
    "MAX_DECISIONS",
    "Chunk",
    "Failure",
    "GameRecord",
    "build_agent",
    "iter_chunk",
    "play_chunk",
    "play_game",
]

MAX_DECISIONS = 200_000
"""A game that needs more decisions than this is stopped and counted as a failure."""


@dataclass(frozen=True)
class Failure:
    """A game that could not be finished, and whose fault it was."""

    game: int
    """Index of the game."""
    seat: int | None
    """Seat that was acting (``None`` if no seat was to blame)."""
    entrant: int | None
    """Entrant in that seat (``None`` if no seat was to blame)."""
    action: str | None
    """The action the agent returned, if it got that far."""
    error: str
    """What went wrong: the exception's type and message."""

    def to_dict(self, labels: Sequence[str]) -> dict[str, object]:
        """A JSON-ready copy, with the entrant named."""
        return {
            "game": self.game,
            "seat": self.seat,
            "agent": labels[self.entrant] if self.entrant is not None else None,
            "action": self.action,
            "error": self.error,
        }


@dataclass(frozen=True)
class GameRecord:
    """What happened in one arena game (seats are the table's; entrants index the arena's list)."""

    index: int
    """Position of the game in the run (0 is the first)."""
    seed: int
    """The seed the game was dealt with."""
    lineup: tuple[int, ...]
    """The entrant in each seat."""
    totals: tuple[int, ...]
    """Final totals by seat (empty if the game failed)."""
    winners: tuple[int, ...]
    """Winning seats (empty if the game failed)."""
    decisions: tuple[int, ...]
    """Decisions taken by each seat."""
    times: tuple[array[float], ...] = field(compare=False, repr=False)
    """Seconds each of the seat's decisions took (machine-dependent; never compared)."""
    failure: Failure | None = None
    """Why the game stopped early, if it did."""

    @property
    def ok(self) -> bool:
        """True if the game was played to its end."""
        return self.failure is None

    def to_dict(self, labels: Sequence[str]) -> dict[str, object]:
        """A JSON-ready copy without decision times."""
        return {
            "game": self.index,
            "seed": self.seed,
            "lineup": [labels[e] for e in self.lineup],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "decisions": list(self.decisions),
            "failure": self.failure.to_dict(labels) if self.failure else None,
        }


def play_game(
    variant: str,
    players: int,
    options: Options | None,
    names: Sequence[str],
    lineup: Sequence[int],
    game_seed: int,
    agent_seeds: Sequence[int],
    index: int = 0,
    max_decisions: int = MAX_DECISIONS,
    measure: bool = False,
) -> GameRecord:
    """Play one game to its end through the checked path (:meth:`~cardtable.Game.play`).

    Seat ``s`` is played by ``agents.get(names[lineup[s]], seed=agent_seeds[s])``. Whatever an
    agent does wrong — an illegal action, an exception — ends the game as a :class:`Failure`
    charged to that agent; it is never skipped over.
    """
    game = new_game(variant, players=players, seed=game_seed, options=options)
    bots = [build_agent(names[lineup[s]], agent_seeds[s], measure) for s in range(players)]
    seats = [(OpenSeat if b.sees_all else Seat)(game, s) for s, b in enumerate(bots)]
    times: tuple[array[float], ...] = tuple(array("d") for _ in range(players))
    decisions = [0] * players
    clock = time.perf_counter
    seat: int | None = None
    action: Action | None = None
    try:
        total = 0
        while not game.over:
            if total >= max_decisions:
                seat, action = None, None
                raise RuntimeError(f"the game did not end within {max_decisions} decisions")
            seat = game.actors[0]
            action = None
            start = clock()
            action = bots[seat].act(seats[seat])
            times[seat].append(clock() - start)
            decisions[seat] += 1
            total += 1
            game.play(seat, action)
    except Exception as err:  # IllegalAction above all: charged to the agent
        failure = Failure(
            game=index,
            seat=seat,
            entrant=lineup[seat] if seat is not None else None,
            action=str(action) if action is not None else None,
            error=f"{type(err).__name__}: {err}",
        )
        return GameRecord(index, game_seed, tuple(lineup), (), (), tuple(decisions), times, failure)
    result = game.result
    assert result is not None
    return GameRecord(
        index,
        game_seed,
        tuple(lineup),
        tuple(result.totals),
        tuple(result.winners),
        tuple(decisions),
        times,
    )


@dataclass(frozen=True)
class Chunk:
    """A run of consecutive games of one arena run: the unit of work sent to a worker."""

    variant: str
    """The game's registry name."""
    players: int
    """Seats per game."""
    options: Options
    """Rule options for every game."""
    names: tuple[str, ...]
    """Agent name of each entrant."""
    seed: int
    """The arena seed."""
    duplicate: bool
    """Whether the rotations of one lineup share a deal."""
    start: int
    """Index of the first game."""
    stop: int
    """Index one past the last game."""
    max_decisions: int
    """Decisions after which a game is stopped as a failure."""
    measure: bool = False
    """Whether measuring-only agents (``oracle``) may play (see :func:`build_agent`)."""


def build_agent(name: str, seed: int, measure: bool = False) -> Agent:
    """The agent behind an entrant's name (:func:`cardtable.agents.get`); with ``measure``,
    also ``oracle`` / ``oracle:N``, the agent that sees every hand (benchmarks only: it is
    never reachable from the web app or the terminal)."""
    key = name.strip().lower()
    if measure and (key == "oracle" or key.startswith("oracle:")):
        from ..agents.oracle import OracleAgent

        text = key.partition(":")[2]
        if text and (not text.isdigit() or int(text) < 2):
            raise ValueError(f"'{name}': give oracle a number of deals, at least 2")
        agent: Agent = OracleAgent(seed, samples=int(text)) if text else OracleAgent(seed)
        agent.name = key
        return agent
    return registry.get(name, seed=seed)


def iter_chunk(chunk: Chunk) -> Iterator[GameRecord]:
    """Play games ``chunk.start`` to ``chunk.stop - 1`` of a run, yielding each record as its
    game ends (so a runner can report progress, or keep what finished, game by game).

    Everything about game ``i`` — lineup, deal seed, agent seeds — comes from the arena seed and
    ``i`` alone, so any worker produces the same records for it.
    """
    schedule = Schedule(len(chunk.names), chunk.players)
    for i in range(chunk.start, chunk.stop):
        deal = derive_seed(chunk.seed, "deal", schedule.deal(i) if chunk.duplicate else i)
        yield play_game(
            chunk.variant,
            chunk.players,
            chunk.options,
            chunk.names,
            schedule.lineup(i),
            deal,
            [derive_seed(chunk.seed, "agent", i, s) for s in range(chunk.players)],
            index=i,
            max_decisions=chunk.max_decisions,
            measure=chunk.measure,
        )


def play_chunk(chunk: Chunk) -> list[GameRecord]:
    """Play games ``chunk.start`` to ``chunk.stop - 1`` of a run (the unit of parallel work):
    the records of :func:`iter_chunk`, in game order."""
    return list(iter_chunk(chunk))
