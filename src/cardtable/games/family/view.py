"""The view of a Cabo-family game: what one seat (or a spectator) may know, nothing more."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias, cast

from .phases import PH_GIVE, PH_LOOKED, PH_OVER, PH_PEEK, PH_POWER, PH_SNAP, PHASES
from .rulesets import POWER_NAMES, SWAP_ANY

if TYPE_CHECKING:
    from ...views import (
        FamilyEvent,
        FamilyRoundResult,
        FamilySlot,
        FamilyView,
        Pending,
        PowerPending,
        SnapWindow,
        ViewTail,
    )
    from .scoring import Adjustment
    from .table import Table

__all__ = ["RoundRecord", "family_view", "round_info"]

RoundRecord: TypeAlias = (
    "tuple[int, list[int], list[int], list[int], int, list[list[int]], list[int], "
    "list[list[Adjustment]], list[int]]"
)
"""A finished round as the engine keeps it: its number, the scores, the hand sums, the
winners, the caller (``-1``: none), every hand (card ids, ``-1``: an empty position), the
totals after it, each seat's steps from sum to score, and the seats whose total was reset."""

_FROM_NAMES: tuple[Literal["deck", "discard"] | None, ...] = (None, "deck", "discard")


def round_info(g: Table, record: RoundRecord) -> FamilyRoundResult:
    """One finished round as views and the ``round_end`` event show it."""
    round_no, scores, sums, winners, caller, hands, totals, steps, reset = record
    codes = g.codes
    return {
        "round": round_no,
        "scores": list(scores),
        "sums": list(sums),
        "adjustments": [[{"reason": a.reason, "points": a.points} for a in s] for s in steps],
        "winners": list(winners),
        "caller": caller if caller >= 0 else None,
        "hands": [[codes[c] if c >= 0 else None for c in h] for h in hands],
        "totals": list(totals),
        "reset": list(reset),
    }


def _card_view(
    g: Table, cid: int, kn: int, bit: int, seen: int | None = None, up: bool = False
) -> FamilySlot | None:
    """One position: the code if ``kn`` lets the viewer ``bit`` see it, and the seats that
    know the card (from ``seen``, else ``kn``); ``up``: the card lies face up."""
    if cid < 0:
        return None
    who = kn if seen is None else seen
    slot: FamilySlot = {
        "card": g.codes[cid] if kn & bit else None,
        "seen": [s for s in range(g.n) if who >> s & 1],
    }
    if up:
        slot["face_up"] = True
    return slot


def family_view(g: Table, seat: int | None, memory: bool = True) -> FamilyView:
    """The view of ``seat`` (``None``: a spectator), built field by field, deny by default;
    ``memory=False``: the table as a person without memory aid sees it (RULES.md, Memory)."""
    bit = g.pub if seat is None else 1 << seat
    codes = g.codes
    ph = g.phase
    over = ph == PH_OVER
    memory = memory or over  # once the game is over every card is shown
    # cabo: a card the whole table saw face up lies face up in the hand (RULES.md, cabo)
    pub = g.pub if g.rs.face_up_in_hand and not over else 0
    if memory:
        hands = [
            [_card_view(g, c, k, bit, None, bool(k & pub)) for c, k in zip(h, kn, strict=True)]
            for h, kn in zip(g.hands, g.known, strict=True)
        ]
    else:
        # Without memory aid no face-down card shows (RULES.md, Memory), except, in gabo,
        # the cards of the seat's initial peek in its own hand until its first draw.
        first = g.first_look[seat] if seat is not None else ()
        hands = [
            [
                _card_view(
                    g, c, k if k & pub or (s == seat and c in first) else 0, bit, k, bool(k & pub)
                )
                for c, k in zip(h, kn, strict=True)
            ]
            for s, (h, kn) in enumerate(zip(g.hands, g.known, strict=True))
        ]
    pending: Pending | None = None
    if ph == PH_POWER:
        power: PowerPending = {"power": POWER_NAMES[g.power], "card": codes[g.power_card]}
        if g.power == SWAP_ANY:
            power["any"] = True
        pending = power
    elif ph == PH_LOOKED and g.looked is not None:
        s0, p0, s1, p1 = g.looked
        pending = {
            "power": "look",
            "card": codes[g.power_card],
            "looked": [f"{s0}.{p0}", f"{s1}.{p1}"],
            "can_exchange": g.look_valid,
        }
    elif ph == PH_GIVE and g.give_to is not None:
        pending = {"give": f"{g.give_to[0]}.{g.give_to[1]}"}
    snap: SnapWindow | None = None
    if ph == PH_SNAP:
        snap = {
            "card": codes[g.snap_card],
            "rank": g.snap_key if isinstance(g.snap_key, str) else str(g.snap_key),
            "passed": [s for s in range(g.n) if g.snap_passed >> s & 1],
        }
    drawn = g.drawn
    return {
        "game": g.variant,
        "seat": seat,
        "players": g.n,
        "phase": PHASES[ph],
        "actors": g.actors,
        "turn": g.turn,
        "first": g.first,
        "hands": hands,
        "discard": [codes[c] for c in g.discard],
        "deck": len(g.deck),
        "reshuffles": g.epoch,
        "drawn": codes[drawn] if drawn >= 0 and g.drawn_known & bit else None,
        "drawer": g.turn if drawn >= 0 else None,
        "drawn_from": _FROM_NAMES[g.drawn_from],
        "call": g.rs.call,
        "caller": g.caller if g.caller >= 0 else None,
        "final_turns_left": g.final_left if g.caller >= 0 else None,
        "pending": pending,
        "snap": snap,
        "peeks_left": list(g.peeks_left) if ph == PH_PEEK else None,
        "turns": g.turns,
        "max_turns": g.max_turns * g.n,
        "target_rule": g.rs.target_reached.name,
        # the game's own round results and events, as the family's view declares them (every
        # view is checked against FamilyView by the conformance tests: validate_view)
        **cast("ViewTail[FamilyRoundResult, FamilyEvent]", g.view_tail(seat, bit, memory)),
    }
