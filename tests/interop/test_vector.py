"""``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` gives a real Gymnasium
``VectorEnv`` over the batched engine for every Cabo-family variant: its spaces hold what it
returns, a seeded reset deals ``new_game``'s games, masks are the learner's legal actions,
finished games pay the learner's share and are replaced in the same step, and bad input is
refused without changing anything."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv

import cardtable.interop.gymnasium  # noqa: F401  (registers the ids)
from cardtable import new_game
from cardtable.encoding import encoding, win_rewards
from cardtable.interop.gymnasium import gym_id
from cardtable.interop.vector import CardtableVectorEnv

FAMILY = ["cabo", "cabo-german", "gabo", "kaboo"]


def _make(variant: str, num: int, **kwargs: object) -> CardtableVectorEnv:
    envs = gymnasium.make_vec(
        gym_id(variant), num_envs=num, vectorization_mode="vector_entry_point", **kwargs
    )
    assert isinstance(envs, VectorEnv) and isinstance(envs, CardtableVectorEnv)
    return envs


def _legal_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.nonzero(row)[0]) for row in mask])


@pytest.mark.parametrize("variant", FAMILY)
def test_every_family_variant_makes_a_vector_env(variant: str) -> None:
    envs = _make(variant, 6, players=3, learner=1, opponents="random")
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    enc = encoding(variant, 3)
    assert envs.single_action_space == gymnasium.spaces.Discrete(enc.size)
    obs, info = envs.reset(seed=40)
    assert obs.shape == (6, enc.observation_size) and obs.dtype == np.float32
    assert obs in envs.observation_space
    mask = info["action_mask"]
    assert mask.shape == (6, enc.size) and mask.dtype == np.int8
    again, _ = envs.reset(seed=40)
    assert np.array_equal(obs, again)  # a seeded reset is reproducible
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(60):
        assert (envs.batch.actor == 1).all()  # the learner acts in every game
        acts = _legal_random(info["action_mask"], rng)
        assert acts in envs.action_space
        obs, rewards, terminated, truncated, info = envs.step(acts)
        assert obs in envs.observation_space
        assert rewards.shape == (6,) and rewards.dtype == np.float32
        assert (rewards[~terminated] == 0).all()
        for i in np.nonzero(terminated)[0]:
            winners = np.nonzero(info["winners"][i])[0].tolist()
            assert rewards[i] == pytest.approx(win_rewards(3, winners)[1])
        assert info["_totals"].tolist() == terminated.tolist()
        assert not truncated.any()
        ends += int(terminated.sum())
    assert ends > 0


def test_heuristic_opponents_beat_a_random_learner() -> None:
    envs = _make("kaboo", 64)  # heuristic opponents by default
    assert envs.opponents == "heuristic"
    _, info = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    total = ends = 0.0
    while ends < 300:
        _, rewards, terminated, _, info = envs.step(_legal_random(info["action_mask"], rng))
        total += float(rewards.sum())
        ends += int(terminated.sum())
    assert total / ends < -0.3  # the rules of thumb win most games against random play


def test_a_seeded_reset_deals_new_games_games() -> None:
    envs = _make("kaboo", 16)
    obs, info = envs.reset(seed=100)
    enc = encoding("kaboo", 2)
    matched = 0
    for i in range(16):
        ref = new_game("kaboo", players=2, seed=100 + i)
        if ref.actors == [0]:  # the learner opens: nothing was played before it
            assert np.array_equal(obs[i], enc.observe(ref.view(0)))
            assert np.nonzero(info["action_mask"][i])[0].tolist() == enc.legal(ref, 0)
            matched += 1
    assert matched > 3


def test_memory_off_observes_the_table_as_a_person_sees_it() -> None:
    envs = _make("gabo", 4, players=2, memory=False)
    obs, _ = envs.reset(seed=5)
    enc = encoding("gabo", 2)
    for i in range(4):
        ref = new_game("gabo", players=2, seed=5 + i)
        if ref.actors and ref.actors[0] == 0:
            assert np.array_equal(obs[i], enc.observe(ref.view(0, memory=False)))


def test_bad_actions_are_refused_and_change_nothing() -> None:
    envs = _make("cabo", 4)
    obs, info = envs.reset(seed=1)
    illegal = np.argmin(info["action_mask"], axis=1)
    for bad in (illegal, np.zeros(3, dtype=np.int64), np.full(4, 0.5)):
        with pytest.raises(ValueError):
            envs.step(bad)
    assert np.array_equal(envs._observe(), obs)
    assert np.array_equal(envs.action_masks().astype(np.int8), info["action_mask"])


def test_a_step_before_reset_is_refused() -> None:
    envs = _make("kaboo", 2)
    with pytest.raises(gymnasium.error.ResetNeeded):
        envs.step(np.zeros(2, dtype=np.int64))


def test_a_narrower_table_sizes_the_spaces_and_the_games() -> None:
    envs = _make("gabo", 3, players=3, max_positions=6)
    enc = encoding("gabo", 3, 6)
    assert envs.single_action_space.n == enc.size
    obs, info = envs.reset(seed=2)
    assert obs.shape == (3, enc.observation_size)
    assert info["action_mask"].shape == (3, enc.size)


def test_what_it_cannot_do_is_refused() -> None:
    with pytest.raises(ValueError, match="heuristic"):
        _make("kaboo", 2, opponents="ismcts")
    with pytest.raises(ValueError, match="learner"):
        _make("kaboo", 2, learner=2)
    with pytest.raises(ValueError, match="one seed"):
        _make("kaboo", 2).reset(seed=[1, 2])
    with pytest.raises(gymnasium.error.Error):
        gymnasium.make_vec(gym_id("qute"), num_envs=2, vectorization_mode="vector_entry_point")
