"""The batched rules of thumb choose what the reference's choose, state by state: the same
integer as ``policy.choose`` (the rules the ``heuristic`` agent and the searches' rollouts
play) and as the ``heuristic`` agent itself, in every variant, at several seat counts, over
states reached by rules-of-thumb play mixed with random moves. The states where the reference
falls back on a random move, or names a position that has no integer, are counted apart."""

from __future__ import annotations

import numpy as np
import pytest

from cardtable import new_game
from cardtable.agents.heuristic import HeuristicAgent
from cardtable.batch import FamilyBatch
from cardtable.batch.policy import rules_of_thumb
from cardtable.games.family import policy
from cardtable.rng import Rng
from cardtable.seat import Seat


class _Watched(Rng):
    """A generator that notes whether the rules of thumb fell back on a random pick."""

    picked = False

    def pick(self, items: list[object]) -> object:  # type: ignore[override]
        self.picked = True
        return super().pick(items)


def _compare(
    variant: str, players: int, games: int, steps: int, agent_every: int
) -> dict[str, int]:
    batch = FamilyBatch(variant, players, games, seed=300 + players)
    enc = batch.encoding
    refs = [new_game(variant, players=players, seed=int(s)) for s in batch.seeds]
    rng = np.random.default_rng(players)
    agent = HeuristicAgent(seed=3)
    counts = {"same": 0, "different": 0, "aside": 0, "agent": 0}
    for t in range(steps):
        ours = rules_of_thumb(batch, rng)
        mask = batch.legal_mask()
        assert mask[np.arange(games), ours].all()  # always a legal integer
        acts = ours.copy()
        for i, g in enumerate(refs):
            p = g.actors[0]
            watched = _Watched(t)
            code = enc.encode(p, policy.choose(g, p, watched))
            if watched.picked or code is None:
                counts["aside"] += 1
            elif code == ours[i]:
                counts["same"] += 1
                if (t + i) % agent_every == 0:
                    assert enc.encode(p, agent.act(Seat(g, p))) == code
                    counts["agent"] += 1
            else:
                counts["different"] += 1
            if rng.random() < 0.3:  # random moves lead to states the rules alone never reach
                acts[i] = rng.choice(np.nonzero(mask[i])[0])
            g.apply(p, enc.decode(p, int(acts[i])))
        result = batch.step(acts)
        for i in np.nonzero(result.done)[0]:
            refs[i] = new_game(variant, players=players, seed=int(batch.seeds[i]))
    return counts


@pytest.mark.parametrize("variant", ["cabo", "cabo-german", "gabo", "kaboo"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_batched_rules_of_thumb_choose_as_the_reference(variant: str, players: int) -> None:
    counts = _compare(variant, players, 16, 90, agent_every=25)
    assert counts["different"] == 0
    assert counts["same"] >= 0.97 * 16 * 90
    assert counts["agent"] > 20
