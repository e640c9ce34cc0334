"""The Cabo family, N games at once: the state of every game as NumPy arrays, one ``step`` that
plays each game's actor's action, legal-action masks and automatic reset.

The engine reads the same :class:`~cardtable.games.family.rulesets.RuleSet` records as the
reference engine (:mod:`cardtable.games.family.engine`) and follows it rule by rule: each
reference handler has a twin here that does the same to a set of games at once. Hooks are
read by kind: the built-in deck ends, drops records and match ends have array twins, and a
scoring hook without one is asked game by game. Actions are the integers of
:mod:`cardtable.encoding` (addresses relative to the actor), and when several seats may act
(the first peeks, a snap window) the lowest of them acts, as in the adapters.

Card ids are indices into the rule set's deck; an empty position holds ``-1``; what each seat
knows of each position is a bit mask (bit ``s``: seat ``s`` knows the card; bit ``n``: it has
been face up), exactly as in the reference engine.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, NamedTuple, cast

import numpy as np
import numpy.typing as npt

from .. import variants
from ..encoding import Encoding, encoding
from ..game import TOP_DRAWS, Game
from ..games.family.hooks import DeckEnd, Drops, Reshuffle
from ..games.family.phases import (
    FROM_DECK,
    FROM_DISCARD,
    PH_DRAWN,
    PH_GIVE,
    PH_LOOKED,
    PH_OVER,
    PH_PEEK,
    PH_POWER,
    PH_SNAP,
    PH_TURN,
    PHASES,
)
from ..games.family.rulesets import (
    LOOK,
    PEEK,
    RULESETS,
    SPY,
    SWAP,
    SWAP_ANY,
    RuleSet,
    family_options,
)
from ..games.family.scoring import (
    REACHES,
    CaboScoring,
    GaboScoring,
    MatchEnd,
    RoundEnd,
    Scoring,
)
from .chance import Doubles, IntArray

__all__ = ["BoolArray", "FamilyBatch", "Step"]

BoolArray = npt.NDArray[np.bool_]
"""A boolean array."""
FloatArray = npt.NDArray[np.float32]
"""A float32 array (rewards)."""

# action kinds, one per handler
(
    K_DRAW_DECK,
    K_DRAW_PILE,
    K_CALL,
    K_DISCARD,
    K_PASS,
    K_EXCH_LOOKED,
    K_PEEK,
    K_REPLACE,
    K_CLAIM,
    K_SPY,
    K_EXCHANGE,
    K_LOOK,
    K_DROP,
    K_GIVE,
) = range(14)
"""The kind of each integer action: the handler that plays it (``r_kind`` maps rows to kinds)."""
_KINDS = 14


class Step(NamedTuple):
    """What one :meth:`FamilyBatch.step` did to every game."""

    done: BoolArray
    """``[N]``: the game ended with this action (its slot now holds a new game)."""
    rewards: FloatArray
    """``[N, seats]``: zero-sum rewards of the games that ended (sole winner 1, the others
    share -1; tied winners split the win), 0 elsewhere."""
    totals: IntArray
    """``[N, seats]``: the final match totals of the games that ended, 0 elsewhere."""
    winners: BoolArray
    """``[N, seats]``: the winners of the games that ended."""
    round_ended: BoolArray
    """``[N]``: a round ended with this action."""
    round_scores: IntArray
    """``[N, seats]``: the scores of the round that ended, 0 elsewhere."""
    round_winners: BoolArray
    """``[N, seats]``: the winners of the round that ended."""


_SCALARS = (
    "drawn",
    "drawn_from",
    "drawn_known",
    "phase",
    "turn",
    "first",
    "caller",
    "final_left",
    "turns",
    "power",
    "power_card",
    "look_valid",
    "resume",
    "snap_card",
    "snap_passed",
    "epoch",
    "round_no",
    "resets_used",
)
"""The one-number fields each game has in both engines, under the reference's names."""

_PER_GAME = (
    *_SCALARS,
    "hands",
    "known",
    "deck",
    "deck_n",
    "pile",
    "pile_n",
    "looked",
    "give_to",
    "peeks_left",
    "first_look",
    "totals",
    "seeds",
    "_done",
    "_rewards",
    "_final",
    "_winners",
    "_round_ended",
    "_round_scores",
    "_round_winners",
)
"""The arrays that hold one row per game (everything else is shared by the batch)."""


_Terms = list[tuple[IntArray, IntArray, int, str]]
_DECODED: weakref.WeakKeyDictionary[
    Encoding, tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, _Terms]
] = weakref.WeakKeyDictionary()
"""The decoded action rows and mask terms of every encoding in use."""


def _missing_twin(rs: RuleSet) -> ValueError | None:
    """The refusal of a rule set whose deck end or drops the batch has no array twin of."""
    if type(rs.deck_end) not in (DeckEnd, Reshuffle):
        return ValueError(f"the batched engine has no array twin of the deck end {rs.deck_end!r}")
    if type(rs.drops).card_played is not Drops.card_played:
        return ValueError(f"the batched engine has no array twin of the drops {rs.drops!r}")
    return None


class FamilyBatch:
    """``num_games`` games of one Cabo-family variant at one seat count, played in lockstep.

    Game ``i`` starts from seed ``seed + i`` and deals exactly what
    ``new_game(variant, players, seed + i, options)`` deals; each game that ends is replaced
    at once by a new one, whose seed is the next unused one (``seed + num_games``, then
    ``+ 1`` …). :attr:`seeds` holds every slot's current seed.

    ``reseed=False`` trades that one-to-one seeding for speed: a slot's next game goes on
    drawing from the generator of the game before it (seeding Python's generator costs more
    than a short game's actions), and its :attr:`seeds` entry becomes ``-1``. Every game is
    still determined by the first seed; the reference engine reproduces it when given that
    generator.
    """

    def __init__(
        self,
        variant: str,
        players: int,
        num_games: int,
        *,
        seed: int = 0,
        options: Mapping[str, object] | None = None,
        max_positions: int | None = None,
        reseed: bool = True,
        deal: bool = True,
    ) -> None:
        info = variants.get(variant)
        if info.name not in RULESETS:
            raise ValueError(f"{info.name} is not a game of the Cabo family")
        info.check_players(players)
        if num_games < 1:
            raise ValueError("num_games must be at least 1")
        rs = self.rs = RULESETS[info.name]
        """The variant's rule set (the reference engine's own record)."""
        self.variant = info.name
        """Registry name of the variant."""
        self.options = info.resolve_options(options)
        """The resolved rule options every game is played under."""
        rules = family_options(self.options, rs)
        self.n = n = players
        """Seats per game."""
        self.size = num_games
        """Games in the batch."""
        self.encoding: Encoding = encoding(info.name, players, max_positions)
        """The integer actions and observation layout (:mod:`cardtable.encoding`)."""
        self.cap = self.encoding.max_positions
        """Hand positions the integer actions cover."""
        self.target = rules.target
        """The total that ends a match (``None``: one round)."""
        self.first_option = rules.first
        """The seat that opens round 1 (``None``: as the rule set says)."""
        self.max_turns = rules.max_turns * n
        """Turns (all seats together) after which a round without a call ends."""
        self.caller_penalty = rules.caller_penalty
        """Points added to a caller who loses the call."""
        self.reset_at_target = rules.reset_at_exact_target
        """Whether a total of exactly the target drops to half of it, once per seat."""
        if self.first_option is not None and not 0 <= self.first_option < n:
            raise ValueError(f"option 'first' must be a seat from 0 to {n - 1}")
        self._check_hooks()
        deck = rs.deck
        self.D = len(deck)
        """Cards in the deck (card ids ``0 .. D-1``)."""
        self.value = np.array([rs.value(c) for c in deck], dtype=np.int64)
        """Points of each card id."""
        keys: dict[Hashable, int] = {}
        self.key = np.array([keys.setdefault(rs.match_key(c), len(keys)) for c in deck])
        """What must be equal for a drop or snap to match, numbered, by card id."""
        self.power_of = np.array([rs.power_of(c) for c in deck], dtype=np.int64)
        """The power of each card id (0: none)."""
        self.allmask = (1 << n) - 1
        """The knowledge bits of every seat."""
        self.pub = 1 << n
        """The knowledge bit of a card that has lain face up."""
        self.everyone = self.allmask | self.pub
        """Every seat's bit and the face-up bit."""
        self._pile_phases = np.zeros(len(PHASES), dtype=bool)
        for name in rs.drops.pile_phases:
            self._pile_phases[PHASES.index(name)] = True
        self.must_use = np.zeros(6, dtype=bool)
        """By power kind: whether the power cannot be declined with ``pass``."""
        for p in rs.must_use:
            self.must_use[p] = True
        self._reshuffles = isinstance(rs.deck_end, Reshuffle)
        self._decode_rows()
        self._allocate(max(rs.hand_size, self.cap))
        self._chance = Doubles(num_games)
        self.reseed = reseed
        """Whether each new game is seeded afresh (see the class's docstring)."""
        self.auto_reset = True
        """Whether a game that ends is replaced at once by a new one (a search's rollouts
        turn it off: a finished game then stays over, its actor ``-1``, no action legal)."""
        self._next_seed = seed + num_games
        games = np.arange(num_games)
        self.seeds: IntArray = seed + games
        """The seed of the game each slot plays now."""
        self._clear_outputs()
        self._mask: BoolArray | None = None
        self._actor: IntArray | None = None
        if deal:
            self._chance.seed(games, self.seeds)
            self._new_games(games)

    @staticmethod
    def plays(variant: str) -> bool:
        """Whether the batched engine plays ``variant``: a registered Cabo-family game whose
        hooks all have array twins."""
        try:
            name = variants.get(variant).name
        except ValueError:
            return False
        rs = RULESETS.get(name)
        return rs is not None and _missing_twin(rs) is None

    @classmethod
    def from_games(
        cls, games: Sequence[Game], seeds: Sequence[int], copies: int = 1
    ) -> FamilyBatch:
        """A batch holding ``copies`` copies of each of ``games`` (reference games of one family
        variant, seat count and options, none over), side by side, game ``i``'s later chances
        drawn from ``seeds[i]`` (a reshuffle, the next round; its copies draw alike). For
        searches, which deal worlds with the reference engine and play them out here."""
        if not games or len(seeds) != len(games) or copies < 1:
            raise ValueError("give one seed per game, at least one game and one copy")
        first = games[0]
        size = len(games) * copies
        batch = cls(first.variant, first.players, size, options=first.options, deal=False)
        slots = np.arange(0, size, copies)
        for i, game in zip(slots.tolist(), games, strict=True):
            batch._load(i, game)
        batch.seeds[:] = np.repeat(np.asarray(seeds, dtype=np.int64), copies)
        batch._chance.seed(np.arange(size), batch.seeds, lazy=True)
        # a world dealt by a search draws any card of its deck (its deck is not in order):
        # shuffling the deck once and drawing from the top is the same, and all its copies
        # then draw alike
        drawn_anyhow = np.array([game.draws is not TOP_DRAWS for game in games], dtype=bool)
        mixed = slots[drawn_anyhow]
        if len(mixed):
            decks = batch.deck[mixed]
            batch._shuffle(mixed, decks, batch.deck_n[mixed])
            batch.deck[mixed] = decks
        if copies > 1:
            source = np.repeat(slots, copies)
            for name in _PER_GAME:
                array = getattr(batch, name)
                array[:] = array[source]
            batch._chance.seed(np.arange(size), batch.seeds, lazy=True)  # the copies alike
        return batch

    def _load(self, i: int, game: Game) -> None:
        """Copy the state of the reference game ``game`` into slot ``i``."""
        if game.variant != self.variant or game.players != self.n or game.over:
            raise ValueError(f"game {i} is not an unfinished {self.variant} game of {self.n}")
        g = cast("Any", game)  # the reference engine's fields, read as its own copy does
        longest = max(len(h) for h in g.hands)
        while longest > self.P:
            self._grow()
        self.hands[i] = -1
        self.known[i] = 0
        for s, (hand, kn) in enumerate(zip(g.hands, g.known, strict=True)):
            self.hands[i, s, : len(hand)] = hand
            self.known[i, s, : len(kn)] = kn
        self.deck[i] = -1
        self.deck[i, : len(g.deck)] = g.deck
        self.deck_n[i] = len(g.deck)
        self.pile[i] = -1
        self.pile[i, : len(g.discard)] = g.discard
        self.pile_n[i] = len(g.discard)
        for name in _SCALARS:
            getattr(self, name)[i] = getattr(g, name)
        self.looked[i] = g.looked if g.looked is not None else -1
        self.give_to[i] = g.give_to if g.give_to is not None else -1
        self.peeks_left[i] = g.peeks_left
        self.totals[i] = g.totals
        self.first_look[i] = False
        for s, cards in enumerate(g.first_look):
            self.first_look[i, s, list(cards)] = True
        self._mask = None
        self._actor = None

    def take(self, games: IntArray, *, detach: bool = True) -> FamilyBatch:
        """A new batch of copies of ``games`` (indices into this one), in that order, with
        their states and their generators' states (for compacting a batch as games finish).
        ``detach=False`` hands the generators over instead of copying them (faster; this
        batch must not be played afterwards)."""
        games = np.asarray(games, dtype=np.int64)
        out = FamilyBatch.__new__(FamilyBatch)
        out.__dict__.update(self.__dict__)
        out.size = len(games)
        for name in _PER_GAME:
            setattr(out, name, getattr(self, name)[games].copy())
        out._chance = self._chance.take_games(games, detach)
        out._mask = None
        out._actor = None
        return out

    def state_of(self, i: int) -> dict[str, object]:
        """Game ``i``'s complete state, hidden cards included, in the reference engine's own
        terms (its field names; hands and their knowledge without trailing empty places): for
        tests that hold the two engines side by side, never for a player."""
        hands = [[int(c) for c in h] for h in self.hands[i]]
        known = [[int(k) for k in kn] for kn in self.known[i]]
        for s in range(self.n):
            while hands[s] and hands[s][-1] < 0:
                hands[s].pop()
            del known[s][len(hands[s]) :]
        state: dict[str, object] = {
            "hands": hands,
            "known": known,
            "deck": self.deck[i, : self.deck_n[i]].tolist(),
            "discard": self.pile[i, : self.pile_n[i]].tolist(),
            "looked": tuple(self.looked[i].tolist()) if self.looked[i, 0] >= 0 else None,
            "give_to": tuple(self.give_to[i].tolist()) if self.give_to[i, 0] >= 0 else None,
            "peeks_left": self.peeks_left[i].tolist(),
            "totals": self.totals[i].tolist(),
            "first_look": [sorted(np.nonzero(f)[0].tolist()) for f in self.first_look[i]],
        }
        for name in _SCALARS:
            value = getattr(self, name)[i]
            state[name] = bool(value) if name == "look_valid" else int(value)
        return state

    def projected_scores(self) -> tuple[IntArray, BoolArray]:
        """``[N, seats]``: the round's scores (and winners) as the hands stand, every card
        revealed (omniscient: for searches and tests, never for a player)."""
        held = self.hands
        sums = np.where(held >= 0, self.value[np.maximum(held, 0)], 0).sum(axis=2)
        return self._scores(np.arange(self.size), sums)

    # ------------------------------------------------------------------ setup
    def _check_hooks(self) -> None:
        missing = _missing_twin(self.rs)
        if missing is not None:
            raise missing

    def _decode_rows(self) -> None:
        """The kind and the relative addresses of every integer action (decoded once per
        encoding and seat count)."""
        cached = _DECODED.get(self.encoding)
        if cached is not None:
            (
                self.r_kind,
                self.r_k1,
                self.r_p1,
                self.r_k2,
                self.r_p2,
                self.r_claim,
                self.r_claim_n,
                self._terms,
            ) = cached
            return
        rows = self.encoding.rows()
        a = len(rows)
        self.r_kind = np.zeros(a, dtype=np.int64)
        self.r_k1 = np.zeros(a, dtype=np.int64)
        self.r_p1 = np.zeros(a, dtype=np.int64)
        self.r_k2 = np.zeros(a, dtype=np.int64)
        self.r_p2 = np.zeros(a, dtype=np.int64)
        self.r_claim = np.full((a, 4), -1, dtype=np.int64)
        self.r_claim_n = np.zeros(a, dtype=np.int64)
        call = self.rs.call
        for i, act in enumerate(rows):
            name, args = act.name, act.args
            addrs = [(0, x) if isinstance(x, int) else x for x in args if not isinstance(x, str)]
            if name == "draw":
                kind = K_DRAW_DECK if args == ("deck",) else K_DRAW_PILE
            elif name == call:
                kind = K_CALL
            elif name == "discard":
                kind = K_DISCARD
            elif name == "pass":
                kind = K_PASS
            elif name == "exchange":
                kind = K_EXCH_LOOKED if not args else K_EXCHANGE
            elif name == "peek":
                kind = K_PEEK
            elif name == "replace":
                kind = K_REPLACE if len(args) == 1 else K_CLAIM
            elif name == "spy":
                kind = K_SPY
            elif name == "look":
                kind = K_LOOK
            elif name == "drop":
                kind = K_DROP
            elif name == "give":
                kind = K_GIVE
            else:  # pragma: no cover - the encoding has no other words
                raise AssertionError(f"unknown action word {name!r}")
            self.r_kind[i] = kind
            if kind == K_CLAIM:
                self.r_claim[i, : len(args)] = [x for x in args if isinstance(x, int)]
                self.r_claim_n[i] = len(args)
            elif kind == K_SPY or (kind == K_DROP and addrs and addrs[0][0] != 0):
                self.r_k2[i], self.r_p2[i] = addrs[0]
                self.r_k1[i], self.r_p1[i] = addrs[0]
            elif addrs:
                self.r_k1[i], self.r_p1[i] = addrs[0]
                if len(addrs) > 1:
                    self.r_k2[i], self.r_p2[i] = addrs[1]
        self._terms = self._mask_terms()
        _DECODED[self.encoding] = (
            self.r_kind,
            self.r_k1,
            self.r_p1,
            self.r_k2,
            self.r_p2,
            self.r_claim,
            self.r_claim_n,
            self._terms,
        )

    def _allocate(self, positions: int) -> None:
        b, n, d = self.size, self.n, self.D
        self.P = positions
        self.hands = np.full((b, n, positions), -1, dtype=np.int64)
        """``[N, seats, positions]``: card ids (``-1``: no card)."""
        self.known = np.zeros((b, n, positions), dtype=np.int64)
        """``[N, seats, positions]``: who knows each card (bit masks, as the reference)."""
        self.deck = np.full((b, d), -1, dtype=np.int64)
        """``[N, deck size]``: the deck, its top at ``deck_n - 1``."""
        self.deck_n = np.zeros(b, dtype=np.int64)
        self.pile = np.full((b, d), -1, dtype=np.int64)
        """``[N, deck size]``: the discard pile, its top at ``pile_n - 1``."""
        self.pile_n = np.zeros(b, dtype=np.int64)
        self.drawn = np.full(b, -1, dtype=np.int64)
        self.drawn_from = np.zeros(b, dtype=np.int64)
        self.drawn_known = np.zeros(b, dtype=np.int64)
        self.phase = np.zeros(b, dtype=np.int64)
        """``[N]``: the phase number (:data:`~cardtable.games.family.phases.PHASES`)."""
        self.turn = np.zeros(b, dtype=np.int64)
        self.first = np.zeros(b, dtype=np.int64)
        self.caller = np.full(b, -1, dtype=np.int64)
        self.final_left = np.zeros(b, dtype=np.int64)
        self.turns = np.zeros(b, dtype=np.int64)
        self.power = np.zeros(b, dtype=np.int64)
        self.power_card = np.full(b, -1, dtype=np.int64)
        self.looked = np.full((b, 4), -1, dtype=np.int64)
        self.look_valid = np.zeros(b, dtype=bool)
        self.give_to = np.full((b, 2), -1, dtype=np.int64)
        self.resume = np.full(b, PH_TURN, dtype=np.int64)
        self.snap_card = np.full(b, -1, dtype=np.int64)
        self.snap_passed = np.zeros(b, dtype=np.int64)
        self.peeks_left = np.zeros((b, n), dtype=np.int64)
        self.first_look = np.zeros((b, n, d), dtype=bool)
        """``[N, seats, cards]``: the cards of each seat's first peek, until its first draw."""
        self.epoch = np.zeros(b, dtype=np.int64)
        self.round_no = np.zeros(b, dtype=np.int64)
        self.totals = np.zeros((b, n), dtype=np.int64)
        self.resets_used = np.zeros(b, dtype=np.int64)

    def _grow(self) -> None:
        """Double the positions every hand may hold (a hand outgrew them)."""
        extra = self.P
        self.hands = np.concatenate([self.hands, np.full_like(self.hands, -1)], axis=2)
        self.known = np.concatenate([self.known, np.zeros_like(self.known)], axis=2)
        self.P += extra

    def _clear_outputs(self) -> None:
        b, n = self.size, self.n
        self._done = np.zeros(b, dtype=bool)
        self._rewards = np.zeros((b, n), dtype=np.float32)
        self._final = np.zeros((b, n), dtype=np.int64)
        self._winners = np.zeros((b, n), dtype=bool)
        self._round_ended = np.zeros(b, dtype=bool)
        self._round_scores = np.zeros((b, n), dtype=np.int64)
        self._round_winners = np.zeros((b, n), dtype=bool)

    # ------------------------------------------------------------------ queries
    @property
    def actor(self) -> IntArray:
        """``[N]``: the seat that acts in each game (the lowest, where several may; ``-1`` in
        a game that is over). Read-only."""
        if self._actor is None:
            self._actor = self._compute_actor()
        return self._actor

    def _compute_actor(self) -> IntArray:
        act = self.turn.copy()
        peek = self.phase == PH_PEEK
        if peek.any():
            act[peek] = np.argmax(self.peeks_left[peek] > 0, axis=1)
        snap = self.phase == PH_SNAP
        if snap.any():
            passed = (self.snap_passed[snap, None] >> np.arange(self.n)) & 1
            act[snap] = np.argmax(passed == 0, axis=1)
        act[self.phase == PH_OVER] = -1
        return act

    def relative(self, seats: IntArray) -> IntArray:
        """``[N, seats]``: for each game, the seat ``k`` places after ``seats`` (column ``k``)."""
        return (seats[:, None] + np.arange(self.n)[None, :]) % self.n

    def occupied(self) -> BoolArray:
        """``[N, seats, positions]``: which positions hold a card."""
        return self.hands >= 0

    def can_draw_deck(self) -> BoolArray:
        """``[N]``: whether ``draw deck`` can be had (a card is there, or can be reshuffled in
        where the deck end reshuffles)."""
        can: BoolArray = self.deck_n > 0
        if self._reshuffles:
            can = can | (self.pile_n > 1)
        return can

    def legal_mask(self) -> BoolArray:
        """``[N, actions]``: the legal integer actions of each game's actor (read-only; the
        reference engine's ``legal_actions`` of that seat, rows beyond the cap left out)."""
        if self._mask is None:
            self._mask = self._compute_mask()
        return self._mask

    def _mask_terms(self) -> list[tuple[IntArray, IntArray, int, str]]:
        """(rows, feature columns per row, columns used, gate) of every way a row is legal."""
        n, cap = self.n, self.cap
        true = n * cap + cap  # the always-true feature column
        kinds = self.r_kind
        terms: list[tuple[IntArray, IntArray, int, str]] = []

        def add(kind: int, gate: str, cols: list[IntArray], where: BoolArray | None = None) -> None:
            sel = kinds == kind if where is None else (kinds == kind) & where
            rows = np.nonzero(sel)[0]
            if not len(rows):
                return
            mat = np.full((len(rows), 4), true, dtype=np.int64)
            for j, c in enumerate(cols):
                mat[:, j] = c[rows]
            terms.append((rows, mat, max(1, len(cols)), gate))

        addr1 = self.r_k1 * cap + self.r_p1
        addr2 = self.r_k2 * cap + self.r_p2
        own1 = self.r_p1  # the actor's own position (relative seat 0)
        unknown = n * cap + self.r_p1
        add(K_DRAW_DECK, "draw_deck", [])
        add(K_DRAW_PILE, "draw_pile", [])
        add(K_CALL, "call", [])
        add(K_DISCARD, "discard", [])
        add(K_PASS, "pass", [])
        add(K_EXCH_LOOKED, "exchange_looked", [])
        add(K_PEEK, "peek_first", [unknown])
        add(K_PEEK, "power_peek", [own1])
        add(K_REPLACE, "drawn", [own1])
        claim = [np.where(self.r_claim[:, j] >= 0, self.r_claim[:, j], true) for j in range(4)]
        add(K_CLAIM, "drawn", claim)
        add(K_SPY, "spy", [addr2])
        add(K_EXCHANGE, "exchange", [addr1, addr2])
        add(K_LOOK, "look", [own1, addr2])
        own_drop = self.r_k1 == 0
        add(K_DROP, "drop_pile", [addr1], own_drop)
        add(K_DROP, "snap", [addr1], own_drop)
        add(K_DROP, "drop_pile", [addr2], ~own_drop)
        add(K_GIVE, "give", [own1])
        return terms

    def _compute_mask(self) -> BoolArray:
        b, n, cap = self.size, self.n, self.cap
        actor = self.actor
        rows = np.arange(b)[:, None]
        occ = self.hands >= 0
        rel = self.relative(actor)
        occ_rel = occ[rows, rel]  # [N, seats, positions], seat k = k after the actor
        own_any = occ_rel[:, 0].any(axis=1)
        others_any = occ_rel[:, 1:].any(axis=(1, 2))
        seats_with = occ.any(axis=2).sum(axis=1)
        feat = np.zeros((b, n * cap + cap + 1), dtype=bool)
        feat[:, : n * cap] = occ_rel[:, :, :cap].reshape(b, n * cap)
        own_known = (self.known[np.arange(b), actor, :cap] >> actor[:, None]) & 1
        feat[:, n * cap : n * cap + cap] = occ_rel[:, 0, :cap] & (own_known == 0)
        feat[:, -1] = True
        ph, pw = self.phase, self.power
        turn, drawn, power = ph == PH_TURN, ph == PH_DRAWN, ph == PH_POWER
        can_deck = self.can_draw_deck()
        offer_empty = np.select(
            [pw == PEEK, pw == SPY, (pw == SWAP) | (pw == LOOK), pw == SWAP_ANY],
            [~own_any, ~others_any, ~own_any | ~others_any, seats_with < 2],
            False,
        )
        free = self.rs.pile_draw_free
        gates = {
            "draw_deck": turn & can_deck,
            "draw_pile": turn & (self.pile_n > 0) & (own_any | free),
            "call": turn & (self.caller < 0),
            "discard": drawn & ((self.drawn_from == FROM_DECK) | ~own_any | free),
            "pass": (power & (~self.must_use[pw] | offer_empty))
            | (ph == PH_LOOKED)
            | (ph == PH_GIVE)
            | (ph == PH_SNAP),
            "exchange_looked": (ph == PH_LOOKED) & self.look_valid,
            "peek_first": ph == PH_PEEK,
            "power_peek": power & (pw == PEEK),
            "drawn": drawn,
            "spy": power & (pw == SPY),
            "exchange": power & ((pw == SWAP) | (pw == SWAP_ANY)),
            "look": power & (pw == LOOK),
            "drop_pile": self._pile_phases[ph] & (self.pile_n > 0),
            "snap": (ph == PH_SNAP) & self.rs.drops.snaps,
            "give": ph == PH_GIVE,
        }
        mask = np.zeros((b, len(self.r_kind)), dtype=bool)
        where = {name: np.nonzero(gate)[0] for name, gate in gates.items()}
        for term_rows, cols, used, gate_name in self._terms:
            games = where[gate_name]
            if not len(games):
                continue
            sub = feat[games]
            cond = sub[:, cols[:, 0]]
            for j in range(1, used):
                cond &= sub[:, cols[:, j]]
            mask[games[:, None], term_rows[None, :]] |= cond
        return mask

    # ------------------------------------------------------------------ playing
    def step(self, actions: npt.ArrayLike, where: npt.ArrayLike | None = None) -> Step:
        """Play ``actions[i]`` (an integer action) for the actor of game ``i``, every game at
        once, or only the games where ``where`` (``[N]`` booleans) is true, the others'
        actions being ignored; games that end are replaced by new ones. ``ValueError`` (and
        nothing played) if an action played is out of range or not legal."""
        acts = np.asarray(actions)
        if acts.shape != (self.size,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {self.size} integers")
        if where is None:
            games = np.arange(self.size)
        else:
            chosen = np.asarray(where)
            if chosen.shape != (self.size,) or chosen.dtype != np.bool_:
                raise ValueError(f"where must be {self.size} booleans")
            games = np.nonzero(chosen)[0]
        acts = acts.astype(np.int64)
        played = acts[games]
        if ((played < 0) | (played >= len(self.r_kind))).any():
            raise ValueError(f"actions must lie in 0..{len(self.r_kind) - 1}")
        legal = self.legal_mask()[games, played]
        if not legal.all():
            bad = int(games[np.nonzero(~legal)[0][0]])
            raise ValueError(f"action {int(acts[bad])} is not legal in game {bad}")
        actor = self.actor
        self._clear_outputs()
        self._mask = None
        self._actor = None
        kinds = self.r_kind[played]
        order = games[np.argsort(kinds, kind="stable")]
        counts = np.bincount(kinds, minlength=_KINDS)
        start = 0
        for kind in range(_KINDS):
            count = int(counts[kind])
            if not count:
                continue
            g = order[start : start + count]
            start += count
            self._HANDLERS[kind](self, g, actor[g], acts[g])
        if self.auto_reset:
            self._replace(np.nonzero(self._done)[0])
        return Step(
            self._done,
            self._rewards,
            self._final,
            self._winners,
            self._round_ended,
            self._round_scores,
            self._round_winners,
        )

    def restart(self, where: npt.ArrayLike) -> None:
        """Abandon the games where ``where`` (``[N]`` booleans) is true and deal new ones in
        their slots, as if they had ended."""
        chosen = np.asarray(where, dtype=bool)
        if chosen.shape != (self.size,):
            raise ValueError(f"where must be {self.size} booleans")
        self._mask = None
        self._actor = None
        self._replace(np.nonzero(chosen)[0])

    def _replace(self, done: IntArray) -> None:
        """Deal a new game in each slot of ``done`` (a fresh seed, or the slot's generator)."""
        if not len(done):
            return
        if self.reseed:
            seeds = self._next_seed + np.arange(len(done))
            self._next_seed += len(done)
            self.seeds[done] = seeds
            self._chance.seed(done, seeds)
        else:
            self.seeds[done] = -1
        self._new_games(done)

    # -- handlers (one per action kind; g: the games, s: their actors, r: their rows)
    def _h_peek(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        pos = self.r_p1[r]
        self.known[g, s, pos] |= 1 << s
        first = self.phase[g] == PH_PEEK
        gi, si = g[first], s[first]
        if len(gi):
            if self.rs.peek_shown_until_draw:
                self.first_look[gi, si, self.hands[gi, si, pos[first]]] = True
            self.peeks_left[gi, si] -= 1
            ready = gi[self.peeks_left[gi].sum(axis=1) == 0]
            self._begin_turn(ready, self.first[ready])
        self._power_done(g[~first])

    def _h_draw_deck(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        cid = self._draw_from_deck(g)
        self.drawn_from[g] = FROM_DECK
        self.drawn_known[g] = self.everyone if self.rs.drawn_public else 1 << s
        self._drawn(g, s, cid)

    def _h_draw_pile(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        self.pile_n[g] -= 1
        cid = self.pile[g, self.pile_n[g]]
        self.pile[g, self.pile_n[g]] = -1
        self.drawn_from[g] = FROM_DISCARD
        self.drawn_known[g] = self.everyone
        self._drawn(g, s, cid)

    def _drawn(self, g: IntArray, s: IntArray, cid: IntArray) -> None:
        self.drawn[g] = cid
        self.phase[g] = PH_DRAWN
        if self.rs.peek_shown_until_draw:
            self.first_look[g, s] = False

    def _h_call(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        self.caller[g] = s
        if self.rs.call_ends_round:
            self._end_round(g)
        else:
            self.final_left[g] = self.n - 1
            self._end_turn(g)

    def _take_drawn(self, g: IntArray) -> tuple[IntArray, IntArray]:
        cid, kn = self.drawn[g], self.drawn_known[g]
        self.drawn[g] = -1
        self.drawn_from[g] = 0
        self.drawn_known[g] = 0
        return cid, kn

    def _push(self, g: IntArray, cid: IntArray) -> None:
        self.pile[g, self.pile_n[g]] = cid
        self.pile_n[g] += 1

    def _h_replace(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        pos = self.r_p1[r]
        old = self.hands[g, s, pos]
        cid, kn = self._take_drawn(g)
        self.hands[g, s, pos] = cid
        self.known[g, s, pos] = kn
        self._push(g, old)
        self._card_landed(g, old)

    def _h_claim(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        ps, cnt = self.r_claim[r], self.r_claim_n[r]
        safe = np.where(ps >= 0, ps, ps[:, :1])
        vals = self.value[self.hands[g[:, None], s[:, None], safe]]
        ok = (vals == vals[:, :1]).all(axis=1)
        cid, kn = self._take_drawn(g)
        go, so, po = g[ok], s[ok], ps[ok]
        for j in range(4):
            act = cnt[ok] > j
            ga, sa, pa = go[act], so[act], po[act, j]
            self._push(ga, self.hands[ga, sa, pa])
            self.hands[ga, sa, pa] = -1
            self.known[ga, sa, pa] = 0
        if len(go):
            self.hands[go, so, po[:, 0]] = cid[ok]
            self.known[go, so, po[:, 0]] = kn[ok]
            self._card_landed(go, self.pile[go, self.pile_n[go] - 1])
        bad = ~ok
        gb, sb, pb = g[bad], s[bad], ps[bad]
        for j in range(4):
            act = cnt[bad] > j
            self.known[gb[act], sb[act], pb[act, j]] = self.everyone
        self._place(gb, sb, cid[bad], kn[bad])
        self._end_turn(gb)

    def _h_discard(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        came = self.drawn_from[g]
        cid, _ = self._take_drawn(g)
        self._push(g, cid)
        pw = self.power_of[cid]
        if not self.rs.pile_draw_free:
            pw = np.where(came == FROM_DECK, pw, 0)
        has = pw > 0
        gp = g[has]
        self.phase[gp] = PH_POWER
        self.power[gp] = pw[has]
        self.power_card[gp] = cid[has]
        self._card_landed(g[~has], cid[~has])

    def _h_spy(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        t = (s + self.r_k2[r]) % self.n
        self.known[g, t, self.r_p2[r]] |= 1 << s
        self._power_done(g)

    def _swap(self, g: IntArray, sa: IntArray, pa: IntArray, sb: IntArray, pb: IntArray) -> None:
        for arr in (self.hands, self.known):
            a, b = arr[g, sa, pa], arr[g, sb, pb]
            arr[g, sa, pa] = b
            arr[g, sb, pb] = a

    def _h_exchange(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        n = self.n
        self._swap(g, (s + self.r_k1[r]) % n, self.r_p1[r], (s + self.r_k2[r]) % n, self.r_p2[r])
        self._power_done(g)

    def _h_exch_looked(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        lk = self.looked[g]
        self._swap(g, lk[:, 0], lk[:, 1], lk[:, 2], lk[:, 3])
        self._power_done(g)

    def _h_look(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        pos, t, other = self.r_p1[r], (s + self.r_k2[r]) % self.n, self.r_p2[r]
        bit = 1 << s
        self.known[g, s, pos] |= bit
        self.known[g, t, other] |= bit
        self.looked[g] = np.stack([s, pos, t, other], axis=1)
        self.look_valid[g] = True
        self.phase[g] = PH_LOOKED

    def _h_pass(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        ph = self.phase[g]
        snap = ph == PH_SNAP
        gs = g[snap]
        self.snap_passed[gs] |= 1 << s[snap]
        self._end_turn(gs[self.snap_passed[gs] == self.allmask])
        give = ph == PH_GIVE
        gg = g[give]
        self.give_to[gg] = -1
        self.phase[gg] = self.resume[gg]
        self._power_done(g[~snap & ~give])

    def _h_drop(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        n = self.n
        t = (s + self.r_k1[r]) % n
        pos = self.r_p1[r]
        snap = self.phase[g] == PH_SNAP
        if snap.any():
            self._snap(g[snap], s[snap], pos[snap])
        pile = ~snap
        if pile.any():
            self._drop_on_pile(g[pile], s[pile], t[pile], pos[pile])

    def _snap(self, g: IntArray, s: IntArray, pos: IntArray) -> None:
        cid = self.hands[g, s, pos]
        self.hands[g, s, pos] = -1
        self.known[g, s, pos] = 0
        self._push(g, cid)
        bad = self.key[cid] != self.key[self.snap_card[g]]
        gb, sb = g[bad], s[bad]
        self._penalty(gb, sb)
        self._penalty(gb, sb)
        self.snap_passed[gb] |= 1 << sb
        rest = g[~self._tick(g)]
        self._end_turn(rest[self.snap_passed[rest] == self.allmask])

    def _drop_on_pile(self, g: IntArray, s: IntArray, t: IntArray, pos: IntArray) -> None:
        self._touch_looked(g, t, pos)
        cid = self.hands[g, t, pos]
        top = self.pile[g, self.pile_n[g] - 1]
        hit = self.key[cid] == self.key[top]
        gh, sh, th, ph = g[hit], s[hit], t[hit], pos[hit]
        self.hands[gh, th, ph] = -1
        self.known[gh, th, ph] = 0
        self._push(gh, cid[hit])
        give = (th != sh) & (self.hands[gh, sh] >= 0).any(axis=1)
        gg = gh[give]
        self.give_to[gg, 0] = th[give]
        self.give_to[gg, 1] = ph[give]
        self.resume[gg] = self.phase[gg]
        self.phase[gg] = PH_GIVE
        miss = ~hit
        gm = g[miss]
        self.known[gm, t[miss], pos[miss]] = self.everyone
        self._penalty(gm, s[miss])
        self._tick(g)

    def _h_give(self, g: IntArray, s: IntArray, r: IntArray) -> None:
        pos = self.r_p1[r]
        t, tp = self.give_to[g, 0], self.give_to[g, 1]
        self._touch_looked(g, s, pos)
        self._touch_looked(g, t, tp)
        self.hands[g, t, tp] = self.hands[g, s, pos]
        self.known[g, t, tp] = self.known[g, s, pos]
        self.hands[g, s, pos] = -1
        self.known[g, s, pos] = 0
        self.give_to[g] = -1
        self.phase[g] = self.resume[g]

    _HANDLERS = (
        _h_draw_deck,
        _h_draw_pile,
        _h_call,
        _h_discard,
        _h_pass,
        _h_exch_looked,
        _h_peek,
        _h_replace,
        _h_claim,
        _h_spy,
        _h_exchange,
        _h_look,
        _h_drop,
        _h_give,
    )

    # -- the reference engine's helpers, over sets of games
    def _touch_looked(self, g: IntArray, s: IntArray, pos: IntArray) -> None:
        lk = self.looked[g]
        hit = ((lk[:, 0] == s) & (lk[:, 1] == pos)) | ((lk[:, 2] == s) & (lk[:, 3] == pos))
        self.look_valid[g[hit]] = False

    def _penalty(self, g: IntArray, s: IntArray) -> None:
        if not len(g):
            return
        cid = self._draw_from_deck(g)
        ok = cid >= 0
        go, so = g[ok], s[ok]
        pos = self._place(go, so, cid[ok], np.zeros(len(go), dtype=np.int64))
        self._touch_looked(go, so, pos)

    def _place(self, g: IntArray, s: IntArray, cid: IntArray, kn: IntArray) -> IntArray:
        """Put each card at its seat's lowest empty position (a new one past the last)."""
        if not len(g):
            return g
        empty = self.hands[g, s] < 0
        if not empty.any(axis=1).all():
            self._grow()
            empty = self.hands[g, s] < 0
        pos: IntArray = np.argmax(empty, axis=1)
        self.hands[g, s, pos] = cid
        self.known[g, s, pos] = kn
        return pos

    def _draw_from_deck(self, g: IntArray) -> IntArray:
        """Each game's top card (reshuffling an empty deck where the rules say so); -1: none."""
        if self._reshuffles:
            self._reshuffle(g[self.deck_n[g] == 0])
        has = self.deck_n[g] > 0
        gh = g[has]
        self.deck_n[gh] -= 1
        cid = np.full(len(g), -1, dtype=np.int64)
        cid[has] = self.deck[gh, self.deck_n[gh]]
        self.deck[gh, self.deck_n[gh]] = -1
        return cid

    def _shuffle(self, g: IntArray, arr: IntArray, lengths: IntArray) -> None:
        """Shuffle the first ``lengths[j]`` entries of each row ``arr[j]`` in place, exactly as
        :meth:`cardtable.rng.Rng.shuffle_stable` does with game ``g[j]``'s generator."""
        if not len(g):
            return
        u = self._chance.take(g, np.maximum(lengths - 1, 0))
        rows = np.arange(len(g))
        last = lengths - 1
        top = int(last.max())
        # the i-th swap of row r uses its (last[r] - i)-th double; rows shorter skip it
        i = np.arange(top, 0, -1)
        k = last[:, None] - i[None, :]
        act = k >= 0
        u_at = u[rows[:, None], np.maximum(k, 0)]
        js = np.where(act, (u_at * (i[None, :] + 1)).astype(np.int64), i[None, :])
        # one flat row per position (card ids fit 16 bits): position p of game r at p * G + r
        width = len(g)
        flat = np.ascontiguousarray(arr.T, dtype=np.int16).ravel()
        targets = js * width + rows[:, None]
        for step, pos in enumerate(range(top, 0, -1)):
            where = targets[:, step]
            here = flat[pos * width : (pos + 1) * width].copy()
            flat[pos * width : (pos + 1) * width] = flat.take(where)
            flat.put(where, here)
        arr[:] = flat.reshape(-1, width).T

    def _reshuffle(self, g: IntArray) -> None:
        g = g[self.pile_n[g] >= 2]
        if not len(g):
            return
        n_rest = self.pile_n[g] - 1
        top = self.pile[g, n_rest]
        rest = self.pile[g].copy()
        rest[np.arange(len(g)), n_rest] = -1
        self._shuffle(g, rest, n_rest)
        self.deck[g] = rest
        self.deck_n[g] = n_rest
        self.pile[g] = -1
        self.pile[g, 0] = top
        self.pile_n[g] = 1
        self.epoch[g] += 1

    def _tick(self, g: IntArray) -> BoolArray:
        self.turns[g] += 1
        ended = self.turns[g] >= self.max_turns
        self._end_round(g[ended])
        return ended

    def _card_landed(self, g: IntArray, cid: IntArray) -> None:
        if not len(g):
            return
        if self.rs.drops.snaps:
            self.phase[g] = PH_SNAP
            self.snap_card[g] = cid
            self.snap_passed[g] = 0
        else:
            self._end_turn(g)

    def _power_done(self, g: IntArray) -> None:
        if not len(g):
            return
        self.power[g] = 0
        self.looked[g] = -1
        self._card_landed(g, self.power_card[g])

    def _begin_turn(self, g: IntArray, seats: IntArray) -> None:
        if not len(g):
            return
        self.turn[g] = seats
        self.phase[g] = PH_TURN
        if self._reshuffles:
            self._reshuffle(g[self.deck_n[g] == 0])
            self._end_round(g[self.deck_n[g] == 0])

    def _end_turn(self, g: IntArray) -> None:
        if not len(g):
            return
        self.turns[g] += 1
        ends = np.zeros(len(g), dtype=bool)
        if not self._reshuffles:
            ends |= self.deck_n[g] == 0
        called = self.caller[g] >= 0
        count = ~ends & called & (self.turn[g] != self.caller[g])
        self.final_left[g[count]] -= 1
        ends |= count & (self.final_left[g] <= 0)
        ends |= ~called & (self.turns[g] >= self.max_turns)
        self._end_round(g[ends])
        rest = g[~ends]
        self._begin_turn(rest, (self.turn[rest] + 1) % self.n)

    # -- rounds and games
    def _new_games(self, g: IntArray) -> None:
        self.totals[g] = 0
        self.round_no[g] = 0
        self.resets_used[g] = 0
        if self.first_option is not None:
            first = np.full(len(g), self.first_option, dtype=np.int64)
        elif self.rs.random_first:
            u = self._chance.take(g, np.ones(len(g), dtype=np.int64))
            first = (u[:, 0] * self.n).astype(np.int64)
        else:
            first = np.zeros(len(g), dtype=np.int64)
        self._start_round(g, first)

    def _start_round(self, g: IntArray, first: IntArray) -> None:
        if not len(g):
            return
        n, d, rs = self.n, self.D, self.rs
        self.round_no[g] += 1
        order = np.tile(np.arange(d, dtype=np.int64), (len(g), 1))
        self._shuffle(g, order, np.full(len(g), d, dtype=np.int64))
        size = rs.hand_size
        self.hands[g] = -1
        self.known[g] = 0
        # the deck's top is the order's first card; the deal goes round the table per position
        dealt = order[:, : size * n].reshape(len(g), size, n).transpose(0, 2, 1)
        self.hands[g, :, :size] = dealt
        used = size * n
        self.pile[g] = -1
        if rs.discard_starts:
            self.pile[g, 0] = order[:, used]
            self.pile_n[g] = 1
            used += 1
        else:
            self.pile_n[g] = 0
        self.deck[g] = -1
        self.deck[g, : d - used] = order[:, used:][:, ::-1]
        self.deck_n[g] = d - used
        self.drawn[g] = -1
        self.drawn_from[g] = 0
        self.drawn_known[g] = 0
        self.epoch[g] = 0
        self.first[g] = first
        self.turn[g] = first
        self.caller[g] = -1
        self.final_left[g] = 0
        self.turns[g] = 0
        self.power[g] = 0
        self.power_card[g] = -1
        self.looked[g] = -1
        self.look_valid[g] = False
        self.give_to[g] = -1
        self.resume[g] = PH_TURN
        self.snap_card[g] = -1
        self.snap_passed[g] = 0
        self.first_look[g] = False
        if rs.auto_peek:
            self.peeks_left[g] = 0
            for pos in rs.auto_peek:
                self.known[g, :, pos] |= 1 << np.arange(n)
            self._begin_turn(g, first)
        elif rs.initial_peeks:
            self.peeks_left[g] = rs.initial_peeks
            self.phase[g] = PH_PEEK
        else:
            self.peeks_left[g] = 0
            self._begin_turn(g, first)

    def _scores(self, g: IntArray, sums: IntArray) -> tuple[IntArray, BoolArray]:
        """The round's scores and winners of games ``g`` under the rule set's scoring."""
        scoring = self.rs.scoring
        caller = self.caller[g]
        rows = np.arange(len(g))
        scores = sums.copy()
        kind = type(scoring)
        if kind not in (Scoring, CaboScoring, GaboScoring):
            return self._scores_one_by_one(g, sums)
        called = caller >= 0
        safe = np.where(called, caller, 0)
        others = sums.copy()
        others[rows, safe] = np.iinfo(np.int64).max
        others_min = others.min(axis=1)
        mine = sums[rows, safe]
        if kind is CaboScoring:
            vals = np.where(self.hands[g] >= 0, self.value[self.hands[g]], -1000)
            held = (self.hands[g] >= 0).sum(axis=2)
            kami = (held == 4) & ((vals == 12).sum(axis=2) == 2) & ((vals == 13).sum(axis=2) == 2)
            has_kami = kami.any(axis=1)
            who = np.argmax(kami, axis=1)
            lost = called & ~has_kami & (mine > others_min)
            won = called & ~has_kami & ~lost
            scores[rows[lost], safe[lost]] += self.caller_penalty
            scores[rows[won], safe[won]] = 0
            scores[has_kami] = 50
            scores[rows[has_kami], who[has_kami]] = 0
        elif kind is GaboScoring:
            lost = called & ((others_min < mine) | (mine > 5))
            scores[rows[lost], safe[lost]] += self.caller_penalty
        winners = scores == scores.min(axis=1, keepdims=True)
        if kind is GaboScoring:
            alone = called & winners[rows, safe]
            winners[alone] = False
            winners[rows[alone], safe[alone]] = True
        return scores, winners

    def _scores_one_by_one(self, g: IntArray, sums: IntArray) -> tuple[IntArray, BoolArray]:
        scoring = self.rs.scoring
        scores = np.zeros_like(sums)
        winners = np.zeros(sums.shape, dtype=bool)
        for j, game in enumerate(g.tolist()):
            hands = self.hands[game]
            values = [[int(self.value[c]) for c in h if c >= 0] for h in hands]
            end = RoundEnd(values, sums[j].tolist(), int(self.caller[game]), self.caller_penalty)
            sc = scoring.scores(end)
            scores[j] = sc
            winners[j, scoring.winners(end, sc)] = True
        return scores, winners

    def _over(self, totals: IntArray) -> BoolArray:
        target = self.target
        assert target is not None
        rule = self.rs.target_reached
        if type(rule).over is MatchEnd.over:
            out: BoolArray = totals.max(axis=1) > target
            return out
        if type(rule).over is type(REACHES).over:
            out = totals.max(axis=1) >= target
            return out
        return np.array([rule.over(t.tolist(), target) for t in totals], dtype=bool)

    def _end_round(self, g: IntArray) -> None:
        if not len(g):
            return
        n = self.n
        holding = self.drawn[g] >= 0
        gd = g[holding]
        self._push(gd, self.drawn[gd])
        self._take_drawn(gd)
        held = self.hands[g]
        sums = np.where(held >= 0, self.value[held], 0).sum(axis=2)
        scores, winners = self._scores(g, sums)
        self._round_ended[g] = True
        self._round_scores[g] = scores
        self._round_winners[g] = winners
        totals = self.totals[g] + scores
        if self.reset_at_target and self.target is not None:
            bits = 1 << np.arange(n)
            fresh = (self.resets_used[g][:, None] & bits) == 0
            reset = (totals == self.target) & fresh
            totals = np.where(reset, self.target // 2, totals)
            self.resets_used[g] |= (reset * bits).sum(axis=1)
        self.totals[g] = totals
        self.known[g] = np.where(self.hands[g] >= 0, self.everyone, 0)
        if self.target is None:
            over = np.ones(len(g), dtype=bool)
            final_winners = winners
        else:
            over = self._over(totals)
            final_winners = totals == totals.min(axis=1, keepdims=True)
        go = g[over]
        self.phase[go] = PH_OVER
        self._done[go] = True
        self._final[go] = totals[over]
        fw = final_winners[over]
        self._winners[go] = fw
        k = fw.sum(axis=1, keepdims=True)
        win = (n / k - 1) / (n - 1)
        self._rewards[go] = np.where(fw, win, -1 / (n - 1)).astype(np.float32)
        rest = g[~over]
        self._start_round(rest, (self.first[rest] + 1) % n)
