"""Tests of scripts/setup's install stamps (scripts/stamps.py): which runs reinstall."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEV = "dev,arena,ray,web,postgres,e2e,pettingzoo,openspiel"  # what scripts/setup dev asks for


def load_stamps() -> ModuleType:
    """scripts/stamps.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("stamps", ROOT / "scripts" / "stamps.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


stamps = load_stamps()


class FakeSetup:
    """scripts/setup's decision on a fake .venv: counts the installs it would run."""

    def __init__(self, venv: Path, checksum: str = "123") -> None:
        self.venv = venv
        self.checksum = checksum
        self.installs: list[str] = []
        venv.mkdir(exist_ok=True)

    def run(self, extras: str) -> bool:
        """One scripts/setup run; True if it installed."""
        wanted = stamps.parse_extras(extras)
        if stamps.is_installed(self.venv, wanted, self.checksum):
            return False
        self.installs.append(extras)
        stamps.record(self.venv, wanted, self.checksum)
        return True


def test_after_a_dev_install_play_and_serve_do_not_reinstall(tmp_path: Path) -> None:
    setup = FakeSetup(tmp_path / ".venv")
    assert setup.run(DEV)
    assert not setup.run("tui")  # scripts/play
    assert not setup.run("web")  # scripts/serve
    assert not setup.run(DEV)  # scripts/test again
    assert setup.installs == [DEV]


def test_after_play_dev_installs_once_then_nothing_reinstalls(tmp_path: Path) -> None:
    setup = FakeSetup(tmp_path / ".venv")
    assert setup.run("tui")
    assert not setup.run("tui")
    assert setup.run(DEV)  # the whole lock is more than tui
    for extras in ("tui", DEV, "web", "tui", DEV):
        assert not setup.run(extras), extras
    assert setup.installs == ["tui", DEV]


def test_play_and_serve_keep_each_others_stamps(tmp_path: Path) -> None:
    setup = FakeSetup(tmp_path / ".venv")
    assert setup.run("web")
    assert setup.run("tui")
    assert not setup.run("web")
    assert not setup.run("tui")
    assert not setup.run("tui,web")  # the two stamps together cover both
    assert setup.run("arena,tui")
    assert setup.installs == ["web", "tui", "arena,tui"]
    assert setup.run(DEV)  # lesser extras never stand in for the whole lock


def test_a_new_checksum_reinstalls_and_drops_stale_stamps(tmp_path: Path) -> None:
    setup = FakeSetup(tmp_path / ".venv", checksum="1")
    setup.run(DEV)
    setup.run("tui")
    setup.checksum = "2"  # pyproject.toml or the lock changed
    assert setup.run("tui")
    names = sorted(p.name for p in setup.venv.iterdir())
    assert names == [".installed-tui-2"]
    assert setup.run(DEV)
    assert not setup.run("web")


def test_stamps_of_the_earlier_naming_are_recognised(tmp_path: Path) -> None:
    venv = tmp_path / ".venv"
    venv.mkdir()
    (venv / f".installed-{DEV}-77").touch()  # unsorted, as scripts/setup used to write
    assert stamps.is_installed(venv, stamps.parse_extras(DEV), "77")
    assert stamps.is_installed(venv, stamps.parse_extras("tui"), "77")
    assert not stamps.is_installed(venv, stamps.parse_extras("tui"), "78")


@pytest.mark.parametrize("extras", ["tui", DEV])
def test_the_command_line_checks_and_records(tmp_path: Path, extras: str) -> None:
    venv = tmp_path / ".venv"
    venv.mkdir()
    script = str(ROOT / "scripts" / "stamps.py")

    def call(*args: str) -> int:
        return subprocess.run([sys.executable, script, *args], check=False).returncode

    assert call("check", str(venv), extras, "9") == 1
    assert call("record", str(venv), extras, "9") == 0
    assert call("check", str(venv), extras, "9") == 0
    assert call("check", str(venv), "web", "9") == (0 if extras == DEV else 1)
    assert call("bogus") == 2


def test_the_scripts_use_the_stamps() -> None:
    setup = (ROOT / "scripts" / "setup").read_text()
    assert "scripts/stamps.py check" in setup and "scripts/stamps.py record" in setup
    assert "rm -f .venv/.installed-" not in setup
    play = (ROOT / "scripts" / "play").read_text()
    assert "scripts/setup tui" in play and "scripts/setup web" not in play
