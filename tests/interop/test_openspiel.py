"""The OpenSpiel adapter: registration, OpenSpiel's own checks, chance nodes, secrecy, ISMCTS."""

from __future__ import annotations

import copy
import json
import pickle
import re
import subprocess
import sys
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

from cardtable import variants
from cardtable.encoding import DEFAULT_MAX_POSITIONS, encoding, win_rewards
from cardtable.interop import openspiel as cos
from cardtable.notation import parse
from cardtable.seat import Seat
from cardtable.text.phrase import Reader, phrase
from cardtable.text.plain import render_table

from ..helpers import strings_in

VARIANTS = ["cabo", "cabo-german", "gabo", "kaboo", "qute"]
MATCHES = {"cabo", "gabo", "qute"}  # variants that play a match by default


def _load(variant: str, **params: int) -> Any:
    return pyspiel.load_game(cos.game_name(variant), params)


def _act(state: Any, text: str) -> None:
    """Apply the current player's legal action whose text is ``text``."""
    p = state.current_player()
    by_text = {state.action_to_string(p, a): a for a in state.legal_actions()}
    assert text in by_text, f"{text!r} is not legal; legal: {sorted(by_text)}"
    state.apply_action(by_text[text])


def _deal(state: Any, codes: list[str]) -> None:
    """Resolve the next chance nodes by choosing the cards ``codes`` in order."""
    for code in codes:
        assert state.is_chance_node()
        by_text = {state.action_to_string(-1, a): a for a, _ in state.chance_outcomes()}
        state.apply_action(by_text[code])


def _random_states(game: Any, seed: int, limit: int = 400) -> Any:
    """Every state of one random playout (chance sampled), the terminal one included."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(limit):
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(outcomes[rng.randint(len(outcomes))])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])


def _play_out(game: Any, seed: int) -> Any:
    *_, state = _random_states(game, seed, limit=100_000)
    assert state.is_terminal()
    return state


# ----------------------------------------------------------------------------- registration
@pytest.mark.parametrize("variant", VARIANTS)
def test_registered_with_parameters_and_game_info(variant: str) -> None:
    name = cos.game_name(variant)
    assert name in pyspiel.registered_names()
    info = variants.get(variant)
    game = pyspiel.load_game(name)
    gt = game.get_type()
    assert gt.short_name == name
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (gt.min_num_players, gt.max_num_players) == (info.min_players, info.max_players)
    assert gt.provides_information_state_string and gt.provides_information_state_tensor
    assert gt.provides_observation_string and gt.provides_observation_tensor
    default_target = info.resolve_options(None)["target"] or 0
    expected = {
        "players": info.default_players,
        "target": default_target,
        "max_moves": cos.DEFAULT_MAX_MOVES,
    }
    if variant != "qute":
        expected["max_positions"] = DEFAULT_MAX_POSITIONS[variant]
    assert gt.parameter_specification == expected
    assert game.get_parameters() == expected
    enc = encoding(variant, info.default_players)
    assert game.num_players() == info.default_players
    assert game.num_distinct_actions() == enc.size
    assert game.max_chance_outcomes() == max(len(game.spec.codes), info.default_players)
    assert game.max_game_length() == cos.DEFAULT_MAX_MOVES
    rewards = win_rewards(info.default_players, [0])
    assert (game.min_utility(), game.max_utility()) == (min(rewards), max(rewards))
    assert game.utility_sum() == 0.0
    assert game.information_state_tensor_shape() == [enc.observation_size]
    assert game.observation_tensor_shape() == [enc.observation_size]


def test_load_by_dict_and_by_string() -> None:
    by_dict = pyspiel.load_game("cardtable_kaboo", {"players": 3})
    by_text = pyspiel.load_game("cardtable_kaboo(players=3)")
    assert by_dict.num_players() == by_text.num_players() == 3
    assert str(by_dict) == str(by_text)
    game = pyspiel.load_game("cardtable_gabo(players=10,target=0,max_positions=6)")
    assert game.num_players() == 10
    assert game.num_distinct_actions() == encoding("gabo", 10, 6).size
    assert game.max_chance_outcomes() == 54
    # with ten seats a sole winner gets 1 and the nine others share -1
    assert game.min_utility() == pytest.approx(-1 / 9)


@pytest.mark.parametrize(
    ("name", "params", "error", "words"),
    [
        ("cardtable_kaboo", {"players": 5}, ValueError, "2 to 4 players"),
        ("cardtable_qute", {"players": 1}, ValueError, "2 to 4 players"),
        ("cardtable_cabo", {"target": -1}, ValueError, "target"),
        ("cardtable_gabo", {"max_moves": 0}, ValueError, "max_moves"),
        ("cardtable_cabo", {"max_positions": 65}, ValueError, "max_positions"),
        ("cardtable_qute", {"max_positions": 4}, pyspiel.SpielError, "max_positions"),
        ("cardtable_kaboo", {"seed": 4}, pyspiel.SpielError, "seed"),
    ],
)
def test_bad_parameters_are_refused(
    name: str, params: dict[str, int], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        pyspiel.load_game(name, params)


# ----------------------------------------------------------------------------- OpenSpiel's test
# The acceptance test: OpenSpiel's random simulation test (clone, serialization,
# legal-action and chance-outcome checks, observables for every player, returns) on full games.
@pytest.mark.parametrize(
    ("variant", "sims"),
    [("cabo", 30), ("cabo-german", 40), ("gabo", 20), ("kaboo", 200), ("qute", 20)],
)
def test_random_sim_default_parameters(variant: str, sims: int) -> None:
    pyspiel.random_sim_test(_load(variant), num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("variant", "players"),
    [
        ("cabo", 6),
        ("cabo-german", 6),
        ("gabo", 2),
        ("gabo", 10),
        ("kaboo", 4),
        ("qute", 3),
        ("qute", 4),
    ],
)
def test_random_sim_at_the_player_limits(variant: str, players: int) -> None:
    # every variant's minimum is two seats, the default of cabo, cabo-german, kaboo and qute
    # (run above); gabo's default is three
    game = _load(variant, players=players)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_random_sim_with_tiny_caps() -> None:
    for variant in VARIANTS:
        game = _load(variant, max_moves=5)
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    # an action table of two positions per seat: games end early when no action fits it
    for variant in ("cabo", "cabo-german", "gabo"):
        game = _load(variant, max_positions=2, target=0)
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


# ----------------------------------------------------------------------------- ISMCTS
@pytest.mark.parametrize("variant", VARIANTS)
def test_ismcts_bots_play_complete_games(variant: str) -> None:
    game = _load(variant, target=0) if variant in MATCHES else _load(variant)
    rng = np.random.RandomState(11)
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    bots = []
    for seat in range(game.num_players()):
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(seat)),
            uct_c=2.0,
            max_simulations=10,
            random_state=np.random.RandomState(100 + seat),
        )
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, sampler))
        bots.append(bot)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        searched += len(state.legal_actions()) > 1
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(int(action))
    assert searched > 0
    result = state.engine.result
    assert not state.truncated and result is not None
    assert state.returns() == pytest.approx(win_rewards(game.num_players(), result.winners))


def test_ismcts_with_its_own_resampler() -> None:
    """The bot's default path: ``resample_from_infostate`` with a fresh sampler each time."""
    game = _load("kaboo")
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        uct_c=2.0,
        max_simulations=20,
        random_state=np.random.RandomState(1),
    )
    for state in _random_states(game, seed=3):
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            policy = bot.get_policy(state)
            assert {a for a, _ in policy} == set(state.legal_actions())
            assert sum(p for _, p in policy) == pytest.approx(1.0)
            return
    pytest.fail("no decision with a choice was reached")


# ----------------------------------------------------------------------------- chance nodes
KABOO_DEAL = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]


def test_kaboo_deal_is_chosen_card_by_card() -> None:
    game = _load("kaboo")
    state = game.new_initial_state()
    chance_nodes = 0
    # the first chance node draws the first seat
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert state.action_to_string(-1, 1) == "first seat 1"
    state.apply_action(1)
    chance_nodes += 1
    codes = game.spec.codes
    remaining = list(range(52))
    for code in KABOO_DEAL:
        assert state.is_chance_node() and state.engine is None
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == remaining
        assert all(p == pytest.approx(1 / len(remaining)) for _, p in outcomes)
        cid = codes.index(code)
        assert state.action_to_string(-1, cid) == code
        state.apply_action(cid)
        remaining.remove(cid)
        chance_nodes += 1
    assert chance_nodes == 4 * 2 + 1
    assert not state.is_chance_node() and state.current_player() == 1
    eng = state.engine
    # the deal goes round the table position by position: seat 0 gets the 1st, 3rd … cards
    assert [[codes[c] for c in h] for h in eng.hands] == [
        ["AS", "3S", "5S", "7S"],
        ["2S", "4S", "6S", "8S"],
    ]
    assert sorted(eng.deck) == remaining
    # each seat sees its own bottom row (positions 2 and 3) and nothing else
    for seat, bottom in ((0, ["5S", "7S"]), (1, ["6S", "8S"])):
        view = eng.view(seat)
        assert [slot["card"] for slot in view["hands"][seat]] == [None, None, *bottom]
        assert [slot["card"] for slot in view["hands"][1 - seat]] == [None] * 4
        text = state.information_state_string(seat)
        assert json.loads(text)["hands"] == view["hands"]
    # drawing from the deck is exactly one chance node over the remaining deck
    history = len(state.history())
    _act(state, "draw deck")
    assert state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == remaining
    info = json.loads(state.information_state_string(0))
    assert info["chance"] == {"seat": 1, "action": "draw deck", "drawn": 0}
    state.apply_action(codes.index("KH"))
    assert not state.is_chance_node() and len(state.history()) == history + 2
    assert state.engine.view(1)["drawn"] == "KH"
    assert state.engine.view(0)["drawn"] is None
    assert '"KH"' in state.information_state_string(1)
    assert '"KH"' not in state.information_state_string(0)
    assert "KH" not in state.observation_string(0)


@pytest.mark.parametrize(
    ("variant", "players", "cards"),
    [("cabo", 3, 13), ("cabo-german", 2, 9), ("gabo", 10, 41), ("kaboo", 4, 17), ("qute", 4, 20)],
)
def test_the_deal_is_one_chance_node_per_card(variant: str, players: int, cards: int) -> None:
    """Four cards a seat in the Cabo family plus the first discard (kaboo: no discard, but a
    node for the first seat), five a seat in Qute; nobody acts before the deal is done."""
    game = _load(variant, players=players)
    state = game.new_initial_state()
    nodes = 0
    while state.is_chance_node():
        assert state.engine is None
        assert state.information_state_tensor(0) == [0.0] * game.information_state_tensor_size()
        state.apply_action(state.chance_outcomes()[-1][0])
        nodes += 1
    assert nodes == cards
    eng = state.engine
    assert eng is not None and state.current_player() == eng.actors[0]
    dealt = sum(len(h) for h in eng.hands) + len(getattr(eng, "discard", []))
    assert dealt == cards - (variant == "kaboo")  # kaboo's extra node drew the first seat


GABO_DEAL = ["5C", "6C", "9C", "5D", "6D", "9D", "5H", "6H", "9H", "5S", "6S", "9S", "10C"]


def _gabo_wrong_snap() -> Any:
    """Gabo for three: seat 0 snaps its 5C on a discarded 2 and must draw two penalty cards
    (the state is at the first of those chance nodes)."""
    game = _load("gabo", players=3, target=0)
    state = game.new_initial_state()
    _deal(state, GABO_DEAL)  # 3 seats × 4 cards, position by position, then the discard
    for _ in range(3):  # every seat peeks at two cards (lowest seat first)
        _act(state, "peek 0")
        _act(state, "peek 1")
    assert state.current_player() == 0
    _act(state, "draw deck")
    _deal(state, ["2H"])
    _act(state, "discard")  # a 2 has no power: the snap window opens for rank 2
    assert state.engine.view(0)["phase"] == "snap"
    _act(state, "drop 0")  # seat 0 snaps its 5C: wrong rank, two penalty cards
    return state


def test_gabo_wrong_snap_draws_two_penalty_cards_by_chance() -> None:
    state = _gabo_wrong_snap()
    codes = state.get_game().spec.codes
    assert state.is_chance_node()
    first = [a for a, _ in state.chance_outcomes()]
    assert first == sorted(state.engine.deck)
    state.apply_action(codes.index("KS"))
    assert state.is_chance_node(), "the second penalty card is another chance node"
    second = [a for a, _ in state.chance_outcomes()]
    assert second == [c for c in first if c != codes.index("KS")]
    # the first penalty card is chosen but not dealt yet: nobody's strings show it
    for seat in range(3):
        assert '"KS"' not in state.information_state_string(seat)
        assert "KS" not in state.observation_string(seat)
        assert json.loads(state.information_state_string(seat))["chance"] == {
            "seat": 0,
            "action": "drop 0",
            "drawn": 1,
        }
    state.apply_action(codes.index("QD"))
    assert not state.is_chance_node()
    hand = [codes[c] if c >= 0 else None for c in state.engine.hands[0]]
    assert hand == ["KS", "5D", "5H", "5S", "QD"]  # the hole is filled first
    view = state.engine.view(0)
    assert view["hands"][0][0]["card"] is None and view["hands"][0][4]["card"] is None


def _qute_after_deal(hands: list[list[str]]) -> Any:
    game = _load("qute", target=0)
    state = game.new_initial_state()
    order = [hands[s][i] for i in range(5) for s in range(2)]
    _deal(state, order)
    return state


def test_qute_seven_and_eight_draws_are_chance_nodes() -> None:
    state = _qute_after_deal([["7H", "8C", "KC", "KD", "QS"], ["9H", "10S", "10D", "AS", "AD"]])
    codes = state.get_game().spec.codes
    assert state.current_player() == 0
    _act(state, "play 7H")  # the next seat draws one card
    assert state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == sorted(state.engine.blind)
    assert len(state.chance_outcomes()) == 36 - 10
    state.apply_action(codes.index("6S"))
    assert not state.is_chance_node() and state.current_player() == 1
    assert state.engine.view(1)["penalty_drawn"] == ["6S"]
    assert "6S" in state.engine.view(1)["hand"]
    assert '"6S"' not in state.information_state_string(0)
    _act(state, "play 9H")
    # 9H on top: seat 0 holds no heart, no 9 and no J, so it draws (a chance node)
    assert state.legal_actions() == [0]
    _act(state, "draw")
    assert state.is_chance_node()
    state.apply_action(codes.index("8H"))
    assert state.engine.view(0)["drawn"] == "8H"
    assert state.engine.view(1)["drawn"] is None
    # 8H fits: seat 0 plays it, and the next seat draws two cards, both by chance
    _act(state, "play 8H")
    assert state.is_chance_node()
    state.apply_action(codes.index("6D"))
    assert state.is_chance_node(), "an eight makes the next seat draw two cards"
    for seat in range(2):
        assert '"6D"' not in state.information_state_string(seat)
    state.apply_action(codes.index("6H"))
    assert not state.is_chance_node()
    assert state.engine.view(1)["penalty_drawn"] == ["6D", "6H"]
    assert state.engine.view(0)["penalty_drawn"] == []


# ----------------------------------------------------------------------------- secrecy
@pytest.mark.parametrize(("variant", "players"), [(v, 3) for v in VARIANTS])
def test_resampled_states_look_the_same_to_their_seat(variant: str, players: int) -> None:
    game = _load(variant, players=players, target=0)
    sampler = pyspiel.UniformProbabilitySampler(17, 0.0, 1.0)
    checked = differing = 0
    for seed in range(100):
        if checked >= 400:
            break
        for state in _random_states(game, seed, limit=150):
            if state.is_chance_node():
                continue
            for p in range(players):
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.observation_string(p) == state.observation_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
                assert other.current_player() == state.current_player()
                if p == state.current_player():
                    assert other.legal_actions() == state.legal_actions()
                assert other.history() == state.history()
                assert other.move_number() == state.move_number()
                differing += str(other) != str(state)
                checked += 1
    assert checked >= 400
    assert differing > checked // 2, "resampling re-deals the hidden cards"


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_observation_string_tells_the_last_events_and_no_unknown_card(variant: str) -> None:
    """A seat's observation string is the table the Gymnasium text render draws from its view,
    then the events of the step that led here, each as ``phrase`` says it from the seat's
    side; it names no card outside the view, and reads the same once every card the seat does
    not know is dealt again."""
    game = _load(variant, players=3, target=0)
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    told = 0
    for state in _random_states(game, seed=3, limit=150):
        if state.is_chance_node():
            continue
        for p in range(3):
            obs = state.observation_string(p)
            view = state.engine.view(p)
            assert obs.startswith(render_table(view).rstrip("\n") + f"\nyou are seat {p}\n")
            said = [phrase(ev, Reader(p), variant).text for ev in view["events"]]
            if said:  # the last event as phrase() says it, after the ones before it
                lines = obs.splitlines()
                assert said[-1] in lines and "\n".join(said) in obs
                told += 1
            known = set(strings_in(view))
            for code in re.findall(r"\[([^\]]+)\]", obs):
                assert code in known or code in ("??", "  "), (code, obs)
            again = state.resample_from_infostate(p, sampler)
            assert again.observation_string(p) == obs
    assert told > 20


@pytest.mark.parametrize("variant", ["cabo-german", "gabo", "kaboo", "qute"])
def test_chosen_cards_stay_secret_until_dealt(variant: str) -> None:
    """At a chance node, no seat's strings name a card already chosen for the pending action
    or deal (these decks have one card per code, so a visible code would be that card) —
    unless the code was visible before the draws began (a reshuffled discard pile is public):
    the strings are those of the first draw's node, with the count of cards drawn."""
    game = _load(variant, players=3, target=0)
    codes = game.spec.codes
    seen = 0
    for seed in range(20):
        before: list[dict[str, Any]] = []
        for state in _random_states(game, seed):
            if not state.is_chance_node():
                continue
            drawn = state.pending_draws
            infos = [json.loads(state.information_state_string(p)) for p in range(3)]
            if drawn == 0:
                before = infos
                continue
            for p in range(3):
                info, obs = state.information_state_string(p), state.observation_string(p)
                for cid in state.history()[-drawn:]:
                    code = codes[cid]
                    if f'"{code}"' in info or re.search(rf"(?<!\w){code}(?!\w)", obs):
                        assert f'"{code}"' in json.dumps(before[p])
                count = infos[p].get("chance", infos[p].get("dealing"))[
                    "drawn" if "chance" in infos[p] else "dealt"
                ]
                assert count == drawn
                if "chance" in infos[p]:
                    infos[p]["chance"]["drawn"] = 0
                else:
                    infos[p]["dealing"]["dealt"] = 0
                assert infos[p] == before[p]
            seen += 1
    assert seen > 50


def test_strings_do_not_depend_on_a_chosen_card_not_yet_dealt() -> None:
    """Two chance nodes that differ only in the first penalty card chosen give every seat the
    same strings and tensors."""
    a, b = _gabo_wrong_snap(), _gabo_wrong_snap()
    codes = a.get_game().spec.codes
    a.apply_action(codes.index("KS"))
    b.apply_action(codes.index("KH"))
    assert a.is_chance_node() and b.is_chance_node()
    for p in range(3):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation_string(p) == b.observation_string(p)
        assert a.information_state_tensor(p) == b.information_state_tensor(p)
        assert a.observation_tensor(p) == b.observation_tensor(p)
    assert str(a) != str(b)


# ----------------------------------------------------------------------------- API details
@pytest.mark.parametrize("variant", VARIANTS)
def test_returns_are_the_win_rewards_of_the_engine(variant: str) -> None:
    game = _load(variant, target=0)
    for seed in range(4):
        state = _play_out(game, seed)
        result = state.engine.result
        assert result is not None and not state.truncated
        expected = win_rewards(game.num_players(), result.winners)
        assert state.returns() == pytest.approx(expected)
        assert state.rewards() == pytest.approx(expected)
        assert sum(state.returns()) == pytest.approx(0.0)


def test_returns_are_zero_before_the_end() -> None:
    for state in _random_states(_load("kaboo"), seed=1):
        if not state.is_terminal():
            assert state.returns() == [0.0, 0.0]


def test_illegal_actions_raise_and_change_nothing() -> None:
    game = _load("kaboo")
    state = game.new_initial_state()
    before = (str(state), state.history())
    with pytest.raises(ValueError, match="not possible"):
        state.apply_action(7)  # the first-seat node has outcomes 0 and 1 only
    assert (str(state), state.history()) == before
    state.apply_action(0)
    _deal(state, KABOO_DEAL)
    legal = state.legal_actions()
    before = (str(state), state.history(), state.information_state_string(0))
    for action in (legal[-1] + 1, 49, -3, 10_000):
        if action in legal:
            continue
        with pytest.raises(ValueError, match="not legal"):
            state.apply_action(action)
        assert (str(state), state.history(), state.information_state_string(0)) == before
    with pytest.raises(pyspiel.SpielError):
        state.apply_action_with_legality_check(49)
    assert (str(state), state.history(), state.information_state_string(0)) == before
    _act(state, "draw deck")
    with pytest.raises(ValueError, match="not possible"):
        state.apply_action(game.spec.codes.index("AS"))  # already in a hand
    final = _play_out(game, seed=2)
    with pytest.raises(ValueError, match="over"):
        final.apply_action(0)


def test_legal_actions_only_for_the_player_to_act() -> None:
    game = _load("gabo", target=0)
    for state in _random_states(game, seed=5, limit=200):
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        assert p == state.engine.actors[0]
        assert state.legal_actions() == encoding("gabo", 3).legal(state.engine, p)
        for q in range(3):
            if q != p:
                assert state.legal_actions(q) == []


def test_move_cap_truncates_with_zero_returns() -> None:
    game = _load("qute", max_moves=7)
    assert game.max_game_length() == 7
    state = _play_out(game, seed=0)
    decisions = sum(1 for item in state.full_history() if item.player >= 0)
    assert decisions == 7
    assert state.truncated and state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert not state.engine.over
    assert json.loads(state.information_state_string(0))["truncated"] is True


def test_no_action_in_the_table_truncates() -> None:
    """With one position in the action table, cabo's second initial peek has no integer: the
    game ends there, truncated, every return 0."""
    game = _load("cabo", max_positions=1)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0
    _act(state, "peek 0")
    assert state.is_terminal() and state.truncated
    assert state.returns() == [0.0, 0.0]
    assert state.engine.legal_actions(0), "the engine still has (unencodable) actions"


def test_chance_engines_never_share_a_draw_source() -> None:
    from cardtable.interop.openspiel import engines

    spec = _load("kaboo").spec
    codes = spec.codes
    chosen = tuple(codes.index(c) for c in KABOO_DEAL)
    eng, source = spec.build(0, chosen)
    assert source.pos == 8 and source.plan == []
    with pytest.raises(RuntimeError, match="took 8 of the 9 cards"):
        spec.build(0, (*chosen, codes.index("KH")))  # a card chance chose that was not taken
    assert "draws" not in eng.__dict__, "a stored engine keeps no source"
    twin, again = engines.run(eng, 0, parse("draw deck"), ())
    assert [take.cards for take in again.plan] == [tuple(sorted(eng.deck))]
    assert "draws" not in twin.__dict__
    done, last = engines.run(eng, 0, parse("draw deck"), (codes.index("KH"),))
    assert codes[done.drawn] == "KH" and last.plan == []
    assert len(eng.deck) == 52 - 8 and eng.drawn < 0, "runs play on clones"


def test_action_strings() -> None:
    game = _load("kaboo", players=3)
    enc = encoding("kaboo", 3)
    state = game.new_initial_state()
    for a in range(enc.size):
        for seat in range(3):
            assert state.action_to_string(seat, a) == str(enc.decode(seat, a))
    assert state.action_to_string(1, enc.encode(1, parse("spy 2.3"))) == "spy 2.3"
    with pytest.raises(ValueError):
        state.action_to_string(3, 0)
    cabo = _load("cabo").new_initial_state()
    strings = [cabo.action_to_string(-1, a) for a, _ in cabo.chance_outcomes()]
    assert len(set(strings)) == 52, "cabo's repeated codes carry their card id"
    assert strings[:3] == ["0#0", "0#1", "1#2"]


def test_clones_and_copies_are_independent() -> None:
    game = _load("cabo-german")
    states = list(_random_states(game, seed=4, limit=60))
    state = states[-1].clone()
    assert str(state) == str(states[-1]) and state.history() == states[-1].history()
    twin = copy.deepcopy(state)
    assert isinstance(twin, cos.CardtableState) and str(twin) == str(state)
    before = str(state)
    while not twin.is_terminal():
        if twin.is_chance_node():
            twin.apply_action(twin.chance_outcomes()[-1][0])
        else:
            twin.apply_action(twin.legal_actions()[0])
    assert str(state) == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_serialization_reproduces_the_state(variant: str) -> None:
    game = _load(variant)
    for i, state in enumerate(_random_states(game, seed=6, limit=120)):
        if i % 17 and not state.is_terminal():
            continue
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert str(state2) == str(state)
        assert state2.history() == state.history()
        for p in range(game.num_players()):
            assert state2.information_state_string(p) == state.information_state_string(p)
        assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_observers() -> None:
    game = _load("kaboo")
    decisions = [
        s.clone()
        for s in _random_states(game, seed=2)
        if not s.is_chance_node() and not s.is_terminal()
    ]
    state = decisions[len(decisions) // 2]
    enc = encoding("kaboo", 2)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    for p in range(2):
        info.set_from(state, p)
        assert list(info.tensor) == state.information_state_tensor(p)
        assert info.string_from(state, p) == state.information_state_string(p)
        obs.set_from(state, p)
        assert list(obs.tensor) == state.observation_tensor(p)
        assert obs.string_from(state, p) == state.observation_string(p)
        assert set(obs.dict) == {piece.name for piece in enc.observation_pieces()}
        view = state.engine.view(p)
        assert np.array_equal(obs.tensor, enc.observe(view))
        assert state.information_state_string(p) == json.dumps(
            view, sort_keys=True, separators=(",", ":")
        )
    with pytest.raises(ValueError, match="one seat"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False,
                public_info=True,
                private_info=pyspiel.PrivateInfoType.NONE,
            )
        )
    with pytest.raises(ValueError, match="parameters"):
        game.make_py_observer(None, {"x": 1})


def test_resample_is_refused_while_cards_are_drawn() -> None:
    game = _load("kaboo")
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    with pytest.raises(ValueError, match="chance"):
        state.resample_from_infostate(0, sampler)
    state.apply_action(0)
    _deal(state, KABOO_DEAL)
    with pytest.raises(ValueError, match="player"):
        state.resample_from_infostate(2, sampler)
    _act(state, "draw deck")
    with pytest.raises(ValueError, match="chance"):
        state.resample_from_infostate(0, sampler)


@pytest.mark.parametrize("variant", ["gabo", "qute"])
def test_to_game_gives_cardtable_agents_a_plain_engine(variant: str) -> None:
    from cardtable.agents import get
    from cardtable.games.family.engine import FamilyGame
    from cardtable.games.qute.engine import QuteGame

    game = _load(variant, target=0)
    state = next(
        s
        for seed in range(20)
        for s in _random_states(game, seed)
        if not s.is_chance_node() and len(s.legal_actions()) > 1 and s.move_number() > 30
    )
    before = str(state)
    plain = cos.to_game(state, seed=3)
    assert type(plain) is (QuteGame if variant == "qute" else FamilyGame)
    for p in range(game.num_players()):
        # the same position; a plain engine is a clone, without the recent events
        same = {k: v for k, v in plain.view(p).items() if k != "events"}
        assert same == {k: v for k, v in state.engine.view(p).items() if k != "events"}
        assert plain.view(p)["events"] == []
    pile = "blind" if variant == "qute" else "deck"
    ours, again = getattr(plain, pile), getattr(cos.to_game(state, seed=4), pile)
    assert sorted(ours) == sorted(getattr(state.engine, pile)) and ours != again
    seat = state.current_player()
    act = get("heuristic", seed=1).act(Seat(plain, seat))
    assert encoding(variant, game.num_players()).encode(seat, act) in state.legal_actions()
    rng = np.random.RandomState(0)
    while not plain.over:  # it draws and reshuffles by itself
        s = plain.actors[0]
        legal = plain.legal_actions(s)
        plain.apply(s, legal[rng.randint(len(legal))])
    assert str(state) == before
    with pytest.raises(ValueError, match="chance"):
        cos.to_game(game.new_initial_state(), seed=1)


def test_observation_strings_need_no_gymnasium() -> None:
    """The ``openspiel`` extra does not install Gymnasium: the adapter, its observation string
    included, runs with ``import gymnasium`` failing."""
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import pyspiel\n"
        "from cardtable.interop import openspiel\n"
        "game = pyspiel.load_game('cardtable_kaboo')\n"
        "state = game.new_initial_state()\n"
        "while state.is_chance_node():\n"
        "    state.apply_action(state.legal_actions()[0])\n"
        "print(state.observation_string(0))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    assert "you are seat 0" in out.stdout
