"""Accounts, sessions, players' history and ratings on the web (docs/protocol.md, "Accounts").

Accounts are optional: a guest plays exactly as before. An account is a name (the lobby's name
rules; unique after Unicode normalisation and case folding) and a password, kept as an argon2id
hash (argon2-cffi). A signed-in browser holds a session cookie (:data:`COOKIE`: random, kept in
the store only as its SHA-256 digest; ``HttpOnly``, ``SameSite=Lax``, ``Secure`` over HTTPS),
issued anew at every sign-in so that a cookie planted before it is worth nothing (session
fixation). Requests that change something and come from another site's page are refused by
:class:`.guard.SameOrigin` before they get here, and a ``Lax`` cookie is not sent with them.

Signed in, a person's seats are their account's (``seats.player_id``): the lobby lists their
open tables on any device, and :meth:`Accounts.resume` gives that device a fresh key to the
seat. After each rated game (:attr:`.table.Services.game_ended`) every seat's rating in its game
type is updated (openskill Plackett–Luce, :func:`cardtable.ratings.rate_game`): each person's,
and each AI level's, which starts from its calibrated rating.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import unicodedata
from collections.abc import Awaitable, Callable, Coroutine
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from .. import variants
from ..ratings import Rating, level_ratings, rate_game
from ..store import Store
from ..store.players import (
    NameTaken,
    PlayerRow,
    Players,
    RatingRow,
    Skill,
    player_subject,
)
from .clock import Clock
from .protocol import Name
from .room import Room, hash_token

__all__ = [
    "COOKIE",
    "MIN_RATED_GAMES",
    "SESSION_DAYS",
    "Accounts",
    "Credentials",
    "account_routes",
    "name_key",
]

log = logging.getLogger("cardtable.web.accounts")

COOKIE = "ct_session"
"""The session cookie's name."""
SESSION_DAYS = 30
"""Days a session lasts after its sign-in."""
MIN_PASSWORD = 8
"""Shortest password, in characters."""
MAX_PASSWORD = 256
"""Longest password, in characters."""
MIN_RATED_GAMES = 3
"""Rated games a person needs in a game type to be on its leaderboard."""
_SPACES = re.compile(r"\s+")


def name_key(name: str) -> str:
    """How names are compared for uniqueness: NFKC-normalised, whitespace collapsed, case
    folded (so "Ann", "ANN" and "Ａｎｎ" are one name)."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip().casefold()


class Credentials(BaseModel):
    """Body of ``POST /api/account/signup`` and ``…/signin``."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[Name, StringConstraints(min_length=1)]
    password: Annotated[str, StringConstraints(max_length=MAX_PASSWORD)]


class Password(BaseModel):
    """Body of ``POST /api/account/delete``: the password, asked again."""

    model_config = ConfigDict(extra="forbid")

    password: Annotated[str, StringConstraints(max_length=MAX_PASSWORD)]


class HeldSeat(BaseModel):
    """One guest seat a browser holds: its room, number and key."""

    model_config = ConfigDict(extra="forbid")

    room: Annotated[str, StringConstraints(min_length=1, max_length=32)]
    seat: Annotated[int, Field(ge=0, le=15)]
    token: Annotated[str, StringConstraints(min_length=1, max_length=128)]


class Claim(BaseModel):
    """Body of ``POST /api/account/claim``: the guest seats this browser holds."""

    model_config = ConfigDict(extra="forbid")

    seats: Annotated[list[HeldSeat], Field(max_length=200)]


def _shown(row: RatingRow | Rating | None, games: int | None = None) -> dict[str, Any] | None:
    """A rating as the API gives it (points, interval, mu, sigma, games)."""
    if row is None:
        return None
    rating = Rating(row.mu, row.sigma)
    out: dict[str, Any] = dict(rating.to_dict())
    if isinstance(row, RatingRow):
        out["games"] = row.games
    elif games is not None:
        out["games"] = games
    return out


class Accounts:
    """The accounts of one server: sign-up, sign-in, sessions, and the ratings kept after
    rated games."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.players = Players(store)
        """The accounts in the store."""
        self.clock = clock
        """Where the time comes from."""
        self.hasher = PasswordHasher()
        """argon2id with the library's recommended parameters."""
        self._dummy: str | None = None
        self._rating = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- passwords ---------------------------------------------------------------------------
    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no stored hash, a dummy one is checked
        so that an unknown name takes as long as a wrong password."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await self._hash(secrets.token_urlsafe(16))
            stored = self._dummy
        try:
            return await asyncio.to_thread(self.hasher.verify, stored, password)
        except (VerificationError, InvalidHashError):
            return False

    # -- accounts ----------------------------------------------------------------------------
    async def sign_up(self, name: str, password: str) -> tuple[PlayerRow, str]:
        """A new account, signed in: the account and its session's cookie value.
        ``ValueError`` for a password too short, :class:`NameTaken`."""
        if len(password) < MIN_PASSWORD:
            raise ValueError(f"the password is shorter than {MIN_PASSWORD} characters")
        key = name_key(name)
        if await self.players.by_key(key) is not None:
            raise NameTaken(name)
        player = await self.players.create(name, key, await self._hash(password), self.clock.now())
        return player, await self._open(player)

    async def sign_in(self, name: str, password: str) -> tuple[PlayerRow, str] | None:
        """The account and a new session's cookie value, or ``None`` for a wrong name or
        password (the answer does not say which)."""
        player = await self.players.by_key(name_key(name))
        stored = None if player is None else player.password_hash
        if not await self._verify(stored, password) or player is None:
            return None
        assert stored is not None
        if self.hasher.check_needs_rehash(stored):
            await self.players.set_password(player.id, await self._hash(password))
        return player, await self._open(player)

    async def _open(self, player: PlayerRow) -> str:
        token = secrets.token_urlsafe(32)
        now = self.clock.now()
        expired = now - SESSION_DAYS * 86400
        await self.players.open_session(hash_token(token), player.id, now, expired)
        return token

    async def current(self, token: str | None) -> PlayerRow | None:
        """The account a session cookie value belongs to, or ``None``."""
        if not token or len(token) > 128:
            return None
        since = self.clock.now() - SESSION_DAYS * 86400
        return await self.players.session(hash_token(token), since)

    async def sign_out(self, token: str | None) -> None:
        """Forget a session."""
        if token and len(token) <= 128:
            await self.players.close_session(hash_token(token))

    async def verify(self, player: PlayerRow, password: str) -> bool:
        """Whether ``password`` is the account's (asked again before deleting it)."""
        return await self._verify(player.password_hash, password)

    # -- profile -----------------------------------------------------------------------------
    async def profile(self, player: PlayerRow) -> dict[str, Any]:
        """What ``GET /api/players/{name}`` answers."""
        subject = player_subject(player.id)
        stats = await self.players.stats(player.id)
        rated = await self.players.ratings_of(subject)
        history = await self.players.history(subject)
        games: dict[str, Any] = {}
        for game in sorted(set(stats) | set(rated)):
            seen = stats.get(game, {"played": 0, "won": 0, "avg_total": None, "avg_score": None})
            games[game] = {**seen, "rating": _shown(rated.get(game))}
        return {
            "name": player.name,
            "created": player.created,
            "games": games,
            "recent": await self.players.recent(player.id),
            "history": {
                game: [{"at": p["at"], **_points(p["mu"], p["sigma"])} for p in points]
                for game, points in history.items()
            },
        }

    async def export(self, player: PlayerRow) -> dict[str, Any]:
        """Everything kept about the account, as JSON."""
        subject = player_subject(player.id)
        rated = await self.players.ratings_of(subject)
        return {
            "account": {"name": player.name, "created": player.created},
            "games": await self.players.all_results(player.id),
            "ratings": {game: _shown(r) for game, r in rated.items()},
            "rating_history": await self.players.history(subject, limit=1_000_000),
            "played_with": await self.players.played_with(player.id, limit=1000),
        }

    async def levels(self, game: str) -> dict[str, Rating]:
        """Every calibrated AI level's rating in ``game``: as rated games against people have
        moved it since, else as calibrated."""
        return (await self.all_levels()).get(game, {})

    async def all_levels(self) -> dict[str, dict[str, Rating]]:
        """:meth:`levels` of every game type, by game type."""
        kept = await self.players.level_ratings()
        out: dict[str, dict[str, Rating]] = {}
        for game in variants.names():
            moved = kept.get(game, {})
            out[game] = {
                level: Rating(moved[level].mu, moved[level].sigma) if level in moved else rating
                for level, rating in level_ratings(game).items()
            }
        return out

    # -- ratings -----------------------------------------------------------------------------
    def game_ended(self, room: Room, game_no: int) -> None:
        """A game has ended and its results are stored: rate it in the background if its room
        is rated (:meth:`rate`)."""
        if not room.row.rated:
            return
        self.spawn(self.rate(room.id, game_no))

    def spawn(self, work: Coroutine[Any, Any, object]) -> None:
        """Run ``work`` in the background (:meth:`settled` waits for it)."""
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def rate(self, room: str, game_no: int) -> bool:
        """Update the ratings of everyone at a rated game from its stored results, once
        (:meth:`.Players.rate`): each person's (from a new player's rating) and each AI level's
        (from its calibrated rating). ``False`` when nothing changed: the game is not rated in
        the store (a practice table's) or was rated already. A failure is logged; the game is
        rated at the next start (:meth:`catch_up`)."""
        async with self._rating:  # one update at a time in this process
            try:
                return await self.players.rate(
                    room, game_no, self._start, _update, self.clock.now()
                )
            except Exception:
                log.exception(
                    "room %s: the ratings of game %d were not updated",
                    room,
                    game_no,
                    extra={"room": room},
                )
                return False

    @staticmethod
    def _start(subject: str | None, game: str) -> Skill:
        """A rating before its first rated game: a level's calibrated one, else a new
        player's."""
        if subject is not None and subject.startswith("ai:"):
            found = level_ratings(game).get(subject[3:])
            if found is not None:
                return found.mu, found.sigma
        return Rating().mu, Rating().sigma

    async def catch_up(self, days: float = 7.0) -> int:
        """Rate the rated games of the last ``days`` whose update was cut short (a process
        stopped between a game's end and its ratings); how many were rated."""
        since = self.clock.now() - days * 86400
        done = 0
        for room, game_no in await self.players.unrated_games(since):
            done += await self.rate(room, game_no)
        return done

    async def settled(self) -> None:
        """Wait for the rating updates under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _update(before: list[Skill], places: list[int]) -> list[Skill]:
    """Everyone's ``(mu, sigma)`` after a game (:func:`cardtable.ratings.rate_game`)."""
    after = rate_game([Rating(mu, sigma) for mu, sigma in before], places)
    return [(r.mu, r.sigma) for r in after]


def _points(mu: float, sigma: float) -> dict[str, int]:
    rating = Rating(mu, sigma)
    low, high = rating.interval
    return {"rating": rating.points, "low": low, "high": high}


def _public(player: PlayerRow) -> dict[str, Any]:
    return {"name": player.name, "created": player.created}


def _set_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _clear_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


Seats = Callable[[str, int], Awaitable[tuple[str, int, str]]]
"""How a player's seat gets a fresh key: ``(room, seat) -> (room, seat, token)``."""


def account_routes(accounts: Accounts, resume: Seats) -> APIRouter:
    """The account endpoints, the profiles and the leaderboards; ``resume`` gives a seat a
    fresh key (:meth:`.rooms.RoomManager.resume_anywhere`)."""
    router = APIRouter()
    players = accounts.players

    async def signed_in(request: Request) -> PlayerRow:
        player = await accounts.current(request.cookies.get(COOKIE))
        if player is None:
            raise HTTPException(401, "you are not signed in")
        return player

    @router.get("/api/account")
    async def who(request: Request) -> dict[str, Any]:
        """The signed-in account (``player: null`` for a guest)."""
        player = await accounts.current(request.cookies.get(COOKIE))
        return {"player": None if player is None else _public(player)}

    @router.post("/api/account/signup", status_code=201)
    async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Make an account and sign in to it."""
        await accounts.sign_out(request.cookies.get(COOKIE))
        try:
            player, token = await accounts.sign_up(body.name, body.password)
        except NameTaken:
            raise HTTPException(409, "that name is taken: choose another") from None
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        _set_cookie(response, request, token)
        return {"player": _public(player)}

    @router.post("/api/account/signin")
    async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Sign in (a new session every time; the old cookie's session ends)."""
        await accounts.sign_out(request.cookies.get(COOKIE))
        found = await accounts.sign_in(body.name, body.password)
        if found is None:
            raise HTTPException(401, "wrong name or password")
        player, token = found
        _set_cookie(response, request, token)
        return {"player": _public(player)}

    @router.post("/api/account/signout")
    async def sign_out(request: Request, response: Response) -> dict[str, Any]:
        """Sign out: the session ends and the cookie is cleared."""
        await accounts.sign_out(request.cookies.get(COOKIE))
        _clear_cookie(response, request)
        return {"player": None}

    @router.post("/api/account/claim")
    async def claim(body: Claim, request: Request) -> dict[str, Any]:
        """Make the guest seats this browser holds (and their games) the account's."""
        player = await signed_in(request)
        held = [(s.room, s.seat, hash_token(s.token)) for s in body.seats]
        return {"claimed": await players.claim(player.id, held)}

    @router.get("/api/account/tables")
    async def tables(request: Request) -> dict[str, Any]:
        """The account's tables waiting for people or in play."""
        player = await signed_in(request)
        found = await players.open_tables(player.id)
        return {"tables": [{**t, "url": f"/r/{t['room']}"} for t in found]}

    @router.post("/api/account/tables/{room}/resume")
    async def resume_seat(room: str, request: Request) -> dict[str, Any]:
        """A fresh key to the account's seat at ``room`` for this device."""
        player = await signed_in(request)
        seat = await players.seat_of(player.id, room)
        if seat is None:
            raise HTTPException(404, "you have no seat at that table")
        room_id, seat, token = await resume(room, seat)
        return {"room": room_id, "seat": seat, "token": token}

    @router.get("/api/account/played-with")
    async def played_with(request: Request) -> dict[str, Any]:
        """Other players the account shared a table with lately."""
        player = await signed_in(request)
        return {"players": await players.played_with(player.id)}

    @router.get("/api/account/export")
    async def export(request: Request) -> JSONResponse:
        """Everything kept about the account, as a JSON file."""
        player = await signed_in(request)
        return JSONResponse(
            await accounts.export(player),
            headers={"Content-Disposition": 'attachment; filename="cardtable-account.json"'},
        )

    @router.post("/api/account/delete")
    async def delete_account(
        body: Password, request: Request, response: Response
    ) -> dict[str, Any]:
        """Delete the account (its password asked again); its games stay under "deleted
        player"."""
        player = await signed_in(request)
        if not await accounts.verify(player, body.password):
            raise HTTPException(403, "wrong password: the account is kept")
        await players.delete(player.id, accounts.clock.now())
        _clear_cookie(response, request)
        return {"player": None}

    @router.get("/api/players/{name:path}")
    async def profile(name: str) -> dict[str, Any]:
        """A player's profile: per game type ``played``, ``won``, ``avg_score`` and ``rating``;
        recent games with their replays and reviews; the rating over time."""
        player = await players.by_key(name_key(name)) if len(name) <= 64 else None
        if player is None:
            raise HTTPException(404, "there is no player of that name")
        return await accounts.profile(player)

    @router.get("/api/leaderboard/{game}")
    async def leaderboard(game: str) -> dict[str, Any]:
        """The people with at least :data:`MIN_RATED_GAMES` rated games of ``game``, best first,
        and the AI levels on the same scale."""
        if game not in variants.names():
            raise HTTPException(404, "there is no game of that name")
        board = await players.leaderboard(game, MIN_RATED_GAMES)
        levels = sorted((await accounts.levels(game)).items(), key=lambda kv: -kv[1].mu)
        return {
            "game": game,
            "min_games": MIN_RATED_GAMES,
            "players": [
                {"rank": i, "name": name, **(_shown(r) or {})}
                for i, (name, r) in enumerate(board, start=1)
            ],
            "levels": [{"level": level, **(_shown(r) or {})} for level, r in levels],
        }

    return router
