"""Why a Qute action is refused: :func:`why_illegal`, a catalog message (``refusal.qute.…``) that
names only public facts and the seat's own hand (what :meth:`Game.check` raises)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import IllegalAction, NoSuchCard, RuleForbids, WrongPhase
from ...notation import Action
from .tables import CODES, DECISIONS, PH_DECIDE

if TYPE_CHECKING:
    from .table import Table

__all__ = ["why_illegal"]


def why_illegal(g: Table, seat: int, action: Action) -> IllegalAction:
    """The refusal of ``action`` for ``seat``: it names only public facts and the seat's own
    hand (the cards it named, the card it drew)."""
    name = action.name
    if g.phase == PH_DECIDE:
        options = tuple(str(a) for a in DECISIONS[g.decision or "qute"])
        return WrongPhase("refusal.qute.decide", seat, options=options)
    if name in ("qute", "continue", "suit", "eights", "jpoints"):
        return WrongPhase("refusal.qute.no_decision", seat, word=name)
    if name == "play":
        codes = [str(c) for c in action.args]
        hand = [CODES[c] for c in g.hands[seat]]
        missing = tuple(c for c in codes if c not in hand)
        if missing:
            return NoSuchCard("refusal.qute.not_held", seat, cards=missing)
        if len({c[:-1] for c in codes}) > 1:
            return RuleForbids("refusal.qute.same_rank", seat)
        if len(set(codes)) != len(codes):
            return RuleForbids("refusal.qute.card_twice", seat)
        if g.drew >= 0 and not g.must_cover:
            return RuleForbids("refusal.qute.drawn_fits", seat, card=CODES[g.drew])
        top = CODES[g.stack[-1]] if g.stack else None
        if top is not None and top.startswith("J"):
            return RuleForbids("refusal.qute.jack", seat, card=codes[0], suit=str(g.suit))
        return RuleForbids("refusal.qute.no_fit", seat, card=codes[0], top=str(top))
    if name == "draw":
        if g.plays(seat):
            return RuleForbids("refusal.qute.must_play", seat)
        return WrongPhase("refusal.qute.drawn", seat)
    return WrongPhase("refusal.qute.not_now", seat, action=str(action))
