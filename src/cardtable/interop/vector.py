"""A Gymnasium ``VectorEnv`` over the batched engine: N games of one Cabo-family variant, one
learning seat in each, the other seats played inside the batch.

>>> import gymnasium
>>> import cardtable.interop.gymnasium  # registers the ids
>>> envs = gymnasium.make_vec("cardtable/Kaboo-v0", num_envs=8,
...                           vectorization_mode="vector_entry_point")
>>> obs, info = envs.reset(seed=7)
>>> obs.shape, info["action_mask"].shape
((8, 708), (8, 50))

**Spaces.** ``single_action_space`` is ``Discrete`` over the integers of
:mod:`cardtable.encoding`; ``single_observation_space`` a ``Box`` of the learner's observation
vector (its own view only, with or without memory aid: ``memory``). The legal actions are in
``info["action_mask"]`` (``[N, actions]`` int8), as an action-masking learner expects.

**Episodes.** Game ``i`` of ``reset(seed=s)`` is ``new_game(variant, players, seed=s + i)``;
each game that ends is replaced in the same step by the next seed's game
(``metadata["autoreset_mode"]`` is ``SAME_STEP``): the observation returned is the new game's,
``terminated[i]`` is True and ``rewards[i]`` the learner's share of
:func:`~cardtable.encoding.win_rewards` for the game that ended (0 otherwise), with
``info["totals"]`` and ``info["winners"]`` of it (masked by ``info["_totals"]``). A game that
ends before its learner ever acts is dropped and dealt again, as the single environment does.
``truncated[i]`` is True, with reward 0, only when a seat must act but no legal action has an
integer (every one names a position beyond ``max_positions``; very rare): that game is
abandoned and dealt again.

**Opponents** are ``"random"`` (a uniformly random legal action) or ``"heuristic"`` (the rules
of thumb, :mod:`cardtable.batch.policy`: the moves the ``heuristic`` agent plays), both array
code over the whole batch. An illegal action raises ``ValueError`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from ..batch import FamilyBatch
from ..batch.agents import random_actions
from ..batch.observe import observe
from ..batch.policy import rules_of_thumb

__all__ = ["CardtableVectorEnv"]

_OPPONENTS: dict[str, Callable[[FamilyBatch, np.random.Generator], npt.NDArray[np.int64]]] = {
    "random": lambda batch, rng: random_actions(batch.legal_mask(), rng),
    "heuristic": rules_of_thumb,
}
"""The opponents the batch plays, by name: array code over every game at once."""

Obs = npt.NDArray[np.float32]


class CardtableVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of a Cabo-family variant for one learner seat (see the module)."""

    def __init__(
        self,
        num_envs: int,
        variant: str = "kaboo",
        players: int = 2,
        learner: int = 0,
        opponents: str = "heuristic",
        memory: bool = True,
        options: Mapping[str, object] | None = None,
        max_positions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if opponents not in _OPPONENTS:
            raise ValueError(
                f"opponents {opponents!r}: the batch plays {' or '.join(map(repr, _OPPONENTS))}"
            )
        self.opponents = opponents
        """How the other seats play: ``random`` or ``heuristic`` (the rules of thumb)."""
        if not 0 <= learner < players:
            raise ValueError(f"learner must be a seat from 0 to {players - 1}")
        if render_mode is not None:
            raise ValueError("the vector environment does not render")
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}
        """Same-step autoreset; no rendering (the single environment renders a table)."""
        self.num_envs = num_envs
        self.variant = variant
        self.players = players
        self.learner = learner
        """The seat that learns, in every game."""
        self.memory = memory
        self._options = dict(options or {})
        self._max_positions = max_positions
        self.batch = FamilyBatch(
            variant, players, num_envs, options=options, max_positions=max_positions, deal=False
        )
        """The batched engine (made anew at each ``reset``)."""
        enc = self.batch.encoding
        self.single_action_space = spaces.Discrete(enc.size)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, enc.size))
        self.single_observation_space = spaces.Box(
            -np.inf, np.inf, (enc.observation_size,), np.float32
        )
        self.observation_space = spaces.Box(
            -np.inf, np.inf, (num_envs, enc.observation_size), np.float32
        )
        self.render_mode = render_mode
        self._opponent_rng = np.random.default_rng(0)
        self._acted: npt.NDArray[np.bool_] | None = None
        """Per game, whether its learner has acted in it (``None``: not reset yet)."""

    # ------------------------------------------------------------------ the Gymnasium API
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal ``num_envs`` new games (from ``seed``, else from ``np_random``) and play the
        opponents up to each learner's first decision."""
        if isinstance(seed, list):
            raise ValueError("give one seed: game i is dealt from seed + i")
        super().reset(seed=seed)
        first = int(self.np_random.integers(2**31)) if seed is None else seed
        self.batch = FamilyBatch(
            self.variant,
            self.players,
            self.num_envs,
            seed=first,
            options=self._options,
            max_positions=self._max_positions,
        )
        self._opponent_rng = np.random.default_rng(first)
        self._acted = np.zeros(self.num_envs, dtype=bool)
        self._advance()
        return self._observe(), self._info()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Obs, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Play each learner's action, then the opponents until every learner must act again
        (``ResetNeeded`` before the first ``reset``)."""
        if self._acted is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integers")
        result = self.batch.step(acts)
        acted = self._acted
        acted[:] = True
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        terminated = result.done.copy()
        rewards[terminated] = result.rewards[terminated, self.learner]
        totals = result.totals.copy()
        winners = result.winners.copy()
        acted[terminated] = False
        truncated = self._advance(terminated, rewards, totals, winners)
        info = self._info()
        info["totals"] = totals
        info["_totals"] = terminated
        info["winners"] = winners
        info["_winners"] = terminated
        return self._observe(), rewards, terminated, truncated, info

    # ------------------------------------------------------------------ inside the batch
    def _advance(
        self,
        terminated: npt.NDArray[np.bool_] | None = None,
        rewards: npt.NDArray[np.float32] | None = None,
        totals: npt.NDArray[np.int64] | None = None,
        winners: npt.NDArray[np.bool_] | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Play the opponents' turns until the learner acts in every game; returns the games
        abandoned for want of an integer action (truncated)."""
        batch = self.batch
        acted = self._acted
        assert acted is not None
        truncated = np.zeros(self.num_envs, dtype=bool)
        while True:
            mask = batch.legal_mask()
            stuck = ~mask.any(axis=1)
            if stuck.any():
                truncated |= stuck & acted
                acted[stuck] = False
                batch.restart(stuck)
                continue
            waiting = batch.actor != self.learner
            if not waiting.any():
                return truncated
            result = batch.step(
                _OPPONENTS[self.opponents](batch, self._opponent_rng), where=waiting
            )
            done = result.done
            if terminated is not None and rewards is not None and totals is not None:
                first = done & acted & ~terminated
                terminated |= first
                rewards[first] = result.rewards[first, self.learner]
                totals[first] = result.totals[first]
                assert winners is not None
                winners[first] = result.winners[first]
            acted[done] = False

    def _observe(self) -> Obs:
        learner = np.full(self.num_envs, self.learner, dtype=np.int64)
        return observe(self.batch, learner, memory=self.memory)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.batch.legal_mask().astype(np.int8)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``[N, actions]``: the learners' legal actions (the MaskablePPO convention)."""
        return self.batch.legal_mask().copy()
