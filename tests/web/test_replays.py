"""Replays that cannot hurt the server: ``GET /api/rooms/{room}/games/{n}`` answers bounded
pages of a replay built once per game, off the event loop, and kept in a bounded cache.

Against a real uvicorn on 127.0.0.1 (SQLite and PostgreSQL, as the other web tests): a long
finished game of AI seats (qute to 1000 points between four ``random`` seats: about a thousand
moves, played by the server in a few seconds with no AI delay), paged in every way and compared
with the engine replayed from the store. In process: the cache itself (one build for
concurrent requests, the event loop free during a build, least-recently-used eviction by
bytes) and the page maker. A seat's own view: only with that seat's token, and equal at every
step to what the engine shows that seat. The ends of rounds: the table at each round's end,
every hand shown, beside the next deal.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cardtable import variants
from cardtable.agents import get as get_agent
from cardtable.seat import Seat
from cardtable.web import replays
from cardtable.web.replays import (
    MAX_COUNT,
    BuiltReplay,
    ReplayCache,
    ReplaySource,
    build_replay,
    page_body,
)

from ..webserver import Server, http
from .client import Client, create_room, join_room
from .play import card_codes, drive, stored_game

RANDOMS = ["random"] * 4


# -- helpers ------------------------------------------------------------------------------------


def fetch(url: str, token: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """One GET (with ``token`` in the ``X-Seat-Token`` header if given): status, headers
    (lower-case names) and the raw body."""
    req = urllib.request.Request(url)
    if token is not None:
        req.add_header("X-Seat-Token", token)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def finished_room(server: Server, target: int) -> str:
    """A room of four ``random`` AI seats playing qute to ``target``, once its game is over."""
    made = create_room(server, "qute", RANDOMS, options={"target": target})
    room: str = made["room"]
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        _, listing = http("GET", f"{server.url}/api/rooms/{room}/games")
        games = listing["games"]
        if games and games[0]["status"] == "finished":
            return room
        time.sleep(0.2)
    raise AssertionError(f"the game of room {room} did not end")


def plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples become lists)."""
    return json.loads(json.dumps(value))


def engine_replay(
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    actions: list[tuple[int, str]],
    viewer: int | None = None,
) -> tuple[Any, list[dict[str, Any]], Any]:
    """The initial view, the steps and the result, from the engine: as a spectator sees them,
    or as seat ``viewer`` does. A step that ends a round of a match is marked with
    ``"end_view": True`` (the server's step carries the table at the round's end there)."""
    g = variants.new_game(game, players=players, seed=seed, options=options)

    def look() -> Any:
        return plain(g.spectator_view() if viewer is None else g.view(viewer))

    initial = view = look()
    last = initial["events"][-1]["seq"]
    steps = []
    for seat, action in actions:
        rounds = len(view["round_results"])
        g.play(seat, action)
        view = look()
        # every move of these games is its seat's own (no clock ran out, nobody stood in)
        step = {"seat": seat, "action": action, "by": None, "view": view, "first_event": last + 1}
        if len(view["round_results"]) > rounds and not view["over"]:
            step["end_view"] = True
        steps.append(step)
        last = view["events"][-1]["seq"] if view["events"] else last
    result = g.result
    return initial, steps, plain(result.to_dict() if result is not None else None)


def untold(view: Any) -> Any:
    """A view of the server's replay as the engine gives it: its events without the words the
    server adds (``said``, checked in test_said.py)."""
    events = [{k: v for k, v in e.items() if k != "said"} for e in view["events"]]
    return {**view, "events": events}


def marked(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Server steps with ``end_view`` replaced by ``True`` (checked on its own elsewhere) and
    their views as the engine gives them (:func:`untold`)."""
    return [
        {**s, "view": untold(s["view"])} | ({"end_view": True} if "end_view" in s else {})
        for s in steps
    ]


def all_pages(url: str, count: int | None = None) -> list[dict[str, Any]]:
    """Every page of a replay, following ``next`` from 0."""
    pages: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        query = f"?start={start}" + (f"&count={count}" if count is not None else "")
        status, page = http("GET", url + query)
        assert status == 200, page
        assert page["start"] == start
        pages.append(page)
        start = page["next"]
        assert len(pages) <= 10_000
    return pages


def random_game(game: str, players: int, options: dict[str, Any], seed: int) -> ReplaySource:
    """A finished game of ``random`` agents, played in process."""
    g = variants.new_game(game, players=players, seed=seed, options=options)
    agents = [get_agent("random", seed * 10 + s) for s in range(players)]
    played: list[tuple[int, str]] = []
    while not g.over:
        seat = next(s for s in range(players) if g.legal_actions(s))
        action = str(agents[seat].act(Seat(g, seat)))
        g.play(seat, action)
        played.append((seat, action))
    return ReplaySource(game, players, g.options, seed, played)


@pytest.fixture(scope="module")
def long_game(server: Server) -> Iterator[tuple[str, dict[str, Any]]]:
    """A finished room of about a thousand moves, and the engine's replay of it."""
    room = finished_room(server, 1000)
    seed, _, actions = stored_game(server.db_url, room, 1)
    _, summary = http("GET", f"{server.url}/api/rooms/{room}")
    initial, steps, result = engine_replay("qute", 4, summary["options"], seed, actions)
    yield room, {"initial": initial, "steps": steps, "result": result}


# -- the server ---------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [None, 37, MAX_COUNT])
def test_pages_concatenate_to_the_engine_replay(
    server: Server, long_game: tuple[str, dict[str, Any]], count: int | None
) -> None:
    room, expected = long_game
    url = f"{server.url}/api/rooms/{room}/games/1"
    pages = all_pages(url, count)
    total = len(expected["steps"])
    assert total > 2 * MAX_COUNT  # several pages at any count
    steps = [s for p in pages for s in p["steps"]]
    assert marked(steps) == expected["steps"]
    asked = count if count is not None else replays.DEFAULT_COUNT
    _, summary = http("GET", f"{server.url}/api/rooms/{room}")
    for i, page in enumerate(pages):
        assert page["total"] == total
        assert page["room"] == room and page["game_no"] == 1 and page["game"] == "qute"
        assert page["players"] == 4 and page["seats"] == summary["seats"]
        assert page["result"] == expected["result"]
        assert 1 <= len(page["steps"]) <= asked
        if i == 0:
            assert untold(page["initial"]) == expected["initial"]
        else:
            assert "initial" not in page
        last = i == len(pages) - 1
        assert page["next"] == (None if last else page["start"] + len(page["steps"]))
    assert pages[-1]["start"] + len(pages[-1]["steps"]) == total
    assert "seed" not in json.dumps(pages)


def test_any_window_is_the_same_steps(
    server: Server, long_game: tuple[str, dict[str, Any]]
) -> None:
    room, expected = long_game
    url = f"{server.url}/api/rooms/{room}/games/1"
    total = len(expected["steps"])
    for start, count in [(1, 1), (99, 2), (150, 200), (total - 3, 200), (total - 1, 1)]:
        status, page = http("GET", f"{url}?start={start}&count={count}")
        assert status == 200, page
        got = len(page["steps"])  # at most count, fewer when the page is full of bytes
        assert 1 <= got <= count
        assert marked(page["steps"]) == expected["steps"][start : start + got]
        stop = start + got
        assert page["next"] == (stop if stop < total else None)
        assert "initial" not in page


def test_page_requests_out_of_bounds(server: Server, long_game: tuple[str, dict[str, Any]]) -> None:
    room, expected = long_game
    url = f"{server.url}/api/rooms/{room}/games/1"
    total = len(expected["steps"])
    # past the end: no steps, no next page
    for start in (total, total + 1, replays.MAX_START):
        status, page = http("GET", f"{url}?start={start}")
        assert status == 200, page
        assert page["steps"] == [] and page["next"] is None and page["total"] == total
    # refused, with a short message
    for query in (
        "?count=0",
        f"?count={MAX_COUNT + 1}",
        "?count=-5",
        "?count=1000000",
        "?start=-1",
        f"?start={replays.MAX_START + 1}",
        "?start=" + "9" * 40,
        "?start=x",
        "?count=1.5",
    ):
        status, answer = http("GET", url + query)
        assert status == 422, (query, answer)
        assert len(json.dumps(answer["detail"])) < 400, answer
    _, answer = http("GET", f"{url}?count={MAX_COUNT + 1}")
    assert answer["detail"] == f"count must be from 1 to {MAX_COUNT}"


def test_unknown_rooms_and_games_and_games_in_play(server: Server) -> None:
    assert http("GET", f"{server.url}/api/rooms/nosuchroom/games/1")[0] == 404
    made = create_room(server, "kaboo", ["human", "random"], options={"target": None})
    room = made["room"]
    for n in (0, 2, -1, 10**6):
        status, answer = http("GET", f"{server.url}/api/rooms/{room}/games/{n}")
        assert status == 404, answer
    # the creator's seat is taken: the game is dealt and waits for a person
    status, answer = http("GET", f"{server.url}/api/rooms/{room}/games/1")
    assert status == 409 and "in play" in answer["detail"], answer
    status, answer = http("GET", f"{server.url}/api/rooms/{room}/games/1?start=5&count=7")
    assert status == 409, answer


def test_parallel_requests_share_one_build(server: Server) -> None:
    room = finished_room(server, 300)
    url = f"{server.url}/api/rooms/{room}/games/1"
    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(fetch, [url] * 20))
    assert {status for status, _, _ in answers} == {200}
    assert len({body for _, _, body in answers}) == 1  # the same bytes for all
    builds = {headers["x-replay-build"] for _, headers, _ in answers}
    assert len(builds) == 1, builds  # one build served them all
    # later requests, other pages: from the cache, still that build
    (build,) = builds
    with ThreadPoolExecutor(20) as pool:
        later = list(pool.map(fetch, [f"{url}?start={i * 3}&count=5" for i in range(20)]))
    assert {status for status, _, _ in later} == {200}
    assert {headers["x-replay-build"] for _, headers, _ in later} == {build}
    # another game is another build
    other = finished_room(server, 50)
    status, headers, _ = fetch(f"{server.url}/api/rooms/{other}/games/1")
    assert status == 200 and headers["x-replay-build"] != build


def test_answers_are_bounded(server: Server, long_game: tuple[str, dict[str, Any]]) -> None:
    room, expected = long_game
    url = f"{server.url}/api/rooms/{room}/games/1"
    status, headers, body = fetch(f"{url}?start=0&count={MAX_COUNT}")
    assert status == 200 and headers["content-type"] == "application/json"
    steps = json.loads(body)["steps"]
    largest = max(len(json.dumps(s)) for s in expected["steps"])
    assert len(body) <= replays.PAGE_BYTES + largest + len(json.dumps(expected["initial"])) + 4096
    assert len(steps) <= MAX_COUNT


# -- the cache and the pages, in process ----------------------------------------------------


@pytest.fixture(scope="module")
def match() -> ReplaySource:
    """A long match played in process (qute to 1000, two ``random`` seats)."""
    return random_game("qute", 2, {"target": 1000, "max_turns": 10000}, 3)


@pytest.fixture(scope="module")
def medium() -> ReplaySource:
    """A shorter match (qute to 300, two ``random`` seats)."""
    return random_game("qute", 2, {"target": 300}, 5)


@pytest.fixture(scope="module")
def short_games() -> list[ReplaySource]:
    """Four one-round games of different sizes."""
    return [random_game("kaboo", 2, {"target": None}, seed) for seed in range(4)]


def concatenated(built: BuiltReplay, count: int) -> tuple[Any, list[Any]]:
    """The initial view and every step, read page by page from :func:`page_body`."""
    meta = {"room": "r", "game_no": 1}
    start: int | None = 0
    initial = None
    steps: list[Any] = []
    while start is not None:
        page = json.loads(page_body(built, meta, start, count))
        assert page["start"] == start and page["room"] == "r" and page["total"] == built.total
        if start == 0:
            initial = page["initial"]
        else:
            assert "initial" not in page
        assert page["steps"], page
        steps += page["steps"]
        start = page["next"]
    return initial, steps


def test_page_body_matches_the_engine(medium: ReplaySource) -> None:
    match = medium
    built = build_replay(match)
    assert built.total == len(match.actions)
    assert built.nbytes < built.raw_bytes / 5  # the views compress well
    initial, steps, result = engine_replay(
        match.game, match.players, dict(match.options), match.seed, list(match.actions)
    )
    assert built.total > 2 * MAX_COUNT
    for count in (7, 100, MAX_COUNT, 10**6):
        got_initial, got_steps = concatenated(built, count)
        assert untold(got_initial) == initial
        assert marked(got_steps) == steps
    for start in range(0, built.total, 37):
        one = json.loads(page_body(built, {"room": "r"}, start, 1))
        assert marked(one["steps"]) == steps[start : start + 1]
    assert json.loads(built.result) == result
    empty = json.loads(page_body(built, {"room": "r"}, built.total, 5))
    assert empty["steps"] == [] and empty["next"] is None


def test_pages_stop_at_the_byte_bound(
    medium: ReplaySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = medium
    monkeypatch.setattr(replays, "BLOCK_STEPS", 7)  # pages span many blocks
    built = build_replay(match)
    assert len(built.blocks) >= built.total // 7
    monkeypatch.setattr(replays, "PAGE_BYTES", 50_000)
    initial, steps, _ = engine_replay(
        match.game, match.players, dict(match.options), match.seed, list(match.actions)
    )
    got_initial, got_steps = concatenated(built, MAX_COUNT)
    assert untold(got_initial) == initial and marked(got_steps) == steps
    for start in (0, 13, built.total // 2, built.total - 1):
        page = json.loads(page_body(built, {"room": "r"}, start, MAX_COUNT))
        sizes = [len(json.dumps(s, separators=(",", ":"))) for s in page["steps"]]
        assert sizes and (len(sizes) == 1 or sum(sizes) + len(sizes) <= 50_000)
        assert page["next"] == (start + len(sizes) if start + len(sizes) < built.total else None)
    monkeypatch.setattr(replays, "PAGE_BYTES", 10)  # smaller than any step: one step a page
    page = json.loads(page_body(built, {"room": "r"}, 5, MAX_COUNT))
    assert len(page["steps"]) == 1 and page["next"] == 6


def test_concurrent_requests_share_one_build(short_games: list[ReplaySource]) -> None:
    calls = 0

    async def source() -> ReplaySource:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.05)  # the store being read: every request arrives meanwhile
        return short_games[0]

    async def main() -> None:
        cache = ReplayCache()
        got = await asyncio.gather(*(cache.get(("r", 1), source) for _ in range(20)))
        assert all(b is got[0] for b in got)
        assert cache.builds == 1 and calls == 1 and got[0].build_no == 1
        again = await cache.get(("r", 1), source)
        assert again is got[0] and cache.hits == 1 and cache.builds == 1 and calls == 1
        other = await cache.get(("r", 2), source)
        assert other is not got[0] and other.build_no == 2 and cache.builds == 2
        cache.close()

    asyncio.run(main())


def test_a_request_that_goes_away_leaves_the_build_to_the_others(
    short_games: list[ReplaySource],
) -> None:
    async def source() -> ReplaySource:
        await asyncio.sleep(0.05)
        return short_games[1]

    async def main() -> None:
        cache = ReplayCache()
        first = asyncio.ensure_future(cache.get(("r", 1), source))
        second = asyncio.ensure_future(cache.get(("r", 1), source))
        await asyncio.sleep(0.01)
        first.cancel()
        built = await second
        assert first.cancelled() and built.total == len(short_games[1].actions)
        assert cache.builds == 1 and ("r", 1) in cache
        cache.close()

    asyncio.run(main())


def test_a_failed_build_reaches_every_request_and_is_not_kept(
    short_games: list[ReplaySource],
) -> None:
    calls = 0

    async def failing() -> ReplaySource:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.01)
        raise LookupError("no such game")

    async def main() -> None:
        cache = ReplayCache()
        got = await asyncio.gather(
            *(cache.get(("r", 1), failing) for _ in range(5)), return_exceptions=True
        )
        assert all(isinstance(e, LookupError) for e in got) and calls == 1
        assert len(cache) == 0 and cache.builds == 0
        with pytest.raises(LookupError):
            await cache.get(("r", 1), failing)
        assert calls == 2

        async def bad_game() -> ReplaySource:  # an action the engine refuses
            src = short_games[0]
            return ReplaySource(src.game, src.players, src.options, src.seed, [(0, "nonsense")])

        with pytest.raises(ValueError):
            await cache.get(("r", 2), bad_game)
        assert len(cache) == 0
        cache.close()

    asyncio.run(main())


def test_the_event_loop_stays_responsive_during_a_build(
    match: ReplaySource, monkeypatch: pytest.MonkeyPatch
) -> None:
    # where the steps are built: never the event loop's thread
    threads: set[int] = set()
    run_block = replays.ReplayBuilder.run_block

    def watched(self: replays.ReplayBuilder) -> bool:
        threads.add(threading.get_ident())
        return run_block(self)

    monkeypatch.setattr(replays.ReplayBuilder, "run_block", watched)

    async def main() -> tuple[int, BuiltReplay]:
        cache = ReplayCache()
        ticks = 0
        done = False

        async def ticker() -> None:
            nonlocal ticks
            while not done:
                await asyncio.sleep(0.01)
                ticks += 1

        async def source() -> ReplaySource:
            return match

        task = asyncio.create_task(ticker())
        await asyncio.sleep(0.05)
        ticks = 0
        built = await cache.get(("r", 1), source)
        done = True
        await task
        cache.close()
        return ticks, built

    ticks, built = asyncio.run(main())
    assert built.total == len(match.actions) > 2000
    assert threads and threading.get_ident() not in threads  # asyncio.run's loop: this thread
    assert ticks >= 2  # the loop kept running while the replay was built


def test_the_cache_drops_the_least_recently_used_by_bytes(
    short_games: list[ReplaySource],
) -> None:
    # every key is the same game here: replays of one size
    size = build_replay(short_games[0]).nbytes

    async def source() -> ReplaySource:
        return short_games[0]

    async def main() -> None:
        cache = ReplayCache(max_bytes=2 * size + size // 2)  # room for two, not three
        await cache.get(("r", 0), source)
        await cache.get(("r", 1), source)
        assert cache.keys() == [("r", 0), ("r", 1)] and cache.bytes == 2 * size
        await cache.get(("r", 0), source)  # a use: 1 is now the least recent
        assert cache.keys() == [("r", 1), ("r", 0)]
        await cache.get(("r", 2), source)
        assert cache.keys() == [("r", 0), ("r", 2)] and cache.evictions == 1
        assert cache.bytes == 2 * size <= cache.max_bytes
        await cache.get(("r", 1), source)  # dropped: built again
        assert cache.builds == 4 and cache.keys() == [("r", 2), ("r", 1)]
        cache.close()

        # bounded by entries too
        few = ReplayCache(max_entries=2)
        for i in range(4):
            await few.get(("r", i), source)
        assert few.keys() == [("r", 2), ("r", 3)] and few.evictions == 2
        few.close()

        # a replay larger than the whole cache is served, not kept
        tiny = ReplayCache(max_bytes=size - 1)
        got = await tiny.get(("r", 0), source)
        assert got.total == len(short_games[0].actions) and len(tiny) == 0 and tiny.bytes == 0
        tiny.close()

    asyncio.run(main())


# -- a seat's own view ----------------------------------------------------------------------------


def seat_pages(url: str, seat: int, token: str) -> list[dict[str, Any]]:
    """Every page of the replay of ``seat``'s view, asked with ``token``."""
    pages: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        status, headers, body = fetch(f"{url}?seat={seat}&start={start}", token)
        assert status == 200, body
        assert "no-store" in headers["cache-control"]  # one person's view: never kept on the way
        page = json.loads(body)
        assert page["start"] == start and page["viewer"] == seat
        pages.append(page)
        start = page["next"]
    return pages


@pytest.fixture(scope="module")
def people_match(server: Server) -> tuple[str, int, list[str]]:
    """A room of two people (kaboo, a match to 30) and the number of one of its games that
    took at least two rounds (rematches until one does), with the two seats' tokens."""
    made = create_room(server, "kaboo", ["human", "human"], options={"target": 30})
    room = made["room"]
    other = join_room(server, room, "Bob")
    tokens = [made["token"], other["token"]]
    clients = [Client(server, room, t) for t in tokens]
    rng = random.Random(11)
    try:
        for c in clients:
            c.join()
        for game_no in range(1, 11):
            drive(clients, rng)
            _, listing = http("GET", f"{server.url}/api/rooms/{room}/games")
            game = listing["games"][game_no - 1]
            assert game["status"] == "finished"
            if len(game["result"]["rounds"]) >= 2:
                return room, game_no, tokens
            offer = clients[0].request(type="rematch", room=room, token=tokens[0])
            assert offer["rematch"] == {"by": 0, "accepted": [0], "declined": []}, offer
            again = clients[1].request(type="rematch", room=room, token=tokens[1], accept=True)
            assert again["type"] == "state" and again["game_no"] == game_no + 1, again
            for c in clients:
                c.wait(lambda s, n=game_no + 1: s["game_no"] == n and not s["view"]["over"])
    finally:
        for c in clients:
            c.close()
    raise AssertionError("ten matches to 30 all ended after one round")


def test_a_seat_replay_is_what_the_engine_showed_that_seat(
    server: Server, people_match: tuple[str, int, list[str]]
) -> None:
    room, game_no, tokens = people_match
    url = f"{server.url}/api/rooms/{room}/games/{game_no}"
    seed, _, actions = stored_game(server.db_url, room, game_no)
    _, summary = http("GET", f"{server.url}/api/rooms/{room}")
    spectator = [s for p in all_pages(url) for s in p["steps"]]
    for seat in (0, 1):
        pages = seat_pages(url, seat, tokens[seat])
        initial, expected, result = engine_replay(
            "kaboo", 2, summary["options"], seed, actions, viewer=seat
        )
        steps = [s for p in pages for s in p["steps"]]
        assert untold(pages[0]["initial"]) == initial
        assert marked(steps) == expected  # every step: the engine's view(seat) after it
        assert all(p["result"] == result and p["total"] == len(actions) for p in pages)
        # what the seat knew and a spectator did not: its own peeks
        mine = [
            (k, i)
            for k, (step, watched) in enumerate(zip(steps, spectator, strict=True))
            for i, slot in enumerate(step["view"]["hands"][seat])
            if slot and slot["card"] and not watched["view"]["hands"][seat][i]["card"]
        ]
        assert mine, "the seat's view shows nothing more than the spectator's"
        # and never a card of the other seat that it had not seen (round ends aside)
        for step in steps:
            for slot in step["view"]["hands"][1 - seat]:
                if slot and slot["card"]:
                    assert seat in slot["seen"] or step["view"]["over"], slot
        assert "seed" not in json.dumps(pages) and tokens[seat] not in json.dumps(pages)


def test_a_seat_replay_needs_that_seat_s_token(
    server: Server, people_match: tuple[str, int, list[str]]
) -> None:
    room, game_no, tokens = people_match
    url = f"{server.url}/api/rooms/{room}/games/{game_no}"
    refusals: list[str] = []
    for seat, token in [
        (0, None),  # no token
        (0, ""),
        (0, tokens[1]),  # the other seat's token
        (1, tokens[0]),
        (0, "not-a-token"),
        (1, tokens[1][:-1]),  # nearly right
    ]:
        status, headers, body = fetch(f"{url}?seat={seat}", token)
        assert status == 403, (seat, body)
        assert "no-store" not in headers.get("cache-control", "")
        refusals.append(json.loads(body)["detail"])
    # one plain message, whatever was wrong: it tells nobody which seat a token holds
    assert len(set(refusals)) == 1, refusals
    assert "seat" in refusals[0] and not card_codes(refusals[0])
    for seat in (2, -1, 10**6):
        status, _, body = fetch(f"{url}?seat={seat}", tokens[0])
        assert status == 422 and "seat must be from 0 to 1" in body.decode(), body
    status, _, body = fetch(f"{url}?seat=x", tokens[0])
    assert status == 422
    # a good token for another room's seat is refused too; the right one opens the view
    elsewhere = create_room(server, "kaboo", ["human", "random"], options={"target": None})
    status, _, _ = fetch(f"{url}?seat=0", elsewhere["token"])
    assert status == 403
    status, _, body = fetch(f"{url}?seat=1&count=1", tokens[1])
    assert status == 200 and json.loads(body)["viewer"] == 1
    # the spectator's replay needs no token, and says so
    status, page = http("GET", f"{url}?count=1")
    assert status == 200 and page["viewer"] is None
    # a game in play has no replay, not even for its own seats
    status, _, body = fetch(
        f"{server.url}/api/rooms/{elsewhere['room']}/games/1?seat=0", elsewhere["token"]
    )
    assert status == 409, body


def test_round_ends_are_in_the_replay_of_a_people_match(
    server: Server, people_match: tuple[str, int, list[str]]
) -> None:
    room, game_no, tokens = people_match
    url = f"{server.url}/api/rooms/{room}/games/{game_no}"
    for pages in (all_pages(url), seat_pages(url, 0, tokens[0])):
        steps = [s for p in pages for s in p["steps"]]
        check_round_ends(pages[0], steps, spectator=pages[0]["viewer"] is None)


# -- the ends of rounds ---------------------------------------------------------------------------


def check_round_ends(
    first: dict[str, Any], steps: list[dict[str, Any]], *, spectator: bool
) -> None:
    """The round ends of one whole replay (its first page and every step): ``rounds`` counts
    each round's moves; the step that ends a round of a match, and only it, carries the table
    at that round's end, which is the round as the next deal's view reports it, every card
    face up, nobody to act, the match going on."""
    rounds = first["rounds"]
    final = steps[-1]["view"]
    assert final["over"] and [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert len(rounds) == len(final["round_results"]) and sum(r["moves"] for r in rounds) == len(
        steps
    )
    last_moves = set()
    at = 0
    for r in rounds:
        at += r["moves"]
        last_moves.add(at - 1)
    for k, step in enumerate(steps):
        ends_match = k == len(steps) - 1
        if k not in last_moves or ends_match:
            assert "end_view" not in step, k
            continue
        end, after = step["end_view"], step["view"]
        number = len(after["round_results"])
        result = after["round_results"][-1]
        assert result["round"] == number == end["round"] == after["round"] - 1
        # the table at the round's end: every hand as the round's result shows it, face up
        shown = [[slot["card"] if slot else None for slot in hand] for hand in end["hands"]]
        assert shown == result["hands"]
        if spectator:  # which is a reveal: more cards face up than before the last move
            before = steps[k - 1]["view"]["hands"]
            assert sum(c is not None for h in shown for c in h) > sum(
                bool(slot and slot["card"]) for h in before for slot in h
            )
        assert end["phase"] == "over" and not end["over"] and end["result"] is None
        assert end["actors"] == [] and end["legal"] == []
        assert end["round_results"] == after["round_results"]
        assert end["totals"] == after["totals"] == result["totals"]
        assert end["target"] == after["target"] is not None
        # its events: the step's own up to the round's end, none of the next deal
        assert end["events"][-1]["type"] == "round_end"
        assert end["events"][-1]["round"] == number
        assert end["events"] == after["events"][: len(end["events"])]
        own = [e for e in end["events"] if e["seq"] >= step["first_event"]]
        assert own and own[-1] is end["events"][-1]
        assert after["events"][len(end["events"])]["type"] == "round_start"


@pytest.mark.parametrize(
    ("game", "players", "options", "seed"),
    [
        # seeds whose matches of random players take two rounds or more
        ("kaboo", 3, {"target": 40}, 4),
        ("cabo", 2, {"target": 40}, 1),
        ("cabo-german", 2, {"target": 200}, 4),
        ("gabo", 3, {"target": 100}, 3),
        ("qute", 2, {"target": 150}, 5),
    ],
)
def test_every_round_end_is_a_step_of_the_replay(
    game: str, players: int, options: dict[str, Any], seed: int
) -> None:
    match = random_game(game, players, options, seed)
    for viewer in (None, players - 1):
        built = build_replay(dataclasses.replace(match, seat=viewer))
        first = json.loads(page_body(built, {"room": "r"}, 0, 1))
        _, steps = concatenated(built, MAX_COUNT)
        assert len(first["rounds"]) >= 2, "the match should take several rounds"
        check_round_ends(first, steps, spectator=viewer is None)
        _, expected, _ = engine_replay(
            game, players, dict(match.options), match.seed, list(match.actions), viewer
        )
        assert marked(steps) == expected
