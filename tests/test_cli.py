"""Tests of the terminal front end: commands, the play loop, and that it never leaks a card."""

from __future__ import annotations

import dataclasses
import io
import itertools
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import cardtable
from cardtable import agents, cli, variants
from cardtable.cards import cabo_deck, short_deck, standard_deck
from cardtable.cli import (
    FACE_DOWN,
    HAND_ROW,
    PLAYABLE_MARK,
    app,
    describe_event,
    play_loop,
    playable_cards,
    render_view,
    rules_markdown,
)
from cardtable.games.family import add_variant, remove_variant
from cardtable.games.family.rulesets import KABOO, RULESETS
from cardtable.seat import Seat

FAMILY = ["cabo", "cabo-german", "gabo", "kaboo"]
GAMES = [*FAMILY, "qute"]
PLAYERS = {"cabo": 3, "cabo-german": 3, "gabo": 3, "kaboo": 2, "qute": 3}
DECKS = {
    "cabo": set(cabo_deck()),
    "cabo-german": set(standard_deck(jokers=True)),
    "gabo": set(standard_deck(jokers=True)),
    "kaboo": set(standard_deck()),
    "qute": set(short_deck()),
}
QUTE_EVENTS = (
    *("round_start", "turn", "play", "draw", "penalty", "refill", "skip", "qute", "continue"),
    *("suit", "eights", "jpoints", "dead_end", "max_turns", "round_end", "game_over"),
)
"""Every event type the qute engine emits."""
CARD = re.compile(r"\[([^\]\s]+)\]")
"""A card as the front end draws it: ``[7H]``; the face-down marker never matches a code."""

runner = CliRunner()


def card_tokens(text: str) -> list[str]:
    """Every card code drawn in ``text`` (face-down markers excluded)."""
    return [t for t in CARD.findall(text) if "▒" not in t]


def codes_in(obj: Any, deck: set[str]) -> set[str]:
    """Every card code anywhere in a view (all that its seat may know)."""
    if isinstance(obj, str):
        return {obj} if obj in deck else set()
    if isinstance(obj, dict):
        return set().union(*(codes_in(v, deck) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(codes_in(v, deck) for v in obj)) if obj else set()
    return set()


def plain_console(file: io.StringIO | None = None) -> tuple[Console, io.StringIO]:
    """A console without colours that writes into a buffer (or ``file``)."""
    buf = io.StringIO()
    return Console(file=file or buf, width=110, color_system=None, force_terminal=False), buf


class CheckedOutput(io.StringIO):
    """Console file that checks each write: it may only show cards the human seat knows.

    Every print of the play loop happens right after one action, so the human's view at write
    time (plus every view before it) covers all codes the print may contain.
    """

    def __init__(self, game: cardtable.Game, seat: int) -> None:
        super().__init__()
        self.game = game
        self.seat = seat
        self.deck = DECKS[game.variant]
        self.known: set[str] = set()

    def write(self, s: str) -> int:
        self.known |= codes_in(self.game.view(self.seat), self.deck)
        leaked = set(card_tokens(s)) - self.known
        assert not leaked, f"shown cards the seat does not know: {leaked}\n{s}"
        return super().write(s)


def random_answers(
    game: cardtable.Game, seat: int, seed: int, avoid: tuple[str, ...] = ()
) -> Callable[[str], str]:
    """An input function answering with a random legal action, typed whole (never one whose
    first word is in ``avoid``, if there is another)."""
    rng = random.Random(seed)

    def answer(prompt: str) -> str:
        legal = game.view(seat)["legal"]
        return rng.choice([a for a in legal if a.split()[0] not in avoid] or legal)

    return answer


def first_answers(game: cardtable.Game, seat: int) -> Callable[[str], str]:
    """An input function answering with the first legal action, typed whole."""

    def answer(prompt: str) -> str:
        return str(game.view(seat)["legal"][0])

    return answer


def answered_play(
    monkeypatch: pytest.MonkeyPatch,
    seat: int = 0,
    before: tuple[str, ...] = (),
    avoid: tuple[str, ...] = (),
    seed: int = 0,
    prefer: tuple[str, ...] = (),
) -> list[cardtable.Game]:
    """Make ``cardtable play`` read the lines ``before``, then random legal moves of its game
    (returned in the list once made) for ``seat``: one whose first word is in ``prefer`` when
    there is one, never one whose first word is in ``avoid`` when there is another."""
    made: list[cardtable.Game] = []

    def capture(*a: Any, **k: Any) -> cardtable.Game:
        game = cardtable.new_game(*a, **k)
        made.append(game)
        return game

    script = list(before)
    rng = random.Random(seed)

    def answer(prompt: str) -> str:
        if script:
            return script.pop(0)
        legal = made[-1].view(seat)["legal"]
        liked = [a for a in legal if a.split()[0] in prefer]
        return rng.choice(liked or [a for a in legal if a.split()[0] not in avoid] or legal)

    monkeypatch.setattr("cardtable.cli.play.new_game", capture)
    monkeypatch.setattr("cardtable.cli.play._line_reader", lambda: answer)
    return made


# ---------------------------------------------------------------------------- commands
@pytest.mark.parametrize("name", GAMES)
def test_rules_command_prints_rules_for_every_variant(name: str) -> None:
    plain = runner.invoke(app, ["rules", name])  # the rules in plain words, by default
    assert plain.exit_code == 0, plain.output
    assert "What you type" not in plain.output and "--notation" in plain.output
    result = runner.invoke(app, ["rules", name, "--notation"])
    assert result.exit_code == 0, result.output
    v = variants.get(name)
    assert v.title in result.output
    assert "What you type" in result.output
    assert "Options" in result.output
    for opt in v.options:
        assert opt.name in result.output


@pytest.mark.parametrize("name", FAMILY)
def test_rules_files_are_package_data_with_notation_and_true_options(name: str) -> None:
    text = rules_markdown(name)
    call = cardtable.new_game(name).view(0)["call"]
    assert f"`{call}`" in text
    for word in ("draw deck", "draw discard", "replace N", "discard", "pass"):
        assert word in text
    for opt in variants.get(name).options:
        default = "none" if opt.default is None else str(opt.default).lower()
        assert f"| `{opt.name}` | {default} |" in text


def test_rules_accepts_an_alias() -> None:
    result = runner.invoke(app, ["rules", "cabo_german"])
    assert result.exit_code == 0
    assert "Cabo (German rules)" in result.output


def test_variants_lists_every_game() -> None:
    result = runner.invoke(app, ["variants"])
    assert result.exit_code == 0
    for name in GAMES:
        assert name in result.output
        assert variants.get(name).title in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["play", "nosuch"],
        ["rules", "nosuch"],
        ["play", "kaboo", "--target", "abc"],
        ["play", "kaboo", "--players", "99"],
        ["play", "kaboo", "--seat", "5"],
        ["play", "cabo", "-o", "nope=1"],
        ["play", "cabo", "-o", "caller_penalty=lots"],
        ["play", "cabo", "-o", "no-equals-sign"],
        ["play", "kaboo", "--opponents", "grandmaster"],
    ],
)
def test_bad_variant_or_options_exit_with_code_2(args: list[str]) -> None:
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2
    assert "error:" in result.output


def test_unknown_variant_message_names_the_games() -> None:
    result = runner.invoke(app, ["play", "nosuch"])
    assert "unknown game 'nosuch'" in result.output
    for name in FAMILY:
        assert name in result.output


def test_play_command_shows_the_table_and_quits() -> None:
    result = runner.invoke(
        app,
        ["play", "gabo", "--seed", "4", "--target", "none", "-o", "max_turns=5"],
        input="quit\n",
    )
    assert result.exit_code == 0, result.output
    assert "You (seat 0)" in result.output
    # no step is taken for the person: the word, or the card alone where one word leads to it
    assert "Your move: p) peek  ·  or the card alone: 0 1 2 3" in result.output
    assert "single round" in result.output
    assert "You left the game." in result.output


@pytest.mark.parametrize("name", ["kaboo", "cabo"])
def test_play_command_plays_a_whole_game(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    answered_play(monkeypatch, seat=1)
    result = runner.invoke(app, ["play", name, "--seed", "2", "--seat", "1", "--target", "none"])
    assert result.exit_code == 0, result.output
    assert "Final totals" in result.output
    assert "You (seat 1)" in result.output


@pytest.mark.parametrize("level", ["beginner", "expert", "random"])
def test_play_against_a_chosen_level(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    answered_play(monkeypatch)
    result = runner.invoke(
        app, ["play", "kaboo", "--seed", "5", "--target", "none", "--opponents", level]
    )
    assert result.exit_code == 0, result.output
    assert "Final totals" in result.output


def test_bots_are_the_chosen_agents() -> None:
    """The loop's bots play exactly what the chosen agent would."""
    game = cardtable.new_game("kaboo", players=3, seed=8)
    mirror = cardtable.new_game("kaboo", players=3, seed=8)
    console, _ = plain_console(io.StringIO())
    play_loop(game, 0, console, first_answers(game, 0), bot_seed=2, opponents="heuristic")
    bots = {s: agents.get("heuristic", seed=2 * 16 + s) for s in (1, 2)}
    for seat, text in game.log["actions"]:
        if seat != 0:
            assert text == str(bots[seat].act(Seat(mirror, seat)))
        mirror.play(seat, text)
    assert mirror.over


def test_python_dash_m_help() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "cardtable", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    for command in ("play", "rules", "variants"):
        assert command in proc.stdout


# ---------------------------------------------------------------------------- the loop
@pytest.mark.parametrize("name", FAMILY)
def test_whole_game_through_the_play_loop(name: str) -> None:
    game = cardtable.new_game(name, players=PLAYERS[name], seed=11)
    out = CheckedOutput(game, 1)
    console, _ = plain_console(out)
    finished = play_loop(game, 1, console, random_answers(game, 1, 5), bot_seed=3)
    assert finished
    assert game.over
    text = out.getvalue()
    assert "The game is over." in text
    assert "Final totals" in text
    assert "results" in text  # at least one round's results table
    assert FACE_DOWN in text


def test_always_answering_1_finishes_a_match_of_cabo() -> None:
    game = cardtable.new_game("cabo", players=2, seed=3)
    out = CheckedOutput(game, 0)
    console, _ = plain_console(out)
    assert play_loop(game, 0, console, first_answers(game, 0), bot_seed=1)
    assert game.over
    result = game.result
    assert result is not None
    assert max(result.totals) > 100


def test_illegal_lines_show_the_error_and_the_game_goes_on() -> None:
    game = cardtable.new_game("cabo-german", players=2, seed=1)
    console, buf = plain_console()
    answers = random_answers(game, 0, 1)
    script = iter(["replace 9", "banana", "99", "peek 0", "peek 0", "", "draw discard"])

    def read(prompt: str) -> str:
        return next(script, None) or answers(prompt)

    assert play_loop(game, 0, console, read, bot_seed=2)
    text = buf.getvalue()
    assert "you have no card at position 9" in text
    assert "unknown action 'banana'" in text
    assert "you have no card at position 99" in text  # a number is a position
    assert "you have already looked at that card" in text
    assert "you peeked at your card 0" in text
    assert game.over
    log = game.log["actions"]
    assert [0, "peek 0"] in log


def test_illegal_line_is_printed_in_red() -> None:
    game = cardtable.new_game("kaboo", seed=1, options={"first": 0})
    buf = io.StringIO()
    console = Console(file=buf, width=100, force_terminal=True, color_system="standard")
    play_loop(game, 0, console, ["replace 9"])
    line = next(ln for ln in buf.getvalue().splitlines() if "no card at position 9" in ln)
    assert "\x1b[31m" in line


def test_a_whole_move_typed_in_one_line_is_played() -> None:
    game = cardtable.new_game("kaboo", seed=1, options={"first": 0})
    console, _ = plain_console()
    play_loop(game, 0, console, ["Draw Deck"])
    assert game.log["actions"][0] == [0, "draw deck"]


def test_help_rules_table_and_quit() -> None:
    game = cardtable.new_game("gabo", seed=2)
    console, buf = plain_console()
    finished = play_loop(game, 0, console, ["help", "rules", "table", "quit"])
    text = buf.getvalue()
    assert not finished
    assert "What to type" in text
    assert "Snapping" in text  # from the rules
    assert text.count("Your move: p) peek") == 4  # the menu, again after each command
    assert "You left the game." in text


def test_end_of_input_counts_as_quit() -> None:
    game = cardtable.new_game("cabo", seed=2)
    console, buf = plain_console()
    assert not play_loop(game, 0, console, [])
    assert "You left the game." in buf.getvalue()


def test_bots_moves_are_announced() -> None:
    game = cardtable.new_game("kaboo", seed=5, options={"first": 1})
    console, buf = plain_console()
    play_loop(game, 0, console, ["quit"])
    text = buf.getvalue()
    assert "seat 1 drew a card from the deck" in text or "seat 1 called knock" in text
    assert "you peeked at your card 2" in text  # kaboo's automatic look at the bottom row


# ---------------------------------------------------------------------------- secrecy
def _walk(name: str, seed: int, steps: int = 200, every: int = 5) -> Iterator[cardtable.Game]:
    """A random game, yielded every few actions (and at its end)."""
    game = cardtable.new_game(name, players=PLAYERS[name], seed=seed)
    rng = random.Random(seed)
    for i in range(steps):
        if game.over:
            break
        seat = game.actors[0]
        game.play(seat, rng.choice(game.legal_actions(seat)))
        if i % every == 0:
            yield game
    yield game


@pytest.mark.parametrize("name", FAMILY)
def test_render_shows_known_cards_and_face_down_markers_for_the_rest(name: str) -> None:
    deck = DECKS[name]
    for game in _walk(name, seed=7, steps=160, every=8):
        for seat in range(game.players):
            view = game.view(seat)
            console, buf = plain_console()
            console.print(render_view(view, seat, "T"))
            text = buf.getvalue()
            # exactly one face-down marker per unknown card on the table
            hidden = sum(1 for hand in view["hands"] for c in hand if c and c["card"] is None)
            if view["drawer"] is not None and view["drawn"] is None:
                hidden += 1
            assert text.count(FACE_DOWN) == hidden
            # and the cards drawn are exactly cards the view holds
            shown = card_tokens(text)
            assert set(shown) <= codes_in(view, deck)
            known_in_hands = [c["card"] for hand in view["hands"] for c in hand if c and c["card"]]
            for code in known_in_hands:
                assert f"[{code}]" in text
            # cards other seats know but this one doesn't never appear (unique-code decks)
            if name != "cabo":
                others: set[str] = set()
                for other in range(game.players):
                    if other != seat:
                        others |= codes_in(game.view(other), deck)
                secret = others - codes_in(view, deck)
                assert not secret & set(shown)


@pytest.mark.parametrize("name", FAMILY)
def test_event_descriptions_only_name_cards_in_the_view(name: str) -> None:
    deck = DECKS[name]
    *_, game = _walk(name, seed=9, steps=400, every=1000)
    for seat in range(game.players):
        view = game.view(seat)
        console, buf = plain_console()
        for ev in view["events"]:
            for part in describe_event(ev, seat):
                console.print(part)
        assert set(card_tokens(buf.getvalue())) <= codes_in(view, deck)


def test_docs_rules_restates_every_decision() -> None:
    root = Path(__file__).resolve().parents[1]
    decisions = (root / "docs" / "decisions.md").read_text(encoding="utf-8")
    rules = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    family = decisions.split("\n# ", 1)[0]  # the Cabo family's list comes first
    count = len(re.findall(r"^\d+\. ", family, flags=re.M))
    section = rules.split("## Choices where the source rules are silent", 1)[1]
    section = section.split("\n## ", 1)[0]  # the Qute section follows
    assert len(re.findall(r"^\d+\. ", section, flags=re.M)) == count


# ---------------------------------------------------------------------------- qute
QUTE_WORDS = (
    "play C",
    "`draw`",
    "suit S",
    "eights all",
    "eights next",
    "`qute`",
    "`continue`",
    "jpoints minus",
    "jpoints plus",
)
QUTE_CHOICES = (
    "bottom first, top last",
    "suit order C, D, H, S",
    "no `suit` question when the round ends",
    "Aces do nothing when the round ends",
    "lowest round score",
    "`draw` gives you nothing and your turn passes",
    "every jack laid in the finishing turn",
)


def _qute_walk(players: int, seed: int, steps: int = 400) -> Iterator[cardtable.Game]:
    """A random one-round qute game, yielded after every action (and at the start)."""
    game = cardtable.new_game("qute", players=players, seed=seed, options={"target": None})
    rng = random.Random(seed)
    yield game
    for _ in range(steps):
        if game.over:
            break
        seat = game.actors[0]
        game.play(seat, rng.choice(game.legal_actions(seat)))
        yield game


def _secret_cards(game: cardtable.Game, seat: int) -> set[str]:
    """Cards ``seat`` cannot see now: the other hands (with the cards they drew, for 7s and 8s
    too) and the blind. Built from the seats' own views only."""
    views = [game.view(s) for s in range(game.players)]
    if views[seat]["over"]:
        return set()
    held = {c for s, v in enumerate(views) if s != seat for c in v["hand"]}
    for s, v in enumerate(views):
        if s != seat:
            drawn = set(v["penalty_drawn"]) | ({v["drawn"]} if v["drawn"] else set())
            assert drawn - set(v["stack"]) <= held  # drawn cards are held until laid
    blind = DECKS["qute"] - set(views[seat]["hand"]) - set(views[seat]["stack"]) - held
    assert len(blind) == views[seat]["blind"]
    return held | blind


def test_qute_rules_explain_notation_options_and_choices() -> None:
    text = rules_markdown("qute")
    for word in (*QUTE_WORDS, *QUTE_CHOICES):
        assert word in text, word
    for opt in variants.get("qute").options:
        default = "none" if opt.default is None else str(opt.default).lower()
        assert f"| `{opt.name}` | {default} |" in text


def test_docs_rules_has_a_qute_section_with_its_choices() -> None:
    root = Path(__file__).resolve().parents[1]
    rules = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    family, qute = rules.split("\n## Qute\n", 1)
    assert "## Choices where the source rules are silent" in family
    choices = qute.split("### Qute: choices where the source rules are silent", 1)[1]
    choices = choices.split("\n#", 1)[0]
    packaged = rules_markdown("qute").split("## How cardtable settles the open questions", 1)[1]
    packaged = packaged.split("\n#", 1)[0]
    assert len(re.findall(r"^\d+\. ", choices, flags=re.M)) == packaged.count("\n- ")
    for word in (*QUTE_WORDS, *QUTE_CHOICES):
        assert word in qute, word


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_qute_game_through_the_play_loop(players: int) -> None:
    game = cardtable.new_game("qute", players=players, seed=11)
    seat = players - 1
    out = CheckedOutput(game, seat)
    console, _ = plain_console(out)
    assert play_loop(game, seat, console, random_answers(game, seat, 5), bot_seed=3)
    assert game.over
    result = game.result
    assert result is not None
    assert max(result.totals) > 125  # a whole match to the default target
    text = out.getvalue()
    assert "Qute" in text
    assert f"You (seat {seat})" in text
    assert "Round 1 results" in text
    assert f"Round {len(result.rounds)} results" in text
    assert "The game is over." in text
    assert "Final totals" in text
    assert FACE_DOWN in text
    assert PLAYABLE_MARK in text
    assert "{" not in text  # every event was put into words (no raw fallback)


@pytest.mark.parametrize(("players", "seat"), [(2, 1), (3, 0), (4, 2)])
def test_play_command_plays_qute(players: int, seat: int, monkeypatch: pytest.MonkeyPatch) -> None:
    answered_play(monkeypatch, seat=seat)
    result = runner.invoke(
        app,
        [
            "play",
            "qute",
            "--players",
            str(players),
            "--seed",
            "3",
            "--seat",
            str(seat),
            "-t",
            "none",
        ],
    )
    assert result.exit_code == 0, result.output
    assert f"Qute · round 1 · single round · {players} players" in result.output
    assert f"You (seat {seat})" in result.output
    assert "Round 1 results" in result.output
    assert "Final totals" in result.output


def test_play_command_qute_target_and_quit() -> None:
    result = runner.invoke(app, ["play", "qute", "--target", "40"], input="help\nrules\nquit\n")
    assert result.exit_code == 0, result.output
    assert "match: ends when a total goes over 40" in result.output
    assert "jpoints minus|plus" in result.output  # help shows qute's notation
    assert "Qute!" in result.output  # the rules
    assert "You left the game." in result.output


@pytest.mark.parametrize(("players", "seed"), [(2, 21), (3, 22), (4, 23)])
def test_qute_table_never_shows_a_card_the_seat_cannot_see(players: int, seed: int) -> None:
    deck = DECKS["qute"]
    for game in _qute_walk(players, seed):
        for seat in range(players):
            view = game.view(seat)
            console, buf = plain_console()
            console.print(render_view(view, seat, "Qute"))
            text = buf.getvalue()
            shown = set(card_tokens(text))
            assert shown <= codes_in(view, deck)
            assert not shown & _secret_cards(game, seat)
            assert set(view["hand"]) <= shown  # your own hand is always shown
            if view["over"]:
                continue
            backs = sum(min(c, HAND_ROW) for s, c in enumerate(view["counts"]) if s != seat)
            assert text.count(FACE_DOWN) == backs


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (3, 32), (4, 33)])
def test_qute_events_only_name_cards_the_seat_may_know(players: int, seed: int) -> None:
    deck = DECKS["qute"]
    known: list[set[str]] = [set() for _ in range(players)]
    printed: list[set[int]] = [set() for _ in range(players)]
    for game in _qute_walk(players, seed):
        for seat in range(players):
            view = game.view(seat)
            known[seat] |= codes_in(view, deck)
            for ev in view["events"]:
                if ev["seq"] in printed[seat]:
                    continue
                printed[seat].add(ev["seq"])
                console, buf = plain_console()
                for part in describe_event(ev, seat, "qute"):
                    console.print(part)
                shown = set(card_tokens(buf.getvalue()))
                assert shown <= known[seat]
                assert shown <= codes_in(ev, deck)
                if ev["type"] in ("draw", "penalty") and ev["seat"] != seat:
                    assert not shown  # someone else's draw, also for a 7 or 8: no card named
                if ev["type"] not in ("draw", "penalty", "play", "round_end", "game_over"):
                    assert not shown


def test_qute_events_are_described_in_words() -> None:
    seen: dict[str, dict[str, Any]] = {}
    for seed in range(60):
        for game in _qute_walk(2 + seed % 3, seed):
            for ev in game.view(0)["events"]:
                seen.setdefault(ev["type"], ev)
    # rare ends, forced: nothing to draw, a dead end, the safety net
    seen.setdefault("dead_end", {"seq": 1, "type": "dead_end", "seat": 1})
    seen.setdefault("max_turns", {"seq": 1, "type": "max_turns", "turns": 200})
    extra = [
        {"seq": 1, "type": "draw", "seat": 0, "card": False},
        {"seq": 1, "type": "penalty", "seat": 1, "count": 0, "for": "8"},
        {"seq": 1, "type": "skip", "seats": [1, 1], "for": "A"},
        {"seq": 1, "type": "jpoints", "seat": 0, "mode": "plus"},
        {"seq": 1, "type": "eights", "seat": 0, "mode": "next"},
    ]
    assert set(QUTE_EVENTS) <= set(seen)
    for ev in [*seen.values(), *extra]:
        console, buf = plain_console()
        for part in describe_event(ev, 0, "qute"):
            console.print(part)
        text = buf.getvalue()
        assert text.strip(), ev
        assert "{" not in text and not text.startswith(f"{ev['type']}: "), text


def test_qute_event_wording() -> None:
    def words(ev: dict[str, Any], me: int = 0) -> str:
        console, buf = plain_console()
        for part in describe_event({"seq": 1, **ev}, me, "qute"):
            console.print(part)
        return " ".join(buf.getvalue().split())

    assert words({"type": "draw", "seat": 0, "card": True, "drawn": "7S"}) == (
        "you draw [7S] from the blind"
    )
    assert words({"type": "draw", "seat": 1, "card": True}) == "seat 1 draws a card from the blind"
    assert "7S" not in words({"type": "draw", "seat": 1, "card": True}, me=0)
    # who is skipped is the skip line's to say (after 'eights all' a seat that drew may play)
    assert words({"type": "penalty", "seat": 1, "count": 2, "for": "8"}) == (
        "seat 1 draws 2 cards for the 8"
    )
    assert words({"type": "skip", "seats": [1], "for": "8"}) == "the 8 skips seat 1"
    assert words({"type": "eights", "seat": 0, "mode": "next"}) == (
        "you choose eights next: the next seat draws two per 8 and is skipped"
    )
    assert words({"type": "penalty", "seat": 0, "count": 1, "for": "7", "cards": ["KS"]}) == (
        "you draw 1 card for the 7: [KS]"
    )
    assert words({"type": "skip", "seats": [1, 2], "for": "A"}) == "the aces skip seat 1 and seat 2"
    twice = words({"type": "skip", "seats": [0, 0], "for": "A"}, me=1)
    assert twice == "the aces skip seat 0 twice"
    assert words({"type": "play", "seat": 2, "cards": ["9H", "9C"], "left": 0}) == (
        "seat 2 lays [9H] [9C] — no cards left!"
    )
    assert words({"type": "suit", "seat": 0, "suit": "H"}) == "you choose hearts ♥ (H)"
    assert "×2" in words({"type": "refill", "blind": 20, "refills": 1})
    assert "Qute!" in words({"type": "qute", "seat": 1})


def test_qute_marks_exactly_the_playable_cards() -> None:
    checked = 0
    for game in _qute_walk(3, 41, steps=200):
        view = game.view(game.actors[0]) if game.actors else game.view(0)
        me = int(view["seat"])
        console, buf = plain_console()
        console.print(render_view(view, me, "Qute"))
        lines = buf.getvalue().splitlines()
        start = next(i for i, ln in enumerate(lines) if f"You (seat {me})" in ln)
        panel = lines[start:]
        marks = sum(ln.count(PLAYABLE_MARK) for ln in panel)
        playable = playable_cards(view["legal"])
        assert marks == len(playable)
        for row, below in itertools.pairwise(panel):
            for m in re.finditer(PLAYABLE_MARK, below):
                card = CARD.search(row, max(0, m.start() - 3))
                assert card is not None and card.group(1) in playable
                checked += 1
    assert checked > 20


def test_playable_cards_are_the_first_cards_of_plays() -> None:
    legal = ["play 8D", "play 8D 8H", "play QS", "play KC KS", "draw", "suit H"]
    assert playable_cards(legal) == ["8D", "QS", "KC"]
    assert playable_cards(["draw"]) == []


def test_qute_pending_decisions_are_explained() -> None:
    wanted = {
        "qute": "'qute' (the round ends now) or 'continue'",
        "suit": "choose the suit to follow",
        "eights": "'eights next'",
        "jpoints": "'jpoints minus'",
        "cover": "must be covered by you",
        "drawn": "the card you drew",
        "nothing": "nothing in your hand fits: draw",
    }
    found: set[str] = set()
    for seed in range(300):
        for game in _qute_walk(3 + seed % 2, seed):
            if game.over or game.actors != [0]:
                continue
            view = game.view(0)
            key = view["pending"] or (
                "cover"
                if view["phase"] == "cover"
                else "drawn"
                if view["drawn"]
                else "nothing"
                if view["legal"] == ["draw"]
                else None
            )
            if key in wanted and key not in found:
                found.add(key)
                console, buf = plain_console()
                console.print(render_view(view, 0, "Qute"))
                assert wanted[key] in " ".join(buf.getvalue().replace("│", " ").split())
        if found == set(wanted):
            break
    assert found == set(wanted)


# ---------------------------------------------------------------------------- memory aid
TABLE = re.compile(r"╭─ Table.*?(?:Your move:| › )", flags=re.S)
"""One table as the loop prints it: from its status panel to the move menu."""


def tables(text: str) -> list[str]:
    """Every table printed in ``text``, in order."""
    return TABLE.findall(text)


def own_hand(table: str, seat: int = 0) -> list[str]:
    """The card codes a printed table shows in the human's own hand panel (the last panel)."""
    return card_tokens(table.split(f"You (seat {seat})", 1)[1])


def hand_panels(table: str) -> str:
    """A printed table without its status panel: the hands only."""
    return table.split("╰", 1)[1]


CABO_PEEKS = ["13", "4", "0", "4", "5", "6", "5", "6", "9", "3"]
"""A stacked two-seat cabo deal: seat 0 holds 13, 0, 5, 5; the discard pile starts with 9 and
the first card drawn is 3."""
CABO_SCRIPT = ["peek 0", "peek 1", "table", "draw deck", "replace 3", "quit"]


def _cabo_peeks(memory_aid: bool) -> tuple[str, list[str]]:
    game = cardtable.new_game("cabo", players=2, seed=1, deck=CABO_PEEKS, options={"target": None})
    out = CheckedOutput(game, 0)
    console, _ = plain_console(out)
    assert not play_loop(game, 0, console, CABO_SCRIPT, memory_aid=memory_aid)
    text = out.getvalue()
    printed = tables(text)
    # one table to start, one after each move or 'table' (quit prints none)
    assert len(printed) == len(CABO_SCRIPT)
    return text, printed


def test_without_memory_aid_a_peeked_card_is_shown_once() -> None:
    text, printed = _cabo_peeks(memory_aid=False)
    assert "you peeked at your card 0: [13]" in text
    assert "you peeked at your card 1: [0]" in text
    start, after_peek_0, after_peek_1, again, drawn, next_turn = printed
    assert own_hand(start) == []
    # the table right after each peek shows that card, and only that one
    assert own_hand(after_peek_0) == ["13"]
    assert "Seen now    your card 0 [13] — shown in this table only: remember it" in after_peek_0
    assert own_hand(after_peek_1) == ["0"]
    assert "your card 1 [0] — shown in this table only" in after_peek_1
    # later tables, the 'table' command's included, show no card of the hand
    for later in (again, drawn, next_turn):
        assert own_hand(later) == []
        assert "Seen now" not in later
        assert "no memory aid" in later
    # the card in hand is shown while it is held
    assert "Drawn      [3] held by you from the deck" in drawn


def test_with_memory_aid_every_seen_card_stays_shown() -> None:
    text, printed = _cabo_peeks(memory_aid=True)
    assert "you peeked at your card 0: [13]" in text
    start, after_peek_0, after_peek_1, again, drawn, next_turn = printed
    assert own_hand(start) == []
    assert own_hand(after_peek_0) == ["13"]
    for later in (after_peek_1, again, drawn):
        assert own_hand(later) == ["13", "0"]
    assert own_hand(next_turn) == ["13", "0", "3"]  # the 3 put at position 3 is known too
    for table in printed:
        assert "memory aid on" in table
        assert "Seen now" not in table


KABOO_DEAL = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"]
"""A stacked two-seat kaboo deal: seat 0's bottom row is 6C and 8C, seat 1's is 7C and 9C; the
first card drawn is 10C."""
KABOO_SCRIPT = ["table", "draw deck", "replace 0", "quit"]


def _kaboo_bottom_row(memory_aid: bool) -> tuple[str, list[str]]:
    game = cardtable.new_game("kaboo", seed=3, deck=KABOO_DEAL, options={"first": 0})
    out = CheckedOutput(game, 0)
    console, _ = plain_console(out)
    assert not play_loop(game, 0, console, KABOO_SCRIPT, memory_aid=memory_aid)
    text = out.getvalue()
    assert "you peeked at your card 2: [6C]" in text
    assert "you peeked at your card 3: [8C]" in text
    printed = tables(text)
    assert len(printed) == len(KABOO_SCRIPT)
    return text, printed


def test_kaboo_shows_the_bottom_row_in_the_first_table_only() -> None:
    _, printed = _kaboo_bottom_row(memory_aid=False)
    first, *later = printed
    assert own_hand(first) == ["6C", "8C"]
    assert "your card 2 [6C] · your card 3 [8C] — shown in this table only" in first
    for table in later:
        assert own_hand(table) == []
    for table in printed:  # no card of seat 1's either, not even the 2C it took face up
        assert card_tokens(hand_panels(table).split("You (seat 0)", 1)[0]) == []
    assert "[10C] held by you" in later[1]


def test_kaboo_with_memory_aid_keeps_the_bottom_row() -> None:
    _, printed = _kaboo_bottom_row(memory_aid=True)
    first, again, drawn, next_turn = printed
    for table in (first, again, drawn):
        assert own_hand(table) == ["6C", "8C"]
    assert own_hand(next_turn) == ["10C", "6C", "8C"]


@pytest.mark.parametrize(
    ("memory_aid", "words"),
    [
        (False, "a face-down card is shown only at the moment you see it"),
        (False, "'cardtable play --memory-aid' keeps every card you have seen shown"),
        (False, "draw the table again (no card you saw earlier: no memory aid)"),
        (True, "Memory aid on: every card you have seen stays shown."),
    ],
)
def test_help_explains_how_cards_are_shown(memory_aid: bool, words: str) -> None:
    game = cardtable.new_game("kaboo", seed=3, options={"first": 0})
    console, buf = plain_console()
    play_loop(game, 0, console, ["help", "quit"], memory_aid=memory_aid)
    text = " ".join(buf.getvalue().replace("│", " ").split())
    assert words in text


def _play_command(
    monkeypatch: pytest.MonkeyPatch, args: list[str], before: tuple[str, ...] = (), seed: int = 0
) -> tuple[str, cardtable.Game]:
    """Run ``cardtable play`` with ``args`` answering the lines ``before``, then random legal
    moves (drawn with ``seed``) that never knock; return its output and the game it played."""
    made = answered_play(
        monkeypatch,
        before=before,
        avoid=("knock", "pablo"),
        seed=seed,
        prefer=("discard", "peek", "spy", "look"),
    )
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert len(made) == 1
    return result.output, made[0]


def _hand_codes(view: dict[str, Any]) -> set[str]:
    return {c["card"] for hand in view["hands"] for c in hand if c and c["card"]}


def test_play_command_without_memory_aid_shows_cards_only_as_they_are_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = ["play", "kaboo", "--seed", "0", "--players", "3", "--target", "none"]
    text, game = _play_command(monkeypatch, args, seed=1)  # X
    assert game.over
    assert "Final totals" in text
    printed = list(TABLE.finditer(text))
    # the tables are the states before the human's moves: replay the game to see them again
    log = game.log
    replay = cardtable.new_game(log["game"], players=log["players"], seed=log["seed"])
    mine = [i for i, (seat, _) in enumerate(log["actions"]) if seat == 0]
    assert len(printed) == len(mine)
    done = hidden = glimpses = 0
    end = 0
    for match, index in zip(printed, mine, strict=True):
        while done < index:
            replay.play(*log["actions"][done])
            done += 1
        events = set(card_tokens(text[end : match.start()]))  # the lines since the last table
        end = match.end()
        shown = set(card_tokens(hand_panels(match.group())))
        knows = _hand_codes(replay.view(0))  # the seat's full knowledge
        # a hand shows only cards the seat knows and has just been shown in an event line
        assert shown <= knows
        assert shown <= events, match.group()
        # and the status shows nothing beyond the view without memory aid
        status = set(card_tokens(match.group())) - shown
        assert status <= codes_in(replay.view(0, memory=False), DECKS["kaboo"])
        hidden += bool(knows - shown)
        glimpses += bool(shown) and match.start() > printed[0].start()
    assert hidden > 5  # perfect memory would have shown more, many times
    assert glimpses >= 2  # cards seen during play (a peek, spy or look) were shown once


@pytest.mark.parametrize("memory_aid", [False, True])
def test_play_command_memory_aid_flag(memory_aid: bool) -> None:
    args = ["play", "kaboo", "--seed", "3", "-o", "first=0"] + (
        ["--memory-aid"] if memory_aid else []
    )
    result = runner.invoke(app, args, input="table\nquit\n")
    assert result.exit_code == 0, result.output
    first, again = tables(result.output)
    row = own_hand(first)
    assert len(row) == 2  # kaboo's bottom row, seen at the deal
    assert own_hand(again) == (row if memory_aid else [])
    assert ("memory aid on" if memory_aid else "no memory aid") in first


def test_a_seen_card_that_moved_is_not_shown_at_its_old_place() -> None:
    game = cardtable.new_game("kaboo", seed=4, options={"target": None})
    out = CheckedOutput(game, 0)
    console, _ = plain_console(out)
    # draw deck (a 9: spy), discard it, spy on 1.0; then seat 1 replaces that very card
    assert not play_loop(game, 0, console, ["draw deck", "discard", "spy 1.0", "quit"], bot_seed=4)
    text = out.getvalue()
    assert "you spied on 1.0: [KH]" in text
    assert "seat 1 put the drawn card at 1.0 and threw away the [KH]" in text
    last = tables(text)[-1]
    assert "[KH] ← top" in last  # on the discard pile, where it is now
    assert card_tokens(hand_panels(last)) == []  # not in seat 1's hand any more
    assert "Seen now" not in last


def test_gabo_says_why_the_initial_peek_stays_shown_until_the_first_draw() -> None:
    game = cardtable.new_game("gabo", seed=2, options={"target": None})
    out = CheckedOutput(game, 0)
    console, _ = plain_console(out)
    assert not play_loop(game, 0, console, ["peek 0", "peek 1", "draw deck", "quit"])
    start, after_0, after_1, drawn = tables(out.getvalue())
    assert own_hand(start) == []
    assert len(own_hand(after_0)) == 1
    assert len(own_hand(after_1)) == 2
    for table in (after_0, after_1):
        assert "Until draw" in table and "shown until your first draw" in table
        assert "Seen now" not in table  # the view keeps them, not the loop
    assert own_hand(drawn) == []
    assert "Until draw" not in drawn


# ---------------------------------------------------------------------------- a new variant
PABLO = dataclasses.replace(
    KABOO, name="pablo", title="Pablo", summary="Kaboo with another word", call="pablo"
)
"""A Cabo-like variant the terminal has no code for: Kaboo with another call word."""


@pytest.fixture
def pablo() -> Iterator[str]:
    """:data:`PABLO` registered at run time, removed from both registries afterwards."""
    add_variant(PABLO)
    try:
        yield PABLO.name
    finally:
        remove_variant(PABLO.name)
        assert PABLO.name not in RULESETS
        assert PABLO.name not in variants.names()


def test_the_terminal_follows_the_registry(pablo: str) -> None:
    assert list(cli.FAMILY) == [*FAMILY, pablo]
    assert list(cli.PLAYABLE) == [*FAMILY, pablo, "qute"]
    assert pablo in cli.FRONTS
    # the help's call-word line comes from the rule set, the other lines are kaboo's
    rows = cli.front(pablo).notation
    assert rows[-1] == ("pablo", "call the end at the start of your turn")
    assert rows[:-1] == cli.front("kaboo").notation[:-1]
    assert cli.front("kaboo").notation[-1][0] == "knock"


def test_a_variant_registered_at_run_time_plays_in_the_terminal(
    monkeypatch: pytest.MonkeyPatch, pablo: str
) -> None:
    args = ["play", pablo, "--seed", "0", "--target", "none"]
    text, game = _play_command(monkeypatch, args, ("help", "rules"))
    assert game.variant == pablo
    assert game.over
    assert "Final totals" in text
    lines = [" ".join(ln.replace("│", " ").split()) for ln in text.splitlines()]
    assert "pablo call the end at the start of your turn" in lines
    assert any(ln.startswith("Game Pablo · round 1 · single round") for ln in lines)
    assert any(ln.startswith("Call word pablo · turns played") for ln in lines)
    assert "Kaboo with another word" in lines  # the rules: the registry's fallback text
    # drawn like kaboo: the bottom row seen at the deal, the hand as a 2×2 square
    assert "you peeked at your card 2: [" in text
    assert "you peeked at your card 3: [" in text
    own = tables(text)[0].split("You (seat 0)", 1)[1]
    assert [ln.split()[:3] for ln in own.replace("│", " ").splitlines()[2:6:3]] == [
        ["pos", "0", "1"],
        ["pos", "2", "3"],
    ]


def test_a_removed_variant_is_no_longer_playable() -> None:
    add_variant(PABLO)
    try:
        assert PABLO.name in cli.FAMILY
    finally:
        remove_variant(PABLO.name)
    assert PABLO.name not in cli.FAMILY
    assert PABLO.name not in cli.PLAYABLE
    assert PABLO.name not in cli.FRONTS
    result = runner.invoke(app, ["play", PABLO.name])
    assert result.exit_code == 2
    assert "unknown game 'pablo'" in result.output
