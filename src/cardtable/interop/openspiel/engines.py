"""The adapter's engines: every card leaving a face-down pile is chosen by chance.

An engine is a game of the variant built by the rules layer with a draw source
(``cardtable.new_game(variant, draws=source)``, a :class:`cardtable.game.ChanceDrawn`): it takes
each card that leaves its deck (Qute: its blind) from that source
(:class:`cardtable.game.DrawSource`). The adapter plays an action on a clone of its engine
with a :class:`ChanceSource`: the source hands out the cards chance has already chosen for
the action, in order, and past them takes any card and records the take (which pile, what
was in it, which card it took), up to the first take the engine declares ``decisive`` and
not into a new round. The action always runs to its end, nothing is unwound: when takes were
recorded, the adapter asks chance for their cards (see :attr:`ChanceSource.plan`) and plays
the action again with them. The engines' generator decides nothing.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import NamedTuple

from ... import variants
from ...game import ChanceDrawn, DrawSource, Game
from ...notation import Action


class Take(NamedTuple):
    """A card taken from a pile beyond the cards chosen by chance (one future chance node)."""

    pile: int
    """Which pile: its number in the order the run first took from it."""
    cards: tuple[int, ...]
    """The pile's card ids just before the take, sorted."""
    taken: int
    """The card the run took (any card: chance will choose the real one)."""
    follows: bool
    """The take before it was from the same pile, and nothing else changed the pile since
    (its outcomes are the previous ones without the card chance chose there)."""


class ChanceSource(DrawSource):
    """The draw source of one run of an action: chance's cards first, then recorded takes.

    Never raises: past the chosen cards it takes the pile's top card and records the take in
    :attr:`plan`, up to and including the first ``decisive`` take. What the action does after
    a take is promised not to depend on the card for takes that are not decisive, so every
    take recorded is one the action really makes, in this order, whatever chance chooses.
    After a decisive take the run goes on with a card chance did not choose; its later takes
    (not recorded) may not happen at all. So may the takes of a new round begun after a
    recorded take: the round's scoring read that card (Qute's 7/8 draws on a round's last
    turn decide whether the match goes on to another deal), so the plan stops there too.
    """

    __slots__ = ("closed", "piles", "plan", "pos", "queue", "round")

    def __init__(self, queue: tuple[int, ...]) -> None:
        self.queue = queue
        """The cards chosen by chance for this action so far, in the order they are taken."""
        self.pos = 0
        """How many of them have been taken."""
        self.plan: list[Take] = []
        """The takes made beyond :attr:`queue`, up to and including the first decisive one."""
        self.closed = False
        """True once the plan is complete (a decisive take, or a new round, came)."""
        self.round = 0
        """The round of the plan's takes."""
        self.piles: list[list[int]] = []
        """Every pile taken from beyond the queue, kept so a pile's number is never reused."""

    def take(self, game: Game, pile: list[int], decisive: bool) -> int:
        """The next chosen card, taken from ``pile``; past them the top card, recorded."""
        pos = self.pos
        queue = self.queue
        if pos < len(queue):
            cid = queue[pos]
            self.pos = pos + 1
            pile.remove(cid)  # a chance outcome is always a card of the pile
            return cid
        if not self.closed:
            plan = self.plan
            round_no = game.round_no
            if not plan:
                self.round = round_no
            elif round_no != self.round:  # whether this round came depended on the plan
                self.closed = True
                return pile.pop()
            piles = self.piles
            key = next((k for k, seen in enumerate(piles) if seen is pile), -1)
            if key < 0:
                key = len(piles)
                piles.append(pile)
            cards = tuple(sorted(pile))
            follows = False
            if plan and plan[-1].pile == key:
                last = plan[-1]
                follows = cards == _without(last.cards, last.taken)
            plan.append(Take(key, cards, pile[-1], follows))
            self.closed = decisive
        return pile.pop()


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The sorted ``cards`` without ``card`` (one of them)."""
    i = bisect_left(cards, card)
    return cards[:i] + cards[i + 1 :]


def outcomes(
    plan: Sequence[Take], chosen: Sequence[int], last: tuple[int, ...] = ()
) -> tuple[int, ...]:
    """The cards take number ``len(chosen)`` of ``plan`` may be, once chance chose ``chosen``
    for the takes before it (sorted ids, equally likely); ``last``: the outcomes of the take
    before it, if known.

    The run saw the pile without the cards it took itself; the real pile lacks the cards
    chance chose instead: its cards, plus the run's earlier takes from the same pile, minus
    chance's earlier choices from it. When nothing but the take before changed the pile, that
    is the take before's outcomes without chance's card.
    """
    r = len(chosen)
    take = plan[r]
    if take.follows and last:
        return _without(last, chosen[-1])
    same = [t for t in range(r) if plan[t].pile == take.pile]
    if not same:
        return take.cards
    cards = set(take.cards)
    cards.update(plan[t].taken for t in same)
    cards.difference_update(chosen[t] for t in same)
    return tuple(sorted(cards))


Engine = ChanceDrawn
"""The engine a node holds: a game of its variant whose draws chance chooses."""


def build(
    variant: str, players: int, options: Mapping[str, object], queue: tuple[int, ...]
) -> tuple[Engine, ChanceSource]:
    """A new engine of ``variant`` dealt with the cards ``queue`` (and past them recorded
    takes)."""
    source = ChanceSource(queue)
    eng = variants.new_game(variant, players, options=options, draws=source)
    if not isinstance(eng, ChanceDrawn):
        raise TypeError(f"{variant} built a game that draws by itself, not a ChanceDrawn")
    del eng.draws
    _check(source)
    return eng, source


def run(
    base: Engine, seat: int, action: Action, queue: tuple[int, ...]
) -> tuple[Engine, ChanceSource]:
    """``seat`` plays ``action`` on a clone of ``base`` with the cards ``queue``, to the end.

    The action, one of the legal ones, is played with its events recorded (``play_legal``: as
    ``play`` does, without checking it once more), so the views of the engine it leaves hold
    the events of this action as each seat saw them: what the observation string says
    happened."""
    work = base.clone()
    source = ChanceSource(queue)
    work.draws = source
    work.play_legal(seat, action)
    del work.draws
    _check(source)
    return work, source


def _check(source: ChanceSource) -> None:
    """Every card chance chose was taken: else chance nodes were offered for takes the action
    does not make (an engine broke the promise of a take that is not ``decisive``)."""
    if source.pos != len(source.queue):
        raise RuntimeError(
            f"the action took {source.pos} of the {len(source.queue)} cards chosen by chance "
            "for it: a take marked not decisive changed what the action does"
        )


_MOVED = {
    "ChanceFamily": ("cardtable.games.family.chance", "ChanceFamily"),
    "_ChanceFamily": ("cardtable.games.family.chance", "ChanceFamily"),
    "ChanceQute": ("cardtable.games.qute.chance", "ChanceQute"),
    "_ChanceQute": ("cardtable.games.qute.chance", "ChanceQute"),
}
"""Where the chance engines older pickles name here (or in the package) live now: the rules
layer builds them (``new_game(variant, draws=source)``)."""


def moved(name: str) -> type[Game]:
    """The class an older pickle names ``name`` in this module or its package (one of the
    chance engines, now in the rules layer); ``AttributeError`` for any other name."""
    where = _MOVED.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    cls = getattr(import_module(where[0]), where[1])
    assert isinstance(cls, type) and issubclass(cls, Game)
    return cls


def __getattr__(name: str) -> type[Game]:
    return moved(name)


# The names these had before; older pickles name them.
_ChanceSource, _Take = ChanceSource, Take
