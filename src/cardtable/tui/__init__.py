"""The full-screen terminal table (Textual): ``cardtable play`` opens it on a terminal.

:class:`~cardtable.tui.app.CardtableApp` plays one game against bots; :func:`run_table` starts
it for a new game or, with ``resume``, for the game saved after the last move
(:mod:`cardtable.tui.saves`). The package's modules: :mod:`~cardtable.tui.flow` (how the game
goes on: bots, clocks, reveals, the event panel, the save), :mod:`~cardtable.tui.app` (the
drawing and the keys), :mod:`~cardtable.tui.board` (the seats and piles drawn from a view),
:mod:`~cardtable.tui.timing` (the pausable window clock and the reveals),
:mod:`~cardtable.tui.help` (the help page and the keys line), :mod:`~cardtable.tui.steps` (pure
helpers), :mod:`~cardtable.tui.widgets`, :mod:`~cardtable.tui.saves` and
:mod:`~cardtable.tui.history` (every finished game, for ``cardtable stats``).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Literal, Unpack

from .. import Game
from ..text.catalog import say
from .timing import REVEAL_RANGE, REVEAL_SECONDS

if TYPE_CHECKING:
    from .flow import TableSettings

__all__ = ["REVEAL_RANGE", "REVEAL_SECONDS", "farewell", "run_table", "table_available"]

_CLOCKS: tuple[Literal["peek_window", "snap_window", "reveal"], ...] = (
    "peek_window",
    "snap_window",
    "reveal",
)
"""The table's clocks, in seconds: given as ``clocks``, or kept in the save."""


def table_available() -> bool:
    """Whether the full-screen table can run here (the ``tui`` extra, Textual, is installed)."""
    return importlib.util.find_spec("textual") is not None


def run_table(
    game: Game | None,
    seat: int = 0,
    *,
    opponents: str = "casual",
    bot_seed: int = 0,
    memory_aid: bool = False,
    resume: bool = False,
    clocks: dict[str, float | None] | None = None,
    **kwargs: Unpack[TableSettings],
) -> str:
    """Run the full-screen table on ``game`` (``None`` with ``resume``: the saved game); returns
    what to print once the screen is given back: the seed of the last deal and, for a game left
    unfinished, how to continue it. ``clocks`` (``peek_window``, ``snap_window``, ``reveal``:
    seconds, ``None`` for the default) and ``kwargs`` go to the app; a resumed game keeps its
    saved clocks unless others are given.

    ``ValueError`` when there is nothing to resume.
    """
    from . import saves
    from .app import CardtableApp

    for key in _CLOCKS:
        value = (clocks or {}).get(key)
        if value is not None:
            kwargs[key] = value
    if resume:
        record = saves.load_save()
        if record is None:
            raise ValueError(f"no saved game to resume (looked in {saves.save_path()})")
        settings: TableSettings = {}
        for key in _CLOCKS:
            if key in record:
                settings[key] = record[key]
        settings.update(kwargs)  # what is given outranks what was saved
        app = CardtableApp.from_save(record, **settings)
    else:
        if game is None:
            raise ValueError("a game is needed unless resuming")
        app = CardtableApp(
            game, seat, opponents=opponents, bot_seed=bot_seed, memory_aid=memory_aid, **kwargs
        )
    app.run()
    # the save is written after each move: a game left before its first move has none
    saved = app.save and bool(app.game.log["actions"])
    return farewell(app.game.seed, over=app.game.over, saved=saved)


def farewell(seed: int, *, over: bool, saved: bool) -> str:
    """The lines printed when the full-screen table closes (its screen is gone by then)."""
    lines = [say("tui.line.replay", seed=seed)]
    if not over and saved:
        lines.append(say("tui.saved"))
    return "\n".join(lines)
