"""cardtable: exact rules, fair views and fast engines for Cabo, Gabo, Kaboo and Qute.

>>> from cardtable import new_game
>>> g = new_game("kaboo", players=2, seed=7)
>>> g.actors in ([0], [1])
True
"""

from __future__ import annotations

from importlib import metadata as _metadata

from . import variants
from .errors import (
    GameOver,
    IllegalAction,
    MalformedAction,
    NoSuchCard,
    NoSuchSeat,
    NotInThisGame,
    NotYourTurn,
    RuleForbids,
    WrongPhase,
)
from .game import Event, Game
from .games import family as _family  # noqa: F401  (registers the Cabo family)
from .games import qute as _qute  # noqa: F401  (registers Qute)
from .match import Result
from .notation import Action, parse
from .variants import new_game, replay

__all__ = [
    "Action",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "MalformedAction",
    "NoSuchCard",
    "NoSuchSeat",
    "NotInThisGame",
    "NotYourTurn",
    "Result",
    "RuleForbids",
    "WrongPhase",
    "new_game",
    "parse",
    "replay",
    "variants",
]

try:
    __version__ = _metadata.version("cardtable")
    """The installed distribution's version (pyproject.toml is its one source)."""
except _metadata.PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
    __version__ = "0+unknown"
