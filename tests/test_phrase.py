"""Every move in words, once: the catalog, the phrasing of each event kind, a second language,
and that a phrasing never names a card its reader may not know."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cardtable import new_game, variants
from cardtable.errors import IllegalAction
from cardtable.events import At, FamilyDraw, Look, Peek, Spy, Turn
from cardtable.games.qute.tables import EIGHT_DRAWS
from cardtable.rng import Rng
from cardtable.text.catalog import language, load, say
from cardtable.text.phrase import Reader, chosen_for, number_word, phrase, refusal

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
    # a seat's own card, in a sentence about that seat, is "their" card where seats have names
    peek = Peek(1, At(1, 2))
    assert phrase(peek, named).text == "Bob peeked at their card 2"
    look = Look(1, (At(1, 0), At(2, 3)))
    assert phrase(look, named).text == "Bob looked at their card 0 and Casual AI for Bob's card 3"
    assert phrase(Look(0, (At(0, 0), At(1, 3))), named).text.startswith("you looked at your card 0")
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


_LOCALE = Path(__file__).parent / "locale"
"""The test catalogs: German (``de``), a few events and every refusal."""


def test_a_second_language_is_only_another_po_file() -> None:
    draw = {"type": "draw", "seat": 2, "from": "deck"}
    with language("de", root=_LOCALE):
        assert phrase(draw, 2).text == "du hast eine Karte vom Stapel gezogen"
        assert phrase(draw, 0).text == "Platz 2 hat eine Karte vom Stapel gezogen"
        assert phrase({"type": "reshuffle", "deck": 9}, 0).text.endswith("zu 9 Karten gemischt")
        # a key the German catalog lacks is read from English
        assert phrase({"type": "pass", "seat": 0}, 0).text == "du passed"
    assert phrase(draw, 2).text == "you drew a card from the deck"
    assert load("de", _LOCALE).language == "de"


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


# ---------------------------------------------------------------------------- refusals
_NAMES = ("Ann", "Bob", "Cy")


def _refusal_keys() -> set[str]:
    """Every refusal key the rules can raise, read from their source: each key written out
    (``"refusal.game_over"``), each one the few builders complete (``_why("called")``: a
    ``refusal.family.`` key, ``_words(…, "draw")``: ``refusal.takes.``, ``_int(tok,
    "position")``: ``refusal.malformed.``), and those the phase table makes of its data."""
    import ast

    import cardtable
    from cardtable.games.family import phases

    builders = {
        "_why": (0, "refusal.family."),
        "_words": (3, "refusal.takes."),
        "_int": (1, "refusal.malformed."),
    }
    keys: set[str] = set()
    for path in Path(cardtable.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value.startswith("refusal.") and not node.value.endswith("."):
                    keys.add(node.value)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                index, prefix = builders.get(node.func.id, (-1, ""))
                if 0 <= index < len(node.args):
                    arg = node.args[index]
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        keys.add(prefix + arg.value)
    keys |= {f"refusal.family.without.{word}" for word in phases._WITHOUT}
    keys |= {f"refusal.family.only.{name}" for name in phases._WORDS.values()}
    keys |= {f"refusal.when.{p.name}" for p in phases.PHASE_TABLE if p.moves}
    return keys


def _refused(game: Any, seat: Any, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        game.play(seat, text)
    return info.value


def test_every_refusal_is_a_message_of_the_english_catalog() -> None:
    keys = _refusal_keys()
    english = load()
    assert len(keys) > 60 and "refusal.not_your_turn" in keys and "refusal.when.snap" in keys
    assert sorted(k for k in keys if not english.has(k)) == []
    # and the catalog holds no refusal the rules no longer raise
    listed = {k.removesuffix(".you") for k in english.messages if k.startswith("refusal.")}
    assert sorted(listed - keys) == []


def test_each_kind_of_refusal_is_told_from_its_readers_side() -> None:
    g: Any = new_game("kaboo", players=3, seed=5, options={"target": None, "first": 0})
    ann, bob, cy = (Reader(s, _NAMES) for s in range(3))
    not_yours = _refused(g, 1, "draw deck")
    assert (not_yours.code, not_yours.key) == ("not_your_turn", "refusal.not_your_turn")
    assert not_yours.params == {"who": 0}
    assert refusal(not_yours, bob) == "you cannot act now: Ann is to act"
    assert refusal(not_yours, 1) == str(not_yours) == "you cannot act now: seat 0 is to act"
    # anyone else reads only that the move was refused
    assert refusal(not_yours, ann) == "Bob's move is not allowed now"
    assert refusal(not_yours, None) == "seat 1's move is not allowed now"
    told = {
        "spy 1.9": ("no_such_card", "Bob has no card at position 9"),
        "replace 9": ("no_such_card", "you have no card at position 9"),
        "spy 7.1": ("no_such_card", "there is no seat 7 at this table"),
        "replace 0": (
            "wrong_phase",
            "draw a card first: a card replaces one of yours only once you have drawn a card",
        ),
        "drop 0": ("not_in_game", "there is no dropping in kaboo"),
        "cabo": ("not_in_game", "in kaboo the end is called with 'knock'"),
    }
    for text, (code, said) in told.items():
        refused = _refused(g, 0, text)
        assert (refused.code, refusal(refused, ann)) == (code, said), text
        assert refusal(refused, cy) == "Ann's move is not allowed now"
    # text that is not an action is told as it is to anyone
    for text, said in (
        ("fly", "unknown action 'fly'"),
        ("eights", "'eights' takes 'all' or 'next'"),
    ):
        malformed = _refused(g, 0, text)
        assert malformed.code == "malformed" and malformed.seat is None
        assert {refusal(malformed, r) for r in (ann, cy, None)} == {said}
    assert refusal(_refused(g, 7, "draw deck"), cy) == "there is no seat 7 at this table"
    # several seats to act: the first peeks of cabo
    peeking: Any = new_game("cabo", players=3, seed=5, options={"target": None})
    peeking.play(0, "peek 0")
    peeking.play(0, "peek 1")
    waiting = _refused(peeking, 0, "peek 2")
    assert refusal(waiting, ann) == "you cannot act now: waiting for Bob and Cy"
    assert refusal(_refused(peeking, 1, "pass"), bob) == (
        "first look at two of your cards with 'peek N'"
    )
    # Qute: the seat's own cards are named to it only
    qute: Any = new_game("qute", players=3, seed=1, options={"target": None})
    seat = qute.actors[0]
    hand = qute.view(seat)["hand"]
    absent = next(c for c in ("AS", "AH", "AD", "AC", "9S") if c not in hand)
    not_held = _refused(qute, seat, f"play {absent}")
    assert refusal(not_held, Reader(seat, _NAMES)) == f"you do not hold [{absent}]"
    other = (seat + 1) % 3
    assert refusal(not_held, Reader(other, _NAMES)) == f"{_NAMES[seat]}'s move is not allowed now"
    ranks = {c[:-1]: c for c in hand}
    if len(ranks) > 1:
        mixed = _refused(qute, seat, "play " + " ".join(list(ranks.values())[:2]))
        assert mixed.code == "not_allowed"
        assert refusal(mixed, seat) == "all cards of one play must have the same rank"
    # the end of the game
    rng = Rng(3)
    while not g.over:
        actor = random_actor(g, rng)
        g.play(actor, kind_first_choice(g, actor, rng))
    over = _refused(g, 2, "draw deck")
    assert (over.code, refusal(over, cy)) == ("game_over", "the game is over")


@pytest.mark.parametrize("name", variants.names())
def test_refusals_in_play_name_only_what_their_reader_knows(name: str) -> None:
    """Every refusal met on the way through random games is a catalog message: in full, for
    the seat refused, naming only cards it typed or may see; for anyone else, no card at all;
    and ``str()`` is what the refused seat reads."""
    english = load()
    tries = (
        "draw deck", "draw discard", "draw", "discard", "pass", "replace 0", "replace 0 1",
        "peek 0", "peek 9", "spy 1.0", "spy 0.1", "look 0 1.0", "exchange", "exchange 0 1.0",
        "drop 0", "drop 1.0", "give 0", "cabo", "gabo", "knock", "qute", "continue", "suit H",
        "eights all", "jpoints plus", "play AS", "play 7H 7D",
    )  # fmt: skip
    kinds: set[str] = set()
    for seed in range(2):
        game: Any = new_game(name, players=3, seed=seed, options={"target": None})
        rng = Rng(seed)
        for _ in range(150):
            if game.over:
                break
            for seat in range(3):
                view = game.view(seat)
                known = set(strings_in(view))
                for text in (*tries, *(str(a) for a in game.legal_actions((seat + 1) % 3))):
                    try:
                        game.check(seat, text)
                    except IllegalAction as exc:
                        kinds.add(exc.code)
                        assert english.has(exc.key), exc.key
                        mine = refusal(exc, Reader(seat, _NAMES))
                        assert str(exc) == refusal(exc, seat) and "{" not in mine, mine
                        typed = {w.upper() for w in text.split()}
                        for code in _TOKEN.findall(mine):
                            assert code in known | typed, f"{mine!r} names {code}"
                        for reader in {*range(3), None} - {seat}:
                            assert not _TOKEN.findall(refusal(exc, reader))
            actor = random_actor(game, rng)
            game.play(actor, kind_first_choice(game, actor, rng))
    assert {"not_your_turn", "wrong_phase"} <= kinds and len(kinds) >= 4


def test_refusals_read_the_catalog_in_use() -> None:
    g: Any = new_game("kaboo", players=3, seed=5, options={"target": None, "first": 0})
    not_yours = _refused(g, 1, "draw deck")
    too_soon = _refused(g, 0, "replace 0")
    peeking: Any = new_game("cabo", players=3, seed=5, options={"target": None})
    first = _refused(peeking, 1, "pass")
    with language("de", root=_LOCALE) as german:
        assert (
            refusal(not_yours, Reader(1, _NAMES)) == "du kannst jetzt nicht spielen: Ann ist am Zug"
        )
        assert refusal(not_yours, Reader(0, _NAMES)) == "der Zug von Bob ist jetzt nicht erlaubt"
        assert refusal(too_soon, 0) == (
            "zieh zuerst eine Karte: eine Karte ersetzt eine deiner Karten nur sobald du eine "
            "Karte gezogen hast"
        )
        assert refusal(first, 1) == "sieh dir zuerst zwei deiner Karten mit „peek N“ an"
        assert refusal(_refused(g, 0, "eights"), 0) == "„eights“ nimmt „all“ oder „next“"
        # str() stays the English sentence for plain Python callers
        assert str(not_yours) == "you cannot act now: seat 0 is to act"
        # the German catalog has every refusal
        assert sorted(k for k in _refusal_keys() if k not in german.messages) == []
    assert refusal(not_yours, Reader(1, _NAMES)) == "you cannot act now: Ann is to act"
