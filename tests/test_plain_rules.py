"""The rules a person reads (``cardtable/rules/plain/<lang>/<game>.md``, :func:`plain_rules`) and
the card values where they are unusual (:func:`value_marks`): every game has its page in
English and German, written without the action notation, its cards drawn from the game's own
deck; the value legend says what the rule set says; ``cardtable rules`` prints the plain page
by default and the notation page with ``--notation``."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console
from rich.markdown import Markdown
from typer.testing import CliRunner

from cardtable import notation, variants
from cardtable.cards import RANKS, SHORT_RANKS, card
from cardtable.catalog import language, load
from cardtable.cli import app
from cardtable.cli.rules import CardsColoured
from cardtable.games.family.rulesets import RULESETS
from cardtable.games.qute.tables import POINTS
from cardtable.text.presentation import (
    card_values,
    served_details,
    unusual_values,
    usual_value,
    value_marks,
)
from cardtable.text.rules import (
    LANGUAGES,
    TOKEN,
    VALUES_TOKEN,
    page_language,
    plain_rules,
    plain_rules_page,
    values_legend,
)

runner = CliRunner()
GAMES = variants.names()
PLAIN = Path(variants.__file__).resolve().parent / "rules" / "plain"


def _written(name: str, lang: str) -> str:
    return (PLAIN / lang / f"{name}.md").read_text(encoding="utf-8")


# ------------------------------------------------------------------ the pages are there
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_plain_page_in_english_and_german(name: str, lang: str) -> None:
    text = _written(name, lang)
    assert text.startswith("# "), name
    assert "{{" + VALUES_TOKEN + "}}" in text  # the value legend has its place on every page
    assert len(text) > 1500


def test_the_german_pages_are_german_and_the_english_english() -> None:
    for name in GAMES:
        de, en = _written(name, "de"), _written(name, "en")
        assert "Ablagestapel" in de and " du " in de, name
        assert "discard pile" in en or "stack" in en, name
        assert "Ablagestapel" not in en and " the " not in de


# ------------------------------------------------------------------ no notation in them
def _notation_forms() -> re.Pattern[str]:
    """What the notation writes that plain words never do: a backticked word, an action word
    followed by its argument (a position ``2``, an address ``1.3``, ``N``/``P.N``, a card
    code, a suit letter, a choice word), ``draw deck`` and ``draw discard``."""
    words = sorted(notation.words(), key=len, reverse=True)
    verbs = "|".join(re.escape(w) for w in words)
    argument = r"(?:\d+(?:\.\d+)?|N|P\.N|A|[0-9AJQK]{1,2}[CDHS]|[CDHS]|all|next|minus|plus)"
    verbs = f"(?i:{verbs})"  # any case; the arguments as the notation writes them
    return re.compile(rf"`|\b{verbs} {argument}\b|\b(?i:draw) (?:deck|discard)\b|\b{verbs} …")


def test_the_notation_pattern_finds_the_notation() -> None:
    found = _notation_forms()
    for text in ("`peek 2`", "then replace 2", "draw deck", "spy 1.3", "play 8D 8H", "suit C"):
        assert found.search(text), text
    for text in ("look at one of your cards", "drop a card", "draw one card", "Gucken"):
        assert not found.search(text), text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", GAMES)
def test_plain_pages_hold_no_action_notation(name: str, lang: str) -> None:
    found = _notation_forms()
    for text in (_written(name, lang), plain_rules(name, lang)):
        hits = [m.group() for m in found.finditer(text)]
        assert not hits, (name, lang, hits)
    # and the notation page still has it
    assert found.search(variants.rules_text(name))


# ------------------------------------------------------------------ the card pictures
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", GAMES)
def test_every_token_is_a_card_of_the_game_or_the_legend(name: str, lang: str) -> None:
    deck = set(card_values(name))
    assert deck
    tokens = TOKEN.findall(_written(name, lang)) + TOKEN.findall(values_legend(name, lang))
    assert tokens
    strange = [t for t in tokens if t != VALUES_TOKEN and t not in deck]
    assert not strange, (name, lang, strange)
    assert "{{" not in plain_rules(name, lang)  # the terminal gets no token back
    assert "{{" + VALUES_TOKEN + "}}" not in plain_rules(name, lang, cards="tokens")


@pytest.mark.parametrize("name", GAMES)
def test_english_and_german_pages_show_the_same_cards(name: str) -> None:
    assert Counter(TOKEN.findall(_written(name, "en"))) == Counter(
        TOKEN.findall(_written(name, "de"))
    )


def test_tokens_become_cards_the_terminal_writes() -> None:
    text = plain_rules("gabo", "en")
    assert "[KH]" in text and "[BJ]" in text and "{{" not in text
    tokens = plain_rules("gabo", "en", cards="tokens")
    assert "{{KH}}" in tokens and "[KH]" not in tokens


# ------------------------------------------------------------------ the value legend
def _legend_values(legend: str) -> dict[str, int]:
    """What the legend says each card is worth, read back from its rows: a row's pictures
    stand for every card of their rank (all suits), unless it shows two cards of one rank
    (then exactly those); ``A … B`` is every rank from A to B; ``x – y`` points rise by one
    per rank of such a run."""
    out: dict[str, int] = {}
    for line in legend.splitlines()[2:]:
        if not line.startswith("| "):
            break
        cards_cell, points_cell = (c.strip() for c in line.strip("|").split(" | ")[:2])
        shown = TOKEN.findall(cards_cell)
        ranks = [card(c).rank for c in shown]
        points = [int(p.replace("−", "-")) for p in re.findall(r"−?\d+", points_cell)]
        exact = len(shown) != len(set(ranks))
        if " … " in cards_cell:  # a run of number ranks
            order = [str(n) for n in range(14)] if ranks[0] == "0" else [*RANKS, *SHORT_RANKS]
            first = order.index(ranks[0])
            ranks = order[first : order.index(ranks[-1], first) + 1]
        for i, rank in enumerate(dict.fromkeys(ranks)):
            worth = points[0] + i if len(points) == 2 else points[0]
            codes = [c for c in shown if card(c).rank == rank] if exact else None
            out.update(dict.fromkeys(codes or [rank], worth))
    return out


def _expand(read: dict[str, int], deck: list[str]) -> dict[str, int]:
    """A legend read back, rank entries spread over the deck's cards of that rank."""
    return {c: read[c] if c in read else read[card(c).rank] for c in deck}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_legend_says_what_the_rule_set_says(name: str, lang: str) -> None:
    rs = RULESETS[name]
    deck = list(dict.fromkeys(rs.deck))
    assert card_values(name) == {c: rs.value(c) for c in deck}
    read = _expand(_legend_values(values_legend(name, lang)), deck)
    assert read == {c: rs.value(c) for c in deck}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_qute_legend_says_what_its_points_table_says(lang: str) -> None:
    deck = list(card_values("qute"))
    assert len(deck) == 36
    read = _expand(_legend_values(values_legend("qute", lang)), deck)
    assert read == {c: POINTS[card(c).rank] for c in deck}


@pytest.mark.parametrize("name", GAMES)
def test_the_legend_marks_the_unusual_values_in_bold(name: str) -> None:
    legend = values_legend(name, "en")
    bold = set(re.findall(r"\*\*(−?\d+)\*\*", legend))
    marked = {str(v).replace("-", "−") for v in value_marks(name).values()}
    assert bold == marked


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_legend_names_each_power_and_whether_it_must_be_used(name: str) -> None:
    rs = RULESETS[name]
    legend = values_legend(name, "en")
    must = "You must use it" in legend or "You must look" in legend
    assert must == bool(rs.must_use)
    with language("de"):
        assert "Punkte" in values_legend(name)


# ------------------------------------------------------------------ unusual values
def test_usual_values_are_what_the_face_says() -> None:
    assert [usual_value(c) for c in ("AH", "7C", "10D", "JS", "QH", "KD")] == [1, 7, 10, 10, 10, 10]
    assert usual_value("0") == 0 and usual_value("13") == 13  # the Cabo deck's numbers
    assert usual_value("RJ") is None and usual_value("BJ") is None


def test_unusual_values_of_every_game() -> None:
    assert value_marks("cabo") == {}
    assert value_marks("gabo") == {"KC": 0, "KD": 15, "KH": 15, "KS": 0, "RJ": -2, "BJ": -2}
    assert value_marks("cabo-german") == {"KD": -1, "KH": -1, "RJ": 0, "BJ": 0}
    assert value_marks("kaboo") == {"KC": -1, "KD": -1, "KH": -1, "KS": -1}
    qute = value_marks("qute")
    assert {card(c).rank for c in qute} == {"6", "7", "8", "9", "J", "A"}
    assert qute["JH"] == 20 and qute["AS"] == 15 and qute["7C"] == 0
    assert unusual_values(["7H", "KH", "7H"], {"7H": 7, "KH": 3}.__getitem__) == {"KH": 3}


def test_the_variants_serve_values_and_their_marks() -> None:
    for name in GAMES:
        details = served_details(variants.get(name))
        assert details["value_marks"] == value_marks(name)
        assert details["values"] == card_values(name)


# ------------------------------------------------------------------ languages
def test_the_page_language_follows_the_wish_or_the_catalog() -> None:
    assert page_language("de") == "de" and page_language("de-AT") == "de"
    assert page_language("en_GB") == "en" and page_language("fr") == "en"
    assert page_language("../../etc") == "en"
    with language("de"):
        assert page_language() == "de"
        assert plain_rules("kaboo").startswith("# Kaboo") and "Klopfen" in plain_rules("kaboo")
    assert "Knock" in plain_rules("kaboo")


def test_the_rules_messages_are_the_same_in_english_and_german() -> None:
    root = Path(variants.__file__).resolve().parent / "text" / "locale"
    keys = {}
    for lang in ("en", "de"):
        text = (root / lang / "LC_MESSAGES" / "rules.po").read_text(encoding="utf-8")
        keys[lang] = {
            k: sorted(set(re.findall(r"\{(\w+)\}", v)))
            for k, v in re.findall(r'msgid "(rules\.[^"]+)"\nmsgstr "([^"]*)"', text)
        }
    assert keys["en"] and keys["en"] == keys["de"]
    assert load("de").say("rules.heading", title="Gabo") == "Regeln: Gabo"


def test_the_page_a_browser_gets_names_its_language_and_heading() -> None:
    page = plain_rules_page("cabo_german", "de-DE")
    assert page["variant"] == "cabo-german" and page["lang"] == "de"
    assert page["title"] == "Cabo (deutsche Regeln)"
    assert page["heading"] == "Regeln: Cabo (deutsche Regeln)"
    assert "{{KH}}" in page["markdown"] and "| Karte | Punkte |" in page["markdown"]


# ------------------------------------------------------------------ the command line
def test_cardtable_rules_prints_the_plain_page_and_notation_the_old_one() -> None:
    plain = runner.invoke(app, ["rules", "gabo"])
    assert plain.exit_code == 0, plain.output
    assert "Snapping" in plain.output and "[KH]" in plain.output
    assert "draw deck" not in plain.output and "What you type" not in plain.output
    assert "cardtable rules gabo --notation" in " ".join(plain.output.split())
    old = runner.invoke(app, ["rules", "gabo", "--notation"])
    assert old.exit_code == 0, old.output
    assert "What you type" in old.output and "draw deck" in old.output
    assert "Options" in old.output and "caller_penalty" in old.output


def test_cardtable_rules_speaks_the_catalogs_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_LANG", "de")
    result = runner.invoke(app, ["rules", "gabo"])
    assert result.exit_code == 0, result.output
    assert "Einwerfen" in result.output and "Snapping" not in result.output
    assert "rote Könige" in result.output


def test_cards_in_the_terminal_are_coloured_by_suit() -> None:
    console = Console(force_terminal=True, color_system="standard", width=60, record=True)
    console.print(CardsColoured(Markdown("a red king [KH] and a black one [KS]")))
    out = console.export_text(styles=True)
    red = re.search(r"\x1b\[([0-9;]*)m\[KH\]", out)
    black = re.search(r"\x1b\[([0-9;]*)m\[KS\]", out)
    assert red and "31" in red.group(1).split(";")
    assert black and "31" not in black.group(1).split(";")
