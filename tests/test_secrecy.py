"""Secrecy: no view reveals a card its seat may not know, in any variant.

* Re-deal everything a seat does not know (``determinize``): its view must not change by a
  single byte, and the re-dealt game must be a legal, card-conserving game that plays on.
* Every card code in a seat's view (events included) is one that seat knows or has known.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardtable import new_game
from cardtable.games.qute.engine import _breaks
from cardtable.rng import Rng

from .helpers import (
    ALL_CONFIGS,
    assert_conserved,
    canonical_json,
    cards_in_play,
    kind_first_choice,
    known_codes,
    random_actor,
    strings_in,
)

GAMES_PER_CONFIG = 25


def _check_determinize(game: Any, seat: int, rng: random.Random) -> None:
    before = canonical_json(game.view(seat))
    world: Any = game.determinize(seat, rng)
    assert canonical_json(world.view(seat)) == before
    assert canonical_json(game.view(seat)) == before, "determinize changed the real game"
    assert_conserved(world)
    assert cards_in_play(world) == cards_in_play(game)
    # What the seat knows stays exactly where it is.
    if game.variant == "qute":
        assert world.hands[seat] == game.hands[seat]
        assert world.stack == game.stack
        for s in range(game.players):
            for c, cons in zip(world.hands[s], world.cons[s], strict=True):
                assert not any(_breaks(c, con) for con in cons), "an inference was ignored"
    else:
        bit = 1 << seat
        for s in range(game.players):
            for i, (c, k) in enumerate(zip(game.hands[s], game.known[s], strict=True)):
                if c >= 0 and k & bit:
                    assert world.hands[s][i] == c
        assert world.discard == game.discard
    # The re-dealt world is a real game: it plays on with legal actions.
    wrng = Rng(rng.randrange(1 << 30))
    for _ in range(5):
        if world.over:
            break
        actor = random_actor(world, wrng)
        world.play(actor, kind_first_choice(world, actor, wrng))
        assert_conserved(world)
    try:
        _ = world.log
    except ValueError:
        pass
    else:  # pragma: no cover - a failure path
        raise AssertionError("a determinized game must not carry the true game's log")


def _ever_known_update(game: Any, ever: list[set[str]]) -> None:
    for seat in range(game.players):
        ever[seat] |= known_codes(game, seat)
    for info in game.round_results:
        for hand in info["hands"]:
            for code in hand:
                if code is not None:
                    for s in ever:
                        s.add(code)


@pytest.mark.parametrize(("name", "players"), ALL_CONFIGS)
def test_views_survive_redeal(name: str, players: int) -> None:
    """Determinize every seat at many random states: views stay byte-identical."""
    checked = 0
    for seed in range(GAMES_PER_CONFIG):
        rng = Rng(seed + 1000 * players)
        drng = random.Random(seed)
        game: Any = new_game(name, players=players, seed=seed, options={"target": None})
        ever: list[set[str]] = [set() for _ in range(players)]
        codes = set(game.codes)
        _ever_known_update(game, ever)
        step = 0
        while not game.over:
            if step % 3 == 0:
                for seat in range(players):
                    _check_determinize(game, seat, drng)
                    checked += 1
            epoch = game.epoch
            seat = random_actor(game, rng)
            game.play(seat, kind_first_choice(game, seat, rng))
            if game.epoch != epoch:
                # a reshuffle within the action: those cards had all been face up
                pile = game.blind if game.variant == "qute" else game.deck
                public = Counter(game.codes[c] for c in pile)
                for s in ever:
                    s |= set(public)
                for hand, tags in zip(game.hands, game.tags, strict=True):
                    for c, t in zip(hand, tags, strict=True):
                        if c >= 0 and t == game.epoch:
                            for s in ever:
                                s.add(game.codes[c])
            _ever_known_update(game, ever)
            for s in range(players):
                shown = {x for x in strings_in(game.view(s)) if x in codes}
                assert shown <= ever[s], f"seat {s} sees {shown - ever[s]} it never knew"
            public_shown = {x for x in strings_in(game.spectator_view()) if x in codes}
            assert public_shown <= set().union(*ever)
            step += 1
    assert checked > GAMES_PER_CONFIG


@pytest.mark.parametrize("name", ["cabo", "cabo-german", "gabo", "kaboo"])
def test_spectator_sees_only_face_up_cards(name: str) -> None:
    """A spectator view names no card that is face down, even one every seat has seen."""
    game: Any = new_game(name, players=2, seed=3, options={"target": None})
    rng = Rng(3)
    while not game.over:
        view = game.spectator_view()
        for s, hand in enumerate(view["hands"]):
            for i, pos in enumerate(hand):
                if pos is not None and pos["card"] is not None:
                    assert game.known[s][i] >> game.players & 1
        assert view["legal"] == []
        seat = random_actor(game, rng)
        game.play(seat, kind_first_choice(game, seat, rng))


def test_determinize_respects_reshuffled_deck() -> None:
    """After a reshuffle the deck holds exactly the public reshuffled cards in every world."""
    rng = Rng(11)
    for seed in range(40):
        game: Any = new_game("gabo", players=2, seed=seed, options={"target": None})
        while not game.over and game.epoch == 0:
            seat = random_actor(game, rng)
            game.play(seat, kind_first_choice(game, seat, rng))
        if game.over:
            continue
        # advance a little so some reshuffled cards sit in hands, face down
        for _ in range(6):
            if game.over:
                break
            seat = random_actor(game, rng)
            game.play(seat, kind_first_choice(game, seat, rng))
        if game.over or game.epoch == 0:
            continue
        pool = Counter(game.deck) + Counter(
            c
            for hand, tags in zip(game.hands, game.tags, strict=True)
            for c, t in zip(hand, tags, strict=True)
            if c >= 0 and t == game.epoch
        )
        if game.drawn >= 0 and game.drawn_tag == game.epoch:
            pool[game.drawn] += 1
        for seat in range(2):
            for k in range(20):
                world: Any = game.determinize(seat, random.Random(k))
                assert not Counter(world.deck) - pool, "a card from outside the reshuffle"
                assert len(world.deck) == len(game.deck)
        return
    raise AssertionError("no reshuffle happened in 40 random gabo games")
