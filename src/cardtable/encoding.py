"""Integer actions and observation vectors for learners (shared by every adapter).

An :class:`Encoding` fixes, for one variant and seat count, a table of every action a seat
could ever be offered — each row an integer — and a flat ``float32`` observation vector built
from a seat's ``view`` alone. Addresses are *relative*: ``+k.N`` means position ``N`` of the
seat ``k`` places after the acting seat (clockwise), so one policy serves every seat.
``docs/interop.md`` prints the tables; :meth:`Encoding.action_table` and
:meth:`Encoding.observation_pieces` produce them.

Hands in the Cabo family can grow (penalty cards, failed claims), so the table covers
positions ``0 .. max_positions-1``; an action naming a higher position has no integer and is
never offered. The observation counts the cards held beyond the cap.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from . import variants
from .cards import short_deck
from .game import Game
from .games import family as _family
from .games import qute as _qute
from .games.family.phases import MAX_CLAIM, PHASES
from .games.family.rulesets import LOOK, RULESETS, SPY, SWAP, SWAP_ANY, RuleSet
from .notation import Action, Address, sort_addresses
from .views import FamilyView, QuteView, View, is_family_view, is_qute_view

__all__ = [
    "DEFAULT_MAX_POSITIONS",
    "Encoding",
    "ObservationPiece",
    "encoding",
    "supported",
    "win_rewards",
]


class _MaxPositions(Mapping[str, int]):
    """A live view of :attr:`RuleSet.max_positions` of every registered family rule set."""

    def __getitem__(self, name: str) -> int:
        return RULESETS[name].max_positions

    def __iter__(self) -> Iterator[str]:
        return iter(list(RULESETS))

    def __len__(self) -> int:
        return len(RULESETS)


DEFAULT_MAX_POSITIONS: Mapping[str, int] = _MaxPositions()
"""Positions per seat the action table covers, by family variant (each rule set's
``max_positions``: 8, and 4 in kaboo, whose hands never grow)."""

_FAMILIES = (_family.FAMILY, _qute.FAMILY)


def supported(variant: variants.Variant) -> bool:
    """Whether this module can encode ``variant`` (a game of the Cabo family, or Qute)."""
    return variant.family in _FAMILIES


Vector = npt.NDArray[np.float32]
"""A flat observation vector."""

_QUTE_CODES = tuple(short_deck())
_QUTE_ID = {c: i for i, c in enumerate(_QUTE_CODES)}
_SUITS = "CDHS"
_QUTE_PHASES = ("play", "cover", "decide", "over")
_QUTE_PENDING = ("qute", "suit", "eights", "jpoints")
_POWERS = ("peek", "spy", "exchange", "look", "exchange any", "give")


@dataclass(frozen=True)
class ObservationPiece:
    """A named slice of the observation vector."""

    name: str
    """Key of the piece (also the key in :meth:`Encoding.split`)."""
    start: int
    """Index of its first element in the flat vector."""
    shape: tuple[int, ...]
    """Shape of the piece (its elements are laid out row-major)."""
    doc: str
    """What the elements mean."""

    @property
    def size(self) -> int:
        """Number of elements."""
        return int(np.prod(self.shape))


def _rel_key(arg: Address) -> tuple[int, int]:
    return (0, arg) if isinstance(arg, int) else arg


class Encoding:
    """The integer action table and observation layout of one variant at one seat count.

    Build it with :func:`encoding` (cached). ``size`` is the number of actions,
    ``observation_size`` the length of the vector.
    """

    def __init__(self, variant: str, players: int, max_positions: int | None = None) -> None:
        info = variants.get(variant)
        if not supported(info):
            raise ValueError(f"{info.name} has no integer encoding (family {info.family!r})")
        info.check_players(players)
        self.variant = info.name
        """Registry name of the variant."""
        self.players = players
        """Seats at the table."""
        self.family = self.variant in RULESETS
        """True for the Cabo family, False for Qute."""
        if self.family:
            default = DEFAULT_MAX_POSITIONS[self.variant]
            self.max_positions = default if max_positions is None else max_positions
            if not 1 <= self.max_positions <= 64:
                raise ValueError("max_positions must be between 1 and 64")
            self.rs: RuleSet | None = RULESETS[self.variant]
            self.codes: tuple[str, ...] = tuple(dict.fromkeys(self.rs.deck))
            rows = self._family_rows(self.rs)
        else:
            if max_positions is not None:
                raise ValueError("max_positions applies to the Cabo family only")
            self.max_positions = 0
            self.rs = None
            self.codes = _QUTE_CODES
            rows = self._qute_rows()
        self.code_index = {c: i for i, c in enumerate(self.codes)}
        """Index of each distinct card code in one-hot pieces."""
        self._rows: tuple[Action, ...] = tuple(rows)
        self._index = {a: i for i, a in enumerate(self._rows)}
        # seat-relative translations already made (both directions are pure functions)
        self._encoded: dict[tuple[int, Action], int | None] = {}
        self._decoded: dict[tuple[int, int], Action] = {}
        if len(self._index) != len(self._rows):  # pragma: no cover - a table bug
            raise AssertionError("duplicate rows in the action table")
        self.size = len(self._rows)
        """Number of distinct actions (the action space is ``range(size)``)."""
        self._pieces: list[ObservationPiece] = []
        if self.family:
            self._family_layout()
        else:
            self._qute_layout()
        self.observation_size = sum(p.size for p in self._pieces)
        """Length of the observation vector."""
        self._piece = {p.name: p for p in self._pieces}

    # ------------------------------------------------------------------ action table
    def _family_rows(self, rs: RuleSet) -> list[Action]:
        n, cap = self.players, self.max_positions
        own = range(cap)
        others = [(k, i) for k in range(1, n) for i in own]
        powers = {rs.power_of(c) for c in rs.deck}
        rows = [Action("draw", ("deck",)), Action("draw", ("discard",)), Action(rs.call)]
        rows += [Action("discard"), Action("pass")]
        if LOOK in powers:
            rows.append(Action("exchange"))
        rows += [Action("peek", (i,)) for i in own]
        rows += [Action("replace", (i,)) for i in own]
        if rs.drops.claims:
            for k in range(2, MAX_CLAIM + 1):
                rows += [Action("replace", c) for c in itertools.combinations(own, k)]
        if SPY in powers:
            rows += [Action("spy", (a,)) for a in others]
        if SWAP in powers:
            rows += [Action("exchange", (i, a)) for i in own for a in others]
        if LOOK in powers:
            rows += [Action("look", (i, a)) for i in own for a in others]
        if SWAP_ANY in powers:
            addrs: list[Address] = [*own, *others]
            rows += [
                Action("exchange", (a, b))
                for a, b in itertools.combinations(addrs, 2)
                if _rel_key(a)[0] != _rel_key(b)[0]
            ]
        if rs.drops.sheds:
            rows += [Action("drop", (i,)) for i in own]
        if rs.drops.pile_phases:
            rows += [Action("drop", (a,)) for a in others]
            rows += [Action("give", (i,)) for i in own]
        return rows

    @staticmethod
    def _qute_rows() -> list[Action]:
        rows = [Action("draw")]
        rows += [Action("suit", (s,)) for s in _SUITS]
        rows += [Action("eights", ("all",)), Action("eights", ("next",))]
        rows += [Action("qute"), Action("continue")]
        rows += [Action("jpoints", ("minus",)), Action("jpoints", ("plus",))]
        # Every canonical play: one rank, the first card and the last free, the cards in
        # between in suit order (card id // 9 is the suit, id % 9 the rank).
        for rank in range(9):
            group = [rank + 9 * s for s in range(4)]
            for first in group:
                rest = [c for c in group if c != first]
                rows.append(Action("play", (_QUTE_CODES[first],)))
                for last in rest:
                    middle_pool = [c for c in rest if c != last]
                    for k in range(len(middle_pool) + 1):
                        for middle in itertools.combinations(middle_pool, k):
                            codes = (first, *middle, last)
                            rows.append(Action("play", tuple(_QUTE_CODES[c] for c in codes)))
        return rows

    def rows(self) -> tuple[Action, ...]:
        """Every row's action, by integer, with seat-relative addresses (``(k, N)``: position
        ``N`` of the seat ``k`` places after the actor; a bare ``N`` is the actor's own)."""
        return self._rows

    def action_table(self) -> list[tuple[int, str]]:
        """Every row as ``(integer, text)``; addresses read ``+k.N`` (k seats after you)."""
        return [(i, self._row_text(a)) for i, a in enumerate(self._rows)]

    @staticmethod
    def _row_text(action: Action) -> str:
        parts = [action.name]
        for arg in action.args:
            parts.append(f"+{arg[0]}.{arg[1]}" if isinstance(arg, tuple) else str(arg))
        return " ".join(parts)

    # ------------------------------------------------------------------ encode / decode
    def encode(self, seat: int, action: Action) -> int | None:
        """The integer of ``action`` (canonical, as ``legal_actions`` lists it) played by
        ``seat``; ``None`` if the table has no row for it (a position beyond the cap)."""
        if not self.family or not action.args:
            return self._index.get(action)
        key = (seat, action)
        cached = self._encoded.get(key, -1)
        if cached != -1:
            return cached
        n = self.players
        args = tuple(((a[0] - seat) % n, a[1]) if isinstance(a, tuple) else a for a in action.args)
        if action.name == "exchange" and len(args) == 2:
            args = tuple(sorted(args, key=_rel_key))  # type: ignore[arg-type]
        index = self._encoded[key] = self._index.get(Action(action.name, args))
        return index

    def decode(self, seat: int, index: int) -> Action:
        """The canonical action of row ``index`` for ``seat``; ``ValueError`` if out of range."""
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside 0..{self.size - 1}")
        row = self._rows[index]
        if not self.family or not any(isinstance(a, tuple) for a in row.args):
            return row
        key = (seat, index)
        act = self._decoded.get(key)
        if act is None:
            n = self.players
            args = tuple(((seat + a[0]) % n, a[1]) if isinstance(a, tuple) else a for a in row.args)
            if row.name == "exchange" and len(args) == 2:
                args = sort_addresses(args)  # type: ignore[arg-type]
            act = self._decoded[key] = Action(row.name, args)
        return act

    def legal(self, game: Game, seat: int) -> list[int]:
        """Integers of the legal actions of ``seat``, ascending (rows beyond the cap left out)."""
        out = {i for a in game.legal_actions(seat) if (i := self.encode(seat, a)) is not None}
        return sorted(out)

    def mask(self, legal: Iterable[int]) -> npt.NDArray[np.int8]:
        """An ``int8`` vector of length ``size`` with 1 at each integer of ``legal``."""
        m = np.zeros(self.size, dtype=np.int8)
        m[list(legal)] = 1
        return m

    # ------------------------------------------------------------------ observation layout
    def _add(self, name: str, shape: tuple[int, ...], doc: str) -> None:
        start = sum(p.size for p in self._pieces)
        self._pieces.append(ObservationPiece(name, start, shape, doc))

    def _family_layout(self) -> None:
        n, cap, c = self.players, self.max_positions, len(self.codes)
        self._add("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES))
        self._add("turn", (n,), "one-hot: whose turn (index k = k seats after you)")
        self._add("actors", (n,), "1 for each seat that may act now (relative)")
        self._add(
            "cards",
            (n, cap, 4 + c + n),
            "per relative seat and position: [holds a card, you know it, its value / 10 if "
            "known, part of the pending look], then a one-hot card code if known, then 1 for "
            "each seat (relative) that knows the card",
        )
        self._add("beyond", (n,), "cards each seat holds at positions beyond the cap")
        self._add("discard_top", (c,), "one-hot code of the discard pile's top card")
        self._add("discard", (c,), "how many cards of each code lie in the discard pile")
        self._add("deck", (2,), "[cards left in the deck / deck size, reshuffles so far]")
        self._add(
            "drawn",
            (3 + c,),
            "[a card is in hand, it came from the deck, from the discard pile], then its "
            "one-hot code when you may see it",
        )
        self._add("caller", (n + 1,), "one-hot seat that called (relative), then final turns left")
        self._add(
            "pending",
            (len(_POWERS) + 1,),
            "one-hot power to resolve: " + ", ".join(_POWERS) + "; then 1 if the looked "
            "cards may still be exchanged",
        )
        self._add("snap", (c + n,), "one-hot code that opened the snap window, seats that passed")
        self._add("peeks_left", (1,), "initial peeks you still have to make")
        self._add("totals", (n,), "match totals / 100 (relative seats)")
        self._add("progress", (2,), "[round number, turns played / turn limit]")

    def _qute_layout(self) -> None:
        n = self.players
        self._add("phase", (4,), "one-hot phase: " + ", ".join(_QUTE_PHASES))
        self._add("pending", (4,), "one-hot decision asked: " + ", ".join(_QUTE_PENDING))
        self._add("turn", (n,), "one-hot: whose turn (index k = k seats after you)")
        self._add("hand", (36,), "1 for each card in your hand (card id: suit * 9 + rank)")
        self._add("counts", (n,), "cards in each hand / 10 (relative seats)")
        self._add("stack", (36,), "1 for each card in the stack")
        self._add("top", (36,), "one-hot top card of the stack")
        self._add("suit", (4,), "one-hot suit chosen for the J on top (C, D, H, S)")
        self._add("run", (1,), "same-rank run on top of the stack / 4")
        self._add("laid", (36,), "1 for each card laid this turn")
        self._add("drawn", (36,), "one-hot card you drew this turn and may still play")
        self._add("blind", (2,), "[cards in the blind / 36, refills this round]")
        self._add("totals", (n,), "match totals / 125 (relative seats)")
        self._add("progress", (2,), "[round number, turns this round / turn limit]")

    def observation_pieces(self) -> list[ObservationPiece]:
        """The layout of the observation vector, in order."""
        return list(self._pieces)

    def split(self, vector: Vector) -> dict[str, Vector]:
        """The named pieces of ``vector``, reshaped (views, not copies)."""
        return {p.name: vector[p.start : p.start + p.size].reshape(p.shape) for p in self._pieces}

    # ------------------------------------------------------------------ observation
    def observe(self, view: View) -> Vector:
        """The observation vector of ``view`` (a seat's ``view`` of this encoding's game;
        nothing else is read)."""
        out = np.zeros(self.observation_size, dtype=np.float32)
        d = self.split(out)
        if self.family:
            if not is_family_view(view):
                raise ValueError(f"{self.variant} encodes Cabo-family views, not {view['game']}")
            self._observe_family(view, d)
        else:
            if not is_qute_view(view):
                raise ValueError(f"{self.variant} encodes Qute views, not {view.get('game')}")
            self._observe_qute(view, d)
        return out

    def _rel(self, view: FamilyView | QuteView, seat: int) -> int:
        me = view["seat"]
        assert me is not None, "a seat's view, not a spectator's"
        return (seat - me) % self.players

    def _observe_family(self, v: FamilyView, d: dict[str, Vector]) -> None:
        assert self.rs is not None
        n, cap, ci, rs = self.players, self.max_positions, self.code_index, self.rs
        me = v["seat"]
        assert me is not None, "a seat's view, not a spectator's"
        d["phase"][PHASES.index(v["phase"])] = 1
        d["turn"][self._rel(v, v["turn"])] = 1
        for s in v["actors"]:
            d["actors"][self._rel(v, s)] = 1
        looked: set[tuple[int, int]] = set()
        pending = v["pending"]
        if pending is not None and "looked" in pending:
            for addr in pending["looked"]:
                seat, pos = addr.split(".")
                looked.add((int(seat), int(pos)))
        cards, beyond = d["cards"], d["beyond"]
        for s, hand in enumerate(v["hands"]):
            r = self._rel(v, s)
            for i, slot in enumerate(hand):
                if slot is None:
                    continue
                if i >= cap:
                    beyond[r] += 1
                    continue
                row = cards[r, i]
                row[0] = 1
                code = slot["card"]
                if code is not None:
                    row[1] = 1
                    row[2] = rs.value(code) / 10
                    row[4 + ci[code]] = 1
                if (s, i) in looked:
                    row[3] = 1
                for t in slot["seen"]:
                    row[4 + len(ci) + (t - me) % n] = 1
        discard = v["discard"]
        if discard:
            d["discard_top"][ci[discard[-1]]] = 1
        for code in discard:
            d["discard"][ci[code]] += 1
        d["deck"][:] = (v["deck"] / len(rs.deck), v["reshuffles"])
        drawn = d["drawn"]
        if v["drawer"] is not None:
            drawn[0] = 1
            drawn[1] = v["drawn_from"] == "deck"
            drawn[2] = v["drawn_from"] == "discard"
        if v["drawn"] is not None:
            drawn[3 + ci[v["drawn"]]] = 1
        if v["caller"] is not None:
            d["caller"][self._rel(v, v["caller"])] = 1
            d["caller"][n] = v["final_turns_left"]
        if pending is not None:
            if "give" in pending:
                d["pending"][5] = 1
            else:
                kind = pending["power"] + (" any" if pending.get("any") else "")
                d["pending"][_POWERS.index(kind)] = 1
                d["pending"][6] = bool(pending.get("can_exchange"))
        snap = v["snap"]
        if snap is not None:
            d["snap"][ci[snap["card"]]] = 1
            for s in snap["passed"]:
                d["snap"][len(ci) + self._rel(v, s)] = 1
        if v["peeks_left"] is not None:
            d["peeks_left"][0] = v["peeks_left"][me]
        for s, total in enumerate(v["totals"]):
            d["totals"][self._rel(v, s)] = total / 100
        d["progress"][:] = (v["round"], v["turns"] / max(1, v["max_turns"]))

    def _observe_qute(self, v: QuteView, d: dict[str, Vector]) -> None:
        d["phase"][_QUTE_PHASES.index(v["phase"])] = 1
        if v["pending"] is not None:
            d["pending"][_QUTE_PENDING.index(v["pending"])] = 1
        d["turn"][self._rel(v, v["turn"])] = 1
        for code in v["hand"] or ():
            d["hand"][_QUTE_ID[code]] = 1
        for s, count in enumerate(v["counts"]):
            d["counts"][self._rel(v, s)] = count / 10
        for code in v["stack"]:
            d["stack"][_QUTE_ID[code]] = 1
        if v["top"] is not None:
            d["top"][_QUTE_ID[v["top"]]] = 1
        if v["suit"] is not None:
            d["suit"][_SUITS.index(v["suit"])] = 1
        d["run"][0] = len(v["run"]["cards"]) / 4
        for code in v["laid"]:
            d["laid"][_QUTE_ID[code]] = 1
        if v["drawn"] is not None:
            d["drawn"][_QUTE_ID[v["drawn"]]] = 1
        d["blind"][:] = (v["blind"] / 36, v["refills"])
        for s, total in enumerate(v["totals"]):
            d["totals"][self._rel(v, s)] = total / 125
        d["progress"][:] = (v["round"], v["turns"] / max(1, v["max_turns"]))


def encoding(variant: str, players: int, max_positions: int | None = None) -> Encoding:
    """The (cached) :class:`Encoding` of ``variant`` at ``players`` seats."""
    name = variants.get(variant).name
    if max_positions is None and name in DEFAULT_MAX_POSITIONS:
        max_positions = DEFAULT_MAX_POSITIONS[name]
    return _encoding(name, players, max_positions)


@cache
def _encoding(variant: str, players: int, max_positions: int | None) -> Encoding:
    return Encoding(variant, players, max_positions)


def _forget(_variant: variants.Variant) -> None:
    _encoding.cache_clear()  # a later variant may take the name again


variants.subscribe(lambda _variant: None, _forget)


def win_rewards(players: int, winners: Sequence[int]) -> list[float]:
    """Zero-sum end-of-game rewards: a sole winner gets 1, the rest share -1 equally; tied
    winners split the win (two players: 1 / -1, a tie 0 / 0)."""
    win = (players / len(winners) - 1) / (players - 1)  # exactly 1.0 for a sole winner
    lose = -1 / (players - 1)
    return [win if s in winners else lose for s in range(players)]


def describe(variant: str, players: int, max_positions: int | None = None) -> str:
    """The action table and observation layout of one variant as Markdown (for the docs)."""
    enc = encoding(variant, players, max_positions)
    cap = f", positions 0..{enc.max_positions - 1}" if enc.family else ""
    lines = [f"### {enc.variant}, {players} players{cap}", ""]
    lines += [f"{enc.size} actions:", "", "| integer | action |", "|---:|---|"]
    lines += [f"| {i} | `{text}` |" for i, text in enc.action_table()]
    lines += ["", f"Observation vector: {enc.observation_size} floats.", ""]
    lines += ["| piece | start | shape | meaning |", "|---|---:|---|---|"]
    lines += [
        f"| `{p.name}` | {p.start} | {'×'.join(map(str, p.shape))} | {p.doc} |"
        for p in enc.observation_pieces()
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - a documentation helper
    import sys

    args = sys.argv[1:]
    if not 2 <= len(args) <= 3 or not all(a.isdigit() for a in args[1:]):
        sys.exit("usage: python -m cardtable.encoding VARIANT PLAYERS [MAX_POSITIONS]")
    sys.stdout.write(describe(args[0], *(int(a) for a in args[1:])))
