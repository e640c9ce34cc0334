"""The batched engine equals the reference engine action by action: the same deals (the same
seeds), the same actor, legal mask and observation of every seat (with and without memory aid)
before each action, and the same round scores, totals and winners. Random and rules-of-thumb
play, every built-in variant, several seat counts, fresh seeds and continued generators. Any
difference fails; none is tolerated."""

from __future__ import annotations

import pytest

from cardtable.games.family import RULESETS

from .parity import heuristic_choice, play, random_choice

VARIANTS = ["cabo", "cabo-german", "gabo", "kaboo"]

# (players, games, steps, chooser, reseed): 10,000 actions per variant in the default run
DEFAULT_RUNS = [
    (2, 24, 125, random_choice, True),
    (4, 24, 125, random_choice, True),
    (3, 16, 125, heuristic_choice, True),
    (2, 16, 125, random_choice, False),
]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_batch_plays_every_action_as_the_reference_does(variant: str) -> None:
    actions = rounds = games = 0
    for players, size, steps, choose, reseed in DEFAULT_RUNS:
        tally = play(variant, players, size, steps, choose, seed=players, reseed=reseed)
        assert tally.differences == [], (players, choose.__name__, reseed)
        actions += tally.actions
        rounds += tally.rounds
        games += tally.games
    assert actions >= 10_000
    assert rounds > 20 and games > 10  # the ends of rounds and games were compared


SLOW_SEATS = {"kaboo": (2, 3, 4), "cabo": (2, 3, 4, 6), "cabo-german": (2, 3, 4, 6)}


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_million_actions_per_variant_play_as_the_reference(variant: str) -> None:
    """The complete state, the actor and the mask before every action, every seat's
    observations before every tenth step (the default run compares them at every step)."""
    seats = SLOW_SEATS.get(variant, (2, 3, 4, 6, 10))
    per_run = 1_000_000 // (2 * len(seats)) + 1
    actions = 0
    for players in seats:
        for choose in (random_choice, heuristic_choice):
            size = 64
            steps = per_run // size + 1
            tally = play(
                variant, players, size, steps, choose, seed=1000 + players, observe_every=10
            )
            assert tally.differences == [], (players, choose.__name__)
            actions += tally.actions
    assert actions >= 1_000_000


def test_the_rule_sets_are_all_covered() -> None:
    assert sorted(RULESETS) == VARIANTS  # a new built-in variant joins the parity runs
