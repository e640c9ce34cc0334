"""The Cabo family's phase table is the one source of legality and refusals.

At every state of random games of every family variant, each action of the learners' whole
action table (every word with every argument, for every seat) must be judged the same way by
the legal-action list, the table lookup ``play`` validates with, and ``check``: a legal action
is accepted, any other is refused with a reason — and the reason of a closed move is the message
its own table entry gives.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable import IllegalAction, new_game
from cardtable.encoding import encoding
from cardtable.games.family import RULESETS, phases
from cardtable.games.family.engine import FamilyGame
from cardtable.notation import Action, parse


def _universe(variant: str, players: int, seat: int) -> list[Action]:
    enc = encoding(variant, players)
    acts = [enc.decode(seat, i) for i in range(enc.size)]
    acts += [Action(w) for w in ("cabo", "gabo", "knock", "pass", "exchange", "discard")]
    return acts


def _no_call(g: Any, seat: int) -> list[Action]:
    """The legal actions without the call (random play would call early and end the round)."""
    legal = g.legal_actions(seat)
    return [a for a in legal if a.name != g.rs.call] or legal


@pytest.mark.parametrize("variant", sorted(RULESETS))
def test_the_list_the_lookup_and_check_agree_everywhere(variant: str) -> None:
    rng = random.Random(7)
    players = 3 if RULESETS[variant].max_players >= 3 else 2
    universes = [_universe(variant, players, s) for s in range(players)]
    states = 0
    for seed in range(3):
        g: Any = new_game(variant, players=players, seed=seed, options={"target": None})
        assert isinstance(g, FamilyGame)
        while not g.over:
            states += 1
            for seat in range(players):
                legal = set(g.legal_actions(seat))
                for act in universes[seat]:
                    canon = g._normalize(seat, act)
                    assert g._is_legal(seat, canon) == (canon in legal) or not g._may_act(seat)
                    if canon in legal:
                        assert g.check(seat, act) == canon
                        continue
                    with pytest.raises(IllegalAction) as info:
                        g.check(seat, act)
                    assert str(info.value), "a refusal always says why"
            seat = rng.choice(g.actors)
            g.play(seat, rng.choice(_no_call(g, seat)))
    assert states > 100


def test_a_closed_move_is_refused_with_its_own_table_text() -> None:
    """Whatever a move's offer says when it is closed is exactly what ``play`` answers: the same
    catalog message with the same placeholders."""
    rng = random.Random(3)
    seen: set[str] = set()
    for variant in sorted(RULESETS):
        for seed in range(4):
            g: Any = new_game(variant, players=2, seed=seed, options={"target": None})
            while not g.over:
                seat = rng.choice(g.actors)
                for move in phases.moves_of(g.rs)[g.phase]:
                    offer = move.offer(g, seat)
                    if not isinstance(offer, phases.Closed):
                        continue
                    word = g.rs.call if move.word == phases.CALL else move.word
                    candidates = [
                        a
                        for a in _universe(variant, 2, seat)
                        if a.name == word and (move.fits is None or move.fits(a))
                    ]
                    for act in candidates[:3]:
                        with pytest.raises(IllegalAction) as info:
                            g.check(seat, act)
                        refused = info.value
                        if refused.key not in ("refusal.no_card_at", "refusal.no_such_seat"):
                            assert (refused.key, refused.params) == (offer.key, offer.params)
                            seen.add(str(refused))
                g.play(seat, rng.choice(g.legal_actions(seat)))
    # the table's closed-move texts that random play reaches
    assert "the end has already been called this round" in seen
    assert any("power must be used" in s for s in seen)


def test_words_are_refused_by_where_the_table_takes_them() -> None:
    g: Any = new_game("gabo", players=3, seed=1, options={"target": None})
    for seat in range(3):
        for pos in range(2):
            g.play(seat, f"peek {pos}")
    seat = g.turn
    with pytest.raises(IllegalAction, match="cards can only be dropped while a snap window"):
        g.play(seat, "drop 0")
    with pytest.raises(IllegalAction, match="draw a card first"):
        g.play(seat, "replace 0")
    g.play(seat, "draw deck")
    with pytest.raises(IllegalAction, match="the end can only be called at the start of your"):
        g.play(seat, "gabo")
    with pytest.raises(IllegalAction, match="you can only draw at the start of your turn"):
        g.play(seat, parse("draw discard"))
