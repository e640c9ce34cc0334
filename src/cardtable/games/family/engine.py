"""One engine for the whole Cabo family, driven by a :class:`RuleSet`.

State is kept compact for fast copying: card ids are ints (index into the rule set's deck),
an empty position is ``-1``, and what each seat knows about each position is a bit mask
(bit ``s`` = seat ``s`` knows the card; bit ``n`` = the card has been face up, so spectators
know it too). Knowledge masks and origin tags move with the cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...cards import codes_text
from ...game import Game
from ...match import Result, lowest
from ...notation import Action, Address, sort_addresses
from . import phases
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
from .rulesets import POWER_NAMES, SWAP_ANY, RuleSet

__all__ = [
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
    "FamilyGame",
    "add_call_word",
    "forget_rule_set",
]

_FROM_NAMES = (None, "deck", "discard")

_RANGES = [tuple(range(k)) for k in range(64)]


_Tables = tuple[tuple[int, ...], tuple[Any, ...], tuple[int, ...]]
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
    handler = _HANDLERS.get(word)
    if handler is not None and handler is not FamilyGame._do_call:
        raise ValueError(f"{word!r} is already an action of the Cabo-family engine")
    _HANDLERS[word] = FamilyGame._do_call
    phases.call_action(word)


def forget_rule_set(rs: RuleSet) -> None:
    """Drop what the engine computed for ``rs`` (its rule set was unregistered)."""
    entry = _TABLES.get(rs.name)
    if entry is not None and entry[0] is rs:
        del _TABLES[rs.name]


def _weighted_index(cards: list[int], start: int, weights: Sequence[float], u: float) -> int:
    """An index ``j >= start`` of ``cards`` chosen with probability proportional to
    ``weights[cards[j]]`` (``u`` uniform in [0, 1)); uniform if every weight is 0."""
    total = 0.0
    for j in range(start, len(cards)):
        total += weights[cards[j]]
    if total <= 0.0:
        return start + int(u * (len(cards) - start))
    x = u * total
    for j in range(start, len(cards)):
        x -= weights[cards[j]]
        if x < 0.0:
            return j
    return len(cards) - 1


class FamilyGame(Game):
    """A game (one round or a whole match) of a Cabo-family variant."""

    rs: RuleSet
    """The variant's rule set."""

    _lazy_deck = False
    """True in determinized copies: the deck is left unshuffled and every draw takes a card
    uniformly at random from it instead (the same distribution, without paying for a full
    shuffle per determinization — search makes thousands and draws a few cards from each)."""

    def __init__(
        self,
        rs: RuleSet,
        players: int,
        seed: int,
        options: dict[str, Any],
        deck: list[str] | None = None,
    ) -> None:
        self._init_base(rs.name, players, seed, options, deck)
        self.rs = rs
        self.n = n = players
        self.allmask = (1 << n) - 1
        self.pub = 1 << n
        self.codes = rs.deck
        self.values, self.keys, self.powers_of = _tables(rs)
        self.target = options["target"]
        self.max_turns = options["max_turns"]
        self.caller_penalty = options.get("caller_penalty", rs.caller_penalty)
        self.reset_at_target = bool(options.get("reset_at_exact_target", False))
        self._stacked_ids = self._stack(deck) if deck is not None else None
        self.totals = [0] * n
        self.rounds: list[list[int]] = []
        self.round_winners: list[list[int]] = []
        self._round_log: list[tuple[Any, ...]] = []
        self.resets_used = 0
        self._result: Result | None = None
        self.round_no = 0
        self._events = []
        first = options["first"]
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
        # Every card leaves the deck through _draw_from_deck, the deal included.
        self.deck = order[::-1]  # top of the deck is the end of the list
        self.discard = []
        size = self.rs.hand_size
        hands = [[-1] * size for _ in range(n)]
        self.hands = hands
        for pos in range(size):
            for s in range(n):
                hands[s][pos] = self._draw_from_deck()
        self.known = [[0] * size for _ in range(n)]
        self.tags = [[0] * size for _ in range(n)]
        if self.rs.discard_starts:
            self.discard.append(self._draw_from_deck())
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
        self.snap_key: Any = None
        self.snap_card = -1
        self.snap_passed = 0
        self.first_look: list[tuple[int, ...]] = [()] * n
        self._emit(
            "round_start",
            {"round": self.round_no, "first": first},
            {"discard": [self.codes[c] for c in self.discard]},
            self.allmask | self.pub,
        )
        if self.rs.auto_peek:
            self.peeks_left = [0] * n
            for s in range(n):
                for pos in self.rs.auto_peek:
                    self.known[s][pos] |= 1 << s
                    self._emit(
                        "peek",
                        {"seat": s, "at": f"{s}.{pos}"},
                        {"card": self.codes[hands[s][pos]]},
                        1 << s,
                    )
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
        g = self
        codes = g.codes
        lines = [
            f"round {g.round_no} phase {g.phase} turn {g.turn} first {g.first} turns {g.turns} "
            f"caller {g.caller} final_left {g.final_left} epoch {g.epoch} over {g.over}"
        ]
        for s, (hand, kn, tg) in enumerate(zip(g.hands, g.known, g.tags, strict=True)):
            cards = " ".join(
                f"{codes[c] if c >= 0 else '-'}/{k}/{t}"
                for c, k, t in zip(hand, kn, tg, strict=True)
            )
            lines.append(f"hand {s}: {cards}")
        lines.append("deck: " + codes_text(sorted(codes[c] for c in g.deck)))
        lines.append("discard: " + codes_text([codes[c] for c in g.discard]))
        drawn = codes[g.drawn] if g.drawn >= 0 else "-"
        lines.append(f"drawn {drawn} from {g.drawn_from} known {g.drawn_known} tag {g.drawn_tag}")
        lines.append(
            f"power {g.power} card {g.power_card} looked {g.looked} valid {g.look_valid} "
            f"give {g.give_to} resume {g.resume}"
        )
        lines.append(f"snap {g.snap_key} card {g.snap_card} passed {g.snap_passed}")
        lines.append(f"peeks {g.peeks_left} totals {g.totals} rounds {g.rounds}")
        if g.result is not None:
            lines.append(f"result {g.result.to_dict()}")
        return lines

    @property
    def result(self) -> Result | None:
        """Round scores, totals and winners once over."""
        return self._result

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
        return phases.legal_actions(self, seat, phases.moves_of(self.rs)[self.phase])

    def _is_legal(self, seat: int, action: Action) -> bool:
        """Look the action up among the offers of its own move in the phase table."""
        name = action[0]
        word = phases.CALL if name == self.rs.call else name
        for move in phases.moves_of(self.rs)[self.phase]:
            if move.word == word and (move.fits is None or move.fits(action)):
                offer = move.offer(self, seat)
                if not isinstance(offer, str) and action in offer:
                    return True
        return False

    def _why_illegal(self, seat: int, action: Action) -> str:
        """A plain-words reason that mentions only public facts, read from the phase table."""
        return phases.refusal(self, seat, action)

    # ------------------------------------------------------------------ playing
    def _normalize(self, seat: int, action: Action) -> Action:
        """Write ``P.N`` addresses of the acting seat itself as plain ``N``."""
        if not action.args or not any(isinstance(a, tuple) for a in action.args):
            return action
        args = tuple(a[1] if isinstance(a, tuple) and a[0] == seat else a for a in action.args)
        if action.name == "exchange":
            args = sort_addresses(args)  # type: ignore[arg-type]
        return Action(action.name, args)

    def apply(self, seat: int, action: Action) -> None:
        """Play a legal action without validation (fast path for agents and rollouts)."""
        _HANDLERS[action[0]](self, seat, action[1])

    def _do_peek(self, seat: int, args: tuple[Any, ...]) -> None:
        pos = args[0]
        self.known[seat][pos] |= 1 << seat
        if self.phase == PH_PEEK and self.rs.peek_shown_until_draw:
            self.first_look[seat] += (self.hands[seat][pos],)
        if self._events is not None:
            self._emit(
                "peek",
                {"seat": seat, "at": f"{seat}.{pos}"},
                {"card": self.codes[self.hands[seat][pos]]},
                1 << seat,
            )
        if self.phase == PH_PEEK:
            self.peeks_left[seat] -= 1
            if not any(self.peeks_left):
                self._begin_turn(self.first)
        else:
            self._power_done()

    def _do_draw(self, seat: int, args: tuple[Any, ...]) -> None:
        if args[0] == "deck":
            cid = self._draw_from_deck()
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
            self._emit(
                "draw",
                {"seat": seat, "from": args[0]},
                {"card": self.codes[cid]},
                self.drawn_known,
            )

    def _draw_from_deck(self) -> int:
        """Take the deck's top card (reshuffling first where the rules say so); -1 if none.

        The one place a card leaves the deck: deals, draws and penalties all come here.
        """
        deck = self.deck
        if not deck and self.rs.deck_end == "reshuffle":
            self._reshuffle()
            deck = self.deck
        if not deck:
            return -1
        if self._lazy_deck:
            j = int(self.random.random() * len(deck))
            deck[j], deck[-1] = deck[-1], deck[j]
        return deck.pop()

    def _reshuffle(self) -> None:
        if len(self.discard) < 2:
            return
        top = self.discard.pop()
        rest = self.discard
        self.random.shuffle_stable(rest)
        self.deck = rest
        self.discard = [top]
        self.epoch += 1
        self._emit("reshuffle", {"deck": len(rest)})

    def _take_drawn(self) -> tuple[int, int, int]:
        cid, kn, tag = self.drawn, self.drawn_known, self.drawn_tag
        self.drawn = -1
        self.drawn_from = FROM_NONE
        self.drawn_known = 0
        return cid, kn, tag

    def _place(self, seat: int, cid: int, kn: int, tag: int) -> int:
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

    def _do_replace(self, seat: int, args: tuple[Any, ...]) -> None:
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
                self._emit(
                    "replace",
                    {"seat": seat, "at": [f"{seat}.{pos}"]},
                    {"out": [self.codes[old]]},
                    self.allmask | self.pub,
                )
            self._card_landed(old)
            return
        # cabo: claim that several cards have one value
        values = self.values
        first_value = values[hand[args[0]]]
        ok = all(values[hand[p]] == first_value for p in args)
        out = [self.codes[hand[p]] for p in args]
        cid, kn, tag = self._take_drawn()
        if ok:
            for p in args:
                self.discard.append(hand[p])
                hand[p] = -1
                self.known[seat][p] = 0
            low = args[0]
            hand[low] = cid
            self.known[seat][low] = kn
            self.tags[seat][low] = tag
            self._emit(
                "claim",
                {"seat": seat, "at": [f"{seat}.{p}" for p in args], "ok": True},
                {"out": out},
                self.allmask | self.pub,
            )
            self._card_landed(self.discard[-1])
        else:
            everyone = self.allmask | self.pub
            for p in args:
                self.known[seat][p] = everyone
            new = self._place(seat, cid, kn, tag)
            # the cards were shown for a moment and are face down again
            self._emit(
                "claim",
                {
                    "seat": seat,
                    "at": [f"{seat}.{p}" for p in args],
                    "ok": False,
                    "new": f"{seat}.{new}",
                },
                {"shown": out},
                everyone,
            )
            self._end_turn()

    def _do_discard(self, seat: int, args: tuple[Any, ...]) -> None:
        came_from = self.drawn_from
        cid, _, _ = self._take_drawn()
        self.discard.append(cid)
        power = self.powers_of[cid] if came_from == FROM_DECK or self.rs.pile_draw_free else 0
        if self._events is not None:
            self._emit(
                "discard",
                {"seat": seat, "power": POWER_NAMES[power] if power else None},
                {"card": self.codes[cid]},
                self.allmask | self.pub,
            )
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
        if self.rs.drops == "snap":
            self.phase = PH_SNAP
            self.snap_key = self.keys[cid]
            self.snap_card = cid
            self.snap_passed = 0
            self._emit("snap_open", {}, {"card": self.codes[cid]}, self.allmask | self.pub)
        else:
            self._end_turn()

    def _do_spy(self, seat: int, args: tuple[Any, ...]) -> None:
        s, pos = args[0]
        self.known[s][pos] |= 1 << seat
        if self._events is not None:
            self._emit(
                "spy",
                {"seat": seat, "at": f"{s}.{pos}"},
                {"card": self.codes[self.hands[s][pos]]},
                1 << seat,
            )
        self._power_done()

    def _resolve(self, seat: int, addr: Address) -> tuple[int, int]:
        return (seat, addr) if isinstance(addr, int) else addr

    def _swap(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        (sa, pa), (sb, pb) = a, b
        h, k, t = self.hands, self.known, self.tags
        h[sa][pa], h[sb][pb] = h[sb][pb], h[sa][pa]
        k[sa][pa], k[sb][pb] = k[sb][pb], k[sa][pa]
        t[sa][pa], t[sb][pb] = t[sb][pb], t[sa][pa]

    def _do_exchange(self, seat: int, args: tuple[Any, ...]) -> None:
        if args:
            a, b = self._resolve(seat, args[0]), self._resolve(seat, args[1])
        else:
            assert self.looked is not None
            a, b = (self.looked[0], self.looked[1]), (self.looked[2], self.looked[3])
        self._swap(a, b)
        self._emit("exchange", {"seat": seat, "at": [f"{a[0]}.{a[1]}", f"{b[0]}.{b[1]}"]})
        self._power_done()

    def _do_look(self, seat: int, args: tuple[Any, ...]) -> None:
        pos, (s, other) = args
        bit = 1 << seat
        self.known[seat][pos] |= bit
        self.known[s][other] |= bit
        self.looked = (seat, pos, s, other)
        self.look_valid = True
        self.phase = PH_LOOKED
        if self._events is not None:
            self._emit(
                "look",
                {"seat": seat, "at": [f"{seat}.{pos}", f"{s}.{other}"]},
                {"cards": [self.codes[self.hands[seat][pos]], self.codes[self.hands[s][other]]]},
                bit,
            )

    def _do_pass(self, seat: int, args: tuple[Any, ...]) -> None:
        ph = self.phase
        if ph == PH_SNAP:
            self.snap_passed |= 1 << seat
            self._emit("pass", {"seat": seat})
            if self.snap_passed == self.allmask:
                self._end_turn()
        elif ph == PH_GIVE:
            self.give_to = None
            self.phase = self.resume
            self._emit("pass", {"seat": seat})
        else:
            self._emit("pass", {"seat": seat})
            self._power_done()

    def _do_call(self, seat: int, args: tuple[Any, ...]) -> None:
        self.caller = seat
        self._emit("call", {"seat": seat, "word": self.rs.call})
        if self.rs.call_ends_round:
            self._end_round()
        else:
            self.final_left = self.n - 1
            self._end_turn()

    def _touch_looked(self, s: int, pos: int) -> None:
        lk = self.looked
        if lk is not None and ((lk[0], lk[1]) == (s, pos) or (lk[2], lk[3]) == (s, pos)):
            self.look_valid = False

    def _penalty(self, seat: int) -> None:
        cid = self._draw_from_deck()
        if cid < 0:
            self._emit("penalty", {"seat": seat, "at": None})
            return
        pos = self._place(seat, cid, 0, self.epoch)
        self._touch_looked(seat, pos)
        self._emit("penalty", {"seat": seat, "at": f"{seat}.{pos}"})

    def _do_drop(self, seat: int, args: tuple[Any, ...]) -> None:
        s, pos = self._resolve(seat, args[0])
        hand = self.hands[s]
        cid = hand[pos]
        everyone = self.allmask | self.pub
        if self.phase == PH_SNAP:  # gabo
            hand[pos] = -1
            self.known[s][pos] = 0
            self.discard.append(cid)
            ok = self.keys[cid] == self.snap_key
            self._emit(
                "snap",
                {"seat": seat, "at": f"{s}.{pos}", "ok": ok},
                {"card": self.codes[cid]},
                everyone,
            )
            if not ok:
                self._penalty(seat)
                self._penalty(seat)
                # a wrong snap ends the seat's part in the window, as if it had passed
                self.snap_passed |= 1 << seat
            if not self._tick() and self.snap_passed == self.allmask:
                self._end_turn()
            return
        # cabo-german drop against the top of the discard pile
        self._touch_looked(s, pos)
        if self.keys[cid] == self.keys[self.discard[-1]]:
            hand[pos] = -1
            self.known[s][pos] = 0
            self.discard.append(cid)
            self._emit(
                "drop",
                {"seat": seat, "at": f"{s}.{pos}", "ok": True},
                {"card": self.codes[cid]},
                everyone,
            )
            if s != seat and self.occupied(seat):
                self.give_to = (s, pos)
                self.resume = self.phase
                self.phase = PH_GIVE
        else:
            self.known[s][pos] = everyone
            # shown to everyone, then back face down
            self._emit(
                "drop",
                {"seat": seat, "at": f"{s}.{pos}", "ok": False},
                {"card": self.codes[cid]},
                everyone,
            )
            self._penalty(seat)
        self._tick()

    def _do_give(self, seat: int, args: tuple[Any, ...]) -> None:
        pos = args[0]
        assert self.give_to is not None
        s, target = self.give_to
        self._touch_looked(seat, pos)
        self._touch_looked(s, target)
        self.hands[s][target] = self.hands[seat][pos]
        self.known[s][target] = self.known[seat][pos]
        self.tags[s][target] = self.tags[seat][pos]
        self.hands[seat][pos] = -1
        self.known[seat][pos] = 0
        self.give_to = None
        self.phase = self.resume
        self._emit("give", {"seat": seat, "from": f"{seat}.{pos}", "to": f"{s}.{target}"})

    # ------------------------------------------------------------------ turn and round flow
    def _tick(self) -> bool:
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
        if not self.deck and self.rs.deck_end == "reshuffle":
            self._reshuffle()
            if not self.deck:
                self._end_round()
                return
        if self._events is not None:
            self._emit("turn", {"seat": seat})

    def _end_turn(self) -> None:
        self.turns += 1
        if not self.deck and self.rs.deck_end == "end":
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

    def hand_sums(self) -> list[int]:
        """Every seat's hand sum (omniscient; for scoring and tests)."""
        v = self.values
        return [sum(v[c] for c in h if c >= 0) for h in self.hands]

    def round_scores(self, sums: list[int] | None = None) -> list[int]:
        """Scores the round would give now (omniscient; used at the round's end)."""
        n = self.n
        if sums is None:
            sums = self.hand_sums()
        scores = list(sums)
        caller = self.caller
        scoring = self.rs.scoring
        if scoring == "cabo":
            for s in range(n):
                vals = sorted(self.values[c] for c in self.hands[s] if c >= 0)
                if vals == [12, 12, 13, 13]:
                    return [0 if t == s else 50 for t in range(n)]
            if caller >= 0 and sums[caller] > min(sums[t] for t in range(n) if t != caller):
                scores[caller] = sums[caller] + self.caller_penalty
            elif caller >= 0:
                scores[caller] = 0
        elif scoring == "gabo" and caller >= 0:
            beaten = any(sums[t] < sums[caller] for t in range(n) if t != caller)
            if beaten or sums[caller] > 5:
                scores[caller] = sums[caller] + self.caller_penalty
        return scores

    def _round_winners(self, scores: list[int]) -> list[int]:
        best = lowest(scores)
        if self.rs.scoring == "gabo" and self.caller in best:
            return [self.caller]
        return best

    def _end_round(self) -> None:
        if self.drawn >= 0:  # the safety net ended the round mid-turn: the card is let go
            self.discard.append(self._take_drawn()[0])
        sums = self.hand_sums()
        scores = self.round_scores(sums)
        winners = self._round_winners(scores)
        self.rounds.append(scores)
        self.round_winners.append(winners)
        target = self.target
        for s in range(self.n):
            self.totals[s] += scores[s]
            if self.reset_at_target and self.totals[s] == target and not self.resets_used >> s & 1:
                self.totals[s] = target // 2
                self.resets_used |= 1 << s
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
        )
        self._round_log.append(record)
        if self._events is not None:
            self._emit("round_end", self._round_info(record))
        if target is None:
            done = True
        elif self.rs.target_reached == "reaches":
            done = max(self.totals) >= target
        else:
            done = max(self.totals) > target
        if done:
            self.phase = PH_OVER
            winners_all = winners if target is None else lowest(self.totals)
            self._result = Result(
                list(self.rounds), list(self.totals), winners_all, list(self.round_winners)
            )
            if self._events is not None:
                self._emit("game_over", self._result.to_dict())
        else:
            self._start_round((self.first + 1) % self.n)

    # ------------------------------------------------------------------ views
    def _round_info(self, record: tuple[Any, ...]) -> dict[str, Any]:
        round_no, scores, sums, winners, caller, hands, totals = record
        codes = self.codes
        return {
            "round": round_no,
            "scores": list(scores),
            "sums": list(sums),
            "winners": list(winners),
            "caller": caller if caller >= 0 else None,
            "hands": [[codes[c] if c >= 0 else None for c in h] for h in hands],
            "totals": list(totals),
        }

    @property
    def round_results(self) -> list[dict[str, Any]]:
        """Every finished round: scores, sums, winners, caller, all hands shown, totals."""
        return [self._round_info(r) for r in self._round_log]

    def _card_view(
        self, cid: int, kn: int, bit: int, seen: int | None = None
    ) -> dict[str, Any] | None:
        """One position: the code if ``kn`` lets the viewer ``bit`` see it, and the seats that
        know the card (from ``seen``, else ``kn``)."""
        if cid < 0:
            return None
        who = kn if seen is None else seen
        return {
            "card": self.codes[cid] if kn & bit else None,
            "seen": [s for s in range(self.n) if who >> s & 1],
        }

    def _view(self, seat: int | None, memory: bool = True) -> dict[str, Any]:
        bit = self.pub if seat is None else 1 << seat
        codes = self.codes
        ph = self.phase
        memory = memory or ph == PH_OVER  # once the game is over every card is shown
        if memory:
            hands = [
                [self._card_view(c, k, bit) for c, k in zip(h, kn, strict=True)]
                for h, kn in zip(self.hands, self.known, strict=True)
            ]
        else:
            # Without memory aid no face-down card shows (RULES.md, Memory), except, in gabo,
            # the cards of the seat's initial peek in its own hand until its first draw.
            first = self.first_look[seat] if seat is not None else ()
            hands = [
                [
                    self._card_view(c, k if s == seat and c in first else 0, bit, k)
                    for c, k in zip(h, kn, strict=True)
                ]
                for s, (h, kn) in enumerate(zip(self.hands, self.known, strict=True))
            ]
        pending: dict[str, Any] | None = None
        if ph == PH_POWER:
            pending = {"power": POWER_NAMES[self.power], "card": codes[self.power_card]}
            if self.power == SWAP_ANY:
                pending["any"] = True
        elif ph == PH_LOOKED and self.looked is not None:
            s0, p0, s1, p1 = self.looked
            pending = {
                "power": "look",
                "card": codes[self.power_card],
                "looked": [f"{s0}.{p0}", f"{s1}.{p1}"],
                "can_exchange": self.look_valid,
            }
        elif ph == PH_GIVE and self.give_to is not None:
            pending = {"give": f"{self.give_to[0]}.{self.give_to[1]}"}
        snap = None
        if ph == PH_SNAP:
            snap = {
                "card": codes[self.snap_card],
                "rank": self.snap_key if isinstance(self.snap_key, str) else str(self.snap_key),
                "passed": [s for s in range(self.n) if self.snap_passed >> s & 1],
            }
        drawn = self.drawn
        return {
            "game": self.variant,
            "seat": seat,
            "players": self.n,
            "phase": PHASES[ph],
            "actors": self.actors,
            "turn": self.turn,
            "first": self.first,
            "hands": hands,
            "discard": [codes[c] for c in self.discard],
            "deck": len(self.deck),
            "reshuffles": self.epoch,
            "drawn": codes[drawn] if drawn >= 0 and self.drawn_known & bit else None,
            "drawer": self.turn if drawn >= 0 else None,
            "drawn_from": _FROM_NAMES[self.drawn_from],
            "call": self.rs.call,
            "caller": self.caller if self.caller >= 0 else None,
            "final_turns_left": self.final_left if self.caller >= 0 else None,
            "pending": pending,
            "snap": snap,
            "peeks_left": list(self.peeks_left) if ph == PH_PEEK else None,
            "turns": self.turns,
            "max_turns": self.max_turns * self.n,
            "target_rule": self.rs.target_reached,
            **self._view_tail(seat, bit, memory),
        }

    # ------------------------------------------------------------------ copies
    def _copy_state(self, d: dict[str, Any]) -> None:
        d["hands"] = [list(h) for h in self.hands]
        d["known"] = [list(k) for k in self.known]
        d["tags"] = [list(t) for t in self.tags]
        d["deck"] = list(self.deck)
        d["discard"] = list(self.discard)
        d["peeks_left"] = list(self.peeks_left)
        d["first_look"] = list(self.first_look)

    def determinize(
        self, seat: int, rng: Any, weights: Mapping[tuple[int, int], Sequence[float]] | None = None
    ) -> FamilyGame:
        """A copy where every card ``seat`` does not know is re-dealt at random.

        Cards are re-dealt only among places of the same origin (the initial shuffle, or a
        given reshuffle of the discard pile), because which cards went into each shuffle is
        public: the result is consistent with everything ``seat`` knows or can infer.
        ``rng`` is a ``random.Random`` (or an int seed). ``weights`` (a belief, see
        :meth:`Game.determinize`) deals the places it names first, each a card of its pool
        with probability proportional to the card's weight; the other places and the deck
        are then dealt uniformly from what is left.
        """
        g, rng = self._world_for(seat, rng)
        bit = 1 << seat
        epoch = g.epoch
        # Places of hidden cards, grouped by origin; the deck's own cards join the group of
        # the current shuffle and are handled as one slice.
        groups: dict[int, list[tuple[int, int]]] = {}
        hands = g.hands
        for s in range(self.n):
            hand, kn, tg = hands[s], g.known[s], g.tags[s]
            for i, c in enumerate(hand):
                if c >= 0 and not kn[i] & bit:
                    places = groups.get(tg[i])
                    if places is None:
                        groups[tg[i]] = [(s, i)]
                    else:
                        places.append((s, i))
        if g.drawn >= 0 and not g.drawn_known & bit:
            groups.setdefault(g.drawn_tag, []).append((-1, 0))
        if g.deck and epoch not in groups:
            groups[epoch] = []
        rnd = rng.random
        for tag, places in groups.items():
            cards = [g.drawn if s < 0 else hands[s][i] for s, i in places]
            if tag == epoch:
                cards += g.deck
            # sorted first: the deal must not depend on where the hidden cards really are
            cards.sort()
            if weights:  # the places the belief weighs are dealt first
                places.sort(key=lambda place: place not in weights)
            # a choice for each place (a Fisher–Yates pass over the places only, uniform or
            # by weight); what stays is the deck, drawn from uniformly (``_lazy_deck``)
            size = len(cards)
            for k, (s, i) in enumerate(places):
                w = weights.get((s, i)) if weights else None
                if w is None:
                    j = k + int(rnd() * (size - k))
                else:
                    j = _weighted_index(cards, k, w, rnd())
                cards[k], cards[j] = cards[j], cards[k]
                if s < 0:
                    g.drawn = cards[k]
                else:
                    hands[s][i] = cards[k]
            if tag == epoch:
                g.deck = cards[len(places) :]
        g._lazy_deck = True
        g._seed_from(rng)
        return g

    def _all_cards(self) -> list[int]:
        """Every card id in play (hands, deck, discard pile, drawn card), for conservation."""
        ids = [c for h in self.hands for c in h if c >= 0] + self.deck + self.discard
        if self.drawn >= 0:
            ids.append(self.drawn)
        return ids

    def _dump(self) -> dict[str, Any]:
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


_HANDLERS: dict[str, Any] = {
    "peek": FamilyGame._do_peek,
    "draw": FamilyGame._do_draw,
    "replace": FamilyGame._do_replace,
    "discard": FamilyGame._do_discard,
    "spy": FamilyGame._do_spy,
    "exchange": FamilyGame._do_exchange,
    "look": FamilyGame._do_look,
    "pass": FamilyGame._do_pass,
    "drop": FamilyGame._do_drop,
    "give": FamilyGame._do_give,
}
"""Handler of each action word (call words join through :func:`add_call_word`)."""
