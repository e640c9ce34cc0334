"""Tests of the arena's behaviour around a run: Ctrl-C, output paths checked up front, chart
formats, readable times, and the warnings for short runs and agents without games."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.arena import (
    ArenaError,
    ArenaInterrupted,
    check_output_paths,
    format_seconds,
    run_arena,
)
from cardtable.cli import app

runner = CliRunner()

# The command as a user starts it, with Ctrl-C raising KeyboardInterrupt even when the test
# runner was started with SIGINT ignored (as background jobs are).
COMMAND = [
    sys.executable,
    "-c",
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from cardtable.cli import main; main()",
]


def text(output: str) -> str:
    """Command output with its line breaks folded to single spaces."""
    return " ".join(output.split())


# ---------------------------------------------------------------------------- Ctrl-C
class Reader(threading.Thread):
    """Collects a pipe's bytes as they come."""

    def __init__(self, stream: object) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.data = bytearray()

    def run(self) -> None:
        """Read until the pipe closes."""
        read = self.stream.read1  # type: ignore[attr-defined]
        while chunk := read(4096):
            self.data += chunk

    def text(self) -> str:
        """What has come so far, without terminal control sequences."""
        raw = bytes(self.data).decode("utf-8", "replace")
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw)


@pytest.mark.parametrize(
    ("backend", "presses"),
    [("process", 1), ("process", 2), pytest.param("ray", 1, marks=pytest.mark.ray)],
)
def test_ctrl_c_stops_the_run_and_prints_the_games_that_finished(
    tmp_path: Path, backend: str, presses: int
) -> None:
    out = tmp_path / "never.json"
    args = ["arena", "kaboo", "-a", "random,random", "-n", "200000", "-w", "2", "-b", backend]
    proc = subprocess.Popen(
        [*COMMAND, *args, "--json", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={**os.environ, "TTY_COMPATIBLE": "1", "COLUMNS": "200"},  # a live progress bar
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    stdout, stderr = Reader(proc.stdout), Reader(proc.stderr)
    stdout.start()
    stderr.start()
    try:
        deadline = time.monotonic() + 120  # a bound on waiting for the workers to start
        while not re.search(r"\b[1-9]\d*/200000\b", stdout.text()):
            assert proc.poll() is None, stderr.text()
            assert time.monotonic() < deadline, stdout.text()
            time.sleep(0.05)
        for _ in range(presses):  # as Ctrl-C does: to the parent and every worker
            os.killpg(proc.pid, signal.SIGINT)
            time.sleep(0.05)
        code = proc.wait(timeout=60)  # a bound on waiting (the stop itself takes well under 1 s)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    stdout.join(timeout=10)
    stderr.join(timeout=10)
    printed = stdout.text() + stderr.text()
    assert code == 130, printed
    assert "Traceback" not in printed
    assert "KeyboardInterrupt" not in printed
    found = re.search(r"Interrupted after (\d+) of 200000 games", text(stdout.text()))
    assert found, printed
    assert 0 < int(found.group(1)) < 200000
    assert "win rate" in printed and "random#1" in printed
    assert f"2 {backend} workers" in text(printed)
    assert not out.exists()


def test_an_interrupted_run_keeps_the_finished_games() -> None:
    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(ArenaInterrupted) as caught:
        run_arena(
            "kaboo", ["random", "random"], games=40, backend="serial", progress=stop_after_three
        )
    assert caught.value.planned == 40
    result = caught.value.result
    assert result.games == 3 and [r.index for r in result.records] == [0, 1, 2]
    assert sum(s.seats for s in result.stats) == 6


def test_an_interrupted_process_pool_keeps_the_games_received() -> None:
    seen: list[int] = []

    def stop_after_five(done: int, total: int) -> None:
        seen.append(done)
        if done == 5:
            raise KeyboardInterrupt

    with pytest.raises(ArenaInterrupted) as caught:
        run_arena(
            "kaboo",
            ["random", "random"],
            games=400,
            workers=2,
            chunk_size=100,
            progress=stop_after_five,
        )
    assert seen == [1, 2, 3, 4, 5]  # one call per game, not per chunk
    result = caught.value.result
    assert result.games == 5 and result.backend == "process"


def test_progress_moves_game_by_game() -> None:
    seen: list[tuple[int, int]] = []
    run_arena(
        "kaboo",
        ["random", "random"],
        games=6,
        workers=2,
        chunk_size=3,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(n, 6) for n in range(1, 7)]


def test_progress_shows_movement_while_no_game_has_finished() -> None:
    """Expert agents can think for seconds over a move: with no game finished yet, the line
    still changes as time passes (a spinner), so the run never looks frozen."""
    from rich.console import Console

    from cardtable.cli.arena import arena_progress

    now = [0.0]
    console = Console(file=io.StringIO(), width=100, color_system=None)
    bar = arena_progress(console, get_time=lambda: now[0])
    bar.add_task("kaboo · expert vs expert", total=200)

    def line() -> str:
        out = io.StringIO()
        Console(file=out, width=100, color_system=None).print(bar.get_renderable())
        return out.getvalue()

    frames = set()
    for _ in range(5):
        frames.add(line().split("kaboo")[0])
        now[0] += 0.25
    assert len(frames) >= 4  # the spinner turned
    assert "0/200" in line()


# ---------------------------------------------------------------------------- output paths
@pytest.mark.parametrize(
    ("option", "name", "message"),
    [
        ("--chart", "missing/x.png", "no directory"),
        ("--json", "missing/x.json", "no directory"),
        ("--csv", "missing/x.csv", "no directory"),
        ("--chart", "x.jpg", "must end in .png, .svg or .pdf"),
        ("--chart", "x", "must end in .png, .svg or .pdf"),
        ("--json", ".", "is a directory"),
    ],
)
def test_bad_output_paths_fail_before_any_game(
    tmp_path: Path, option: str, name: str, message: str
) -> None:
    path = tmp_path / name
    result = runner.invoke(
        app, ["arena", "kaboo", "-a", "random,random", "-n", "4", "-b", "serial", option, str(path)]
    )
    assert result.exit_code == 2, result.output
    assert message in text(result.output)
    assert "/4" not in result.output  # no progress bar was drawn
    assert "win rate" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_the_chart_path_from_the_issue_fails_at_once() -> None:
    result = runner.invoke(
        app,
        ["arena", "kaboo", "-a", "random,random", "-n", "100000", "--chart", "/nonexistent/x.png"],
    )
    assert result.exit_code == 2
    assert "no directory '/nonexistent'" in text(result.output)


def test_unwritable_directory_and_same_file_twice(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if not os.access(locked, os.W_OK):  # root may write anywhere
            with pytest.raises(ArenaError, match="not writable"):
                check_output_paths(json_path=locked / "r.json")
    finally:
        locked.chmod(0o700)
    with pytest.raises(ArenaError, match="the JSON file and the CSV file are the same file"):
        check_output_paths(json_path=tmp_path / "r", csv_path=tmp_path / "r")
    check_output_paths(tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "r.PDF")


# ---------------------------------------------------------------------------- chart formats
@pytest.mark.parametrize(
    ("name", "starts"),
    [("r.svg", (b"<?xml", b"<svg")), ("r.pdf", (b"%PDF",)), ("r.png", (b"\x89PNG\r\n\x1a\n",))],
)
def test_the_chart_format_follows_the_extension(
    tmp_path: Path, name: str, starts: tuple[bytes, ...]
) -> None:
    path = tmp_path / name
    result = runner.invoke(
        app,
        ["arena", "kaboo", "-a", "random,random", "-n", "2", "-b", "serial", "--chart", str(path)],
    )
    assert result.exit_code == 0, result.output
    assert path.read_bytes().startswith(starts)


def test_a_jpg_chart_is_refused_by_the_library_too(tmp_path: Path) -> None:
    result = run_arena("kaboo", ["random", "random"], games=2, backend="serial")
    with pytest.raises(ArenaError, match=r"\.png, \.svg or \.pdf"):
        result.chart(tmp_path / "r.jpg")
    assert not (tmp_path / "r.jpg").exists()


def test_png_charts_are_readable_in_size(tmp_path: Path) -> None:
    result = run_arena("kaboo", ["random", "random"], games=2, backend="serial")
    result.chart(tmp_path / "r.png")
    head = (tmp_path / "r.png").read_bytes()[16:24]
    width, height = int.from_bytes(head[:4], "big"), int.from_bytes(head[4:], "big")
    assert width >= 900 and height >= 700


# ---------------------------------------------------------------------------- times
@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0.0, "0 µs"),
        (4.2e-8, "0.0420 µs"),
        (0.0000123, "12.3 µs"),
        (0.000999, "999 µs"),
        (0.0009996, "1.00 ms"),
        (0.00116, "1.16 ms"),
        (0.0999999, "100 ms"),
        (1.16, "1.16 s"),
        (12.345, "12.3 s"),
        (1160.0, "1160 s"),
        (-0.002, "-2.00 ms"),
    ],
)
def test_times_are_shown_in_readable_units(seconds: float, shown: str) -> None:
    assert format_seconds(seconds) == shown


def test_the_table_shows_times_with_units() -> None:
    result = runner.invoke(
        app, ["arena", "kaboo", "-a", "random,random", "-n", "2", "-b", "serial"]
    )
    assert result.exit_code == 0, result.output
    assert "time/move" in result.output
    assert re.search(r"\d (µs|ms|s) / \d[\d.]* (µs|ms|s)", result.output)
    assert "e+" not in result.output and "e-0" not in result.output


# ---------------------------------------------------------------------------- short runs
def test_fewer_games_than_a_period_warn_and_idle_agents_are_flagged() -> None:
    # three agents at two seats: a period of 6 games; one game leaves the third without a seat
    result = runner.invoke(
        app,
        ["arena", "kaboo", "-a", "random,beginner,casual", "-p", "2", "-n", "1", "-b", "serial"],
    )
    assert result.exit_code == 0, result.output
    out = text(result.output)
    assert "fewer than one seating period (6 games" in out
    assert "no games finished for casual" in out
    row = next(line for line in result.output.splitlines() if line.strip().startswith("casual"))
    assert "no games" in row and "0.000 [0.000, 1.000]" not in result.output


def test_a_whole_period_gives_no_warning() -> None:
    result = runner.invoke(
        app, ["arena", "kaboo", "-a", "random,random", "-n", "2", "-b", "serial"]
    )
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output


def test_a_ctrl_c_in_the_pool_loop_is_held_back_until_delivered() -> None:
    from cardtable.arena.backends import _sigint_deferred

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with _sigint_deferred() as deliver:
            deliver()  # nothing pressed: nothing happens
            os.kill(os.getpid(), signal.SIGINT)  # pressed while the pool's code might run
            time.sleep(0.05)  # the handler runs here: it only notes the press
            with pytest.raises(KeyboardInterrupt):
                deliver()  # raised where the loop chooses, by the handler that was there
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with _sigint_deferred() as deliver:
            pass  # not pressed: the handler is given back as it was
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
