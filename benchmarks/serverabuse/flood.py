"""Floods: rooms over HTTP, messages over WebSockets, WebSocket connections."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections import Counter
from typing import Any

from .base import AbuseConfig, Outcome, Window, plural
from .common import HttpClient, describe_error, raw_ws_open

__all__ = ["connection_flood", "message_flood", "room_flood", "throttle_keys"]

_REFUSALS = ["429", "403", "413", "503", "500"]


def throttle_keys(counts: Counter[str]) -> bool:
    """Whether any answer or event says the server pushed back."""
    keys = ("429", "403", "rate_limited", "closed", "handshake:429", "handshake:403")
    return any(counts.get(k) for k in keys)


async def room_flood(cfg: AbuseConfig, win: Window) -> Outcome:
    """``room_clients`` keep-alive HTTP clients create rooms as fast as the server answers."""
    out = Outcome(cfg.scenario, source=cfg.source)
    counts = out.counts
    body = json.dumps(
        {"game": "kaboo", "seats": [{"type": "human"}, {"type": "human"}], "name": "flood"}
    ).encode()
    first: list[tuple[float, int, int]] = []
    deadline = win.begin()

    async def worker() -> None:
        client = HttpClient(cfg.endpoint, cfg.source)
        while (left := deadline - time.monotonic()) > 0:
            try:
                answer = await client.request("POST", "/api/rooms", body, timeout=left)
            except Exception as exc:
                if time.monotonic() < deadline - 0.05:  # not the deadline cutting it short
                    counts[describe_error(exc)] += 1
                    await asyncio.sleep(0.01)
                continue
            counts[str(answer.status)] += 1
            if answer.status != 201 and not first:
                first.append((win.elapsed(), counts["201"], answer.status))
        client.close()

    await asyncio.gather(*(worker() for _ in range(cfg.knob("room_clients"))))
    win.end()
    rooms = counts["201"]
    refused = plural(counts, _REFUSALS)
    others = sum(v for k, v in counts.items() if k not in ("201", *_REFUSALS))
    if first:
        t, before, status = first[0]
        out.summary = f"{rooms:,} rooms then {status} ({refused})"
        out.details.append(
            f"first refusal after {t:.1f} s and {before:,} rooms; {rooms:,} rooms in all"
        )
    else:
        out.summary = f"{rooms:,} rooms, never refused"
    if others:
        out.summary += f"; {others:,} failed"
    out.details.append(
        f"{sum(counts.values()) / cfg.seconds:,.0f} requests/s from {cfg.knob('room_clients')} "
        f"clients; answers: {dict(sorted(counts.items()))}"
    )
    out.throttled = throttle_keys(counts)
    out.figures = {"rooms": rooms, "first_refusal": first[0] if first else None}
    return out


def _flood_messages(room: str) -> list[str]:
    """The flood's messages, in turn: a ping, an act with a bad token on a busy room, an act
    on a room that does not exist (the server may look it up in the store)."""
    return [
        json.dumps({"type": "ping"}),
        json.dumps(
            {"type": "act", "room": room, "token": "x" * 32, "action": "draw", "version": 1}
        ),
        json.dumps(
            {"type": "act", "room": "NoSuchRoom", "token": "y" * 32, "action": "draw", "version": 1}
        ),
    ]


async def message_flood(cfg: AbuseConfig, win: Window) -> Outcome:
    """``flood_sockets`` WebSockets each send pings and bogus acts as fast as they can, read
    every answer, and reconnect when closed."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    out = Outcome(cfg.scenario, source=cfg.source)
    counts = out.counts
    messages = _flood_messages(cfg.rooms[0] if cfg.rooms else "NoSuchRoom")
    local = (cfg.source, 0) if cfg.source else None
    first_limited: list[float] = []
    deadline = win.begin()

    async def reader(ws: Any) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg.get("type")
                key = str(msg.get("code")) if kind == "error" else str(kind)
                counts[key] += 1
                if key == "rate_limited" and not first_limited:
                    first_limited.append(win.elapsed())

    async def one(i: int) -> None:
        n = i
        while time.monotonic() < deadline:
            try:
                ws = await connect(
                    cfg.endpoint.ws_url,
                    local_addr=local,
                    ping_interval=None,
                    open_timeout=max(1.0, deadline - time.monotonic()),
                    compression=None,
                    max_size=1 << 20,
                )
            except InvalidStatus as exc:
                counts[f"handshake:{exc.response.status_code}"] += 1
                await asyncio.sleep(0.05)
                continue
            except Exception as exc:
                counts[f"connect:{describe_error(exc)}"] += 1
                await asyncio.sleep(0.05)
                continue
            counts["connections"] += 1
            task = asyncio.create_task(reader(ws))
            try:
                while time.monotonic() < deadline and not task.done():
                    await ws.send(messages[n % len(messages)])
                    n += 1
                    counts["sent"] += 1
                    if n % 32 == 0:
                        await asyncio.sleep(0)
            except ConnectionClosed:
                pass
            if time.monotonic() < deadline:
                counts["closed"] += 1
                code = ws.close_code
                counts[f"close:{code}"] += 1
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    await asyncio.gather(*(one(i) for i in range(cfg.knob("flood_sockets"))))
    win.end()
    sent = counts["sent"]
    answered = sum(v for k, v in counts.items() if not _not_answer(k))
    limited = counts["rate_limited"]
    served = answered - limited
    share = 100.0 * (sent - served) / sent if sent else 0.0
    out.summary = (
        f"throttled {share:.0f}% (served {served / 1000:,.1f}k of {sent / 1000:,.0f}k)"
        + (f"; closed {counts['closed']:,}×" if counts["closed"] else "")
        + (f"; {plural(counts, ['handshake:429', 'handshake:403'])}" if _refused(counts) else "")
    )
    out.details.append(
        f"{cfg.knob('flood_sockets')} sockets sent {sent:,} messages "
        f"({sent / cfg.seconds:,.0f}/s); answered {answered:,}: served {served:,}, "
        f"rate_limited {limited:,}"
        + (f" (the first after {first_limited[0]:.2f} s)" if first_limited else "")
        + f"; never answered {sent - answered:,} (dropped with their connection, or still "
        f"queued); connections opened {counts['connections']:,}"
    )
    out.details.append(f"answers and events: {dict(sorted(counts.items()))}")
    out.throttled = throttle_keys(counts)
    out.figures = {
        "sent": sent,
        "answered": answered,
        "served": served,
        "rate_limited": limited,
        "throttled_pct": share,
    }
    return out


def _not_answer(key: str) -> bool:
    return key in ("sent", "connections", "closed") or ":" in key


def _refused(counts: Counter[str]) -> bool:
    return bool(counts.get("handshake:429") or counts.get("handshake:403"))


async def connection_flood(cfg: AbuseConfig, win: Window) -> Outcome:
    """Open as many WebSockets as possible (handshake only, ``connect_parallel`` at a time, up
    to ``flood_conns``) and hold them; notice those the server closes."""
    out = Outcome(cfg.scenario, source=cfg.source)
    counts = out.counts
    cap = cfg.knob("flood_conns")
    held: set[socket.socket] = set()
    inflight = 0
    first_refused: list[tuple[float, int, str]] = []
    peak = 0
    deadline = win.begin()

    async def opener() -> None:
        nonlocal inflight, peak
        while time.monotonic() < deadline and len(held) + inflight < cap:
            inflight += 1
            try:
                sock = await raw_ws_open(
                    cfg.endpoint, cfg.source, timeout=max(0.5, min(10.0, win.left()))
                )
            except Exception as exc:
                key = describe_error(exc)
                counts[key] += 1
                if not first_refused:
                    first_refused.append((win.elapsed(), counts["opened"], key))
                await asyncio.sleep(0.02)
                continue
            finally:
                inflight -= 1
            held.add(sock)
            counts["opened"] += 1
            peak = max(peak, len(held))

    async def sweeper() -> None:
        while time.monotonic() < deadline:
            await asyncio.sleep(min(1.0, max(0.0, win.left())))
            for sock in list(held):
                try:
                    while sock.recv(65536):
                        pass
                except BlockingIOError:
                    continue
                except OSError:
                    pass
                held.discard(sock)
                sock.close()
                counts["closed"] += 1

    await asyncio.gather(sweeper(), *(opener() for _ in range(cfg.knob("connect_parallel"))))
    win.end()
    at_end = len(held)
    for sock in held:
        sock.close()
    refused = plural(counts, ["429", "403", "503", "timeout", "refused", "reset", "emfile"])
    out.summary = f"{counts['opened']:,} opened, {at_end:,} held" + (
        f"; {refused}" if refused else ""
    )
    if first_refused:
        t, n, key = first_refused[0]
        out.details.append(f"first failure after {t:.1f} s and {n:,} connections: {key}")
    out.details.append(
        f"cap {cap:,}; peak held {peak:,}; closed by the server {counts['closed']:,}; "
        f"outcomes: {dict(sorted(counts.items()))}"
    )
    out.throttled = throttle_keys(counts)
    out.figures = {"opened": counts["opened"], "held_at_end": at_end, "peak": peak}
    return out
