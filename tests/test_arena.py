"""Tests of the arena: seating, seeds, statistics, output files, the CLI command and Ray."""

from __future__ import annotations

import csv
import json
import sys
from array import array
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtable import agents
from cardtable.agents import Agent
from cardtable.arena import (
    ArenaError,
    GameRecord,
    Schedule,
    aggregate,
    derive_seed,
    entrant_labels,
    percentile,
    places,
    play_game,
    run_arena,
    wilson_interval,
)
from cardtable.cli import app
from cardtable.notation import Action
from cardtable.seat import Seat

runner = CliRunner()


def outcome(result: Any) -> dict[str, Any]:
    """What a run produced, without anything that depends on the machine or the scheduling."""
    out: dict[str, Any] = result.to_dict(timings=False)
    return out


# ---------------------------------------------------------------------------- seeds and order
def test_same_seed_gives_the_same_results_on_the_process_backend() -> None:
    first = run_arena("kaboo", ["random", "random"], games=24, seed=11, workers=2, chunk_size=3)
    second = run_arena("kaboo", ["random", "random"], games=24, seed=11, workers=2, chunk_size=5)
    assert first.backend == "process"
    assert outcome(first) == outcome(second)
    assert [r.index for r in first.records] == list(range(24))
    other = run_arena("kaboo", ["random", "random"], games=24, seed=12, workers=2)
    assert [r.seed for r in other.records] != [r.seed for r in first.records]
    assert outcome(other)["records"] != outcome(first)["records"]


def test_serial_backend_matches_the_process_backend() -> None:
    serial = run_arena("qute", ["random", "random", "random"], games=6, seed=3, backend="serial")
    pooled = run_arena("qute", ["random", "random", "random"], games=6, seed=3, workers=2)
    assert outcome(serial) == outcome(pooled)


def test_derived_seeds_are_stable() -> None:
    # a fixed number: the same on every machine, process and Python version
    assert derive_seed(0, "deal", 0) == 7296477241146329712
    assert derive_seed(7, "agent", 3, 1) == 7962520530447095458
    assert derive_seed(0, "deal", 1) != derive_seed(0, "deal", 0)
    assert 0 <= derive_seed(2**70, "x") < 2**63


def test_duplicate_deals_share_a_seed_within_a_rotation() -> None:
    dup = run_arena("kaboo", ["random", "random"], games=4, seed=1, backend="serial")
    assert dup.records[0].seed == dup.records[1].seed != dup.records[2].seed
    assert dup.records[0].lineup == (0, 1) and dup.records[1].lineup == (1, 0)
    fresh = run_arena(
        "kaboo", ["random", "random"], games=4, seed=1, backend="serial", duplicate=False
    )
    assert len({r.seed for r in fresh.records}) == 4


# ---------------------------------------------------------------------------- seating
@pytest.mark.parametrize(
    ("entrants", "players", "period"),
    [(2, 2, 2), (3, 3, 6), (4, 4, 8), (2, 4, 2), (3, 4, 6), (3, 2, 6), (4, 3, 24), (1, 3, 1)],
)
def test_every_entrant_sits_in_every_seat_equally_often(
    entrants: int, players: int, period: int
) -> None:
    schedule = Schedule(entrants, players)
    assert schedule.period == period
    for periods in (1, 3):
        seats: Counter[tuple[int, int]] = Counter()
        for game in range(period * periods):
            lineup = schedule.lineup(game)
            assert len(lineup) == players
            for seat, entrant in enumerate(lineup):
                seats[entrant, seat] += 1
        counts = {seats[e, s] for e in range(entrants) for s in range(players)}
        assert len(counts) == 1, seats
        assert counts.pop() > 0


def test_more_agents_than_seats_meet_every_group() -> None:
    schedule = Schedule(4, 2)
    tables = Counter(frozenset(schedule.lineup(g)) for g in range(schedule.period))
    assert len(tables) == 6 and set(tables.values()) == {2}


def test_three_seats_see_both_orders() -> None:
    schedule = Schedule(3, 3)
    lineups = {schedule.lineup(g) for g in range(schedule.period)}
    assert len(lineups) == 6  # every permutation: each agent follows each other one equally


def test_run_seat_counts_are_balanced() -> None:
    result = run_arena("kaboo", ["random", "random", "random"], games=12, backend="serial")
    assert result.players == 3 and result.period == 6
    for stats in result.stats:
        assert stats.seat_counts == (4, 4, 4)
        assert stats.games == stats.seats == 12


def test_fewer_agents_than_seats_fill_the_table() -> None:
    result = run_arena("gabo", ["random", "random"], games=4, players=3, backend="serial")
    assert [r.lineup for r in result.records] == [(0, 1, 0), (1, 0, 1)] * 2
    assert [s.seats for s in result.stats] == [6, 6]
    assert [s.seat_counts for s in result.stats] == [(2, 2, 2), (2, 2, 2)]
    assert sum(s.wins for s in result.stats) == pytest.approx(4)


def test_labels_number_repeated_agents() -> None:
    assert entrant_labels(["random", "Random", "heuristic"]) == [
        "random#1",
        "random#2",
        "heuristic",
    ]
    assert entrant_labels(["random"]) == ["random"]


# ---------------------------------------------------------------------------- statistics
def record(
    index: int, lineup: tuple[int, ...], totals: tuple[int, ...], winners: tuple[int, ...]
) -> GameRecord:
    """A finished game, made up for the statistics tests."""
    return GameRecord(
        index,
        index,
        lineup,
        totals,
        winners,
        (1,) * len(lineup),
        tuple(array("d", [0.001]) for _ in lineup),
    )


def test_ties_split_the_win() -> None:
    records = [
        record(0, (0, 1), (5, 5), (0, 1)),
        record(1, (1, 0), (3, 9), (0,)),
        record(2, (0, 1), (4, 4), (0, 1)),
        record(3, (1, 0), (8, 2), (1,)),
    ]
    result = aggregate("kaboo", 2, 0, {}, ["random", "random"], records)
    first, second = result.stats
    assert first.wins == pytest.approx(2.0) and second.wins == pytest.approx(2.0)
    assert first.win_rate == pytest.approx(0.5)
    assert first.mean_score == pytest.approx((5 + 9 + 4 + 2) / 4)
    assert second.mean_score == pytest.approx((5 + 3 + 4 + 8) / 4)
    three = aggregate(
        "kaboo", 3, 0, {}, ["a", "b", "c"], [record(0, (0, 1, 2), (1, 1, 1), (0, 1, 2))]
    )
    assert [s.wins for s in three.stats] == pytest.approx([1 / 3] * 3)


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson_interval(10, 10)
    assert round(low, 4) == 0.7225 and high == 1.0
    low, high = wilson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(2.5, 10)
    assert low < 0.25 < high


def test_places_and_percentile() -> None:
    assert places([10, 3, 7, 3], [1, 3]) == [4, 1, 3, 1]
    assert places([5, 5, 9], [0]) == [1, 2, 3]
    assert places([5, 6, 6], [0]) == [1, 2, 2]
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 95) == pytest.approx(4.8)
    assert percentile([], 95) == 0.0


def test_ratings_follow_the_results() -> None:
    records = [
        record(i, (0, 1) if i % 2 else (1, 0), (1, 9) if i % 2 else (9, 1), (0,) if i % 2 else (1,))
        for i in range(20)
    ]
    result = aggregate("kaboo", 2, 0, {}, ["heuristic", "random"], records)
    best, worst = result.stats
    assert best.win_rate == 1.0 and worst.win_rate == 0.0
    assert best.mu > 25 > worst.mu
    assert best.ordinal == pytest.approx(best.mu - 3 * best.sigma)
    assert best.sigma < 25 / 3
    assert result.head_to_head is None


def test_head_to_head_with_three_agents() -> None:
    result = run_arena(
        "kaboo", ["random", "random", "random"], games=6, players=2, backend="serial"
    )
    h2h = result.head_to_head
    assert h2h is not None
    for a in range(3):
        assert h2h.rate(a, a) is None
        for b in range(3):
            if a != b:
                assert h2h.meetings[a][b] == 2
                rate_ab, rate_ba = h2h.rate(a, b), h2h.rate(b, a)
                assert rate_ab is not None and rate_ba is not None
                assert rate_ab + rate_ba == pytest.approx(1.0)


# ---------------------------------------------------------------------------- failures
class Cheater(Agent):
    """Plays an action that is never legal."""

    name = "cheater"

    def act(self, seat: Seat) -> Action:
        """Always the same impossible move."""
        return Action("replace", ("9",))


def test_an_illegal_action_is_a_failure_with_the_agents_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(agents.AGENTS, "cheater", Cheater)
    result = run_arena("kaboo", ["random", "cheater"], games=4, backend="serial")
    assert len(result.failures) == 4
    failure = result.failures[0].to_dict(result.labels)
    assert failure["agent"] == "cheater"
    # the refusal's own kind (a cheater's "replace 9" at the start of a turn: draw first)
    assert failure["error"].startswith("WrongPhase: draw a card first")
    assert failure["action"] == "replace 9"
    honest, cheater = result.stats
    assert cheater.failures == 4 and honest.failures == 0
    assert honest.games == cheater.games == 0


def test_a_game_that_never_ends_is_a_failure() -> None:
    rec = play_game("qute", 2, None, ["random"], (0, 0), 1, (1, 2), max_decisions=5)
    assert rec.failure is not None and rec.failure.entrant is None
    assert "did not end" in rec.failure.error
    assert sum(rec.decisions) == 5


def test_bad_settings_raise_arena_errors() -> None:
    with pytest.raises(ArenaError, match="unknown game"):
        run_arena("nosuch", ["random"], games=1)
    with pytest.raises(ArenaError, match="unknown agent"):
        run_arena("kaboo", ["random", "nobody"], games=1)
    with pytest.raises(ArenaError, match="2 to 4 players"):
        run_arena("kaboo", ["random"], games=1, players=5)
    with pytest.raises(ArenaError, match="at least 1"):
        run_arena("kaboo", ["random"], games=0)
    with pytest.raises(ArenaError, match="unknown backend"):
        run_arena("kaboo", ["random"], games=1, backend="cloud")
    with pytest.raises(ArenaError, match="unknown option"):
        run_arena("kaboo", ["random"], games=1, options={"colour": 1})


def test_players_default_to_the_number_of_agents() -> None:
    assert run_arena("qute", ["random"] * 3, games=1, backend="serial").players == 3
    assert run_arena("kaboo", ["random"] * 5, games=1, backend="serial").players == 2


def test_heuristic_agent_plays_without_failures() -> None:
    result = run_arena("kaboo", ["heuristic", "random"], games=4, seed=2, backend="serial")
    assert not result.failures
    assert all(s.decisions > 0 for s in result.stats)


# ---------------------------------------------------------------------------- output files
def test_json_csv_and_png_are_written(tmp_path: Path) -> None:
    result = run_arena("cabo", ["random", "random", "random"], games=6, backend="serial")
    result.to_json(tmp_path / "r.json")
    result.to_csv(tmp_path / "r.csv")
    result.chart(tmp_path / "r.png")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["variant"] == "cabo" and data["games"] == 6
    assert data["agents"] == ["random#1", "random#2", "random#3"]
    assert len(data["records"]) == 6 and data["head_to_head"] is not None
    assert {"backend", "workers", "elapsed"} <= set(data["run"])
    assert "time_p95" in data["stats"][0]
    with (tmp_path / "r.csv").open(newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0][:8] == [
        "agent",
        "name",
        "games",
        "seats",
        "wins",
        "win_rate",
        "ci_low",
        "ci_high",
    ]
    assert "mu" in rows[0] and "time_p95_ms" in rows[0]
    assert [r[0] for r in rows[1:]] == ["random#1", "random#2", "random#3"]
    assert float(rows[1][5]) == pytest.approx(result.stats[0].win_rate)
    png = (tmp_path / "r.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000


# ---------------------------------------------------------------------------- the command
def test_cli_runs_and_writes(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    args = ["arena", "kaboo", "--agents", "random,random", "--games", "8", "--seed", "4"]
    args += ["--backend", "serial", "--json", str(out), "--csv", str(tmp_path / "out.csv")]
    result = runner.invoke(app, [*args, "--chart", str(tmp_path / "out.png"), "-o", "first=0"])
    assert result.exit_code == 0, result.output
    assert "8/8" in result.output  # the progress bar's last state
    assert "win rate" in result.output and "[95% CI]" in result.output
    assert "random#1" in result.output and "random#2" in result.output
    assert "seating period 2" in result.output
    assert f"wrote {out}" in result.output.replace("\n", "")
    data = json.loads(out.read_text())
    assert data["options"] == {"first": 0}
    api = run_arena(
        "kaboo", ["random", "random"], games=8, seed=4, options={"first": 0}, backend="serial"
    )
    assert data["stats"][0]["wins"] == api.stats[0].wins
    assert (tmp_path / "out.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_shows_head_to_head_for_three_agents() -> None:
    result = runner.invoke(
        app, ["arena", "qute", "-a", "random,random,random", "-n", "3", "-b", "serial"]
    )
    assert result.exit_code == 0, result.output
    assert "Head to head" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena", "nosuch", "--agents", "random"], "unknown game 'nosuch'"),
        (["arena", "kaboo", "--agents", "random,nobody"], "unknown agent 'nobody'"),
        (["arena", "kaboo", "--agents", "random", "--players", "9"], "not 9"),
        (["arena", "kaboo", "--agents", "random", "--games", "0"], "at least 1"),
        (["arena", "kaboo", "--agents", " , "], "at least one agent"),
        (["arena", "kaboo", "--agents", "random", "-o", "colour=red"], "unknown option"),
        (["arena", "kaboo", "--agents", "random", "--backend", "cloud"], "unknown backend"),
        (["arena", "kaboo", "--agents", "random", "--workers", "0"], "workers"),
    ],
)
def test_cli_errors_exit_with_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "error:" in result.output
    assert message in " ".join(result.output.split())


def test_cli_says_how_to_install_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    result = runner.invoke(app, ["arena", "kaboo", "--agents", "random", "--backend", "ray"])
    assert result.exit_code == 2
    assert "pip install cardtable[ray]" in " ".join(result.output.split())
    with pytest.raises(ArenaError, match=r"cardtable\[ray\]"):
        run_arena("kaboo", ["random"], games=1, backend="ray")


def test_cli_fails_loudly_when_an_agent_breaks_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(agents.AGENTS, "cheater", Cheater)
    result = runner.invoke(
        app, ["arena", "kaboo", "-a", "random,cheater", "-n", "2", "-b", "serial"]
    )
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "cheater (seat" in text and "WrongPhase: draw a card first" in text
    assert "2 games stopped because an agent failed" in text


# ---------------------------------------------------------------------------- Ray
@pytest.mark.ray
def test_ray_backend_gives_the_same_results_as_processes() -> None:
    import ray  # installed with the test extras (scripts/setup)

    settings: dict[str, Any] = {"games": 8, "seed": 21, "workers": 2, "chunk_size": 2}
    pooled = run_arena("kaboo", ["random", "random"], backend="process", **settings)
    seen: list[tuple[int, int]] = []
    on_ray = run_arena(
        "kaboo",
        ["random", "random"],
        backend="ray",
        progress=lambda done, total: seen.append((done, total)),
        **settings,
    )
    assert on_ray.backend == "ray"
    assert outcome(on_ray) == outcome(pooled)
    # progress per game, not per chunk of two: the tasks stream their records
    assert seen == [(done, 8) for done in range(1, 9)]
    assert not ray.is_initialized()  # the local instance it started is shut down again
