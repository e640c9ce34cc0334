"""A sixth Cabo-like variant is one record: ``add_variant`` and nothing else.

``pablo`` is Kaboo with another call word. Registered with :func:`add_variant` (by a fixture,
and removed again after this module, so suites that loop over every variant see the registry
as it was), it must play, parse, refuse clearly, and pass the same checks as the built-in
variants: the conformance and secrecy suites, PettingZoo's ``api_test`` and OpenSpiel's
``random_sim_test`` — the suites' own test functions are run on it here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable import IllegalAction, new_game, parse, replay, variants
from cardtable.agents import get as get_agent
from cardtable.games.family import RULESETS, add_variant, remove_variant
from cardtable.games.family.hooks import (
    DROP,
    END_ROUND,
    MULTI_REPLACE,
    NO_DROPS,
    RESHUFFLE,
    SNAP,
    Drops,
)
from cardtable.games.family.policy import call_threshold
from cardtable.games.family.rulesets import CABO, CABO_GERMAN, KABOO
from cardtable.notation import Action
from cardtable.seat import Seat
from cardtable.text.presentation import call_label, hand_layout, set_hand_layout

from . import test_conformance as conformance
from . import test_secrecy as secrecy

PABLO = dataclasses.replace(
    KABOO, name="pablo", title="Pablo", summary="Kaboo with another word", call="pablo"
)
PLAYERS = range(PABLO.min_players, PABLO.max_players + 1)


@pytest.fixture(scope="module", autouse=True)
def pablo() -> Iterator[variants.Variant]:
    """``pablo`` registered for this module's tests, and removed after them."""
    variant = add_variant(PABLO)
    try:
        yield variant
    finally:
        remove_variant("pablo")


@pytest.fixture
def temporary() -> Iterator[list[str]]:
    """Names appended here are removed (if registered) after the test."""
    names: list[str] = []
    yield names
    for name in names:
        if name in RULESETS:
            remove_variant(name)


def _play(game: Any, agents: list[Any]) -> Any:
    steps = 0
    while not game.over:
        seat = game.actors[0]
        game.play(seat, agents[seat].act(Seat(game, seat)))
        steps += 1
        assert steps < 50_000
    return game


# ------------------------------------------------------------------------------ the registry
def test_pablo_is_registered_from_its_record(pablo: variants.Variant) -> None:
    assert "pablo" in variants.names() and variants.get("pablo") is pablo
    assert RULESETS["pablo"] is PABLO
    assert pablo.family == "cabo" and pablo.title == "Pablo"
    assert (pablo.min_players, pablo.max_players) == (KABOO.min_players, KABOO.max_players)
    assert {o.name for o in pablo.options} == {o.name for o in variants.get("kaboo").options}
    g = cardtable.new_game("pablo", players=2, seed=1)
    assert g.variant == "pablo"
    assert Action("pablo") in g.legal_actions(g.actors[0])
    assert Action("knock") not in g.legal_actions(g.actors[0])
    assert g.view(0)["call"] == "pablo"


def test_the_built_in_variants_are_registered_the_same_way() -> None:
    for name in ("cabo", "cabo-german", "gabo", "kaboo"):
        assert variants.get(name).family == "cabo"
        assert variants.get(name).details["call"] == RULESETS[name].call
    assert variants.get("qute").family == "qute"


def test_a_taken_name_is_refused_and_changes_nothing() -> None:
    before = variants.names()
    with pytest.raises(ValueError, match="'pablo' is already taken"):
        add_variant(PABLO)
    with pytest.raises(ValueError, match="'kaboo' is already taken"):
        add_variant(dataclasses.replace(KABOO, name="kaboo"))
    with pytest.raises(ValueError, match="'qute' is already taken"):
        add_variant(dataclasses.replace(KABOO, name="qute", call="kwit"))
    with pytest.raises(ValueError, match="'cabo_german' is already taken"):  # an alias
        add_variant(dataclasses.replace(KABOO, name="cabo_german", call="kwit"))
    assert variants.names() == before
    assert RULESETS["pablo"] is PABLO


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("pass", "'pass' is already an action word"),
        ("draw", "'draw' is already an action word"),
        ("exchange", "'exchange' is already an action word"),
        ("qute", "'qute' is already an action word"),
        ("two words", "lowercase letters"),
        ("Pablo", "lowercase letters"),
        ("", "lowercase letters"),
    ],
)
def test_a_call_word_colliding_with_an_action_word_is_refused(call: str, message: str) -> None:
    before = variants.names()
    with pytest.raises(ValueError, match=message):
        add_variant(dataclasses.replace(KABOO, name="clash", call=call))
    assert variants.names() == before and "clash" not in RULESETS


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hand_size": 0}, "hand_size"),
        ({"initial_peeks": 5}, "initial_peeks"),
        ({"auto_peek": (2, 7)}, "auto_peek"),
        ({"max_positions": 0}, "max_positions"),
        ({"default_players": 9}, "players"),
        ({"hand_size": 20}, "deck is too small"),
    ],
)
def test_an_inconsistent_record_is_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        add_variant(dataclasses.replace(KABOO, name="broken", call="broke", **changes))
    assert "broken" not in variants.names()


def test_a_call_word_may_be_shared_and_outlives_one_of_its_variants(
    temporary: list[str],
) -> None:
    temporary.append("cabo-two")
    add_variant(dataclasses.replace(CABO, name="cabo-two", title="Cabo two"))
    assert variants.get("cabo_two").name == "cabo-two"
    g = new_game("cabo-two", players=2, seed=4, options={"target": None})
    assert g.view(0)["call"] == "cabo"
    remove_variant("cabo-two")
    assert parse("cabo") == Action("cabo")  # cabo and cabo-german still call with it
    assert "cabo_two" not in variants.names()
    with pytest.raises(ValueError, match="unknown game"):
        variants.get("cabo_two")


def test_removing_a_variant_forgets_it_everywhere(temporary: list[str]) -> None:
    import gymnasium

    from cardtable.interop import gymnasium as cg

    temporary.append("brief")
    add_variant(dataclasses.replace(KABOO, name="brief", title="Brief", call="stop"))
    assert parse("stop") == Action("stop")
    assert (
        cg.GYM_IDS["brief"] == "cardtable/Brief-v0" and "cardtable/Brief-v0" in gymnasium.registry
    )
    remove_variant("brief")
    assert "brief" not in variants.names() and "brief" not in RULESETS
    assert "brief" not in cg.GYM_IDS and "cardtable/Brief-v0" not in gymnasium.registry
    with pytest.raises(IllegalAction, match="unknown action 'stop'"):
        parse("stop")
    with pytest.raises(ValueError, match="not a registered Cabo-family variant"):
        remove_variant("brief")
    # the name is free again, for another record
    add_variant(dataclasses.replace(CABO_GERMAN, name="brief", title="Brief", call="stop"))
    g = new_game("brief", players=2, seed=1)
    assert len(g.codes) == len(CABO_GERMAN.deck) and g.view(0)["call"] == "stop"


# ------------------------------------------------------------------------------ rule set data
def test_hand_size_and_initial_peeks_come_from_the_record(temporary: list[str]) -> None:
    temporary += ["six-card", "no-peek"]
    add_variant(
        dataclasses.replace(
            CABO_GERMAN, name="six-card", title="Six", call="enough", hand_size=6, initial_peeks=3
        )
    )
    g: Any = new_game("six-card", players=3, seed=2, options={"target": None})
    assert [len(h) for h in g.hands] == [6, 6, 6]
    assert g.view(0)["phase"] == "peek" and g.view(0)["peeks_left"] == [3, 3, 3]
    with pytest.raises(IllegalAction, match="first look at three of your cards"):
        g.play(0, "pass")
    for seat in range(3):
        for pos in range(3):
            g.play(seat, f"peek {pos}")
    assert g.view(0)["phase"] == "turn" and Action("enough") in g.legal_actions(g.turn)
    for seed in range(5):
        conformance.playout("six-card", 3, seed)

    add_variant(dataclasses.replace(CABO, name="no-peek", title="No peek", initial_peeks=0))
    h: Any = new_game("no-peek", players=2, seed=1, options={"target": None})
    assert h.view(0)["phase"] == "turn" and h.view(0)["peeks_left"] is None
    conformance.playout("no-peek", 2, 1)


def test_the_built_in_records_keep_their_numbers() -> None:
    for rs in RULESETS.values():
        assert (rs.hand_size, rs.initial_peeks) == (4, 2)
    assert {n: RULESETS[n].max_positions for n in ("cabo", "cabo-german", "gabo", "kaboo")} == {
        "cabo": 8,
        "cabo-german": 8,
        "gabo": 8,
        "kaboo": 4,
    }
    assert [call_label(RULESETS[n].call) for n in ("cabo", "gabo", "kaboo")] == [
        "Cabo!",
        "Gabo!",
        "Knock",
    ]
    assert [hand_layout(RULESETS[n]) for n in ("cabo", "cabo-german", "gabo", "kaboo")] == [
        "row",
        "row",
        "row",
        "square",
    ]
    assert [RULESETS[n].drops for n in ("cabo", "cabo-german", "gabo", "kaboo")] == [
        MULTI_REPLACE,
        DROP,
        SNAP,
        NO_DROPS,
    ]
    assert [RULESETS[n].deck_end for n in ("cabo", "cabo-german", "gabo", "kaboo")] == [
        END_ROUND,
        RESHUFFLE,
        RESHUFFLE,
        END_ROUND,
    ]


def test_a_hook_that_is_not_one_is_refused() -> None:
    for changes in ({"drops": "snap"}, {"deck_end": "reshuffle"}):
        with pytest.raises(ValueError, match="drops must be a Drops and deck_end a DeckEnd"):
            add_variant(dataclasses.replace(KABOO, name="broken", call="broke", **changes))
    with pytest.raises(ValueError, match="pile_phases"):
        Drops("early", pile_phases=frozenset({"peek"}))
    assert "broken" not in variants.names()


def test_a_layout_is_set_by_name_and_checked() -> None:
    with pytest.raises(ValueError, match="hand_layout"):
        set_hand_layout("broken", "circle")
    row = dataclasses.replace(KABOO, name="kaboo-row", call="enough")
    assert hand_layout(row) == "square"  # made from kaboo: four cards, the bottom row seen
    set_hand_layout("kaboo-row", "row")
    assert hand_layout(row) == "row" and hand_layout(KABOO) == "square"


# ------------------------------------------------------------------------------ notation
def test_the_parser_accepts_pablo_without_arguments() -> None:
    assert parse("pablo") == Action("pablo") and parse("  PABLO ") == Action("pablo")
    assert str(parse("pablo")) == "pablo"
    with pytest.raises(IllegalAction, match="'pablo' takes no arguments"):
        parse("pablo 1")


def test_pablo_is_refused_clearly_when_illegal() -> None:
    g: Any = new_game("pablo", players=3, seed=5, options={"target": None, "first": 0})
    with pytest.raises(IllegalAction, match="in pablo the end is called with 'pablo'"):
        g.play(0, "knock")
    with pytest.raises(IllegalAction, match="in pablo the end is called with 'pablo'"):
        g.play(0, "cabo")
    with pytest.raises(IllegalAction, match="you cannot act now: seat 0 is to act"):
        g.play(1, "pablo")
    g.play(0, "draw deck")
    with pytest.raises(IllegalAction, match="only be called at the start of your turn"):
        g.play(0, "pablo")
    g.play(0, "discard")
    if g.view(0)["pending"]:  # a power card: let it go
        g.play(0, "pass")
    g.play(1, "pablo")
    with pytest.raises(IllegalAction, match="already been called"):
        g.play(2, "pablo")
    kaboo: Any = new_game("kaboo", players=2, seed=1, options={"target": None, "first": 0})
    with pytest.raises(IllegalAction, match="in kaboo the end is called with 'knock'"):
        kaboo.play(0, "pablo")


# ------------------------------------------------------------------------------ whole games
@pytest.mark.parametrize("agent", ["random", "heuristic", "casual"])
@pytest.mark.parametrize("players", list(PLAYERS))
def test_whole_matches_with_agents(agent: str, players: int) -> None:
    g: Any = new_game("pablo", players=players, seed=players)
    _play(g, [get_agent(agent, seed=10 * players + s) for s in range(players)])
    assert g.result is not None and len(g.result.totals) == players
    again = replay(g.log)
    assert again.result == g.result and again.log == g.log


def test_the_heuristic_calls_by_the_record_threshold() -> None:
    g: Any = new_game("pablo", players=2, seed=1)
    assert call_threshold(g) == PABLO.call_threshold == KABOO.call_threshold
    calls = 0
    for seed in range(6):
        game: Any = new_game("pablo", players=2, seed=seed, options={"target": None})
        _play(game, [get_agent("heuristic", seed=seed + s) for s in range(2)])
        calls += any(text == "pablo" for _, text in game.log["actions"])
    assert calls  # the rules of thumb do call with the new word


# ------------------------------------------------------------------------------ the suites
@pytest.mark.parametrize("players", list(PLAYERS))
def test_conformance_suite(players: int) -> None:
    conformance.test_random_playouts("pablo", players)
    conformance.test_same_seed_same_game("pablo", players)


@pytest.mark.parametrize("players", list(PLAYERS))
def test_secrecy_suite(players: int) -> None:
    secrecy.test_views_survive_redeal("pablo", players)
    secrecy.test_memoryless_views_hide_every_face_down_card("pablo", players)


def test_secrecy_suite_spectators() -> None:
    secrecy.test_spectator_sees_only_face_up_cards("pablo")
    secrecy.test_memoryless_spectator_sees_only_what_is_face_up("pablo")


@pytest.mark.parametrize("players", list(PLAYERS))
def test_pettingzoo_api_test(players: int) -> None:

    from .interop import test_pettingzoo as pz

    pz.test_api_test_passes_without_warnings("pablo", players)
    pz.test_observation_depends_only_on_what_the_seat_knows("pablo", players)


def test_openspiel_random_sim_test() -> None:
    import pyspiel

    from cardtable.interop import openspiel as cos

    from .interop import test_openspiel as tos

    assert cos.GAME_NAMES["pablo"] == "cardtable_pablo"
    game = pyspiel.load_game("cardtable_pablo")
    assert game.get_parameters()["max_positions"] == PABLO.max_positions == 4
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    for players in PLAYERS:
        game = pyspiel.load_game("cardtable_pablo", {"players": players, "target": 0})
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    tos.test_registered_with_parameters_and_game_info("pablo")
    tos.test_resampled_states_look_the_same_to_their_seat("pablo", 3)


def test_gymnasium_id() -> None:
    import gymnasium

    from cardtable.interop.gymnasium import GYM_IDS, CardtableGymEnv, gym_id

    assert GYM_IDS["pablo"] == gym_id("pablo") == "cardtable/Pablo-v0"
    assert GYM_IDS["cabo-german"] == "cardtable/CaboGerman-v0"  # the old ids are unchanged
    e = gymnasium.make("cardtable/Pablo-v0", opponents="random").unwrapped
    assert isinstance(e, CardtableGymEnv) and e.variant == "pablo"
    obs, _info = e.reset(seed=3)
    assert obs["action_mask"].any()
    e.step(int(obs["action_mask"].nonzero()[0][0]))


# ------------------------------------------------------------------------------ the web
def _get(app: Any, path: str) -> tuple[int, Any]:
    """One GET through the ASGI app itself (no server, no HTTP client library)."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"test")],
        "client": ("127.0.0.1", 1),
        "server": ("test", 80),
    }
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(body)


def test_the_web_app_serves_what_the_browser_needs(tmp_path: Path) -> None:

    from cardtable.web.app import create_app
    from cardtable.web.settings import ServerSettings

    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'web.db'}", ServerSettings(ai_workers=0))
    status, found = _get(app, "/api/variants")
    assert status == 200
    by_name = {v["name"]: v for v in found}
    assert [v["name"] for v in found] == variants.names()
    pablo = by_name["pablo"]
    assert pablo["family"] == "cabo" and pablo["title"] == "Pablo"
    assert (pablo["call"], pablo["call_label"]) == ("pablo", "Pablo")
    assert pablo["hand_layout"] == "square" and pablo["hand_size"] == 4
    assert pablo["values"]["KH"] == -1 and pablo["values"]["QS"] == 10
    assert pablo["powers"]["7H"] == "peek" and pablo["powers"]["QC"] == "look"
    assert "5H" not in pablo["powers"]
    # what the client used to hard-code, now served
    cabo = by_name["cabo"]
    assert (cabo["call"], cabo["call_label"], cabo["hand_layout"]) == ("cabo", "Cabo!", "row")
    assert {k: cabo["powers"][k] for k in ("7", "9", "11", "12")} == {
        "7": "peek",
        "9": "spy",
        "11": "swap",
        "12": "swap",
    }
    assert "13" not in cabo["powers"] and cabo["values"]["13"] == 13
    assert (by_name["kaboo"]["call_label"], by_name["kaboo"]["hand_layout"]) == ("Knock", "square")
    assert (by_name["gabo"]["call_label"], by_name["gabo"]["initial_peeks"]) == ("Gabo!", 2)
    assert by_name["kaboo"]["auto_peek"] == [2, 3]  # kaboo shows the bottom row instead
    qute = by_name["qute"]
    assert (qute["family"], qute["call"], qute["call_label"]) == ("qute", "qute", "Qute!")
