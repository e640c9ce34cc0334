"""The contract every consumer receives: a seat of a game reads what that seat may know and does
what it may do, and nothing more."""

from __future__ import annotations

import pytest

from cardtable import NotYourTurn, new_game, variants
from cardtable.events import FamilyDraw
from cardtable.seat import MatchState, Seat

from .scenario import stack


def test_a_seat_reads_its_own_view_history_and_legal_actions() -> None:
    for name in variants.names():
        g = new_game(name, players=2, seed=3)
        for number in range(2):
            seat = Seat(g, number)
            assert seat.view() == g.view(number)
            wire = g.history(number)
            assert [e.to_json(w["seq"]) for e, w in zip(seat.history(), wire, strict=True)] == wire
            assert seat.legal_actions() == g.legal_actions(number)
            assert seat.to_act == (number in g.actors)
            blind = Seat(g, number, memory=False)
            assert blind.view() == g.view(number, memory=False)
            wire = g.history(number, memory=False)
            assert [e.to_json(w["seq"]) for e, w in zip(blind.history(), wire, strict=True)] == wire


def test_a_seat_plays_only_for_itself_and_a_refusal_changes_nothing() -> None:
    g = new_game("cabo", players=2, seed=1, options={"first": 0, "target": None})
    while g.actors != [0]:  # past the initial peeks
        for s in list(g.actors):
            g.play(s, g.legal_actions(s)[0])
    other = Seat(g, 1)
    before = g.view(0)
    with pytest.raises(NotYourTurn):
        other.play("draw deck")
    assert g.view(0) == before
    mine = Seat(g, 0)
    events = mine.play("draw deck")
    # the card drawn is named to the seat that drew it, and to nobody else
    drawn = g.view(0)["drawn"]
    assert drawn is not None
    assert any(isinstance(e, FamilyDraw) and e.card == drawn for e in events)
    assert all("card" not in e for e in g.view(1)["events"] if e["type"] == "draw")


def test_the_match_state_is_public_and_the_same_for_every_seat() -> None:
    g = new_game("qute", players=3, seed=5)
    states = [Seat(g, n).match for n in range(3)]
    assert states[0] == states[1] == states[2]
    assert states[0] == MatchState(
        round=1, totals=(0, 0, 0), target=g.options["target"], rounds=(), over=False, result=None
    )
    view = g.view(0)
    assert (view["round"], list(states[0].totals), view["target"]) == (
        states[0].round,
        view["totals"],
        states[0].target,
    )


def test_a_world_changes_nothing_the_seat_knows_and_may_differ_elsewhere() -> None:
    hands = [["1", "2", "3", "4"], ["13", "12", "11", "10"]]
    g = new_game(
        "cabo",
        players=2,
        seed=0,
        deck=stack(hands, "5", ["6", "7", "8"]),
        options={"first": 0, "target": None},
    )
    g.play(0, "peek 0")
    g.play(0, "peek 1")
    seat = Seat(g, 0)
    known = seat.knowledge()
    assert known is not None
    assert known[0][0] >= 0 and known[0][1] >= 0 and known[0][2] == -2
    assert all(c == -2 for c in known[1])
    deals = set()
    for k in range(20):
        world = seat.worlds(k)
        assert world.view(0) == g.view(0)  # the seat cannot tell a world from the game
        deals.add(tuple(world.debug_lines()))
    assert len(deals) > 1  # what it does not know is dealt again
    assert Seat(new_game("qute", players=2, seed=0), 0).knowledge() is None


def test_there_is_no_seat_outside_the_table() -> None:
    g = new_game("gabo", players=2, seed=0)
    for bad in (-1, 2, True):
        with pytest.raises(ValueError, match="no seat"):
            Seat(g, bad)
