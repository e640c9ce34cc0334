"""Fixtures for the browser tests: Debian's Chromium driven by Playwright, and the real server.

Playwright's own browser downloads are never used: the tests launch ``/usr/bin/chromium``
(installed by ``scripts/setup``) and fail, rather than skip, when it is missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright

from ..webserver import Server, running_server
from .driver import CHROMIUM, CHROMIUM_ARGS

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
"""Where the tests save what the tables looked like (repo-root ``artifacts/``, git-ignored)."""
SERVER_LOGS = SCREENSHOTS.parent / "logs"
"""Where each test process keeps its server's log when it is done."""

PEEK_WINDOW = 20.0
SNAP_WINDOW = 2.0


# Module scope, not session: while Playwright's sync API is started it marks an asyncio loop
# as running in the main thread, so a session-wide instance would make ``asyncio.run`` fail in
# every later test that the same xdist worker runs (the web and PostgreSQL tests use it).
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Playwright's sync API, started for one test module at a time."""
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Chromium from /usr/bin/chromium; a clear failure when it is not installed."""
    if not CHROMIUM.is_file() or not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests drive Debian's Chromium. Install it with "
            "`apt-get install --no-install-recommends chromium` (scripts/setup does this as "
            "root); Playwright's own browser downloads are not used.",
            pytrace=False,
        )
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One real server (uvicorn subprocess, SQLite) for the session: AI delay 0, short windows."""
    workdir = tmp_path_factory.mktemp("e2e-server")
    with running_server(
        workdir, ai_delay=0.0, peek_window=PEEK_WINDOW, snap_window=SNAP_WINDOW
    ) as srv:
        yield srv
    # kept beside the screenshots: what the server said, to read after a failed run
    SERVER_LOGS.mkdir(parents=True, exist_ok=True)
    (SERVER_LOGS / f"e2e-server-{os.getpid()}.log").write_text(srv.log(), "utf-8")


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile (its own localStorage) with reduced motion, so that clicks do
    not wait for animations; the animation test opens its own context."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, reduced_motion="reduce")
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """The screenshot folder, created on demand."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
