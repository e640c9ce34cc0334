"""The browser client's types (src/cardtable/web/static): ``tsc --noEmit`` passes on every module
with ``strict`` (tsconfig.json), and ``static/types/view.d.ts`` is what
``scripts/gen-view-types.mjs`` makes of ``docs/view.schema.json``.

Both need Node.js and the npm packages of package-lock.json, which ``scripts/setup`` installs
(``npm ci``); without them these tests fail, they never skip.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "cardtable" / "web" / "static"


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which(tool)
    assert exe is not None, f"{tool} is missing: install Node.js and npm (scripts/setup as root)"
    assert (ROOT / "node_modules").is_dir(), "node_modules/ is missing: run scripts/setup (npm ci)"
    return subprocess.run(
        [exe, *args], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )


def test_tsc_passes_on_the_client() -> None:
    res = _run("npx", "--no-install", "tsc", "--noEmit", "-p", ".")
    assert res.returncode == 0, f"tsc --noEmit -p . failed:\n{res.stdout}{res.stderr}"


def test_view_types_are_up_to_date_with_the_schema() -> None:
    res = _run("node", "scripts/gen-view-types.mjs", "--check")
    assert res.returncode == 0, (
        f"{res.stdout}{res.stderr}\nregenerate with: node scripts/gen-view-types.mjs"
    )


def test_every_client_module_is_checked() -> None:
    modules = sorted(STATIC.glob("*.js"))
    assert modules
    unchecked = [p.name for p in modules if not p.read_text().startswith("// @ts-check\n")]
    assert not unchecked, f"client modules without // @ts-check on their first line: {unchecked}"
