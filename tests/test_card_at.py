"""``Game.card_at``: the true card at a place, for training labels and tests.

It agrees with what every seat that knows a card sees, and is ``None`` where there is no card.
"""

from __future__ import annotations

import pytest

from cardtable import new_game
from cardtable.notation import parse
from cardtable.rng import Rng

VARIANTS = ("cabo", "cabo-german", "gabo", "kaboo", "qute")


@pytest.mark.parametrize("variant", VARIANTS)
def test_card_at_is_the_true_card(variant: str) -> None:
    g = new_game(variant, players=3, seed=11, options={"target": None})
    rng = Rng(2)
    for _ in range(30):
        if g.over:
            break
        seat = g.actors[0]
        g.play(seat, g.rule_of_thumb(seat, rng))
    known = g.knowledge(0)
    if known is not None:  # the Cabo family: a card a seat knows is the true card
        for owner, hand in enumerate(known):
            for p, cid in enumerate(hand):
                if cid >= 0:
                    assert g.card_at(owner, p) == g.codes[cid]
                elif cid == -1:
                    assert g.card_at(owner, p) is None
    else:  # Qute: each seat holds its own hand face up
        for s in range(3):
            own = g.view(s)["hand"]
            assert [g.card_at(s, p) for p in range(len(own) + 1)] == [*own, None]
    assert g.card_at(0, 99) is None


def test_a_stacked_deal_is_where_card_at_says() -> None:
    g = new_game("cabo", players=2, seed=1, options={"first": 0}, deck=["1", "2", "3", "4"])
    dealt = [g.card_at(s, p) for p in range(4) for s in range(2)]
    assert dealt[:4] == ["1", "2", "3", "4"]
    g.play(0, parse("peek 0"))
    assert g.card_at(0, 0) == "1"
