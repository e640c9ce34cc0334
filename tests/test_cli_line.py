"""Tests of the terminal's line mode and its conventions: the step-by-step move menu (a
number is a card position), snap windows, quitting, redraws, the words of skips and scores,
and the command line's version, help, game names, seed and error style."""

from __future__ import annotations

import io
import itertools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import cardtable
from cardtable.cli import app, describe_event, play_loop, render_round_end, render_view
from cardtable.cli.rules import resolve_variant
from cardtable.text.render import MENU_MAX, Choice, step_choices
from cardtable.text.rules import plain_rules

runner = CliRunner()

CABO_DEAL = ["13", "4", "0", "4", "5", "6", "5", "6", "9", "3"]
"""A stacked two-seat cabo deal: seat 0 holds 13, 0, 5, 5; the discard pile starts with 9 and
the first card drawn is 3."""


def console() -> tuple[Console, io.StringIO]:
    """A console without colours that writes into a buffer."""
    buf = io.StringIO()
    return Console(file=buf, width=120, color_system=None, force_terminal=False), buf


def cabo() -> cardtable.Game:
    """A single round of two-seat cabo from :data:`CABO_DEAL`."""
    return cardtable.new_game("cabo", players=2, seed=1, deck=CABO_DEAL, options={"target": None})


def steps(
    legal: list[str], prefix: tuple[str, ...] = (), group: str = ""
) -> Iterator[list[Choice]]:
    """Every step of the move menu reachable from ``prefix``."""
    choices = step_choices(legal, list(prefix), group)
    yield choices
    for c in choices:
        if c.group:
            yield from steps(legal, prefix, c.word)
        elif c.word:
            yield from steps(legal, (*prefix, c.word))


def flat(text: str) -> str:
    """Output with panel borders and runs of spaces collapsed."""
    return " ".join(text.replace("│", " ").split())


# ---------------------------------------------------------------------------- numbering
def test_a_number_is_the_card_position_step_by_step() -> None:
    game = cabo()
    out, buf = console()
    script = ["peek 0", "peek 1", "draw", "deck", "replace", "3", "quit", "y"]
    assert not play_loop(game, 0, out, script)
    mine = [text for seat, text in game.log["actions"] if seat == 0]
    assert mine == ["peek 0", "peek 1", "draw deck", "replace 3"]
    text = buf.getvalue()
    assert "replace › card 0 1 2 3" in text
    assert "you put the drawn card at your card 3 and threw away the [5]" in text


def test_a_bare_number_at_the_verb_step_is_not_a_menu_number() -> None:
    game = cabo()
    out, buf = console()
    assert not play_loop(game, 0, out, ["peek 0", "peek 1", "draw deck", "3", "quit", "y"])
    assert [0, "replace 3"] not in game.log["actions"]
    assert "unknown action '3'" in buf.getvalue()


def test_letters_pick_entries_and_back_undoes_a_step() -> None:
    game = cabo()
    out, buf = console()
    # every word keeps its letter: d) draw, c) cabo; after draw: e) deck, i) discard
    script = ["peek 0", "peek 1", "d", "back", "d", "d", "e", "quit", "y"]
    assert not play_loop(game, 0, out, script)
    assert [0, "draw deck"] in game.log["actions"]
    text = buf.getvalue()
    assert "Your move: d) draw  c) cabo" in text
    assert "draw › e) deck  i) discard" in text
    # a key typed out of habit is refused with a word, never taken for another entry
    assert "d is 'draw', which is not possible now" in text


def test_a_card_alone_is_enough_where_one_word_leads_to_it() -> None:
    game = cabo()
    out, buf = console()
    assert not play_loop(game, 0, out, ["0", "p 1", "quit", "y"])
    assert [a for s, a in game.log["actions"] if s == 0] == ["peek 0", "peek 1"]
    assert "Your move: p) peek" in buf.getvalue()  # no step is taken for the person


@pytest.mark.parametrize(("name", "players"), [("gabo", 4), ("cabo-german", 3), ("kaboo", 3)])
def test_every_word_has_one_key_in_every_menu(name: str, players: int) -> None:
    from cardtable.text.keys import RESERVED, word_keys

    keys = word_keys(name)
    seen: dict[str, str] = {}
    for legal in _walk_legal(name, players, range(3)):
        for choices in steps(legal):
            for c in choices:
                if c.group or not c.word or c.key == c.word:
                    continue
                assert c.key not in RESERVED
                assert seen.setdefault(c.word, c.key) == c.key, c.word
                assert keys[c.word] == c.key
    assert {"draw", "deck", "discard", "replace", "pass"} <= set(seen)
    assert len(set(seen.values())) == len(seen)  # and one word for each key


def test_the_help_says_how_to_type_moves() -> None:
    out, buf = console()
    assert not play_loop(cabo(), 0, out, ["help", "quit", "y"])
    text = flat(buf.getvalue())
    assert "a card is always typed as its position" in text
    assert "numbers are never menu numbers" in text


def test_rules_in_line_mode_are_the_plain_words_page() -> None:
    out, buf = console()
    assert not play_loop(cabo(), 0, out, ["rules", "quit", "y"])
    text = flat(buf.getvalue())
    plain = plain_rules("cabo").splitlines()
    heading = next(line for line in plain if line.startswith("#")).lstrip("# ").strip()
    assert heading in text
    assert "replace N" not in text and "draw deck" not in text  # no notation


def test_hint_lists_every_move_with_the_search_numbers_and_changes_nothing() -> None:
    game = cabo()
    out, buf = console()
    script = ["peek 0", "peek 1", "draw deck", "hint", "quit", "y"]
    assert not play_loop(game, 0, out, script)
    text = flat(buf.getvalue())
    assert "Hint: what the search expects of each move" in text
    assert text.count("win chance") == len(game.legal_actions(0))
    assert "★ " in text
    assert "put the drawn card in place of your card 0" in text  # the known 13
    assert [t for s, t in game.log["actions"] if s == 0][-1] == "draw deck"  # nothing played


# ---------------------------------------------------------------------------- small menus
def _walk_legal(name: str, players: int, seeds: range) -> Iterator[list[str]]:
    for seed in seeds:
        game = cardtable.new_game(name, players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(250):
            if game.over:
                break
            seat = game.actors[0]
            legal: list[str] = game.view(seat)["legal"]
            yield legal
            game.play(seat, rng.choice(legal))


@pytest.mark.parametrize(("name", "players"), [("gabo", 10), ("cabo", 4), ("kaboo", 4)])
def test_no_step_of_the_menu_lists_more_than_twelve(name: str, players: int) -> None:
    biggest = 0
    for legal in _walk_legal(name, players, range(4)):
        biggest = max(biggest, len(legal))
        for choices in steps(legal):
            assert len(choices) <= MENU_MAX, [c.label for c in choices]
    assert biggest > 40  # the lists the menu breaks up were long


def test_many_addresses_go_seat_by_seat() -> None:
    legal = [f"exchange {a} {s}.{p}" for a in range(4) for s in range(1, 10) for p in range(4)]
    legal.append("pass")
    top = step_choices(legal, [])
    assert [c.label for c in top] == ["exchange", "pass"]
    first = step_choices(legal, ["exchange"])
    assert [c.key for c in first] == ["0", "1", "2", "3"]  # your own cards, typed as themselves
    seats = step_choices(legal, ["exchange", "0"])
    assert all(c.group for c in seats) and len(seats) == 9
    assert seats[0].label == "seat 1 (1.0–1.3)"
    one = step_choices(legal, ["exchange", "0"], seats[0].word)
    assert [c.key for c in one] == ["1.0", "1.1", "1.2", "1.3"]


# ---------------------------------------------------------------------------- snap windows
def test_a_snap_window_is_passed_with_a_bare_enter() -> None:
    game = cardtable.new_game("gabo", players=4, seed=5, options={"target": None})
    rng = random.Random(5)
    asked_in_snap = 0

    def answer(prompt: str) -> str:
        nonlocal asked_in_snap
        if game.timed_window() == "snap":
            asked_in_snap += 1
            return ""
        legal = [a for a in game.view(0)["legal"] if a != "gabo"]
        return rng.choice(legal)

    out, buf = console()
    assert play_loop(game, 0, out, answer)
    passes = [text for seat, text in game.log["actions"] if seat == 0 and text == "pass"]
    assert asked_in_snap > 3
    assert len(passes) >= asked_in_snap
    text = buf.getvalue()
    assert "Enter) pass" in text
    bot_passes = sum(1 for seat, a in game.log["actions"] if seat != 0 and a == "pass")
    printed = len(re.findall(r"seat \d passed", text))
    assert printed < bot_passes  # the bots' passes in snap windows are not announced


# ---------------------------------------------------------------------------- the loop
def test_quit_asks_first() -> None:
    out, buf = console()
    assert not play_loop(cabo(), 0, out, ["quit", "n", "peek 0", "quit", "yes"])
    text = buf.getvalue()
    assert text.count("quit? y/N") == 2
    assert "you peeked at your card 0" in text
    assert "You left the game." in text


def test_the_table_is_not_reprinted_when_nothing_changed() -> None:
    out, buf = console()
    assert not play_loop(cabo(), 0, out, ["banana", "", "peek 9", "quit", "y"])
    assert buf.getvalue().count("╭─ Table") == 1


def test_seats_sit_side_by_side_in_a_wide_terminal() -> None:
    game = cardtable.new_game("gabo", players=6, seed=1)
    out, buf = console()
    out.print(render_view(game.view(0), 0, "Gabo"))
    lines = buf.getvalue().splitlines()
    assert any("Seat 1" in ln and "Seat 2" in ln and "Seat 3" in ln for ln in lines)
    assert len(lines) < 30


def test_hand_rows_are_labelled() -> None:
    out, buf = console()
    out.print(render_view(cabo().view(0), 0, "Cabo"))
    rows = [ln.replace("│", " ").split() for ln in buf.getvalue().splitlines()]
    labels = [r[0] for r in rows if r and r[0] in ("pos", "card", "seen")]
    assert labels == ["pos", "card", "seen"] * 2


def test_after_bots_runs_before_the_person_is_asked_again() -> None:
    calls: list[int] = []
    out, _ = console()
    game = cabo()
    play_loop(
        game,
        0,
        out,
        ["peek 0", "peek 1", "draw deck", "replace 3", "quit", "y"],
        after_bots=lambda: calls.append(len(game.log["actions"])),
    )
    assert calls  # the bots moved (seat 1's peeks and turn) and the keys were dropped after


# ---------------------------------------------------------------------------- words
def _skips(seeds: range) -> Iterator[dict[str, Any]]:
    for seed in seeds:
        game = cardtable.new_game("qute", players=3, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            seat = game.actors[0]
            for ev in game.play(seat, rng.choice(game.view(seat)["legal"])):
                if ev.type == "skip":
                    yield ev.for_seat(0)


def _words(ev: dict[str, Any]) -> str:
    out, buf = console()
    for part in describe_event(ev, 0, "qute"):
        out.print(part)
    return flat(buf.getvalue())


def test_qute_skips_name_their_cause() -> None:
    found = {"8": 0, "A": 0}
    for ev in _skips(range(40)):
        words = _words(ev)
        if ev["for"] == "8" and len(set(ev["seats"])) > 1:  # eights all
            assert words.startswith("after the 8s ("), words
        elif ev["for"] == "8":
            assert words.startswith("the 8 skips"), words
        else:
            assert words.startswith(("the ace skips", "the aces skip")), words
        found[ev["for"]] += 1
    assert found["8"] and found["A"]
    assert _words({"type": "skip", "seats": [1], "for": "8"}) == "the 8 skips seat 1"
    assert _words({"type": "skip", "seats": [1], "for": "A"}) == "the ace skips seat 1"


def test_eights_all_never_calls_a_seat_skipped_that_then_plays() -> None:
    """With more 8s than other seats, 'eights all' makes a seat draw twice and play goes on
    after the last to draw: a seat that drew may play next (RULES.md, Qute). The words say
    so instead of calling it skipped."""
    game = cardtable.new_game("qute", players=3, seed=19, options={"target": None})
    rng = random.Random(19)
    while not game.over:
        seat = game.actors[0]
        legal = game.view(seat)["legal"]
        action = "eights all" if "eights all" in legal else rng.choice(legal)
        events = [ev.for_seat(0) for ev in game.play(seat, action)]
        draws = [ev["seat"] for ev in events if ev["type"] == "penalty" and ev["for"] == "8"]
        if action == "eights all" and len(draws) > 2:
            break
    else:
        raise AssertionError("no 'eights all' with more 8s than other seats")
    turn = next(ev["seat"] for ev in events if ev["type"] == "turn")
    assert turn in draws  # the engine's behaviour the words must match
    text = " / ".join(_words(ev) for ev in events)
    assert "skipped" not in text and "skip" not in text.split("turn")[0], text
    assert "play goes on after the last seat to draw" in text
    assert "chooses eights all: the other seats draw two each per 8, in turn" in text


def _results(game: str, adjustments: list[list[dict[str, Any]]], **extra: Any) -> str:
    sums = [5, 4, 50]
    scores = [n + sum(a["points"] for a in adj) for n, adj in zip(sums, adjustments, strict=True)]
    info = {
        "round": 1,
        "sums": sums,
        "scores": scores,
        "adjustments": adjustments,
        "winners": [scores.index(min(scores))],
        "caller": 0,
        "hands": [["1", "4"], ["2", "2"], ["12", "12", "13", "13"]],
        "totals": scores,
        "reset": [],
        **extra,
    }
    out, buf = console()
    out.print(render_round_end(info, 0, game))
    return flat(buf.getvalue())


def test_round_results_say_each_step_from_the_sum_to_the_score() -> None:
    text = _results("cabo", [[{"reason": "caller_penalty", "points": 10}], [], []])
    assert "call failed: +10" in text
    assert "★ won the round" in text
    assert "a caller with the lowest sum (ties too) scores 0" in text  # cabo's rule, for cabo
    text = _results(
        "cabo",
        [
            [{"reason": "kamikaze_victim", "points": 45}],
            [{"reason": "kamikaze_victim", "points": 46}],
            [{"reason": "kamikaze", "points": -50}],
        ],
    )
    assert "other's Kamikaze: 50" in text
    assert "Kamikaze: 0" in text
    text = _results("cabo", [[{"reason": "caller_lowest", "points": -5}], [], []])
    assert "lowest caller: 0" in text


def test_round_results_explain_only_the_game_played() -> None:
    gabo = _results("gabo", [[{"reason": "caller_penalty", "points": 20}], [], []])
    assert "Gabo: a caller whose sum is above 5" in gabo
    assert "Kamikaze" not in gabo and "Cabo:" not in gabo
    german = _results("cabo-german", [[], [], []])
    assert "Cabo:" not in german and "Gabo:" not in german
    assert "no call bonus or penalty" in german


def test_a_total_halved_at_exactly_the_target_says_so() -> None:
    text = _results("cabo", [[], [], []], totals=[50, 4, 50], reset=[0])
    assert "50 (halved: exactly the target)" in text
    assert "A total of exactly the target is halved" in text


# ---------------------------------------------------------------------------- the commands
def test_version_and_short_help() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert re.fullmatch(r"cardtable \S+\n", result.output)
    for args in (["-h"], ["play", "-h"], ["rules", "-h"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, args
        assert "Usage:" in result.output


def test_help_reads_whole_at_80_columns() -> None:
    for args in (["-h"], ["play", "-h"], ["rules", "-h"], ["variants", "-h"]):
        result = runner.invoke(app, args, terminal_width=80, env={"COLUMNS": "80"})
        lines = [ln.strip() for ln in result.output.splitlines()]
        # a sentence never stops at a short line and goes on in the next one
        for a, b in itertools.pairwise(lines):
            if a and b and not a.startswith(("╭", "│", "╰")) and len(a) < 40:
                assert not b[:1].islower(), (a, b)


def test_game_names_ignore_case_and_typos_get_a_suggestion() -> None:
    assert resolve_variant("GABO") == "gabo"
    result = runner.invoke(app, ["rules", "Cabo"])
    assert result.exit_code == 0
    result = runner.invoke(app, ["play", "gabbo"])
    assert result.exit_code == 2
    assert "did you mean 'gabo'?" in result.stderr
    assert result.stderr.startswith("error: ")
    # the arena takes game names the same way
    result = runner.invoke(app, ["arena", "KABOO", "--agents", "random", "--games", "2"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["arena", "kabo", "--agents", "random", "--games", "2"])
    assert result.exit_code == 2
    assert "did you mean 'kaboo'?" in result.stderr


def test_rules_piped_are_plain() -> None:
    result = runner.invoke(app, ["rules", "kaboo"])
    assert result.exit_code == 0
    assert "\x1b[" not in result.output


def _seed(output: str) -> int:
    match = re.search(r"replay this deal with --seed (\d+)", output)
    assert match, output
    return int(match.group(1))


def test_play_deals_a_fresh_seed_and_prints_it() -> None:
    seeds = set()
    for _ in range(3):
        result = runner.invoke(app, ["play", "cabo"], input="quit\ny\n")
        assert result.exit_code == 0, result.output
        seeds.add(_seed(result.output))
    assert len(seeds) > 1
    seed = seeds.pop()
    again = [
        runner.invoke(app, ["play", "cabo", "--seed", str(seed)], input="quit\ny\n")
        for _ in range(2)
    ]
    assert _seed(again[0].output) == seed
    assert again[0].output == again[1].output  # the same deal


def test_one_error_style_and_exit_codes() -> None:
    for args in (["play", "nosuch"], ["rules", "nosuch"], ["play", "cabo", "-o", "x"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert result.stderr.startswith("error: "), args
        assert "error:" not in result.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "gabo", "--foo"], "no such option: --foo"),
        (["play", "gabo", "-p", "x"], "--players takes a whole number"),
        (["play", "gabo", "--peek-window", "nan"], "--peek-window must be from 0 to 3600"),
        (["play", "gabo", "--snap-window", "inf"], "--snap-window must be from 0 to 3600"),
        (["play", "gabo", "--peek-window", "-1"], "--peek-window must be from 0 to 3600"),
        (["play", "gabo", "--reveal", "0"], "--reveal must be from 0.5 to 30"),
        (["play", "gabo", "--seed", "-5"], "--seed must be from 0 to 9223372036854775807, got -5"),
        (["arena", "gabo"], "missing option '--agents'"),
        (["arena", "gabo", "-a", "random", "--seed", "-1"], "--seed must be from 0"),
        (["serve", "--port", "99999"], "--port must be from 0 to 65535, got 99999"),
        (["serve", "--ai-delay", "nan"], "--ai-delay must be 0 seconds or more, got nan"),
        (["serve", "--turn-time", "inf"], "--turn-time must be 0 seconds or more"),
        (["serve", "--idle-time", "-1"], "--idle-time must be 0 seconds or more"),
        (["nosuch"], "no such command 'nosuch'"),
        (["play"], "which game?"),
    ],
)
def test_every_usage_error_is_one_line(args: list[str], said: str) -> None:
    result = runner.invoke(app, args, terminal_width=80)
    assert result.exit_code == 2, (args, result.output)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr  # no boxed panel, no traceback
    assert lines[0].startswith("error: ") and said in lines[0], lines[0]


@pytest.mark.parametrize("command", ["", "play", "rules", "variants", "arena", "serve"])
def test_help_names_what_each_option_takes(command: str) -> None:
    result = runner.invoke(app, [*command.split(), "-h"], terminal_width=100)
    assert result.exit_code == 0
    # a word for what an option takes (N, SECONDS, PATH), never a Python type or a flag's bool
    assert not re.search(r"<(int|str|float|bool|path|list\[str\])>", result.output), result.output
    if command == "play":
        assert re.search(r"--peek-window\s+SECONDS", result.output)
        assert "GAME" in result.output


def test_the_pager_renders_colour_or_gets_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.cli import rules

    monkeypatch.delenv("PAGER", raising=False)
    monkeypatch.delenv("LESS", raising=False)
    monkeypatch.setattr(rules.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert rules._pager() == (["less", "-R"], True)  # colours only through less -R
    monkeypatch.setenv("PAGER", "more")
    assert rules._pager() == (["more"], False)  # any other pager: plain text
    monkeypatch.setenv("PAGER", "less")
    assert rules._pager() == (["less"], False)
    monkeypatch.setenv("LESS", "-FRX")
    assert rules._pager() == (["less"], True)
    monkeypatch.setattr(rules.shutil, "which", lambda name: None)
    assert rules._pager() is None


def test_rules_through_a_pager_that_shows_no_colour_get_no_escape_codes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    from cardtable.cli import rules

    shown = tmp_path / "paged.txt"
    monkeypatch.setenv("PAGER", f"tee {shown}")
    monkeypatch.setattr(rules.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(rules.subprocess, "run", _capture_into(shown))
    rules._page(rules.rules_markdown("gabo"))
    text = shown.read_text(encoding="utf-8")
    assert "Snapping" in text
    assert "\x1b[" not in text


def _capture_into(path: Any) -> Any:
    def run(command: list[str], input: str, **_: Any) -> None:
        path.write_text(input, encoding="utf-8")

    return run
