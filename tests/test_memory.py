"""Stacked-deck scenarios for views without memory aid (RULES.md §1 "Memory" and §5).

A person looks at a card once and must remember it: ``view(seat, memory=False)`` shows no code
of a face-down card, and what the seat learns reaches it only in the events of that moment
(what ``play`` returns, and ``opening_events`` for kaboo's first sight of the bottom row).
"""

from __future__ import annotations

from typing import Any

from cardtable import new_game

from .scenario import deal, deal_and_peek, hand, peek_all


def bare(g: Any, seat: int) -> dict[str, Any]:
    """The seat's view without memory aid."""
    view: dict[str, Any] = g.view(seat, memory=False)
    return view


def cards_of(events: list[Any], seat: int) -> list[dict[str, Any]]:
    """The events as ``seat`` saw them at that moment."""
    return [e.for_seat(seat) for e in events]


KABOO = [["5H", "6H", "7H", "8H"], ["5C", "6C", "7C", "8C"]]


def test_kaboo_bottom_row_is_shown_once_in_the_opening_events() -> None:
    g = deal("kaboo", KABOO, None, ["2S", "3S"], options={"first": 0})
    assert hand(g.view(0), 0) == ["?", "?", "7H", "8H"]  # perfect memory
    assert hand(bare(g, 0), 0) == ["?", "?", "?", "?"]  # a person has to remember them
    opening = g.opening_events
    seen0 = [e for e in cards_of(opening, 0) if e["type"] == "peek" and "card" in e]
    assert [(e["at"], e["card"]) for e in seen0] == [("0.2", "7H"), ("0.3", "8H")]
    seen1 = [e for e in cards_of(opening, 1) if e["type"] == "peek" and "card" in e]
    assert [(e["at"], e["card"]) for e in seen1] == [("1.2", "7C"), ("1.3", "8C")]
    # A seat never gets another seat's bottom row, not even in the opening events.
    assert not {"7C", "8C"} & {e.get("card") for e in cards_of(opening, 0)}
    # The memory-less view's events say that a peek happened, not what it showed.
    peeks = [e for e in bare(g, 0)["events"] if e["type"] == "peek"]
    assert peeks and all("card" not in e for e in peeks)


def test_initial_peek_reaches_the_seat_in_the_event_of_that_moment() -> None:
    g = deal("cabo", [["1", "2", "3", "4"], ["5", "6", "7", "8"]], "9", ["10"])
    events = g.play(0, "peek 1")
    assert [e["card"] for e in cards_of(events, 0) if e["type"] == "peek"] == ["2"]
    assert all("card" not in e for e in cards_of(events, 1))
    assert hand(g.view(0), 0) == ["?", "2", "?", "?"]
    assert hand(bare(g, 0), 0) == ["?", "?", "?", "?"]
    assert bare(g, 0)["hands"][0][1]["seen"] == [0]  # who has looked stays public


def test_drawn_card_stays_visible_then_goes_face_down() -> None:
    g = deal_and_peek("cabo", [["1", "2", "3", "4"], ["5", "6", "7", "8"]], "9", ["0", "13"])
    events = g.play(0, "draw deck")
    assert [e["card"] for e in cards_of(events, 0) if e["type"] == "draw"] == ["0"]
    assert bare(g, 0)["drawn"] == "0"  # the card in hand is face up to its holder
    assert bare(g, 1)["drawn"] is None
    g.play(0, "replace 3")
    assert hand(g.view(0), 0) == ["1", "2", "?", "0"]
    assert hand(bare(g, 0), 0) == ["?", "?", "?", "?"]
    assert bare(g, 0)["discard"] == ["9", "4"]  # face-up cards stay
    assert all("card" not in e for e in bare(g, 0)["events"] if e["type"] == "draw")


def test_spy_and_look_show_the_card_only_at_that_moment() -> None:
    hands = [["5S", "9H", "2D", "KS"], ["4C", "3C", "5H", "AH"]]
    g = deal("kaboo", hands, None, ["9C", "QD", "2C"], options={"first": 0})
    g.play(0, "draw deck")  # 9C
    g.play(0, "discard")
    events = g.play(0, "spy 1.3")
    assert [e["card"] for e in cards_of(events, 0) if e["type"] == "spy"] == ["AH"]
    assert hand(g.view(0), 1)[3] == "AH"
    assert hand(bare(g, 0), 1)[3] == "?"
    g.play(1, "draw deck")  # QD
    g.play(1, "discard")
    events = g.play(1, "look 0 0.1")
    shown = [e["cards"] for e in cards_of(events, 1) if e["type"] == "look"]
    assert shown == [["4C", "9H"]]
    assert all("cards" not in e for e in cards_of(events, 0))
    assert hand(bare(g, 1), 0) == ["?", "?", "?", "?"]
    assert hand(bare(g, 1), 1) == ["?", "?", "?", "?"]


def test_failed_claim_is_shown_to_all_and_lies_face_up_in_cabo() -> None:
    hands = [["3", "4", "5", "6"], ["7", "8", "9", "10"]]
    g = deal_and_peek("cabo", hands, "11", ["0"])
    g.play(0, "draw deck")
    events = g.play(0, "replace 0 1")  # 3 and 4 are not equal
    for seat in (0, 1):
        claim = [e for e in cards_of(events, seat) if e["type"] == "claim"]
        assert claim[0]["shown"] == ["3", "4"]
    # cabo (RULES.md): the cards of a failed claim lie face up, also without memory aid
    assert hand(bare(g, 1), 0) == ["3", "4", "?", "?", "?"]
    assert [e["shown"] for e in bare(g, 1)["events"] if e["type"] == "claim"] == [["3", "4"]]
    # the drawn card came face down from the deck: nobody else learns it from the claim
    assert [e.get("card") for e in cards_of(events, 1) if e["type"] == "claim"] == [None]


def test_a_claim_with_a_card_from_the_pile_names_it() -> None:
    hands = [["3", "3", "5", "6"], ["7", "8", "9", "10"]]
    g = deal_and_peek("cabo", hands, "11", ["0"])
    g.play(0, "draw discard")  # the 11 lies face up on the pile
    events = g.play(0, "replace 0 1")  # two 3s: right
    for seat in (0, 1):
        claim = [e for e in cards_of(events, seat) if e["type"] == "claim"]
        assert (claim[0]["ok"], claim[0]["card"], claim[0]["out"]) == (True, "11", ["3", "3"])


def test_a_wrong_drop_is_named_to_all_then_lies_face_down() -> None:
    hands = [["3H", "4H", "5H", "6H"], ["7C", "8C", "9C", "10C"]]
    g = deal_and_peek("cabo-german", hands, "2S", ["KD"])
    events = g.play(0, "drop 1.0")  # a 7 on a 2: wrong, shown and put back
    for seat in (0, 1):
        drop = [e for e in cards_of(events, seat) if e["type"] == "drop"]
        assert drop[0]["card"] == "7C"
    assert [e["card"] for e in bare(g, 1)["events"] if e["type"] == "drop"] == ["7C"]
    assert hand(g.view(1), 1)[0] == "7C"  # everyone knows it now ...
    assert hand(bare(g, 1), 1)[0] == "?"  # ... but it lies face down: remember it
    assert hand(bare(g, 0), 1)[0] == "?"


def test_public_cards_are_named_in_every_seats_history() -> None:
    hands = [["AH", "2H", "3H", "4H"], ["AC", "2C", "3C", "4C"]]
    g = deal_and_peek("cabo-german", hands, "5D", ["9S", "6S"])
    g.play(0, "draw deck")  # 9S: cabo-german's drawn card lies face up
    g.play(0, "replace 0")
    g.play(1, "draw discard")  # the AH just thrown away
    g.play(1, "replace 3")
    for seat in (0, 1):
        public = g.history(seat, memory=False)
        assert [e.get("card") for e in public if e["type"] == "draw"] == ["9S", "AH"]
        assert [e["out"] for e in public if e["type"] == "replace"] == [["AH"], ["4C"]]
        # the card that went into the hand is named too: both were face up
        assert [e.get("card") for e in public if e["type"] == "replace"] == ["9S", "AH"]
        assert [e["discard"] for e in public if e["type"] == "round_start"] == [["5D"]]
        # the initial peeks are there, without the cards they showed
        assert [e.get("card") for e in public if e["type"] == "peek"] == [None] * 4
    # with memory, a seat's history keeps its own peeks (and only its own)
    assert [e.get("card") for e in g.history(0) if e["type"] == "peek"] == ["AH", "2H", None, None]


def test_gabo_initial_peek_stays_visible_until_the_first_draw() -> None:
    hands = [["5S", "9H", "2D", "KS"], ["4C", "3C", "9C", "AH"], ["6C", "5C", "6H", "7D"]]
    g = deal("gabo", hands, "5D", ["2H", "3H", "4H"], options={"target": None})
    peek_all(g, [(0, 1), (2, 3), (0, 3)])
    assert hand(bare(g, 0), 0) == ["5S", "9H", "?", "?"]  # seed 003
    assert hand(bare(g, 1), 1) == ["?", "?", "9C", "AH"]
    assert hand(bare(g, 0), 1) == ["?", "?", "?", "?"]  # never another seat's
    g.play(0, "draw deck")
    # Seat 0 has drawn: its cards are face down now; seat 1 has not drawn yet.
    assert hand(bare(g, 0), 0) == ["?", "?", "?", "?"]
    assert hand(bare(g, 0), 0) != hand(g.view(0), 0)
    g.play(0, "replace 2")
    for seat in (0, 1, 2):
        g.play(seat, "pass")
    assert hand(bare(g, 1), 1) == ["?", "?", "9C", "AH"]
    g.play(1, "draw discard")
    assert hand(bare(g, 1), 1) == ["?", "?", "?", "?"]


def test_gabo_a_peeked_card_moved_away_is_not_shown() -> None:
    hands = [["5S", "9H", "2D", "KS"], ["4C", "3C", "9C", "AH"], ["6C", "5C", "6H", "7D"]]
    g = deal("gabo", hands, "5D", ["JH"], options={"target": None})
    peek_all(g, [(0, 1), (0, 1), (0, 1)])
    g.play(0, "draw deck")  # JH
    g.play(0, "discard")
    g.play(0, "exchange 1.0 2.0")  # seat 1's 4C goes to seat 2, seat 2's 6C to seat 1
    assert hand(g.view(1), 1) == ["?", "3C", "?", "?"]
    assert hand(bare(g, 1), 1) == ["?", "3C", "?", "?"]
    assert hand(bare(g, 1), 2) == ["?", "?", "?", "?"]  # its 4C, now in seat 2's hand
    assert hand(g.view(1), 2)[0] == "4C"


def test_qute_hands_are_face_up_to_their_owner_memory_changes_nothing() -> None:
    g = new_game("qute", players=3, seed=4)
    assert not g.memory_game
    drew = False
    while not g.over and not drew:
        seat = g.actors[0]
        legal = [str(a) for a in g.legal_actions(seat)]
        action = "draw" if "draw" in legal else legal[0]
        drew = action == "draw"
        g.play(seat, action)
        for s in range(3):  # the drawer's own draw too: its hand is face up to it
            assert g.view(s, memory=False) == g.view(s)
            assert g.history(s, memory=False) == g.history(s)
        assert g.spectator_view(memory=False) == g.spectator_view()
    assert drew
    assert [e["drawn"] for e in g.history(seat, memory=False) if "drawn" in e]


def test_round_end_reveal_shows_every_card() -> None:
    hands = [["3", "4", "5", "6"], ["7", "8", "9", "10"]]
    g = deal_and_peek("cabo", hands, "11", ["0", "1"])
    g.play(0, "cabo")
    g.play(1, "draw deck")
    g.play(1, "discard")
    assert g.over
    assert hand(bare(g, 0), 1) == ["7", "8", "9", "10"]
    assert bare(g, 0) == g.view(0)
