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
from cardtable.games.qute.engine import breaks
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
    past = canonical_json(game.history(seat))
    world: Any = game.determinize(seat, rng)
    assert canonical_json(world.view(seat)) == before
    assert canonical_json(world.history(seat)) == past, "the history tells the deals apart"
    assert canonical_json(game.view(seat)) == before, "determinize changed the real game"
    assert_conserved(world)
    assert cards_in_play(world) == cards_in_play(game)
    # What the seat knows stays exactly where it is.
    if game.variant == "qute":
        assert world.hands[seat] == game.hands[seat]
        assert world.stack == game.stack
        for s in range(game.players):
            for c, cons in zip(world.hands[s], world.cons[s], strict=True):
                assert not any(breaks(c, con) for con in cons), "an inference was ignored"
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
                told = {x for x in strings_in(game.history(s)) if x in codes}
                assert told <= ever[s], f"seat {s}'s history names {told - ever[s]}"
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
            choice = kind_first_choice(game, seat, rng)
            if choice == "gabo":  # nobody calls, so that the deck runs out
                choice = "draw deck"
            game.play(seat, choice)
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


# ---------------------------------------------------------------------------- memory-less views
MEMORYLESS_GAMES = 8


def _masked(view: dict[str, Any]) -> dict[str, Any]:
    """A view with every hand card's code and every event removed (what memory changes)."""
    out = dict(view)
    out["hands"] = [
        [None if c is None else {**c, "card": None} for c in hand] for hand in view["hands"]
    ]
    out.pop("events")
    return out


def _check_memoryless(game: Any, seat: int, allowed: set[str]) -> None:
    """``view(seat, memory=False)`` holds no more than ``view(seat)`` and no face-down code.

    ``allowed``: codes the seat may still see face down (gabo: its initial peek before its
    first draw), tracked by the test from the actions played, not read from the engine.
    """
    full = game.view(seat)
    bare = game.view(seat, memory=False)
    if game.variant == "qute":  # hands are face up to their owners: nothing to remember
        assert bare == full
        return
    codes = set(game.codes)
    # Never more than the full view: same fields, and each value the same or removed.
    assert _masked(bare) == _masked(full)
    assert len(bare["events"]) == len(full["events"])
    for b, f in zip(bare["events"], full["events"], strict=True):
        assert b == {k: f[k] for k in b}, "a memory-less event differs from the full one"
    shown = Counter(x for x in strings_in(bare) if x in codes)
    assert not shown - Counter(x for x in strings_in(full) if x in codes)
    for bh, fh in zip(bare["hands"], full["hands"], strict=True):
        for b, f in zip(bh, fh, strict=True):
            if b is not None and b["card"] is not None:
                assert b["card"] == f["card"]
    if full["phase"] == "over":
        return
    # During play: no face-down code at all, but gabo's initial-peek cards before the first draw
    # and cabo's face-up cards (which everyone, spectators included, sees).
    public = game.spectator_view(memory=False)
    for s, hand in enumerate(bare["hands"]):
        for pos, cell in enumerate(hand):
            if cell is not None and cell.get("face_up"):
                assert game.variant == "cabo", f"a face-up card in a {game.variant} hand"
                assert public["hands"][s][pos]["card"] == cell["card"] is not None
            elif cell is not None and cell["card"] is not None:
                assert s == seat and cell["card"] in allowed, (
                    f"seat {seat} sees face-down {cell['card']} at seat {s} without memory aid"
                )
    # Events name only cards the whole table saw: each code a memory-less event names, every
    # other seat and the spectators read in the same event too.
    others = [game.view(o)["events"] for o in range(game.players) if o != seat]
    others.append(game.spectator_view()["events"])
    for i, event in enumerate(bare["events"]):
        if event["type"] not in ("round_end", "game_over"):
            named = Counter(x for x in strings_in(event) if x in codes)
            for seen in others:
                assert not named - Counter(x for x in strings_in(seen[i]) if x in codes), (
                    f"a memory-less event names {named}, not public"
                )


@pytest.mark.parametrize(("name", "players"), ALL_CONFIGS)
def test_memoryless_views_hide_every_face_down_card(name: str, players: int) -> None:
    """Memory-less views (RULES.md, Memory) over random games of every configuration: no more
    than the full view, no face-down code during play, and unchanged by a re-deal."""
    checked = 0
    for seed in range(MEMORYLESS_GAMES):
        rng = Rng(seed + 77 * players)
        drng = random.Random(seed)
        game: Any = new_game(name, players=players, seed=seed, options={"target": None})
        allowed: list[set[str]] = [set() for _ in range(players)]
        step = 0
        while not game.over:
            for seat in range(players):
                _check_memoryless(game, seat, allowed[seat])
                if step % 4 == 0:
                    bare = canonical_json(game.view(seat, memory=False))
                    world: Any = game.determinize(seat, drng)
                    assert canonical_json(world.view(seat, memory=False)) == bare
                    checked += 1
            seat = random_actor(game, rng)
            action = kind_first_choice(game, seat, rng)
            phase = game.view(seat)["phase"]
            game.play(seat, action)
            if name == "gabo":
                if phase == "peek":  # seed 003: the peeked cards stay visible to it ...
                    pos = int(action.split()[1])
                    allowed[seat].add(game.view(seat)["hands"][seat][pos]["card"])
                elif action.startswith("draw"):  # ... until its first draw
                    allowed[seat] = set()
            step += 1
        for seat in range(players):
            _check_memoryless(game, seat, allowed[seat])
            assert game.view(seat, memory=False) == game.view(seat)  # the reveal
    assert checked >= MEMORYLESS_GAMES


@pytest.mark.parametrize("name", ["cabo", "cabo-german", "gabo", "kaboo"])
def test_memoryless_spectator_sees_only_what_is_face_up(name: str) -> None:
    """A spectator without memory aid sees no hand card until the reveal but cabo's face-up
    ones (RULES.md, cabo: a card taken from the discard pile, a failed claim's cards)."""
    game: Any = new_game(name, players=3, seed=5, options={"target": None})
    rng = Rng(5)
    face_up = 0
    while not game.over:
        view = game.spectator_view(memory=False)
        for h in view["hands"]:
            for c in h:
                if c is not None and c.get("face_up"):
                    assert name == "cabo" and c["card"] is not None
                    face_up += 1
                else:
                    assert c is None or c["card"] is None
        assert _masked(view) == _masked(game.spectator_view())
        seat = random_actor(game, rng)
        game.play(seat, kind_first_choice(game, seat, rng))
    assert game.spectator_view(memory=False) == game.spectator_view()
    assert (face_up > 0) == (name == "cabo")
