"""The person's local history and rating: ``cardtable play`` keeps every finished game (line
mode and the full-screen table), a rated game moves the person's rating against the AI levels'
calibrated ratings, and ``cardtable stats`` shows it (text and ``--json``)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable import agents, new_game
from cardtable.catalog import set_default
from cardtable.cli import app
from cardtable.ratings import Rating, level_ratings
from cardtable.seat import Seat
from cardtable.tui import history, saves
from cardtable.tui.app import CardtableApp, HelpScreen, ResultScreen

from .tui.helpers import FakeClock, play_out, sync

runner = CliRunner()


@pytest.fixture
def kept_at(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The history file, in a data directory of the test's own."""
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path / "data"))
    return tmp_path / "data" / "games" / "history.jsonl"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Every test starts and ends with no language chosen by ``--lang``."""
    set_default(None)
    yield
    set_default(None)


def finished(
    *, person_wins: bool, variant: str = "kaboo", players: int = 2, start: int = 0
) -> cardtable.Game:
    """A single round played to its end by random players in which seat 0 is the only winner
    (``person_wins``) or finishes last of all, alone."""
    for seed in range(start, start + 300):
        game = new_game(variant, players=players, seed=seed, options={"target": None})
        bots = [agents.get("random", seed=seed * 16 + s) for s in range(players)]
        while not game.over:
            seat = game.actors[0]
            game.play(seat, bots[seat].act(Seat(game, seat)))
        result = game.result
        assert result is not None
        mine = result.totals[0]
        if person_wins and result.winners == [0]:
            return game
        if not person_wins and all(t < mine for t in result.totals[1:]):
            return game
    raise AssertionError("no such deal among the seeds tried")


def lines(path: Path) -> list[dict[str, Any]]:
    """The history's lines as JSON."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def scripted_play(
    monkeypatch: pytest.MonkeyPatch, before: tuple[str, ...] = ()
) -> list[cardtable.Game]:
    """Make ``cardtable play`` read ``before``, then random legal moves of its game (returned
    in the list once made)."""
    made: list[cardtable.Game] = []
    script = list(before)
    rng = random.Random(0)

    def capture(*a: Any, **k: Any) -> cardtable.Game:
        made.append(new_game(*a, **k))
        return made[-1]

    def answer(prompt: str) -> str:
        if script:
            return script.pop(0)
        return str(rng.choice(made[-1].view(0)["legal"]))

    monkeypatch.setattr("cardtable.cli.play.new_game", capture)
    monkeypatch.setattr("cardtable.cli.play._line_reader", lambda: answer)
    return made


# ---------------------------------------------------------------------------- cardtable play
def test_line_mode_keeps_a_finished_game_and_rates_it(
    kept_at: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = scripted_play(monkeypatch)
    args = ["play", "kaboo", "--seed", "3", "--target", "none", "--opponents", "random"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    game = made[-1]
    assert game.over and game.result is not None
    [line] = lines(kept_at)
    assert line["game"] == "kaboo" and line["players"] == game.players and line["seat"] == 0
    assert line["totals"] == game.result.totals and line["winners"] == game.result.winners
    assert line["rounds"] == game.result.rounds and line["seed"] == 3
    assert line["seats"] == [{"kind": "person"}, {"kind": "ai", "level": "random"}]
    assert line["place"] == (1 if 0 in game.result.winners else 2)
    assert line["memory_aid"] is False and line["hints_used"] is False and line["rated"] is True
    after = Rating(line["rating"]["mu"], line["rating"]["sigma"])
    assert after.sigma < Rating().sigma  # one rated game: less uncertain than a new player
    datetime.fromisoformat(line["time"])
    assert f"Your kaboo rating: {after.points}" in " ".join(result.output.split())


def test_a_hint_keeps_the_game_unrated(kept_at: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scripted_play(monkeypatch, before=("hint",))
    args = ["play", "kaboo", "--seed", "3", "--target", "none", "--opponents", "random"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    [line] = lines(kept_at)
    assert line["hints_used"] is True and line["rated"] is False and line["rating"] is None
    assert "not rated: a hint was asked for" in " ".join(result.output.split())


def test_the_memory_aid_keeps_the_game_unrated(
    kept_at: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_play(monkeypatch)
    args = ["play", "kaboo", "--seed", "3", "--target", "none", "-a", "random", "--memory-aid"]
    assert runner.invoke(app, args).exit_code == 0
    [line] = lines(kept_at)
    assert line["memory_aid"] is True and line["rated"] is False and line["rating"] is None


def test_a_game_left_before_its_end_is_not_kept(kept_at: Path) -> None:
    result = runner.invoke(app, ["play", "kaboo", "--seed", "3"], input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "You left the game." in result.output
    assert not kept_at.exists()


def table_near_the_end(**settings: Any) -> CardtableApp:
    """A full-screen table whose game lacks only its last move (the person's or an AI's)."""
    game = finished(person_wins=True)
    log = {**game.log, "actions": game.log["actions"][:-1]}
    return CardtableApp(
        cardtable.replay(log),
        opponents="random",
        bot_pause=0.0,
        peek_window=0.0,
        snap_window=0.0,
        flash=0.0,
        clock=FakeClock(),
        **settings,
    )


@sync
async def test_the_full_screen_table_keeps_each_finished_game_once(kept_at: Path) -> None:
    app_ = table_near_the_end(save=True)
    async with app_.run_test(size=(100, 35)) as pilot:
        await play_out(app_, pilot)
        first = app_.game.result
        await pilot.press("escape")  # from the result to the table, then the help over it
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app_.screen, HelpScreen)
        await pilot.press("escape")  # closing it shows the result again
        await pilot.pause()
        assert isinstance(app_.screen, ResultScreen)
        assert len(lines(kept_at)) == 1  # one line, however often the end is shown
        await pilot.press("n")  # play again: the next game is kept too
        await play_out(app_, pilot)
        second = app_.game.result
    assert first is not None and second is not None
    kept = lines(kept_at)
    assert [line["totals"] for line in kept] == [first.totals, second.totals]
    assert kept[1]["seed"] == kept[0]["seed"] + 1
    assert kept[0]["seats"][1] == {"kind": "ai", "level": "random"}
    assert all(line["rated"] and not line["practice"] for line in kept)
    assert kept[1]["rating"] != kept[0]["rating"]  # the second rated from the first


@sync
async def test_the_full_screen_table_with_memory_aid_is_kept_unrated(kept_at: Path) -> None:
    app_ = table_near_the_end(save=True, memory_aid=True)
    async with app_.run_test(size=(100, 35)) as pilot:
        await play_out(app_, pilot)
    [line] = lines(kept_at)
    assert line["memory_aid"] is True and line["rated"] is False and line["rating"] is None


@sync
async def test_a_table_that_does_not_save_keeps_no_history(kept_at: Path) -> None:
    app_ = table_near_the_end(save=False)
    async with app_.run_test(size=(100, 35)) as pilot:
        await play_out(app_, pilot)
        assert app_.game.over
    assert not kept_at.exists()


# ---------------------------------------------------------------------------- the rating
def test_a_rated_win_raises_the_rating_and_a_loss_lowers_it(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    win, loss = finished(person_wins=True), finished(person_wins=False)
    first = history.record_game(win, 0, "casual", memory_aid=False, hints_used=False, path=path)
    assert first.error is None and first.before is None and first.reason is None
    up = first.after
    assert up is not None and up.points > 1500
    assert history.read_history(path).rating("kaboo") == up
    second = history.record_game(loss, 0, "casual", memory_aid=False, hints_used=False, path=path)
    assert second.before == up  # rated from where the last rated game left it
    down = second.after
    assert down is not None and down.mu < up.mu
    assert history.read_history(path).rating("kaboo") == down
    assert history.read_history(path).rating("gabo") is None  # one rating per game type


def test_an_unrated_game_is_kept_but_does_not_move_the_rating(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    rated = history.record_game(
        finished(person_wins=True), 0, "casual", memory_aid=False, hints_used=False, path=path
    )
    for flags in (
        {"memory_aid": True, "hints_used": False},
        {"memory_aid": False, "hints_used": True},
        {"memory_aid": False, "hints_used": False, "practice": True},
    ):
        kept = history.record_game(finished(person_wins=True), 0, "casual", path=path, **flags)
        assert kept.after is None and kept.reason is not None and kept.error is None
        assert kept.record["rated"] is False
    found = history.read_history(path)
    assert len(found.records) == 4
    assert found.rating("kaboo") == rated.after  # only the rated game moved it
    assert [r["rated"] for r in found.records] == [True, False, False, False]


def test_the_levels_ratings_are_the_calibrated_ones(tmp_path: Path) -> None:
    """Beating a stronger level is worth more; the levels' ratings stay as calibrated."""
    levels = level_ratings("kaboo")
    assert levels["casual"].mu > levels["random"].mu
    win = finished(person_wins=True)
    assert win.result is not None
    args = ("kaboo", Rating(), 0)
    over_casual = history.rated_after(*args, [None, "casual"], win.result.totals, [0])
    over_random = history.rated_after(*args, [None, "random"], win.result.totals, [0])
    assert over_casual.mu > over_random.mu > Rating().mu
    assert level_ratings("kaboo") == levels
    # a level not calibrated counts as a new player
    over_new = history.rated_after(*args, [None, "no-such-level"], win.result.totals, [0])
    assert over_casual.mu > over_new.mu


def test_a_rating_in_a_many_seat_game_follows_the_place(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    game = finished(person_wins=False, variant="gabo", players=4)
    kept = history.record_game(game, 0, "random", memory_aid=False, hints_used=False, path=path)
    assert kept.record["place"] == 4 and len(kept.record["seats"]) == 4
    assert kept.after is not None and kept.after.mu < Rating().mu


# ---------------------------------------------------------------------------- the file
def test_a_corrupt_or_cut_line_is_skipped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    history.record_game(
        finished(person_wins=True), 0, "casual", memory_aid=False, hints_used=False, path=path
    )
    good = path.read_bytes()
    path.write_bytes(
        good + b"not json\n" + b'{"game": "kaboo"}\n' + b"\xff\xfe\n" + good[: len(good) // 2]
    )
    found = history.read_history(path)
    assert len(found.records) == 1 and found.skipped == 4
    # the next game starts on a line of its own: only the cut line is lost
    history.record_game(
        finished(person_wins=False), 0, "casual", memory_aid=False, hints_used=False, path=path
    )
    found = history.read_history(path)
    assert len(found.records) == 2 and found.skipped == 4
    assert found.records[1]["place"] == 2


def test_a_missing_folder_is_made(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "history.jsonl"
    kept = history.record_game(
        finished(person_wins=True), 0, "casual", memory_aid=False, hints_used=False, path=path
    )
    assert kept.error is None and len(history.read_history(path).records) == 1


def test_a_history_that_cannot_be_written_is_reported_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    kept = history.record_game(
        finished(person_wins=True),
        0,
        "casual",
        memory_aid=False,
        hints_used=False,
        path=blocker / "history.jsonl",
    )
    assert kept.error is not None
    assert history.kept_line(kept).startswith("This game could not be kept in your history")


def test_the_default_file_is_beside_the_save(kept_at: Path) -> None:
    assert history.history_path() == kept_at
    assert history.history_path().parent == saves.save_path().parent


def test_no_file_is_an_empty_history(tmp_path: Path) -> None:
    found = history.read_history(tmp_path / "none.jsonl")
    assert found.records == () and found.skipped == 0


# ---------------------------------------------------------------------------- cardtable stats
def _played(path: Path) -> list[history.Kept]:
    """Three kaboo games (two rated: a win, then a loss; one with the memory aid) and one gabo
    game, kept at ``path``."""
    at = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    out = []
    plays: list[tuple[cardtable.Game, bool]] = [
        (finished(person_wins=True), False),
        (finished(person_wins=False), False),
        (finished(person_wins=True, start=50), True),
        (finished(person_wins=True, variant="gabo", players=3), False),
    ]
    for game, aid in plays:
        out.append(
            history.record_game(
                game, 0, "casual", memory_aid=aid, hints_used=False, path=path, now=at
            )
        )
    return out


def test_stats_shows_each_game_with_the_rating_beside_the_levels(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    kept = _played(path)
    result = runner.invoke(app, ["stats", "--history", str(path)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Kaboo" in text and "Gabo" in text
    assert "games played 3" in text and "won 2 (67%)" in text and "rated games 2" in text
    rating = kept[1].after
    assert rating is not None
    low, high = rating.interval
    assert f"▸ you {rating.points} {low}–{high}" in text
    for level, r in level_ratings("kaboo").items():
        assert f"{level} (AI) {r.points}" in text
    assert "You stand" in text
    assert "Latest games" in text and "1 of 2" in text and "not rated" in text


def test_stats_of_one_game(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    _played(path)
    result = runner.invoke(app, ["stats", "GABO", "--history", str(path)])
    assert result.exit_code == 0, result.output
    assert "Gabo" in result.output and "Kaboo" not in result.output


def test_stats_json_has_the_players_shape(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    kept = _played(path)
    result = runner.invoke(app, ["stats", "--history", str(path), "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert set(body["games"]) == {"kaboo", "gabo"}
    kaboo = body["games"]["kaboo"]
    assert kaboo["played"] == 3 and kaboo["won"] == 2 and kaboo["rated"] == 2
    totals = [k.record["totals"][0] for k in kept[:3]]
    assert kaboo["avg_score"] == round(sum(totals) / 3, 2)
    rating = kept[1].after
    assert rating is not None
    low, high = rating.interval
    assert kaboo["rating"]["points"] == rating.points
    assert (kaboo["rating"]["low"], kaboo["rating"]["high"]) == (low, high)
    assert kaboo["rating"]["mu"] == round(rating.mu, 4)
    assert kaboo["rating"]["sigma"] == round(rating.sigma, 4)
    assert set(kaboo["levels"]) == set(level_ratings("kaboo"))
    assert [r["game"] for r in body["recent"]] == ["gabo", "kaboo", "kaboo", "kaboo"]
    assert body["recent"][0] == kept[3].record  # newest first, as kept
    assert body["skipped"] == 0


def test_stats_json_keeps_the_ten_latest_games(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    game = finished(person_wins=True)
    for _ in range(12):
        history.record_game(game, 0, "casual", memory_aid=True, hints_used=False, path=path)
    body = json.loads(runner.invoke(app, ["stats", "--history", str(path), "--json"]).output)
    assert body["games"]["kaboo"]["played"] == 12
    assert body["games"]["kaboo"]["rating"] is None  # none of them rated
    assert len(body["recent"]) == history.RECENT == 10


def test_stats_with_no_games_says_how_to_play_one(kept_at: Path) -> None:
    result = runner.invoke(app, ["stats"])
    assert result.exit_code == 0, result.output
    assert "No games yet" in result.output and "cardtable play kaboo" in result.output
    result = runner.invoke(app, ["stats", "qute"])
    assert "No games of Qute yet" in result.output and "cardtable play qute" in result.output
    body = json.loads(runner.invoke(app, ["stats", "--json"]).output)
    assert body == {"games": {}, "recent": [], "skipped": 0}


def test_stats_says_how_many_lines_it_skipped(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    _played(path)
    with path.open("a", encoding="utf-8") as f:
        f.write("{broken\n")
    result = runner.invoke(app, ["stats", "--history", str(path)])
    assert result.exit_code == 0, result.output
    assert "1 line of" in result.output and "games played 3" in " ".join(result.output.split())


def test_stats_refuses_an_unknown_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["stats", "kabo0", "--history", str(tmp_path / "h.jsonl")])
    assert result.exit_code == 2
    assert "unknown game" in result.output


def test_stats_speaks_german(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    _played(path)
    result = runner.invoke(app, ["--lang", "de", "stats", "--history", str(path)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "gespielte Partien 3" in text and "Letzte Partien" in text and "(KI)" in text
