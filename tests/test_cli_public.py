"""Line mode names every public card, draws cabo's face-up cards face up, tells a resumed
round again with its public cards, explains Qute's results and sorts a Qute hand either way."""

from __future__ import annotations

import io
import random
import re
from typing import Any

from rich.console import Console

import cardtable
from cardtable.cli import play_loop, render_round_end, render_view
from cardtable.seat import Seat
from cardtable.text.qute import sort_hand

CABO_DEAL = ["13", "4", "0", "4", "5", "6", "5", "6", "9", "3"]
"""Seat 0 holds 13, 0, 5, 5 and seat 1 4, 4, 6, 6; the discard pile starts with 9."""


def console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=120, color_system=None, force_terminal=False), buf


def events_only(text: str) -> list[str]:
    """The printed lines that are not part of a table panel or a menu."""
    return [
        ln
        for ln in text.splitlines()
        if ln and not ln.startswith(("│", "╭", "╰", "Your move", ">", "  "))
    ]


def test_a_card_from_the_discard_pile_lies_face_up_in_every_cabo_table() -> None:
    game = cardtable.new_game("cabo", players=2, seed=1, deck=CABO_DEAL, options={"target": None})
    out, buf = console()
    script = ["peek 0", "peek 1", "draw discard", "replace 3", "table", "table", "quit", "y"]
    assert not play_loop(game, 0, out, script, opponents="random")
    after = buf.getvalue().split("you put the [9] at your card 3", 1)[1]
    tables = after.split("╭─ Table")[1:]  # those after the card went into the hand
    assert len(tables) >= 3
    for table in tables:
        mine = table.split("You (seat 0)", 1)[1]
        rows = {ln.split()[1]: ln for ln in mine.splitlines() if ln.startswith("│ ")}
        assert "[9]" in rows["card"]  # face up, without memory aid, table after table
        assert rows["seen"].split()[-2] == "up"
        assert "[13]" not in mine and "[0]" not in mine  # the peeked cards are face down
    assert "'up' under a card: it lies face up" in _help_text("cabo")


def _help_text(game: str) -> str:
    out, buf = console()
    play_loop(cardtable.new_game(game, seed=1), 0, out, ["help", "quit", "y"])
    return " ".join(buf.getvalue().replace("│", " ").split())


def test_every_public_card_is_named_in_the_log() -> None:
    """cabo-german: a drawn card is face up, so every seat's is named; a card taken from the
    discard pile, thrown away or dropped too."""
    game = cardtable.new_game("cabo-german", players=3, seed=7, options={"target": None})
    out, buf = console()
    player = cardtable.agents.get("heuristic", seed=7)

    def answer(prompt: str) -> str:
        return str(player.act(Seat(game, 0)))

    play_loop(game, 0, out, answer, opponents="heuristic", bot_seed=7)
    lines = events_only(buf.getvalue())
    drew = [ln for ln in lines if re.match(r"seat \d drew ", ln)]
    assert drew and all(re.search(r"drew the \[\w+\] from the deck", ln) for ln in drew)
    took = [ln for ln in lines if " took " in ln and "discard pile" in ln]
    assert took and all(re.search(r"took the \[\w+\] from the discard pile", ln) for ln in took)
    thrown = [ln for ln in lines if "threw away" in ln]
    assert thrown and all(re.search(r"threw away the \[\w+\]", ln) for ln in thrown)
    dropped = [ln for ln in lines if "drop" in ln and ln.startswith(("seat", "you"))]
    assert dropped and all(re.search(r"drop(ped)? the \[\w+\]", ln) for ln in dropped)


def test_a_resumed_round_is_told_again_with_its_public_cards_only() -> None:
    played = cardtable.new_game("gabo", players=3, seed=3)
    rng = random.Random(3)
    while len(played.log["actions"]) < 25:
        seat = played.actors[0]
        played.play(seat, rng.choice(played.view(seat)["legal"]))
    again = cardtable.replay(played.log)
    out, buf = console()
    play_loop(again, 0, out, [], resumed=True, opponents="random")
    told = buf.getvalue().split("╭─ Table", 1)[0]
    assert "Game resumed after 25 moves" in told
    public = [ev for ev in played.history(0, memory=False) if ev["type"] != "round_end"]
    named = {c for ev in public for c in _codes(ev)}
    assert named, public  # something public was named, e.g. the discarded cards
    assert set(re.findall(r"\[(\w+)\]", told)) == named  # and nothing a peek or draw showed


def _codes(ev: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key in ("card", "out", "shown", "discard", "cards"):
        value = ev.get(key)
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            out.extend(str(v) for v in value)
    return out


def test_qute_results_say_how_each_score_was_reached() -> None:
    info = {
        "round": 2,
        "scores": [60, 0, 0],
        "hand_points": [10, 0, 0],
        "jpoints": [20, 0, -20],
        "multiplier": 2,
        "winners": [1],
        "finisher": 2,
        "qute": False,
        "hands": [["10H"], [], []],
        "totals": [60, 125 - 125, 3],
        "reset": [1],
    }
    out, buf = console()
    out.print(render_round_end(info, 0, "qute"))
    text = " ".join(buf.getvalue().replace("│", " ").replace("┃", " ").split())
    assert "(10 + 20) × 2" in text
    assert "(exactly the target: back to 0)" in text
    assert "J points: the last turn laid Js" in text
    assert "Points count ×2: the blind was refilled once this round." in text
    assert "A match total of exactly the target goes back to 0." in text


def test_a_qute_hand_sorts_by_suit_or_by_rank_and_the_choice_is_told() -> None:
    cards = ["9S", "6H", "AH", "10C", "9C", "6D"]
    assert sort_hand(cards, "suit") == ["9C", "10C", "6D", "6H", "AH", "9S"]
    assert sort_hand(cards, "rank") == ["6D", "6H", "9C", "9S", "10C", "AH"]
    game = cardtable.new_game("qute", players=2, seed=3, options={"target": None})
    orders: list[str] = []
    out, buf = console()
    play_loop(game, 0, out, ["sort", "quit", "y"], on_sort=orders.append)
    assert orders == ["rank"]
    text = buf.getvalue()
    assert "Your hand is sorted by rank now." in text
    hand = game.view(0)["hand"]
    by_rank = " ".join(f"[{c}]" for c in sort_hand(hand, "rank"))
    last = text.rsplit("You (seat 0)", 1)[1]
    assert by_rank in " ".join(last.replace("│", " ").split())
    view = {**game.view(0), "hand_order": "rank"}
    out, buf = console()
    out.print(render_view(view, 0))
    assert "sorted by rank" in buf.getvalue()
