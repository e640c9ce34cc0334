"""The lobby form keeps a player count within what the game allows, and says so; an unknown
address shows a page that leads back to the lobby."""

from __future__ import annotations

from playwright.sync_api import BrowserContext, expect

from ..webserver import Server, http
from .driver import create_room


def test_a_player_count_beyond_the_game_is_brought_into_range(
    context: BrowserContext, server: Server
) -> None:
    _, games = http("GET", server.url + "/api/variants")
    kaboo = next(g for g in games if g["name"] == "kaboo")
    low, high = kaboo["min_players"], kaboo["max_players"]
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("select[name=game]", "kaboo")
    players = page.locator("input[name=players]")
    players.fill(str(high + 3))
    players.dispatch_event("change")
    expect(players).to_have_value(str(high))
    note = page.locator('[data-ui="players-note"]')
    expect(note).to_be_visible()
    expect(note).to_contain_text(f"{low} to {high}")
    expect(page.locator(".seat-rows select")).to_have_count(high)
    players.fill("3")
    players.dispatch_event("change")
    expect(note).to_be_hidden()
    expect(page.locator(".seat-rows select")).to_have_count(3)


def test_an_unknown_address_leads_back_to_the_lobby(
    context: BrowserContext, server: Server
) -> None:
    page = context.new_page()
    answer = page.goto(server.url + "/no/such/page")
    assert answer is not None and answer.status == 404
    expect(page.locator("h1")).to_have_text("There is no such page")
    page.click("text=To the lobby")
    page.wait_for_url(server.url + "/")
    expect(page.locator("select[name=game]")).to_be_visible()


def test_open_tables_name_ai_players_as_the_table_does(
    context: BrowserContext, server: Server
) -> None:
    page = context.new_page()
    room = create_room(
        page, server.url, "gabo", ["human", "ai:casual", "ai:casual", "ai:expert"], name="Mia"
    )
    lobby = context.new_page()
    lobby.goto(server.url + "/")
    item = lobby.locator(f'.room-item[data-room="{room}"]')
    expect(item).to_contain_text("Mia, Casual AI 1, Casual AI 2, Expert AI")
    # the table's own seat names are the same
    for name in ("Casual AI 1", "Casual AI 2", "Expert AI"):
        expect(page.locator(".seat-name", has_text=name)).to_have_count(1)
