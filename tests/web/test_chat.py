"""The chat of tables with people: lines and quick reactions, their limits and who may write.

Most tests go through the real server (a uvicorn subprocess, on SQLite and on PostgreSQL) with
WebSocket clients; the rate window passing, the 50-line log and a paused room run a
:class:`RoomManager` in process, where the window can be a fraction of a second.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.web.clock import ManualClock
from cardtable.web.protocol import CHAT_REACTIONS, MAX_CHAT_CHARS, ChatMsg, JoinMsg, ProtocolError
from cardtable.web.rooms import Conn, RoomManager
from cardtable.web.settings import DEFAULTS

from ..webserver import Server, http
from .client import Client, create_room, join_room
from .inprocess import manager_on, until

# -- through the real server -------------------------------------------------------------------


def _frames_until(client: Client, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """Read frames until one of type ``kind``; return it."""
    while True:
        frame = client.recv(timeout)
        assert frame is not None, f"no {kind} frame within {timeout} s"
        if frame["type"] == kind:
            return frame


def _chats_so_far(client: Client) -> list[dict[str, Any]]:
    """Every ``chat`` frame the client has received, after reading what is waiting (a ping's
    answer marks the end: frames are sent in order)."""
    client.request(type="ping")
    return [f for f in client.frames if f["type"] == "chat"]


class Table:
    """A room of two people (Ann at seat 0, Bob at seat 1) and a spectator, all joined."""

    def __init__(self, server: Server, *, spectator_chat: bool | None = None) -> None:
        self.server = server
        body: dict[str, Any] = {"name": "Ann", "autostart": False}
        if spectator_chat is not None:
            body["spectator_chat"] = spectator_chat
        made = create_room(server, "kaboo", ["human", "human"], **body)
        self.room: str = made["room"]
        bob = join_room(server, self.room, "Bob")
        self.ann = Client(server, self.room, made["token"])
        self.bob = Client(server, self.room, bob["token"])
        self.watcher = Client(server, self.room)
        self.logs: dict[Client, dict[str, Any]] = {}
        for client in (self.ann, self.bob, self.watcher):
            self.logs[client] = client.join()["chat_log"]

    def chat(self, client: Client, **body: Any) -> dict[str, Any]:
        """Send a chat message (with the client's token, if any); return its answer."""
        if client.token is not None:
            body.setdefault("token", client.token)
        return client.request(type="chat", room=self.room, **body)

    def close(self) -> None:
        """Close the three connections."""
        for client in (self.ann, self.bob, self.watcher):
            client.close()


@pytest.fixture
def table(server: Server) -> Iterator[Table]:
    """A :class:`Table` with the default room options (spectators read only)."""
    made = Table(server)
    yield made
    made.close()


def test_a_line_reaches_every_connection_spectators_included(table: Table) -> None:
    answer = table.chat(table.ann, text="  good luck, all  ")
    assert answer["type"] == "chat"
    assert (answer["seat"], answer["name"], answer["text"], answer["reaction"]) == (
        0,
        "Ann",
        "good luck, all",  # stripped
        None,
    )
    assert answer["room"] == table.room and answer["seq"] == 1
    assert isinstance(answer["at"], float) and answer["at"] > 1.6e9
    for other in (table.bob, table.watcher):
        got = _frames_until(other, "chat")
        assert "id" not in got  # only the sender's copy answers its message
        assert got == {k: v for k, v in answer.items() if k != "id"}

    reaction = table.chat(table.bob, reaction="gg")
    assert (reaction["seat"], reaction["name"], reaction["text"], reaction["reaction"]) == (
        1,
        "Bob",
        None,
        "gg",
    )
    assert reaction["seq"] == 2
    assert _frames_until(table.watcher, "chat")["reaction"] == "gg"
    assert _frames_until(table.ann, "chat")["seq"] == 2


def test_markup_arrives_verbatim_as_text(table: Table) -> None:
    line = "<b>hi</b> & <img src=x onerror=alert(1)> &amp; \"quoted\" 'single' ♠♥ 👨‍👩‍👧"
    answer = table.chat(table.ann, text=line)
    assert answer["text"] == line
    assert _frames_until(table.bob, "chat")["text"] == line
    assert _frames_until(table.watcher, "chat")["text"] == line


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"text": ""}, "empty"),
        ({"text": "   \u3000 "}, "empty"),
        ({"text": "x" * (MAX_CHAT_CHARS + 1)}, f"longer than {MAX_CHAT_CHARS}"),
        ({"text": "line one\nline two"}, "unprintable"),
        ({"text": "bell \x07"}, "unprintable"),
        ({"text": "nul \x00 here"}, "unprintable"),
        ({"text": "abc\u202edcba"}, "bidirectional"),
        ({"text": "zero\u200bwidth"}, "unprintable"),
        ({"reaction": "lol"}, "unknown reaction"),
        ({"reaction": "<b>gg</b>"}, "unknown reaction"),
        ({"text": "hi", "reaction": "gg"}, "either"),
        ({}, "either"),
    ],
    ids=[
        "empty",
        "blank",
        "too-long",
        "newline",
        "bell",
        "nul",
        "bidi",
        "zero-width-space",
        "unknown-reaction",
        "markup-reaction",
        "both",
        "neither",
    ],
)
def test_a_bad_line_is_refused_and_nothing_is_sent(
    table: Table, body: dict[str, Any], words: str
) -> None:
    refused = table.chat(table.ann, **body)
    assert refused["type"] == "error" and refused["code"] == "bad_chat"
    assert words in refused["message"]
    assert "\x07" not in refused["message"] and "<b>" not in refused["message"]
    # nothing reached anybody, and nothing was numbered: the next line is the first
    ok = table.chat(table.bob, text="still here")
    assert ok["seq"] == 1
    for client in (table.ann, table.watcher):
        assert [c["text"] for c in _chats_so_far(client)] == ["still here"]


def test_the_longest_line_is_accepted(table: Table) -> None:
    line = "é" * MAX_CHAT_CHARS
    assert table.chat(table.ann, text=f" {line} ")["text"] == line


def test_malformed_chat_fields_are_refused(table: Table) -> None:
    for body in ({"text": 5}, {"reaction": ["gg"]}, {"text": "hi", "colour": "red"}):
        answer = table.chat(table.ann, **body)
        assert answer["type"] == "error" and answer["code"] == "malformed"
    assert _chats_so_far(table.bob) == []


def test_too_many_lines_are_refused_per_seat(table: Table) -> None:
    count, seconds = DEFAULTS.chat_rate  # the server runs with the default settings
    assert (count, seconds) == (5, 10.0)
    for i in range(count - 1):
        assert table.chat(table.ann, text=f"line {i}")["type"] == "chat"
    assert table.chat(table.ann, reaction="thinking")["type"] == "chat"  # reactions count too
    refused = table.chat(table.ann, text="one too many")
    assert refused["type"] == "error" and refused["code"] == "chat_rate_limited"
    assert "at most 5 in 10 s" in refused["message"]
    # a second connection of the same seat gets no more
    again = Client(table.server, table.room, table.ann.token)
    try:
        again.join()
        assert table.chat(again, text="from another tab")["code"] == "chat_rate_limited"
    finally:
        again.close()
    # the other seat is not held back by it
    assert table.chat(table.bob, text="my turn to talk")["seq"] == count + 1
    texts = [c["text"] or c["reaction"] for c in _chats_so_far(table.watcher)]
    assert texts == [*(f"line {i}" for i in range(count - 1)), "thinking", "my turn to talk"]


def test_spectators_read_but_do_not_write_by_default(server: Server, table: Table) -> None:
    status, summary = http("GET", f"{server.url}/api/rooms/{table.room}")
    assert status == 200 and summary["chat"] is True and summary["spectator_chat"] is False
    assert table.logs[table.watcher]["writable"] is False
    assert table.logs[table.ann]["writable"] is True
    refused = table.chat(table.watcher, text="hello from the rail")
    assert refused["type"] == "error" and refused["code"] == "chat_read_only"
    assert _chats_so_far(table.ann) == [] and _chats_so_far(table.bob) == []
    table.chat(table.ann, text="we can see you")
    assert _frames_until(table.watcher, "chat")["text"] == "we can see you"


def test_spectators_write_where_the_room_allows_it(server: Server) -> None:
    table = Table(server, spectator_chat=True)
    try:
        status, summary = http("GET", f"{server.url}/api/rooms/{table.room}")
        assert status == 200 and summary["spectator_chat"] is True
        assert table.logs[table.watcher]["writable"] is True
        answer = table.chat(table.watcher, text="nice move")
        assert (answer["seat"], answer["name"], answer["text"]) == (None, "Spectator", "nice move")
        for player in (table.ann, table.bob):
            assert _frames_until(player, "chat")["text"] == "nice move"
        assert table.chat(table.watcher, reaction="nice")["reaction"] == "nice"
    finally:
        table.close()


def test_a_table_of_one_person_has_no_chat(server: Server) -> None:
    made = create_room(server, "kaboo", ["human", "casual"], name="Ann", spectator_chat=True)
    status, summary = http("GET", f"{server.url}/api/rooms/{made['room']}")
    assert status == 200 and summary["chat"] is False
    me = Client(server, made["room"], made["token"])
    try:
        joined = me.join()
        assert joined["type"] == "state" and "chat_log" not in joined
        for body in ({"text": "anyone?"}, {"reaction": "gg"}):
            refused = me.request(type="chat", room=made["room"], token=made["token"], **body)
            assert refused["type"] == "error" and refused["code"] == "no_chat"
        assert not [f for f in me.frames if f["type"] == "chat"]
    finally:
        me.close()


def test_a_late_joiner_gets_the_last_lines(server: Server, table: Table) -> None:
    assert table.logs[table.ann]["lines"] == []
    said = [table.chat(table.ann, text="first"), table.chat(table.bob, reaction="oops")]
    said.append(table.chat(table.ann, text="third"))
    late = Client(server, table.room)
    try:
        log = late.join()["chat_log"]
        assert log["lines"] == [{k: v for k, v in s.items() if k != "id"} for s in said]
        assert log["writable"] is False
    finally:
        late.close()


def test_a_wrong_token_or_a_connection_not_at_the_table_is_refused(
    server: Server, table: Table
) -> None:
    refused = table.chat(table.ann, text="who am I", token="not-a-token")
    assert refused["type"] == "error" and refused["code"] == "bad_token"
    other = create_room(server, "kaboo", ["human", "human"], name="Cy")
    refused = table.chat(table.ann, text="wrong room's token", token=other["token"])
    assert refused["code"] == "bad_token"
    stranger = Client(server, table.room, table.ann.token)  # the seat's token, never joined
    try:
        refused = stranger.request(type="chat", room=table.room, token=table.ann.token, text="hi")
        assert refused["type"] == "error" and refused["code"] == "not_joined"
        refused = stranger.request(type="chat", room="no-such-room", text="hi")
        assert refused["code"] == "unknown_room"
    finally:
        stranger.close()
    assert _chats_so_far(table.bob) == [] and _chats_so_far(table.watcher) == []


def test_every_reaction_is_accepted(table: Table) -> None:
    for i, key in enumerate(CHAT_REACTIONS):
        speaker = table.ann if i % 2 == 0 else table.bob  # within each seat's rate
        assert table.chat(speaker, reaction=key)["reaction"] == key
    assert [c["reaction"] for c in _chats_so_far(table.watcher)] == list(CHAT_REACTIONS)


# -- in process: the window, the log's length, a paused room -------------------------------------


class Sink:
    """A connection in process: the frames it was sent, decoded."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.conn = Conn(self._send)
        self.task = asyncio.ensure_future(self.conn.run_sender())

    async def _send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def of(self, kind: str) -> list[dict[str, Any]]:
        """The frames of type ``kind`` received so far."""
        return [f for f in self.frames if f["type"] == kind]


async def _two_people(manager: RoomManager, **create: Any) -> tuple[str, str, str]:
    room, _seat, token = await manager.create(
        "kaboo", [("human", None, False)] * 2, autostart=False, **create
    )
    assert token is not None
    _room, _seat2, token2 = await manager.take_seat(room.id, "Bob")
    return room.id, token, token2


def test_the_next_window_accepts_lines_again(store_url: str) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with manager_on(store_url, clock, chat_rate=(2, 10.0)) as manager:
            room, token, _ = await _two_people(manager)
            me = Sink()
            await manager.handle(me.conn, JoinMsg(type="join", room=room, token=token))

            async def say(text: str) -> None:
                await manager.handle(
                    me.conn, ChatMsg(type="chat", room=room, token=token, text=text)
                )

            await say("one")
            await say("two")
            with pytest.raises(ProtocolError) as refused:
                await say("three")
            assert refused.value.code == "chat_rate_limited"
            clock.advance(9.5)  # within the window of the first two: still refused
            with pytest.raises(ProtocolError) as refused:
                await say("three")
            assert refused.value.code == "chat_rate_limited"
            clock.advance(0.5)  # the window of the first two has passed
            await say("four")
            await until(lambda: len(me.of("chat")) == 3)
            assert [c["text"] for c in me.of("chat")] == ["one", "two", "four"]
            assert [c["seq"] for c in me.of("chat")] == [1, 2, 3]
            me.conn.drop()

    asyncio.run(scenario())


def test_the_log_keeps_the_last_fifty_lines_in_memory_only(store_url: str) -> None:
    async def scenario() -> None:
        async with manager_on(store_url, chat_rate=(1000, 10.0), idle_time=0.0) as manager:
            room, token, _ = await _two_people(manager, spectator_chat=True)
            stored = await manager.store.room(room)
            assert stored is not None and stored.spectator_chat is True  # kept in the store
            me = Sink()
            await manager.handle(me.conn, JoinMsg(type="join", room=room, token=token))
            for i in range(55):
                await manager.handle(
                    me.conn, ChatMsg(type="chat", room=room, token=token, text=f"line {i}")
                )
            late = Sink()
            await manager.handle(late.conn, JoinMsg(type="join", room=room))
            await until(lambda: bool(late.of("state")))
            lines = late.of("state")[0]["chat_log"]["lines"]
            assert [line["seq"] for line in lines] == list(range(6, 56))
            assert lines[-1]["text"] == "line 54"
            assert late.of("state")[0]["chat_log"]["writable"] is True  # spectators may write here
            # nobody at the room: it is paused; rebuilt, it keeps its options but no lines
            for sink in (me, late):
                manager.leave(sink.conn)
                sink.conn.drop()
            assert await manager.sweep() == 1
            again = Sink()
            await manager.handle(again.conn, JoinMsg(type="join", room=room))
            await until(lambda: bool(again.of("state")))
            assert again.of("state")[0]["chat_log"] == {"lines": [], "writable": True}
            again.conn.drop()

    asyncio.run(scenario())
