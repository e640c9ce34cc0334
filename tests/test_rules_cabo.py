"""Scenario tests for `cabo`, Melissa Limes' rules (RULES.md §2 `cabo` column and subsection).

The Cabo deck's cards are their values ("0" … "13"): two 0s, two 13s, four of every other
value. Powers: 7/8 peek, 9/10 spy, 11/12 exchange (own ↔ other); 0–6 and 13 have none.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from cardtable import Game, IllegalAction, new_game
from cardtable.cards import cabo_deck

from .scenario import (
    deal,
    deal_and_peek,
    full_order,
    hand,
    last_round,
    peek_all,
    quick_turn,
    seen,
    stack,
)

# --------------------------------------------------------------------------- helpers


def cabo(
    hands: list[list[str]], top: str, deck: list[str] | None = None, seed: int = 0, **options: Any
) -> Game:
    """A cabo game dealt from `hands` (single round unless `target` is given), after every
    seat has peeked at its positions 0 and 1."""
    return deal_and_peek("cabo", hands, top, deck, seed=seed, **options)


def idle_turn(g: Game, seat: int) -> None:
    """Draw a card without a power and throw it away: the hand does not change."""
    g.play(seat, "draw deck")
    g.play(seat, "discard")
    assert g.view(seat)["phase"] != "power"


def called_round(hands: list[list[str]], caller: int = 0, **options: Any) -> dict[str, Any]:
    """Seat `caller` calls on the first turn; every other seat draws a powerless card and
    discards it, so every hand ends the round exactly as dealt."""
    n = len(hands)
    spare = Counter(cabo_deck()) - Counter(c for h in hands for c in h)
    plain = [v for v in ("13", "6", "5", "4", "3", "2", "1", "0") for _ in range(spare[v])]
    top, draws = plain[0], plain[1:n]
    g = cabo(hands, top, draws, first=caller, **options)
    g.play(caller, "cabo")
    for k in range(1, n):
        idle_turn(g, (caller + k) % n)
    assert g.over
    assert last_round(g)["hands"] == hands
    return last_round(g)


# --------------------------------------------------------------------------- table: values


def test_cards_score_their_face_value() -> None:
    res = called_round([["0", "13", "7", "5"], ["12", "1", "11", "6"]], caller=1)
    assert res["sums"] == [25, 30]
    assert res["scores"][0] == 25  # not the caller: the plain sum


def test_cabo_deck_composition() -> None:
    counts = Counter(cabo_deck())
    assert len(cabo_deck()) == 52
    assert counts["0"] == counts["13"] == 2
    assert all(counts[str(v)] == 4 for v in range(1, 13))
    g = new_game("cabo", players=2, options={"target": None}, deck=cabo_deck())
    assert g.view(0)["deck"] == 52 - 8 - 1
    assert len(g.view(0)["discard"]) == 1


# --------------------------------------------------------------------------- table: powers

PLAIN = [["1", "2", "3", "4"], ["5", "6", "0", "13"], ["1", "2", "3", "4"]]


@pytest.mark.parametrize(("card", "power"), [("7", "peek"), ("8", "peek")])
def test_seven_and_eight_peek_at_an_own_card(card: str, power: str) -> None:
    g = cabo(PLAIN[:2], "5", [card])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["pending"] == {"power": power, "card": card}
    assert v["legal"] == ["peek 0", "peek 1", "peek 2", "peek 3", "pass"]
    g.play(0, "peek 2")
    assert hand(g.view(0), 0) == ["1", "2", "3", "?"]
    assert hand(g.view(1), 0) == ["?", "?", "?", "?"]
    assert seen(g.view(1), 0) == [[0], [0], [0], []]
    assert g.actors == [1]


@pytest.mark.parametrize("card", ["9", "10"])
def test_nine_and_ten_spy_on_another_seats_card(card: str) -> None:
    g = cabo(PLAIN, "5", [card])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["pending"] == {"power": "spy", "card": card}
    assert v["legal"] == [f"spy {s}.{p}" for s in (1, 2) for p in range(4)] + ["pass"]
    g.play(0, "spy 2.3")
    assert g.view(0)["hands"][2][3] == {"card": "4", "seen": [0]}
    assert g.view(2)["hands"][2][3] == {"card": None, "seen": [0]}
    assert g.view(1)["hands"][2][3]["card"] is None
    assert g.actors == [1]


@pytest.mark.parametrize("card", ["11", "12"])
def test_eleven_and_twelve_exchange_an_own_card_with_another_seats(card: str) -> None:
    g = cabo(PLAIN, "5", [card, "6"])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["pending"] == {"power": "exchange", "card": card}
    expected = [f"exchange {i} {s}.{p}" for i in range(4) for s in (1, 2) for p in range(4)]
    assert v["legal"] == [*expected, "pass"]
    before = copy.deepcopy(g._dump())
    for text in ("exchange 1.0 2.0", "exchange 0 1"):
        with pytest.raises(IllegalAction):
            g.play(0, text)
    assert g._dump() == before
    g.play(0, "exchange 3 2.1")
    assert g.actors == [1]
    g.play(1, "cabo")
    g.play(2, "draw deck")
    g.play(2, "discard")
    g.play(0, "draw discard")
    g.play(0, "replace 0")
    hands = last_round(g)["hands"]
    assert hands[0] == ["6", "2", "3", "2"]
    assert hands[2] == ["1", "4", "3", "4"]


@pytest.mark.parametrize("card", ["0", "1", "2", "3", "4", "5", "6", "13"])
def test_cards_without_a_power(card: str) -> None:
    g = cabo([["1", "2", "3", "4"], ["5", "6", "0", "13"]], "5", [card])
    g.play(0, "draw deck")
    g.play(0, "discard")
    v = g.view(0)
    assert v["phase"] == "turn"
    assert v["pending"] is None
    assert v["actors"] == [1]


@pytest.mark.parametrize("card", ["7", "9", "11"])
def test_no_power_must_be_used(card: str) -> None:
    g = cabo(PLAIN[:2], "5", [card])
    g.play(0, "draw deck")
    g.play(0, "discard")
    assert g.view(0)["legal"][-1] == "pass"
    g.play(0, "pass")
    v = g.view(1)
    assert v["actors"] == [1]
    assert hand(g.view(0), 0) == ["1", "2", "?", "?"]
    assert hand(g.view(0), 1) == ["?", "?", "?", "?"]


# --------------------------------------------------------------------------- table: call


def test_cabo_call_gives_the_other_seat_one_more_turn() -> None:
    g = cabo(PLAIN[:2], "5", ["6", "6", "6"])
    quick_turn(g, 0)
    g.play(1, "cabo")
    v = g.view(0)
    assert v["call"] == "cabo"
    assert v["caller"] == 1
    assert v["legal"] == ["draw deck", "draw discard"]
    quick_turn(g, 0)
    assert g.over
    assert last_round(g)["caller"] == 1


# --------------------------------------------------------------------------- multi-replace


def test_claim_of_matching_cards_with_a_deck_card() -> None:
    g = cabo([["6", "2", "6", "6"], ["1", "3", "4", "5"]], "0", ["9"])
    g.play(0, "draw deck")  # a 9: its power never triggers from a replace
    g.play(0, "replace 0 2 3")
    for v in (g.view(0), g.view(1), g.spectator_view()):
        assert v["discard"] == ["0", "6", "6", "6"]
        assert v["hands"][0][2] is None
        assert v["hands"][0][3] is None
        assert len(v["hands"][0]) == 4
        assert v["phase"] == "turn"
        assert v["actors"] == [1]
    # the new card takes the lowest claimed position, known to its drawer only
    assert g.view(0)["hands"][0][0] == {"card": "9", "seen": [0]}
    assert g.view(1)["hands"][0][0] == {"card": None, "seen": [0]}
    assert hand(g.view(1), 0) == ["?", "?", None, None]
    claim = [e for e in g.view(1)["events"] if e["type"] == "claim"]
    assert claim[-1]["ok"] is True


def test_claim_of_matching_cards_with_the_discard_pile_card() -> None:
    g = cabo([["3", "1", "2", "3"], ["4", "5", "6", "0"]], "3")
    g.play(0, "draw discard")
    g.play(0, "replace 0 3")
    for v in (g.view(0), g.view(1), g.spectator_view()):
        assert v["discard"] == ["3", "3"]
        assert v["hands"][0][0] == {"card": "3", "seen": [0, 1], "face_up": True}
        assert v["hands"][0][3] is None
    assert g.actors == [1]


def test_claimed_position_order_does_not_matter() -> None:
    g = cabo([["6", "2", "6", "6"], ["1", "3", "4", "5"]], "0", ["9"])
    g.play(0, "draw deck")
    g.play(0, "replace 3 2")  # written out of order: still positions 2 and 3
    v = g.view(1)
    assert v["discard"] == ["0", "6", "6"]
    assert hand(v, 0) == ["?", "?", "?", None]
    assert seen(v, 0)[2] == [0]
    assert hand(g.view(0), 0) == ["6", "2", "9", None]


def test_failed_claim_with_a_deck_card() -> None:
    g = cabo([["3", "1", "4", "2"], ["5", "6", "0", "13"]], "0", ["5"])
    g.play(0, "draw deck")
    g.play(0, "replace 0 1 3")  # 3, 1 and 2 are not equal
    v0, v1, spec = g.view(0), g.view(1), g.spectator_view()
    # the claimed cards stay where they were, shown to everyone
    assert hand(v1, 0)[:4] == ["3", "1", "?", "2"]
    assert hand(spec, 0)[:4] == ["3", "1", "?", "2"]
    assert seen(v1, 0)[:4] == [[0, 1], [0, 1], [], [0, 1]]
    # the drawn card is added at the end (no empty position): its drawer alone knows it
    assert hand(v0, 0) == ["3", "1", "?", "2", "5"]
    assert hand(v1, 0)[4] == "?"
    assert seen(v1, 0)[4] == [0]
    # nothing is discarded, and the turn is over
    assert v1["discard"] == ["0"]
    assert v1["deck"] == 52 - 9 - 1
    assert v1["actors"] == [1]
    claim = [e for e in v1["events"] if e["type"] == "claim"]
    assert claim[-1]["ok"] is False


def test_failed_claim_with_the_discard_pile_card() -> None:
    g = cabo([["3", "1", "4", "2"], ["5", "6", "0", "13"]], "5")
    g.play(0, "draw discard")
    g.play(0, "replace 1 2")
    v1 = g.view(1)
    assert hand(v1, 0) == ["?", "1", "4", "?", "5"]
    assert seen(v1, 0)[4] == [0, 1]
    assert v1["discard"] == []
    assert "draw discard" not in v1["legal"]


def test_failed_claim_fills_the_lowest_empty_position() -> None:
    g = cabo([["2", "1", "2", "4"], ["5", "6", "0", "13"]], "0", ["3", "6", "7"])
    g.play(0, "draw deck")  # 3
    g.play(0, "replace 0 2")  # two 2s: position 2 becomes empty
    quick_turn(g, 1)
    g.play(0, "draw deck")  # 7
    g.play(0, "replace 1 3")  # 1 and 4 differ
    v0 = g.view(0)
    assert hand(v0, 0) == ["3", "1", "7", "4"]
    assert seen(v0, 0) == [[0], [0, 1], [0], [0, 1]]
    assert v0["discard"] == ["0", "2", "2", "5"]


def test_claim_names_two_to_four_positions() -> None:
    g = cabo([["3", "1", "4", "2"], ["5", "6", "0", "13"]], "0", ["5"])
    g.play(0, "draw deck")
    legal = g.view(0)["legal"]
    claims = [a for a in legal if a.startswith("replace ") and len(a.split()) > 2]
    assert len(claims) == 6 + 4 + 1
    assert "replace 0 1 2 3" in legal
    assert "replace 0 3" in legal
    assert legal[-1] == "discard"


def test_kamikaze_hand_needs_exactly_those_four_cards() -> None:
    # A failed claim leaves 12, 13, 12, 13 plus a fifth card: no Kamikaze.
    g = cabo([["12", "13", "12", "13"], ["1", "2", "3", "4"]], "0", ["4", "5"])
    g.play(0, "draw deck")
    g.play(0, "replace 0 1")
    g.play(1, "cabo")
    idle_turn(g, 0)
    res = last_round(g)
    assert res["hands"][0] == ["12", "13", "12", "13", "4"]
    assert res["scores"] == [54, 0]


# --------------------------------------------------------------------------- scoring


def test_caller_with_the_lowest_sum_scores_zero() -> None:
    res = called_round([["0", "1", "2", "3"], ["5", "5", "5", "5"], ["4", "4", "4", "4"]])
    assert res["sums"] == [6, 20, 16]
    assert res["scores"] == [0, 20, 16]
    assert res["adjustments"] == [[{"reason": "caller_lowest", "points": -6}], [], []]
    assert res["winners"] == [0]
    assert res["caller"] == 0


def test_caller_tied_for_lowest_scores_zero() -> None:
    res = called_round([["1", "2", "3", "4"], ["4", "6", "0", "0"], ["6", "6", "6", "5"]])
    assert res["sums"] == [10, 10, 23]
    assert res["scores"] == [0, 10, 23]
    assert res["adjustments"][0] == [{"reason": "caller_lowest", "points": -10}]
    assert res["winners"] == [0]


def test_caller_not_lowest_scores_sum_plus_ten() -> None:
    res = called_round([["5", "5", "5", "5"], ["1", "1", "2", "2"]])
    assert res["sums"] == [20, 6]
    assert res["scores"] == [30, 6]
    assert res["adjustments"] == [[{"reason": "caller_penalty", "points": 10}], []]
    assert res["winners"] == [1]


def test_caller_rule_applies_to_any_seat() -> None:
    res = called_round([["1", "1", "2", "2"], ["5", "5", "5", "5"], ["0", "0", "3", "3"]], caller=1)
    assert res["caller"] == 1
    assert res["scores"] == [6, 30, 6]
    assert res["winners"] == [0, 2]


@pytest.mark.parametrize(("penalty", "score"), [(0, 20), (25, 45), (10, 30)])
def test_caller_penalty_option(penalty: int, score: int) -> None:
    res = called_round([["5", "5", "5", "5"], ["1", "1", "2", "2"]], caller_penalty=penalty)
    assert res["scores"] == [score, 6]
    assert res["adjustments"][0] == [{"reason": "caller_penalty", "points": penalty}]


def test_kamikaze_scores_zero_and_fifty_for_everyone_else() -> None:
    res = called_round([["0", "0", "1", "1"], ["12", "13", "12", "13"], ["5", "5", "5", "5"]])
    assert res["sums"] == [2, 50, 20]
    # overrides the caller rule: the lowest caller gets 50, not 0
    assert res["scores"] == [50, 0, 50]
    assert res["adjustments"] == [
        [{"reason": "kamikaze_victim", "points": 48}],
        [{"reason": "kamikaze", "points": -50}],
        [{"reason": "kamikaze_victim", "points": 30}],
    ]
    assert res["winners"] == [1]


def test_kamikaze_of_the_caller() -> None:
    res = called_round([["13", "12", "13", "12"], ["0", "0", "1", "1"]])
    assert res["scores"] == [0, 50]  # not 50 + 10
    assert res["winners"] == [0]


def test_kamikaze_ignores_the_caller_penalty_option() -> None:
    res = called_round([["13", "12", "13", "12"], ["0", "0", "1", "1"]], caller_penalty=99)
    assert res["scores"] == [0, 50]


def test_no_caller_means_plain_sums() -> None:
    g = cabo([["5", "5", "5", "5"], ["1", "1", "2", "2"]], "0", ["13", "13"], max_turns=1)
    idle_turn(g, 0)
    idle_turn(g, 1)
    assert g.over
    res = last_round(g)
    assert res["caller"] is None
    assert res["scores"] == [20, 6]
    assert res["adjustments"] == [[], []]
    assert res["reset"] == []
    assert g.result is not None
    assert g.result.winners == [1]


# --------------------------------------------------------------------------- deck runs out


def _full_order(prefix: list[str], tail: list[str]) -> list[str]:
    """Every card of the deck: `prefix` first, `tail` last, the rest in between."""
    return full_order(cabo_deck(), prefix, tail, key=int)


def test_round_ends_after_the_turn_that_draws_the_last_card() -> None:
    g = cabo([["1", "2", "3", "4"], ["5", "6", "0", "13"]], "5")
    deck = g.view(0)["deck"]
    assert deck == 43
    for turn in range(deck - 1):
        (seat,) = g.actors
        quick_turn(g, seat)
        assert not g.over, turn
    (seat,) = g.actors
    assert g.view(seat)["deck"] == 1
    g.play(seat, "draw deck")
    v = g.view(seat)
    assert v["deck"] == 0
    assert v["phase"] == "drawn"
    assert not g.over  # the turn is not over yet
    g.play(seat, "replace 1")
    assert g.over
    res = last_round(g)
    assert res["caller"] is None
    assert res["scores"] == res["sums"]


def test_a_power_on_the_last_card_is_played_before_the_round_ends() -> None:
    hands = [["1", "2", "3", "4"], ["5", "6", "0", "13"]]
    order = _full_order(stack(hands, "5"), ["9"])
    g = new_game("cabo", players=2, seed=0, options={"target": None}, deck=order)
    peek_all(g)
    while g.view(0)["deck"] > 1:
        (seat,) = g.actors
        quick_turn(g, seat, pos=2)
    (seat,) = g.actors
    g.play(seat, "draw deck")
    assert g.view(seat)["drawn"] == "9"
    g.play(seat, "discard")
    v = g.view(seat)
    assert v["deck"] == 0
    assert v["phase"] == "power"
    assert not g.over
    g.play(seat, f"spy {1 - seat}.0")
    assert g.over


def test_deck_running_out_cuts_the_last_turns_after_a_call() -> None:
    hands = [
        ["1", "2", "3", "4"],
        ["5", "6", "0", "13"],
        ["1", "2", "3", "4"],
        ["5", "6", "0", "13"],
    ]
    g = cabo(hands, "7")
    assert g.view(0)["deck"] == 52 - 17
    while g.view(0)["deck"] > 1:
        (seat,) = g.actors
        quick_turn(g, seat, pos=3)
    (caller,) = g.actors
    g.play(caller, "cabo")
    nxt = (caller + 1) % 4
    assert g.actors == [nxt]
    quick_turn(g, nxt)  # draws the last card: the round ends although two seats still wait
    assert g.over
    res = last_round(g)
    assert res["caller"] == caller
    sums = res["sums"]
    others = [sums[s] for s in range(4) if s != caller]
    expected = 0 if sums[caller] <= min(others) else sums[caller] + 10
    assert res["scores"][caller] == expected


# --------------------------------------------------------------------------- match


def test_default_match_target_is_one_hundred() -> None:
    g = new_game("cabo", players=2)
    assert g.options["target"] == 100
    assert g.view(0)["target"] == 100


def _round_one(target: int, seat1: list[str], **options: Any) -> Game:
    """Round 1 of a match: seat 0 calls with 1+1+0+2 = 4; seat 1 keeps `seat1`."""
    g = cabo([["1", "1", "0", "2"], seat1], "2", ["13"], target=target, **options)
    g.play(0, "cabo")
    idle_turn(g, 1)
    return g


def test_match_goes_on_while_no_total_exceeds_the_target() -> None:
    g = _round_one(30, ["12", "12", "6", "0"])  # seat 1 scores exactly 30
    assert not g.over
    v = g.view(1)
    assert v["round_results"][0]["scores"] == [0, 30]
    assert v["totals"] == [0, 30]
    assert v["round"] == 2
    assert v["phase"] == "peek"
    assert v["first"] == 1  # the seat after round 1's first
    assert all(len(h) == 4 for h in v["hands"])
    assert v["discard"] != [] and v["deck"] == 52 - 9
    assert g.result is None


def test_match_ends_when_a_total_exceeds_the_target() -> None:
    g = _round_one(30, ["12", "12", "6", "1"])  # 31
    assert g.over
    assert g.result is not None
    assert g.result.rounds == [[0, 31]]
    assert g.result.totals == [0, 31]
    assert g.result.winners == [0]
    assert g.result.round_winners == [[0]]
    assert g.view(0)["result"] == g.result.to_dict()


def _expected_scores(res: dict[str, Any]) -> list[int]:
    """The cabo scoring rule, applied to a round's revealed hands."""
    hands = [[int(c) for c in h if c is not None] for h in res["hands"]]
    sums = [sum(h) for h in hands]
    for s, h in enumerate(hands):
        if sorted(h) == [12, 12, 13, 13]:
            return [0 if t == s else 50 for t in range(len(hands))]
    scores = list(sums)
    caller = res["caller"]
    if caller is not None:
        others = [sums[t] for t in range(len(sums)) if t != caller]
        scores[caller] = 0 if sums[caller] <= min(others) else sums[caller] + 10
    return scores


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 7), (4, 12)])
def test_match_to_one_hundred(players: int, seed: int) -> None:
    g = new_game("cabo", players=players, seed=seed)
    starters = []
    while not g.over:
        assert len(starters) < 60
        v = g.view(0)
        assert v["round"] == len(starters) + 1
        peek_all(g)
        (first,) = g.actors
        starters.append(first)
        g.play(first, "cabo")
        for k in range(1, players):
            quick_turn(g, (first + k) % players, pos=k % 4)
    results = g.view(0)["round_results"]
    assert len(results) == len(starters) >= 2
    assert starters == [r % players for r in range(len(starters))]
    totals = [0] * players
    for i, res in enumerate(results):
        assert res["round"] == i + 1
        assert res["scores"] == _expected_scores(res)
        totals = [t + s for t, s in zip(totals, res["scores"], strict=True)]
        assert res["totals"] == totals
        best = min(res["scores"])
        assert res["winners"] == [s for s in range(players) if res["scores"][s] == best]
        if i < len(results) - 1:
            assert max(totals) <= 100
    assert max(totals) > 100
    assert g.result is not None
    assert g.result.totals == totals
    assert g.result.rounds == [r["scores"] for r in results]
    assert g.result.round_winners == [r["winners"] for r in results]
    low = min(totals)
    assert g.result.winners == [s for s in range(players) if totals[s] == low]


def test_match_winners_share_a_tied_lowest_total() -> None:
    # seat 0 calls with 6 = seat 1's 6: tied, so 0; seat 2 scores 40 and ends the match.
    g = cabo(
        [["1", "1", "2", "2"], ["0", "0", "3", "3"], ["13", "13", "7", "7"]],
        "4",
        ["5", "5"],
        target=30,
    )
    g.play(0, "cabo")
    idle_turn(g, 1)
    idle_turn(g, 2)
    assert g.over
    assert g.result is not None
    assert g.result.totals == [0, 6, 40]
    assert g.result.winners == [0]
    g2 = cabo(
        [["5", "1", "2", "2"], ["0", "4", "3", "3"], ["13", "13", "7", "7"]],
        "4",
        ["5", "5"],
        target=30,
        max_turns=1,
    )
    idle_turn(g2, 0)
    idle_turn(g2, 1)
    idle_turn(g2, 2)
    assert g2.over
    assert g2.result is not None
    assert g2.result.totals == [10, 10, 40]
    assert g2.result.winners == [0, 1]


# --------------------------------------------------------------------------- reset_at_exact_target


def _reset_round_one(reset: bool, seed: int = 0, seat1: list[str] | None = None) -> Game:
    """Round 1 without a call (max_turns 1): seat 0's 4+5+6+5 = 20 hits the target 20."""
    hands = [["4", "5", "6", "5"], seat1 or ["0", "1", "2", "3"]]
    g = cabo(
        hands, "9", ["13", "13"], seed=seed, target=20, max_turns=1, reset_at_exact_target=reset
    )
    idle_turn(g, 0)
    idle_turn(g, 1)
    return g


def test_reset_at_exact_target_is_off_by_default() -> None:
    assert new_game("cabo").options["reset_at_exact_target"] is False
    g = _reset_round_one(False)
    v = g.view(0)
    assert v["round_results"][0]["scores"] == [20, 6]
    assert v["totals"] == [20, 6]
    assert not g.over


def test_a_total_of_exactly_the_target_drops_to_half() -> None:
    g = _reset_round_one(True)
    v = g.view(0)
    assert v["round_results"][0]["scores"] == [20, 6]
    assert v["round_results"][0]["totals"] == [10, 6]
    assert v["round_results"][0]["reset"] == [0]
    assert v["totals"] == [10, 6]
    assert v["round"] == 2
    assert not g.over


def test_exact_target_reset_is_per_seat() -> None:
    g = _reset_round_one(True, seat1=["6", "5", "4", "5"])
    assert g.view(0)["round_results"][0]["scores"] == [20, 20]
    assert g.view(0)["round_results"][0]["reset"] == [0, 1]
    assert g.view(0)["totals"] == [10, 10]


def test_exact_target_reset_happens_once_per_seat() -> None:
    # Seed 109 deals round 2 so that seat 0 (replacing its position 1) scores exactly 10:
    # 10 + 10 hits the target again, and this time the total stays at 20.
    g = _reset_round_one(True, seed=109)
    assert g.view(0)["totals"] == [10, 6]
    peek_all(g)
    assert g.actors == [1]
    quick_turn(g, 1, pos=0)
    quick_turn(g, 0, pos=1)
    v = g.view(0)
    second = v["round_results"][1]
    assert second["hands"] == [["0", "2", "5", "3"], ["2", "1", "0", "7"]]  # the dealt scenario
    assert second["scores"] == [10, 10]
    assert second["totals"] == [20, 16]
    assert second["reset"] == []  # once per seat
    assert v["totals"] == [20, 16]
    assert not g.over  # 20 does not exceed 20
    assert v["round"] == 3


# ------------------------------------------------------------------------ face-up cards in hand


def face_up(view: dict[str, Any], seat: int) -> list[bool | None]:
    """Which cards of a hand lie face up (None for an empty position)."""
    return [None if c is None else c.get("face_up", False) for c in view["hands"][seat]]


def every_view(g: Game) -> list[dict[str, Any]]:
    """Each seat's view with and without memory aid, and the spectators' both ways."""
    views: list[dict[str, Any]] = []
    for seat in range(g.players):
        views += [g.view(seat), g.view(seat, memory=False)]
    return [*views, g.spectator_view(), g.spectator_view(memory=False)]


def test_a_card_taken_from_the_discard_pile_lies_face_up() -> None:
    g = cabo([["1", "2", "3", "4"], ["5", "6", "0", "13"]], "9")
    events = g.play(0, "draw discard")
    # the card taken is named publicly, also to a seat without memory aid
    assert [e.visible(0)["card"] for e in events if e.type == "draw"] == ["9"]
    g.play(0, "replace 2")
    for v in every_view(g):
        assert hand(v, 0)[2] == "9"
        assert face_up(v, 0) == [False, False, True, False]
        assert v["discard"] == ["3"]
    # the cards peeked at stay face down: a person without memory aid must remember them
    assert hand(g.view(0, memory=False), 0) == ["?", "?", "9", "?"]


def test_a_face_up_card_stays_face_up_when_exchanged() -> None:
    g = cabo([["1", "2", "3", "4"], ["5", "6", "0", "13"]], "9", ["11", "7"])
    g.play(0, "draw discard")
    g.play(0, "replace 0")  # 9 face up at 0.0; 1 on the pile
    g.play(1, "draw deck")  # 11: exchange
    g.play(1, "discard")
    g.play(1, "exchange 3 0.0")  # seat 1's 13 for seat 0's face-up 9, blind
    for v in every_view(g):
        assert hand(v, 1)[3] == "9"
        assert face_up(v, 1) == [False, False, False, True]
        assert face_up(v, 0) == [False, False, False, False]
    # seat 1's 13 went face down to seat 0: nobody without memory aid sees it
    assert hand(g.view(0, memory=False), 0)[0] == "?"
    assert hand(g.spectator_view(memory=False), 0)[0] == "?"


def test_a_failed_claims_cards_lie_face_up() -> None:
    g = cabo([["3", "4", "5", "6"], ["7", "8", "9", "10"]], "11", ["0"])
    g.play(0, "draw deck")
    events = g.play(0, "replace 0 1")  # 3 and 4 are not equal
    # the cards shown are public: named in the event every seat and spectator reads
    assert [e.visible(0)["shown"] for e in events if e.type == "claim"] == [["3", "4"]]
    for v in every_view(g):
        assert hand(v, 0)[:2] == ["3", "4"]
        assert face_up(v, 0) == [True, True, False, False, False]
    # the drawn card joined the hand face down, known to its drawer only
    assert hand(g.view(0), 0)[4] == "0"
    assert hand(g.view(0, memory=False), 0)[4] == "?"


def test_a_face_up_card_leaves_the_hand_face_up() -> None:
    g = cabo([["1", "2", "3", "4"], ["5", "6", "0", "13"]], "9", ["12"])
    g.play(0, "draw discard")
    g.play(0, "replace 1")  # 9 face up at 0.1
    g.play(1, "draw discard")  # seat 1 takes the 2 from the pile
    g.play(1, "replace 0")
    g.play(0, "draw deck")  # 12
    events = g.play(0, "replace 1")  # the face-up 9 goes to the pile
    assert [e.visible(0)["out"] for e in events if e.type == "replace"] == [["9"]]
    for v in every_view(g):
        assert v["discard"][-1] == "9"
        assert face_up(v, 0) == [False, False, False, False]
        assert face_up(v, 1) == [True, False, False, False]


def test_only_cabo_lays_cards_face_up_in_the_hand() -> None:
    for variant, top in (("gabo", "5H"), ("kaboo", None), ("cabo-german", "5H")):
        hands = [["AH", "2H", "3H", "4H"], ["AC", "2C", "3C", "4C"]]
        if variant == "kaboo":
            g = deal(variant, hands, None, ["6D"], options={"first": 0})
            g.play(0, "draw deck")
            g.play(0, "discard")
            g.play(1, "draw discard")
            taker = 1
        else:
            g = deal_and_peek(variant, hands, top, None)
            g.play(0, "draw discard")
            taker = 0
        g.play(taker, "replace 2")
        for v in every_view(g):
            assert all(c is None or "face_up" not in c for h in v["hands"] for c in h)
        assert hand(g.view(taker, memory=False), taker)[2] == "?", variant
        assert hand(g.spectator_view(memory=False), taker)[2] == "?", variant
