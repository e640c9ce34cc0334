"""OpenSpiel games for every cardtable variant (needs the ``[openspiel]`` extra).

Importing this module registers one game per variant with ``pyspiel``, named
``cardtable_`` and the variant's name with ``-`` written ``_`` (``cardtable_cabo``,
``cardtable_cabo_german``, ``cardtable_gabo``, ``cardtable_kaboo``, ``cardtable_qute``), and
every variant registered later (``cardtable.games.family.add_variant``) gets its game too::

    import pyspiel
    import cardtable.interop.openspiel  # registers the games

    game = pyspiel.load_game("cardtable_kaboo", {"players": 3})

Parameters (all integers): ``players`` (the variant's default), ``target`` (the match target;
``0`` plays one round; the default is the variant's own, ``0`` where it plays one round),
``max_positions`` (Cabo family only: hand positions the action table covers) and
``max_moves`` (a cap on player decisions: a game that reaches it ends, every return 0).

**Chance nodes for every draw.** Every card that leaves the deck (or Qute's blind) goes
through the engine's one draw function. The adapter's engines (:class:`_ChanceFamily`,
:class:`_ChanceQute`) override it: a draw takes the next card chosen by chance, and when none
is left it raises :class:`_NeedChance` with the cards it could draw. A state applies a player
action to a clone of its engine; if a draw asks for a card, the state becomes a chance node
whose outcomes are those card ids (equally likely), and each outcome replays the action on a
fresh clone with one more chosen card, until the action completes. The deal works the same
with the engine's construction (in kaboo a first chance node draws the first seat), and so do
the deals of later rounds inside the action that ends a round. The engine's own seed never
decides what is drawn.

States are cheap to copy: a state holds one immutable :class:`_Node`; engines stored in nodes
are never changed again (each action works on a clone), so cloning a state shares its node.
:func:`to_game` turns a state back into a plain engine for cardtable's own agents.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
import pyspiel

from .. import variants
from ..game import Game
from ..games.family.engine import FamilyGame
from ..games.family.rulesets import RULESETS, RuleSet
from ..games.qute.engine import QuteGame
from ..rng import Rng
from .encoding import DEFAULT_MAX_POSITIONS, Encoding, encoding, supported, win_rewards

__all__ = [
    "DEFAULT_MAX_MOVES",
    "GAME_CLASSES",
    "GAME_NAMES",
    "CardtableGame",
    "CardtableObserver",
    "CardtableState",
    "game_name",
    "register_variant",
    "to_game",
]

DEFAULT_MAX_MOVES = 100_000
"""Default cap on player decisions; reaching it ends the game with all returns 0.

Measured on full default matches: with uniformly random legal actions the longest game seen
took 936 decisions (Qute for two, 3,000 matches; every other variant and seat count stayed
under 400), and with cardtable's rule-of-thumb agents up to about 15,400 (ten-player Gabo,
whose snap windows ask every seat after every turn; 100 matches). The cap is far above both,
so it only stops games that would not end (a Gabo seat that keeps snapping wrongly can hold a
snap window open for ever)."""

CHANCE = int(pyspiel.PlayerId.CHANCE)
"""OpenSpiel's id of the chance player."""
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
"""OpenSpiel's current-player id of a terminal state."""

_T = TypeVar("_T")
_FIXED_SEED = 0  # the engines' generator only orders the deck; chance nodes pick every card


def game_name(variant: str) -> str:
    """OpenSpiel short name of a variant: ``cabo-german`` → ``cardtable_cabo_german``."""
    return "cardtable_" + variants.get(variant).name.replace("-", "_")


GAME_NAMES: dict[str, str] = {}
"""OpenSpiel short name of each registered variant (kept up to date with the registry)."""


# ----------------------------------------------------------------------------------- engines
class _NeedChance(Exception):
    """A draw found no card chosen by chance: ``candidates`` are the card ids it could take."""

    def __init__(self, candidates: tuple[int, ...]) -> None:
        super().__init__("a card must be drawn by chance")
        self.candidates = candidates


class _Orderless(Rng):
    """The chance engines' generator: shuffles leave the order as it is (every draw is chosen
    by chance, so the order of a pile never matters) and anything else is refused."""

    def shuffle_stable(self, items: list[_T]) -> None:
        """Leave ``items`` as they are."""

    def random(self) -> float:
        """Refused: a chance engine must not decide anything at random."""
        raise RuntimeError("the OpenSpiel adapter's engines draw nothing at random")


_ORDERLESS = _Orderless(_FIXED_SEED)


class _ChanceDraws(Game):
    """What both chance engines share: the queue of cards chosen by chance, the orderless
    generator, and taking a card from a pile."""

    _queue: tuple[int, ...] = ()
    """Cards chosen by chance for the draws of the action being played, in order."""
    _qpos: int = 0
    """How many of them have been drawn."""

    @property
    def random(self) -> Rng:
        """The orderless generator (see :class:`_Orderless`)."""
        return _ORDERLESS

    @random.setter
    def random(self, rng: Rng) -> None:
        pass  # the adapter's engines keep the orderless generator

    def _rng_snapshot(self) -> Any:
        return _FIXED_SEED

    def _take(self, pile: list[int]) -> int:
        """Remove and return the next chosen card from ``pile``, or ask chance for one."""
        i = self._qpos
        queue = self._queue
        if i < len(queue):
            cid = queue[i]
            self._qpos = i + 1
            pile.remove(cid)
            return cid
        raise _NeedChance(tuple(sorted(pile)))


class _ChanceFamily(_ChanceDraws, FamilyGame):
    """The Cabo-family engine with every draw chosen by chance (see the module docstring)."""

    def __init__(
        self, rs: RuleSet, players: int, options: dict[str, Any], queue: tuple[int, ...]
    ) -> None:
        self._queue = queue
        FamilyGame.__init__(self, rs, players, _FIXED_SEED, options)

    def _draw_from_deck(self) -> int:
        """The next chosen card (after a reshuffle where the parent would do one)."""
        if not self.deck:
            cid = super()._draw_from_deck()  # reshuffles where the rules say so, then draws
            if cid < 0:
                return -1
            self.deck.append(cid)  # put it back: chance decides what is drawn
        return self._take(self.deck)

    def determinize(
        self, seat: int, rng: Any, weights: Mapping[tuple[int, int], Sequence[float]] | None = None
    ) -> _ChanceFamily:
        """The parent's re-deal; chance keeps choosing every draw (no lazy deck)."""
        world = cast(_ChanceFamily, FamilyGame.determinize(self, seat, rng, weights))
        world._lazy_deck = False
        return world

    def _copy_state(self, d: dict[str, Any]) -> None:
        """Copies start without chosen cards (a queue is never shared)."""
        FamilyGame._copy_state(self, d)
        d["_queue"] = ()
        d["_qpos"] = 0


class _ChanceQute(_ChanceDraws, QuteGame):
    """The Qute engine with every draw from the blind chosen by chance."""

    def __init__(self, players: int, options: dict[str, Any], queue: tuple[int, ...]) -> None:
        self._queue = queue
        QuteGame.__init__(self, players, _FIXED_SEED, options)

    def _draw_from_blind(self) -> int:
        """The next chosen card (after refilling the blind where the parent would)."""
        if not self.blind:
            cid = super()._draw_from_blind()  # refills from the stack if it can, then draws
            if cid < 0:
                return -1
            self.blind.append(cid)  # put it back: chance decides what is drawn
        return self._take(self.blind)

    def _copy_state(self, d: dict[str, Any]) -> None:
        """Copies start without chosen cards (a queue is never shared)."""
        QuteGame._copy_state(self, d)
        d["_queue"] = ()
        d["_qpos"] = 0


_Engine = _ChanceFamily | _ChanceQute


# ----------------------------------------------------------------------------------- the spec
class _Spec:
    """Everything fixed for one loaded game: variant, parameters, encoding and caches."""

    def __init__(
        self, variant: str, players: int, target: int, max_positions: int, max_moves: int
    ) -> None:
        info = variants.get(variant)
        self.variant = info.name
        self.players = players
        self.target = target
        self.max_positions = max_positions
        self.max_moves = max_moves
        self.family = self.variant in RULESETS
        self.rs = RULESETS.get(self.variant)
        self.enc: Encoding = encoding(self.variant, players, max_positions or None)
        self.options = info.resolve_options({"target": target or None})
        self.random_first = self.rs is not None and self.rs.random_first
        # the code of each card id (cabo's deck repeats codes; Qute's are the encoding's)
        self.codes: tuple[str, ...] = self.rs.deck if self.rs is not None else self.enc.codes
        self.unique_codes = len(set(self.codes)) == len(self.codes)
        self.rewards: dict[tuple[int, ...], list[float]] = {}
        self.zeros = [0.0] * players
        self.empty_vector = np.zeros(self.enc.observation_size, dtype=np.float32)
        self._initial: _Node | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _spec,
            (self.variant, self.players, self.target, self.max_positions, self.max_moves),
        )

    def build(self, first: int, queue: tuple[int, ...]) -> _Engine:
        """A new engine dealt from ``queue`` (``_NeedChance`` when it runs out)."""
        options = self.options if first < 0 else {**self.options, "first": first}
        if self.rs is not None:
            return _ChanceFamily(self.rs, self.players, options, queue)
        return _ChanceQute(self.players, options, queue)

    def win(self, winners: list[int]) -> list[float]:
        """Zero-sum returns of a game won by ``winners`` (cached)."""
        key = tuple(winners)
        out = self.rewards.get(key)
        if out is None:
            out = self.rewards[key] = win_rewards(self.players, winners)
        return out

    def card_text(self, cid: int) -> str:
        """A chance outcome's text: the card code (with its id where codes repeat: cabo)."""
        if not 0 <= cid < len(self.codes):
            raise ValueError(f"{cid} is not a card id of the {self.variant} deck")
        code = self.codes[cid]
        return code if self.unique_codes else f"{code}#{cid}"

    @property
    def initial(self) -> _Node:
        """The state before anything is dealt (shared by every new state)."""
        if self._initial is None:
            if self.random_first:
                self._initial = _Node(self, None, -1, -1, -1, (), tuple(range(self.players)), 0)
            else:
                self._initial = _Node.deal(self, -1, ())
        return self._initial


@cache
def _spec(variant: str, players: int, target: int, max_positions: int, max_moves: int) -> _Spec:
    return _Spec(variant, players, target, max_positions, max_moves)


def _int_param(params: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = params.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"parameter {name!r} must be an integer, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"parameter {name!r} must be between {low} and {high}, got {value}")
    return value


def _spec_from(variant: str, params: Mapping[str, Any]) -> _Spec:
    info = variants.get(variant)
    family = info.name in RULESETS
    known = {"players", "target", "max_moves"} | ({"max_positions"} if family else set())
    unknown = sorted(set(params) - known)
    if unknown:
        raise ValueError(
            f"unknown parameter {unknown[0]!r} for {game_name(variant)}; known: "
            + ", ".join(sorted(known))
        )
    players = _int_param(params, "players", info.default_players, 0, 10**9)
    info.check_players(players)
    target = _int_param(params, "target", _default_target(variant), 0, 10**9)
    max_moves = _int_param(params, "max_moves", DEFAULT_MAX_MOVES, 1, 10**9)
    max_positions = 0
    if family:
        max_positions = _int_param(params, "max_positions", DEFAULT_MAX_POSITIONS[info.name], 1, 64)
    return _spec(info.name, players, target, max_positions, max_moves)


def _default_target(variant: str) -> int:
    target = variants.get(variant).resolve_options(None)["target"]
    return 0 if target is None else int(target)


# ----------------------------------------------------------------------------------- nodes
class _Node:
    """One immutable game state of the adapter (shared by clones; caches fill lazily).

    ``eng`` is the engine (``None`` while the first deal is still being chosen); ``pend`` a
    player action (integer) waiting for chance, played by ``pseat``, with the cards chosen so
    far in ``chosen``; ``cands`` the outcomes when ``player`` is the chance player.
    """

    __slots__ = (
        "_legal",
        "_memo",
        "_outcomes",
        "cands",
        "chosen",
        "eng",
        "first",
        "moves",
        "pend",
        "player",
        "pseat",
        "spec",
        "trunc",
    )

    def __init__(
        self,
        spec: _Spec,
        eng: _Engine | None,
        first: int,
        pend: int,
        pseat: int,
        chosen: tuple[int, ...],
        cands: tuple[int, ...],
        moves: int,
        player: int = CHANCE,
        trunc: bool = False,
        legal: list[int] | None = None,
    ) -> None:
        self.spec = spec
        self.eng = eng
        self.first = first
        self.pend = pend
        self.pseat = pseat
        self.chosen = chosen
        self.cands = cands
        self.moves = moves
        self.player = player
        self.trunc = trunc
        self._legal = legal
        self._outcomes: list[tuple[int, float]] | None = None
        self._memo: dict[tuple[int, int], Any] | None = None  # strings and vectors by seat

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self  # immutable: OpenSpiel's state clone shares it

    def __copy__(self) -> _Node:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _Node,
            (
                self.spec,
                self.eng,
                self.first,
                self.pend,
                self.pseat,
                self.chosen,
                self.cands,
                self.moves,
                self.player,
                self.trunc,
                self._legal,
            ),
        )

    # -- transitions ---------------------------------------------------------------------
    @staticmethod
    def deal(spec: _Spec, first: int, chosen: tuple[int, ...]) -> _Node:
        """Build the engine from the cards chosen so far, or a chance node asking for more."""
        try:
            eng = spec.build(first, chosen)
        except _NeedChance as need:
            return _Node(spec, None, first, -1, -1, chosen, need.candidates, 0)
        eng._recent.clear()  # construction's events; later actions record none either
        eng._queue, eng._qpos = (), 0
        return _Node.settled(spec, eng, first, 0)

    @staticmethod
    def settled(spec: _Spec, eng: _Engine, first: int, moves: int) -> _Node:
        """A node after a completed action: a decision, or terminal (game over, truncated)."""
        if eng.over:
            return _Node(spec, eng, first, -1, -1, (), (), moves, TERMINAL, legal=[])
        seat = eng.actors[0]
        legal = spec.enc.legal(eng, seat)
        # Truncated at the move cap, or (never seen in play) when every legal action names a
        # hand position beyond the action table's cap.
        if moves >= spec.max_moves or not legal:
            return _Node(spec, eng, first, -1, -1, (), (), moves, TERMINAL, True, [])
        return _Node(spec, eng, first, -1, -1, (), (), moves, seat, legal=legal)

    def attempt(self, base: _Engine, seat: int, action: int, chosen: tuple[int, ...]) -> _Node:
        """Play ``action`` of ``seat`` on a clone of ``base`` with the cards ``chosen``."""
        spec = self.spec
        work = base.clone()
        work._queue = chosen
        moves = self.moves if self.pend >= 0 else self.moves + 1
        try:
            work.apply(seat, spec.enc.decode(seat, action))
        except _NeedChance as need:
            return _Node(spec, base, self.first, action, seat, chosen, need.candidates, moves)
        work._queue, work._qpos = (), 0
        return _Node.settled(spec, work, self.first, moves)

    def after(self, action: int) -> _Node:
        """The node after ``action``; ``ValueError`` (nothing changes) if it is not legal."""
        player = self.player
        if player == TERMINAL:
            raise ValueError("the game is over: no action can be applied")
        if player == CHANCE:
            if action not in self.cands:
                raise ValueError(
                    f"chance outcome {action} is not possible here; outcomes: {list(self.cands)}"
                )
            if self.eng is None:
                if self.spec.random_first and self.first < 0:
                    return _Node.deal(self.spec, action, ())
                return _Node.deal(self.spec, self.first, (*self.chosen, action))
            return self.attempt(self.eng, self.pseat, self.pend, (*self.chosen, action))
        if action not in self.legal():
            size = self.spec.enc.size
            text = f" ({self.action_text(player, action)})" if 0 <= action < size else ""
            raise ValueError(
                f"action {action}{text} is not legal for player {player} now; legal: {self.legal()}"
            )
        assert self.eng is not None
        return self.attempt(self.eng, player, action, ())

    def resampled(self, seat: int, seed: int) -> _Node:
        """This node with every card ``seat`` does not know re-dealt (``determinize``)."""
        if self.eng is None or self.pend >= 0:
            raise ValueError(
                "resample_from_infostate works at decision and terminal states, not while "
                "cards are being drawn by chance"
            )
        # a clone of the engine underneath, so of the same (chance-drawing) class
        eng = cast(_Engine, self.eng.determinize(seat, seed))
        legal = self._legal if seat == self.player else None
        return _Node(
            self.spec, eng, self.first, -1, -1, (), (), self.moves, self.player, self.trunc, legal
        )

    # -- queries -------------------------------------------------------------------------
    def legal(self) -> list[int]:
        """The current player's legal integers (empty at chance and terminal nodes)."""
        legal = self._legal
        if legal is None:
            if self.player < 0 or self.eng is None:
                legal = []
            else:
                legal = self.spec.enc.legal(self.eng, self.player)
            self._legal = legal
        return legal

    def outcomes(self) -> list[tuple[int, float]]:
        """Chance outcomes: the candidates, equally likely."""
        out = self._outcomes
        if out is None:
            if self.player != CHANCE:
                raise ValueError("chance_outcomes is only defined at chance nodes")
            p = 1.0 / len(self.cands)
            out = self._outcomes = [(c, p) for c in self.cands]
        return out

    def returns(self) -> list[float]:
        """Win rewards at the end; zeros before it and after a truncation."""
        if self.player != TERMINAL or self.trunc:
            return self.spec.zeros
        assert self.eng is not None
        result = self.eng.result
        assert result is not None
        return self.spec.win(result.winners)

    def action_text(self, player: int, action: int) -> str:
        """Text of ``action`` for ``player`` (a card code or the first seat for chance)."""
        spec = self.spec
        if player == CHANCE:
            if self.eng is None and spec.random_first and self.first < 0:
                if not 0 <= action < spec.players:
                    raise ValueError(f"there is no seat {action} to start")
                return f"first seat {action}"
            return spec.card_text(action)
        if not 0 <= player < spec.players:
            raise ValueError(f"there is no player {player} in this game")
        return str(spec.enc.decode(player, action))

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int | np.integer) or not 0 <= seat < self.spec.players:
            raise ValueError(f"there is no player {seat!r} in this game")

    def _memo_get(self, kind: int, seat: int) -> Any:
        memo = self._memo
        if memo is None:
            memo = self._memo = {}
            return None
        return memo.get((kind, seat))

    def _memo_set(self, kind: int, seat: int, value: Any) -> Any:
        assert self._memo is not None
        self._memo[(kind, seat)] = value
        return value

    def info_string(self, seat: int) -> str:
        """Canonical JSON of the seat's view (plus what is public about a pending draw)."""
        text: str | None = self._memo_get(0, seat)
        if text is None:
            text = json.dumps(self._info_object(seat), sort_keys=True, separators=(",", ":"))
            self._memo_set(0, seat, text)
        return text

    def _info_object(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        spec = self.spec
        if self.eng is None:
            return {
                "game": spec.variant,
                "players": spec.players,
                "seat": seat,
                "dealing": {
                    "first": self.first if self.first >= 0 else None,
                    "dealt": len(self.chosen),
                },
            }
        view = self.eng.view(seat)
        if self.pend >= 0:
            view["chance"] = {
                "seat": self.pseat,
                "action": self.action_text(self.pseat, self.pend),
                "drawn": len(self.chosen),
            }
        if self.trunc:
            view["truncated"] = True
        return view

    def obs_string(self, seat: int) -> str:
        """A compact text of the seat's view, one line per seat and per public fact."""
        text: str | None = self._memo_get(1, seat)
        if text is None:
            self._check_seat(seat)
            if self.eng is None:
                first = f", first seat {self.first}" if self.first >= 0 else ""
                text = f"{self.spec.variant}: dealing ({len(self.chosen)} cards dealt{first})"
            else:
                view = self.eng.view(seat)
                lines = _family_text(view) if self.spec.family else _qute_text(view)
                if self.pend >= 0:
                    lines.append(
                        f"drawing for seat {self.pseat}'s "
                        f"'{self.action_text(self.pseat, self.pend)}' "
                        f"({len(self.chosen)} drawn)"
                    )
                if self.trunc:
                    lines.append("truncated: the move cap was reached")
                text = "\n".join(lines)
            self._memo_set(1, seat, text)
        return text

    def vector(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of the seat's view (zeros before the deal is complete)."""
        vec: npt.NDArray[np.float32] | None = self._memo_get(2, seat)
        if vec is None:
            self._check_seat(seat)
            if self.eng is None:
                vec = self.spec.empty_vector
            else:
                vec = self.spec.enc.observe(self.eng.view(seat))
            self._memo_set(2, seat, vec)
        return vec

    def debug_text(self) -> str:
        """Everything, hidden cards included (deterministic; for debugging and clone checks)."""
        spec = self.spec
        head = f"{spec.variant} players={spec.players} moves={self.moves}"
        if self.trunc:
            head += " truncated"
        lines = [head]
        if self.first >= 0:
            lines.append(f"first seat chosen: {self.first}")
        if self.player == CHANCE:
            chosen = " ".join(spec.card_text(c) for c in self.chosen) or "-"
            what = (
                "deal"
                if self.eng is None
                else f"seat {self.pseat}: {self.action_text(self.pseat, self.pend)}"
            )
            lines.append(f"chance for {what}; chosen so far: {chosen}")
        if self.eng is not None:
            lines += self.eng.debug_lines()
        return "\n".join(lines)


# ----------------------------------------------------------------------------------- texts
def _codes(cards: list[Any]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def _family_text(v: dict[str, Any]) -> list[str]:
    me = v["seat"]
    head = (
        f"{v['game']} round {v['round']}, phase {v['phase']}, turn of seat {v['turn']}, "
        f"to act: {_codes(v['actors'])}; you are seat {me}"
    )
    lines = [head]
    for s, hand in enumerate(v["hands"]):
        cards = " ".join("-" if slot is None else (slot["card"] or "?") for slot in hand)
        lines.append(f"seat {s}{' (you)' if s == me else ''}: {cards or '-'}")
    discard = v["discard"]
    lines.append(
        f"deck {v['deck']} (reshuffles {v['reshuffles']}), discard {len(discard)}: "
        f"top {discard[-1] if discard else '-'}"
    )
    if v["drawer"] is not None:
        lines.append(f"drawn by seat {v['drawer']} from the {v['drawn_from']}: {v['drawn'] or '?'}")
    if v["caller"] is not None:
        lines.append(
            f"{v['call']} called by seat {v['caller']}, final turns left {v['final_turns_left']}"
        )
    if v["pending"] is not None:
        lines.append("pending: " + json.dumps(v["pending"], sort_keys=True))
    if v["snap"] is not None:
        snap = v["snap"]
        lines.append(f"snap window for {snap['card']}, passed: {_codes(snap['passed'])}")
    if v["peeks_left"] is not None:
        lines.append(f"peeks left: {_codes(v['peeks_left'])}")
    lines.append(f"totals: {_codes(v['totals'])}; turns {v['turns']} of {v['max_turns']}")
    return lines


def _qute_text(v: dict[str, Any]) -> list[str]:
    me = v["seat"]
    lines = [
        f"qute round {v['round']}, phase {v['phase']}, turn of seat {v['turn']}; you are seat {me}"
    ]
    for s, hand in enumerate(v["hands"]):
        if s == me:
            shown = _codes(v["hand"])
        elif hand and all(slot["card"] for slot in hand):  # every hand is shown at the end
            shown = _codes([slot["card"] for slot in hand])
        else:
            shown = f"{len(hand)} cards"
        lines.append(f"seat {s}{' (you)' if s == me else ''}: {shown}")
    top = v["top"] or "-"
    suit = f" (suit {v['suit']})" if v["suit"] else ""
    lines.append(
        f"stack {len(v['stack'])}, top {top}{suit}; blind {v['blind']} (refills {v['refills']})"
    )
    if v["laid"]:
        lines.append(f"laid this turn: {_codes(v['laid'])}")
    if v["drawn"] is not None:
        lines.append(f"you drew: {v['drawn']}")
    if v["penalty_drawn"]:
        lines.append(f"your penalty cards: {_codes(v['penalty_drawn'])}")
    if any(v["penalty_counts"]):
        lines.append(f"penalty cards drawn: {_codes(v['penalty_counts'])}")
    if v["pending"] is not None:
        lines.append(f"decide: {v['pending']}")
    lines.append(f"totals: {_codes(v['totals'])}; turns {v['turns']} of {v['max_turns']}")
    return lines


# ----------------------------------------------------------------------------------- pyspiel
class CardtableState(pyspiel.State):
    """An OpenSpiel state of a cardtable game. Its one Python attribute is an immutable node,
    so OpenSpiel's ``clone`` (a deep copy of the attributes) shares it."""

    _n: _Node

    def __init__(self, game: CardtableGame) -> None:
        super().__init__(game)
        self._n = game.spec.initial

    # -- the pyspiel.State API -------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act (the lowest one in simultaneous phases), chance, or terminal."""
        return self._n.player

    def _legal_actions(self, player: int) -> list[int]:
        """The legal integers of ``player``, ascending (empty for anyone but the actor)."""
        n = self._n
        return n.legal() if player == n.player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The card ids the pending draw may take (or the seats that may start), equally
        likely."""
        return self._n.outcomes()

    def _apply_action(self, action: int) -> None:
        """Play a player action or a chance outcome; ``ValueError`` (nothing changes) if it is
        not legal now."""
        self._n = self._n.after(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """Canonical action text for ``player`` (``spy 1.2``); for chance the card code (with
        ``#id`` in cabo, whose codes repeat) or ``first seat N``."""
        return self._n.action_text(player, action)

    def is_terminal(self) -> bool:
        """True once the game is over or truncated at ``max_moves``."""
        return self._n.player == TERMINAL

    def returns(self) -> list[float]:
        """Zero-sum win rewards at the end (``win_rewards``); zeros before it and when
        truncated."""
        return self._n.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardtableState:
        """A state ``player_id`` cannot tell from this one: every card it does not know
        re-dealt (the engine's ``determinize``, seeded from ``probability_sampler()``).

        The copy keeps this state's history and move number (OpenSpiel has no way to rewrite
        them); only decision and terminal states can be resampled.
        """
        n = self._n
        n._check_seat(player_id)
        seed = int(float(probability_sampler()) * 2**53)
        node = n.resampled(int(player_id), seed)
        state: CardtableState = self.clone()
        state._n = node
        return state

    def __str__(self) -> str:
        """Everything about the state, hidden cards included (OpenSpiel compares clones and
        deserialized states by it): all hands, the deck sorted, the piles, the pending draw."""
        return self._n.debug_text()

    def __deepcopy__(self, memo: dict[int, Any]) -> CardtableState:
        """``copy.deepcopy`` is OpenSpiel's cheap ``clone`` (which shares the immutable node)."""
        return self.clone()  # type: ignore[no-any-return]

    # -- beyond pyspiel ----------------------------------------------------------------------
    @property
    def engine(self) -> Game | None:
        """The cardtable engine (``None`` before the deal is complete); treat it as read-only.

        At a chance node it is the engine before the pending action.
        """
        return self._n.eng

    @property
    def pending_draws(self) -> int:
        """How many cards have been chosen so far for the pending action or deal."""
        return len(self._n.chosen) if self._n.player == CHANCE else 0

    @property
    def truncated(self) -> bool:
        """True if the game was cut short, every return 0: at the ``max_moves`` cap, or (never
        seen in play) when no legal action of the seat to act fits the action table."""
        return self._n.trunc


def to_game(state: CardtableState, seed: int) -> Game:
    """A plain cardtable engine in the position of ``state`` (for cardtable's own agents).

    The engine is a copy of the state's (all cards included, like any engine: agents learn
    only what ``view`` and ``determinize`` give them), with the deck (Qute: the blind)
    shuffled from ``seed`` and its own generator seeded from ``seed``: it draws and reshuffles
    by itself, with no chance nodes. ``ValueError`` at a chance node (a draw is half done).
    """
    n = state._n
    if n.eng is None or n.pend >= 0:
        raise ValueError("to_game needs a decision or terminal state, not a chance node")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    copy = n.eng.clone()
    plain: Game = object.__new__(FamilyGame if n.spec.family else QuteGame)
    d = copy.__dict__
    d.pop("_queue", None)
    d.pop("_qpos", None)
    plain.__dict__ = d
    rng = Rng(seed)
    rng.shuffle_stable(d["deck"] if n.spec.family else d["blind"])
    plain.random = Rng(int(rng.random() * 2**53))
    return plain


class CardtableObserver:
    """OpenSpiel observer (the ``PyObserver`` protocol) of a seat's view.

    The tensor is the encoding's observation vector (``dict`` holds its named pieces); the
    string is the canonical JSON of the view for information states (``perfect_recall``) and
    a compact text for observations.
    """

    def __init__(self, spec: _Spec, perfect_recall: bool) -> None:
        self._recall = perfect_recall
        self.tensor = np.zeros(spec.enc.observation_size, dtype=np.float32)
        """The observation vector last set by :meth:`set_from`."""
        self.dict = spec.enc.split(self.tensor)
        """Named views of :attr:`tensor` (``Encoding.observation_pieces``)."""

    def set_from(self, state: CardtableState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state``."""
        self.tensor[:] = state._n.vector(player)

    def string_from(self, state: CardtableState, player: int) -> str:
        """``player``'s information-state (perfect recall) or observation string."""
        n = state._n
        return n.info_string(player) if self._recall else n.obs_string(player)


class CardtableGame(pyspiel.Game):
    """An OpenSpiel game of one cardtable variant (see the module docstring)."""

    def __init__(self, variant: str, params: Mapping[str, Any] | None = None) -> None:
        spec = _spec_from(variant, dict(params or {}))
        self.spec = spec
        """The game's fixed data (variant, parameters, encoding)."""
        low = win_rewards(spec.players, [0])
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.enc.size,
            max_chance_outcomes=max(len(spec.codes), spec.players),
            num_players=spec.players,
            min_utility=min(low),
            max_utility=max(low),
            utility_sum=0.0,
            max_game_length=spec.max_moves,
        )
        given = {"players": spec.players, "target": spec.target, "max_moves": spec.max_moves}
        if spec.family:
            given["max_positions"] = spec.max_positions
        super().__init__(_game_type(spec.variant), info, given)

    @property
    def encoding(self) -> Encoding:
        """The integer action table and observation layout (shared with PettingZoo)."""
        return self.spec.enc

    def new_initial_state(self) -> CardtableState:
        """The state before the deal: a chance node."""
        return CardtableState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> CardtableObserver:
        """An observer of one seat's view: information state (``perfect_recall``) or
        observation. Public-only or all-players observation types are not supported."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        if iig_obs_type is None:
            return CardtableObserver(self.spec, perfect_recall=False)
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "cardtable games observe one seat's view: public and private information of a "
                "single player"
            )
        return CardtableObserver(self.spec, perfect_recall=bool(iig_obs_type.perfect_recall))


@cache
def _game_type(variant: str) -> Any:
    info = variants.get(variant)
    spec: dict[str, int] = {
        "players": info.default_players,
        "target": _default_target(variant),
        "max_moves": DEFAULT_MAX_MOVES,
    }
    if info.name in RULESETS:
        spec["max_positions"] = DEFAULT_MAX_POSITIONS[info.name]
    return pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"cardtable {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


def _game_class(variant: str) -> type[CardtableGame]:
    # A class per variant, registered as the factory (a class, like OpenSpiel's own Python
    # games: a plain function kept only by the registry crashes the interpreter at exit).
    name = "Cardtable" + variant.title().replace("-", "") + "Game"

    def init(self: CardtableGame, params: Mapping[str, Any] | None = None) -> None:
        CardtableGame.__init__(self, variant, params)

    doc = f"The OpenSpiel game ``{game_name(variant)}``: :class:`CardtableGame` of {variant}."
    return cast(
        type[CardtableGame], type(name, (CardtableGame,), {"__init__": init, "__doc__": doc})
    )


GAME_CLASSES: dict[str, type[CardtableGame]] = {}
"""The registered game class of each variant (``cls(params)`` builds a game)."""


def register_variant(variant: variants.Variant) -> None:
    """Register ``variant``'s OpenSpiel game, :func:`game_name` (done on import for every
    variant in the registry, and later for every variant registered after; a variant of a
    kind the encoding does not know is left out)."""
    if not supported(variant) or variant.name in GAME_CLASSES:
        return
    cls = _game_class(variant.name)
    pyspiel.register_game(_game_type(variant.name), cls)
    GAME_NAMES[variant.name] = game_name(variant.name)
    GAME_CLASSES[variant.name] = cls


def _forget(variant: variants.Variant) -> None:
    """A variant left the registry: drop its entries and every cached spec (``pyspiel``
    keeps the game registered, but loading it now fails: the variant is unknown)."""
    GAME_NAMES.pop(variant.name, None)
    GAME_CLASSES.pop(variant.name, None)
    _spec.cache_clear()
    _game_type.cache_clear()


variants.subscribe(register_variant, _forget)
