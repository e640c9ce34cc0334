"""Hypothesis state machine: random legal and illegal actions against every variant."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from cardtable import IllegalAction, new_game, replay, variants

from ..helpers import (
    ALL_CONFIGS,
    ILLEGAL_PROBES,
    assert_conserved,
    assert_rejected,
    canonical_json,
    is_legal_text,
)

pytestmark = pytest.mark.slow  # whole games by the hundred

WORDS = st.sampled_from(
    [
        *("draw", "replace", "discard", "peek", "spy", "exchange", "look", "drop", "give"),
        *("pass", "cabo", "gabo", "knock", "deck", "play", "suit", "0", "1.0", "3", "2.3"),
    ]
)
TEXTS = st.one_of(
    st.sampled_from(ILLEGAL_PROBES),
    st.lists(WORDS, min_size=1, max_size=4).map(" ".join),
    st.text(max_size=30),
)


class FamilyMachine(RuleBasedStateMachine):
    """Drives one game with hypothesis-chosen legal moves, illegal texts and wrong seats."""

    game: Any

    @initialize(
        config=st.sampled_from(ALL_CONFIGS), seed=st.integers(0, 2**20), match=st.booleans()
    )
    def start(self, config: tuple[str, int], seed: int, match: bool) -> None:
        """Start a game of a random variant and player count."""
        name, players = config
        options = None if match else {"target": None}
        self.game = new_game(name, players=players, seed=seed, options=options)

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def play_legal(self, data: st.DataObject) -> None:
        """Play any legal action of any actor."""
        seat = data.draw(st.sampled_from(self.game.actors))
        action = data.draw(st.sampled_from(self.game.legal_actions(seat)))
        self.game.play(seat, str(action))

    @rule(text=TEXTS, data=st.data())
    def play_text(self, text: str, data: st.DataObject) -> None:
        """Arbitrary text: either it is legal and applies, or it is refused and nothing moves."""
        seat = data.draw(st.integers(-1, self.game.players))
        game = self.game
        if (
            0 <= seat < game.players
            and not game.over
            and seat in game.actors
            and is_legal_text(game, seat, text)
        ):
            game.play(seat, text)
            return
        assert_rejected(self.game, seat, text)

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def wrong_seat(self, data: st.DataObject) -> None:
        """A seat that may not act is refused, whatever it sends."""
        idle = [s for s in range(self.game.players) if s not in self.game.actors]
        if not idle:
            return
        seat = data.draw(st.sampled_from(idle))
        actor = self.game.actors[0]
        for action in self.game.legal_actions(actor)[:3]:
            assert_rejected(self.game, seat, str(action))

    @invariant()
    def consistent(self) -> None:
        """Cards are conserved; views serialise; an unfinished game has actors."""
        assert_conserved(self.game)
        canonical_json(self.game.view(0))
        canonical_json(self.game.spectator_view())
        assert bool(self.game.actors) != self.game.over

    def teardown(self) -> None:
        """The log replays to the identical game."""
        if hasattr(self, "game"):
            assert replay(self.game.log)._dump() == self.game._dump()


FamilyMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestFamilyMachine = FamilyMachine.TestCase


def test_every_variant_is_reachable() -> None:
    """The machine's configurations cover every registered variant."""
    assert {name for name, _ in ALL_CONFIGS} == set(variants.names())
    assert issubclass(IllegalAction, ValueError)
