"""Our search against OpenSpiel's Python ISMCTS on kaboo, in the same run.

Two figures, both on two-player kaboo played through the OpenSpiel adapter
(``cardtable.interop.openspiel``):

* **Search speed.** The same decision states (taken from games the rule-of-thumb agent plays,
  chance sampled from a seeded generator) are searched by
  ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (UCT, ``RandomRolloutEvaluator`` with one
  rollout — OpenSpiel's usual setting) and by cardtable's ``ISMCTSAgent`` configured to do the
  same work per simulation: one determinization (``determinize`` /
  ``resample_from_infostate``), a UCT descent in which every seat chooses by UCB
  (``opponents="tree"``), one uniformly random rollout to the end of the game
  (``rollout="random"``), one backup. The ratio of the two is the figure with the goal
  ≥ 10×. For information, the speed of our ``expert`` (belief rollouts: one simulation is one
  rule-of-thumb rollout of one action on one belief-dealt deal) is printed too, with its mean
  simulations per decision. Runs are interleaved (theirs, ours, ours-expert, …) so a noisy
  machine slows all alike.
* **Match.** Our ``expert`` against OpenSpiel's ISMCTS given **as many simulations per decision
  as the expert used on average** in the speed run (``--match-sims`` overrides it), seats
  alternated every game, chance sampled from a seeded generator. The goal is ≥ 70% wins (a tie
  counts half).

Nothing here is asserted; the script prints the figures. Run::

    .venv/bin/python benchmarks/search_vs_openspiel.py [--decisions 40] [--speed-sims 400]
        [--games 100] [--match-sims N] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cardtable.interop.openspiel as cos
from cardtable.agents import get
from cardtable.agents.ismcts import ISMCTSAgent
from cardtable.agents.levels import EXPERT_SAMPLES
from cardtable.agents.search import RolloutAgent
from cardtable.arena import wilson_interval
from cardtable.encoding import encoding
from cardtable.seat import Seat

GAME = "cardtable_kaboo"
PLAYERS = 2


def openspiel_bot(game: Any, sims: int, seed: int) -> Any:
    """OpenSpiel's Python ISMCTS with one random rollout per leaf (its usual evaluator)."""
    rng = np.random.RandomState(seed)
    return ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        uct_c=2.0,
        max_simulations=sims,
        random_state=rng,
    )


def sample_chance(state: Any, rng: np.random.RandomState) -> None:
    """Resolve chance nodes with ``rng`` until a player must act (or the game is over)."""
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))


def our_action(agent: Any, state: Any, seed: int) -> int:
    """Our agent's choice at an OpenSpiel state, as the adapter's integer."""
    seat = state.current_player()
    game = cos.to_game(state, seed)
    act = agent.act(Seat(game, seat))
    code = encoding("kaboo", PLAYERS).encode(seat, act)
    assert code is not None
    return code


def decision_states(count: int, seed: int) -> list[Any]:
    """``count`` decision states (more than one legal action) from heuristic-played games."""
    game = pyspiel.load_game(GAME, {"players": PLAYERS})
    mover = get("heuristic", seed=seed)
    rng = np.random.RandomState(seed)
    states: list[Any] = []
    k = 0
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < count:
            sample_chance(state, rng)
            if state.is_terminal():
                break
            if len(state.legal_actions()) > 1:
                states.append(state.clone())
            state.apply_action(our_action(mover, state, seed + k))
            k += 1
    return states


def plain_ismcts(seed: int, sims: int) -> ISMCTSAgent:
    """Our search doing OpenSpiel's work per simulation: every seat by UCB in the tree, one
    uniformly random rollout to the end of the game, the most visited move."""
    return ISMCTSAgent(
        seed=seed, iterations=sims, opponents="tree", rollout="random", depth=10_000, prior=0
    )


def speed(states: list[Any], sims: int, seed: int) -> tuple[float, float, float, float]:
    """Simulations per second of OpenSpiel's bot, of our plain ISMCTS and of our expert over
    ``states`` (interleaved state by state), and the expert's mean simulations per decision."""
    game = states[0].get_game()
    theirs_time = 0.0
    plain_sims = plain_time = expert_sims = expert_time = 0.0
    for i, state in enumerate(states):
        seat = state.current_player()
        bot = openspiel_bot(game, sims, seed + i)
        t0 = time.perf_counter()
        bot.run_search(state.clone())
        theirs_time += time.perf_counter() - t0
        plain = plain_ismcts(seed + i, sims)
        plain.act(Seat(cos.to_game(state, seed + i), seat))
        plain_sims += plain.stats.iterations
        plain_time += plain.stats.seconds
        expert = RolloutAgent(seed=seed + i, samples=EXPERT_SAMPLES)
        expert.act(Seat(cos.to_game(state, seed + i), seat))
        expert_sims += expert.stats.iterations
        expert_time += expert.stats.seconds
    return (
        sims * len(states) / theirs_time,
        plain_sims / plain_time,
        expert_sims / expert_time,
        expert_sims / len(states),
    )


def match(games: int, sims: int, seed: int) -> tuple[float, int, int, int, list[float]]:
    """Our expert against OpenSpiel's ISMCTS at ``sims`` simulations per decision.

    Returns the score (wins + ties / 2), wins, ties, losses and seconds per game.
    """
    game = pyspiel.load_game(GAME, {"players": PLAYERS})
    wins = ties = losses = 0
    seconds: list[float] = []
    for g in range(games):
        ours_seat = g % PLAYERS
        ours = get("expert", seed=seed + g)
        theirs = openspiel_bot(game, sims, seed + g)
        rng = np.random.RandomState(seed * 100_003 + g)
        state = game.new_initial_state()
        t0 = time.perf_counter()
        move = 0
        while True:
            sample_chance(state, rng)
            if state.is_terminal():
                break
            if state.current_player() == ours_seat:
                action = our_action(ours, state, seed + g * 1000 + move)
            else:
                action = int(theirs.step(state))
            state.apply_action(action)
            move += 1
        seconds.append(time.perf_counter() - t0)
        r = state.returns()[ours_seat]
        if r > 0:
            wins += 1
        elif r < 0:
            losses += 1
        else:
            ties += 1
        print(
            f"  game {g + 1:3d}: ours seat {ours_seat}, return {r:+.0f}  "
            f"(running {wins}-{ties}-{losses}, {seconds[-1]:.1f} s)",
            flush=True,
        )
    return wins + ties / 2, wins, ties, losses, seconds


def main() -> None:
    """Measure and print both figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=40, help="states searched for speed")
    parser.add_argument("--speed-sims", type=int, default=400, help="simulations per search")
    parser.add_argument("--games", type=int, default=100, help="games in the match")
    parser.add_argument(
        "--match-sims", type=int, default=None, help="OpenSpiel's simulations per decision"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"kaboo, {PLAYERS} players, through the OpenSpiel adapter ({GAME})")
    states = decision_states(args.decisions, args.seed)
    rates = [speed(states, args.speed_sims, args.seed + run) for run in range(3)]
    theirs, plain, expert, per_decision = (statistics.median(r[k] for r in rates) for k in range(4))
    print(
        f"search speed over {len(states)} decisions, {args.speed_sims} simulations each "
        "(median of 3 interleaved runs):"
    )
    print(f"  OpenSpiel ISMCTS (Python), random rollouts   {theirs:10,.0f} simulations/s")
    print(f"  cardtable ISMCTS, same work per simulation   {plain:10,.0f} simulations/s")
    print(f"  ratio                                        {plain / theirs:10.1f}×  (goal ≥ 10×)")
    print(f"  cardtable expert (belief rollouts, for info) {expert:10,.0f} simulations/s")
    print(f"  expert's mean simulations per decision       {per_decision:10,.0f}")
    if args.games < 1:
        return
    sims = args.match_sims or round(per_decision)
    print()
    print(f"match: cardtable expert vs OpenSpiel ISMCTS with {sims} simulations a decision")
    score, wins, ties, losses, secs = match(args.games, sims, args.seed)
    low, high = wilson_interval(score, args.games)
    print(
        f"  {args.games} games: {wins} wins, {ties} ties, {losses} losses → "
        f"{score / args.games:.1%} [{low:.1%}, {high:.1%}] (goal ≥ 70%), "
        f"{statistics.mean(secs):.1f} s per game"
    )


if __name__ == "__main__":
    main()
