"""How fast a player's profile (history page) and a leaderboard answer in a large store.

Fills a fresh store with ``--games`` finished games (default 100,000) of 2 to 4 seats among
``--players`` accounts, each game with its rooms, seats, game row and per-seat results as the
server writes them, and rated games' ratings and rating history; then times, over ``--runs``
repetitions each, what ``GET /api/players/{name}`` computes (stats per game type, the recent
games with everyone seated, ratings, the rating history) for the busiest player and for an
ordinary one, and ``GET /api/leaderboard/{game}``. The queries are those of the server
(:class:`cardtable.web.accounts.Accounts`), on the store's own engine; HTTP is left out.

Measured on the 2-core dev machine (100,000 games, 2,000 players, 50 runs each; the goal is a
history page within 50 ms):

==========================================  =================  =================
query                                       SQLite median/p95  PostgreSQL med/p95
==========================================  =================  =================
profile of the busiest player (10,000 games)  19.1 / 27.3 ms     33.8 / 41.0 ms
profile of an ordinary player (143 games)     17.6 / 27.5 ms     15.1 / 20.9 ms
leaderboard of kaboo (top 100)                 5.2 / 7.5 ms       9.9 / 11.0 ms
==========================================  =================  =================

Run:

    .venv/bin/python benchmarks/player_history.py [--games 100000] [--players 2000]
        [--db postgresql+asyncpg://…]   (default: a SQLite file in a temporary folder)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from cardtable.store import Store
from cardtable.store.db import games, players, rating_history, ratings, results, rooms, seats
from cardtable.store.players import player_subject
from cardtable.web.accounts import MIN_RATED_GAMES, Accounts
from cardtable.web.clock import LoopClock

GAME_TYPES = ("kaboo", "cabo", "cabo-german", "gabo", "qute")
CHUNK = 2000


async def fill(store: Store, n_games: int, n_players: int, seed: int) -> tuple[int, int]:
    """Store the games; the busiest player's id and an ordinary one's."""
    rng = random.Random(seed)
    now = time.time() - n_games * 60
    async with store.engine.begin() as conn:
        await conn.execute(
            insert(players),
            [
                {
                    "id": i,
                    "name": f"player{i}",
                    "name_key": f"player{i}",
                    "password_hash": "x",
                    "created": now,
                }
                for i in range(1, n_players + 1)
            ],
        )
    # player 1 is at one game in ten; the others are drawn evenly
    busiest, ordinary = 1, n_players // 2
    mu: dict[tuple[int, str], tuple[float, int]] = {}
    for start in range(0, n_games, CHUNK):
        room_rows: list[dict[str, Any]] = []
        seat_rows: list[dict[str, Any]] = []
        game_rows: list[dict[str, Any]] = []
        result_rows: list[dict[str, Any]] = []
        history_rows: list[dict[str, Any]] = []
        for g in range(start, min(start + CHUNK, n_games)):
            room = f"b{g:07d}"
            game = GAME_TYPES[g % len(GAME_TYPES)]
            n = rng.randint(2, 4)
            seated = rng.sample(range(2, n_players + 1), n)
            if g % 10 == 0:
                seated[0] = busiest
            at = now + g * 60
            rated = g % 2 == 0
            totals = [rng.randint(0, 60) for _ in range(n)]
            best = min(totals)
            room_rows.append(
                {
                    "id": room,
                    "game": game,
                    "players": n,
                    "options": {},
                    "public": True,
                    "autostart": True,
                    "created": at,
                    "rated": rated,
                }
            )
            game_rows.append(
                {
                    "room_id": room,
                    "game_no": 1,
                    "seed": g,
                    "base_version": 1,
                    "started": at,
                    "finished": at + 50,
                    "result": {"totals": totals},
                }
            )
            for seat, pid in enumerate(seated):
                seat_rows.append(
                    {
                        "room_id": room,
                        "seat": seat,
                        "type": "human",
                        "level": None,
                        "name": f"player{pid}",
                        "token_hash": f"{g}-{seat}",
                        "memory_aid": False,
                        "player_id": pid,
                    }
                )
                place = 1 + sum(1 for t in totals if t < totals[seat])
                result_rows.append(
                    {
                        "room_id": room,
                        "game_no": 1,
                        "seat": seat,
                        "player_id": pid,
                        "game": game,
                        "finished": at + 50,
                        "score": totals[seat],
                        "rounds": 3,
                        "place": place,
                        "won": totals[seat] == best,
                        "rated": rated,
                    }
                )
                if rated:
                    old, count = mu.get((pid, game), (25.0, 0))
                    new = old + (1.0 if place == 1 else -0.5) * rng.random()
                    mu[pid, game] = (new, count + 1)
                    history_rows.append(
                        {
                            "subject": player_subject(pid),
                            "game": game,
                            "at": at + 50,
                            "room_id": room,
                            "game_no": 1,
                            "mu": new,
                            "sigma": max(1.0, 8.3 - 0.3 * count),
                        }
                    )
        async with store.engine.begin() as conn:
            await conn.execute(insert(rooms), room_rows)
            await conn.execute(insert(seats), seat_rows)
            await conn.execute(insert(games), game_rows)
            await conn.execute(insert(results), result_rows)
            if history_rows:
                await conn.execute(insert(rating_history), history_rows)
    async with store.engine.begin() as conn:
        rows = [
            {
                "subject": player_subject(pid),
                "game": game,
                "mu": m,
                "sigma": max(1.0, 8.3 - 0.3 * c),
                "games": c,
                "updated": now,
            }
            for (pid, game), (m, c) in mu.items()
        ]
        for i in range(0, len(rows), CHUNK):
            await conn.execute(insert(ratings), rows[i : i + CHUNK])
    return busiest, ordinary


async def timed(runs: int, call: Any) -> list[float]:
    """Milliseconds of each of ``runs`` calls (after one to warm the caches)."""
    await call()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        await call()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def line(label: str, ms: list[float]) -> str:
    ordered = sorted(ms)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"{label:<44} median {statistics.median(ms):7.2f} ms   p95 {p95:7.2f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--db", default=None, help="a store URL (default: a SQLite file)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        store = Store(url)
        await store.open()
        try:
            t0 = time.perf_counter()
            busiest, ordinary = await fill(store, args.games, args.players, args.seed)
            print(
                f"store: {store.engine.dialect.name}, {args.games:,} games, "
                f"{args.players:,} players, filled in {time.perf_counter() - t0:.1f} s"
            )
            accounts = Accounts(store, LoopClock())
            for label, pid in (("busiest", busiest), ("ordinary", ordinary)):
                player = await accounts.players.by_id(pid)
                assert player is not None
                played = sum(s["played"] for s in (await accounts.players.stats(pid)).values())
                ms = await timed(args.runs, lambda p=player: accounts.profile(p))
                print(line(f"profile of the {label} player ({played:,} games)", ms))
            for game in ("kaboo", "qute"):
                ms = await timed(
                    args.runs,
                    lambda g=game: accounts.players.leaderboard(g, MIN_RATED_GAMES),
                )
                print(line(f"leaderboard of {game} (top 100)", ms))
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
