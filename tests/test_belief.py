"""Beliefs: what a seat's history tells about the cards it does not know, and dealing from it.

* ``history(seat)`` is the round's events as the seat saw them.
* The contexts the tracker reads from a stacked deal are the ones its rules say.
* A belief is a function of what the seat knows: re-dealing the rest changes nothing.
* Weighted dealing keeps every hard constraint and follows the weights.
* The shipped models predict held-out hidden cards better than uniform dealing.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardtable import new_game
from cardtable.agents import belief
from cardtable.agents.belief import FamilyTracker, weights_for
from cardtable.rng import Rng
from cardtable.seat import Seat
from cardtable.training import belief as training

from .helpers import assert_conserved, kind_first_choice, random_actor
from .scenario import deal

FAMILY = ["cabo", "cabo-german", "gabo", "kaboo"]

# kaboo, seat 0 first: seat 1 sees its bottom row 7C, 8C at the start.
KABOO = [["5H", "6H", "7H", "8H"], ["5C", "6C", "7C", "8C"]]


def test_history_is_the_round_as_the_seat_saw_it() -> None:
    g = deal("kaboo", KABOO, None, ["2S", "3S", "KD"], options={"first": 0})
    first = g.history(0)
    assert first[0]["type"] == "round_start"
    peeks = [(e["at"], e.get("card")) for e in first if e["type"] == "peek"]
    assert peeks == [("0.2", "7H"), ("0.3", "8H"), ("1.2", None), ("1.3", None)]
    g.play(0, "draw deck")  # 2S
    last = g.history(0)[-1]
    assert (last["type"], last["seat"], last["from"], last["card"]) == ("draw", 0, "deck", "2S")
    assert "card" not in g.history(1)[-1]
    g.play(0, "replace 3")  # the 8H goes face up
    replaced = [e for e in g.history(1) if e["type"] == "replace"]
    assert [(e["at"], e["out"]) for e in replaced] == [(["0.3"], ["8H"])]
    with pytest.raises(ValueError):
        g.history(2)


def test_history_starts_again_with_each_round() -> None:
    g: Any = new_game("gabo", players=2, seed=4, options={"target": 200})
    rng = Rng(4)
    while g.view(0)["round"] == 1:
        seat = random_actor(g, rng)
        g.play(seat, kind_first_choice(g, seat, rng))
    assert g.history(0)[0] == {**g.history(0)[0], "type": "round_start", "round": 2}
    assert not any(e["type"] == "round_end" for e in g.history(1))


def test_a_kept_card_and_a_let_go_card_give_their_contexts() -> None:
    # Seat 1 knows its 7C and 8C. It draws a 2S and keeps it instead of the 8C (which goes
    # face up): the kept card is "kept instead of an 8", and its 7C was worth keeping over an 8.
    g = deal("kaboo", KABOO, None, ["9S", "2S", "KD"], options={"first": 0})
    g.play(0, "draw deck")  # 9S: spy
    g.play(0, "discard")
    g.play(0, "spy 1.0")
    g.play(1, "draw deck")  # 2S
    g.play(1, "replace 3")
    contexts = FamilyTracker(Seat(g, 0)).contexts
    assert contexts[(1, 3)] == (True, "kept", 8, False)
    assert contexts[(1, 2)] == (True, "deal", 8, False)
    assert contexts[(1, 1)] == (False, "deal", None, False)
    assert (1, 0) not in contexts  # seat 0 spied it: known, no belief needed
    g.play(0, "knock")
    # seat 0 let a 9 go while knowing its 7H; and it called
    assert FamilyTracker(Seat(g, 1)).contexts[(0, 2)] == (True, "deal", 9, True)


@pytest.mark.parametrize("name", FAMILY)
def test_a_belief_reads_only_what_the_seat_knows(name: str) -> None:
    """Re-dealing what a seat does not know changes neither its contexts nor its weights."""
    rng = Rng(8)
    drng = random.Random(8)
    checked = 0
    for seed in range(6):
        g: Any = new_game(
            name, players=3 if name == "gabo" else 2, seed=seed, options={"target": None}
        )
        while not g.over:
            for seat in range(g.players):
                world = g.determinize(seat, drng)
                mine, real = Seat(world, seat), Seat(g, seat)
                assert FamilyTracker(mine).contexts == FamilyTracker(real).contexts
                assert weights_for(mine) == weights_for(real)
                checked += 1
            seat = random_actor(g, rng)
            g.play(seat, kind_first_choice(g, seat, rng))
    assert checked >= 50


def test_weighted_dealing_follows_the_weights_and_keeps_the_constraints() -> None:
    g: Any = deal("kaboo", KABOO, None, ["2S", "KD"], options={"first": 0})
    n = len(g.codes)
    only_5c = [1.0 if g.codes[c] == "5C" else 0.0 for c in range(n)]
    no_5c_6c = [0.0 if g.codes[c] in ("5C", "6C") else 1.0 for c in range(n)]
    seen = Counter()
    for k in range(200):
        world: Any = g.determinize(0, Rng(k), {(1, 1): only_5c, (1, 0): no_5c_6c})
        assert_conserved(world)
        assert world.hands[0][2:] == g.hands[0][2:]  # what seat 0 knows stays put
        assert world.codes[world.hands[1][1]] == "5C"
        seen[world.codes[world.hands[1][0]]] += 1
    assert "6C" not in seen and "5C" not in seen
    assert len(seen) > 20  # the rest is dealt from the whole pool
    # all-zero weights deal uniformly rather than fail
    zero = [0.0] * n
    world = g.determinize(0, Rng(1), {(1, 1): zero})
    assert_conserved(world)


def test_fit_learns_the_kept_cards_are_low() -> None:
    samples = training.collect("kaboo", 60, seed=3)
    model = training.fit("kaboo", samples, iterations=150)
    test = training.collect("kaboo", 30, seed=4)
    lm, lu, count = training.log_likelihood(model, test)
    assert count > 500
    assert lm > lu  # better than uniform dealing on held-out positions
    kept = [k for k in model.logw if k.startswith("1|kept|")]
    assert kept
    row = model.logw[kept[0]]
    assert row[0] + row[1] > row[-1] + row[-2]  # K and A weigh more than Q and 10


@pytest.mark.parametrize("name", FAMILY)
def test_the_shipped_models_beat_uniform_dealing(name: str) -> None:
    model = belief.load(name)
    assert model is not None and model.variant == name
    lm, lu, count = training.log_likelihood(model, training.collect(name, 25, seed=11))
    assert count > 200
    assert lm > lu


def test_no_model_no_belief() -> None:
    g = new_game("qute", players=2, seed=1)
    assert weights_for(Seat(g, 0)) == {}
