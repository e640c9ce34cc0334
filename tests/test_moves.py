"""Every move in plain words (``text/moves.py``), in English and German."""

from __future__ import annotations

import random

import pytest

from cardtable import new_game, variants
from cardtable.catalog import language
from cardtable.notation import parse
from cardtable.text.moves import move_words


@pytest.mark.parametrize("variant", variants.names())
def test_every_legal_move_of_every_game_has_words_in_both_languages(variant: str) -> None:
    kinds: set[tuple[str, int]] = set()
    for seed in range(6):
        g = new_game(variant, players=3, seed=seed)
        r = random.Random(seed)
        for _ in range(300):
            if g.over:
                break
            s = g.actors[0]
            legal = g.legal_actions(s)
            for a in legal:
                if (a.name, len(a.args)) in kinds:
                    continue
                kinds.add((a.name, len(a.args)))
                en = move_words(a, s)
                with language("de"):
                    de = move_words(a, s)
                assert en and de and en != de, (a, en, de)
                assert str(a) not in (en, de)
            g.play(s, str(r.choice(legal)))
    assert len(kinds) >= 6


def test_places_are_named_from_the_movers_side() -> None:
    assert move_words(parse("replace 2"), 0) == "put the drawn card in place of your card 2"
    assert move_words(parse("spy 1.3"), 0, ["Ann", "Bob"]) == "look at Bob's card 3"
    assert move_words(parse("exchange 0 1.3"), 0) == "swap your card 0 and seat 1's card 3 unseen"
    assert move_words(parse("draw discard"), 1) == "take the top card of the discard pile"
    with language("de"):
        assert (
            move_words(parse("replace 2"), 0) == "deine Karte 2 gegen die gezogene Karte tauschen"
        )
