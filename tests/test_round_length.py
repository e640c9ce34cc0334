"""Every round ends, under any policy, within a bound derived from the rules.

The bound is counted in actions (every ``play`` call, peeks, snaps and decisions included)
from the start of a round to its end. Let ``n`` be the number of seats and ``T`` the
``max_turns`` option; the Cabo family's safety net is ``C = T * n`` "ticks", where a tick is a
completed turn, a cabo-german drop or a gabo snap (docs/decisions.md).

Cabo family
    * Initial peek: ``2n`` actions (kaboo: none, its peek is automatic).
    * Without a call, the tick that reaches ``C`` ends the round: at most ``C`` ticks. A call is
      only possible at the start of a turn, so with fewer than ``C`` ticks; after it the caller's
      turn and the ``n - 1`` final turns add ``n`` ticks, and a drop or snap that finds the count
      at ``C`` or more ends the round at once: at most ``C + n`` ticks (gabo's call ends the
      round at once: at most ``C``).
    * A turn is a call (1 action) or ``draw`` + ``replace``/``discard`` + a power: ``peek``,
      ``spy`` and ``exchange`` take one action, a queen's ``look`` then ``exchange``/``pass``
      two. So a turn takes at most 3 actions in cabo and gabo (no look), 4 in kaboo and
      cabo-german, plus its tick.
    * cabo-german: a drop is one action and one tick, followed by at most one ``give``/``pass``.
    * gabo: each turn opens one snap window; a seat leaves it by ``pass`` or by a wrong snap
      (which is a tick), so a window adds at most ``n`` passes besides its snaps (ticks).

    cabo ``2n + 3(C + n)``; kaboo ``4(C + n)``; cabo-german ``2n + 4(C + n)``;
    gabo ``2n + (3 + n) C``.

Qute
    ``T`` turns at most (the safety net counts turns of all seats). Within one turn:

    * Lemma 1: the blind is refilled at most 3 times in a turn: at most once by the turn's
      first ``draw``, and at most twice while covering 6s. Proof sketch. While covering, a seat
      draws only when nothing in its hand fits (no 6, no J, no card of the top 6's suit), and a
      drawn card that fits is played at once, so the seat never holds a 6 or a J it drew. Let
      ``f`` be the first 6 laid in the turn and ``t`` the card under it. (a) ``t`` is a J: it is
      in the first refill's blind, and when drawn it must be played, which covers: no second
      refill. (b) ``t`` is neither a 6 nor a J: ``f`` fitted it by suit ``a``, and ``f`` is the
      only 6 of suit ``a``. ``t`` is drawn before a second refill; if not played at once the
      seat keeps it. At a second refill ``f`` cannot be the top (the seat, holding ``t``,
      would not be drawing), so ``f`` is in that blind; once drawn it is played and must be
      covered by a fitting card the seat holds, all of which are non-6 (``t`` among them): no
      third refill. (c) ``f`` was laid on an empty stack (the round's first card): a second
      refill would repeat the first for ever with the same hand, which needs the seat to lack
      the suits of ``k >= 2`` sixes while holding every non-6 card it drew; counting cards
      (5 in hand, a blind of at least 16) gives ``21 - k <= 7(4 - k)``, impossible.
    * Draws: at most 36 from the blind per refill interval, plus one empty draw: ``4*36 + 1``.
    * Plays: the first play, then covers; every cover but the last lays only 6s, and a 6 is
      laid at most once between two refills: at most ``2 + 4*4 = 18`` plays.
    * Decisions: at most two per play (``qute``/``continue``, ``suit``) and two per turn
      (``eights``, ``jpoints``).

    So a turn takes at most ``145 + 18 + 2*18 + 2 = 201`` actions: qute ``201 T``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import new_game, variants
from cardtable.notation import Action

from .helpers import ALL_CONFIGS

pytestmark = pytest.mark.slow  # whole games by the hundred

QUTE_TURN = 4 * 36 + 1 + 18 + 2 * 18 + 2
"""Most actions one qute turn can take (see the module's derivation)."""


def round_bound(name: str, players: int, max_turns: int) -> int:
    """The most actions a round of ``name`` can take (derived in this module's docstring)."""
    n = players
    c = max_turns * n
    bounds: dict[str, int] = {
        "cabo": 2 * n + 3 * (c + n),
        "kaboo": 4 * (c + n),
        "cabo-german": 2 * n + 4 * (c + n),
        "gabo": 2 * n + (3 + n) * c,
        "qute": QUTE_TURN * max_turns,
    }
    return bounds[name]


Policy = Callable[[list[Action], random.Random], Action]

CALLS = {"cabo", "gabo", "knock", "qute"}


def _never_call(legal: list[Action], rng: random.Random) -> Action:
    """Random, but never a call or a qute while something else is possible: long rounds."""
    rest = [a for a in legal if a.name not in CALLS]
    return rng.choice(rest or legal)


POLICIES: dict[str, Policy] = {
    "first": lambda legal, rng: legal[0],
    "last": lambda legal, rng: legal[-1],
    "random": lambda legal, rng: rng.choice(legal),
    "never-call": _never_call,
}


def round_lengths(
    game: Any, choose: Callable[[int, list[Action]], Action], bound: int
) -> list[int]:
    """Play ``game`` to its end with ``choose(actor, legal)``; the actions of each round.

    Fails as soon as a round takes more than ``bound`` actions (an endless round fails fast).
    """
    lengths = [0]
    rounds = game.view(0)["round"]
    while not game.over:
        actor = game.actors[0]
        game.play(actor, choose(actor, game.legal_actions(actor)))
        lengths[-1] += 1
        now = game.view(0)["round"]
        if now != rounds:
            rounds = now
            lengths.append(0)
        assert lengths[-1] <= bound, f"a round of {game.variant} went past {bound} actions"
    return lengths


def _configs() -> list[tuple[str, int]]:
    """The smallest and largest seat count of every variant (all counts are in the sweep)."""
    out = []
    for name in variants.names():
        v = variants.get(name)
        out += [(name, v.min_players)] + ([(name, v.max_players)] if v.max_players > 2 else [])
    return out


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize(("name", "players"), _configs())
def test_rounds_end_within_the_bound(name: str, players: int, policy: str) -> None:
    """Adversarial policies over whole matches, with the default and tiny ``max_turns``."""
    pick = POLICIES[policy]
    for max_turns in (1, 2, 5, variants.get(name).resolve_options({})["max_turns"]):
        bound = round_bound(name, players, max_turns)
        for seed in range(3):
            rng = random.Random(seed)
            target = None if max_turns > 5 else 150  # tiny rounds: play whole matches
            options = {"target": target, "max_turns": max_turns}
            game = new_game(name, players=players, seed=seed, options=options)
            lengths = round_lengths(game, lambda _s, legal, r=rng: pick(legal, r), bound)
            assert game.over
            assert len(lengths) >= 1 and all(k > 0 for k in lengths[:-1])


@pytest.mark.parametrize(("name", "players"), ALL_CONFIGS)
def test_every_seat_count_ends_under_first_and_last(name: str, players: int) -> None:
    """Every seat count the registry allows, with the two deterministic adversaries."""
    bound = round_bound(name, players, 3)
    rng = random.Random(players)
    for policy in ("first", "last"):
        game = new_game(name, players=players, seed=players, options={"max_turns": 3})
        pick = POLICIES[policy]
        round_lengths(game, lambda _s, legal, p=pick: p(legal, rng), bound)
        assert game.over


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(data=st.data())
def test_hypothesis_chosen_actions_end_every_round(data: st.DataObject) -> None:
    """Hypothesis picks the variant, the table and every action (and shrinks a failure)."""
    name, players = data.draw(st.sampled_from(ALL_CONFIGS), label="config")
    max_turns = data.draw(st.integers(1, 4), label="max_turns")
    seed = data.draw(st.integers(0, 2**16), label="seed")
    game = new_game(
        name, players=players, seed=seed, options={"target": None, "max_turns": max_turns}
    )
    indexes = st.integers(0, 10**6)

    def choose(_seat: int, legal: list[Action]) -> Action:
        return legal[data.draw(indexes) % len(legal)]

    lengths = round_lengths(game, choose, round_bound(name, players, max_turns))
    assert game.over and len(lengths) == 1
