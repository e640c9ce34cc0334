"""Reading the store back — the SQLite file, any SQLAlchemy URL, or the HTTP API — and
checking that every action a client saw acknowledged is stored."""

from __future__ import annotations

import asyncio
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from .clients import WorkerResult
from .server import http_json

__all__ = [
    "StoreCheck",
    "StoredGames",
    "check_store",
    "count_moves",
    "read_store_http",
    "read_store_sqlalchemy",
    "read_store_sqlite",
    "sqlite_path",
]


def sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite[+driver]:///PATH`` URL, else ``None``."""
    scheme, sep, rest = url.partition(":///")
    if not sep or not scheme.startswith("sqlite") or rest in ("", ":memory:"):
        return None
    return Path(rest.split("?", 1)[0])


def count_moves(db_url: str, rooms: set[str], since: float, until: float) -> int | None:
    """Actions of ``rooms`` the store holds with a time in ``[since, until)`` (Unix seconds);
    ``None`` when the store cannot be read from here."""
    if not rooms:
        return 0
    path = sqlite_path(db_url)
    if path is not None:
        if not path.exists():
            return None
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
        try:
            query = "SELECT room_id FROM actions WHERE at >= ? AND at < ?"
            return sum(1 for (room,) in db.execute(query, (since, until)) if room in rooms)
        finally:
            db.close()

    async def read() -> int:
        from sqlalchemy import bindparam, text
        from sqlalchemy.ext.asyncio import create_async_engine

        engine = create_async_engine(db_url)
        sql = text(
            "SELECT count(*) FROM actions WHERE room_id IN :ids AND at >= :t0 AND at < :t1"
        ).bindparams(bindparam("ids", expanding=True))
        try:
            async with engine.connect() as conn:
                found = await conn.execute(sql, {"ids": sorted(rooms), "t0": since, "t1": until})
                return int(found.scalar_one())
        finally:
            await engine.dispose()

    return asyncio.run(read())


@dataclass
class StoreCheck:
    """Acknowledged and unacknowledged actions compared with the store."""

    acked: int = 0
    """Actions the clients saw acknowledged."""
    lost: int = 0
    """Acknowledged but not in the store (or different there): must be 0."""
    examples: list[str] = field(default_factory=list)
    """A few lost actions, for the report."""
    unacked: int = 0
    """Sent but never answered."""
    unacked_stored: int = 0
    """Of those, how many the store holds."""
    stored: int = 0
    """Actions in the store for these rooms."""
    stored_not_acked: int = 0
    """Stored actions no client saw acknowledged (window defaults, unanswered sends)."""
    method: str = ""
    """How the store was read."""
    count_only: int = 0
    """Acknowledged actions of unfinished games checked by count only (HTTP mode)."""


StoredGames = dict[tuple[str, int], tuple[int, dict[int, tuple[int, str]], bool]]
"""(room, game_no) -> (base_version, {seq: (seat, action)}, complete listing)."""


def read_store_sqlite(path: Path, rooms: set[str]) -> StoredGames:
    """Every game and action of ``rooms`` read straight from the SQLite file."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        out: StoredGames = {}
        for room, game_no, base in db.execute("SELECT room_id, game_no, base_version FROM games"):
            if room in rooms:
                out[room, game_no] = (base, {}, True)
        query = "SELECT room_id, game_no, seq, seat, action FROM actions"
        for room, game_no, seq, seat, action in db.execute(query):
            if (room, game_no) in out:
                out[room, game_no][1][seq] = (seat, action)
        return out
    finally:
        db.close()


async def read_store_sqlalchemy(url: str, rooms: set[str]) -> StoredGames:
    """The same from any SQLAlchemy URL (e.g. PostgreSQL), with plain SQL."""
    from sqlalchemy import bindparam, text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    out: StoredGames = {}
    ids = sorted(rooms)
    games_sql = text(
        "SELECT room_id, game_no, base_version FROM games WHERE room_id IN :ids"
    ).bindparams(bindparam("ids", expanding=True))
    actions_sql = text(
        "SELECT room_id, game_no, seq, seat, action FROM actions WHERE room_id IN :ids"
    ).bindparams(bindparam("ids", expanding=True))
    try:
        async with engine.connect() as conn:
            for i in range(0, len(ids), 500):
                chunk = {"ids": ids[i : i + 500]}
                for room, game_no, base in await conn.execute(games_sql, chunk):
                    out[room, game_no] = (base, {}, True)
                for room, game_no, seq, seat, action in await conn.execute(actions_sql, chunk):
                    if (room, game_no) in out:
                        out[room, game_no][1][seq] = (seat, action)
    finally:
        await engine.dispose()
    return out


def read_store_http(base_url: str, rooms: set[str], parallel: int) -> tuple[StoredGames, int]:
    """The same through the HTTP API: counts per game, replays of finished games.

    Unfinished games only have a count (their replay is refused while in play): their listing
    is marked incomplete and holds placeholders for seqs 1..count. Returns the games and the
    number of stored actions."""

    def one_room(room: str) -> StoredGames:
        status, answer = http_json("GET", f"{base_url}/api/rooms/{room}/games")
        if status != 200:
            raise RuntimeError(f"GET games of {room}: {status} {answer}")
        out: StoredGames = {}
        base = 1  # the first game starts at version 1 (autostart); each start adds one
        for g in answer["games"]:
            n = g["actions"]
            if g["status"] == "finished" and n:
                url = f"{base_url}/api/rooms/{room}/games/{g['game_no']}"
                status, rep = http_json("GET", url)
                if status != 200:
                    raise RuntimeError(f"GET {url}: {status} {rep}")
                steps = {i + 1: (s["seat"], s["action"]) for i, s in enumerate(rep["steps"])}
                out[room, g["game_no"]] = (base, steps, True)
            else:
                complete = g["status"] == "finished"
                out[room, g["game_no"]] = (base, {i + 1: (-1, "") for i in range(n)}, complete)
            base += n + 1
        return out

    merged: StoredGames = {}
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        for part in pool.map(one_room, sorted(rooms)):
            merged.update(part)
    return merged, sum(len(v[1]) for v in merged.values())


def check_store(stored: StoredGames, results: list[WorkerResult], method: str) -> StoreCheck:
    """Compare what the clients saw acknowledged with what the store holds."""
    check = StoreCheck(method=method)
    seen: set[tuple[str, int, int]] = set()
    for res in results:
        for room, game_no, version, seat, action in res.acked:
            check.acked += 1
            game = stored.get((room, game_no))
            key_ok = False
            if game is not None:
                base, steps, complete = game
                seq = version - base
                seen.add((room, game_no, seq))
                got = steps.get(seq)
                if got is not None and not complete and got == (-1, ""):
                    check.count_only += 1
                    key_ok = True
                else:
                    key_ok = got == (seat, action)
            if not key_ok:
                check.lost += 1
                if len(check.examples) < 5:
                    check.examples.append(f"{room} game {game_no} v{version} seat {seat} {action}")
        for room, game_no, version, seat, action in res.unacked:
            check.unacked += 1
            game = stored.get((room, game_no))
            if game is None:
                continue
            base, steps, _ = game
            seq = version + 1 - base
            got = steps.get(seq)
            if got is not None and (got == (seat, action) or got == (-1, "")):
                check.unacked_stored += 1
    for (room, game_no), (_, steps, _) in stored.items():
        check.stored += len(steps)
        check.stored_not_acked += sum(1 for seq in steps if (room, game_no, seq) not in seen)
    return check
