"""Foundation: card codes and decks, seeded randomness, the registry and option checks."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable import IllegalAction, new_game, variants
from cardtable.cards import cabo_deck, card, short_deck, standard_deck
from cardtable.rng import Rng


def test_decks_have_the_right_cards() -> None:
    """52, 54 with jokers, the 0–13 Cabo deck and the 36-card short deck."""
    std = standard_deck()
    assert len(std) == len(set(std)) == 52
    assert {"AC", "10H", "QS", "KD", "2S"} <= set(std)
    jok = standard_deck(jokers=True)
    assert len(jok) == 54 and jok.count("RJ") == jok.count("BJ") == 1
    cabo = Counter(cabo_deck())
    assert sum(cabo.values()) == 52
    assert cabo["0"] == cabo["13"] == 2
    assert all(cabo[str(v)] == 4 for v in range(1, 13))
    short = short_deck()
    assert len(short) == len(set(short)) == 36
    assert {c[:-1] for c in short} == {"6", "7", "8", "9", "10", "J", "Q", "K", "A"}


def test_card_codes_parse_and_reject() -> None:
    """Codes parse into rank/suit/colour; anything else is a ValueError."""
    assert card("10H").rank == "10" and card("10H").suit == "H" and card("10H").red
    assert card("KS").black and not card("KS").red
    assert card("RJ").rank == "JOKER" and card("RJ").red
    assert card("BJ").black
    assert card("13").rank == "13" and card("13").suit is None
    for bad in ("1H", "14", "ZZ", "", "10X", "01", "JOKER"):
        with pytest.raises(ValueError, match="not a card"):
            card(bad)


def test_rng_is_pinned() -> None:
    """Known values: the same seed gives the same shuffle on every Python version."""
    rng = Rng(7)
    items = list(range(10))
    rng.shuffle_stable(items)
    assert items == [2, 7, 4, 6, 8, 9, 0, 5, 1, 3]
    assert Rng(7).below(1000) == 323
    game: Any = new_game("kaboo", seed=7)
    assert game.first == 0
    assert game.hands == [[51, 10, 9, 16], [0, 18, 12, 22]]


def test_registry_lists_and_finds_variants() -> None:
    """All four family variants are registered, with aliases and clear errors."""
    assert {"cabo", "cabo-german", "gabo", "kaboo"} <= set(variants.names())
    assert variants.get("cabo_german").name == "cabo-german"
    with pytest.raises(ValueError, match="unknown game 'uno'"):
        variants.get("uno")
    with pytest.raises(ValueError, match="unknown game"):
        new_game("uno")
    for name in variants.names():
        v = variants.get(name)
        assert v.title and v.summary
        assert v.min_players <= v.default_players <= v.max_players
        assert new_game(name).players == v.default_players


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"options": {"colour": "red"}}, "unknown option 'colour'"),
        ({"options": {"target": "100"}}, "option 'target' of kaboo must be int or None"),
        ({"options": {"target": True}}, "option 'target'"),
        ({"options": {"target": 0}}, "must be ≥ 1"),
        ({"options": {"target": 1001}}, "must be ≤ 1000"),
        ({"options": {"target": 2**70}}, "must be ≤ 1000"),
        ({"options": {"max_turns": None}}, "option 'max_turns' of kaboo must be int"),
        ({"options": {"first": 5}}, "option 'first' must be a seat"),
        ({"players": 1}, "kaboo is played by 2 to 4 players, not 1"),
        ({"players": 5}, "not 5"),
        ({"players": "2"}, "players must be an integer"),
        ({"seed": "abc"}, "seed must be an integer"),
        ({"deck": ["ZZ"]}, "not a card of the kaboo deck"),
        ({"deck": ["RJ"]}, "not a card of the kaboo deck"),
        ({"deck": ["5H", "5H"]}, "too many '5H'"),
    ],
)
def test_bad_game_setup_is_a_clear_value_error(kwargs: dict[str, Any], message: str) -> None:
    """Unknown options, wrong types, bad player counts and bad decks are refused plainly."""
    with pytest.raises(ValueError, match=message):
        new_game("kaboo", **kwargs)


@pytest.mark.parametrize("name", variants.names())
def test_every_variant_plays_one_round_or_a_match_to_a_bounded_target(name: str) -> None:
    """``target: None`` is one round, a number from 1 to MAX_TARGET a match, anywhere else no."""
    assert new_game(name, options={"target": None}).view(0)["target"] is None
    for target in (1, 60, variants.MAX_TARGET):
        assert new_game(name, options={"target": target}).view(0)["target"] == target
    for bad in (0, variants.MAX_TARGET + 1):
        with pytest.raises(ValueError, match="option 'target'"):
            new_game(name, options={"target": bad})


def test_variant_specific_options() -> None:
    """Options exist only where they mean something, with documented defaults."""
    cabo = {o.name: o for o in variants.get("cabo").options}
    assert cabo["target"].default == 100 and cabo["caller_penalty"].default == 10
    assert cabo["reset_at_exact_target"].default is False
    assert {o.name: o for o in variants.get("gabo").options}["caller_penalty"].default == 20
    with pytest.raises(ValueError, match="unknown option 'reset_at_exact_target'"):
        new_game("gabo", options={"reset_at_exact_target": True})
    for name in variants.names():
        for spec in variants.get(name).options:
            assert spec.doc, f"{name}.{spec.name} needs a line of documentation"


def test_public_api_exports() -> None:
    """The names DESIGN.md promises are importable from the package root."""
    for name in ("new_game", "replay", "IllegalAction", "variants", "Action", "parse"):
        assert hasattr(cardtable, name)
    assert issubclass(IllegalAction, ValueError)


def test_stacked_prefix_then_seeded_rest() -> None:
    """A stacked prefix is dealt in order; the rest of the deck follows from the seed."""
    a: Any = new_game("kaboo", seed=1, deck=["AS", "2S", "3S", "4S"])
    b: Any = new_game("kaboo", seed=1, deck=["AS", "2S", "3S", "4S"])
    assert a.view(0)["hands"] == b.view(0)["hands"] and a.deck == b.deck
    assert [a.codes[c] for c in (a.hands[0][0], a.hands[1][0], a.hands[0][1], a.hands[1][1])] == [
        "AS",
        "2S",
        "3S",
        "4S",
    ]


def test_option_checks_are_not_fooled_by_earlier_games() -> None:
    """Reusing validated options never lets a bool pass for an int (True == 1 in Python)."""
    new_game("kaboo", options={"target": 1})
    with pytest.raises(ValueError, match="option 'target'"):
        new_game("kaboo", options={"target": True})
    assert new_game("kaboo", options={"target": 1}).options["target"] == 1


def test_the_version_has_one_source() -> None:
    """``cardtable.__version__`` is the installed distribution's, which is pyproject's."""
    import tomllib
    from importlib import metadata
    from pathlib import Path

    import cardtable

    pyproject = Path(__file__).parents[1] / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    assert cardtable.__version__ == metadata.version("cardtable") == declared


@pytest.mark.parametrize("variant", ["cabo", "cabo-german", "gabo", "kaboo", "qute"])
def test_the_debug_dump_lists_every_hidden_card(variant: str) -> None:
    """``debug_lines`` is the public dump of the whole state (OpenSpiel's debug string reads
    it): every hand card's code, whoever may know it."""

    from cardtable import new_game

    g: Any = new_game(variant, players=3, seed=4)
    text = "\n".join(g.debug_lines())
    for s, hand in enumerate(g.hands):
        line = next(x for x in text.splitlines() if x.startswith(f"hand {s}:"))
        for cid in hand:
            if cid >= 0:
                assert g.codes[cid] in line


def test_every_file_the_package_reads_ships_in_the_wheel() -> None:
    """Every file of the package that is not a module is matched by a package-data pattern of
    pyproject.toml (the rules texts, the belief models, the browser client, the terminal
    table's stylesheet …), so a built wheel runs as the checkout does. The browser client's
    ``.d.ts`` declarations are for the type check only and stay out."""
    import subprocess
    import tomllib
    from fnmatch import fnmatch
    from pathlib import Path

    root = Path(__file__).parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["cardtable"]
    listed = subprocess.run(
        ["git", "ls-files", "src/cardtable"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split()
    files = [f.removeprefix("src/cardtable/") for f in listed if not f.endswith(".py")]
    assert "tui/table.tcss" in files and "rules/gabo.md" in files
    left_out = [
        name
        for name in files
        if not name.startswith("web/static/types/")
        and not any(fnmatch(name, pattern) for pattern in patterns)
    ]
    assert left_out == []
