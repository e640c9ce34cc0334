"""Every move in words, once: the catalog, the phrasing of each event kind, a second language,
and that a phrasing never names a card its reader may not know."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cardtable import new_game, variants
from cardtable.events import At, FamilyDraw, Look, Peek, Spy, Turn
from cardtable.games.qute.tables import EIGHT_DRAWS
from cardtable.rng import Rng
from cardtable.text.catalog import language, load, say
from cardtable.text.phrase import Reader, chosen_for, number_word, phrase

from .helpers import kind_first_choice, random_actor, strings_in

_TOKEN = re.compile(r"\[([^\]]+)\]")


def _played(name: str, players: int, seed: int, moves: int = 400) -> tuple[Any, list[Any]]:
    """A game of ``name`` played at random for up to ``moves`` moves, and every event."""
    game: Any = new_game(name, players=players, seed=seed, options={"target": None})
    for seat in range(players):  # the deal's events, as each seat's first view holds them
        for ev in game.view(seat)["events"]:
            assert "{" not in phrase(ev, seat, name).text
    rng = Rng(seed)
    events: list[Any] = []
    for _ in range(moves):
        if game.over:
            break
        seat = random_actor(game, rng)
        events.extend(game.play(seat, kind_first_choice(game, seat, rng)))
    return game, events


@pytest.mark.parametrize("name", variants.names())
def test_every_event_is_phrased_from_each_side_and_names_only_what_its_reader_saw(
    name: str,
) -> None:
    kinds: set[str] = set()
    for seed in range(3):
        _, events = _played(name, 3, seed)
        for ev in events:
            kinds.add(ev.type)
            for reader in (0, 1, 2, None):
                bit = 0 if reader is None else 1 << reader
                seen = ev.visible(bit)
                said = phrase(ev.seen(bit), reader)
                assert phrase(seen, reader, name) == said  # the same, read back from JSON
                assert said.text and "{" not in said.text, said
                shown = set(strings_in(seen))
                for code in _TOKEN.findall(said.text):
                    assert code in shown, f"{said.text!r} names {code}, not in {seen}"
    assert {"turn", "draw"} <= kinds


def test_a_peek_or_spy_names_its_card_only_for_the_seat_that_looked() -> None:
    game: Any = new_game("cabo", players=3, seed=5, options={"target": None})
    rng = Rng(5)
    secrets = 0
    for _ in range(600):
        if game.over:
            break
        seat = random_actor(game, rng)
        for ev in game.play(seat, kind_first_choice(game, seat, rng)):
            if not isinstance(ev.full, (Peek, Spy, Look)):
                continue
            looker = ev.full.seat
            mine = phrase(ev.seen_by(looker), looker).text
            for other in range(3):
                if other == looker:
                    continue
                theirs = phrase(ev.seen_by(other), other).text
                assert not _TOKEN.findall(theirs), theirs
            secrets += bool(_TOKEN.findall(mine))
    assert secrets > 0


def test_the_reader_names_seats_and_places() -> None:
    draw = FamilyDraw(2, "deck")
    assert phrase(draw, 2).text == "you drew a card from the deck"
    assert phrase(draw, 0).text == "seat 2 drew a card from the deck"
    named = Reader(0, ("Ann", "Bob", "Casual AI for Bob"))
    assert phrase(draw, named).text == "Casual AI for Bob drew a card from the deck"
    spy = Spy(0, At(1, 3), "7H")
    assert phrase(spy, named).text == "you spied on Bob's card 3: [7H]"
    assert phrase(spy, 0).text == "you spied on 1.3: [7H]"
    assert phrase(spy.hidden(), 1).text == "seat 0 spied on your card 3"
    assert phrase(Turn(1), None).text == "— seat 1's turn —"
    # an event as views carry it reads the same
    assert phrase({"type": "spy", "seat": 0, "at": "1.3", "card": "7H"}, 0) == phrase(spy, 0)


def test_qute_rule_numbers_come_from_the_rules() -> None:
    said = phrase({"type": "eights", "seat": 1, "mode": "next"}, 0, "qute").text
    assert f"draws {number_word(EIGHT_DRAWS)} per 8" in said
    two = phrase({"type": "penalty", "seat": 1, "for": "8", "count": EIGHT_DRAWS}, 0, "qute")
    assert two.text == f"seat 1 draws {EIGHT_DRAWS} cards for the 8"
    more = phrase({"type": "penalty", "seat": 0, "for": "8", "count": 2 * EIGHT_DRAWS}, 0, "qute")
    assert more.text == f"you draw {2 * EIGHT_DRAWS} cards for the 8s"


def test_plural_forms_follow_the_count() -> None:
    assert say("family.reshuffle", n=1).endswith("deck of 1 card")
    assert say("family.reshuffle", n=7).endswith("deck of 7 cards")
    play = {"type": "play", "seat": 1, "cards": ["7H", "7D"], "left": 1}
    assert phrase(play, 0, "qute").text == "seat 1 lays [7H] [7D] — 1 card left"


_GERMAN = r"""
msgid ""
msgstr ""
"Language: de\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "you"
msgstr "du"

msgid "seat"
msgstr "Platz {seat}"

msgid "family.draw.deck"
msgstr "{who} hat eine Karte vom Stapel gezogen"

msgid "family.draw.deck.you"
msgstr "du hast eine Karte vom Stapel gezogen"

msgid "family.reshuffle"
msgid_plural "family.reshuffle"
msgstr[0] "Der Ablagestapel wurde zu {n} Karte gemischt"
msgstr[1] "Der Ablagestapel wurde zu {n} Karten gemischt"
"""


def test_a_second_language_is_only_another_po_file(tmp_path: Path) -> None:
    po = tmp_path / "de" / "LC_MESSAGES" / "cardtable.po"
    po.parent.mkdir(parents=True)
    po.write_text(_GERMAN, encoding="utf-8")
    draw = {"type": "draw", "seat": 2, "from": "deck"}
    with language("de", root=tmp_path):
        assert phrase(draw, 2).text == "du hast eine Karte vom Stapel gezogen"
        assert phrase(draw, 0).text == "Platz 2 hat eine Karte vom Stapel gezogen"
        assert phrase({"type": "reshuffle", "deck": 9}, 0).text.endswith("zu 9 Karten gemischt")
        # a key the German catalog lacks is read from English
        assert phrase({"type": "pass", "seat": 0}, 0).text == "du passed"
    assert phrase(draw, 2).text == "you drew a card from the deck"
    assert load("de", tmp_path).language == "de"


def test_the_english_catalog_ships_with_the_package() -> None:
    english = load()
    assert english.language == "en"
    assert english.has("family.draw.deck") and english.has("qute.play")


def test_results_in_words() -> None:
    from cardtable.text.phrase import family_legend, family_score_step, qute_legend, result_head

    assert result_head([1], 1) == "You win!"
    assert result_head([0, 2], 2) == "You share the win with seat 0."
    assert result_head([1], 0) == "Seat 1 wins."
    assert result_head([0, 1], None) == "Seat 0 and seat 1 share the win."
    assert family_score_step("caller_penalty", 5) == "call failed: +5"
    assert family_score_step("rule", -3) == "scoring rule: -3"
    assert "Kamikaze" in family_legend("cabo", True, False)
    assert "no call bonus" in family_legend("sum", True, False)
    assert "halved" in family_legend("sum", False, True)
    assert "refilled twice" in qute_legend(False, 3, False, 20)


def test_a_move_chosen_for_a_seat_says_who_chose_it() -> None:
    reader = Reader(0, ("Ann", "Bob"))
    theirs = phrase({"type": "pass", "seat": 1}, reader)
    assert chosen_for(theirs, 1, reader, "clock").text == "time ran out for Bob: Bob passed"
    call = phrase({"type": "call", "seat": 0, "word": "cabo"}, reader)
    mine = chosen_for(call, 0, reader, "stand_in", "Casual AI")
    assert mine.text == "Casual AI for you: you called cabo!" and mine.tone == "call"
