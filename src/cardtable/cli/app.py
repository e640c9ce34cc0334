"""The ``cardtable`` command line: the Typer app, its commands, and :func:`main`.

Commands: ``play`` (:mod:`cardtable.cli.play`), ``rules`` and ``variants``
(:mod:`cardtable.cli.rules`), ``arena`` (:mod:`cardtable.cli.arena`) and ``serve``
(:mod:`cardtable.cli.serve`).
"""

from __future__ import annotations

import typer

from .arena import arena_command
from .play import play_command
from .rules import list_variants, rules_command
from .serve import serve_command

__all__ = ["app", "main"]

app = typer.Typer(
    help="Play the Cabo family of games and Qute in the terminal ('cardtable variants' lists "
    "them).",
    no_args_is_help=True,
    add_completion=False,
)
"""The ``cardtable`` command line."""

app.command("play")(play_command)
app.command("rules")(rules_command)
app.command("variants")(list_variants)
app.command("arena")(arena_command)
app.command("serve")(serve_command)


def main() -> None:
    """Entry point of the ``cardtable`` console script."""
    app(prog_name="cardtable")
