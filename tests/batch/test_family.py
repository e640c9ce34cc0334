"""The batched engine's own contract: bad input changes nothing, part of a batch can be played,
abandoned games are dealt again from the next seed, hands outgrow their first positions, a
scoring hook without an array twin is asked game by game, and hooks it cannot play are refused."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest

from cardtable import new_game
from cardtable.batch import FamilyBatch
from cardtable.batch.agents import random_actions
from cardtable.batch.observe import observe
from cardtable.games.family import add_variant, remove_variant
from cardtable.games.family.hooks import DeckEnd, Drops
from cardtable.games.family.rulesets import KABOO
from cardtable.games.family.scoring import RoundEnd, Scoring

from .parity import play


def _state(batch: FamilyBatch) -> list[np.ndarray]:
    return [batch.hands.copy(), batch.known.copy(), batch.phase.copy(), batch.deck_n.copy()]


def _same(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_a_bad_step_is_refused_and_changes_nothing() -> None:
    batch = FamilyBatch("kaboo", 2, 8, seed=3)
    before = _state(batch)
    mask = batch.legal_mask()
    illegal = np.argmin(mask, axis=1)  # a row each game's actor may not play
    for bad in (
        illegal,
        np.full(8, mask.shape[1]),  # out of range
        np.full(8, -1),
        np.zeros(7, dtype=np.int64),  # wrong length
        np.zeros(8, dtype=np.float64),  # not integers
    ):
        with pytest.raises(ValueError):
            batch.step(bad)
        assert _same(before, _state(batch))
    with pytest.raises(ValueError, match="booleans"):
        batch.step(random_actions(mask, np.random.default_rng(0)), where=np.zeros(8))


def test_only_the_games_chosen_are_played() -> None:
    batch = FamilyBatch("gabo", 3, 6, seed=1)
    rng = np.random.default_rng(1)
    where = np.array([True, False, True, False, True, False])
    before = _state(batch)
    acts = random_actions(batch.legal_mask(), rng)
    acts[~where] = 10_000  # ignored
    batch.step(acts, where=where)
    after = _state(batch)
    for x, y in zip(before, after, strict=True):
        assert np.array_equal(x[~where], y[~where])
    for i in np.nonzero(where)[0]:  # each game played changed (the peek it made, at least)
        assert any(not np.array_equal(x[i], y[i]) for x, y in zip(before, after, strict=True))


def test_a_restarted_slot_deals_the_next_seed() -> None:
    batch = FamilyBatch("cabo", 2, 4, seed=10)
    batch.restart(np.array([False, True, False, True]))
    assert batch.seeds.tolist() == [10, 14, 12, 15]
    enc = batch.encoding
    obs = observe(batch, np.zeros(4, dtype=np.int64))
    for i in range(4):
        ref = new_game("cabo", players=2, seed=int(batch.seeds[i]))
        assert np.array_equal(obs[i], enc.observe(ref.view(0)))


def test_hands_outgrow_their_first_positions_and_stay_exact() -> None:
    tally = play("cabo-german", 2, 24, 200, seed=7)
    assert tally.differences == []
    assert tally.positions > 8  # penalty cards made a hand longer than the encoding's cap


class _Doubled(Scoring):
    """A scoring rule with no array twin: every hand scores twice its sum."""

    name = "doubled"

    def scores(self, end: RoundEnd) -> list[int]:
        return [2 * s for s in end.sums]


@pytest.fixture
def doubled() -> Iterator[str]:
    add_variant(dataclasses.replace(KABOO, name="kaboo-doubled", scoring=_Doubled()))
    try:
        yield "kaboo-doubled"
    finally:
        remove_variant("kaboo-doubled")


def test_a_scoring_hook_without_a_twin_is_asked_game_by_game(doubled: str) -> None:
    tally = play(doubled, 3, 16, 120, seed=2)
    assert tally.differences == []
    assert tally.games > 10


class _Endless(DeckEnd):
    name = "endless"


@pytest.fixture
def endless() -> Iterator[str]:
    add_variant(
        dataclasses.replace(KABOO, name="kaboo-endless", deck_end=_Endless(), drops=Drops("custom"))
    )
    try:
        yield "kaboo-endless"
    finally:
        remove_variant("kaboo-endless")


def test_a_hook_without_a_twin_is_refused(endless: str) -> None:
    with pytest.raises(ValueError, match="no array twin of the deck end"):
        FamilyBatch(endless, 2, 4)


def test_other_games_and_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="not a game of the Cabo family"):
        FamilyBatch("qute", 2, 4)
    with pytest.raises(ValueError):
        FamilyBatch("kaboo", 7, 4)
    with pytest.raises(ValueError, match="num_games"):
        FamilyBatch("kaboo", 2, 0)
