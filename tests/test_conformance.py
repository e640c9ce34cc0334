"""Conformance: seeded random playouts of every variant at every allowed player count.

For every state reached: every listed legal action applies (checked on copies), cards are
conserved, views are JSON-serialisable and have exactly the shape of ``cardtable.views.View``
(every seat with and without memory aid, and spectators), events that of ``Event``, illegal
inputs raise IllegalAction and change nothing; at the end ``replay(log)`` rebuilds the
identical game.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from cardtable import IllegalAction, new_game, replay
from cardtable.rng import Rng
from cardtable.views import validate_event, validate_view

from .helpers import (
    ALL_CONFIGS,
    ILLEGAL_PROBES,
    assert_conserved,
    assert_rejected,
    canonical_json,
    is_legal_text,
    kind_first_choice,
    random_actor,
)

GAMES_PER_CONFIG = 40
"""Playouts per (variant, players) in the default run: every configuration, 40 seeds each."""
GAMES_PER_CONFIG_LONG = 100
"""Playouts per (variant, players) with the ``slow`` twin: the seeds from 40 to 99 of every
configuration."""


def _check_all_legal_apply(game: Any) -> None:
    for seat in game.actors:
        for action in game.legal_actions(seat):
            copy = game.clone()
            copy.apply(seat, action)
            assert_conserved(copy)


def _check_views(game: Any) -> None:
    """Every view of the table (each seat with and without memory aid, spectators both ways)
    serialises and has exactly the shape the schema states."""
    views = [game.view(seat, memory=m) for seat in range(game.players) for m in (True, False)]
    views += [game.spectator_view(), game.spectator_view(memory=False)]
    for view in views:
        canonical_json(view)
        validate_view(view)


def _probe_illegal(game: Any, rng: Rng) -> None:
    actors = game.actors
    idle = [s for s in range(game.players) if s not in actors]
    for text in rng.sample(ILLEGAL_PROBES, 6):
        seat = actors[rng.below(len(actors))]
        if not is_legal_text(game, seat, text):
            assert_rejected(game, seat, text)
        if idle:
            assert_rejected(game, idle[rng.below(len(idle))], text)
    for bad_seat in (-1, game.players, "0", None, True):
        assert_rejected(game, bad_seat, "pass")
    assert_rejected(game, actors[0], 12)


def playout(name: str, players: int, seed: int) -> Any:
    """Play one seeded random game with every per-state check; return the finished game."""
    rng = Rng(seed * 7919 + players)
    options = {"target": None} if seed % 3 else None  # a third of the games are full matches
    game: Any = new_game(name, players=players, seed=seed, options=options)
    steps = 0
    while not game.over:
        assert game.actors, "a game that is not over must have someone to act"
        assert_conserved(game)
        if steps % 5 == 0:
            _check_views(game)
            _check_all_legal_apply(game)
        if steps % 11 == 0:
            _probe_illegal(game, rng)
        seat = random_actor(game, rng)
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} is an actor with no legal action"
        text = kind_first_choice(game, seat, rng) if rng.random() < 0.7 else str(rng.pick(legal))
        events = game.play(seat, text)
        for event in events:
            canonical_json(event.for_seat(seat))
            validate_event(event.for_seat(seat))
        steps += 1
        assert steps < 20_000, "a game must end"
    assert_conserved(game)
    assert game.result is not None
    assert game.actors == []
    for seat in range(players):
        assert game.legal_actions(seat) == []
        validate_event(game.history(seat)[-1])
    _check_views(game)
    with pytest.raises(IllegalAction, match="over"):
        game.play(0, "pass")
    return game


@pytest.mark.parametrize(("name", "players"), ALL_CONFIGS)
def test_random_playouts(name: str, players: int) -> None:
    """Random games finish, conserve cards, serialise, reject bad input and replay exactly."""
    _playouts(name, players, range(GAMES_PER_CONFIG))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), ALL_CONFIGS)
def test_random_playouts_long(name: str, players: int) -> None:
    """The longer twin of :func:`test_random_playouts`: the seeds after the default run's."""
    _playouts(name, players, range(GAMES_PER_CONFIG, GAMES_PER_CONFIG_LONG))


def _playouts(name: str, players: int, seeds: range) -> None:
    """Play and check a random game of ``name`` for each seed (:func:`playout`), then replay
    it from its log and check the result."""
    finished = 0
    for seed in seeds:
        game = playout(name, players, seed)
        again: Any = replay(game.log)
        assert again._dump() == game._dump()
        assert canonical_json(again.view(0)) == canonical_json(game.view(0))
        assert again.result == game.result
        result = game.result
        assert len(result.totals) == players
        assert result.winners and all(0 <= w < players for w in result.winners)
        assert min(result.totals) == min(result.totals[w] for w in result.winners)
        finished += 1
    assert finished == len(seeds)


@pytest.mark.parametrize(("name", "players"), ALL_CONFIGS[::3])
def test_same_seed_same_game(name: str, players: int) -> None:
    """Same seed, options and actions give the same game; another seed deals differently."""
    a: Any = new_game(name, players=players, seed=5)
    b: Any = new_game(name, players=players, seed=5)
    c: Any = new_game(name, players=players, seed=6)
    assert a._dump() == b._dump()
    assert a.hands != c.hands or a.deck != c.deck


@pytest.mark.parametrize("name", ["cabo", "gabo", "qute"])
def test_a_view_of_another_shape_is_refused(name: str) -> None:
    """The schema is exact: an unknown key, a missing key or a value of another type fails."""
    game: Any = new_game(name, players=3, seed=2, options={"target": None})
    view = game.view(0)
    validate_view(view)
    validate_view(game.spectator_view(memory=False))
    wrong: list[dict[str, Any]] = [
        {**view, "secret": 1},  # an unknown key
        {k: v for k, v in view.items() if k != "legal"},  # a missing one
        {**view, "turn": "0"},  # a string for an int
        {**view, "turn": True},  # a bool for an int (strict)
        {**view, "over": 1},  # an int for a bool (strict)
        {**view, "actors": tuple(view["actors"])},  # a tuple for a list (strict)
        {**view, "phase": "dance"},  # not a phase
        {**view, "hands": [[{"card": 7}] for _ in view["hands"]]},  # a card is a code
        {**view, "events": [{**view["events"][-1], "peeked": "5H"}]},  # an event's extra key
        {**view, "events": [{"seq": 1, "type": "teleport", "seat": 0}]},  # no such event
        {**view, "round_results": [{"round": 1}]},  # an incomplete round result
        {**view, "game": "qute" if name != "qute" else "cabo"},  # the other game's shape
    ]
    for bad in wrong:
        with pytest.raises(ValidationError):
            validate_view(bad)
    with pytest.raises(ValidationError):
        validate_view(None)
    with pytest.raises(ValidationError):
        validate_event({"seq": 1, "type": "turn", "seat": 0, "card": "5H"})
