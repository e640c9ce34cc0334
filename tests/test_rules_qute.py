"""Stacked-deck scenarios for `qute` (RULES.md §3, notation §4).

Every test deals a known deck (5 cards each, one at a time from seat 0; the rest is the blind,
top first), plays actions in notation and checks what each seat (and a spectator) may see,
plus round scores, totals and winners. Single round (``target: None``) unless a test says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from cardtable import (
    Game,
    IllegalAction,
    MalformedAction,
    NoSuchCard,
    NoSuchSeat,
    NotYourTurn,
    RuleForbids,
    WrongPhase,
    new_game,
)
from cardtable.cards import short_deck

from .helpers import assert_rejected, strings_in
from .scenario import last_round

GAME = "qute"
ALL = short_deck()
SUITS = "CDHS"
# The spec's card points (RULES.md §3 "Scores"), written out independently of the engine.
CARD_POINTS = {"6": 0, "7": 0, "8": 0, "9": 0, "10": 10, "Q": 10, "K": 10, "A": 15, "J": 20}
# Cards that do not fit a 6H (not a heart, not a 6, not a J): 7 ranks x 3 suits.
NOT_HEARTS = [r + s for s in "CDS" for r in ("7", "8", "9", "10", "Q", "K", "A")]


# ---------------------------------------------------------------------------- helpers
def order(hands: Sequence[Sequence[str]], blind: Sequence[str] = ()) -> list[str]:
    """The stacked deck, top first, that deals ``hands`` (5 cards each) then the blind."""
    assert all(len(h) == 5 for h in hands)
    return [hand[i] for i in range(5) for hand in hands] + list(blind)


def start(
    hands: Sequence[Sequence[str]], blind: Sequence[str] = (), *, seed: int = 7, **options: Any
) -> Game:
    """A qute game dealt from ``hands`` and ``blind``; one round unless ``target`` is given."""
    return new_game(
        GAME,
        players=len(hands),
        seed=seed,
        options={"target": None, **options},
        deck=order(hands, blind),
    )


def table(
    players: int,
    fixed: Mapping[int, Sequence[str]],
    blind: Sequence[str] = (),
    **options: Any,
) -> Game:
    """Like `start`, the seats' missing cards filled with unused cards in deck order."""
    used = {c for h in fixed.values() for c in h} | set(blind)
    pool = [c for c in ALL if c not in used]
    hands = []
    for seat in range(players):
        hand = list(fixed.get(seat, ()))
        while len(hand) < 5:
            hand.append(pool.pop(0))
        hands.append(hand)
    return start(hands, blind, **options)


def legal(g: Game, seat: int) -> set[str]:
    return set(g.view(seat)["legal"])


def turn(g: Game) -> int:
    seat: int = g.spectator_view()["turn"]
    return seat


def points(cards: Sequence[str]) -> int:
    return sum(CARD_POINTS[c[:-1]] for c in cards)


def play(cards: Sequence[str]) -> str:
    return "play " + " ".join(cards)


def assert_private(g: Game) -> None:
    """No seat and no spectator sees a card in another seat's hand (round 1, no refill)."""
    hands = [g.view(s)["hand"] for s in range(g.players)]
    for viewer in range(g.players):
        v = g.view(viewer)
        assert v["counts"] == [len(h) for h in hands]
        texts = set(strings_in(v))
        for seat, cards in enumerate(hands):
            if seat == viewer:
                assert [c["card"] for c in v["hands"][seat]] == cards
                continue
            assert v["hands"][seat] == [{"card": None}] * len(cards)
            assert not texts & set(cards), f"seat {viewer} sees cards of seat {seat}"
        if viewer != v["turn"]:
            assert v["drawn"] is None
    sv = g.spectator_view()
    assert sv["hand"] is None
    assert sv["drawn"] is None
    assert sv["penalty_drawn"] == []
    texts = set(strings_in(sv))
    for seat, cards in enumerate(hands):
        assert sv["hands"][seat] == [{"card": None}] * len(cards)
        assert not texts & set(cards)


def draws(g: Game, seat: int, count: int) -> None:
    """``count`` draws by ``seat`` while it must cover a 6 (each card does not fit)."""
    for _ in range(count):
        assert g.view(seat)["legal"] == ["draw"]
        g.play(seat, "draw")
        v = g.view(seat)
        assert (v["turn"], v["phase"], v["must_cover"]) == (seat, "cover", True)


# ---------------------------------------------------------------------------- table and deal
def test_deck_is_the_36_card_short_deck() -> None:
    assert len(ALL) == 36
    assert {c[:-1] for c in ALL} == set(CARD_POINTS)
    assert {c[-1] for c in ALL} == set(SUITS)
    g = new_game(GAME, players=2, seed=1, options={"target": None}, deck=ALL)
    v = g.view(0)
    assert v["blind"] == 26
    assert v["hand"] == ALL[0:10:2]
    assert g.view(1)["hand"] == ALL[1:10:2]
    for bad in (["2H"], ["5C"], ["RJ"], ["6H", "6H"]):
        with pytest.raises(ValueError):
            new_game(GAME, players=2, seed=1, deck=bad)


def test_two_to_four_players() -> None:
    assert new_game(GAME, seed=1).players == 2
    for n in (2, 3, 4):
        g = new_game(GAME, players=n, seed=1, options={"target": None})
        v = g.view(0)
        assert v["counts"] == [5] * n
        assert v["blind"] == 36 - 5 * n
    for n in (1, 5):
        with pytest.raises(ValueError):
            new_game(GAME, players=n, seed=1)


def test_deal_five_each_one_at_a_time_rest_is_the_blind_top_first() -> None:
    deck = ["9H", "6C", "10H", "7C", "QH", "8C", "KH", "10C", "AH", "QC", "6S", "7S"]
    g = new_game(GAME, players=2, seed=3, options={"target": None}, deck=deck)
    v = g.view(0)
    assert v["hand"] == ["9H", "10H", "QH", "KH", "AH"]
    assert g.view(1)["hand"] == ["6C", "7C", "8C", "10C", "QC"]
    assert v["counts"] == [5, 5]
    assert v["blind"] == 26
    # The stack starts empty: anything may be laid on it.
    assert v["stack"] == []
    assert v["top"] is None
    assert v["run"] == {"rank": None, "cards": []}
    assert (v["turn"], v["first"], v["phase"]) == (0, 0, "play")
    assert legal(g, 0) == {"play 9H", "play 10H", "play QH", "play KH", "play AH"}
    g.play(0, "play 9H")
    # The blind's top is the deck's 11th card.
    assert g.view(1)["legal"] == ["draw"]
    g.play(1, "draw")
    assert g.view(1)["hand"] == ["6C", "7C", "8C", "10C", "QC", "6S"]
    assert g.view(0)["blind"] == 25


@pytest.mark.parametrize("players", [3, 4])
def test_deal_round_robin_with_more_players(players: int) -> None:
    g = new_game(GAME, players=players, seed=4, options={"target": None}, deck=ALL)
    for seat in range(players):
        assert g.view(seat)["hand"] == ALL[seat : 5 * players : players]
    assert g.view(0)["blind"] == 36 - 5 * players
    assert g.view(0)["turn"] == 0


def test_round_one_started_by_seat_0_or_option_first() -> None:
    g = new_game(GAME, players=3, seed=2, options={"target": None})
    assert (turn(g), g.view(0)["first"]) == (0, 0)
    g = new_game(GAME, players=3, seed=2, options={"target": None, "first": 2})
    v = g.view(0)
    assert (v["turn"], v["first"], v["actors"]) == (2, 2, [2])
    assert v["legal"] == []
    assert g.view(2)["legal"]
    assert_rejected(g, 0, "play " + v["hand"][0])
    with pytest.raises(ValueError):
        new_game(GAME, players=3, seed=2, options={"first": 3})


def test_later_rounds_started_by_the_highest_total() -> None:
    # Round 1: seat 0 lays four 9s and ends it by qute; seat 2 holds the most points.
    hands = [
        ["9C", "9D", "9H", "9S", "6C"],
        ["10C", "6D", "7D", "8D", "6S"],
        ["AC", "AD", "7S", "8S", "QC"],
    ]
    g = start(hands, target=125)
    g.play(0, "play 9C 9D 9H 9S")
    g.play(0, "qute")
    assert last_round(g)["scores"] == [0, 10, 40]
    v = g.view(0)
    assert v["round"] == 2
    assert v["totals"] == [0, 10, 40]
    assert (v["first"], v["turn"]) == (2, 2)
    assert v["stack"] == []
    assert v["counts"] == [5, 5, 5]
    assert v["blind"] == 21


def test_option_first_applies_to_round_one_only() -> None:
    hands = [["AC", "AD", "10C", "6D", "7D"], ["9C", "9D", "9H", "9S", "6C"]]
    g = start(hands, target=125, first=1)
    assert turn(g) == 1
    g.play(1, "play 9C 9D 9H 9S")
    g.play(1, "qute")
    v = g.view(0)
    assert v["totals"] == [40, 0]
    assert (v["round"], v["first"], v["turn"]) == (2, 0, 0)


def test_later_round_tie_on_highest_total_goes_to_the_lowest_seat() -> None:
    hands = [
        ["9C", "9D", "9H", "9S", "6C"],
        ["10C", "QC", "7D", "8D", "6S"],
        ["KC", "7S", "8S", "6D", "KD"],
    ]
    g = start(hands, target=125)
    g.play(0, "play 9C 9D 9H 9S")
    g.play(0, "qute")
    v = g.view(0)
    assert v["totals"] == [0, 20, 20]
    assert (v["round"], v["first"], v["turn"]) == (2, 1, 1)


# ---------------------------------------------------------------------------- fitting
def test_first_card_fits_by_suit_or_rank_and_a_j_fits_anything() -> None:
    hands = [["9H", "KS", "QS", "8S", "7S"], ["9C", "7H", "JS", "KC", "10D"]]
    g = start(hands)
    g.play(0, "play 9H")
    assert legal(g, 1) == {"play 9C", "play 7H", "play JS"}
    for bad in ("play KC", "play 10D", "draw", "play 9C 7H", "play AS"):
        assert_rejected(g, 1, bad)
    assert_rejected(g, 0, "play KS")  # not seat 0's turn
    g.play(1, "play 9C")
    assert g.view(0)["top"] == "9C"
    assert turn(g) == 0


def test_on_a_j_only_the_chosen_suit_or_another_j() -> None:
    hands = [["JH", "KS", "QS", "8S", "7D"], ["7C", "7H", "JD", "QC", "9S"]]
    g = start(hands)
    g.play(0, "play JH")
    v = g.view(0)
    assert (v["phase"], v["pending"], v["turn"]) == ("decide", "suit", 0)
    assert v["legal"] == ["suit C", "suit D", "suit H", "suit S"]
    assert_rejected(g, 0, "play KS")
    assert_rejected(g, 1, "suit C")
    g.play(0, "suit C")
    v = g.view(1)
    assert (v["top"], v["suit"], v["turn"], v["pending"]) == ("JH", "C", 1, None)
    # 7H is neither the chosen suit nor a J (the J's own suit does not count); it may only
    # follow 7C in the same play.
    assert legal(g, 1) == {"play 7C", "play 7C 7H", "play JD", "play QC"}
    for bad in ("play 7H", "play 9S", "play 7H 7C", "draw"):
        assert_rejected(g, 1, bad)
    g.play(1, "play JD")
    assert g.view(1)["pending"] == "suit"
    g.play(1, "suit S")
    # 7D has the suit of the J on top, but S was chosen.
    assert legal(g, 0) == {"play KS", "play QS", "play 8S"}
    assert_rejected(g, 0, "play 7D")


def test_play_lays_cards_of_one_rank_in_the_given_order_last_on_top() -> None:
    hands = [["10S", "10H", "10C", "KD", "7D"], ["KH", "KS", "8D", "9D", "6H"]]
    g = start(hands)
    assert {"play 10S 10H 10C", "play 10C 10S 10H", "play 10H", "play 10S 10C"} <= legal(g, 0)
    assert_rejected(g, 0, "play 10S KD")
    assert_rejected(g, 0, "play 10S 10S")
    g.play(0, "play 10S 10H 10C")
    v = g.view(1)
    assert v["stack"] == ["10S", "10H", "10C"]
    assert v["top"] == "10C"
    assert v["run"] == {"rank": "10", "cards": ["10S", "10H", "10C"]}
    assert v["counts"] == [2, 5]
    # Seat 1 holds no club, no 10 and no J: it has to draw.
    assert v["legal"] == ["draw"]


def test_middle_cards_of_a_play_are_laid_in_suit_order() -> None:
    hands = [["9S", "9H", "9D", "9C", "7D"], ["KH", "KS", "8C", "8D", "6H"]]
    g = start(hands)
    lg = legal(g, 0)
    assert "play 9S 9D 9H 9C" in lg
    assert "play 9S 9H 9D 9C" not in lg  # only the canonical middle order is listed
    g.play(0, "play 9S 9H 9D 9C")  # accepted and normalised
    v = g.view(0)
    assert v["stack"] == ["9S", "9D", "9H", "9C"]
    assert v["laid"] == ["9S", "9D", "9H", "9C"]
    assert g.log["actions"][-1] == [0, "play 9S 9D 9H 9C"]
    assert v["pending"] == "qute"


# ---------------------------------------------------------------------------- drawing
def test_must_play_when_a_card_fits_draw_refused() -> None:
    hands = [["9H", "KS", "QS", "8S", "7S"], ["AD", "AC", "6D", "8H", "7C"]]
    g = start(hands)
    g.play(0, "play 9H")
    assert legal(g, 1) == {"play 8H"}
    assert_rejected(g, 1, "draw")
    # No decision is open: the decision words are refused too.
    for bad in ("qute", "continue", "suit C", "eights all", "eights next", "jpoints plus"):
        assert_rejected(g, 1, bad)


def test_nothing_fits_one_draw_a_fitting_drawn_card_must_be_played() -> None:
    hands = [["9H", "QS", "8S", "7S", "6S"], ["KC", "KD", "6C", "7D", "8C"]]
    g = start(hands, ["KH", "10S"])
    g.play(0, "play 9H")
    assert g.view(1)["legal"] == ["draw"]
    g.play(1, "draw")
    v = g.view(1)
    assert v["drawn"] == "KH"
    assert v["hand"] == ["KC", "KD", "6C", "7D", "8C", "KH"]
    assert (v["turn"], v["phase"]) == (1, "play")
    # It fits: it must be played, alone or with more of its rank; no second draw.
    assert legal(g, 1) == {
        "play KH",
        "play KH KC",
        "play KH KD",
        "play KH KC KD",
        "play KH KD KC",
    }
    assert_rejected(g, 1, "draw")
    assert_rejected(g, 1, "play KC")
    # The drawn card is seen by its drawer only.
    assert g.view(0)["drawn"] is None
    assert g.view(0)["hands"][1] == [{"card": None}] * 6
    assert g.spectator_view()["drawn"] is None
    assert_private(g)
    g.play(1, "play KH KD KC")
    v = g.view(0)
    assert v["stack"] == ["9H", "KH", "KD", "KC"]
    assert (v["turn"], v["counts"], v["blind"]) == (0, [4, 3], 25)


def test_a_drawn_card_that_does_not_fit_ends_the_turn() -> None:
    hands = [["9H", "QS", "8S", "7S", "6S"], ["KC", "KD", "6C", "7D", "8C"]]
    g = start(hands, ["10C", "KH"])
    g.play(0, "play 9H")
    g.play(1, "draw")
    v = g.view(1)
    assert v["turn"] == 0
    assert v["hand"] == ["KC", "KD", "6C", "7D", "8C", "10C"]
    assert v["drawn"] is None  # the turn has passed
    assert v["stack"] == ["9H"]
    assert v["blind"] == 25
    assert g.view(0)["hands"][1] == [{"card": None}] * 6
    assert g.view(0)["legal"] == ["draw"]
    assert_private(g)


def test_nothing_fits_and_nothing_to_draw_the_draw_does_nothing() -> None:
    g = eights_refill_scenario(max_turns=200)
    v = g.view(2)
    assert (v["turn"], v["stack"], v["blind"]) == (2, ["8S"], 0)
    assert v["legal"] == ["draw"]
    g.play(2, "draw")
    v = g.view(2)
    assert v["hand"] == ["7H", "9H", "10H", "QH", "KH"]
    assert (v["turn"], v["stack"], v["blind"], v["refills"]) == (0, ["8S"], 0, 1)
    assert v["phase"] == "play"


# ---------------------------------------------------------------------------- sixes
def test_a_six_must_be_covered_by_the_same_seat() -> None:
    hands = [["6H", "9H", "6S", "JS", "KC"], ["AH", "AC", "8C", "8D", "7C"]]
    g = start(hands)
    g.play(0, "play 6H")
    v = g.view(0)
    assert (v["turn"], v["phase"], v["must_cover"], v["pending"]) == (0, "cover", True, None)
    assert v["actors"] == [0]
    assert g.view(1)["legal"] == []
    # Same suit as the 6, another 6, or a J.
    assert legal(g, 0) == {"play 9H", "play 6S", "play JS"}
    for bad in ("play KC", "draw"):
        assert_rejected(g, 0, bad)
    assert_rejected(g, 1, "play AH")
    g.play(0, "play 9H")
    v = g.view(1)
    assert (v["turn"], v["phase"], v["must_cover"]) == (1, "play", False)
    assert v["stack"] == ["6H", "9H"]


def test_another_six_needs_covering_again_then_j_and_suit() -> None:
    hands = [["6H", "9H", "6S", "JS", "KC"], ["AH", "AC", "8C", "8D", "7C"]]
    g = start(hands)
    g.play(0, "play 6H")
    g.play(0, "play 6S")
    v = g.view(0)
    assert (v["turn"], v["phase"], v["must_cover"]) == (0, "cover", True)
    assert v["run"] == {"rank": "6", "cards": ["6H", "6S"]}
    assert legal(g, 0) == {"play JS"}
    g.play(0, "play JS")
    assert g.view(0)["pending"] == "suit"
    g.play(0, "suit C")
    v = g.view(1)
    assert v["laid"] == []
    assert (v["turn"], v["top"], v["suit"]) == (1, "JS", "C")
    assert legal(g, 1) == {"play AC", "play AC AH", "play 8C", "play 8C 8D", "play 7C"}


def test_cover_draws_one_at_a_time_until_something_fits() -> None:
    hands = [["6H", "KC", "QD", "10S", "9C"], ["AH", "AC", "8C", "8D", "7C"]]
    g = start(hands, ["7D", "AD", "8S", "KH", "QH"])
    g.play(0, "play 6H")
    draws(g, 0, 3)
    v = g.view(0)
    assert v["hand"] == ["KC", "QD", "10S", "9C", "7D", "AD", "8S"]
    assert v["drawn"] == "8S"
    assert g.view(1)["drawn"] is None
    g.play(0, "draw")
    assert g.view(0)["drawn"] == "KH"
    assert legal(g, 0) == {"play KH", "play KH KC"}
    assert_rejected(g, 0, "draw")
    assert_private(g)
    g.play(0, "play KH")
    v = g.view(1)
    assert (v["turn"], v["counts"], v["blind"]) == (1, [7, 5], 26 - 4)


def test_round_cannot_end_on_an_uncovered_six() -> None:
    hands = [["10C", "10D", "10S", "10H", "6H"], ["KH", "7C", "8C", "9C", "QC"]]
    g = start(hands, ["QH"])
    g.play(0, "play 10C 10D 10S 10H")
    g.play(0, "continue")
    g.play(1, "play KH")
    g.play(0, "play 6H")
    v = g.view(0)
    assert v["hand"] == []
    assert (v["phase"], v["turn"], v["must_cover"], v["over"]) == ("cover", 0, True, False)
    assert v["legal"] == ["draw"]
    g.play(0, "draw")
    assert g.view(0)["legal"] == ["play QH"]
    g.play(0, "play QH")
    v = g.view(0)
    assert v["phase"] == "over"
    res = last_round(g)
    assert res["finisher"] == 0
    assert res["scores"] == [0, 10]
    assert res["winners"] == [0]


def test_a_seat_that_must_cover_and_can_neither_play_nor_draw_ends_the_round() -> None:
    # Four seats: seat 0 lays 6H and draws the whole blind without finding a fit.
    seat0 = ["6H", "7C", "8C", "9C", "10C"]
    rest = [c for c in NOT_HEARTS if c not in seat0 and c != "AS"]
    assert len(rest) == 16
    hands = [
        seat0,
        ["AS", "6C", "6D", "6S", "7H"],
        ["8H", "9H", "10H", "JH", "QH"],
        ["KH", "AH", "JC", "JD", "JS"],
    ]
    g = start(hands, rest)
    g.play(0, "play 6H")
    draws(g, 0, 15)
    assert g.view(0)["blind"] == 1
    g.play(0, "draw")
    v = g.view(0)
    assert v["phase"] == "over"
    assert v["stack"] == ["6H"]
    assert v["blind"] == 0
    res = last_round(g)
    assert res["finisher"] == 0
    assert res["qute"] is False
    assert res["multiplier"] == 1
    assert sorted(res["hands"][0]) == sorted(seat0[1:] + rest)
    assert res["scores"] == [120, 15, 40, 85]
    assert res["winners"] == [1]


# ---------------------------------------------------------------------------- sevens
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("sevens", [1, 2, 3, 4])
def test_each_seven_makes_the_next_seat_draw_one(players: int, sevens: int) -> None:
    laid = ["7C", "7D", "7H", "7S"][:sevens]
    blind = ["AC", "AD", "AH", "AS", "KC"]
    g = table(players, {0: laid}, blind)
    g.play(0, play(laid))
    if sevens == 4:
        assert g.view(0)["pending"] == "qute"
        g.play(0, "continue")
    v = g.view(1)
    assert v["turn"] == 1  # the drawer then plays its turn normally
    assert v["phase"] == "play"
    assert v["penalty_drawn"] == blind[:sevens]
    assert v["penalty_counts"] == [0, sevens] + [0] * (players - 2)
    assert v["counts"] == [5 - sevens, 5 + sevens] + [5] * (players - 2)
    assert v["hand"][-sevens:] == blind[:sevens]
    for seat in [0, *range(2, players)]:
        assert g.view(seat)["penalty_drawn"] == []
    assert g.spectator_view()["penalty_drawn"] == []
    assert g.spectator_view()["penalty_counts"] == v["penalty_counts"]
    assert_private(g)


def test_after_a_seven_the_next_seat_plays_its_turn_normally() -> None:
    hands = [["7H", "QS", "8S", "6S", "10D"], ["KC", "KD", "6C", "8C", "9S"]]
    g = start(hands, ["10S", "QC", "AH"])
    g.play(0, "play 7H")
    v = g.view(1)
    assert v["turn"] == 1
    assert v["penalty_drawn"] == ["10S"]
    assert g.view(0)["penalty_drawn"] == []
    assert v["drawn"] is None
    # Nothing fits the 7H: the seat still has its ordinary draw.
    assert v["legal"] == ["draw"]
    g.play(1, "draw")
    v = g.view(1)
    assert v["turn"] == 0
    assert v["counts"] == [4, 7]
    assert v["penalty_counts"] == [0, 0]
    assert v["penalty_drawn"] == []


def test_a_card_drawn_for_a_seven_may_be_played_at_once() -> None:
    hands = [["7H", "QS", "8S", "6S", "10D"], ["KC", "KD", "6C", "8C", "9S"]]
    g = start(hands, ["KH", "QC"])
    g.play(0, "play 7H")
    assert legal(g, 1) == {
        "play KH",
        "play KH KC",
        "play KH KD",
        "play KH KC KD",
        "play KH KD KC",
    }
    g.play(1, "play KH")
    assert turn(g) == 0


# ---------------------------------------------------------------------------- eights
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("eights", [1, 2, 3, 4])
def test_eights_next_the_next_seat_draws_two_per_eight_and_is_skipped(
    players: int, eights: int
) -> None:
    laid = ["8C", "8D", "8H", "8S"][:eights]
    blind = ["AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS", "QC"]
    g = table(players, {0: laid}, blind)
    g.play(0, play(laid))
    if eights == 4:
        assert g.view(0)["pending"] == "qute"
        g.play(0, "continue")
    v = g.view(0)
    if players >= 3 and eights >= 2:
        assert (v["phase"], v["pending"]) == ("decide", "eights")
        assert v["legal"] == ["eights all", "eights next"]
        assert_rejected(g, 1, "eights next")
        g.play(0, "eights next")
    else:  # one 8 or two players: `next`, no question
        assert v["pending"] is None
        assert_rejected(g, 0, "eights all")
        assert_rejected(g, 0, "eights next")
    v = g.view(1)
    assert v["penalty_drawn"] == blind[: 2 * eights]
    assert v["penalty_counts"] == [0, 2 * eights] + [0] * (players - 2)
    assert v["counts"] == [5 - eights, 5 + 2 * eights] + [5] * (players - 2)
    # The drawer is skipped (with two players, the 8s' player moves again).
    assert v["turn"] == 2 % players
    skips = [e for e in v["events"] if e["type"] == "skip"]
    assert skips[-1]["seats"] == [1] and skips[-1]["for"] == "8"
    assert v["laid"] == []
    assert_private(g)


# (players, eights) -> (cards drawn per seat, seat that plays next)
EIGHTS_ALL = {
    (3, 2): ([0, 2, 2], 0),
    (3, 3): ([0, 4, 2], 2),
    (3, 4): ([0, 4, 4], 0),
    (4, 2): ([0, 2, 2, 0], 3),
    (4, 3): ([0, 2, 2, 2], 0),
    (4, 4): ([0, 4, 2, 2], 2),
}


@pytest.mark.parametrize(("players", "eights"), sorted(EIGHTS_ALL))
def test_eights_all_other_seats_draw_two_each_round_robin(players: int, eights: int) -> None:
    laid = ["8C", "8D", "8H", "8S"][:eights]
    blind = ["AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS", "QC"]
    g = table(players, {0: laid}, blind)
    g.play(0, play(laid))
    if eights == 4:
        g.play(0, "continue")
    assert g.view(0)["pending"] == "eights"
    g.play(0, "eights all")
    drawn, nxt = EIGHTS_ALL[(players, eights)]
    v = g.view(0)
    assert v["penalty_counts"] == drawn
    assert v["counts"] == [5 - eights] + [5 + d for d in drawn[1:]]
    assert v["turn"] == nxt
    # One 8 at a time, round-robin from the next seat, skipping the 8s' player.
    expect: list[list[str]] = [[] for _ in range(players)]
    seat = 0
    for i in range(eights):
        seat = seat % (players - 1) + 1
        expect[seat] += blind[2 * i : 2 * i + 2]
    for s in range(players):
        assert g.view(s)["penalty_drawn"] == expect[s]
    assert_private(g)


def test_three_eights_at_three_players_play_goes_to_a_seat_that_drew() -> None:
    # RULES.md §3: 1.0 draws two, 2 draws two, 1 draws two again (more 8s than other seats);
    # play goes to the seat after the last drawer: seat 2, which itself drew.
    blind = ["AC", "AD", "KC", "KD", "QC", "QD"]
    g = table(3, {0: ["8C", "8D", "8H"]}, blind)
    g.play(0, "play 8C 8D 8H")
    assert g.view(0)["legal"] == ["eights all", "eights next"]
    g.play(0, "eights all")
    v = g.view(2)
    assert v["penalty_counts"] == [0, 4, 2]
    assert g.view(1)["penalty_drawn"] == ["AC", "AD", "QC", "QD"]
    assert v["penalty_drawn"] == ["KC", "KD"]
    assert v["turn"] == 2
    assert v["actors"] == [2]
    assert v["counts"] == [2, 9, 7]
    assert_private(g)


def test_eights_all_needs_three_players_with_one_eight_no_question() -> None:
    g = table(3, {0: ["8C"]}, ["AC", "AD"])
    g.play(0, "play 8C")
    v = g.view(0)
    assert v["pending"] is None
    assert v["penalty_counts"] == [0, 2, 0]
    assert v["turn"] == 2


# ---------------------------------------------------------------------------- aces
# (players, aces) -> seat that plays next after seat 0 lays them
ACES = {
    (2, 1): 0,
    (2, 2): 0,
    (2, 3): 0,
    (2, 4): 0,
    (3, 1): 2,
    (3, 2): 0,
    (3, 3): 2,
    (3, 4): 0,
    (4, 1): 2,
    (4, 2): 3,
    (4, 3): 0,
    (4, 4): 2,
}


@pytest.mark.parametrize(("players", "aces"), sorted(ACES))
def test_each_ace_skips_the_next_seat_not_counting_the_aces_player(players: int, aces: int) -> None:
    laid = ["AC", "AD", "AH", "AS"][:aces]
    g = table(players, {0: laid}, ["KC", "KD"])
    g.play(0, play(laid))
    if aces == 4:
        assert g.view(0)["pending"] == "qute"
        g.play(0, "continue")
    v = g.view(0)
    assert v["turn"] == ACES[(players, aces)]
    assert v["pending"] is None
    assert v["counts"] == [5 - aces] + [5] * (players - 1)
    assert v["penalty_counts"] == [0] * players
    assert v["blind"] == 36 - 5 * players
    assert v["stack"] == laid


def test_aces_do_nothing_when_the_round_ends() -> None:
    hands = [
        ["10C", "10D", "10S", "AS", "AH"],
        ["QS", "6C", "7C", "6D", "7D"],
        ["QH", "8C", "9C", "8D", "9D"],
    ]
    g = start(hands)
    g.play(0, "play 10C 10D 10S")
    g.play(1, "play QS")
    g.play(2, "play QH")
    events = g.play(0, "play AH AS")
    assert "skip" not in [e.type for e in events]
    assert g.view(0)["phase"] == "over"
    res = last_round(g)
    assert res["scores"] == [0, 0, 0]
    assert res["winners"] == [0, 1, 2]


# ---------------------------------------------------------------------------- qute
def test_qute_four_of_a_kind_in_one_play_ends_the_round() -> None:
    hands = [["9C", "9D", "9H", "9S", "KC"], ["10H", "QD", "6C", "7D", "8C"]]
    g = start(hands)
    g.play(0, "play 9C 9D 9H 9S")
    v = g.view(1)
    assert (v["phase"], v["pending"], v["turn"], v["actors"]) == ("decide", "qute", 0, [0])
    assert v["run"] == {"rank": "9", "cards": ["9C", "9D", "9H", "9S"]}
    assert g.view(0)["legal"] == ["qute", "continue"]
    assert_rejected(g, 0, "play KC")
    assert_rejected(g, 1, "qute")
    g.play(0, "qute")
    v = g.view(0)
    assert v["phase"] == "over"
    res = last_round(g)
    assert res["qute"] is True
    assert res["finisher"] == 0
    assert res["scores"] == [10, 20]
    assert res["winners"] == [0]


def test_continue_on_four_of_a_kind_passes_the_turn() -> None:
    hands = [["9C", "9D", "9H", "9S", "KC"], ["10S", "QD", "6C", "7D", "8C"]]
    g = start(hands)
    g.play(0, "play 9C 9D 9H 9S")
    g.play(0, "continue")
    v = g.view(1)
    assert (v["phase"], v["turn"], v["pending"]) == ("play", 1, None)
    assert legal(g, 1) == {"play 10S"}


def test_qute_on_four_sixes_ends_the_round_uncovered() -> None:
    hands = [["6C", "6D", "6H", "6S", "KC"], ["10S", "QD", "7C", "7D", "8C"]]
    g = start(hands)
    g.play(0, "play 6C 6D 6H 6S")
    assert g.view(0)["pending"] == "qute"
    assert g.view(0)["must_cover"] is False
    g.play(0, "qute")
    v = g.view(0)
    assert v["phase"] == "over"
    assert v["top"] == "6S"
    assert last_round(g)["scores"] == [10, 20]


def test_continue_on_four_sixes_must_then_cover() -> None:
    hands = [["6C", "6D", "6H", "6S", "KC"], ["10S", "QD", "7C", "7D", "8C"]]
    g = start(hands, ["9H", "QS"])
    g.play(0, "play 6C 6D 6H 6S")
    g.play(0, "continue")
    v = g.view(0)
    assert (v["phase"], v["must_cover"], v["turn"]) == ("cover", True, 0)
    assert v["legal"] == ["draw"]
    g.play(0, "draw")  # 9H: no fit
    assert g.view(0)["phase"] == "cover"
    g.play(0, "draw")  # QS fits
    assert legal(g, 0) == {"play QS"}
    g.play(0, "play QS")
    assert turn(g) == 1


def test_continue_on_four_sixes_with_an_empty_hand_still_needs_covering() -> None:
    hands = [["9C", "6C", "6D", "6H", "6S"], ["9D", "7C", "8C", "10C", "KC"]]
    g = start(hands, ["QS"])
    g.play(0, "play 9C")
    g.play(1, "play 9D")
    g.play(0, "play 6D 6C 6H 6S")
    g.play(0, "continue")
    v = g.view(0)
    assert v["hand"] == []
    assert (v["phase"], v["must_cover"], v["legal"]) == ("cover", True, ["draw"])
    g.play(0, "draw")
    g.play(0, "play QS")
    assert g.view(0)["phase"] == "over"
    assert last_round(g)["scores"] == [0, 20]


def test_qute_run_may_be_built_by_several_seats() -> None:
    hands = [["9H", "9D", "KC", "KD", "7S"], ["9S", "9C", "10H", "QH", "AH"]]
    g = start(hands)
    g.play(0, "play 9H")
    g.play(1, "play 9S 9C")
    v = g.view(0)
    assert v["pending"] is None  # a run of three
    assert v["run"] == {"rank": "9", "cards": ["9H", "9S", "9C"]}
    assert turn(g) == 0
    g.play(0, "play 9D")
    v = g.view(0)
    assert (v["pending"], v["turn"]) == ("qute", 0)
    assert v["run"]["cards"] == ["9H", "9S", "9C", "9D"]
    g.play(0, "qute")
    res = last_round(g)
    assert res["finisher"] == 0
    assert res["qute"] is True
    assert res["scores"] == [20, 35]


def test_qute_run_may_be_built_over_several_cover_plays() -> None:
    hands = [["6H", "6S", "6C", "6D", "KS"], ["7H", "8H", "9D", "10C", "QC"]]
    g = start(hands)
    g.play(0, "play 6H")
    g.play(0, "play 6S")
    g.play(0, "play 6C")
    assert g.view(0)["pending"] is None
    assert g.view(0)["phase"] == "cover"
    g.play(0, "play 6D")
    v = g.view(0)
    assert (v["pending"], v["phase"]) == ("qute", "decide")
    g.play(0, "qute")
    assert g.view(0)["phase"] == "over"
    assert last_round(g)["scores"] == [10, 20]


def test_a_run_broken_by_another_rank_is_no_qute() -> None:
    hands = [["9H", "9D", "KC", "KD", "7S"], ["9S", "KH", "10H", "QH", "AH"]]
    g = start(hands)
    g.play(0, "play 9H")
    g.play(1, "play KH")
    g.play(0, "play KC KD")
    v = g.view(0)
    assert v["pending"] is None
    assert v["run"] == {"rank": "K", "cards": ["KH", "KC", "KD"]}
    assert v["turn"] == 1


# ---------------------------------------------------------------------------- decision order
def test_four_js_qute_then_jpoints_without_suit() -> None:
    hands = [["JC", "JD", "JH", "JS", "9C"], ["AH", "10H", "QH", "9D", "10S"]]
    g = start(hands)
    g.play(0, "play JC JD JH JS")
    assert g.view(0)["pending"] == "qute"
    g.play(0, "qute")
    v = g.view(0)
    assert (v["pending"], v["phase"]) == ("jpoints", "decide")
    assert v["legal"] == ["jpoints minus", "jpoints plus"]
    assert_rejected(g, 0, "suit C")
    assert_rejected(g, 1, "jpoints plus")
    g.play(0, "jpoints minus")
    assert g.view(0)["phase"] == "over"
    res = last_round(g)
    assert res["scores"] == [-80, 45]
    assert res["jpoints"] == [-80, 0]
    assert res["winners"] == [0]


def test_four_js_continue_then_suit_and_no_jpoints() -> None:
    hands = [["JC", "JD", "JH", "JS", "9C"], ["AH", "10H", "QH", "9D", "10S"]]
    g = start(hands)
    g.play(0, "play JC JD JH JS")
    g.play(0, "continue")
    assert g.view(0)["pending"] == "suit"
    g.play(0, "suit D")
    v = g.view(1)
    assert (v["turn"], v["suit"], v["pending"], v["phase"]) == (1, "D", None, "play")
    assert legal(g, 1) == {"play 9D"}


def test_four_js_continue_with_empty_hand_skips_suit_asks_jpoints() -> None:
    hands = [["9C", "JC", "JD", "JH", "JS"], ["9D", "10H", "QH", "AH", "10S"]]
    g = start(hands)
    g.play(0, "play 9C")
    g.play(1, "play 9D")
    g.play(0, "play JC JD JH JS")
    assert g.view(0)["pending"] == "qute"
    g.play(0, "continue")
    v = g.view(0)
    assert v["pending"] == "jpoints"
    g.play(0, "jpoints plus")
    res = last_round(g)
    assert res["scores"] == [0, 45 + 80]
    assert res["jpoints"] == [0, 80]
    assert res["qute"] is False


def test_four_eights_three_players_qute_then_eights_then_round_ends() -> None:
    hands = [
        ["8C", "8D", "8H", "8S", "9C"],
        ["6C", "6D", "7C", "7D", "9D"],
        ["6H", "7H", "9H", "6S", "7S"],
    ]
    blind = ["AC", "KD", "QH", "10S", "AS", "KS", "QC", "10D"]
    g = start(hands, blind)
    g.play(0, "play 8C 8D 8H 8S")
    assert g.view(0)["pending"] == "qute"
    g.play(0, "qute")
    assert g.view(0)["pending"] == "eights"  # qute first, then eights
    g.play(0, "eights all")
    v = g.view(0)
    assert v["phase"] == "over"  # no jpoints: no J was laid
    assert v["pending"] is None
    assert v["penalty_counts"] == [0, 4, 4]
    assert g.view(1)["penalty_drawn"] == ["AC", "KD", "AS", "KS"]
    assert g.view(2)["penalty_drawn"] == ["QH", "10S", "QC", "10D"]
    res = last_round(g)
    assert res["qute"] is True
    assert res["jpoints"] == [0, 0, 0]
    assert res["scores"] == [0, 50, 40]


def test_four_eights_three_players_continue_then_eights_and_play_on() -> None:
    hands = [
        ["8C", "8D", "8H", "8S", "9C"],
        ["6C", "6D", "7C", "7D", "9D"],
        ["6H", "7H", "9H", "6S", "7S"],
    ]
    g = start(hands)
    g.play(0, "play 8C 8D 8H 8S")
    g.play(0, "continue")
    assert g.view(0)["pending"] == "eights"
    g.play(0, "eights next")
    v = g.view(0)
    assert (v["turn"], v["penalty_counts"], v["phase"]) == (2, [0, 8, 0], "play")


def test_four_eights_two_players_qute_no_eights_question_draws_count() -> None:
    hands = [["8C", "8D", "8H", "8S", "9C"], ["6C", "6D", "7C", "7D", "9D"]]
    blind = ["AC", "KD", "QH", "10S", "AS", "6H", "7H", "9H"]
    g = start(hands, blind)
    g.play(0, "play 8C 8D 8H 8S")
    g.play(0, "qute")
    v = g.view(1)
    assert v["phase"] == "over"
    assert v["penalty_drawn"] == blind
    res = last_round(g)
    assert res["scores"] == [0, 15 + 10 + 10 + 10 + 15]
    assert res["winners"] == [0]


def test_four_sixes_continue_cover_with_last_card_j_asks_jpoints_only() -> None:
    hands = [["6C", "6D", "6H", "6S", "JH"], ["10S", "QD", "7C", "7D", "8C"]]
    g = start(hands)
    g.play(0, "play 6C 6D 6H 6S")
    g.play(0, "continue")
    assert legal(g, 0) == {"play JH"}
    g.play(0, "play JH")
    v = g.view(0)
    assert v["pending"] == "jpoints"  # no suit: the round ends
    g.play(0, "jpoints minus")
    res = last_round(g)
    assert res["scores"] == [-20, 20]
    assert res["jpoints"] == [-20, 0]


def test_four_sixes_continue_cover_with_j_keeping_cards_asks_suit() -> None:
    hands = [["7H", "9C", "9D", "10C", "QC"], ["6H", "6C", "6D", "6S", "JS"]]
    g = start(hands, ["KD"])
    g.play(0, "play 7H")
    assert g.view(1)["penalty_drawn"] == ["KD"]
    g.play(1, "play 6H 6C 6D 6S")
    assert g.view(1)["pending"] == "qute"
    g.play(1, "continue")
    v = g.view(1)
    assert (v["phase"], v["must_cover"]) == ("cover", True)
    assert legal(g, 1) == {"play JS"}
    g.play(1, "play JS")
    assert g.view(1)["pending"] == "suit"
    g.play(1, "suit C")
    v = g.view(0)
    assert (v["turn"], v["suit"], v["pending"]) == (0, "C", None)
    assert legal(g, 0) == {"play 9C", "play 9C 9D", "play 10C", "play QC"}


def test_six_then_j_as_last_card_asks_jpoints_not_suit() -> None:
    hands = [["9C", "9D", "9H", "6H", "JH"], ["KH", "QC", "QD", "7C", "7D"]]
    g = start(hands)
    g.play(0, "play 9C 9D 9H")
    g.play(1, "play KH")
    g.play(0, "play 6H")
    g.play(0, "play JH")
    v = g.view(0)
    assert v["pending"] == "jpoints"
    assert v["laid"] == ["6H", "JH"]
    g.play(0, "jpoints plus")
    res = last_round(g)
    assert res["scores"] == [0, 20 + 20]
    assert res["jpoints"] == [0, 20]


def test_j_points_count_only_the_js_of_the_finishing_turn() -> None:
    hands = [["JC", "JD", "9H", "9C", "9D"], ["QH", "QD", "7C", "8C", "6S"]]
    g = start(hands)
    g.play(0, "play JC")
    g.play(0, "suit H")
    g.play(1, "play QH")
    g.play(0, "play 9H 9C 9D")
    g.play(1, "play QD")
    g.play(0, "play JD")
    assert g.view(0)["pending"] == "jpoints"
    g.play(0, "jpoints minus")
    res = last_round(g)
    assert res["jpoints"] == [-20, 0]
    assert res["scores"] == [-20, 0]


def test_a_new_j_shows_no_suit_until_one_is_chosen() -> None:
    hands = [["JC", "JD", "9H", "9C", "9D"], ["QH", "QD", "7C", "8C", "6S"]]
    g = start(hands)
    g.play(0, "play JC")
    assert g.view(1)["suit"] is None and g.view(0)["pending"] == "suit"
    g.play(0, "suit H")
    assert g.view(1)["suit"] == "H"
    g.play(1, "play QH")
    g.play(0, "play 9H 9C 9D")
    g.play(1, "play QD")
    g.play(0, "play JD")  # the last card: the round ends, no suit is asked for this J
    assert g.view(1)["top"] == "JD" and g.view(1)["suit"] is None


def test_js_laid_before_the_finishing_turn_give_no_jpoints() -> None:
    hands = [["JC", "KH", "KC", "KD", "KS"], ["9H", "QD", "7C", "7D", "8C"]]
    g = start(hands)
    g.play(0, "play JC")
    g.play(0, "suit H")
    g.play(1, "play 9H")
    g.play(0, "play KH KC KD KS")
    g.play(0, "continue")
    v = g.view(0)
    assert v["phase"] == "over"
    assert v["pending"] is None
    res = last_round(g)
    assert res["jpoints"] == [0, 0]
    assert res["scores"] == [0, 10]


def test_last_turn_with_eights_asks_eights_then_ends_without_jpoints() -> None:
    hands = [
        ["8H", "8C", "10C", "10D", "10S"],
        ["QS", "6C", "7C", "6D", "7D"],
        ["QH", "9C", "9D", "6S", "7S"],
    ]
    blind = ["AC", "KD", "KS", "AS"]
    g = start(hands, blind)
    g.play(0, "play 10C 10D 10S")
    g.play(1, "play QS")
    g.play(2, "play QH")
    g.play(0, "play 8H 8C")
    assert g.view(0)["pending"] == "eights"
    g.play(0, "eights all")
    v = g.view(0)
    assert v["phase"] == "over"
    assert v["penalty_counts"] == [0, 2, 2]
    res = last_round(g)
    assert res["jpoints"] == [0, 0, 0]
    assert res["scores"] == [0, 25, 25]
    assert res["winners"] == [0]


# ---------------------------------------------------------------------------- round end
def test_round_ends_when_a_seat_has_no_cards_left() -> None:
    hands = [["9C", "9D", "9H", "KC", "KH"], ["QH", "QD", "AD", "6S", "7S"]]
    g = start(hands)
    g.play(0, "play 9C 9D 9H")
    g.play(1, "play QH")
    assert g.view(0)["result"] is None
    g.play(0, "play KH KC")
    v = g.view(1)
    assert (v["phase"], v["over"], v["actors"], v["legal"]) == ("over", True, [], [])
    res = last_round(g)
    assert res["finisher"] == 0
    assert res["qute"] is False
    assert res["hands"] == [[], ["QD", "AD", "6S", "7S"]]
    assert res["hand_points"] == [0, 25]
    assert res["scores"] == [0, 25]
    assert res["winners"] == [0]
    assert v["result"] == {
        "rounds": [[0, 25]],
        "totals": [0, 25],
        "winners": [0],
        "round_winners": [[0]],
    }
    assert g.spectator_view()["result"] == v["result"]
    with pytest.raises(IllegalAction):
        g.play(1, "draw")


@pytest.mark.parametrize(
    ("seat", "text", "kind", "why"),
    [
        (5, "draw", NoSuchSeat, "no seat 5"),
        (1, "play QH", NotYourTurn, "you cannot act now: seat 0 is to act"),
        (0, "jump", MalformedAction, "unknown action 'jump'"),
        (0, "play AS", NoSuchCard, "you do not hold [AS]"),
        (0, "suit H", WrongPhase, "no 'suit' decision"),
        (0, "play 9C KC", RuleForbids, "the same rank"),
    ],
)
def test_each_kind_of_refusal_is_its_own_exception_and_changes_nothing(
    seat: int, text: str, kind: type[IllegalAction], why: str
) -> None:
    g = start([["9C", "9D", "9H", "KC", "KH"], ["QH", "QD", "AD", "6S", "7S"]])
    views = [g.view(s) for s in range(2)]
    with pytest.raises(IllegalAction) as info:
        g.play(seat, text)
    assert type(info.value) is kind and why in str(info.value)
    assert [g.view(s) for s in range(2)] == views


def test_round_winners_are_the_lowest_round_scores_ties_share() -> None:
    hands = [
        ["9C", "9D", "9H", "9S", "QC"],
        ["6D", "7D", "8D", "6S", "KS"],
        ["10C", "QD", "7C", "8S", "7S"],
    ]
    g = start(hands)
    g.play(0, "play 9C 9D 9H 9S")
    g.play(0, "qute")
    res = last_round(g)
    assert res["scores"] == [10, 10, 20]
    assert res["winners"] == [0, 1]
    assert g.view(0)["result"]["winners"] == [0, 1]


def test_sevens_of_the_last_turn_are_drawn_and_count() -> None:
    hands = [["7S", "7C", "10C", "10D", "10S"], ["QS", "AC", "AD", "6C", "6D"]]
    g = start(hands, ["KS", "KH"])
    g.play(0, "play 10C 10D 10S")
    g.play(1, "play QS")
    g.play(0, "play 7S 7C")
    v = g.view(1)
    assert v["phase"] == "over"
    assert v["penalty_drawn"] == ["KS", "KH"]
    assert v["penalty_counts"] == [0, 2]
    res = last_round(g)
    assert res["hands"][1] == ["AC", "AD", "6C", "6D", "KS", "KH"]
    assert res["scores"] == [0, 50]


def test_eights_next_of_the_last_turn_are_drawn_and_count() -> None:
    hands = [["8S", "8C", "10C", "10D", "10S"], ["QS", "6C", "7C", "6D", "7D"]]
    g = start(hands, ["KS", "KH", "AS", "9S"])
    g.play(0, "play 10C 10D 10S")
    g.play(1, "play QS")
    g.play(0, "play 8S 8C")
    assert g.view(0)["phase"] == "over"
    assert last_round(g)["scores"] == [0, 35]


# ---------------------------------------------------------------------------- J points
@pytest.mark.parametrize("mode", ["minus", "plus"])
@pytest.mark.parametrize("js", [1, 2, 3, 4])
def test_jpoints_per_j_laid_in_the_finishing_turn(mode: str, js: int) -> None:
    nines = ["9C", "9D", "9S", "9H"][: 5 - js]
    jacks = ["JC", "JD", "JH", "JS"][:js]
    g = start([[*jacks, *nines], ["KC", "KD", "KS", "KH", "7D"]])
    g.play(0, play(nines))
    if js == 1:
        g.play(0, "continue")  # four 9s
    g.play(1, "play K" + g.view(1)["top"][-1])
    g.play(0, play(jacks))
    if js == 4:
        assert g.view(0)["pending"] == "qute"
        g.play(0, "continue")
    v = g.view(0)
    assert v["pending"] == "jpoints"
    assert v["legal"] == ["jpoints minus", "jpoints plus"]
    g.play(0, f"jpoints {mode}")
    res = last_round(g)
    if mode == "minus":
        assert res["jpoints"] == [-20 * js, 0]
        assert res["scores"] == [-20 * js, 30]
    else:
        assert res["jpoints"] == [0, 20 * js]
        assert res["scores"] == [0, 30 + 20 * js]
    assert res["winners"] == [0]


def test_jpoints_plus_gives_every_other_seat_twenty_per_j() -> None:
    hands = [
        ["JC", "JD", "9C", "9D", "9S"],
        ["KS", "6C", "7C", "AD", "8D"],
        ["QS", "10H", "6D", "7H", "8H"],
    ]
    g = start(hands)
    g.play(0, "play 9C 9D 9S")
    g.play(1, "play KS")
    g.play(2, "play QS")
    g.play(0, "play JC JD")
    g.play(0, "jpoints plus")
    res = last_round(g)
    assert res["jpoints"] == [0, 40, 40]
    assert res["scores"] == [0, 15 + 40, 10 + 40]


# ---------------------------------------------------------------------------- scores
@pytest.mark.parametrize(
    ("rank", "value"),
    [
        ("6", 0),
        ("7", 0),
        ("8", 0),
        ("9", 0),
        ("10", 10),
        ("Q", 10),
        ("K", 10),
        ("A", 15),
        ("J", 20),
    ],
)
def test_card_points(rank: str, value: int) -> None:
    quad = "K" if rank == "9" else "9"
    hands = [[quad + s for s in SUITS] + ["6C"], [rank + "H", "7C", "7D", "8C", "8D"]]
    g = start(hands)
    g.play(0, play([quad + s for s in SUITS]))
    g.play(0, "qute")
    res = last_round(g)
    assert res["hand_points"] == [0, value]
    assert res["scores"] == [0, value]


def test_total_of_exactly_125_becomes_zero() -> None:
    hands = [["JC", "JD", "JH", "JS", "9C"], ["AH", "10H", "QH", "9D", "10S"]]
    g = start(hands, target=125)
    g.play(0, "play JC JD JH JS")
    g.play(0, "qute")
    g.play(0, "jpoints plus")
    v = g.view(0)
    assert v["round_results"][0]["scores"] == [0, 125]
    assert v["totals"] == [0, 0]
    assert v["round_results"][0]["totals"] == [0, 0]
    assert v["round_results"][0]["reset"] == [1]
    assert (v["over"], v["round"], v["first"]) == (False, 2, 0)


def test_game_ends_when_a_total_exceeds_the_target_default_125() -> None:
    g = new_game(GAME, players=2, seed=1)
    assert g.view(0)["target"] == 125
    hands = [["JC", "JD", "JH", "JS", "9C"], ["AH", "10H", "QH", "KH", "10S"]]
    g = new_game(GAME, players=2, seed=1, deck=order(hands))
    g.play(0, "play JC JD JH JS")
    g.play(0, "qute")
    g.play(0, "jpoints plus")
    v = g.view(1)
    assert v["phase"] == "over"
    assert v["result"] == {
        "rounds": [[0, 135]],
        "totals": [0, 135],
        "winners": [0],
        "round_winners": [[0]],
    }


@pytest.mark.parametrize(("target", "totals", "over"), [(30, [0, 0], False), (29, [0, 30], True)])
def test_a_total_equal_to_the_target_does_not_end_the_game(
    target: int, totals: list[int], over: bool
) -> None:
    # Landing exactly on the target resets the total to 0 (the "125" rule, at the match's own
    # target: docs/decisions.md); one more point ends the match.
    hands = [["9C", "9D", "9H", "9S", "6C"], ["10H", "QH", "KH", "8D", "8S"]]
    g = start(hands, target=target)
    g.play(0, "play 9C 9D 9H 9S")
    g.play(0, "qute")
    v = g.view(0)
    assert v["round_results"][0]["scores"] == [0, 30]
    assert v["totals"] == totals
    assert v["round_results"][0]["reset"] == ([] if over else [1])
    assert v["over"] is over
    assert v["round"] == (1 if over else 2)


def test_a_single_round_of_125_is_scored_as_it_is() -> None:
    # The reset belongs to a match: with target None a round of exactly 125 stays 125.
    hands = [["JC", "JD", "JH", "JS", "9C"], ["AH", "10H", "QH", "9D", "10S"]]
    g = start(hands)  # target None
    g.play(0, "play JC JD JH JS")
    g.play(0, "qute")
    g.play(0, "jpoints plus")
    v = g.view(1)
    assert v["over"] is True
    assert v["round_results"][0]["scores"] == [0, 125]
    assert v["round_results"][0]["reset"] == []
    assert v["totals"] == [0, 125]
    assert v["result"]["totals"] == [0, 125]
    assert v["result"]["winners"] == [0]


def test_lowest_total_wins_ties_share() -> None:
    hands = [
        ["9C", "9D", "9H", "9S", "6C"],
        ["6D", "7D", "8D", "6S", "7S"],
        ["10C", "QC", "KC", "10D", "QD"],
    ]
    g = start(hands, target=20)
    g.play(0, "play 9C 9D 9H 9S")
    g.play(0, "qute")
    result = g.view(0)["result"]
    assert result["totals"] == [0, 0, 50]
    assert result["winners"] == [0, 1]


def test_totals_may_go_below_zero() -> None:
    hands = [["JC", "JD", "JH", "JS", "9C"], ["AH", "10H", "QH", "9D", "10S"]]
    g = start(hands, target=125)
    g.play(0, "play JC JD JH JS")
    g.play(0, "qute")
    g.play(0, "jpoints minus")
    v = g.view(0)
    assert v["totals"] == [-80, 45]
    assert v["round_results"][0]["winners"] == [0]
    assert (v["over"], v["round"], v["first"], v["turn"]) == (False, 2, 1, 1)


# ---------------------------------------------------------------------------- blind refill
def eights_refill_scenario(**options: Any) -> Game:
    """Three seats. Seat 0 lays 6H, draws 17 cards that do not fit, draws 8H, lays the four
    8s (continue) and chooses `eights next`: seat 1 must draw 8 but the blind holds 3 and a
    refill gives 4 more; the stack is left as the lone 8S and the blind empty (seat 2 to play,
    holding nothing that fits)."""
    seat0 = ["6H", "8C", "8D", "8S", "7C"]
    rest = [c for c in NOT_HEARTS if c not in seat0]
    hands = [seat0, ["JC", "JD", "JS", "JH", "6S"], ["7H", "9H", "10H", "QH", "KH"]]
    g = start(hands, [*rest, "8H", "AH", "6C", "6D"], **options)
    g.play(0, "play 6H")
    draws(g, 0, 17)
    g.play(0, "draw")
    g.play(0, "play 8H 8C 8D 8S")
    g.play(0, "continue")
    g.play(0, "eights next")
    return g


def test_refill_during_penalty_draws_and_nothing_left_to_refill() -> None:
    g = eights_refill_scenario()
    v = g.view(1)
    assert (v["turn"], v["stack"], v["top"], v["blind"]) == (2, ["8S"], "8S", 0)
    assert (v["refills"], v["multiplier"]) == (1, 2)
    # 3 from the blind, then the 4 stack cards under the top, then nothing to refill.
    assert v["penalty_counts"] == [0, 7, 0]
    assert v["penalty_drawn"][:3] == ["AH", "6C", "6D"]
    assert sorted(v["penalty_drawn"][3:]) == sorted(["6H", "8H", "8C", "8D"])
    assert sorted(v["hand"]) == sorted(
        ["JC", "JD", "JS", "JH", "6S", "AH", "6C", "6D", "6H", "8H", "8C", "8D"]
    )
    assert v["counts"] == [18, 12, 5]


def test_refill_multiplies_the_round_scores() -> None:
    g = eights_refill_scenario(max_turns=2)
    g.play(2, "draw")  # does nothing; the second turn ends the round (max_turns)
    v = g.view(0)
    assert v["phase"] == "over"
    res = last_round(g)
    assert res["multiplier"] == 2
    assert res["hand_points"] == [135, 95, 30]
    assert res["scores"] == [270, 190, 60]
    assert res["winners"] == [2]
    assert [2 * points(h) for h in res["hands"]] == res["scores"]


def test_refill_on_a_normal_draw_and_qute_with_multiplier() -> None:
    seat0 = ["6H", "7C", "8C", "10C", "QC"]
    seat1 = ["6C", "6D", "6S", "7D", "7S"]
    rest = [c for c in NOT_HEARTS if c not in seat0 + seat1]
    hands = [seat0, seat1, ["7H", "8H", "10H", "JH", "QH"], ["KH", "AH", "JC", "JD", "JS"]]
    g = start(hands, [*rest, "9H"])
    g.play(0, "play 6H")
    draws(g, 0, 15)
    g.play(0, "draw")
    assert "play 9H" in legal(g, 0)
    g.play(0, "play 9H")
    v = g.view(1)
    assert (v["turn"], v["blind"], v["stack"], v["refills"]) == (1, 0, ["6H", "9H"], 0)
    assert v["legal"] == ["draw"]
    g.play(1, "draw")
    v = g.view(1)
    # Every stack card but the top went back to the blind: here only 6H, which is drawn.
    assert (v["stack"], v["blind"], v["refills"], v["multiplier"]) == (["9H"], 0, 1, 2)
    assert v["drawn"] == "6H"
    assert "play 6H 6C 6D 6S" in v["legal"]
    g.play(1, "play 6H 6C 6D 6S")
    g.play(1, "qute")
    res = last_round(g)
    assert res["finisher"] == 1
    assert res["multiplier"] == 2
    assert res["scores"] == [270, 0, 80, 170]
    assert res["winners"] == [1]


@pytest.mark.parametrize("mode", ["minus", "plus"])
def test_j_points_are_multiplied_by_refills_too(mode: str) -> None:
    seat0 = ["6H", "7C", "8C", "10C", "QC"]
    hands = [
        seat0,
        ["9C", "6S", "7H", "8H", "9H"],
        ["QD", "QH", "JD", "JS", "JH"],
        ["KH", "10H", "AH", "6C", "6D"],
    ]
    rest = [c for c in NOT_HEARTS if c not in [*seat0, "9C", "QD"]]
    g = start(hands, [*rest, "JC"])
    g.play(0, "play 6H")
    draws(g, 0, 15)
    g.play(0, "draw")
    assert legal(g, 0) == {"play JC"}
    g.play(0, "play JC")
    g.play(0, "suit D")
    g.play(1, "draw")  # refill: 6H comes back, does not fit the chosen D
    v = g.view(1)
    assert (v["turn"], v["stack"], v["blind"], v["refills"]) == (2, ["JC"], 0, 1)
    assert v["hand"][-1] == "6H"
    g.play(2, "play QD QH")
    g.play(3, "play KH")
    g.play(0, "play KC")
    g.play(1, "play 9C")
    g.play(2, "play JD JS JH")
    assert g.view(2)["pending"] == "jpoints"
    g.play(2, f"jpoints {mode}")
    res = last_round(g)
    assert res["multiplier"] == 2
    assert res["hand_points"] == [115, 0, 0, 25]
    if mode == "plus":
        assert res["scores"] == [350, 120, 0, 170]
    else:
        assert res["scores"] == [230, 0, -120, 50]


# ---------------------------------------------------------------------------- max_turns
def test_max_turns_ends_the_round() -> None:
    assert new_game(GAME, players=2, seed=1).view(0)["max_turns"] == 200
    hands = [["9H", "10H", "QH", "KC", "7S"], ["9C", "10C", "AH", "6D", "8D"]]
    g = start(hands, max_turns=3)
    g.play(0, "play 9H")
    g.play(1, "play 9C")
    assert g.view(0)["turns"] == 2
    assert not g.over
    g.play(0, "play KC")
    assert g.view(0)["phase"] == "over"
    res = last_round(g)
    assert res["scores"] == [20, 25]
    assert res["winners"] == [0]


# ---------------------------------------------------------------------------- views
def test_view_fields_and_secrecy() -> None:
    hands = [["7H", "QS", "8S", "6H", "10D"], ["KC", "KD", "6C", "8C", "9S"]]
    g = start(hands, ["10S", "QC"])
    assert_private(g)
    g.play(0, "play 7H")
    v = g.view(1)
    expected = {
        "game": "qute",
        "seat": 1,
        "players": 2,
        "phase": "play",
        "actors": [1],
        "turn": 1,
        "first": 0,
        "hand": ["KC", "KD", "6C", "8C", "9S", "10S"],
        "counts": [4, 6],
        "stack": ["7H"],
        "top": "7H",
        "suit": None,
        "run": {"rank": "7", "cards": ["7H"]},
        "blind": 25,
        "refills": 0,
        "multiplier": 1,
        "laid": [],
        "drawn": None,
        "penalty_drawn": ["10S"],
        "penalty_counts": [0, 1],
        "must_cover": False,
        "pending": None,
        "totals": [0, 0],
        "round_results": [],
        "result": None,
        "legal": ["draw"],
    }
    assert {k: v[k] for k in expected} == expected
    assert v["hands"] == [[{"card": None}] * 4, [{"card": c} for c in expected["hand"]]]
    v0 = g.view(0)
    assert v0["hand"] == ["QS", "8S", "6H", "10D"]
    assert v0["hands"][1] == [{"card": None}] * 6
    assert (v0["penalty_drawn"], v0["penalty_counts"], v0["legal"]) == ([], [0, 1], [])
    sv = g.spectator_view()
    assert sv["seat"] is None
    assert sv["hands"] == [[{"card": None}] * 4, [{"card": None}] * 6]
    assert (sv["penalty_counts"], sv["legal"], sv["stack"]) == ([0, 1], [], ["7H"])
    assert_private(g)
    g.play(1, "draw")  # QC: does not fit
    assert_private(g)
    g.play(0, "play 6H")
    v = g.view(0)
    assert (v["phase"], v["must_cover"], v["laid"]) == ("cover", True, ["6H"])
    assert v["stack"] == ["7H", "6H"]
    assert v["run"] == {"rank": "6", "cards": ["6H"]}
    assert_private(g)
    with pytest.raises(ValueError):
        g.view(2)
