"""The ``heuristic`` agent: rules of thumb per game, with an optional memory model.

The agent asks its seat for a world (every card it does not know re-dealt) and plays the
game's rules of thumb there (``Game.rule_of_thumb``); they read only what the seat knows, so
the world gives them nothing they could not see in the view. The memory model (used by the
``beginner`` and ``casual`` levels) makes the agent forget some of the cards it has seen.
"""

from __future__ import annotations

import zlib

from ..game import Game
from ..notation import Action
from ..rng import Rng
from ..seat import Seat
from .base import Agent, rng_for_view

__all__ = ["HeuristicAgent", "forget_cards", "policy_move"]


def forget_cards(world: Game, seat: int, seed: int, rate: float, phase: str) -> None:
    """Clear ``seat``'s knowledge of a share ``rate`` of the hand cards it has seen, in a world.

    Which cards are forgotten is a fixed function of the agent's seed, the round, the place
    and the card, so a forgetful agent forgets the same card for the whole round (as if it
    had never memorised it). Nothing is forgotten while the seat looks at cards (``phase``
    ``peek`` or ``look``, its view's), and the drawn card stays known.
    """
    knowledge = world.knowledge(seat)
    if rate <= 0 or knowledge is None or phase in ("peek", "look"):
        return
    limit = int(rate * 4_294_967_296)
    codes = world.codes
    for s, hand in enumerate(knowledge):
        for i, c in enumerate(hand):
            if c >= 0:
                key = f"{seed}:{world.round_no}:{s}:{i}:{codes[c]}".encode()
                if zlib.crc32(key) < limit:
                    world.forget(seat, s, i)


def policy_move(
    seat: Seat, rng: Rng, legal: list[Action], forget: float = 0.0, seed: int = 0
) -> Action:
    """The rule-of-thumb move of ``seat`` on a world it cannot tell from the game (with
    ``forget``, the memory model of an agent seeded ``seed``); a legal action whatever
    happens."""
    world = seat.worlds(rng)
    if forget:
        forget_cards(world, seat.number, seed, forget, seat.view()["phase"])
    action = world.rule_of_thumb(seat.number, rng)
    return action if action in legal else legal[0]


class HeuristicAgent(Agent):
    """Rules of thumb; ``forget`` is the share of seen cards it forgets (Cabo family),
    ``noise`` the share of moves it plays at random."""

    name = "heuristic"

    def __init__(self, seed: int = 0, forget: float = 0.0, noise: float = 0.0) -> None:
        super().__init__(seed)
        self.forget = forget
        """Share of the seen hand cards this agent forgets."""
        self.noise = noise
        """Share of decisions taken uniformly at random."""

    def act(self, seat: Seat) -> Action:
        """The policy's choice on a world of what ``seat`` knows."""
        legal = self._legal(seat)
        if len(legal) == 1:
            return legal[0]
        rng = rng_for_view(self.seed, seat.view())
        if self.noise and rng.random() < self.noise:
            return rng.pick(legal)
        return policy_move(seat, rng, legal, self.forget, self.seed)
