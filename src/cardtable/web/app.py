"""The FastAPI application: HTTP endpoints, the WebSocket endpoint and the browser client.

``create_app`` builds the app around one store URL; ``cardtable serve`` runs it with uvicorn.
See docs/protocol.md for every endpoint and message.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import variants
from ..agents.registry import LEVELS, describe
from ..catalog import language, load_all, supported
from ..ratings import MU, POINTS_PER_MU, Rating, load_level_calibration, to_points
from ..store import Store
from ..store.db import DEFAULT_URL, GameRow
from ..text.presentation import served_details
from ..text.rules import plain_rules_page
from .accounts import COOKIE, Accounts, account_routes
from .cluster import Cluster
from .guard import (
    AllowedHosts,
    Guard,
    RateLimits,
    SameOrigin,
    SecurityHeaders,
    client_address,
    parse_origins,
)
from .health import Probes, Readiness, Unready
from .lessons import Lessons, lesson_routes
from .lobby import AI_ROOMS_RETRY
from .messages import add_messages, served_words, speaking
from .metrics import CONTENT_TYPE, Metrics, Refusals
from .movelog import Chosen, by_label
from .protocol import CreateRoom, JoinRoom, ProtocolError, QuickPlay, error, excerpt, parse_message
from .replays import (
    DEFAULT_COUNT,
    SEAT_TOKEN_HEADER,
    JSONBytes,
    Key,
    NotFinished,
    ReplayCache,
    ReplaySource,
    check_page,
    check_seat,
)
from .reviews import ReviewService, ReviewSource, page_text, pick_language
from .rooms import Conn, Room, RoomError, RoomManager
from .said import seat_names
from .settings import DEFAULTS, ServerSettings

__all__ = ["MAX_BODY_BYTES", "STATIC", "BodyLimit", "create_app"]

log = logging.getLogger("cardtable.web")

STATIC = Path(__file__).parent / "static"
"""The browser client's files."""

MAX_BODY_BYTES = 16 * 1024
"""Largest HTTP request body the server reads; a longer one is answered ``413``."""

_MAX_ERRORS = 10
"""Validation problems a ``422`` lists at most."""


class BodyLimit:
    """ASGI middleware: an HTTP request whose body is over ``limit`` bytes (by its
    ``content-length``, or as it arrives) is answered ``413`` with a short JSON ``detail``
    and never reaches the application (nor is any of it echoed)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def _refuse(self, send: Send) -> None:
        body = (
            b'{"detail":"the request body is over the limit of '
            + str(self.limit).encode()
            + b' bytes"}'
        )
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.limit + 1
                if declared > self.limit:
                    await self._refuse(send)
                    return
        # read the body (at most limit bytes) before the application sees any of it
        chunks: list[Message] = []
        size = 0
        while True:
            message = await receive()
            chunks.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            if chunks:
                return chunks.pop(0)
            return await receive()

        await self.app(scope, replay, send)


def _short_errors(exc: RequestValidationError) -> list[dict[str, object]]:
    """A validation failure as ``detail`` items that quote at most a short excerpt of the
    input: ``{"loc", "msg", "type", "input"?}``, ``input`` only for a scalar."""
    out: list[dict[str, object]] = []
    for err in list(exc.errors())[:_MAX_ERRORS]:
        item: dict[str, object] = {
            "loc": [p if isinstance(p, int) else excerpt(str(p), 40) for p in err.get("loc", ())][
                :8
            ],
            "msg": excerpt(str(err.get("msg", "")), 160),
            "type": excerpt(str(err.get("type", "")), 40),
        }
        value = err.get("input")
        if isinstance(value, str | int | float | bool) and err.get("type") != "json_invalid":
            item["input"] = excerpt(value, 80)
        out.append(item)
    return out


def _shown(rating: Rating) -> dict[str, int]:
    """A level's rating as the lobby shows it: points and interval."""
    low, high = rating.interval
    return {"rating": rating.points, "low": low, "high": high}


def create_app(
    db_url: str = DEFAULT_URL,
    settings: ServerSettings = DEFAULTS,
    reviews: ReviewService | None = None,
    redis_url: str | None = None,
) -> FastAPI:
    """The web application around the store at ``db_url``, run as ``settings`` say (its clocks,
    AI players, chat rate, the other origins whose pages may use it and its rate limits; see
    :class:`.settings.ServerSettings`), its game reviews computed by ``reviews`` (default: as
    :meth:`.reviews.ReviewService.from_env` says). With ``redis_url`` the app is one process of
    a cluster sharing the store and that Redis (:mod:`.cluster`). ``ValueError`` names an
    allowed origin that is not an origin."""
    origins = parse_origins(settings.allow_origins)  # ValueError names one that is not an origin
    store = Store(db_url, fenced=redis_url is not None)
    manager = RoomManager(store, settings)
    cluster = Cluster(redis_url) if redis_url is not None else None
    if cluster is not None:
        manager.attach(cluster)
    guard = Guard(settings.limits, shared=redis_url)
    accounts = Accounts(store, manager.clock)
    manager.on_game_end(accounts.game_ended)  # rated games update the ratings
    replays = ReplayCache()
    reviews = reviews if reviews is not None else ReviewService.from_env()
    app = FastAPI(
        title="cardtable",
        lifespan=_lifespan(store, manager, replays, reviews, accounts),
        docs_url="/api/docs",
        redoc_url=None,
    )
    app.state.manager = manager
    app.state.store = store
    app.state.guard = guard
    app.state.replays = replays
    app.state.lessons = Lessons(manager.clock)  # guided lessons, in memory (.lessons)
    app.state.reviews = reviews
    app.state.accounts = accounts
    # the last added runs first: headers on every answer, then the origin check (so a page of
    # another site cannot spend a visitor's quotas), the rate limits and the body limit
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(RateLimits, guard=guard)
    app.add_middleware(SameOrigin, allow_origins=origins, guard=guard)
    if settings.allowed_hosts is not None:  # the Host check comes before the others
        app.add_middleware(AllowedHosts, hosts=settings.allowed_hosts, guard=guard)
    app.add_middleware(SecurityHeaders, docs_paths=("/api/docs", "/api/docs/oauth2-redirect"))
    app.add_middleware(Refusals, metrics=manager.metrics)  # counts the refusals of every layer
    app.add_middleware(
        Probes, readiness=Readiness(_pinger(store, cluster), lambda: manager.draining)
    )
    _add_error_answers(app)
    _add_pages(app)
    _add_reference(app, accounts)
    _add_ratings(app, accounts)
    add_messages(app)
    _add_rooms(app, manager, accounts)
    app.include_router(account_routes(accounts, _resume(manager)))
    _add_replays(app, manager, store, replays)
    _add_reviews(app, manager, store, replays, reviews)
    _add_play(app, manager, guard)
    _add_metrics(app, manager.metrics, manager)
    app.include_router(lesson_routes())
    return app


def _pinger(store: Store, cluster: Cluster | None) -> Callable[[], Awaitable[None]]:
    """What ``/readyz`` asks: the store answers, and in a cluster Redis does too."""
    if cluster is None:
        return store.ping

    async def ping() -> None:
        await store.ping()
        try:
            await cluster.ping()
        except Exception as exc:
            raise Unready("redis", type(exc).__name__) from exc

    return ping


def _resume(manager: RoomManager) -> Callable[[str, int], Awaitable[tuple[str, int, str]]]:
    """A fresh key to an account's seat (:meth:`.RoomManager.resume_anywhere`), a refusal
    answered ``404``."""

    async def resume(room: str, seat: int) -> tuple[str, int, str]:
        try:
            return await manager.resume_anywhere(room, seat)
        except RoomError as exc:
            raise HTTPException(404, exc.message) from None

    return resume


def _lifespan(
    store: Store,
    manager: RoomManager,
    replays: ReplayCache,
    reviews: ReviewService,
    accounts: Accounts,
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """The app's life: the store opens and the manager starts before the first request; the
    manager, the replay builder, the review workers and the store close after the last."""

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        load_all()  # the catalogs, read now rather than in the middle of a first answer
        manager.start()  # rooms load when first asked for; idle ones are paused
        accounts.spawn(accounts.catch_up())  # rated games whose ratings were cut short
        if manager.cluster is not None:
            await manager.cluster.start(manager)  # raises if Redis is out of reach
        # Full collections of a large heap paused the loop for 0.1-0.4 s under load
        # (benchmarks/server_load.py): move what exists at start out of the collector's way and
        # collect the young generation less often.
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 50, 1000)
        try:
            yield
        finally:
            manager.draining = True  # /readyz: 503 from now on
            await manager.close()  # AI moves, timers and the search workers
            await accounts.settled()  # the rating updates under way
            replays.close()  # the replay build thread
            await reviews.close()  # the review workers
            await store.close()

    return lifespan


def _add_error_answers(app: FastAPI) -> None:
    """A page for a person who opens an unknown address; short validation errors."""
    not_found_page = STATIC / "notfound.html"

    @app.exception_handler(StarletteHTTPException)
    async def not_found(request: Request, exc: Exception) -> Response:
        """A person who opens an unknown address gets a page saying so (404), not JSON; the
        API keeps its JSON answers."""
        assert isinstance(exc, StarletteHTTPException)
        path = request.url.path
        wants_page = "text/html" in request.headers.get("accept", "")
        if exc.status_code == 404 and wants_page and not path.startswith(("/api/", "/static/")):
            return FileResponse(not_found_page, status_code=404)
        return await http_exception_handler(request, exc)

    @app.exception_handler(RequestValidationError)
    async def short_validation_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return JSONResponse({"detail": _short_errors(exc)}, status_code=422)


def _add_pages(app: FastAPI) -> None:
    """The browser client: its one page at every address a person opens, and its files."""
    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    @app.get("/r/{room}", include_in_schema=False)
    @app.get("/r/{room}/history", include_in_schema=False)
    @app.get("/r/{room}/replay/{n}", include_in_schema=False)
    @app.get("/r/{room}/review/{n}", include_in_schema=False)
    async def page(room: str | None = None, n: int | None = None) -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    @app.get("/p/{name:path}", include_in_schema=False)
    async def profile_page(name: str) -> FileResponse:
        return FileResponse(STATIC / "profile.html", headers={"Cache-Control": "no-cache"})

    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/leaderboard/{game}", include_in_schema=False)
    async def leaderboard_page(game: str | None = None) -> FileResponse:
        return FileResponse(STATIC / "leaderboard.html", headers={"Cache-Control": "no-cache"})

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")


def _add_reference(app: FastAPI, accounts: Accounts) -> None:
    """What the server plays: its games, AI levels and rules."""

    @app.get("/api/variants")
    async def list_variants(lang: str | None = None) -> list[dict[str, object]]:
        """Every game with its seat range, options, family (the kind of game, which decides the
        client's layout) and details (call word and label, card values, powers by card …); its
        summary in ``lang`` (a tag: ``de``, ``de-AT``; the server's language if none)."""
        out: list[dict[str, object]] = []
        for name in variants.names():
            var = variants.get(name)
            out.append(
                {
                    **served_details(var),
                    "name": var.name,
                    "title": var.title,
                    "summary": served_words(f"ui.game.{name}.summary", var.summary, lang),
                    "family": var.family,
                    "min_players": var.min_players,
                    "max_players": var.max_players,
                    "default_players": var.default_players,
                    "options": [
                        {
                            "name": o.name,
                            "default": o.default,
                            "doc": o.doc,
                            "choices": list(o.choices) if o.choices else None,
                            "minimum": o.minimum,
                            "maximum": o.upper,
                        }
                        for o in var.options
                    ],
                }
            )
        return out

    @app.get("/api/levels")
    async def list_levels(lang: str | None = None) -> list[dict[str, object]]:
        """The AI levels a seat may have, each with what it is in a player's words, in ``lang``
        (a tag: ``de``, ``de-AT``; the server's language if none), and its rating in each game
        type it was calibrated in (``ratings``: game → rating, interval), as the rated games
        against people since have moved it."""
        rated = await accounts.all_levels()
        return [
            {
                "name": n,
                "description": served_words(f"ui.level.{n}.about", describe(n), lang),
                "ratings": {
                    game: _shown(levels[n]) for game, levels in rated.items() if n in levels
                },
            }
            for n in (*LEVELS, "random")
        ]

    @app.get("/api/rules/{variant}")
    async def rules(
        variant: str, plain: bool = False, lang: str = Query("en", max_length=35)
    ) -> dict[str, str]:
        """A game's rules in Markdown: the page with the notation a player types, or with
        ``plain=1`` the rules in plain words in ``lang`` (``en``, ``de``; English for any
        other), its cards left as ``{{KH}}`` tokens for the client to draw, with the language
        it is written in and the heading of its dialog."""
        try:
            var = variants.get(variant)
        except (KeyError, ValueError):
            raise HTTPException(404, f"no game called {variant!r}") from None
        if not plain:
            text = variants.rules_text(var.name)
            return {"variant": var.name, "title": var.title, "markdown": text}
        return plain_rules_page(var.name, lang)


async def _live_room(manager: RoomManager, room_id: str) -> Room:
    """The room ``room_id`` to read, live or paused; reading it never sets it playing nor
    keeps it in memory (:meth:`.RoomManager.read`); ``404`` if there is none."""
    room = await manager.read(room_id)
    if room is None:
        raise HTTPException(404, "there is no such room")
    return room


def _busy(exc: RoomError) -> HTTPException:
    """The ``503`` of a refusal past ``--max-ai-rooms``, with its ``Retry-After``."""
    return HTTPException(503, exc.message, headers={"Retry-After": str(AI_ROOMS_RETRY)})


def _join_refusal(exc: RoomError) -> HTTPException:
    """The HTTP answer of a refused seat join: ``503`` past ``--max-ai-rooms`` or while the
    room moves between a cluster's processes (with ``Retry-After``), ``404`` for an unknown
    room, else ``409``."""
    if exc.code == "too_many_ai_rooms":
        return _busy(exc)
    if exc.code in ("room_moved", "unavailable"):  # its process stops or is gone
        return HTTPException(503, exc.message, headers={"Retry-After": "1"})
    return HTTPException(404 if exc.code == "unknown_room" else 409, exc.message)


def _add_ratings(app: FastAPI, accounts: Accounts) -> None:
    """The AI levels' ratings per game type (:mod:`cardtable.ratings`): calibrated, then kept
    up to date by rated games against people (:mod:`.accounts`)."""

    @app.get("/api/ratings/{game}")
    async def game_ratings(game: str) -> dict[str, object]:
        """The AI levels' ratings in one game type, best first, each with ``mu``, ``sigma``,
        the rating in points and its interval (``mu ± 2 sigma``): as calibrated, moved by the
        rated games they played against people since."""
        if game not in variants.names():
            raise HTTPException(404, f"no game called {game!r}")
        found = load_level_calibration(game)
        levels = sorted((await accounts.levels(game)).items(), key=lambda kv: -kv[1].mu)
        return {
            "game": game,
            "scale": {"start": to_points(MU), "points_per_mu": POINTS_PER_MU},
            "calibration": None if found is None else found.about(),
            "levels": [{"level": name, **r.to_dict()} for name, r in levels],
        }


def _add_rooms(app: FastAPI, manager: RoomManager, accounts: Accounts) -> None:
    """Creating, listing, describing and joining rooms, and quick play. A signed-in person's
    seat is their account's (:mod:`.accounts`)."""
    store = manager.store

    async def account(request: Request) -> int | None:
        player = await accounts.current(request.cookies.get(COOKIE))
        return None if player is None else player.id

    @app.post("/api/rooms", status_code=201)
    async def create_room(body: CreateRoom, request: Request) -> dict[str, object]:
        """Create a room; the creator takes the first person's seat."""
        try:
            room, seat, token = await manager.create(
                body.game,
                [(s.type, s.level, s.memory_aid) for s in body.seats],
                players=body.players,
                options=body.options,
                name=body.name or None,
                public=body.public,
                autostart=body.autostart,
                memory_aid=body.memory_aid,
                turn_time=body.turn_time,
                spectator_chat=body.spectator_chat,
                hints=body.hints,
                rated=body.rated,
                player=await account(request),
            )
        except RoomError as exc:  # too many rooms of AI players only: nothing was made
            raise _busy(exc) from None
        except (KeyError, ValueError, TypeError) as exc:
            raise HTTPException(400, excerpt(str(exc).strip("'\""), 200)) from None
        return {"room": room.id, "seat": seat, "token": token, "url": f"/r/{room.id}"}

    @app.get("/api/rooms")
    async def lobby() -> dict[str, object]:
        """Public rooms waiting for people or in play."""
        return {"rooms": await manager.lobby_everywhere()}

    @app.get("/api/rooms/{room_id}")
    async def room_summary(room_id: str) -> dict[str, object]:
        """One room's summary."""
        summary = await manager.summary_of(room_id)
        if summary is None:
            raise HTTPException(404, "there is no such room")
        return summary

    @app.post("/api/rooms/{room_id}/join")
    async def join_room(
        request: Request, room_id: str, body: JoinRoom | None = None, lang: str | None = None
    ) -> dict[str, object]:
        """Take the first free person's seat of a room; a refusal in ``lang`` (a tag)."""
        player = await account(request)
        try:
            with speaking(lang):
                room_id, seat, token = await manager.seat_anywhere(
                    room_id, body.name if body else None, player
                )
        except RoomError as exc:
            raise _join_refusal(exc) from None
        return {"room": room_id, "seat": seat, "token": token}

    @app.post("/api/quickplay")
    async def quickplay(body: QuickPlay, request: Request) -> dict[str, object]:
        """Take a seat at a quick-play room of a game that waits for people, or open one whose
        open seats go to AI players after a short wait (docs/protocol.md). It counts against
        the address's quotas of new rooms and of seat joins (:class:`.guard.RateLimits`)."""
        try:
            room_id, seat, token = await manager.quickplay_anywhere(
                body.game, body.name or None, await account(request)
            )
        except (KeyError, ValueError) as exc:
            raise HTTPException(400, excerpt(str(exc).strip("'\""), 200)) from None
        return {"room": room_id, "seat": seat, "token": token, "url": f"/r/{room_id}"}

    @app.get("/api/rooms/{room_id}/games")
    async def room_games(room_id: str) -> dict[str, object]:
        """Every game of a room with its status and result."""
        await _live_room(manager, room_id)
        rows = await store.games(room_id)
        return {
            "room": room_id,
            "games": [
                {
                    "game_no": g.game_no,
                    "status": "finished" if g.finished is not None else "playing",
                    "started": g.started,
                    "finished": g.finished,
                    "actions": g.actions,
                    "result": g.result,
                }
                for g in rows
            ],
        }


def _add_replays(app: FastAPI, manager: RoomManager, store: Store, replays: ReplayCache) -> None:
    """A finished game's replay, page by page."""

    @app.get("/api/rooms/{room_id}/games/{game_no}")
    async def replay(
        request: Request,
        room_id: str,
        game_no: int,
        start: int = 0,
        count: int = DEFAULT_COUNT,
        seat: int | None = None,
        lang: str | None = None,
    ) -> JSONBytes:
        """A finished game move by move, as a spectator saw it, or with ``seat`` as that seat
        saw it (its token in the ``X-Seat-Token`` header): one page of at most ``count`` steps
        from step ``start`` (docs/protocol.md), the events in words in ``lang`` (default: the
        server's language). The replay is built once per game, view and language, off the event
        loop, and cached (:mod:`.replays`)."""
        check_page(start, count)
        words = None if lang is None else pick_language(lang, None)
        room = await _live_room(manager, room_id)
        if seat is not None:
            check_seat(room.row.players, room.tokens, seat, request.headers.get(SEAT_TOKEN_HEADER))

        async def source() -> ReplaySource:
            src = await _replay_source(store, room, room_id, game_no, seat)
            if words is None:
                return src
            return dataclasses.replace(src, lang=words, names=_names_in(room)[words])

        key: Key = (room_id, game_no, seat) if words is None else (room_id, game_no, seat, words)
        try:
            built = await replays.get(key, source)
        except ValueError:  # a stored move the engine refuses: recorded under other rules
            log.warning(
                "the moves of game %s/%d do not replay", room_id, game_no, extra={"room": room_id}
            )
            raise HTTPException(409, "this game's moves do not replay under these rules") from None
        seats: list[dict[str, object]] = [dict(s) for s in room.seats_public()]
        for info, counts in zip(seats, built.played_for, strict=False):
            info["played_for"] = counts  # this game's, not the current one's
        meta = {
            "room": room_id,
            "game_no": game_no,
            "game": room.row.game,
            "players": room.row.players,
            "seats": seats,
            "viewer": seat,
        }
        body = await replays.page(built, meta, start, count)
        headers = {"X-Replay-Build": str(built.build_no)}
        if seat is not None:  # a seat's own view: for that browser only
            headers.update({"Cache-Control": "private, no-store", "Vary": SEAT_TOKEN_HEADER})
        return JSONBytes(body, headers=headers)


async def _replay_source(
    store: Store, room: Room, room_id: str, game_no: int, seat: int | None
) -> ReplaySource:
    """What the replay of game ``game_no`` of ``room`` (``room_id``) is built from, as ``seat``
    saw it (``None``: a spectator); ``404`` for a game the room never had, ``409`` for one still
    in play or recorded under other rules."""
    rows = {g.game_no: g for g in await store.games(room_id)}
    row = rows.get(game_no)
    if row is None:
        raise HTTPException(404, f"room {room_id} has no game {game_no}")
    if row.finished is None:
        raise HTTPException(409, "this game is still in play; replays open when it ends")
    rules = variants.rules_version(room.row.game)
    if row.rules is not None and row.rules != rules:
        raise HTTPException(
            409,
            f"game {game_no} was recorded under the rules {row.rules}, and this server "
            f"plays {rules}: it cannot be replayed",
        )
    stored = await store.actions(room_id, game_no)
    return ReplaySource(
        room.row.game,
        room.row.players,
        room.row.options,
        row.seed,
        [(a.seat, a.action) for a in stored],
        seat,
        [by_label(Chosen.of(a), a.seat, room.row) for a in stored],
        seat_names(room.seats_public()),
    )


def _names_in(room: Room) -> dict[str, tuple[str, ...]]:
    """The room's seat names as the browser shows them, in every shipped language."""
    out: dict[str, tuple[str, ...]] = {}
    for lang in supported():
        with language(lang):
            out[lang] = tuple(seat_names(room.seats_public()))
    return out


def _add_reviews(
    app: FastAPI, manager: RoomManager, store: Store, replays: ReplayCache, reviews: ReviewService
) -> None:
    """A finished game with every hand shown, and the review of one seat's decisions."""
    _add_open_replay(app, manager, store, replays)
    _add_review(app, manager, store, reviews)


def _add_open_replay(
    app: FastAPI, manager: RoomManager, store: Store, replays: ReplayCache
) -> None:
    """A finished game with every hand shown, and what each seat knew at each step."""

    @app.get("/api/rooms/{room_id}/games/{game_no}/open")
    async def open_replay(
        request: Request,
        room_id: str,
        game_no: int,
        start: int = 0,
        count: int = DEFAULT_COUNT,
        lang: str | None = None,
    ) -> JSONBytes:
        """A finished game move by move with every hand shown, and at each step the places
        of the cards each seat knew then (``known``: one list of ``"S.P"`` per seat), the
        events in words in ``lang`` (default: the request's ``Accept-Language``); pages as the
        replay's. ``409`` for a game not over: open hands are for a finished game only."""
        check_page(start, count)
        room = await _live_room(manager, room_id)
        words = pick_language(lang, request.headers.get("accept-language"))

        async def source() -> ReplaySource:
            await _finished_game(store, room_id, game_no)
            src = await _replay_source(store, room, room_id, game_no, None)
            return dataclasses.replace(src, open=True, lang=words, names=_names_in(room)[words])

        try:
            built = await replays.get((room_id, game_no, "open", words), source)
        except NotFinished:
            raise HTTPException(409, _OPEN_REFUSED) from None
        except ValueError:
            log.warning(
                "the moves of game %s/%d do not replay", room_id, game_no, extra={"room": room_id}
            )
            raise HTTPException(409, "this game's moves do not replay under these rules") from None
        meta = {
            "room": room_id,
            "game_no": game_no,
            "game": room.row.game,
            "players": room.row.players,
            "seats": [dict(s) for s in room.seats_public()],
            "viewer": None,
            "open": True,
            "lang": words,
        }
        body = await replays.page(built, meta, start, count)
        return JSONBytes(body, headers={"X-Replay-Build": str(built.build_no)})


def _add_review(app: FastAPI, manager: RoomManager, store: Store, reviews: ReviewService) -> None:
    """The review of one seat's decisions in a finished game."""

    @app.get(
        "/api/rooms/{room_id}/games/{game_no}/review",
        responses={202: {"description": "the review is being computed: its progress"}},
    )
    async def game_review(
        request: Request, room_id: str, game_no: int, seat: int, lang: str | None = None
    ) -> Response:
        """The review of ``seat``'s decisions in a finished game (:mod:`.reviews`): ``202``
        with ``{status, done, total, waiting}`` while it is computed, then every decision
        weighed (``decisions``: as ``cardtable review --json`` gives them, with their words,
        memory slips and the search's best moves) and the summary line, in ``lang`` (default:
        the request's ``Accept-Language``). ``409`` for a game not over."""
        room = await _live_room(manager, room_id)
        if not 0 <= seat < room.row.players:
            raise HTTPException(422, f"seat must be from 0 to {room.row.players - 1}")
        words = pick_language(lang, request.headers.get("accept-language"))

        async def source() -> ReviewSource:
            row = await _finished_game(store, room_id, game_no)
            src = await _replay_source(store, room, room_id, game_no, None)
            seats = room.row.seats
            return ReviewSource(
                {
                    "game": src.game,
                    "players": src.players,
                    "seed": row.seed,
                    "options": dict(src.options),
                    "actions": [[s, a] for s, a in src.actions],
                },
                seat,
                seats[seat].memory_aid if seat < len(seats) else False,
                tuple(src.names),
                game_no,
                _names_in(room),
            )

        answer = await reviews.answer((room_id, game_no, seat), words, source)
        if isinstance(answer, bytes):
            return JSONBytes(answer)
        body = {**answer, "lang": words, "text": page_text(words)}
        return JSONResponse(body, status_code=202, headers={"Retry-After": "1"})


_OPEN_REFUSED = "open hands and reviews are only for a finished game: this game is still in play"
"""Why a game in play is not shown with every hand open, nor reviewed."""


async def _finished_game(store: Store, room_id: str, game_no: int) -> GameRow:
    """The stored row of game ``game_no`` of ``room_id``: ``404`` if the room never had it,
    ``409`` while it is in play (every hand is shown, and every decision judged, only once a
    game is over)."""
    row = next((g for g in await store.games(room_id) if g.game_no == game_no), None)
    if row is None:
        raise HTTPException(404, f"room {room_id} has no game {game_no}")
    if row.finished is None:
        raise HTTPException(409, _OPEN_REFUSED)
    return row


def _add_metrics(app: FastAPI, metrics: Metrics, manager: RoomManager) -> None:
    """``GET /metrics``: the server's metrics in the Prometheus text format (:mod:`.metrics`),
    the live rooms read from ``manager`` when scraped."""
    tables = manager.live.tables
    metrics.watch(lambda: [(t.room.status, t.held) for t in tables.values()])

    @app.get("/metrics", include_in_schema=False)
    async def prometheus_metrics() -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE)


def _add_play(app: FastAPI, manager: RoomManager, guard: Guard) -> None:
    """The WebSocket play channel."""

    @app.websocket("/ws")
    async def play(ws: WebSocket) -> None:
        """The play channel (docs/protocol.md)."""
        await _play(ws, manager, guard)


async def _play(ws: WebSocket, manager: RoomManager, guard: Guard) -> None:
    """One connection of the play channel, from its handshake to its end: each message read
    (at most at the connection's message rate) is handled by ``manager``; what the room sends
    goes out through the connection's own sender task."""
    await ws.accept()
    gate = guard.message_gate(client_address(ws.scope))
    conn = Conn(
        ws.send_text,
        lambda: ws.close(conn.close_code or gate.close_code, gate.close_reason),
    )
    sender = asyncio.ensure_future(conn.run_sender())
    try:
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            raw = msg.get("text")
            if raw is None:  # a binary frame: refused by parse_message
                raw = msg.get("bytes") or b""
            if not gate.allow():  # over the message rate: not read
                manager.metrics.refused("rate_limited")
                conn.push(error("rate_limited", gate.refusal))
                if gate.flooding:
                    conn.drop()  # the sender closes the socket with code 1008
                    break
                # read nothing more until the window ends: a flood waits in its own socket
                await asyncio.sleep(gate.retry_after)
                continue
            await gate.turn()  # an address over its share of the server's messages waits
            try:
                await manager.handle(conn, parse_message(raw))
            except ProtocolError as exc:
                manager.metrics.refused(exc.code)
                conn.push(error(exc.code, exc.message, exc.msg_id))
            except Exception as exc:  # a bug must not close the connection
                log.exception("a message could not be handled (%s)", type(exc).__name__)
                conn.push(error("server_error", "the server failed on this message"))
    except WebSocketDisconnect:
        pass
    finally:
        conn.closed = True
        manager.leave(conn)
        conn.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await sender
