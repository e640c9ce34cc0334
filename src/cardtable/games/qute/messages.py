"""Why a Qute action is refused: :func:`why_illegal`, in plain words that mention only public
facts and the seat's own hand (what :meth:`Game.check` puts in :class:`IllegalAction`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import IllegalAction, NoSuchCard, RuleForbids, WrongPhase
from ...notation import Action
from .tables import CODES, DECISIONS, PH_DECIDE

if TYPE_CHECKING:
    from .table import Table

__all__ = ["why_illegal"]


def why_illegal(g: Table, seat: int, action: Action) -> IllegalAction:
    """A plain-words reason that mentions only public facts and the seat's own hand."""
    name = action.name
    if g.phase == PH_DECIDE:
        words = " or ".join(f"'{a}'" for a in DECISIONS[g.decision or "qute"])
        return WrongPhase(f"first decide: {words}")
    if name in ("qute", "continue", "suit", "eights", "jpoints"):
        return WrongPhase(f"there is no '{name}' decision to take now")
    if name == "play":
        codes = [str(c) for c in action.args]
        hand = [CODES[c] for c in g.hands[seat]]
        missing = [c for c in codes if c not in hand]
        if missing:
            return NoSuchCard(f"you do not hold {', '.join(missing)}")
        if len({c[:-1] for c in codes}) > 1:
            return RuleForbids("all cards of one play must have the same rank")
        if len(set(codes)) != len(codes):
            return RuleForbids("a card is named twice")
        if g.drew >= 0 and not g.must_cover:
            return RuleForbids(f"the card you drew ({CODES[g.drew]}) fits and must be played first")
        top = CODES[g.stack[-1]] if g.stack else None
        if top is not None and top.startswith("J"):
            return RuleForbids(f"{codes[0]} does not fit: on a J only {g.suit} or another J")
        return RuleForbids(f"{codes[0]} does not fit on {top}")
    if name == "draw":
        if g.plays(seat):
            return RuleForbids("you hold a card that fits, so you must play")
        return WrongPhase("you have already drawn this turn")
    return WrongPhase(f"'{action}' is not a qute action now")
