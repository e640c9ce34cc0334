"""The command line's conventions: one error line, meaningful help placeholders, checked
numbers.

- Every error is one line, ``error: …`` on stderr: those of the commands
  (:func:`~cardtable.cli.errors.fail`) and those the argument parser finds (an unknown option,
  a missing argument, a word where a number belongs), which :class:`CardtableGroup` prints in
  the same style instead of a boxed panel. A usage error exits with 2.
- Help shows a word for what an option takes (``--games N``, ``--seed N``, ``--chart PATH``),
  never a Python type (``<int>``, ``<list[str]>``), and nothing after a flag
  (:class:`CardtableCommand`).
- A number an option takes is checked at once (:func:`number_in`): no NaN, no infinity, no
  negative count or duration, within the bounds that make sense.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import typer
from typer._click.core import Command, Context, Parameter
from typer._click.exceptions import ClickException, MissingParameter, UsageError
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from .errors import USAGE_ERROR, error_line

__all__ = ["CardtableCommand", "CardtableGroup", "number_in", "one_line"]

N = TypeVar("N", int, float)

_PARSER_WORDS = {
    "Input should be a valid integer": "a whole number",
    "Input should be a valid number": "a number",
}


def one_line(err: ClickException) -> str:
    """A parser's error as the one line the command line prints (without ``error:``): what is
    wrong, then where the help is (``see 'cardtable play -h'``) for a usage error."""
    message = err.format_message()
    if isinstance(err, typer.BadParameter) and not isinstance(err, MissingParameter):
        param = err.param
        names = [o for o in getattr(param, "opts", []) if o.startswith("--")]
        name = names[0] if names else str(getattr(param, "human_readable_name", "") or "")
        said = str(err.message)
        for phrase, word in _PARSER_WORDS.items():
            if said.startswith(phrase):
                said = f"takes {word}"
                break
        message = f"{name.upper() if name and not name.startswith('-') else name} {said}".strip()
    message = " ".join(message.split()).rstrip(".")
    message = message.replace(" (Possible options: ", "; did you mean ").replace(
        "(Possible options: ", "did you mean "
    )
    if "did you mean" in message and message.endswith(")"):
        message = message[:-1] + "?"
    message = message[:1].lower() + message[1:] if not message.startswith("-") else message
    ctx = getattr(err, "ctx", None)
    if isinstance(err, UsageError) and isinstance(ctx, Context):
        message += f" (see '{ctx.command_path} -h')"
    return message


_PLACEHOLDERS = {"int": "N", "float": "NUMBER", "str": "TEXT", "Path": "PATH"}
"""The word shown after an option that names none (by the type it takes)."""


def _placeholders(params: Sequence[Parameter]) -> None:
    """Give every option a word for what it takes (``N``, ``TEXT``) and every flag none."""
    for param in params:
        if not isinstance(param, TyperOption) or param.metavar is not None:
            continue
        if param.is_flag:
            param.metavar = ""
            continue
        shown = param.bare_type().removeprefix("list[").removesuffix("]")
        param.metavar = _PLACEHOLDERS.get(shown, shown.upper())


def _quiet_help(option: TyperOption | None) -> TyperOption | None:
    """The ``-h``/``--help`` flag shown without a type after it."""
    if option is not None:
        option.metavar = ""
    return option


class _Placeholders(Command):
    """What the group and its commands share: options that say what they take, and a help
    flag that takes nothing (mixed in before Typer's own class)."""

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        """``-h``/``--help``, with nothing after it in the help."""
        return _quiet_help(super().get_help_option(ctx))

    def get_params(self, ctx: Context) -> list[Parameter]:
        """The options, each with a word for what it takes (never a Python type)."""
        params = super().get_params(ctx)
        _placeholders(params)
        return params


class CardtableGroup(_Placeholders, TyperGroup):
    """The ``cardtable`` command group: the parser's errors in the one error style."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,  # passed on as they are: Click's own context settings
    ) -> object:
        """Run the command line; a parser error becomes one ``error: …`` line on stderr."""
        run = (args, prog_name, complete_var, False, windows_expand_args)
        if not standalone_mode:
            return super().main(*run, **extra)
        try:
            code = super().main(*run, **extra)
        except ClickException as err:
            error_line(one_line(err))
            sys.exit(err.exit_code if isinstance(err, UsageError) else USAGE_ERROR)
        except typer.Abort:
            error_line("aborted")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


class _Argument(TyperArgument):
    """An argument whose help shows its metavar alone (``GAME``), not a type (``<str>``)."""

    def display_type_rich(self, ctx: Context) -> str | None:
        """Nothing beside the argument's name: the name says what to type."""
        return None

    def get_help_record(self, ctx: Context) -> tuple[str, str] | None:
        """The plain help's row, without the type."""
        record = super().get_help_record(ctx)
        if record is None:
            return None
        name, text = record
        return name.split(" <", 1)[0], text


class CardtableCommand(_Placeholders, TyperCommand):
    """A command whose help shows what each argument is (its metavar), not a Python type."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        """The parameters, each argument shown by its metavar alone (:class:`_Argument`)."""
        params = super().get_params(ctx)
        for param in params:
            if isinstance(param, TyperArgument) and not isinstance(param, _Argument):
                param.__class__ = _Argument
        return params


def _bound(x: float) -> str:
    """A bound as a person reads it: a whole number in full (2**63 - 1 too), else short."""
    return str(x) if isinstance(x, int) else f"{x:g}"


def number_in(
    low: N, high: N, what: str = "", *, optional: bool = False
) -> Callable[[N | None], N | None]:
    """A Typer option callback that accepts a number from ``low`` to ``high`` (a finite one:
    no NaN, no infinity) and refuses anything else with one line naming the bounds; ``what``
    is the unit (``seconds``). ``optional``: ``None`` (the option not given) passes."""

    def check(value: N | None) -> N | None:
        if value is None and optional:
            return None
        if (
            value is None
            or (isinstance(value, float) and not math.isfinite(value))
            or not low <= value <= high
        ):
            unit = f" {what}" if what else ""
            if math.isinf(high):
                raise typer.BadParameter(f"must be {_bound(low)}{unit} or more, got {value}")
            raise typer.BadParameter(
                f"must be from {_bound(low)} to {_bound(high)}{unit}, got {value}"
            )
        return value

    return check
