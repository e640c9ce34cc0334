"""The adapter's immutable game states (:class:`Node`) and the transitions between them.

A player action runs on a clone of the node's engine (:func:`.engines.run`) with the cards
chance has chosen for it so far. A run that takes no card beyond them is the action complete:
a decision or terminal node. Otherwise the run's plan (its takes up to the first decisive
one, within the round it began in) gives one chance node per take, in order; once chance
has chosen a card for each, the action runs again with them, and so on. A deal costs two
runs however many cards it deals; a Qute draw that does not fit and ends a round costs three
(the drawn card, then the next deal).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Literal, TypeAlias, overload

import numpy as np
import numpy.typing as npt

from . import engines
from .engines import Engine, Take
from .spec import CHANCE, TERMINAL, Spec

Memo: TypeAlias = str | npt.NDArray[np.float32]
"""What a node caches for a seat: an information-state or observation string, or the
observation vector."""


class Node:
    """One immutable game state of the adapter (shared by clones; caches fill lazily).

    ``eng`` is the engine (``None`` while the first deal is still being chosen); ``pend`` a
    player action (integer) waiting for chance, played by ``pseat``, with the cards chosen so
    far in ``chosen``; ``cands`` the outcomes when ``player`` is the chance player. ``plan``
    holds the takes of the last run beyond the cards it was given, which were the first
    ``start`` of ``chosen``: the chance node of ``chosen``'s next card is take
    ``len(chosen) - start`` of it.
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
        "plan",
        "player",
        "pseat",
        "spec",
        "start",
        "trunc",
    )

    def __init__(
        self,
        spec: Spec,
        eng: Engine | None,
        first: int,
        pend: int,
        pseat: int,
        chosen: tuple[int, ...],
        cands: tuple[int, ...],
        moves: int,
        player: int = CHANCE,
        trunc: bool = False,
        legal: list[int] | None = None,
        plan: tuple[Take, ...] = (),
        start: int = 0,
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
        self.plan = plan
        self.start = start
        self._outcomes: list[tuple[int, float]] | None = None
        self._memo: dict[tuple[int, int], Memo] | None = None  # strings and vectors by seat

    def __deepcopy__(self, memo: dict[int, object]) -> Node:
        return self  # immutable: OpenSpiel's state clone shares it

    def __copy__(self) -> Node:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (
            Node,
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
                self.plan,
                self.start,
            ),
        )

    # -- transitions ---------------------------------------------------------------------
    @staticmethod
    def deal(spec: Spec, first: int, chosen: tuple[int, ...]) -> Node:
        """The engine dealt with the cards chosen so far, or the chance node of the next."""
        eng, source = spec.build(first, chosen)
        if source.plan:
            return Node.drawing(spec, None, first, -1, -1, chosen, source.plan, 0)
        return Node.settled(spec, eng, first, 0)

    @staticmethod
    def drawing(
        spec: Spec,
        eng: Engine | None,
        first: int,
        pend: int,
        pseat: int,
        chosen: tuple[int, ...],
        plan: Sequence[Take],
        moves: int,
    ) -> Node:
        """The chance node of the first take of ``plan`` (a run given ``chosen`` made it)."""
        return Node(
            spec,
            eng,
            first,
            pend,
            pseat,
            chosen,
            plan[0].cards,
            moves,
            plan=tuple(plan),
            start=len(chosen),
        )

    @staticmethod
    def settled(spec: Spec, eng: Engine, first: int, moves: int) -> Node:
        """A node after a completed action: a decision, or terminal (game over, truncated)."""
        if eng.over:
            return Node(spec, eng, first, -1, -1, (), (), moves, TERMINAL, legal=[])
        seat = eng.actors[0]
        legal = spec.enc.legal(eng, seat)
        # Truncated at the move cap, or (never seen in play) when every legal action names a
        # hand position beyond the action table's cap.
        if moves >= spec.max_moves or not legal:
            return Node(spec, eng, first, -1, -1, (), (), moves, TERMINAL, True, [])
        return Node(spec, eng, first, -1, -1, (), (), moves, seat, legal=legal)

    def attempt(self, base: Engine, seat: int, action: int, chosen: tuple[int, ...]) -> Node:
        """Play ``action`` of ``seat`` on a clone of ``base`` with the cards ``chosen``."""
        spec = self.spec
        moves = self.moves if self.pend >= 0 else self.moves + 1
        work, source = engines.run(base, seat, spec.enc.decode(seat, action), chosen)
        if source.plan:
            return Node.drawing(spec, base, self.first, action, seat, chosen, source.plan, moves)
        return Node.settled(spec, work, self.first, moves)

    def after(self, action: int) -> Node:
        """The node after ``action``; ``ValueError`` (nothing changes) if it is not legal."""
        player = self.player
        if player == TERMINAL:
            raise ValueError("the game is over: no action can be applied")
        if player == CHANCE:
            return self._chance(action)
        if action not in self.legal():
            size = self.spec.enc.size
            text = f" ({self.action_text(player, action)})" if 0 <= action < size else ""
            raise ValueError(
                f"action {action}{text} is not legal for player {player} now; legal: {self.legal()}"
            )
        assert self.eng is not None
        return self.attempt(self.eng, player, action, ())

    def _chance(self, card: int) -> Node:
        """The node after chance chose ``card`` (or the first seat, kaboo's first node)."""
        spec = self.spec
        if card not in self.cands:
            raise ValueError(
                f"chance outcome {card} is not possible here; outcomes: {list(self.cands)}"
            )
        eng = self.eng
        if eng is None and spec.random_first and self.first < 0:
            return Node.deal(spec, card, ())
        chosen = (*self.chosen, card)
        plan, start = self.plan, self.start
        if len(chosen) - start < len(plan):  # the next take this run planned
            cands = engines.outcomes(plan, chosen[start:], self.cands)
            return Node(
                spec,
                eng,
                self.first,
                self.pend,
                self.pseat,
                chosen,
                cands,
                self.moves,
                plan=plan,
                start=start,
            )
        if eng is None:
            return Node.deal(spec, self.first, chosen)
        return self.attempt(eng, self.pseat, self.pend, chosen)

    def resampled(self, seat: int, seed: int) -> Node:
        """This node with every card ``seat`` does not know re-dealt (``determinize``)."""
        if self.eng is None or self.pend >= 0:
            raise ValueError(
                "resample_from_infostate works at decision and terminal states, not while "
                "cards are being drawn by chance"
            )
        # a clone of the engine underneath, so of the same (chance-drawing) class
        eng = self.eng.determinize(seat, seed)
        legal = self._legal if seat == self.player else None
        return Node(
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

    def check_seat(self, seat: int) -> None:
        """``ValueError`` unless ``seat`` is a seat of the game."""
        if not isinstance(seat, int | np.integer) or not 0 <= seat < self.spec.players:
            raise ValueError(f"there is no player {seat!r} in this game")

    @overload
    def memo_get(self, kind: Literal[0, 1], seat: int) -> str | None: ...
    @overload
    def memo_get(self, kind: Literal[2], seat: int) -> npt.NDArray[np.float32] | None: ...
    def memo_get(self, kind: int, seat: int) -> Memo | None:
        """A cached string or vector of ``seat`` (``kind``: 0 info, 1 observation, 2 vector)."""
        memo = self._memo
        if memo is None:
            memo = self._memo = {}
            return None
        return memo.get((kind, seat))

    @overload
    def memo_set(self, kind: Literal[0, 1], seat: int, value: str) -> str: ...
    @overload
    def memo_set(
        self, kind: Literal[2], seat: int, value: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]: ...
    def memo_set(self, kind: int, seat: int, value: Memo) -> Memo:
        """Cache ``value`` (see :meth:`memo_get`) and return it."""
        assert self._memo is not None
        self._memo[(kind, seat)] = value
        return value

    def vector(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of the seat's view (zeros before the deal is complete)."""
        vec: npt.NDArray[np.float32] | None = self.memo_get(2, seat)
        if vec is None:
            self.check_seat(seat)
            if self.eng is None:
                vec = self.spec.empty_vector
            else:
                vec = self.spec.enc.observe(self.eng.view(seat))
            self.memo_set(2, seat, vec)
        return vec


@cache
def initial_node(spec: Spec) -> Node:
    """The state of ``spec``'s game before anything is dealt (one per spec, shared by every new
    state)."""
    if spec.random_first:
        return Node(spec, None, -1, -1, -1, (), tuple(range(spec.players)), 0)
    return Node.deal(spec, -1, ())


_Node = Node  # its name before; older pickles name it
