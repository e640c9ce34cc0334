"""Gymnasium environment: one seat learns, cardtable agents play every other seat.

>>> import gymnasium
>>> import cardtable.interop.gymnasium  # registers the ids below
>>> env = gymnasium.make("cardtable/Kaboo-v0", opponents="heuristic")
>>> obs, info = env.reset(seed=7)
>>> sorted(obs)
['action_mask', 'observation']

Ids (registered on import, ``variant`` fixed, every other constructor argument free): one
per variant, :func:`gym_id` of its name — ``cardtable/Cabo-v0``, ``cardtable/CaboGerman-v0``,
``cardtable/Gabo-v0``, ``cardtable/Kaboo-v0``, ``cardtable/Qute-v0`` — and one for every
variant registered later (``cardtable.games.family.add_variant``).

**Spaces.** Actions are the integers of :mod:`cardtable.encoding` (``Discrete``);
observations are ``{"observation": float32 vector, "action_mask": int8 vector}``, the vector
built from the learner's own ``view`` only. :meth:`CardtableGymEnv.action_masks` follows the
sb3-contrib ``MaskablePPO`` convention. ``action_space.sample()`` *without* a mask draws a
currently legal action (so the usual random-agent loop works); with an explicit ``mask`` or
``probability`` it behaves exactly like ``Discrete.sample``.

**Turn order.** Whenever several seats may act at once (initial peeks, Gabo's snap windows),
the lowest seat is served first, as in :mod:`cardtable.interop.pettingzoo`: opponents seated
before the learner act before it. ``step`` plays the learner's action, then the opponents
until the learner must act again or the game is over.

**Episodes.** ``reset(seed=s)`` deals ``new_game(variant, players, seed=s, options)`` — the
very game the engine would deal for that seed; ``reset()`` without a seed draws one from the
environment's ``np_random``. ``options`` passed to ``reset`` are accepted and ignored (rule
options are given to the constructor). If the game ends before the learner is ever asked to
act, or the learner's first decision has no integer (see below), that deal is dropped and a
new seed is drawn from ``np_random`` (so a seeded reset stays deterministic).

The reward is 0 until the game (the whole match, as the rule options define it) ends; then
it is the learner's share of :func:`~cardtable.encoding.win_rewards` and
``terminated`` is True. ``truncated`` is True, with reward 0, only when the learner must act
but every legal action names a hand position beyond ``max_positions`` (so none has an
integer; very rare); ``info["truncated_reason"]`` says so. ``info`` always holds
``"action_mask"`` and, at the end, ``"totals"`` and ``"winners"``. An illegal, out-of-range
or non-integer action raises ``ValueError`` and changes nothing.

**Rendering.** :func:`render_table` draws the public table (the spectator view: never a hidden
card) as text; ``render_mode="ansi"`` returns it, ``"human"`` prints it, and without a render
mode ``render()`` warns (as Gymnasium's own environments do) and returns ``None``.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .. import agents as _agents
from .. import variants
from ..agents import Agent
from ..encoding import Encoding, Vector, encoding, supported, win_rewards
from ..game import Game
from ..games.family.rulesets import RULESETS
from ..seat import Seat
from ..text.plain import render_table
from ..variants import Options, new_game

__all__ = [
    "GYM_IDS",
    "MAX_DEALS",
    "RENDER_MODES",
    "CardtableGymEnv",
    "LegalDiscrete",
    "Observation",
    "action_index",
    "check_render_mode",
    "check_seed",
    "emit_render",
    "gym_id",
    "illegal_message",
    "observation_space",
    "render_table",
]

Observation: TypeAlias = dict[str, Vector | npt.NDArray[np.int8]]
"""An observation: ``{"observation": float32 vector, "action_mask": int8 vector}`` (a plain
dict, as Gymnasium's ``Dict`` space holds it)."""

GYM_IDS: dict[str, str] = {}
"""Gymnasium id registered for each variant (kept up to date with the registry)."""

RENDER_MODES = ["human", "ansi"]
"""Render modes of both adapters: ``ansi`` returns the text, ``human`` prints it."""

MAX_DEALS = 100
"""Deals :meth:`CardtableGymEnv.reset` tries before giving up (each dropped deal is one where
the learner never gets a decision with an integer)."""

_SEED_BOUND = 2**63 - 1


# ---------------------------------------------------------------------------- shared helpers
def observation_space(enc: Encoding) -> spaces.Dict:
    """The observation space of ``enc``: a ``Dict`` of the float32 ``observation`` vector
    (unbounded: it holds counters such as the round number and match totals) and the int8
    ``action_mask``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                -np.inf, np.inf, shape=(enc.observation_size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(0, 1, shape=(enc.size,), dtype=np.int8),
        }
    )


def action_index(action: object, enc: Encoding) -> int:
    """``action`` as a Python int in ``0 .. enc.size - 1``; ``ValueError`` otherwise.

    Accepted: ``int`` (not ``bool``), NumPy integers and 0-d integer arrays.
    """
    value: int | None = None
    if isinstance(action, np.ndarray):
        if action.shape == () and np.issubdtype(action.dtype, np.integer):
            value = int(action)
    elif not isinstance(action, bool | np.bool_):
        try:
            value = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            value = None
    if value is None:
        raise ValueError(f"an action must be an integer in 0..{enc.size - 1}, got {action!r}")
    if not 0 <= value < enc.size:
        raise ValueError(f"action {value} is outside 0..{enc.size - 1}")
    return value


def illegal_message(enc: Encoding, seat: int, index: int, who: str) -> str:
    """The error text for integer ``index`` refused for ``seat`` (called ``who``)."""
    row = enc.action_table()[index][1]
    return f"action {index} ({row}: '{enc.decode(seat, index)}') is not legal for {who} now"


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if it is ``None`` or one of :data:`RENDER_MODES`; ``ValueError`` else."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
    return render_mode


def emit_render(render_mode: str | None, game: Game | None) -> str | None:
    """What ``render()`` does in both adapters for ``render_mode`` (see the module text)."""
    if render_mode is None:
        gymnasium.logger.warn(
            "You are calling render method without specifying any render mode "
            "(pass render_mode='ansi' or 'human')."
        )
        return None
    if game is None:
        raise RuntimeError("call reset() before render()")
    text = render_table(game.spectator_view())
    if render_mode == "ansi":
        return text
    print(text, end="")
    return None


def check_seed(seed: object) -> int:
    """``seed`` as a non-negative Python int; ``ValueError`` otherwise."""
    if isinstance(seed, bool | np.bool_):
        raise ValueError(f"a seed must be a non-negative integer, got {seed!r}")
    try:
        value = operator.index(seed)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"a seed must be a non-negative integer, got {seed!r}") from None
    if value < 0:
        raise ValueError(f"a seed must be a non-negative integer, got {seed!r}")
    return int(value)


class LegalDiscrete(spaces.Discrete[np.int64]):
    """``Discrete`` whose ``sample()`` without a mask draws a currently legal action.

    ``legal_mask`` returns the current int8 mask; when it has no 1 (before ``reset`` or after
    the episode) ``sample()`` is uniform over the whole space. With an explicit ``mask`` or
    ``probability`` it is plain ``Discrete.sample``. Equal to ``Discrete(n)``; pickles as a
    plain ``Discrete`` (a deep copy of the environment keeps one tied to the copy).
    """

    def __init__(self, n: int, legal_mask: Callable[[], npt.NDArray[np.int8]]) -> None:
        super().__init__(n)
        self._legal_mask = legal_mask

    def sample(
        self,
        mask: npt.NDArray[np.int8] | None = None,
        probability: npt.NDArray[np.int8] | None = None,
    ) -> np.int64:
        """A random action: legal now when no ``mask`` / ``probability`` is given."""
        if mask is None and probability is None:
            legal = self._legal_mask()
            if legal.any():
                mask = legal
        return np.int64(super().sample(mask=mask, probability=probability))

    def __reduce__(self) -> tuple[object, ...]:
        return (spaces.Discrete, (self.n,))

    def __deepcopy__(self, memo: dict[int, object]) -> LegalDiscrete:
        # A deep copy of the environment keeps a legal-sampling space tied to the copy.
        clone = object.__new__(type(self))
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            setattr(clone, key, copy.deepcopy(value, memo))
        return clone


# ---------------------------------------------------------------------------- the environment
# The observation type argument is Gymnasium's: its ``Dict`` space is declared as a space of
# ``dict[str, Space]``, so only ``dict[str, Any]`` takes it (the observations are
# :data:`Observation`).
class CardtableGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One learning seat against cardtable agents (see the module text for the details).

    ``opponents`` is one agent name or level for every other seat, or a list with one name per
    other seat in seat order (skipping ``seat``); opponent seat ``s`` is built as
    ``cardtable.agents.get(name, seed + s)``. ``seed`` only seeds the opponents: the deal
    comes from ``reset(seed=...)``.
    """

    # A plain class attribute, as Gymnasium declares it (``make`` reads it from the class).
    metadata: dict[str, object] = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        variant: str = "kaboo",
        players: int | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        options: Options | None = None,
        max_positions: int | None = None,
        render_mode: str | None = None,
        seed: int = 0,
    ) -> None:
        info = variants.get(variant)
        n = info.default_players if players is None else players
        info.check_players(n)
        self.variant = info.name
        """Registry name of the variant."""
        self.players = n
        """Seats at the table."""
        self.rule_options = info.resolve_options(options)
        """Validated rule options every game is dealt with."""
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be an integer in 0..{n - 1}, got {seat!r}")
        self.seat = seat
        """The learner's seat."""
        self.opponent_seed = check_seed(seed)
        """Seed of the opponent agents (seat ``s`` gets ``opponent_seed + s``)."""
        self.opponent_names = self._opponent_names(opponents, n, seat)
        """Agent name or level for each seat; ``None`` at the learner's seat."""
        self._opponents: dict[int, Agent] = {}
        self._build_opponents()  # validates every name now
        self.render_mode = check_render_mode(render_mode)
        self.encoding = encoding(info.name, n, max_positions)
        """The :class:`~cardtable.encoding.Encoding` of actions and observations."""
        self.observation_space = observation_space(self.encoding)
        self.action_space = LegalDiscrete(self.encoding.size, self.action_masks)
        self.game: Game | None = None
        """The live engine game (read it, never play on it); ``None`` before ``reset``."""
        self._legal: list[int] = []
        self._done = False

    @staticmethod
    def _opponent_names(opponents: str | Sequence[str], n: int, seat: int) -> list[str | None]:
        if isinstance(opponents, str):
            names = [opponents] * (n - 1)
        else:
            names = list(opponents)
            if len(names) != n - 1:
                raise ValueError(
                    f"opponents must name {n - 1} agents (one per other seat), got {len(names)}"
                )
            for name in names:
                if not isinstance(name, str):
                    raise ValueError(f"an opponent must be an agent name, got {name!r}")
        out: list[str | None] = list(names)
        out.insert(seat, None)
        return out

    def _build_opponents(self) -> None:
        self._opponents = {
            s: _agents.get(name, self.opponent_seed + s)
            for s, name in enumerate(self.opponent_names)
            if name is not None
        }

    # ------------------------------------------------------------------------ gymnasium API
    def reset(
        self, *, seed: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[Observation, dict[str, object]]:
        """Deal a new game (``seed`` if given, else one drawn from ``np_random``) and let the
        opponents play until the learner must act. ``options`` is accepted and ignored."""
        game_seed = None if seed is None else check_seed(seed)
        super().reset(seed=game_seed)
        if game_seed is None:
            game_seed = self._draw_seed()
        for _ in range(MAX_DEALS):
            self._build_opponents()  # fresh agents: an episode never depends on the last one
            game = new_game(self.variant, self.players, seed=game_seed, options=self.rule_options)
            self._advance(game)
            if not game.over and self._legal:
                self.game = game
                self._done = False
                return self._observation(), {"action_mask": self.action_masks()}
            game_seed = self._draw_seed()
        raise RuntimeError(
            f"{MAX_DEALS} deals in a row gave seat {self.seat} no decision with an integer"
        )

    def step(self, action: object) -> tuple[Observation, float, bool, bool, dict[str, object]]:
        """Play the learner's ``action`` (an integer), then the opponents until the learner
        must act again or the game is over."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode has ended; call reset() to start a new one")
        index = action_index(action, self.encoding)
        if index not in self._legal:
            raise ValueError(illegal_message(self.encoding, self.seat, index, "the learner"))
        game.play(self.seat, self.encoding.decode(self.seat, index))
        self._advance(game)
        info: dict[str, object] = {}
        reward, terminated, truncated = 0.0, False, False
        result = game.result
        if result is not None:
            reward = win_rewards(self.players, result.winners)[self.seat]
            terminated = True
            info["totals"] = [int(t) for t in result.totals]
            info["winners"] = [int(w) for w in result.winners]
        elif not self._legal:
            truncated = True
            info["truncated_reason"] = (
                f"seat {self.seat} must act but every legal action names a hand position "
                f"beyond max_positions={self.encoding.max_positions}"
            )
        self._done = terminated or truncated
        info["action_mask"] = self.action_masks()
        return self._observation(), reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The learner's legal integers as an int8 mask (all 0 when it cannot act)."""
        return self.encoding.mask(self._legal)

    def render(self) -> str | None:
        """The public table as text (``ansi``), printed (``human``), or ``None``."""
        return emit_render(self.render_mode, self.game)

    def close(self) -> None:
        """Nothing to release (safe to call more than once)."""

    # ------------------------------------------------------------------------ internals
    def _draw_seed(self) -> int:
        return int(self.np_random.integers(0, _SEED_BOUND))

    def _advance(self, game: Game) -> None:
        """Let opponents act while the lowest actor is not the learner; then cache the
        learner's legal integers (empty when the game is over)."""
        self._legal = []
        while not game.over:
            actor = game.actors[0]
            if actor == self.seat:
                self._legal = self.encoding.legal(game, actor)
                return
            game.play(actor, self._opponents[actor].act(Seat(game, actor)))

    def _observation(self) -> Observation:
        assert self.game is not None
        return {
            "observation": self.encoding.observe(self.game.view(self.seat)),
            "action_mask": self.action_masks(),
        }


def gym_id(name: str) -> str:
    """The Gymnasium id of variant ``name``: ``cabo-german`` → ``cardtable/CaboGerman-v0``."""
    words = name.replace("_", "-").split("-")
    return "cardtable/" + "".join(w[:1].upper() + w[1:] for w in words) + "-v0"


def _register(variant: variants.Variant) -> None:
    """Register ``variant``'s id with Gymnasium (an id already registered is left alone)."""
    if not supported(variant):
        return
    env_id = GYM_IDS[variant.name] = gym_id(variant.name)
    if env_id not in gymnasium.registry:
        batched = variant.name in RULESETS  # the batched engine plays the Cabo family
        gymnasium.register(
            id=env_id,
            entry_point=f"{__name__}:CardtableGymEnv",
            vector_entry_point=f"{__package__}.vector:CardtableVectorEnv" if batched else None,
            kwargs={"variant": variant.name},
        )


def _forget(variant: variants.Variant) -> None:
    """A variant left the registry: its id goes too."""
    env_id = GYM_IDS.pop(variant.name, None)
    if env_id is not None:
        gymnasium.registry.pop(env_id, None)


variants.subscribe(_register, _forget)
