"""Shared helpers for the engine test suites (not a test module)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from cardtable import IllegalAction, variants
from cardtable.game import Game
from cardtable.notation import parse
from cardtable.rng import Rng

ALL_CONFIGS = [
    (name, n)
    for name in variants.names()
    for n in range(variants.get(name).min_players, variants.get(name).max_players + 1)
]
"""Every (variant, player count) the registry allows."""

ILLEGAL_PROBES = [
    "",
    "   ",
    "fly away",
    "draw",
    "draw sideways",
    "draw deck",
    "draw discard",
    "replace 0",
    "replace 1 2",
    "replace 0 1 2 3 4",
    "replace 63",
    "replace -1",
    "discard",
    "peek 0",
    "peek 3",
    "peek 12",
    "spy 1.0",
    "spy 0.1",
    "spy 9.0",
    "spy 1.99",
    "exchange",
    "exchange 0 1.0",
    "exchange 1.0 2.1",
    "exchange 0 0",
    "look 0 1.0",
    "look 0 1",
    "drop 0",
    "drop 1.0",
    "drop 7.7",
    "give 0",
    "give 9",
    "pass",
    "cabo",
    "gabo",
    "knock",
    "play 7H",
    "suit H",
    "qute",
    "peek 1.2.3",
    "x" * 300,
]
"""Texts of every kind, many of them malformed or out of range."""


def codes_of(game: Game) -> list[str]:
    """Every card of the game's full deck, by code (with repeats)."""
    return list(game.codes)  # type: ignore[attr-defined]


def cards_in_play(game: Game) -> Counter[str]:
    """Multiset of card codes over every place a card can be."""
    g: Any = game
    return Counter(g.codes[c] for c in g._all_cards())


def assert_conserved(game: Game) -> None:
    """The cards in play are exactly the variant's deck: nothing lost, nothing doubled."""
    g: Any = game
    assert sorted(g._all_cards()) == list(range(len(g.codes))), "cards lost or duplicated"


def canonical_json(obj: Any) -> str:
    """Deterministic JSON text (fails on anything not JSON-serialisable)."""
    return json.dumps(obj, sort_keys=True, allow_nan=False)


def is_legal_text(game: Game, seat: int, text: str) -> bool:
    """Whether ``text`` parses to an action currently legal for ``seat``."""
    try:
        action = parse(text)
    except IllegalAction:
        return False
    return game._normalize(seat, action) in game.legal_actions(seat)


def assert_rejected(game: Game, seat: Any, text: Any) -> None:
    """Playing ``text`` as ``seat`` raises IllegalAction with a message and changes nothing."""
    before = game._dump()  # type: ignore[attr-defined]
    log_before = game.log
    try:
        game.play(seat, text)
    except IllegalAction as exc:
        assert str(exc), "an IllegalAction must say why"
    else:  # pragma: no cover - a failure path
        raise AssertionError(f"{text!r} by seat {seat!r} was accepted")
    assert game._dump() == before  # type: ignore[attr-defined]
    assert game.log == log_before


def random_actor(game: Game, rng: Rng) -> int:
    """A uniformly random seat among those that may act."""
    actors = game.actors
    return actors[rng.below(len(actors))]


def kind_first_choice(game: Game, seat: int, rng: Rng) -> str:
    """A random legal action, choosing the word first (keeps cabo hands from ballooning)."""
    groups: dict[tuple[str, int], list[str]] = {}
    for action in game.legal_actions(seat):
        key = (action.name, len(action.args) if action.name == "replace" else 0)
        groups.setdefault(key, []).append(str(action))
    keys = sorted(groups)
    return rng.pick(groups[keys[rng.below(len(keys))]])


def strings_in(obj: Any) -> list[str]:
    """Every string value inside a JSON-like structure."""
    out: list[str] = []
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return out


def known_codes(game: Game, seat: int) -> set[str]:
    """Codes of the cards ``seat`` may know right now, from the engine's own bookkeeping."""
    g: Any = game
    if g.variant == "qute":
        out = {g.codes[c] for c in g.hands[seat]} | {g.codes[c] for c in g.stack}
    else:
        bit = 1 << seat
        out = {g.codes[c] for c in g.discard}
        for hand, kn in zip(g.hands, g.known, strict=True):
            for c, k in zip(hand, kn, strict=True):
                if c >= 0 and k & bit:
                    out.add(g.codes[c])
        if g.drawn >= 0 and g.drawn_known & bit:
            out.add(g.codes[g.drawn])
    if g.over:
        out |= set(cards_in_play(game))
    return out


def load_script(path: Path, name: str) -> ModuleType:
    """Import a script that is not in a package (``examples/``) as the module ``name``, once."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module
