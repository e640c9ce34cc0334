"""The first search-level move after a server starts, against the moves after it.

The server starts its search workers with itself, in the background (``SearchPool.warm``), so
that the first ``expert`` move does not wait for a process to start and import the agents. For
each start of a ``cardtable serve`` subprocess (a fresh store, then restarts on the same one),
the script creates a room of two expert AI players (kaboo, one round; ``--ai-delay 0``), watches
it as a spectator, and times each move as its ``state`` frame arrives: the first from the
create's answer, the others from the move before.

Measured on the 2-core dev machine (``--after 2``, 2 workers; the first move of kaboo is often a
cheap one, so it is compared with the spread of the others, not their median):

==========================  =====================  =====================
start                       before (workers lazy)  workers warm at start
==========================  =====================  =====================
fresh store: first move     1089 ms                171 ms
restart: first move         1957 ms                203 ms, 492 ms
the next 11 moves, median   512–615 ms             697–820 ms
==========================  =====================  =====================

Run:

    .venv/bin/python benchmarks/ai_warm.py [--starts 3] [--after 2] [--workers N]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect


def free_port() -> int:
    """A TCP port free now on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(db: str, port: int, workers: int | None) -> subprocess.Popen[bytes]:
    """A ``cardtable serve`` on ``port``, once it answers HTTP."""
    cmd = [sys.executable, "-m", "cardtable", "serve", "--port", str(port), "--db", db]
    cmd += ["--ai-delay", "0", "--rate-requests", "0", "--rate-rooms", "0"]
    if workers is not None:
        cmd += ["--ai-workers", str(workers)]
    src = str(Path(__file__).resolve().parent.parent / "src")
    env = dict(os.environ, PYTHONPATH=src)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/levels", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def moves(port: int, count: int) -> list[float]:
    """Seconds each of the first ``count`` moves of a new room of two expert AI players took:
    the first from the create's answer, each other from the move before."""
    expert = {"type": "ai", "level": "expert"}
    body = {"game": "kaboo", "options": {"target": None}, "seats": [expert, expert]}
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/rooms",
        json.dumps(body).encode(),
        {"content-type": "application/json"},
    )
    with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        room = json.loads(urllib.request.urlopen(req).read())["room"]
        created = time.perf_counter()
        ws.send(json.dumps({"type": "join", "room": room}))
        times: list[float] = []
        seen = None
        while len(times) < count:
            frame = json.loads(ws.recv(timeout=120))
            if frame.get("type") != "state":
                continue
            if seen is None:
                seen = frame["version"]
                if seen > 1:
                    raise SystemExit("a move was played before the spectator joined")
                continue
            if frame["status"] != "playing" and frame["version"] == seen:
                break
            if frame["version"] > seen:
                times.append(time.perf_counter() - created - sum(times))
                seen = frame["version"]
            if frame["status"] != "playing":
                break
    return times


def main() -> None:
    """Start the server ``--starts`` times on one store and time the moves of each start."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=3, help="starts (the first: fresh store)")
    parser.add_argument("--after", type=float, default=2.0, help="seconds before the room")
    parser.add_argument("--moves", type=int, default=12, help="moves timed per start")
    parser.add_argument("--workers", type=int, default=None, help="--ai-workers (default: CPUs)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite+aiosqlite:///{Path(tmp) / 'warm.db'}"
        print(f"after={args.after:g}s workers={args.workers or os.cpu_count()}")
        print("start       first move   next moves: median   max")
        for n in range(args.starts):
            port = free_port()
            proc = start_server(db, port, args.workers)
            try:
                time.sleep(args.after)
                took = moves(port, args.moves)
            finally:
                proc.terminate()
                proc.wait(30)
            rest = took[1:] or [float("nan")]
            what = "fresh" if n == 0 else f"restart {n}"
            print(
                f"{what:<11} {took[0] * 1000:8.0f} ms   {statistics.median(rest) * 1000:8.0f} ms"
                f"   {max(rest) * 1000:5.0f} ms"
            )


if __name__ == "__main__":
    main()
