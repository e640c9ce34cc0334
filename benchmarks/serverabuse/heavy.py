"""Heavy but legal work: replays of a very long game, and rooms of search-level AI seats."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

from .base import AbuseConfig, Outcome, Window, kib, median, plural
from .common import HttpClient, describe_error
from .flood import throttle_keys
from .spread import AI_FIRST, sources

__all__ = ["ai_rooms", "next_path", "replays"]


def next_path(path: str, nxt: Any) -> str:
    """The request for the page after one whose ``next`` is ``nxt`` (a start index, or a
    path or URL)."""
    if isinstance(nxt, str) and nxt.startswith(("/", "http://", "https://")):
        parts = urlsplit(nxt)
        return parts.path + (f"?{parts.query}" if parts.query else "")
    return f"{path}?start={nxt}"


_NEXT = re.compile(rb'"next":(null|-?\d+|"(?:[^"\\]|\\.)*")')


def page_next(body: bytes) -> Any:
    """The ``next`` field of a replay page, found in the page's head when it is there (the
    abuser must not spend its CPU parsing megabytes of views), else by parsing it all."""
    found = _NEXT.search(body, 0, 8192)
    if found is not None:
        return json.loads(found.group(1))
    return json.loads(body).get("next")


async def fetch_replay(
    client: HttpClient, path: str, paged: bool, deadline: float, tally: Counter[str] | None = None
) -> tuple[int, int, int]:
    """One whole replay before ``deadline`` (``time.monotonic()``), page by page when the
    answer is paged; returns (last status, pages, bytes). Unpaged answers are read and dropped
    (they can be huge). Raises ``TimeoutError`` at the deadline."""
    url = path
    pages = size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the deadline passed")
        answer = await client.request("GET", url, keep=(64 << 20) if paged else 0, timeout=left)
        pages += 1
        size += answer.size
        if tally is not None:
            tally["pages" if answer.status == 200 else "refused"] += 1
            tally["bytes"] += answer.size
        if answer.status != 200 or not paged:
            return answer.status, pages, size
        nxt = page_next(answer.body)
        if nxt is None:
            return 200, pages, size
        url = next_path(path, nxt)


async def replays(cfg: AbuseConfig, win: Window) -> Outcome:
    """``replay_clients`` clients fetch the whole replay of the long game again and again."""
    out = Outcome(cfg.scenario, source=cfg.source)
    counts = out.counts
    if cfg.replay is None:
        raise RuntimeError("no finished game to replay")
    room, game_no = cfg.replay
    path = f"/api/rooms/{room}/games/{game_no}"
    # before the window: is the answer paged, and how big is one whole replay?
    probe = HttpClient(cfg.endpoint, cfg.source)
    t0 = time.monotonic()
    first = await probe.request("GET", path, keep=64 << 20, timeout=600)
    if first.status != 200:
        raise RuntimeError(f"GET {path} answered {first.status}: {first.body[:200]!r}")
    data = json.loads(first.body) if first.body else {}
    paged = "next" in data
    steps = data.get("total", len(data.get("steps", [])))
    pages, size = 1, first.size
    if paged:
        _, pages, size = await fetch_replay(probe, path, True, time.monotonic() + 600)
    probe.close()
    one = time.monotonic() - t0
    out.details.append(
        f"one replay of {path}: {steps:,} steps, "
        + (f"paged: {pages} pages, " if paged else "one answer, ")
        + f"{kib(size)}, {one:.2f} s alone (first fetch, the server may build it then)"
    )
    done_times: list[float] = []
    tally: Counter[str] = Counter()
    deadline = win.begin()

    async def worker() -> None:
        client = HttpClient(cfg.endpoint, cfg.source)
        while deadline - time.monotonic() > 0:
            t = time.monotonic()
            try:
                status, _, _ = await fetch_replay(client, path, paged, deadline, tally)
            except Exception as exc:
                if time.monotonic() < deadline - 0.05:  # not the deadline cutting it short
                    counts[describe_error(exc)] += 1
                    await asyncio.sleep(0.01)
                continue
            counts[str(status)] += 1
            if status == 200:
                done_times.append(time.monotonic() - t)
        client.close()

    await asyncio.gather(*(worker() for _ in range(cfg.knob("replay_clients"))))
    win.end()
    whole = counts["200"]
    refused = plural(counts, ["429", "403", "503", "500", "timeout", "reset"])
    out.summary = f"{whole:,} whole replays, {tally['pages']:,} pages served" + (
        f", then {refused}" if refused else ""
    )
    out.details.append(
        f"{cfg.knob('replay_clients')} clients: {whole:,} whole replays "
        f"({tally['pages']:,} pages served, {tally['refused']:,} refused, {kib(tally['bytes'])}), "
        f"median {median(done_times):.2f} s each; "
        f"answers: {dict(sorted(counts.items()))}"
    )
    out.throttled = throttle_keys(counts)
    out.figures = {"steps": steps, "paged": paged, "pages": pages, "bytes": size, "whole": whole}
    return out


async def ai_rooms(cfg: AbuseConfig, win: Window) -> Outcome:
    """Rooms where every seat is an AI (``ai_master`` rooms of ``master``, ``ai_expert`` of
    ``expert``, ``ai_casual`` of ``casual``, ``ai_seats`` seats), each created and watched by
    one spectator socket from one of ``ai_addresses`` addresses (by turns), so that the
    per-address room quota does not cap them.
    A room whose game ends is replaced while the window lasts; after it, the rooms are watched
    (up to ``drain`` s) until their games end, outside the measured window."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    out = Outcome(cfg.scenario, source=cfg.source)
    counts = out.counts
    options = cfg.knob("ai_options")
    seats = cfg.knob("ai_seats")
    addrs = sources(cfg, cfg.knob("ai_addresses"), AI_FIRST)
    playing: set[str] = set()
    moves_in_window = 0

    async def create(client: HttpClient, level: str) -> str | None:
        body = {
            "game": cfg.knob("ai_variant"),
            "seats": [{"type": "ai", "level": level}] * seats,
            "options": options,
            "public": False,
        }
        answer = await client.request("POST", "/api/rooms", json.dumps(body).encode())
        counts[f"create:{answer.status}"] += 1
        if answer.status != 201:
            return None
        room: str = json.loads(answer.body)["room"]
        return room

    async def watch(level: str, source: str | None, stop: asyncio.Event) -> None:
        nonlocal moves_in_window
        local = (source, 0) if source else None
        client = HttpClient(cfg.endpoint, source)
        while not stop.is_set() and not win.ended:
            try:
                room = await create(client, level)
            except Exception as exc:
                counts[f"create:{describe_error(exc)}"] += 1
                room = None
            if room is None:
                await asyncio.sleep(0.5)
                continue
            counts[f"rooms:{level}"] += 1
            playing.add(room)
            version = -1
            try:
                async with connect(
                    cfg.endpoint.ws_url, local_addr=local, ping_interval=None, max_size=1 << 22
                ) as ws:
                    await ws.send(json.dumps({"type": "join", "room": room}))
                    async for raw in ws:
                        msg = json.loads(raw)
                        if msg.get("type") != "state":
                            counts[f"error:{msg.get('code')}"] += 1
                            continue
                        if version >= 0 and msg["version"] > version:
                            counts[f"moves:{level}"] += msg["version"] - version
                            if not win.ended:
                                moves_in_window += msg["version"] - version
                        version = msg["version"]
                        if msg["status"] == "finished":
                            counts["games_over"] += 1
                            break
                        if stop.is_set():
                            break
            except ConnectionClosed:
                counts["closed"] += 1
            except Exception as exc:
                counts[f"watch:{describe_error(exc)}"] += 1
                await asyncio.sleep(0.5)
            finally:
                playing.discard(room)
        client.close()

    stop = asyncio.Event()
    plan = ["master"] * cfg.knob("ai_master") + ["expert"] * cfg.knob("ai_expert")
    plan += ["casual"] * cfg.knob("ai_casual")
    deadline = win.begin()
    tasks = [
        asyncio.create_task(watch(level, addrs[k % len(addrs)], stop))
        for k, level in enumerate(plan)
    ]
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    win.end()
    started = time.monotonic()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), cfg.drain)
    left = len(playing)
    stop.set()
    for task in tasks:
        task.cancel()
    for failed in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(failed, Exception):
            counts[f"failed:{describe_error(failed)}"] += 1
    rooms = counts["rooms:master"] + counts["rooms:expert"] + counts["rooms:casual"]
    refused = plural(counts, ["create:429", "create:403", "create:503"])
    out.summary = f"{rooms} rooms, {moves_in_window:,} AI moves" + (
        f"; {refused}" if refused else ""
    )
    out.details.append(
        f"{cfg.knob('ai_master')} master + {cfg.knob('ai_expert')} expert + "
        f"{cfg.knob('ai_casual')} casual rooms from {len(addrs)} addresses, of {seats} "
        f"{cfg.knob('ai_variant')} seats, options {json.dumps(options)}: "
        f"{moves_in_window / cfg.seconds:.1f} AI moves/s in the window; after it, "
        f"{time.monotonic() - started:.1f} s waiting for their games to end"
        + (f" ({left} still playing, left to the server)" if left else "")
    )
    out.details.append(f"outcomes: {dict(sorted(counts.items()))}")
    out.throttled = throttle_keys(counts) or bool(refused)
    out.figures = {"rooms": rooms, "moves": moves_in_window, "still_playing": left}
    return out
