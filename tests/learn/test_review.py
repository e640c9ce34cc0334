"""The review of a finished game (``learn/review.py``): labels from the search's expected
points, memory slips, the summary, and ``docs/learning.md`` stating the same thresholds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable import Game, new_game
from cardtable.agents import get
from cardtable.catalog import language
from cardtable.learn import review as rv
from cardtable.learn.review import label_for, review, start
from cardtable.seat import Seat

from ..scenario import deal_and_peek

DOCS = Path(__file__).resolve().parents[2] / "docs" / "learning.md"


def _game(move: str) -> Game:
    """Cabo: seat 0 peeked a 0 (card 0) and a 13 (card 1), draws a 12 and plays ``move``."""
    g = deal_and_peek(
        "cabo",
        [["0", "13", "9", "8"], ["5", "6", "7", "4"]],
        "11",
        ["12", "3", "4", "5", "6", "2", "8", "9", "10", "11"],
        first=0,
    )
    g.play(0, "draw deck")
    g.play(0, move)
    return g


def test_throwing_away_a_known_zero_is_a_blunder_and_a_memory_slip() -> None:
    result = review(_game("replace 0").log, [0], samples=100)
    last = result.judgements[-1]
    assert last.index == 5 and str(last.played) == "replace 0"
    assert last.label == "blunder"
    assert last.loss >= rv.BLUNDER and last.loss > rv.NOISE * last.error
    assert str(last.best) != "replace 0"
    assert last.slip is not None
    assert (last.slip.place.seat, last.slip.place.pos, last.slip.card) == (0, 0, "0")
    assert last.slip.at_deal
    words = last.words()
    assert (
        "blunder" in words and "Memory slip: your card 0 was the [0] you saw at the deal" in words
    )
    with language("de"):
        assert "Patzer" in last.words() and "Gedächtnisfehler" in last.words()
    summary = result.summaries[0]
    assert summary.blunders >= 1 and summary.slips == 1
    assert summary.decisions == len(result.of(0))


def test_the_memory_aid_means_no_slips_and_a_sensible_move_is_not_labelled() -> None:
    aided = review(_game("replace 0").log, [0], samples=60, memory_aid=True)
    assert aided.judgements[-1].slip is None
    assert aided.judgements[-1].label is not None  # still a bad move
    good = review(_game("replace 1").log, [0], samples=100)
    assert good.judgements[-1].label is None
    assert good.judgements[-1].slip is None


def test_only_decisions_with_a_choice_of_the_chosen_seats_are_judged() -> None:
    g = new_game("kaboo", players=2, seed=3, options={"target": None})
    agents = [get("beginner", seed=1), get("casual", seed=2)]
    while not g.over:
        s = g.actors[0]
        g.play(s, str(agents[s].act(Seat(g, s))))
    log = g.log
    result = review(log, [1], samples=8)
    assert result.judgements and all(j.seat == 1 for j in result.judgements)
    replay, steps = start(log)
    for j in result.judgements:
        assert steps[j.index][0] == 1 and steps[j.index][1] == str(j.played)
        assert set(j.as_json()) == {"index", "played", "best", "loss", "label"}
        assert j.loss >= 0
    choices = []
    for i, (s, text) in enumerate(steps):
        if s == 1 and len(replay.legal_actions(1)) > 1:
            choices.append(i)
        replay.play(s, text)
    assert [j.index for j in result.judgements] == choices


def test_labels_follow_the_thresholds() -> None:
    assert label_for(1.0, 0.1) is None
    assert label_for(rv.INACCURACY, 0.1) == "inaccuracy"
    assert label_for(rv.MISTAKE, 0.1) == "mistake"
    assert label_for(rv.BLUNDER, 0.1) == "blunder"
    assert label_for(20.0, 12.0) is None  # within the noise of the estimate


def test_the_docs_state_the_thresholds_the_code_uses() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for name, value in (
        ("inaccuracy", rv.INACCURACY),
        ("mistake", rv.MISTAKE),
        ("blunder", rv.BLUNDER),
    ):
        found = re.search(rf"\|\s*{name}\s*\|\s*([0-9.]+)", text)
        assert found, name
        assert float(found.group(1)) == value
    assert f"{rv.NOISE:g} standard errors" in text


@pytest.mark.parametrize(
    "log",
    [
        {"game": "cabo"},
        {"game": "cabo", "seed": 0, "actions": [[0]]},
        {"game": 3, "seed": 0, "actions": []},
    ],
)
def test_a_log_that_is_not_one_is_refused(log: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        review(log, [0], samples=4)
