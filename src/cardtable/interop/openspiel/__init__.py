"""OpenSpiel games for every cardtable variant (needs the ``[openspiel]`` extra).

Importing this package registers one game per variant with ``pyspiel``, named
``cardtable_`` and the variant's name with ``-`` written ``_`` (``cardtable_cabo``,
``cardtable_cabo_german``, ``cardtable_gabo``, ``cardtable_kaboo``, ``cardtable_qute``), and
every variant registered later (``cardtable.games.family.add_variant``) gets its game too::

    import pyspiel
    import cardtable.interop.openspiel  # registers the games

    game = pyspiel.load_game("cardtable_kaboo", {"players": 3})

Parameters (all integers): ``players`` (the variant's default), ``target`` (the match target;
``0`` plays one round; the default is the variant's own, ``0`` where it plays one round),
``max_positions`` (Cabo family only: hand positions the action table covers) and
``max_moves`` (a cap on player decisions: a game that reaches it ends, every return 0).

**Chance nodes for every draw.** Every card that leaves the deck (or Qute's blind) comes from
the engine's draw source (:class:`cardtable.game.DrawSource`), the deal included; each is a
chance node whose outcomes are the card ids it may be, equally likely (in kaboo a first
chance node draws the first seat). A state plays a player action on a clone of its engine
with a source that hands out the cards chance has chosen for the action and, past them,
takes any card and records the take (:mod:`.engines`). An action that took no card beyond
them is complete. Otherwise the recorded takes become chance nodes, in order: up to the
first the engine calls ``decisive`` (a Qute draw, whose card decides whether the turn goes
on), and not into a new round (whether it comes depends on the scoring of those cards).
Once chance has chosen them all the action runs again with them (:mod:`.node`). Nothing is
unwound: a deal or a wrong snap's penalty cards cost two runs of the action, however many
cards they take. The engine's own seed never decides what is drawn.

States are cheap to copy: a state holds one immutable node; engines stored in nodes are never
changed again (each action works on a clone), so cloning a state shares its node.
:func:`to_game` turns a state back into a plain engine for cardtable's own agents.

Modules: :mod:`.engines` (the chance engines and their draw source), :mod:`.spec` (a loaded
game's fixed data), :mod:`.node` (states and transitions), :mod:`.text` (strings) and
:mod:`.game` (the pyspiel classes and the registration).
"""

from __future__ import annotations

from ... import variants
from ...game import Game
from .engines import ChanceSource, Take, moved
from .game import (
    GAME_CLASSES,
    GAME_NAMES,
    CardtableGame,
    CardtableObserver,
    CardtableState,
    forget_variant,
    register_variant,
    to_game,
)
from .node import Node
from .spec import CHANCE as CHANCE
from .spec import DEFAULT_MAX_MOVES, Spec, game_name, spec_for
from .spec import TERMINAL as TERMINAL

__all__ = [
    "DEFAULT_MAX_MOVES",
    "GAME_CLASSES",
    "GAME_NAMES",
    "CardtableGame",
    "CardtableObserver",
    "CardtableState",
    "game_name",
    "register_variant",
    "to_game",
]

# The names these had when the adapter was one module; older pickles name them here (the
# chance engines, ``_ChanceFamily`` and ``_ChanceQute``, through ``__getattr__``).
_ChanceSource, _Take = ChanceSource, Take
_Node, _Spec, _spec = Node, Spec, spec_for


def __getattr__(name: str) -> type[Game]:
    return moved(name)


variants.subscribe(register_variant, forget_variant)
