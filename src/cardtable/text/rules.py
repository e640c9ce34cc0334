"""A game's written rules, with its option table, as Markdown (from the variant registry)."""

from __future__ import annotations

from .. import variants

__all__ = ["rules_markdown"]


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
