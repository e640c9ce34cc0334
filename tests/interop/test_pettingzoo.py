"""The PettingZoo adapter: API conformance, seeding, truncation, secrecy, rewards, errors and
rendering, over every variant."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import cardtable
from cardtable import variants
from cardtable.encoding import encoding, win_rewards
from cardtable.interop.gymnasium import render_table
from cardtable.interop.pettingzoo import CardtableAECEnv, env, raw_env

VARIANTS = variants.names()
ALL_CONFIGS = [
    (name, n)
    for name in VARIANTS
    for n in range(variants.get(name).min_players, variants.get(name).max_players + 1)
]
EDGE_CONFIGS = sorted(
    {(name, variants.get(name).default_players) for name in VARIANTS}
    | {(name, variants.get(name).max_players) for name in VARIANTS}
)

# PettingZoo's api_test warns about any observation that is not a bare array, and about any
# observation space that is not a Box or Discrete, unless the environment's name is on its own
# list of dict-observation environments (connect_four_v3, chess_v6 …). Ours is the standard
# {"observation", "action_mask"} dict those environments use, so exactly these two are benign.
BENIGN_PZ_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
)


@contextmanager
def strict_warnings() -> Iterator[None]:
    """Every warning is an error, except the two benign ones above (matched exactly)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in BENIGN_PZ_WARNINGS:
            warnings.filterwarnings("ignore", message=re.escape(message) + "$")
        yield


Record = tuple[str, bytes, bytes, float, bool, bool, dict[str, Any], int | None]


def play(
    e: CardtableAECEnv,
    seed: int,
    on_step: Callable[[CardtableAECEnv, str], None] | None = None,
) -> list[Record]:
    """Play one episode with mask-sampled actions; return what ``last()`` said at each step."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    records: list[Record] = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if on_step is not None:
            on_step(e, agent)
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        records.append(
            (
                agent,
                obs["observation"].tobytes(),
                obs["action_mask"].tobytes(),
                reward,
                terminated,
                truncated,
                info,
                action,
            )
        )
        e.step(action)
    return records


def public_codes(view: Any) -> set[str]:
    """Every string anywhere in a (spectator) view: a superset of the card codes it shows."""
    if isinstance(view, dict):
        return set().union(*(public_codes(v) for v in view.values())) if view else set()
    if isinstance(view, list):
        return set().union(*(public_codes(v) for v in view)) if view else set()
    return {view} if isinstance(view, str) else set()


def bracketed(text: str) -> set[str]:
    """Card codes drawn in a rendered table (``[7H]``; ``[??]`` and ``[  ]`` are not codes)."""
    return {c for c in re.findall(r"\[([^\]]*)\]", text) if c.strip() and c != "??"}


# ---------------------------------------------------------------------------- conformance
@pytest.mark.parametrize(("variant", "players"), ALL_CONFIGS)
def test_api_test_passes_without_warnings(variant: str, players: int) -> None:
    e = env(variant, players)
    with strict_warnings():
        api_test(e, num_cycles=1000)
    # the environment survived every check and still deals proper games
    e.reset(seed=3)
    assert e.agents == [f"player_{s}" for s in range(players)]
    assert e.game is not None and e.game.players == players


@pytest.mark.parametrize(("variant", "players"), EDGE_CONFIGS)
def test_seed_test_passes(variant: str, players: int) -> None:
    with strict_warnings():
        seed_test(lambda: env(variant, players), num_cycles=200)


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_seed_same_episode_and_seed_is_the_engine_seed(variant: str) -> None:
    players = variants.get(variant).default_players
    first = play(env(variant, players), seed=11)
    again = play(env(variant, players), seed=11)
    assert first == again
    assert first[-1][4] is True  # it really was a whole episode
    assert play(env(variant, players), seed=12) != first
    e = env(variant, players)
    e.reset(seed=11)
    assert e.game is not None
    fresh = cardtable.new_game(variant, players, seed=11)
    for s in range(players):
        assert e.game.view(s) == fresh.view(s)


def test_unseeded_reset_follows_the_seeded_generator() -> None:
    a, b = env("qute", 3), env("qute", 3)
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.game is not None and b.game is not None
    assert a.game.seed == b.game.seed != 5
    assert a.game.view(0) == b.game.view(0)
    a.reset(options={"anything": 1})  # reset options are accepted and ignored
    b.reset()
    assert a.game.seed == b.game.seed
    assert a.game.view(1) == b.game.view(1)


# ---------------------------------------------------------------------------- truncation
@pytest.mark.parametrize(
    ("variant", "players", "cycles"),
    [("cabo", 2, 3), ("gabo", 4, 2), ("qute", 3, 4), ("kaboo", 2, 1), ("cabo-german", 5, 2)],
)
def test_max_cycles_truncates_after_cycles_times_players_steps(
    variant: str, players: int, cycles: int
) -> None:
    e = env(variant, players, max_cycles=cycles)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    live_steps = 0
    final_steps: dict[str, int] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        assert agent not in final_steps, "an agent stepped after its final step"
        if truncated:
            assert not terminated
            assert reward == 0
            assert "max_cycles" in info["truncated_reason"]
            assert not obs["action_mask"].any()
            with pytest.raises(ValueError):
                e.step(0)  # a dead agent's only action is None
            final_steps[agent] = live_steps
            e.step(None)
            continue
        assert not terminated, "the game ended before max_cycles: pick a longer game"
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        live_steps += 1
    assert live_steps == cycles * players
    assert set(final_steps) == set(e.possible_agents)
    assert e.agents == []
    assert e.game is not None and not e.game.over


def test_a_game_ending_on_the_last_allowed_step_is_terminated() -> None:
    for seed in range(40):
        length = sum(1 for r in play(env("kaboo", 2), seed) if r[7] is not None)
        if length % 2 == 0:
            break
    else:  # pragma: no cover - 40 seeds always give an even length
        raise AssertionError("no even-length episode found")
    e = env("kaboo", 2, max_cycles=length // 2)
    records = play(e, seed)
    assert sum(1 for r in records if r[7] is not None) == length
    finals = [r for r in records if r[7] is None]
    assert [r[0] for r in finals] == ["player_0", "player_1"]
    assert all(r[4] and not r[5] for r in finals)
    assert e.game is not None and e.game.result is not None
    expected = win_rewards(2, e.game.result.winners)
    assert [r[3] for r in finals] == pytest.approx(expected)
    assert all("winners" in r[6] and "truncated_reason" not in r[6] for r in finals)


def test_no_encodable_action_truncates_every_agent() -> None:
    # With one position per seat in the table, a seat that has peeked at position 0 can only
    # peek at positions 1..3 next: legal for the engine, but none of them has an integer.
    e = env("cabo", 2, max_positions=1)
    e.reset(seed=0)
    assert e.game is not None
    assert e.agent_selection == "player_0"
    obs = e.observe("player_0")
    peek0 = e.encoding.encode(0, cardtable.Action("peek", (0,)))
    assert peek0 is not None
    assert np.flatnonzero(obs["action_mask"]).tolist() == [peek0]
    e.step(peek0)
    assert [str(a) for a in e.game.legal_actions(0)] == ["peek 1", "peek 2", "peek 3"]
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert all(r == 0 for r in e.rewards.values())
    for agent in e.possible_agents:
        assert "max_positions=1" in e.infos[agent]["truncated_reason"]
        assert not e.observe(agent)["action_mask"].any()
    seen = []
    for agent in e.agent_iter():
        _, reward, _, truncated, _ = e.last()
        assert truncated and reward == 0
        seen.append(agent)
        e.step(None)
    assert sorted(seen) == e.possible_agents


# ---------------------------------------------------------------------------- secrecy
@pytest.mark.parametrize(("variant", "players"), ALL_CONFIGS)
def test_observation_depends_only_on_what_the_seat_knows(variant: str, players: int) -> None:
    enc = encoding(variant, players)
    tally = {"checks": 0, "others_differ": 0}

    def check(e: CardtableAECEnv, agent: str) -> None:
        game = e.game
        assert game is not None
        if game.over:
            return
        acting = int(agent.removeprefix("player_"))
        for seat in range(players):
            name = f"player_{seat}"
            obs = e.observe(name)
            own = enc.observe(game.view(seat))
            assert np.array_equal(obs["observation"], own)
            assert np.array_equal(e.action_mask(name), obs["action_mask"])
            if seat == acting and not (e.terminations[name] or e.truncations[name]):
                assert np.array_equal(obs["action_mask"], enc.mask(enc.legal(game, seat)))
            else:
                assert not obs["action_mask"].any()
            for det_seed in (1, 2, 3):
                world = game.determinize(seat, det_seed)
                assert np.array_equal(enc.observe(world.view(seat)), own)
                tally["checks"] += 1
                other = (seat + 1) % players
                if not np.array_equal(
                    enc.observe(world.view(other)), enc.observe(game.view(other))
                ):
                    tally["others_differ"] += 1

    play(env(variant, players), seed=21, on_step=check)
    assert tally["checks"] > 20
    # the re-deals really moved hidden cards (so the equality above is not vacuous)
    assert tally["others_differ"] > 0


# ---------------------------------------------------------------------------- rewards
@pytest.mark.parametrize(("variant", "players"), EDGE_CONFIGS)
def test_terminal_rewards_are_win_rewards_and_zero_sum(variant: str, players: int) -> None:
    e = env(variant, players)
    finals: dict[str, tuple[float, dict[str, Any]]] = {}
    totals: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)

    def watch(env_: CardtableAECEnv, agent: str) -> None:
        for a, r in env_.rewards.items():
            totals[a] += r
        _, cumulative, terminated, _, info = env_.last(observe=False)
        if terminated:
            finals[agent] = (cumulative, info)
        else:
            assert info == {} and cumulative == 0

    records = play(e, seed=8, on_step=watch)
    assert e.game is not None and e.game.over
    result = e.game.result
    assert result is not None
    expected = win_rewards(players, result.winners)
    assert sum(expected) == pytest.approx(0)
    assert set(finals) == set(e.possible_agents)
    for seat, agent in enumerate(e.possible_agents):
        cumulative, info = finals[agent]
        assert cumulative == pytest.approx(expected[seat])
        assert info == {"totals": list(result.totals), "winners": list(result.winners)}
        assert all(type(t) is int for t in info["totals"] + info["winners"])
        assert totals[agent] == pytest.approx(expected[seat])  # summed from env.rewards
    # every reward along the way was 0 but the final one; last() returned the final one
    assert [r[3] for r in records if r[7] is not None] == [0.0] * (len(records) - players)
    assert {r[0]: r[3] for r in records if r[7] is None} == {
        a: pytest.approx(expected[s]) for s, a in enumerate(e.possible_agents)
    }


def test_rule_options_are_passed_to_the_game() -> None:
    e = env("cabo", 3, options={"target": None})
    play(e, seed=2)
    assert e.game is not None and e.game.result is not None
    assert len(e.game.result.rounds) == 1
    assert e.game.options["target"] is None


# ---------------------------------------------------------------------------- bad input
def snapshot(e: CardtableAECEnv) -> Any:
    assert e.game is not None
    return (
        [e.game.view(s) for s in range(e.players)],
        e.agent_selection,
        dict(e.rewards),
        dict(e._cumulative_rewards),
        list(e.game.log["actions"]),
        [e.observe(a)["action_mask"].tobytes() for a in e.possible_agents],
    )


def test_bad_actions_raise_value_error_and_change_nothing() -> None:
    e = env("kaboo", 2)
    e.reset(seed=1)
    size = e.encoding.size
    mask = e.observe(e.agent_selection)["action_mask"]
    not_legal = int(np.flatnonzero(mask == 0)[0])
    before = snapshot(e)
    with pytest.raises(
        ValueError, match=rf"action {not_legal} \(.+\) is not legal for player_\d now"
    ):
        e.step(not_legal)
    for bad in (-1, size, size + 7, 2.5, "3", None, True, np.float32(1.0), np.array([0, 1])):
        with pytest.raises(ValueError, match="action"):
            e.step(bad)
        assert snapshot(e) == before
    legal = np.flatnonzero(mask)
    e.step(np.int32(legal[0]))  # NumPy integers are fine
    assert e.game is not None and len(e.game.log["actions"]) == 1
    follow = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    e.step(np.array(follow[0]))  # and so are 0-d integer arrays
    assert len(e.game.log["actions"]) == 2


def test_using_the_env_before_reset_is_a_clear_error() -> None:
    e = env("kaboo", 2)
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        e.observe("player_0")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variant": "poker"},
        {"variant": "kaboo", "players": 5},
        {"variant": "kaboo", "players": 1},
        {"variant": "kaboo", "options": {"speed": 3}},
        {"variant": "kaboo", "options": {"target": "high"}},
        {"variant": "kaboo", "max_cycles": 0},
        {"variant": "kaboo", "max_cycles": 2.5},
        {"variant": "kaboo", "render_mode": "rgb_array"},
        {"variant": "kaboo", "max_positions": 0},
        {"variant": "qute", "max_positions": 4},
    ],
)
def test_bad_construction_raises_value_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        env(**kwargs)


def test_bad_seeds_and_agents_raise_value_error() -> None:
    e = env("kaboo", 3)
    for seed in (-1, 1.5, "7", True):
        with pytest.raises(ValueError, match="seed"):
            e.reset(seed=seed)  # type: ignore[arg-type]
    e.reset(seed=np.int64(9))  # type: ignore[arg-type]
    assert e.game is not None and e.game.seed == 9
    with pytest.raises(ValueError, match="unknown agent"):
        e.observation_space("player_3")
    with pytest.raises(ValueError, match="unknown agent"):
        e.observe("dealer")


# ---------------------------------------------------------------------------- spaces, order
@pytest.mark.parametrize(("variant", "players"), EDGE_CONFIGS)
def test_spaces_are_cached_and_sized_by_the_encoding(variant: str, players: int) -> None:
    e = raw_env(variant, players)
    enc = encoding(variant, players)
    assert e.unwrapped is e and e.unwrapped.encoding is enc
    assert e.metadata["name"] == f"cardtable_{variant.replace('-', '_')}_v0"
    assert CardtableAECEnv.metadata["name"] == "cardtable_v0"
    assert e.metadata["is_parallelizable"] is False
    assert e.possible_agents == [f"player_{s}" for s in range(players)]
    spaces = {a: (e.observation_space(a), e.action_space(a)) for a in e.possible_agents}
    for agent, (obs_space, act_space) in spaces.items():
        assert e.observation_space(agent) is obs_space and e.action_space(agent) is act_space
        assert act_space.n == enc.size
        assert obs_space["observation"].shape == (enc.observation_size,)
        assert obs_space["observation"].dtype == np.float32
        assert obs_space["action_mask"].shape == (enc.size,)
        assert obs_space["action_mask"].dtype == np.int8
    assert len({id(s[1]) for s in spaces.values()}) == players  # seeded per agent


def test_simultaneous_phases_serve_the_lowest_seat_first() -> None:
    e = env("gabo", 3)
    sizes: list[int] = []

    def check(env_: CardtableAECEnv, agent: str) -> None:
        game = env_.game
        assert game is not None
        if game.over:
            return
        assert agent == f"player_{game.actors[0]}"
        sizes.append(len(game.actors))
        for other in game.actors[1:]:
            assert not env_.observe(f"player_{other}")["action_mask"].any()

    play(e, seed=5, on_step=check)
    assert max(sizes) == 3  # the initial peek really was simultaneous


# ---------------------------------------------------------------------------- render
@pytest.mark.parametrize("variant", VARIANTS)
def test_render_shows_the_public_table_only(variant: str) -> None:
    players = variants.get(variant).default_players
    e = env(variant, players, render_mode="ansi")
    tally = {"renders": 0, "cards": 0}

    def check(env_: CardtableAECEnv, agent: str) -> None:
        game = env_.game
        assert game is not None
        text = env_.render()
        public = game.spectator_view()
        assert isinstance(text, str) and text == render_table(public)
        assert f"turn: seat {public['turn']}" in text
        pile = public.get("discard", public.get("stack"))
        if pile:
            top = pile[-1] if "discard" in public else public["top"]
            assert f"[{top}]" in text
        shown = bracketed(text)
        assert shown <= public_codes(public)
        tally["renders"] += 1
        tally["cards"] += len(shown)
        for seat in range(players):  # re-dealing what any seat does not know changes nothing
            assert render_table(game.determinize(seat, 3).spectator_view()) == text

    play(e, seed=6, on_step=check)
    assert tally["renders"] > 5 and tally["cards"] > 0


def test_render_hides_cards_a_seat_knows_but_the_table_does_not() -> None:
    e = env("kaboo", 2, render_mode="ansi")
    e.reset(seed=2)
    assert e.game is not None
    private = {
        slot["card"] for hand in e.game.view(0)["hands"] for slot in hand if slot and slot["card"]
    }
    assert len(private) == 2  # kaboo shows each seat its bottom row
    text = e.render()
    assert isinstance(text, str)
    assert not bracketed(text) & private
    assert text.count("[??]") == 8


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    human = env("qute", 2, render_mode="human")
    with pytest.raises(RuntimeError, match="reset"):
        human.render()
    human.reset(seed=4)
    assert human.render() is None
    assert human.game is not None
    assert capsys.readouterr().out == render_table(human.game.spectator_view())
    silent = env("qute", 2)
    silent.reset(seed=4)
    with pytest.warns(UserWarning, match="render mode"):
        assert silent.render() is None
    silent.close()
    silent.close()
