"""Stores made before a server starts, through the project's own store API
(:class:`cardtable.store.Store`: ``create_room``, ``take_seat``, ``start_game``, ``append``,
``finish_game`` on an opened store), never raw SQL, so the schema stays the store's business.

- :func:`write_finished_game`: one all-AI room whose only game is over, thousands of moves
  long, played in this process with the engine and the level's agents (the server's replay
  endpoint rebuilds it from the seed and the actions, as it does for any game).
- :func:`fill_abandoned`: thousands of abandoned rooms — two people's seats taken, a game
  started and a few moves played, never finished — written concurrently so the store's group
  commit bundles them.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any

from .common import progress

__all__ = ["FinishedGame", "fill_abandoned", "play_game", "write_finished_game"]


@dataclass(frozen=True)
class FinishedGame:
    """A finished game written to a store."""

    room: str
    """Its room."""
    game_no: int
    """Its number (1)."""
    moves: int
    """Its number of actions."""
    variant: str
    """The game."""
    seats: tuple[str, ...]
    """The AI level of each seat."""
    options: dict[str, Any]
    """The resolved options."""


def play_game(
    variant: str, levels: list[str], options: dict[str, Any], seed: int
) -> tuple[dict[str, Any], list[tuple[int, str]], Any]:
    """Play a whole game with the levels' agents (each seeded as the server seeds it);
    returns the resolved options, the actions and the result."""
    from cardtable import variants
    from cardtable.agents import get as get_agent
    from cardtable.seat import Seat
    from cardtable.web.rooms import ai_seed

    players = len(levels)
    resolved = variants.new_game(variant, players=players, seed=0, options=options).options
    game = variants.new_game(variant, players=players, seed=seed, options=resolved)
    agents = {s: get_agent(level, seed=ai_seed(seed, s)) for s, level in enumerate(levels)}
    actions: list[tuple[int, str]] = []
    while not game.over:
        seat = game.actors[0]
        action = str(agents[seat].act(Seat(game, seat)))
        game.play(seat, action)
        actions.append((seat, action))
    result = game.result
    assert result is not None
    return dict(resolved), actions, result.to_dict()


async def write_finished_game(
    db_url: str, variant: str, levels: list[str], options: dict[str, Any], seed: int = 7
) -> FinishedGame:
    """Play a game in this process and store it as the finished first game of a new all-AI
    room (private); returns where it is."""
    from cardtable.store import GameRow, RoomRow, SeatRow, Store
    from cardtable.web.protocol import ai_seat_label

    t0 = time.monotonic()
    resolved, actions, result = play_game(variant, levels, options, seed)
    progress(
        f"replay game: {variant}, {len(levels)} seats {'/'.join(levels)}, "
        f"{len(actions):,} moves played in {time.monotonic() - t0:.1f} s; storing it"
    )
    room_id = secrets.token_urlsafe(6)
    now = time.time()
    store = Store(db_url)
    await store.open()
    try:
        seats = [SeatRow(i, "ai", lvl, ai_seat_label(lvl)) for i, lvl in enumerate(levels)]
        await store.create_room(
            RoomRow(room_id, variant, len(levels), resolved, False, True, now - 3600, seats)
        )
        await store.start_game(GameRow(room_id, 1, seed, 1, now - 3600))
        await asyncio.gather(
            *(
                store.append(room_id, 1, i + 1, seat, action)
                for i, (seat, action) in enumerate(actions)
            )
        )
        await store.finish_game(room_id, 1, result)
    finally:
        await store.close()
    return FinishedGame(room_id, 1, len(actions), variant, tuple(levels), resolved)


def _template(variant: str, seed: int, moves: int) -> tuple[int, list[tuple[int, str]]]:
    """A two-seat game dealt from ``seed`` with ``moves`` random legal moves played (fewer if
    it would end)."""
    from cardtable import variants

    game = variants.new_game(variant, players=2, seed=seed)
    rng = random.Random(seed)
    actions: list[tuple[int, str]] = []
    for _ in range(moves):
        seat = game.actors[0]
        legal = [str(a) for a in game.legal_actions(seat)]
        action = rng.choice(legal)
        probe = game.clone()
        probe.play(seat, action)
        if probe.over:
            break
        game.play(seat, action)
        actions.append((seat, action))
    return seed, actions


async def fill_abandoned(
    db_url: str,
    rooms: int,
    *,
    variant: str = "kaboo",
    moves: tuple[int, int] = (2, 6),
    parallel: int = 400,
    templates: int = 64,
) -> float:
    """Write ``rooms`` abandoned public rooms of two people (both seats taken, game 1 started,
    a few moves each, never finished, made in the last two days: a few in the last hour, which
    a lobby may list) through the store API; returns the seconds it took.

    The games come from ``templates`` deals (seed and moves) shared among the rooms: the store
    does not care that two rooms had the same deal, and it is quicker than a deal per room."""
    from cardtable import variants
    from cardtable.store import GameRow, RoomRow, SeatRow, Store
    from cardtable.web.rooms import hash_token

    t0 = time.monotonic()
    rng = random.Random(1)
    deals = [
        _template(variant, rng.randrange(1 << 62), rng.randint(*moves))
        for _ in range(max(1, templates))
    ]
    resolved = dict(variants.new_game(variant, players=2, seed=0).options)
    store = Store(db_url)
    await store.open()
    gate = asyncio.Semaphore(parallel)
    done = 0
    now = time.time()

    async def one(index: int) -> None:
        nonlocal done
        async with gate:
            room_id = secrets.token_urlsafe(6)
            seed, actions = deals[index % len(deals)]
            created = now - rng.uniform(60.0, 2 * 86400.0)  # some within the lobby's hour
            first = SeatRow(0, "human", None, "Player 1", hash_token(secrets.token_urlsafe(24)))
            row = RoomRow(
                room_id, variant, 2, resolved, True, True, created, [first, SeatRow(1, "human")]
            )
            await store.create_room(row)
            await store.take_seat(room_id, 1, "Player 2", hash_token(secrets.token_urlsafe(24)))
            await store.start_game(GameRow(room_id, 1, seed, 1, created + 5.0))
            await asyncio.gather(
                *(
                    store.append(room_id, 1, seq, seat, action)
                    for seq, (seat, action) in enumerate(actions, 1)
                )
            )
            done += 1
            if done % 2000 == 0:
                progress(f"  {done:,} of {rooms:,} abandoned rooms written")

    try:
        await asyncio.gather(*(one(i) for i in range(rooms)))
    finally:
        await store.close()
    return time.monotonic() - t0
