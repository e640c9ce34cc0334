"""cardtable: exact rules, fair views and fast engines for Cabo, Gabo, Kaboo and Qute.

>>> from cardtable import new_game
>>> g = new_game("kaboo", players=2, seed=7)
>>> g.actors in ([0], [1])
True
"""

from __future__ import annotations

from . import variants
from .errors import IllegalAction
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
    "IllegalAction",
    "Result",
    "new_game",
    "parse",
    "replay",
    "variants",
]

__version__ = "0.1.0"
