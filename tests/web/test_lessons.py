"""Guided lessons over HTTP (``cardtable.web.lessons``): the kaboo lesson played to its end
through the API, a wrong move explained and a refused one answered with nothing changed, never a
card of the other seat the learner was not shown, the words in German, the runs forgotten after
their idle time on the injected clock or when too many are kept, and every bad request answered
with a clear 4xx.

In process: requests go through the ASGI app that ``create_app`` builds (its middleware
included), no server and no HTTP library.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.catalog import language, say
from cardtable.game import Game
from cardtable.learn.lessons import available, load
from cardtable.web.app import create_app
from cardtable.web.clock import ManualClock
from cardtable.web.lessons import IDLE_SECONDS, MAX_ACTION_CHARS, Lessons
from cardtable.web.settings import ServerSettings

Json = Any

CODE = re.compile(r'"((?:10|[2-9AJQK])[CDHS])"|\[((?:10|[2-9AJQK])[CDHS])\]')
"""A card code as a JSON string value, or as a token in words (``[7H]``)."""


class Asgi:
    """Requests to an ASGI app, each run to its end (no server, no HTTP client library)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def request(
        self,
        method: str,
        path: str,
        body: Json = None,
        *,
        raw: bytes | None = None,
        accept: str = "application/json",
    ) -> tuple[int, Json]:
        """One request; the status and the answer (decoded JSON, else the text)."""
        data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
        path, _, query = path.partition("?")
        headers = [(b"host", b"test"), (b"accept", accept.encode())]
        if data:
            headers += [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
            ]
        sent: list[dict[str, Any]] = []
        chunks = [{"type": "http.request", "body": data, "more_body": False}]

        async def receive() -> dict[str, Any]:
            if chunks:
                return chunks.pop(0)
            await asyncio.Event().wait()  # the client stays until the answer is sent
            raise AssertionError("unreachable")

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 1),
            "server": ("test", 80),
        }
        asyncio.run(self.app(scope, receive, send))
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        payload = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, payload.decode("utf-8", "replace")

    def start(self, game: str = "kaboo", lang: str | None = None) -> Json:
        query = f"?lang={lang}" if lang else ""
        status, state = self.request("POST", f"/api/lessons/{game}{query}")
        assert status == 201, state
        return state

    def move(self, lesson: str, action: str) -> Json:
        status, state = self.request("POST", f"/api/lessons/{lesson}/move", {"action": action})
        assert status == 200, state
        return state

    def next(self, lesson: str) -> Json:
        status, state = self.request("POST", f"/api/lessons/{lesson}/next")
        assert status == 200, state
        return state


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Asgi]:
    """The web app (its store never opened: lessons need none), its lessons on a clock that
    moves only when a test says."""
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'web.db'}", ServerSettings(ai_workers=0))
    app.state.lessons = Lessons(ManualClock())
    yield Asgi(app)


def lessons_of(web: Asgi) -> Lessons:
    lessons = web.app.state.lessons
    assert isinstance(lessons, Lessons)
    return lessons


def hidden_from(game: Game, seat: int) -> set[str]:
    """The cards of the true game that ``seat`` has not been shown: the other hands' cards it
    does not know (perfect memory: it may have seen one once), the face-down pile, and a card
    another seat holds after drawing it."""
    g: Any = game
    known = game.knowledge(seat)
    assert known is not None
    hidden = {g.codes[c] for c in g.deck}
    if game.over:
        return hidden
    for s, hand in enumerate(g.hands):
        for p, card in enumerate(hand):
            if card >= 0 and known[s][p] < 0:
                hidden.add(g.codes[card])
    if g.drawn >= 0 and g.turn != seat:
        hidden.add(g.codes[g.drawn])
    return hidden


def codes_in(state: Json) -> set[str]:
    """Every card code the state names, as a value or in words."""
    return {a or b for a, b in CODE.findall(json.dumps(state))}


def step_on(web: Asgi, state: Json) -> Json:
    """The next step: gone on from a step to read, or the move the step asks for played."""
    if state["step"]["reading"]:
        return web.next(state["id"])
    return web.move(state["id"], lessons_of(web).get(state["id"]).run.expected()[0])


def same_table(a: Json, b: Json) -> None:
    """Nothing changed: the same table, step and moves (the outcome aside)."""
    for key in ("view", "step", "moves", "waiting", "events", "done"):
        assert a[key] == b[key], key


# ---------------------------------------------------------------------------- the lesson
def test_the_kaboo_lesson_is_played_to_its_end_over_http(web: Asgi) -> None:
    state = web.start("kaboo")
    lesson = state["id"]
    run = lessons_of(web).get(lesson).run
    game, me = run.game, state["seat"]
    steps = len(load("kaboo").steps)
    assert state["game"] == "kaboo" and state["title"] == "Kaboo"
    assert state["heading"] == "Learning Kaboo" and state["lang"] == "en"
    assert state["step"] == {
        "number": 1,
        "count": steps,
        "progress": f"step 1 of {steps}",
        "words": run.words,
        "reading": True,
    }
    assert state["names"] == ["you", "Opponent"]
    assert not state["waiting"] and state["moves"] == [] and state["outcome"] is None
    # the deal: the learner's first sight of its bottom row, and only its own
    said = [e["said"]["text"] for e in state["events"]]
    assert "you peeked at your card 2" in said and "Opponent peeked at their card 3" in said
    peeks = [e for e in state["events"] if e["type"] == "peek" and e["seat"] == me]
    assert [(e["at"], e["card"]) for e in peeks] == [("0.2", "9H"), ("0.3", "KS")]
    assert not {"AS", "JH", "10D", "8S"} & codes_in(state)  # the other seat's cards
    assert state["view"] == game.view(me, memory=False)

    wrong_seen = refused_seen = 0
    played: list[str] = []
    while not state["done"]:
        assert not codes_in(state) & hidden_from(game, me), state["step"]
        assert state["view"] == game.view(me, memory=False)
        assert state["result"] is None or state["view"]["over"]
        number = state["step"]["number"]
        if state["step"]["reading"]:
            # a move on a step to read is not played
            if game.legal_actions(me):
                answer = web.move(lesson, str(game.legal_actions(me)[0]))
                assert answer["outcome"]["kind"] == "read" and not answer["outcome"]["accepted"]
                same_table(answer, state)
            state = web.next(lesson)
            assert state["step"]["number"] == number + 1
            assert state["outcome"]["kind"] == "read" and state["outcome"]["accepted"]
            continue
        assert state["waiting"]
        legal = [str(a) for a in game.legal_actions(me)]
        assert [m["action"] for m in state["moves"]] == legal
        assert all(m["words"] and m["words"] != m["action"] for m in state["moves"])
        expected = run.expected()
        # a legal move the step does not ask for: explained, not played
        other = next((a for a in legal if a not in expected), None)
        if other is not None:
            answer = web.move(lesson, other)
            outcome = answer["outcome"]
            assert outcome["kind"] == "wrong" and not outcome["accepted"]
            words = next(m["words"] for m in state["moves"] if m["action"] == other)
            assert outcome["move"] == words and outcome["action"] == other
            assert outcome["text"].startswith(f"Not this move ({words}):")
            assert len(outcome["text"]) > len(f"Not this move ({words}):") + 10
            same_table(answer, state)
            wrong_seen += 1
        # a move the game refuses: its reason, nothing changed
        answer = web.move(lesson, "peek 9")
        assert answer["outcome"]["kind"] == "refused"
        assert answer["outcome"]["text"].startswith("Not this move:")
        same_table(answer, state)
        refused_seen += 1
        # the move the step asks for
        state = web.move(lesson, expected[0])
        played.append(expected[0])
        assert state["outcome"]["kind"] == "played" and state["outcome"]["accepted"]
        assert state["outcome"]["text"] == ""
        assert state["step"]["number"] == number + 1
        assert state["events"] and state["events"][0]["seat"] == me
        assert all(e["said"]["text"] for e in state["events"])
    assert wrong_seen >= 10 and refused_seen >= 10
    assert played[:3] == ["draw deck", "replace 2", "draw discard"] and "knock" in played
    assert state["step"]["number"] == steps and state["final"] == "beginner"
    assert state["view"]["over"] and not state["waiting"] and state["moves"] == []
    mine, theirs = state["view"]["totals"]
    assert state["result"] == ("You win!" if mine < theirs else "Opponent wins.")
    # at the end nothing more happens
    again = web.next(lesson)
    assert not again["outcome"]["accepted"]
    same_table(again, state)
    status, got = web.request("GET", f"/api/lessons/{lesson}")
    assert status == 200
    same_table(got, state)


def test_what_the_learner_sees_at_the_moment_is_shown_and_the_words_keep_the_secret(
    web: Asgi,
) -> None:
    """A peek shows its card in the event, as the live table does for a seat without memory aid;
    the words say only that it was seen, and the view never holds it."""
    state = web.start("kaboo")
    lesson = state["id"]
    run = lessons_of(web).get(lesson).run
    while state["step"]["number"] < 8:  # the step that peeks at card 1
        state = (
            web.next(lesson) if state["step"]["reading"] else web.move(lesson, run.expected()[0])
        )
    assert run.expected() == ["peek 1"]
    state = web.move(lesson, "peek 1")
    peek = state["events"][0]
    assert (peek["type"], peek["at"], peek["card"]) == ("peek", "0.1", "QD")
    assert "QD" not in peek["said"]["text"]
    assert state["view"]["hands"][0][1]["card"] is None
    # the spy on the other seat shows that card to the learner alone, at that moment
    while run.expected() != ["spy 1.0", "spy 1.1", "spy 1.2", "spy 1.3"]:
        state = (
            web.next(lesson) if state["step"]["reading"] else web.move(lesson, run.expected()[0])
        )
    state = web.move(lesson, "spy 1.3")
    spy = state["events"][0]
    assert spy["type"] == "spy" and spy["card"]
    assert not codes_in(state) & hidden_from(run.game, 0)


def test_the_lesson_speaks_german_when_asked(web: Asgi) -> None:
    state = web.start("kaboo", lang="de")
    lesson = state["id"]
    run = lessons_of(web).get(lesson).run
    with language("de"):
        assert state["step"]["words"] == run.phrase("learn.kaboo.welcome")
        assert state["heading"] == say("learn.title", game="Kaboo")
        assert state["step"]["progress"] == say("learn.progress", n=1, total=len(run.lesson.steps))
    assert state["lang"] == "de" and state["names"] == ["du", "Gegner"]
    assert state["step"]["words"] != load("kaboo").start().words  # not the English
    state = web.next(lesson)
    assert state["moves"][0]["action"] == "draw deck"
    with language("de"):
        assert state["moves"][0]["words"] == say("move.draw.deck")
    answer = web.move(lesson, "knock")
    with language("de"):
        head = say("learn.ui.not_this_move", move=say("move.call", word="Knock"))
        assert answer["outcome"]["text"].startswith(head + " ")
    state = web.move(lesson, "draw deck")
    said = state["events"][0]["said"]["text"]
    assert said and "drew" not in said
    # a later request may switch the language; the run keeps it
    status, english = web.request("GET", f"/api/lessons/{lesson}?lang=en")
    assert status == 200 and english["lang"] == "en"
    assert english["step"]["words"] == load("kaboo").start().phrase("learn.kaboo.replace")
    assert web.next(lesson)["lang"] == "en"


def test_every_game_with_a_lesson_is_listed_and_starts(web: Asgi) -> None:
    status, listed = web.request("GET", "/api/lessons")
    assert status == 200
    assert [g["game"] for g in listed] == available()
    assert {g["game"]: g["title"] for g in listed}["kaboo"] == "Kaboo"
    for entry in listed:
        state = web.start(entry["game"])
        assert state["title"] == entry["title"] and state["step"]["number"] == 1
        assert not codes_in(state) & hidden_from_any(web, state)


def hidden_from_any(web: Asgi, state: Json) -> set[str]:
    """The cards the learner of ``state`` has not been shown (any game: the Cabo family's
    internals, Qute's other hands and blind by its seats' views)."""
    game = lessons_of(web).get(state["id"]).run.game
    if hasattr(game, "known"):
        return hidden_from(game, state["seat"])
    seat = state["seat"]
    others = {c for s in range(game.players) if s != seat for c in game.view(s)["hand"]}
    return others


def test_the_pages_are_served(web: Asgi) -> None:
    for path in ("/learn", "/learn/kaboo"):
        status, body = web.request("GET", path, accept="text/html")
        assert status == 200 and "/static/learn.js" in body


# ---------------------------------------------------------------------------- keeping runs
def test_a_lesson_is_forgotten_after_its_idle_time_on_the_clock(web: Asgi) -> None:
    clock = ManualClock()
    web.app.state.lessons = Lessons(clock, idle=600.0)
    lesson = web.start()["id"]
    clock.advance(599.0)
    assert web.request("GET", f"/api/lessons/{lesson}")[0] == 200  # used: the time starts again
    clock.advance(599.0)
    assert web.next(lesson)["step"]["number"] == 2
    clock.advance(600.0)
    status, answer = web.request("GET", f"/api/lessons/{lesson}")
    assert status == 404
    assert "start the lesson again" in answer["detail"] and lesson in answer["detail"]
    assert len(lessons_of(web)) == 0


def test_the_lesson_used_longest_ago_goes_first_when_too_many_are_kept(web: Asgi) -> None:
    web.app.state.lessons = Lessons(ManualClock(), capacity=2)
    first, second = web.start()["id"], web.start()["id"]
    web.request("GET", f"/api/lessons/{first}")  # the first is used again: the second is older
    third = web.start()["id"]
    assert web.request("GET", f"/api/lessons/{second}")[0] == 404
    assert web.request("GET", f"/api/lessons/{first}")[0] == 200
    assert web.request("GET", f"/api/lessons/{third}")[0] == 200
    assert len(lessons_of(web)) == 2


def test_one_address_cannot_push_out_the_lessons_of_others(web: Asgi) -> None:
    lessons = Lessons(ManualClock(), capacity=10, per_client=2)
    web.app.state.lessons = lessons
    theirs, _ = lessons.start("kaboo", client="192.0.2.7")
    first, second = web.start()["id"], web.start()["id"]
    for _ in range(5):
        third = web.start()["id"]  # each forgets the oldest of this address alone
    assert len(lessons) == 3
    assert web.request("GET", f"/api/lessons/{first}")[0] == 404
    assert web.request("GET", f"/api/lessons/{second}")[0] == 404
    assert web.request("GET", f"/api/lessons/{third}")[0] == 200
    assert web.request("GET", f"/api/lessons/{theirs}")[0] == 200


def test_the_default_idle_time_is_hours() -> None:
    assert IDLE_SECONDS >= 3600


# ---------------------------------------------------------------------------- bad requests
def test_an_unknown_lesson_is_a_clear_404(web: Asgi) -> None:
    for method, path in (
        ("GET", "/api/lessons/nope"),
        ("POST", "/api/lessons/nope/next"),
    ):
        status, answer = web.request(method, path)
        assert status == 404 and "there is no lesson 'nope'" in answer["detail"], answer
    status, answer = web.request("POST", "/api/lessons/nope/move", {"action": "draw deck"})
    assert status == 404 and "start the lesson again" in answer["detail"]


def test_an_unknown_game_or_language_is_refused(web: Asgi) -> None:
    status, answer = web.request("POST", "/api/lessons/poker")
    assert status == 404 and "unknown game 'poker'" in answer["detail"]
    status, answer = web.request("POST", "/api/lessons/kaboo?lang=xx")
    assert status == 400 and "'xx'" in answer["detail"] and "en, de" in answer["detail"]
    assert len(lessons_of(web)) == 0
    lesson = web.start()["id"]
    status, answer = web.request("GET", f"/api/lessons/{lesson}?lang=klingon")
    assert status == 400 and "klingon" in answer["detail"]
    assert lessons_of(web).get(lesson).lang == "en"


def test_bad_bodies_are_refused_and_change_nothing(web: Asgi) -> None:
    state = web.next(web.start()["id"])  # waits for "draw deck"
    lesson = state["id"]
    move = f"/api/lessons/{lesson}/move"
    bad: list[tuple[bytes, int]] = [
        (b"{not json", 422),
        (b'"draw deck"', 422),
        (b"{}", 422),
        (b'{"action": 3}', 422),
        (b'{"action": ""}', 422),
        (b'{"action": "draw deck", "seat": 1}', 422),
        (json.dumps({"action": "x" * (MAX_ACTION_CHARS + 1)}).encode(), 422),
        (json.dumps({"action": "draw deck", "pad": "x" * 20_000}).encode(), 413),
    ]
    for raw, code in bad:
        status, answer = web.request("POST", move, raw=raw)
        assert status == code, (raw[:40], answer)
        assert answer["detail"], answer
        assert "x" * 100 not in json.dumps(answer)  # nothing long is echoed
    status, now = web.request("GET", f"/api/lessons/{lesson}")
    assert status == 200 and now["outcome"] == state["outcome"]
    same_table(now, state)
    # a move that is no move at all is the game's refusal, in words
    answer = web.move(lesson, "fly away")
    assert answer["outcome"]["kind"] == "refused" and answer["outcome"]["text"]
    same_table(answer, state)
