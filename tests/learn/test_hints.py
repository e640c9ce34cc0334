"""Hints (``learn/hints.py``): every legal move with the search's numbers, best first, from
what the seat knows only."""

from __future__ import annotations

import pytest

from cardtable import new_game
from cardtable.catalog import language
from cardtable.learn.hints import hint
from cardtable.rng import Rng
from cardtable.seat import Seat

from ..scenario import deal_and_peek


def test_every_legal_move_is_listed_best_first_in_words() -> None:
    g = deal_and_peek(
        "cabo",
        [["0", "13", "9", "8"], ["5", "6", "7", "4"]],
        "11",
        ["12", "3", "4", "5", "6", "2", "8", "9", "10", "11"],
        first=0,
    )
    g.play(0, "draw deck")
    h = hint(Seat(g, 0), seconds=None, samples=60)
    assert sorted(str(r.action) for r in h.rows) == sorted(map(str, g.legal_actions(0)))
    assert h.rows[0].best and not any(r.best for r in h.rows[1:])
    by = {str(r.action): r for r in h.rows}
    assert by["replace 0"].points > by["replace 1"].points  # the known 0 is worth keeping
    assert str(h.rows[0].action) != "replace 0"
    assert by["replace 0"].words == "put the drawn card in place of your card 0"
    assert "win chance" in by["replace 0"].line()
    with language("de"):
        h2 = hint(Seat(g, 0), seconds=None, samples=10)
        assert any("gegen die gezogene Karte tauschen" in r.words for r in h2.rows)
        assert "Siegchance" in h2.rows[0].line()
    row = h.rows[0].as_json()
    assert set(row) == {"action", "words", "points", "win", "loss", "best"}


@pytest.mark.parametrize("variant", ["kaboo", "gabo", "cabo-german", "qute"])
def test_a_hint_never_knows_more_than_the_seat(variant: str) -> None:
    g = new_game(variant, players=3, seed=11)
    while len(g.legal_actions(g.actors[0])) < 2:
        s = g.actors[0]
        g.play(s, str(g.legal_actions(s)[0]))
    s = g.actors[0]
    other = g.determinize(s, Rng(8))
    a = hint(Seat(g, s), seed=4, seconds=None, samples=10)
    b = hint(Seat(other, s), seed=4, seconds=None, samples=10)
    assert a.as_json() == b.as_json()


def test_a_single_move_needs_no_search() -> None:
    g = new_game("qute", players=2, seed=1)
    while len(g.legal_actions(g.actors[0])) != 1:  # until a seat can only draw
        s = g.actors[0]
        g.play(s, str(g.legal_actions(s)[0]))
    s = g.actors[0]
    h = hint(Seat(g, s))
    assert h.deals == 0 and [r.action for r in h.rows] == g.legal_actions(s)
    assert h.rows[0].best
