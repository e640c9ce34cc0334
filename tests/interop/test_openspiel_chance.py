"""The OpenSpiel adapter's chance as state: how many times an action runs, and that every
chance node offers exactly the cards the pile holds at that moment."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np
import pyspiel
import pytest

from cardtable.games.family.engine import FamilyGame
from cardtable.games.qute.engine import QuteGame
from cardtable.interop import openspiel as cos
from cardtable.interop.openspiel import engines
from cardtable.notation import parse

from .test_openspiel import KABOO_DEAL, _act, _deal, _gabo_wrong_snap, _load


class _Runs:
    """Counts the engine runs of the adapter: constructions (deals) and played actions."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.deals = 0
        self.actions = 0
        for cls in (FamilyGame, QuteGame):
            monkeypatch.setattr(cls, "__init__", self._counting(cls.__init__, "deals"))
        monkeypatch.setattr(engines, "run", self._counting(engines.run, "actions"))

    def _counting(self, fn: Callable[..., Any], what: str) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            setattr(self, what, getattr(self, what) + 1)
            return fn(*args, **kwargs)

        return counted


# ----------------------------------------------------------------------------- engine runs
@pytest.mark.parametrize(("variant", "cards"), [("cabo", 17), ("kaboo", 16), ("qute", 20)])
def test_a_deal_runs_the_construction_twice(
    monkeypatch: pytest.MonkeyPatch, variant: str, cards: int
) -> None:
    """Once to learn which cards the deal takes, once with the cards chance chose."""
    runs = _Runs(monkeypatch)
    # max_moves only makes the spec a new one (its state before the deal is cached)
    game = _load(variant, players=4, max_moves=54_321)
    state = game.new_initial_state()
    if variant == "kaboo":
        assert runs.deals == 0, "kaboo first draws the first seat"
        state.apply_action(0)
    nodes = 0
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[nodes % 7][0])
        nodes += 1
    assert nodes == cards
    assert runs.deals == 2 and runs.actions == 0


def test_a_draw_runs_the_action_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _load("kaboo").new_initial_state()
    state.apply_action(0)
    _deal(state, KABOO_DEAL)
    runs = _Runs(monkeypatch)
    _act(state, "draw deck")
    assert runs.actions == 1 and state.is_chance_node()
    state.apply_action(state.chance_outcomes()[0][0])
    assert runs.actions == 2 and not state.is_chance_node()
    _act(state, "discard")  # no card leaves the deck: one run, no chance node
    assert runs.actions == 3 and not state.is_chance_node()


def test_penalty_cards_run_the_action_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _Runs(monkeypatch)
    state = _gabo_wrong_snap()  # at the first of the two penalty cards
    before = runs.actions
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_chance_node() and runs.actions == before, "the second card was planned"
    state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_chance_node() and runs.actions == before + 1


# ----------------------------------------------------------------------------- outcomes
def test_deal_outcomes_are_the_cards_not_dealt_yet() -> None:
    game = _load("cabo", players=4)
    state = game.new_initial_state()
    remaining = list(range(52))
    rng = np.random.RandomState(3)
    for _ in range(17):
        assert state.is_chance_node()
        assert [a for a, _ in state.chance_outcomes()] == remaining
        card = remaining[rng.randint(len(remaining))]
        state.apply_action(card)
        remaining.remove(card)
    assert not state.is_chance_node()
    assert sorted(state.engine.deck) == remaining


class _PileSpy:
    """The pile each card chance chose was taken from, in the last run of the adapter."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.piles: list[tuple[int, ...]] = []
        init, take = engines.ChanceSource.__init__, engines.ChanceSource.take

        def spied_init(source: engines.ChanceSource, queue: tuple[int, ...]) -> None:
            self.piles = []  # a new run: the runs of the adapter follow one another
            init(source, queue)

        def spied_take(
            source: engines.ChanceSource, game: Any, pile: list[int], decisive: bool
        ) -> int:
            if source.pos < len(source.queue):
                self.piles.append(tuple(sorted(pile)))
                assert source.queue[source.pos] in pile
            return take(source, game, pile, decisive)

        monkeypatch.setattr(engines.ChanceSource, "__init__", spied_init)
        monkeypatch.setattr(engines.ChanceSource, "take", spied_take)


def _chance_then_decision(game: Any, seed: int, limit: int) -> Iterator[tuple[list[Any], Any]]:
    """A random playout as (the outcome lists of a run of chance nodes, the state after)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    offered: list[Any] = []
    for _ in range(limit):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            if not state.action_to_string(-1, outcomes[0]).startswith("first seat"):
                offered.append(outcomes)  # a card (kaboo first draws the first seat)
            state.apply_action(outcomes[rng.randint(len(outcomes))])
            if not state.is_chance_node():
                yield offered, state
                offered = []
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
            if not state.is_chance_node():
                yield [], state


@pytest.mark.parametrize(
    ("variant", "players"),
    [("cabo", 3), ("cabo-german", 2), ("gabo", 4), ("kaboo", 3), ("qute", 3), ("qute", 2)],
)
def test_every_chance_node_offers_the_pile_its_card_comes_from(
    monkeypatch: pytest.MonkeyPatch, variant: str, players: int
) -> None:
    """At every chance node the outcomes are the cards of the pile (deck, blind) as it is
    when the action, run with chance's choices, takes that card: reshuffles, refills, the
    deals of later rounds and penalty cards included."""
    spy = _PileSpy(monkeypatch)
    game = _load(variant, players=players, max_moves=999_999)  # a new spec: its deal is spied
    nodes = reshuffled = 0
    for seed in range(5):
        for offered, state in _chance_then_decision(game, seed, limit=3000):
            assert [list(p) for p in spy.piles] == offered
            nodes += len(offered)
            reshuffled = max(reshuffled, state.engine.epoch)
    assert nodes > 60
    if variant in ("gabo", "qute"):  # long enough matches to empty a deck (blind)
        assert reshuffled, "no deck was reshuffled (no blind refilled)"


# ----------------------------------------------------------------------------- qute
QUTE_HANDS = [["9H", "10H", "QH", "KH", "7H"], ["9C", "10C", "QC", "KC", "8D"]]


def _qute(actions: list[str], **fields: Any) -> Any:
    """Qute for two, a match, dealt ``QUTE_HANDS``, after ``actions``, with some of the
    engine's fields set (a lower turn cap, other totals) for the test."""
    game = _load("qute")
    state = game.new_initial_state()
    _deal(state, [QUTE_HANDS[s][i] for i in range(5) for s in range(2)])
    for text in actions:
        _act(state, text)
    n = state.node
    eng = n.eng.clone()
    for name, value in fields.items():
        setattr(eng, name, value)
    state.node = cos.Node.settled(n.spec, eng, n.first, n.moves)
    return state


def _qute_at_the_turn_cap() -> Any:
    """Seat 0 holds no club, no 9, no J on 9C and must draw, and its turn is the round's
    last (the turn cap lowered to 3 turns)."""
    state = _qute(["play 9H", "play 9C"], max_turns=3)
    assert state.current_player() == 0 and state.legal_actions() == [0]  # draw only
    return state


def test_a_qute_draw_that_does_not_fit_and_ends_the_round_deals_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The drawn card decides whether the turn goes on (a decisive take): only once chance
    chose it are the next round's cards asked for, one chance node each."""
    state = _qute_at_the_turn_cap()
    codes = state.get_game().spec.codes
    runs = _Runs(monkeypatch)
    _act(state, "draw")
    assert state.is_chance_node() and runs.actions == 1
    assert [a for a, _ in state.chance_outcomes()] == sorted(state.engine.blind)
    state.apply_action(codes.index("6S"))  # no club, not a 9, not a J: the turn is over
    assert runs.actions == 2
    assert state.is_chance_node(), "the turn cap ended the round: the next one is dealt"
    assert state.engine.round_no == 1  # the engine before the draw
    remaining = list(range(36))
    for _ in range(10):  # five cards each for two seats, a fresh deck
        assert state.is_chance_node()
        assert [a for a, _ in state.chance_outcomes()] == remaining
        assert state.pending_draws == 36 - len(remaining) + 1
        card = remaining[len(remaining) // 2]
        state.apply_action(card)
        remaining.remove(card)
    assert not state.is_chance_node() and runs.actions == 3
    eng = state.engine
    assert eng.round_no == 2 and sorted(eng.blind) == remaining
    assert eng.round_results[0]["hands"][0] == ["10H", "QH", "KH", "7H", "6S"]
    assert eng.totals == [30, 30] and state.current_player() == 0


def test_a_qute_draw_that_fits_is_one_chance_node(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _qute_at_the_turn_cap()
    codes = state.get_game().spec.codes
    runs = _Runs(monkeypatch)
    _act(state, "draw")
    state.apply_action(codes.index("AC"))  # a club: seat 0 plays it
    assert not state.is_chance_node() and runs.actions == 2
    assert state.engine.view(0)["drawn"] == "AC" and state.engine.round_no == 1
    assert "play AC" in [state.action_to_string(0, a) for a in state.legal_actions()]


@pytest.mark.parametrize(("card", "deal"), [("6S", True), ("AS", False)])
def test_a_seven_on_the_rounds_last_turn_draws_before_the_next_deal(
    monkeypatch: pytest.MonkeyPatch, card: str, deal: bool
) -> None:
    """A 7 on the round's last turn: the next seat's card is not decisive, but the round's
    scoring reads it, and whether the match goes on depends on it (seat 1 holds 30 points on
    a total of 95: 6S makes 125, reset to 0; AS makes 140, the match is over). The next
    round's cards are asked for only once chance chose it."""
    state = _qute([], max_turns=1, totals=[0, 95])
    codes = state.get_game().spec.codes
    runs = _Runs(monkeypatch)
    _act(state, "play 7H")
    assert state.is_chance_node() and runs.actions == 1
    assert [a for a, _ in state.chance_outcomes()] == sorted(state.engine.blind)
    state.apply_action(codes.index(card))
    assert runs.actions == 2
    if not deal:
        assert state.is_terminal() and state.engine.totals == [30, 140]
        return
    remaining = list(range(36))  # the next round's fresh deck
    for _ in range(10):
        assert state.is_chance_node()
        assert [a for a, _ in state.chance_outcomes()] == remaining
        state.apply_action(remaining.pop(0))
    assert not state.is_chance_node() and runs.actions == 3
    assert state.engine.round_no == 2 and state.engine.totals == [30, 0]


# ----------------------------------------------------------------------------- the source
def test_the_source_records_takes_up_to_the_first_decisive_one() -> None:
    source = engines.ChanceSource((5,))
    deck, other = [1, 5, 9, 3], [7, 8]
    game: Any = SimpleNamespace(round_no=1)
    assert source.take(game, deck, True) == 5  # chosen by chance: not recorded
    assert deck == [1, 9, 3] and source.plan == []
    assert source.take(game, deck, False) == 3  # past the queue: any card, recorded
    assert source.take(game, other, True) == 8  # decisive: the last one trusted
    assert source.take(game, deck, False) == 9  # after it: taken, not recorded
    assert source.plan == [
        engines.Take(0, (1, 3, 9), 3, False),
        engines.Take(1, (7, 8), 8, False),
    ]
    assert source.closed and deck == [1] and other == [7]


def test_the_source_stops_recording_at_a_new_round() -> None:
    """A round's scoring reads the cards taken before it ends: whether the next round is
    dealt at all may depend on them."""
    source = engines.ChanceSource(())
    game: Any = SimpleNamespace(round_no=1)
    assert source.take(game, [1, 2, 3], False) == 3
    game.round_no = 2
    assert source.take(game, [4, 5], False) == 5
    assert source.plan == [engines.Take(0, (1, 2, 3), 3, False)] and source.closed
    fresh = engines.ChanceSource(())  # a round begun before any recorded take is planned
    assert fresh.take(game, [4, 5], False) == 5 and fresh.plan and not fresh.closed


def test_outcomes_put_back_the_runs_cards_and_take_out_chances() -> None:
    # the run took 9 then 3 from a pile of 1 3 5 9; chance chose 3 for the first take
    plan = [engines.Take(0, (1, 3, 5, 9), 9, False), engines.Take(0, (1, 3, 5), 3, True)]
    assert engines.outcomes(plan, ()) == (1, 3, 5, 9)
    assert engines.outcomes(plan, (3,)) == (1, 5, 9)
    assert engines.outcomes(plan, (9,)) == (1, 3, 5)
    # the same from the outcomes of the take before (nothing else changed the pile)
    assert engines.outcomes(plan, (3,), (1, 3, 5, 9)) == (1, 5, 9)
    # another pile is not affected
    plan2 = [engines.Take(0, (1, 2), 2, False), engines.Take(1, (4, 6), 6, False)]
    assert engines.outcomes(plan2, (1,), (1, 2)) == (4, 6)
    # a card added to the pile between two takes (no engine does it): the general formula
    source = engines.ChanceSource(())
    game: Any = SimpleNamespace(round_no=1)
    pile = [1, 3, 5]
    source.take(game, pile, False)
    pile.append(7)
    source.take(game, pile, False)
    assert [take.follows for take in source.plan] == [False, False]
    assert engines.outcomes(source.plan, (1,), (1, 3, 5)) == (3, 5, 7)


def test_stored_engines_never_draw() -> None:
    state = _load("kaboo").new_initial_state()
    state.apply_action(0)
    _deal(state, KABOO_DEAL)
    eng = state.engine
    assert "draws" not in eng.__dict__
    with pytest.raises(RuntimeError, match="inside the adapter"):
        eng.clone().apply(0, parse("draw deck"))
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    assert "draws" not in world.engine.__dict__


def test_older_pickles_find_the_chance_engines_by_their_old_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The chance engines live in the rules layer now; the names older pickles give them
    (in ``engines`` and in the package, with and without the underscore) still find them."""
    kaboo = type(_load("kaboo").spec.build(0, ())[0])
    qute = type(_load("qute").spec.build(-1, ())[0])
    assert engines.ChanceFamily is engines._ChanceFamily is cos._ChanceFamily is kaboo
    assert engines.ChanceQute is engines._ChanceQute is cos._ChanceQute is qute
    eng = _load("kaboo").spec.build(0, ())[0]
    with monkeypatch.context() as m:  # pickled as the adapter named the class before
        m.setattr(kaboo, "__module__", "cardtable.interop.openspiel.engines")
        old = pickle.dumps(eng)
    assert b"cardtable.interop.openspiel.engines" in old
    again = pickle.loads(old)
    assert type(again) is kaboo and again.debug_lines() == eng.debug_lines()
    with pytest.raises(AttributeError):
        engines.NoSuchEngine  # noqa: B018
