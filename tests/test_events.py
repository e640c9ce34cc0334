"""Typed events: one class per kind, int places, the audience split kept, and the JSON that views,
frames and logs carry exactly what it was (every event read back from it is the same event)."""

from __future__ import annotations

import dataclasses

import pytest

from cardtable import new_game, variants
from cardtable.events import (
    FAMILY_KINDS,
    QUTE_KINDS,
    At,
    FamilyDraw,
    Happening,
    Peek,
    QuteDraw,
    Spy,
    at,
    decode,
)
from cardtable.rng import Rng
from cardtable.seat import Seat
from cardtable.views.schema import validate_event

from .helpers import kind_first_choice, random_actor


def test_a_place_is_two_ints_written_seat_dot_position() -> None:
    at = At(2, 3)
    assert str(at) == "2.3" and At.parse("2.3") == at
    assert sorted([At(1, 2), At(0, 3), At(1, 0)]) == [At(0, 3), At(1, 0), At(1, 2)]
    for bad in ("2", "a.1", "1.", ".1", "1.2.3", "-1.0"):
        with pytest.raises(ValueError):
            At.parse(bad)


def test_a_secret_field_is_hidden_from_everyone_outside_the_audience() -> None:
    peek = Peek(0, At(0, 2), "7H")
    assert peek.hidden() == Peek(0, At(0, 2), None)
    assert peek.to_json(4) == {"seq": 4, "type": "peek", "seat": 0, "at": "0.2", "card": "7H"}
    assert peek.hidden().to_json(4) == {"seq": 4, "type": "peek", "seat": 0, "at": "0.2"}
    draw = FamilyDraw(1, "discard", "KS")  # a public card stays in the public part
    assert draw.to_json(1)["from"] == "discard"
    assert QuteDraw(0, True, "9C").hidden() == QuteDraw(0, True)


@pytest.mark.parametrize("name", variants.names())
def test_every_event_reads_back_from_its_json_and_fits_the_schema(name: str) -> None:
    kinds = QUTE_KINDS if name == "qute" else FAMILY_KINDS
    seen: set[type[Happening]] = set()
    for seed in range(3):
        game = new_game(name, players=3, seed=seed, options={"target": None})
        rng = Rng(seed)
        events = list(game.opening_events)
        for _ in range(300):
            if game.over:
                break
            seat = random_actor(game, rng)
            events.extend(game.play(seat, kind_first_choice(game, seat, rng)))
        for ev in events:
            seen.add(type(ev.full))
            assert type(ev.full) is kinds[ev.type]
            for bit in (0, 1, 2, 4, 8):
                typed, wire = ev.seen(bit), ev.visible(bit)
                validate_event(wire)
                assert typed.to_json(ev.seq) == wire
                assert decode(wire, kinds) == typed
                if ev.audience != -1 and not ev.audience & bit:  # outside the audience
                    assert all(getattr(typed, f) is None for f in typed.SECRET)
    assert len(seen) >= 8


def test_a_seat_reads_typed_events_with_places_not_text() -> None:
    g = new_game("cabo", players=2, seed=1, options={"first": 0, "target": None})
    mine, other = Seat(g, 0), Seat(g, 1)
    events = mine.play("peek 0")
    looked = [e for e in events if isinstance(e, Peek)]
    assert looked and looked[0].at == At(0, 0) and looked[0].card is not None
    theirs = [e for e in other.history() if isinstance(e, Peek) and e.seat == 0]
    assert theirs == [dataclasses.replace(looked[0], card=None)]
    spies = [e for e in mine.history() if isinstance(e, Spy)]
    assert spies == []


def test_an_unknown_or_incomplete_event_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown event type"):
        decode({"type": "teleport"}, FAMILY_KINDS)
    with pytest.raises(ValueError, match="needs 'at'"):
        decode({"type": "peek", "seat": 0}, FAMILY_KINDS)


def test_at_names_each_place_once_and_equals_a_new_one() -> None:
    """``at`` hands out one shared instance per place (engines name places on every recorded
    move); it equals ``At`` made anew, also past the table it keeps and for no real place."""
    assert at(2, 3) is at(2, 3)
    assert at(2, 3) == At(2, 3) and str(at(2, 3)) == "2.3"
    for seat, pos in ((15, 63), (16, 0), (0, 64), (-1, 0), (0, -1)):
        assert at(seat, pos) == At(seat, pos)
        assert (at(seat, pos).seat, at(seat, pos).pos) == (seat, pos)


def test_events_are_values() -> None:
    """Two events with the same fields are equal and hash alike (sets and caches of them)."""
    first = Peek(0, at(0, 1), "5")
    again = Peek(0, At(0, 1), "5")
    assert first == again and hash(first) == hash(again) and len({first, again}) == 1
    assert first != Peek(0, at(0, 1), None) and first != Spy(0, at(0, 1), "5")


def test_play_legal_records_what_play_records() -> None:
    """``play_legal`` (an action known legal, unchecked) keeps the same events and log as
    ``play`` of the same action."""
    checked = new_game("kaboo", players=3, seed=5)
    trusted = new_game("kaboo", players=3, seed=5)
    rng = Rng(5)
    for _ in range(40):
        if checked.over:
            break
        seat = random_actor(checked, rng)
        action = rng.pick(checked.legal_actions(seat))
        ours = trusted.play_legal(seat, action)
        theirs = checked.play(seat, str(action))
        assert [(e.seq, e.full, e.audience) for e in ours] == [
            (e.seq, e.full, e.audience) for e in theirs
        ]
    assert trusted.log == checked.log and trusted.history(0) == checked.history(0)
