"""The expert's and master's search with its rollouts in the batched engine: from the same
worlds and actions, the batch's rollouts score exactly what the reference's score (variants
whose rounds draw no chance once dealt), the agent plays legal moves and appraises every legal
action, and a game the batch does not hold is searched by the reference."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardtable import new_game
from cardtable.agents import get
from cardtable.agents.batched import BatchRolloutAgent, rollout_values
from cardtable.agents.search import _result, _round_points
from cardtable.batch import FamilyBatch
from cardtable.encoding import encoding
from cardtable.game import TOP_DRAWS, Game
from cardtable.rng import Rng
from cardtable.seat import Seat


def _midgame(variant: str, seed: int, moves: int) -> Game:
    game = new_game(variant, players=3, seed=seed)
    pick = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        p = game.actors[0]
        game.apply(p, pick.choice(game.legal_actions(p)))
    return game


def _in_order(world: Game, seed: int) -> Game:
    """The world with its deck shuffled once and drawn from the top (a dealt world draws any
    card of its deck, from its own generator; this one draws what the batch draws)."""
    random.Random(seed).shuffle(world.deck)  # type: ignore[attr-defined]
    world.draws = TOP_DRAWS
    return world


@pytest.mark.parametrize("variant", ["kaboo", "cabo"])  # no reshuffle: rollouts draw no chance
def test_batched_rollouts_score_what_the_reference_scores(variant: str) -> None:
    compared = 0
    for seed in range(12):
        game = _midgame(variant, seed, 3 + seed % 5)
        if game.over:
            continue
        me = game.actors[0]
        seat = Seat(game, me)
        legal = game.legal_actions(me)
        enc = encoding(variant, 3)
        worlds = [_in_order(seat.worlds(Rng(seed * 10 + k)), seed * 10 + k) for k in range(6)]
        batch = FamilyBatch.from_games(worlds, list(range(6)), copies=len(legal))
        first = batch.step(np.tile([enc.encode(me, a) for a in legal], len(worlds)))
        start = game.round_no  # type: ignore[attr-defined]
        values, points, wins, _ = rollout_values(
            batch, me, 400, np.random.default_rng(0), ~(first.round_ended | first.done)
        )
        for k, world in enumerate(worlds):
            for j, action in enumerate(legal):
                i = k * len(legal) + j
                if first.round_ended[i] or first.done[i]:
                    continue
                ref = world.clone()
                ref.apply(me, action)
                while not ref.over and ref.round_no == start:  # type: ignore[attr-defined]
                    q = ref.actors[0]
                    ref.apply(q, ref.rule_of_thumb(q, Rng(0)))  # type: ignore[attr-defined]
                assert values[i] == pytest.approx(_result(ref, me, start), abs=1e-12)
                assert (points[i], wins[i]) == _round_points(ref, me, start)
                compared += 1
    assert compared > 100


@pytest.mark.parametrize("variant", ["cabo-german", "gabo", "kaboo"])
def test_the_batched_search_plays_and_appraises_legal_moves(variant: str) -> None:
    agent = BatchRolloutAgent(seed=4, samples=24)
    game = _midgame(variant, 5, 4)
    me = game.actors[0]
    seat = Seat(game, me)
    legal = game.legal_actions(me)
    assert agent.act(seat) in legal
    appraisal = agent.appraise(seat)
    assert {v.action for v in appraisal.values} == set(legal)
    assert appraisal.deals == 24
    assert all(0.0 <= v.win <= 1.0 for v in appraisal.values)
    assert agent.stats.iterations == 24 * len(legal)  # every action in every deal, at once


def test_the_levels_search_in_the_batch_and_qute_in_the_reference() -> None:
    expert = get("expert")
    assert isinstance(expert, BatchRolloutAgent)
    game = new_game("qute", players=2, seed=3)
    me = game.actors[0]
    agent = BatchRolloutAgent(seed=1, samples=8)
    assert agent.act(Seat(game, me)) in game.legal_actions(me)
    assert agent.stats.iterations > 0
