"""Markers for the parts of the suite that need more than Python.

``browser``: drives Debian's Chromium (tests/e2e). ``terminal``: drives Debian's tmux
(tests/tui/test_tmux_*.py). ``postgres``: runs a throwaway PostgreSQL
server (the ``postgresql`` store of the web tests, tests/test_pgserver.py, the several-process
harness of tests/test_cluster_harness.py). ``ray``: starts a
local Ray instance. ``slow``: the longest sweeps, each the longer twin of a test the default
run keeps; plain ``scripts/test`` leaves them out (``scripts/test -m slow`` runs them). Without
root (no Chromium, tmux or PostgreSQL installed by scripts/setup) run ``scripts/test -m "not
browser and not postgres and not terminal and not slow"``.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).parent

# The tests read English words unless they ask for another language: the machine's locale
# (LANG=de_DE.UTF-8) must not choose the catalog. Tests of the choice set their own environment.
os.environ["CARDTABLE_LANG"] = "en"

# Games the tests finish with `cardtable play` are kept (the save, the history of `cardtable
# stats`) in a folder of the run's own, never in the user's data folder; tests that look at those
# files set their own folder.
_DATA = tempfile.mkdtemp(prefix="cardtable-test-data-")
atexit.register(shutil.rmtree, _DATA, True)
os.environ["CARDTABLE_DATA_DIR"] = _DATA


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test by what it needs (by its folder, or by the store it is given)."""
    for item in items:
        path = Path(str(item.path))
        if (HERE / "e2e") in path.parents:
            item.add_marker(pytest.mark.browser)
        if path.name in ("test_pgserver.py", "test_cluster_harness.py"):
            item.add_marker(pytest.mark.postgres)
        if path.name.startswith("test_tmux"):
            item.add_marker(pytest.mark.terminal)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("store_url") == "postgresql":
            item.add_marker(pytest.mark.postgres)
