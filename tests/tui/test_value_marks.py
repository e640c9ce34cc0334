"""The full-screen table marks the points of a card whose value is unusual beside its face (a
gabo red king reads 15 over ``[KH]``), and its help screen holds the game's card values."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.content import Content

from cardtable import new_game
from cardtable.tui.app import CardBox, CardtableApp, HelpScreen
from cardtable.tui.widgets import CARD_WIDTH

from .helpers import FakeClock, settle, sync

# Three seats, dealt one card at a time from seat 0: seat 0 gets the cards at 0, 3, 6 and 9.
GABO_DECK = ["KH", "2C", "3C", "KS", "4C", "5C", "7D", "6C", "8C", "RJ", "9H", "10H"]


def _app(variant: str, deck: list[str], players: int) -> CardtableApp:
    game = new_game(variant, players, seed=5, options={"target": None}, deck=deck)
    return CardtableApp(
        game,
        opponents="random",
        bot_pause=0.0,
        peek_window=0.0,
        snap_window=0.0,
        flash=0.0,
        save=False,
        clock=FakeClock(),
    )


def _lines(box: CardBox) -> list[str]:
    """The box's two lines as drawn, without their trailing spaces."""
    shown = box.render()
    plain = shown.plain if isinstance(shown, (Text, Content)) else str(shown)
    return [line.rstrip() for line in plain.split("\n")]


@sync
async def test_a_gabo_red_king_shows_15_and_a_seven_nothing() -> None:
    app = _app("gabo", GABO_DECK, 3)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        for pos in ("0", "1"):  # gabo's first look stays in sight until the first draw
            await pilot.press(pos)
            await settle(app, pilot)
        await pilot.pause()
        king = app.query_one("#card-0-0", CardBox)
        assert (king.code, king.value) == ("KH", 15)
        label, face = _lines(king)
        assert face.strip() == "[KH]" and label.endswith("15") and label.startswith("0")
        assert len(label) <= CARD_WIDTH  # it fits the hand's grid
        black = app.query_one("#card-0-1", CardBox)
        assert (black.code, black.value) == ("KS", 0) and _lines(black)[0].endswith("0")
        hidden = app.query_one("#card-0-2", CardBox)  # a face-down card says nothing
        assert hidden.code is None and hidden.value is None and _lines(hidden)[0] == "2"


@sync
async def test_a_seven_has_no_mark_a_joker_and_the_pile_have_theirs() -> None:
    deck = [*GABO_DECK, "KD"]  # the thirteenth card starts the discard pile
    app = _app("gabo", deck, 3)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        for pos in ("2", "3"):
            await pilot.press(pos)
            await settle(app, pilot)
        await pilot.pause()
        seven = app.query_one("#card-0-2", CardBox)
        assert (seven.code, seven.value) == ("7D", None)
        assert [line.strip() for line in _lines(seven)] == ["2", "[7D]"]
        joker = app.query_one("#card-0-3", CardBox)
        assert (joker.code, joker.value) == ("RJ", -2)
        assert _lines(joker)[0] == "3  −2"
        pile = app.query_one("#pile-discard", CardBox)
        assert (pile.code, pile.value) == ("KD", 15)
        assert _lines(pile)[1].strip() == "[KD] 15"  # a pile writes it after the face


@sync
async def test_the_help_screen_holds_the_card_values() -> None:
    app = _app("gabo", GABO_DECK, 3)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        page: Any = app.screen.markdown
        assert "# Card values" in page
        assert "| [KD] [KH] red kings | **15** |" in page
        assert "| [RJ] [BJ] jokers | **−2** |" in page
