"""Open hands for practice on the full-screen table: ``f`` shows the AI players' cards face
up (the person's own stay as they were), and the game is marked practice from then on."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtable.tui import saves
from cardtable.tui.app import CardtableApp

from .helpers import make_app, settle, sync


def _faces(app: CardtableApp, seat: int) -> list[object]:
    return [cell.get("card") if cell else None for cell in app.table["hands"][seat]]


@sync
async def test_f_opens_the_ai_hands_and_marks_the_game_practice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(saves.DATA_DIR_ENV, str(tmp_path))
    app = make_app("kaboo", players=3, save=True)
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(app, pilot)
        mine = _faces(app, app.me)
        assert all(code is None for code in _faces(app, 1))
        assert "practice" not in app._status().plain
        await pilot.press("f")
        await pilot.pause()
        for seat in (1, 2):
            assert _faces(app, seat) == [app.game.card_at(seat, p) for p in range(4)]
        assert _faces(app, app.me) == mine  # the person's own cards are not opened
        assert "practice: open hands" in app._status().plain
        assert app.message is not None and "never rated" in app.message.plain
        record = saves.load_save()
        assert record is not None and record["practice"] is True
        await pilot.press("f")  # faces down again, still a practice game
        await pilot.pause()
        assert all(code is None for code in _faces(app, 1))
        assert "practice" in app._status().plain and app.record()["practice"] is True
    again = CardtableApp.from_save(record, flash=0.0, save=False)
    assert again.practice and again.open_hands


def test_a_hint_asked_before_a_save_still_unrates_the_resumed_game() -> None:
    app = make_app("kaboo", save=False)
    assert app.record()["hinted"] is False
    app.hints_asked += 1  # what the hint key counts
    record = app.record()
    assert record["hinted"] is True
    again = CardtableApp.from_save(record, flash=0.0, save=False)
    assert again.record()["hinted"] is True  # kept across the resume: not rated at its end
    fresh = CardtableApp.from_save({**record, "hinted": False}, flash=0.0, save=False)
    assert fresh.record()["hinted"] is False
