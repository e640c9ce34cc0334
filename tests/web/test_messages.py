"""The browser's words in the reader's language: ``GET /api/messages/{lang}`` serves the ``ui.*``
messages of every shipped language (cached by its ETag; an unknown language is a clear 404),
every key the client's modules and pages ask for exists, the REST answers with words take
``?lang=``, and a connection that joins with a language is sent its words in it — events,
refusals and seats' names — whatever language the others at the table read.

In process: the HTTP answers are read from the ASGI app itself, the rooms from a room manager on
SQLite (:mod:`.inprocess`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from cardtable import variants
from cardtable.agents.registry import LEVELS, describe
from cardtable.catalog import DEFAULT_LANGUAGE, language, load, supported
from cardtable.web.app import STATIC, create_app
from cardtable.web.messages import PREFIX, served, ui_messages
from cardtable.web.protocol import (
    AI_LEVELS,
    ActMsg,
    JoinMsg,
    ProtocolError,
    RematchMsg,
    ai_seat_label,
)
from cardtable.web.said import seat_names

from .inprocess import IN_PROCESS, manager_on, until
from .test_hold import join_answer
from .test_turn_clock import Sink, run

_ids = itertools.count(1)


# ---------------------------------------------------------------------------- HTTP, in process
def _get(path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """``GET path`` of a fresh app: the status, the headers (lower-case names) and the body.
    The app is started and stopped around the request (its throwaway store opened) only for
    the answers that read the store: the AI levels' ratings."""
    app = create_app("sqlite+aiosqlite:///:memory:", IN_PROCESS)
    path, _, query = path.partition("?")
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
        "client": ("127.0.0.1", 1234),
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def served() -> None:
        if not path.startswith(("/api/levels", "/api/ratings/")):
            await app(scope, receive, send)
            return
        async with app.router.lifespan_context(app):
            await app(scope, receive, send)

    asyncio.run(served())
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    found = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], found, body


def _english_ui_keys() -> set[str]:
    return {k for k in load(DEFAULT_LANGUAGE).messages if k.startswith(PREFIX)}


@pytest.mark.parametrize("lang", supported())
def test_every_language_serves_every_ui_key(lang: str) -> None:
    status, headers, body = _get(f"/api/messages/{lang}")
    assert status == 200 and headers["content-type"].startswith("application/json")
    answer = json.loads(body)
    assert answer["lang"] == lang
    assert answer["plural"] == "nplurals=2; plural=(n != 1);"
    assert set(answer["messages"]) == _english_ui_keys()
    assert answer["messages"] == ui_messages(lang)
    # a plural message is its forms, as the browser picks them (Intl.PluralRules)
    assert isinstance(answer["messages"]["ui.seats.free_seats"], list)


def test_german_is_german_and_english_is_english() -> None:
    en, de = ui_messages("en"), ui_messages("de")
    assert en["ui.settings.title"] == "Settings" and de["ui.settings.title"] == "Einstellungen"
    assert en["ui.seat.name"] == "Seat {seat}" and de["ui.seat.name"] == "Platz {seat}"
    # every German message is German: none is left as the English one, but for the few words
    # the two languages write alike
    alike = {k for k in en if en[k] == de[k]}
    assert alike <= _SAME_IN_BOTH, sorted(alike - _SAME_IN_BOTH)


_SAME_IN_BOTH = {
    "ui.chat.title",  # Chat
    "ui.countdown.left",  # {label}: {seconds} s
    "ui.end.lobby",  # Lobby
    "ui.table.dot.offline",
    "ui.table.dot.online",
}
"""Messages German writes as English does (a name, a symbol, a number and its unit)."""


def test_the_answer_is_cached_by_its_etag() -> None:
    status, headers, body = _get("/api/messages/de")
    assert status == 200 and headers["cache-control"] == "no-cache"
    tag = headers["etag"]
    assert tag == served("de").etag and tag.startswith('"')
    status, again, empty = _get("/api/messages/de", {"If-None-Match": tag})
    assert status == 304 and empty == b"" and again["etag"] == tag
    # each language has its own tag; an old tag gets the whole answer again
    assert served("en").etag != tag
    status, _, body_again = _get("/api/messages/de", {"If-None-Match": '"old"'})
    assert status == 200 and body_again == body


@pytest.mark.parametrize("lang", ["fr", "de-AT", "EN", "..", "x" * 300])
def test_a_language_that_does_not_ship_is_a_clear_404(lang: str) -> None:
    status, _, body = _get(f"/api/messages/{lang}")
    assert status == 404
    detail = json.loads(body)["detail"]
    assert detail.startswith("no messages in the language") and "en, de" in detail
    assert len(detail) < 200


def test_templates_hold_only_plain_placeholders() -> None:
    """The browser fills ``{name}`` (and ``{{``, ``}}``) only: no format spec, conversion,
    index or attribute, which Python's format would read and the browser would not."""
    for lang in supported():
        for key, found in ui_messages(lang).items():
            for template in [found] if isinstance(found, str) else found:
                for _, field, spec, conversion in string.Formatter().parse(template):
                    if field is None:
                        continue
                    where = f"{lang} {key}: {{{field}}}"
                    assert re.fullmatch(r"\w+", field), where
                    assert not spec and not conversion, where


# ---------------------------------------------------------------------------- the client's keys
_T_CALL = re.compile(r"""\bt\(\s*(["'`])(ui\.[^"'`$]*)\1""")
"""A literal key the client asks for: ``t("ui.lobby.title"`` (a key built from a variable,
``t(`ui.seat.ai.${level}`)``, is checked where it is built)."""

_DATA_KEY = re.compile(r"""data-i18n(?:-label)?=["'](ui\.[^"']+)["']""")


def _asked() -> dict[str, set[str]]:
    """Every literal key each client module and page asks for, by file name."""
    found: dict[str, set[str]] = {}
    for path in sorted(STATIC.glob("*.js")) + sorted(STATIC.glob("*.html")):
        text = path.read_text("utf-8")
        keys = {m.group(2) for m in _T_CALL.finditer(text)} | set(_DATA_KEY.findall(text))
        if keys:
            found[path.name] = keys
    return found


def test_every_key_the_client_asks_for_exists() -> None:
    english = _english_ui_keys()
    asked = _asked()
    assert {"app.js", "settings.js", "index.html", "notfound.html"} <= set(asked)
    missing = {name: sorted(keys - english) for name, keys in asked.items() if keys - english}
    assert not missing, f"keys missing from en/LC_MESSAGES/ui.po: {missing}"


def test_keys_built_from_names_exist_for_every_name() -> None:
    english = _english_ui_keys()
    for level in AI_LEVELS:
        assert f"ui.seat.ai.{level}" in english
    for level in (*LEVELS, "random"):
        assert {f"ui.level.{level}", f"ui.level.{level}.about"} <= english
    for name in variants.names():
        assert f"ui.game.{name}.summary" in english


def test_the_english_words_are_the_codes_own() -> None:
    """English reads the same whether the words come from the catalog or from the code (a
    REST answer without ``?lang=``, a seat's label in the protocol)."""
    with language("en"):
        english = load("en")
        for level in AI_LEVELS:
            assert english.say(f"ui.seat.ai.{level}") == ai_seat_label(level)
        for level in (*LEVELS, "random"):
            assert english.say(f"ui.level.{level}.about") == describe(level)
        for name in variants.names():
            assert english.say(f"ui.game.{name}.summary") == variants.get(name).summary


def test_the_client_offers_every_shipped_language() -> None:
    text = (STATIC / "i18n.js").read_text("utf-8")
    offered = re.search(r"LANGUAGES = Object\.freeze\(\{(.*?)\}\)", text)
    assert offered is not None
    assert re.findall(r"(\w+):", offered.group(1)) == supported()


# ---------------------------------------------------------------------------- REST with ?lang=
def test_levels_and_games_are_described_in_the_asked_language() -> None:
    status, _, body = _get("/api/levels")
    plain = json.loads(body)
    assert status == 200 and plain[0]["name"] == "beginner"
    assert plain[0]["description"] == describe("beginner")
    for tag in ("de", "de-AT", "DE_de"):
        status, _, body = _get(f"/api/levels?lang={tag}")
        german = {x["name"]: x["description"] for x in json.loads(body)}
        assert german["casual"] == load("de").say("ui.level.casual.about")
        assert german["casual"] != describe("casual")
    status, _, body = _get("/api/levels?lang=fr")  # not shipped: English
    assert json.loads(body) == plain

    status, _, body = _get("/api/variants?lang=de")
    games = {v["name"]: v for v in json.loads(body)}
    assert games["qute"]["summary"].startswith("Qute: 36 Karten")
    assert games["cabo"]["title"] == "Cabo"  # a game's name stays as it is
    status, _, body = _get("/api/variants")
    summaries = {v["name"]: v["summary"] for v in json.loads(body)}
    assert summaries["cabo"] == variants.get("cabo").summary


def _post(path: str) -> tuple[int, bytes]:
    """``POST path`` (no body) to a fresh app whose store is opened for it: status and body."""
    app = create_app("sqlite+aiosqlite:///:memory:")
    path, _, query = path.partition("?")
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"content-length", b"0")],
        "client": ("127.0.0.1", 1234),
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def call() -> None:
        store = app.state.store
        await store.open()
        try:
            await app(scope, receive, send)
        finally:
            await store.close()

    asyncio.run(call())
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], body


def test_a_refused_join_is_said_in_the_asked_language() -> None:
    status, body = _post("/api/rooms/nowhere/join?lang=de-DE")
    assert status == 404 and json.loads(body)["detail"] == "diesen Raum gibt es nicht"
    status, body = _post("/api/rooms/nowhere/join")
    assert status == 404 and json.loads(body)["detail"] == "there is no such room"


# ---------------------------------------------------------------------------- a connection's words
def _store(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'messages.db'}"


async def _joined(manager: Any, room: Any, token: str | None, lang: str | None) -> Sink:
    sink = Sink()
    msg_id = next(_ids)
    msg = JoinMsg(type="join", room=room.id, token=token, lang=lang, id=msg_id)
    await manager.handle(sink.conn, msg)
    await until(lambda: any(f.get("id") == msg_id for f in sink.frames))
    return sink


def _said(frames: list[dict[str, Any]]) -> list[str]:
    return [e["said"]["text"] for f in frames if f["type"] == "state" for e in f.get("events", [])]


def test_each_connection_reads_the_table_in_the_language_it_joined_with(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with manager_on(_store(tmp_path), ai_delay=0.0, peek_window=600.0) as manager:
            room, _, ann = await manager.create(
                "cabo",
                [("human", None, False), ("human", None, False), ("ai", "casual", False)],
                name="Ann",
            )
            _, _, bob = await manager.take_seat(room.id, "Bob")
            assert ann is not None and bob is not None
            anns = await _joined(manager, room, ann, "de-DE")
            bobs = await _joined(manager, room, bob, "en-US")
            watcher = await _joined(manager, room, None, None)  # the server's language
            german = await _joined(manager, room, None, "de")
            assert anns.conn.lang == "de" and bobs.conn.lang == "en" and watcher.conn.lang is None

            # the join's log, in each one's words
            def log(sink: Sink) -> list[str]:
                return [e["said"]["text"] for x in join_answer(sink)["log"] for e in x["events"]]

            assert log(anns)[0].startswith("Runde 1 beginnt; du fängst an")
            assert log(german)[0].startswith("Runde 1 beginnt; Ann fängt an")
            assert log(watcher)[0].startswith("Round 1 begins; Ann ")

            # the AI's seat is named in each one's language (its first look at its cards)
            def told(sink: Sink) -> str:
                return " / ".join(log(sink) + _said(sink.frames))

            await until(lambda: "Casual AI" in told(bobs) and "Hobby-KI" in told(german))
            assert "Hobby-KI" not in told(bobs) and "Casual AI" not in told(german)

            # one move, told to each in their own words, in one broadcast
            await manager.handle(
                Sink().conn,
                ActMsg(type="act", room=room.id, token=ann, action="peek 0", version=room.version),
            )
            await until(lambda: all(_said(s.frames) for s in (anns, bobs, watcher, german)))
            assert _said(anns.frames)[-1] == "du hast deine Karte 0 angeschaut"
            assert _said(german.frames)[-1] == "Ann hat die eigene Karte 0 angeschaut"
            assert _said(bobs.frames)[-1] == "Ann peeked at their card 0"
            assert _said(watcher.frames)[-1] == "Ann peeked at their card 0"

            # a refusal is phrased in the language of the connection that sent the move
            async def refusal(sink: Sink, token: str) -> str:
                move = ActMsg(
                    type="act", room=room.id, token=token, action="peek 9", version=room.version
                )
                with pytest.raises(ProtocolError) as refused:
                    await manager.handle(sink.conn, move)
                return refused.value.message

            english, german_words = await refusal(bobs, bob), await refusal(anns, ann)
            assert english == "you have no card at position 9", english
            assert german_words == "du hast keine Karte an Position 9", german_words

    run(scenario)


def test_seat_names_follow_the_catalog_in_use() -> None:
    seats: list[Any] = [
        {"type": "human", "name": None, "level": None},
        {"type": "ai", "name": None, "level": "casual"},
        {"type": "ai", "name": None, "level": "casual"},
    ]
    assert seat_names(seats) == ["Seat 0", "Casual AI 1", "Casual AI 2"]
    with language("de"):
        assert seat_names(seats) == ["Platz 0", "Hobby-KI 1", "Hobby-KI 2"]


def test_an_error_frame_is_in_the_language_of_the_join(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with manager_on(_store(tmp_path), ai_delay=0.0) as manager:
            room, _, _ = await manager.create(
                "kaboo", [("human", None, False), ("ai", "casual", False)], name="Ann"
            )
            for lang, words in (
                ("de-CH", "zu diesem Schlüssel gehört kein Platz in diesem Raum"),
                ("en", "this token holds no seat in this room"),
                (None, "this token holds no seat in this room"),
            ):
                join = JoinMsg(type="join", room=room.id, token="not-a-token", lang=lang)
                with pytest.raises(ProtocolError) as refused:
                    await manager.handle(Sink().conn, join)
                assert refused.value.code == "bad_token"
                assert refused.value.message == words
            # a German spectator may not offer a rematch: said in German
            german = await _joined(manager, room, None, "de")
            with pytest.raises(ProtocolError) as refused:
                await manager.handle(german.conn, RematchMsg(type="rematch", room=room.id))
            assert refused.value.message.startswith("wer zuschaut, kann keine Revanche")

    run(scenario)
