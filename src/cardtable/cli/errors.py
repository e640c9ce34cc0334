"""How every command fails: one error style and its exit codes."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console
from rich.text import Text

__all__ = ["FAILURE", "USAGE_ERROR", "error_line", "fail"]

USAGE_ERROR = 2
"""Exit code of a command given a wrong argument or option (an unknown game, a bad option)."""

FAILURE = 1
"""Exit code of a command that was used rightly but could not do its work."""


def error_line(message: str) -> None:
    """Print ``error: message`` on stderr as one line (never wrapped, never boxed)."""
    text = Text(f"error: {' '.join(message.split())}", style="bold red")
    Console(stderr=True, highlight=False, soft_wrap=True).print(text)


def fail(message: str, code: int = USAGE_ERROR) -> NoReturn:
    """The one error style of every command: ``error: message`` on stderr, one line, then exit
    ``code`` (:data:`USAGE_ERROR`, 2, for a wrong argument or option; :data:`FAILURE`, 1,
    otherwise)."""
    error_line(message)
    raise typer.Exit(code=code)
