"""Accounts against the real server, on SQLite and PostgreSQL: sign-up, sign-in, sign-out, wrong
passwords, the cookie's flags, session fixation, requests from another origin, the rate limit,
export and deletion, a guest's games claimed, a seat resumed on a second device, and ratings
updated after a rated game (and left alone after an unrated one), leaderboards and the players
one shared a table with."""

from __future__ import annotations

import asyncio
import dataclasses
import http.cookiejar
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest

from cardtable.web.app import create_app
from cardtable.web.guard import Limits, Rate

from ..webserver import Server
from .client import Client, seat_spec
from .inprocess import IN_PROCESS
from .play import drive

pytestmark = pytest.mark.postgres


class Browser:
    """One browser's cookies, sending JSON requests to the server."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        """One request; the status and the decoded answer."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.server.url + path, data=data, method=method)
        if data is not None:
            req.add_header("content-type", "application/json")
        for key, value in (headers or {}).items():
            req.add_header(key, value)
        try:
            with self.opener.open(req, timeout=30) as resp:
                status, payload, self.headers = resp.status, resp.read(), resp.headers
        except urllib.error.HTTPError as err:
            status, payload, self.headers = err.code, err.read(), err.headers
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, payload.decode()

    def cookie(self) -> str | None:
        """The session cookie's value, if the browser holds one."""
        return next((c.value for c in self.jar if c.name == "ct_session"), None)

    def sign_up(self, name: str, password: str = "correct horse") -> dict[str, Any]:
        status, answer = self.call(
            "POST", "/api/account/signup", {"name": name, "password": password}
        )
        assert status == 201, answer
        return dict(answer)

    def me(self) -> Any:
        return self.call("GET", "/api/account")[1]["player"]


_names = iter(range(1, 1_000_000))


def fresh(prefix: str = "P") -> str:
    """A name no other test of the module uses."""
    return f"{prefix}{next(_names)}-{random.randrange(10**6)}"


def create(browser: Browser, seats: list[str], **body: Any) -> tuple[int, Any]:
    body.setdefault("options", {"target": None})
    return browser.call(
        "POST", "/api/rooms", {"game": "kaboo", "seats": [seat_spec(s) for s in seats], **body}
    )


def play_out(server: Server, room: str, tokens: list[str], seed: int = 1) -> None:
    """Play the room's game to its end with random legal moves from every person's seat."""
    clients = [Client(server, room, t) for t in tokens]
    try:
        for c in clients:
            c.join()
        drive(clients, random.Random(seed))
    finally:
        for c in clients:
            c.close()


def wait_for(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    """Ask until ``check()`` gives something true (``timeout`` bounds the real wait)."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        time.sleep(0.05)


# -- signing up, in and out -----------------------------------------------------------------


def test_sign_up_sign_out_and_sign_in_again(server: Server) -> None:
    b = Browser(server)
    assert b.me() is None  # a guest
    name = fresh("Ann")
    assert b.sign_up(name)["player"]["name"] == name
    cookie = b.headers.get_all("set-cookie")
    assert cookie is not None
    assert b.me()["name"] == name
    flags = [p.strip().lower() for p in cookie[0].split(";")]
    assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
    assert "secure" not in flags  # plain http on 127.0.0.1: a Secure cookie would be dropped
    assert b.call("POST", "/api/account/signout")[0] == 200
    assert b.me() is None and b.cookie() is None

    status, answer = b.call("POST", "/api/account/signin", {"name": name, "password": "wrong one"})
    assert status == 401 and answer["detail"] == "wrong name or password"
    assert b.me() is None
    status, answer = b.call(
        "POST", "/api/account/signin", {"name": "nobody-" + name, "password": "correct horse"}
    )
    assert status == 401 and answer["detail"] == "wrong name or password"  # the same words
    status, answer = b.call(
        "POST", "/api/account/signin", {"name": name.upper(), "password": "correct horse"}
    )
    assert status == 200 and answer["player"]["name"] == name  # names are one in any case
    assert b.me()["name"] == name


def test_names_are_unique_after_case_folding_and_normalisation(server: Server) -> None:
    name = fresh("Zoë")
    Browser(server).sign_up(name)
    for other in (name.upper(), name.replace("ë", "e\u0308"), f"  {name} "):
        status, answer = Browser(server).call(
            "POST", "/api/account/signup", {"name": other, "password": "another one"}
        )
        assert status == 409, (other, answer)
    status, _ = Browser(server).call(
        "POST", "/api/account/signup", {"name": "Casual AI", "password": "another one"}
    )
    assert status == 422  # the lobby's name rules
    status, answer = Browser(server).call(
        "POST", "/api/account/signup", {"name": fresh(), "password": "short"}
    )
    assert status == 400 and "8 characters" in answer["detail"]


def test_a_cookie_planted_before_sign_in_is_worth_nothing_after(server: Server) -> None:
    name = fresh()
    Browser(server).sign_up(name)
    victim = Browser(server)
    attacker = Browser(server)
    attacker.call("POST", "/api/account/signin", {"name": name, "password": "correct horse"})
    planted = attacker.cookie()
    assert planted is not None
    # the victim's browser is given the attacker's cookie, then signs in itself
    for c in list(attacker.jar):
        victim.jar.set_cookie(c)
    victim.call("POST", "/api/account/signin", {"name": name, "password": "correct horse"})
    assert victim.cookie() not in (None, planted)  # a new session, not the planted one
    assert attacker.me() is None  # and the planted one ended


def test_requests_from_another_origin_are_refused_and_change_nothing(server: Server) -> None:
    b = Browser(server)
    b.sign_up(fresh())
    evil = {"Origin": "http://evil.example"}
    status, _ = b.call("POST", "/api/account/delete", {"password": "correct horse"}, evil)
    assert status == 403
    status, _ = b.call("POST", "/api/account/signout", None, evil)
    assert status == 403
    status, _ = create(b, ["human", "random"], rated=True, **{})  # same origin: fine
    assert status == 201
    assert b.me() is not None  # still signed in, still there


def test_sign_in_attempts_are_rate_limited() -> None:
    """The app in process, with ``--rate-signins 3`` and no tarpit: the fourth attempt of a
    minute is refused, whatever its password."""
    settings = dataclasses.replace(
        IN_PROCESS, limits=dataclasses.replace(Limits(), signins=Rate(3, 60), tarpit=0.0)
    )
    app = create_app("sqlite+aiosqlite:///:memory:", settings)
    body = json.dumps({"name": "Nobody", "password": "whatever1"}).encode()

    async def attempt() -> tuple[int, dict[bytes, bytes]]:
        sent: list[dict[str, Any]] = []
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/api/account/signin",
            "raw_path": b"/api/account/signin",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"content-type", b"application/json"), (b"host", b"127.0.0.1")],
            "client": ("127.0.0.1", 1234),
            "server": ("127.0.0.1", 80),
        }

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await app(scope, receive, send)
        start = next(m for m in sent if m["type"] == "http.response.start")
        return start["status"], dict(start["headers"])

    async def run() -> list[tuple[int, dict[bytes, bytes]]]:
        async with app.router.lifespan_context(app):
            return [await attempt() for _ in range(4)]

    answers = asyncio.run(run())
    assert [status for status, _ in answers] == [401, 401, 401, 429]
    assert b"retry-after" in answers[3][1]


# -- export and deletion --------------------------------------------------------------------


def test_export_and_delete(server: Server) -> None:
    b = Browser(server)
    name = fresh("Del")
    b.sign_up(name)
    status, made = create(b, ["human", "random"])
    assert status == 201
    play_out(server, made["room"], [made["token"]])
    wait_for(lambda: b.call("GET", f"/api/players/{name}")[1]["games"])

    status, data = b.call("GET", "/api/account/export")
    assert status == 200 and "attachment" in b.headers["content-disposition"]
    assert data["account"]["name"] == name
    assert [(g["room"], g["game"]) for g in data["games"]] == [(made["room"], "kaboo")]

    assert b.call("POST", "/api/account/delete", {"password": "not it"})[0] == 403
    assert b.me() is not None
    assert b.call("POST", "/api/account/delete", {"password": "correct horse"})[0] == 200
    assert b.me() is None
    assert b.call("GET", f"/api/players/{name}")[0] == 404
    status, _ = Browser(server).call(
        "POST", "/api/account/signin", {"name": name, "password": "correct horse"}
    )
    assert status == 401
    # the game stays (its seat under "deleted player": tests/store/test_players.py)
    status, games = b.call("GET", f"/api/rooms/{made['room']}/games")
    assert status == 200 and games["games"][0]["status"] == "finished"
    # and the name is free again
    Browser(server).sign_up(name)


# -- a guest's games, seats on any device ---------------------------------------------------


def test_a_guests_games_are_claimed_after_sign_up(server: Server) -> None:
    guest = Browser(server)
    status, made = create(guest, ["human", "random"], name="Guest")
    assert status == 201
    play_out(server, made["room"], [made["token"]])
    name = fresh("Claim")
    guest.sign_up(name)
    held = [{"room": made["room"], "seat": made["seat"], "token": "not the key"}]
    assert guest.call("POST", "/api/account/claim", {"seats": held})[1] == {"claimed": 0}
    held[0]["token"] = made["token"]
    assert guest.call("POST", "/api/account/claim", {"seats": held})[1] == {"claimed": 1}
    assert guest.call("POST", "/api/account/claim", {"seats": held})[1] == {"claimed": 0}
    profile = guest.call("GET", f"/api/players/{name}")[1]
    assert profile["games"]["kaboo"]["played"] == 1
    assert profile["games"]["kaboo"]["rating"] is None  # a guest's game is never rated
    assert profile["recent"][0]["room"] == made["room"]
    assert profile["recent"][0]["replay"] == f"/r/{made['room']}/replay/1"
    # someone else cannot claim it again
    other = Browser(server)
    other.sign_up(fresh())
    assert other.call("POST", "/api/account/claim", {"seats": held})[1] == {"claimed": 0}
    assert Browser(server).call("POST", "/api/account/claim", {"seats": held})[0] == 401


def test_a_seat_follows_its_player_to_another_device(server: Server) -> None:
    name = fresh("Two")
    laptop = Browser(server)
    laptop.sign_up(name)
    status, made = create(laptop, ["human", "human"], autostart=True)
    assert status == 201
    phone = Browser(server)
    phone.call("POST", "/api/account/signin", {"name": name, "password": "correct horse"})
    tables = phone.call("GET", "/api/account/tables")[1]["tables"]
    assert [(t["room"], t["seat"], t["status"]) for t in tables] == [
        (made["room"], made["seat"], "waiting")
    ]
    status, resumed = phone.call("POST", f"/api/account/tables/{made['room']}/resume")
    assert status == 200 and resumed["seat"] == made["seat"]
    assert resumed["token"] != made["token"]
    for token in (resumed["token"], made["token"]):  # both devices sit at the seat
        c = Client(server, made["room"], token)
        try:
            state = c.join()
            assert state["type"] == "state" and state["seat"] == made["seat"], state
        finally:
            c.close()
    # a stranger has no seat there
    stranger = Browser(server)
    stranger.sign_up(fresh())
    assert stranger.call("POST", f"/api/account/tables/{made['room']}/resume")[0] == 404
    assert Browser(server).call("GET", "/api/account/tables")[0] == 401


# -- rated games ----------------------------------------------------------------------------


def test_rated_tables_refuse_guests_memory_aid_and_hints(server: Server) -> None:
    guest = Browser(server)
    status, answer = create(guest, ["human", "random"], rated=True)
    assert status == 400 and "signed-in" in answer["detail"]
    member = Browser(server)
    member.sign_up(fresh())
    status, answer = create(member, ["human", "random"], rated=True, memory_aid=True)
    assert status == 400 and "memory aid" in answer["detail"]
    status, answer = create(member, ["human", "human"], rated=True, hints=True)
    assert status == 400 and "hints" in answer["detail"]
    status, made = create(member, ["human", "human"], rated=True)
    assert status == 201
    status, answer = guest.call("POST", f"/api/rooms/{made['room']}/join", {})
    assert status >= 400 and "sign in" in answer["detail"]
    status, answer = member.call("POST", f"/api/rooms/{made['room']}/join", {})
    assert status >= 400 and "already" in answer["detail"]
    other = Browser(server)
    other.sign_up(fresh())
    status, _ = other.call("POST", f"/api/rooms/{made['room']}/join", {})
    assert status == 200
    c = Client(server, made["room"], made["token"])
    try:
        state = c.join()
        hint = c.request(
            type="hint", room=made["room"], token=made["token"], version=state["version"]
        )
        assert hint["type"] == "error" and hint["code"] == "hints_off", hint
        assert "rated" in hint["message"]
    finally:
        c.close()


def test_ratings_move_after_a_rated_game_and_not_after_an_unrated_one(server: Server) -> None:
    b = Browser(server)
    name = fresh("Rated")
    b.sign_up(name)
    levels_before = {r["level"]: r for r in b.call("GET", "/api/ratings/kaboo")[1]["levels"]}
    status, plain = create(b, ["human", "casual"])
    assert status == 201
    play_out(server, plain["room"], [plain["token"]])
    profile = wait_for(lambda: b.call("GET", f"/api/players/{name}")[1]["games"].get("kaboo"))
    assert profile["played"] == 1 and profile["rating"] is None  # unrated: no rating at all

    status, rated = create(b, ["human", "casual"], rated=True)
    assert status == 201
    play_out(server, rated["room"], [rated["token"]], seed=2)
    kaboo = wait_for(
        lambda: (g := b.call("GET", f"/api/players/{name}")[1]["games"]["kaboo"])["rating"] and g
    )
    assert kaboo["played"] == 2 and kaboo["rating"]["games"] == 1
    assert kaboo["rating"]["rating"] != 1500  # moved from a new player's rating
    profile = b.call("GET", f"/api/players/{name}")[1]
    assert [p["rating"] for p in profile["history"]["kaboo"]] == [kaboo["rating"]["rating"]]
    assert [g["rated"] for g in profile["recent"]] == [True, False]
    levels_after = {r["level"]: r for r in b.call("GET", "/api/ratings/kaboo")[1]["levels"]}
    # the AI level played against moved too (from its calibrated rating); the others did not
    assert levels_after["casual"]["mu"] != levels_before["casual"]["mu"]
    assert levels_after["expert"] == levels_before["expert"]


def test_leaderboard_and_played_with(server: Server) -> None:
    a, b = Browser(server), Browser(server)
    an, bn = fresh("Lead"), fresh("Mate")
    a.sign_up(an)
    b.sign_up(bn)
    for seed in range(3):
        status, made = create(a, ["human", "human"], rated=True)
        assert status == 201
        status, joined = b.call("POST", f"/api/rooms/{made['room']}/join", {})
        assert status == 200
        play_out(server, made["room"], [made["token"], joined["token"]], seed=seed)
    board = wait_for(
        lambda: len((got := a.call("GET", "/api/leaderboard/kaboo")[1])["players"]) >= 2 and got
    )
    ours = [p for p in board["players"] if p["name"] in (an, bn)]
    assert sorted(p["name"] for p in ours) == sorted([an, bn])
    assert all(p["games"] == 3 for p in ours)
    assert [p["rank"] for p in board["players"]] == list(range(1, len(board["players"]) + 1))
    ratings = [p["rating"] for p in board["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert {lv["level"] for lv in board["levels"]} >= {"casual", "expert"}
    mates = a.call("GET", "/api/account/played-with")[1]["players"]
    assert [(m["name"], m["games"]) for m in mates] == [(bn, 3)]
    assert a.call("GET", "/api/leaderboard/nonesuch")[0] == 404
    assert Browser(server).call("GET", "/api/account/played-with")[0] == 401
