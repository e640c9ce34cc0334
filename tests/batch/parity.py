"""Play the same deals in the batched engine and the reference engine, action by action, and
count every difference: the actor, the legal mask, every seat's observation (with and without
memory aid), and at each round's end the round scores, the totals and the winners."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardtable import new_game
from cardtable.batch import FamilyBatch
from cardtable.batch.observe import observe
from cardtable.game import Game
from cardtable.rng import Rng


@dataclass
class Tally:
    """What a parity run compared and what differed (a difference is never tolerated)."""

    actions: int = 0
    rounds: int = 0
    games: int = 0
    positions: int = 0
    """Positions per hand the batch ended up keeping (it grows them as hands grow)."""
    differences: list[str] = field(default_factory=list)

    def differ(self, what: str) -> None:
        """Note one difference (the first few are kept with their place)."""
        if len(self.differences) < 20:
            self.differences.append(what)


Chooser = Callable[[Game, int, np.ndarray, np.random.Generator], int]
"""Picks the integer action of the reference game's actor (given the batch's legal row)."""


def random_choice(game: Game, seat: int, legal: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal integer."""
    return int(rng.choice(np.nonzero(legal)[0]))


def heuristic_choice(game: Game, seat: int, legal: np.ndarray, rng: np.random.Generator) -> int:
    """The rules of thumb's move in the reference game (a random legal integer where that move
    names a position beyond the encoding's cap, which has no integer)."""
    action = game.rule_of_thumb(seat, Rng(int(rng.integers(2**31))))  # type: ignore[attr-defined]
    from cardtable.encoding import encoding

    code = encoding(game.variant, game.players).encode(seat, action)
    return random_choice(game, seat, legal, rng) if code is None else code


def play(
    variant: str,
    players: int,
    games: int,
    steps: int,
    choose: Chooser = random_choice,
    seed: int = 0,
    every_seat: bool = True,
    reseed: bool = True,
    observe_every: int = 1,
) -> Tally:
    """Play ``steps`` steps of ``games`` games in both engines and compare everything: the
    actor, the legal mask and the complete state (hidden cards included) before every action,
    every seat's observations before every ``observe_every``-th step, and every round's and
    game's end."""
    batch = FamilyBatch(variant, players, games, seed=seed, reseed=reseed)
    enc = batch.encoding
    refs = [new_game(variant, players=players, seed=int(s)) for s in batch.seeds]
    rng = np.random.default_rng(seed)
    tally = Tally()
    n = players
    for t in range(steps):
        mask = batch.legal_mask()
        actor = batch.actor
        seats = range(n) if every_seat else [None]
        for i, g in enumerate(refs):
            mine = batch.state_of(i)
            for name, value in mine.items():
                if _reference_field(g, name) != value:
                    tally.differ(f"step {t}, game {i}: state {name}")
        for memory in (True, False) if t % observe_every == 0 else ():
            for seat in seats:
                who = actor if seat is None else np.full(games, seat)
                obs = observe(batch, who, memory=memory)
                for i, g in enumerate(refs):
                    want = enc.observe(g.view(int(who[i]), memory=memory))
                    if not np.array_equal(want, obs[i]):
                        tally.differ(f"step {t}, game {i}: observation of seat {who[i]}")
        actions = np.zeros(games, dtype=np.int64)
        for i, g in enumerate(refs):
            p = g.actors[0]
            if p != actor[i]:
                tally.differ(f"step {t}, game {i}: actor {actor[i]}, reference {p}")
                continue
            if enc.legal(g, p) != np.nonzero(mask[i])[0].tolist():
                tally.differ(f"step {t}, game {i}: legal mask")
            actions[i] = choose(g, p, mask[i], rng)
            g.apply(p, enc.decode(p, int(actions[i])))
        if tally.differences:
            return tally
        result = batch.step(actions)
        tally.actions += games
        for i, g in enumerate(refs):
            if result.round_ended[i]:
                tally.rounds += 1
                finished = g.result.rounds if g.over else g.rounds  # type: ignore[attr-defined]
                if result.round_scores[i].tolist() != list(finished[-1]):
                    tally.differ(f"step {t}, game {i}: round scores")
                won = np.nonzero(result.round_winners[i])[0].tolist()
                if won != sorted(g.round_winners[-1]):  # type: ignore[attr-defined]
                    tally.differ(f"step {t}, game {i}: round winners")
            if bool(result.done[i]) != g.over:
                tally.differ(f"step {t}, game {i}: over {g.over}, batch {result.done[i]}")
                continue
            if g.over:
                tally.games += 1
                r = g.result
                assert r is not None
                if result.totals[i].tolist() != r.totals:
                    tally.differ(f"step {t}, game {i}: totals")
                if np.nonzero(result.winners[i])[0].tolist() != sorted(r.winners):
                    tally.differ(f"step {t}, game {i}: winners")
                if reseed:
                    refs[i] = new_game(variant, players=players, seed=int(batch.seeds[i]))
                else:
                    refs[i] = _continued(variant, players, g)
        tally.positions = batch.P
        if tally.differences:
            return tally
    return tally


def _reference_field(game: Game, name: str) -> object:
    """A field of the reference game as :meth:`FamilyBatch.state_of` gives it."""
    g: Any = game
    if name in ("hands", "known"):
        hands = [list(h) for h in g.hands]
        rows = [list(r) for r in getattr(g, name)]
        for s, hand in enumerate(hands):
            while hand and hand[-1] < 0:
                hand.pop()
            del rows[s][len(hand) :]
        return rows
    if name == "first_look":
        return [sorted(cards) for cards in g.first_look]
    if name in ("deck", "discard", "peeks_left", "totals"):
        return list(getattr(g, name))
    if name == "looked":
        return tuple(g.looked) if g.looked is not None else None
    if name == "give_to":
        return tuple(g.give_to) if g.give_to is not None else None
    value = getattr(g, name)
    return bool(value) if name == "look_valid" else int(value)


def _continued(variant: str, players: int, before: Game) -> Game:
    """The reference game that goes on drawing from ``before``'s generator (what a batch slot
    without reseeding plays next)."""
    import cardtable.game as game_module

    carried = before.random
    original = game_module.Rng
    game_module.Rng = lambda seed: carried  # type: ignore[assignment,misc,return-value]
    try:
        return new_game(variant, players=players, seed=0)
    finally:
        game_module.Rng = original  # type: ignore[misc]
