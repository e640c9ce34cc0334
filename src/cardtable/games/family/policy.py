"""Rules of thumb for the Cabo family, read from a game's state as one seat knows it.

:func:`choose` is the heart of the ``heuristic`` agent (run on a determinized copy, see
:mod:`.heuristic`) and the rollout policy of the ISMCTS search (run for every seat of a
simulated deal). It sees cards only through the engine's knowledge API
(:meth:`Table.knowledge`: the cards the acting seat knows); every other card is valued
at the mean of the cards that seat has not seen.
"""

from __future__ import annotations

from typing import cast

from ...notation import Action, sort_addresses
from ...rng import Rng
from .phases import (
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
from .rulesets import LOOK, PEEK, SPY, SWAP, SWAP_ANY
from .table import EMPTY, UNKNOWN, Table

__all__ = ["Estimates", "call_threshold", "choose", "estimates", "sane"]

_PASS = Action("pass")
_EXCHANGE = Action("exchange")
_DRAW_DECK = Action("draw", ("deck",))
_DRAW_DISCARD = Action("draw", ("discard",))
_DISCARD = Action("discard")
_DECK_TOTALS: dict[str, tuple[object, tuple[int, int]]] = {}

# How far below its worst card a visible discard must be before the seat takes it.
_TAKE_MARGIN = 2.5
# How much a power is worth compared with keeping a slightly better card (points).
_POWER_VALUE: dict[int, float] = {PEEK: 1.5, SPY: 1.0, SWAP: 2.0, LOOK: 2.5, SWAP_ANY: 2.0}


def call_threshold(g: Table) -> float:
    """The estimated hand sum at or below which a seat considers calling the end (the rule
    set's ``call_threshold``: 9 by default, 5 in gabo, 7 in kaboo)."""
    return g.rs.call_threshold


class Estimates:
    """What one seat believes about every hand: expected sums and unknown cards."""

    __slots__ = ("cards", "mean", "sums", "unknown")

    def __init__(
        self, mean: float, sums: list[float], unknown: list[int], cards: list[list[int]]
    ) -> None:
        self.mean = mean
        """Mean value of the cards the seat has not seen."""
        self.sums = sums
        """Per seat: the estimated hand sum (known values, unknown cards at the mean)."""
        self.unknown = unknown
        """Per seat: how many of its cards the seat does not know."""
        self.cards = cards
        """The seat's knowledge of every hand (:meth:`Table.knowledge`)."""


def estimates(g: Table, seat: int) -> Estimates:
    """Hand sums as ``seat`` sees them (unknown cards at the mean of its unseen cards)."""
    vals = g.values
    entry = _DECK_TOTALS.get(g.rs.name)
    if entry is None or entry[0] is not g.rs:  # a name taken again by another rule set
        entry = _DECK_TOTALS[g.rs.name] = (g.rs, (sum(vals), len(vals)))
    total, count = entry[1]
    seen_sum = sum(map(vals.__getitem__, g.discard))
    seen = len(g.discard)
    drawn = g.drawn_for(seat)
    if drawn >= 0:
        seen_sum += vals[drawn]
        seen += 1
    known_sums: list[int] = []
    unknown: list[int] = []
    cards = g.knowledge(seat)
    for hand in cards:
        ks = 0
        u = 0
        for c in hand:
            if c >= 0:
                ks += vals[c]
            elif c == UNKNOWN:
                u += 1
        known_sums.append(ks)
        unknown.append(u)
        seen_sum += ks
        seen += len(hand) - u
    empty = sum(h.count(EMPTY) for h in cards)
    seen -= empty
    rest = count - seen
    mean = (total - seen_sum) / rest if rest > 0 else 0.0
    sums = [k + mean * u for k, u in zip(known_sums, unknown, strict=True)]
    return Estimates(mean, sums, unknown, cards)


def _worst_own(est: Estimates, seat: int, g: Table) -> tuple[int, float]:
    """Own position with the highest estimated value (unknown cards slightly preferred:
    replacing them also tells the seat what it holds)."""
    best_i, best_v = -1, -1e9
    vals = g.values
    unknown = est.mean + 0.5
    for i, c in enumerate(est.cards[seat]):
        if c == EMPTY:
            continue
        v = vals[c] if c >= 0 else unknown
        if v > best_v:
            best_i, best_v = i, v
    return best_i, best_v


def _best_other(est: Estimates, seat: int, g: Table) -> tuple[int, int, float]:
    """The other seats' card with the lowest estimated value (seat, position, value)."""
    bs, bi, bv = -1, -1, 1e9
    vals = g.values
    mean = est.mean
    for s in range(g.n):
        if s == seat:
            continue
        for i, c in enumerate(est.cards[s]):
            if c != EMPTY:
                v = vals[c] if c >= 0 else mean
                if v < bv:
                    bs, bi, bv = s, i, v
    return bs, bi, bv


def _should_call(g: Table, seat: int, est: Estimates) -> bool:
    mine = est.sums[seat] + 1.5 * est.unknown[seat]  # unknown cards are a risk
    others = min(est.sums[s] for s in range(g.n) if s != seat)
    if mine > call_threshold(g):
        return False
    margin = 3.0 if g.rs.scoring.penalises_caller else 1.0
    return mine + margin <= others


def _drop(g: Table, seat: int, est: Estimates) -> Action | None:
    """cabo-german: a sure drop (a known card matching the discard pile's top), if good."""
    if not g.discard:
        return None
    key = g.keys[g.discard[-1]]
    own = _sure_match(g, est.cards[seat], key)
    if own >= 0:
        return Action("drop", (own,))
    keys, vals = g.keys, g.values
    i, give = _worst_own(est, seat, g)
    if i < 0:
        return None
    for s in range(g.n):
        if s == seat:
            continue
        for i, c in enumerate(est.cards[s]):
            if c >= 0 and keys[c] == key and give >= vals[c]:
                return Action("drop", ((s, i),))
    return None


def choose(g: Table, seat: int, rng: Rng) -> Action:
    """A sensible legal action for ``seat``, using only what ``seat`` knows."""
    ph = g.phase
    if ph == PH_PEEK:
        return g.legal_actions(seat)[0]
    if ph == PH_SNAP:
        return _snap(g, g.knowledge(seat)[seat])
    est = estimates(g, seat)
    if g.rs.drops.allowed_in(PHASES[ph]):  # against the pile: a snap window was answered above
        act = _drop(g, seat, est)
        if act is not None:
            return act
    if ph == PH_TURN:
        return _turn(g, seat, est, rng)
    if ph == PH_DRAWN:
        return _drawn(g, seat, est)
    if ph == PH_POWER:
        return _power(g, seat, est, rng)
    if ph == PH_LOOKED:
        if g.look_valid and g.looked is not None:
            s0, p0, s1, p1 = g.looked
            if g.values[g.hands[s1][p1]] < g.values[g.hands[s0][p0]]:
                return _EXCHANGE
        return _PASS
    if ph == PH_GIVE:
        i, _ = _worst_own(est, seat, g)
        return Action("give", (i,)) if i >= 0 else _PASS
    return rng.pick(g.legal_actions(seat))  # pragma: no cover - no other phase has actors


def _turn(g: Table, seat: int, est: Estimates, rng: Rng) -> Action:
    if g.caller < 0 and _should_call(g, seat, est):
        return Action(g.rs.call)
    deck_ok = g.rs.deck_end.can_draw(g)
    if g.discard and any(c >= 0 for c in g.hands[seat]):
        top = g.values[g.discard[-1]]
        _, worst = _worst_own(est, seat, g)
        if top + _TAKE_MARGIN <= worst or not deck_ok:
            return _DRAW_DISCARD
    if deck_ok:
        return _DRAW_DECK
    if g.caller < 0:
        return Action(g.rs.call)
    return rng.pick(g.legal_actions(seat))


def _claim(g: Table, own: list[int], drawn_value: int) -> tuple[tuple[int, ...], float]:
    """cabo: the best sure multi-claim (known equal cards) and the points it saves."""
    vals = g.values
    groups: dict[int, list[int]] = {}
    for i, c in enumerate(own):
        if c >= 0:
            groups.setdefault(vals[c], []).append(i)
    best: tuple[int, ...] = ()
    gain = 0.0
    for v, pos in groups.items():
        if len(pos) >= 2:
            claim = tuple(pos[:4])
            save = v * len(claim) - drawn_value
            if save > gain:
                best, gain = claim, save
    return best, gain


def _drawn(g: Table, seat: int, est: Estimates) -> Action:
    cid = g.drawn
    dv = g.values[cid]
    i, worst = _worst_own(est, seat, g)
    gain = worst - dv
    if g.rs.drops.claims:
        claim, save = _claim(g, est.cards[seat], dv)
        if claim and save > gain:
            return Action("replace", claim)
    if g.drawn_from == FROM_DISCARD:
        return Action("replace", (i,)) if i >= 0 else _DISCARD
    power = g.powers_of[cid]
    keep = _POWER_VALUE.get(power, 0.0) if power else 0.0
    if i >= 0 and gain > 0.5 and gain > keep:
        return Action("replace", (i,))
    return _DISCARD


def _power(g: Table, seat: int, est: Estimates, rng: Rng) -> Action:
    power = g.power
    optional = power not in g.rs.must_use
    if power == PEEK:
        for i, c in enumerate(est.cards[seat]):
            if c == UNKNOWN:
                return Action("peek", (i,))
        return _PASS if optional else _first(g, seat)
    if power == SPY:
        order = sorted((est.sums[s], s) for s in range(g.n) if s != seat)
        for _, s in order:
            for i, c in enumerate(est.cards[s]):
                if c == UNKNOWN:
                    return Action("spy", ((s, i),))
        return _PASS if optional else _first(g, seat)
    mine, worst = _worst_own(est, seat, g)
    s, j, low = _best_other(est, seat, g)
    if power == LOOK:
        if mine >= 0 and s >= 0:
            return Action("look", (mine, (s, j)))
        return _PASS if optional else _first(g, seat)
    if mine >= 0 and s >= 0 and worst - low >= 2.0:
        if power == SWAP:
            return Action("exchange", (mine, (s, j)))
        if power == SWAP_ANY:
            return Action("exchange", sort_addresses((mine, (s, j))))
    return _PASS if optional else _first(g, seat)


def _first(g: Table, seat: int) -> Action:
    return g.legal_actions(seat)[0]


def _sure_match(g: Table, own: list[int], key: object) -> int:
    """A position of ``own`` (the seat's knowledge of its hand) whose known card matches
    ``key`` and is worth shedding (a positive value), or -1."""
    keys, vals = g.keys, g.values
    for i, c in enumerate(own):
        if c >= 0 and keys[c] == key and vals[c] > 0:
            return i
    return -1


def _snap(g: Table, own: list[int]) -> Action:
    i = _sure_match(g, own, g.snap_key)
    return Action("drop", (i,)) if i >= 0 else _PASS


def sane(g: Table, seat: int, action: Action) -> bool:
    """Whether a person who knows what ``seat`` knows might play the legal ``action`` without
    it being absurd: no call with a hand it knows to be bad, no taking from the pile a card
    worse than every card it holds, no swapping a known low card for an unknown or a higher
    one, no throwing a known low card away for a worse drawn card, no drop or snap of a card
    not known to match, no giving away a known low card."""
    est = estimates(g, seat)
    vals = g.values
    cards = est.cards

    def known(s: int, p: int) -> int | None:
        c = cards[s][p]
        return vals[c] if c >= 0 else None

    name, args = action.name, action.args
    if name == g.rs.call:
        return est.sums[seat] + est.unknown[seat] <= call_threshold(g) + 2
    if name == "draw" and args == ("discard",) and g.discard and not g.rs.pile_draw_free:
        # the pile's card must replace one of the seat's: absurd if it is worse than every
        # card the seat holds (unknown ones valued like an average card)
        held = max(
            (v if (v := known(seat, p)) is not None else est.mean)
            for p in range(len(g.hands[seat]))
            if g.hands[seat][p] >= 0
        )
        return vals[g.discard[-1]] < held
    if name in ("drop", "give") and not args:
        return True
    if name == "drop":
        return False  # only sure drops, and those the rules of thumb already play
    if name == "replace":
        if len(args) > 1:
            return False  # a claim that is not sure costs cards
        mine = known(seat, cast(int, args[0]))
        # throwing a known low card away for a worse one is absurd; for a better one, or a
        # high card for a slightly worse one, it is just a move
        return g.drawn < 0 or mine is None or mine > est.mean or mine >= vals[g.drawn]
    if name == "discard":
        worst = max(
            (v for p in range(len(g.hands[seat])) if (v := known(seat, p)) is not None),
            default=None,
        )
        return g.drawn < 0 or worst is None or vals[g.drawn] > worst - 5
    if name == "give":
        mine = known(seat, cast(int, args[0]))
        return mine is None or mine > est.mean
    if name == "exchange" and args:
        (s0, p0), (s1, p1) = (_addr(seat, a) for a in args)
        if s1 == seat:
            (s0, p0), (s1, p1) = (s1, p1), (s0, p0)
        if s0 != seat:
            return True  # two other seats' cards (gabo): no loss of the seat's own
        mine, theirs = known(s0, p0), known(s1, p1)
        if mine is None:
            return True
        return mine > (theirs if theirs is not None else est.mean)
    if name == "exchange" and g.power == LOOK and g.looked is not None:
        s0, p0, s1, p1 = g.looked
        mine, theirs = known(s0, p0), known(s1, p1)
        return mine is None or theirs is None or mine > theirs
    return True


def _addr(seat: int, a: object) -> tuple[int, int]:
    """An action's address as ``(owner, position)``: a bare position is ``seat``'s own."""
    if isinstance(a, int):
        return (seat, a)
    owner, pos = cast(tuple[int, int], a)
    return (owner, pos)
