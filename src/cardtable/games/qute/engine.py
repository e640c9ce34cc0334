"""The Qute engine: a Mau-Mau–like shedding game on the 36-card short deck (RULES.md §3).

Cards are ints (index into the short deck). Hands are lists of card ids in arrival order; the
stack is bottom first, top last; the blind (draw pile) has its top at the end of the list.
Every card in a hand carries an origin tag (which shuffle it came from) and the "no-fit"
constraints its holder revealed by drawing, so :meth:`QuteGame.determinize` re-deals hidden
cards consistently with everything a seat can infer.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import TYPE_CHECKING, ClassVar, Literal, NamedTuple, cast

from ...cards import codes_text
from ...errors import IllegalAction
from ...events import (
    Continue,
    DeadEnd,
    Eights,
    GameOver,
    JPoints,
    MaxTurns,
    Play,
    QuteCall,
    QuteDraw,
    QutePenalty,
    QuteRoundEnd,
    QuteRoundStart,
    Refill,
    Skip,
    SuitChosen,
    turn_of,
)
from ...game import TOP_DRAWS, Event, Game
from ...match import Result, lowest
from ...notation import Action, Arg
from ...rng import Rng
from ...variants import int_option, optional_int_option
from ...views import QuteRoundResult, QuteView, Suit, is_qute_view
from . import policy
from .deal import Constraint, constrained_deal
from .deal import breaks as breaks  # re-exported: tests check the inferences with it
from .messages import why_illegal
from .tables import (
    ACE_RANK,
    CARD_POINTS,
    CODES,
    DECISIONS,
    DRAW,
    EIGHT_DRAWS,
    EIGHT_RANK,
    ID_OF,
    J_POINTS,
    J_RANK,
    PH_DECIDE,
    PH_OVER,
    PH_PLAY,
    POINTS,
    RANK_OF,
    RUN,
    SEVEN_RANK,
    SUIT_OF,
    SUIT_ORDER,
    SUITS,
)
from .view import qute_view

if TYPE_CHECKING:
    from ...variants import Options

__all__ = [
    "CARD_POINTS",
    "J_POINTS",
    "PH_OVER",
    "POINTS",
    "QuteGame",
    "QuteOptions",
    "qute_options",
]


class QuteOptions(NamedTuple):
    """The rule options of one Qute game, read once from its resolved options
    (``Game.options``: :func:`qute_options`)."""

    target: int | None
    """The total that ends the match (a total exceeding it); ``None`` for a single round."""
    first: int | None
    """The seat that starts round 1; ``None``: seat 0."""
    max_turns: int
    """Turns (of all seats together) after which a round with no end is stopped."""


def qute_options(options: Options) -> QuteOptions:
    """The typed record of a Qute game's resolved ``options``. ``KeyError`` or ``TypeError``
    for options that :meth:`~cardtable.variants.Variant.resolve_options` did not give."""
    return QuteOptions(
        target=optional_int_option(options, "target"),
        first=optional_int_option(options, "first"),
        max_turns=int_option(options, "max_turns"),
    )


_PLAYS_CACHE: dict[tuple[int, tuple[int, ...]], list[Action]] = {}
_SINGLE = [Action("play", (code,)) for code in CODES]


def _plays_from(first: int, rest: tuple[int, ...]) -> list[Action]:
    """Every canonical play starting with ``first`` and adding any of ``rest`` (same rank):
    the last card is free, the cards in between are laid in suit order."""
    key = (first, rest)
    acts = _PLAYS_CACHE.get(key)
    if acts is None:
        acts = [_SINGLE[first]]
        for last in rest:
            others = [c for c in rest if c != last]
            for k in range(len(others) + 1):
                for middle in itertools.combinations(others, k):
                    codes = (CODES[first], *(CODES[m] for m in middle), CODES[last])
                    acts.append(Action("play", codes))
        _PLAYS_CACHE[key] = acts
    return acts


class QuteGame(Game):
    """A game of Qute: rounds until a total exceeds the target (125), or one round."""

    memory_game = False  # each hand is held face up by its owner

    def __init__(
        self, players: int, seed: int, options: Options, deck: list[str] | None = None
    ) -> None:
        self._init_base("qute", players, seed, options, deck)
        self.n = players
        self.codes = CODES
        rules = qute_options(options)
        self.target: int | None = rules.target
        self.max_turns: int = rules.max_turns
        self._stacked_ids = self._stack(deck) if deck is not None else None
        self.totals = [0] * players
        self.rounds: list[list[int]] = []
        self.round_winners: list[list[int]] = []
        self._round_log: list[QuteRoundResult] = []
        self._result: Result | None = None
        self.round_no = 0
        self._events = []
        first = rules.first
        if first is not None and not 0 <= first < players:
            raise ValueError(f"option 'first' must be a seat from 0 to {players - 1}, got {first}")
        self._start_round(0 if first is None else first)
        self._opened()

    # ------------------------------------------------------------------ setup
    def _stack(self, deck: list[str]) -> list[int]:
        ids: list[int] = []
        for code in deck:
            if not isinstance(code, str) or code not in ID_OF:
                raise ValueError(f"{code!r} is not a card of the qute deck")
            if ID_OF[code] in ids:
                raise ValueError(f"the stacked deck has too many {code!r} cards")
            ids.append(ID_OF[code])
        return ids

    def _start_round(self, first: int) -> None:
        n = self.n
        self.round_no += 1
        stacked = self._stacked_ids if self.round_no == 1 else None
        if stacked is not None:
            taken = set(stacked)
            rest = [c for c in range(len(CODES)) if c not in taken]
            self.random.shuffle_stable(rest)
            order = list(stacked) + rest
        else:
            order = list(range(len(CODES)))
            self.random.shuffle_stable(order)
        self.blind = order[::-1]  # top of the blind is the end of the list
        self.stack: list[int] = []
        self.epoch = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.tags: list[list[int]] = [[] for _ in range(n)]
        self.cons: list[list[tuple[Constraint, ...]]] = [[] for _ in range(n)]
        hands, tags, cons = self.hands, self.tags, self.cons
        for _ in range(5):
            for s in range(n):
                hands[s].append(self._draw_from_blind())
                tags[s].append(0)
                cons[s].append(())
        self.first = first
        self.turns = 0
        self.suit: str | None = None
        self.penalty: list[list[int]] = [[] for _ in range(n)]
        self.emit(QuteRoundStart(self.round_no, first))
        self._begin_turn(first)

    def _give(self, seat: int, cid: int) -> None:
        self.hands[seat].append(cid)
        self.tags[seat].append(self.epoch)
        self.cons[seat].append(())

    def _draw_from_blind(self, decisive: bool = False) -> int:
        """Take the blind's top card, refilling it from the stack first if empty; -1 if none.

        The one place a card leaves the blind: deals, draws and 7/8 draws all come here, taken
        from the game's draw source (:class:`~cardtable.game.DrawSource`). ``decisive`` for
        the card of a ``draw`` action only: whether it fits decides whether the turn goes on.
        """
        if not self.blind and len(self.stack) > 1:
            top = self.stack.pop()
            rest = self.stack
            self.random.shuffle_stable(rest)
            self.blind = rest
            self.stack = [top]
            self.epoch += 1
            self.emit(Refill(len(rest), self.epoch))
        blind = self.blind
        if not blind:
            return -1
        if self.draws is TOP_DRAWS:
            return blind.pop()
        return self.draws.take(self, blind, decisive)

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = PH_PLAY
        self.laid: list[int] = []
        self.drew = -1  # card drawn this turn by a normal draw (visible to the drawer)
        self.must_cover = False
        self.decision: str | None = None
        self.qute_done = False
        self.ending = False
        self.last_js = False
        events = self._events
        if events is not None:  # inlined emit: this runs once per turn
            self._seq += 1
            events.append(Event(self._seq, turn_of(seat)))

    # ------------------------------------------------------------------ queries
    @property
    def actors(self) -> list[int]:
        """Seats that may act now (one at a time in Qute)."""
        return [] if self.phase == PH_OVER else [self.turn]

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.phase == PH_OVER

    def debug_lines(self) -> list[str]:
        """Every field of the state, hidden ones included, a line per part (for debugging and
        OpenSpiel's ``debug_string``; never shown to a player)."""
        g = self
        codes = g.codes
        lines = [
            f"round {g.round_no} phase {g.phase} turn {g.turn} first {g.first} turns {g.turns} "
            f"epoch {g.epoch} suit {g.suit} must_cover {g.must_cover} decision {g.decision} "
            f"ending {g.ending} qute {g.qute_done} last_js {g.last_js}"
        ]
        for s, hand in enumerate(g.hands):
            lines.append(f"hand {s}: {codes_text([codes[c] for c in hand])} tags {g.tags[s]}")
            lines.append(f"cons {s}: {g.cons[s]}")
        lines.append("blind: " + codes_text(sorted(codes[c] for c in g.blind)))
        lines.append("stack: " + codes_text([codes[c] for c in g.stack]))
        lines.append("laid: " + codes_text([codes[c] for c in g.laid]))
        drew = codes[g.drew] if g.drew >= 0 else "-"
        penalty = [[codes[c] for c in p] for p in g.penalty]
        lines.append(f"drew {drew} penalty {penalty} totals {g.totals} rounds {g.rounds}")
        if g.result is not None:
            lines.append(f"result {g.result.to_dict()}")
        return lines

    @property
    def result(self) -> Result | None:
        """Round scores, totals and winners once over."""
        return self._result

    def fits(self, cid: int) -> bool:
        """Whether card ``cid`` may be laid first on the current stack."""
        if not self.stack or RANK_OF[cid] == "J":
            return True
        top = self.stack[-1]
        if RANK_OF[top] == "J":
            return SUIT_OF[cid] == self.suit
        return SUIT_OF[cid] == SUIT_OF[top] or RANK_OF[cid] == RANK_OF[top]

    def _situation(self) -> Constraint:
        top = self.stack[-1]
        if RANK_OF[top] == "J":
            assert self.suit is not None
            return (None, self.suit)
        return (RANK_OF[top], SUIT_OF[top])

    def _fit_test(self) -> tuple[int, int, int]:
        """(mode, rank, suit) of the top: mode 0 empty stack, 1 a J (suit only), 2 plain."""
        stack = self.stack
        if not stack:
            return 0, -1, -1
        top = stack[-1]
        if top % 9 == J_RANK:
            return 1, -1, SUITS.index(self.suit) if self.suit else -1
        return 2, top % 9, top // 9

    def plays(self, seat: int) -> list[Action]:
        """Every card or set of cards ``seat`` may lay now (in its own turn, outside a decision)."""
        hand = self.hands[seat]
        mode, top_rank, top_suit = self._fit_test()
        ranks = [c % 9 for c in hand]
        if len(set(ranks)) == len(ranks):  # the common case: no two cards of one rank
            if mode == 0:
                return [_SINGLE[c] for c in hand]
            if mode == 1:
                return [_SINGLE[c] for c in hand if c % 9 == J_RANK or c // 9 == top_suit]
            return [
                _SINGLE[c]
                for c in hand
                if c % 9 == J_RANK or c // 9 == top_suit or c % 9 == top_rank
            ]
        acts: list[Action] = []
        done: set[int] = set()
        for rank in ranks:
            if rank in done:
                continue
            done.add(rank)
            group = [x for x in hand if x % 9 == rank]
            for f in group:
                if (
                    mode == 0
                    or rank == J_RANK
                    or (f // 9 == top_suit if mode == 1 else f // 9 == top_suit or rank == top_rank)
                ):
                    acts.extend(_plays_from(f, tuple(sorted(x for x in group if x != f))))
        return acts

    def _any_fits(self, seat: int) -> bool:
        mode, top_rank, top_suit = self._fit_test()
        if mode == 0:
            return bool(self.hands[seat])
        for c in self.hands[seat]:
            if c % 9 == J_RANK or c // 9 == top_suit or (mode == 2 and c % 9 == top_rank):
                return True
        return False

    def _may_act(self, seat: int) -> bool:
        return seat == self.turn and self.phase != PH_OVER

    def _is_legal(self, seat: int, action: Action) -> bool:
        """Same answer as ``action in legal_actions(seat)``, without building the list."""
        if self.phase == PH_OVER or seat != self.turn:
            return False
        if self.phase == PH_DECIDE:
            return action in DECISIONS[self.decision or "qute"]
        name, args = action
        if name == "draw":
            return not args and not self._any_fits(seat) and (self.must_cover or self.drew < 0)
        if name != "play":
            return False
        if len(args) == 1:  # the common case
            cid = ID_OF.get(str(args[0]), -1)
            return cid >= 0 and cid in self.hands[seat] and self.fits(cid)
        ids = [ID_OF.get(str(c), -1) for c in args]
        hand = self.hands[seat]
        if -1 in ids or len(set(ids)) != len(ids) or any(c not in hand for c in ids):
            return False
        rank = ids[0] % 9
        if any(c % 9 != rank for c in ids) or ids[1:-1] != sorted(ids[1:-1]):
            return False
        return self.fits(ids[0])

    def _can_draw(self) -> bool:
        return bool(self.blind) or len(self.stack) > 1

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may play now, in canonical form."""
        if self.phase == PH_OVER or seat != self.turn:
            return []
        if self.phase == PH_DECIDE:
            assert self.decision is not None
            return list(DECISIONS[self.decision])
        plays = self.plays(seat)
        if plays:
            return plays
        if self.must_cover or self.drew < 0:  # nothing fits: draw
            return [DRAW]
        return []  # pragma: no cover - a non-fitting draw passes the turn at once

    # ------------------------------------------------------------------ playing
    def _normalize(self, seat: int, action: Action) -> Action:
        """Cards between the first and the last of a play are laid in suit order."""
        if action.name == "play" and len(action.args) > 3:
            middle = sorted(action.args[1:-1], key=lambda c: SUIT_ORDER.get(str(c)[-1], 9))
            return Action("play", (action.args[0], *middle, action.args[-1]))
        return action

    def apply(self, seat: int, action: Action) -> None:
        """Play a legal action without validation (fast path for agents and rollouts)."""
        name = action[0]
        if name == "play":
            self._play(seat, action[1])
        elif name == "draw":
            self._do_draw(seat)
        elif name == "qute":
            if self._events is not None:
                self.emit(QuteCall(seat))
            self.qute_done = True
            self.decision = None
            self._finish_turn(ending=True)
        elif name == "continue":
            if self._events is not None:
                self.emit(Continue(seat))
            self.decision = None
            self._after_qute()
        elif name == "suit":
            self.suit = str(action[1][0])
            if self._events is not None:
                self.emit(SuitChosen(seat, cast("Suit", self.suit)))
            self.decision = None
            self._after_suit()
        elif name == "eights":
            if self._events is not None:
                self.emit(Eights(seat, cast("Literal['all', 'next']", action[1][0])))
            self.decision = None
            self._resolve_effects(all_eights=action[1][0] == "all")
        elif name == "jpoints":
            if self._events is not None:
                self.emit(JPoints(seat, cast("Literal['minus', 'plus']", action[1][0])))
            self.decision = None
            self._end_round(str(action[1][0]))
        else:  # pragma: no cover - only legal actions reach apply
            raise ValueError(f"unknown action {action}")

    def _do_play(self, seat: int, codes: tuple[str, ...]) -> None:
        hand = self.hands[seat]
        for code in codes:
            cid = ID_OF[code]
            i = hand.index(cid)
            del hand[i]
            del self.tags[seat][i]
            del self.cons[seat][i]
            self.stack.append(cid)
            self.laid.append(cid)
        self.must_cover = False
        self.last_js = RANK_OF[self.stack[-1]] == "J"
        if self.last_js:
            self.suit = None  # until chosen for the new J
        events = self._events
        if events is not None:  # inlined emit: this runs for most actions
            self._seq += 1
            events.append(Event(self._seq, Play(seat, tuple(codes), len(hand))))
        # Qute: a run of RUN on top, at least one of them laid this turn.
        stack = self.stack
        if len(stack) >= RUN:
            rank = RANK_OF[stack[-1]]
            run = stack[-RUN:]
            if all(RANK_OF[c] == rank for c in run) and any(c in self.laid for c in run):
                self.phase = PH_DECIDE
                self.decision = "qute"
                return
        self._after_qute()

    _play: ClassVar[Callable[[QuteGame, int, tuple[Arg, ...]], None]] = cast(
        "Callable[[QuteGame, int, tuple[Arg, ...]], None]", _do_play
    )
    """:meth:`_do_play` as :meth:`apply` calls it, with a play's arguments as an action holds
    them: a legal play's arguments are card codes (the notation parses them so), which is all
    ``apply`` is given."""

    def _after_qute(self) -> None:
        self.phase = PH_PLAY
        if self.last_js and self.hands[self.turn]:
            self.phase = PH_DECIDE
            self.decision = "suit"
            return
        self._after_suit()

    def _after_suit(self) -> None:
        self.phase = PH_PLAY
        seat = self.turn
        if RANK_OF[self.stack[-1]] == "6":
            self.must_cover = True
            if not self.plays(seat) and not self._can_draw():
                if self._events is not None:
                    self.emit(DeadEnd(seat))
                self._finish_turn(ending=True)
            return
        self._finish_turn(ending=not self.hands[seat])

    def _do_draw(self, seat: int) -> None:
        situation = self._situation()
        cons = self.cons[seat]
        for i in range(len(cons)):
            if situation not in cons[i]:
                cons[i] = (*cons[i], situation)
        cid = self._draw_from_blind(decisive=True)
        if cid < 0:
            if self._events is not None:
                self.emit(QuteDraw(seat, False))
            if self.must_cover:
                if self._events is not None:
                    self.emit(DeadEnd(seat))
                self._finish_turn(ending=True)
            else:
                self._finish_turn(ending=False)
            return
        self._give(seat, cid)
        self.drew = cid
        if self._events is not None:
            self.emit(QuteDraw(seat, True, CODES[cid]), 1 << seat)
        if self.fits(cid):
            return
        if self.must_cover:
            # Whether this card fits becomes public only with the seat's next move (another
            # draw adds the constraint then), so nothing is recorded yet.
            if not self._can_draw():
                if self._events is not None:
                    self.emit(DeadEnd(seat))
                self._finish_turn(ending=True)
            return
        self.cons[seat][-1] = (situation,)  # the turn passes: everyone sees it did not fit
        self._finish_turn(ending=False)

    def _count(self, rank: str) -> int:
        r = RANK_OF.index(rank)
        return sum(1 for c in self.laid if c % 9 == r)

    def _finish_turn(self, ending: bool) -> None:
        self.ending = ending
        if self.n >= 3 and self.laid and self._count("8") >= 2:
            self.phase = PH_DECIDE
            self.decision = "eights"
            return
        self._resolve_effects(all_eights=False)

    def _penalty_draw(self, seat: int, count: int, reason: Literal["7", "8"]) -> None:
        got = []
        for _ in range(count):
            cid = self._draw_from_blind()
            if cid < 0:
                break
            self._give(seat, cid)
            got.append(cid)
        self.penalty[seat].extend(got)
        if self._events is not None:
            self.emit(QutePenalty(seat, len(got), reason, tuple(CODES[c] for c in got)), 1 << seat)

    def _resolve_effects(self, all_eights: bool) -> None:
        n, s = self.n, self.turn
        if any(self.penalty):
            self.penalty = [[] for _ in range(n)]
        laid = self.laid
        sevens = eights = aces = 0
        if laid:
            rank = laid[-1] % 9  # one rank besides 6s per turn: the last laid
            count = sum(1 for c in laid if c % 9 == rank)
            if rank == SEVEN_RANK:
                sevens = count
            elif rank == EIGHT_RANK:
                eights = count
            elif rank == ACE_RANK:
                aces = count
        nxt = (s + 1) % n
        if sevens:
            self._penalty_draw(nxt, sevens, "7")
        elif eights and all_eights:
            others = [(s + k) % n for k in range(1, n)]
            last = s
            drawers = []
            for i in range(eights):
                last = others[i % (n - 1)]
                self._penalty_draw(last, EIGHT_DRAWS, "8")
                drawers.append(last)
            if self._events is not None:
                self.emit(Skip(tuple(sorted(set(drawers), key=drawers.index)), "8"))
            nxt = (last + 1) % n
        elif eights:
            self._penalty_draw(nxt, EIGHT_DRAWS * eights, "8")
            if self._events is not None:
                self.emit(Skip((nxt,), "8"))
            nxt = (nxt + 1) % n
        elif aces and not self.ending:
            others = [(s + k) % n for k in range(1, n)]
            last = others[(aces - 1) % (n - 1)]
            if self._events is not None:
                self.emit(Skip(tuple(others[i % (n - 1)] for i in range(aces)), "A"))
            nxt = (last + 1) % n
        if self.ending:
            if laid and laid[-1] % 9 == J_RANK:
                self.phase = PH_DECIDE
                self.decision = "jpoints"
                return
            self._end_round(None)
            return
        self.turns += 1
        if self.turns >= self.max_turns:
            self.emit(MaxTurns(self.turns))
            self._end_round(None)
            return
        self._begin_turn(nxt)

    # ------------------------------------------------------------------ scoring
    # ------------------------------------------------------------------ for searches
    SCORE_SCALE = 10.0

    def rule_of_thumb(self, seat: int, rng: Rng) -> Action:
        """The rules of thumb's move (:func:`~cardtable.games.qute.policy.choose`)."""
        return policy.choose(self, seat, rng)

    def sensible(self, seat: int, action: Action) -> bool:
        """Every move a person may slip into except ending a round by a decision (a Qute, the
        J points), which is decided, not slipped."""
        return action.name not in ("qute", "jpoints")

    def seen_key(self, seat: int) -> tuple[int, ...]:
        """The seat's own hand (everything else a seat sees of Qute is public)."""
        return tuple(self.hands[seat])

    def open_world(self, rng: Rng) -> QuteGame:
        """The real deal, the blind shuffled again (its order is what nobody knows)."""
        world = self.clone()
        world.seed_from(rng)
        world.random.shuffle_stable(world.blind)
        return world

    def projected_scores(self) -> list[int]:
        """The points left in hand, times the round's multiplier."""
        mult = 1 + self.epoch
        return [mult * x for x in self.hand_points()]

    def hand_points(self) -> list[int]:
        """Every seat's points in hand, before J points and multiplier (omniscient)."""
        return [sum(map(CARD_POINTS.__getitem__, h)) for h in self.hands]

    def _end_round(self, jmode: str | None) -> None:
        n, s = self.n, self.turn
        hand_points = self.hand_points()
        jpoints = [0] * n
        if jmode is not None:
            js = self._count("J")
            for t in range(n):
                if jmode == "minus" and t == s:
                    jpoints[t] = -J_POINTS * js
                elif jmode == "plus" and t != s:
                    jpoints[t] = J_POINTS * js
        mult = 1 + self.epoch
        scores = [(hand_points[t] + jpoints[t]) * mult for t in range(n)]
        winners = lowest(scores)
        self.rounds.append(scores)
        self.round_winners.append(winners)
        reset: list[int] = []
        target = self.target
        for t in range(n):
            self.totals[t] += scores[t]
            if target is not None and self.totals[t] == target:  # a match only (RULES.md §3)
                self.totals[t] = 0
                reset.append(t)
        info: QuteRoundResult = {
            "round": self.round_no,
            "scores": scores,
            "hand_points": hand_points,
            "jpoints": jpoints,
            "multiplier": mult,
            "winners": winners,
            "finisher": s,
            "qute": self.qute_done,
            "hands": [[CODES[c] for c in h] for h in self.hands],
            "totals": list(self.totals),
            "reset": reset,
        }
        self._round_log.append(info)
        self.emit(QuteRoundEnd(info))
        if target is None or max(self.totals) > target:
            self.phase = PH_OVER
            winners_all = winners if target is None else lowest(self.totals)
            self._result = Result(
                list(self.rounds), list(self.totals), winners_all, list(self.round_winners)
            )
            self.emit(GameOver(self._result.to_dict()))
            return
        high = max(self.totals)
        self._start_round(self.totals.index(high))

    # ------------------------------------------------------------------ views
    @property
    def round_results(self) -> list[QuteRoundResult]:
        """Every finished round: scores, points, multiplier, winners, all hands, totals."""
        return [r.copy() for r in self._round_log]

    def _view(self, seat: int | None, memory: bool = True) -> QuteView:
        return qute_view(self, seat)

    def view(self, seat: int, memory: bool = True) -> QuteView:
        """:meth:`Game.view`, typed: a :class:`~cardtable.views.QuteView` (the same with or
        without ``memory``: hands are held face up by their owners)."""
        view = super().view(seat, memory)
        assert is_qute_view(view)
        return view

    def spectator_view(self, memory: bool = True) -> QuteView:
        """:meth:`Game.spectator_view`, typed: a :class:`~cardtable.views.QuteView`."""
        view = super().spectator_view(memory)
        assert is_qute_view(view)
        return view

    # ------------------------------------------------------------------ copies
    def _copy_state(self, d: dict[str, object]) -> None:
        d["hands"] = [list(h) for h in self.hands]
        d["tags"] = [list(t) for t in self.tags]
        d["cons"] = [list(c) for c in self.cons]
        d["penalty"] = [list(p) for p in self.penalty]
        d["blind"] = list(self.blind)
        d["stack"] = list(self.stack)
        d["laid"] = list(self.laid)

    def card_at(self, owner: int, pos: int) -> str | None:
        """The true code of the card at ``owner``'s position ``pos`` (``None`` if there is
        none): for training labels and tests, never for players."""
        hand = self.hands[owner]
        return CODES[hand[pos]] if 0 <= pos < len(hand) else None

    def determinize(
        self,
        seat: int,
        rng: Random | int,
        weights: Mapping[tuple[int, int], Sequence[float]] | None = None,
    ) -> QuteGame:
        """A copy where every card ``seat`` cannot see is re-dealt, consistent with inferences.

        Other hands and the blind are re-dealt among places of the same origin (initial
        shuffle or a given refill), and a card a seat was seen to lack when it drew (it had
        nothing that fitted) is never dealt to it. ``weights`` is not used: Qute's inferences
        are hard constraints, already respected.
        """
        g, rng = self.world_for(seat, rng)
        groups: dict[int, list[tuple[int, int]]] = {}
        for s in range(self.n):
            if s == seat or self.phase == PH_OVER:  # at the end every hand is shown
                continue
            for i, tag in enumerate(g.tags[s]):
                groups.setdefault(tag, []).append((s, i))
        if g.blind and self.phase != PH_OVER:
            groups.setdefault(g.epoch, []).extend((-1, i) for i in range(len(g.blind)))
        # A seat that drew a fitting card and has not yet played it is known to hold a card
        # that fits: the drawn card is always the last of its hand at that moment.
        must_fit = None
        hand = self.hands[self.turn]
        if self.phase == PH_PLAY and not self.must_cover and self.drew in hand:
            must_fit = (self.turn, hand.index(self.drew))
        moved: dict[int, int] = {}
        for places in groups.values():
            cards = [g.blind[i] if s < 0 else g.hands[s][i] for s, i in places]
            limits = [() if s < 0 else g.cons[s][i] for s, i in places]
            fit = [p == must_fit for p in places]
            # sorted: the deal must not depend on where the hidden cards really are
            assigned = constrained_deal(sorted(cards), limits, fit, g.fits, rng)
            for (s, i), old, c in zip(places, cards, assigned, strict=True):
                moved[old] = c
                if s < 0:
                    g.blind[i] = c
                else:
                    g.hands[s][i] = c
        g.penalty = [[moved.get(c, c) for c in pen] for pen in g.penalty]
        if g.drew >= 0:
            g.drew = moved.get(g.drew, g.drew)
        g.seed_from(rng)
        return g

    def _all_cards(self) -> list[int]:
        """Every card id in play (hands, blind, stack), for conservation checks."""
        return [c for h in self.hands for c in h] + list(self.blind) + list(self.stack)

    def _dump(self) -> dict[str, object]:
        """The complete state, hidden cards included (tests and debugging only)."""
        skip = (
            "codes",
            "_rng",
            "_rng_state",
            "_recent",
            "_opening",
            "_history",
            "_redacted_history",
            "_events",
            "_actions",
        )
        return {k: v for k, v in self.__dict__.items() if k not in skip} | {
            "rng": self.random.getstate()
        }

    # ------------------------------------------------------------------ messages
    def _why_illegal(self, seat: int, action: Action) -> IllegalAction:
        """The refusal, a catalog message that names only public facts and the seat's own hand."""
        return why_illegal(self, seat, action)
