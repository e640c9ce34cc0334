"""One key, one meaning on the full-screen table: fixed letters, nothing chosen for the person,
calls confirmed, a word for every key that means nothing, scroll keys, the Qute sort key."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import RichLog, Static

from cardtable import agents, new_game
from cardtable.seat import Seat
from cardtable.text.keys import RESERVED, word_keys
from cardtable.text.qute import sort_hand
from cardtable.tui import saves
from cardtable.tui.app import CardBox, CardtableApp

from .helpers import enter, make_app, settle, sync

CABO_DEAL = ["13", "4", "0", "4", "5", "6", "5", "6", "9", "3", "8", "7"]
"""Two-seat cabo: seat 0 holds 13, 0, 5, 5, seat 1 4, 4, 6, 6; the pile starts with 9."""


def _log(app: CardtableApp) -> str:
    """The event panel's text, its wrapped lines joined."""
    return " ".join(" ".join(line.text for line in app.query_one("#log", RichLog).lines).split())


def _after_a_call() -> CardtableApp:
    """Two-seat cabo where seat 1 has just called: the person's final turn."""
    game = new_game("cabo", players=2, seed=1, deck=CABO_DEAL, options={"target": None})
    for seat, action in [
        (0, "peek 0"),
        (0, "peek 1"),
        (1, "peek 0"),
        (1, "peek 1"),
        (0, "draw deck"),
        (0, "discard"),
        (1, "cabo"),
    ]:
        game.play(seat, action)
    return CardtableApp(
        game, opponents="random", bot_pause=0.0, peek_window=0.0, flash=0.0, save=False
    )


@sync
async def test_after_a_call_nothing_is_chosen_and_d_d_throws_nothing_away() -> None:
    """The issue: the final turn's prompt was pre-filled with 'draw', so the usual 'd d' drew
    and then discarded the drawn card."""
    app = _after_a_call()
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        assert app.mine and app.prefix == []
        moves = len(app.game.log["actions"])
        await pilot.press("d", "d")
        assert app.prefix == ["draw"]  # the second d is still 'draw', which cannot come now
        assert len(app.game.log["actions"]) == moves
        assert "d is 'draw', which is not possible now" in app._prompt().plain
        await pilot.press("e")  # deck
        assert app.game.log["actions"][moves] == [0, "draw deck"]
        assert "Your move:" in app._prompt().plain  # the message went with the next key


@sync
async def test_a_call_asks_first_and_esc_takes_it_back() -> None:
    game = new_game("cabo", players=2, seed=1, deck=CABO_DEAL, options={"target": None})
    for seat, action in [(0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1")]:
        game.play(seat, action)
    app = CardtableApp(game, opponents="random", bot_pause=0.0, flash=0.0, save=False)
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        moves = len(app.game.log["actions"])
        await pilot.press("c")
        assert app.confirm == "cabo" and len(app.game.log["actions"]) == moves
        assert "Call cabo? Then every other seat has one last turn." in app._prompt().plain
        await pilot.press("escape")
        assert app.confirm is None and len(app.game.log["actions"]) == moves
        assert "The call is taken back." in app._prompt().plain
        await pilot.press("c", "d")  # another key takes the call back too
        assert app.confirm is None and app.prefix == ["draw"]
        await pilot.press("escape", "c", "c")
        assert app.game.log["actions"][moves] == [0, "cabo"]


@pytest.mark.parametrize("variant", ["cabo", "cabo-german", "gabo", "kaboo", "qute"])
@sync
async def test_every_word_keeps_its_key_in_every_menu(variant: str) -> None:
    app = make_app(variant, seed=4)
    keys = word_keys(variant)
    player = agents.get("heuristic", seed=4)
    seen: dict[str, str] = {}
    async with app.run_test(size=(100, 35)) as pilot:
        for _ in range(40):
            await settle(app, pilot)
            if app.game.over:
                break
            moves = len(app.game.log["actions"])
            action = str(player.act(Seat(app.game, app.me)))
            for word in action.split():
                for w, key in app.choices().items():  # every menu on the way
                    assert key == keys[w] and key not in RESERVED, (w, key)
                    assert seen.setdefault(w, key) == key
                if word in app.choices():
                    await pilot.press(app.choices()[word])
                else:
                    label = next(t[1] for t in app.targets() if t[2] == word)
                    await pilot.press(*[{".": "full_stop"}.get(c, c) for c in label])
            if len(app.game.log["actions"]) == moves:
                await pilot.press("enter")
            assert app.game.log["actions"][moves] == [0, action]
    assert len(seen) >= 3
    assert len(set(seen.values())) == len(seen)  # and one word for each key


@pytest.mark.parametrize("variant", ["cabo", "cabo-german", "gabo", "kaboo", "qute"])
@sync
async def test_the_keys_line_names_every_word_within_two_lines_at_80_columns(
    variant: str,
) -> None:
    app = make_app(variant, seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        footer = app.query_one("#keys", Static)
        width = footer.content_region.width
        assert width == 78  # the screen's width inside the padding
        needs = footer.get_content_height(app.size, app.size, width)
        assert needs <= 2 and footer.content_region.height == needs  # nothing cut off
        plain = str(footer.render())
        keys = word_keys(variant)
        for word in app._game_words():  # the words of this game's notation
            if len(word) > 1:  # Qute's suits are their own letters
                assert f"{keys[word]} {word}" in plain, (word, plain)
        assert plain.startswith("? help") and "PgUp/PgDn" in plain


@sync
async def test_a_key_that_means_nothing_now_says_so() -> None:
    app = make_app("cabo")
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("z")
        assert "z: no meaning in this game" in app._prompt().plain
        await pilot.press("x")
        assert "x is 'exchange', which is not possible now" in app._prompt().plain
        await pilot.press("9")
        assert "no card 9 can come next" in app._prompt().plain
        await pilot.press("down")
        assert app.cursor == 0  # the initial peek's cards are targets at once
        assert [a for s, a in app.game.log["actions"] if s == 0] == []  # nothing played


@sync
async def test_a_key_on_someone_elses_turn_says_whose_it_is() -> None:
    app = make_app("kaboo", bot_pause=5.0, options={"target": None, "first": 1})
    async with app.run_test(size=(100, 35)) as pilot:
        await pilot.pause()
        assert app.thinking == 1
        await pilot.press("d")
        assert "not your turn: seat 1 is to act" in app._prompt().plain
        app.exit()


@sync
async def test_the_scroll_keys_move_the_seats_and_after_tab_the_events() -> None:
    app = make_app("gabo", players=10)
    async with app.run_test(size=(64, 24)) as pilot:
        await settle(app, pilot)
        table = app.query_one("#table")
        log = app.query_one("#log", RichLog)
        assert table.max_scroll_y > 0  # nine other seats do not fit at 64×24
        await pilot.press("pagedown")
        assert table.scroll_y > 0
        await pilot.press("end")
        assert table.scroll_y == table.max_scroll_y
        await pilot.press("home")
        assert table.scroll_y == 0
        for i in range(20):
            log.write(f"line {i}")
        await pilot.pause()
        await pilot.press("tab", "home")
        assert log.scroll_y == 0 and table.scroll_y == 0
        await pilot.press("end")
        assert log.scroll_y == log.max_scroll_y > 0
        assert "PgUp/PgDn events" in str(app.query_one("#keys").render())


@sync
async def test_qute_sorts_by_suit_or_rank_and_remembers_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    app = make_app("qute", seed=3, save=True)
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        hand = list(app.game.view(0)["hand"])

        def shown() -> list[str | None]:
            return [app.query_one(f"#card-0-{i}", CardBox).code for i in range(len(hand))]

        assert app.order == "suit" and shown() == sort_hand(hand, "suit")
        await pilot.press("o")
        assert app.order == "rank" and shown() == sort_hand(hand, "rank")
        assert sort_hand(hand, "rank") != sort_hand(hand, "suit")
        # a card is chosen by the number it shows, whatever the order
        labels = {t[1]: t[2] for t in app.targets() if t[0].startswith("card-0-")}
        assert all(labels[str(i)] == code for i, code in enumerate(shown()) if str(i) in labels)
    assert saves.load_settings()["qute_sort"] == "rank"
    assert make_app("qute", seed=3, save=True).order == "rank"


@sync
async def test_cabo_face_up_cards_lie_face_up_on_the_table() -> None:
    game = new_game("cabo", players=2, seed=1, deck=CABO_DEAL, options={"target": None})
    for seat, action in [(0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1")]:
        game.play(seat, action)
    app = CardtableApp(game, opponents="random", bot_pause=0.0, flash=0.0, save=False)
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await enter(app, pilot, "draw discard")
        await enter(app, pilot, "replace 3")
        await settle(app, pilot)
        box = app.query_one("#card-0-3", CardBox)
        assert box.code == "9" and box.has_class("-faceup") and box.label == "3 up"
        assert app.query_one("#card-0-0", CardBox).code is None  # a peeked card is not
        assert "you took the [9] from the discard pile" in _log(app)


@sync
async def test_a_move_that_may_grow_says_enter_plays_it() -> None:
    """cabo's claim: 'replace 2' is a whole move, and adding card 3 claims they are equal."""
    game = new_game("cabo", players=2, seed=1, deck=CABO_DEAL, options={"target": None})
    for seat, action in [(0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1")]:
        game.play(seat, action)
    app = CardtableApp(game, opponents="random", bot_pause=0.0, flash=0.0, save=False)
    async with app.run_test(size=(100, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("d", "e", "r", "2")
        prompt = app._prompt().plain
        assert "Enter plays it, or add a card of the same value to claim with it: 3" in prompt
        await pilot.press("enter")
        assert [0, "replace 2"] in app.game.log["actions"]  # no claim made
