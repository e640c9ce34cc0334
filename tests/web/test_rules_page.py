"""``GET /api/rules/{variant}``: the notation page as before, and with ``plain=1&lang=…`` the
rules in plain words in that language, cards left as ``{{KH}}`` tokens for the browser to draw;
``GET /api/variants`` serves the unusual card values the table marks."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from cardtable import variants
from cardtable.text.presentation import value_marks
from cardtable.web.app import create_app
from cardtable.web.settings import ServerSettings


def _get(app: Any, path: str, query: str = "") -> tuple[int, Any]:
    """One GET through the ASGI app itself (no server, no HTTP client library)."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"test")],
        "client": ("127.0.0.1", 1),
        "server": ("test", 80),
    }
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(body)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("rules") / "web.db"
    return create_app(f"sqlite+aiosqlite:///{db}", ServerSettings(ai_workers=0))


def test_the_default_answer_is_the_notation_page_as_before(app: Any) -> None:
    status, rules = _get(app, "/api/rules/gabo")
    assert status == 200
    assert rules == {
        "variant": "gabo",
        "title": "Gabo",
        "markdown": variants.rules_text("gabo"),
    }
    assert "`draw deck`" in rules["markdown"]


def test_plain_rules_in_german(app: Any) -> None:
    status, rules = _get(app, "/api/rules/gabo", "plain=1&lang=de")
    assert status == 200
    assert rules["variant"] == "gabo" and rules["lang"] == "de"
    assert rules["heading"] == "Regeln: Gabo"
    text = rules["markdown"]
    assert "Einwerfen" in text and "Ablagestapel" in text and "Snapping" not in text
    assert "{{KH}}" in text and "{{values}}" not in text  # the legend is in, cards stay tokens
    assert "| Karte | Punkte | Aktion |" in text and "rote Könige" in text
    assert "`" not in text and "draw deck" not in text


def test_plain_rules_in_english_and_for_any_other_language(app: Any) -> None:
    _, en = _get(app, "/api/rules/cabo_german", "plain=1&lang=en")
    assert en["variant"] == "cabo-german" and en["lang"] == "en"
    assert en["title"] == "Cabo (German rules)" and en["heading"] == "Rules: Cabo (German rules)"
    assert "Dropping cards" in en["markdown"]
    _, other = _get(app, "/api/rules/kaboo", "plain=1&lang=fr-FR")
    assert other["lang"] == "en" and "Knock" in other["markdown"]
    status, _ = _get(app, "/api/rules/kaboo", "plain=1&lang=" + "x" * 100)
    assert status == 422  # a language tag is short
    status, missing = _get(app, "/api/rules/poker", "plain=1&lang=de")
    assert status == 404 and "poker" in missing["detail"]


def test_the_variants_serve_their_unusual_values(app: Any) -> None:
    status, found = _get(app, "/api/variants")
    assert status == 200
    by_name = {v["name"]: v for v in found}
    assert by_name["gabo"]["value_marks"] == {
        "KC": 0,
        "KD": 15,
        "KH": 15,
        "KS": 0,
        "RJ": -2,
        "BJ": -2,
    }
    assert by_name["cabo"]["value_marks"] == {}
    assert by_name["qute"]["values"]["JH"] == 20
    for name in variants.names():
        assert by_name[name]["value_marks"] == value_marks(name)


def test_every_plain_page_is_served_in_both_languages(app: Any) -> None:
    for name in variants.names():
        for lang in ("en", "de"):
            status, rules = _get(app, f"/api/rules/{name}", f"plain=1&lang={lang}")
            assert status == 200 and rules["lang"] == lang, (name, lang)
            assert rules["markdown"].startswith("# ")
