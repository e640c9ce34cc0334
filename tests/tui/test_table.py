"""The full-screen table played by keys: whole games, memory, help, play again, resume."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import RichLog, Static

from cardtable import agents, new_game
from cardtable.seat import Seat
from cardtable.text.fronts import PLAYABLE
from cardtable.tui import farewell, run_table, saves
from cardtable.tui.app import CardBox, CardtableApp, HelpScreen, ResultScreen, RoundScreen

from .helpers import enter, make_app, play_out, settle, sync

VARIANTS = ["cabo", "cabo-german", "gabo", "kaboo", "qute"]


def test_every_playable_variant_is_covered() -> None:
    assert set(PLAYABLE) <= set(VARIANTS)


@pytest.mark.parametrize("variant", VARIANTS)
@sync
async def test_a_whole_game_by_keys(variant: str) -> None:
    app = make_app(variant)
    async with app.run_test(size=(100, 35)) as pilot:
        played = await play_out(app, pilot)
        await pilot.pause()
        assert played > 0
        assert app.game.over
        assert isinstance(app.screen, ResultScreen)
        # the result is drawn, not an empty frame: every part has room
        assert all(part.size.area > 0 for part in app.screen.query(Static))
        log = app.query_one("#log", RichLog)
        assert len(log.lines) > played


@pytest.mark.parametrize("variant", ["cabo", "qute"])
@sync
async def test_a_rounds_results_hold_the_next_round_until_closed(variant: str) -> None:
    app = make_app(variant, options={}, peek_window=30.0, snap_window=5.0)
    player = agents.get("heuristic", seed=0)
    async with app.run_test(size=(100, 35)) as pilot:
        for _ in range(600):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.screen, RoundScreen) or app.game.over:
                break
            if app.mine:
                await enter(app, pilot, str(player.act(Seat(app.game, app.me))))
        assert isinstance(app.screen, RoundScreen), "the match ended in one round"
        assert not app.game.over and app.between is not None
        screen = app.screen
        shown = str(screen.title_text)
        assert shown == f"Round {app.between['round']} is over."
        assert all(part.size.area > 0 for part in screen.query(Static))
        # Nothing runs behind the results: no clock, no bot, no input taken.
        moves = len(app.game.log["actions"])
        await pilot.pause(0.3)
        await app.workers.wait_for_complete()
        assert app.window is None and app.thinking is None and not app.mine
        assert len(app.game.log["actions"]) == moves
        picture = app.export_screenshot().replace("&#160;", " ")
        assert shown in picture and "Enter: next round" in picture
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, RoundScreen) and app.between is None
        if variant == "cabo":  # the next round opens with its peeks: their clock starts now
            assert app.game.timed_window() == "peek" and app.mine
            assert app.window is not None and not app.window.paused
        else:
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.mine or len(app.game.log["actions"]) > moves


@sync
async def test_play_again_starts_the_next_deal() -> None:
    app = make_app("kaboo")
    async with app.run_test(size=(100, 35)) as pilot:
        await play_out(app, pilot)
        await pilot.pause()
        seed = app.game.seed
        await pilot.press("n")
        await settle(app, pilot)
        assert not isinstance(app.screen, ResultScreen)
        assert app.game.seed == seed + 1
        assert not app.game.over


def _shown(app: CardtableApp, seat: int, pos: int) -> str | None:
    return app.query_one(f"#card-{seat}-{pos}", CardBox).code


@sync
async def test_peeked_cards_are_shown_until_the_next_move() -> None:
    app = make_app("cabo")
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        assert app.prefix == []  # nothing is chosen for the person
        await pilot.press("0")  # the card alone: peek is the only word it can go with
        await settle(app, pilot)
        first = _shown(app, 0, 0)
        assert first is not None
        assert first == app.game.view(0)["hands"][0][0]["card"]
        await pilot.press("p", "1")
        await settle(app, pilot)
        # the two initial peeks are seen together, until the first move after them
        assert _shown(app, 0, 0) == first
        assert _shown(app, 0, 1) == app.game.view(0)["hands"][0][1]["card"]
        await enter(app, pilot, "draw deck")
        assert _shown(app, 0, 0) is None  # no memory aid: remember them
        assert _shown(app, 0, 1) is None
        log = "\n".join(line.text for line in app.query_one("#log", RichLog).lines)
        assert "you peeked at your card 0" in log
        assert "you peeked at your card 0:" not in log  # the panel keeps no card to remember


@sync
async def test_the_memory_aid_keeps_seen_cards() -> None:
    app = make_app("cabo", memory_aid=True)
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("0")
        await settle(app, pilot)
        await pilot.press("1")
        await settle(app, pilot)
        assert app.game.log["actions"][:2] == [[0, "peek 0"], [0, "peek 1"]]
        assert _shown(app, 0, 0) is not None
        assert _shown(app, 0, 1) is not None


@sync
async def test_kaboo_bottom_row_hides_after_the_first_move() -> None:
    app = make_app("kaboo")
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        assert _shown(app, 0, 2) is not None and _shown(app, 0, 3) is not None
        await enter(app, pilot, "draw deck")
        await settle(app, pilot)
        assert _shown(app, 0, 2) is None and _shown(app, 0, 3) is None
        assert app.query_one("#pile-drawn", CardBox).code == app.game.view(0)["drawn"]


@sync
async def test_other_seats_cards_are_chosen_by_their_numbers() -> None:
    app = make_app("cabo-german")
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        while app.game.view(0)["phase"] == "peek":
            await enter(app, pilot, app.legal[0])
            await settle(app, pilot)
        drops = [a for a in app.legal if a.startswith("drop 1.")]
        assert drops
        await pilot.press(app.choices()["drop"])
        assert ("card-1-0", "1.0", "1.0") in app.targets()
        await pilot.press("escape")
        assert app.prefix == []


@sync
async def test_arrows_and_enter_choose_a_card() -> None:
    app = make_app("gabo")
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("right", "right", "enter")
        await settle(app, pilot)
        assert app.game.log["actions"][0] == [0, "peek 1"]


@sync
async def test_help_overlay_opens_and_closes() -> None:
    app = make_app("gabo")
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "exchange" in app.screen.markdown and "Notation" in app.screen.markdown
        await pilot.pause()
        page = app.screen.query_one("#help")
        assert app.screen.focused is page and page.scroll_y == 0
        assert "Every word of a move has one key" in app.export_screenshot().replace("&#160;", " ")
        await pilot.press("pagedown")  # the page scrolls by keyboard
        await pilot.pause()
        assert page.scroll_y > 0
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


@sync
async def test_enter_in_a_timed_window_plays_the_clocks_move() -> None:
    app = make_app("gabo", peek_window=600.0)
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        assert app.window is not None
        assert "⏱" in str(app.query_one("#status").render())
        expected = str(app.game.timeout_action(0))
        assert not [a for s, a in app.game.log["actions"] if s == 0]  # the bots may peek first
        await pilot.press("enter")
        await settle(app, pilot)
        mine = [a for s, a in app.game.log["actions"] if s == 0]
        assert mine[0] == expected


@sync
async def test_resume_continues_the_saved_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    app = make_app("kaboo", save=True)
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await enter(app, pilot, "draw deck")
        await settle(app, pilot)
        actions = app.game.log["actions"]
        view = app.game.view(0)
    record = saves.load_save()
    assert record is not None
    assert saves.save_path() == tmp_path / "games" / "last.json"
    assert record["log"]["actions"] == actions
    again = CardtableApp.from_save(record, bot_pause=0.0, flash=0.0, save=False)
    assert again.game.view(0) == view
    async with again.run_test(size=(100, 35)) as pilot:
        await settle(again, pilot)
        assert again.mine
        assert again.game.log["actions"][: len(actions)] == actions


@sync
async def test_a_finished_game_is_kept_for_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    app = make_app("kaboo", save=True)
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await enter(app, pilot, "knock")
        await settle(app, pilot)
        assert app.game.over
        log = app.game.log
    assert saves.load_save() is None  # nothing left to resume
    kept = saves.load_finished()
    assert kept is not None and kept["log"] == log
    assert kept["seat"] == app.me and kept["memory_aid"] == app.memory_aid


@sync
async def test_the_prompt_says_how_to_choose_a_pile_and_a_card() -> None:
    app = make_app("cabo")
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        assert "(number, arrows or click)" in app._prompt().plain  # a card to peek at
        await enter(app, pilot, "peek 0")
        await enter(app, pilot, "peek 1")
        await settle(app, pilot)
        await pilot.press(app.choices()["draw"])
        prompt = app._prompt().plain
        assert "choose deck, discard (letter, arrows or click)" in prompt  # piles have no number


def test_closing_the_table_prints_the_seed_and_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    played: list[CardtableApp] = []

    def run(app: CardtableApp) -> None:  # the person makes one move, then quits
        played.append(app)
        app.game.play(app.me, "peek 0")

    monkeypatch.setattr(CardtableApp, "run", run)
    text = run_table(new_game("gabo", players=3, seed=4321), opponents="random")
    assert text.splitlines() == [
        "seed 4321: replay this deal with --seed 4321",
        "The game is saved: `cardtable play --resume` continues it.",
    ]
    # left before the first move: nothing of this game is saved, so nothing is promised
    monkeypatch.setattr(CardtableApp, "run", lambda app: None)
    text = run_table(new_game("gabo", players=3, seed=7), opponents="random")
    assert text == "seed 7: replay this deal with --seed 7"
    assert farewell(7, over=True, saved=True) == "seed 7: replay this deal with --seed 7"


@sync
async def test_gabo_says_why_the_initial_peek_stays_in_sight() -> None:
    app = make_app("gabo")
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await enter(app, pilot, "peek 0")
        await enter(app, pilot, "peek 1")
        await settle(app, pilot)
        kept = str(app.query_one("#kept").render())
        assert "your initial peek, shown until your first draw" in kept
        assert f"your card 0 [{_shown(app, 0, 0)}]" in kept
        await enter(app, pilot, "draw deck")
        await settle(app, pilot)
        assert not app.query("#kept")


@sync
async def test_a_resumed_table_tells_the_round_again_with_its_public_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    game = new_game("cabo-german", players=3, seed=7, options={"target": None})
    player = agents.get("heuristic", seed=7)
    while len(game.log["actions"]) < 30:
        seat = game.actors[0]
        game.play(seat, str(player.act(Seat(game, seat))))
    record = {"log": game.log, "seat": 0, "opponents": "random", "bot_seed": 7}
    again = CardtableApp.from_save(record, bot_pause=0.0, flash=0.0, save=False)
    async with again.run_test(size=(100, 35)) as pilot:
        await pilot.pause()
        log = " ".join(
            " ".join(line.text for line in again.query_one("#log", RichLog).lines).split()
        )
    assert "Game resumed after 30 moves" in log
    public = {c for ev in game.history(0, memory=False) for c in _public_codes(ev)}
    assert public and all(f"[{c}]" in log for c in public)  # named again, as before
    private = {
        ev["card"] for ev in game.history(0) if ev["type"] in ("peek", "spy") and "card" in ev
    }
    assert private - public  # the person's own peeks, never shown to the table
    assert not any(f"[{c}]" in log for c in private - public)  # no peek is told again


def _public_codes(ev: dict[str, object]) -> list[str]:
    out: list[str] = []
    for key in ("card", "out", "shown", "discard"):
        value = ev.get(key)
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            out.extend(str(v) for v in value)
    return out
