"""What a person without the memory aid sees on a terminal table: cards just seen, then gone.

Both terminal front ends (the line-mode play loop and the full-screen table) draw a memory game
from ``view(me, memory=False)``; the face-down cards the seat saw since its last move are added
back (:func:`table_view`) until that move, so a peek can be read before it must be remembered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .. import Game
from ..views import FamilySlot
from .render import Front

__all__ = ["note_sights", "sights_in", "table_view"]


def sights_in(ev: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The face-down cards event ``ev`` (as the seat sees it) showed: ``(address, code)`` pairs.

    A peek, spy or look shows its looker the cards (another seat's carries no code); a failed
    claim (``cabo``) or a failed drop (``cabo-german``) shows everyone cards that go back face
    down.
    """
    kind = ev.get("type")
    at = ev.get("at")
    addrs = [at] if isinstance(at, str) else [str(a) for a in at or []]
    if kind in ("peek", "spy") or (kind == "drop" and ev.get("ok") is False):
        return [(addrs[0], str(ev["card"]))] if addrs and "card" in ev else []
    if kind == "look" or (kind == "claim" and ev.get("ok") is False):
        codes = ev.get("cards" if kind == "look" else "shown") or []
        return list(zip(addrs, [str(c) for c in codes], strict=False))
    return []


def note_sights(events: Iterable[Mapping[str, Any]], sights: dict[str, str]) -> None:
    """Add to ``sights`` (address → code: what the seat has seen since the last table) the
    cards ``events`` showed; a new deal forgets them."""
    for ev in events:
        if ev.get("type") == "round_start":
            sights.clear()
        sights.update(sights_in(ev))


def table_view(
    game: Game, me: int, memory_aid: bool, sights: dict[str, str], shown: Front
) -> Mapping[str, Any]:
    """The view a table is drawn from, with the terminal's own keys ``memory_aid`` and
    ``seen_now``.

    With the memory aid it is ``view(me)``: every card the seat has ever known. Without it, it
    is ``view(me, memory=False)`` plus the face-down cards in ``sights`` — those the seat has
    just seen — each only where ``view(me)`` still knows that card: a card moved since (a
    replace, a blind exchange, a drop …) is not shown at its old place (unless, in the Cabo
    deck, whose values repeat, a known card of the same value took it), and the table never
    names a card the seat does not know. A game with nothing to remember (``shown``, its
    front, has no ``memory``) gets its view as it is.
    """
    if memory_aid:
        return {**game.view(me), "memory_aid": True}
    view = {**game.view(me, memory=False), "memory_aid": False}
    if not sights or shown.memory is None:
        return view
    # Only a memory game gets here: a Cabo-family one, whose hands are rows of FamilySlot.
    known: list[list[FamilySlot | None]] = game.view(me)["hands"]
    view_hands: list[list[FamilySlot | None]] = view["hands"]
    hands = [list(hand) for hand in view_hands]
    seen_now: dict[str, str] = {}
    for addr, code in sights.items():
        seat, _, pos = addr.partition(".")
        s, p = int(seat), int(pos)
        if not (0 <= s < len(hands) and 0 <= p < len(hands[s])):
            continue
        cell, memo = hands[s][p], known[s][p]
        if cell is None or memo is None or memo["card"] != code or cell["card"] is not None:
            continue  # gone, moved, or already shown (gabo's initial peek)
        hands[s][p] = {**cell, "card": code}
        seen_now[addr] = code
    return {**view, "hands": hands, "seen_now": seen_now}
