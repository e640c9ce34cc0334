"""The Qute engine with every card from the blind chosen by a draw source from outside
(:class:`cardtable.game.ChanceDrawn`): what ``new_game("qute", draws=source)`` builds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import TYPE_CHECKING, cast

from ...game import ChanceDrawn, DrawSource, Game
from .engine import QuteGame

if TYPE_CHECKING:
    from ...variants import Options

__all__ = ["ChanceQute"]


class ChanceQute(ChanceDrawn, QuteGame):
    """The Qute engine with every card from the blind chosen by its draw source."""

    def __init__(self, players: int, options: Options, draws: DrawSource) -> None:
        self.draws = draws  # the deal takes its cards from the source too
        QuteGame.__init__(self, players, self.SEED, options)

    def determinize(
        self,
        seat: int,
        rng: Random | int,
        weights: Mapping[tuple[int, int], Sequence[float]] | None = None,
    ) -> ChanceQute:
        """The engine's re-deal; the copy keeps no source of its own (not the copy's own
        random draws)."""
        world = cast(ChanceQute, QuteGame.determinize(self, seat, rng, weights))
        world.__dict__.pop("draws", None)
        return world

    def _plain_copy(self) -> tuple[Game, list[int]]:
        state = self.clone().__dict__
        state.pop("draws", None)  # the plain engine's own: the top card of its blind
        plain = object.__new__(QuteGame)
        plain.__dict__ = state
        return plain, plain.blind
