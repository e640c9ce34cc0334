"""The server under test (``python -m cardtable serve`` in a subprocess) and its rooms.

The runner and the request helper are the tests' own (``tests/webserver.py``), so the repository
root goes on ``sys.path`` first.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root
from tests.webserver import Server, http  # the runner and request helper the tests use

__all__ = [
    "ServerProcess",
    "TableSpec",
    "create_ai_tables",
    "create_tables",
    "http_json",
]


def http_json(method: str, url: str, body: Any = None) -> tuple[int, Any]:
    """One HTTP request with a JSON body (the tests' helper, with a load-sized timeout)."""
    return http(method, url, body, timeout=60.0)


# -- the server under test -------------------------------------------------------------------
IDLE_TIME = 86_400.0
"""The server's ``--idle-time`` in a run: a day. A room nobody is connected to is paused after
the idle time (120 s by default), and the AI tables have nobody connected: with the default,
they stopped two minutes after they were made, and a long run measured no AI moves."""


class ServerProcess(Server):
    """``python -m cardtable serve`` in a subprocess (the tests' runner), AI delay 0, rooms
    never paused during a run (:data:`IDLE_TIME`)."""

    def __init__(
        self,
        workdir: Path,
        db_url: str,
        *,
        peek_window: float,
        snap_window: float,
        ai_workers: int | None = None,
        idle_time: float = IDLE_TIME,
    ) -> None:
        super().__init__(
            workdir,
            db_url=db_url,
            ai_delay=0.0,
            peek_window=peek_window,
            snap_window=snap_window,
            ai_workers=ai_workers,
            extra_args=["--idle-time", str(idle_time)],
        )

    @property
    def pid(self) -> int | None:
        """Process id once started."""
        return self.proc.pid if self.proc is not None else None

    def start(self, timeout: float = 60.0) -> None:
        """Start and wait (longer than the tests do: the machine may be loaded)."""
        super().start(timeout)

    def log(self) -> str:
        """What the server printed (the last 4,000 characters)."""
        return super().log()[-4000:]


# -- rooms -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableSpec:
    """One table: its room and the token of every seat (index = seat)."""

    index: int
    """Table number in this run (seeds its bots)."""
    room: str
    """Room id."""
    tokens: tuple[str, ...]
    """Seat tokens."""


def create_tables(
    base_url: str, n: int, variant: str, seats: int, options: dict[str, Any], parallel: int
) -> list[TableSpec]:
    """Create ``n`` rooms with every seat a person and take every seat, ``parallel`` at a time."""

    def one(index: int) -> TableSpec:
        body = {
            "game": variant,
            "seats": [{"type": "human"}] * seats,
            "options": options,
            "name": f"bot{index}-0",
            "public": False,
        }
        status, answer = http_json("POST", base_url + "/api/rooms", body)
        if status != 201:
            raise RuntimeError(f"POST /api/rooms answered {status}: {answer}")
        room = answer["room"]
        tokens = [answer["token"]]
        for seat in range(1, seats):
            url = f"{base_url}/api/rooms/{room}/join"
            status, joined = http_json("POST", url, {"name": f"bot{index}-{seat}"})
            if status != 200:
                raise RuntimeError(f"POST {url} answered {status}: {joined}")
            if joined["seat"] != seat:
                raise RuntimeError(f"room {room}: expected seat {seat}, got {joined['seat']}")
            tokens.append(joined["token"])
        return TableSpec(index, room, tuple(tokens))

    with ThreadPoolExecutor(max_workers=parallel) as pool:
        return list(pool.map(one, range(n)))


def create_ai_tables(
    base_url: str,
    n: int,
    level: str,
    variant: str,
    seats: int,
    options: dict[str, Any],
    parallel: int,
) -> list[str]:
    """Create ``n`` rooms where every seat is an AI of ``level``; they start at once."""

    def one(index: int) -> str:
        body = {
            "game": variant,
            "seats": [{"type": "ai", "level": level}] * seats,
            "options": options,
            "public": False,
        }
        status, answer = http_json("POST", base_url + "/api/rooms", body)
        if status != 201:
            raise RuntimeError(f"POST /api/rooms (AI table) answered {status}: {answer}")
        room: str = answer["room"]
        return room

    with ThreadPoolExecutor(max_workers=parallel) as pool:
        return list(pool.map(one, range(n)))
