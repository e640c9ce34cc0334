"""The Qute rule-of-thumb policy (``cardtable.games.qute.policy.choose``).

* It always picks a legal action, and games played with it for every seat finish.
* Stacked-deck scenarios (RULES.md §3) for its key choices: shedding, 6 chains, the top card
  of a multi-card play, the suit after a J, ``jpoints`` and ``qute``.
* It reads only what its seat may know: re-dealing every hidden card changes nothing.
* It beats a uniformly random player clearly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from cardtable import new_game
from cardtable.games.qute.engine import QuteGame
from cardtable.games.qute.policy import choose
from cardtable.rng import Rng


# ---------------------------------------------------------------------------- helpers
def start(hands: Sequence[Sequence[str]], blind: Sequence[str] = (), **options: Any) -> QuteGame:
    """A qute game dealt from ``hands`` (5 cards each, one at a time from seat 0) and then
    ``blind`` (top first); one round unless ``target`` is given."""
    assert all(len(h) == 5 for h in hands)
    deck = [hand[i] for i in range(5) for hand in hands] + list(blind)
    g = new_game("qute", players=len(hands), seed=0, options={"target": None, **options}, deck=deck)
    assert isinstance(g, QuteGame)
    return g


def picks(g: QuteGame, seat: int, tries: int = 5) -> set[str]:
    """Everything ``choose`` answers for ``seat`` over a few tie-breaking generators."""
    return {str(choose(g, seat, Rng(k))) for k in range(tries)}


def codes(g: QuteGame, cards: Sequence[int]) -> list[str]:
    return [g.codes[c] for c in cards]


# ---------------------------------------------------------------------------- legality
@pytest.mark.parametrize("players", [2, 3, 4])
def test_always_legal_and_games_finish(players: int) -> None:
    for seed in range(100):
        # Every third game is a whole match (target 125), the rest single rounds.
        options = {} if seed % 3 == 0 else {"target": None}
        g = new_game("qute", players=players, seed=seed, options=options)
        assert isinstance(g, QuteGame)
        rng = Rng(seed)
        for _ in range(20_000):
            if g.over:
                break
            seat = g.turn
            action = choose(g, seat, rng)
            assert action in g.legal_actions(seat), (seed, str(action))
            g.play(seat, action)
        assert g.over, f"game {seed} did not finish"
        assert g.result is not None


def test_same_state_and_generator_same_answer() -> None:
    for seed in range(30):
        g = new_game("qute", players=3, seed=seed, options={"target": None})
        assert isinstance(g, QuteGame)
        rng = Rng(seed)
        while not g.over:
            seat = g.turn
            state = rng.getstate()
            first = choose(g, seat, rng)
            rng.setstate(state)
            assert choose(g, seat, rng) == first
            g.apply(seat, first)


def test_a_finished_game_has_nothing_to_choose() -> None:
    g = start([["9C", "9D", "9H", "9S", "6C"], ["10C", "6D", "7D", "8D", "6S"]])
    g.play(0, "play 9C 9D 9H 9S")
    g.play(0, "qute")
    assert g.over
    with pytest.raises(ValueError):
        choose(g, 0, Rng(0))


# ---------------------------------------------------------------------------- playing
def test_draws_when_nothing_fits() -> None:
    g = start([["9H", "7C", "8C", "9C", "10C"], ["KS", "QD", "8S", "7D", "10S"]])
    g.play(0, "play 9H")
    assert picks(g, 1) == {"draw"}


def test_sheds_an_ace_rather_than_a_six_it_cannot_cover() -> None:
    # Empty stack: everything fits. The 6H could not be covered (no heart, 6 or J left);
    # the ace sheds 15 points and, with two players, moves again (then 9S follows it).
    g = start([["AS", "6H", "9S", "10D", "7C"], ["KC", "QC", "8H", "9D", "7D"]])
    assert "play 6H" in {str(a) for a in g.legal_actions(0)}
    assert picks(g, 0) == {"play AS"}
    g.play(0, "play AS")
    assert g.turn == 0  # two players: the ace's player moves again
    assert picks(g, 0) == {"play 9S"}


def test_a_six_it_can_cover_goes_first_and_is_covered() -> None:
    # On 9H both AH and 6H fit; laying 6H and covering it with AH sheds both this turn.
    g = start([["9H", "7C", "8C", "9C", "10C"], ["AH", "6H", "KS", "QD", "8S"]])
    g.play(0, "play 9H")
    assert picks(g, 1) == {"play 6H"}
    g.play(1, "play 6H")
    assert g.must_cover
    assert picks(g, 1) == {"play AH"}


def test_lays_all_cards_of_a_rank_with_the_best_suit_on_top() -> None:
    # On QC only KC fits first; the hearts left in hand make KH the best top card.
    g = start([["QC", "7S", "8S", "9S", "10S"], ["KC", "KH", "KD", "9H", "7H"]])
    g.play(0, "play QC")
    assert picks(g, 1) == {"play KC KD KH"}


def test_keeps_a_j_when_another_card_fits() -> None:
    g = start([["9H", "7C", "8C", "9C", "10C"], ["JD", "KH", "QS", "8S", "7D"]])
    g.play(0, "play 9H")
    assert picks(g, 1) == {"play KH"}


def test_goes_out_in_one_turn_when_it_can() -> None:
    # After 9H: AH and 8H move again (two players), 6H must be covered, QH QS cover it and
    # empty the hand. The plan is found from the first card.
    g = start([["9H", "7C", "8C", "9C", "10C"], ["AH", "8H", "6H", "QH", "QS"]])
    g.play(0, "play 9H")
    played = []
    while not g.over:
        assert g.turn == 1
        action = choose(g, 1, Rng(0))
        played.append(str(action))
        g.play(1, action)
    assert g.hands[1] == []
    assert len(played) == 4
    assert played[-1] in ("play QH QS", "play QS QH")


# ---------------------------------------------------------------------------- decisions
def test_suit_after_a_j_is_the_suit_it_holds_most_of() -> None:
    g = start([["JC", "7H", "9H", "KH", "8S"], ["KC", "QC", "8H", "9D", "7D"]])
    g.play(0, "play JC")
    assert g.decision == "suit"
    assert picks(g, 0) == {"suit H"}


def _out_on_a_j(totals: list[int]) -> QuteGame:
    """Seat 0 goes out on JC (aces and 8s move again with two players): jpoints is asked."""
    g = start([["AH", "AD", "8D", "8H", "JC"], ["KC", "QC", "9H", "9D", "7D"]], target=125)
    g.totals = list(totals)
    for action in ("play AH", "play AD", "play 8D", "play 8H", "play JC"):
        g.play(0, action)
    assert (g.decision, g.turn) == ("jpoints", 0)
    return g


def test_jpoints_plus_when_it_ends_the_game_in_its_favour() -> None:
    # Plus: seat 1 gets at least 110 + 20 > 125, the game ends and seat 0 (30) wins.
    g = _out_on_a_j([30, 110])
    assert picks(g, 0) == {"jpoints plus"}
    g.play(0, "jpoints plus")
    assert g.over
    assert g.result is not None and g.result.winners == [0]


def test_jpoints_minus_when_plus_would_not_win() -> None:
    # Seat 0 is behind: plus would not end the game (or not in its favour), so minus.
    g = _out_on_a_j([110, 30])
    assert picks(g, 0) == {"jpoints minus"}
    # Plus would end the game, but seat 1 (105 + 20) lands on exactly 125 if its hand holds
    # no points, and is reset to 0: not worth the risk.
    g = _out_on_a_j([30, 105])
    assert picks(g, 0) == {"jpoints minus"}
    # One round only: both choices change the gaps alike; minus it is.
    g = start([["AH", "AD", "8D", "8H", "JC"], ["KC", "QC", "9H", "9D", "7D"]])
    for action in ("play AH", "play AD", "play 8D", "play 8H", "play JC"):
        g.play(0, action)
    assert picks(g, 0) == {"jpoints minus"}


def test_qute_with_a_pointless_hand() -> None:
    # Four 9s on top, laid this turn; seat 0 keeps only 6C (0 points): end the round now.
    g = start([["9C", "9D", "9H", "9S", "6C"], ["10C", "6D", "KD", "8D", "6S"]])
    g.play(0, "play 9C 9D 9H 9S")
    assert g.decision == "qute"
    assert picks(g, 0) == {"qute"}


def test_continue_holding_more_points_than_the_opponent_likely_has() -> None:
    # The run 9C 9D 9H 9S: seat 0 laid the fourth, but holds AC AD KH (40 points) against
    # three unknown cards: play on.
    g = start([["9C", "9S", "AC", "AD", "KH"], ["9D", "9H", "7D", "8S", "6S"]])
    g.play(0, "play 9C")
    g.play(1, "play 9D 9H")
    g.play(0, "play 9S")
    assert g.decision == "qute"
    assert picks(g, 0) == {"continue"}


# ---------------------------------------------------------------------------- secrecy
def test_hidden_cards_do_not_change_the_choice() -> None:
    checked = 0
    for seed in range(60):
        g = new_game("qute", players=2 + seed % 3, seed=seed, options={"target": None})
        assert isinstance(g, QuteGame)
        rng = Rng(seed)
        while not g.over:
            seat = g.turn
            worlds = [g.determinize(seat, Rng(1000 * seed + k)) for k in range(3)]
            hidden = {
                (*(tuple(h) for s, h in enumerate(w.hands) if s != seat), tuple(w.blind))
                for w in worlds
            }
            answers = {str(choose(w, seat, Rng(seed))) for w in worlds}
            answers.add(str(choose(g, seat, Rng(seed))))
            assert len(answers) == 1, (seed, answers)
            checked += len(hidden) > 1
            g.apply(seat, choose(g, seat, rng))
    assert checked > 500  # the re-dealt worlds really differed


def test_swapping_cards_between_opponent_and_blind_changes_nothing() -> None:
    # Two deals that differ only in seat 1's hand and the blind: seat 0 cannot tell them
    # apart, so it must act alike.
    mine = ["AS", "6H", "9S", "10D", "JC"]
    a = start([mine, ["KC", "QC", "8H", "9D", "7D"]], ["AH", "8C", "KD"])
    b = start([mine, ["AH", "8C", "KD", "9D", "7D"]], ["KC", "QC", "8H"])
    for k in range(10):
        assert choose(a, 0, Rng(k)) == choose(b, 0, Rng(k))


# ---------------------------------------------------------------------------- strength
def test_beats_a_random_player() -> None:
    games = 400
    wins = sole = 0
    for seed in range(games):
        g = new_game("qute", players=2, seed=seed, options={"target": None})
        assert isinstance(g, QuteGame)
        me = seed % 2  # alternate seats (seat 0 starts the round)
        mine, other = Rng(seed), Rng(10_000 + seed)
        while not g.over:
            seat = g.turn
            if seat == me:
                g.apply(seat, choose(g, seat, mine))
            else:
                g.apply(seat, other.pick(g.legal_actions(seat)))
        assert g.result is not None
        winners = g.result.winners
        wins += me in winners  # ties share the win (RULES.md §3)
        sole += winners == [me]
    assert wins >= 0.75 * games
    assert sole >= 0.6 * games
