"""Open hands for practice (``Game.open_view``): every other seat's card face up, the seat's own
cards as its view shows them; no other view path names a card the seat does not know."""

from __future__ import annotations

import random

import pytest

from cardtable import new_game, variants


@pytest.mark.parametrize("variant", variants.names())
@pytest.mark.parametrize("memory", [True, False])
def test_open_view_shows_the_others_cards_and_only_those(variant: str, memory: bool) -> None:
    g = new_game(variant, players=3, seed=5)
    r = random.Random(5)
    for _ in range(40):
        if g.over:
            break
        me = g.actors[0]
        opened = g.open_view(me, memory)
        plain = g.view(me, memory)
        assert {k: v for k, v in opened.items() if k != "hands"} == {
            k: v for k, v in plain.items() if k != "hands"
        }
        for owner, (row, base) in enumerate(zip(opened["hands"], plain["hands"], strict=True)):
            for pos, (cell, was) in enumerate(zip(row, base, strict=True)):
                if owner == me or was is None:
                    assert cell == was
                else:
                    assert cell is not None
                    assert cell["card"] == g.card_at(owner, pos)
        again = g.view(me, memory)
        assert again == plain  # opening the hands changed nothing the next view reads
        legal = g.legal_actions(me)
        g.play(me, str(r.choice(legal)))
