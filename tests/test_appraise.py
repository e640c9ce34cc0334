"""The search's numbers for every legal action (``RolloutAgent.appraise``): what hints and
reviews read."""

from __future__ import annotations

import pytest

from cardtable import new_game
from cardtable.agents.oracle import OpenSeat, OracleAgent
from cardtable.agents.search import RolloutAgent
from cardtable.rng import Rng
from cardtable.seat import Seat

from .scenario import deal_and_peek


def _obvious() -> tuple[Seat, str, str]:
    """Cabo, seat 0 knows its card 0 is a 13 and its card 1 a 1, and has drawn a 0:
    replacing the 13 is clearly better than replacing the 1."""
    g = deal_and_peek(
        "cabo",
        [["13", "1", "9", "8"], ["5", "6", "7", "4"]],
        "12",
        ["0", "3", "4", "5", "6", "2", "8", "9", "10", "11"],
        first=0,
    )
    g.play(0, "draw deck")
    return Seat(g, 0), "replace 0", "replace 1"


def test_every_legal_action_is_valued_and_the_choice_is_acts() -> None:
    seat, _, _ = _obvious()
    agent = RolloutAgent(seed=3, samples=40)
    appraisal = agent.appraise(seat)
    legal = seat.legal_actions()
    assert sorted(map(str, (v.action for v in appraisal.values))) == sorted(map(str, legal))
    assert appraisal.values[0].action == appraisal.choice
    assert RolloutAgent(seed=3, samples=40).act(seat) == appraisal.choice
    assert appraisal.deals == 40
    for v in appraisal.values:
        assert v.loss >= 0.0
        assert 0.0 <= v.win <= 1.0
    assert appraisal.of(appraisal.best).loss == 0.0


def test_the_obvious_move_is_best_by_points_and_the_other_loses_points() -> None:
    seat, good, bad = _obvious()
    appraisal = RolloutAgent(seed=1, samples=60).appraise(seat, keep=[bad])
    by = {str(v.action): v for v in appraisal.values}
    assert by[good].points < by[bad].points
    # the 13 kept instead of the 1: points given away (fewer than 12, as later turns may
    # still replace the 13), clearly more than the noise
    assert by[bad].loss > 2.0
    assert by[bad].loss > 2 * by[bad].loss_error
    assert by[bad].samples == 60  # kept in the race: tried in every world
    assert str(appraisal.best) != bad
    assert by[good].loss < by[bad].loss


def test_a_kept_action_is_never_dropped_half_way() -> None:
    seat, _, _ = _obvious()
    free = RolloutAgent(seed=1, samples=40).appraise(seat)
    dropped = [v for v in free.values if v.samples < 40]
    assert dropped, "some action should leave the race half-way here"
    kept = dropped[0].action
    again = RolloutAgent(seed=1, samples=40).appraise(seat, keep=[kept])
    assert again.of(kept).samples == 40


@pytest.mark.parametrize("variant", ["kaboo", "gabo", "cabo-german", "qute"])
def test_the_numbers_do_not_depend_on_hidden_cards(variant: str) -> None:
    g = new_game(variant, players=2, seed=9)
    rng = Rng(4)
    while g.actors and len(g.legal_actions(g.actors[0])) < 2:
        s = g.actors[0]
        g.play(s, str(g.legal_actions(s)[0]))
    s = g.actors[0]
    other = g.determinize(s, rng)
    a = RolloutAgent(seed=2, samples=12).appraise(Seat(g, s))
    b = RolloutAgent(seed=2, samples=12).appraise(Seat(other, s))
    assert [(v.action, v.points, v.win) for v in a.values] == [
        (v.action, v.points, v.win) for v in b.values
    ]


def test_the_oracle_appraises_only_an_open_seat() -> None:
    seat, good, bad = _obvious()
    with pytest.raises(TypeError):
        OracleAgent(seed=1, samples=10).appraise(seat)
    game = deal_and_peek(
        "cabo",
        [["13", "1", "9", "8"], ["5", "6", "7", "4"]],
        "12",
        ["0", "3", "4", "5", "6", "2", "8", "9", "10", "11"],
        first=0,
    )
    game.play(0, "draw deck")
    appraisal = OracleAgent(seed=1, samples=20).appraise(OpenSeat(game, 0), keep=[bad])
    by = {str(v.action): v for v in appraisal.values}
    assert by[good].points < by[bad].points
    assert appraisal.of(appraisal.best).loss == 0.0


def test_a_time_budget_still_deals_the_floor_of_worlds() -> None:
    seat, _, _ = _obvious()
    assert RolloutAgent(seed=1, samples=40, seconds=0.0).appraise(seat).deals == 2
    assert RolloutAgent(seed=1, samples=40, seconds=0.0, least=12).appraise(seat).deals == 12
