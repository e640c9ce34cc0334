"""Stacked-deck scenarios for `gabo` (RULES.md §1, §2 and the `gabo` subsection).

Every test deals a known deck, plays actions in notation and checks what each seat (and a
spectator) may see, plus scores, totals and winners.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from cardtable import Game, IllegalAction, new_game
from cardtable.cards import standard_deck
from cardtable.games.family import FamilyGame

from .scenario import all_pass, deal, deal_and_peek, draw_turn, draw_turns, peek_all, shown
from .scenario import seen_at as seen  # here: who knows one card, not a whole hand

GAME = "gabo"


# ---------------------------------------------------------------------------- helpers
def start(
    hands: Sequence[Sequence[str]],
    discard: str,
    deck: Sequence[str] = (),
    *,
    peeks: Sequence[tuple[int, int]] | None = None,
    seed: int = 13,
    **options: Any,
) -> Game:
    """A game dealt from a stacked deck; every seat peeks (0, 1) unless ``peeks`` says."""
    return deal_and_peek(GAME, hands, discard, deck, peeks=peeks, seed=seed, **options)


# Three seats: seat 0 peeks 5S, 9H; seat 1 peeks 4C, 3C; seat 2 peeks 6C, 5C.
HANDS_3 = [["5S", "9H", "2D", "KS"], ["4C", "3C", "9C", "AH"], ["6C", "5C", "6H", "7D"]]


# ---------------------------------------------------------------------------- table and deck
def test_player_count_is_two_to_ten() -> None:
    assert new_game(GAME, seed=1).players == 3
    for n in (2, 3, 10):
        g = new_game(GAME, players=n, seed=1, options={"target": None})
        assert len(g.view(0)["hands"]) == n
    for n in (1, 11):
        with pytest.raises(ValueError):
            new_game(GAME, players=n, seed=1)


def test_dealing_order_discard_start_and_deck_top() -> None:
    codes = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "KH"]
    g = new_game(GAME, players=3, seed=5, options={"target": None}, deck=codes)
    v = g.view(0)
    assert v["phase"] == "peek"
    assert v["actors"] == [0, 1, 2]
    assert v["discard"] == ["KC"]
    assert v["deck"] == 54 - 12 - 1
    peek_all(g, [(0, 3), (0, 3), (0, 3)])
    assert [shown(g, 0, 0, p) for p in (0, 3)] == ["AC", "10C"]
    assert [shown(g, 1, 1, p) for p in (0, 3)] == ["2C", "JC"]
    assert [shown(g, 2, 2, p) for p in (0, 3)] == ["3C", "QC"]
    assert shown(g, 0, 1, 0) is None
    assert g.view(0)["turn"] == 0
    g.play(0, "draw deck")
    assert g.view(0)["drawn"] == "KH"


def test_deck_is_the_standard_52_plus_two_jokers() -> None:
    full = standard_deck(jokers=True)
    assert len(full) == 54
    assert {"RJ", "BJ"} <= set(full)
    with pytest.raises(ValueError):
        new_game(GAME, players=3, seed=2, deck=["BJ", "BJ"])
    with pytest.raises(ValueError):
        new_game(GAME, players=3, seed=2, deck=["0"])
    g = new_game(GAME, players=10, seed=2, options={"target": None}, deck=full)
    assert g.view(0)["deck"] == 54 - 40 - 1
    peek_all(g)
    g.play(0, "gabo")
    v = g.view(3)
    assert v["phase"] == "over"
    dealt = [c["card"] for hand in v["hands"] for c in hand if c is not None]
    assert Counter([*dealt, *v["discard"]]) == Counter(full[:41])


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
    ("KS", 0),
    ("KC", 0),
    ("KH", 15),
    ("KD", 15),
    ("RJ", -2),
    ("BJ", -2),
]


@pytest.mark.parametrize(("code", "value"), VALUES)
def test_card_values(code: str, value: int) -> None:
    hands = [[code, "AC", "AD", "AH"], ["2C", "2D", "2H", "3C"], ["4C", "4D", "4H", "3D"]]
    g = start(hands, "5C")
    g.play(0, "gabo")
    res = g.view(0)["round_results"][0]
    assert res["sums"] == [value + 3, 9, 15]


# ---------------------------------------------------------------------------- powers
def test_seven_peeks_own_card() -> None:
    g = start(HANDS_3, "5D", ["7H"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["phase"] == "power"
    assert v["pending"]["power"] == "peek"
    assert v["actors"] == [0]
    assert "pass" in v["legal"]
    g.play(0, "peek 3")
    assert shown(g, 0, 0, 3) == "KS"
    assert shown(g, 1, 0, 3) is None
    assert seen(g, 0, 3) == [0]
    v = g.view(0)
    assert v["phase"] == "snap"
    assert v["snap"]["rank"] == "7"


def test_eight_spies_another_seats_card() -> None:
    g = start(HANDS_3, "5D", ["8H"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["pending"]["power"] == "spy"
    assert "pass" in v["legal"]
    assert {"spy 1.0", "spy 2.3"} <= set(v["legal"])
    g.play(0, "spy 2.3")
    assert shown(g, 0, 2, 3) == "7D"
    assert shown(g, 1, 2, 3) is None
    assert shown(g, 2, 2, 3) is None
    assert seen(g, 2, 3) == [0]
    assert g.view(0)["phase"] == "snap"


@pytest.mark.parametrize("power_card", ["7H", "8H", "JH", "QH"])
def test_every_power_may_be_declined(power_card: str) -> None:
    g = start(HANDS_3, "5D", [power_card])
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert g.view(0)["phase"] == "power"
    g.play(0, "pass")
    v = g.view(0)
    assert v["phase"] == "snap"
    assert v["snap"]["card"] == power_card
    assert [shown(g, 0, 0, p) for p in (0, 1)] == ["5S", "9H"]


@pytest.mark.parametrize("plain", ["AD", "6D", "9D", "10H", "KH", "KC", "RJ"])
def test_other_cards_have_no_power(plain: str) -> None:
    g = start(HANDS_3, "5D", [plain])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["phase"] == "snap"
    assert v["pending"] is None
    assert v["discard"] == ["5D", plain]


@pytest.mark.parametrize("power_card", ["JH", "QH"])
def test_jack_and_queen_exchange_any_two_cards_of_different_seats(power_card: str) -> None:
    g = start(HANDS_3, "5D", [power_card], peeks=[(0, 1), (0, 1), (2, 3)])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["pending"]["power"] == "exchange"
    assert v["pending"]["any"] is True
    legal = set(v["legal"])
    assert {"exchange 1.0 2.3", "exchange 0 1.0", "exchange 3 2.1", "pass"} <= legal
    assert "exchange 1.0 1.1" not in legal
    assert "exchange 0 1" not in legal
    for bad in ("exchange 1.0 1.1", "exchange 0 1"):
        with pytest.raises(IllegalAction):
            g.play(0, bad)
    g.play(0, "exchange 1.0 2.3")
    # Blind swap: 4C (seen by seat 1) is now at 2.3, 7D (seen by seat 2) at 1.0.
    assert shown(g, 1, 2, 3) == "4C"
    assert shown(g, 1, 1, 0) is None
    assert shown(g, 2, 1, 0) == "7D"
    assert shown(g, 2, 2, 3) is None
    assert shown(g, 0, 1, 0) is None
    assert shown(g, 0, 2, 3) is None
    assert seen(g, 1, 0) == [2]
    assert seen(g, 2, 3) == [1]
    v = g.view(0)
    assert v["phase"] == "snap"
    assert v["snap"]["card"] == power_card
    all_pass(g)
    g.play(1, "gabo")
    hands_end = g.view(0)["round_results"][0]["hands"]
    assert hands_end[1][0] == "7D"
    assert hands_end[2][3] == "4C"


def test_own_card_may_be_exchanged_with_another_seats() -> None:
    g = start(HANDS_3, "5D", ["QH"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "exchange 0 2.1")
    assert shown(g, 0, 2, 1) == "5S"
    assert shown(g, 2, 0, 0) == "5C"
    assert shown(g, 0, 0, 0) is None
    assert shown(g, 2, 2, 1) is None


def test_card_from_the_pile_triggers_nothing_but_opens_a_window() -> None:
    g = start(HANDS_3, "7S")
    g.play(0, "draw discard")
    v = g.view(0)
    assert v["drawn"] == "7S"
    assert "discard" not in v["legal"]
    with pytest.raises(IllegalAction):
        g.play(0, "discard")
    g.play(0, "replace 2")
    v = g.view(1)
    assert v["phase"] == "snap"
    assert v["pending"] is None
    assert v["snap"]["card"] == "2D"
    assert v["snap"]["rank"] == "2"
    assert shown(g, 1, 0, 2) == "7S"


def test_drawn_card_is_seen_only_by_its_drawer() -> None:
    g = start(HANDS_3, "5D", ["3D"])
    g.play(0, "draw deck")
    assert g.view(0)["drawn"] == "3D"
    assert g.view(1)["drawn"] is None
    assert g.view(2)["drawn"] is None
    assert g.spectator_view()["drawn"] is None
    g.play(0, "replace 3")
    assert shown(g, 0, 0, 3) == "3D"
    assert shown(g, 1, 0, 3) is None
    assert shown(g, None, 0, 3) is None
    assert seen(g, 0, 3) == [0]


# ---------------------------------------------------------------------------- snapping
def test_snap_window_opens_after_a_discard_for_every_seat() -> None:
    g = start(HANDS_3, "5D", ["5H"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(1)
    assert v["phase"] == "snap"
    assert v["actors"] == [0, 1, 2]
    assert v["snap"] == {"card": "5H", "rank": "5", "passed": []}
    for seat in (0, 1, 2):
        assert set(g.view(seat)["legal"]) == {"drop 0", "drop 1", "drop 2", "drop 3", "pass"}


def test_snap_window_opens_after_a_replace() -> None:
    g = start(HANDS_3, "5D", ["3D"])
    g.play(0, "draw deck")
    g.play(0, "replace 0")
    v = g.view(2)
    assert v["phase"] == "snap"
    assert v["snap"]["card"] == "5S"
    assert v["actors"] == [0, 1, 2]
    g.play(2, "drop 1")  # 5C on 5S
    v = g.view(0)
    assert v["discard"] == ["5D", "5S", "5C"]
    assert v["hands"][2][1] is None
    assert v["deck"] == 40  # no penalty


def test_snap_window_waits_for_the_power() -> None:
    g = start(HANDS_3, "5D", ["8H"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(1)
    assert v["phase"] == "power"
    assert v["actors"] == [0]
    assert v["legal"] == []
    for action in ("drop 2", "pass"):
        with pytest.raises(IllegalAction):
            g.play(1, action)
    assert "drop 0" not in g.view(0)["legal"]
    g.play(0, "spy 1.2")
    v = g.view(1)
    assert v["phase"] == "snap"
    assert v["actors"] == [0, 1, 2]
    assert "drop 2" in v["legal"]


def test_every_seat_including_the_turns_may_snap() -> None:
    g = start(HANDS_3, "5D", ["5H"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "drop 0")  # the turn's own seat: 5S
    g.play(2, "drop 1")  # 5C
    v = g.view(1)
    assert v["discard"] == ["5D", "5H", "5S", "5C"]
    assert v["hands"][0][0] is None
    assert v["hands"][2][1] is None
    assert v["deck"] == 40
    assert g.spectator_view()["discard"] == ["5D", "5H", "5S", "5C"]
    assert v["actors"] == [0, 1, 2]  # snapping is not passing


def test_one_seat_may_snap_several_cards_one_at_a_time() -> None:
    hands = [["5S", "9H", "2D", "KS"], ["4C", "9D", "9C", "AH"], ["6C", "5C", "6H", "7D"]]
    g = start(hands, "5D", ["9S"], peeks=[(0, 1), (1, 2), (0, 1)])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(1, "drop 1")
    g.play(1, "drop 2")
    v = g.view(0)
    assert v["discard"] == ["5D", "9S", "9D", "9C"]
    assert v["hands"][1][1] is None
    assert v["hands"][1][2] is None
    assert set(g.view(1)["legal"]) == {"drop 0", "drop 3", "pass"}
    assert v["deck"] == 40


def test_window_closes_when_every_seat_has_passed() -> None:
    g = start(HANDS_3, "5D", ["5H"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(2, "pass")
    v = g.view(2)
    assert v["actors"] == [0, 1]
    assert v["snap"]["passed"] == [2]
    assert v["legal"] == []
    with pytest.raises(IllegalAction):
        g.play(2, "drop 1")  # a seat that passed is done for this window
    g.play(0, "drop 0")
    g.play(0, "pass")
    v = g.view(1)
    assert v["phase"] == "snap"
    assert v["actors"] == [1]
    g.play(1, "pass")
    v = g.view(1)
    assert v["phase"] == "turn"
    assert v["turn"] == 1
    assert v["snap"] is None
    assert v["actors"] == [1]
    assert v["hands"][2][1] is not None


def test_snapped_cards_do_not_open_new_windows() -> None:
    g = start(HANDS_3, "5D", ["5H"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(2, "drop 1")
    assert g.view(0)["snap"]["passed"] == []
    all_pass(g)
    v = g.view(0)
    assert v["phase"] == "turn"
    assert v["turn"] == 1


def test_wrong_snap_stays_on_the_pile_and_costs_two_unknown_cards() -> None:
    g = start(HANDS_3, "5D", ["5H", "3D", "4D"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(1, "drop 2")  # 9C on a 5-window: wrong
    v = g.view(0)
    assert v["discard"] == ["5D", "5H", "9C"]
    assert g.spectator_view()["discard"][-1] == "9C"
    assert v["deck"] == 41 - 1 - 2
    hand = v["hands"][1]
    assert len(hand) == 5
    # First penalty in the freed position 2, the second at a new position 4.
    for pos in (2, 4):
        assert hand[pos] is not None
        assert seen(g, 1, pos) == []
        for viewer in (0, 1, 2, None):
            assert shown(g, viewer, 1, pos) is None
    # The wrong snap ended seat 1's part in the window, as if it had passed.
    assert v["actors"] == [0, 2]
    assert v["snap"]["passed"] == [1]
    assert g.legal_actions(1) == []
    with pytest.raises(IllegalAction):
        g.play(1, "drop 0")
    all_pass(g)
    g.play(1, "gabo")
    hands_end = g.view(0)["round_results"][0]["hands"]
    assert hands_end[1][2] == "3D"
    assert hands_end[1][4] == "4D"


def test_wrong_snap_penalty_fills_lowest_empty_positions() -> None:
    hands = [["5S", "9H", "2D", "KS"], ["4C", "5C", "9C", "AH"], ["6C", "2C", "6H", "7D"]]
    g = start(hands, "5D", ["5H", "3D", "4D"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(1, "drop 1")  # 5C: ok, 1.1 empties; seat 1 may snap again
    assert 1 in g.actors
    g.play(1, "drop 0")  # 4C: wrong, 1.0 empties, penalties fill 1.0 and 1.1
    assert 1 not in g.actors
    v = g.view(1)
    assert len(v["hands"][1]) == 4
    assert seen(g, 1, 0) == []
    assert seen(g, 1, 1) == []
    assert shown(g, 1, 1, 0) is None  # seat 1 had peeked 4C there; the new card is unknown
    assert v["discard"] == ["5D", "5H", "5C", "4C"]


def test_window_keeps_the_rank_that_opened_it() -> None:
    g = start(HANDS_3, "5D", ["5H", "3D", "4D"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(1, "drop 2")  # 9C: wrong; 9C is now the pile's top
    assert g.view(0)["snap"]["rank"] == "5"
    g.play(0, "drop 1")  # 9H matches the top card but not the window: wrong
    assert len(g.view(0)["hands"][0]) == 5
    g.play(2, "drop 1")  # 5C matches the window: right
    v = g.view(0)
    assert v["discard"] == ["5D", "5H", "9C", "9H", "5C"]
    assert len(v["hands"][2]) == 4
    assert v["hands"][2][1] is None
    assert v["deck"] == 41 - 1 - 4


@pytest.mark.parametrize(
    ("opener", "candidate", "matches"),
    [
        ("RJ", "BJ", True),  # jokers match jokers
        ("BJ", "RJ", True),
        ("KH", "KS", True),  # red K (15) matches black K (0)
        ("KC", "KD", True),
        ("9H", "9S", True),
        ("AH", "AS", True),
        ("10H", "JS", False),  # same value, different rank
        ("KH", "QS", False),
        ("KS", "RJ", False),
        ("RJ", "KS", False),
    ],
)
def test_snap_matches_by_rank(opener: str, candidate: str, matches: bool) -> None:
    hands = [["2C", "2D", "2H", "2S"], [candidate, "3C", "3D", "3H"], ["4C", "4D", "4H", "4S"]]
    g = start(hands, "6C", [opener, "6D", "6H"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert g.view(1)["phase"] == "snap"
    g.play(1, "drop 0")
    v = g.view(2)
    assert v["discard"] == ["6C", opener, candidate]
    if matches:
        assert v["hands"][1][0] is None
        assert len(v["hands"][1]) == 4
        assert v["deck"] == 41 - 1
    else:
        assert len(v["hands"][1]) == 5
        assert seen(g, 1, 0) == []
        assert v["deck"] == 41 - 3


def test_only_own_cards_and_only_in_a_window() -> None:
    g = start(HANDS_3, "5D", ["5H"])
    assert not any(a.startswith("drop") for a in g.view(0)["legal"])
    with pytest.raises(IllegalAction):
        g.play(0, "drop 0")
    g.play(0, "draw deck")
    with pytest.raises(IllegalAction):
        g.play(0, "drop 0")
    g.play(0, "discard")
    with pytest.raises(IllegalAction):
        g.play(0, "drop 2.1")
    for action in ("give 0", "drop 1.0"):
        with pytest.raises(IllegalAction):
            g.play(2, action)
    assert g.view(0)["discard"] == ["5D", "5H"]


# ---------------------------------------------------------------------------- calling and scores
def test_gabo_ends_the_round_at_once() -> None:
    g = start(HANDS_3, "5D", ["3D"])
    v = g.view(0)
    assert "gabo" in v["legal"]
    for word in ("cabo", "knock"):
        with pytest.raises(IllegalAction):
            g.play(0, word)
    g.play(0, "gabo")
    v = g.view(1)
    assert v["phase"] == "over"
    assert v["actors"] == []
    assert v["caller"] == 0
    assert v["deck"] == 41  # nobody drew again
    # Every card is shown to every seat at the end.
    for viewer in (0, 1, 2, None):
        assert shown(g, viewer, 2, 3) == "7D"
        assert shown(g, viewer, 0, 2) == "2D"
    assert g.result is not None
    # Seat 0: 5+9+2+0 = 16 > 5 → +20; seat 1: 4+3+9+1 = 17; seat 2: 6+5+6+7 = 24.
    assert g.result.rounds == [[36, 17, 24]]
    assert g.result.winners == [1]


def test_gabo_only_instead_of_drawing() -> None:
    g = start(HANDS_3, "5D", ["3D"])
    g.play(0, "draw deck")
    assert "gabo" not in g.view(0)["legal"]
    with pytest.raises(IllegalAction):
        g.play(0, "gabo")
    g.play(0, "replace 3")
    with pytest.raises(IllegalAction):
        g.play(1, "gabo")  # the snap window is still open
    all_pass(g)
    g.play(1, "gabo")
    assert g.over


CALLER_CASES = [
    # (caller's hand, seat 1's hand, seat 2's hand, scores, winners)
    pytest.param(
        ["AS", "2S", "KS", "AC"],
        ["5H", "5C", "6H", "6C"],
        ["7H", "7C", "8H", "8C"],
        [4, 22, 30],
        [0],
        id="lowest-and-at-most-5",
    ),
    pytest.param(
        ["AS", "2S", "2C", "KC"],
        ["5H", "5C", "6H", "6C"],
        ["7H", "7C", "8H", "8C"],
        [5, 22, 30],
        [0],
        id="exactly-5",
    ),
    pytest.param(
        ["AS", "2S", "3C", "KC"],
        ["5H", "5C", "6H", "6C"],
        ["7H", "7C", "8H", "8C"],
        [26, 22, 30],
        [1],
        id="lowest-but-above-5",
    ),
    pytest.param(
        ["AS", "2S", "KS", "KC"],
        ["AH", "AD", "RJ", "2H"],
        ["7H", "7C", "8H", "8C"],
        [23, 2, 30],
        [1],
        id="someone-strictly-lower",
    ),
    pytest.param(
        ["AS", "3S", "KS", "KC"],
        ["AH", "3H", "KD", "RJ"],
        ["AC", "2C", "2D", "BJ"],
        [24, 17, 3],
        [2],
        id="strictly-lower-by-negative-cards",
    ),
    pytest.param(
        ["AS", "3S", "KS", "KC"],
        ["AH", "3H", "AC", "AD"],
        ["7H", "7C", "8H", "8C"],
        [4, 6, 30],
        [0],
        id="no-tie",
    ),
    pytest.param(
        ["AS", "3S", "KS", "KC"],
        ["AH", "3H", "RJ", "2H"],
        ["7H", "7C", "8H", "8C"],
        [4, 4, 30],
        [0],
        id="tie-goes-to-caller",
    ),
    pytest.param(
        ["RJ", "BJ", "KS", "KC"],
        ["AH", "3H", "AC", "AD"],
        ["7H", "7C", "8H", "8C"],
        [-4, 6, 30],
        [0],
        id="negative-sum",
    ),
]


@pytest.mark.parametrize(
    ("caller_hand", "hand1", "hand2", "scores", "winners"),
    CALLER_CASES,
)
def test_caller_scoring(
    caller_hand: list[str],
    hand1: list[str],
    hand2: list[str],
    scores: list[int],
    winners: list[int],
) -> None:
    g = start([caller_hand, hand1, hand2], "9D")
    g.play(0, "gabo")
    assert g.result is not None
    assert g.result.rounds == [scores]
    assert g.result.round_winners == [winners]
    assert g.result.winners == winners
    res = g.view(2)["round_results"][0]
    assert res["caller"] == 0
    assert res["scores"] == scores


def test_caller_penalty_is_an_option() -> None:
    hands = [["AS", "2S", "3C", "KC"], ["5H", "5C", "6H", "6C"], ["7H", "7C", "8H", "8C"]]
    g = start(hands, "9D", caller_penalty=7)
    g.play(0, "gabo")
    assert g.result is not None
    assert g.result.rounds == [[13, 22, 30]]
    assert g.result.winners == [0]


def test_tie_without_the_caller_is_shared() -> None:
    hands = [["QS", "QC", "3C", "KC"], ["5H", "5C", "6H", "6C"], ["5D", "5S", "6D", "6S"]]
    g = start(hands, "9D", first=0)
    g.play(0, "gabo")
    assert g.result is not None
    assert g.result.rounds == [[43, 22, 22]]
    assert g.result.winners == [1, 2]


# ---------------------------------------------------------------------------- deck end
def test_empty_deck_is_refilled_from_the_discard_pile_at_turn_start() -> None:
    g = start(HANDS_3, "5D")
    draw_turns(g, 40)
    seat = g.view(0)["turn"]
    g.play(seat, "draw deck")
    g.play(seat, "replace 0")
    v = g.view(0)
    assert v["deck"] == 0
    pile = v["discard"]
    assert len(pile) == 42
    all_pass(g)  # the window closes; the next turn starts with an empty deck
    v = g.view(0)
    assert v["phase"] == "turn"
    assert v["reshuffles"] == 1
    assert v["discard"] == [pile[-1]]
    assert v["deck"] == 41
    # The new deck holds exactly the old pile without its top (each drawer sees its card).
    drawn = []
    for _ in range(41):
        seat = g.view(0)["turn"]
        g.play(seat, "draw deck")
        drawn.append(g.view(seat)["drawn"])
        g.play(seat, "replace 1")
        all_pass(g)
    assert Counter(drawn) == Counter(pile[:-1])


def test_determinize_after_reshuffle_keeps_reshuffled_cards_in_the_deck() -> None:
    g = start(HANDS_3, "5D")
    draw_turns(g, 40)
    seat = g.view(0)["turn"]
    g.play(seat, "draw deck")
    g.play(seat, "replace 0")
    # Every card face up on the pile, except the top that stays, goes into the new deck.
    went_in = Counter(g.view(0)["discard"][:-1])
    all_pass(g)
    assert g.view(0)["reshuffles"] == 1
    for observer in (0, 1, 2):
        for k in (1, 2, 3):
            d = g.determinize(observer, random.Random(k))
            assert isinstance(d, FamilyGame)
            assert Counter(d.codes[c] for c in d.deck) == went_in
            in_hands = {d.codes[c] for h in d.hands for c in h if c >= 0}
            assert not in_hands & set(went_in)
            assert d.view(observer)["hands"] == g.view(observer)["hands"]


def test_round_ends_when_nothing_can_be_reshuffled() -> None:
    # Every turn draws and discards, and every seat snaps its first card: mostly wrong, so each
    # window moves cards from the deck into hands (two penalties for one card on the pile)
    # until deck and pile are empty but for the pile's top card.
    hands = [["5S", "9H", "2D", "KS"], ["4C", "3C", "9C", "AH"], ["6C", "BJ", "6H", "7D"]]
    g = start(hands, "5D", ["RJ"], max_turns=1000)
    steps = 0
    reshuffled = False
    while not g.over:
        v = g.view(0)
        reshuffled = reshuffled or v["reshuffles"] > 0
        seat = g.actors[0]
        legal = [str(a) for a in g.legal_actions(seat)]
        if v["phase"] == "snap":
            action = next((a for a in legal if a.startswith("drop")), "pass")
        elif v["phase"] == "turn":
            action = "draw deck"
        elif v["phase"] == "drawn":
            action = "discard"
        else:
            action = "pass"
        g.play(seat, action)
        steps += 1
        assert steps < 5000
    assert reshuffled  # penalty draws reshuffled the pile along the way
    v = g.view(1)
    # It ended because no card could be had, long before the safety net.
    assert v["deck"] == 0
    assert len(v["discard"]) <= 1
    assert v["turns"] < 1000 * 3
    assert v["round_results"][0]["caller"] is None
    assert sum(len([c for c in h if c]) for h in v["round_results"][0]["hands"]) >= 53
    assert g.result is not None
    assert len(g.result.rounds) == 1


def test_a_seat_that_always_snaps_cannot_hold_a_window_open() -> None:
    # The case that once looped for ever: every seat always plays its first legal action
    # (`drop 0` in every window). Each window now closes after one wrong snap per seat.
    g = new_game(GAME, players=3, seed=1, options={"target": None})
    actions = 0
    while not g.over:
        seat = g.actors[0]
        g.play(seat, g.legal_actions(seat)[0])
        actions += 1
        assert actions < 10_000
    assert g.result is not None


def test_snaps_count_toward_max_turns() -> None:
    # max_turns 2 with 3 seats: the round stops after 6 turns, snaps included. Seat 0's turn
    # (1) and the three wrong snaps of its window (3) leave room for two more turns.
    g = start(HANDS_3, "5D", ["QH", "8D", "8H", "8S", "2H", "2S", "3S", "3H"], max_turns=2)
    g.play(0, "draw deck")  # QH
    g.play(0, "replace 2")  # 2D on the pile: a 2-window
    for seat in (0, 1, 2):
        g.play(seat, "drop 0")  # 5S, 4C, 6C: all wrong
    v = g.view(0)
    assert v["turns"] == 4
    assert v["turn"] == 1
    draw_turn(g, 1)
    assert not g.over
    draw_turn(g, 2)
    assert g.over
    assert g.view(0)["turns"] == 6
    assert g.view(0)["round_results"][0]["caller"] is None


# ---------------------------------------------------------------------------- match
def test_match_ends_when_a_total_reaches_the_target() -> None:
    hands = [["AS", "2S", "KS", "AC"], ["KH", "KD", "10S", "10C"], ["7H", "7C", "8H", "8C"]]
    g = start(hands, "9D", target=50)
    g.play(0, "gabo")
    assert g.over
    assert g.result is not None
    assert g.result.totals == [4, 50, 30]
    assert g.result.winners == [0]


def test_match_goes_on_below_the_target() -> None:
    hands = [["AS", "2S", "KS", "AC"], ["KH", "KD", "10S", "10C"], ["7H", "7C", "8H", "8C"]]
    g = start(hands, "9D", target=51)
    g.play(0, "gabo")
    assert not g.over
    assert g.result is None
    v = g.view(0)
    assert v["round"] == 2
    assert v["first"] == 1  # the seat after the previous round's first player
    assert v["phase"] == "peek"
    assert v["totals"] == [4, 50, 30]
    assert v["round_results"][0]["totals"] == [4, 50, 30]


def test_default_match_runs_until_a_total_reaches_100() -> None:
    g = new_game(GAME, players=3, seed=21)
    assert g.view(0)["target"] == 100
    rounds = 0
    while not g.over:
        v = g.view(0)
        assert v["first"] == rounds % 3
        peek_all(g)
        g.play(v["first"], "gabo")
        rounds += 1
        assert rounds < 50
    assert g.result is not None
    totals_seen = [r["totals"] for r in g.view(0)["round_results"]]
    assert len(totals_seen) == rounds == len(g.result.rounds)
    assert all(max(t) < 100 for t in totals_seen[:-1])
    assert max(totals_seen[-1]) >= 100
    assert g.result.totals == totals_seen[-1]
    low = min(g.result.totals)
    assert g.result.winners == [s for s, t in enumerate(g.result.totals) if t == low]
    assert [sum(r[s] for r in g.result.rounds) for s in range(3)] == g.result.totals


def test_the_engine_declares_its_timed_windows_and_their_default_moves() -> None:
    """The initial peeks and every snap window are timed windows; when one runs out each seat
    still to act passes where it may (a snap window), else plays its first legal move (a peek).
    Turn-by-turn play has no window, and a seat that may not act has no default."""
    g = deal("gabo", HANDS_3, "5D", ["7H", "8D"], options={"target": None})
    assert g.timed_window() == "peek"
    assert str(g.timeout_action(1)) == "peek 0"
    for seat in range(3):
        g.play(seat, g.timeout_action(seat))
        g.play(seat, g.timeout_action(seat))
    assert g.timed_window() is None
    with pytest.raises(ValueError, match="nothing to do"):
        g.timeout_action(1)
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert g.timed_window() is None  # the 7's power comes first: one seat, no clock
    g.play(0, "pass")
    assert g.timed_window() == "snap"
    assert {str(g.timeout_action(s)) for s in g.actors} == {"pass"}
    for seat in list(g.actors):
        g.play(seat, g.timeout_action(seat))
    assert g.timed_window() is None and g.actors == [1]


def test_qute_has_no_timed_windows() -> None:
    g = new_game("qute", players=3, seed=2)
    while not g.over:
        assert g.timed_window() is None
        seat = g.actors[0]
        g.play(seat, g.legal_actions(seat)[-1])
        if g.round_no > 1:
            break
