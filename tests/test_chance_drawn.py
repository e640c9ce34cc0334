"""Games whose draws come from a source (``new_game(..., draws=source)``).

* Every card such a game deals or draws is the source's choice; its generator decides nothing.
* Between actions it refuses to draw; clones and determinized copies stay so.
* ``drawing_by_itself`` gives a plain game in the same position, the same for the same seed.
"""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable import new_game
from cardtable.game import ChanceDrawn, DrawSource, Game
from cardtable.rng import Rng

VARIANTS = ("cabo", "cabo-german", "gabo", "kaboo", "qute")


class _Lowest(DrawSource):
    """Takes the lowest card id of the pile, counting the takes."""

    def __init__(self) -> None:
        self.taken: list[int] = []

    def take(self, game: Game, pile: list[int], decisive: bool) -> int:
        """Remove and return the lowest card id of ``pile``."""
        cid = min(pile)
        pile.remove(cid)
        self.taken.append(cid)
        return cid


def _chance(variant: str) -> tuple[ChanceDrawn, _Lowest]:
    source = _Lowest()
    g = new_game(variant, players=2, options={"first": 0, "target": None}, draws=source)
    assert isinstance(g, ChanceDrawn)
    return g, source


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_source_chooses_every_card_of_the_deal(variant: str) -> None:
    g, source = _chance(variant)
    dealt = sorted(source.taken)
    assert dealt == list(range(len(dealt))), "each card dealt is the lowest one left"
    hands = Counter(g.card_at(s, p) for s in range(2) for p in range(10))
    del hands[None]
    taken = Counter(g.codes[c] for c in source.taken)
    assert not hands - taken, "every hand card is one the source chose"
    assert taken.total() - hands.total() <= 1, "but the pile's first card, where one is turned"


@pytest.mark.parametrize("variant", VARIANTS)
def test_between_actions_the_game_refuses_to_draw(variant: str) -> None:
    g, _ = _chance(variant)
    del g.draws
    seat = g.actors[0]
    with pytest.raises(RuntimeError, match="inside the adapter"):
        while True:  # play on until something is drawn (the first draw of a turn)
            g.apply(seat, g.rule_of_thumb(seat, Rng(1)))
            seat = g.actors[0]
    world = g.determinize(0, 5)
    assert isinstance(world, ChanceDrawn) and "draws" not in world.__dict__
    assert isinstance(g.clone(), ChanceDrawn)
    with pytest.raises(RuntimeError, match="decides nothing at random"):
        g.random.random()


@pytest.mark.parametrize("variant", VARIANTS)
def test_drawing_by_itself_is_a_plain_game_in_the_same_position(variant: str) -> None:
    g, _ = _chance(variant)
    del g.draws
    one, two = g.drawing_by_itself(7), g.drawing_by_itself(7)
    assert not isinstance(one, ChanceDrawn)
    for seat in range(2):  # a clone: the same table, no events of its own
        assert {**one.view(seat), "events": []} == {**g.view(seat), "events": []}
    rng = Rng(3)
    for _ in range(40):
        if one.over:
            break
        seat = one.actors[0]
        action = one.rule_of_thumb(seat, rng)
        one.apply(seat, action)
        two.apply(seat, action)
        assert one.view(seat) == two.view(seat), "the same seed draws the same cards"


def test_a_chance_drawn_game_takes_no_seed_or_deck() -> None:
    with pytest.raises(ValueError, match="no seed or deck"):
        new_game("kaboo", seed=3, options={"first": 0}, draws=_Lowest())
    with pytest.raises(ValueError, match="no seed or deck"):
        new_game("qute", deck=["AH"], draws=_Lowest())
