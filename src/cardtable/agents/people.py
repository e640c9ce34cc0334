"""Opponents that play like people: the rules of thumb, a memory that fades, occasional slips.

The ``beginner`` and ``casual`` levels are :class:`PersonAgent`\\ s. In the Cabo family a person
remembers a card well just after seeing it and less well as turns go by: each card the seat has
seen is forgotten with a chance that grows with the turns since it last saw it, up to a ceiling
(:meth:`PersonAgent.forget_chance`). Which cards are forgotten is a fixed function of the
agent's seed, the round and the card, so a forgotten card stays forgotten and two states the
seat cannot tell apart give the same choice. A forgotten card is valued like an unknown one.

A *slip* replaces the rule-of-thumb move, now and then, by another move a person might make —
never an absurd one (:func:`sane`): no call with a hand it knows to be bad, no taking from the
pile a card worse than every card it holds, no swapping a known low card for an unknown or a
higher one, no throwing a known low card away for a worse drawn card, no drop or snap of a card
not known to match, no giving away a known low card.
"""

from __future__ import annotations

import math
import zlib
from typing import Any, cast

from ..game import Game
from ..games.family.engine import FamilyGame
from ..games.family.rulesets import LOOK
from ..notation import Action
from ..rng import Rng
from . import family_policy
from .base import Agent, decision_rng
from .belief import FamilyTracker
from .heuristic import policy_for

__all__ = ["PersonAgent", "sane"]


class PersonAgent(Agent):
    """Rules of thumb with a fading memory and occasional sane slips."""

    name = "person"

    def __init__(
        self,
        seed: int = 0,
        half_life: float = 6.0,
        ceiling: float = 0.5,
        slip: float = 0.1,
        open_slip: float | None = None,
    ) -> None:
        super().__init__(seed)
        self.half_life = half_life
        """Turns after which half of the ceiling's share of a seen card is forgotten."""
        self.ceiling = ceiling
        """The most a card can be forgotten, however long ago it was seen."""
        self.slip = slip
        """Share of decisions where another sane move replaces the rule-of-thumb move."""
        self.open_slip = slip if open_slip is None else open_slip
        """The slip share in Qute, where a seat's cards lie in front of it and nothing can
        be forgotten: the only way a level can play below the rules of thumb there."""

    def forget_chance(self, age: int) -> float:
        """The chance of having forgotten a card last seen ``age`` turns ago."""
        if age <= 0:
            return 0.0
        return self.ceiling * (1.0 - math.exp(-age * math.log(2) / self.half_life))

    def act(self, game: Game, seat: int) -> Action:
        """The rule-of-thumb move on a world where faded memories are gone (or a slip)."""
        legal = self._legal(game, seat)
        if len(legal) == 1:
            return legal[0]
        rng: Rng = decision_rng(self.seed, game, seat)
        world: Any = game.determinize(seat, rng)
        if isinstance(world, FamilyGame):
            self._fade(game, world, seat)
        choice: Action = policy_for(world)(world, seat, rng)
        if choice not in legal:
            choice = legal[0]
        slip = self.slip if isinstance(world, FamilyGame) else self.open_slip
        if slip and rng.random() < slip:
            others = [a for a in legal if a != choice and sane(world, seat, a)]
            if others:
                choice = rng.pick(others)
        return choice

    def _fade(self, game: Game, world: FamilyGame, seat: int) -> None:
        """Clear ``seat``'s knowledge of the seen cards it has forgotten by now."""
        for s, p in self._faded(game, seat):
            world.forget(seat, s, p)

    def _faded(self, game: Game, seat: int) -> list[tuple[int, int]]:
        """The places whose card ``seat`` knows but has forgotten by now (read from its view
        and history only)."""
        view = game.view(seat)
        if view["phase"] in ("peek", "look"):
            return []  # looking right now: nothing has had time to fade
        tracker = FamilyTracker(game, seat)
        out = []
        for (s, p), when in tracker.seen_at.items():
            hands = view["hands"]
            cell = hands[s][p] if 0 <= s < len(hands) and 0 <= p < len(hands[s]) else None
            if cell is None or cell["card"] is None:
                continue
            if len(cell["seen"]) == view["players"]:
                continue  # shown to everybody: remembered as well as anyone does
            # turns completed since the one in which it was seen (the deal counts as turn 0)
            chance = self.forget_chance(tracker.turns - when - 1)
            key = f"{self.seed}:{view['round']}:{cell['card']}".encode()
            if zlib.crc32(key) < chance * 4_294_967_296:
                out.append((s, p))
        return out


def sane(world: Any, seat: int, action: Action) -> bool:
    """Whether a person who knows what ``seat`` knows in ``world`` might play ``action``
    without it being absurd (Cabo family; in Qute every legal move is a person's move)."""
    if not isinstance(world, FamilyGame):
        return action.name not in ("qute", "jpoints")  # those are decided, not slipped
    g = world
    est = family_policy.estimates(g, seat)
    vals = g.values
    cards = est.cards

    def known(s: int, p: int) -> int | None:
        c = cards[s][p]
        return vals[c] if c >= 0 else None

    name, args = action.name, action.args
    if name == g.rs.call:
        return est.sums[seat] + est.unknown[seat] <= family_policy.call_threshold(g) + 2
    if name == "draw" and args == ("discard",) and g.discard and not g.rs.pile_draw_free:
        # the pile's card must replace one of the seat's: absurd if it is worse than every
        # card the seat holds (unknown ones valued like an average card)
        held = max(
            (v if (v := known(seat, p)) is not None else est.mean)
            for p in range(len(g.hands[seat]))
            if g.hands[seat][p] >= 0
        )
        return vals[g.discard[-1]] < held
    if name in ("drop", "give") and not args:
        return True
    if name == "drop":
        return False  # only sure drops, and those the rules of thumb already play
    if name == "replace":
        if len(args) > 1:
            return False  # a claim that is not sure costs cards
        mine = known(seat, cast(int, args[0]))
        # throwing a known low card away for a worse one is absurd; for a better one, or a
        # high card for a slightly worse one, it is just a move
        return g.drawn < 0 or mine is None or mine > est.mean or mine >= vals[g.drawn]
    if name == "discard":
        worst = max(
            (v for p in range(len(g.hands[seat])) if (v := known(seat, p)) is not None),
            default=None,
        )
        return g.drawn < 0 or worst is None or vals[g.drawn] > worst - 5
    if name == "give":
        mine = known(seat, cast(int, args[0]))
        return mine is None or mine > est.mean
    if name == "exchange" and args:
        (s0, p0), (s1, p1) = (_addr(seat, a) for a in args)
        if s1 == seat:
            (s0, p0), (s1, p1) = (s1, p1), (s0, p0)
        if s0 != seat:
            return True  # two other seats' cards (gabo): no loss of the seat's own
        mine, theirs = known(s0, p0), known(s1, p1)
        if mine is None:
            return True
        return mine > (theirs if theirs is not None else est.mean)
    if name == "exchange" and g.power == LOOK and g.looked is not None:
        s0, p0, s1, p1 = g.looked
        mine, theirs = known(s0, p0), known(s1, p1)
        return mine is None or theirs is None or mine > theirs
    return True


def _addr(seat: int, a: Any) -> tuple[int, int]:
    return (seat, a) if isinstance(a, int) else (a[0], a[1])
