"""Every registered game has a lesson that plays to its end, covers every rule of its game, and
answers each kind of move as documented (:mod:`cardtable.learn.lessons`): the expected move is
played, a legal but unexpected one is explained and not played, an illegal one is refused, and
neither changes anything — in English and in German."""

from __future__ import annotations

import copy
import dataclasses
import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardtable import variants
from cardtable.catalog import language, say
from cardtable.catalog import load as load_catalog
from cardtable.cli.app import app
from cardtable.cli.learn import lesson_loop
from cardtable.games.family import add_variant, remove_variant
from cardtable.games.family.rulesets import KABOO, SWAP_ANY
from cardtable.learn.coverage import rules_of
from cardtable.learn.lessons import (
    LessonError,
    LessonRun,
    Outcome,
    answer,
    available,
    load,
    parse,
)
from cardtable.seat import Seat

GAMES = variants.names()

TYPED = re.compile(
    r"\b(draw (deck|discard)|replace \d|peek \d|spy \d|exchange \d|look \d|drop \d|give \d"
    r"|play \d|jpoints (minus|plus)|eights (all|next)|suit [CDHS]\b)"
)
"""A typed move, which a learner never reads in a lesson's words."""


def _state(run: LessonRun) -> tuple[Any, ...]:
    """Everything a move that is not played must leave as it was."""
    game = run.game
    return (
        copy.deepcopy(game.log),
        copy.deepcopy(game.view(run.me)),
        copy.deepcopy(game.view(run.me, memory=False)),
        run.index,
    )


def _unexpected(run: LessonRun) -> str | None:
    """A legal move the current step does not expect, if there is one."""
    expected = set(run.expected())
    legal = [str(a) for a in run.game.legal_actions(run.me)]
    return next((t for t in legal if t not in expected), None)


def _walk(game: str) -> Iterator[LessonRun]:
    """A run of ``game``'s lesson, yielded at each step before it is answered, and answered
    with its first expected move (or gone on from, on a step to read)."""
    run = load(game).start(seed=3)
    while not run.done:
        yield run
        if run.reading:
            outcome = run.go_on()
        else:
            expected = run.expected()
            assert expected, f"{game}, step {run.index + 1}: no legal move is expected"
            outcome = run.try_move(expected[0])
        assert outcome.accepted, (game, run.index, outcome)
    yield run


# ---------------------------------------------------------------------------- the files
def test_every_registered_game_has_a_lesson() -> None:
    assert available() == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_the_lesson_covers_every_rule_of_its_game(game: str) -> None:
    lesson = load(game)
    assert lesson.covers() >= rules_of(game), sorted(rules_of(game) - lesson.covers())
    assert lesson.covers() <= rules_of(game), f"unknown ids {lesson.covers() - rules_of(game)}"


@pytest.mark.parametrize("game", GAMES)
def test_every_word_of_the_lesson_is_in_english_and_german(game: str) -> None:
    english, german = load_catalog("en"), load_catalog("de")
    for key in sorted(load(game).messages()):
        assert key in english.messages, f"{key} is not in English"
        assert key in german.messages, f"{key} is not in German"
        with language("en"):
            text = say(key, game="Game", n=1, total=2, name="game")
        with language("de"):
            assert say(key, game="Game", n=1, total=2, name="game") != text
        assert not TYPED.search(text), f"{key} shows a typed move to the learner: {text!r}"


@pytest.mark.parametrize("game", GAMES)
def test_the_last_step_offers_a_round_against_the_beginner(game: str) -> None:
    steps = load(game).steps
    assert steps[-1].final == "beginner"
    assert all(s.final is None for s in steps[:-1])
    assert any(not s.reading for s in steps), "a lesson lets the learner play"


# ---------------------------------------------------------------------------- a run
@pytest.mark.parametrize("game", GAMES)
def test_the_lesson_plays_to_its_end(game: str) -> None:
    runs = list(_walk(game))
    run = runs[-1]
    assert run.done and run.final == "beginner"
    assert run.game.over, "the lesson shows the round's end and its scores"
    assert run.index == len(run.lesson.steps) - 1
    assert not run.go_on().accepted  # the final step stays


@pytest.mark.parametrize("game", GAMES)
def test_a_legal_but_unexpected_move_is_explained_and_not_played(game: str) -> None:
    tried = 0
    for run in _walk(game):
        if run.done or run.reading:
            continue
        wrong = _unexpected(run)
        if wrong is None:
            continue
        before = _state(run)
        with language("en"):
            english = run.try_move(wrong)
        with language("de"):
            german = run.try_move(wrong)
        for outcome in (english, german):
            assert outcome == Outcome(False, outcome.words, "wrong", move=outcome.move)
            assert outcome.words.strip() and outcome.move.strip()
        assert english.words != german.words, (run.step.say, wrong)
        assert _state(run) == before, f"{game}: {wrong!r} changed the table"
        tried += 1
    assert tried >= 5, "most steps have another legal move to explain"


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_move_is_refused_with_the_games_words(game: str) -> None:
    for run in _walk(game):
        if run.done:
            continue
        before = _state(run)
        for text in ("fly away", "peek 99", "replace", ""):
            outcome = run.try_move(text)
            assert not outcome.accepted and outcome.events == ()
            if run.reading:
                assert outcome.kind == "read"
                assert outcome.words == say("learn.read_on", game=run.lesson.title)
            else:
                assert outcome.kind == "refused", (text, outcome)
                assert outcome.words.strip()
        assert _state(run) == before


@pytest.mark.parametrize("game", GAMES)
def test_the_expected_move_plays_the_scripted_answers_and_says_the_next_step(game: str) -> None:
    run = load(game).start(seed=3)
    while run.reading:
        run.go_on()
    step = run.step
    moves = run.game.moves_played
    outcome = run.try_move(run.expected()[0])
    assert outcome.accepted and outcome.kind == "played"
    assert run.game.moves_played == moves + 1 + len(step.then)
    assert outcome.words == run.words
    assert outcome.events
    with language("de"):
        assert run.words != outcome.words  # read in the language in use when asked


@pytest.mark.parametrize("game", GAMES)
def test_the_learner_is_to_act_at_every_step_that_waits_for_a_move(game: str) -> None:
    for run in _walk(game):
        if not run.reading and not run.done:
            assert run.seat.to_act
            assert run.seat.memory is False  # a person plays without memory aid


@pytest.mark.parametrize("game", GAMES)
def test_the_real_round_is_a_fresh_game_against_beginners(game: str) -> None:
    run = list(_walk(game))[-1]
    real = run.real_round(seed=4)
    assert real.game is not run.game and not real.game.over
    assert real.game.variant == game and real.seat == run.me
    assert real.opponents == "beginner"
    assert set(real.bots) == set(range(real.game.players)) - {run.me}
    for _ in range(20):  # the bots can play it
        actor = real.game.actors[0]
        if real.game.over:
            break
        if actor == run.me:
            real.game.play(actor, real.game.legal_actions(actor)[0])
        else:
            real.game.play(actor, real.bots[actor].act(Seat(real.game, actor)))


# ---------------------------------------------------------------------------- coverage
def test_a_new_power_shows_up_among_the_rules() -> None:
    name = "kaboo-learn-test"
    powered = dataclasses.replace(
        KABOO, name=name, title="Kaboo test", powers={**KABOO.powers, "K": SWAP_ANY}
    )
    add_variant(powered)
    try:
        assert rules_of(name) - rules_of("kaboo") == {"power.swap_any"}
        with pytest.raises(ValueError, match="no lesson"):
            load(name)
        assert name not in available()
    finally:
        remove_variant(name)


def test_rules_of_an_unknown_game_is_an_error() -> None:
    with pytest.raises(ValueError):
        rules_of("whist")
    with pytest.raises(ValueError):
        load("whist")


# ---------------------------------------------------------------------------- bad files
GOOD: dict[str, Any] = {
    "game": "kaboo",
    "players": 2,
    "options": {"first": 0},
    "hands": [["2C", "3C", "4C", "5C"], ["2D", "3D", "4D", "5D"]],
    "steps": [
        {"say": "learn.kaboo.draw", "expect": ["draw deck"]},
        {"say": "learn.final", "final": "beginner"},
    ],
}


def test_a_small_lesson_file_parses_and_deals_its_hands() -> None:
    lesson = parse(GOOD)
    assert lesson.deck[:8] == ("2C", "2D", "3C", "3D", "4C", "4D", "5C", "5D")
    run = lesson.start()
    with language("en"):
        wrong, refused = run.try_move("knock"), run.try_move("draw")
        assert wrong.kind == "wrong" and wrong.words == say("learn.wrong")
        assert wrong.move == "call Knock"
        assert answer(wrong) == "Not this move (call Knock): " + say("learn.wrong")
        assert refused.kind == "refused" and refused.move == ""
        assert answer(refused) == "Not this move: " + refused.words
    assert run.try_move("draw deck").accepted and run.done


@pytest.mark.parametrize(
    "change",
    [
        {"game": 3},
        {"players": "two"},
        {"seat": 5},
        {"steps": []},
        {"steps": [{"say": "learn.final"}]},
        {"steps": [{"say": "learn.final", "final": "beginner"}, {"say": "learn.final"}]},
        {"steps": [{"say": "learn.no.such.words", "final": "beginner"}]},
        {"steps": [{"say": "learn.final", "final": "beginner", "then": [["1", "pass"]]}]},
        {"steps": [{"say": "learn.final", "final": "beginner", "expect": "draw deck"}]},
        {"steps": [{"say": "learn.final", "final": "beginner", "what": 1}]},
        {"hands": [["2C"], ["2D", "3D"]]},
        {"hands": None},
    ],
)
def test_a_wrong_lesson_file_is_an_error(change: dict[str, Any]) -> None:
    with pytest.raises(LessonError):
        parse({**GOOD, **change})


def test_a_scripted_move_the_game_refuses_is_a_lesson_error() -> None:
    broken = {
        **GOOD,
        "steps": [
            {"say": "learn.kaboo.draw", "expect": ["draw deck"], "then": [[1, "knock"]]},
            {"say": "learn.final", "final": "beginner"},
        ],
    }
    run = parse(broken).start()
    with pytest.raises(LessonError, match="scripted move"):
        run.try_move("draw deck")


# ---------------------------------------------------------------------------- line mode
def _answers(game: str) -> list[str]:
    """The lines that take ``game``'s lesson to its end: Enter on a step to read, the first
    expected move (typed whole) on the others."""
    lines = []
    for run in _walk(game):
        if not run.done:
            lines.append("" if run.reading else run.expected()[0])
    return lines


@pytest.mark.parametrize("game", GAMES)
def test_the_line_mode_goes_through_the_lesson(game: str) -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False, color_system=None)
    run = load(game).start(seed=3)
    lines = _answers(game)
    wrong = next(i for i, step in enumerate(run.lesson.steps) if set(step.wrong) - {"*"})
    reads = sum(1 for step in run.lesson.steps[:wrong] if step.reading)
    # at the first step with words for a named wrong move: that move, then a word that is none
    named = next(k for k in run.lesson.steps[wrong].wrong if k != "*" and "*" not in k)
    lines[wrong:wrong] = [named, "fly"]
    with language("en"):
        wanted = lesson_loop(run, console, [*lines, "n"])
        said = say(run.lesson.steps[wrong].wrong[named], game=run.lesson.title)
    text = " ".join(out.getvalue().split())
    assert wanted is False and run.done and run.game.over
    assert " ".join(said.split()) in text
    assert "Not this move (" in text
    assert "Not this move: unknown action 'fly'" in text
    assert reads <= text.count("Enter: go on")
    assert " ".join(say("learn.final", game=run.lesson.title).split()[:6]) in text


def test_the_line_mode_asks_for_the_real_round_and_may_be_left() -> None:
    console = Console(file=io.StringIO(), width=100, force_terminal=False)
    assert lesson_loop(load("kaboo").start(), console, [*_answers("kaboo"), ""]) is True
    assert lesson_loop(load("kaboo").start(), console, ["", "quit", "y"]) is None
    assert lesson_loop(load("kaboo").start(), console, ["", "draw deck"]) is None  # input ends


# ---------------------------------------------------------------------------- the command
def test_cardtable_learn_runs_the_lesson_in_line_mode() -> None:
    runner = CliRunner()
    env = {"CARDTABLE_LANG": "en", "COLUMNS": "100"}
    done = runner.invoke(app, ["learn", "KABOO", "--plain"], input="\nquit\ny\n", env=env)
    assert done.exit_code == 0, done.output
    text = " ".join(done.output.split())
    assert "Learning Kaboo · step 1 of 21" in text and "step 2 of 21" in text
    assert "You left the lesson. 'cardtable learn kaboo' starts it again." in text


def test_cardtable_learn_refuses_an_unknown_game() -> None:
    done = CliRunner().invoke(app, ["learn", "whist"])
    assert done.exit_code == 2
    assert "whist" in done.output
