"""Real-time parts: AI seats act after the configured delay; simultaneous windows (initial
peeks, gabo snap windows) close by themselves and the server plays the defaults."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..webserver import Server, running_server
from .client import Client, create_room
from .play import stored_game


@pytest.fixture(scope="module")
def quick(store_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with half-second windows and a 0.3 s AI delay."""
    workdir: Path = tmp_path_factory.mktemp("quick")
    with running_server(
        workdir, db_url=store_url, ai_delay=0.3, peek_window=0.5, snap_window=0.5
    ) as srv:
        yield srv


def test_windows_close_by_themselves(quick: Server) -> None:
    made = create_room(quick, "gabo", ["human", "casual", "casual"], options={"target": None})
    c = Client(quick, made["room"], made["token"])
    start = c.join()
    assert start["view"]["phase"] == "peek"
    assert start["window"]["phase"] == "peek" and 0 < start["window"]["closes_in"] <= 0.5
    # we never peek: the window closes and the server peeks for us
    after = c.wait(lambda s: s["view"]["phase"] != "peek", timeout=10)
    assert sum(cell["card"] is not None for cell in after["view"]["hands"][0]) == 2
    # play on until our turn, draw and discard: a snap window opens, we let it close
    c.wait(lambda s: s["view"]["actors"] == [0] and s["view"]["phase"] == "turn", timeout=30)
    c.act("draw deck")
    snap = c.act("discard")
    if snap["view"]["phase"] == "power":  # a power card: decline it, the window follows
        snap = c.act("pass")
    assert snap["view"]["phase"] == "snap" and snap["window"]["phase"] == "snap"
    shut = c.wait(lambda s: s["view"]["phase"] != "snap", timeout=10)
    assert shut["window"] is None or shut["window"]["phase"] != "snap"
    _, _, actions = stored_game(quick.db_url, made["room"])
    mine = [a for s, a in actions if s == 0]
    assert mine[:2] == ["peek 0", "peek 1"]  # the defaults, stored like any action
    assert mine[-1] == "pass"  # our part in the snap window, closed by the server


def test_ai_seats_wait_the_delay(quick: Server) -> None:
    # play until one of our moves hands the turn to the AI (a deal may end before it does:
    # then another room)
    for _room in range(5):
        made = create_room(quick, "qute", ["human", "casual"], options={"target": None})
        c = Client(quick, made["room"], made["token"])
        c.join()
        handed = False
        for _ in range(100):
            c.wait(lambda s: s["view"]["over"] or s["view"]["actors"] == [0])
            if c.state["view"]["over"]:  # type: ignore[index]
                break
            sent = time.monotonic()
            mine = c.act(c.state["view"]["legal"][0])  # type: ignore[index]
            if mine["view"]["actors"] == [1]:
                handed = True
                break
        if handed:
            break
    else:
        raise AssertionError("the turn never passed to the AI")
    c.wait(lambda s: s["version"] > mine["version"], timeout=10)
    assert time.monotonic() - sent >= 0.25  # the configured 0.3 s, a lower bound only
