"""What a person without the memory aid sees on a terminal table: cards just seen, then gone.

Both terminal front ends (the line-mode play loop and the full-screen table) draw a memory game
from ``view(me, memory=False)``; the face-down cards the seat saw since its last move are added
back (:func:`table_view`) until that move, so a peek can be read before it must be remembered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeAlias, Unpack

from .. import Game
from ..events import ROUND_STARTS, At, Claim, Drop, Happening, Look, Peek, Spy
from ..views import FamilySlot, FamilyView, View, is_family_view, is_qute_view
from .family import FamilyTable
from .qute import QuteTable
from .render import Front, TableKeys

__all__ = ["TableView", "note_sights", "sights_in", "table_view", "with_keys"]

TableView: TypeAlias = FamilyTable | QuteTable
"""The view a terminal table is drawn from: the game's view plus the play loop's own keys
(:class:`~cardtable.text.render.TableKeys`)."""


def sights_in(ev: Happening) -> list[tuple[At, str]]:
    """The face-down cards event ``ev`` (as the seat sees it) showed: ``(place, code)`` pairs.

    A peek, spy or look shows its looker the cards (another seat's carries no code); a failed
    claim (``cabo``) or a failed drop (``cabo-german``) shows everyone cards that go back face
    down.
    """
    match ev:
        case Peek(at=at, card=str() as card) | Spy(at=at, card=str() as card):
            return [(at, card)]
        case Drop(at=at, ok=False, card=card):
            return [(at, card)]
        case Look(at=places, cards=tuple() as cards):
            return list(zip(places, cards, strict=False))
        case Claim(at=places, ok=False, shown=tuple() as shown):
            return list(zip(places, shown, strict=False))
    return []


def note_sights(events: Iterable[Happening], sights: dict[At, str]) -> None:
    """Add to ``sights`` (place → code: what the seat has seen since the last table) the
    cards ``events`` showed; a new deal forgets them."""
    for ev in events:
        if isinstance(ev, ROUND_STARTS):
            sights.clear()
        sights.update(sights_in(ev))


def with_keys(view: View, **keys: Unpack[TableKeys]) -> TableView:
    """``view`` (a new dict) with the play loop's ``keys`` added: a table view of its game."""
    if is_qute_view(view):
        qute: QuteTable = {**view, **keys}
        return qute
    if not is_family_view(view):  # pragma: no cover - every view is of one game or the other
        raise ValueError(f"not a view of a known game: {view.get('game')!r}")
    family: FamilyTable = {**view, **keys}
    return family


def table_view(
    game: Game, me: int, memory_aid: bool, sights: Mapping[At, str], shown: Front
) -> TableView:
    """The view a table is drawn from, with the terminal's own keys ``memory_aid`` and
    ``seen_now`` (:class:`~cardtable.text.render.TableKeys`).

    With the memory aid it is ``view(me)``: every card the seat has ever known. Without it, it
    is ``view(me, memory=False)`` plus the face-down cards in ``sights`` — those the seat has
    just seen — each only where ``view(me)`` still knows that card: a card moved since (a
    replace, a blind exchange, a drop …) is not shown at its old place (unless, in the Cabo
    deck, whose values repeat, a known card of the same value took it), and the table never
    names a card the seat does not know. A game with nothing to remember (``shown``, its
    front, has no ``memory``) gets its view as it is.
    """
    if memory_aid:
        return with_keys(game.view(me), memory_aid=True)
    plain = game.view(me, memory=False)
    if not sights or shown.memory is None or not is_family_view(plain):
        return with_keys(plain, memory_aid=False)
    # Only a memory game gets here: a Cabo-family one, whose hands are rows of FamilySlot.
    full = game.view(me)
    if not is_family_view(full):  # pragma: no cover - the same game's view
        return with_keys(plain, memory_aid=False)
    known = full["hands"]
    hands: list[list[FamilySlot | None]] = [list(hand) for hand in plain["hands"]]
    seen_now: dict[str, str] = {}
    for at, code in sights.items():
        s, p = at.seat, at.pos
        if not (0 <= s < len(hands) and 0 <= p < len(hands[s])):
            continue
        cell, memo = hands[s][p], known[s][p]
        if cell is None or memo is None or memo["card"] != code or cell["card"] is not None:
            continue  # gone, moved, or already shown (gabo's initial peek)
        hands[s][p] = {**cell, "card": code}
        seen_now[str(at)] = code
    now: FamilyView = {**plain, "hands": hands}
    return with_keys(now, memory_aid=False, seen_now=seen_now)
