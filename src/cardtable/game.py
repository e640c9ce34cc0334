"""The game contract shared by every engine: validation, logging, events.

An engine subclasses :class:`Game` and implements the rule hooks (``legal_actions``,
``apply``, ``view`` …). :meth:`Game.play` is the checked entry point used by front ends:
parse → seat may act → action legal → apply → log. :meth:`Game.apply` is the unchecked fast
path for agents and rollouts.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from random import Random
from typing import TYPE_CHECKING, ClassVar, TypeAlias, TypeVar, cast

from .errors import (
    GameOver,
    IllegalAction,
    MalformedAction,
    NoSuchSeat,
    NotYourTurn,
    RuleForbids,
)
from .events import Happening
from .match import Result
from .notation import Action, parse
from .rng import Rng

if TYPE_CHECKING:
    from .views import View, ViewTail

__all__ = [
    "RANDOM_DRAWS",
    "TOP_DRAWS",
    "ChanceDrawn",
    "DrawSource",
    "Event",
    "Game",
    "OptionValue",
    "Options",
]

G = TypeVar("G", bound="Game")
T = TypeVar("T")

RECENT_EVENTS = 24
"""How many recent events a view carries."""

OptionValue: TypeAlias = bool | int | str | None
"""The value of one rule option (``None`` where an option allows it, e.g. ``target``)."""

Options: TypeAlias = dict[str, OptionValue]
"""Rule options by name, as given to :func:`~cardtable.variants.new_game` and kept, resolved,
in :attr:`Game.options`; each game reads its own into a typed record (``FamilyOptions``,
``QuteOptions``). :mod:`cardtable.variants` re-exports both names."""

_RngState: TypeAlias = tuple[object, ...] | int
"""A generator's state as a copy keeps it: what ``random.Random.getstate`` gives, or the seed
of a generator not yet built (a determinized copy's)."""


class Event:
    """One event as the game keeps it: what happened (a typed
    :class:`~cardtable.events.Happening`, its secret fields filled) and the seats allowed to
    see those secret fields.

    A card shown to everyone at that moment (a discarded card, one taken from the discard pile,
    a card shown by a wrong drop or claim) is public: every seat, spectators and views without
    memory aid included, may read it in the log then and later. A secret field holds what only
    a part of the table saw (a peek, a spy, a private draw); everyone else reads ``None``.
    """

    __slots__ = ("_json", "_public", "audience", "full", "seq", "type")

    def __init__(self, seq: int, full: Happening, audience: int = -1) -> None:
        self.seq = seq
        """Running number of the event in its game."""
        self.full = full
        """What happened, secret fields included."""
        self.audience = audience
        """Bit mask of seats (bit ``n`` = spectators) allowed to see the secret fields
        (``-1``: everyone)."""
        self.type = full.KIND
        """What happened: ``draw``, ``replace``, ``spy`` …"""
        self._public: Happening | None = full if audience == -1 or not full.SECRET else None
        self._json: tuple[dict[str, object] | None, dict[str, object] | None] = (None, None)

    @property
    def public(self) -> Happening:
        """What happened as a seat outside the audience sees it (made when first asked)."""
        public = self._public
        if public is None:
            public = self._public = self.full.hidden()
        return public

    def seen(self, bit: int) -> Happening:
        """The event as the holder of ``bit`` (``1 << seat``) may see it."""
        return self.full if self.audience & bit else self.public

    def seen_by(self, seat: int) -> Happening:
        """The event as ``seat`` may see it."""
        return self.seen(1 << seat)

    def visible(self, bit: int) -> dict[str, object]:
        """The event as the holder of ``bit`` may see it, as JSON (a fresh dict)."""
        inside = bool(self.audience & bit)
        cached = self._json[inside]
        if cached is None:
            cached = self.seen(bit).to_json(self.seq)
            self._json = (self._json[0], cached) if inside else (cached, self._json[1])
        return dict(cached)

    def for_seat(self, seat: int) -> dict[str, object]:
        """The event as ``seat`` may see it, as JSON."""
        return self.visible(1 << seat)

    def redacted(self, bit: int) -> Event:
        """A copy holding only what the holder of ``bit`` may see."""
        if self.audience & bit or self.public is self.full:
            return self
        return Event(self.seq, self.public)

    def __repr__(self) -> str:
        return f"Event({self.seq}, {self.full!r})"


class DrawSource:
    """Where every card that leaves a face-down pile (a deck, Qute's blind) comes from.

    An engine takes each such card — deals, draws, penalties — with
    ``game.draws.take(game, pile, decisive)``; the game's ``draws`` decides which card of the
    pile it is. The default (:data:`TOP_DRAWS`) takes the top card of the shuffled pile; the
    copies :meth:`Game.determinize` makes take one uniformly at random (:data:`RANDOM_DRAWS`,
    so a copy need not shuffle a deck it draws three cards from); the OpenSpiel adapter's
    source lets chance choose each card. ``pile`` holds card ids with the top at the end.
    ``decisive`` is the engine's promise about the rest of the action: ``False`` when what
    happens next in the action does not depend on which card this is (deals, penalties,
    a Cabo-family draw), ``True`` when it may (a Qute draw: a card that fits ends the turn's
    drawing), so a source that chooses cards ahead knows how far it can plan. The promise
    holds within a round: the scoring at a round's end reads every card dealt before it, so
    a source planning ahead stops where ``round_no`` changes (the OpenSpiel adapter does).
    """

    def take(self, game: Game, pile: list[int], decisive: bool) -> int:
        """Remove a card from ``pile`` (never empty) and return it: the top card."""
        return pile.pop()


class _RandomDraws(DrawSource):
    """Any card of the pile, uniformly, from the game's own generator."""

    def take(self, game: Game, pile: list[int], decisive: bool) -> int:
        """Remove and return a uniformly chosen card of ``pile``."""
        j = int(game.random.random() * len(pile))
        pile[j], pile[-1] = pile[-1], pile[j]
        return pile.pop()


TOP_DRAWS = DrawSource()
"""The top card of the shuffled pile: how every real game draws."""
RANDOM_DRAWS: DrawSource = _RandomDraws()
"""A uniformly random card of the pile: how determinized copies draw."""


class Game(ABC):
    """Base class of every engine. See DESIGN.md, "The game contract"."""

    draws: DrawSource = TOP_DRAWS
    """Where the cards leaving face-down piles come from (see :class:`DrawSource`)."""
    memory_game: bool = True
    """Whether a seat's own cards lie face down, to be remembered once seen (the Cabo family);
    ``False`` where each hand is held face up by its owner (Qute): ``memory=False`` then
    changes nothing, in views and histories alike."""

    variant: str
    """Registry name of the variant."""
    players: int
    """Number of seats."""
    seed: int
    """The seed all randomness comes from."""
    options: Options
    """Resolved rule options."""
    stacked: list[str] | None
    """The stacked deck prefix given at creation, if any."""
    round_no: int
    """The round being played (the last one, once over), from 1."""
    totals: list[int]
    """Match totals by seat, after the rounds finished so far."""
    target: int | None
    """The total that ends the match; ``None`` for a single round."""
    rounds: list[list[int]]
    """Each finished round's scores by seat."""
    _rng: Rng | None
    _rng_state: _RngState | None
    _actions: list[list[int | str]] | None
    _events: list[Event] | None
    _recent: deque[Event]
    _seq: int
    _redacted: tuple[tuple[int, int, int], tuple[Event, ...]]
    _opening: tuple[Event, ...]
    _history: list[Event]
    _redacted_history: tuple[tuple[int, int, int], tuple[Event, ...]]

    def _init_base(
        self, variant: str, players: int, seed: int, options: Options, deck: list[str] | None
    ) -> None:
        self.variant = variant
        self.players = players
        self.seed = seed
        self.options = options
        self.stacked = deck
        self._rng = Rng(seed)
        self._rng_state = None
        self._actions = []
        self._events = None
        self._recent = deque(maxlen=RECENT_EVENTS)
        self._seq = 0
        self._opening = ()
        self._history = []

    def _opened(self) -> None:
        """Engine hook, called at the end of construction: keep the deal's events."""
        assert self._events is not None
        self._opening = tuple(self._events)
        self._record(self._events)
        self._events = None

    # -- randomness ----------------------------------------------------------------------------
    @property
    def random(self) -> Rng:
        """The game's generator (copied lazily from the original in clones)."""
        rng = self._rng
        if rng is None:
            state = self._rng_state
            if isinstance(state, tuple):  # a clone's: the original's state
                rng = self._rng = Rng(0)
                rng.setstate(state)
            else:  # a determinized copy's generator, not yet built: its seed
                assert state is not None  # a copy without a generator keeps a state or seed
                rng = self._rng = Rng(state)
        self._rng_state = None  # the generator is about to move: drop the snapshot
        return rng

    @random.setter
    def random(self, rng: Rng) -> None:
        self._rng = rng
        self._rng_state = None

    def _rng_snapshot(self) -> _RngState:
        """The generator's state, cached until it is used again (cheap repeated clones)."""
        if self._rng_state is None:
            assert self._rng is not None
            self._rng_state = self._rng.getstate()
        return self._rng_state

    # -- what an engine implements ---------------------------------------------------------
    @property
    @abstractmethod
    def actors(self) -> list[int]:
        """Seats that may act now (several during simultaneous phases; none when over)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may play now (empty if it may not act)."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> None:
        """Play a legal action without checking it (fast path for agents and rollouts)."""

    @abstractmethod
    def _view(self, seat: int | None, memory: bool = True) -> View:
        """The view of ``seat`` (``None``: a spectator); built field by field, deny by default.

        ``memory=False``: the table as a person without memory aid sees it (RULES.md, Memory).
        """

    def view(self, seat: int, memory: bool = True) -> View:
        """JSON-ready dict of everything ``seat`` may know, nothing more (each engine narrows
        the type: :class:`~cardtable.views.FamilyView`, :class:`~cardtable.views.QuteView`).

        With ``memory=True`` (the default) the view remembers perfectly every card the seat has
        ever known: what agents and research interfaces read. With ``memory=False`` it is the
        table as a person without memory aid sees it: no code of a face-down card (RULES.md,
        "Memory"), and events with only their public parts (the cards shown to the whole table,
        none a peek, spy, look or private draw showed); what the seat learns privately reaches
        it only in the events :meth:`play` returns at that moment.
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat!r} at this table")
        return self._view(seat, memory or not self.memory_game)

    def open_view(self, seat: int, memory: bool = True) -> View:
        """:meth:`view` of ``seat`` with every other seat's hand cards face up (its own cards
        as the view shows them): the open hands of a practice table, one person with AI
        players whose cards the person asked to see. Never for a table of people, never in a
        rated game."""
        view = self.view(seat, memory)
        raw = cast("dict[str, object]", view)
        hands = cast("list[list[dict[str, object] | None]]", raw.get("hands", []))
        opened: list[list[dict[str, object] | None]] = []
        for owner, row in enumerate(hands):
            if owner == seat:
                opened.append(row)
                continue
            cells: list[dict[str, object] | None] = []
            for pos, cell in enumerate(row):
                if cell is not None and cell.get("card") is None:
                    cell = {**cell, "card": self.card_at(owner, pos)}
                cells.append(cell)
            opened.append(cells)
        raw["hands"] = opened
        return view

    def spectator_view(self, memory: bool = True) -> View:
        """JSON-ready dict of public information only (``memory=False``: face-up cards only,
        as for :meth:`view`)."""
        return self._view(None, memory or not self.memory_game)

    def debug_lines(self) -> list[str]:
        """The whole state, hidden cards included, as lines of text: for debugging and for
        OpenSpiel's ``debug_string``, never for a player. Engines list every field; this
        default gives the log, from which the state can be replayed."""
        return [f"log {self.log}"]

    def timed_window(self) -> str | None:
        """The kind of timed window open now, if any: a phase in which several seats act at
        once and a real table would not wait for ever (``"peek"``, ``"snap"``). Front ends put a
        clock on it and play :meth:`timeout_action` for every seat still to act when it runs
        out. ``None`` in turn-by-turn play (the default; engines with windows override it)."""
        return None

    TIMEOUT_PREFERENCE: ClassVar[tuple[str, ...]] = ("pass", "discard", "continue", "draw")
    """Words of the moves that change least, best first: the move played for a seat whose
    time runs out is the first legal move of the first of these words it may play."""

    def timeout_action(self, seat: int) -> Action:
        """The move played for ``seat`` when its window or clock runs out: the one that changes
        least (:attr:`TIMEOUT_PREFERENCE`: decline with ``pass``, throw away the card just
        drawn, let a run go on rather than end the round, draw rather than call), else its
        first legal action. ``ValueError`` if ``seat`` may not act now."""
        legal = self.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do now")
        for word in self.TIMEOUT_PREFERENCE:
            for a in legal:
                if a.name == word:
                    return a
        return legal[0]

    @property
    def opening_events(self) -> list[Event]:
        """The events of the first deal (what :meth:`play` returns for an action), such as
        kaboo's first sight of each seat's bottom row; empty for clones."""
        return list(self._opening)

    SCORE_SCALE: ClassVar[float] = 3.0
    """A typical margin between two seats' round scores: a search that turns scores into
    rewards scales them by it."""

    codes: tuple[str, ...]
    """Card codes by card id (what :meth:`knowledge` and :meth:`seen_key` hold)."""

    # -- what a search needs of a world (a determinized copy) ---------------------------------
    @abstractmethod
    def rule_of_thumb(self, seat: int, rng: Rng) -> Action:
        """The move the game's rules of thumb choose for ``seat`` (which may act): a fast,
        sensible policy that reads only what ``seat`` knows — the heuristic players' move and
        the searches' rollouts."""

    def sensible(self, seat: int, action: Action) -> bool:
        """Whether a person who knows what ``seat`` knows might play the legal ``action``
        without it being absurd (the slips of people-like players); every move by default."""
        return True

    @abstractmethod
    def seen_key(self, seat: int) -> Hashable:
        """What ``seat`` sees of the deal beyond the public actions (its own cards, those it
        knows): two worlds with the same public past and the same key are one information set
        of ``seat``."""

    @abstractmethod
    def projected_scores(self) -> list[int]:
        """The round's scores by seat as if it ended now (the round's scores, once ended)."""

    def open_world(self, rng: Rng) -> Game:
        """The real deal as a world that knows every hand but not the order of the face-down
        pile (each card it gives is a random one of it), with a generator of its own seeded
        from ``rng``: the oracle's world, for measurements only."""
        world = self.clone()
        world.seed_from(rng)
        world.draws = RANDOM_DRAWS
        return world

    def forget(self, seat: int, owner: int, pos: int) -> None:
        """Make ``seat`` no longer know the card at ``owner``'s position ``pos`` (for the memory
        models of people-like players, on a world only); games without face-down hands have
        nothing to forget (the default)."""
        return None

    def knowledge(self, seat: int) -> list[list[int]] | None:
        """What ``seat`` knows of the hand cards: per seat and position, the card id if it
        knows it, ``-2`` for a face-down card it does not, ``-1`` for no card; ``None`` in a
        game without face-down hands (the default)."""
        return None

    @abstractmethod
    def card_at(self, owner: int, pos: int) -> str | None:
        """The true code of the card at ``owner``'s hand position ``pos``, known or not;
        ``None`` where there is no card. Omniscient: for offline tools (the labels of training
        data) and tests, never for a player, a front end or an adapter's observation."""

    @abstractmethod
    def determinize(
        self,
        seat: int,
        rng: Random | int,
        weights: Mapping[tuple[int, int], Sequence[float]] | None = None,
    ) -> Game:
        """A copy consistent with all ``seat`` knows, every card it does not know re-dealt.

        ``weights`` (a belief) maps a hidden place ``(seat, position)`` to a weight per card
        id: that place is dealt a card of its pool with probability proportional to its weight
        (places not named are dealt uniformly). Hard constraints hold whatever the weights."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the game (the whole match) has ended."""

    @property
    @abstractmethod
    def round_results(self) -> Sequence[Mapping[str, object]]:
        """Every finished round: its scores, winners and the hands shown (the game's own
        typed record)."""

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """``None`` until over; then rounds, totals and winners."""

    # -- copies ----------------------------------------------------------------------------------
    @abstractmethod
    def _copy_state(self, d: dict[str, object]) -> None:
        """Engine hook for :meth:`clone`: replace the engine's mutable state in ``d`` by
        copies (``d`` starts as a shallow copy of the instance's attributes)."""

    def clone(self: G, seen_by: int | None = None) -> G:
        """An independent copy without log or events (for search and rollouts). With
        ``seen_by`` (a seat), the copy keeps the recent events and the round's history as that
        seat saw them, every card it did not see taken out."""
        g = object.__new__(type(self))
        d = self.__dict__.copy()
        d["totals"] = list(d["totals"])
        d["rounds"] = list(d["rounds"])
        d["round_winners"] = list(d["round_winners"])
        d["_round_log"] = list(d["_round_log"])
        self._copy_state(d)
        d["_rng"] = None
        d["_rng_state"] = self._rng_snapshot()
        d["_actions"] = None
        d["_events"] = None
        d["_recent"] = deque(maxlen=self._recent.maxlen)
        d["_opening"] = ()
        d["_history"] = list(self._history)
        if seen_by is not None:
            recent, history = self._redacted_for(1 << seen_by)
            d["_recent"] = deque(recent, maxlen=self._recent.maxlen)
            d["_history"] = list(history)
        g.__dict__ = d
        return g

    def _redacted_for(self, bit: int) -> tuple[tuple[Event, ...], tuple[Event, ...]]:
        """The recent events and the round's history as the holder of ``bit`` saw them
        (cached for the last seat asked, while no event is added)."""
        key = (bit, self._seq, len(self._recent))
        cached = self.__dict__.get("_redacted")
        if cached is None or cached[0] != key:
            cached = self._redacted = (key, tuple(e.redacted(bit) for e in self._recent))
        hkey = (bit, self._seq, len(self._history))
        past = self.__dict__.get("_redacted_history")
        if past is None or past[0] != hkey:
            past = self._redacted_history = (hkey, tuple(e.redacted(bit) for e in self._history))
        return cached[1], past[1]

    def world_for(self: G, seat: int, rng: Random | int) -> tuple[G, Rng]:
        """Start of a determinization: a clone that keeps only the events ``seat`` may see,
        and ``rng`` as an :class:`Rng` (an int seed or any ``random.Random`` is accepted)."""
        if not isinstance(rng, Rng):
            rng = Rng(rng if isinstance(rng, int) else int(rng.random() * 2**53))
        return self.clone(seen_by=seat), rng

    def seed_from(self, rng: Rng) -> None:
        """Give this copy its own generator, seeded from ``rng`` (built when first used)."""
        self._rng = None
        self._rng_state = int(rng.random() * 2**53)

    def _normalize(self, seat: int, action: Action) -> Action:
        """Engine hook: bring an action into canonical form for ``seat``."""
        return action

    def _may_act(self, seat: int) -> bool:
        """Engine hook: whether ``seat`` is among the actors (may be faster than the list)."""
        return seat in self.actors

    def _is_legal(self, seat: int, action: Action) -> bool:
        """Engine hook: whether ``action`` is legal for ``seat`` (may be faster than a list)."""
        return action in self.legal_actions(seat)

    def _why_illegal(self, seat: int, action: Action) -> IllegalAction:
        """Engine hook: the refusal of a non-legal action, of its kind (a catalog message)."""
        return RuleForbids("refusal.not_allowed", seat, action=str(action))

    # -- the checked entry point -------------------------------------------------------------
    def check(self, seat: int, action: Action | str) -> Action:
        """Validate ``action`` for ``seat`` without playing it; return its canonical form.

        Raises the kind of :class:`IllegalAction` that fits, in the order :meth:`play` checks:
        the seat exists (:class:`NoSuchSeat`), the game is not over (:class:`GameOver`), the
        seat may act (:class:`NotYourTurn`), the text is an action (:class:`MalformedAction`),
        the action is legal now (:class:`NoSuchCard`, :class:`NotInThisGame`,
        :class:`WrongPhase` or :class:`RuleForbids`, as the engine tells).
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            raise NoSuchSeat(
                "refusal.no_such_seat", number=seat if type(seat) is int else repr(seat)
            )
        if self.over:
            raise GameOver("refusal.game_over", seat)
        if not self._may_act(seat):
            raise self._not_your_turn(seat)
        act = parse(action) if type(action) is str else action
        if not isinstance(act, Action):
            raise MalformedAction("refusal.malformed.not_action", seat)
        act = self._normalize(seat, act)
        if not self._is_legal(seat, act):
            raise self._why_illegal(seat, act)
        return act

    def play(self, seat: int, action: Action | str) -> list[Event]:
        """Validate and play ``action`` for ``seat``; return the events it caused.

        Raises :class:`IllegalAction` (and changes nothing) if the text is malformed, the seat
        may not act, or the action is not legal now.
        """
        return self.play_legal(seat, self.check(seat, action))

    def play_legal(self, seat: int, action: Action) -> list[Event]:
        """Play an action already known legal (one of :meth:`legal_actions`, unchecked, as
        :meth:`apply` plays it) and record it as :meth:`play` does: its events, kept and
        returned, and the log. For callers that chose the action from the legal ones and need
        its events (the OpenSpiel adapter's observation strings)."""
        events: list[Event] = []
        self._events = events
        try:
            self.apply(seat, action)
        finally:
            self._events = None
        if self._actions is not None:
            self._actions.append([seat, str(action)])
        self._record(events)
        return events

    def _record(self, events: list[Event]) -> None:
        """Keep ``events`` among the recent ones and in the round's history."""
        self._recent.extend(events)
        history = self._history
        for e in events:
            if e.type == "round_start":
                history = self._history = []
            history.append(e)

    def history(self, seat: int, memory: bool = True) -> list[dict[str, object]]:
        """The events of the current round as ``seat`` saw them, oldest first: everything a
        belief about the cards ``seat`` does not know may read (RULES.md; what a seat sees
        and nothing more). Actions applied with :meth:`apply` record no events.

        ``memory=False``: the public parts only (every card shown to the whole table, none a
        peek, spy, look or private draw showed): the record a person without memory aid may
        read again, equal for every seat."""
        bit = self._history_bit(seat, memory)
        return [e.visible(bit) for e in self._history]

    def _history_bit(self, seat: int, memory: bool) -> int:
        """Whose parts of the events :meth:`history` gives ``seat``: its own bit, or none (the
        public parts) without memory in a memory game."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat!r} at this table")
        return 0 if not memory and self.memory_game else 1 << seat

    @property
    def recording(self) -> bool:
        """Whether the game records events now (inside :meth:`play`; :meth:`apply`, the fast
        path of rollouts, records none, so an engine need not even build them)."""
        return self._events is not None

    def happenings(self, seat: int, memory: bool = True) -> list[Happening]:
        """:meth:`history`, typed: the events of the current round as ``seat`` saw them."""
        bit = self._history_bit(seat, memory)
        return [e.seen(bit) for e in self._history]

    def _not_your_turn(self, seat: int) -> NotYourTurn:
        """The refusal of ``seat``, which may not act now: whose turn it is (or who is awaited,
        when several seats act)."""
        actors = self.actors
        if len(actors) == 1:
            return NotYourTurn("refusal.not_your_turn", seat, who=actors[0])
        return NotYourTurn("refusal.not_your_turn.several", seat, seats=tuple(actors))

    def emit(self, happened: Happening, audience: int = -1) -> None:
        """Record an event (only while :meth:`play` collects them): ``happened``, whose secret
        fields only the seats of ``audience`` see (``-1``, or every seat's and the spectators'
        bit: everyone, so nothing of it is secret)."""
        if self._events is not None:
            if audience == (2 << self.players) - 1:
                audience = -1
            self._seq += 1
            self._events.append(Event(self._seq, happened, audience))

    # -- log and replay ----------------------------------------------------------------------
    @property
    def moves_played(self) -> int:
        """How many actions the log holds (0 for a copy that keeps none)."""
        return len(self._actions) if self._actions is not None else 0

    @property
    def log(self) -> dict[str, object]:
        """Seed, options, stacked deck and actions: enough to rebuild the game exactly."""
        if self._actions is None:
            raise ValueError("this copy has no log (clones and determinized games keep none)")
        return {
            "game": self.variant,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "deck": list(self.stacked) if self.stacked is not None else None,
            "actions": [list(a) for a in self._actions],
        }

    def view_tail(
        self, seat: int | None, bit: int, memory: bool = True
    ) -> ViewTail[Mapping[str, object], dict[str, object]]:
        """The fields every game's view ends with: scores, rounds, events, result, legal (the
        round results and events as JSON, which each game's view reads as its own types).

        Without ``memory`` the events carry only their public part: the cards shown to the
        whole table at that moment, no card a peek, spy, look or private draw showed.
        """
        result = self.result
        return {
            "totals": list(self.totals),
            "round": self.round_no,
            "target": self.target,
            "round_results": list(self.round_results),
            "events": self.recent_events(bit if memory else 0),
            "over": self.over,
            "result": result.to_dict() if result is not None else None,
            "legal": [str(a) for a in self.legal_actions(seat)] if seat is not None else [],
        }

    def recent_events(self, bit: int) -> list[dict[str, object]]:
        """The last events as the holder of ``bit`` may see them."""
        return [e.visible(bit) for e in self._recent]

    def clear_recent_events(self) -> None:
        """Forget the recent events held so far (the deal's, say), so that later views start
        with none; the round's history is kept."""
        self._recent.clear()


class _Orderless(Rng):
    """The generator of a :class:`ChanceDrawn` game: shuffles leave the order as it is (every
    draw is chosen by the source, so the order of a pile never matters) and anything else is
    refused."""

    def shuffle_stable(self, items: list[T]) -> None:
        """Leave ``items`` as they are."""

    def random(self) -> float:
        """Refused: a chance-drawn game must not decide anything at random."""
        raise RuntimeError("a game whose draws come from a source decides nothing at random")


class _IdleDraws(DrawSource):
    """The draw source of a :class:`ChanceDrawn` game between actions: it refuses to draw."""

    def take(self, game: Game, pile: list[int], decisive: bool) -> int:
        """Refused: a chance-drawn game draws only from a source set on it for one action."""
        raise RuntimeError(
            "this game draws only inside the adapter that chooses its cards, from a source set "
            "on it for one action (ChanceDrawn.drawing_by_itself gives a game that draws by "
            "itself)"
        )


_ORDERLESS = _Orderless(0)
_IDLE = _IdleDraws()


class ChanceDrawn(Game):
    """A game whose every card leaving a face-down pile, the deal's included, is the choice
    of a draw source from outside (the OpenSpiel adapter's chance nodes): what
    :func:`cardtable.variants.new_game` builds when given ``draws``.

    Its own generator decides nothing: shuffles keep a pile's order and anything else random
    is refused. It takes cards from the source it was built with while it deals; after that
    only while a source is set on it for an action (``game.draws = source``, then
    ``del game.draws``), and refuses to draw otherwise. Its clones and determinized copies are
    chance-drawn too, with no source of their own. :meth:`drawing_by_itself` turns it into a
    plain game of the same position.
    """

    SEED: ClassVar[int] = 0
    """The seed a chance-drawn game is built with (its generator orders nothing)."""

    draws: DrawSource = _IDLE
    """Set on the instance for one action (and while dealing), deleted after it."""

    @property
    def random(self) -> Rng:
        """The orderless generator: shuffles keep the order, nothing else is allowed."""
        return _ORDERLESS

    @random.setter
    def random(self, rng: Rng) -> None:
        pass  # a chance-drawn game keeps the orderless generator

    def _rng_snapshot(self) -> int:
        return self.SEED

    @abstractmethod
    def determinize(
        self,
        seat: int,
        rng: Random | int,
        weights: Mapping[tuple[int, int], Sequence[float]] | None = None,
    ) -> ChanceDrawn:
        """The engine's re-deal (:meth:`Game.determinize`); the copy stays chance-drawn, with
        no source of its own."""

    @abstractmethod
    def _plain_copy(self) -> tuple[Game, list[int]]:
        """Engine hook: a copy of this game as a plain engine of its variant (every card and
        all knowledge kept, no draw source of its own), and that copy's face-down pile."""

    def drawing_by_itself(self, seed: int) -> Game:
        """A plain game in this position that draws by itself: a clone (no log, no recent
        events) with every card kept (like any game: players learn only what ``view`` and
        ``determinize`` give them), its face-down pile shuffled from ``seed`` and its own
        generator seeded from ``seed``."""
        plain, pile = self._plain_copy()
        rng = Rng(seed)
        rng.shuffle_stable(pile)
        plain.random = Rng(int(rng.random() * 2**53))
        return plain
