"""PettingZoo AEC environment: every seat of a cardtable game is an agent.

>>> from cardtable.interop.pettingzoo import env
>>> e = env("kaboo", players=3)
>>> e.reset(seed=7)
>>> e.agent_selection in e.agents
True

Agents are ``player_0 .. player_{n-1}`` (agent ``player_k`` is seat ``k``). The agent to act,
``agent_selection``, is the lowest seat among the engine's actors: during simultaneous phases
(initial peeks, Gabo's snap windows) seats are served lowest first, which the engine allows.

**Spaces.** ``action_space(agent)`` is ``Discrete(size)`` over the integers of
:mod:`cardtable.encoding`; ``observation_space(agent)`` is ``Dict(observation=Box
float32, action_mask=Box int8)``. ``observe(agent)`` builds the vector from that seat's
``view`` alone (never a card the seat does not know); the mask holds the legal integers when
the agent is ``agent_selection`` and is all zeros otherwise (also once the episode has ended).

**Episodes.** ``reset(seed=s)`` deals ``new_game(variant, players, seed=s, options)`` — the
very game the engine deals for that seed; ``reset()`` draws a seed from the environment's
NumPy generator. ``options`` passed to ``reset`` are accepted and ignored (rule options are
given to :func:`env`). Rewards are 0 until the game (the whole match, as the rule options
define it) ends; then every agent gets its share of
:func:`~cardtable.encoding.win_rewards` (zero-sum), every termination is True and each
agent's info holds ``"totals"`` and ``"winners"``. Each agent then takes one last ``None``
step, as usual in PettingZoo. An illegal, out-of-range or non-integer action raises
``ValueError`` and changes nothing.

**Truncation.** Two cases truncate every agent at once, with reward 0 and
``info["truncated_reason"]`` saying why:

* ``max_cycles=k``: after ``k * players`` actions. The game is turn-based, so a "cycle" is one
  action per seat *on average*: seats act as the rules say, not in a fixed rotation.
* The seat to act has legal actions but every one names a hand position beyond
  ``max_positions``, so none of them has an integer (very rare with the default caps).

A game that ends on the very step that reaches ``max_cycles`` is terminated, not truncated.

**Rendering.** :func:`~cardtable.interop.gymnasium.render_table` of the spectator view (never a
hidden card): ``render_mode="ansi"`` returns the text, ``"human"`` prints it, and without a
render mode ``render()`` warns (as Gymnasium and PettingZoo's own environments do) and
returns ``None``.

``env.unwrapped.game`` is the live engine game (read it, never play on it) and
``env.unwrapped.encoding`` the :class:`~cardtable.encoding.Encoding`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from .. import variants
from ..encoding import Encoding, encoding, win_rewards
from ..game import Game
from ..variants import Options, new_game
from .gymnasium import (
    Observation,
    action_index,
    check_render_mode,
    check_seed,
    emit_render,
    illegal_message,
    observation_space,
)

__all__ = ["CardtableAECEnv", "env", "raw_env"]

_SEED_BOUND = 2**63 - 1


class CardtableAECEnv(AECEnv):
    """A cardtable game as a PettingZoo ``AECEnv`` (see the module text for the details)."""

    # A plain class attribute, as PettingZoo declares it; each instance gets its own copy
    # with a per-variant name.
    metadata: dict[str, object] = {  # noqa: RUF012
        "name": "cardtable_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str,
        players: int | None = None,
        *,
        options: Options | None = None,
        max_positions: int | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        info = variants.get(variant)
        n = info.default_players if players is None else players
        info.check_players(n)
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive integer or None, got {max_cycles!r}")
        self.variant = info.name
        """Registry name of the variant."""
        self.players = n
        """Seats at the table."""
        self.rule_options = info.resolve_options(options)
        """Validated rule options every game is dealt with."""
        self.max_cycles = max_cycles
        """Actions per seat (on average) before truncation; ``None``: no limit."""
        self.render_mode = check_render_mode(render_mode)
        """``"ansi"``, ``"human"`` or ``None``."""
        self.encoding: Encoding = encoding(info.name, n, max_positions)
        """The :class:`~cardtable.encoding.Encoding` of actions and observations."""
        name = f"cardtable_{self.variant.replace('-', '_')}_v0"
        self.metadata = {**type(self).metadata, "name": name}
        self.possible_agents: list[str] = [f"player_{s}" for s in range(n)]
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        self.action_spaces: dict[str, spaces.Discrete[np.int64]] = {
            a: spaces.Discrete(self.encoding.size) for a in self.possible_agents
        }
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: observation_space(self.encoding) for a in self.possible_agents
        }
        self.game: Game | None = None
        """The live engine game (read it, never play on it); ``None`` before ``reset``."""
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, object]] = {}
        self.agent_selection: str = self.possible_agents[0]
        self._skip_agent_selection: str | None = None
        self._np_random: np.random.Generator | None = None
        self._legal: list[int] = []
        self._steps = 0

    # ------------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        """The (cached) observation space of ``agent``."""
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Discrete[np.int64]:
        """The (cached) action space of ``agent``."""
        return self.action_spaces[self._agent(agent)]

    # ------------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        """Deal a new game (``seed`` if given, else one drawn from the env's generator).
        ``options`` is accepted and ignored: rule options are given to :func:`env`."""
        if seed is not None:
            game_seed = check_seed(seed)
            self._np_random = np.random.default_rng(game_seed)
        else:
            if self._np_random is None:
                self._np_random = np.random.default_rng()
            game_seed = int(self._np_random.integers(0, _SEED_BOUND))
        self.game = new_game(self.variant, self.players, seed=game_seed, options=self.rule_options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._steps = 0
        self._settle(self.game)

    def step(self, action: object) -> None:
        """Play ``action`` (an integer) for ``agent_selection``; ``None`` for an agent whose
        episode has ended."""
        game = self.game
        if game is None or not self.agents:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seats[agent]
        index = action_index(action, self.encoding)
        if index not in self._legal:
            raise ValueError(illegal_message(self.encoding, seat, index, agent))
        game.play(seat, self.encoding.decode(seat, index))
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._settle(game)
        self._accumulate_rewards()

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation vector (from its own view) and action mask."""
        seat = self._seats[self._agent(agent)]
        if self.game is None:
            raise RuntimeError("call reset() before observe()")
        return {
            "observation": self.encoding.observe(self.game.view(seat)),
            "action_mask": self.action_mask(agent),
        }

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The int8 mask ``observe(agent)`` carries (legal integers for ``agent_selection``,
        zeros for every other agent), without building the observation."""
        self._agent(agent)
        acting = agent == self.agent_selection and agent in self.agents
        return self.encoding.mask(self._legal if acting else ())

    def render(self) -> str | None:
        """The public table as text (``ansi``), printed (``human``), or ``None``."""
        return emit_render(self.render_mode, self.game)

    def close(self) -> None:
        """Nothing to release (safe to call more than once)."""

    # ------------------------------------------------------------------------ internals
    def _agent(self, agent: str) -> str:
        if agent not in self._seats:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        return agent

    def _settle(self, game: Game) -> None:
        """After a deal or an action: end or truncate the episode, or pick the next agent."""
        self._legal = []
        result = game.result
        if result is not None:
            rewards = win_rewards(self.players, result.winners)
            for agent, reward in zip(self.agents, rewards, strict=True):
                self.rewards[agent] = reward
                self.terminations[agent] = True
                self.infos[agent] = {
                    "totals": [int(t) for t in result.totals],
                    "winners": [int(w) for w in result.winners],
                }
            self.agent_selection = self.agents[0]
            return
        if self.max_cycles is not None and self._steps >= self.max_cycles * self.players:
            self._truncate(f"max_cycles={self.max_cycles} reached ({self._steps} actions)")
            return
        seat = game.actors[0]
        self.agent_selection = self.possible_agents[seat]
        self._legal = self.encoding.legal(game, seat)
        if not self._legal:
            self._truncate(
                f"{self.agent_selection} must act but every legal action names a hand position "
                f"beyond max_positions={self.encoding.max_positions}"
            )

    def _truncate(self, reason: str) -> None:
        self._legal = []
        for agent in self.agents:
            self.rewards[agent] = 0.0
            self.truncations[agent] = True
            self.infos[agent] = {"truncated_reason": reason}
        self.agent_selection = self.agents[0]


def env(
    variant: str,
    players: int | None = None,
    *,
    options: Options | None = None,
    max_positions: int | None = None,
    max_cycles: int | None = None,
    render_mode: str | None = None,
) -> CardtableAECEnv:
    """A :class:`CardtableAECEnv` of ``variant`` at ``players`` seats (the variant's default
    when ``None``); ``options`` are the rule options (e.g. ``{"target": None}`` for one
    round). ``ValueError`` for an unknown variant, a bad seat count, option or argument."""
    return CardtableAECEnv(
        variant,
        players,
        options=options,
        max_positions=max_positions,
        max_cycles=max_cycles,
        render_mode=render_mode,
    )


raw_env = env
"""Same as :func:`env` (PettingZoo's name for the unwrapped constructor)."""
