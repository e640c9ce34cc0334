"""The Gymnasium adapter: Gymnasium's checker, full episodes against cardtable agents, seeding,
registration, opponents, errors, truncation and rendering."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import pickle
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.spaces import Discrete
from gymnasium.utils import env_checker, passive_env_checker

import cardtable
import cardtable.interop.gymnasium as cg
from cardtable import agents, variants
from cardtable.encoding import encoding, win_rewards
from cardtable.interop.gymnasium import GYM_IDS, CardtableGymEnv, LegalDiscrete, render_table
from cardtable.seat import Seat

VARIANTS = variants.names()

# Gymnasium's checker warns about every Box bound that is infinite. The observation vector
# holds unbounded counters (round number, match totals, reshuffles), so infinite bounds are the
# honest declaration; exactly these two messages are benign.
BENIGN_GYM_WARNINGS = (
    r".*A Box observation space minimum value is -infinity\. This is probably too low\.",
    r".*A Box observation space maximum value is infinity\. This is probably too high\.",
)


@contextmanager
def strict_warnings() -> Iterator[None]:
    """Every warning is an error, except the two benign ones above."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for pattern in BENIGN_GYM_WARNINGS:
            warnings.filterwarnings("ignore", message=pattern)
        yield


Step = tuple[bytes, bytes, float, bool, bool, dict[str, Any]]


def plain(info: dict[str, Any]) -> dict[str, Any]:
    """``info`` with arrays as bytes (comparable with ``==``)."""
    return {k: v.tobytes() if isinstance(v, np.ndarray) else v for k, v in info.items()}


def episode(e: CardtableGymEnv, seed: int, policy_seed: int = 0) -> list[Step]:
    """One whole episode, the learner picking uniformly among its legal integers."""
    obs, info = e.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    steps: list[Step] = [
        (obs["observation"].tobytes(), obs["action_mask"].tobytes(), 0.0, False, False, plain(info))
    ]
    while True:
        assert np.array_equal(obs["action_mask"], e.action_masks())
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = e.step(action)
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        steps.append(
            (
                obs["observation"].tobytes(),
                obs["action_mask"].tobytes(),
                reward,
                terminated,
                truncated,
                plain(info),
            )
        )
        if terminated or truncated:
            return steps


def seat_actions(game: cardtable.Game, seat: int) -> list[str]:
    """The logged actions of ``seat``, in order."""
    return [text for s, text in game.log["actions"] if s == seat]


# ---------------------------------------------------------------------------- Gymnasium's checker
@pytest.mark.parametrize("variant", ["cabo", "cabo-german", "gabo"])
def test_check_env_passes(variant: str) -> None:
    # check_env samples one action *before* a seeded reset and plays it *after* it; that is
    # sound here because the learner's first decisions are initial peeks, legal at any deal.
    # (For kaboo and qute see the next test.)
    with strict_warnings():
        e = gymnasium.make(GYM_IDS[variant])
        env_checker.check_env(e.unwrapped)
    assert e.unwrapped.spec is not None and e.unwrapped.spec.id == GYM_IDS[variant]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_check_of_check_env_passes(variant: str) -> None:
    # check_env's own sequence, except that the step-determinism check gets a state where
    # the action it samples is legal after its seeded reset (it samples before resetting, so
    # in kaboo and qute check_env as a whole would play a stale, illegal action).
    e = gymnasium.make(GYM_IDS[variant]).unwrapped
    assert isinstance(e, CardtableGymEnv)
    with strict_warnings():
        env_checker.check_action_space(e.action_space)
        env_checker.check_observation_space(e.observation_space)
        env_checker.check_space_limit(e.action_space, "action")
        env_checker.check_space_limit(e.observation_space, "observation")
        env_checker.check_reset_return_type(e)
        env_checker.check_reset_seed_determinism(e)
        env_checker.check_reset_options(e)
        passive_env_checker.env_reset_passive_checker(e)
        passive_env_checker.env_step_passive_checker(e, e.action_space.sample())
        e.reset(seed=123)
        env_checker.check_step_determinism(e, seed=123)
        env_checker.check_returned_data_not_reused(e)
        for mode in e.metadata["render_modes"]:
            other = gymnasium.make(GYM_IDS[variant], render_mode=mode)
            other.reset(seed=1)
            passive_env_checker.env_render_passive_checker(other.unwrapped)
            other.close()


# ---------------------------------------------------------------------------- episodes
@pytest.mark.parametrize("variant", VARIANTS)
def test_full_episode_against_heuristic_opponents(variant: str) -> None:
    players = variants.get(variant).default_players
    seat = players - 1
    e = CardtableGymEnv(variant, seat=seat, opponents="heuristic", seed=3)
    steps = episode(e, seed=17)
    game = e.game
    assert game is not None and game.over and game.result is not None
    final = steps[-1]
    assert final[3] is True and final[4] is False
    assert final[2] == pytest.approx(win_rewards(players, game.result.winners)[seat])
    assert final[5]["totals"] == list(game.result.totals)
    assert final[5]["winners"] == list(game.result.winners)
    assert not np.frombuffer(final[1], dtype=np.int8).any()
    assert all(s[2] == 0.0 and not s[3] and not s[4] for s in steps[:-1])
    assert all("winners" not in s[5] for s in steps[:-1])
    # the learner's seat played exactly the steps we sent, every other seat was an agent
    assert len(seat_actions(game, seat)) == len(steps) - 1
    assert len(game.log["actions"]) > len(steps) - 1
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)


def test_observation_is_the_learners_own_view() -> None:
    e = CardtableGymEnv("gabo", 4, seat=2, opponents="random")
    obs, _ = e.reset(seed=9)
    enc = encoding("gabo", 4)
    for _ in range(30):
        assert e.game is not None
        assert np.array_equal(obs["observation"], enc.observe(e.game.view(2)))
        assert np.array_equal(obs["action_mask"], enc.mask(enc.legal(e.game, 2)))
        assert e.game.actors[0] == 2  # control only returns when the learner must act
        obs, _, terminated, truncated, _ = e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        if terminated or truncated:
            break


def test_seeding_gives_identical_trajectories() -> None:
    first = episode(CardtableGymEnv("kaboo", 3, opponents="heuristic"), seed=5, policy_seed=1)
    again = episode(CardtableGymEnv("kaboo", 3, opponents="heuristic"), seed=5, policy_seed=1)
    assert first == again
    other = episode(CardtableGymEnv("kaboo", 3, opponents="heuristic"), seed=6, policy_seed=1)
    assert other != first
    e = CardtableGymEnv("qute", 2)
    e.reset(seed=44)
    assert e.game is not None and e.game.seed == 44  # the engine's own deal for that seed
    a, b = CardtableGymEnv("qute", 2), CardtableGymEnv("qute", 2)
    a.reset(seed=1)
    b.reset(seed=1)
    obs_a, _ = a.reset()
    obs_b, _ = b.reset()
    assert a.game is not None and b.game is not None and a.game.seed == b.game.seed != 1
    assert np.array_equal(obs_a["observation"], obs_b["observation"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_registered_ids_make_working_envs(variant: str) -> None:
    players = variants.get(variant).max_players
    e = gymnasium.make(GYM_IDS[variant], players=players, opponents="random")
    obs, info = e.reset(seed=2)
    assert e.unwrapped.players == players and e.unwrapped.variant == variant
    assert obs["observation"].shape == (encoding(variant, players).observation_size,)
    assert np.array_equal(info["action_mask"], obs["action_mask"]) and obs["action_mask"].any()
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    e.close()


def test_importing_the_module_again_keeps_the_registrations() -> None:
    # Run the module's code a second time in a fresh module object (as a re-import or reload
    # does), without replacing the module the other tests use.
    spec = importlib.util.spec_from_file_location("cardtable.interop._gym_again", cg.__file__)
    assert spec is not None and spec.loader is not None
    again = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(again)
    assert again.GYM_IDS == GYM_IDS
    assert set(GYM_IDS.values()) <= set(gymnasium.registry)
    kaboo = gymnasium.registry["cardtable/Kaboo-v0"]
    assert kaboo.kwargs == {"variant": "kaboo"}
    assert kaboo.entry_point == "cardtable.interop.gymnasium:CardtableGymEnv"
    e = gymnasium.make("cardtable/Kaboo-v0")
    assert isinstance(e.unwrapped, CardtableGymEnv)
    e.reset(seed=0)


# ---------------------------------------------------------------------------- opponents
def test_opponents_are_the_named_agents_with_their_seeds() -> None:
    names = ["random", "heuristic"]
    e = CardtableGymEnv("cabo", 3, seat=1, opponents=names, seed=40)
    steps = episode(e, seed=3)
    game = e.game
    assert game is not None and game.over
    replay = cardtable.new_game("cabo", 3, seed=3)
    by_seat = {0: agents.get("random", 40), 2: agents.get("heuristic", 42)}
    learner_moves = 0
    for seat, text in game.log["actions"]:
        if seat == 1:
            learner_moves += 1
        else:
            assert str(by_seat[seat].act(Seat(replay, seat))) == text
        replay.play(seat, text)
    assert learner_moves == len(steps) - 1


def test_opponent_level_changes_what_the_opponents_play() -> None:
    def opponent_moves(name: str) -> list[str]:
        e = CardtableGymEnv("kaboo", 2, seat=0, opponents=name, seed=1)
        episode(e, seed=12)
        assert e.game is not None
        return seat_actions(e.game, 1)

    assert opponent_moves("random") != opponent_moves("heuristic")
    assert opponent_moves("casual") == opponent_moves("casual")


# ---------------------------------------------------------------------------- bad input
def test_bad_actions_raise_value_error_and_change_nothing() -> None:
    e = CardtableGymEnv("qute", 3, opponents="random")
    obs, _ = e.reset(seed=8)
    assert e.game is not None
    size = e.encoding.size
    not_legal = int(np.flatnonzero(obs["action_mask"] == 0)[0])

    def snapshot() -> Any:
        assert e.game is not None
        return (
            [e.game.view(s) for s in range(3)],
            list(e.game.log["actions"]),
            e.action_masks().tobytes(),
        )

    before = snapshot()
    with pytest.raises(
        ValueError, match=rf"action {not_legal} \(.+\) is not legal for the learner"
    ):
        e.step(not_legal)
    for bad in (-1, size, 1.0, "0", None, False, np.array([1, 2])):
        with pytest.raises(ValueError, match="action"):
            e.step(bad)
        assert snapshot() == before
    e.step(np.int16(np.flatnonzero(obs["action_mask"])[0]))
    assert len(seat_actions(e.game, 0)) == 1


def test_step_before_reset_is_a_clear_error() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        CardtableGymEnv("kaboo").step(0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variant": "uno"},
        {"variant": "kaboo", "players": 9},
        {"variant": "kaboo", "seat": 2},
        {"variant": "kaboo", "seat": -1},
        {"variant": "kaboo", "opponents": "grandmaster"},
        {"variant": "kaboo", "players": 3, "opponents": ["random"]},
        {"variant": "kaboo", "opponents": [3]},
        {"variant": "kaboo", "options": {"first": "me"}},
        {"variant": "kaboo", "render_mode": "rgb_array"},
        {"variant": "kaboo", "seed": -4},
        {"variant": "qute", "max_positions": 3},
    ],
)
def test_bad_construction_raises_value_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        CardtableGymEnv(**kwargs)


# ---------------------------------------------------------------------------- truncation, redeal
def test_no_encodable_action_truncates_the_episode() -> None:
    # One position per seat in the table: after peeking at 0 the learner may only peek at
    # 1..3, which have no integer.
    e = CardtableGymEnv("cabo", 2, opponents="random", max_positions=1)
    obs, _ = e.reset(seed=0)
    peek0 = e.encoding.encode(0, cardtable.Action("peek", (0,)))
    assert np.flatnonzero(obs["action_mask"]).tolist() == [peek0]
    obs, reward, terminated, truncated, info = e.step(peek0)
    assert truncated and not terminated and reward == 0
    assert "max_positions=1" in info["truncated_reason"]
    assert not obs["action_mask"].any() and not info["action_mask"].any()
    assert e.game is not None and [str(a) for a in e.game.legal_actions(0)] == [
        "peek 1",
        "peek 2",
        "peek 3",
    ]
    with pytest.raises(RuntimeError, match="reset"):
        e.step(peek0)


def test_reset_redeals_when_the_learner_never_gets_a_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    finished = cardtable.new_game("kaboo", 2, seed=0)
    while not finished.over:
        seat = finished.actors[0]
        finished.play(seat, finished.legal_actions(seat)[0])
    real_new_game = cg.new_game
    asked: list[int] = []

    def new_game(variant: str, players: int, seed: int, options: Any) -> cardtable.Game:
        asked.append(seed)
        if len(asked) % 3 == 1:  # every third deal (starting with the first) is over at once
            return finished
        return real_new_game(variant, players, seed=seed, options=options)

    monkeypatch.setattr(cg, "new_game", new_game)
    e = CardtableGymEnv("kaboo", 2)
    obs, _ = e.reset(seed=77)
    assert asked[0] == 77 and len(asked) == 2 and asked[1] != 77
    assert e.game is not None and not e.game.over and obs["action_mask"].any()
    again = CardtableGymEnv("kaboo", 2)
    asked.clear()
    again.reset(seed=77)
    assert again.game is not None and again.game.seed == e.game.seed  # deterministic redeal
    monkeypatch.setattr(cg, "MAX_DEALS", 1)
    asked.clear()
    with pytest.raises(RuntimeError, match="deals"):
        again.reset(seed=77)


# ---------------------------------------------------------------------------- spaces, render
def test_action_space_samples_legal_actions_and_pickles_plain() -> None:
    e = CardtableGymEnv("gabo", 3, opponents="random")
    obs, _ = e.reset(seed=4)
    e.action_space.seed(0)
    legal = set(np.flatnonzero(obs["action_mask"]).tolist())
    assert {int(e.action_space.sample()) for _ in range(50)} <= legal
    only = np.zeros(e.encoding.size, dtype=np.int8)
    only[5] = 1
    assert e.action_space.sample(mask=only) == 5  # an explicit mask wins
    assert e.action_space == Discrete(e.encoding.size)
    restored = pickle.loads(pickle.dumps(e.action_space))
    assert type(restored) is Discrete and restored == e.action_space
    assert isinstance(e.observation_space.sample()["action_mask"], np.ndarray)
    twin = copy.deepcopy(e)
    assert isinstance(twin.action_space, LegalDiscrete)
    obs, *_ = twin.step(int(twin.action_space.sample()))  # the copy plays on alone
    assert twin.game is not None and e.game is not None
    assert len(twin.game.log["actions"]) > len(e.game.log["actions"])
    twin_legal = set(np.flatnonzero(obs["action_mask"]).tolist())
    assert {int(twin.action_space.sample()) for _ in range(20)} <= twin_legal


def test_render_is_the_public_table(capsys: pytest.CaptureFixture[str]) -> None:
    e = CardtableGymEnv("kaboo", 2, render_mode="ansi")
    e.reset(seed=2)
    assert e.game is not None
    text = e.render()
    assert text == render_table(e.game.spectator_view())
    assert isinstance(text, str) and "turn: seat" in text
    private = {c["card"] for h in e.game.view(0)["hands"] for c in h if c and c["card"]}
    assert private and not set(re.findall(r"\[([^\]]+)\]", text)) & private
    human = CardtableGymEnv("kaboo", 2, render_mode="human")
    human.reset(seed=2)
    assert human.render() is None
    assert capsys.readouterr().out == text
    quiet = CardtableGymEnv("kaboo", 2)
    quiet.reset(seed=2)
    with pytest.warns(UserWarning, match="render mode"):
        assert quiet.render() is None
