"""``cardtable learn kaboo`` in a real terminal (tmux): the full-screen lesson opens with its
first step's words, Enter goes on to the next step, a move the step does not want is explained,
and ``q`` leaves with a line saying how to start again.

The command runs as ``python -m cardtable`` from this checkout's ``src``, on a tmux server of
its own (``-L``), 100 × 32 cells; the screen is read with ``capture-pane`` in a bounded loop.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable.catalog import language, say

TMUX = "/usr/bin/tmux"
SRC = Path(__file__).resolve().parents[2] / "src"
WAIT = 30.0
"""Seconds to wait for a screen (the first start imports Textual)."""


class Terminal:
    """A tmux session on a server of its own, running one command."""

    def __init__(self, server: str, session: str) -> None:
        self.server = server
        self.session = session

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            [TMUX, "-L", self.server, *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        return done.stdout

    def screen(self) -> str:
        """The text on the screen now, lines joined (a sentence may wrap)."""
        lines = self.tmux("capture-pane", "-p", "-t", self.session).splitlines()
        return " ".join(line.strip(" │╭╮╰╯─") for line in lines)

    def wait_for(self, text: str) -> str:
        """The screen, once ``text`` is on it (words compared with their spaces squeezed)."""
        wanted = " ".join(text.split())
        deadline = time.monotonic() + WAIT
        shown = ""
        while time.monotonic() < deadline:
            shown = " ".join(self.screen().split())
            if wanted in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{shown}")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.session, *keys)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    server = f"cardtable-learn-{os.getpid()}"
    term = Terminal(server, "learn")
    env = {
        "PYTHONPATH": str(SRC),
        "CARDTABLE_LANG": "en",
        "CARDTABLE_DATA_DIR": str(tmp_path),
        "TERM": "xterm-256color",
    }
    command = " ".join(
        [
            "env",
            *(f"{k}={shlex.quote(v)}" for k, v in env.items()),
            shlex.quote(sys.executable),
            "-m cardtable learn kaboo --seed 1",
            "; echo '[command ended]'; sleep 60",
        ]
    )
    term.tmux("new-session", "-d", "-s", "learn", "-x", "100", "-y", "32", command)
    try:
        yield term
    finally:
        term.tmux("kill-server")


def _first_words(key: str, count: int = 8) -> str:
    """The first words of a message (enough to find it, before the panel wraps it)."""
    with language("en"):
        return " ".join(say(key, game="Kaboo").split()[:count])


def test_cardtable_learn_kaboo_shows_the_first_step(terminal: Terminal) -> None:
    screen = terminal.wait_for(_first_words("learn.kaboo.welcome"))
    assert "Learning Kaboo · step 1 of 21" in screen
    assert "Enter: go on" in screen

    terminal.keys("Enter")
    terminal.wait_for(_first_words("learn.kaboo.draw"))
    terminal.wait_for("step 2 of 21")

    terminal.keys("k")  # knock, then its confirmation: not what this step wants
    terminal.wait_for("Call knock?")
    terminal.keys("Enter")
    terminal.wait_for("Not this move (call Knock): " + _first_words("learn.kaboo.draw.knock", 6))

    terminal.keys("q")
    with language("en"):
        left = say("learn.ui.left", name="kaboo")
    terminal.wait_for(left)
    terminal.wait_for("[command ended]")
