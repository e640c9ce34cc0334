"""The view's type (``cardtable.views``): its checked-in JSON Schema cannot drift from the
TypedDicts, and every TypedDict forbids keys it does not declare.

That every view of every variant validates is checked by the conformance playouts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from typing_extensions import is_typeddict  # typing's misses typing_extensions' on 3.11

import cardtable.views as views
from cardtable import new_game

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "docs" / "view.schema.json"
REGENERATE = "python -m cardtable.views > docs/view.schema.json"


def test_checked_in_schema_is_current() -> None:
    """docs/view.schema.json is exactly what ``view_schema()`` gives today."""
    stored = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    current = json.loads(json.dumps(views.view_schema()))
    assert stored == current, (
        f"{SCHEMA_FILE.name} is out of date with the cardtable.views package; regenerate it with "
        f"`{REGENERATE}` (from the repository root) and commit it"
    )


def test_module_prints_the_schema() -> None:
    """``python -m cardtable.views`` prints the schema as JSON."""
    out = subprocess.run(
        [sys.executable, "-m", "cardtable.views"], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == json.loads(json.dumps(views.view_schema()))


def test_module_output_is_the_checked_in_file() -> None:
    """What ``python -m cardtable.views`` prints is docs/view.schema.json byte for byte (so
    regenerating it leaves no diff: same key order, indentation and final newline)."""
    out = subprocess.run(
        [sys.executable, "-m", "cardtable.views"], capture_output=True, check=True
    ).stdout
    assert out.replace(b"\r\n", b"\n") == SCHEMA_FILE.read_bytes(), (
        f"{SCHEMA_FILE.name} differs from the module's output; regenerate it with `{REGENERATE}`"
    )


def test_every_typed_dict_forbids_unknown_keys() -> None:
    """No TypedDict of the module is left out of the extra="forbid" configuration."""
    declared = {
        obj for name in dir(views) if is_typeddict(obj := getattr(views, name)) and name[0] != "_"
    }
    assert declared == set(views.TYPED_DICTS)
    for module in (views.common, views.family, views.qute, views.schema):
        public = {getattr(module, name) for name in module.__all__}
        assert {td for td in public if is_typeddict(td)} <= declared, module.__name__
    for td in declared:
        assert td.__pydantic_config__["extra"] == "forbid", td.__name__
        assert td.__doc__, f"{td.__name__} has no docstring"


def test_schema_forbids_additional_properties_everywhere() -> None:
    """In the JSON Schema too: every object definition states additionalProperties false."""
    defs = views.view_schema()["$defs"]
    assert {"FamilyView", "QuteView", "FamilySlot", "SnapWindow", "GameResult"} <= set(defs)
    for name, schema in defs.items():
        if schema.get("type") == "object":
            assert schema.get("additionalProperties") is False, name


def test_events_are_told_apart_by_type() -> None:
    """Each game's events form a union discriminated by ``type`` (one tag, one shape)."""
    props = views.view_schema()["$defs"]
    for view, count in (("FamilyView", 20), ("QuteView", 16)):
        items = props[view]["properties"]["events"]["items"]
        assert items["discriminator"]["propertyName"] == "type"
        assert len(items["discriminator"]["mapping"]) == len(items["oneOf"]) == count


@pytest.mark.parametrize(
    "event",
    [
        {"seq": 3, "type": "dead_end", "seat": 1},
        {"seq": 9, "type": "max_turns", "turns": 200},
        {"seq": 4, "type": "draw", "seat": 0, "card": False},
        {"seq": 5, "type": "penalty", "seat": 2, "count": 0, "for": "8", "cards": []},
        {"seq": 6, "type": "penalty", "seat": 2, "at": None},
        {
            "seq": 7,
            "type": "claim",
            "seat": 0,
            "at": ["0.1", "0.2"],
            "ok": False,
            "new": "0.4",
            "shown": ["3", "5"],
        },
        {"seq": 8, "type": "snap_open", "card": "JC"},
        {"seq": 2, "type": "give", "seat": 1, "from": "1.0", "to": "0.3"},
    ],
)
def test_rare_events_validate(event: dict[str, Any]) -> None:
    """Events the engines emit too rarely for random playouts to be sure to meet them."""
    views.validate_event(event)


def test_an_event_of_one_game_is_not_taken_for_the_other() -> None:
    """``draw`` and ``penalty`` have one tag and two shapes: each is checked against its game."""
    family: Any = new_game("kaboo", players=2, seed=1, options={"target": None})
    view = family.view(0)
    qute_draw = {"seq": 1, "type": "draw", "seat": 0, "card": True, "drawn": "6H"}
    views.validate_event(qute_draw)
    with pytest.raises(ValidationError):
        views.validate_view({**view, "events": [qute_draw]})
