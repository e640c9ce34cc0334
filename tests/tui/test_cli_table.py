"""``cardtable play --resume`` and the table's save file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cardtable.tui as tui
from cardtable.cli.app import app
from cardtable.tui import saves


def test_resume_without_a_save_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    result = CliRunner().invoke(app, ["play", "--resume"])
    assert result.exit_code == 2
    assert "no saved game" in result.output


def test_resume_runs_the_saved_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    saves.write_save({"log": {"game": "kaboo"}})
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(tui, "run_table", lambda game, **kw: calls.append(kw))
    result = CliRunner().invoke(app, ["play", "--resume"])
    assert result.exit_code == 0, result.output
    assert calls == [{"resume": True}]
