"""Reviews and open hands in the browser's API, in process: the application of ``create_app``
run in the test's own event loop (its lifespan entered by hand, requests given to it as ASGI
calls), on a SQLite store in the test's folder, with AI seats that play their games at once.

``GET /api/rooms/{room}/games/{n}/review?seat=N&lang=xx``: refused for an unknown room, game
or seat and for a game in play; ``202`` with the progress while the review is computed, then
the same numbers as :func:`cardtable.learn.review.review` of the stored game with the same
deals and seed, in English or German; asked again, from the kept review.
``GET /api/rooms/{room}/games/{n}/open``: every hand at every step, with what each seat knew,
only for a finished game.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi import FastAPI, HTTPException

from cardtable import variants
from cardtable.catalog import language, say
from cardtable.learn import review as learn_review
from cardtable.store import Store
from cardtable.web import reviews as web_reviews
from cardtable.web.app import create_app
from cardtable.web.reviews import ReviewService, ReviewSource
from cardtable.web.rooms import RoomManager

from .inprocess import IN_PROCESS, until

SAMPLES = 6
"""Deals per decision in these tests (the server's default is 200)."""

SETTINGS = dataclasses.replace(IN_PROCESS, ai_delay=0.0)
"""AI seats play at once."""


# -- an in-process client -------------------------------------------------------------------


async def get(
    app: FastAPI, url: str, headers: Mapping[str, str] | None = None
) -> tuple[int, dict[str, str], Any]:
    """One GET through the application's ASGI interface: status, headers (lower-case names)
    and the body read as JSON."""
    parts = urlsplit(url)
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": parts.path,
        "raw_path": parts.path.encode(),
        "query_string": parts.query.encode(),
        "root_path": "",
        "headers": [(b"host", b"testserver")]
        + [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    sent = False
    status = 0
    head: dict[str, str] = {}
    body = b""

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # never: the request has no more body
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, body
        if message["type"] == "http.response.start":
            status = message["status"]
            head.update({k.decode().lower(): v.decode() for k, v in message["headers"]})
        elif message["type"] == "http.response.body":
            body += message.get("body", b"")

    await app(scope, receive, send)
    return status, head, json.loads(body) if body else None


@asynccontextmanager
async def served(tmp: Path, reviews: ReviewService) -> AsyncIterator[FastAPI]:
    """The application on a fresh SQLite store in ``tmp``, started and stopped."""
    app = create_app(f"sqlite+aiosqlite:///{tmp / 'cardtable.db'}", SETTINGS, reviews)
    async with app.router.lifespan_context(app):
        yield app


async def finished_room(app: FastAPI, game: str = "kaboo", seed_hint: int = 0) -> str:
    """A room of two ``random`` AI seats (without the memory aid) whose one game is over."""
    manager: RoomManager = app.state.manager
    store: Store = app.state.store
    room, _, _ = await manager.create(
        game,
        [("ai", "random", False), ("ai", "random", False)],
        players=2,
        options={"target": None} if game != "qute" else {"target": 30},
        name=f"review {seed_hint}",
    )
    finished: list[bool] = []

    async def check() -> None:
        games = await store.games(room.id)
        finished[:] = [bool(games) and games[0].finished is not None]

    async def done() -> bool:
        await check()
        return bool(finished and finished[0])

    for _ in range(4000):
        if await done():
            return room.id
        await asyncio.sleep(0.005)
    raise AssertionError("the AI seats did not finish their game")


async def stored_log(app: FastAPI, room: str, game_no: int = 1) -> dict[str, Any]:
    """The game's log as ``Game.log`` gives it, read from the store."""
    store: Store = app.state.store
    row = next(g for g in await store.games(room) if g.game_no == game_no)
    stored = await store.room(room)
    assert stored is not None
    actions = await store.actions(room, game_no)
    return {
        "game": stored.game,
        "players": stored.players,
        "seed": row.seed,
        "options": dict(stored.options),
        "actions": [[a.seat, a.action] for a in actions],
    }


async def ready(app: FastAPI, url: str) -> dict[str, Any]:
    """The review at ``url`` once it is ready (waiting for the review under way, not asking
    again and again)."""
    status, _, body = await get(app, url)
    reviews: ReviewService = app.state.reviews
    if status == 202:
        await until(reviews.idle)
        status, _, body = await get(app, url)
    assert status == 200, body
    assert body["status"] == "ready"
    return body


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


# -- refusals -------------------------------------------------------------------------------


def test_refused_for_unknown_rooms_games_seats_and_games_in_play(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served(tmp_path, ReviewService(0, samples=SAMPLES)) as app:
            manager: RoomManager = app.state.manager
            status, _, body = await get(app, "/api/rooms/nosuchroom/games/1/review?seat=0")
            assert status == 404, body
            status, _, body = await get(app, "/api/rooms/nosuchroom/games/1/open")
            assert status == 404, body
            # a person's seat is taken: the game is dealt and waits for that person's move
            live, _, _ = await manager.create(
                "kaboo", [("human", None, False), ("ai", "random", False)], players=2
            )
            base = f"/api/rooms/{live.id}/games"
            for n in (0, 2, 10**6):
                status, _, body = await get(app, f"{base}/{n}/review?seat=0")
                assert status == 404, body
                status, _, body = await get(app, f"{base}/{n}/open")
                assert status == 404, body
            for query in ("seat=0", "seat=1", "seat=0&lang=de"):
                status, _, body = await get(app, f"{base}/1/review?{query}")
                assert status == 409, body
                assert "finished game" in body["detail"] and "in play" in body["detail"]
            status, _, body = await get(app, f"{base}/1/open")
            assert status == 409 and "finished game" in body["detail"], body
            for query in ("seat=2", "seat=-1", "", "seat=x", "seat=0&lang=fr"):
                status, _, body = await get(app, f"{base}/1/review?{query}")
                assert status == 422, (query, body)
            status, _, body = await get(app, f"{base}/1/open?lang=xx")
            assert status == 422, body
            reviews: ReviewService = app.state.reviews
            assert reviews.computed == 0  # nothing was started for any of them

    run(scenario)


# -- the review -----------------------------------------------------------------------------


def test_progress_then_the_same_numbers_as_the_review_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    real = learn_review.review

    def held(*args: Any, progress: Any = None, **kwargs: Any) -> learn_review.Review:
        """The real review, held after the seat's second move until the test lets it go."""

        def tell(done: int, total: int) -> None:
            progress(done, total)
            if done == 2:
                gate.wait(30)

        return real(*args, progress=tell, **kwargs)

    monkeypatch.setattr(web_reviews, "review", held)

    async def scenario() -> None:
        async with served(tmp_path, ReviewService(0, samples=SAMPLES, seed=3)) as app:
            for attempt in range(20):  # random seats may call the end at once: long enough
                room = await finished_room(app, "cabo", attempt)
                log = await stored_log(app, room)
                moves = sum(1 for s, _ in log["actions"] if s == 1)
                if moves >= 4:
                    break
            assert moves >= 4, log  # long enough to be seen under way
            url = f"/api/rooms/{room}/games/1/review?seat=1&lang=en"
            status, head, body = await get(app, url)
            assert status == 202, body
            assert body["total"] == moves and body["done"] in (0, 1, 2)
            assert head["retry-after"] == "1"
            reviews: ReviewService = app.state.reviews
            await until(lambda: any(p["done"] == 2 for p in reviews.under_way()))
            status, _, body = await get(app, url)
            assert status == 202
            assert {k: body[k] for k in ("status", "done", "total", "waiting")} == {
                "status": "running",
                "done": 2,
                "total": moves,
                "waiting": 0,
            }
            assert body["lang"] == "en" and body["text"]["running"].startswith("The search")
            gate.set()
            got = await ready(app, url)
            assert reviews.computed == 1

            expected = real(log, [1], samples=SAMPLES, seed=3, memory_aid=False)
            mine = expected.of(1)
            assert [
                {k: d[k] for k in ("index", "played", "best", "loss", "label")}
                for d in got["decisions"]
            ] == [j.as_json() for j in mine]
            names = ("Random AI 0", "Random AI 1")
            summary = next(s for s in expected.summaries if s.seat == 1)
            assert got["summary"] == summary.words(names)
            assert got["figures"]["decisions"] == summary.decisions
            assert got["figures"]["slips"] == summary.slips
            for d, j in zip(got["decisions"], mine, strict=True):
                assert d["words"] == j.words(names)
                assert d["slip"] == (j.slip.words(1, names) if j.slip else None)
                assert d["label_words"] == j.label
                assert d["unclear"] == (j.label is None and j.loss >= learn_review.INACCURACY)
                moves_shown = d["moves"]
                assert 1 <= len(moves_shown) <= web_reviews.TOP_MOVES + 1
                assert any(m["played"] for m in moves_shown)
                assert moves_shown[0]["loss"] == 0.0  # the best first
                by_action = {str(v.action): v for v in j.values}
                for m in moves_shown:
                    assert m["points"] == round(by_action[m["action"]].points, 2)
            assert got["game"] == "cabo" and got["seat"] == 1 and got["samples"] == SAMPLES
            assert got["memory_aid"] is False and got["lang"] == "en"
            assert got["text"]["decisions"] == "Decisions"

    run(scenario)


def test_german_words_and_the_kept_review(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served(tmp_path, ReviewService(0, samples=SAMPLES)) as app:
            room = await finished_room(app, seed_hint=1)
            reviews: ReviewService = app.state.reviews
            url = f"/api/rooms/{room}/games/1/review?seat=0"
            english = await ready(app, url)
            assert english["lang"] == "en" and reviews.computed == 1
            german = await ready(app, url + "&lang=de")
            assert reviews.computed == 1  # the same review, told in German
            assert german["lang"] == "de"
            assert "Entscheidungen" in german["summary"], german["summary"]
            # the AI seats named as the German page names them, not by their English label
            with language("de"):
                assert german["summary"].startswith(say("ui.seat.ai.random") + " 0:")
            with language("en"):
                assert english["summary"].startswith(say("ui.seat.ai.random") + " 0:")
            assert german["text"]["decisions"] == "Entscheidungen"
            assert [d["loss"] for d in german["decisions"]] == [
                d["loss"] for d in english["decisions"]
            ]
            for en, de in zip(english["decisions"], german["decisions"], strict=True):
                assert en["words"] != de["words"]
                if de["label"] is not None:
                    assert de["label_words"] in ("Ungenauigkeit", "Fehler", "Patzer")
            hits = reviews.hits
            status, _, again = await get(app, url + "&lang=de")
            assert status == 200 and again == german
            assert reviews.hits == hits + 1 and reviews.computed == 1
            # the browser's language when none is asked for
            status, _, told = await get(app, url, {"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"})
            assert status == 200 and told["lang"] == "de"
            assert reviews.computed == 1

    run(scenario)


def test_a_worker_process_gives_the_same_review(tmp_path: Path) -> None:
    """The server's way: the review in a worker process, its progress through the queue."""

    async def scenario() -> None:
        service = ReviewService(1, samples=SAMPLES, seed=2, nice=0)
        try:
            async with served(tmp_path, service) as app:
                room = await finished_room(app, "cabo", 2)
                log = await stored_log(app, room)
                url = f"/api/rooms/{room}/games/1/review?seat=0"
                status, _, body = await get(app, url)
                assert status == 202 and body["total"] > 0, body
                got = await ready(app, url)
                assert service.workers_seen() == 1  # the worker said hello through the queue
                expected = learn_review.review(log, [0], samples=SAMPLES, seed=2)
                assert [
                    {k: d[k] for k in ("index", "played", "best", "loss", "label")}
                    for d in got["decisions"]
                ] == [j.as_json() for j in expected.of(0)]
        finally:
            await service.close()

    run(scenario)


def test_too_many_reviews_at_once_are_refused() -> None:
    async def scenario() -> None:
        service = ReviewService(0, samples=SAMPLES, max_pending=1)
        game = variants.new_game("kaboo", players=2, seed=1, options={"target": None})
        log = {**game.log, "actions": []}

        async def source() -> ReviewSource:
            return ReviewSource(log, 0, False)

        first = await service.answer(("r", 1, 0), "en", source)
        assert isinstance(first, dict) and first["total"] == 0
        # the first is still pending (its task has not run): a second is refused
        with pytest.raises(HTTPException) as refused:
            await service.answer(("r", 2, 0), "en", source)
        assert refused.value.status_code == 503
        await until(service.idle)
        body = await service.answer(("r", 1, 0), "en", source)
        assert isinstance(body, bytes) and json.loads(body)["decisions"] == []
        await service.close()

    run(scenario)


# -- open hands -----------------------------------------------------------------------------


def test_open_hands_show_every_card_and_what_each_seat_knew(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with served(tmp_path, ReviewService(0, samples=SAMPLES)) as app:
            room = await finished_room(app, "cabo", 3)
            log = await stored_log(app, room)
            status, _, page = await get(app, f"/api/rooms/{room}/games/1/open?count=200")
            assert status == 200, page
            assert page["open"] is True and page["viewer"] is None
            steps = page["steps"]
            assert len(steps) == len(log["actions"]) == page["total"]
            game = variants.new_game(
                log["game"], players=log["players"], seed=log["seed"], options=log["options"]
            )

            def check(view: dict[str, Any]) -> None:
                for owner, hand in enumerate(view["hands"]):
                    for pos, cell in enumerate(hand):
                        if cell is not None:
                            assert cell["card"] == game.card_at(owner, pos)
                for seat in range(game.players):
                    knows = game.knowledge(seat)
                    assert knows is not None
                    expected = sorted(
                        f"{o}.{p}"
                        for o, row in enumerate(knows)
                        for p, c in enumerate(row)
                        if c >= 0
                    )
                    assert sorted(view["known"][seat]) == expected

            check(page["initial"])
            for (seat, action), step in zip(log["actions"], steps, strict=True):
                game.play(seat, action)
                if "end_view" in step:
                    end = step["end_view"]
                    assert all(len(k) == len(end["known"][0]) for k in end["known"])
                    continue
                check(step["view"])
            assert game.over
            # the same hands and knowledge the review module judged each decision from
            judged = learn_review.review(log, samples=2).judgements
            assert judged
            for j in judged:
                view = page["initial"] if j.index == 0 else steps[j.index - 1]["view"]
                assert [[c and c["card"] for c in hand] for hand in view["hands"]] == [
                    list(hand) for hand in j.hands
                ]
                marked = {
                    f"{o}.{p}"
                    for o, row in enumerate(j.known)
                    for p, knew in enumerate(row)
                    if knew
                }
                assert set(view["known"][j.seat]) == marked
            # the words of the events in the language asked for
            status, _, german = await get(app, f"/api/rooms/{room}/games/1/open?lang=de")
            assert status == 200 and german["lang"] == "de"
            said = [e["said"]["text"] for s in german["steps"] for e in s["view"]["events"]]
            assert any("Platz" in t or "hat" in t for t in said), said[:5]
            with language("de"):  # the AI seats named as the German page names them
                assert any(say("ui.seat.ai.random") in t for t in said), said[:5]
            assert not any("Random AI" in t for t in said), said[:5]

    run(scenario)


def test_the_server_s_service_from_the_environment() -> None:
    default = ReviewService.from_env({})
    assert (default.workers, default.samples) == (1, web_reviews.REVIEW_SAMPLES)
    assert default.nice == web_reviews.WORKER_NICE
    told = ReviewService.from_env(
        {
            "CARDTABLE_REVIEW_WORKERS": "2",
            "CARDTABLE_REVIEW_SAMPLES": "20",
            "CARDTABLE_REVIEW_NICE": "0",
        }
    )
    assert (told.workers, told.samples, told.nice) == (2, 20, 0)
    for bad in ({"CARDTABLE_REVIEW_SAMPLES": "many"}, {"CARDTABLE_REVIEW_SAMPLES": "1"}):
        with pytest.raises(ValueError):
            ReviewService.from_env(bad)
