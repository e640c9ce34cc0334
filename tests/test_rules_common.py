"""Scenario tests for the rules shared by the Cabo family (RULES.md §1, §2 table, §4, §5).

Every test stacks the deck, plays actions in notation and checks what each seat may see.
Common rules are shown on whichever variant makes them easiest to follow; most use `cabo`,
whose cards are just their values 0–13.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from cardtable import (
    Action,
    Game,
    GameOver,
    IllegalAction,
    MalformedAction,
    NoSuchCard,
    NotInThisGame,
    NotYourTurn,
    RuleForbids,
    WrongPhase,
    new_game,
    parse,
)
from cardtable.cards import cabo_deck, standard_deck

from .scenario import all_pass, draw_turn, hand, peek_all, quick_turn, seen, stack

FAMILY = ("cabo", "cabo-german", "gabo", "kaboo")

# --------------------------------------------------------------------------- helpers


def game(
    variant: str,
    deck: list[str],
    players: int = 2,
    seed: int = 0,
    **options: Any,
) -> Game:
    """A single-round game unless `target` is given; kaboo starts with seat 0 unless told."""
    opts: dict[str, Any] = {"target": None}
    if variant == "kaboo":
        opts["first"] = 0
    opts.update(options)
    return new_game(variant, players=players, seed=seed, options=opts, deck=deck)


def full_deck(variant: str) -> list[str]:
    if variant == "cabo":
        return cabo_deck()
    return standard_deck(jokers=variant in ("cabo-german", "gabo"))


# Two plain cabo hands (no 7–12, so nothing in them has a power).
P0 = ["1", "2", "3", "4"]
P1 = ["5", "6", "0", "13"]
P2 = ["7", "8", "9", "10"]
P3 = ["11", "12", "12", "11"]


# --------------------------------------------------------------------------- §1 table


def test_seats_play_in_increasing_order_and_wrap_round() -> None:
    g = game("cabo", stack([P0, P1, ["1", "2", "3", "4"]], "5", ["6"] * 3 + ["5"] * 2), players=3)
    peek_all(g)
    order = []
    for _ in range(4):
        (seat,) = g.actors
        order.append(seat)
        quick_turn(g, seat)
    assert order == [0, 1, 2, 0]


def test_removed_card_leaves_an_empty_position_that_cannot_be_addressed() -> None:
    g = game("cabo", stack([["3", "1", "3", "2"], P1], "13", ["5", "6", "4"]))
    peek_all(g)
    g.play(0, "draw deck")  # 5
    g.play(0, "replace 0 2")  # the two 3s match: both leave, 5 takes position 0
    for v in (g.view(0), g.view(1), g.spectator_view()):
        assert len(v["hands"][0]) == 4
        assert v["hands"][0][2] is None
        assert v["hands"][0][0] is not None
    quick_turn(g, 1)
    g.play(0, "draw deck")
    with pytest.raises(IllegalAction, match="no card at position 2"):
        g.play(0, "replace 2")


def test_new_card_goes_to_the_lowest_empty_position() -> None:
    g = game("cabo", stack([["3", "1", "3", "2"], P1], "13", ["5", "6", "4"]))
    peek_all(g)
    g.play(0, "draw deck")  # 5
    g.play(0, "replace 0 2")  # success: position 2 becomes empty
    quick_turn(g, 1)
    g.play(0, "draw deck")  # 4
    g.play(0, "replace 1 3")  # 1 and 3 differ: the 4 is added to the hand
    v0 = g.view(0)
    assert hand(v0, 0) == ["5", "1", "4", "2"]
    assert len(g.view(1)["hands"][0]) == 4


def test_new_card_is_appended_when_no_position_is_empty() -> None:
    g = game("cabo", stack([["3", "1", "4", "2"], P1], "13", ["5"]))
    peek_all(g)
    g.play(0, "draw deck")  # 5
    g.play(0, "replace 0 1")  # 3 and 1 differ
    v0 = g.view(0)
    assert hand(v0, 0) == ["3", "1", "?", "?", "5"]
    assert len(g.view(1)["hands"][0]) == 5
    assert len(g.spectator_view()["hands"][0]) == 5


# --------------------------------------------------------------------------- §1 dealing


def test_deal_is_round_robin_by_position_then_discard_then_deck() -> None:
    g = game("cabo", [str(v) for v in range(1, 13)])
    g.play(0, "peek 0")
    g.play(0, "peek 3")
    g.play(1, "peek 1")
    g.play(1, "peek 2")
    v0, v1 = g.view(0), g.view(1)
    assert hand(v0, 0) == ["1", "?", "?", "7"]
    assert hand(v1, 1) == ["?", "4", "6", "?"]
    assert v0["discard"] == ["9"]
    assert v0["deck"] == 52 - 9
    g.play(0, "draw deck")
    assert g.view(0)["drawn"] == "10"
    g.play(0, "replace 1")
    g.play(1, "cabo")
    g.play(0, "draw deck")
    assert g.view(0)["drawn"] == "11"
    g.play(0, "replace 2")
    assert g.over
    hands = g.view(0)["round_results"][-1]["hands"]
    assert hands == [["1", "10", "11", "7"], ["2", "4", "6", "8"]]
    assert g.view(1)["discard"] == ["9", "3", "5"]


@pytest.mark.parametrize(
    ("variant", "size", "starts"),
    [("cabo", 52, True), ("cabo-german", 54, True), ("gabo", 54, True), ("kaboo", 52, False)],
)
@pytest.mark.parametrize("players", [2, 4])
def test_discard_pile_start_and_deck_size(
    variant: str, size: int, starts: bool, players: int
) -> None:
    g = game(variant, [], players=players)
    v = g.view(0)
    assert len(v["discard"]) == (1 if starts else 0)
    assert v["deck"] == size - 4 * players - (1 if starts else 0)
    assert all(len(h) == 4 for h in v["hands"])


def test_stacked_prefix_is_dealt_and_the_rest_follows_in_seeded_order() -> None:
    prefix = ["13", "13", "12", "12", "0", "0", "11", "11", "10"]
    a = game("cabo", prefix, seed=42)
    b = game("cabo", prefix, seed=42)
    c = game("cabo", prefix, seed=43)
    for g in (a, b, c):
        peek_all(g)
        assert g.view(0)["discard"] == ["10"]
        assert hand(g.view(0), 0)[:2] == ["13", "12"]
        assert hand(g.view(1), 1)[:2] == ["13", "12"]
    draws = []
    for g in (a, b, c):
        seq = []
        while not g.over:  # draw the whole deck: the round ends with its last card
            (seat,) = g.actors
            g.play(seat, "draw deck")
            seq.append(g.view(seat)["drawn"])
            g.play(seat, "replace 0")
        draws.append(seq)
    assert draws[0] == draws[1]
    assert draws[0] != draws[2]
    # The prefix is taken out of the full deck: the rest is exactly the complement.
    for seq in draws:
        assert len(seq) == 52 - 9
        assert Counter(prefix) + Counter(seq) == Counter(cabo_deck())


@pytest.mark.parametrize(
    ("variant", "bad", "why"),
    [
        ("cabo", ["14"], "not a card"),
        ("cabo", ["QS"], "not a card"),
        ("cabo", ["13", "13", "13"], "too many"),
        ("kaboo", ["RJ"], "not a card"),
        ("kaboo", ["5"], "not a card"),
        ("gabo", ["AS", "AS"], "too many"),
    ],
)
def test_stacked_deck_must_come_from_the_variant_deck(
    variant: str, bad: list[str], why: str
) -> None:
    with pytest.raises(ValueError, match=why):
        game(variant, bad)


# --------------------------------------------------------------------------- §1 first player


def test_first_option_chooses_who_starts_round_one() -> None:
    g = game("cabo", [], players=3, first=2)
    peek_all(g)
    assert g.actors == [2]
    v = g.view(2)
    assert v["turn"] == 2
    assert v["legal"] == ["draw deck", "draw discard", "cabo"]
    assert g.view(0)["legal"] == []


def test_first_option_rejects_a_seat_that_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match="first"):
        game("cabo", [], players=3, first=3)


def test_kaboo_draws_the_first_seat_from_the_seed() -> None:
    starters = set()
    for seed in range(40):
        a = new_game("kaboo", players=2, seed=seed, options={})
        b = new_game("kaboo", players=2, seed=seed, options={})
        assert a.actors == b.actors
        assert a.view(0)["phase"] == "turn"
        starters.update(a.actors)
        forced = new_game("kaboo", players=2, seed=seed, options={"first": 1})
        assert forced.actors == [1]
    assert starters == {0, 1}


def test_other_variants_start_with_seat_zero_by_default() -> None:
    for variant in ("cabo", "cabo-german", "gabo"):
        for seed in range(5):
            g = new_game(variant, players=3, seed=seed, options={"target": None})
            peek_all(g)
            assert g.actors == [0], (variant, seed)


def test_each_round_starts_with_the_seat_after_the_previous_first() -> None:
    g = game("cabo", [], players=3, first=2, target=1000)
    starters = []
    for rnd in (1, 2, 3, 4):
        v = g.view(0)
        assert v["round"] == rnd
        assert v["phase"] == "peek"
        assert g.actors == [0, 1, 2]
        peek_all(g)
        (first,) = g.actors
        starters.append(first)
        assert g.view(0)["first"] == first
        g.play(first, "cabo")
        quick_turn(g, (first + 1) % 3)
        quick_turn(g, (first + 2) % 3)
    assert starters == [2, 0, 1, 2]
    v = g.view(0)
    assert [r["round"] for r in v["round_results"]] == [1, 2, 3, 4]
    assert v["round"] == 5
    assert v["first"] == 0


# --------------------------------------------------------------------------- §1 initial peek


def test_initial_peek_is_a_simultaneous_phase_of_two_different_cards() -> None:
    g = game("cabo", stack([P0, P1, ["7", "8", "9", "10"]], "11"), players=3)
    assert g.view(0)["phase"] == "peek"
    assert g.actors == [0, 1, 2]
    assert g.view(1)["legal"] == ["peek 0", "peek 1", "peek 2", "peek 3"]
    g.play(2, "peek 3")  # any seat may go first
    assert g.view(2)["legal"] == ["peek 0", "peek 1", "peek 2"]
    with pytest.raises(IllegalAction, match="already looked"):
        g.play(2, "peek 3")
    with pytest.raises(IllegalAction):
        g.play(0, "draw deck")
    g.play(2, "peek 0")
    assert g.actors == [0, 1]
    with pytest.raises(IllegalAction, match="cannot act"):
        g.play(2, "peek 1")
    v2 = g.view(2)
    assert hand(v2, 2) == ["7", "?", "?", "10"]
    assert seen(v2, 2) == [[2], [], [], [2]]
    assert hand(g.view(0), 2) == ["?", "?", "?", "?"]
    g.play(0, "peek 1")
    g.play(1, "peek 2")
    g.play(0, "peek 2")
    assert g.view(0)["phase"] == "peek"
    g.play(1, "peek 0")
    v = g.view(0)
    assert v["phase"] == "turn"
    assert v["actors"] == [0]
    assert hand(v, 0) == ["?", "2", "3", "?"]
    assert hand(g.view(1), 1) == ["5", "?", "0", "?"]


@pytest.mark.parametrize("variant", ["cabo", "cabo-german", "gabo"])
def test_no_turn_is_played_before_every_seat_has_peeked(variant: str) -> None:
    g = game(variant, [], players=2)
    g.play(0, "peek 0")
    g.play(0, "peek 1")
    g.play(1, "peek 0")
    assert g.view(0)["phase"] == "peek"
    assert g.actors == [1]
    assert g.view(0)["legal"] == []
    g.play(1, "peek 1")
    assert g.view(0)["phase"] == "turn"


def test_kaboo_sees_the_bottom_row_without_a_peek_phase() -> None:
    deck = stack([["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]])
    g = game("kaboo", deck)
    v0, v1 = g.view(0), g.view(1)
    assert v0["phase"] == "turn"
    assert hand(v0, 0) == ["?", "?", "3C", "4C"]
    assert hand(v0, 1) == ["?", "?", "?", "?"]
    assert hand(v1, 1) == ["?", "?", "3D", "4D"]
    assert seen(v1, 1) == [[], [], [1], [1]]
    assert "peek 0" not in v0["legal"]
    with pytest.raises(IllegalAction):
        g.play(0, "peek 0")


# --------------------------------------------------------------------------- §1 a turn


def test_a_turn_starts_with_call_draw_deck_or_draw_discard() -> None:
    g = game("cabo", stack([P0, P1], "5"))
    peek_all(g)
    assert g.view(0)["legal"] == ["draw deck", "draw discard", "cabo"]
    k = game("kaboo", [])
    assert k.view(0)["legal"] == ["draw deck", "knock"]


def test_draw_discard_is_refused_while_the_pile_is_empty() -> None:
    g = game("kaboo", stack([["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]], None, ["5C"]))
    before = copy.deepcopy(g._dump())
    with pytest.raises(IllegalAction, match="discard pile is empty"):
        g.play(0, "draw discard")
    assert g._dump() == before
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert "draw discard" in g.view(1)["legal"]


def test_a_card_from_the_discard_pile_must_replace_a_card() -> None:
    g = game("cabo", stack([P0, P1], "9"))
    peek_all(g)
    g.play(0, "draw discard")
    v = g.view(0)
    assert v["phase"] == "drawn"
    assert v["legal"][:4] == ["replace 0", "replace 1", "replace 2", "replace 3"]
    assert "discard" not in v["legal"]
    with pytest.raises(IllegalAction, match="must replace"):
        g.play(0, "discard")
    g.play(0, "replace 2")
    v = g.view(1)
    assert v["discard"] == ["3"]
    assert hand(v, 0)[2] == "9"
    # the 9 came from the pile: it never triggers its spy power
    assert v["phase"] == "turn"
    assert v["actors"] == [1]


def test_replacing_with_a_deck_card_puts_the_old_card_face_up() -> None:
    g = game("cabo", stack([P0, P1], "5", ["6"]))
    peek_all(g)
    g.play(0, "draw deck")
    assert g.view(0)["legal"][-1] == "discard"
    g.play(0, "replace 3")  # the 4 (never peeked) goes on the pile
    for v in (g.view(0), g.view(1), g.spectator_view()):
        assert v["discard"] == ["5", "4"]
        assert v["drawn"] is None
    assert hand(g.view(0), 0) == ["1", "2", "?", "6"]
    assert g.actors == [1]


def test_discarding_a_deck_card_without_power_ends_the_turn() -> None:
    g = game("cabo", stack([P0, P1], "5", ["13"]))
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(1)
    assert v["discard"] == ["5", "13"]
    assert v["phase"] == "turn"
    assert v["actors"] == [1]
    assert v["pending"] is None


def test_discarding_a_deck_card_with_a_power_triggers_it() -> None:
    g = game("cabo", stack([P0, P1], "5", ["7"]))
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["phase"] == "power"
    assert v["actors"] == [0]
    assert v["pending"] == {"power": "peek", "card": "7"}
    assert v["legal"] == ["peek 0", "peek 1", "peek 2", "peek 3", "pass"]
    assert v["discard"] == ["5", "7"]
    g.play(0, "peek 3")
    assert hand(g.view(0), 0) == ["1", "2", "?", "4"]
    assert g.actors == [1]


def test_a_power_card_put_into_a_hand_never_triggers() -> None:
    g = game("cabo", stack([P0, P1], "5", ["7", "6", "3"]))
    peek_all(g)
    g.play(0, "draw deck")  # 7 into the hand: no power
    g.play(0, "replace 0")
    assert g.view(0)["phase"] == "turn"
    assert g.actors == [1]
    quick_turn(g, 1)
    g.play(0, "draw deck")  # the 7 leaves the hand by a replace: still no power
    g.play(0, "replace 0")
    v = g.view(0)
    assert v["discard"][-1] == "7"
    assert v["phase"] == "turn"
    assert v["actors"] == [1]
    assert v["pending"] is None


def test_a_card_swapped_into_a_hand_does_not_trigger_when_it_leaves() -> None:
    # seat 0 exchanges its 1 with seat 1's 9; seat 1 later replaces the 1... and seat 0
    # replaces the 9 out of its hand: the 9 lands on the pile with no spy.
    g = game("cabo", stack([P0, ["9", "6", "0", "13"]], "5", ["11", "2", "3"]))
    peek_all(g)
    g.play(0, "draw deck")  # 11
    g.play(0, "discard")
    g.play(0, "exchange 0 1.0")
    quick_turn(g, 1, pos=1)
    g.play(0, "draw deck")
    g.play(0, "replace 0")
    v = g.view(1)
    assert v["discard"][-1] == "9"
    assert v["phase"] == "turn"
    assert v["actors"] == [1]


def test_pass_declines_an_optional_power() -> None:
    g = game("cabo", stack([P0, P1], "5", ["9"]))
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert "pass" in g.view(0)["legal"]
    g.play(0, "pass")
    v = g.view(0)
    assert v["phase"] == "turn"
    assert v["actors"] == [1]
    assert hand(v, 1) == ["?", "?", "?", "?"]


# --------------------------------------------------------------------------- §1 knowledge


def test_a_deck_card_is_seen_only_by_its_drawer() -> None:
    g = game("cabo", stack([P0, P1], "5", ["6"]), players=2)
    peek_all(g)
    g.play(0, "draw deck")
    assert g.view(0)["drawn"] == "6"
    assert g.view(1)["drawn"] is None
    assert g.spectator_view()["drawn"] is None
    g.play(0, "replace 2")
    assert hand(g.view(0), 0)[2] == "6"
    assert seen(g.view(0), 0)[2] == [0]
    assert hand(g.view(1), 0)[2] == "?"
    assert g.spectator_view()["hands"][0][2] == {"card": None, "seen": [0]}
    # the replaced card is face up for everyone
    assert g.view(1)["discard"][-1] == "3"
    assert g.spectator_view()["discard"][-1] == "3"


def test_a_card_taken_from_the_discard_pile_is_known_to_everyone() -> None:
    g = game("cabo", stack([P0, P1, P2], "6"), players=3)
    peek_all(g)
    g.play(0, "draw discard")
    for v in (g.view(0), g.view(1), g.view(2), g.spectator_view()):
        assert v["drawn"] == "6"
    g.play(0, "replace 3")
    for v in (g.view(0), g.view(1), g.view(2), g.spectator_view()):
        # known to everyone; in cabo it also lies face up (RULES.md, cabo)
        assert v["hands"][0][3] == {"card": "6", "seen": [0, 1, 2], "face_up": True}


def test_cabo_german_shows_the_deck_card_to_everyone() -> None:
    deck = stack([["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]], "5C", ["6H"])
    g = game("cabo-german", deck)
    peek_all(g)
    g.play(0, "draw deck")
    for v in (g.view(0), g.view(1), g.spectator_view()):
        assert v["drawn"] == "6H"
    g.play(0, "replace 3")
    assert g.view(1)["hands"][0][3] == {"card": "6H", "seen": [0, 1]}
    assert g.spectator_view()["hands"][0][3]["card"] == "6H"


def test_spy_shows_a_card_to_the_spy_only() -> None:
    g = game("cabo", stack([P0, P1, P2], "5", ["10"]), players=3)
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert g.view(0)["pending"] == {"power": "spy", "card": "10"}
    g.play(0, "spy 1.3")
    assert g.view(0)["hands"][1][3] == {"card": "13", "seen": [0]}
    assert g.view(1)["hands"][1][3] == {"card": None, "seen": [0]}
    assert g.view(2)["hands"][1][3]["card"] is None
    assert g.spectator_view()["hands"][1][3]["card"] is None


def test_a_blind_exchange_moves_each_seats_knowledge_with_the_card() -> None:
    g = game("cabo", stack([P0, P1], "5", ["12"]), players=2)
    peek_all(g)  # seat 0 knows its 1 (pos 0); seat 1 knows its 5 (pos 0)
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert g.view(0)["pending"] == {"power": "exchange", "card": "12"}
    g.play(0, "exchange 0 1.0")
    v0, v1 = g.view(0), g.view(1)
    # seat 0's position 0 now holds the 5: seat 1 knows it, seat 0 does not
    assert v0["hands"][0][0] == {"card": None, "seen": [1]}
    assert v1["hands"][0][0] == {"card": "5", "seen": [1]}
    # seat 1's position 0 now holds the 1: seat 0 knows it, seat 1 does not
    assert v0["hands"][1][0] == {"card": "1", "seen": [0]}
    assert v1["hands"][1][0] == {"card": None, "seen": [0]}
    assert g.view(0)["round_results"] == []
    g.play(1, "cabo")
    quick_turn(g, 0, pos=3)
    assert g.view(0)["round_results"][-1]["hands"][0][0] == "5"
    assert g.view(0)["round_results"][-1]["hands"][1][0] == "1"


def test_a_penalty_card_is_known_to_nobody() -> None:
    deck = stack([["KS", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]], "5H", ["9H"])
    g = game("cabo-german", deck)
    peek_all(g)
    g.play(0, "drop 0")  # a black K does not match a 5: failed drop, penalty card
    for v in (g.view(0), g.view(1), g.spectator_view()):
        assert v["hands"][0][0] == {"card": "KS", "seen": [0, 1]}
        assert v["hands"][0][4] == {"card": None, "seen": []}
        assert v["discard"] == ["5H"]
    g.play(0, "cabo")
    g.play(1, "draw discard")
    g.play(1, "replace 0")
    assert g.view(1)["round_results"][-1]["hands"][0] == ["KS", "2C", "3C", "4C", "9H"]


def test_every_card_is_shown_at_the_end_of_the_round() -> None:
    g = game("cabo", stack([P0, P1, ["7", "8", "9", "10"]], "11", ["12"]), players=3)
    peek_all(g)
    g.play(0, "cabo")
    g.play(1, "draw discard")
    g.play(1, "replace 3")
    g.play(2, "draw deck")
    g.play(2, "replace 0")
    assert g.over
    expected = [P0, ["5", "6", "0", "11"], ["12", "8", "9", "10"]]
    for v in (g.view(0), g.view(1), g.view(2), g.spectator_view()):
        assert v["phase"] == "over"
        assert [hand(v, s) for s in range(3)] == expected
        assert all(c["seen"] == [0, 1, 2] for h in v["hands"] for c in h if c is not None)
        assert v["round_results"][-1]["hands"] == expected
        assert v["legal"] == []
    assert g.actors == []


def test_spectators_see_only_cards_that_have_been_face_up() -> None:
    g = game("cabo", stack([P0, P1], "6", ["9"]))
    peek_all(g)  # seat 0 knows its 1
    g.play(0, "draw deck")
    g.play(0, "discard")
    g.play(0, "spy 1.0")  # seat 0 now also knows seat 1's 5, which seat 1 peeked
    v = g.spectator_view()
    assert v["seat"] is None
    assert v["legal"] == []
    assert v["drawn"] is None
    assert v["hands"][1][0] == {"card": None, "seen": [0, 1]}  # both seats know, not public
    assert g.view(0)["hands"][1][0]["card"] == "5"
    assert g.view(1)["hands"][1][0]["card"] == "5"
    assert all(c["card"] is None for h in v["hands"] for c in h if c is not None)
    g.play(1, "draw discard")  # the 9 has been face up on the pile
    g.play(1, "replace 1")
    v = g.spectator_view()
    assert v["hands"][1][1] == {"card": "9", "seen": [0, 1], "face_up": True}
    assert v["discard"] == ["6", "6"]


# --------------------------------------------------------------------------- §1 ending a round


def test_after_a_call_every_other_seat_plays_exactly_one_more_turn() -> None:
    g = game("cabo", stack([P0, P1, P2, P3], "13", ["6", "6", "6", "3"]), players=4)
    peek_all(g)
    quick_turn(g, 0)
    g.play(1, "cabo")
    v = g.view(2)
    assert v["caller"] == 1
    assert v["actors"] == [2]
    assert v["final_turns_left"] == 3
    quick_turn(g, 2)
    quick_turn(g, 3)
    assert g.actors == [0]
    assert not g.over
    quick_turn(g, 0)
    assert g.over
    assert g.actors == []
    assert g.view(0)["round_results"][-1]["caller"] == 1


def test_only_one_call_per_round() -> None:
    g = game("cabo", stack([P0, P1, ["1", "2", "3", "4"]], "5", ["6"] * 3), players=3)
    peek_all(g)
    g.play(0, "cabo")
    assert "cabo" not in g.view(1)["legal"]
    assert g.view(1)["legal"] == ["draw deck", "draw discard"]
    before = copy.deepcopy(g._dump())
    with pytest.raises(IllegalAction, match="already been called"):
        g.play(1, "cabo")
    assert g._dump() == before


def test_the_end_is_called_instead_of_drawing() -> None:
    g = game("cabo", stack([P0, P1], "5", ["6"]))
    peek_all(g)
    g.play(0, "draw deck")
    assert "cabo" not in g.view(0)["legal"]
    with pytest.raises(IllegalAction, match="start of your turn"):
        g.play(0, "cabo")


def test_gabo_call_ends_the_round_at_once() -> None:
    hands = [["AC", "2C", "KS", "KC"], ["9D", "9H", "QD", "QH"], ["5C", "5D", "5H", "5S"]]
    g = game("gabo", stack(hands, "3H"), players=3)
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "replace 0")
    all_pass(g)
    g.play(1, "gabo")
    assert g.over
    assert g.actors == []
    assert g.view(0)["round_results"][-1]["caller"] == 1


@pytest.mark.parametrize("variant", ["cabo-german", "gabo"])
def test_an_empty_deck_is_refilled_from_the_discard_pile_but_its_top(variant: str) -> None:
    g = game(variant, [], players=2, seed=3, max_turns=100)
    peek_all(g)
    deck = g.view(0)["deck"]
    assert deck == 54 - 9
    for _ in range(deck - 1):
        (seat,) = g.actors
        draw_turn(g, seat)
    (seat,) = g.actors
    g.play(seat, "draw deck")  # the last card of the deck
    pile = list(g.view(seat)["discard"])
    assert g.view(seat)["deck"] == 0
    g.play(seat, "replace 0")
    if variant == "gabo":
        all_pass(g)
    v = g.view(0)
    assert not g.over
    assert v["phase"] == "turn"
    assert v["actors"] == [1 - seat]
    assert v["reshuffles"] == 1
    assert len(v["discard"]) == 1  # the top card stays
    assert v["deck"] == len(pile)
    refilled = []
    for _ in range(len(pile)):
        (seat,) = g.actors
        refilled.append(draw_turn(g, seat))
    assert Counter(refilled) == Counter(pile)
    assert refilled not in (pile, pile[::-1])  # shuffled, not just turned over
    # the same seed refills in the same order
    h = game(variant, [], players=2, seed=3, max_turns=100)
    peek_all(h)
    again = []
    for _ in range(deck + len(pile)):
        (seat,) = h.actors
        again.append(draw_turn(h, seat))
    assert again[deck:] == refilled


def test_the_round_ends_when_a_refill_leaves_the_deck_empty() -> None:
    # cabo-german: failed drops pull the whole deck into seat 0's hand as penalty cards,
    # while the discard pile keeps a single card, so nothing can refill the deck.
    deck = stack([["KS", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]], "5H")
    g = game("cabo-german", deck)
    peek_all(g)
    for _ in range(45):
        g.play(0, "drop 0")
    v = g.view(0)
    assert v["deck"] == 0
    assert len(v["hands"][0]) == 4 + 45
    assert "draw deck" not in v["legal"]
    g.play(0, "drop 0")  # nothing left for a penalty
    assert len(g.view(0)["hands"][0]) == 49
    g.play(0, "draw discard")
    g.play(0, "replace 1")
    assert g.view(0)["discard"] == ["2C"]
    assert g.over
    assert len(g.view(0)["round_results"]) == 1


def test_max_turns_ends_a_round_without_a_call() -> None:
    g = game(
        "cabo",
        stack([P0, P1, ["1", "2", "3", "4"]], "13", ["6", "6", "6", "5", "5", "5"]),
        players=3,
        max_turns=2,
    )
    peek_all(g)
    for i in range(6):
        assert not g.over, i
        (seat,) = g.actors
        quick_turn(g, seat, pos=3)
    assert g.over
    res = g.view(0)["round_results"][-1]
    assert res["caller"] is None
    # scored as if nobody called: plain sums, no caller rule
    assert res["hands"] == [["1", "2", "3", "5"], ["5", "6", "0", "5"], ["1", "2", "3", "5"]]
    assert res["scores"] == [11, 16, 11]
    assert g.result is not None
    assert g.result.rounds == [[11, 16, 11]]
    assert g.result.winners == [0, 2]


def test_max_turns_default_is_thirty_turns_per_seat() -> None:
    g = game("cabo", [], players=2, seed=5)
    assert g.options["max_turns"] == 30
    h = game("cabo", [], players=2, seed=5, max_turns=3)
    peek_all(h)
    for _ in range(6):
        (seat,) = h.actors
        quick_turn(h, seat)
    assert h.over
    peek_all(g)
    for _ in range(6):
        (seat,) = g.actors
        quick_turn(g, seat)
    assert not g.over


def test_max_turns_does_not_cut_the_last_turns_after_a_call() -> None:
    g = game("cabo", stack([P0, P1], "5", ["6", "6"]), max_turns=1)
    peek_all(g)
    quick_turn(g, 0)
    g.play(1, "cabo")  # the second turn of the round: the limit is reached
    assert not g.over
    assert g.actors == [0]
    quick_turn(g, 0)
    assert g.over
    assert g.view(0)["round_results"][-1]["caller"] == 1


# --------------------------------------------------------------------------- §1 scores


def test_lowest_sum_wins_the_round_and_ties_share() -> None:
    hands = [["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"], ["5C", "5D", "5H", "5S"]]
    g = game("kaboo", stack(hands, None, ["KH", "KS"]), players=3)
    g.play(0, "knock")
    g.play(1, "draw deck")
    g.play(1, "discard")  # K: no power
    g.play(2, "draw deck")
    g.play(2, "discard")
    assert g.over
    res = g.view(0)["round_results"][-1]
    assert res["sums"] == [10, 10, 20]
    assert res["winners"] == [0, 1]
    assert g.result is not None
    assert g.result.winners == [0, 1]
    assert g.result.round_winners == [[0, 1]]


@pytest.mark.parametrize("variant", FAMILY)
def test_target_none_plays_a_single_round(variant: str) -> None:
    g = game(variant, [], players=2, seed=11)
    if variant != "kaboo":
        peek_all(g)
    call = g.view(0)["call"]
    g.play(0, call)
    if variant != "gabo":
        g.play(1, "draw deck")
        g.play(1, "replace 0")
        if g.view(1)["phase"] == "snap":
            all_pass(g)
    assert g.over
    assert g.result is not None
    assert len(g.result.rounds) == 1
    assert g.result.totals == g.result.rounds[0]
    assert g.result.winners == g.result.round_winners[0]
    assert g.view(0)["result"] == g.result.to_dict()


def test_cabo_german_is_one_round_by_default_and_a_match_with_a_numeric_target() -> None:
    single = new_game("cabo-german", players=2, seed=2)
    assert single.view(0)["target"] is None
    match = new_game("cabo-german", players=2, seed=2, options={"target": 1000})
    for g in (single, match):
        peek_all(g)
        g.play(0, "cabo")
        g.play(1, "draw discard")
        g.play(1, "replace 0")
    assert single.over
    assert not match.over
    v = match.view(0)
    assert v["round"] == 2
    assert v["phase"] == "peek"
    assert v["totals"] == v["round_results"][0]["scores"]


def test_gabo_match_ends_when_a_total_reaches_the_target() -> None:
    hands = [["AC", "2C", "KS", "KC"], ["10C", "5D", "3D", "2D"], ["AD", "AH", "2H", "3H"]]
    reached = game("gabo", stack(hands, "7H"), players=3, target=20)
    below = game("gabo", stack(hands, "7H"), players=3, target=21)
    for g in (reached, below):
        peek_all(g)
        g.play(0, "gabo")  # seat 0's 3 is lowest and at most 5: no caller penalty
    assert reached.view(0)["round_results"][0]["scores"] == [3, 20, 7]
    assert reached.over
    assert reached.result is not None
    assert reached.result.totals == [3, 20, 7]
    assert reached.result.winners == [0]
    assert not below.over
    assert below.view(0)["round"] == 2
    assert below.view(0)["totals"] == [3, 20, 7]


@pytest.mark.parametrize(("options", "score"), [({}, 14 + 20), ({"caller_penalty": 7}, 14 + 7)])
def test_gabo_caller_penalty_option(options: dict[str, int], score: int) -> None:
    hands = [["KS", "KH", "RJ", "AC"], ["BJ", "KC", "QS", "9H"], ["JD", "KD", "10H", "4S"]]
    g = game("gabo", stack(hands, "5C"), players=3, **options)
    peek_all(g)
    g.play(0, "gabo")  # 14 is above 5: the caller pays the penalty
    assert g.view(0)["round_results"][-1]["scores"] == [score, 17, 39]


def test_gabo_default_target_is_one_hundred() -> None:
    assert new_game("gabo", players=3).view(0)["target"] == 100
    assert new_game("cabo", players=2).view(0)["target"] == 100
    assert new_game("kaboo", players=2).view(0)["target"] is None


# --------------------------------------------------------------------------- §1 addresses


def test_own_cards_may_also_be_written_seat_dot_position() -> None:
    g = game("cabo", stack([P0, P1], "5", ["11"]))
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert "exchange 1 1.2" in g.view(0)["legal"]
    g.play(0, "exchange 1.2 0.1")  # written backwards and with 0.1 for own position 1
    assert g.log["actions"][-1] == [0, "exchange 1 1.2"]
    assert g.view(0)["hands"][1][2] == {"card": "2", "seen": [0]}


def test_spy_names_another_seats_card() -> None:
    g = game("cabo", stack([P0, P1], "5", ["9"]))
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    before = copy.deepcopy(g._dump())
    for text in ("spy 0.2", "spy 2"):
        with pytest.raises(IllegalAction):
            g.play(0, text)
    assert g._dump() == before
    assert all(a.startswith("spy 1.") or a == "pass" for a in g.view(0)["legal"])


# --------------------------------------------------------------------------- §2 table


@pytest.mark.parametrize(
    ("variant", "low", "high", "default"),
    [("cabo", 2, 6, 2), ("cabo-german", 2, 6, 2), ("gabo", 2, 10, 3), ("kaboo", 2, 4, 2)],
)
def test_player_counts(variant: str, low: int, high: int, default: int) -> None:
    assert new_game(variant).players == default
    for n in (low, high):
        g = new_game(variant, players=n, options={"target": None})
        assert len(g.view(0)["hands"]) == n
    for n in (low - 1, high + 1, 0):
        with pytest.raises(ValueError, match=f"{low} to {high} players"):
            new_game(variant, players=n)


@pytest.mark.parametrize("variant", FAMILY)
def test_deck_composition(variant: str) -> None:
    cards = full_deck(variant)
    expected = {
        "cabo": 52,
        "cabo-german": 54,
        "gabo": 54,
        "kaboo": 52,
    }[variant]
    assert len(cards) == expected
    g = game(variant, cards)  # the whole deck can be stacked …
    v = g.view(0)
    assert sum(len(h) for h in v["hands"]) + len(v["discard"]) + v["deck"] == expected
    extra = cards[0]
    with pytest.raises(ValueError, match="too many"):
        game(variant, [*cards, extra])  # … but not one card more


def test_cabo_deck_has_two_zeros_two_thirteens_and_four_of_the_rest() -> None:
    counts = Counter(cabo_deck())
    assert counts == Counter({"0": 2, "13": 2} | {str(v): 4 for v in range(1, 13)})
    game("cabo", ["0", "0", "13", "13"] + ["7"] * 4)
    for surplus in (["0"] * 3, ["13"] * 3, ["5"] * 5):
        with pytest.raises(ValueError, match="too many"):
            game("cabo", surplus)


def test_standard_decks_have_jokers_only_in_german_cabo_and_gabo() -> None:
    for variant in ("cabo-german", "gabo"):
        game(variant, ["RJ", "BJ"])
    with pytest.raises(ValueError):
        game("kaboo", ["RJ"])


def test_cabo_german_card_values() -> None:
    hands = [["KH", "KS", "RJ", "AC"], ["JC", "QD", "10S", "2H"]]
    g = game("cabo-german", stack(hands, "5C", ["3C"]))
    peek_all(g)
    g.play(0, "cabo")
    g.play(1, "draw deck")
    g.play(1, "discard")
    assert g.view(0)["round_results"][-1]["sums"] == [-1 + 10 + 0 + 1, 10 + 10 + 10 + 2]
    assert g.result is not None
    assert g.result.rounds == [[10, 32]]


def test_gabo_card_values() -> None:
    hands = [["KS", "KH", "RJ", "AC"], ["BJ", "KC", "QS", "9H"], ["JD", "KD", "10H", "4S"]]
    g = game("gabo", stack(hands, "5C"), players=3)
    peek_all(g)
    g.play(0, "gabo")
    sums = g.view(0)["round_results"][-1]["sums"]
    assert sums == [0 + 15 - 2 + 1, -2 + 0 + 10 + 9, 10 + 15 + 10 + 4]


@pytest.mark.parametrize(
    ("variant", "card", "power", "optional"),
    [
        ("cabo-german", "7H", "peek", False),
        ("cabo-german", "8S", "peek", False),
        ("cabo-german", "9C", "spy", False),
        ("cabo-german", "10D", "spy", False),
        ("cabo-german", "JH", "exchange", True),
        ("cabo-german", "QC", "look", False),
        ("gabo", "7H", "peek", True),
        ("gabo", "8S", "spy", True),
        ("gabo", "JH", "exchange", True),
        ("gabo", "QC", "exchange", True),
    ],
)
def test_standard_deck_powers(variant: str, card: str, power: str, optional: bool) -> None:
    hands = [["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"], ["AH", "2H", "3H", "4H"]]
    g = game(variant, stack(hands, "5C", [card]), players=3)
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["phase"] == "power"
    assert v["pending"]["power"] == power
    assert v["pending"]["card"] == card
    assert ("pass" in v["legal"]) is optional
    if power == "peek":
        assert v["legal"][:4] == ["peek 0", "peek 1", "peek 2", "peek 3"]
    if power == "spy":
        assert "spy 1.0" in v["legal"]
        assert "spy 2.3" in v["legal"]
    if power == "look":
        assert "look 0 1.0" in v["legal"]


@pytest.mark.parametrize("card", ["AS", "2S", "3S", "4S", "5S", "6S", "KS", "KD", "RJ"])
def test_cabo_german_cards_without_power(card: str) -> None:
    hands = [["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]]
    g = game("cabo-german", stack(hands, "5C", [card]))
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert g.view(0)["phase"] == "turn"
    assert g.actors == [1]


@pytest.mark.parametrize("card", ["AS", "6S", "9S", "10S", "KS", "KD", "BJ"])
def test_gabo_cards_without_power(card: str) -> None:
    hands = [["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"], ["AH", "2H", "3H", "4H"]]
    g = game("gabo", stack(hands, "5C", [card]), players=3)
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["phase"] == "snap"  # straight to the snap window: no power
    assert v["pending"] is None


def test_gabo_exchange_swaps_any_two_cards_of_two_different_seats() -> None:
    hands = [["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"], ["AH", "2H", "3H", "4H"]]
    g = game("gabo", stack(hands, "5C", ["JS"]), players=3)
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    legal = g.view(0)["legal"]
    assert "exchange 1.0 2.3" in legal
    assert "exchange 0 1.0" in legal
    assert "exchange 1.0 1.1" not in legal
    assert "exchange 0 1" not in legal
    g.play(0, "exchange 1.0 2.3")
    all_pass(g)
    g.play(1, "gabo")
    hands_end = g.view(0)["round_results"][-1]["hands"]
    assert hands_end[1] == ["4H", "2D", "3D", "4D"]
    assert hands_end[2] == ["AH", "2H", "3H", "AD"]


def test_cabo_german_look_then_exchange_is_optional_but_the_look_is_not() -> None:
    hands = [["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]]
    g = game("cabo-german", stack(hands, "5C", ["QH"]))
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    with pytest.raises(IllegalAction, match="must be used"):
        g.play(0, "pass")
    g.play(0, "look 3 1.2")
    v = g.view(0)
    assert v["phase"] == "look"
    assert v["legal"][:2] == ["exchange", "pass"]
    assert hand(v, 0)[3] == "4C"
    assert hand(v, 1)[2] == "3D"
    g.play(0, "pass")
    assert g.actors == [1]


@pytest.mark.parametrize(
    ("variant", "word", "others"),
    [
        ("cabo", "cabo", ("gabo", "knock")),
        ("cabo-german", "cabo", ("gabo", "knock")),
        ("gabo", "gabo", ("cabo", "knock")),
        ("kaboo", "knock", ("cabo", "gabo")),
    ],
)
def test_call_word(variant: str, word: str, others: tuple[str, str]) -> None:
    g = game(variant, [], players=3)
    if variant != "kaboo":
        peek_all(g)
    assert g.view(0)["call"] == word
    assert word in g.view(0)["legal"]
    for other in others:
        with pytest.raises(IllegalAction, match=f"called with '{word}'"):
            g.play(0, other)
    g.play(0, word)
    assert g.view(0)["caller"] == 0


def test_cabo_german_drop_matching_card() -> None:
    hands = [["5S", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]]
    g = game("cabo-german", stack(hands, "5H", ["9H"]))
    peek_all(g)
    assert "drop 0" in g.view(0)["legal"]
    assert "drop 1.3" in g.view(0)["legal"]
    g.play(0, "drop 0")
    v = g.view(1)
    assert v["discard"] == ["5H", "5S"]
    assert v["hands"][0][0] is None
    assert g.actors == [0]  # still seat 0's turn, before drawing
    assert g.view(0)["phase"] == "turn"


def test_gabo_snap_window_opens_for_every_seat() -> None:
    hands = [["AC", "2C", "3C", "4C"], ["AD", "9D", "3D", "4D"], ["AH", "2H", "3H", "4H"]]
    g = game("gabo", stack(hands, "5C", ["9S"]), players=3)
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(1)
    assert v["phase"] == "snap"
    assert v["actors"] == [0, 1, 2]
    assert v["legal"] == ["drop 0", "drop 1", "drop 2", "drop 3", "pass"]
    g.play(1, "drop 1")  # the 9D matches the 9S
    assert g.view(0)["discard"] == ["5C", "9S", "9D"]
    assert g.view(0)["hands"][1][1] is None
    all_pass(g)
    assert g.actors == [1]
    assert g.view(1)["phase"] == "turn"


# --------------------------------------------------------------------------- §4 notation

CANONICAL = [
    "peek 0",
    "peek 3",
    "draw deck",
    "draw discard",
    "replace 2",
    "replace 0 2 3",
    "discard",
    "spy 1.2",
    "exchange 0 1.3",
    "exchange 1.0 2.3",
    "look 2 1.0",
    "exchange",
    "drop 3",
    "drop 2.1",
    "give 1",
    "cabo",
    "gabo",
    "knock",
    "pass",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text: str) -> None:
    action = parse(text)
    assert isinstance(action, Action)
    assert str(action) == text
    assert parse(str(action)) == action
    assert Action.from_text(text) == action


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("  Draw   DECK ", "draw deck"),
        ("replace 3 1", "replace 1 3"),
        ("exchange 1.3 0", "exchange 0 1.3"),
        ("exchange 2.0 1.1", "exchange 1.1 2.0"),
        ("PASS", "pass"),
    ],
)
def test_lenient_text_becomes_canonical(text: str, canonical: str) -> None:
    assert str(parse(text)) == canonical


def test_parsed_actions_carry_words_and_addresses() -> None:
    assert parse("spy 1.2") == Action("spy", ((1, 2),))
    assert parse("replace 2 0") == Action("replace", (0, 2))
    assert parse("look 1 2.3") == Action("look", (1, (2, 3)))
    assert parse("draw discard") == Action("draw", ("discard",))
    assert parse("cabo") == Action("cabo")
    assert str(Action("exchange", (0, (1, 3)))) == "exchange 0 1.3"


def test_play_accepts_an_action_as_well_as_text() -> None:
    g = game("cabo", stack([P0, P1], "5", ["6"]))
    peek_all(g)
    g.play(0, parse("draw deck"))
    g.play(0, Action("replace", (2,)))
    assert g.log["actions"][-2:] == [[0, "draw deck"], [0, "replace 2"]]
    assert g.view(1)["discard"] == ["5", "3"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly away",
        "peek",
        "peek x",
        "peek 1 2",
        "spy 2",
        "replace",
        "replace 1 1",
        "exchange 1.1 1.1",
        "exchange 1",
        "look 1.1 2",
        "draw pile",
        "cabo now",
        "give",
        "drop",
    ],
)
def test_malformed_text_raises_illegal_action(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        parse(text)
    assert str(info.value)


# --------------------------------------------------------------------------- §4 illegal input


def _at_turn() -> Game:
    g = game("cabo", stack([P0, P1], "5", ["9", "6"]))
    peek_all(g)
    return g


def _holding() -> Game:
    g = _at_turn()
    g.play(0, "draw deck")
    return g


def _spying() -> Game:
    g = _holding()
    g.play(0, "discard")
    return g


def _finished() -> Game:
    g = _at_turn()
    g.play(0, "cabo")
    quick_turn(g, 1)
    assert g.over
    return g


@pytest.mark.parametrize(
    ("setup", "seat", "text", "why", "kind"),
    [
        (_at_turn, 1, "draw deck", "you cannot act now: seat 0 is to act", NotYourTurn),
        (_at_turn, 0, "fly", "unknown action 'fly'", MalformedAction),
        (_at_turn, 0, "replace 0", "draw a card first", WrongPhase),
        (_at_turn, 0, "discard", "draw a card first", WrongPhase),
        (_at_turn, 0, "knock", "called with 'cabo'", NotInThisGame),
        (_at_turn, 0, "drop 0", "no dropping in cabo", NotInThisGame),
        (_at_turn, 0, "peek 0", "not allowed now", WrongPhase),
        (_at_turn, 0, "spy 1.0", "not allowed now", WrongPhase),
        (_at_turn, 0, "peek banana", "expected a position", MalformedAction),
        (_holding, 0, "draw deck", "only draw at the start of your turn", WrongPhase),
        (_holding, 0, "cabo", "start of your turn", WrongPhase),
        (_holding, 0, "replace 7", "no card at position 7", NoSuchCard),
        (_holding, 0, "replace 0 1 2 3 4", "no card at position 4", NoSuchCard),
        (_holding, 1, "replace 0", "you cannot act now", NotYourTurn),
        (_spying, 0, "spy 3.0", "no seat 3", NoSuchCard),
        (_spying, 0, "spy 1.9", "seat 1 has no card at position 9", NoSuchCard),
        (_spying, 0, "peek 0", "use the spy power", RuleForbids),
        (_spying, 0, "draw deck", "only draw at the start", WrongPhase),
        (_finished, 0, "draw deck", "the game is over", GameOver),
        (_finished, 1, "cabo", "the game is over", GameOver),
    ],
)
def test_illegal_input_is_refused_with_a_reason_and_changes_nothing(
    setup: Any, seat: int, text: str, why: str, kind: type[IllegalAction]
) -> None:
    g = setup()
    before = copy.deepcopy(g._dump())
    views = [g.view(s) for s in range(g.players)]
    with pytest.raises(IllegalAction) as info:
        g.play(seat, text)
    message = str(info.value)
    assert why in message
    assert type(info.value) is kind  # the kind of refusal, without reading its words
    assert g._dump() == before
    assert [g.view(s) for s in range(g.players)] == views


@pytest.mark.parametrize("seat", [-1, 2, 9])
def test_a_seat_not_at_the_table_is_refused(seat: int) -> None:
    g = _at_turn()
    before = copy.deepcopy(g._dump())
    with pytest.raises(IllegalAction, match=f"no seat {seat}"):
        g.play(seat, "draw deck")
    assert g._dump() == before


def test_a_claim_of_more_than_four_cards_is_refused() -> None:
    g = game("cabo", stack([["3", "1", "4", "2"], P1], "13", ["5", "6", "8", "9"]))
    peek_all(g)
    g.play(0, "draw deck")
    g.play(0, "replace 0 1")  # fails: the hand grows to five cards
    quick_turn(g, 1)
    g.play(0, "draw deck")
    before = copy.deepcopy(g._dump())
    with pytest.raises(IllegalAction, match="at most 4"):
        g.play(0, "replace 0 1 2 3 4")
    assert g._dump() == before


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)


# --------------------------------------------------------------------------- §5 view


def test_view_carries_the_documented_fields() -> None:
    g = game("kaboo", stack([["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]], None, ["QS"]))
    g.play(0, "draw deck")
    v = g.view(0)
    assert v["game"] == "kaboo"
    assert v["seat"] == 0
    assert v["phase"] == "drawn"
    assert v["actors"] == [0]
    assert v["turn"] == 0
    assert v["hands"][0][2] == {"card": "3C", "seen": [0]}
    assert v["hands"][1][2] == {"card": None, "seen": [1]}
    assert v["discard"] == []
    assert v["deck"] == 52 - 8 - 1
    assert v["drawn"] == "QS"
    assert v["totals"] == [0, 0]
    assert v["round"] == 1
    assert v["legal"] == ["replace 0", "replace 1", "replace 2", "replace 3", "discard"]
    assert v["pending"] is None
    assert v["caller"] is None
    assert v["round_results"] == []
    assert v["result"] is None
    other = g.view(1)
    assert other["seat"] == 1
    assert other["drawn"] is None
    assert other["legal"] == []


def test_view_of_a_seat_not_at_the_table_is_refused() -> None:
    g = game("cabo", [])
    with pytest.raises(ValueError):
        g.view(2)


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize("variant", FAMILY)
def test_unknown_option_is_refused(variant: str) -> None:
    with pytest.raises(ValueError, match="unknown option 'speed'"):
        new_game(variant, options={"speed": 3})


@pytest.mark.parametrize(
    ("variant", "name"),
    [
        ("kaboo", "caller_penalty"),
        ("kaboo", "reset_at_exact_target"),
        ("cabo-german", "caller_penalty"),
        ("gabo", "reset_at_exact_target"),
    ],
)
def test_options_of_other_variants_are_unknown(variant: str, name: str) -> None:
    with pytest.raises(ValueError, match=f"unknown option '{name}'"):
        new_game(variant, options={name: 1})


@pytest.mark.parametrize(
    ("variant", "name", "value"),
    [
        ("cabo", "target", "100"),
        ("cabo", "target", 100.0),
        ("cabo", "target", True),
        ("gabo", "first", "0"),
        ("kaboo", "first", 1.5),
        ("cabo-german", "max_turns", None),
        ("cabo", "max_turns", True),
        ("cabo", "caller_penalty", "10"),
        ("gabo", "caller_penalty", 2.5),
        ("cabo", "reset_at_exact_target", 1),
        ("cabo", "reset_at_exact_target", "yes"),
    ],
)
def test_option_of_the_wrong_type_is_refused(variant: str, name: str, value: Any) -> None:
    with pytest.raises(ValueError, match=f"option '{name}' of {variant} must be"):
        new_game(variant, options={name: value})


@pytest.mark.parametrize(
    ("name", "value"),
    [("target", 0), ("max_turns", 0), ("first", -1), ("caller_penalty", -1)],
)
def test_option_below_its_minimum_is_refused(name: str, value: int) -> None:
    with pytest.raises(ValueError, match=f"option '{name}'"):
        new_game("cabo", options={name: value})


@pytest.mark.parametrize("players", ["3", True, 2.0])
def test_players_must_be_an_integer(players: Any) -> None:
    with pytest.raises(ValueError, match="players must be an integer"):
        new_game("cabo", players=players)


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game 'snap'"):
        new_game("snap")


def test_options_are_resolved_with_defaults() -> None:
    assert new_game("cabo").options == {
        "target": 100,
        "first": None,
        "max_turns": 30,
        "caller_penalty": 10,
        "reset_at_exact_target": False,
    }
    assert new_game("gabo").options["caller_penalty"] == 20
    assert new_game("kaboo").options == {"target": None, "first": None, "max_turns": 30}
