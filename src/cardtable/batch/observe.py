"""Observation vectors of a whole batch: for each game, the vector
:meth:`cardtable.encoding.Encoding.observe` makes of one seat's view, built from the arrays.

``memory=True`` is the seat's perfect-memory view (``view(p)``); ``memory=False`` the table
as a person without memory aid sees it (``view(p, memory=False)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..games.family.phases import PH_GIVE, PH_LOOKED, PH_OVER, PH_PEEK, PH_POWER, PH_SNAP
from ..games.family.rulesets import LOOK, PEEK, SPY, SWAP, SWAP_ANY

if TYPE_CHECKING:
    from .chance import IntArray
    from .family import FamilyBatch

__all__ = ["observe"]

_PENDING_OF_POWER = np.full(6, -1, dtype=np.int64)
for _power, _slot in ((PEEK, 0), (SPY, 1), (SWAP, 2), (LOOK, 3), (SWAP_ANY, 4)):
    _PENDING_OF_POWER[_power] = _slot
_GIVE_SLOT, _CAN_EXCHANGE = 5, 6


def _code_of(batch: FamilyBatch) -> IntArray:
    """The one-hot index of each card id (its code's place among the distinct codes)."""
    index = batch.encoding.code_index
    return np.array([index[c] for c in batch.rs.deck], dtype=np.int64)


def observe(
    batch: FamilyBatch, seats: IntArray | None = None, memory: bool = True
) -> npt.NDArray[np.float32]:
    """``[N, observation size]``: each game's observation for ``seats[i]`` (default: each
    game's actor), exactly as the encoding observes that seat's view."""
    enc = batch.encoding
    b, n, cap = batch.size, batch.n, batch.cap
    p = batch.actor if seats is None else np.asarray(seats, dtype=np.int64)
    code_of = _code_of(batch)
    c = len(enc.codes)
    out = np.zeros((b, enc.observation_size), dtype=np.float32)
    piece = {x.name: (x.start, x.size) for x in enc.observation_pieces()}
    rows = np.arange(b)
    rel_abs = batch.relative(p)  # column k: the seat k after p

    def put(name: str, cols: IntArray, values: npt.ArrayLike = 1.0, games: IntArray = rows) -> None:
        out[games, piece[name][0] + cols] = values

    ph = batch.phase
    put("phase", ph)
    put("turn", (batch.turn - p) % n)
    # actors: the phase says who may act
    actors = np.zeros((b, n), dtype=bool)
    actors[rows, batch.turn] = (ph != PH_PEEK) & (ph != PH_SNAP) & (ph != PH_OVER)
    peek = ph == PH_PEEK
    actors[peek] = batch.peeks_left[peek] > 0
    snap = ph == PH_SNAP
    actors[snap] = ((batch.snap_passed[snap, None] >> np.arange(n)) & 1) == 0
    start = piece["actors"][0]
    out[:, start : start + n] = actors[rows[:, None], rel_abs]
    # cards
    hands = batch.hands[rows[:, None], rel_abs]  # [N, seats (relative), positions]
    known = batch.known[rows[:, None], rel_abs]
    present = hands >= 0
    bit = (1 << p)[:, None, None]
    if memory:
        shown = known
    else:
        face = batch.pub if batch.rs.face_up_in_hand else 0
        up = (known & face) != 0
        up &= (ph != PH_OVER)[:, None, None]
        own = np.zeros(hands.shape, dtype=bool)
        own[:, 0] = batch.first_look[rows[:, None], p[:, None], np.maximum(hands[:, 0], 0)]
        own[:, 0] &= present[:, 0]
        over = (ph == PH_OVER)[:, None, None]
        shown = np.where(up | own | over, known, 0)
    visible = present & ((shown & bit) != 0)
    width = 4 + c + n
    start = piece["cards"][0]
    cards = out[:, start : start + n * cap * width].reshape(b, n, cap, width)
    pres, vis, held = present[:, :, :cap], visible[:, :, :cap], hands[:, :, :cap]
    cards[..., 0] = pres
    cards[..., 1] = vis
    cards[..., 2] = np.where(vis, batch.value[np.maximum(held, 0)] / 10, 0)
    g, r, i = np.nonzero(vis)
    cards[g, r, i, 4 + code_of[held[g, r, i]]] = 1
    kn = known[:, :, :cap]
    for t in range(n):
        cards[..., 4 + c + t] = pres & (((kn >> rel_abs[:, t, None, None]) & 1) != 0)
    looking = np.nonzero((ph == PH_LOOKED) & (batch.looked[:, 0] >= 0))[0]
    for half in (0, 2):
        s_abs, pos = batch.looked[looking, half], batch.looked[looking, half + 1]
        s_rel = (s_abs - p[looking]) % n
        ok = (pos < cap) & (batch.hands[looking, s_abs, pos] >= 0)
        cards[looking[ok], s_rel[ok], pos[ok], 3] = 1
    start = piece["beyond"][0]
    out[:, start : start + n] = present[:, :, cap:].sum(axis=2)
    # the piles
    has_pile = batch.pile_n > 0
    gp = rows[has_pile]
    put("discard_top", code_of[batch.pile[gp, batch.pile_n[gp] - 1]], 1.0, gp)
    start = piece["discard"][0]
    pile = batch.pile
    in_pile = pile >= 0
    counts = np.zeros((b, c), dtype=np.float32)
    np.add.at(counts, (np.nonzero(in_pile)[0], code_of[pile[in_pile]]), 1)
    out[:, start : start + c] = counts
    start = piece["deck"][0]
    out[:, start] = batch.deck_n / len(batch.rs.deck)
    out[:, start + 1] = batch.epoch
    # the card in hand
    start = piece["drawn"][0]
    holding = batch.drawn >= 0
    out[:, start] = holding
    out[:, start + 1] = holding & (batch.drawn_from == 1)
    out[:, start + 2] = holding & (batch.drawn_from == 2)
    sees = holding & ((batch.drawn_known >> p) & 1 != 0)
    gd = rows[sees]
    out[gd, start + 3 + code_of[batch.drawn[gd]]] = 1
    # the call
    called = rows[batch.caller >= 0]
    put("caller", (batch.caller[called] - p[called]) % n, 1.0, called)
    put("caller", np.full(len(called), n), batch.final_left[called], called)
    # what is pending
    power = rows[ph == PH_POWER]
    put("pending", _PENDING_OF_POWER[batch.power[power]], 1.0, power)
    put("pending", np.full(len(looking), 3), 1.0, looking)
    put("pending", np.full(len(looking), _CAN_EXCHANGE), batch.look_valid[looking], looking)
    giving = rows[(ph == PH_GIVE) & (batch.give_to[:, 0] >= 0)]
    put("pending", np.full(len(giving), _GIVE_SLOT), 1.0, giving)
    # the snap window
    snapping = rows[snap]
    put("snap", code_of[batch.snap_card[snapping]], 1.0, snapping)
    start = piece["snap"][0]
    passed = ((batch.snap_passed[:, None] >> rel_abs) & 1) != 0
    out[snapping, start + c : start + c + n] = passed[snapping]
    # the rest
    peeking = rows[peek]
    put(
        "peeks_left",
        np.zeros(len(peeking), dtype=np.int64),
        batch.peeks_left[peeking, p[peeking]],
        peeking,
    )
    start = piece["totals"][0]
    out[:, start : start + n] = batch.totals[rows[:, None], rel_abs] / 100
    start = piece["progress"][0]
    out[:, start] = batch.round_no
    out[:, start + 1] = batch.turns / max(1, batch.max_turns)
    return out
