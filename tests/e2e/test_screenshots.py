"""``scripts/screenshots`` regenerates the gallery: every picture at its screen's size (a
player's profile and a leaderboard among them), light and dark really different, and a
Markdown page linking to each of them. ``--only learning`` makes the learning section alone
(the lesson, the hint panel, the review; English and German, desktop and phone) and puts it
into the existing page, the other sections kept."""

from __future__ import annotations

import base64
import importlib.util
import re
import struct
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "screenshots.py"

GAME = "kaboo"
"""The quickest game to photograph: no opening peeks, two or three players."""

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# The mean brightness (0–255) of an image, measured by the browser on a canvas.
MEAN_BRIGHTNESS = """async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) sum += data[i] + data[i + 1] + data[i + 2];
    return sum / (3 * data.length / 4);
}"""


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header (its IHDR chunk, bytes 16–24)."""
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_SIGNATURE, f"{path.name} is not a PNG"
    assert head[12:16] == b"IHDR", f"{path.name} has no IHDR chunk first"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def brightness(browser: Browser, path: Path) -> float:
    page = browser.new_page()
    try:
        src = "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode()
        return float(page.evaluate(MEAN_BRIGHTNESS, src))
    finally:
        page.close()


def test_gallery_of_one_game(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    out = tmp_path / "gallery"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", GAME, "--no-learning", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr

    pngs = {p.name for p in out.glob("*.png")}
    table = {f"{GAME}-{screen}-{scheme}.png" for screen in SIZES for scheme in ("light", "dark")}
    end = {f"{GAME}-end-{screen}-{scheme}.png" for screen in SIZES for scheme in ("light", "dark")}
    lobby = {"lobby-desktop-light.png", "lobby-desktop-dark.png", "lobby-phone-light.png"}
    accounts = {
        f"{page}-{shot}.png"
        for page in ("profile", "leaderboard")
        for shot in ("desktop-light", "desktop-dark", "phone-light")
    }
    assert pngs == table | end | lobby | accounts, sorted(pngs)

    for name in sorted(pngs):
        screen = name.removesuffix(".png").split("-")[-2]
        assert png_size(out / name) == SIZES[screen], name

    # The colour scheme is really applied: each dark picture is darker than its light twin
    # (measured by a browser started now, once the script's own has closed).
    browser: Browser = request.getfixturevalue("browser")
    stems = (f"{GAME}-desktop", f"{GAME}-phone", f"{GAME}-end-desktop", "lobby-desktop")
    for stem in (*stems, "profile-desktop", "leaderboard-desktop"):
        light, dark = out / f"{stem}-light.png", out / f"{stem}-dark.png"
        assert light.read_bytes() != dark.read_bytes(), stem
        assert brightness(browser, dark) < brightness(browser, light) - 20, stem

    # The gallery page shows every picture and links to it, by a relative link.
    page = (out / "README.md").read_text("utf-8")
    links = set(re.findall(r"\]\(([^)\s]+)\)", page))
    assert not any("://" in link or link.startswith("/") for link in links), links
    linked = {link for link in links if link.endswith(".png")}
    shown = set(re.findall(r'<img src="([^"]+)"', page))
    assert linked == pngs, sorted(linked ^ pngs)
    assert shown == pngs | {"terminal.svg"}, sorted(shown ^ pngs)
    assert f"`{GAME}`" in page

    # The full-screen terminal table, drawn by Textual as an SVG: the seats by name and level,
    # the person's two peeked cards in sight (gabo keeps them until the first draw).
    assert "terminal.svg" in links
    svg = (out / "terminal.svg").read_text("utf-8")
    assert svg.lstrip().startswith("<svg")
    text = " ".join(re.findall(r">([^<]*)</text>", svg)).replace("&#160;", " ")
    assert "Seat 1 · casual AI" in text and "You (seat 0)" in text, text[:400]
    assert "you peeked at your card 1" in text
    assert len(re.findall(r"\[(?:10|[2-9AJQK])[SHDC]\]", text)) >= 3  # two peeked, the pile


def script() -> ModuleType:
    """The script, imported as a module."""
    spec = importlib.util.spec_from_file_location("screenshots_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # for its dataclasses
    spec.loader.exec_module(module)
    return module


LEARNING = {
    f"{kind}-{screen}-{lang}.png"
    for kind in ("learn-kaboo", "hint", "review")
    for screen in SIZES
    for lang in ("en", "de")
}
"""The learning section's pictures."""

OLD_PAGE = """# Screenshots

An older page's words.

## The lobby

[<img src="lobby-desktop-light.png" width="400" alt="lobby">](lobby-desktop-light.png)

## The full-screen terminal table — `cardtable play`

[<img src="terminal.svg" width="600" alt="terminal">](terminal.svg)
"""


def test_only_the_learning_section(tmp_path: Path) -> None:
    out = tmp_path / "gallery"
    out.mkdir()
    (out / "README.md").write_text(OLD_PAGE, "utf-8")
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--only", "learning", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr

    pngs = {p.name for p in out.glob("*.png")}
    assert pngs == LEARNING, sorted(pngs)
    for name in sorted(pngs):
        assert png_size(out / name) == SIZES[name.removesuffix(".png").split("-")[-2]], name
    for name in sorted(n for n in pngs if n.endswith("-en.png")):  # German ones are not copies
        german = out / name.replace("-en.png", "-de.png")
        assert (out / name).read_bytes() != german.read_bytes(), name

    # The page: the other sections as they were, the learning one before the terminal's, each
    # picture shown with words of its own.
    page = (out / "README.md").read_text("utf-8")
    lobby = OLD_PAGE[OLD_PAGE.index("## The lobby") : OLD_PAGE.index("## The full-screen")]
    assert lobby in page
    assert page.index("## The lobby") < page.index("## Learning to play")
    assert page.index("## Learning to play") < page.index("## The full-screen terminal")
    assert "--only learning" in page.split("## ")[0]  # the page says how to make it again
    shown = dict(re.findall(r'<img src="([^"]+)" width="\d+" alt="([^"]+)"', page))
    assert set(shown) == LEARNING | {"lobby-desktop-light.png", "terminal.svg"}
    for name in LEARNING:
        assert "German" in shown[name] if name.endswith("-de.png") else "English" in shown[name]
        assert f"]({name})" in page


def test_a_section_made_again_stays_in_its_place() -> None:
    gallery = script()
    names = sorted(LEARNING)
    page = gallery.update_gallery(OLD_PAGE, "Learning to play", names)
    again = gallery.update_gallery(page, "Learning to play", names)
    assert again == page
    assert page.count("## Learning to play") == 1
    # the whole page made at once has the same section as the one put in
    full = gallery.gallery([("Learning to play", names)])
    assert (
        full[full.index("## Learning") :]
        == page[page.index("## Learning") : page.index("## The full")].rstrip() + "\n"
    )
