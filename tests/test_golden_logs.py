"""The same seeds give the same games, before and after any reorganisation of the engines.

``tests/data/golden_logs.json`` holds games of every variant, at its smallest and largest
table, one round and a whole match, played by seeded agents (random and rule-of-thumb): each
game's log (seed, options, every action) and its final totals and winners. Replaying the same
agents with the same seeds must give exactly those actions and those results. Regenerate the
file only for a deliberate rule change: ``CARDTABLE_WRITE_GOLDEN=1 pytest
tests/test_golden_logs.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from cardtable import new_game, replay, variants
from cardtable.agents import get
from cardtable.seat import Seat

DATA = Path(__file__).parent / "data" / "golden_logs.json"
SEEDS = (1, 2)


def cases() -> list[tuple[str, int, str, int, bool]]:
    """(variant, players, agent, seed, whole match) for every stored game."""
    out = []
    for name in sorted(variants.names()):
        v = variants.get(name)
        for players in sorted({v.min_players, v.max_players}):
            for agent in ("random", "heuristic"):
                for seed in SEEDS:
                    out.append((name, players, agent, seed, False))
        out.append((name, v.min_players, "heuristic", 3, True))
    return out


def play(variant: str, players: int, agent: str, seed: int, match: bool) -> dict[str, Any]:
    """One game by seeded agents: its log, totals and winners."""
    options: dict[str, Any] = {} if match else {"target": None}
    g = new_game(variant, players=players, seed=seed, options=options)
    bots = [get(agent, seed=seed * 10 + s) for s in range(players)]
    while not g.over:
        seat = g.actors[0]
        g.play(seat, bots[seat].act(Seat(g, seat)))
    result = g.result
    assert result is not None
    return {"log": g.log, "totals": list(result.totals), "winners": list(result.winners)}


def key(case: tuple[str, int, str, int, bool]) -> str:
    """The game's key in the data file."""
    variant, players, agent, seed, match = case
    return f"{variant}/{players}p/{agent}/seed{seed}" + ("/match" if match else "")


def test_write_or_compare() -> None:
    """Every stored game is played again exactly as stored."""
    games = {key(c): play(*c) for c in cases()}
    if os.environ.get("CARDTABLE_WRITE_GOLDEN"):
        DATA.write_text(json.dumps(games, separators=(",", ":"), sort_keys=True) + "\n")
    stored = json.loads(DATA.read_text())
    assert sorted(stored) == sorted(games)
    for k, game in games.items():
        assert json.loads(json.dumps(game)) == stored[k], k


@pytest.mark.parametrize("variant", sorted(variants.names()))
def test_stored_logs_replay_to_the_stored_results(variant: str) -> None:
    """The stored logs alone (no agents) replay to the stored totals and winners."""
    stored = json.loads(DATA.read_text())
    for k, game in stored.items():
        if not k.startswith(variant + "/"):
            continue
        g = replay(game["log"])
        assert g.over and g.result is not None
        assert list(g.result.totals) == game["totals"] and list(g.result.winners) == game["winners"]
