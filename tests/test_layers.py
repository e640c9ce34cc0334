"""The layers of ``src/cardtable`` and the imports allowed between them, written once and checked
on every run (imports made only for type checking count too): each package imports only the
packages of the layers below it and the ones its own layer lists as allowed; no module takes
part in an import cycle, and no two packages import each other.

docs/architecture.md draws the same layers.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

LAYERS: list[tuple[str, list[str]]] = [
    (
        "foundation",
        [
            "cardtable.cards",
            "cardtable.catalog",
            "cardtable.errors",
            "cardtable.rng",
            "cardtable.notation",
        ],
    ),
    (
        "rules",
        [
            "cardtable.views",
            "cardtable.events",
            "cardtable.match",
            "cardtable.game",
            "cardtable.variants",
            "cardtable.games.family",
            "cardtable.games.qute",
            "cardtable.encoding",
            "cardtable.batch",
            "cardtable",
        ],
    ),
    ("contract", ["cardtable.seat"]),
    ("players and words", ["cardtable.agents", "cardtable.text"]),
    (
        "services",
        [
            "cardtable.store",
            "cardtable.arena",
            "cardtable.training",
            "cardtable.learn",
            "cardtable.ratings",
        ],
    ),
    ("front ends", ["cardtable.interop", "cardtable.web", "cardtable.tui", "cardtable.cli"]),
    ("entry point", ["cardtable.__main__"]),
]
"""Layers, lowest first, and their packages (``cardtable`` is the package's own ``__init__``,
the public names a user imports)."""

SIDEWAYS: dict[str, set[str]] = {
    "cardtable.errors": {"cardtable.catalog"},
    "cardtable.notation": {"cardtable.cards", "cardtable.errors"},
    "cardtable.events": {"cardtable.views"},
    "cardtable.match": {"cardtable.views"},
    "cardtable.game": {"cardtable.views", "cardtable.events", "cardtable.match"},
    "cardtable.variants": {"cardtable.game"},
    "cardtable.games.family": {
        "cardtable.views",
        "cardtable.events",
        "cardtable.match",
        "cardtable.game",
        "cardtable.variants",
    },
    "cardtable.games.qute": {
        "cardtable.views",
        "cardtable.events",
        "cardtable.match",
        "cardtable.game",
        "cardtable.variants",
    },
    "cardtable.encoding": {
        "cardtable.views",
        "cardtable.game",
        "cardtable.variants",
        "cardtable.games.family",
        "cardtable.games.qute",
    },
    "cardtable.batch": {
        "cardtable.game",
        "cardtable.match",
        "cardtable.variants",
        "cardtable.games.family",
        "cardtable.encoding",
    },
    "cardtable": {
        "cardtable.views",
        "cardtable.events",
        "cardtable.match",
        "cardtable.game",
        "cardtable.variants",
        "cardtable.games.family",
        "cardtable.games.qute",
    },
    "cardtable.arena": {"cardtable.store"},
    "cardtable.ratings": {"cardtable.arena"},
    "cardtable.cli": {"cardtable.interop", "cardtable.web", "cardtable.tui"},
}
"""Imports allowed inside a layer: a refusal is a message of the catalogs; the command line
starts the other front ends; the AI levels are calibrated in the arena; the two games share
nothing but the rules layer's contract; the terminal table, the web server and the adapters
know nothing of one another; the integer encoding reads both games, and the batched engine reads
the family's rule sets and that encoding."""


@functools.cache
def _figures() -> Any:
    """What the counting script of ``benchmarks/`` finds (it parses the source; nothing of the
    package is imported), counted once per run."""
    spec = importlib.util.spec_from_file_location("structure", ROOT / "benchmarks" / "structure.py")
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("structure", module)
    spec.loader.exec_module(module)
    return module.count()


def _package(module: str) -> str:
    """The package of ``LAYERS`` a module belongs to: the longest one that is its prefix."""
    names = [p for _, packages in LAYERS for p in packages]
    best = [p for p in names if module == p or module.startswith(p + ".")]
    assert best, f"{module} belongs to no layer: add its package to LAYERS"
    return max(best, key=len)


def _layer_of() -> dict[str, int]:
    return {p: i for i, (_, packages) in enumerate(LAYERS) for p in packages}


def test_every_import_points_down_or_to_an_allowed_neighbour() -> None:
    figures = _figures()
    layer = _layer_of()
    wrong: list[str] = []
    for module, targets in sorted(figures.modules.items()):
        src = _package(module)
        for target in sorted(targets):
            dst = _package(target)
            if dst == src or layer[dst] < layer[src] or dst in SIDEWAYS.get(src, set()):
                continue
            wrong.append(f"{module} imports {target} ({src} may not import {dst})")
    assert wrong == []


def test_there_are_no_import_cycles_and_no_package_loops() -> None:
    figures = _figures()
    assert figures.cycles == []
    assert figures.package_loops == []


def test_every_module_has_a_layer() -> None:
    """Every module of the source has a layer (a new package must be placed)."""
    figures = _figures()
    for module in figures.modules:
        _package(module)
