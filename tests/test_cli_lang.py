"""The command line's ``--lang``: every command speaks the language chosen before it, the
environment's (``CARDTABLE_LANG``, the POSIX locale) when none is chosen, and an unknown
language is refused in the one error style."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from cardtable.catalog import catalog, set_default
from cardtable.cli import app

runner = CliRunner()

_PLAY = ["play", "kaboo", "--seed", "3", "--target", "none", "--plain"]
"""A single round of kaboo in line mode, the person to move first."""

_NO_LOCALE: dict[str, str | None] = {
    "CARDTABLE_LANG": None,
    "LC_ALL": None,
    "LC_MESSAGES": None,
    "LANG": None,
}
"""An environment that asks for no language (the runner removes these variables)."""


@pytest.fixture(autouse=True)
def _no_default() -> Iterator[None]:
    """``--lang`` sets the process's default: each test starts and ends without one."""
    set_default(None)
    yield
    set_default(None)


def test_lang_de_plays_in_german() -> None:
    result = runner.invoke(app, ["--lang", "de", *_PLAY], input="quit\ny\n", env=_NO_LOCALE)
    assert result.exit_code == 0, result.output
    assert "Runde 1 beginnt; du fängst an." in result.output
    assert "du hast deine Karte 2 angeschaut: [5S]" in result.output
    assert "— du bist am Zug —" in result.output
    assert catalog().language == "de"  # the default stays set for the rest of the process


def test_a_refusal_is_told_in_the_chosen_language() -> None:
    result = runner.invoke(app, ["--lang", "de", *_PLAY], input="foo\nquit\ny\n")
    assert result.exit_code == 0, result.output
    assert "unbekannter Zug „foo“" in result.output
    assert "unknown action" not in result.output


def test_without_lang_the_locale_chooses() -> None:
    german = {**_NO_LOCALE, "LANG": "de_DE.UTF-8"}
    result = runner.invoke(app, _PLAY, input="quit\ny\n", env=german)
    assert result.exit_code == 0, result.output
    assert "— du bist am Zug —" in result.output
    result = runner.invoke(app, _PLAY, input="quit\ny\n", env={**german, "LC_ALL": "C"})
    assert "— your turn —" in result.output
    result = runner.invoke(app, _PLAY, input="quit\ny\n", env={**german, "CARDTABLE_LANG": "en"})
    assert "— your turn —" in result.output


def test_lang_wins_over_the_environment() -> None:
    env = {**_NO_LOCALE, "LANG": "de_DE.UTF-8"}
    result = runner.invoke(app, ["--lang", "en", *_PLAY], input="quit\ny\n", env=env)
    assert result.exit_code == 0, result.output
    assert "— your turn —" in result.output and "du" not in result.output.split()
    result = runner.invoke(app, ["--lang", "DE", *_PLAY], input="quit\ny\n", env=_NO_LOCALE)
    assert "— du bist am Zug —" in result.output


def test_an_unknown_language_is_refused_with_the_choices() -> None:
    result = runner.invoke(app, ["--lang", "xx", "variants"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --lang must be one of en, de, got 'xx'")
    assert result.stdout == ""
    assert catalog().language != "xx"


def test_the_help_names_the_languages() -> None:
    result = runner.invoke(app, ["-h"], terminal_width=100)
    assert result.exit_code == 0
    assert "--lang" in result.output and "en, de" in result.output
