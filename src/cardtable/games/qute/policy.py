"""A fast rule-of-thumb policy for Qute (RULES.md §3), working on a :class:`Table` directly.

It serves twice: as the heuristic player (on a determinized copy of the game) and as the
rollout policy of the tree search, where it runs for every seat at every step of thousands of
simulated games a second. So it reads the engine's state directly and builds no views and, in
the common cases, no action lists. It looks only at what the acting seat may know: its own
hand (and drawn card), the stack, the chosen suit, the cards laid this turn, the other hands'
sizes, the totals, the target, the refills and whether the round ends with this turn.

Playing, every rank that may be laid is a candidate: all of its cards at once (a J also alone,
keeping the others as wildcards), with each possible top card. A candidate starts a *turn
plan*: a 6 must be covered and, with two players, an ace or 8s let the seat move again, so
the plan follows the seat's own best continuation (a few plays deep) until the turn passes.
The hand then kept is scored: going out is best (more so on Js); otherwise fewer cards, fewer
points (weighted by how close the opponents are to going out), Js kept as wildcards, cards
that follow the suit left on top, and a top the next seat is unlikely to follow (judged from
the cards not seen), plus 7s and 8s making it draw and skips. A 6 nothing covers costs several
draws; a run of four that makes calling Qute look good is taken.
"""

from __future__ import annotations

from ...cards import short_deck
from ...notation import Action
from ...rng import Rng
from .table import Table
from .tables import CARD_POINTS, J_POINTS, PH_OVER

__all__ = ["choose"]

_CODES = tuple(short_deck())
_SUITS = "CDHS"
_SUIT_INDEX = {s: i for i, s in enumerate(_SUITS)}
# Rank indices (card id % 9); the suit index is card id // 9.
_SIX, _SEVEN, _EIGHT, _NINE, _TEN, _J, _Q, _K, _A = range(9)
_RANK_POINTS = CARD_POINTS[:9]  # card ids 0..8 are the ranks 6..A of the first suit
_DECK_POINTS = sum(CARD_POINTS)

_DRAW = Action("draw")
_SINGLE = tuple(Action("play", (code,)) for code in _CODES)
_MULTI: dict[tuple[int, ...], Action] = {}
_SUIT_ACTIONS = tuple(Action("suit", (s,)) for s in _SUITS)
_QUTE, _CONTINUE = Action("qute"), Action("continue")
_EIGHTS_ALL, _EIGHTS_NEXT = Action("eights", ("all",)), Action("eights", ("next",))
_J_MINUS, _J_PLUS = Action("jpoints", ("minus",)), Action("jpoints", ("plus",))

# ---------------------------------------------------------------- weights (hand-tuned)
_OUT = 1000.0
"""Going out: the round ends with nothing in hand."""
_OUT_PER_J = 40.0
"""Extra for going out on Js (J points: -20 for you or +20 for the others, per J)."""
_W_LEFT = 10.0
"""Per card left in hand when the turn passes."""
_W_POINTS = 0.3
"""Per point left in hand, times the danger factor."""
_DANGER = (3.0, 3.0, 2.0, 1.5, 1.2, 1.0)
"""Weight of points by the smallest opponent hand (index: cards, capped at 5)."""
_J_FLEX = (0.0, 36.0, 48.0, 54.0, 57.0)
"""Worth of holding this many Js as wildcards (beyond their points)."""
_FOLLOW = (-6.0, 0.0, 3.0, 5.0, 7.0, 8.0)
"""Worth of holding this many cards that follow the suit left on top (Js included)."""
_THREAT = (6.0, 4.5, 3.0, 2.1, 1.6, 1.5)
"""How much hurting a seat is worth, by its hand size (capped at 5)."""
_W_DRAW = 8.0
"""Per card the next seat must draw (7s and 8s), times its threat."""
_W_SKIP = 6.0
"""Per skipped turn of the next seat, times its threat (3+ players)."""
_W_BLOCK = 15.0
"""Worth of a top card the next seat cannot follow, times its threat."""
_AVERAGE_POINTS = _DECK_POINTS / len(_CODES)
"""Points of an unknown card, on average (for the cost of drawing)."""
_SIX_STUCK_DRAWS = 2.5
"""Cards drawn, about, to cover a 6 with nothing in hand that fits."""
_QUTE_VALUE = 600.0
"""Laying the fourth card of a run when calling Qute then looks good."""
_MAX_DEPTH = 3
"""How many of its own follow-up plays (6 covers, moves again) a turn plan looks ahead."""


_SUIT_OF = bytes(c // 9 if c < 36 and c % 9 != _J else 4 for c in range(256))
"""Translation table: card id to its suit index (4 for a J)."""
_RANK_OF = bytes(c % 9 if c < 36 else 9 for c in range(256))
"""Translation table: card id to its rank index."""


def choose(g: Table, seat: int, rng: Rng) -> Action:
    """A good legal action for ``seat`` (which is ``g.turn``, the only actor in Qute).

    Reads only what ``seat`` may know; ``rng`` only breaks exact ties, so the answer is a
    function of the seat's information and the generator's state.
    """
    decision = g.decision
    if decision is None:
        if g.phase == PH_OVER:
            raise ValueError("the game is over: no action to choose")
        return _choose_play(g, seat, rng)
    if decision == "suit":
        return _SUIT_ACTIONS[_best_suit(g, seat, rng)]
    if decision == "qute":
        hand = g.hands[seat]
        points = 0
        for c in hand:
            points += CARD_POINTS[c]
        return _QUTE if _qute_is_good(g, seat, points, len(hand)) else _CONTINUE
    if decision == "eights":
        return _choose_eights(g, seat)
    return _choose_jpoints(g, seat)


_Context = tuple[Table, int, bool, float, float, float, float, int, float, list[int], bytes]
"""Fixed for one call: game, seat, two players?, danger (weight per point in hand), threat of
the next seat, cost of drawing a card, worth of blocking the next seat, its hand size, unseen
cards, unseen cards that fit each suit's J-chosen top, and the seen cards' ranks."""


def _context(g: Table, seat: int) -> _Context:
    """The fixed part of a play or suit decision's evaluation for ``seat``."""
    n = g.n
    hands = g.hands
    nxt = len(hands[(seat + 1) % n])
    fewest = nxt
    if n > 2:
        for s in range(n):
            if s != seat and len(hands[s]) < fewest:
                fewest = len(hands[s])
    danger = _DANGER[fewest if fewest < 5 else 5] * _W_POINTS
    threat = _THREAT[nxt if nxt < 5 else 5]
    # What the seat sees (its hand and the stack); the rest is unseen.
    seen = bytes(hands[seat]) + bytes(g.stack)
    ranks = seen.translate(_RANK_OF)
    suits = seen.translate(_SUIT_OF)
    free = 12 - ranks.count(_J)  # 8 cards of a suit besides its J, and the 4 Js
    fits = [free - suits.count(0), free - suits.count(1), free - suits.count(2)]
    fits.append(free - suits.count(3))
    unseen = len(_CODES) - len(seen)
    return (
        g,
        seat,
        n == 2,
        danger,
        threat,
        _W_LEFT + danger * _AVERAGE_POINTS,
        threat * _W_BLOCK,
        nxt,
        float(unseen if unseen > 0 else 1),
        fits,
        ranks,
    )


# ---------------------------------------------------------------- playing
def _choose_play(g: Table, seat: int, rng: Rng) -> Action:
    hand = g.hands[seat]
    stack = g.stack
    if stack:
        top = stack[-1]
        top_rank = top % 9
        if top_rank == _J:
            chosen = g.suit
            top_suit = _SUIT_INDEX[chosen] if chosen else -1
        else:
            top_suit = top // 9
    else:
        top_rank = top_suit = -1
    # Quick exits: nothing fits (draw), or a single card is the only play.
    fit = 0
    single = -1
    for c in hand:
        r = c % 9
        if r == _J or not stack or c // 9 == top_suit or (r == top_rank and r != _J):
            single = c if not fit else -1
            fit |= 1 << r
    if not fit:
        return _DRAW
    if single >= 0:
        r = single % 9
        for c in hand:
            if c % 9 == r and c != single:
                break
        else:
            return _SINGLE[single]
    run = 0
    if stack:
        i = len(stack) - 1
        while i >= 0 and stack[i] % 9 == top_rank:
            run += 1
            i -= 1
    _, action = _search(hand, top_rank, top_suit, not stack, run, _context(g, seat), rng, 0)
    assert action is not None
    return action


_Hand = tuple[int, int, int, list[int], int, int]
"""What the search needs of a hand: its size, Js and points, its cards of each suit (Js
aside), the ranks that may be laid first (bit r) and the ranks held more than once (bit r)."""


def _search(
    hand: list[int],
    top_rank: int,
    top_suit: int,
    open_stack: bool,
    run: int,
    ctx: _Context,
    rng: Rng | None,
    depth: int,
) -> tuple[float, Action | None]:
    """The best play on the given top: its value (that of the best turn plan it starts) and,
    at the root (``rng`` given), the action. Very low when nothing fits."""
    held = _hand_summary(hand, top_rank, top_suit, open_stack)
    js, fit, many = held[1], held[4], held[5]
    best_value = -1e18
    best: Action | None = None
    ties = 0
    while fit:
        low = fit & -fit
        fit ^= low
        r = low.bit_length() - 1
        if r == _J:
            for k in (1, js) if js > 1 else (1,):
                value = _js_value(k, held, top_rank, run, ctx)
                if value > best_value or (value == best_value and rng and _tie(rng, ties)):
                    ties = 1 if value > best_value else ties + 1
                    best_value = value
                    if rng is not None:
                        best = _js_action(hand, k)
            continue
        group = _rank_group(hand, r, bool(many & low))
        top = (top_rank, top_suit, open_stack, run)
        fitting, values = _group_values(hand, group, r, held, top, ctx, depth)
        for last, value in values:
            if value > best_value or (value == best_value and rng and _tie(rng, ties)):
                ties = 1 if value > best_value else ties + 1
                best_value = value
                if rng is not None:
                    first = fitting
                    if first < 0:
                        first = group[0] if group[0] != last else group[-1]
                    best = _group_action(group, first, last)
    return best_value, best


def _hand_summary(hand: list[int], top_rank: int, top_suit: int, open_stack: bool) -> _Hand:
    """What :func:`_search` needs of ``hand`` on the given top (see :data:`_Hand`)."""
    js = points = 0
    suit_count = [0, 0, 0, 0]  # Js aside
    fit = 0  # bit r set: a card of rank r may be laid first
    many = 0  # bit r set: more than one card of rank r
    seen = 0
    for c in hand:
        r = c % 9
        bit = 1 << r
        if seen & bit:
            many |= bit
        seen |= bit
        points += _RANK_POINTS[r]
        if r == _J:
            js += 1
            fit |= bit
        else:
            s = c // 9
            suit_count[s] += 1
            if open_stack or s == top_suit or r == top_rank:
                fit |= bit
    return len(hand), js, points, suit_count, fit, many


def _js_value(k: int, held: _Hand, top_rank: int, run: int, ctx: _Context) -> float:
    """The value of laying ``k`` of the hand's Js and choosing the best suit to follow them."""
    size, js, points, suit_count, _, _ = held
    left = size - k
    if not left:
        return _OUT + _OUT_PER_J * k
    block, nxt, unseen, suit_fits = ctx[6], ctx[7], ctx[8], ctx[9]
    kept = js - k
    value = -_W_LEFT * left - ctx[3] * (points - J_POINTS * k)
    value += _J_FLEX[kept if kept < 4 else 4]
    top = -1e18
    for s in range(4):  # the suit to choose
        f = suit_count[s] + kept
        v = _FOLLOW[f if f < 5 else 5]
        v += block * (1.0 - suit_fits[s] / unseen) ** nxt
        if v > top:
            top = v
    value += top
    if run + k >= 4 and top_rank == _J:
        qute = _qute_value(points - J_POINTS * k, left, ctx)
        if qute > value:
            value = qute
    return value


def _rank_group(hand: list[int], r: int, several: bool) -> list[int]:
    """The hand's cards of rank ``r`` (sorted when ``several``, else the one)."""
    if several:
        group = [c for c in hand if c % 9 == r]
        group.sort()
        return group
    for c in hand:
        if c % 9 == r:
            break
    return [c]


def _play_bonus(r: int, k: int, chain: bool, threat: float) -> float:
    """What laying ``k`` cards of rank ``r`` does to the next seat (draws and skips); a chain
    (a 6, or an ace or 8 with two players) skips nobody by itself."""
    if chain:
        return _W_DRAW * 2 * k * threat if r == _EIGHT else 0.0
    if r == _SEVEN:
        return _W_DRAW * k * threat
    if r == _EIGHT:
        return (_W_DRAW * 2 * k + _W_SKIP) * threat
    if r == _A:
        return _W_SKIP * threat
    return 0.0


def _group_values(
    hand: list[int],
    group: list[int],
    r: int,
    held: _Hand,
    top: tuple[int, int, bool, int],
    ctx: _Context,
    depth: int,
) -> tuple[int, list[tuple[int, float]]]:
    """Laying ``group`` (the hand's cards of rank ``r``) on ``top`` (rank, suit, open stack?,
    run): the one card that must go first (-1 when any may), and for every card that may end
    on top, the value of the turn plan that starts."""
    top_rank, top_suit, open_stack, run = top
    size, js, points, suit_count, _, _ = held
    two, danger, threat, draw_cost, block, nxt = ctx[2], ctx[3], ctx[4], ctx[5], ctx[6], ctx[7]
    unseen, suit_fits = ctx[8], ctx[9]
    k = len(group)
    left = size - k
    fitting = -1  # the one card of the group that may go first, when it matters
    if k > 1 and not (open_stack or r == top_rank):
        for c in group:
            if c // 9 == top_suit:
                fitting = c
    new_run = run + k if r == top_rank else k
    rest_points = points - _RANK_POINTS[r] * k
    base = -_W_LEFT * left - danger * rest_points + _J_FLEX[js if js < 4 else 4]
    chain = r == _SIX or (two and r in (_A, _EIGHT))
    rest = [c for c in hand if c % 9 != r] if chain and left else []
    # Unseen cards of rank r: with the suit's, what the next seat could follow with.
    rank_fits = 0 if chain else 4 - ctx[10].count(r)
    bonus = _play_bonus(r, k, chain, threat)
    qute = _qute_value(rest_points, left, ctx) if new_run >= 4 and left else -1e18
    values: list[tuple[int, float]] = []
    for last in group:
        if last == fitting:
            continue
        ls = last // 9
        if not left:
            value = _OUT if r != _SIX else -_SIX_STUCK_DRAWS * draw_cost
        else:
            f = suit_count[ls] - 1 + js  # what the rest of the hand holds to follow
            if chain:
                value = -1e18
                if depth < _MAX_DEPTH:
                    value, _ = _search(rest, r, ls, False, new_run, ctx, None, depth + 1)
                if value <= -1e17:  # nothing follows: draw (until the 6 is covered)
                    value = base + _FOLLOW[f if f < 5 else 5]
                    value -= _SIX_STUCK_DRAWS * draw_cost if r == _SIX else draw_cost
                value += bonus
            else:
                value = base + _FOLLOW[f if f < 5 else 5] + bonus
                value += block * (1.0 - (suit_fits[ls] + rank_fits) / unseen) ** nxt
            if qute > value:
                value = qute
        values.append((last, value))
    return fitting, values


def _qute_value(points: int, size: int, ctx: _Context) -> float:
    """Worth of calling Qute holding ``size`` cards worth ``points``, if that looks good;
    else very low."""
    if _qute_is_good(ctx[0], ctx[1], points, size):
        return _QUTE_VALUE - points
    return -1e18


def _tie(rng: Rng, seen: int) -> bool:
    """Reservoir choice among equal values: the (seen+1)-th equal one wins with 1/(seen+1)."""
    return rng.random() * (seen + 1) < 1.0


def _hand_points(hand: list[int]) -> int:
    points = 0
    for c in hand:
        points += CARD_POINTS[c]
    return points


def _group_action(group: list[int], first: int, last: int) -> Action:
    """The canonical play of ``group`` (one rank) laid ``first`` first and ``last`` on top."""
    if len(group) == 1:
        return _SINGLE[first]
    key = (first, *sorted(c for c in group if c != first and c != last), last)
    act = _MULTI.get(key)
    if act is None:
        act = _MULTI[key] = Action("play", tuple(_CODES[c] for c in key))
    return act


def _js_action(hand: list[int], k: int) -> Action:
    """Lay ``k`` Js (the lowest-id one alone, or all of them)."""
    group = sorted(c for c in hand if c % 9 == _J)
    if k == 1:
        return _SINGLE[group[0]]
    return _group_action(group, group[0], group[-1])


# ---------------------------------------------------------------- decisions
def _best_suit(g: Table, seat: int, rng: Rng) -> int:
    """The suit to follow a J: the one the hand follows best (Js aside; points break ties),
    and that the next seat is least likely to hold."""
    count = [0, 0, 0, 0]
    points = [0, 0, 0, 0]
    for c in g.hands[seat]:
        r = c % 9
        if r != _J:
            count[c // 9] += 1
            points[c // 9] += _RANK_POINTS[r]
    _, _, _, _, _, _, block, nxt, unseen, suit_fits, _ = _context(g, seat)
    best = -1e18
    suits: list[int] = []
    for s in range(4):
        f = count[s]
        value = _FOLLOW[f if f < 5 else 5] + 0.01 * points[s]
        value += block * (1.0 - suit_fits[s] / unseen) ** nxt
        if value > best + 1e-9:
            best, suits = value, [s]
        elif value > best - 1e-9:
            suits.append(s)
    return suits[0] if len(suits) == 1 else rng.pick(suits)


def _unseen_average(g: Table, seat: int) -> float:
    """Average points of a card ``seat`` cannot see (not in its hand nor on the stack)."""
    points = _DECK_POINTS
    seen = 0
    for c in g.hands[seat]:
        points -= CARD_POINTS[c]
        seen += 1
    for c in g.stack:
        points -= CARD_POINTS[c]
        seen += 1
    hidden = len(_CODES) - seen
    return points / hidden if hidden > 0 else 0.0


def _qute_is_good(g: Table, seat: int, points: int, size: int) -> bool:
    """Whether ending the round now, holding ``size`` cards worth ``points``, looks good."""
    if size == 0 or points == 0:
        return True
    average = _unseen_average(g, seat)
    fewest = 99
    for s in range(g.n):
        if s != seat:
            k = len(g.hands[s])
            if k < fewest:
                fewest = k
    expected = fewest * average  # the most dangerous opponent's likely points
    if points <= 0.6 * expected:
        return True
    # Behind in the race to go out: settle for a small edge on points.
    return size > fewest and points < expected


def _threat(g: Table, seat: int, other: int) -> float:
    """How close seat ``other`` is to winning, as seen from ``seat``."""
    k = len(g.hands[other])
    value = _THREAT[k if k < 5 else 5]
    if g.target is not None:
        totals = g.totals
        lead = (sum(totals) / len(totals) - totals[other]) / 50.0
        if lead > 0:
            value += lead
    return value


def _choose_eights(g: Table, seat: int) -> Action:
    """``all`` or ``next``: the one that hurts the likely winners most."""
    n = g.n
    eights = sum(1 for c in g.laid if c % 9 == _EIGHT)
    others = [(seat + k) % n for k in range(1, n)]
    threat = {s: _threat(g, seat, s) for s in others}
    ending = g.ending  # public: the round ends after this turn (out, Qute or dead end)
    draw_worth = (0.0, 2.0, 3.5, 4.5, 5.2, 5.8, 6.2, 6.5, 6.7)
    # next: the next seat draws two per 8 and is skipped.
    first = others[0]
    value_next = threat[first] * draw_worth[min(eights, 8)]
    if not ending:
        value_next += threat[first] * 1.5
    # all: round-robin, two cards per 8, each drawer skipped.
    hits = dict.fromkeys(others, 0)
    for i in range(eights):
        hits[others[i % (n - 1)]] += 1
    value_all = 0.0
    for s, h in hits.items():
        if h:
            value_all += threat[s] * draw_worth[min(h, 8)]
            if not ending:
                value_all += threat[s] * 1.5
    return _EIGHTS_ALL if value_all > value_next else _EIGHTS_NEXT


def _choose_jpoints(g: Table, seat: int) -> Action:
    """``plus`` when it surely ends the match with ``seat`` winning, or lands ``seat`` on
    exactly the target (reset to 0); otherwise ``minus``. Never ``plus`` when an opponent with
    no points in hand would land on exactly the target (and be reset to 0)."""
    target = g.target
    if target is None:  # one round: both change the gaps alike
        return _J_MINUS
    js = sum(1 for c in g.laid if c % 9 == _J)
    mult = 1 + g.epoch
    totals = g.totals
    own = _hand_points(g.hands[seat])
    mine_minus = totals[seat] + (own - J_POINTS * js) * mult
    mine_plus = totals[seat] + own * mult
    if mine_plus == target:
        mine_plus = 0
    if mine_minus == target:
        mine_minus = 0
    ends = mine_plus > target
    wins = True
    for s in range(g.n):
        if s == seat:
            continue
        low = totals[s] + J_POINTS * js * mult  # their hidden hand adds 0 or more
        if low == target:
            return _J_MINUS
        if low > target:
            ends = True
        if mine_plus >= low:
            wins = False
    if ends:
        return _J_PLUS if wins else _J_MINUS
    if mine_plus == 0 and mine_minus != 0:
        return _J_PLUS
    return _J_MINUS
