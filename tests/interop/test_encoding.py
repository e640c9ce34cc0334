"""The integer action tables and observation vectors shared by every research adapter."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from cardtable import new_game, variants
from cardtable.encoding import DEFAULT_MAX_POSITIONS, describe, encoding, win_rewards
from cardtable.notation import Action

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    ("cabo", 2),
    ("cabo", 5),
    ("cabo-german", 2),
    ("cabo-german", 4),
    ("gabo", 2),
    ("gabo", 3),
    ("gabo", 7),
    ("kaboo", 2),
    ("kaboo", 4),
    ("qute", 2),
    ("qute", 4),
]


def _random_states(variant: str, players: int, games: int, steps: int = 400):  # type: ignore[no-untyped-def]
    """(game, seat) at every decision of a few random games (full matches)."""
    for seed in range(games):
        rng = random.Random(seed)
        g = new_game(variant, players=players, seed=seed)
        enc = encoding(variant, players)
        for _ in range(steps):
            if g.over:
                break
            seat = g.actors[0]
            yield g, seat
            g.play(seat, enc.decode(seat, rng.choice(enc.legal(g, seat))))


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_every_legal_action_round_trips(variant: str, players: int) -> None:
    enc = encoding(variant, players)
    cap = enc.max_positions
    seen = set()
    for g, seat in _random_states(variant, players, games=6):
        legal = enc.legal(g, seat)
        assert legal == sorted(set(legal)) and legal, "legal integers are sorted and non-empty"
        for act in g.legal_actions(seat):
            i = enc.encode(seat, act)
            if i is None:
                # only actions naming a position beyond the cap lack an integer
                positions = [a if isinstance(a, int) else a[1] for a in act.args]
                assert enc.family and any(p >= cap for p in positions if isinstance(p, int))
                continue
            assert enc.decode(seat, i) == act
            assert g.check(seat, enc.decode(seat, i)) == act  # the engine accepts the decoding
            seen.add(i)
    assert len(seen) > 5


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_table_rows_are_distinct_and_decodable_for_every_seat(variant: str, players: int) -> None:
    enc = encoding(variant, players)
    table = enc.action_table()
    assert [i for i, _ in table] == list(range(enc.size))
    assert len({text for _, text in table}) == enc.size
    for seat in range(players):
        decoded = [enc.decode(seat, i) for i in range(enc.size)]
        assert len(set(decoded)) == enc.size
        assert all(enc.encode(seat, a) == i for i, a in enumerate(decoded))
    with pytest.raises(ValueError, match="outside"):
        enc.decode(0, enc.size)
    with pytest.raises(ValueError, match="outside"):
        enc.decode(0, -1)


def test_relative_addresses_name_the_same_seat_for_everyone() -> None:
    enc = encoding("kaboo", 3)
    spy_next = next(i for i, t in enc.action_table() if t == "spy +1.2")
    assert enc.decode(0, spy_next) == Action("spy", ((1, 2),))
    assert enc.decode(2, spy_next) == Action("spy", ((0, 2),))
    g = encoding("gabo", 3)
    i = next(i for i, t in g.action_table() if t == "exchange +1.0 +2.3")
    assert g.decode(1, i) == Action("exchange", ((0, 3), (2, 0)))


def test_table_sizes_follow_the_documented_layout() -> None:
    # kaboo, two players, four positions: 6 words + 4 peek + 4 replace + 4 spy + 16 + 16
    assert encoding("kaboo", 2).size == 6 + 4 + 4 + 4 + 16 + 16
    # qute: 11 words + 9 ranks x 4 first cards x (1 + 3 last cards x 4 middle choices)
    assert encoding("qute", 3).size == 11 + 9 * 4 * (1 + 3 * 4)
    cap = DEFAULT_MAX_POSITIONS["cabo"]
    claims = sum(len(list(__import__("itertools").combinations(range(cap), k))) for k in (2, 3, 4))
    # cabo: 5 words + peek + replace + claims + spy + exchange own<->other (no look, no drops)
    assert encoding("cabo", 2).size == 5 + cap + cap + claims + cap + cap * cap
    with pytest.raises(ValueError, match="Cabo family"):
        encoding("qute", 2, 4)
    with pytest.raises(ValueError, match="max_positions"):
        encoding("gabo", 3, 0)
    with pytest.raises(ValueError, match="played by"):
        encoding("kaboo", 9)


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_observation_reads_only_what_the_seat_knows(variant: str, players: int) -> None:
    enc = encoding(variant, players)
    checked = 0
    for g, seat in _random_states(variant, players, games=3, steps=120):
        for p in {seat, (seat + 1) % players}:
            vec = enc.observe(g.view(p))
            assert vec.shape == (enc.observation_size,) and vec.dtype == np.float32
            assert np.isfinite(vec).all() and vec.any()
            for s in (1, 2):
                other = enc.observe(g.determinize(p, s).view(p))
                assert np.array_equal(vec, other), f"seat {p}'s vector moved with a re-deal"
            checked += 1
    assert checked > 20


def test_observation_pieces_mean_what_they_say() -> None:
    g = new_game("kaboo", players=2, seed=3, options={"first": 0})
    enc = encoding("kaboo", 2)
    view = g.view(0)
    d = enc.split(enc.observe(view))
    assert d["phase"][1] == 1  # turn
    assert d["turn"][0] == 1 and d["actors"].tolist() == [1, 0]
    # kaboo: each seat starts knowing its bottom row (positions 2 and 3)
    assert d["cards"][0, :, 1].tolist() == [0, 0, 1, 1]
    assert d["cards"][1, :, 1].tolist() == [0, 0, 0, 0]
    code = view["hands"][0][2]["card"]
    assert d["cards"][0, 2, 4 + enc.code_index[code]] == 1
    assert d["deck"][0] == pytest.approx(view["deck"] / 52)
    g.play(0, "draw deck")
    d = enc.split(enc.observe(g.view(0)))
    assert d["drawn"][0] == 1 and d["drawn"][1] == 1
    assert d["drawn"][3 + enc.code_index[g.view(0)["drawn"]]] == 1
    d1 = enc.split(enc.observe(g.view(1)))
    assert d1["drawn"][0] == 1 and not d1["drawn"][3:].any()  # seat 1 does not see the card


@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_win_rewards_are_zero_sum(players: int) -> None:
    for winners in ([0], [players - 1], [0, 1], list(range(players))):
        r = win_rewards(players, winners)
        assert sum(r) == pytest.approx(0)
        assert max(r) <= 1 and min(r) >= -1 / (players - 1) - 1e-9
    assert win_rewards(players, [0])[0] == pytest.approx(1)
    assert win_rewards(2, [0, 1]) == [0, 0]


def test_docs_print_the_kaboo_table_as_the_code_builds_it() -> None:
    docs = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8")
    assert describe("kaboo", 2) in docs
    for name in variants.names():
        assert name in docs
