"""What is fixed for one loaded game: variant, parameters, encoding, and the state before the
deal."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import numpy as np
import pyspiel

from ... import variants
from ...encoding import DEFAULT_MAX_POSITIONS, Encoding, encoding, win_rewards
from ...games.family.rulesets import RULESETS
from .engines import ChanceSource, Engine, build

DEFAULT_MAX_MOVES = 100_000
"""Default cap on player decisions; reaching it ends the game with all returns 0.

Measured on full default matches: with uniformly random legal actions the longest game seen
took 936 decisions (Qute for two, 3,000 matches; every other variant and seat count stayed
under 400), and with cardtable's rule-of-thumb agents up to about 15,400 (ten-player Gabo,
whose snap windows ask every seat after every turn; 100 matches). The cap is far above both,
so it only stops games that would not end (a Gabo seat that keeps snapping wrongly can hold a
snap window open for ever)."""

CHANCE = int(pyspiel.PlayerId.CHANCE)
"""OpenSpiel's id of the chance player."""
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
"""OpenSpiel's current-player id of a terminal state."""


def game_name(variant: str) -> str:
    """OpenSpiel short name of a variant: ``cabo-german`` → ``cardtable_cabo_german``."""
    return "cardtable_" + variants.get(variant).name.replace("-", "_")


class Spec:
    """Everything fixed for one loaded game: variant, parameters, encoding and caches."""

    def __init__(
        self, variant: str, players: int, target: int, max_positions: int, max_moves: int
    ) -> None:
        info = variants.get(variant)
        self.variant = info.name
        self.players = players
        self.target = target
        self.max_positions = max_positions
        self.max_moves = max_moves
        self.family = self.variant in RULESETS
        self.rs = RULESETS.get(self.variant)
        self.enc: Encoding = encoding(self.variant, players, max_positions or None)
        self.options = info.resolve_options({"target": target or None})
        self.random_first = self.rs is not None and self.rs.random_first
        # the code of each card id (cabo's deck repeats codes; Qute's are the encoding's)
        self.codes: tuple[str, ...] = self.rs.deck if self.rs is not None else self.enc.codes
        self.unique_codes = len(set(self.codes)) == len(self.codes)
        self.rewards: dict[tuple[int, ...], list[float]] = {}
        self.zeros = [0.0] * players
        self.empty_vector = np.zeros(self.enc.observation_size, dtype=np.float32)

    def __reduce__(self) -> tuple[object, ...]:
        return (
            spec_for,
            (self.variant, self.players, self.target, self.max_positions, self.max_moves),
        )

    def build(self, first: int, queue: tuple[int, ...]) -> tuple[Engine, ChanceSource]:
        """A new engine dealt with the cards ``queue`` (past them, the takes are recorded in
        the source returned with it)."""
        options = self.options if first < 0 else {**self.options, "first": first}
        return build(self.variant, self.players, options, queue)

    def win(self, winners: list[int]) -> list[float]:
        """Zero-sum returns of a game won by ``winners`` (cached)."""
        key = tuple(winners)
        out = self.rewards.get(key)
        if out is None:
            out = self.rewards[key] = win_rewards(self.players, winners)
        return out

    def card_text(self, cid: int) -> str:
        """A chance outcome's text: the card code (with its id where codes repeat: cabo)."""
        if not 0 <= cid < len(self.codes):
            raise ValueError(f"{cid} is not a card id of the {self.variant} deck")
        code = self.codes[cid]
        return code if self.unique_codes else f"{code}#{cid}"


@cache
def spec_for(variant: str, players: int, target: int, max_positions: int, max_moves: int) -> Spec:
    """The one :class:`Spec` of these parameters (cached; a pickled spec loads through it)."""
    return Spec(variant, players, target, max_positions, max_moves)


def _int_param(params: Mapping[str, object], name: str, default: int, low: int, high: int) -> int:
    value = params.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"parameter {name!r} must be an integer, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"parameter {name!r} must be between {low} and {high}, got {value}")
    return value


def spec_from_params(variant: str, params: Mapping[str, object]) -> Spec:
    """The spec of a game loaded with OpenSpiel ``params``, each checked (``ValueError`` for an
    unknown parameter, a value that is not an integer or one out of range)."""
    info = variants.get(variant)
    family = info.name in RULESETS
    known = {"players", "target", "max_moves"} | ({"max_positions"} if family else set())
    unknown = sorted(set(params) - known)
    if unknown:
        raise ValueError(
            f"unknown parameter {unknown[0]!r} for {game_name(variant)}; known: "
            + ", ".join(sorted(known))
        )
    players = _int_param(params, "players", info.default_players, 0, 10**9)
    info.check_players(players)
    target = _int_param(params, "target", default_target(variant), 0, 10**9)
    max_moves = _int_param(params, "max_moves", DEFAULT_MAX_MOVES, 1, 10**9)
    max_positions = 0
    if family:
        max_positions = _int_param(params, "max_positions", DEFAULT_MAX_POSITIONS[info.name], 1, 64)
    return spec_for(info.name, players, target, max_positions, max_moves)


def default_target(variant: str) -> int:
    """The ``target`` parameter's default: the variant's own match target, ``0`` where it
    plays one round."""
    target = variants.get(variant).resolve_options(None)["target"]
    return target if isinstance(target, int) else 0


_spec = spec_for  # its name before; older pickles name it
