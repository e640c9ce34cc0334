"""The protocol against a real uvicorn on 127.0.0.1, on SQLite and on a real PostgreSQL.

Every bad message gets an error frame and changes nothing; checks happen in the documented
order; whole games of every variant go over the wire, and every frame a seat or spectator
receives is exactly what the engine (replayed from the store) lets it see.
"""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardtable import variants
from cardtable.web.movelog import MAX_LOG_ENTRIES
from cardtable.web.said import seat_names

from ..webserver import Server, http
from .client import Client, create_room, join_room
from .play import (
    card_codes,
    drive,
    expected_log,
    replay_expected,
    stored_game,
    unsaid,
    unsaid_log,
    unsaid_view,
)

VARIANTS = ["cabo", "cabo-german", "gabo", "kaboo", "qute"]


def snapshot(server: Server, room: str, token: str | None) -> tuple[Any, ...]:
    """Everything a bad message must not change: version, stored games, the seat's view."""
    _, summary = http("GET", f"{server.url}/api/rooms/{room}")
    _, games = http("GET", f"{server.url}/api/rooms/{room}/games")
    c = Client(server, room, token)
    try:
        state = c.join()
    finally:
        c.close()
    return summary["version"], summary["status"], games, state["view"]


def two_seat_room(server: Server, game: str = "qute", **body: Any) -> tuple[str, Client, Client]:
    """A room of two people, both joined; returns room id and the two clients."""
    made = create_room(server, game, ["human", "human"], options={"target": None}, **body)
    other = join_room(server, made["room"], "Bo")
    a = Client(server, made["room"], made["token"])
    b = Client(server, made["room"], other["token"])
    a.join()
    b.join()
    return made["room"], a, b


# -- HTTP -------------------------------------------------------------------------------------


def test_reference_endpoints(server: Server) -> None:
    status, found = http("GET", server.url + "/api/variants")
    assert status == 200
    assert [v["name"] for v in found] == variants.names()
    assert all(v["options"] for v in found)
    status, levels = http("GET", server.url + "/api/levels")
    assert {lv["name"] for lv in levels} >= {"beginner", "casual", "expert", "master"}
    status, rules = http("GET", server.url + "/api/rules/gabo")
    assert status == 200 and rules["title"] == "Gabo" and "snap" in rules["markdown"].lower()
    status, missing = http("GET", server.url + "/api/rules/poker")
    assert status == 404 and "poker" in missing["detail"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "poker", "seats": [{"type": "human"}, {"type": "human"}]}, 400, "poker"),
        (
            {"game": "kaboo", "seats": [{"type": "human"}, {"type": "ai", "level": "god"}]},
            400,
            "level",
        ),
        (
            {"game": "kaboo", "players": 3, "seats": [{"type": "human"}, {"type": "human"}]},
            400,
            "players",
        ),
        ({"game": "qute", "seats": [{"type": "human"}]}, 400, "players"),
        (
            {"game": "kaboo", "seats": [{"type": "human", "level": "casual"}, {"type": "human"}]},
            400,
            "level",
        ),
        (
            {"game": "kaboo", "seats": [{"type": "human"}] * 2, "options": {"colour": 1}},
            400,
            "colour",
        ),
        (
            {"game": "kaboo", "seats": [{"type": "human"}] * 2, "options": {"target": "x"}},
            400,
            "target",
        ),
        ({"game": "kaboo"}, 422, "seats"),
        ({"game": "kaboo", "seats": [{"type": "robot"}]}, 422, "type"),
    ],
)
def test_create_refuses_bad_bodies(
    server: Server, body: dict[str, Any], status: int, words: str
) -> None:
    got, answer = http("POST", server.url + "/api/rooms", body)
    assert got == status, answer
    assert words in json.dumps(answer["detail"])


def test_lobby_join_and_private_rooms(server: Server) -> None:
    made = create_room(server, "cabo", ["human", "human", "casual"], name="Ann")
    hidden = create_room(server, "cabo", ["human", "human"], public=False)
    _, lobby = http("GET", server.url + "/api/rooms")
    listed = {r["room"]: r for r in lobby["rooms"]}
    assert made["room"] in listed and hidden["room"] not in listed
    mine = listed[made["room"]]
    assert mine["status"] == "waiting"
    assert [s["taken"] for s in mine["seats"]] == [True, False, True]
    assert mine["seats"][0]["name"] == "Ann" and mine["seats"][2]["level"] == "casual"
    assert made["token"] not in json.dumps(lobby)
    joined = join_room(server, made["room"], "Bo")
    assert joined["seat"] == 1 and joined["token"] != made["token"]
    _, summary = http("GET", f"{server.url}/api/rooms/{made['room']}")
    assert summary["status"] == "playing" and summary["game_no"] == 1 and summary["version"] >= 1
    assert "seed" not in summary and joined["token"] not in json.dumps(summary)
    status, full = http("POST", f"{server.url}/api/rooms/{made['room']}/join", {"name": "Cy"})
    assert status == 409 and "taken" in full["detail"]
    status, _unknown = http("POST", f"{server.url}/api/rooms/nope/join", {})
    assert status == 404
    assert http("GET", f"{server.url}/api/rooms/nope")[0] == 404
    assert http("GET", f"{server.url}/api/rooms/nope/games")[0] == 404


# -- bad messages -----------------------------------------------------------------------------


def test_every_bad_message_gets_an_error_and_changes_nothing(server: Server) -> None:
    room, a, b = two_seat_room(server, "qute")
    assert a.state is not None and b.state is not None
    view = a.state["view"]
    assert view["actors"] == [0]
    legal = view["legal"][0]
    version = a.state["version"]
    before = snapshot(server, room, a.token)
    good = {"type": "act", "room": room, "token": a.token, "action": legal, "version": version}
    cases: list[tuple[Client, str | bytes, str]] = [
        (a, "this is not json", "malformed"),
        (a, b"\xff\xfe\x00", "binary_frame"),
        (a, "[1, 2, 3]", "malformed"),
        (a, json.dumps({"room": room}), "malformed"),
        (a, json.dumps({"type": "dance", "id": 7}), "unknown_type"),
        (a, json.dumps({**good, "action": "x" * 5000}), "too_large"),
        (a, json.dumps({**good, "version": str(version)}), "malformed"),
        (a, json.dumps({**good, "colour": "red"}), "malformed"),
        (a, json.dumps({k: v for k, v in good.items() if k != "token"}), "malformed"),
        (a, json.dumps({**good, "room": "no-such-room"}), "unknown_room"),
        (a, json.dumps({**good, "token": "forged-token"}), "bad_token"),
        (b, json.dumps({**good, "token": b.token}), "not_your_turn"),
        (a, json.dumps({**good, "action": "dance wildly"}), "illegal"),
        (a, json.dumps({**good, "action": "draw deck"}), "illegal"),
        (a, json.dumps({**good, "version": version - 1}), "stale"),
        (a, json.dumps({**good, "version": version + 5}), "stale"),
        (a, json.dumps({"type": "start", "room": room, "token": a.token}), "not_allowed"),
        (a, json.dumps({"type": "rematch", "room": room, "token": a.token}), "game_over"),
    ]
    for client, frame, code in cases:
        client.drain()
        client.send_raw(frame)
        got = client.recv(10)
        assert got is not None and got["type"] == "error", (frame, got)
        assert got["code"] == code, (frame, got)
        assert got["message"] and isinstance(got["message"], str)
        assert not card_codes(got["message"]), got
    assert a.request(type="ping")["type"] == "pong"  # the connection survives them all
    assert snapshot(server, room, a.token) == before
    # ... and the good message still plays
    played = a.act(legal, version)
    assert played["type"] == "state" and played["version"] == version + 1


def test_errors_echo_the_message_id(server: Server) -> None:
    room, a, _ = two_seat_room(server, "qute")
    a.send(type="act", room=room, token=a.token, action="dance", version=0, id="x-1")
    got = a.reply("x-1")
    assert got["type"] == "error" and got["code"] == "illegal"


def test_checks_happen_in_the_documented_order(server: Server) -> None:
    # a room that has not started: seats free, autostart off
    waiting = create_room(server, "kaboo", ["human", "human"], autostart=False)
    w = Client(server, waiting["room"], waiting["token"])
    w.join()
    # malformed beats an unknown room and a bad token
    w.send(type="act", room="nope", token="bad", action="knock", version="x")
    assert w.recv(10)["code"] == "malformed"  # type: ignore[index]
    w.send(type="act", room="nope", token="bad", action="knock", version=0)
    assert w.recv(10)["code"] == "unknown_room"  # type: ignore[index]
    # a bad token beats a game that has not started
    w.send(type="act", room=waiting["room"], token="bad", action="knock", version=0)
    assert w.recv(10)["code"] == "bad_token"  # type: ignore[index]
    # not started beats everything after it
    w.send(type="act", room=waiting["room"], token=w.token, action="dance", version=99)
    assert w.recv(10)["code"] == "not_started"  # type: ignore[index]
    assert w.request(type="start", room=waiting["room"], token=w.token)["code"] == "not_allowed"
    other = join_room(server, waiting["room"])
    assert w.request(type="start", room=waiting["room"], token=w.token)["type"] == "state"
    assert w.request(type="start", room=waiting["room"], token=w.token)["code"] == "not_allowed"
    w.close()

    _room, a, b = two_seat_room(server, "kaboo")
    assert a.state is not None
    first = a.state["view"]["actors"][0]
    mover, waiter = (a, b) if first == 0 else (b, a)
    mover.drain()
    v = mover.state["version"]  # type: ignore[index]
    # not your turn beats illegal and stale; the words name the seat to act as the browser does
    refused = waiter.act("dance", v + 3)
    assert refused["code"] == "not_your_turn"
    to_act = seat_names(waiter.state["seats"])[first]  # type: ignore[index]
    assert refused["message"] == f"you cannot act now: {to_act} is to act"
    # illegal beats stale
    assert mover.act("spy 9.9", v + 3)["code"] == "illegal"
    # stale last
    assert mover.act("knock", v + 3)["code"] == "stale"
    # the game over beats illegal and stale: knock, the other seat's last turn, then it ends
    assert mover.act("knock", v)["type"] == "state"
    waiter.wait(lambda s: s["version"] == v + 1)
    waiter.act("draw deck")
    waiter.act("discard")
    while not waiter.state["view"]["over"]:  # type: ignore[index]
        waiter.act(
            "pass"
            if "pass" in waiter.state["view"]["legal"]
            # type: ignore[index]
            else waiter.state["view"]["legal"][0]
        )  # type: ignore[index]
    assert waiter.act("dance", 0)["code"] == "game_over"
    assert other["seat"] == 1


# -- whole games over the wire ------------------------------------------------------------------

PROBES = {
    "cabo": ["spy 1.2", "peek 3", "replace 0 1", "exchange 0 1.1", "draw discard", "cabo"],
    "cabo-german": ["drop 1.0", "drop 2", "give 0", "spy 1.1", "exchange 0 1.0", "cabo"],
    "gabo": ["drop 0", "drop 3", "spy 1.0", "exchange 1.0 2.0", "gabo", "peek 0"],
    "kaboo": ["look 0 1.0", "spy 1.3", "exchange", "exchange 0 1.2", "knock", "replace 3"],
    "qute": ["play 7H", "play QS QC", "draw", "suit H", "play AS", "eights all", "qute"],
}


@pytest.mark.parametrize("game", VARIANTS)
def test_secrecy_over_the_wire(server: Server, game: str) -> None:
    """Two people (the first without memory aid, the second with it), a third seat for an AI
    where the game allows, and a spectator play a whole game with random moves and illegal
    probes. Every state frame equals what the engine, replayed from the store, shows that seat
    (the view without memory for the first seat and the spectator); no error names a card the
    seat does not know."""
    var = variants.get(game)
    seats = ["human", "human+aid"] + (["casual"] if var.max_players >= 3 else [])
    made = create_room(server, game, seats, options={"target": None})
    room = made["room"]
    other = join_room(server, room)
    players = [Client(server, room, made["token"]), Client(server, room, other["token"])]
    watcher = Client(server, room)
    clients = [*players, watcher]
    for c in clients:
        c.join()
    rng = random.Random(f"{game}-secrecy")
    probed = 0

    def on_error(c: Client, probe: str, frame: dict[str, Any]) -> None:
        nonlocal probed
        probed += 1
        known = card_codes(json.dumps(c.state["view"])) | card_codes(probe)  # type: ignore[index]
        assert card_codes(frame["message"]) <= known, (probe, frame)

    drive(clients, rng, probes=PROBES[game], on_error=on_error)
    for c in clients:
        c.drain(0.2)
    seed, base, actions = stored_game(server.db_url, room)
    _, summary = http("GET", f"{server.url}/api/rooms/{room}")
    memory = [s["memory_aid"] for s in summary["seats"]]
    assert memory == [False, True, False][: len(seats)]
    moments = replay_expected(game, len(seats), summary["options"], seed, actions, memory)
    assert moments[-1].public["over"], "the stored log must hold the whole game"
    checked = 0
    for c in clients:
        seat = c.state["seat"]  # type: ignore[index]
        assert seat == (None if c is watcher else players.index(c))
        for frame in c.frames:
            assert frame["type"] in ("state", "error", "pong")
            if frame["type"] != "state":
                continue
            k = frame["version"] - base
            assert 0 <= k < len(moments)
            assert frame["view"] == moments[k].view(seat), (game, seat, k)
            if frame.get("id") in c.join_ids:
                # a join carries no events, but for the first join after a deal the seat was
                # not there for: then the deal's events (those still true) come with it
                opening = moments[0].events_for(seat)
                assert all(e in opening for e in unsaid(frame["events"])), (game, seat, frame)
                # and the log of the game so far, as the seat may read it now
                log = expected_log(moments, base, actions, k, seat, MAX_LOG_ENTRIES)
                assert unsaid_log(frame["log"]) == log, (game, seat)
            elif frame["events"]:
                assert unsaid(frame["events"]) == moments[k].events_for(seat)
            assert "log" in frame or frame.get("id") not in c.join_ids
            rest = {key: val for key, val in frame.items() if key not in ("view", "events", "log")}
            assert not card_codes(json.dumps(rest))
            checked += 1
    assert checked > len(actions)  # every seat saw the game move along
    assert probed > 0
    for c in clients:
        c.close()


def test_rematch_history_and_replay(server: Server) -> None:
    made = create_room(server, "kaboo", ["human", "random"], options={"target": None})
    room = made["room"]
    c = Client(server, room, made["token"])
    c.join()
    status, early = http("GET", f"{server.url}/api/rooms/{room}/games/1")
    assert status == 409 and "in play" in early["detail"]
    drive([c], random.Random(3))
    over = c.wait(lambda s: s["view"]["over"])
    assert over["status"] == "finished"
    again = c.request(type="rematch", room=room, token=c.token)
    assert again["type"] == "state" and again["game_no"] == 2
    assert again["version"] == over["version"] + 1 and not again["view"]["over"]
    _, history = http("GET", f"{server.url}/api/rooms/{room}/games")
    assert [g["game_no"] for g in history["games"]] == [1, 2]
    first = history["games"][0]
    assert first["status"] == "finished" and first["result"] == over["view"]["result"]
    status, replay = http("GET", f"{server.url}/api/rooms/{room}/games/1")
    assert status == 200
    while replay["next"] is not None:  # the replay comes in pages: follow them all
        status, page = http("GET", f"{server.url}/api/rooms/{room}/games/1?start={replay['next']}")
        assert status == 200 and page["start"] == replay["next"]
        replay["steps"] += page["steps"]
        replay["next"] = page["next"]
    assert len(replay["steps"]) == replay["total"]
    seed, _, actions = stored_game(server.db_url, room, 1)
    assert [(s["seat"], s["action"]) for s in replay["steps"]] == actions
    assert len(actions) == first["actions"]
    _, summary = http("GET", f"{server.url}/api/rooms/{room}")
    moments = replay_expected("kaboo", 2, summary["options"], seed, actions)
    assert unsaid_view(replay["initial"]) == moments[0].record
    assert [unsaid_view(s["view"]) for s in replay["steps"]] == [m.record for m in moments[1:]]
    assert replay["result"] == over["view"]["result"]
    assert "seed" not in json.dumps(replay)
    assert http("GET", f"{server.url}/api/rooms/{room}/games/9")[0] == 404


def test_a_second_connection_with_the_token_is_the_same_seat(server: Server) -> None:
    room, a, _ = two_seat_room(server, "qute")
    again = Client(server, room, a.token)
    state = again.join()
    assert state["seat"] == 0 and state["view"] == a.state["view"]  # type: ignore[index]
    spectator = Client(server, room)
    watched = spectator.join()
    assert watched["seat"] is None
    assert all(cell["card"] is None for hand in watched["view"]["hands"] for cell in hand)
    # a spectator has no token to act with
    spectator.send(type="act", room=room, action="draw", version=watched["version"])
    assert spectator.recv(10)["code"] == "malformed"  # type: ignore[index]


def test_serve_refuses_a_busy_port_plainly(server: Server, tmp_path: Path) -> None:
    busy = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardtable",
            "serve",
            "--port",
            str(server.port),
            "--db",
            f"sqlite+aiosqlite:///{tmp_path / 'other.db'}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert busy.returncode == 2
    assert f"cannot listen on 127.0.0.1:{server.port}" in busy.stderr + busy.stdout
    assert "running at" not in busy.stdout  # no URL is printed for a server that is not there


def test_serve_refuses_a_store_out_of_reach_plainly(tmp_path: Path) -> None:
    port = socket.socket()
    port.bind(("127.0.0.1", 0))  # a port nothing listens on
    closed = port.getsockname()[1]
    port.close()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardtable",
            "serve",
            "--db",
            f"postgresql+asyncpg://ann:secret@127.0.0.1:{closed}/cardtable",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    said = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 1, said
    assert f"cannot open the store at postgresql+asyncpg://ann:***@127.0.0.1:{closed}" in said
    assert "secret" not in said and "Traceback" not in said
    assert "running at" not in said  # no URL for a server that cannot start
