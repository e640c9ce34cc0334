"""``cardtable review``: a finished game's decisions in words or JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.catalog import set_default
from cardtable.cli import app

from .scenario import deal_and_peek

runner = CliRunner()
_NO_LOCALE: dict[str, str | None] = {
    "CARDTABLE_LANG": None,
    "LC_ALL": None,
    "LC_MESSAGES": None,
    "LANG": None,
}


@pytest.fixture(autouse=True)
def _no_default() -> Iterator[None]:
    set_default(None)
    yield
    set_default(None)


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    """A cabo game where seat 0 throws away the 0 it peeked for a 12."""
    g = deal_and_peek(
        "cabo",
        [["0", "13", "9", "8"], ["5", "6", "7", "4"]],
        "11",
        ["12", "3", "4", "5", "6", "2", "8", "9", "10", "11"],
        first=0,
    )
    g.play(0, "draw deck")
    g.play(0, "replace 0")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(g.log), encoding="utf-8")
    return path


def test_json_lists_every_decision_of_the_seat(log_file: Path) -> None:
    result = runner.invoke(
        app, ["review", str(log_file), "--json", "--samples", "60"], env=_NO_LOCALE
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["index"] for r in rows] == [0, 1, 4, 5]  # two peeks, the draw, the replace
    for row in rows:
        assert set(row) == {"index", "played", "best", "loss", "label"}
        assert row["loss"] >= 0
    assert rows[-1]["played"] == "replace 0"
    assert rows[-1]["label"] == "blunder"


def test_words_name_the_blunder_the_slip_and_the_summary(log_file: Path) -> None:
    result = runner.invoke(
        app, ["review", str(log_file), "--samples", "60"], env={**_NO_LOCALE, "COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "put the drawn card in place of your card 0" in out
    assert "blunder" in out
    assert "Memory slip: your card 0 was the [0] you saw at the deal." in out
    assert "seat 0: 4 decisions" in out and "memory slips 1" in out
    aided = runner.invoke(
        app,
        ["review", str(log_file), "--samples", "20", "--memory-aid"],
        env={**_NO_LOCALE, "COLUMNS": "200"},
    )
    assert "Memory slip" not in aided.output


def test_hands_shows_every_card_and_what_the_seat_knew(log_file: Path) -> None:
    result = runner.invoke(
        app,
        ["review", str(log_file), "--samples", "10", "--hands"],
        env={**_NO_LOCALE, "COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    # at the replace: seat 0 knew its 0 and 13 (and the drawn 12 is in hand, not in the row)
    assert "you: [0] [13] (9) (8) · seat 1: (5) (6) (7) (4)" in result.output
    assert "[card]: a card the seat knew then" in result.output


def test_in_german(log_file: Path) -> None:
    result = runner.invoke(
        app,
        ["--lang", "de", "review", str(log_file), "--samples", "60"],
        env={**_NO_LOCALE, "COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "Patzer" in result.output and "Gedächtnisfehler" in result.output
    assert "deine Karte 0 gegen die gezogene Karte tauschen" in result.output


def test_the_other_seat_and_bad_files(log_file: Path, tmp_path: Path) -> None:
    other = runner.invoke(app, ["review", str(log_file), "--seat", "1", "--json"], env=_NO_LOCALE)
    assert other.exit_code == 0 and json.loads(other.stdout) != []
    assert all(r["index"] in (2, 3) for r in json.loads(other.stdout))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["review", str(bad)], env=_NO_LOCALE)
    assert result.exit_code == 2 and "is not JSON" in result.output
    seat = runner.invoke(app, ["review", str(log_file), "--seat", "5"], env=_NO_LOCALE)
    assert seat.exit_code == 1 and "seat 5 is not at this table" in seat.output
    missing = runner.invoke(app, ["review", str(tmp_path / "none.json")], env=_NO_LOCALE)
    assert missing.exit_code == 2 and "cannot read" in missing.output
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"game": "cabo", "seed": 0, "actions": [[0, "fly"]]}))
    result = runner.invoke(app, ["review", str(broken)], env=_NO_LOCALE)
    assert result.exit_code == 1 and "cannot be replayed" in result.output


def test_without_a_file_the_last_finished_terminal_game(
    log_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardtable.tui import saves

    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path / "data"))
    empty = runner.invoke(app, ["review"], env=_NO_LOCALE)
    assert empty.exit_code == 2 and "no finished game" in empty.output
    log = json.loads(log_file.read_text())
    saves.finish_save({"log": log, "seat": 1, "memory_aid": True})
    assert saves.load_finished() is not None
    result = runner.invoke(app, ["review", "--json", "--samples", "10"], env=_NO_LOCALE)
    assert result.exit_code == 0, result.output
    assert all(r["index"] in (2, 3) for r in json.loads(result.stdout))  # the saved seat 1
