"""Where the terminal keeps the game in progress, so ``cardtable play --resume`` can continue
it, and the person's settings (how a Qute hand is sorted).

The save is the game's log (:attr:`cardtable.Game.log`: variant, players, seed, options and
every action) plus the table's own settings (the person's seat, the opponents, the memory
aid). It lives in ``games/last.json`` under the user's data directory, found with
``platformdirs``; the environment variable :data:`DATA_DIR_ENV` overrides that directory
(tests use it).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Required, TypedDict, cast

import platformdirs

__all__ = [
    "DATA_DIR_ENV",
    "SaveRecord",
    "clear_save",
    "data_dir",
    "finish_save",
    "finished_path",
    "load_finished",
    "load_save",
    "load_settings",
    "save_path",
    "settings_path",
    "write_save",
    "write_settings",
]

DATA_DIR_ENV = "CARDTABLE_DATA_DIR"
"""Names a directory to use instead of the user's data directory."""


class SaveRecord(TypedDict, total=False):
    """What the save holds: the game's log and the table's settings (each absent one takes
    its default when the game is continued)."""

    log: Required[dict[str, object]]
    """The game's log (:attr:`cardtable.Game.log`): replayed to continue the game."""
    seat: int
    """The person's seat."""
    opponents: str
    """The bots' level or agent name."""
    bot_seed: int
    """Seed of the bots."""
    memory_aid: bool
    """Whether every card the person has seen stays shown."""
    practice: bool
    """Whether the AI players' cards were shown face up (a practice game)."""
    hinted: bool
    """Whether the person asked for a hint in this game (it is then not rated)."""
    peek_window: float
    """Seconds of the initial-peek window (0: no clock)."""
    snap_window: float
    """Seconds of a snap window (0: no clock)."""
    reveal: float
    """Seconds a card the person sees stays face up without the memory aid."""


def data_dir() -> Path:
    """The directory cardtable keeps its data in (:data:`DATA_DIR_ENV`, else platformdirs')."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("cardtable"))


def save_path() -> Path:
    """The file the game in progress is saved to: ``games/last.json`` in :func:`data_dir`."""
    return data_dir() / "games" / "last.json"


def write_save(record: SaveRecord) -> Path:
    """Write ``record`` (a log and the table's settings) to :func:`save_path`, atomically."""
    path = save_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(record, indent=1), encoding="utf-8")
    tmp.replace(path)
    return path


def load_save() -> SaveRecord | None:
    """The saved game, or ``None`` when there is none (or it cannot be read).

    The file is trusted to be what :func:`write_save` wrote once it is a JSON object with a
    ``log``: its values are read as the record's types say (a log that cannot be replayed
    fails when it is)."""
    path = save_path()
    try:
        record: object = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or "log" not in record:
        return None
    return cast(SaveRecord, record)  # the JSON read back, as written


def clear_save() -> None:
    """Forget the saved game (a finished game is not resumed)."""
    save_path().unlink(missing_ok=True)


def finished_path() -> Path:
    """The file the last finished game is kept in, for ``cardtable review``:
    ``games/finished.json`` in :func:`data_dir`."""
    return data_dir() / "games" / "finished.json"


def finish_save(record: SaveRecord) -> None:
    """The game of ``record`` is over: keep it as the last finished game (a directory that
    cannot be written to only means it is not kept) and forget the game in progress."""
    path = finished_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record, indent=1), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass
    clear_save()


def load_finished() -> SaveRecord | None:
    """The last finished game the terminal kept, or ``None``."""
    try:
        record: object = json.loads(finished_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or "log" not in record:
        return None
    return cast(SaveRecord, record)  # the JSON read back, as written


def settings_path() -> Path:
    """The file of the person's settings: ``settings.json`` in :func:`data_dir`."""
    return data_dir() / "settings.json"


def load_settings() -> dict[str, object]:
    """The person's settings (``qute_sort``: ``suit`` or ``rank``); empty when there are none
    or the file cannot be read."""
    try:
        settings = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return settings if isinstance(settings, dict) else {}


def write_settings(changes: Mapping[str, object]) -> None:
    """Remember ``changes`` among the settings (atomically); a directory that cannot be
    written to only means they are not remembered."""
    path = settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({**load_settings(), **changes}, indent=1), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass
