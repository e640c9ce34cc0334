"""Regenerate the screenshot gallery of the browser table (run through ``scripts/screenshots``).

A real ``cardtable serve`` runs on 127.0.0.1 with a throwaway SQLite store; Debian's Chromium,
driven by Playwright, plays one person against AI opponents in every game until an
interesting moment (cards peeked, a drawn card in hand, moves in the log; in qute a few cards
played) and photographs it on a desktop and a phone screen, light and dark. The lobby and the
end of one game are photographed too, and a Markdown page lists every picture. The full-screen
terminal table (``cardtable play``) is drawn too, as an SVG (``terminal.svg``, shown in the
README), by Textual's own screenshot of a game played by keys.

The accounts section shows a player's profile (its numbers per game, the rating chart, recent
games) after a few games played signed in, and the leaderboard of that game, on a desktop (light
and dark) and a phone (light). ``--only accounts`` makes that section alone and puts it into the
existing page, before the learning section.

The learning section shows what a newcomer meets, in English and in German (a browser whose
language is German), on a desktop and a phone, light: the kaboo lesson mid-way (a card just
seen, face up), the hint panel open at a kaboo table against the computer, and the review of a
finished short game with a labelled decision opened. ``--only learning`` makes that section
alone and puts it into the existing page, the other pictures left as they are.

Usage: ``scripts/screenshots [--out docs/screenshots] [--games cabo,qute] [--end-game kaboo]
[--no-lobby] [--no-terminal] [--no-accounts] [--no-learning] [--only learning|accounts]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parents[1]
"""The repository."""

sys.path.insert(0, str(ROOT))  # the root: the server runner the tests use
from tests.e2e.driver import CALLS, CHROMIUM, play_action, wait_actionable  # noqa: E402
from tests.e2e.driver import CHROMIUM_ARGS as BROWSER_ARGS  # noqa: E402
from tests.webserver import running_server as test_server  # noqa: E402

CHROMIUM_ARGS = [*BROWSER_ARGS, "--hide-scrollbars", "--font-render-hinting=none"]
"""The tests' Chromium flags, and steadier pictures: no scroll bars, no font hinting."""


@dataclass(frozen=True)
class Screen:
    """A screen size the gallery shows."""

    name: str
    width: int
    height: int


DESKTOP = Screen("desktop", 1366, 900)
PHONE = Screen("phone", 390, 844)
SCREENS = (DESKTOP, PHONE)
SCHEMES = ("light", "dark")

PLAYER_NAME = "Ann"
"""The person whose seat the pictures show."""

AI_LEVEL = "casual"
"""The AI opponents' level (the quickest to think)."""

TURN_TIME = 600.0
"""Seconds per turn: the longest the server allows, so no clock runs out mid-picture."""

REVEAL_SECONDS = 30
"""How long a card seen for a moment stays face up (the client's longest), so the cards peeked
at the start are still face up when the table is photographed."""

OWN_MOVES = {"qute": 1}
"""Moves the person makes before the table is photographed, by game (peeks included)."""

DEFAULT_OWN_MOVES = 5


# -- the server ---------------------------------------------------------------------------------


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as resp:
        return json.loads(resp.read())


def _post_json(url: str, body: Any) -> Any:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


@contextlib.contextmanager
def running_server(workdir: Path) -> Iterator[str]:
    """Start ``cardtable serve`` on a free port of 127.0.0.1 with a SQLite store in
    ``workdir`` (the runner the tests use, with their generous limits: one address makes every
    request here); yield its base URL and stop it on exit."""
    with test_server(workdir, peek_window=120, snap_window=1, ai_workers=0) as server:
        yield server.url


def create_room(base: str, variant: dict[str, Any]) -> dict[str, Any]:
    """Create a single-round room of ``variant`` through the API: the person in seat 0, AI
    opponents in the others (the game's usual number of players, at least three where the
    game allows, so the table is not empty). Returns the server's answer (room, seat, token)."""
    players = max(variant["default_players"], min(3, variant["max_players"]))
    seats = [{"type": "human"}] + [{"type": "ai", "level": AI_LEVEL}] * (players - 1)
    body: dict[str, Any] = {
        "game": variant["name"],
        "players": players,
        "seats": seats,
        "name": PLAYER_NAME,
        "public": True,
        "turn_time": TURN_TIME,
    }
    if any(o["name"] == "target" for o in variant["options"]):
        body["options"] = {"target": None}  # one round: the end comes sooner
    answer: dict[str, Any] = _post_json(base + "/api/rooms", body)
    return answer


def _browser_storage(room: dict[str, Any] | None) -> str:
    """A script run before the page's own: the seat this browser holds (as the lobby stores it
    after creating a room), the player's name and the longest reveal time."""
    items = {
        "cardtable:name": PLAYER_NAME,
        "cardtable:prefs": json.dumps({"sound": False, "revealSeconds": REVEAL_SECONDS}),
    }
    if room is not None:
        items[f"cardtable:seat:{room['room']}"] = json.dumps(
            {"seat": room["seat"], "token": room["token"]}
        )
    return f"for (const [k, v] of Object.entries({json.dumps(items)})) localStorage.setItem(k, v);"


def _targets(action: str) -> int:
    return len(action.split()) - 1


def choose(view: dict[str, Any], moves: int, *, call: bool) -> str:
    """A plain, bounded choice among the legal actions. Cabo family: peek, draw (from the deck,
    now and then the pile), alternately keep the card and use its power, pass snap windows,
    call only when ``call``. Qute: the longest play, then suits, draws and Qute itself."""
    legal: list[str] = view["legal"]
    if view["game"] == "qute":
        if call and "qute" in legal:
            return "qute"
        plays = [a for a in legal if a.startswith("play ")]
        if plays:
            return max(plays, key=_targets)
        for prefix in ("eights ", "jpoints ", "suit ", "draw", "continue"):
            for a in legal:
                if a.startswith(prefix):
                    return a
        quiet = [a for a in legal if a != "qute"]
        return (quiet or legal)[0]
    if view["phase"] == "snap":
        return "pass" if "pass" in legal else legal[0]
    calls = [a for a in legal if a in CALLS]
    if call and calls:
        return calls[0]
    if "draw deck" in legal:
        return "draw discard" if "draw discard" in legal and moves % 4 == 3 else "draw deck"
    if "draw discard" in legal:
        return "draw discard"
    if "exchange" in legal:
        return "exchange"
    replaces = [a for a in legal if a.startswith("replace ") and _targets(a) == 1]
    if replaces and (moves % 2 == 0 or "discard" not in legal):
        return replaces[moves % len(replaces)]
    if "discard" in legal:
        return "discard"
    targets = [a for a in legal if a not in CALLS and a != "pass" and not a.startswith("drop ")]
    if targets:
        return max(targets, key=_targets)
    return "pass" if "pass" in legal else legal[0]


def _moment(view: dict[str, Any], moves: int, least: int | None = None) -> bool:
    """Whether the table shows what the pictures are for: after a few moves of ours (``least``,
    else the game's usual number), a drawn card in hand (Cabo family) or our turn to play again
    (qute)."""
    if moves < (OWN_MOVES.get(view["game"], DEFAULT_OWN_MOVES) if least is None else least):
        return False
    legal: list[str] = view["legal"]
    if view["game"] == "qute":
        return any(a.startswith("play ") for a in legal)
    return any(a.startswith("replace ") for a in legal)


def play_to_moment(page: Page, *, limit: int = 60, own_moves: int | None = None) -> bool:
    """Play until :func:`_moment` (after ``own_moves`` moves of ours, if given, instead of the
    game's usual number); False if the game ended first."""
    for moves in range(limit):
        view = wait_actionable(page, timeout=30_000)["view"]
        if view["over"]:
            return False
        if _moment(view, moves, own_moves):
            return True
        play_action(page, choose(view, moves, call=False))
    return False


def play_to_end(page: Page, *, limit: int = 400) -> None:
    """Play until the game is over, calling the end as soon as a few turns have passed."""
    for moves in range(limit):
        view = wait_actionable(page, timeout=30_000)["view"]
        if view["over"]:
            return
        play_action(page, choose(view, moves, call=moves >= 4))
    raise RuntimeError(f"the game did not end within {limit} moves")


# -- pictures -----------------------------------------------------------------------------------


def shoot(
    page: Page,
    out: Path,
    stem: str,
    screens: Sequence[Screen] = SCREENS,
    *,
    phone_at_end: bool = False,
) -> list[str]:
    """Photograph ``page`` as it is on each screen, light and dark (the same moment: the
    viewport and colour scheme change under the page); returns the file names written. With
    ``phone_at_end`` a phone shows the end of the page (at a table: the person's own hand and
    buttons), else its top."""
    names = []
    for screen in screens:
        page.set_viewport_size({"width": screen.width, "height": screen.height})
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
            _settle(page, to_end=phone_at_end and screen is PHONE)
            name = f"{stem}-{screen.name}-{scheme}.png"
            page.screenshot(path=str(out / name), animations="disabled", caret="hide")
            names.append(name)
    return names


def _settle(page: Page, *, to_end: bool = False) -> None:
    """Move the mouse and the focus out of the way, let the page lay itself out again (two
    animation frames), then scroll to its top (or its end)."""
    size = page.viewport_size or {"width": DESKTOP.width, "height": DESKTOP.height}
    page.mouse.move(size["width"] - 2, size["height"] - 2)  # no hover effect from the last click
    page.evaluate(
        """to_end => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => {
            if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
            window.scrollTo(0, to_end ? document.documentElement.scrollHeight : 0);
            requestAnimationFrame(r);
        })))""",
        to_end,
    )
    page.wait_for_timeout(150)


def new_context(
    browser: Browser, room: dict[str, Any] | None, *, phone: bool = False, locale: str = "en-GB"
) -> BrowserContext:
    """A fresh browser profile holding ``room``'s seat, with reduced motion, whose language is
    ``locale``; with ``phone`` a touch screen of the phone's size (the page then says "tap" and
    sizes its controls for a finger, as on a real phone)."""
    screen = PHONE if phone else DESKTOP
    ctx = browser.new_context(
        viewport={"width": screen.width, "height": screen.height},
        is_mobile=phone,
        has_touch=phone,
        device_scale_factor=1,
        reduced_motion="reduce",
        color_scheme="light",
        locale=locale,
        timezone_id="UTC",
    )
    ctx.set_default_timeout(30_000)
    ctx.add_init_script(_browser_storage(room))
    return ctx


def _follow(phone: Page, page: Page) -> None:
    """Wait until ``phone`` has drawn the state ``page`` shows."""
    version = page.evaluate("() => Number(document.body.dataset.version)")
    phone.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)


def shoot_game(
    browser: Browser, base: str, variant: dict[str, Any], out: Path, *, end: bool
) -> list[str]:
    """Play ``variant`` to its interesting moment and photograph it; with ``end``, play on to
    the end and photograph that too. Returns the file names written. A phone (a touch screen)
    follows the same seat from the start, so it shows the same moment, cards seen included."""
    for _attempt in range(3):  # a deal may end before the moment (an early call): deal again
        room = create_room(base, variant)
        ctx = new_context(browser, room)
        phone_ctx = new_context(browser, room, phone=True)
        try:
            page = ctx.new_page()
            page.goto(f"{base}/r/{room['room']}")
            phone = phone_ctx.new_page()
            phone.goto(f"{base}/r/{room['room']}")
            if not play_to_moment(page):
                continue
            stem = variant["name"]
            names = shoot(page, out, stem, (DESKTOP,))
            _follow(phone, page)
            names += shoot(phone, out, stem, (PHONE,), phone_at_end=True)
            if end:
                play_to_end(page)
                names += shoot(page, out, f"{stem}-end", (DESKTOP,))
                _follow(phone, page)
                names += shoot(phone, out, f"{stem}-end", (PHONE,))
            return names
        finally:
            ctx.close()
            phone_ctx.close()
    raise RuntimeError(f"{variant['name']}: every deal ended before the moment to photograph")


def shoot_lobby(browser: Browser, base: str, out: Path) -> list[str]:
    """Photograph the lobby (with the rooms made so far in its list): desktop light and dark,
    phone light."""
    ctx = new_context(browser, None)
    try:
        page = ctx.new_page()
        page.goto(base + "/")
        page.wait_for_selector("select[name=game] option", state="attached")
        page.wait_for_load_state("networkidle")
        names = shoot(page, out, "lobby", (DESKTOP,))
    finally:
        ctx.close()
    ctx = new_context(browser, None, phone=True)  # a touch screen
    try:
        page = ctx.new_page()
        page.goto(base + "/")
        page.wait_for_selector("select[name=game] option", state="attached")
        page.wait_for_load_state("networkidle")
        _settle(page)
        page.screenshot(path=str(out / "lobby-phone-light.png"), animations="disabled")
        return [*names, "lobby-phone-light.png"]
    finally:
        ctx.close()


# -- accounts: a profile and a leaderboard ------------------------------------------------------

ACCOUNTS = "accounts"
"""The accounts section's name for ``--only``."""

ACCOUNTS_TITLE = "Accounts: a player's profile and a leaderboard"
"""The accounts section's heading on the gallery page."""

PASSWORD = "gallery password"
"""The password of the photographed player's account."""

ACCOUNT_GAMES = 3
"""Games the photographed player plays signed in (the rating chart's points), at least; more if
the leaderboard lists nobody with fewer (at most :data:`MOST_ACCOUNT_GAMES`)."""

MOST_ACCOUNT_GAMES = 5

ACCOUNT_GAME = "kaboo"
"""The game the player plays for the section (another photographed game if kaboo is not)."""


def _sign_up(ctx: BrowserContext, base: str) -> None:
    """Make the player's account (or sign in to it), in ``ctx``'s cookies."""
    body = {"name": PLAYER_NAME, "password": PASSWORD}
    answer = ctx.request.post(base + "/api/account/signup", data=body)
    if answer.status == 409:  # made by an earlier picture of this run
        answer = ctx.request.post(base + "/api/account/signin", data=body)
    if not answer.ok:
        raise RuntimeError(f"no account: {answer.status} {answer.text()}")


def _play_signed_in(page: Page, base: str, variant: dict[str, Any]) -> None:
    """One short rated game of ``variant`` against the computer, at a table the signed-in
    player creates (its seat claimed for the account too, as after signing in), played to its
    end."""
    body = {
        "game": variant["name"],
        "players": 2,
        "seats": [{"type": "human"}, {"type": "ai", "level": AI_LEVEL}],
        "name": PLAYER_NAME,
        "public": False,
        "turn_time": TURN_TIME,
        "rated": True,
    }
    if any(o["name"] == "target" for o in variant["options"]):
        body["options"] = {"target": None}
    answer = page.request.post(base + "/api/rooms", data=body)
    if not answer.ok:
        raise RuntimeError(f"no room: {answer.status} {answer.text()}")
    room: dict[str, Any] = answer.json()
    seat = {"room": room["room"], "seat": room["seat"], "token": room["token"]}
    page.request.post(base + "/api/account/claim", data={"seats": [seat]})
    page.goto(base + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [
            f"cardtable:seat:{room['room']}",
            json.dumps({"seat": seat["seat"], "token": seat["token"]}),
        ],
    )
    page.goto(f"{base}/r/{room['room']}")
    play_to_end(page)


def _account_pages(game: str) -> list[tuple[str, str]]:
    """The pages the section photographs: (picture stem, address)."""
    return [("profile", f"/p/{PLAYER_NAME}"), ("leaderboard", f"/leaderboard/{game}")]


def _open_account_page(page: Page, url: str) -> None:
    """Open a profile or a leaderboard, and wait until it is drawn (the pages mark it)."""
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.wait_for_load_state("networkidle")


def shoot_accounts(
    browser: Browser, base: str, variants: Sequence[dict[str, Any]], out: Path
) -> list[str]:
    """The player signs up, plays a few short games, and their profile and the game's
    leaderboard are photographed: desktop light and dark, phone light."""
    variant = next((v for v in variants if v["name"] == ACCOUNT_GAME), variants[0])
    game = variant["name"]
    ctx = new_context(browser, None)
    names: list[str] = []
    try:
        _sign_up(ctx, base)
        page = ctx.new_page()
        least = int(_get_json(f"{base}/api/leaderboard/{game}").get("min_games", 0) or 0)
        for _ in range(min(MOST_ACCOUNT_GAMES, max(ACCOUNT_GAMES, least))):
            _play_signed_in(page, base, variant)
        for stem, path in _account_pages(game):
            _open_account_page(page, base + path)
            names += shoot(page, out, stem, (DESKTOP,))
    finally:
        ctx.close()
    phone = new_context(browser, None, phone=True)
    try:
        _sign_up(phone, base)
        page = phone.new_page()
        for stem, path in _account_pages(game):
            _open_account_page(page, base + path)
            names.append(_snap(page, out, f"{stem}-phone-light.png"))
    finally:
        phone.close()
    return names


# -- learning to play ---------------------------------------------------------------------------

LEARNING = "learning"
"""The learning section's name for ``--only``."""

LEARNING_TITLE = "Learning to play"
"""Its heading on the gallery page."""

LEARN_GAME = "kaboo"
"""The game of the learning pictures: its lesson, a hint at its table, a review of one game
(a quick game: its first look at two cards is made for the player)."""

LANGUAGES = {"en": ("en-GB", "English"), "de": ("de-DE", "German")}
"""The languages of the learning pictures: the browser locale that asks for each, its name."""

REVIEW_ENV = {"CARDTABLE_REVIEW_SAMPLES": "100", "CARDTABLE_REVIEW_NICE": "0"}
"""The server reviews the photographed game on 100 deals a decision, at normal priority (a
review in seconds, not a minute, on a busy machine); values set in the environment win."""

REVIEW_WAIT = 300_000
"""How long the review may take to be ready (ms)."""

HINT_WAIT = 60_000
"""How long a hint may take to arrive (ms): the search's second, a worker starting."""

LABEL_PREFERENCE = ("mistake", "inaccuracy", "blunder", "unclear")
"""The decision opened in the review pictures: the first labelled one of these labels, in this
order (a move the search would have played otherwise, and by how much), else the first one."""

ALT_TEXTS = {
    "learn": (
        "The {game} lesson in {language} on a {screen}, mid-way: the card the learner just "
        "peeked at lies face up, and the lesson says what it is and to remember it"
    ),
    "hint": (
        "The hint panel in {language} at a {game} table against the computer on a {screen}, "
        "a drawn card in hand: the legal moves in words, best first, each with its chance to "
        "win and the points it is expected to leave"
    ),
    "review-desktop": (
        "The review of a finished {game} game in {language} on a {screen}: the decision shown "
        "above the table as it was then, every hand open and the cards the player knew marked; "
        "beside it the decisions labelled, that one opened with the search's best moves"
    ),
    "review-phone": (
        "The review of a finished {game} game in {language} on a {screen}: the list of "
        "decisions under the table, each labelled, one opened with the better move and the "
        "search's best moves"
    ),
}
"""The alternative text of each kind of learning picture (``kind-screen`` where the screens
show different things)."""


def learning_name(kind: str, screen: Screen, lang: str) -> str:
    """The file name of a learning picture (``learn-kaboo-desktop-en.png``,
    ``hint-phone-de.png``)."""
    stem = f"learn-{LEARN_GAME}" if kind == "learn" else kind
    return f"{stem}-{screen.name}-{lang}.png"


def learning_alts() -> dict[str, str]:
    """The alternative text of every learning picture, by file name."""
    return {
        learning_name(kind, screen, lang): ALT_TEXTS.get(
            f"{kind}-{screen.name}", ALT_TEXTS.get(kind, "")
        ).format(game=LEARN_GAME.capitalize(), language=language, screen=screen.name)
        for kind in LEARNING_KINDS
        for screen in SCREENS
        for lang, (_locale, language) in LANGUAGES.items()
    }


def _snap(page: Page, out: Path, name: str, *, to_end: bool = False, scroll: str = "") -> str:
    """Photograph ``page`` as it is now, light, after :func:`_settle` (to its end with
    ``to_end``; then ``scroll``, a script, if given)."""
    page.emulate_media(color_scheme="light")
    _settle(page, to_end=to_end)
    if scroll:
        page.evaluate(scroll)
        page.wait_for_timeout(150)
    page.screenshot(path=str(out / name), animations="disabled", caret="hide")
    return name


def _lesson_answers(page: Page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.answers ?? 0)"))


def lesson_to_card_seen(page: Page, base: str, game: str) -> int:
    """Open ``game``'s lesson and go through it as a learner would (reading on, or clicking what
    the page offers for the move the step asks for) until a card that a move showed lies face
    up; returns that step's number."""
    from cardtable.learn.lessons import load

    run = load(game).start()  # the lesson's own steps: what each one asks for
    page.goto(f"{base}/learn/{game}")
    page.wait_for_function("() => Number(document.body.dataset.answers ?? 0) > 0")
    for _ in run.lesson.steps:
        number = int(page.evaluate("() => window.lesson.state().step.number"))
        if number != run.index + 1:
            raise RuntimeError(f"the {game} lesson is at step {number}, not {run.index + 1}")
        if number > 1 and page.locator("[data-ui=seen]").is_visible():
            return number
        if run.done:
            break
        before = _lesson_answers(page)
        if run.step.reading:
            page.click("[data-ui=next]")
            run.go_on()
        else:
            action = run.expected()[0]
            clicks: list[str] = page.evaluate("a => window.lesson.clicksFor(a)", action)
            if not clicks:
                raise RuntimeError(f"the {game} lesson's page offers no clicks for {action!r}")
            for selector in clicks:
                page.click(selector)
            run.try_move(action)
        page.wait_for_function(
            "n => Number(document.body.dataset.answers ?? 0) > n && !window.lesson.busy()",
            arg=before,
        )
    raise RuntimeError(f"the {game} lesson shows no card seen before its end")


def shoot_lessons(browser: Browser, base: str, out: Path) -> list[str]:
    """The lesson mid-way, a card just seen face up, in each language on each screen (on a
    phone, the lesson's words under the table in sight)."""
    names = []
    for lang, (locale, _language) in LANGUAGES.items():
        for screen in SCREENS:
            ctx = new_context(browser, None, phone=screen is PHONE, locale=locale)
            try:
                page = ctx.new_page()
                lesson_to_card_seen(page, base, LEARN_GAME)
                name = learning_name("learn", screen, lang)
                names.append(_snap(page, out, name))
            finally:
                ctx.close()
    return names


def _open_hint(page: Page) -> None:
    """Open the hint panel (its button) and wait for its rows."""
    page.locator("[data-ui=hint]").click()
    page.wait_for_selector("[data-ui=hint-row]", timeout=HINT_WAIT)


def shoot_hints(browser: Browser, base: str, variant: dict[str, Any], out: Path) -> list[str]:
    """The hint panel open at a table of ``variant`` against the computer, a drawn card in hand
    (after one move of ours), in each language on each screen: the same seat at the same
    moment in every picture (the player's own page, in English on a desktop, plays; each
    picture is taken by another page of the same seat)."""
    for _attempt in range(3):  # a deal may end before the moment (an early call): deal again
        room = create_room(base, variant)
        ctx = new_context(browser, room)
        try:
            player = ctx.new_page()
            player.goto(f"{base}/r/{room['room']}")
            if not play_to_moment(player, own_moves=1):
                continue
            names = []
            for lang, (locale, _language) in LANGUAGES.items():
                for screen in SCREENS:
                    other = new_context(browser, room, phone=screen is PHONE, locale=locale)
                    try:
                        page = other.new_page()
                        page.goto(f"{base}/r/{room['room']}")
                        _follow(page, player)
                        _open_hint(page)
                        name = learning_name("hint", screen, lang)
                        names.append(_snap(page, out, name, to_end=screen is PHONE))
                    finally:
                        other.close()
            return names
        finally:
            ctx.close()
    raise RuntimeError(f"{variant['name']}: every deal ended before the hint to photograph")


REVIEW_DESKTOP_SCROLL = """() => {
    const banner = document.querySelector("[data-ui=decision-banner]");
    window.scrollTo(0, banner.getBoundingClientRect().top + scrollY - 8);
}"""
"""The review on a desktop: scrolled down to the decision's banner, so the table under it is
in sight to its end (the player's hand; the page's title and summary above are scrolled
away)."""

REVIEW_PHONE_SCROLL = """() => {
    const top = e => e.getBoundingClientRect().top + scrollY;
    const head = document.querySelector(".review-list-head");
    const item = document.querySelector("[data-ui=decisions] li.current");
    const end = item.getBoundingClientRect().bottom + scrollY + 8;
    window.scrollTo(0, end - top(head) + 8 <= innerHeight ? top(head) - 8 : end - innerHeight);
}"""
"""The review on a phone: the list of decisions under the table from its heading, down to the
decision opened (or, in a longer list, that decision at the bottom of the screen)."""


def _review_ready(page: Page) -> None:
    page.wait_for_function("() => document.body.dataset.review === 'ready'", timeout=REVIEW_WAIT)


def _decision_to_open(page: Page) -> str:
    """The ``data-index`` of the decision the pictures open (see :data:`LABEL_PREFERENCE`)."""
    items = page.locator("[data-ui=decisions] li.review-item")
    for label in LABEL_PREFERENCE:
        found = page.locator(f"[data-ui=decisions] li.review-item[data-label='{label}']")
        if found.count():
            return found.first.get_attribute("data-index") or "0"
    if not items.count():
        raise RuntimeError("the review lists no decision")
    return items.first.get_attribute("data-index") or "0"


def shoot_reviews(browser: Browser, base: str, variant: dict[str, Any], out: Path) -> list[str]:
    """A short game of ``variant`` against the computer played to its end (the end called as
    soon as a few turns have passed), then its review, in each language on each screen, the
    same labelled decision opened in each (on a phone, scrolled into sight under the table)."""
    room = create_room(base, variant)
    ctx = new_context(browser, room)
    try:
        page = ctx.new_page()
        page.goto(f"{base}/r/{room['room']}")
        play_to_end(page)
    finally:
        ctx.close()
    names = []
    index = ""
    for lang, (locale, _language) in LANGUAGES.items():
        for screen in SCREENS:
            ctx = new_context(browser, room, phone=screen is PHONE, locale=locale)
            try:
                page = ctx.new_page()
                page.goto(f"{base}/r/{room['room']}/review/1?seat={room['seat']}")
                _review_ready(page)
                index = index or _decision_to_open(page)
                item = page.locator(f"[data-ui=decisions] li.review-item[data-index='{index}']")
                moves = item.locator("[data-ui=moves]")
                for _ in range(3):  # a click while the list is drawn again may be lost
                    item.locator("button").first.click()
                    try:
                        moves.wait_for(timeout=15_000)
                        break
                    except PlaywrightTimeout:
                        continue
                moves.wait_for()
                name = learning_name("review", screen, lang)
                scroll = REVIEW_PHONE_SCROLL if screen is PHONE else REVIEW_DESKTOP_SCROLL
                names.append(_snap(page, out, name, scroll=scroll))
            finally:
                ctx.close()
    return names


def shoot_learning(
    browser: Browser, base: str, variants: Sequence[dict[str, Any]], out: Path
) -> list[str]:
    """The learning section's pictures: the lesson, the hint panel and the review."""
    variant = next(v for v in variants if v["name"] == LEARN_GAME)
    names = shoot_lessons(browser, base, out)
    names += shoot_hints(browser, base, variant, out)
    names += shoot_reviews(browser, base, variant, out)
    return names


# -- the terminal --------------------------------------------------------------------------------

TERMINAL = "terminal.svg"
"""The full-screen terminal table's picture."""

TERMINAL_TITLE = "The full-screen terminal table"
"""Its section's heading (then the command)."""


def shoot_terminal(out: Path, *, size: tuple[int, int] = (120, 34)) -> str:
    """Draw the full-screen terminal table (gabo, three players against casual AI, after the
    opening peeks, which gabo keeps in sight until the first draw) into ``out/terminal.svg``;
    returns its name."""
    import asyncio

    from cardtable import new_game
    from cardtable.tui.app import CardtableApp

    async def draw() -> str:
        game = new_game("gabo", players=3, seed=4, options={"target": None})
        app = CardtableApp(
            game,
            opponents="casual",
            bot_pause=0.0,
            peek_window=0.0,
            snap_window=0.0,
            flash=0.0,
            save=False,
        )
        async with app.run_test(size=size) as pilot:
            for key in ("0", "1"):  # the two opening peeks
                for _ in range(200):  # until the AI players give the turn back
                    await app.workers.wait_for_complete()
                    await pilot.pause()
                    if app.mine:
                        break
                await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
            return app.export_screenshot(title="cardtable play gabo")

    (out / TERMINAL).write_text(asyncio.run(draw()), encoding="utf-8")
    return TERMINAL


# -- the gallery page ---------------------------------------------------------------------------


def _thumb(name: str, width: int, alt: str = "") -> str:
    alt = alt or name.removesuffix(".png").removesuffix(".svg").replace("-", " ")
    return f'[<img src="{name}" width="{width}" alt="{alt}">]({name})'


def _rows(names: Sequence[str], alts: dict[str, str] | None = None) -> list[str]:
    """Thumbnails linking to the full pictures: a row of desktop ones, then a row of narrower
    phone ones."""
    lines: list[str] = []
    for screen, width in ((DESKTOP, 400), (PHONE, 180)):
        row = [_thumb(n, width, (alts or {}).get(n, "")) for n in names if f"-{screen.name}-" in n]
        if row:
            lines += [" ".join(row), ""]
    return lines


LEARNING_KINDS = {
    "learn": f"A lesson, mid-way — `/learn/{LEARN_GAME}`",
    "hint": "A hint at the table — the Hint button, or the H key",
    "review": "The review of a finished game — `/r/{room}/review/{n}`",
}
"""The learning section's parts, by the kind of picture: their headings."""


def section(title: str, names: Sequence[str]) -> str:
    """One section of the page: its heading and its pictures (the learning section in parts,
    each picture with its alternative text)."""
    lines = [f"## {title}", ""]
    if list(names) == [TERMINAL]:
        lines += [_thumb(TERMINAL, 600), ""]
    elif title == LEARNING_TITLE:
        alts = learning_alts()
        lines += [
            "What a newcomer meets, in English and in German (a browser whose language is",
            "German), light only: the lessons, the hint panel at a table against the computer,",
            "and the review of a finished game. `--only learning` regenerates this section.",
            "",
        ]
        for kind, heading in LEARNING_KINDS.items():
            own = {learning_name(kind, screen, lang) for screen in SCREENS for lang in LANGUAGES}
            part = [n for n in names if n in own]
            if part:
                lines += [f"### {heading}", "", *_rows(part, alts)]
    else:
        lines += _rows(names)
    return "\n".join(lines)


HEADER = """# Screenshots

The browser table on a desktop (1366×900) and a phone (390×844) screen, light and dark,
for every game, a player's profile and a leaderboard, what a newcomer meets while learning
to play (in English and German), and the full-screen terminal table. Click a picture for its
full size.
[`scripts/screenshots`](../../scripts/screenshots) regenerates these pictures and this
page (`--games` picks some games, `--only learning` or `--only accounts` makes that section
alone, `--out` another folder).
"""
"""The page's beginning, above its sections."""


def gallery(sections: Sequence[tuple[str, Sequence[str]]]) -> str:
    """The Markdown page: for each section (title, file names), thumbnails that link to the
    full pictures, desktop ones wider than phone ones."""
    return _page([section(title, names) for title, names in sections])


def _page(sections: Sequence[str]) -> str:
    return "\n\n".join([HEADER.rstrip(), *(text.rstrip() for text in sections)]) + "\n"


def _sections(page: str) -> list[tuple[str, str]]:
    """The sections of a gallery page: (title, the Markdown from its heading on)."""
    starts = [m.start() for m in re.finditer(r"^## ", page, flags=re.MULTILINE)]
    parts = [page[a:b] for a, b in zip(starts, [*starts[1:], len(page)], strict=True)]
    return [(part.split("\n", 1)[0].removeprefix("## ").strip(), part.rstrip()) for part in parts]


def update_gallery(
    page: str, title: str, names: Sequence[str], before: Sequence[str] = (TERMINAL_TITLE,)
) -> str:
    """The gallery page ``page`` with the section ``title`` drawn again from ``names``, in its
    place (a new section goes before the first of the sections ``before`` names — the terminal
    table's — or last); the other sections are kept as they were."""
    kept = _sections(page)
    new = section(title, names)
    titles = [t for t, _ in kept]
    if title in titles:
        kept[titles.index(title)] = (title, new)
    else:
        later = (i for i, t in enumerate(titles) if any(b in t for b in before))
        kept.insert(next(later, len(kept)), (title, new))
    return _page([text for _, text in kept])


def _run(args: Sequence[str]) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=False).stdout


# -- main ---------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the gallery; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument(
        "--games", default="", help="comma-separated games to photograph (default: all)"
    )
    parser.add_argument(
        "--end-game",
        default="",
        help="the game also photographed at its end (default: the first game photographed)",
    )
    parser.add_argument("--no-lobby", action="store_true", help="leave the lobby out")
    parser.add_argument("--no-terminal", action="store_true", help="leave the terminal table out")
    parser.add_argument(
        "--no-accounts", action="store_true", help="leave the profile and leaderboard out"
    )
    parser.add_argument("--no-learning", action="store_true", help="leave the learning section out")
    parser.add_argument(
        "--only",
        choices=[LEARNING, ACCOUNTS],
        help="make only this section, and put it into the existing page in its place",
    )
    args = parser.parse_args(argv)
    only = args.only
    if only and (args.games or args.end_game or args.no_learning or args.no_accounts):
        parser.error(f"--only {only} makes no game pictures, and the {only} ones")
    learning = only == LEARNING or (not only and not args.no_learning)
    accounts = only == ACCOUNTS or (not only and not args.no_accounts)
    if not CHROMIUM.is_file():
        print(f"{CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    if shutil.which("fc-list") and "emoji" not in _run(["fc-list"]).lower():
        print(
            "note: no emoji font is installed (e.g. fonts-noto-color-emoji): emoji in the "
            "pictures show as empty boxes",
            file=sys.stderr,
        )
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    if learning:  # the server started below reviews the game photographed quickly
        for key, value in REVIEW_ENV.items():
            os.environ.setdefault(key, value)
    with (
        tempfile.TemporaryDirectory(prefix="cardtable-shots-") as tmp,
        running_server(Path(tmp)) as base,
        sync_playwright() as pw,
    ):
        variants: list[dict[str, Any]] = _get_json(base + "/api/variants")
        known = [v["name"] for v in variants]
        wanted = [g.strip() for g in args.games.split(",") if g.strip()] or known
        unknown = sorted(set(wanted) - set(known))
        if unknown:
            parser.error(f"unknown games {unknown}; the games are {known}")
        end_game = args.end_game or wanted[0]
        if end_game not in wanted:
            parser.error(f"--end-game {end_game} is not among the games photographed")
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        sections: list[tuple[str, list[str]]] = []
        try:
            if only:
                wanted = []
            for variant in (v for v in variants if v["name"] in wanted):
                names = shoot_game(browser, base, variant, out, end=variant["name"] == end_game)
                table = [n for n in names if not n.startswith(f"{variant['name']}-end-")]
                sections.append((f"{variant['title']} — `{variant['name']}`", table))
                if len(table) < len(names):
                    sections.append(
                        (f"{variant['title']} — the end of a game", names[len(table) :])
                    )
                print(f"{variant['name']}: {len(names)} pictures", flush=True)
            if accounts:
                names = shoot_accounts(browser, base, variants, out)
                sections.append((ACCOUNTS_TITLE, names))
                print(f"accounts: {len(names)} pictures", flush=True)
            if learning:
                names = shoot_learning(browser, base, variants, out)
                sections.append((LEARNING_TITLE, names))
                print(f"{LEARNING}: {len(names)} pictures", flush=True)
            if not args.no_lobby and not only:
                sections.insert(0, ("The lobby", shoot_lobby(browser, base, out)))
        finally:
            browser.close()
    if not args.no_terminal and not only:
        terminal = shoot_terminal(out)
        sections.append((f"{TERMINAL_TITLE} — `cardtable play`", [terminal]))
    readme = out / "README.md"
    if only and readme.is_file():
        title, names = sections[0]
        later = (LEARNING_TITLE, TERMINAL_TITLE) if only == ACCOUNTS else (TERMINAL_TITLE,)
        page = update_gallery(readme.read_text("utf-8"), title, names, later)
    else:
        page = gallery(sections)
    readme.write_text(page, "utf-8")
    total = sum(f.stat().st_size for f in out.glob("*.png"))
    print(
        f"wrote {sum(len(n) for _, n in sections)} pictures ({total / 2**20:.1f} MiB) and "
        f"{out / 'README.md'} in {time.monotonic() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
