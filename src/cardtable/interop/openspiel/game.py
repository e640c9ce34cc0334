"""The pyspiel classes (game, state, observer), :func:`to_game`, and the registration of one
game per variant."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import cast

import numpy as np
import pyspiel

from ... import variants
from ...encoding import DEFAULT_MAX_POSITIONS, Encoding, supported, win_rewards
from ...game import Game
from ...games.family.rulesets import RULESETS
from . import text
from .node import Node, initial_node
from .spec import (
    CHANCE,
    DEFAULT_MAX_MOVES,
    TERMINAL,
    Spec,
    default_target,
    game_name,
    spec_for,
    spec_from_params,
)

GAME_NAMES: dict[str, str] = {}
"""OpenSpiel short name of each registered variant (kept up to date with the registry)."""


class CardtableState(pyspiel.State):
    """An OpenSpiel state of a cardtable game. Its one Python attribute is an immutable node,
    so OpenSpiel's ``clone`` (a deep copy of the attributes) shares it."""

    _n: Node

    def __init__(self, game: CardtableGame) -> None:
        super().__init__(game)
        self._n = initial_node(game.spec)

    # -- the pyspiel.State API -------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act (the lowest one in simultaneous phases), chance, or terminal."""
        return self._n.player

    def _legal_actions(self, player: int) -> list[int]:
        """The legal integers of ``player``, ascending (empty for anyone but the actor)."""
        n = self._n
        return n.legal() if player == n.player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The card ids the pending draw may take (or the seats that may start), equally
        likely."""
        return self._n.outcomes()

    def _apply_action(self, action: int) -> None:
        """Play a player action or a chance outcome; ``ValueError`` (nothing changes) if it is
        not legal now."""
        self._n = self._n.after(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """Canonical action text for ``player`` (``spy 1.2``); for chance the card code (with
        ``#id`` in cabo, whose codes repeat) or ``first seat N``."""
        return self._n.action_text(player, action)

    def is_terminal(self) -> bool:
        """True once the game is over or truncated at ``max_moves``."""
        return self._n.player == TERMINAL

    def returns(self) -> list[float]:
        """Zero-sum win rewards at the end (``win_rewards``); zeros before it and when
        truncated."""
        return self._n.returns()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> CardtableState:
        """A state ``player_id`` cannot tell from this one: every card it does not know
        re-dealt (the engine's ``determinize``, seeded from ``probability_sampler()``).

        The copy keeps this state's history and move number (OpenSpiel has no way to rewrite
        them); only decision and terminal states can be resampled.
        """
        n = self._n
        n.check_seat(player_id)
        seed = int(float(probability_sampler()) * 2**53)
        node = n.resampled(int(player_id), seed)
        state: CardtableState = self.clone()
        state.node = node
        return state

    def __str__(self) -> str:
        """Everything about the state, hidden cards included (OpenSpiel compares clones and
        deserialized states by it): all hands, the deck sorted, the piles, the pending draw."""
        return text.debug_text(self._n)

    def __deepcopy__(self, memo: dict[int, object]) -> CardtableState:
        """``copy.deepcopy`` is OpenSpiel's cheap ``clone`` (which shares the immutable node)."""
        state: CardtableState = self.clone()
        return state

    # -- beyond pyspiel ----------------------------------------------------------------------
    @property
    def node(self) -> Node:
        """The adapter's immutable node this state is at (:class:`.node.Node`); every action
        moves the state to a new one, and clones share it."""
        return self._n

    @node.setter
    def node(self, node: Node) -> None:
        self._n = node

    @property
    def engine(self) -> Game | None:
        """The cardtable engine (``None`` before the deal is complete); treat it as read-only.

        At a chance node it is the engine before the pending action.
        """
        return self._n.eng

    @property
    def pending_draws(self) -> int:
        """How many cards have been chosen so far for the pending action or deal."""
        return len(self._n.chosen) if self._n.player == CHANCE else 0

    @property
    def truncated(self) -> bool:
        """True if the game was cut short, every return 0: at the ``max_moves`` cap, or (never
        seen in play) when no legal action of the seat to act fits the action table."""
        return self._n.trunc


def to_game(state: CardtableState, seed: int) -> Game:
    """A plain cardtable engine in the position of ``state`` (for cardtable's own agents).

    The engine is a copy of the state's (all cards included, like any engine: agents learn
    only what ``view`` and ``determinize`` give them), with the deck (Qute: the blind)
    shuffled from ``seed`` and its own generator seeded from ``seed``: it draws and reshuffles
    by itself, with no chance nodes. ``ValueError`` at a chance node (a draw is half done).
    """
    n = state.node
    if n.eng is None or n.pend >= 0:
        raise ValueError("to_game needs a decision or terminal state, not a chance node")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    return n.eng.drawing_by_itself(seed)


class CardtableObserver:
    """OpenSpiel observer (the ``PyObserver`` protocol) of a seat's view.

    The tensor is the encoding's observation vector (``dict`` holds its named pieces); the
    string is the canonical JSON of the view for information states (``perfect_recall``) and
    the view in words for observations (:func:`.text.obs_string`).
    """

    def __init__(self, spec: Spec, perfect_recall: bool) -> None:
        self._recall = perfect_recall
        self.tensor = np.zeros(spec.enc.observation_size, dtype=np.float32)
        """The observation vector last set by :meth:`set_from`."""
        self.dict = spec.enc.split(self.tensor)
        """Named views of :attr:`tensor` (``Encoding.observation_pieces``)."""

    def set_from(self, state: CardtableState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state``."""
        self.tensor[:] = state.node.vector(player)

    def string_from(self, state: CardtableState, player: int) -> str:
        """``player``'s information-state (perfect recall) or observation string."""
        n = state.node
        return text.info_string(n, player) if self._recall else text.obs_string(n, player)


class CardtableGame(pyspiel.Game):
    """An OpenSpiel game of one cardtable variant (see the package docstring)."""

    def __init__(self, variant: str, params: Mapping[str, object] | None = None) -> None:
        spec = spec_from_params(variant, dict(params or {}))
        self.spec = spec
        """The game's fixed data (variant, parameters, encoding)."""
        low = win_rewards(spec.players, [0])
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.enc.size,
            max_chance_outcomes=max(len(spec.codes), spec.players),
            num_players=spec.players,
            min_utility=min(low),
            max_utility=max(low),
            utility_sum=0.0,
            max_game_length=spec.max_moves,
        )
        given = {"players": spec.players, "target": spec.target, "max_moves": spec.max_moves}
        if spec.family:
            given["max_positions"] = spec.max_positions
        super().__init__(_game_type(spec.variant), info, given)

    @property
    def encoding(self) -> Encoding:
        """The integer action table and observation layout (shared with PettingZoo)."""
        return self.spec.enc

    def new_initial_state(self) -> CardtableState:
        """The state before the deal: a chance node."""
        return CardtableState(self)

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, object] | None = None,
    ) -> CardtableObserver:
        """An observer of one seat's view: information state (``perfect_recall``) or
        observation. Public-only or all-players observation types are not supported."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        if iig_obs_type is None:
            return CardtableObserver(self.spec, perfect_recall=False)
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "cardtable games observe one seat's view: public and private information of a "
                "single player"
            )
        return CardtableObserver(self.spec, perfect_recall=bool(iig_obs_type.perfect_recall))


@cache
def _game_type(variant: str) -> pyspiel.GameType:
    info = variants.get(variant)
    spec: dict[str, int] = {
        "players": info.default_players,
        "target": default_target(variant),
        "max_moves": DEFAULT_MAX_MOVES,
    }
    if info.name in RULESETS:
        spec["max_positions"] = DEFAULT_MAX_POSITIONS[info.name]
    return pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"cardtable {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


def _game_class(variant: str) -> type[CardtableGame]:
    # A class per variant, registered as the factory (a class, like OpenSpiel's own Python
    # games: a plain function kept only by the registry crashes the interpreter at exit).
    name = "Cardtable" + variant.title().replace("-", "") + "Game"

    def init(self: CardtableGame, params: Mapping[str, object] | None = None) -> None:
        CardtableGame.__init__(self, variant, params)

    doc = f"The OpenSpiel game ``{game_name(variant)}``: :class:`CardtableGame` of {variant}."
    return cast(
        type[CardtableGame], type(name, (CardtableGame,), {"__init__": init, "__doc__": doc})
    )


GAME_CLASSES: dict[str, type[CardtableGame]] = {}
"""The registered game class of each variant (``cls(params)`` builds a game)."""


def register_variant(variant: variants.Variant) -> None:
    """Register ``variant``'s OpenSpiel game, :func:`game_name` (done on import for every
    variant in the registry, and later for every variant registered after; a variant of a
    kind the encoding does not know is left out)."""
    if not supported(variant) or variant.name in GAME_CLASSES:
        return
    cls = _game_class(variant.name)
    pyspiel.register_game(_game_type(variant.name), cls)
    GAME_NAMES[variant.name] = game_name(variant.name)
    GAME_CLASSES[variant.name] = cls


def forget_variant(variant: variants.Variant) -> None:
    """A variant left the registry: drop its entries and every cached spec (``pyspiel``
    keeps the game registered, but loading it now fails: the variant is unknown)."""
    GAME_NAMES.pop(variant.name, None)
    GAME_CLASSES.pop(variant.name, None)
    spec_for.cache_clear()
    initial_node.cache_clear()
    _game_type.cache_clear()
