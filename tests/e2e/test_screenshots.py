"""``scripts/screenshots`` regenerates the gallery: every picture at its screen's size, light
and dark really different, and a Markdown page linking to each of them."""

from __future__ import annotations

import base64
import re
import struct
import subprocess
import sys
from pathlib import Path

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


def test_gallery_of_one_game(tmp_path: Path, browser: Browser) -> None:
    out = tmp_path / "gallery"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", GAME, "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr

    pngs = {p.name for p in out.glob("*.png")}
    table = {f"{GAME}-{screen}-{scheme}.png" for screen in SIZES for scheme in ("light", "dark")}
    end = {f"{GAME}-end-{screen}-{scheme}.png" for screen in SIZES for scheme in ("light", "dark")}
    lobby = {"lobby-desktop-light.png", "lobby-desktop-dark.png", "lobby-phone-light.png"}
    assert pngs == table | end | lobby, sorted(pngs)

    for name in sorted(pngs):
        screen = name.removesuffix(".png").split("-")[-2]
        assert png_size(out / name) == SIZES[screen], name

    # The colour scheme is really applied: each dark picture is darker than its light twin.
    for stem in (f"{GAME}-desktop", f"{GAME}-phone", f"{GAME}-end-desktop", "lobby-desktop"):
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
