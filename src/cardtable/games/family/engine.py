"""One engine for the whole Cabo family, driven by a :class:`RuleSet`.

State is kept compact for fast copying: card ids are ints (index into the rule set's deck),
an empty position is ``-1``, and what each seat knows about each position is a bit mask
(bit ``s`` = seat ``s`` knows the card; bit ``n`` = the card has been face up, so spectators
know it too). Knowledge masks and origin tags move with the cards.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from random import Random
from typing import TYPE_CHECKING, ClassVar, Literal, TypeAlias, TypeVar, cast

from ...errors import IllegalAction
from ...events import (
    Call,
    Claim,
    Discard,
    Exchange,
    FamilyDraw,
    FamilyRoundEnd,
    FamilyRoundStart,
    GameOver,
    Look,
    Pass,
    Peek,
    Replace,
    Reshuffle,
    SnapOpen,
    Spy,
    at,
    turn_of,
)
from ...game import TOP_DRAWS, Game
from ...match import Result, lowest
from ...notation import Action, Address, Arg, sort_addresses
from ...rng import Rng
from ...views.schema import is_family_view
from . import drops, phases, policy
from .phases import (
    FROM_DECK,
    FROM_DISCARD,
    FROM_NONE,
    MAX_CLAIM,
    PH_DRAWN,
    PH_GIVE,
    PH_LOOKED,
    PH_OVER,
    PH_PEEK,
    PH_POWER,
    PH_SNAP,
    PH_TURN,
    PHASE_TABLE,
    PHASES,
)
from .rulesets import POWER_NAMES, RuleSet, family_options
from .scoring import RoundEnd, explain
from .table import EMPTY, UNKNOWN
from .view import RoundRecord, family_view, round_info
from .worlds import debug_lines, redeal

if TYPE_CHECKING:
    from ...variants import Options
    from ...views import FamilyRoundResult, FamilyView

__all__ = [
    "EMPTY",
    "FROM_DECK",
    "FROM_DISCARD",
    "FROM_NONE",
    "MAX_CLAIM",
    "PHASES",
    "PH_DRAWN",
    "PH_GIVE",
    "PH_LOOKED",
    "PH_OVER",
    "PH_PEEK",
    "PH_POWER",
    "PH_SNAP",
    "PH_TURN",
    "UNKNOWN",
    "FamilyGame",
    "add_call_word",
    "forget_rule_set",
]


_RANGES = [tuple(range(k)) for k in range(64)]
_NORMAL: dict[tuple[int, Action], Action] = {}
"""Canonical form of each (seat, action) met (actions are few and immutable)."""


_Tables = tuple[tuple[int, ...], tuple[Hashable, ...], tuple[int, ...]]
_TABLES: dict[str, tuple[RuleSet, _Tables]] = {}


def _tables(rs: RuleSet) -> _Tables:
    """Values, match keys and powers by card id, computed once per rule set."""
    entry = _TABLES.get(rs.name)
    if entry is None or entry[0] is not rs:
        add_call_word(rs.call)
        tables = (
            tuple(rs.value(c) for c in rs.deck),
            tuple(rs.match_key(c) for c in rs.deck),
            tuple(rs.power_of(c) for c in rs.deck),
        )
        entry = _TABLES[rs.name] = (rs, tables)
    return entry[1]


def add_call_word(word: str) -> None:
    """Teach the engine a call word: it is offered and dispatched like every call.

    Done by :func:`cardtable.games.family.add_variant` (and for any rule set a game is built
    with). ``ValueError`` if ``word`` already names another kind of action.
    """
    FamilyGame.add_call_word(word)


def forget_rule_set(rs: RuleSet) -> None:
    """Drop what the engine computed for ``rs`` (its rule set was unregistered)."""
    entry = _TABLES.get(rs.name)
    if entry is not None and entry[0] is rs:
        del _TABLES[rs.name]


_Handler: TypeAlias = "Callable[[FamilyGame, int, tuple[Arg, ...]], None]"
"""What the engine's dispatch table holds: the handler of an action word, given the game, the
acting seat and the action's arguments."""

_Args = TypeVar("_Args", bound="tuple[Arg, ...]")


def _handler(handle: Callable[[FamilyGame, int, _Args], None]) -> _Handler:
    """``handle`` as the dispatch table holds it. Each handler declares the arguments of its
    word's actions (``peek N``: ``tuple[int]``; ``spy P.N``: ``tuple[tuple[int, int]]``), and
    :meth:`FamilyGame.apply` is given legal actions only, whose arguments have exactly that
    shape: the notation parses each word's arguments so and the phase table offers them so."""
    return cast("_Handler", handle)


class FamilyGame(Game):
    """A game (one round or a whole match) of a Cabo-family variant."""

    rs: RuleSet
    """The variant's rule set."""

    def __init__(
        self,
        rs: RuleSet,
        players: int,
        seed: int,
        options: Options,
        deck: list[str] | None = None,
    ) -> None:
        self._init_base(rs.name, players, seed, options, deck)
        self.rs = rs
        self.n = n = players
        self.allmask = (1 << n) - 1
        self.pub = 1 << n
        self.codes = rs.deck
        self.values, self.keys, self.powers_of = _tables(rs)
        self._moves = phases.moves_of(rs)
        self._by_word = phases.moves_by_word(rs)
        rules = family_options(options, rs)
        self.target = rules.target
        self.max_turns = rules.max_turns
        self.caller_penalty = rules.caller_penalty
        self.reset_at_target = rules.reset_at_exact_target
        self._stacked_ids = self._stack(deck) if deck is not None else None
        self.totals = [0] * n
        self.rounds: list[list[int]] = []
        self.round_winners: list[list[int]] = []
        self._round_log: list[RoundRecord] = []
        self.resets_used = 0
        self._result: Result | None = None
        self.round_no = 0
        self._events = []
        first = rules.first
        if first is not None and not 0 <= first < n:
            raise ValueError(f"option 'first' must be a seat from 0 to {n - 1}, got {first}")
        if first is None:
            first = self.random.below(n) if rs.random_first else 0
        self._start_round(first)
        self._opened()

    # ------------------------------------------------------------------ setup
    def _stack(self, deck: list[str]) -> list[int]:
        free: dict[str, list[int]] = {}
        for cid, code in enumerate(self.codes):
            free.setdefault(code, []).append(cid)
        ids = []
        for code in deck:
            if not isinstance(code, str) or code not in free:
                raise ValueError(f"{code!r} is not a card of the {self.rs.name} deck")
            if not free[code]:
                raise ValueError(f"the stacked deck has too many {code!r} cards")
            ids.append(free[code].pop(0))
        return ids

    def _start_round(self, first: int) -> None:
        n = self.n
        self.round_no += 1
        stacked = self._stacked_ids if self.round_no == 1 else None
        if stacked is not None:
            taken = set(stacked)
            rest = [c for c in range(len(self.codes)) if c not in taken]
            self.random.shuffle_stable(rest)
            order = list(stacked) + rest
        else:
            order = list(range(len(self.codes)))
            self.random.shuffle_stable(order)
        # Every card leaves the deck through draw_from_deck, the deal included.
        self.deck = order[::-1]  # top of the deck is the end of the list
        self.discard = []
        size = self.rs.hand_size
        hands = [[-1] * size for _ in range(n)]
        self.hands = hands
        for pos in range(size):
            for s in range(n):
                hands[s][pos] = self.draw_from_deck()
        self.known = [[0] * size for _ in range(n)]
        self.tags = [[0] * size for _ in range(n)]
        if self.rs.discard_starts:
            self.discard.append(self.draw_from_deck())
        self.epoch = 0
        self.drawn = -1
        self.drawn_from = FROM_NONE
        self.drawn_known = 0
        self.drawn_tag = 0
        self.first = first
        self.turn = first
        self.caller = -1
        self.final_left = 0
        self.turns = 0
        self.power = 0
        self.power_card = -1
        self.looked: tuple[int, int, int, int] | None = None
        self.look_valid = False
        self.give_to: tuple[int, int] | None = None
        self.resume = PH_TURN
        self.snap_key: Hashable | None = None
        self.snap_card = -1
        self.snap_passed = 0
        self.first_look: list[tuple[int, ...]] = [()] * n
        self.emit(
            FamilyRoundStart(self.round_no, first, tuple(self.codes[c] for c in self.discard))
        )
        if self.rs.auto_peek:
            self.peeks_left = [0] * n
            for s in range(n):
                for pos in self.rs.auto_peek:
                    self.known[s][pos] |= 1 << s
                    self.emit(Peek(s, at(s, pos), self.codes[hands[s][pos]]), 1 << s)
            self._begin_turn(first)
        elif self.rs.initial_peeks:
            self.peeks_left = [self.rs.initial_peeks] * n
            self.phase = PH_PEEK
        else:
            self.peeks_left = [0] * n
            self._begin_turn(first)

    # ------------------------------------------------------------------ queries
    @property
    def actors(self) -> list[int]:
        """Seats that may act now (the phase table says who acts in each phase)."""
        return PHASE_TABLE[self.phase].actors(self)

    def _may_act(self, seat: int) -> bool:
        ph = self.phase
        if ph in (PH_PEEK, PH_SNAP, PH_OVER):
            return seat in PHASE_TABLE[ph].actors(self)
        return seat == self.turn

    @property
    def over(self) -> bool:
        """True once the match has ended."""
        return self.phase == PH_OVER

    def timed_window(self) -> str | None:
        """``"peek"`` during the initial peeks, ``"snap"`` while a snap window is open."""
        if self.phase == PH_PEEK:
            return "peek"
        if self.phase == PH_SNAP:
            return "snap"
        return None

    def debug_lines(self) -> list[str]:
        """Every field of the state, hidden ones included, a line per part (for debugging and
        OpenSpiel's ``debug_string``; never shown to a player)."""
        return debug_lines(self)

    @property
    def result(self) -> Result | None:
        """Round scores, totals and winners once over."""
        return self._result

    # ------------------------------------------------------------------ knowledge
    def knowledge(self, seat: int) -> list[list[int]]:
        """What ``seat`` knows of every hand: per seat, per position, the card id if ``seat``
        knows it, :data:`UNKNOWN` for a face-down card it does not, :data:`EMPTY` for no card.
        A fresh snapshot (changing it changes nothing); the read-only way agents see cards."""
        bit = 1 << seat
        return [
            [c if c < 0 or k & bit else UNKNOWN for c, k in zip(h, kn, strict=True)]
            for h, kn in zip(self.hands, self.known, strict=True)
        ]

    def knows(self, seat: int, owner: int, pos: int) -> bool:
        """Whether ``seat`` knows the card at ``owner``'s position ``pos`` (False if none)."""
        hand = self.hands[owner]
        return 0 <= pos < len(hand) and hand[pos] >= 0 and bool(self.known[owner][pos] >> seat & 1)

    def card_at(self, owner: int, pos: int) -> str | None:
        """The true code of the card at ``owner``'s position ``pos``, known or not (``None``
        if there is none): for training labels and tests, never for players."""
        hand = self.hands[owner]
        cid = hand[pos] if 0 <= pos < len(hand) else EMPTY
        return self.codes[cid] if cid >= 0 else None

    def drawn_for(self, seat: int) -> int:
        """The card in hand as ``seat`` knows it: its id, :data:`UNKNOWN`, or :data:`EMPTY`."""
        if self.drawn < 0:
            return EMPTY
        return self.drawn if self.drawn_known >> seat & 1 else UNKNOWN

    def forget(self, seat: int, owner: int, pos: int) -> None:
        """Make ``seat`` no longer know the card at ``owner``'s position ``pos``: for the
        memory models of people-like agents, on a copy from :meth:`determinize` only."""
        self.known[owner][pos] &= ~(1 << seat)

    def occupied(self, seat: int) -> tuple[int, ...]:
        """Positions of ``seat`` that hold a card."""
        h = self.hands[seat]
        if -1 not in h:
            return _RANGES[len(h)]
        return tuple(i for i, c in enumerate(h) if c >= 0)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may play now, in canonical form (the open moves of the phase
        table, :mod:`cardtable.games.family.phases`)."""
        if not self._may_act(seat):
            return []
        return phases.legal_actions(self, seat, self._moves[self.phase])

    def _is_legal(self, seat: int, action: Action) -> bool:
        """Look the action up among the offers of its own move in the phase table."""
        for move in self._by_word[self.phase].get(action[0], ()):
            if move.fits is None or move.fits(action):
                offer = move.offer(self, seat)
                if not isinstance(offer, phases.Closed) and action in offer:
                    return True
        return False

    def _why_illegal(self, seat: int, action: Action) -> IllegalAction:
        """The refusal, a catalog message that names only public facts, from the phase table."""
        return phases.refusal(self, seat, action)

    # ------------------------------------------------------------------ playing
    def _normalize(self, seat: int, action: Action) -> Action:
        """Write ``P.N`` addresses of the acting seat itself as plain ``N``."""
        args = action[1]
        if not args:
            return action
        key = (seat, action)
        canon = _NORMAL.get(key)
        if canon is None:
            canon = action
            if any(isinstance(a, tuple) for a in args):
                own = tuple(a[1] if isinstance(a, tuple) and a[0] == seat else a for a in args)
                if action.name == "exchange":
                    own = sort_addresses(own)  # type: ignore[arg-type]
                canon = Action(action.name, own)
            if len(_NORMAL) > 100_000:
                _NORMAL.clear()
            _NORMAL[key] = canon
        return canon

    def apply(self, seat: int, action: Action) -> None:
        """Play a legal action without validation (fast path for agents and rollouts)."""
        self._handlers[action[0]](self, seat, action[1])

    def _do_peek(self, seat: int, args: tuple[int]) -> None:
        pos = args[0]
        self.known[seat][pos] |= 1 << seat
        if self.phase == PH_PEEK and self.rs.peek_shown_until_draw:
            self.first_look[seat] += (self.hands[seat][pos],)
        if self._events is not None:
            self.emit(Peek(seat, at(seat, pos), self.codes[self.hands[seat][pos]]), 1 << seat)
        if self.phase == PH_PEEK:
            self.peeks_left[seat] -= 1
            if not any(self.peeks_left):
                self._begin_turn(self.first)
        else:
            self._power_done()

    def _do_draw(self, seat: int, args: tuple[Literal["deck", "discard"]]) -> None:
        if args[0] == "deck":
            cid = self.draw_from_deck()
            self.drawn_from = FROM_DECK
            self.drawn_known = self.allmask | self.pub if self.rs.drawn_public else 1 << seat
            self.drawn_tag = self.epoch
        else:
            cid = self.discard.pop()
            self.drawn_from = FROM_DISCARD
            self.drawn_known = self.allmask | self.pub
            self.drawn_tag = self.epoch
        self.drawn = cid
        self.phase = PH_DRAWN
        if self.first_look[seat]:
            self.first_look[seat] = ()
        if self._events is not None:
            self.emit(FamilyDraw(seat, args[0], self.codes[cid]), self.drawn_known)

    def draw_from_deck(self) -> int:
        """Take the deck's top card (reshuffling first where the rules say so); -1 if none.

        The one place a card leaves the deck: deals, draws and penalties all come here.
        """
        deck = self.deck
        if not deck:
            self.rs.deck_end.refill(self)
            deck = self.deck
        if not deck:
            return -1
        draws = self.draws
        if draws is TOP_DRAWS:
            return deck.pop()
        # the identity of a card drawn never changes what else the action does
        return draws.take(self, deck, False)

    def reshuffle(self) -> None:
        """Shuffle the discard pile but its top card into a new deck, from the seed (nothing if
        the pile has fewer than two cards); a rule set's deck end calls it."""
        if len(self.discard) < 2:
            return
        top = self.discard.pop()
        rest = self.discard
        self.random.shuffle_stable(rest)
        self.deck = rest
        self.discard = [top]
        self.epoch += 1
        self.emit(Reshuffle(len(rest)))

    def _take_drawn(self) -> tuple[int, int, int]:
        cid, kn, tag = self.drawn, self.drawn_known, self.drawn_tag
        self.drawn = -1
        self.drawn_from = FROM_NONE
        self.drawn_known = 0
        return cid, kn, tag

    def place(self, seat: int, cid: int, kn: int, tag: int) -> int:
        """Put a card at the seat's lowest empty position, else a new one at the end."""
        hand = self.hands[seat]
        for pos, c in enumerate(hand):
            if c < 0:
                hand[pos] = cid
                self.known[seat][pos] = kn
                self.tags[seat][pos] = tag
                return pos
        hand.append(cid)
        self.known[seat].append(kn)
        self.tags[seat].append(tag)
        return len(hand) - 1

    def _public_in(self, cid: int, known: int) -> str | None:
        """The code of the card going into a hand when the whole table knows it (it came from
        the discard pile, or it was drawn face up), else ``None``."""
        everyone = self.allmask | self.pub
        return self.codes[cid] if known & everyone == everyone else None

    def _do_replace(self, seat: int, args: tuple[int, ...]) -> None:
        hand = self.hands[seat]
        if len(args) == 1:
            pos = args[0]
            old = hand[pos]
            cid, kn, tag = self._take_drawn()
            hand[pos] = cid
            self.known[seat][pos] = kn
            self.tags[seat][pos] = tag
            self.discard.append(old)
            if self._events is not None:
                self.emit(
                    Replace(seat, (at(seat, pos),), self._public_in(cid, kn), (self.codes[old],))
                )
            self._card_landed(old)
            return
        # cabo: claim that several cards have one value
        values = self.values
        first_value = values[hand[args[0]]]
        ok = all(values[hand[p]] == first_value for p in args)
        out = tuple(self.codes[hand[p]] for p in args)
        cid, kn, tag = self._take_drawn()
        claimed = tuple(at(seat, p) for p in args)
        incoming = self._public_in(cid, kn)
        if ok:
            for p in args:
                self.discard.append(hand[p])
                hand[p] = -1
                self.known[seat][p] = 0
            low = args[0]
            hand[low] = cid
            self.known[seat][low] = kn
            self.tags[seat][low] = tag
            self.emit(Claim(seat, claimed, True, card=incoming, out=out))
            self._card_landed(self.discard[-1])
        else:
            everyone = self.allmask | self.pub
            for p in args:
                self.known[seat][p] = everyone
            new = self.place(seat, cid, kn, tag)
            # the cards were shown for a moment and are face down again
            self.emit(Claim(seat, claimed, False, at(seat, new), incoming, shown=out))
            self.end_turn()

    def _do_discard(self, seat: int, args: tuple[()]) -> None:
        came_from = self.drawn_from
        cid, _, _ = self._take_drawn()
        self.discard.append(cid)
        power = self.powers_of[cid] if came_from == FROM_DECK or self.rs.pile_draw_free else 0
        if self._events is not None:
            self.emit(Discard(seat, POWER_NAMES[power] if power else None, self.codes[cid]))
        if power:
            self.phase = PH_POWER
            self.power = power
            self.power_card = cid
        else:
            self._card_landed(cid)

    def _power_done(self) -> None:
        self.power = 0
        self.looked = None
        self._card_landed(self.power_card)

    def _card_landed(self, cid: int) -> None:
        """A turn's replace or discard has put ``cid`` on the pile: snap window or turn end."""
        self.rs.drops.card_played(self, cid)

    def open_snap_window(self, card: int) -> None:
        """Open a snap window on ``card``, just played onto the pile (a rule set's drops call
        it where cards snap): every seat may snap a matching card of its own, or pass."""
        self.phase = PH_SNAP
        self.snap_key = self.keys[card]
        self.snap_card = card
        self.snap_passed = 0
        if self._events is not None:
            self.emit(SnapOpen(self.codes[card]))

    def _do_spy(self, seat: int, args: tuple[tuple[int, int]]) -> None:
        s, pos = args[0]
        self.known[s][pos] |= 1 << seat
        if self._events is not None:
            self.emit(Spy(seat, at(s, pos), self.codes[self.hands[s][pos]]), 1 << seat)
        self._power_done()

    def resolve(self, seat: int, addr: Address) -> tuple[int, int]:
        """An address as ``(owner, position)``: a bare position is ``seat``'s own."""
        return (seat, addr) if isinstance(addr, int) else addr

    def _swap(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        (sa, pa), (sb, pb) = a, b
        h, k, t = self.hands, self.known, self.tags
        h[sa][pa], h[sb][pb] = h[sb][pb], h[sa][pa]
        k[sa][pa], k[sb][pb] = k[sb][pb], k[sa][pa]
        t[sa][pa], t[sb][pb] = t[sb][pb], t[sa][pa]

    def _do_exchange(self, seat: int, args: tuple[Address, ...]) -> None:
        if args:
            a, b = self.resolve(seat, args[0]), self.resolve(seat, args[1])
        else:
            assert self.looked is not None
            a, b = (self.looked[0], self.looked[1]), (self.looked[2], self.looked[3])
        self._swap(a, b)
        if self._events is not None:
            self.emit(Exchange(seat, (at(*a), at(*b))))
        self._power_done()

    def _do_look(self, seat: int, args: tuple[int, tuple[int, int]]) -> None:
        pos, (s, other) = args
        bit = 1 << seat
        self.known[seat][pos] |= bit
        self.known[s][other] |= bit
        self.looked = (seat, pos, s, other)
        self.look_valid = True
        self.phase = PH_LOOKED
        if self._events is not None:
            seen = (self.codes[self.hands[seat][pos]], self.codes[self.hands[s][other]])
            self.emit(Look(seat, (at(seat, pos), at(s, other)), seen), bit)

    def _do_pass(self, seat: int, args: tuple[()]) -> None:
        ph = self.phase
        if ph == PH_SNAP:
            self.snap_passed |= 1 << seat
            if self._events is not None:
                self.emit(Pass(seat))
            if self.snap_passed == self.allmask:
                self.end_turn()
        elif ph == PH_GIVE:
            self.give_to = None
            self.phase = self.resume
            if self._events is not None:
                self.emit(Pass(seat))
        else:
            if self._events is not None:
                self.emit(Pass(seat))
            self._power_done()

    def _do_call(self, seat: int, args: tuple[()]) -> None:
        self.caller = seat
        self.emit(Call(seat, self.rs.call))
        if self.rs.call_ends_round:
            self._end_round()
        else:
            self.final_left = self.n - 1
            self.end_turn()

    # ------------------------------------------------------------------ turn and round flow
    def tick(self) -> bool:
        """Count a drop or snap toward the ``max_turns`` safety net like a turn; end the round
        at once, call or no call, if that reaches it. True if the round ended."""
        self.turns += 1
        if self.turns >= self.max_turns * self.n:
            self._end_round()
            return True
        return False

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = PH_TURN
        if not self.rs.deck_end.turn_starts(self):
            self._end_round()
            return
        if self._events is not None:
            self.emit(turn_of(seat))

    def end_turn(self) -> None:
        """Close the turn: count it, end the round where the rules say so (the deck's end, the
        caller's round done, the turn limit), else give the next seat its turn."""
        self.turns += 1
        if self.rs.deck_end.round_over(self):
            self._end_round()
            return
        if self.caller >= 0:
            if self.turn != self.caller:
                self.final_left -= 1
                if self.final_left <= 0:
                    self._end_round()
                    return
        elif self.turns >= self.max_turns * self.n:
            self._end_round()
            return
        self._begin_turn((self.turn + 1) % self.n)

    # ------------------------------------------------------------------ for searches
    def rule_of_thumb(self, seat: int, rng: Rng) -> Action:
        """The rules of thumb's move (:func:`~cardtable.games.family.policy.choose`)."""
        return policy.choose(self, seat, rng)

    def sensible(self, seat: int, action: Action) -> bool:
        """Whether a person might play ``action`` (:func:`~cardtable.games.family.policy.sane`)."""
        return policy.sane(self, seat, action)

    def seen_key(self, seat: int) -> tuple[int, ...]:
        """The card in hand and the pile's top as ``seat`` sees them, and the cards it knows."""
        discard = self.discard
        sig = [self.drawn_for(seat), len(discard), discard[-1] if discard else -1]
        for hand in self.knowledge(seat):
            sig += hand
        return tuple(sig)

    def projected_scores(self) -> list[int]:
        """The round's scores as the hands stand (caller rule and penalties included)."""
        return self.round_scores()

    def hand_sums(self) -> list[int]:
        """Every seat's hand sum (omniscient; for scoring and tests)."""
        v = self.values
        return [sum(v[c] for c in h if c >= 0) for h in self.hands]

    def _round_end(self, sums: list[int] | None = None) -> RoundEnd:
        values = self.values
        return RoundEnd(
            [[values[c] for c in h if c >= 0] for h in self.hands],
            self.hand_sums() if sums is None else sums,
            self.caller,
            self.caller_penalty,
        )

    def round_scores(self, sums: list[int] | None = None) -> list[int]:
        """Scores the round would give now (omniscient; the rule set's scoring hook)."""
        return self.rs.scoring.scores(self._round_end(sums))

    def _end_round(self) -> None:
        if self.drawn >= 0:  # the safety net ended the round mid-turn: the card is let go
            self.discard.append(self._take_drawn()[0])
        end = self._round_end()
        sums = end.sums
        scoring = self.rs.scoring
        scores = scoring.scores(end)
        winners = scoring.winners(end, scores)
        self.rounds.append(scores)
        self.round_winners.append(winners)
        target = self.target
        reset = []
        for s in range(self.n):
            self.totals[s] += scores[s]
            if self.reset_at_target and self.totals[s] == target and not self.resets_used >> s & 1:
                self.totals[s] = target // 2
                self.resets_used |= 1 << s
                reset.append(s)
        everyone = self.allmask | self.pub
        self.known = [[everyone] * len(h) for h in self.hands]
        record = (
            self.round_no,
            scores,
            sums,
            winners,
            self.caller,
            [list(h) for h in self.hands],
            list(self.totals),
            explain(scoring, end, scores),
            reset,
        )
        self._round_log.append(record)
        if self._events is not None:
            self.emit(FamilyRoundEnd(round_info(self, record)))
        done = target is None or self.rs.target_reached.over(self.totals, target)
        if done:
            self.phase = PH_OVER
            winners_all = winners if target is None else lowest(self.totals)
            self._result = Result(
                list(self.rounds), list(self.totals), winners_all, list(self.round_winners)
            )
            if self._events is not None:
                self.emit(GameOver(self._result.to_dict()))
        else:
            self._start_round((self.first + 1) % self.n)

    # ------------------------------------------------------------------ views
    @property
    def round_results(self) -> list[FamilyRoundResult]:
        """Every finished round: scores, sums, winners, caller, all hands shown, totals."""
        return [round_info(self, r) for r in self._round_log]

    def view(self, seat: int, memory: bool = True) -> FamilyView:
        """What ``seat`` may know, nothing more (see :meth:`Game.view`)."""
        view = super().view(seat, memory)
        assert is_family_view(view)
        return view

    def spectator_view(self, memory: bool = True) -> FamilyView:
        """Public information only (see :meth:`Game.spectator_view`)."""
        view = super().spectator_view(memory)
        assert is_family_view(view)
        return view

    def _view(self, seat: int | None, memory: bool = True) -> FamilyView:
        return family_view(self, seat, memory)

    # ------------------------------------------------------------------ copies
    def _copy_state(self, d: dict[str, object]) -> None:
        d["hands"] = [list(h) for h in self.hands]
        d["known"] = [list(k) for k in self.known]
        d["tags"] = [list(t) for t in self.tags]
        d["deck"] = list(self.deck)
        d["discard"] = list(self.discard)
        d["peeks_left"] = list(self.peeks_left)
        d["first_look"] = list(self.first_look)

    def determinize(
        self,
        seat: int,
        rng: Random | int,
        weights: Mapping[tuple[int, int], Sequence[float]] | None = None,
    ) -> FamilyGame:
        """A copy where every card ``seat`` does not know is re-dealt at random, consistent
        with everything it knows or can infer (see :func:`.worlds.redeal`)."""
        return redeal(self, seat, rng, weights)

    def _all_cards(self) -> list[int]:
        """Every card id in play (hands, deck, discard pile, drawn card), for conservation."""
        ids = [c for h in self.hands for c in h if c >= 0] + self.deck + self.discard
        if self.drawn >= 0:
            ids.append(self.drawn)
        return ids

    def _dump(self) -> dict[str, object]:
        """The complete state, hidden cards included (tests and debugging only)."""
        return {
            name: value
            for name, value in self.__dict__.items()
            if name
            not in (
                "rs",
                "codes",
                "values",
                "keys",
                "powers_of",
                "_rng",
                "_rng_state",
                "_recent",
                "_opening",
                "_history",
                "_redacted_history",
                "_events",
                "_actions",
            )
        } | {"rng": self.random.getstate(), "variant": self.variant}

    _handlers: ClassVar[dict[str, _Handler]] = {
        "peek": _handler(_do_peek),
        "draw": _handler(_do_draw),
        "replace": _handler(_do_replace),
        "discard": _handler(_do_discard),
        "spy": _handler(_do_spy),
        "exchange": _handler(_do_exchange),
        "look": _handler(_do_look),
        "pass": _handler(_do_pass),
        "drop": _handler(drops.do_drop),
        "give": _handler(drops.do_give),
    }
    """Handler of each action word (call words join through :meth:`add_call_word`)."""

    @classmethod
    def add_call_word(cls, word: str) -> None:
        """Dispatch ``word`` as a call (see the module's :func:`add_call_word`)."""
        handler = cls._handlers.get(word)
        if handler is not None and handler is not cls._do_call:
            raise ValueError(f"{word!r} is already an action of the Cabo-family engine")
        cls._handlers[word] = _handler(cls._do_call)
        phases.call_action(word)
