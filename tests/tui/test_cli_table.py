"""``cardtable play --resume``, the table's save file and the settings file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cardtable
import cardtable.cli.play as play
from cardtable.cli.app import app
from cardtable.tui import saves


def _saved_kaboo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> cardtable.Game:
    """A two-seat kaboo saved after a few moves (the person at seat 0, random bots)."""
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    game = cardtable.new_game("kaboo", players=2, seed=5, options={"target": None})
    while len(game.log["actions"]) < 6:
        seat = game.actors[0]
        game.play(seat, str(game.legal_actions(seat)[0]))
    saves.write_save({"log": game.log, "seat": 0, "opponents": "random", "bot_seed": 5})
    return game


def test_resume_without_a_save_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    result = CliRunner().invoke(app, ["play", "--resume"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no saved game")


def test_resume_takes_no_game_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _saved_kaboo(tmp_path, monkeypatch)
    result = CliRunner().invoke(app, ["play", "gabo", "--resume"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --resume continues the saved game")
    result = CliRunner().invoke(app, ["play"])
    assert result.exit_code == 2 and "which game?" in result.stderr


def test_resume_on_a_terminal_runs_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _saved_kaboo(tmp_path, monkeypatch)
    calls: list[dict[str, Any]] = []

    def run(game: Any, **kw: Any) -> str:
        calls.append(kw)
        return "bye"

    monkeypatch.setattr(play, "run_table", run)
    monkeypatch.setattr(play, "_use_table", lambda plain: not plain)
    result = CliRunner().invoke(app, ["play", "--resume", "--snap-window", "2"])
    assert result.exit_code == 0, result.output
    # the saved clocks are kept unless given: only the snap window is
    assert calls == [
        {"resume": True, "clocks": {"peek_window": None, "snap_window": 2.0, "reveal": None}}
    ]


def test_resume_plain_plays_on_in_line_mode_and_keeps_saving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _saved_kaboo(tmp_path, monkeypatch)
    monkeypatch.setattr(play, "run_table", lambda *a, **k: pytest.fail("the table was opened"))
    moves = len(game.log["actions"])
    legal = str(game.legal_actions(0)[0]) if 0 in game.actors else "quit"
    result = CliRunner().invoke(app, ["play", "--resume", "--plain"], input=f"{legal}\n")
    assert result.exit_code == 0, result.output
    assert f"Game resumed after {moves} moves" in result.output
    assert "You left the game." in result.output  # the end of input ends it
    assert "\x1b[" not in result.output
    record = saves.load_save()
    assert record is not None
    assert len(record["log"]["actions"]) > moves  # the moves played since are saved
    assert record["opponents"] == "random"


def test_resume_plain_from_dev_null_returns_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: ``cardtable play --resume --plain </dev/null`` wrote full-screen
    control codes and never returned."""
    _saved_kaboo(tmp_path, monkeypatch)
    env = {**os.environ, saves.DATA_DIR_ENV: str(tmp_path)}
    for args in (["--resume", "--plain"], ["--resume"]):
        with open(os.devnull) as nothing:
            proc = subprocess.run(
                [sys.executable, "-m", "cardtable", "play", *args],
                stdin=nothing,
                capture_output=True,
                text=True,
                timeout=60,
                env=env,
                check=False,
            )
        assert proc.returncode == 0, proc.stderr
        assert "Game resumed after" in proc.stdout
        assert "\x1b[?1049h" not in proc.stdout  # no full screen
        assert "You left the game." in proc.stdout


def test_settings_are_remembered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    assert saves.load_settings() == {}
    saves.write_settings({"qute_sort": "rank"})
    saves.write_settings({"other": 1})
    assert saves.load_settings() == {"qute_sort": "rank", "other": 1}
    saves.settings_path().write_text("not json", encoding="utf-8")
    assert saves.load_settings() == {}
