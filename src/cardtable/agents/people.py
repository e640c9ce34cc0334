"""Opponents that play like people: the rules of thumb, a memory that fades, occasional slips.

The ``beginner`` and ``casual`` levels are :class:`PersonAgent`\\ s. In the Cabo family a person
remembers a card well just after seeing it and less well as turns go by: each card the seat has
seen is forgotten with a chance that grows with the turns since it last saw it, up to a ceiling
(:meth:`PersonAgent.forget_chance`). Which cards are forgotten is a fixed function of the
agent's seed, the round and the card, so a forgotten card stays forgotten and two states the
seat cannot tell apart give the same choice. A forgotten card is valued like an unknown one.

A *slip* replaces the rule-of-thumb move, now and then, by another move a person might make —
never an absurd one (``Game.sensible``): no call with a hand it knows to be bad, no taking from the
pile a card worse than every card it holds, no swapping a known low card for an unknown or a
higher one, no throwing a known low card away for a worse drawn card, no drop or snap of a card
not known to match, no giving away a known low card.
"""

from __future__ import annotations

import math
import zlib

from ..game import Game
from ..notation import Action
from ..seat import Seat
from ..views.schema import is_family_view
from .base import Agent, rng_for_view
from .belief import FamilyTracker

__all__ = ["PersonAgent"]


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

    def act(self, seat: Seat) -> Action:
        """The rule-of-thumb move on a world where faded memories are gone (or a slip)."""
        legal = self._legal(seat)
        if len(legal) == 1:
            return legal[0]
        view = seat.view()
        rng = rng_for_view(self.seed, view)
        world = seat.worlds(rng)
        me = seat.number
        memory = seat.memory_game
        if memory:
            self._fade(seat, world)
        choice = world.rule_of_thumb(me, rng)
        if choice not in legal:
            choice = legal[0]
        slip = self.slip if memory else self.open_slip
        if slip and rng.random() < slip:
            others = [a for a in legal if a != choice and world.sensible(me, a)]
            if others:
                choice = rng.pick(others)
        return choice

    def _fade(self, seat: Seat, world: Game) -> None:
        """Clear the seat's knowledge of the seen cards it has forgotten by now, in ``world``."""
        for s, p in self._faded(seat):
            world.forget(seat.number, s, p)

    def _faded(self, seat: Seat) -> list[tuple[int, int]]:
        """The places whose card the seat knows but has forgotten by now (read from its view
        and history only)."""
        view = seat.view()
        if not is_family_view(view) or view["phase"] in ("peek", "look"):
            return []  # looking right now: nothing has had time to fade
        tracker = FamilyTracker(seat)
        out = []
        for at, when in tracker.seen_at.items():
            s, p = at.seat, at.pos
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
