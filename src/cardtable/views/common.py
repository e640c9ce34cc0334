"""The parts of a view both games share: the result, the turn and game-over events, the fields
every view ends with (:class:`ViewTail`), and the pydantic configuration every TypedDict of
:mod:`cardtable.views` carries."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Generic, Literal, TypeVar

if sys.version_info >= (3, 12):
    from typing import TypedDict
else:  # pydantic accepts only typing_extensions' TypedDict before Python 3.12
    from typing_extensions import TypedDict

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

__all__ = ["GameOverEvent", "GameResult", "TurnEvent", "ViewTail"]


class _ByType:
    """Marks a union of events as told apart by their ``type`` key.

    pydantic (when a schema or validator is built) then picks the member by its tag instead of
    trying each: one check per event rather than twenty, and a ``discriminator`` in the JSON
    Schema. The marker itself needs no pydantic at import time.
    """

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic import Discriminator

        return handler(Annotated[source, Discriminator("type")])


BY_TYPE = _ByType()
"""The marker of an event union told apart by ``type`` (``Annotated[A | B, BY_TYPE]``)."""


_PYDANTIC_CONFIG = "__pydantic_config__"
"""The class attribute pydantic reads a TypedDict's configuration from."""


def forbid_extra(*typed_dicts: type) -> None:
    """Set pydantic's configuration on each TypedDict, read when a schema or validator is
    built: no key beyond those declared, and each field's docstring becomes its description.
    (A plain dict is what pydantic's ConfigDict is at run time; setting it here keeps pydantic
    unimported.)"""
    for td in typed_dicts:
        setattr(td, _PYDANTIC_CONFIG, {"extra": "forbid", "use_attribute_docstrings": True})


class GameResult(TypedDict):
    """The outcome of a finished game (``result`` once ``over``; the ``game_over`` event)."""

    rounds: list[list[int]]
    """Round scores, one list per round, indexed by seat."""
    totals: list[int]
    """Match totals after the last round, indexed by seat."""
    winners: list[int]
    """Seats that won the game (several when tied)."""
    round_winners: list[list[int]]
    """Winners of each round."""


class TurnEvent(TypedDict):
    """A seat's turn begins (both games)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["turn"]
    """The event's kind."""
    seat: int
    """The seat whose turn it is."""


class GameOverEvent(TypedDict):
    """The game (the whole match) has ended: its result (both games)."""

    seq: int
    """Running number of the event in its game."""
    type: Literal["game_over"]
    """The event's kind."""
    rounds: list[list[int]]
    """Round scores, one list per round, indexed by seat."""
    totals: list[int]
    """Match totals after the last round, indexed by seat."""
    winners: list[int]
    """Seats that won the game (several when tied)."""
    round_winners: list[list[int]]
    """Winners of each round."""


_Round = TypeVar("_Round")
_Event = TypeVar("_Event")


class ViewTail(TypedDict, Generic[_Round, _Event]):
    """The fields every game's view ends with (``Game.view_tail``), by the types of its round
    results and its events: each game's view reads them as its own types
    (``ViewTail[FamilyRoundResult, FamilyEvent]``)."""

    totals: list[int]
    """Match totals per seat."""
    round: int
    """The round's number, from 1."""
    target: int | None
    """The match target; ``null`` for a single round."""
    round_results: list[_Round]
    """Every finished round."""
    events: list[_Event]
    """The most recent events, oldest first, as the viewer may see them."""
    over: bool
    """True once the game has ended."""
    result: GameResult | None
    """The result once over, else ``null``."""
    legal: list[str]
    """The viewer's legal actions in canonical text (empty for spectators)."""


TYPED_DICTS: tuple[type, ...] = (GameResult, TurnEvent, GameOverEvent, ViewTail)
"""Every TypedDict of this module (each passed to :func:`forbid_extra`)."""
forbid_extra(*TYPED_DICTS)
