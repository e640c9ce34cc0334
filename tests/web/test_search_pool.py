"""Search-level AI moves (expert, master) in worker processes: the worker's choice is the
agent's own, rooms play through the pool to their end, the room answers while its AI thinks,
a dead worker is replaced, and the server stops its workers cleanly (or they leave by
themselves when it is killed)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable import variants
from cardtable.agents import get as get_agent
from cardtable.game import Game
from cardtable.seat import Seat
from cardtable.web.clock import ManualClock
from cardtable.web.rooms import ai_seed
from cardtable.web.search import WORKER_NICE, SearchPool, snapshot, think

from ..webserver import Server
from .client import Client, create_room
from .inprocess import manager_on, until
from .play import stored_game


# -- processes -------------------------------------------------------------------------------
def _stat(pid: int) -> list[str] | None:
    """Fields of /proc/PID/stat after the command name (state first), or ``None``."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def _alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def pool_workers(server: Server) -> list[int]:
    """Pids of the server's search workers (its ``multiprocessing`` spawned children)."""
    assert server.proc is not None
    parent = str(server.proc.pid)
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat(int(entry.name))
        if fields is None or fields[1] != parent or not _alive(int(entry.name)):
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmd:
            out.append(int(entry.name))
    return sorted(out)


def wait_for_workers(server: Server, n: int, timeout: float = 60.0) -> list[int]:
    """The server's ``n`` search workers, once they have started."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = pool_workers(server)
        if len(found) == n:
            return found
        time.sleep(0.05)
    raise AssertionError(f"expected {n} search worker(s), found {pool_workers(server)}")


@pytest.fixture
def pool_server(tmp_path: Path) -> Iterator[Server]:
    """A server with one search worker and no AI delay (SQLite: the pool is store-blind)."""
    srv = Server(tmp_path, ai_delay=0.0, ai_workers=1)
    srv.start()
    try:
        yield srv
    finally:
        for pid in pool_workers(srv):  # a test stopped it: let it finish
            os.kill(pid, signal.SIGCONT)
        srv.stop()


# -- the same choice as the agent in the server ------------------------------------------------
def _positions() -> list[tuple[str, Game]]:
    """Games at moments where the seat to act has a choice: mid-round in every variant, a
    later round of a match (its history starts again), gabo's simultaneous peek phase."""
    out: list[tuple[str, Game]] = []
    casual = [get_agent("casual", seed=s) for s in range(4)]

    def advance(g: Game, until: Any) -> Game:
        for _ in range(2000):
            seat = g.actors[0]
            if until(g) and len(g.legal_actions(seat)) > 1:
                return g
            g.play(seat, casual[seat].act(Seat(g, seat)))
        raise AssertionError("no such moment")

    for name in variants.names():
        g = cardtable.new_game(name, seed=3, options={"target": None})
        out.append((f"{name} mid-round", advance(g, lambda g: len(g.log["actions"]) >= 7)))
    match = cardtable.new_game("cabo", seed=5)  # a match to 100
    out.append(
        (
            "cabo round 2",
            advance(match, lambda g: g.view(0)["round"] >= 2 and len(g.history(0)) > 4),
        )
    )
    peek = cardtable.new_game("gabo", players=3, seed=4)
    assert len(peek.actors) == 3
    out.append(("gabo peek phase", peek))
    return out


def test_the_worker_gets_a_world_of_the_seat_and_chooses_what_the_agent_chooses() -> None:
    for what, game in _positions():
        seat = game.actors[0]
        blob = snapshot(game, seat)
        world = pickle.loads(blob)
        # the seat cannot tell the world from the game: its view (with the recent events that
        # seed the agent's decision), its legal actions, its history of the round
        assert world.view(seat) == game.view(seat), what
        assert world.view(seat, memory=False) == game.view(seat, memory=False), what
        assert world.legal_actions(seat) == game.legal_actions(seat), what
        assert world.history(seat) == game.history(seat), what
        assert world.history(seat), what
        # and it holds no log: the seed, from which every hidden card follows, stays here
        with pytest.raises(ValueError, match="no log"):
            world.log  # noqa: B018
        views = [game.view(s) for s in range(game.players)]
        expected = str(get_agent("expert", seed=99).act(Seat(game, seat)))
        assert think("expert", 99, seat, blob) == expected, what
        # the snapshot is the seat's world at that moment, whatever the live game does next
        game.play(seat, expected)
        later = pickle.loads(blob)
        assert later.view(seat) == views[seat], what


def test_a_world_sent_to_a_worker_holds_no_hidden_card_of_the_game() -> None:
    """Dealt again many times, the cards the seat does not know land elsewhere: the world is
    not the game in disguise."""
    game = cardtable.new_game("cabo", players=2, seed=11, options={"target": None})
    for s in (0, 1):  # both seats look at two of their cards
        game.play(s, "peek 0")
        game.play(s, "peek 1")
    seat = game.actors[0]
    other = 1 - seat
    world = pickle.loads(snapshot(game, seat))
    assert world.view(seat) == game.view(seat)
    # the cards only the other seat has seen are not the game's in the world
    theirs = [c["card"] for c in game.view(other)["hands"][other][:2]]
    dealt = [c["card"] for c in world.view(other)["hands"][other][:2]]
    assert None not in theirs and dealt != theirs


def test_the_pool_and_the_thread_answer_like_the_agent() -> None:
    what, game = next(p for p in _positions() if p[0].startswith("kaboo"))
    seat = game.actors[0]
    blob = snapshot(game, seat)
    expected = str(get_agent("expert", seed=7).act(Seat(game, seat)))

    async def ask(pool: SearchPool) -> str:
        try:
            return await pool.choose("expert", 7, seat, blob)
        finally:
            await pool.close()

    assert asyncio.run(ask(SearchPool(1))) == expected, what  # a worker process
    assert asyncio.run(ask(SearchPool(0))) == expected, what  # a thread (--ai-workers 0)


def _children() -> set[int]:
    """Pids of this process's living ``multiprocessing`` children."""
    return {p.pid for p in multiprocessing.active_children() if p.pid is not None}


def test_the_workers_start_with_the_server_and_are_ready_before_any_move(tmp_path: Path) -> None:
    async def scenario() -> None:
        url = f"sqlite+aiosqlite:///{tmp_path / 'web.db'}"
        before = _children()
        async with manager_on(url, ManualClock(), ai_workers=2) as manager:
            assert manager.search.ready == 0
            manager.start()  # as the app's lifespan does: no room, no AI move asked
            await until(lambda: manager.search.ready == 2, timeout=60.0)
            assert not manager.rooms
            assert len(_children() - before) == 2  # both processes, imports done

    asyncio.run(scenario())


def test_a_replaced_pool_is_warmed_too() -> None:
    what, game = next(p for p in _positions() if p[0].startswith("kaboo"))
    seat = game.actors[0]
    blob = snapshot(game, seat)
    expected = str(get_agent("expert", seed=7).act(Seat(game, seat)))

    async def scenario() -> None:
        pool = SearchPool(2)
        try:
            pool.warm()
            await until(lambda: pool.ready == 2, timeout=60.0)
            first = _children()
            os.kill(min(first), signal.SIGKILL)  # the pool breaks for good
            assert await pool.choose("expert", 7, seat, blob) == expected, what
            # the new pool starts every worker, not only the one the move needed
            await until(lambda: pool.ready == 2, timeout=60.0)
            assert len(_children() - first) == 2
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_a_negative_worker_count_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        SearchPool(-1)
    cmd = [sys.executable, "-m", "cardtable", "serve", "--ai-workers", "-1"]
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "--ai-workers" in done.stdout + done.stderr
    shown = subprocess.run(
        [sys.executable, "-m", "cardtable", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, COLUMNS="200"),
    )
    assert "--ai-workers" in shown.stdout


# -- rooms through the pool --------------------------------------------------------------------
def assert_moves_are_the_agents(
    server: Server,
    room: str,
    game: str,
    levels: list[str],
    *,
    defaults: frozenset[int] = frozenset(),
    over: bool = True,
    options: dict[str, Any] | None = None,
) -> int:
    """Every stored move of a search-level seat (but the ones at the indices in ``defaults``,
    played by the server when a window closed) is what that seat's agent, built as the server
    builds it, chooses on the game replayed here; returns how many such moves there were."""
    seed, _, actions = stored_game(server.db_url, room)
    g = cardtable.new_game(
        game, players=len(levels), seed=seed, options=options or {"target": None}
    )
    agents = {
        s: get_agent(lv, seed=ai_seed(seed, s)) for s, lv in enumerate(levels) if lv != "human"
    }
    searched = 0
    for i, (seat, action) in enumerate(actions):
        if levels[seat] in ("expert", "master") and i not in defaults:
            assert str(agents[seat].act(Seat(g, seat))) == action, f"move {i} of seat {seat}"
            searched += 1
        g.play(seat, action)
    assert g.over == over
    return searched


def test_an_expert_room_plays_to_its_end_through_the_pool(pool_server: Server) -> None:
    levels = ["expert", "random"]
    made = create_room(pool_server, "qute", levels, options={"target": None})
    watcher = Client(pool_server, made["room"])
    watcher.join()
    end = watcher.wait(lambda s: s["view"]["over"], timeout=180)
    assert end["status"] == "finished" and end["view"]["result"] is not None
    (worker,) = pool_workers(pool_server)  # one process, as asked, at a lower priority
    fields = _stat(worker)
    assert fields is not None and int(fields[16]) == WORKER_NICE
    assert assert_moves_are_the_agents(pool_server, made["room"], "qute", levels) > 0
    assert "Traceback" not in pool_server.log()


def test_the_room_answers_while_its_ai_thinks(pool_server: Server) -> None:
    made = create_room(pool_server, "qute", ["human", "expert"], options={"target": None})
    (worker,) = wait_for_workers(pool_server, 1)
    person = Client(pool_server, made["room"], made["token"])
    person.join()
    os.kill(worker, signal.SIGSTOP)  # the worker freezes: the expert's search cannot end
    try:
        for _ in range(100):  # play until the turn passes to the expert
            person.wait(lambda s: s["view"]["actors"] == [0])
            mine = person.act(person.state["view"]["legal"][0])  # type: ignore[index]
            if mine["view"]["actors"] == [1]:
                break
        else:
            raise AssertionError("the turn never passed to the expert")
        version = mine["version"]
        # the expert is thinking (in the frozen worker), and the room is not locked meanwhile:
        # a spectator joins, the person is told it is not their turn
        spectator = Client(pool_server, made["room"])
        seen = spectator.join()
        assert seen["version"] == version and seen["view"]["actors"] == [1]
        refused = person.act("draw", version)
        assert refused["type"] == "error" and refused["code"] == "not_your_turn"
        person.drain(1.0)
        assert person.state is not None and person.state["version"] == version
    finally:
        os.kill(worker, signal.SIGCONT)
    person.wait(lambda s: s["version"] > version, timeout=60)
    _, _, actions = stored_game(pool_server.db_url, made["room"])
    assert actions[version - 1][0] == 1  # the expert's move, played once the worker went on


def test_an_answer_for_a_state_that_is_gone_is_dropped(tmp_path: Path) -> None:
    srv = Server(tmp_path, ai_delay=0.0, ai_workers=1, peek_window=1.0, snap_window=60.0)
    srv.start()
    worker: int | None = None
    try:
        # a first room starts the worker (its expert waits for the person), which we freeze
        create_room(srv, "qute", ["human", "expert"], options={"target": None})
        (worker,) = wait_for_workers(srv, 1)
        os.kill(worker, signal.SIGSTOP)
        made = create_room(srv, "gabo", ["human", "expert"], options={"target": None})
        person = Client(srv, made["room"], made["token"])
        person.join()
        # the expert's peek is searched in the frozen worker; meanwhile the peek window
        # closes and the server peeks for both seats: the room has moved on
        turn = person.wait(lambda s: s["view"]["phase"] != "peek", timeout=60)
        defaults = [(0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1")]
        assert stored_game(srv.db_url, made["room"])[2] == defaults
        assert turn["view"]["actors"] == [0]
        os.kill(worker, signal.SIGCONT)
        # the stale search ends now: its answer ("peek N") must not be played. The person
        # plays on until the expert may act; its new search queues behind the stale one in
        # the only worker, so once the expert has moved, the stale answer is back too.
        version = turn["version"]
        for _ in range(10):
            legal = person.state["view"]["legal"]  # type: ignore[index]
            if not legal or person.state["view"]["actors"] != [0]:  # type: ignore[index]
                break
            pick = next((a for a in ("draw deck", "discard", "pass") if a in legal), legal[0])
            version = person.act(pick)["version"]
        person.wait(lambda s: s["version"] > version, timeout=60)
        _, _, actions = stored_game(srv.db_url, made["room"])
        assert actions[: len(defaults)] == defaults
        assert actions[version - 1][0] == 1  # the expert's move, for the state it was asked
        assert (
            assert_moves_are_the_agents(
                srv,
                made["room"],
                "gabo",
                ["human", "expert"],
                defaults=frozenset({2, 3}),
                over=False,
            )
            >= 1
        )
        assert "Traceback" not in srv.log(), srv.log()
    finally:
        if worker is not None:
            os.kill(worker, signal.SIGCONT)
        srv.stop()


def test_a_dead_worker_is_replaced_and_the_game_goes_on(pool_server: Server) -> None:
    levels = ["expert", "expert"]
    match = {"target": 1000}  # long enough to go on after the kill
    made = create_room(pool_server, "kaboo", levels, options=match)
    watcher = Client(pool_server, made["room"])
    watcher.join()
    (first,) = wait_for_workers(pool_server, 1)
    killed_at = watcher.wait(lambda s: s["version"] >= 2, timeout=120)["version"]
    os.kill(first, signal.SIGKILL)
    watcher.wait(lambda s: s["version"] >= killed_at + 3, timeout=180)
    (second,) = wait_for_workers(pool_server, 1)
    assert second != first
    assert "a search worker died" in pool_server.log()
    searched = assert_moves_are_the_agents(
        pool_server, made["room"], "kaboo", levels, over=False, options=match
    )
    assert searched >= killed_at + 2


# -- stopping ----------------------------------------------------------------------------------
def test_the_server_stops_cleanly_with_a_move_in_flight(tmp_path: Path) -> None:
    srv = Server(tmp_path, ai_delay=0.0, ai_workers=1)
    srv.start()
    try:
        # experts play a long match with no delay: from their first move on, one of them is
        # always searching (a search takes tenths of a second, the gap between two a few
        # milliseconds)
        made = create_room(srv, "kaboo", ["expert", "expert"], options={"target": 1000})
        watcher = Client(srv, made["room"])
        watcher.join()
        (worker,) = wait_for_workers(srv, 1)
        watcher.wait(lambda s: s["version"] >= 3, timeout=120)
    finally:
        srv.stop()
    assert srv.proc is not None
    # uvicorn re-raises the SIGTERM it handled once shut down; a shutdown that hung would have
    # been ended by SIGKILL
    assert srv.proc.returncode == -signal.SIGTERM, srv.log()
    assert not _alive(worker)
    assert "Traceback" not in srv.log() and "killed" not in srv.log()


def test_workers_leave_when_the_server_is_killed(tmp_path: Path) -> None:
    srv = Server(tmp_path, ai_delay=0.0, ai_workers=2)
    srv.start()
    try:
        create_room(srv, "kaboo", ["expert", "expert"], options={"target": 1000})
        workers = wait_for_workers(srv, 2)
    finally:
        srv.kill()
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)
