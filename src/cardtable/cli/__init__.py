"""The terminal front end: ``cardtable play``, ``rules``, ``variants``, ``arena`` and ``serve``.

The package's modules:

- :mod:`~cardtable.cli.app`: the Typer app that wires the commands, and :func:`main`;
- :mod:`~cardtable.cli.play`: the play loop (:func:`play_loop`) and the ``play`` command;
- :mod:`~cardtable.text.sights`: the cards a memory-less seat just saw, shown until its next move;
- :mod:`~cardtable.text.render`: what every game's drawing shares (cards, results, :class:`Front`);
- :mod:`~cardtable.text.family` and :mod:`~cardtable.text.qute`: one renderer per kind of game;
- :mod:`~cardtable.text.fronts`: which renderer draws which variant, read from the registries,
  so a Cabo-like variant registered at run time is playable with no terminal code;
- :mod:`~cardtable.cli.rules`: the ``rules`` and ``variants`` commands and rule options;
- :mod:`~cardtable.text.keys`: the one fixed key of every word of a move (both front ends);
- :mod:`~cardtable.cli.checks`: one error line, help placeholders, checked numbers;
- :mod:`~cardtable.cli.arena` and :mod:`~cardtable.cli.serve`: those commands.

Every card is drawn as ``[7H]`` when the seat knows it and as :data:`FACE_DOWN` when it does
not; the bracket form makes the output easy to check for leaks (see ``tests/test_cli.py``).
"""

from __future__ import annotations

from ..text.fronts import (
    FAMILY,
    FRONTS,
    PLAYABLE,
    describe_event,
    front,
    render_round_end,
    render_view,
)
from ..text.qute import HAND_ROW, PLAYABLE_MARK, QUTE_RANKS, QUTE_SUITS, playable_cards
from ..text.render import FACE_DOWN, Front, card_text, render_legal, render_result
from ..text.rules import rules_markdown
from .app import app, main
from .arena import arena_command, arena_table, head_to_head_table
from .play import InputFn, play_loop
from .rules import parse_option

__all__ = [
    "FACE_DOWN",
    "FAMILY",
    "FRONTS",
    "HAND_ROW",
    "PLAYABLE",
    "PLAYABLE_MARK",
    "QUTE_RANKS",
    "QUTE_SUITS",
    "Front",
    "InputFn",
    "app",
    "arena_command",
    "arena_table",
    "card_text",
    "describe_event",
    "front",
    "head_to_head_table",
    "main",
    "parse_option",
    "play_loop",
    "playable_cards",
    "render_legal",
    "render_result",
    "render_round_end",
    "render_view",
    "rules_markdown",
]
