"""What the parts of the Qute engine (its refusals and its view) may read on a game: the state
of one table. The engine (:class:`~cardtable.games.qute.engine.QuteGame`) satisfies this
protocol; the parts name only the protocol, so they import nothing above them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from ...notation import Action

if TYPE_CHECKING:
    from ...views import ViewTail

__all__ = ["Table"]


class Table(Protocol):
    """The state of a Qute table, as the engine's parts see it (card ids index the deck)."""

    n: int
    """Number of seats."""
    hands: list[list[int]]
    """Card ids in each hand."""
    stack: list[int]
    """The played cards, top last."""
    blind: list[int]
    """The face-down pile, top last."""
    epoch: int
    """How many times the played cards were shuffled into a new pile this round."""
    phase: int
    """The current phase (``PH_…``)."""
    decision: str | None
    """The decision asked in ``PH_DECIDE`` (``"suit"``, ``"qute"``…)."""
    turn: int
    """The seat whose turn it is."""
    first: int
    """The seat that began the round."""
    turns: int
    """Turns played this round."""
    max_turns: int
    """Turns per seat after which a round ends on its own."""
    suit: str | None
    """The suit a J asked for, if any."""
    penalty: list[list[int]]
    """The cards each seat drew as penalties this turn."""
    laid: list[int]
    """The cards laid this turn."""
    drew: int
    """The card drawn this turn, ``-1`` if none."""
    must_cover: bool
    """Whether a laid card must be covered before the turn ends."""
    ending: bool
    """Whether the round ends after this turn (a seat out, a Qute, a dead end): public."""
    totals: list[int]
    """Match totals by seat."""
    target: int | None
    """The total that ends the match; ``None`` for a single round."""

    @property
    def actors(self) -> list[int]:
        """Seats that may act now."""

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may play now."""

    def plays(self, seat: int) -> list[Action]:
        """Every card or set of cards ``seat`` may lay now."""

    def view_tail(
        self, seat: int | None, bit: int, memory: bool = True
    ) -> ViewTail[Mapping[str, object], dict[str, object]]:
        """The fields every game's view ends with (round results and events as JSON)."""
