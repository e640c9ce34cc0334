"""What a seat (or a spectator) sees of a Qute game: :func:`qute_view` builds the
:class:`~cardtable.views.QuteView` that :meth:`QuteGame.view` returns."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ...views import QuteView
from .tables import CODES, PH_OVER, PH_PLAY, RANK_OF

if TYPE_CHECKING:
    from .table import Table

__all__ = ["qute_view", "top_run"]

_PHASE_NAMES = ("play", "decide", "over")
"""Phase names as they appear in views, indexed by the engine's phase number (``cover`` is
``play`` while a 6 on top must be covered)."""


def top_run(stack: list[int]) -> list[int]:
    """The run of equal ranks on top of ``stack`` (card ids, bottom first); empty if none."""
    if not stack:
        return []
    rank = RANK_OF[stack[-1]]
    k = 1
    while k < len(stack) and RANK_OF[stack[-1 - k]] == rank:
        k += 1
    return stack[-k:]


def qute_view(g: Table, seat: int | None) -> QuteView:
    """The view of ``seat`` (``None``: a spectator), built field by field, deny by default.

    Hands are held face up by their owners: there is nothing to remember, so the view is the
    same with or without memory aid.
    """
    bit = (1 << g.n) if seat is None else 1 << seat
    phase = _PHASE_NAMES[g.phase]
    if g.phase == PH_PLAY and g.must_cover:
        phase = "cover"
    over = g.phase == PH_OVER
    hands = [
        [{"card": CODES[c] if (s == seat or over) else None} for c in h]
        for s, h in enumerate(g.hands)
    ]
    run = top_run(g.stack)
    # The one place the view's dict is built; its shape is checked against QuteView by the
    # conformance tests (cardtable.views.validate_view).
    return cast(
        "QuteView",
        {
            "game": "qute",
            "seat": seat,
            "players": g.n,
            "phase": phase,
            "actors": g.actors,
            "turn": g.turn,
            "first": g.first,
            "hand": [CODES[c] for c in g.hands[seat]] if seat is not None else None,
            "hands": hands,
            "counts": [len(h) for h in g.hands],
            "stack": [CODES[c] for c in g.stack],
            "top": CODES[g.stack[-1]] if g.stack else None,
            "suit": g.suit if g.stack and RANK_OF[g.stack[-1]] == "J" else None,
            "run": {"rank": RANK_OF[run[-1]] if run else None, "cards": [CODES[c] for c in run]},
            "blind": len(g.blind),
            "refills": g.epoch,
            "multiplier": 1 + g.epoch,
            "laid": [CODES[c] for c in g.laid],
            "drawn": CODES[g.drew] if seat == g.turn and g.drew >= 0 else None,
            "penalty_drawn": [CODES[c] for c in g.penalty[seat]] if seat is not None else [],
            "penalty_counts": [len(p) for p in g.penalty],
            "must_cover": g.must_cover,
            "pending": g.decision,
            "turns": g.turns,
            "max_turns": g.max_turns,
            **g.view_tail(seat, bit),
        },
    )
