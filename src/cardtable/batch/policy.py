"""The rules of thumb of :mod:`cardtable.games.family.policy` over a whole batch, as array
code: for every game, the move its actor's rules of thumb choose, as an integer action.

Each rule reads only what the actor knows (its knowledge of every hand, the piles, the card in
its hand) and computes the same numbers in the same order as the reference, so the choice is
the reference's own. Two cases leave the reference's choice aside: where it names a position
beyond the encoding's cap (it has no integer; the first legal integer is played instead), and
the reference's last resort, a random legal action, which here is drawn from ``rng``.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..games.family.phases import (
    FROM_DISCARD,
    PH_DRAWN,
    PH_GIVE,
    PH_LOOKED,
    PH_PEEK,
    PH_POWER,
    PH_SNAP,
    PH_TURN,
    PHASES,
)
from ..games.family.policy import _POWER_VALUE, _TAKE_MARGIN
from ..games.family.rulesets import LOOK, PEEK, SPY, SWAP, SWAP_ANY
from .agents import random_actions
from .family import (
    K_CALL,
    K_CLAIM,
    K_DISCARD,
    K_DRAW_DECK,
    K_DRAW_PILE,
    K_DROP,
    K_EXCH_LOOKED,
    K_EXCHANGE,
    K_GIVE,
    K_LOOK,
    K_PASS,
    K_PEEK,
    K_REPLACE,
    K_SPY,
    BoolArray,
    FamilyBatch,
)

if TYPE_CHECKING:
    from .chance import IntArray

__all__ = ["RowTables", "rules_of_thumb"]

FloatArray = npt.NDArray[np.float64]
"""A float64 array (the estimates, computed as the reference computes them)."""
_BIG = 1e9


class RowTables:
    """The integer of every action the rules of thumb may choose, by its parts (``-1``: the
    encoding has no row for it)."""

    def __init__(self, batch: FamilyBatch) -> None:
        n, cap = batch.n, batch.cap
        kind, p1, k1, k2, p2 = batch.r_kind, batch.r_p1, batch.r_k1, batch.r_k2, batch.r_p2

        def one(k: int) -> int:
            rows = np.nonzero(kind == k)[0]
            return int(rows[0]) if len(rows) else -1

        self.draw_deck, self.draw_pile, self.call = one(K_DRAW_DECK), one(K_DRAW_PILE), one(K_CALL)
        self.discard, self.pass_, self.exchange_looked = (
            one(K_DISCARD),
            one(K_PASS),
            one(K_EXCH_LOOKED),
        )
        self.peek = np.full(cap + 1, -1, dtype=np.int64)
        self.replace = np.full(cap + 1, -1, dtype=np.int64)
        self.give = np.full(cap + 1, -1, dtype=np.int64)
        self.drop_own = np.full(cap + 1, -1, dtype=np.int64)
        self.spy = np.full((n, cap + 1), -1, dtype=np.int64)
        self.drop_other = np.full((n, cap + 1), -1, dtype=np.int64)
        self.exchange = np.full((cap + 1, n, cap + 1), -1, dtype=np.int64)
        self.look = np.full((cap + 1, n, cap + 1), -1, dtype=np.int64)
        self.claim = np.full(1 << cap, -1, dtype=np.int64)
        self.power_value = np.zeros(6, dtype=np.float64)
        """What each power kind is worth against keeping a better card (the reference's)."""
        for power, worth in _POWER_VALUE.items():
            self.power_value[power] = worth
        for r in range(len(kind)):
            k = int(kind[r])
            if k == K_PEEK:
                self.peek[p1[r]] = r
            elif k == K_REPLACE:
                self.replace[p1[r]] = r
            elif k == K_GIVE:
                self.give[p1[r]] = r
            elif k == K_DROP and k1[r] == 0:
                self.drop_own[p1[r]] = r
            elif k == K_DROP:
                self.drop_other[k1[r], p1[r]] = r
            elif k == K_SPY:
                self.spy[k2[r], p2[r]] = r
            elif k == K_EXCHANGE and k1[r] == 0:
                self.exchange[p1[r], k2[r], p2[r]] = r
            elif k == K_LOOK:
                self.look[p1[r], k2[r], p2[r]] = r
            elif k == K_CLAIM:
                bits = sum(1 << int(p) for p in batch.r_claim[r] if p >= 0)
                self.claim[bits] = r


_TABLES: weakref.WeakKeyDictionary[FamilyBatch, RowTables] = weakref.WeakKeyDictionary()


def _tables(batch: FamilyBatch) -> RowTables:
    """The row tables of ``batch``, made once per batch."""
    tables = _TABLES.get(batch)
    if tables is None:
        tables = _TABLES[batch] = RowTables(batch)
    return tables


def _capped(index: IntArray, cap: int) -> IntArray:
    """A position as a table index: ``cap`` (no row) for one beyond the cap or none."""
    return np.where((index >= 0) & (index < cap), index, cap)


def rules_of_thumb(batch: FamilyBatch, rng: np.random.Generator) -> IntArray:
    """``[N]``: the integer action each game's actor plays under the rules of thumb."""
    b, n, cap, rs = batch.size, batch.n, batch.cap, batch.rs
    rows = np.arange(b)
    t = _tables(batch)
    seat = batch.actor
    vals = batch.value
    hands = batch.hands
    present = hands >= 0
    knows = present & (((batch.known >> seat[:, None, None]) & 1) != 0)
    unknown = present & ~knows
    card_val = np.where(present, vals[np.maximum(hands, 0)], 0)
    # -- the estimates (the reference's Estimates, number for number)
    total, count = int(vals.sum()), len(vals)
    pile_in = batch.pile >= 0
    seen_sum = np.where(pile_in, vals[np.maximum(batch.pile, 0)], 0).sum(axis=1)
    seen = batch.pile_n.copy()
    drawn_known = (batch.drawn >= 0) & (((batch.drawn_known >> seat) & 1) != 0)
    seen_sum = seen_sum + np.where(drawn_known, vals[np.maximum(batch.drawn, 0)], 0)
    seen = seen + drawn_known
    known_sums = np.where(knows, card_val, 0).sum(axis=2)  # [N, seats]
    unknown_n = unknown.sum(axis=2)
    seen_sum = seen_sum + known_sums.sum(axis=1)
    seen = seen + knows.sum(axis=(1, 2))
    rest = count - seen
    mean: FloatArray = np.where(rest > 0, (total - seen_sum) / np.maximum(rest, 1), 0.0)
    sums = known_sums + mean[:, None] * unknown_n
    own_known = knows[rows, seat]  # [N, positions]
    own_present = present[rows, seat]
    own_val = card_val[rows, seat]
    # _worst_own: the highest estimate among own cards, the first of equals
    est_own = np.where(own_known, own_val.astype(np.float64), (mean + 0.5)[:, None])
    est_own = np.where(own_present, est_own, -np.inf)
    mine = np.argmax(est_own, axis=1)
    has_own = own_present.any(axis=1)
    mine = np.where(has_own, mine, -1)
    worst = np.where(has_own, est_own[rows, np.maximum(mine, 0)], -_BIG)
    # _best_other: the lowest estimate among the other seats' cards, in seat then position order
    est_all = np.where(knows, card_val.astype(np.float64), mean[:, None, None])
    est_all = np.where(present, est_all, np.inf)
    est_all[rows, seat] = np.inf
    flat = est_all.reshape(b, -1)
    best = np.argmin(flat, axis=1)
    low = flat[rows, best]
    has_other = np.isfinite(low)
    other_s = np.where(has_other, best // batch.P, -1)
    other_i = np.where(has_other, best % batch.P, -1)
    low = np.where(has_other, low, _BIG)
    rel_other = (other_s - seat) % n

    act = np.full(b, -1, dtype=np.int64)
    todo = np.ones(b, dtype=bool)

    def choose(where: BoolArray, value: IntArray | int) -> None:
        nonlocal todo
        pick = where & todo
        act[pick] = value if isinstance(value, int) else value[pick]
        todo &= ~pick

    ph = batch.phase
    # first peeks: the lowest own card not yet known (the first legal peek)
    first_unknown = np.argmax(own_present & ~own_known, axis=1)
    choose(ph == PH_PEEK, t.peek[_capped(first_unknown, cap)])
    # a snap window: a sure match worth shedding, else pass
    key = batch.key
    own_key = key[np.maximum(hands[rows, seat], 0)]
    positive = own_known & (own_val > 0)
    snap_hit = positive & (own_key == key[np.maximum(batch.snap_card, 0)][:, None])
    snap_i = np.where(snap_hit.any(axis=1), np.argmax(snap_hit, axis=1), -1)
    snapping = ph == PH_SNAP
    choose(snapping & (snap_i >= 0), t.drop_own[_capped(snap_i, cap)])
    choose(snapping, t.pass_)
    # drops against the pile (cabo-german), in the phases that take them
    droppable = np.zeros(b, dtype=bool)
    for name in rs.drops.pile_phases:
        droppable |= ph == PHASES.index(name)
    if droppable.any():
        has_pile = batch.pile_n > 0
        top = batch.pile[rows, np.maximum(batch.pile_n - 1, 0)]
        top_key = key[np.maximum(top, 0)]
        own_hit = positive & (own_key == top_key[:, None])
        own_i = np.where(own_hit.any(axis=1), np.argmax(own_hit, axis=1), -1)
        go = droppable & has_pile
        choose(go & (own_i >= 0), t.drop_own[_capped(own_i, cap)])
        other_hit = knows & (key[np.maximum(hands, 0)] == top_key[:, None, None])
        other_hit &= worst[:, None, None] >= card_val
        other_hit[rows, seat] = False
        flat_hit = other_hit.reshape(b, -1)
        any_hit = flat_hit.any(axis=1) & has_own
        where_hit = np.argmax(flat_hit, axis=1)
        hs, hi = where_hit // batch.P, where_hit % batch.P
        choose(go & any_hit, t.drop_other[(hs - seat) % n, _capped(hi, cap)])
    # the turn's start
    turn = ph == PH_TURN
    mine_call = sums[rows, seat] + 1.5 * unknown_n[rows, seat]
    others_sum = sums.copy()
    others_sum[rows, seat] = np.inf
    margin = 3.0 if rs.scoring.penalises_caller else 1.0
    should_call = (mine_call <= rs.call_threshold) & (mine_call + margin <= others_sum.min(axis=1))
    choose(turn & (batch.caller < 0) & should_call, t.call)
    deck_ok = batch.can_draw_deck()
    top_val = vals[np.maximum(batch.pile[rows, np.maximum(batch.pile_n - 1, 0)], 0)]
    take = (batch.pile_n > 0) & has_own & ((top_val + _TAKE_MARGIN <= worst) | ~deck_ok)
    choose(turn & take, t.draw_pile)
    choose(turn & deck_ok, t.draw_deck)
    choose(turn & (batch.caller < 0), t.call)
    # the card in hand
    drawn = ph == PH_DRAWN
    dv = vals[np.maximum(batch.drawn, 0)]
    gain = worst - dv
    if rs.drops.claims:
        claim_bits, save = _claims(vals, own_val, own_known, dv, cap)
        claim_row = np.where(claim_bits > 0, t.claim[np.maximum(claim_bits, 0)], -1)
        choose(drawn & (claim_bits != 0) & (save > gain), claim_row)
    from_pile = drawn & (batch.drawn_from == FROM_DISCARD)
    choose(from_pile & (mine >= 0), t.replace[_capped(mine, cap)])
    choose(from_pile, t.discard)
    keep = t.power_value[batch.power_of[np.maximum(batch.drawn, 0)]]
    choose(drawn & (mine >= 0) & (gain > 0.5) & (gain > keep), t.replace[_capped(mine, cap)])
    choose(drawn, t.discard)
    # a power to use
    power = ph == PH_POWER
    pw = batch.power
    must = batch.must_use
    own_unknown = own_present & ~own_known
    peek_i = np.where(own_unknown.any(axis=1), np.argmax(own_unknown, axis=1), -1)
    choose(power & (pw == PEEK) & (peek_i >= 0), t.peek[_capped(peek_i, cap)])
    # spy: the seats by estimated sum (then number), the first with an unknown card
    spying = power & (pw == SPY)
    if spying.any():
        order = np.lexsort((np.broadcast_to(np.arange(n), (b, n)), sums), axis=1)
        has_unknown = unknown.any(axis=2)
        has_unknown[rows, seat] = False
        ranked = has_unknown[rows[:, None], order]
        pick = np.argmax(ranked, axis=1)
        spy_s = order[rows, pick]
        spy_ok = ranked.any(axis=1)
        spy_i = np.argmax(unknown[rows, spy_s], axis=1)
        choose(spying & spy_ok, t.spy[(spy_s - seat) % n, _capped(spy_i, cap)])
    both = (mine >= 0) & (other_s >= 0)
    mine_c, other_c = _capped(mine, cap), _capped(other_i, cap)
    choose(power & (pw == LOOK) & both, t.look[mine_c, rel_other, other_c])
    swapping = power & ((pw == SWAP) | (pw == SWAP_ANY)) & both & (worst - low >= 2.0)
    choose(swapping, t.exchange[mine_c, rel_other, other_c])
    choose(power & ~must[pw], t.pass_)
    # a power that must be used and was not: the reference's first legal action, the power's
    # first offer in its own order (own positions, then the others' in seat order), or pass
    first_own = _capped(np.where(has_own, np.argmax(own_present, axis=1), -1), cap)
    others_present = present.copy()
    others_present[rows, seat] = False
    flat_present = others_present.reshape(b, -1)
    has_o = flat_present.any(axis=1)
    first_o = np.argmax(flat_present, axis=1)
    fs, fi = (first_o // batch.P - seat) % n, _capped(first_o % batch.P, cap)
    forced = power & todo
    choose(forced & (pw == PEEK) & has_own, t.peek[first_own])
    choose(forced & (pw == SPY) & has_o, t.spy[fs, fi])
    choose(forced & (pw == LOOK) & has_own & has_o, t.look[first_own, fs, fi])
    # the looked-at cards: exchange when the other's is lower
    looking = ph == PH_LOOKED
    lk = np.maximum(batch.looked, 0)
    theirs = vals[np.maximum(hands[rows, lk[:, 2], lk[:, 3]], 0)]
    ours = vals[np.maximum(hands[rows, lk[:, 0], lk[:, 1]], 0)]
    valid = batch.look_valid & (batch.looked[:, 0] >= 0)
    choose(looking & valid & (theirs < ours), t.exchange_looked)
    choose(looking, t.pass_)
    # giving a card for the one dropped: the worst own card
    giving = ph == PH_GIVE
    choose(giving & (mine >= 0), t.give[_capped(mine, cap)])
    choose(giving, t.pass_)
    # what is left: the first legal action where a power must be used (its offer is empty:
    # pass), the turn's last resort (a random legal action), and the first legal action in
    # place of a choice without an integer (a position beyond the cap)
    mask = batch.legal_mask()
    first_legal = np.argmax(mask, axis=1)
    choose(power, first_legal)
    if todo.any():
        choose(todo, random_actions(mask, rng))
    act = np.where(act < 0, first_legal, act)
    return act


def _claims(
    vals: IntArray, own_val: IntArray, own_known: BoolArray, dv: IntArray, cap: int
) -> tuple[IntArray, FloatArray]:
    """Cabo's best sure claim (known equal cards): its positions as bits and what it saves."""
    b = len(dv)
    best_bits = np.zeros(b, dtype=np.int64)
    best_save = np.zeros(b, dtype=np.float64)
    best_first = np.full(b, 1 << 30, dtype=np.int64)
    positions = own_val.shape[1]
    idx = np.arange(positions)
    for v in np.unique(vals).tolist():
        same = own_known & (own_val == v)
        rank = np.cumsum(same, axis=1)
        chosen = same & (rank <= 4) & (idx[None, :] < cap)
        size = np.minimum(same.sum(axis=1), 4)
        first = np.where(same.any(axis=1), np.argmax(same, axis=1), 1 << 30)
        save = (v * size - dv).astype(np.float64)
        # the reference walks the values in order of first appearance: a later group wins
        # only with a strictly larger saving
        better = (size >= 2) & (
            (save > best_save) | ((save == best_save) & (first < best_first) & (save > 0))
        )
        bits = (chosen * (1 << np.minimum(idx, 62))).sum(axis=1)
        full = (same & (rank <= 4)).sum(axis=1) == (chosen.sum(axis=1))
        bits = np.where(full, bits, -1)
        best_bits = np.where(better, bits, best_bits)
        best_save = np.where(better, save, best_save)
        best_first = np.where(better, first, best_first)
    return best_bits, best_save
