"""Beliefs about the cards a seat does not know (Cabo family), as the AI players read them.

A seat that watches an opponent learns a lot without seeing a card: a card the opponent drew
and kept is probably low (it was kept because it beat the card it replaced, which went face up);
a card the opponent has looked at and keeps while throwing away better-looking cards is
probably lower still; a seat that calls the end holds low cards. :class:`FamilyTracker` reads
exactly what a seat may know — its ``view`` and its ``history`` of the round — and gives every
hidden place of the other hands a *context*: how the card got there, whether its owner knows
it, the lowest value the owner let go while knowing it, and whether the owner called.

:class:`BeliefModel` turns a context into a weight per card value: a conditional logit model,
``P(card c at place | context) = w(value(c)) / sum of w over the place's pool``, fitted offline
on self-play positions (:mod:`cardtable.training.belief`). Its weights go straight into
``seat.worlds(rng, weights)``, which deals every hidden place from its pool in
proportion to them and keeps every hard constraint.

The models shipped with cardtable are data, ``agents/beliefs/<variant>.json``, read by
:func:`load`; ``python -m cardtable.training.belief`` retrains them and prints how well they
predict held-out positions.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from ..events import (
    At,
    Call,
    Claim,
    Discard,
    Drop,
    Exchange,
    FamilyDraw,
    FamilyPenalty,
    FamilyRoundStart,
    Give,
    Happening,
    Look,
    Peek,
    Replace,
    Snap,
    Spy,
    Turn,
)
from ..games.family.rulesets import RULESETS, RuleSet
from ..seat import Seat
from ..views import is_family_view

if TYPE_CHECKING:
    from ..views import FamilyView

__all__ = [
    "BeliefModel",
    "FamilyTracker",
    "context_key",
    "load",
    "weights_for",
]

DEAL, KEPT, TAKEN, PENALTY = "deal", "kept", "taken", "penalty"
"""How a card came to its place: dealt, drawn from the deck and kept, taken from the discard
pile, or given as a penalty."""

Context = tuple[bool, str, int | None, bool]
"""(its owner knows it, how it came, lowest value let go while known (or None), owner called)."""


class _Place:
    """What the watcher knows of one hand card's story (moves with the card)."""

    __slots__ = ("bound", "kind", "knowers")

    def __init__(self, kind: str, knowers: int = 0, bound: int | None = None) -> None:
        self.kind = kind
        self.knowers = knowers
        self.bound = bound


class FamilyTracker:
    """Every hidden place of the other hands, with its context, as ``seat`` can tell them.

    Built from the seat's view and history only (and the rule set's card values), so two deals
    the seat cannot tell apart give the same contexts."""

    def __init__(self, watcher: Seat) -> None:
        seat = watcher.number
        self.seat = seat
        """The watching seat."""
        self.rs: RuleSet = RULESETS[watcher.variant]
        """The variant's rule set (card values)."""
        view = watcher.view()
        assert is_family_view(view)  # a Cabo-family variant: its rule set was found
        story = _RoundStory(self.rs, seat, view["players"])
        for ev in watcher.history():
            story.read(ev)
        self.contexts: dict[tuple[int, int], Context] = _hidden_contexts(
            view, seat, story.places, story.called
        )
        """Context of every place of another seat whose card ``seat`` does not know."""
        self.turns = story.turns
        """Turns begun this round."""
        self.seen_at: dict[At, int] = story.seen_at
        """For the cards ``seat`` has seen this round: the turn in which it last saw each."""


class _RoundStory:
    """The round so far as one seat saw it, read event by event: each hand card's story, who
    called, where each seat last drew from, and when the seat last saw each card."""

    def __init__(self, rs: RuleSet, seat: int, players: int) -> None:
        self.rs = rs
        self.seat = seat
        self.players = players
        self.everyone = (1 << players) - 1
        self.value = _values(rs)
        self.unseen = _unseen_worth(rs)
        self.places: dict[At, _Place] = {}
        self.called: set[int] = set()
        self.drew: dict[int, str] = {}
        self.turns = 0
        self.seen_at: dict[At, int] = {}

    def read(self, ev: Happening) -> None:
        """Take one event into the story (kinds that tell nothing about the cards are skipped)."""
        match ev:
            case FamilyRoundStart():
                self._round_start()
            case Turn():
                self.turns += 1
            case Peek(seat=seat, at=at) | Spy(seat=seat, at=at):
                self._seen(at, seat)
            case Look(seat=seat, at=places):
                for at in places:
                    self._seen(at, seat)
            case FamilyDraw(seat=seat, source=source):
                self.drew[seat] = source
            case Replace(at=(at, *_), out=(out, *_)):
                self._replace(at, out)
            case Claim() as claim:
                self._claim(claim)
            case Discard(seat=seat, card=card):
                if self.drew.get(seat) == "deck":
                    _let_go(self.places, seat, self.value[card], None)
            case Exchange(at=(a, b)):
                self._exchange(a, b)
            case Give(source=source, to=to):
                self.places[to] = self.places.pop(source, _Place(DEAL))
                if source in self.seen_at:
                    self.seen_at[to] = self.seen_at.pop(source)
            case FamilyPenalty(at=At() as at):
                self.places[at] = _Place(PENALTY)
                self.seen_at.pop(at, None)
            case Snap(at=at):
                self._gone(at)
            case Drop(at=at, ok=True):
                self._gone(at)
            case Drop(at=at):
                self.places.setdefault(at, _Place(DEAL)).knowers = self.everyone
                self._saw(at)
            case Call(seat=seat):
                self.called.add(seat)

    def _saw(self, at: At) -> None:
        """The watching seat saw the card at ``at`` now."""
        self.seen_at[at] = self.turns

    def _seen(self, at: At, seat: int) -> None:
        """``seat`` looked at the card at ``at``."""
        self.places.setdefault(at, _Place(DEAL)).knowers |= 1 << seat
        if seat == self.seat:
            self._saw(at)

    def _gone(self, at: At) -> None:
        """The card at ``at`` left the hand (a right drop, or a snap, right or wrong)."""
        self.places.pop(at, None)
        self.seen_at.pop(at, None)

    def _round_start(self) -> None:
        self.places = {At(s, p): _Place(DEAL) for s in range(self.players) for p in range(4)}
        self.called.clear()
        self.seen_at.clear()
        self.turns = 0

    def _replace(self, at: At, out_code: str) -> None:
        places = self.places
        s = at.seat
        old = places.get(at)
        # what the owner thought the replaced card was worth: its value if it knew it, else
        # about an unseen card's worth
        out = self.value[out_code] if old and old.knowers >> s & 1 else self.unseen
        _let_go(places, s, out, at.pos)
        places[at] = self._arrival(s, out)
        self.seen_at.pop(at, None)
        if s == self.seat or places[at].knowers & 1 << self.seat:
            self._saw(at)

    def _claim(self, ev: Claim) -> None:
        places = self.places
        if ev.ok:
            for a in ev.at:
                self._gone(a)
            new = ev.at[0]
        else:
            for a in ev.at:
                places.setdefault(a, _Place(DEAL)).knowers = self.everyone
                self._saw(a)
            assert ev.new is not None  # a failed claim always says where the card went
            new = ev.new
        places[new] = self._arrival(ev.seat)
        if places[new].knowers & 1 << self.seat:
            self._saw(new)

    def _exchange(self, a: At, b: At) -> None:
        places, seen_at = self.places, self.seen_at
        pa, pb = places.get(a, _Place(DEAL)), places.get(b, _Place(DEAL))
        places[a], places[b] = pb, pa
        ta, tb = seen_at.pop(a, None), seen_at.pop(b, None)
        if ta is not None:
            seen_at[b] = ta
        if tb is not None:
            seen_at[a] = tb

    def _arrival(self, owner: int, out: int | None = None) -> _Place:
        """The place of a card just put into ``owner``'s hand from its draw (kept instead of a
        card of value ``out``, when one went face up)."""
        if self.drew.get(owner) == "discard" or self.rs.drawn_public:
            return _Place(TAKEN, self.everyone)
        return _Place(KEPT, 1 << owner, out)


def _hidden_contexts(
    view: FamilyView,
    seat: int,
    places: Mapping[At, _Place],
    called: Collection[int],
) -> dict[tuple[int, int], Context]:
    """The context of every card of another hand that ``seat`` does not know, from the
    cards' stories and who called."""
    contexts: dict[tuple[int, int], Context] = {}
    for s, hand in enumerate(view["hands"]):
        if s == seat:
            continue
        for p, cell in enumerate(hand):
            if cell is None or cell["card"] is not None:
                continue
            place = places.get(At(s, p)) or _Place(DEAL)
            owner_knows = s in cell["seen"]
            bound = place.bound if owner_knows else None
            contexts[(s, p)] = (owner_knows, place.kind, bound, s in called)
    return contexts


def _let_go(places: dict[At, _Place], owner: int, value: int, except_pos: int | None) -> None:
    """``owner`` let a card of ``value`` go while keeping its other cards: the ones it knows
    are (by its own judgement) no worse."""
    bit = 1 << owner
    for at, place in places.items():
        if (
            at.seat == owner
            and at.pos != except_pos
            and place.knowers & bit
            and (place.bound is None or value < place.bound)
        ):
            place.bound = value


_VALUES: dict[str, tuple[RuleSet, dict[str, int]]] = {}


def _values(rs: RuleSet) -> dict[str, int]:
    """Card code → value for a rule set."""
    entry = _VALUES.get(rs.name)
    if entry is None or entry[0] is not rs:  # a name taken again by another rule set
        entry = _VALUES[rs.name] = (rs, {code: rs.value(code) for code in set(rs.deck)})
    return entry[1]


def _unseen_worth(rs: RuleSet) -> int:
    """About what a player values a card it has not seen at: the deck's mean, rounded up."""
    vals = [rs.value(code) for code in rs.deck]
    return math.ceil(sum(vals) / len(vals) + 0.5)


def context_key(ctx: Context) -> str:
    """The text key of a context in a model file."""
    knows, kind, bound, called = ctx
    return f"{int(knows)}|{kind}|{'-' if bound is None else bound}|{int(called)}"


@dataclass
class BeliefModel:
    """Weights per card value for every context seen in training (log scale)."""

    variant: str
    """The variant the model was fitted on."""
    values: tuple[int, ...]
    """The value axis: ``logw[key][i]`` belongs to ``values[i]``."""
    logw: dict[str, list[float]]
    """Log-weights per context key; a context not listed is dealt uniformly."""

    def place_weights(self, ctx: Context) -> list[float] | None:
        """Weights per value index for a context (``None``: uniform)."""
        row = self.logw.get(context_key(ctx))
        if row is None:
            return None
        top = max(row)
        return [math.exp(x - top) for x in row]

    def to_json(self) -> str:
        """The model as JSON text."""
        return json.dumps(
            {"variant": self.variant, "values": list(self.values), "logw": self.logw},
            sort_keys=True,
            indent=0,
        )

    @classmethod
    def from_json(cls, text: str) -> BeliefModel:
        """A model from :meth:`to_json` text."""
        data = json.loads(text)
        return cls(data["variant"], tuple(data["values"]), dict(data["logw"]))


@cache
def load(variant: str) -> BeliefModel | None:
    """The shipped model of ``variant`` (``None`` when there is none)."""
    path = resources.files("cardtable.agents").joinpath("beliefs", f"{variant}.json")
    if not path.is_file():
        return None
    return BeliefModel.from_json(path.read_text(encoding="utf-8"))


def weights_for(seat: Seat, model: BeliefModel | None = None) -> dict[tuple[int, int], list[float]]:
    """The belief of ``seat`` as weights for its worlds: per hidden place of the other hands,
    a weight per card id. Empty for games without a model (uniform dealing)."""
    rs = RULESETS.get(seat.variant)
    model = model or (load(seat.variant) if rs is not None else None)
    if rs is None or model is None:
        return {}
    tracker = FamilyTracker(seat)
    index = {v: i for i, v in enumerate(model.values)}
    value = _values(rs)
    card_value = [index[value[code]] for code in rs.deck]  # card id = index in the deck
    out: dict[tuple[int, int], list[float]] = {}
    for place, ctx in tracker.contexts.items():
        w = model.place_weights(ctx)
        if w is not None:
            out[place] = [w[i] for i in card_value]
    return out
