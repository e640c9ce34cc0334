"""The rating scale and the AI levels' calibrated ratings (:mod:`cardtable.ratings`), the
``cardtable ratings`` command and the HTTP answers that show them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable import variants
from cardtable.cli.app import app
from cardtable.ratings import (
    CALIBRATED_LEVELS,
    MU,
    Calibration,
    Rating,
    calibrate,
    level_ratings,
    load_calibrations,
    load_level_calibration,
    to_points,
    write_calibrations,
)

from .web.test_messages import _get

RATED = ("random", "beginner", "casual", "expert")
"""The levels the stored calibration rates (master thinks too long a move to be calibrated
within a session here; docs/arena.md says so)."""


def test_points_read_like_elo_around_1500() -> None:
    assert Rating().points == 1500 == to_points(MU)
    assert Rating().interval == (1000, 2000)  # mu ± 2 sigma at the start
    assert Rating(30.0, 1.0).points == 1650
    assert Rating(30.0, 1.0).interval == (1590, 1710)
    assert Rating(30.0, 1.0).to_dict() == {
        "mu": 30.0,
        "sigma": 1.0,
        "rating": 1650,
        "low": 1590,
        "high": 1710,
    }


def test_a_calibration_is_stored_and_read_back_keeping_the_other_games(tmp_path: Path) -> None:
    where = tmp_path / "ratings.json"
    kaboo = Calibration("kaboo", {"random": Rating(17.5, 2.0)}, 48, 4, 3, {"target": None})
    qute = Calibration("qute", {"casual": Rating(29.0, 1.5)}, 8, 2, 0, {})
    assert write_calibrations({"kaboo": kaboo}, where) == where
    write_calibrations({"qute": qute}, where)
    back = load_calibrations(where)
    assert set(back) == {"kaboo", "qute"}
    assert back["kaboo"] == kaboo and back["qute"] == qute
    assert load_calibrations(tmp_path / "none.json") == {}


@pytest.mark.parametrize(
    "bad",
    [
        {"games": 1},
        {"games": 1, "players": 2, "seed": 0, "levels": {"x": {"mu": 1}}},
        {"games": 1, "players": 2, "seed": 0, "levels": {"x": {"mu": 1, "sigma": 0}}},
        {"games": 1, "players": 2, "seed": 0, "levels": {"x": {"mu": "nan", "sigma": 1}}},
    ],
)
def test_a_calibration_that_is_not_one_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="kaboo"):
        Calibration.from_dict("kaboo", bad)


def test_calibrating_rates_the_stronger_level_higher_and_is_seeded() -> None:
    found = calibrate("kaboo", ["random", "heuristic"], 8, seed=5, workers=1)
    assert found.game == "kaboo" and found.games == 8 and found.players == 2
    assert found.options == {"target": None}  # one round a game
    assert found.ratings["heuristic"].mu > MU > found.ratings["random"].mu
    again = calibrate("kaboo", ["random", "heuristic"], 8, seed=5, workers=2)
    assert again.to_dict() == found.to_dict()  # the same seed, the same games


def test_the_stored_ratings_put_every_level_on_the_scale_of_every_game() -> None:
    for game in variants.names():
        stored = load_level_calibration(game)
        assert stored is not None, game
        rated = level_ratings(game)
        assert set(rated) == set(RATED), game
        assert stored.games >= 48 and stored.options == {"target": None}
        for r in rated.values():
            assert math.isfinite(r.mu) and 0 < r.sigma < MU / 3  # the games taught it something
        if game != "qute":
            # in the Cabo family a random mover is the floor, below every level's interval;
            # one round of Qute is mostly luck at these levels: 48 do not tell the four apart
            lowest = min(rated[name].interval[0] for name in RATED if name != "random")
            assert rated["random"].points < lowest, game
    assert set(RATED) <= set(CALIBRATED_LEVELS)


def test_the_ratings_command_shows_and_calibrates(tmp_path: Path) -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["ratings", "kaboo"], env={"COLUMNS": "120"})
    assert shown.exit_code == 0, shown.output
    rated = level_ratings("kaboo")
    best = max(rated, key=lambda name: rated[name].mu)
    assert "kaboo" in shown.output and best in shown.output
    assert f"{rated[best].points:,}" in shown.output
    where = tmp_path / "mine.json"
    made = runner.invoke(
        app,
        [
            "ratings",
            "qute",
            "--calibrate",
            "--games",
            "4",
            "--levels",
            "random,heuristic",
            "--workers",
            "1",
            "--out",
            str(where),
        ],
    )
    assert made.exit_code == 0, made.output
    stored = json.loads(where.read_text())
    assert set(stored) == {"qute"} and set(stored["qute"]["levels"]) == {"random", "heuristic"}
    for args, words in (
        (["ratings", "poker"], "no game called 'poker'"),
        (["ratings", "--calibrate", "--levels", "random"], "--levels"),
        (["ratings", "--calibrate", "--levels", "random,nobody"], "--levels"),
        (["ratings", "--calibrate", "--games", "0"], "--games"),
    ):
        bad = runner.invoke(app, args)
        assert bad.exit_code == 2 and words in bad.output, (args, bad.output)
    nothing = runner.invoke(app, ["ratings", "--out", str(tmp_path / "empty.json")])
    assert nothing.exit_code == 2 and "--calibrate" in nothing.output


def test_the_lobby_and_the_api_give_each_levels_rating() -> None:
    status, _, body = _get("/api/ratings/kaboo")
    assert status == 200
    answer = json.loads(body)
    assert answer["game"] == "kaboo" and answer["scale"]["start"] == 1500
    assert answer["calibration"]["games"] >= 48
    listed = answer["levels"]
    assert [lv["level"] for lv in listed] == sorted(
        RATED, key=lambda name: -level_ratings("kaboo")[name].mu
    )
    for lv in listed:
        r = level_ratings("kaboo")[lv["level"]]
        assert lv == {"level": lv["level"], **r.to_dict()}
        assert lv["low"] < lv["rating"] < lv["high"]
    status, _, body = _get("/api/ratings/poker")
    assert status == 404 and b"poker" in body
    status, _, body = _get("/api/levels")
    levels = {lv["name"]: lv for lv in json.loads(body)}
    for game in variants.names():
        r = level_ratings(game)["expert"]
        low, high = r.interval
        assert levels["expert"]["ratings"][game] == {
            "rating": r.points,
            "low": low,
            "high": high,
        }
    assert levels["master"]["ratings"] == {}  # not calibrated: nothing is made up
