"""The browser in German: a browser whose language is German (Playwright's ``locale``) reads the
lobby and a table against an AI player in German — the page's own words, the status line and
the words of every move, which the server phrases for the connection in the language its join
names — and a person who switches back to English in the settings keeps English across reloads.
Screenshots of the German lobby and table, at a desktop's and a phone's size, are kept in
``artifacts/screenshots`` to be looked at."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ..webserver import Server
from .driver import create_room, play_action, state, wait_actionable

SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=sorted(SIZES))
def german(request: pytest.FixtureRequest, browser: Browser) -> Iterator[BrowserContext]:
    """A fresh profile whose browser speaks German (``de-DE``), at a desktop's or a phone's
    size (the phone's a touch screen)."""
    size = request.param
    ctx = browser.new_context(
        viewport=SIZES[size],
        locale="de-DE",
        reduced_motion="reduce",
        is_mobile=size == "phone",
        has_touch=size == "phone",
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def _size(page: Page) -> str:
    return "phone" if (page.viewport_size or {}).get("width", 0) < 600 else "desktop"


def test_a_german_browser_reads_the_lobby_and_a_table_in_german(
    server: Server, german: BrowserContext, screenshots: Path
) -> None:
    page = german.new_page()
    size = _size(page)
    page.goto(server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#quick-title")).to_have_text("Jetzt spielen")
    expect(page.locator("[data-ui=create]")).to_have_text("Tisch anlegen")
    expect(page.locator(".panel.create h2")).to_have_text("Neuer Tisch")
    expect(page.locator("label[for=f-turn-time]")).to_have_text("Zeit pro Zug")
    expect(page.locator(".skip-link")).to_have_text("Direkt zum Tisch")
    # the AI levels and the games' summaries come in German from the server (?lang=de)
    expect(page.locator("select[name=seat-1] option[value='ai:casual']")).to_have_text("KI: Hobby")
    page.select_option("select[name=game]", "qute")
    expect(page.locator(".variant-summary")).to_contain_text("36 Karten")
    page.screenshot(path=str(screenshots / f"language-de-lobby-{size}.png"), full_page=True)

    create_room(page, server.url, "cabo", ["human", "ai:casual"], name="Anna")
    # the table: its tools, the status line of the opening peeks, and the seats' names
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("[data-ui=settings]")).to_have_text("Einstellungen")
    expect(page.locator("[data-ui=rules]")).to_have_text("Regeln")
    expect(page.locator(".room-title")).to_contain_text("Raum")
    status = page.locator(".status-line")
    click = "tippe" if size == "phone" else "klicke"  # a touch screen is tapped
    expect(status).to_have_text(f"Schau dir 2 deiner Karten an: {click} zwei an")
    expect(page.locator(".seat .seat-name").first).to_contain_text("Hobby-KI")
    # the words of the moves: phrased by the server in German for this connection
    log = page.locator("[data-ui=log]")
    expect(log).to_contain_text("Runde 1 beginnt")
    for action in ("peek 0", "peek 1"):
        play_action(page, action)
    expect(log).to_contain_text("du hast deine Karte 0 angeschaut", ignore_case=True)
    current = wait_actionable(page)
    assert not current["view"]["over"]
    expect(status).to_have_text(re.compile(r"^Du bist dran: zieh vom Stapel"))
    expect(page.locator(".pile-count").first).to_have_text(re.compile(r"^Stapel · \d+$"))
    page.screenshot(path=str(screenshots / f"language-de-table-{size}.png"), full_page=True)

    # a move's words after a draw, and what the status line asks next
    play_action(page, "draw deck")
    expect(log).to_contain_text(re.compile(r"du hast .* vom Stapel gezogen", re.IGNORECASE))
    assert state(page)["view"]["drawer"] == state(page)["seat"]
    expect(status).to_contain_text("deiner Karten an, um sie zu ersetzen")


def test_english_chosen_in_the_settings_is_kept_across_reloads(
    server: Server, browser: Browser
) -> None:
    ctx = browser.new_context(locale="de-DE", reduced_motion="reduce")
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        expect(page.locator("#quick-title")).to_have_text("Jetzt spielen")
        page.click("[data-ui=settings]")
        language = page.locator("[data-ui=language]")
        expect(language).to_have_value("")  # the browser's language, until one is chosen
        with page.expect_navigation():
            language.select_option("en")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("#quick-title")).to_have_text("Play now")
        page.reload()
        expect(page.locator("#quick-title")).to_have_text("Play now")
        expect(page.locator("[data-ui=create]")).to_have_text("Create table")

        # the table reads English too: its page, and the words the server sends it
        create_room(page, server.url, "kaboo", ["human", "ai:casual"], name="Anna")
        expect(page.locator("[data-ui=settings]")).to_have_text("Settings")
        expect(page.locator("[data-ui=log]")).to_contain_text("Round 1 begins")
        # and back to German from the table's settings
        page.click("[data-ui=settings]")
        with page.expect_navigation():
            page.locator("[data-ui=language]").select_option("de")
        expect(page.locator("[data-ui=settings]")).to_have_text("Einstellungen")
        expect(page.locator("[data-ui=log]")).to_contain_text("Runde 1 beginnt")
    finally:
        ctx.close()


def test_an_unknown_address_is_said_in_the_browser_language(
    server: Server, browser: Browser
) -> None:
    ctx = browser.new_context(locale="de-DE")
    try:
        page = ctx.new_page()
        page.goto(server.url + "/no/such/page")
        expect(page.locator("h1")).to_have_text("Diese Seite gibt es nicht")
        expect(page).to_have_title("cardtable — Seite nicht gefunden")
        expect(page.locator("html")).to_have_attribute("lang", "de")
    finally:
        ctx.close()
