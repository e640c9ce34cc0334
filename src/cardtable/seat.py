"""The contract between the rules and everything above them: a :class:`Seat`.

Agents, front ends, adapters and the server's AI workers receive a seat of a game, never the
game: what that one seat may read (its view, with or without the memory aid; the round's
events as it saw them; the public state of the match; the cards it knows) and what it may do
(its legal actions, :meth:`Seat.play`). A search asks the seat for worlds — full copies of the
game, every card the seat does not know re-dealt — and may clone and play those as it likes:
a world tells nothing the seat does not know.

The game itself stays with whoever hosts the table (the server's room, the terminal's table,
the arena's match), which deals it, keeps its log and hands each player its seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .events import Happening
from .game import Event, Game
from .match import Result
from .notation import Action
from .rng import Rng

if TYPE_CHECKING:
    from .variants import OptionValue
    from .views import View

__all__ = ["MatchState", "Seat"]


@dataclass(frozen=True)
class MatchState:
    """The public state of the match, the same for every seat and the spectators."""

    round: int
    """The round being played (or the last one, once over), from 1."""
    totals: tuple[int, ...]
    """Match totals by seat, after the rounds finished so far."""
    target: int | None
    """The total that ends the match; ``None`` for a single round."""
    rounds: tuple[tuple[int, ...], ...]
    """Each finished round's scores by seat."""
    over: bool
    """Whether the match has ended."""
    result: Result | None
    """Rounds, totals and winners, once over."""


class Seat:
    """One seat of one game: everything its player may read and do, nothing more.

    ``memory`` says how its views and history are read: with the memory aid (every card the
    seat ever saw stays named, what agents and research use) or without (only the cards the
    whole table saw, and the seat's own face-up cards: what a person who must remember sees).
    """

    __slots__ = ("_game", "memory", "number")

    def __init__(self, game: Game, number: int, *, memory: bool = True) -> None:
        if type(number) is not int or not 0 <= number < game.players:
            raise ValueError(f"there is no seat {number!r} at this table")
        self._game = game
        self.number = number
        """The seat's number, from 0."""
        self.memory = memory
        """Whether the seat's views and history keep every card it saw."""

    # -- the table -------------------------------------------------------------------------
    @property
    def variant(self) -> str:
        """The variant's registry name."""
        return self._game.variant

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return self._game.players

    @property
    def memory_game(self) -> bool:
        """Whether the game's own cards lie face down, to be remembered once seen."""
        return self._game.memory_game

    @property
    def options(self) -> Mapping[str, OptionValue]:
        """The game's resolved rule options (public: every seat plays by them)."""
        return self._game.options

    @property
    def actors(self) -> list[int]:
        """The seats that may act now."""
        return self._game.actors

    @property
    def to_act(self) -> bool:
        """Whether this seat may act now."""
        return self.number in self._game.actors

    @property
    def timed_window(self) -> str | None:
        """The timed window open now (``"peek"``, ``"snap"``), if any."""
        return self._game.timed_window()

    @property
    def match(self) -> MatchState:
        """The public state of the match."""
        g = self._game
        return MatchState(
            round=g.round_no,
            totals=tuple(g.totals),
            target=g.target,
            rounds=tuple(tuple(r) for r in g.rounds),
            over=g.over,
            result=g.result,
        )

    # -- what the seat may read ----------------------------------------------------------------
    def view(self) -> View:
        """Everything the seat may know now (see :attr:`memory`)."""
        return self._game.view(self.number, memory=self.memory)

    def history(self) -> list[Happening]:
        """The events of the round as the seat saw them, oldest first, typed (see
        :attr:`memory`: without it, only what the whole table saw)."""
        return self._game.happenings(self.number, memory=self.memory)

    def legal_actions(self) -> list[Action]:
        """Every action the seat may play now, in canonical form (empty when not to act)."""
        return self._game.legal_actions(self.number)

    def knowledge(self) -> list[list[int]] | None:
        """The hand cards the seat knows: per seat and position, the card id, or a negative
        number for a card it does not know (``-2``) or no card (``-1``); ``None`` in a game
        whose hands are held face up by their owners (nothing to remember)."""
        return self._game.knowledge(self.number)

    def worlds(
        self,
        rng: Rng | int,
        weights: Mapping[tuple[int, int], Sequence[float]] | None = None,
    ) -> Game:
        """A world: a full copy of the game in which every card the seat does not know is
        re-dealt (by ``weights``, a belief, where given; uniformly otherwise), consistent with
        all the seat knows. A search may clone and play it as it likes."""
        return self._game.determinize(self.number, rng, weights)

    # -- what the seat may do ---------------------------------------------------------------
    def check(self, action: Action | str) -> Action:
        """The canonical form of ``action`` if the seat may play it now; an
        :class:`~cardtable.errors.IllegalAction` of the kind that fits otherwise."""
        return self._game.check(self.number, action)

    def play(self, action: Action | str) -> list[Happening]:
        """Play ``action`` for this seat; the events it caused, as the seat saw them then (a
        card it was shown is named, memory aid or not: what it sees at that moment). Raises
        :class:`~cardtable.errors.IllegalAction`, changing nothing."""
        events: list[Event] = self._game.play(self.number, action)
        return [e.seen_by(self.number) for e in events]

    def timeout_action(self) -> Action:
        """The move played for this seat when its time runs out (the one that changes
        least)."""
        return self._game.timeout_action(self.number)

    def __repr__(self) -> str:
        return f"Seat({self.variant!r}, {self.number}, memory={self.memory})"
