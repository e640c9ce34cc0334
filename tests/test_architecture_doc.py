"""docs/architecture.md's example of adding a variant runs as written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cardtable import variants
from cardtable.games.family import remove_variant

DOC = Path(__file__).parents[1] / "docs" / "architecture.md"


def test_the_pablo_example_runs() -> None:
    code = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert code is not None
    space: dict[str, Any] = {}
    try:
        exec(compile(code.group(1), str(DOC), "exec"), space)
        game = space["g"]
        assert game.over is True
        assert "pablo" in variants.names()
    finally:
        remove_variant("pablo")
    assert "pablo" not in variants.names()
