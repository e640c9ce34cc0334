"""Beliefs about the cards a seat does not know (Cabo family), learnt from self-play.

A seat that watches an opponent learns a lot without seeing a card: a card the opponent drew
and kept is probably low (it was kept because it beat the card it replaced, which went face up);
a card the opponent has looked at and keeps while throwing away better-looking cards is
probably lower still; a seat that calls the end holds low cards. :class:`FamilyTracker` reads
exactly what a seat may know — its ``view`` and its ``history`` of the round — and gives every
hidden place of the other hands a *context*: how the card got there, whether its owner knows
it, the lowest value the owner let go while knowing it, and whether the owner called.

:class:`BeliefModel` turns a context into a weight per card value: a conditional logit model,
``P(card c at place | context) = w(value(c)) / sum of w over the place's pool``, fitted by
maximum likelihood on self-play positions of the rule-of-thumb players (:func:`collect`,
:func:`fit`). Its weights go straight into ``game.determinize(seat, rng, weights)``, which deals
every hidden place from its pool in proportion to them and keeps every hard constraint.
:func:`log_likelihood` measures a model on held-out positions against uniform dealing.

The models shipped with cardtable live in ``agents/beliefs/<variant>.json``; ``python -m
cardtable.agents.belief`` retrains them and prints the measurement.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..game import Game
from ..games.family.engine import FamilyGame
from ..games.family.rulesets import RULESETS, RuleSet
from ..rng import Rng
from . import family_policy

__all__ = [
    "BeliefModel",
    "FamilyTracker",
    "Sample",
    "collect",
    "fit",
    "load",
    "log_likelihood",
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


def _addr(text: str) -> tuple[int, int]:
    seat, _, pos = text.partition(".")
    return int(seat), int(pos)


class FamilyTracker:
    """Every hidden place of the other hands, with its context, as ``seat`` can tell them.

    Built from ``game.view(seat)`` and ``game.history(seat)`` only (and the rule set's card
    values), so two deals the seat cannot tell apart give the same contexts."""

    def __init__(self, game: Game, seat: int) -> None:
        self.seat = seat
        """The watching seat."""
        self.rs: RuleSet = RULESETS[game.variant]
        """The variant's rule set (card values)."""
        view = game.view(seat)
        self.contexts: dict[tuple[int, int], Context] = {}
        """Context of every place of another seat whose card ``seat`` does not know."""
        self.turns = 0
        """Turns begun this round."""
        self.seen_at: dict[tuple[int, int], int] = {}
        """For the cards ``seat`` has seen this round: the turn in which it last saw each."""
        seen_at = self.seen_at
        places: dict[tuple[int, int], _Place] = {}
        called: set[int] = set()
        everyone = (1 << view["players"]) - 1
        drew: dict[int, str] = {}
        value = _values(self.rs)
        unseen = _unseen_worth(self.rs)
        for ev in game.history(seat):
            kind = ev["type"]
            if kind == "round_start":
                places = {(s, p): _Place(DEAL) for s in range(view["players"]) for p in range(4)}
                called.clear()
                seen_at.clear()
                self.turns = 0
            elif kind == "turn":
                self.turns += 1
            elif kind in ("peek", "spy"):
                _seen(places, ev["at"], ev["seat"])
                if ev["seat"] == seat:
                    seen_at[_addr(ev["at"])] = self.turns
            elif kind == "look":
                for at in ev["at"]:
                    _seen(places, at, ev["seat"])
                    if ev["seat"] == seat:
                        seen_at[_addr(at)] = self.turns
            elif kind == "draw":
                drew[ev["seat"]] = ev["from"]
            elif kind == "replace":
                s, p = _addr(ev["at"][0])
                old = places.get((s, p))
                # what the owner thought the replaced card was worth: its value if it knew
                # it, else about an unseen card's worth
                out = value[ev["out"][0]] if old and old.knowers >> s & 1 else unseen
                _let_go(places, s, out, p)
                places[(s, p)] = self._arrival(drew.get(s), s, everyone, out)
                seen_at.pop((s, p), None)
                if s == seat or places[(s, p)].knowers & 1 << seat:
                    seen_at[(s, p)] = self.turns
            elif kind == "claim":
                addrs = [_addr(a) for a in ev["at"]]
                if ev["ok"]:
                    for a in addrs:
                        places.pop(a, None)
                        seen_at.pop(a, None)
                    new = addrs[0]
                else:
                    for a in addrs:
                        places.setdefault(a, _Place(DEAL)).knowers = everyone
                        seen_at[a] = self.turns
                    new = _addr(ev["new"])
                places[new] = self._arrival(drew.get(ev["seat"]), ev["seat"], everyone)
                if places[new].knowers & 1 << seat:
                    seen_at[new] = self.turns
            elif kind == "discard":
                if drew.get(ev["seat"]) == "deck":
                    _let_go(places, ev["seat"], value[ev["card"]], None)
            elif kind == "exchange":
                a, b = (_addr(x) for x in ev["at"])
                pa, pb = places.get(a, _Place(DEAL)), places.get(b, _Place(DEAL))
                places[a], places[b] = pb, pa
                ta, tb = seen_at.pop(a, None), seen_at.pop(b, None)
                if ta is not None:
                    seen_at[b] = ta
                if tb is not None:
                    seen_at[a] = tb
            elif kind == "give":
                to, frm = _addr(ev["to"]), _addr(ev["from"])
                places[to] = places.pop(frm, _Place(DEAL))
                if frm in seen_at:
                    seen_at[to] = seen_at.pop(frm)
            elif kind == "penalty":
                if ev["at"] is not None:
                    places[_addr(ev["at"])] = _Place(PENALTY)
                    seen_at.pop(_addr(ev["at"]), None)
            elif kind in ("drop", "snap"):
                at = _addr(ev["at"])
                if ev["ok"] or kind == "snap":
                    places.pop(at, None)
                    seen_at.pop(at, None)
                else:
                    places.setdefault(at, _Place(DEAL)).knowers = everyone
                    seen_at[at] = self.turns
            elif kind == "call":
                called.add(ev["seat"])
        for s, hand in enumerate(view["hands"]):
            if s == seat:
                continue
            for p, cell in enumerate(hand):
                if cell is None or cell["card"] is not None:
                    continue
                place = places.get((s, p)) or _Place(DEAL)
                owner_knows = s in cell["seen"]
                bound = place.bound if owner_knows else None
                self.contexts[(s, p)] = (owner_knows, place.kind, bound, s in called)

    def _arrival(
        self, source: str | None, owner: int, everyone: int, out: int | None = None
    ) -> _Place:
        """The place of a card just put into ``owner``'s hand from a draw (kept instead of a
        card of value ``out``, when one went face up)."""
        if source == "discard" or self.rs.drawn_public:
            return _Place(TAKEN, everyone)
        return _Place(KEPT, 1 << owner, out)


def _seen(places: dict[tuple[int, int], _Place], at: str, seat: int) -> None:
    places.setdefault(_addr(at), _Place(DEAL)).knowers |= 1 << seat


def _let_go(
    places: dict[tuple[int, int], _Place], owner: int, value: int, except_pos: int | None
) -> None:
    """``owner`` let a card of ``value`` go while keeping its other cards: the ones it knows
    are (by its own judgement) no worse."""
    bit = 1 << owner
    for (s, p), place in places.items():
        if (
            s == owner
            and p != except_pos
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


def _value_axis(rs: RuleSet) -> tuple[int, ...]:
    """The distinct card values of a rule set, in increasing order (the model's axis)."""
    return tuple(sorted(set(_values(rs).values())))


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


def weights_for(
    game: Game, seat: int, model: BeliefModel | None = None
) -> dict[tuple[int, int], list[float]]:
    """The belief of ``seat`` as ``determinize`` weights: per hidden place of the other hands,
    a weight per card id. Empty for games without a model (uniform dealing)."""
    rs = RULESETS.get(game.variant)
    model = model or (load(game.variant) if rs is not None else None)
    if rs is None or model is None:
        return {}
    tracker = FamilyTracker(game, seat)
    index = {v: i for i, v in enumerate(model.values)}
    value = _values(rs)
    card_value = [index[value[code]] for code in rs.deck]  # card id = index in the deck
    out: dict[tuple[int, int], list[float]] = {}
    for place, ctx in tracker.contexts.items():
        w = model.place_weights(ctx)
        if w is not None:
            out[place] = [w[i] for i in card_value]
    return out


# ----------------------------------------------------------------------------- learning


@dataclass(frozen=True)
class Sample:
    """One hidden card in a self-play position: its context, the value counts of the cards
    the watcher does not know (its pool), and the card's true value."""

    key: str
    """Context key."""
    pool: tuple[int, ...]
    """Count of each value (model axis) among the cards the watcher does not know."""
    value: int
    """Index of the card's true value on the axis."""


def _pool_counts(g: FamilyGame, seat: int, axis: Mapping[int, int]) -> list[int]:
    """Counts per value index of the cards ``seat`` does not know (deck, hidden hand cards,
    a hidden drawn card)."""
    counts = [0] * len(axis)
    vals = g.values
    # every card of the deck, less those the seat has seen where they are now
    seen = [c for hand in g.knowledge(seat) for c in hand if c >= 0] + g.discard
    drawn = g.drawn_for(seat)
    if drawn >= 0:
        seen.append(drawn)
    for v in vals:
        counts[axis[v]] += 1
    for c in seen:
        counts[axis[vals[c]]] -= 1
    return counts


def collect(variant: str, games: int, seed: int = 0, every: int = 3) -> list[Sample]:
    """Samples from ``games`` two-seat single rounds of the rule-of-thumb policy playing
    itself: every ``every``-th action, every seat's hidden places of the other hand."""
    from cardtable import new_game

    rs = RULESETS[variant]
    axis = {v: i for i, v in enumerate(_value_axis(rs))}
    out: list[Sample] = []
    for k in range(games):
        g: Any = new_game(variant, players=2, seed=seed * 1_000_003 + k, options={"target": None})
        rng = Rng(seed * 7919 + k)
        step = 0
        while not g.over:
            if step % every == 0:
                for watcher in range(g.players):
                    tracker = FamilyTracker(g, watcher)
                    if not tracker.contexts:
                        continue
                    pool = tuple(_pool_counts(g, watcher, axis))
                    for (s, p), ctx in tracker.contexts.items():
                        true = axis[g.values[g.hands[s][p]]]
                        out.append(Sample(context_key(ctx), pool, true))
            seat = g.actors[0]
            g.play(seat, family_policy.choose(g, seat, rng))
            step += 1
    return out


def _arrays(
    samples: Sequence[Sample], keys: Mapping[str, int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    known = [s for s in samples if s.key in keys]
    k = np.array([keys[s.key] for s in known], dtype=np.int64)
    pool = np.array([s.pool for s in known], dtype=np.float64)
    v = np.array([s.value for s in known], dtype=np.int64)
    return k, pool, v


def fit(
    variant: str,
    samples: Sequence[Sample],
    iterations: int = 400,
    l2: float = 0.01,
    min_count: int = 30,
) -> BeliefModel:
    """The maximum-likelihood conditional logit model (with a little L2 pull toward uniform)
    for the contexts seen at least ``min_count`` times."""
    axis = _value_axis(RULESETS[variant])
    counts: dict[str, int] = {}
    for s in samples:
        counts[s.key] = counts.get(s.key, 0) + 1
    names = sorted(k for k, n in counts.items() if n >= min_count)
    keys = {k: i for i, k in enumerate(names)}
    k, pool, v = _arrays(samples, keys)
    theta = np.zeros((len(names), len(axis)))
    m = np.zeros_like(theta)
    s2 = np.zeros_like(theta)
    n = max(1, len(v))
    onehot = np.zeros((len(v), len(axis)))
    onehot[np.arange(len(v)), v] = 1.0
    for t in range(1, iterations + 1):  # Adam on the mean negative log-likelihood
        th = theta[k]
        th = th - th.max(axis=1, keepdims=True)
        w = pool * np.exp(th)
        p = w / w.sum(axis=1, keepdims=True)
        grad = np.zeros_like(theta)
        np.add.at(grad, k, p - onehot)
        grad = grad / n + l2 * theta / len(names)
        m = 0.9 * m + 0.1 * grad
        s2 = 0.999 * s2 + 0.001 * grad * grad
        step = 0.1 * (m / (1 - 0.9**t)) / (np.sqrt(s2 / (1 - 0.999**t)) + 1e-8)
        theta -= step
    theta -= theta.mean(axis=1, keepdims=True)
    logw = {name: [round(float(x), 4) for x in theta[i]] for name, i in keys.items()}
    return BeliefModel(variant, axis, logw)


def log_likelihood(model: BeliefModel, samples: Iterable[Sample]) -> tuple[float, float, int]:
    """Mean log-likelihood (nats per hidden card) of the true cards under the model and under
    uniform dealing from the same pools, and the number of cards."""
    total_model = total_uniform = 0.0
    count = 0
    for s in samples:
        row = model.logw.get(s.key)
        size = sum(s.pool)
        if size <= 0:
            continue
        if row is None:
            lm = -math.log(size)
        else:
            top = max(row)
            z = sum(n * math.exp(x - top) for n, x in zip(s.pool, row, strict=True))
            lm = (row[s.value] - top) - math.log(z)
        total_model += lm
        total_uniform += -math.log(size)
        count += 1
    if not count:
        return 0.0, 0.0, 0
    return total_model / count, total_uniform / count, count


def main(argv: Sequence[str] | None = None) -> None:
    """Retrain the shipped models and print held-out log-likelihoods against uniform."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--variants", default=",".join(RULESETS))
    parser.add_argument("--games", type=int, default=3000, help="training games per variant")
    parser.add_argument("--test-games", type=int, default=500, help="held-out games")
    parser.add_argument("--out", default=str(Path(__file__).with_name("beliefs")))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print("| variant | train cards | held-out cards | model nats/card | uniform | gain (bits) |")
    print("|---|---:|---:|---:|---:|---:|")
    for variant in [v.strip() for v in args.variants.split(",") if v.strip()]:
        train = collect(variant, args.games, seed=1)
        test = collect(variant, args.test_games, seed=2)
        model = fit(variant, train)
        (out / f"{variant}.json").write_text(model.to_json() + "\n", encoding="utf-8")
        lm, lu, n = log_likelihood(model, test)
        print(
            f"| {variant} | {len(train):,} | {n:,} | {lm:.3f} | {lu:.3f} | "
            f"{(lm - lu) / math.log(2):+.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
