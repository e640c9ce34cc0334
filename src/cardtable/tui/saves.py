"""Where the full-screen table keeps the game in progress, so ``cardtable play --resume`` can
continue it.

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

__all__ = ["DATA_DIR_ENV", "clear_save", "data_dir", "load_save", "save_path", "write_save"]

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
