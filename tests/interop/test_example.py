"""The knock-learning example (``examples/train_kaboo_knock.py``): it runs, reads only what the
learner may see, and its training changes the policy."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from cardtable import Game, new_game
from cardtable.agents import get as get_agent
from cardtable.games.family import FamilyGame
from cardtable.seat import Seat

from ..helpers import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "train_kaboo_knock.py"


def _load_example() -> ModuleType:
    """Import the example script as a module (``examples/`` is not a package)."""
    return load_script(SCRIPT, "train_kaboo_knock_example")


@pytest.fixture(scope="module")
def ex() -> ModuleType:
    return _load_example()


def _percent(output: str, label: str) -> list[float]:
    """Every win rate printed on a line that starts with ``label``."""
    pattern = re.compile(rf"^\s*{re.escape(label)}.*?(-?\d+(?:\.\d+)?)%", re.MULTILINE)
    return [float(m) for m in pattern.findall(output)]


def test_quick_run_prints_before_after_and_table() -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--seed", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    before = _percent(out, "before:")
    after = _percent(out, "after:")
    reference = _percent(out, "reference:")
    assert before and after and reference, out
    for rate in before + after + reference:
        assert 0.0 <= rate <= 100.0
    assert "Learned knock policy" in out
    assert re.search(r"^\s*own unseen\s+0\s+1\s+2\+$", out, re.MULTILINE), out
    assert re.search(r"^\s*own sum$", out, re.MULTILINE), out
    assert re.search(r"[K.] +[+-]\d+\.\d", out), "the table shows no learned cell"
    assert "elapsed:" in out


def _decision_points(games: int) -> list[tuple[Game, int]]:
    """(game copy, acting seat) at every decision of a few heuristic-vs-heuristic games."""
    points: list[tuple[Game, int]] = []
    for deal in range(games):
        g = new_game("kaboo", players=2, seed=deal)
        agents = [get_agent("heuristic", deal), get_agent("heuristic", deal + 1)]
        while not g.over:
            seat = g.actors[0]
            points.append((g.clone(), seat))
            g.play(seat, agents[seat].act(Seat(g, seat)))
    return points


def test_features_ignore_hidden_cards(ex: ModuleType) -> None:
    points = _decision_points(6)
    assert len(points) > 50
    redealt = 0
    for k, (g, actor) in enumerate(points):
        assert isinstance(g, FamilyGame)
        for seat in (actor, 1 - actor):
            f = ex.features(g.view(seat))
            for r in range(3):
                world = g.determinize(seat, 1000 * k + 10 * seat + r)
                redealt += world.hands != g.hands
                assert ex.features(world.view(seat)) == f
    assert redealt > len(points)  # the hidden cards really moved


def test_features_at_the_deal(ex: ModuleType) -> None:
    g = new_game("kaboo", players=2, seed=11)
    seat = g.actors[0]
    view = g.view(seat)
    hand = view["hands"][seat]
    seen = [ex._KABOO.value(slot["card"]) for slot in hand if slot["card"] is not None]
    assert len(seen) == 2  # the bottom row, positions 2 and 3
    mean = (ex._DECK_SUM - sum(seen)) / (52 - 2)
    f = ex.features(view)
    assert f.own_unknown == 2
    assert f.own_sum == pytest.approx(sum(seen) + 2 * mean)
    assert f.opp_self_known == 2  # the opponent has seen its bottom row
    own, known, unknown = ex.cell_of(f)
    assert (known, unknown) == (0, 2)
    edges = ex.OWN_EDGES
    assert own == 0 or edges[own - 1] <= f.own_sum
    assert own == len(edges) or f.own_sum < edges[own]


def test_table_targets(ex: ModuleType) -> None:
    table = ex.KnockTable()
    a, b = (4, 1, 0), (5, 2, 1)
    # went on in a, then knocked in b and won: knocking in b is worth 1, and so is a's going on
    table.learn_game([(a, False), (b, True)], 1.0)
    assert table.knock_value[b] == 1.0 and table.go_value[a] == 1.0
    assert table.knock_probability(b) == 1.0 and table.knock_probability(a) == 0.0
    # went on in a and lost without deciding again: going on from a averages 1 and 0
    table.learn_game([(a, False)], 0.0)
    assert table.go_value[a] == pytest.approx(0.5)
    assert table.go_visits[a] == 2 and table.knock_visits[a] == 0
    assert table.knock_probability(a) == 0.5  # untried knocking keeps its initial 1/2
    assert table.state_value((0, 0, 0)) is None


def test_quick_training_changes_the_policy(ex: ModuleType) -> None:
    table = ex.KnockTable()
    assert np.all(table.probabilities() == 0.5)  # untrained: a coin flip everywhere
    ex.train(table, ex.QUICK_TRAIN_GAMES, 0, lambda _: None)
    probs = table.probabilities()
    assert set(np.unique(probs)) <= {0.0, 0.5, 1.0}
    assert np.count_nonzero(probs != 0.5) >= 10
    assert np.any(probs == 0.0) and np.any(probs == 1.0)
    assert table.knock_visits.sum() > 0 and table.go_visits.sum() > 0


def test_training_is_deterministic(ex: ModuleType) -> None:
    tables = []
    for _ in range(2):
        table = ex.KnockTable()
        ex.train(table, 200, 5, lambda _: None)
        tables.append(table)
    np.testing.assert_array_equal(tables[0].probabilities(), tables[1].probabilities())
    np.testing.assert_array_equal(tables[0].go_value, tables[1].go_value)
    np.testing.assert_array_equal(tables[0].knock_value, tables[1].knock_value)


def test_going_on_is_the_heuristic_move(ex: ModuleType) -> None:
    """Where the heuristic agent does not knock, the learner's non-knock move is its move."""
    checked = 0
    for g, seat in _decision_points(6):
        if ex.KNOCK not in g.legal_actions(seat):
            continue
        heuristic = get_agent("heuristic", 40 + seat)
        move = heuristic.act(Seat(g, seat))
        if move != ex.KNOCK:
            assert ex.heuristic_turn_without_knock(Seat(g, seat), 40 + seat) == move
            checked += 1
    assert checked > 20


def test_learner_plays_only_legal_moves_and_never_knocks_when_told_not_to(
    ex: ModuleType,
) -> None:
    for deal in range(4):
        agent = ex.KnockLearnerAgent(deal, lambda _: False)
        g = new_game("kaboo", players=2, seed=deal)
        opponent = get_agent("heuristic", deal + 1)
        while not g.over:
            seat = g.actors[0]
            action = agent.act(Seat(g, seat)) if seat == 0 else opponent.act(Seat(g, seat))
            assert action in g.legal_actions(seat)
            if seat == 0:
                assert action != ex.KNOCK
            g.play(seat, action)
        assert agent.decisions and not any(knocked for _, knocked in agent.decisions)
