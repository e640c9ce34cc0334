"""Drops and snaps of the Cabo family: shedding a card that matches the discard pile (German
Cabo, any time in one's turn, then giving a card for another seat's) or the card just played
(Gabo's snap window), with the penalty for a wrong one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...events import Drop, FamilyPenalty, Give, Snap, at
from .phases import PH_GIVE, PH_SNAP

if TYPE_CHECKING:
    from ...notation import Address
    from .table import Table

__all__ = ["do_drop", "do_give", "penalty", "touch_looked"]


def touch_looked(g: Table, s: int, pos: int) -> None:
    """A card at ``s.pos`` moved: a pending look at it can no longer be answered by exchange."""
    lk = g.looked
    if lk is not None and ((lk[0], lk[1]) == (s, pos) or (lk[2], lk[3]) == (s, pos)):
        g.look_valid = False


def penalty(g: Table, seat: int) -> None:
    """Deal ``seat`` one penalty card face down (none if the deck is out)."""
    cid = g.draw_from_deck()
    if cid < 0:
        g.emit(FamilyPenalty(seat, None))
        return
    pos = g.place(seat, cid, 0, g.epoch)
    touch_looked(g, seat, pos)
    if g.recording:
        g.emit(FamilyPenalty(seat, at(seat, pos)))


def do_drop(g: Table, seat: int, args: tuple[Address]) -> None:
    """``drop A``: snap in Gabo's window, or drop against the pile's top in German Cabo."""
    s, pos = g.resolve(seat, args[0])
    hand = g.hands[s]
    cid = hand[pos]
    everyone = g.allmask | g.pub
    if g.phase == PH_SNAP:  # gabo
        hand[pos] = -1
        g.known[s][pos] = 0
        g.discard.append(cid)
        ok = g.keys[cid] == g.snap_key
        if g.recording:
            g.emit(Snap(seat, at(s, pos), ok, g.codes[cid]))
        if not ok:
            penalty(g, seat)
            penalty(g, seat)
            # a wrong snap ends the seat's part in the window, as if it had passed
            g.snap_passed |= 1 << seat
        if not g.tick() and g.snap_passed == g.allmask:
            g.end_turn()
        return
    # cabo-german drop against the top of the discard pile
    touch_looked(g, s, pos)
    if g.keys[cid] == g.keys[g.discard[-1]]:
        hand[pos] = -1
        g.known[s][pos] = 0
        g.discard.append(cid)
        if g.recording:
            g.emit(Drop(seat, at(s, pos), True, g.codes[cid]))
        if s != seat and g.occupied(seat):
            g.give_to = (s, pos)
            g.resume = g.phase
            g.phase = PH_GIVE
    else:
        g.known[s][pos] = everyone
        # shown to everyone, then back face down
        if g.recording:
            g.emit(Drop(seat, at(s, pos), False, g.codes[cid]))
        penalty(g, seat)
    g.tick()


def do_give(g: Table, seat: int, args: tuple[int]) -> None:
    """``give N``: after dropping another seat's card, put one of yours in its place."""
    pos = args[0]
    assert g.give_to is not None
    s, target = g.give_to
    touch_looked(g, seat, pos)
    touch_looked(g, s, target)
    g.hands[s][target] = g.hands[seat][pos]
    g.known[s][target] = g.known[seat][pos]
    g.tags[s][target] = g.tags[seat][pos]
    g.hands[seat][pos] = -1
    g.known[seat][pos] = 0
    g.give_to = None
    g.phase = g.resume
    if g.recording:
        g.emit(Give(seat, at(seat, pos), at(s, target)))
