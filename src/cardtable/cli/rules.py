"""The ``cardtable rules`` and ``cardtable variants`` commands, and the rule options.

Everything here is read from the variant registry (:mod:`cardtable.variants`): the written
rules, the option table, the list of games.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from .. import variants
from .render import _fail

__all__ = ["list_variants", "parse_option", "rules_command", "rules_markdown"]


def rules_markdown(name: str) -> str:
    """The rules of variant ``name`` in Markdown, with its option table from the registry.

    Raises ``ValueError`` for an unknown variant.
    """
    variant = variants.get(name)
    text = variants.rules_text(variant.name)
    lines = [
        "",
        "## Options",
        "",
        f"Players: {variant.min_players} to {variant.max_players} "
        f"(default {variant.default_players}). "
        "Set options with `--target` and `-o NAME=VALUE` on `cardtable play`.",
        "",
        "| option | default | what it does |",
        "|---|---|---|",
    ]
    for opt in variant.options:
        default = "none" if opt.default is None else str(opt.default).lower()
        lines.append(f"| `{opt.name}` | {default} | {opt.doc} |")
    return text + "\n".join(lines) + "\n"


def parse_option(text: str, variant: str) -> tuple[str, Any]:
    """Turn ``NAME=VALUE`` into an option for ``variant``; ``ValueError`` if it makes no sense."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not sep or not name:
        raise ValueError(f"options are written NAME=VALUE, got {text!r}")
    specs = {o.name: o for o in variants.get(variant).options}
    if name not in specs:
        raise ValueError(
            f"unknown option {name!r} for {variant}; known options: " + ", ".join(sorted(specs))
        )
    types = specs[name].types
    low = raw.lower()
    if low in ("none", "null") and type(None) in types:
        return name, None
    if bool in types:
        if low in ("true", "yes", "on", "1"):
            return name, True
        if low in ("false", "no", "off", "0"):
            return name, False
    if int in types:
        try:
            return name, int(raw)
        except ValueError:
            pass
    want = " or ".join("none" if t is type(None) else t.__name__ for t in types)
    raise ValueError(f"option {name!r} must be {want}, got {raw!r}")


def rules_command(
    variant: Annotated[str, typer.Argument(help="the game whose rules to print")],
) -> None:
    """Print the rules of a game, with its notation and options."""
    try:
        text = rules_markdown(variant)
    except ValueError as err:
        _fail(str(err))
    Console().print(Markdown(text))


def list_variants() -> None:
    """List the games, their player counts and a one-line summary."""
    table = Table(title="Games", title_style="bold")
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("title")
    table.add_column("players", no_wrap=True)
    table.add_column("summary")
    for name in variants.names():
        v = variants.get(name)
        table.add_row(
            name,
            v.title,
            f"{v.min_players}–{v.max_players} ({v.default_players})",
            v.summary,
        )
    Console().print(table)
