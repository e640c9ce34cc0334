"""Regenerate the screenshot gallery of the browser table (run through ``scripts/screenshots``).

A real ``cardtable serve`` runs on 127.0.0.1 with a throwaway SQLite store; Debian's Chromium,
driven by Playwright, plays one person against AI opponents in every game until an
interesting moment (cards peeked, a drawn card in hand, moves in the log; in qute a few cards
played) and photographs it on a desktop and a phone screen, light and dark. The lobby and the
end of one game are photographed too, and a Markdown page lists every picture. The full-screen
terminal table (``cardtable play``) is drawn too, as an SVG (``terminal.svg``, shown in the
README), by Textual's own screenshot of a game played by keys.

Usage: ``scripts/screenshots [--out docs/screenshots] [--games cabo,qute] [--end-game kaboo]
[--no-lobby] [--no-terminal]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
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


def _moment(view: dict[str, Any], moves: int) -> bool:
    """Whether the table shows what the pictures are for: after a few moves of ours, a drawn
    card in hand (Cabo family) or our turn to play again (qute)."""
    if moves < OWN_MOVES.get(view["game"], DEFAULT_OWN_MOVES):
        return False
    legal: list[str] = view["legal"]
    if view["game"] == "qute":
        return any(a.startswith("play ") for a in legal)
    return any(a.startswith("replace ") for a in legal)


def play_to_moment(page: Page, *, limit: int = 60) -> bool:
    """Play until :func:`_moment`; False if the game ended first."""
    for moves in range(limit):
        view = wait_actionable(page, timeout=30_000)["view"]
        if view["over"]:
            return False
        if _moment(view, moves):
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
    browser: Browser, room: dict[str, Any] | None, *, phone: bool = False
) -> BrowserContext:
    """A fresh browser profile holding ``room``'s seat, with reduced motion; with ``phone`` a
    touch screen of the phone's size (the page then says "tap" and sizes its controls for a
    finger, as on a real phone)."""
    screen = PHONE if phone else DESKTOP
    ctx = browser.new_context(
        viewport={"width": screen.width, "height": screen.height},
        is_mobile=phone,
        has_touch=phone,
        device_scale_factor=1,
        reduced_motion="reduce",
        color_scheme="light",
        locale="en-GB",
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


# -- the terminal --------------------------------------------------------------------------------

TERMINAL = "terminal.svg"
"""The full-screen terminal table's picture."""


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


def _thumb(name: str, width: int) -> str:
    alt = name.removesuffix(".png").removesuffix(".svg").replace("-", " ")
    return f'[<img src="{name}" width="{width}" alt="{alt}">]({name})'


def gallery(sections: Sequence[tuple[str, list[str]]]) -> str:
    """The Markdown page: for each section (title, file names), thumbnails that link to the
    full pictures, desktop ones wider than phone ones."""
    lines = [
        "# Screenshots",
        "",
        "The browser table on a desktop (1366×900) and a phone (390×844) screen, light and dark,",
        "for every game, and the full-screen terminal table. Click a picture for its full size.",
        "[`scripts/screenshots`](../../scripts/screenshots) regenerates these pictures and this",
        "page (`--games` picks some games, `--out` another folder).",
        "",
    ]
    for title, names in sections:
        lines += [f"## {title}", ""]
        if names == [TERMINAL]:
            lines += [_thumb(TERMINAL, 600), ""]
        for screen, width in ((DESKTOP, 400), (PHONE, 180)):
            row = [_thumb(n, width) for n in names if f"-{screen.name}-" in n]
            if row:
                lines += [" ".join(row), ""]
    return "\n".join(lines)


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
    args = parser.parse_args(argv)
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
            for variant in (v for v in variants if v["name"] in wanted):
                names = shoot_game(browser, base, variant, out, end=variant["name"] == end_game)
                table = [n for n in names if not n.startswith(f"{variant['name']}-end-")]
                sections.append((f"{variant['title']} — `{variant['name']}`", table))
                if len(table) < len(names):
                    sections.append(
                        (f"{variant['title']} — the end of a game", names[len(table) :])
                    )
                print(f"{variant['name']}: {len(names)} pictures", flush=True)
            if not args.no_lobby:
                sections.insert(0, ("The lobby", shoot_lobby(browser, base, out)))
        finally:
            browser.close()
    if not args.no_terminal:
        terminal = shoot_terminal(out)
        sections.append(("The full-screen terminal table — `cardtable play`", [terminal]))
    (out / "README.md").write_text(gallery(sections) + "\n", "utf-8")
    total = sum(f.stat().st_size for f in out.glob("*.png"))
    print(
        f"wrote {sum(len(n) for _, n in sections)} pictures ({total / 2**20:.1f} MiB) and "
        f"{out / 'README.md'} in {time.monotonic() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
