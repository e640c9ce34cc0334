"""The ``heuristic`` agent: rules of thumb per game, with an optional memory model.

The agent asks the game for a determinized copy (every card it does not know re-dealt) and
runs the game's rule-of-thumb policy on it; the policies read only what the seat knows, so
the copy gives them nothing they could not see in the view. The memory model (used by the
``beginner`` and ``casual`` levels) makes the agent forget some of the cards it has seen.
"""

from __future__ import annotations

import zlib
from typing import Any

from ..game import Game
from ..games.family.engine import PH_LOOKED, PH_PEEK, FamilyGame
from ..games.qute.engine import QuteGame
from ..notation import Action
from ..rng import Rng
from . import family_policy, qute_policy
from .base import Agent, decision_rng

__all__ = ["HeuristicAgent", "forget_cards", "policy_for", "policy_move"]


def policy_for(game: Game) -> Any:
    """The rule-of-thumb policy ``choose(game, seat, rng) -> Action`` for a game's engine."""
    if isinstance(game, FamilyGame):
        return family_policy.choose
    if isinstance(game, QuteGame):
        return qute_policy.choose
    raise ValueError(f"no rule-of-thumb policy for {type(game).__name__}")


def forget_cards(world: FamilyGame, seat: int, seed: int, rate: float) -> None:
    """Clear ``seat``'s knowledge of a share ``rate`` of the hand cards it has seen.

    Which cards are forgotten is a fixed function of the agent's seed, the round, the place
    and the card, so a forgetful agent forgets the same card for the whole round (as if it
    had never memorised it). The drawn card and the cards of a pending ``look`` stay known.
    """
    if rate <= 0 or world.phase in (PH_PEEK, PH_LOOKED):
        return
    limit = int(rate * 4_294_967_296)
    codes = world.codes
    for s, hand in enumerate(world.knowledge(seat)):
        for i, c in enumerate(hand):
            if c >= 0:
                key = f"{seed}:{world.round_no}:{s}:{i}:{codes[c]}".encode()
                if zlib.crc32(key) < limit:
                    world.forget(seat, s, i)


def policy_move(
    game: Game, seat: int, rng: Rng, legal: list[Action], forget: float = 0.0, seed: int = 0
) -> Action:
    """The rule-of-thumb move of ``seat`` on a determinized copy (with ``forget``, the
    memory model of an agent seeded ``seed``); a legal action whatever happens."""
    world = game.determinize(seat, rng)
    if forget and isinstance(world, FamilyGame):
        forget_cards(world, seat, seed, forget)
    action: Action = policy_for(world)(world, seat, rng)
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

    def act(self, game: Game, seat: int) -> Action:
        """The policy's choice on a determinized copy of what ``seat`` knows."""
        legal = self._legal(game, seat)
        if len(legal) == 1:
            return legal[0]
        rng: Rng = decision_rng(self.seed, game, seat)
        if self.noise and rng.random() < self.noise:
            return rng.pick(legal)
        return policy_move(game, seat, rng, legal, self.forget, self.seed)
