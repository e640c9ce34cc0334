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
from pathlib import Path
from typing import Any

import platformdirs

__all__ = [
    "DATA_DIR_ENV",
    "clear_save",
    "data_dir",
    "load_save",
    "load_settings",
    "save_path",
    "settings_path",
    "write_save",
    "write_settings",
]

DATA_DIR_ENV = "CARDTABLE_DATA_DIR"
"""Names a directory to use instead of the user's data directory."""


def data_dir() -> Path:
    """The directory cardtable keeps its data in (:data:`DATA_DIR_ENV`, else platformdirs')."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("cardtable"))


def save_path() -> Path:
    """The file the game in progress is saved to: ``games/last.json`` in :func:`data_dir`."""
    return data_dir() / "games" / "last.json"


def write_save(record: dict[str, Any]) -> Path:
    """Write ``record`` (a log and the table's settings) to :func:`save_path`, atomically."""
    path = save_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(record, indent=1), encoding="utf-8")
    tmp.replace(path)
    return path


def load_save() -> dict[str, Any] | None:
    """The saved game, or ``None`` when there is none (or it cannot be read)."""
    path = save_path()
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and "log" in record else None


def clear_save() -> None:
    """Forget the saved game (a finished game is not resumed)."""
    save_path().unlink(missing_ok=True)


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


def write_settings(changes: dict[str, Any]) -> None:
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
