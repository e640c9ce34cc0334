"""Snapshots of the table at 60, 100 and 160 columns (pytest-textual-snapshot).

Update them after a deliberate change of the look: ``pytest tests/tui --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from .helpers import make_app, settle


@pytest.mark.parametrize("width", [60, 100, 160])
@pytest.mark.parametrize("variant", ["gabo", "kaboo", "qute"])
def test_the_table_at_width(snap_compare: Any, variant: str, width: int) -> None:
    app = make_app(variant, seed=3)

    async def ready(pilot: Pilot[Any]) -> None:
        await settle(app, pilot)

    assert snap_compare(app, terminal_size=(width, 35), run_before=ready)


@pytest.mark.parametrize("width", [60, 100, 160])
def test_every_seat_fits_the_screen(width: int) -> None:
    import asyncio

    app = make_app("gabo", seed=3)

    async def look() -> str:
        async with app.run_test(size=(width, 35)) as pilot:
            await settle(app, pilot)
            return app.export_screenshot()

    svg = asyncio.run(look())
    for seat in range(1, app.game.players):
        assert f"Seat&#160;{seat}" in svg
    assert "You&#160;(seat&#160;0)" in svg
