"""Scenario tests for `kaboo` (RULES.md §2 `kaboo` column and subsection).

Kaboo: 52 standard cards, a 2×2 square per seat (0, 1 top row; 2, 3 bottom row), each seat
sees its own bottom row at the start, no discard pile to begin with, `knock` to call, and the
single round ends after the turn that draws the last deck card.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cardtable import Game, IllegalAction, new_game
from cardtable.cards import standard_deck

from .scenario import deal, full_order, hand, last_round, quick_turn, seen, stack

# --------------------------------------------------------------------------- helpers

H0 = ["AC", "2C", "3C", "4C"]
H1 = ["AD", "2D", "3D", "4D"]
H2 = ["AH", "2H", "3H", "4H"]
H3 = ["AS", "2S", "3S", "4S"]


def kaboo(
    hands: list[list[str]], deck: list[str] | None = None, seed: int = 0, **options: Any
) -> Game:
    """A kaboo game dealt from `hands` (no discard starter); seat 0 starts unless `first`
    says otherwise."""
    return deal("kaboo", hands, None, deck, seed=seed, options={"first": 0, **options})


# --------------------------------------------------------------------------- the square


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_seat_sees_its_own_bottom_row_at_the_start(players: int) -> None:
    hands = [H0, H1, H2, H3][:players]
    g = kaboo(hands)
    for s in range(players):
        v = g.view(s)
        assert v["phase"] == "turn"
        for t in range(players):
            assert len(v["hands"][t]) == 4
            assert seen(v, t) == [[], [], [t], [t]]
            if t == s:
                assert hand(v, t) == ["?", "?", hands[t][2], hands[t][3]]
            else:
                assert hand(v, t) == ["?", "?", "?", "?"]
    spec = g.spectator_view()
    assert all(c["card"] is None for h in spec["hands"] for c in h)


def test_there_is_no_peek_phase() -> None:
    g = kaboo([H0, H1])
    v = g.view(0)
    assert v["actors"] == [0]
    assert v["legal"] == ["draw deck", "knock"]
    assert v["peeks_left"] is None
    before = copy.deepcopy(g._dump())
    with pytest.raises(IllegalAction):
        g.play(0, "peek 0")
    with pytest.raises(IllegalAction):
        g.play(1, "peek 0")
    assert g._dump() == before


def test_no_discard_pile_at_the_start() -> None:
    g = kaboo([H0, H1])
    v = g.view(1)
    assert v["discard"] == []
    assert v["deck"] == 52 - 8
    with pytest.raises(IllegalAction, match="discard pile is empty"):
        g.play(0, "draw discard")


def test_first_seat_is_drawn_from_the_seed_unless_given() -> None:
    firsts = {new_game("kaboo", players=3, seed=s).view(0)["first"] for s in range(30)}
    assert firsts == {0, 1, 2}
    for s in range(30):
        a = new_game("kaboo", players=3, seed=s)
        b = new_game("kaboo", players=3, seed=s)
        assert a.actors == b.actors == [a.view(0)["first"]]
    g = kaboo([H0, H1, H2], first=2)
    assert g.actors == [2]
    assert g.view(0)["turn"] == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_allowed(players: int) -> None:
    g = new_game("kaboo", players=players, options={"first": 0})
    assert g.view(0)["deck"] == 52 - 4 * players


@pytest.mark.parametrize("players", [1, 5])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game("kaboo", players=players)


def test_default_is_two_players() -> None:
    assert new_game("kaboo").players == 2


# --------------------------------------------------------------------------- knowledge


def test_a_deck_card_is_seen_only_by_its_drawer() -> None:
    g = kaboo([H0, H1, H2], ["5S"])
    g.play(0, "draw deck")
    assert g.view(0)["drawn"] == "5S"
    assert g.view(1)["drawn"] is None
    assert g.view(2)["drawn"] is None
    assert g.spectator_view()["drawn"] is None
    draw = [e for e in g.view(1)["events"] if e["type"] == "draw"][-1]
    assert "card" not in draw
    assert [e for e in g.view(0)["events"] if e["type"] == "draw"][-1]["card"] == "5S"
    g.play(0, "replace 1")
    assert g.view(0)["hands"][0][1] == {"card": "5S", "seen": [0]}
    assert g.view(1)["hands"][0][1] == {"card": None, "seen": [0]}
    assert g.view(2)["hands"][0][1]["card"] is None
    # the replaced 2C is face up now
    for v in (g.view(1), g.view(2), g.spectator_view()):
        assert v["discard"] == ["2C"]


def test_a_discarded_deck_card_is_seen_by_everyone() -> None:
    g = kaboo([H0, H1], ["5S"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    for v in (g.view(0), g.view(1), g.spectator_view()):
        assert v["discard"] == ["5S"]
    g.play(1, "draw discard")
    assert g.view(0)["drawn"] == "5S"
    g.play(1, "replace 0")
    assert g.spectator_view()["hands"][1][0] == {"card": "5S", "seen": [0, 1]}
    assert g.view(0)["discard"] == ["AD"]


# --------------------------------------------------------------------------- values


def test_card_values() -> None:
    g = kaboo([["KH", "KS", "AC", "QD"], ["JC", "10D", "2S", "7H"]], ["3C"])
    g.play(0, "knock")
    g.play(1, "draw deck")
    g.play(1, "discard")
    res = last_round(g)
    assert res["hands"] == [["KH", "KS", "AC", "QD"], ["JC", "10D", "2S", "7H"]]
    assert res["sums"] == [-1 - 1 + 1 + 10, 10 + 10 + 2 + 7]
    assert res["scores"] == [9, 29]


def test_knocker_gets_no_penalty() -> None:
    g = kaboo([["QC", "QD", "JH", "10S"], H1], ["5S"])
    g.play(0, "knock")
    g.play(1, "draw deck")
    g.play(1, "discard")
    res = last_round(g)
    assert res["caller"] == 0
    assert res["scores"] == res["sums"] == [40, 10]
    assert res["winners"] == [1]


# --------------------------------------------------------------------------- powers


@pytest.mark.parametrize(
    ("card", "power"),
    [("7S", "peek"), ("8S", "peek"), ("9S", "spy"), ("10S", "spy"), ("JS", "exchange")],
)
def test_powers_of_seven_to_jack(card: str, power: str) -> None:
    g = kaboo([H0, H1], [card])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["phase"] == "power"
    assert v["pending"] == {"power": power, "card": card}
    assert v["legal"][-1] == "pass"  # no power must be used
    if power == "peek":
        assert v["legal"] == ["peek 0", "peek 1", "peek 2", "peek 3", "pass"]
    elif power == "spy":
        assert v["legal"] == [f"spy 1.{p}" for p in range(4)] + ["pass"]
    else:
        own_other = [f"exchange {i} 1.{p}" for i in range(4) for p in range(4)]
        assert v["legal"] == [*own_other, "pass"]
    assert g.view(1)["pending"] == v["pending"]
    assert g.view(1)["legal"] == []


@pytest.mark.parametrize("card", ["AS", "2S", "3S", "4S", "5S", "6S", "KS", "KH"])
def test_cards_without_power(card: str) -> None:
    g = kaboo([H0, H1], [card])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["phase"] == "turn"
    assert v["actors"] == [1]


def test_peek_power_shows_an_own_top_row_card() -> None:
    g = kaboo([H0, H1], ["7S"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "peek 1")
    assert hand(g.view(0), 0) == ["?", "2C", "3C", "4C"]
    assert hand(g.view(1), 0) == ["?", "?", "?", "?"]
    assert g.actors == [1]


def test_spy_power_shows_another_seats_card_to_the_spy() -> None:
    g = kaboo([H0, H1, H2], ["9S"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "spy 2.0")
    assert g.view(0)["hands"][2][0] == {"card": "AH", "seen": [0]}
    assert g.view(2)["hands"][2][0] == {"card": None, "seen": [0]}
    assert g.view(1)["hands"][2][0]["card"] is None


def test_jack_blind_exchange_moves_knowledge_with_the_cards() -> None:
    g = kaboo([H0, H1], ["JS"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "exchange 2 1.3")  # seat 0's 3C (seen by 0) ↔ seat 1's 4D (seen by 1)
    v0, v1 = g.view(0), g.view(1)
    assert v0["hands"][0][2] == {"card": None, "seen": [1]}
    assert v1["hands"][0][2] == {"card": "4D", "seen": [1]}
    assert v0["hands"][1][3] == {"card": "3C", "seen": [0]}
    assert v1["hands"][1][3] == {"card": None, "seen": [0]}
    assert g.actors == [1]
    g.play(1, "knock")
    g.play(0, "draw discard")
    g.play(0, "replace 0")
    res = last_round(g)
    assert res["hands"] == [["JS", "2C", "4D", "4C"], ["AD", "2D", "3D", "3C"]]


def test_queen_looks_at_two_cards_then_exchanges_them() -> None:
    g = kaboo([H0, H1], ["QS"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["pending"] == {"power": "look", "card": "QS"}
    assert "look 0 1.2" in v["legal"]
    assert v["legal"][-1] == "pass"
    g.play(0, "look 0 1.2")
    v0 = g.view(0)
    assert v0["phase"] == "look"
    assert v0["legal"] == ["exchange", "pass"]
    assert v0["pending"]["looked"] == ["0.0", "1.2"]
    assert v0["hands"][0][0] == {"card": "AC", "seen": [0]}
    assert v0["hands"][1][2] == {"card": "3D", "seen": [0, 1]}
    assert g.view(1)["hands"][0][0] == {"card": None, "seen": [0]}
    g.play(0, "exchange")
    v0, v1 = g.view(0), g.view(1)
    assert v0["hands"][0][0] == {"card": "3D", "seen": [0, 1]}
    assert v0["hands"][1][2] == {"card": "AC", "seen": [0]}
    assert v1["hands"][0][0] == {"card": "3D", "seen": [0, 1]}
    assert v1["hands"][1][2] == {"card": None, "seen": [0]}
    assert g.actors == [1]


def test_queen_look_then_pass_keeps_the_cards_in_place() -> None:
    g = kaboo([H0, H1], ["QS"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "look 1 1.1")
    g.play(0, "pass")
    v0 = g.view(0)
    assert v0["hands"][0][1] == {"card": "2C", "seen": [0]}
    assert v0["hands"][1][1] == {"card": "2D", "seen": [0]}
    assert g.actors == [1]
    g.play(1, "knock")
    g.play(0, "draw discard")
    g.play(0, "replace 0")
    assert last_round(g)["hands"][1] == H1


def test_queen_cannot_skip_the_look() -> None:
    g = kaboo([H0, H1], ["QS"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    before = copy.deepcopy(g._dump())
    for text in ("exchange", "exchange 0 1.2", "spy 1.2"):
        with pytest.raises(IllegalAction):
            g.play(0, text)
    assert g._dump() == before


def test_queen_may_be_declined_outright() -> None:
    g = kaboo([H0, H1], ["QS"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "pass")
    assert g.actors == [1]
    assert hand(g.view(0), 1) == ["?", "?", "?", "?"]


# --------------------------------------------------------------------------- no drops


def test_there_are_no_drops_or_multi_replaces() -> None:
    g = kaboo([["5C", "5D", "3C", "4C"], H1], ["5S"])
    g.play(0, "draw deck")
    v = g.view(0)
    assert v["legal"] == ["replace 0", "replace 1", "replace 2", "replace 3", "discard"]
    before = copy.deepcopy(g._dump())
    with pytest.raises(IllegalAction, match="exactly one card"):
        g.play(0, "replace 0 1")
    with pytest.raises(IllegalAction, match="no dropping in kaboo"):
        g.play(0, "drop 0")
    assert g._dump() == before


# --------------------------------------------------------------------------- knock


def test_knock_then_each_other_seat_plays_one_turn_then_the_game_ends() -> None:
    g = kaboo([H0, H1, H2], ["5S", "6S", "7S", "8S"])
    quick_turn(g, 0)
    g.play(1, "knock")
    v = g.view(2)
    assert v["caller"] == 1
    assert v["call"] == "knock"
    assert v["legal"] == ["draw deck", "draw discard"]
    before = copy.deepcopy(g._dump())
    with pytest.raises(IllegalAction, match="already been called"):
        g.play(2, "knock")
    assert g._dump() == before
    quick_turn(g, 2)
    assert g.actors == [0]
    assert "knock" not in g.view(0)["legal"]
    quick_turn(g, 0)
    assert g.over
    assert g.actors == []
    assert g.result is not None
    assert len(g.result.rounds) == 1
    res = last_round(g)
    assert res["caller"] == 1
    assert res["hands"] == [["7S", "2C", "3C", "4C"], H1, ["6S", "2H", "3H", "4H"]]


def test_knock_may_be_the_very_first_action() -> None:
    g = kaboo([H0, H1])
    g.play(0, "knock")
    assert g.actors == [1]
    quick_turn(g, 1)
    assert g.over


def test_the_knocker_does_not_play_again() -> None:
    g = kaboo([H0, H1], ["5S", "6S"])
    quick_turn(g, 0)
    g.play(1, "knock")
    quick_turn(g, 0)
    assert g.over
    with pytest.raises(IllegalAction, match="game is over"):
        g.play(1, "draw deck")


# --------------------------------------------------------------------------- the last card


def _order_with_last(hands: list[list[str]], last: str) -> list[str]:
    return full_order(standard_deck(), stack(hands), [last])


def test_game_ends_after_the_turn_that_draws_the_last_card() -> None:
    g = kaboo([H0, H1])
    assert g.view(0)["deck"] == 44
    for turn in range(43):
        (seat,) = g.actors
        quick_turn(g, seat)
        assert not g.over, turn
    (seat,) = g.actors
    g.play(seat, "draw deck")
    v = g.view(seat)
    assert v["deck"] == 0
    assert v["phase"] == "drawn"
    assert not g.over
    g.play(seat, "replace 2")
    assert g.over
    assert g.result is not None
    res = last_round(g)
    assert res["caller"] is None
    assert g.result.rounds == [res["sums"]]


def test_a_queen_drawn_last_is_resolved_before_the_game_ends() -> None:
    order = _order_with_last([H0, H1], "QS")
    g = new_game("kaboo", players=2, seed=0, options={"first": 0}, deck=order)
    while g.view(0)["deck"] > 1:
        (seat,) = g.actors
        quick_turn(g, seat, pos=1)
    (seat,) = g.actors
    g.play(seat, "draw deck")
    assert g.view(seat)["drawn"] == "QS"
    g.play(seat, "discard")
    assert not g.over
    g.play(seat, f"look 0 {1 - seat}.3")
    assert not g.over
    g.play(seat, "exchange")
    assert g.over


def test_the_last_card_ends_the_game_even_during_the_turns_after_a_knock() -> None:
    g = kaboo([H0, H1, H2])
    assert g.view(0)["deck"] == 40
    for _ in range(39):
        (seat,) = g.actors
        quick_turn(g, seat)
    (knocker,) = g.actors
    g.play(knocker, "knock")
    nxt = (knocker + 1) % 3
    quick_turn(g, nxt)  # draws the last card; the third seat never gets its turn
    assert g.over
    assert last_round(g)["caller"] == knocker


# --------------------------------------------------------------------------- one round, ties


def test_one_round_by_default() -> None:
    g = kaboo([H0, H1], ["5S"])
    assert g.view(0)["target"] is None
    g.play(0, "knock")
    quick_turn(g, 1)
    assert g.over
    assert g.result is not None
    assert g.result.rounds == [[10, 14]]
    assert g.result.totals == [10, 14]
    assert g.result.winners == [0]
    assert g.view(0)["round"] == 1


def test_tied_lowest_sums_share_the_victory() -> None:
    g = kaboo([H0, H1, ["KC", "KD", "KH", "KS"]], ["5S", "6S"])
    g.play(0, "knock")
    g.play(1, "draw deck")
    g.play(1, "discard")
    g.play(2, "draw deck")
    g.play(2, "discard")
    assert g.over
    res = last_round(g)
    assert res["sums"] == [10, 10, -4]
    assert res["winners"] == [2]
    g = kaboo([H0, H1, ["9C", "9D", "9H", "9S"]], ["5S", "6S"])
    g.play(0, "knock")
    g.play(1, "draw deck")
    g.play(1, "discard")
    g.play(2, "draw deck")
    g.play(2, "discard")
    assert g.result is not None
    assert g.result.winners == [0, 1]
    assert g.result.round_winners == [[0, 1]]


def test_every_card_is_shown_when_the_game_ends() -> None:
    g = kaboo([H0, H1], ["5S"])
    g.play(0, "knock")
    quick_turn(g, 1, pos=3)
    for v in (g.view(0), g.view(1), g.spectator_view()):
        assert hand(v, 0) == H0
        assert hand(v, 1) == ["AD", "2D", "3D", "5S"]
        assert all(c["seen"] == [0, 1] for h in v["hands"] for c in h)
