"""The ``cardtable`` command line: the Typer app, its commands, and :func:`main`.

Commands: ``play`` (:mod:`cardtable.cli.play`), ``rules`` and ``variants``
(:mod:`cardtable.cli.rules`), ``arena`` (:mod:`cardtable.cli.arena`), ``serve``
(:mod:`cardtable.cli.serve`), ``review`` (:mod:`cardtable.cli.review`), ``ratings``
(:mod:`cardtable.cli.ratings`) and ``stats`` (:mod:`cardtable.cli.stats`).
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version
from typing import Annotated

import typer

from ..catalog import set_default, supported
from .arena import arena_command
from .checks import CardtableCommand, CardtableGroup
from .learn import learn_command
from .play import play_command
from .ratings import ratings_command
from .review import review_command
from .rules import list_variants, rules_command
from .serve import serve_command
from .stats import stats_command

__all__ = ["app", "main"]

app = typer.Typer(
    cls=CardtableGroup,
    help="Play the Cabo family of games and Qute in the terminal ('cardtable variants' lists "
    "them).\n\nErrors are printed as 'error: ...' on stderr; the exit code is 2 for a wrong "
    "argument or option, 1 for any other failure.",
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
"""The ``cardtable`` command line."""


def version() -> str:
    """The installed version of cardtable (``unknown`` when run from an uninstalled tree)."""
    try:
        return _dist_version("cardtable")
    except PackageNotFoundError:
        return "unknown"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"cardtable {version()}")
        raise typer.Exit()


def _choose_language(value: str | None) -> str | None:
    """Speak ``value`` in every command (a shipped language; ``None``: the environment's)."""
    if value is not None:
        try:
            set_default(value.lower())
        except ValueError:
            raise typer.BadParameter(
                f"must be one of {', '.join(supported())}, got {value!r}"
            ) from None
    return value


def _complete_language(incomplete: str) -> list[str]:
    """Shell completion for ``--lang``: the shipped languages that start with what is typed."""
    return [lang for lang in supported() if lang.startswith(incomplete.lower())]


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            help="print the version and exit",
            callback=_show_version,
            is_eager=True,
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANG",
            help=f"the language of the game's words: {', '.join(supported())} (default: "
            "CARDTABLE_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG)",
            callback=_choose_language,
            autocompletion=_complete_language,
            show_default=False,
        ),
    ] = None,
) -> None:
    """The options every command shares (``--version``, ``--lang``, ``-h``)."""


app.command("play", cls=CardtableCommand)(play_command)
app.command("rules", cls=CardtableCommand)(rules_command)
app.command("learn", cls=CardtableCommand)(learn_command)
app.command("variants", cls=CardtableCommand)(list_variants)
app.command("arena", cls=CardtableCommand)(arena_command)
app.command("serve", cls=CardtableCommand)(serve_command)
app.command("review", cls=CardtableCommand)(review_command)
app.command("ratings", cls=CardtableCommand)(ratings_command)
app.command("stats", cls=CardtableCommand)(stats_command)


def main() -> None:
    """Entry point of the ``cardtable`` console script."""
    app(prog_name="cardtable")
