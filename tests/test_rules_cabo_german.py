"""Stacked-deck scenarios for `cabo-german` (RULES.md §1, §2 and the `cabo-german` subsection).

Every test deals a known deck, plays actions in notation and checks what each seat (and a
spectator) may see, plus scores and winners.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from cardtable import Game, IllegalAction, new_game
from cardtable.cards import card, standard_deck
from cardtable.games.family import FamilyGame

from .scenario import deal_and_peek, draw_turns, shown, stack
from .scenario import seen_at as seen  # here: who knows one card, not a whole hand

GAME = "cabo-german"


# ---------------------------------------------------------------------------- helpers
def start(
    hands: Sequence[Sequence[str]],
    discard: str,
    deck: Sequence[str] = (),
    *,
    peeks: Sequence[tuple[int, int]] | None = None,
    seed: int = 11,
    **options: Any,
) -> Game:
    """A game dealt from a stacked deck; every seat peeks (0, 1) unless ``peeks`` says."""
    return deal_and_peek(GAME, hands, discard, deck, peeks=peeks, seed=seed, **options)


def finish_round(g: Game, caller: int, filler_turns: int) -> None:
    """``caller`` calls cabo; each later seat draws from the deck and discards (no power)."""
    g.play(caller, "cabo")
    for _ in range(filler_turns):
        seat = g.view(0)["turn"]
        g.play(seat, "draw deck")
        g.play(seat, "discard")


# Two seats: seat 0 peeks 5S, 9H; seat 1 peeks 4C, 3C. The pile starts with 5D.
HANDS_2 = [["5S", "9H", "2D", "KS"], ["4C", "3C", "5H", "AH"]]


# ---------------------------------------------------------------------------- table and deck
def test_player_count_is_two_to_six() -> None:
    assert new_game(GAME, seed=1).players == 2
    for n in (2, 3, 6):
        g = new_game(GAME, players=n, seed=1, options={"target": None})
        assert len(g.view(0)["hands"]) == n
    for n in (1, 7):
        with pytest.raises(ValueError):
            new_game(GAME, players=n, seed=1)


def test_dealing_order_discard_start_and_deck_top() -> None:
    codes = ["AC", "2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D"]
    g = new_game(GAME, players=2, seed=5, options={"target": None}, deck=codes)
    v = g.view(0)
    assert v["phase"] == "peek"
    assert v["discard"] == ["4D"]
    assert v["deck"] == 54 - 8 - 1
    for seat in (0, 1):
        g.play(seat, "peek 0")
        g.play(seat, "peek 3")
    assert [shown(g, 0, 0, p) for p in (0, 3)] == ["AC", "2D"]
    assert [shown(g, 1, 1, p) for p in (0, 3)] == ["2C", "3D"]
    assert shown(g, 0, 1, 0) is None
    g.play(0, "draw deck")
    assert g.view(0)["drawn"] == "5D"


def test_deck_is_the_standard_52_plus_two_jokers() -> None:
    full = standard_deck(jokers=True)
    assert len(full) == 54
    ok = new_game(GAME, players=2, seed=2, options={"target": None}, deck=full)
    assert ok.view(0)["deck"] == 45
    with pytest.raises(ValueError):
        new_game(GAME, players=2, seed=2, deck=["RJ", "BJ", "RJ"])
    with pytest.raises(ValueError):
        new_game(GAME, players=2, seed=2, deck=["13"])
    # Play a whole round through the deck: every card ends up face up somewhere.
    g = new_game(GAME, players=2, seed=9, options={"target": None})
    for seat in (0, 1):
        g.play(seat, "peek 0")
        g.play(seat, "peek 1")
    for _ in range(44):
        seat = g.view(0)["turn"]
        g.play(seat, "draw deck")
        g.play(seat, "replace 0")
    assert g.view(0)["deck"] == 1
    g.play(0, "cabo")
    g.play(1, "draw deck")
    g.play(1, "replace 1")
    v = g.view(1)
    assert v["phase"] == "over"
    assert v["deck"] == 0
    everything = list(v["discard"])
    for hand in v["hands"]:
        everything.extend(c["card"] for c in hand if c is not None)
    assert Counter(everything) == Counter(full)


VALUES = [
    ("AS", 1),
    ("2S", 2),
    ("3S", 3),
    ("4S", 4),
    ("5S", 5),
    ("6S", 6),
    ("7S", 7),
    ("8S", 8),
    ("9S", 9),
    ("10S", 10),
    ("JS", 10),
    ("QS", 10),
    ("KH", -1),
    ("KD", -1),
    ("KS", 10),
    ("KC", 10),
    ("RJ", 0),
    ("BJ", 0),
]


@pytest.mark.parametrize(("code", "value"), VALUES)
def test_card_values(code: str, value: int) -> None:
    g = start([[code, "AC", "AD", "AH"], ["2C", "2D", "2H", "3C"]], "4C", ["3D"])
    finish_round(g, caller=0, filler_turns=1)
    res = g.view(0)["round_results"][0]
    assert res["sums"] == [value + 3, 2 + 2 + 2 + 3]
    assert res["scores"] == res["sums"]  # no caller bonus or penalty in cabo-german


# ---------------------------------------------------------------------------- a turn
def test_drawn_card_is_face_up_for_everyone() -> None:
    g = start(HANDS_2, "5D", ["6C", "3D"])
    g.play(0, "draw deck")
    assert g.view(0)["drawn"] == "6C"
    assert g.view(1)["drawn"] == "6C"
    assert g.spectator_view()["drawn"] == "6C"
    assert g.view(0)["phase"] == "drawn"
    g.play(0, "replace 2")
    # The drawn card was face up, so its place is known to everyone and to spectators.
    assert shown(g, 1, 0, 2) == "6C"
    assert shown(g, None, 0, 2) == "6C"
    assert seen(g, 0, 2) == [0, 1]
    assert g.view(1)["discard"] == ["5D", "2D"]
    assert g.view(1)["turn"] == 1


def test_card_taken_from_the_pile_goes_to_the_draw_area() -> None:
    # Seed 000: a card drawn from the discard pile may be swapped in or discarded, like a
    # card drawn from the deck (RULES.md, cabo-german).
    g = start(HANDS_2, "9D", ["6C"])
    g.play(0, "draw discard")
    v = g.view(0)
    assert v["drawn"] == "9D"
    assert v["drawn_from"] == "discard"
    assert v["discard"] == []
    assert g.view(1)["drawn"] == "9D"  # face up for everyone
    assert g.spectator_view()["drawn"] == "9D"
    assert {"replace 0", "replace 1", "replace 2", "replace 3", "discard"} <= set(v["legal"])
    g.play(0, "replace 3")
    # A card swapped into the hand triggers nothing; the replaced card goes on the pile.
    v = g.view(1)
    assert v["phase"] == "turn"
    assert v["turn"] == 1
    assert v["discard"] == ["KS"]
    assert shown(g, 1, 0, 3) == "9D"


def test_discarding_a_card_taken_from_the_pile_triggers_its_power() -> None:
    g = start(HANDS_2, "9D", ["6C"])
    g.play(0, "draw discard")
    g.play(0, "discard")
    v = g.view(0)
    assert v["discard"] == ["9D"]
    assert v["phase"] == "power"
    assert v["pending"] == {"power": "spy", "card": "9D"}
    assert "pass" not in v["legal"]  # spy is compulsory in cabo-german
    with pytest.raises(IllegalAction):
        g.play(0, "pass")
    g.play(0, "spy 1.2")
    assert shown(g, 0, 1, 2) == "5H"
    assert shown(g, 1, 1, 2) is None
    v = g.view(1)
    assert v["turn"] == 1
    assert v["phase"] == "turn"
    assert v["deck"] == g.view(0)["deck"]  # nothing was drawn from the deck


def test_a_seven_from_the_pile_discarded_again_lets_you_peek() -> None:
    g = start(HANDS_2, "7C", ["6C"])
    g.play(0, "draw discard")
    g.play(0, "discard")
    assert g.view(0)["pending"] == {"power": "peek", "card": "7C"}
    g.play(0, "peek 3")
    assert shown(g, 0, 0, 3) == "KS"
    assert g.view(0)["turn"] == 1


def test_peek_with_no_card_left_may_be_declined() -> None:
    # A compulsory peek with nothing to look at: `pass` is offered and costs nothing (RULES.md
    # §1, Powers), instead of only drops that would each cost a penalty card.
    hands = [["6S", "6C", "6H", "2D"], ["4C", "4H", "3H", "AH"]]
    g = start(hands, "6D", ["2C", "2S", "7S"])
    for pos in (0, 1, 2):
        g.play(0, f"drop {pos}")  # three 6s on the 6D
    g.play(0, "draw deck")  # 2C
    g.play(0, "replace 3")  # the 2D goes on the pile
    g.play(1, "draw deck")  # 2S
    g.play(1, "discard")
    g.play(0, "drop 3")  # the 2C on the 2S: seat 0 has no card left
    assert all(c is None for c in g.view(0)["hands"][0])
    g.play(0, "draw deck")  # 7S
    g.play(0, "discard")
    v = g.view(0)
    assert v["pending"] == {"power": "peek", "card": "7S"}
    assert "pass" in v["legal"]
    assert not [a for a in v["legal"] if a.startswith("peek")]
    g.play(0, "pass")
    v = g.view(0)
    assert v["turn"] == 1
    assert v["phase"] == "turn"
    assert all(c is None for c in v["hands"][0])  # no penalty card


def test_replaced_out_power_card_triggers_nothing() -> None:
    g = start([["7S", "9H", "2D", "KS"], HANDS_2[1]], "5D", ["3D"])
    g.play(0, "draw deck")
    g.play(0, "replace 0")
    v = g.view(0)
    assert v["discard"] == ["5D", "7S"]
    assert v["phase"] == "turn"
    assert v["turn"] == 1
    assert v["pending"] is None


# ---------------------------------------------------------------------------- powers
@pytest.mark.parametrize("power_card", ["7C", "8C"])
def test_seven_and_eight_peek_own_card_and_must_be_used(power_card: str) -> None:
    g = start(HANDS_2, "5D", [power_card])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["phase"] == "power"
    assert v["pending"]["power"] == "peek"
    assert v["pending"]["card"] == power_card
    assert "pass" not in v["legal"]
    assert {"peek 0", "peek 1", "peek 2", "peek 3"} <= set(v["legal"])
    with pytest.raises(IllegalAction):
        g.play(0, "pass")
    assert shown(g, 0, 0, 2) is None
    g.play(0, "peek 2")
    assert shown(g, 0, 0, 2) == "2D"
    assert shown(g, 1, 0, 2) is None
    assert seen(g, 0, 2) == [0]
    assert g.view(0)["turn"] == 1


@pytest.mark.parametrize("power_card", ["9C", "10C"])
def test_nine_and_ten_spy_another_seat_and_must_be_used(power_card: str) -> None:
    g = start(HANDS_2, "5D", [power_card])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["pending"]["power"] == "spy"
    assert "pass" not in v["legal"]
    assert "spy 1.3" in v["legal"]
    with pytest.raises(IllegalAction):
        g.play(0, "pass")
    g.play(0, "spy 1.3")
    assert shown(g, 0, 1, 3) == "AH"
    assert shown(g, 1, 1, 3) is None  # the owner has not looked at it
    assert seen(g, 1, 3) == [0]
    assert g.view(1)["turn"] == 1


def test_jack_exchanges_own_card_with_another_seats_blind() -> None:
    hands = [["5S", "9H", "2D", "KS"], ["4C", "3C", "5H", "AH"], ["6C", "6D", "6H", "7D"]]
    g = start(hands, "5D", ["JC", "3H", "3D"], peeks=[(0, 1), (2, 3), (0, 1)])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["pending"]["power"] == "exchange"
    legal = set(v["legal"])
    assert "pass" in legal
    assert {"exchange 0 1.2", "exchange 3 2.1"} <= legal
    assert not any(a.startswith("exchange 1.") and " 2." in a for a in legal)
    with pytest.raises(IllegalAction):
        g.play(0, "exchange 1.0 2.0")
    g.play(0, "exchange 0 1.2")
    # Knowledge travels with the cards; nobody learns anything new.
    assert shown(g, 0, 1, 2) == "5S"  # seat 0 peeked it at 0.0
    assert shown(g, 1, 1, 2) is None
    assert shown(g, 1, 0, 0) == "5H"  # seat 1 peeked it at 1.2
    assert shown(g, 0, 0, 0) is None
    assert seen(g, 0, 0) == [1]
    assert seen(g, 1, 2) == [0]
    assert shown(g, 2, 0, 0) is None
    assert g.view(0)["turn"] == 1
    g.play(1, "cabo")
    g.play(2, "draw deck")
    g.play(2, "discard")
    g.play(0, "draw deck")
    g.play(0, "discard")
    hands_end = g.view(2)["round_results"][0]["hands"]
    assert hands_end[0][0] == "5H"
    assert hands_end[1][2] == "5S"


def test_jack_exchange_is_optional() -> None:
    g = start(HANDS_2, "5D", ["JC"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "pass")
    v = g.view(0)
    assert v["turn"] == 1
    assert v["phase"] == "turn"
    assert shown(g, 0, 0, 0) == "5S"
    assert v["discard"] == ["5D", "JC"]


def test_queen_look_is_compulsory_then_exchange() -> None:
    g = start(HANDS_2, "5D", ["QC"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["pending"]["power"] == "look"
    assert "pass" not in v["legal"]
    assert "look 2 1.3" in v["legal"]
    with pytest.raises(IllegalAction):
        g.play(0, "pass")
    g.play(0, "look 2 1.3")
    v = g.view(0)
    assert v["phase"] == "look"
    assert v["pending"]["looked"] == ["0.2", "1.3"]
    assert {"exchange", "pass"} <= set(v["legal"])
    assert shown(g, 0, 0, 2) == "2D"
    assert shown(g, 0, 1, 3) == "AH"
    assert shown(g, 1, 1, 3) is None
    assert shown(g, 1, 0, 2) is None
    g.play(0, "exchange")
    assert shown(g, 0, 0, 2) == "AH"
    assert shown(g, 0, 1, 3) == "2D"
    assert shown(g, 1, 1, 3) is None
    assert seen(g, 1, 3) == [0]
    assert g.view(0)["turn"] == 1


def test_queen_look_then_pass_keeps_cards() -> None:
    g = start(HANDS_2, "5D", ["QC"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "look 2 1.3")
    g.play(0, "pass")
    assert shown(g, 0, 0, 2) == "2D"
    assert shown(g, 0, 1, 3) == "AH"
    assert g.view(1)["turn"] == 1


def test_spectator_sees_only_face_up_cards() -> None:
    # Seat 1 peeked 1.0 and seat 0 spies it: both seats know it, yet it was never face up.
    g = start(HANDS_2, "5D", ["9C", "6C"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "spy 1.0")
    assert seen(g, 1, 0) == [0, 1]
    assert shown(g, 0, 1, 0) == "4C"
    assert shown(g, None, 1, 0) is None
    assert g.spectator_view()["discard"] == ["5D", "9C"]
    g.play(1, "draw deck")
    assert g.spectator_view()["drawn"] == "6C"


# ---------------------------------------------------------------------------- calling
def test_cabo_gives_every_other_seat_one_more_turn() -> None:
    hands = [["AS", "2S", "3S", "4S"], ["AH", "AD", "2H", "2D"], ["KH", "KD", "RJ", "BJ"]]
    g = start(hands, "5C", ["3H", "3D", "6C"])
    assert "cabo" in g.view(0)["legal"]
    for word in ("gabo", "knock"):
        with pytest.raises(IllegalAction):
            g.play(0, word)
    g.play(0, "cabo")
    v = g.view(1)
    assert v["caller"] == 0
    assert v["turn"] == 1
    assert "cabo" not in v["legal"]
    with pytest.raises(IllegalAction):
        g.play(1, "cabo")
    g.play(1, "draw deck")
    g.play(1, "discard")
    v = g.view(2)
    assert v["phase"] == "turn"
    assert v["turn"] == 2
    g.play(2, "draw deck")
    g.play(2, "discard")
    v = g.view(0)
    assert v["phase"] == "over"
    assert v["actors"] == []
    assert g.result is not None
    # Scores are the plain sums; the caller gets no penalty for not being lowest.
    assert g.result.rounds == [[10, 6, -2]]
    assert g.result.winners == [2]
    assert g.result.round_winners == [[2]]
    assert v["round_results"][0]["caller"] == 0
    # At the end of the round every card is shown.
    assert shown(g, 0, 2, 2) == "RJ"
    assert shown(g, 1, 0, 3) == "4S"


def test_cabo_only_instead_of_drawing() -> None:
    g = start(HANDS_2, "5D", ["6C"])
    g.play(0, "draw deck")
    assert "cabo" not in g.view(0)["legal"]
    with pytest.raises(IllegalAction):
        g.play(0, "cabo")


def test_tied_lowest_sums_share_the_round() -> None:
    g = start([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "5C", ["6C"])
    finish_round(g, caller=0, filler_turns=1)
    assert g.result is not None
    assert g.result.rounds == [[10, 10]]
    assert g.result.winners == [0, 1]


# ---------------------------------------------------------------------------- drops
def test_drop_own_card_before_drawing() -> None:
    g = start(HANDS_2, "5D", ["6C"])
    v = g.view(0)
    assert {"drop 0", "drop 1", "drop 1.0", "drop 1.3"} <= set(v["legal"])
    g.play(0, "drop 0")
    v = g.view(1)
    assert v["discard"] == ["5D", "5S"]
    assert v["hands"][0][0] is None
    assert g.spectator_view()["discard"] == ["5D", "5S"]
    assert v["deck"] == 45  # no penalty
    v = g.view(0)
    assert v["phase"] == "turn"
    assert v["actors"] == [0]
    assert "draw deck" in v["legal"]
    assert "drop 0" not in v["legal"]  # an empty position is not addressable
    with pytest.raises(IllegalAction):
        g.play(0, "drop 0")


def test_drop_while_holding_the_drawn_card() -> None:
    g = start(HANDS_2, "5D", ["8C"])
    g.play(0, "draw deck")
    g.play(0, "drop 0")
    v = g.view(0)
    assert v["phase"] == "drawn"
    assert v["drawn"] == "8C"
    assert v["discard"] == ["5D", "5S"]
    g.play(0, "replace 1")
    v = g.view(1)
    assert v["discard"] == ["5D", "5S", "9H"]
    assert v["turn"] == 1
    assert shown(g, 1, 0, 1) == "8C"


def test_drop_while_resolving_a_power() -> None:
    g = start([["5S", "9S", "2D", "KS"], HANDS_2[1]], "5D", ["9D"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["phase"] == "power"
    assert "drop 1" in v["legal"]
    g.play(0, "drop 1")
    v = g.view(0)
    assert v["phase"] == "power"
    assert v["pending"]["power"] == "spy"
    assert v["discard"] == ["5D", "9D", "9S"]
    assert v["hands"][0][1] is None
    g.play(0, "spy 1.2")
    assert shown(g, 0, 1, 2) == "5H"
    assert g.view(0)["turn"] == 1


def test_drop_opponent_card_then_give_one_of_yours() -> None:
    g = start(HANDS_2, "5D", ["6C"])
    g.play(0, "drop 1.2")
    v = g.view(0)
    assert v["phase"] == "give"
    assert v["pending"] == {"give": "1.2"}
    assert v["discard"] == ["5D", "5H"]
    assert v["hands"][1][2] is None
    assert set(v["legal"]) == {"give 0", "give 1", "give 2", "give 3", "pass"}
    with pytest.raises(IllegalAction):
        g.play(0, "drop 1")  # no drops while a give is pending
    with pytest.raises(IllegalAction):
        g.play(0, "draw deck")
    g.play(0, "give 1")
    # 9H goes face down into 1.2: seat 0 (who peeked it) still knows it, seat 1 does not.
    assert g.view(0)["hands"][0][1] is None
    assert shown(g, 0, 1, 2) == "9H"
    assert shown(g, 1, 1, 2) is None
    assert shown(g, None, 1, 2) is None
    assert seen(g, 1, 2) == [0]
    v = g.view(0)
    assert v["phase"] == "turn"
    assert v["actors"] == [0]
    assert "draw deck" in v["legal"]


def test_give_of_an_unknown_card_is_known_to_nobody() -> None:
    g = start(HANDS_2, "5D", ["6C", "3D"])
    g.play(0, "draw deck")
    g.play(0, "drop 1.2")
    g.play(0, "give 3")
    assert seen(g, 1, 2) == []
    assert shown(g, 0, 1, 2) is None
    v = g.view(0)
    assert v["phase"] == "drawn"  # back to holding the drawn card
    assert v["drawn"] == "6C"
    g.play(0, "replace 0")
    g.play(1, "cabo")
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert g.view(0)["round_results"][0]["hands"][1][2] == "KS"


def test_drop_opponent_card_then_pass_leaves_the_position_empty() -> None:
    g = start(HANDS_2, "5D", ["6C"])
    g.play(0, "drop 1.2")
    g.play(0, "pass")
    v = g.view(1)
    assert v["hands"][1][2] is None
    assert [shown(g, 0, 0, p) for p in (0, 1)] == ["5S", "9H"]
    assert v["phase"] == "turn"
    assert v["turn"] == 0
    assert "drop 1.2" not in g.view(0)["legal"]


def test_failed_drop_shows_the_card_and_gives_an_unknown_penalty() -> None:
    g = start(HANDS_2, "5D", ["6C", "3D"])
    g.play(0, "drop 2")
    v = g.view(0)
    assert v["discard"] == ["5D"]
    assert v["deck"] == 44
    assert v["phase"] == "turn"
    assert v["actors"] == [0]
    # The card stays where it was, now known to everyone.
    for viewer in (0, 1, None):
        assert shown(g, viewer, 0, 2) == "2D"
    assert seen(g, 0, 2) == [0, 1]
    # No empty position: the penalty card goes to a new position 4, known to nobody.
    assert len(v["hands"][0]) == 5
    for viewer in (0, 1, None):
        assert shown(g, viewer, 0, 4) is None
    assert seen(g, 0, 4) == []
    g.play(0, "cabo")
    g.play(1, "draw deck")
    g.play(1, "discard")
    assert g.view(1)["round_results"][0]["hands"][0][4] == "6C"


def test_failed_drop_penalty_fills_lowest_empty_position() -> None:
    g = start(HANDS_2, "5D", ["6C", "3D"])
    g.play(0, "drop 0")  # 5S on 5D: ok, position 0 empties
    g.play(0, "drop 3")  # KS on 5S: wrong
    v = g.view(0)
    assert len(v["hands"][0]) == 4
    assert v["hands"][0][0] is not None
    assert shown(g, 0, 0, 0) is None  # seat 0 peeked 5S there, but the penalty is unknown
    assert seen(g, 0, 0) == []
    assert shown(g, 1, 0, 3) == "KS"
    assert v["discard"] == ["5D", "5S"]


def test_failed_drop_of_opponent_card_penalises_the_dropper() -> None:
    g = start(HANDS_2, "5D", ["6C"])
    g.play(0, "drop 1.3")
    v = g.view(1)
    assert v["hands"][1][3] is not None
    for viewer in (0, 1, None):
        assert shown(g, viewer, 1, 3) == "AH"
    assert len(v["hands"][1]) == 4
    assert len(v["hands"][0]) == 5
    assert seen(g, 0, 4) == []
    assert v["discard"] == ["5D"]
    assert g.view(0)["phase"] == "turn"


@pytest.mark.parametrize(
    ("top", "candidate", "matches"),
    [
        ("5H", "5C", True),
        ("AH", "AS", True),
        ("10D", "10S", True),
        ("10D", "KS", False),  # black K: 10 points without power; 10: spy
        ("KC", "10S", False),
        ("KS", "KC", True),
        ("KH", "KD", True),
        ("KH", "KS", False),  # red K −1, black K 10
        ("KS", "KH", False),
        ("JD", "JS", True),
        ("JD", "QS", False),  # both 10 points, different powers
        ("QD", "KS", False),
        ("10D", "JS", False),
        ("7H", "8S", False),  # same power, different value
        ("RJ", "BJ", True),
    ],
)
def test_drop_match_needs_same_value_and_same_power(
    top: str, candidate: str, matches: bool
) -> None:
    g = start([[candidate, "2C", "3C", "4C"], ["2D", "3D", "4D", "6D"]], top, ["6C", "6H"])
    g.play(0, "drop 0")
    v = g.view(1)
    if matches:
        assert v["discard"] == [top, candidate]
        assert v["hands"][0][0] is None
        assert len(v["hands"][0]) == 4
    else:
        assert v["discard"] == [top]
        assert shown(g, 1, 0, 0) == candidate
        assert len(v["hands"][0]) == 5


def test_several_drop_attempts_in_one_turn() -> None:
    g = start(HANDS_2, "5D", ["6C", "6H", "3D", "4D"])
    g.play(0, "drop 0")  # 5S: ok
    g.play(0, "drop 1.2")  # 5H: ok
    g.play(0, "pass")
    g.play(0, "drop 3")  # KS: wrong → penalty into 0.0
    g.play(0, "drop 1.1")  # 3C: wrong → penalty into new 0.4
    v = g.view(0)
    assert v["phase"] == "turn"
    assert v["turn"] == 0
    assert v["discard"] == ["5D", "5S", "5H"]
    assert v["deck"] == 45 - 2
    assert len(v["hands"][0]) == 5
    assert seen(g, 0, 0) == []
    assert seen(g, 0, 4) == []
    assert shown(g, 0, 1, 1) == "3C"
    g.play(0, "draw deck")
    assert g.view(0)["drawn"] == "3D"
    g.play(0, "replace 3")
    assert g.view(0)["turn"] == 1
    g.play(1, "cabo")
    g.play(0, "draw deck")
    g.play(0, "discard")
    hands_end = g.view(0)["round_results"][0]["hands"]
    assert hands_end[0][0] == "6C"
    assert hands_end[0][4] == "6H"


def test_no_drops_during_the_initial_peek() -> None:
    g = new_game(GAME, players=2, seed=4, options={"target": None}, deck=stack(HANDS_2, "5D"))
    assert set(g.view(0)["legal"]) == {"peek 0", "peek 1", "peek 2", "peek 3"}
    with pytest.raises(IllegalAction):
        g.play(0, "drop 0")
    g.play(0, "peek 0")
    g.play(0, "peek 1")
    with pytest.raises(IllegalAction):
        g.play(0, "drop 0")
    v = g.view(0)
    assert v["phase"] == "peek"
    assert v["discard"] == ["5D"]
    assert v["hands"][0][0] is not None


def test_no_drops_on_another_seats_turn() -> None:
    g = start(HANDS_2, "5D", ["6C"])
    assert g.view(1)["legal"] == []
    with pytest.raises(IllegalAction):
        g.play(1, "drop 2")
    assert g.view(1)["discard"] == ["5D"]


def test_drop_of_a_looked_card_cancels_the_queen_exchange() -> None:
    g = start([["QS", "9H", "2D", "KS"], HANDS_2[1]], "5D", ["QD"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "look 0 1.3")
    g.play(0, "drop 0")  # QS on QD: ok, but the looked-at card is gone
    v = g.view(0)
    assert v["phase"] == "look"
    assert "exchange" not in v["legal"]
    assert "pass" in v["legal"]
    with pytest.raises(IllegalAction):
        g.play(0, "exchange")
    g.play(0, "pass")
    assert g.view(0)["turn"] == 1
    assert shown(g, 0, 1, 3) == "AH"


# ---------------------------------------------------------------------------- deck end
def test_empty_deck_is_refilled_from_the_discard_pile_at_turn_start() -> None:
    g = start(HANDS_2, "5D", max_turns=60)
    draw_turns(g, 44)
    assert g.view(0)["deck"] == 1
    seat = g.view(0)["turn"]
    g.play(seat, "draw deck")
    assert g.view(0)["deck"] == 0  # the last card is drawn; no refill yet
    pile_before = g.view(0)["discard"]
    old_card = shown(g, 1, seat, 0)
    g.play(seat, "replace 0")
    v = g.view(0)
    assert v["discard"] == [old_card]
    # The pile under the replaced-out card became the deck; that card stays as the top.
    assert v["deck"] == len(pile_before)
    assert v["reshuffles"] == 1
    assert v["phase"] == "turn"
    # Every card of the new deck is one that lay on the old pile (cabo-german draws are public).
    drawn = []
    for _ in range(len(pile_before)):
        seat = g.view(0)["turn"]
        g.play(seat, "draw deck")
        drawn.append(g.view(1 - seat)["drawn"])
        g.play(seat, "replace 1")
    assert Counter(drawn) == Counter(pile_before)


def test_reshuffle_order_comes_from_the_seed() -> None:
    def order_after_reshuffle() -> list[str]:
        g = start(HANDS_2, "5D", max_turns=60)
        draw_turns(g, 45)
        assert g.view(0)["reshuffles"] == 1
        drawn = []
        for _ in range(10):
            seat = g.view(0)["turn"]
            g.play(seat, "draw deck")
            drawn.append(g.view(seat)["drawn"])
            g.play(seat, "replace 1")
        return drawn

    assert order_after_reshuffle() == order_after_reshuffle()


def test_round_ends_when_nothing_can_be_reshuffled() -> None:
    g = start(HANDS_2, "5D")
    # Failed drops take penalty cards from the deck without adding to the pile.
    for _ in range(45):
        g.play(0, "drop 3")
    v = g.view(0)
    assert v["deck"] == 0
    assert v["discard"] == ["5D"]
    assert len(v["hands"][0]) == 4 + 45
    assert "draw deck" not in v["legal"]
    with pytest.raises(IllegalAction):
        g.play(0, "draw deck")
    # Nothing left for a penalty: a further failed drop costs nothing.
    g.play(0, "drop 3")
    assert len(g.view(0)["hands"][0]) == 4 + 45
    g.play(0, "draw discard")
    g.play(0, "replace 0")
    v = g.view(1)
    assert v["phase"] == "over"
    assert g.result is not None
    assert len(g.result.rounds) == 1
    assert v["round_results"][0]["caller"] is None


def test_penalty_mid_turn_reshuffles_the_pile() -> None:
    g = start(HANDS_2, "5D", max_turns=60)
    draw_turns(g, 44)
    seat = g.view(0)["turn"]
    pile = g.view(0)["discard"]
    assert g.view(0)["deck"] == 1
    top = pile[-1]
    # Find a card of the seat's hand that cannot match the top, to fail on purpose.
    mine = g.view(seat)["hands"][seat]
    wrong = next(
        p
        for p, c in enumerate(mine)
        if c["card"] is not None and card(c["card"]).rank != card(top).rank
    )
    g.play(seat, f"drop {wrong}")  # penalty: the last deck card
    assert g.view(0)["deck"] == 0
    g.play(seat, f"drop {wrong}")  # penalty: the pile (top excluded) is reshuffled first
    v = g.view(0)
    assert v["reshuffles"] == 1
    assert v["discard"] == [top]
    assert v["deck"] == len(pile) - 1 - 1


def test_determinize_after_reshuffle_keeps_reshuffled_cards_in_the_deck() -> None:
    g = start(HANDS_2, "5D", max_turns=60)
    draw_turns(g, 44)
    seat = g.view(0)["turn"]
    g.play(seat, "draw deck")
    went_in = Counter(g.view(0)["discard"])
    g.play(seat, "replace 0")
    assert g.view(0)["reshuffles"] == 1
    for observer in (0, 1):
        for k in (1, 2, 3):
            d = g.determinize(observer, random.Random(k))
            assert isinstance(d, FamilyGame)
            deck_codes = [d.codes[c] for c in d.deck]
            assert Counter(deck_codes) == went_in
            in_hands = [d.codes[c] for h in d.hands for c in h if c >= 0]
            assert not set(in_hands) & set(went_in)
            assert d.view(observer)["hands"] == g.view(observer)["hands"]
            d.play(d.view(0)["turn"], "draw deck")
            assert d.view(observer)["drawn"] in went_in


# ---------------------------------------------------------------------------- match
def test_default_is_a_single_round() -> None:
    g = new_game(GAME, players=2, seed=3, deck=stack(HANDS_2, "5C", ["6C"]))
    assert g.view(0)["target"] is None
    for seat in (0, 1):
        g.play(seat, "peek 0")
        g.play(seat, "peek 1")
    finish_round(g, caller=0, filler_turns=1)
    assert g.over
    assert g.result is not None
    assert len(g.result.rounds) == 1
    assert g.result.rounds == [[26, 13]]
    assert g.result.winners == [1]


@pytest.mark.parametrize(("target", "ends"), [(40, False), (39, True)])
def test_numeric_target_ends_when_a_total_exceeds_it(target: int, ends: bool) -> None:
    hands = [["AS", "2S", "3S", "4S"], ["KS", "QS", "JS", "10S"]]
    g = start(hands, "5C", ["6C"], target=target)
    finish_round(g, caller=0, filler_turns=1)
    v = g.view(0)
    assert v["round_results"][0]["totals"] == [10, 40]
    assert g.over is ends
    if ends:
        assert g.result is not None
        assert g.result.winners == [0]
    else:
        assert v["round"] == 2
        assert v["first"] == 1
        assert v["totals"] == [10, 40]
        assert v["phase"] == "peek"


def test_drops_count_toward_max_turns_and_end_the_round_at_once() -> None:
    # max_turns 1 with 2 seats: two ticks. Each drop is a tick; the one that reaches the count
    # ends the round at once, and the card held in the draw area goes to the discard pile.
    g = start(HANDS_2, "5D", ["6C", "8C", "8D"], max_turns=1)
    g.play(0, "draw deck")  # 6C, held
    g.play(0, "drop 2")  # 2D on the 5D: wrong, a penalty card (8C)
    assert not g.over
    assert g.view(0)["turns"] == 1
    g.play(0, "drop 1")  # 9H: wrong again, and the second tick
    assert g.over
    v = g.view(1)
    assert v["drawn"] is None
    assert v["discard"] == ["5D", "6C"]
    res = v["round_results"][0]
    assert res["caller"] is None
    assert res["hands"][0] == ["5S", "9H", "2D", "KS", "8C", "8D"]
    assert res["sums"] == [5 + 9 + 2 + 10 + 8 + 8, 4 + 3 + 5 + 1]


def test_a_drop_after_the_call_still_counts() -> None:
    g = start(HANDS_2, "5D", ["8C"], max_turns=1)
    g.play(0, "cabo")  # the call's turn is the first tick
    assert not g.over
    g.play(1, "drop 0")  # 4C on the 5D: wrong, penalty 8C; the second tick ends the round
    assert g.over
    res = g.view(0)["round_results"][0]
    assert res["caller"] == 0
    assert res["hands"][1] == ["4C", "3C", "5H", "AH", "8C"]
