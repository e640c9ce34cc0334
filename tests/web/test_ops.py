"""Operations (docs/protocol.md, "Operations"; docs/deploy.md): the health checks
(``/healthz``, ``/readyz``), the Prometheus metrics (``/metrics``) and the JSON logs of
``cardtable serve --log-format json``.

The endpoints and the logs are checked on the real server (``cardtable serve`` under uvicorn,
:mod:`tests.webserver`); the readiness rules, the probes' answers and the log formatter also on
their own.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from cardtable.web.app import create_app
from cardtable.web.health import Probes, Readiness, Verdict
from cardtable.web.logs import JsonFormatter, json_log_config
from cardtable.web.metrics import Metrics, chooser
from cardtable.web.movelog import CLOCK, stand_in
from cardtable.web.settings import ServerSettings

from ..helpers import strings_in
from ..pgserver import PostgresServer
from ..webserver import Server, http, running_server
from .client import Client, create_room
from .play import card_codes, drive

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]

ALLOWED_LABELS = {"chooser", "code", "status", "state", "le"}
"""Every label name /metrics may have: codes and states, never an id, a card or a name."""


# -- helpers ---------------------------------------------------------------------------------


def metrics_of(server: Server) -> tuple[str, Samples]:
    """``GET /metrics``: its text, and every sample by name and labels."""
    status, text = http("GET", server.url + "/metrics")
    assert status == 200, text
    assert isinstance(text, str)
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            samples[s.name, frozenset(s.labels.items())] = s.value
    return text, samples


def sample(samples: Samples, name: str, **labels: str) -> float:
    """One sample's value (0 when it is not there)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def poll(pred: Callable[[], bool], timeout: float = 20.0, what: str = "the condition") -> None:
    """Return once ``pred()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not hold within {timeout} s")
        time.sleep(0.05)


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """A GET with headers; the status and the decoded JSON (or text)."""
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            status, body = resp.status, resp.read()
    except urllib.error.HTTPError as err:
        status, body = err.code, err.read()
    try:
        return status, json.loads(body)
    except ValueError:
        return status, body.decode("utf-8", "replace")


# -- /healthz and /readyz --------------------------------------------------------------------


def test_health_checks_answer_and_are_not_rate_limited(tmp_path: Path) -> None:
    """``/healthz`` and ``/readyz`` answer 200 with their JSON, and a load balancer's checks
    never run into the per-address request quota that other requests do."""
    limits = ["--rate-requests", "5", "--tarpit", "0"]
    with running_server(tmp_path, extra_args=limits) as srv:
        for _ in range(20):
            assert http("GET", srv.url + "/healthz") == (200, {"status": "ok"})
            assert http("GET", srv.url + "/readyz") == (200, {"status": "ready"})
        statuses = [http("GET", srv.url + "/api/levels")[0] for _ in range(8)]
        assert 429 in statuses  # the quota is on: other requests do meet it
        assert http("GET", srv.url + "/healthz") == (200, {"status": "ok"})
        assert http("GET", srv.url + "/readyz") == (200, {"status": "ready"})


def test_readyz_says_503_when_the_store_is_out_of_reach(tmp_path: Path) -> None:
    """A server whose PostgreSQL stops: ``/readyz`` turns 503 naming the store, ``/healthz``
    stays 200 (the process still serves)."""
    pg = PostgresServer()
    url = pg.start()
    try:
        with running_server(tmp_path, db_url=url) as srv:
            assert http("GET", srv.url + "/readyz") == (200, {"status": "ready"})
            pg.stop()
            answers: list[tuple[int, Any]] = []

            def not_ready() -> bool:
                answers.append(http("GET", srv.url + "/readyz"))
                return answers[-1][0] == 503

            poll(not_ready, what="/readyz answering 503")
            body = answers[-1][1]
            assert body["status"] == "not ready" and body["reason"] == "store", body
            assert url not in json.dumps(body) and "127.0.0.1" not in json.dumps(body)
            assert http("GET", srv.url + "/healthz") == (200, {"status": "ok"})
    finally:
        pg.stop()


def test_readiness_rules() -> None:
    """Draining is not ready (without asking the store); a store that fails or hangs is not
    ready; an answer is reused for the TTL and probes meanwhile share one query."""
    calls: list[int] = []
    mode = {"store": "ok", "draining": False}

    async def ping() -> None:
        calls.append(1)
        if mode["store"] == "down":
            raise ConnectionRefusedError("no")
        if mode["store"] == "hangs":
            await asyncio.sleep(60)
        await asyncio.sleep(0.01)

    async def scenario() -> None:
        ready = Readiness(ping, lambda: bool(mode["draining"]), ttl=60.0, timeout=0.2)
        answers = await asyncio.gather(*(ready.check() for _ in range(10)))
        assert answers == [Verdict(True)] * 10 and len(calls) == 1  # one query for them all
        assert await ready.check() == Verdict(True) and len(calls) == 1  # reused within the TTL
        mode["draining"] = True
        assert await ready.check() == Verdict(False, "draining")
        mode["draining"] = False

        down = Readiness(ping, lambda: False, ttl=0.0, timeout=0.2)
        mode["store"] = "down"
        verdict = await down.check()
        assert verdict == Verdict(False, "store", "ConnectionRefusedError")
        assert verdict.body() == {
            "status": "not ready",
            "reason": "store",
            "detail": "ConnectionRefusedError",
        }
        mode["store"] = "hangs"
        assert (await down.check()).reason == "store"  # the timeout, not a hang
        mode["store"] = "ok"
        assert await down.check() == Verdict(True)  # back as soon as the store answers

    asyncio.run(scenario())


def test_probes_answer_before_the_app_and_head_has_no_body() -> None:
    """The probes middleware answers its two paths itself (GET and HEAD; HEAD without a body,
    a 503 for a server not ready) and hands every other request to the app."""
    reached: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])

    async def ask(probes: Probes, method: str, path: str) -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []

        async def send(message: Any) -> None:
            sent.append(message)

        async def receive() -> Any:
            return {"type": "http.request", "body": b""}

        scope = {"type": "http", "method": method, "path": path, "headers": []}
        await probes(scope, receive, send)
        return sent

    async def ok() -> None:
        return None

    async def scenario() -> None:
        draining = {"on": False}
        probes = Probes(app, Readiness(ok, lambda: draining["on"], ttl=0.0))
        sent = await ask(probes, "GET", "/healthz")
        assert sent[0]["status"] == 200 and json.loads(sent[1]["body"]) == {"status": "ok"}
        sent = await ask(probes, "HEAD", "/readyz")
        assert sent[0]["status"] == 200 and sent[1]["body"] == b""
        draining["on"] = True
        sent = await ask(probes, "GET", "/readyz")
        assert sent[0]["status"] == 503
        assert json.loads(sent[1]["body"]) == {"status": "not ready", "reason": "draining"}
        assert reached == []
        await ask(probes, "POST", "/healthz")
        await ask(probes, "GET", "/api/levels")
        assert reached == ["/healthz", "/api/levels"]

    asyncio.run(scenario())


def test_the_app_drains_when_it_stops(tmp_path: Path) -> None:
    """The app's manager is not draining while it runs, and is from its shutdown on: its
    ``/readyz`` then answers 503 ``draining``."""
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 's.db'}", ServerSettings(ai_workers=0))
    manager = app.state.manager

    async def readyz() -> tuple[int, dict[str, Any]]:
        sent: list[dict[str, Any]] = []

        async def send(message: Any) -> None:
            sent.append(message)

        async def receive() -> Any:
            return {"type": "http.request", "body": b""}

        scope = {"type": "http", "method": "GET", "path": "/readyz", "headers": []}
        await app(scope, receive, send)
        return sent[0]["status"], json.loads(sent[1]["body"])

    async def scenario() -> None:
        async with app.router.lifespan_context(app):
            assert manager.draining is False
            assert await readyz() == (200, {"status": "ready"})
        assert manager.draining is True
        assert await readyz() == (503, {"status": "not ready", "reason": "draining"})

    asyncio.run(scenario())


# -- /metrics --------------------------------------------------------------------------------


def test_chooser_names_who_chose_an_action() -> None:
    """The action counter's label: the person, the clock, or an AI (a seat's or a stand-in)."""
    assert chooser(True, None) == "person"
    assert chooser(False, CLOCK) == "clock"
    assert chooser(False, stand_in("casual")) == "ai"
    assert chooser(False, None) == "ai"


def test_each_metrics_has_its_own_registry() -> None:
    """Two servers in one process count apart (no global registry)."""
    one, two = Metrics(), Metrics()
    one.acted(True, None, time.perf_counter())
    one.refused("stale")
    assert b'cardtable_actions_total{chooser="person"} 1.0' in one.render()
    assert b'cardtable_actions_total{chooser="person"} 0.0' in two.render()
    assert b'code="stale"' not in two.render()


def test_metrics_move_with_real_play(tmp_path: Path) -> None:
    """On a real server: a person's action and the AI's decisions count (the action counter,
    the latency histogram, the AI histogram), an open WebSocket shows while it is open, a
    refused message counts under its code and refused requests under 403 and 429 — and the
    page names no card, token, room id or name."""
    args = ["--rate-rooms", "2", "--tarpit", "0"]
    with running_server(tmp_path, ai_workers=0, extra_args=args) as srv:
        _, before = metrics_of(srv)
        assert sample(before, "cardtable_actions_total", chooser="person") == 0
        room = create_room(srv, "kaboo", ["human", "expert"], name="Table of Ops")
        client = Client(srv, room["room"], room["token"])
        try:
            client.join()
            _, now = metrics_of(srv)
            assert sample(now, "cardtable_websocket_connections") == 1
            assert sample(now, "cardtable_rooms", state="playing") == 1

            bad = client.request(
                type="act", room=room["room"], token="x" * 20, action="draw", version=0
            )
            assert bad["type"] == "error" and bad["code"] == "bad_token"

            # the person plays until they have acted and the expert AI has decided once (in
            # the search pool)
            rng, acted = random.Random(5), 0
            deadline = time.monotonic() + 60
            while (
                acted < 1 or sample(metrics_of(srv)[1], "cardtable_ai_decision_seconds_count") < 1
            ):
                assert time.monotonic() < deadline, "no AI decision was counted"
                client.drain()
                state = client.state
                if state is None or not client.my_turn() or state["view"]["over"]:
                    client.recv(0.1)
                    continue
                answer = client.act(rng.choice(state["view"]["legal"]))
                acted += answer["type"] == "state"
            text, after = metrics_of(srv)
            person = sample(after, "cardtable_actions_total", chooser="person")
            ai = sample(after, "cardtable_actions_total", chooser="ai")
            assert person == acted
            assert sample(after, "cardtable_action_broadcast_seconds_count") == person + ai
            assert sample(after, "cardtable_refusals_total", code="bad_token", status="") == 1

            for secret in (room["token"], room["room"], "Table of Ops"):
                assert secret not in text
            assert not card_codes(text)
            for family in text_string_to_metric_families(text):
                for s in family.samples:
                    assert set(s.labels) <= ALLOWED_LABELS, s
        finally:
            client.close()
        poll(
            lambda: sample(metrics_of(srv)[1], "cardtable_websocket_connections") == 0,
            what="the closed connection leaving the gauge",
        )

        # refused requests: another site's (403) and one over the quota of new rooms (429)
        status, _ = _post_from(srv.url + "/api/rooms", "http://evil.example")
        assert status == 403
        statuses = [
            http("POST", srv.url + "/api/rooms", {"game": "kaboo", "seats": _two_ai()})[0]
            for _ in range(3)
        ]
        assert 429 in statuses
        _, refused = metrics_of(srv)
        assert sample(refused, "cardtable_refusals_total", code="forbidden", status="403") == 1
        assert sample(
            refused, "cardtable_refusals_total", code="rate_limited", status="429"
        ) == statuses.count(429)


def _two_ai() -> list[dict[str, str]]:
    return [{"type": "ai", "level": "casual"}, {"type": "ai", "level": "casual"}]


def _post_from(url: str, origin: str) -> tuple[int, bytes]:
    import urllib.error
    import urllib.request

    body = json.dumps({"game": "kaboo", "seats": _two_ai()}).encode()
    req = urllib.request.Request(url, data=body, method="POST")
    req.add_header("content-type", "application/json")
    req.add_header("origin", origin)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


# -- JSON logs -------------------------------------------------------------------------------


def _record(**fields: Any) -> logging.LogRecord:
    record = logging.LogRecord("cardtable.web", logging.WARNING, __file__, 1, "x", (), None)
    record.__dict__.update(fields)
    return record


def test_json_formatter_fields() -> None:
    """A record is one JSON line: time, level, logger, message, the room and seat a call gives,
    an access line's fields, and the traceback of an exception."""
    fmt = JsonFormatter()
    rec = logging.LogRecord(
        "cardtable.web", logging.INFO, __file__, 1, "room %s: seat %d", ("r1", 2), None
    )
    rec.__dict__.update(room="r1", seat=2)
    line = fmt.format(rec)
    assert "\n" not in line
    out = json.loads(line)
    assert out["level"] == "INFO" and out["logger"] == "cardtable.web"
    assert out["message"] == "room r1: seat 2" and out["room"] == "r1" and out["seat"] == 2
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", out["time"])
    assert "seat" not in json.loads(fmt.format(_record(room="r2")))

    access = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/healthz", "1.1", 200),
        None,
    )
    got = json.loads(fmt.format(access))
    assert got["method"] == "GET" and got["path"] == "/healthz" and got["status"] == 200

    try:
        raise ValueError("boom")
    except ValueError:
        failed = logging.LogRecord(
            "cardtable.web", logging.ERROR, __file__, 1, "failed", (), sys.exc_info()
        )
    got = json.loads(fmt.format(failed))
    assert "ValueError: boom" in got["exc"] and "\n" not in fmt.format(failed)


def test_json_log_config_covers_uvicorn_and_the_server() -> None:
    """The configuration sends uvicorn's error and access logs, the server's and the rest
    through the JSON formatter, at the level asked for."""
    config = json_log_config("info")
    assert config["formatters"]["main"]["()"].endswith("JsonFormatter")
    for name in ("uvicorn", "uvicorn.access", "cardtable"):
        assert config["loggers"][name]["handlers"] == ["main"]
        assert config["loggers"][name]["level"] == "INFO"
    assert config["root"]["handlers"] == ["main"]


def _walk_cards(frames: list[dict[str, Any]]) -> set[str]:
    """Every card code the frames carry (in views, events and their words)."""
    out: set[str] = set()
    for frame in frames:
        for text in strings_in(frame):
            out |= card_codes(text)
    return out


def _bounded(code: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9A-Za-z]){re.escape(code)}(?![0-9A-Za-z])")


@pytest.fixture
def json_server(tmp_path: Path) -> Iterator[Server]:
    """A server logging JSON lines at info (access lines and room events included), whose
    quick-play tables fill with AI players at once."""
    args = ["--log-format", "json", "--log-level", "info", "--quickplay-wait", "0"]
    with running_server(tmp_path, ai_workers=0, extra_args=args) as srv:
        yield srv


def test_json_logs_of_real_games_name_no_card_nor_token(json_server: Server) -> None:
    """Games played through the real server with ``--log-format json``: every line of its log
    is a JSON object with time, level, logger and message; the room's lines carry its id; and
    no line holds a token of the games, nor any card code the games dealt."""
    srv = json_server
    rng = random.Random(27)
    rooms: list[str] = []
    tokens: list[str] = []
    frames: list[dict[str, Any]] = []
    for game in ("kaboo", "cabo"):
        status, seat = http("POST", srv.url + "/api/quickplay", {"game": game, "name": "Ann"})
        assert status == 200, seat
        rooms.append(seat["room"])
        tokens.append(seat["token"])
        client = Client(srv, seat["room"], seat["token"])
        try:
            client.join()
            client.send(
                type="act", room=seat["room"], token="not-" + seat["token"], action="x", version=0
            )
            drive([client], rng)
            # the seat's own replay (its token in a header)
            get(
                f"{srv.url}/api/rooms/{seat['room']}/games/1?seat={seat['seat']}",
                {"X-Seat-Token": seat["token"]},
            )
            client.drain(0.2)
        finally:
            client.close()
        frames += client.frames
    srv.stop()

    dealt = _walk_cards(frames)
    assert len(dealt) >= 8, dealt  # the games' cards did reach the player
    lines = [line for line in srv.log().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is JSON
    for rec in records:
        assert isinstance(rec, dict)
        assert {"time", "level", "logger", "message"} <= set(rec), rec
    loggers = {r["logger"] for r in records}
    assert {"uvicorn.error", "uvicorn.access", "cardtable.web"} <= loggers, loggers
    assert any(r.get("path") == "/api/quickplay" for r in records)
    assert {r.get("room") for r in records} >= set(rooms)  # the rooms' own lines say which

    patterns = [_bounded(code) for code in sorted(dealt)]
    for rec in records:
        for text in strings_in(rec):
            for token in tokens:
                assert token not in text, rec
            for room_id in rooms:  # a room id may hold two letters that look like a card
                text = text.replace(room_id, " ")
            for pattern in patterns:
                assert not pattern.search(text), (pattern.pattern, rec)
