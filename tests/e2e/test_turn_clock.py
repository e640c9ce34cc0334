"""The turn clock in the browser: the countdown of the person's time, the table telling them
their move was played, an AI standing in after missed turns, and "I'm back"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, expect

from ..webserver import Server, running_server
from .conftest import SCREENSHOTS
from .driver import create_room, state


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose turns last 3 seconds."""
    workdir: Path = tmp_path_factory.mktemp("clock-server")
    with running_server(workdir, ai_delay=0.3, extra_args=["--turn-time", "3"]) as srv:
        yield srv


def test_the_clock_runs_out_an_ai_stands_in_and_the_person_comes_back(
    context: BrowserContext, clock_server: Server
) -> None:
    page = context.new_page()
    create_room(page, clock_server.url, "qute", ["human", "ai:casual"], target=100, single=False)
    page.wait_for_function("() => window.cardtable.state() && window.cardtable.state().view")
    countdown = page.locator(".window-countdown")
    # on their turn the person sees their time running out
    expect(countdown).to_contain_text(re.compile(r"Your time: \d"), timeout=10_000)
    # they do nothing: the table says a move was played for them, and their seat shows away
    banner = page.locator('[data-code="away"]')
    expect(banner).to_contain_text("Your time ran out", timeout=10_000)
    assert state(page)["seats"][0]["away"] is True
    expect(page.locator(".badge-away").first).to_be_visible()
    # still nothing: a computer player takes their seat
    expect(banner).to_contain_text("computer player (casual)", timeout=20_000)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "turn-clock-stand-in.png"))
    assert state(page)["seats"][0]["stand_in"] == "casual"
    # "I'm back": the seat is theirs again, with the clock counting for them
    page.click('[data-ui="back"]')
    expect(banner).to_have_count(0, timeout=10_000)
    page.wait_for_function(
        "() => { const s = window.cardtable.state();"
        " return !s.seats[0].away && s.seats[0].stand_in === null; }"
    )
    expect(page.locator(".badge-away")).to_have_count(0)


def test_the_creator_chooses_the_time_per_turn(context: BrowserContext, server: Server) -> None:
    page = context.new_page()

    def twenty_seconds(p: Any) -> None:
        p.select_option("select[name=turn-time]", "20")

    create_room(page, server.url, "qute", ["human", "ai:casual"], before_create=twenty_seconds)
    page.wait_for_function("() => { const s = window.cardtable.state(); return s && s.clock; }")
    clock = state(page)["clock"]
    assert clock["seats"] == [0] and 10 < clock["closes_in"] <= 20  # not the server's 60 s
    expect(page.locator(".window-countdown")).to_contain_text("Your time")
