"""Abuse from many addresses at once (issue 27, "fair under load from many addresses"):
connections pinging at their allowed rate, crowds of spectators, and, from one address,
cross-origin handshakes and oversized request heads.

The abusers of :mod:`.flood` come from one loopback address each; these spread their
connections over several (:func:`sources`: 127.0.0.N from ``first`` on), so that per-address
limits alone do not stop them and only the server's shared budgets can keep the ordinary tables
served.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import time
from collections import Counter
from typing import Any

from .base import AbuseConfig, Outcome, Window, plural
from .common import describe_error, raw_socket, source_address
from .flood import throttle_keys

__all__ = ["big_heads", "handshake_flood", "ping_flood", "sources", "spectators"]

PING_FIRST = 60
"""``source_address`` index of ``ping_flood``'s first address (127.0.0.62 …)."""
SPECTATOR_FIRST = 80
"""… of ``spectators``' first address (127.0.0.82 …)."""
AI_FIRST = 120
"""… of ``ai_rooms``' first address (127.0.0.122 …); the probe is at 200."""


def sources(cfg: AbuseConfig, count: int, first: int) -> list[str | None]:
    """``count`` loopback addresses from ``source_address`` index ``first`` on (``None``
    each when the server is not on the loopback)."""
    return [source_address(cfg.endpoint, first + k) for k in range(max(1, count))]


async def _open_ws(cfg: AbuseConfig, source: str | None, timeout: float) -> Any:
    from websockets.asyncio.client import connect

    local = (source, 0) if source else None
    return await connect(
        cfg.endpoint.ws_url,
        local_addr=local,
        ping_interval=None,
        open_timeout=max(1.0, timeout),
        compression=None,
        max_size=1 << 22,
    )


async def _opened(
    cfg: AbuseConfig, win: Window, counts: Counter[str], source: str | None
) -> Any | None:
    """A WebSocket from ``source``, or ``None`` (the refusal counted) if it could not open."""
    from websockets.exceptions import InvalidStatus

    try:
        ws = await _open_ws(cfg, source, win.left())
    except InvalidStatus as exc:
        counts[f"handshake:{exc.response.status_code}"] += 1
        return None
    except Exception as exc:
        counts[f"connect:{describe_error(exc)}"] += 1
        return None
    counts["connections"] += 1
    return ws


async def ping_flood(cfg: AbuseConfig, win: Window) -> Outcome:
    """``pf_sockets`` WebSockets spread over ``pf_addresses`` addresses each send a ping every
    ``pf_interval`` s (the per-connection rate allowed by default: 20 a second) and read every
    answer; a connection closed or refused is opened again."""
    from websockets.exceptions import ConnectionClosed

    out = Outcome(cfg.scenario, source=cfg.source)
    counts = out.counts
    addrs = sources(cfg, cfg.knob("pf_addresses"), PING_FIRST)
    interval = cfg.knob("pf_interval")
    deadline = win.begin()

    async def reader(ws: Any) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                msg = json.loads(raw)
                counts[str(msg.get("code")) if msg.get("type") == "error" else msg["type"]] += 1

    async def one(i: int) -> None:
        source = addrs[i % len(addrs)]
        while time.monotonic() < deadline:
            ws = await _opened(cfg, win, counts, source)
            if ws is None:
                await asyncio.sleep(1.0)
                continue
            task = asyncio.create_task(reader(ws))
            try:
                while time.monotonic() < deadline and not task.done():
                    await ws.send('{"type":"ping"}')
                    counts["sent"] += 1
                    await asyncio.sleep(interval)
            except ConnectionClosed:
                pass
            if time.monotonic() < deadline:
                counts["closed"] += 1
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    await asyncio.gather(*(one(i) for i in range(cfg.knob("pf_sockets"))))
    win.end()
    sent, pongs, limited = counts["sent"], counts["pong"], counts["rate_limited"]
    out.summary = (
        f"{pongs:,} of {sent:,} pings served, {limited:,} rate_limited"
        + (f"; {plural(counts, ['handshake:429', 'handshake:403'])}" if counts else "")
    ).rstrip("; ")
    out.details.append(
        f"{cfg.knob('pf_sockets')} sockets from {len(addrs)} addresses ({addrs[0]}…), a ping "
        f"every {interval:g} s each: sent {sent / cfg.seconds:,.0f}/s, served "
        f"{pongs / cfg.seconds:,.0f}/s; events: {dict(sorted(counts.items()))}"
    )
    # paced messages are not refused, only served later: fewer served than sent is push-back
    out.throttled = throttle_keys(counts) or pongs < 0.9 * sent
    out.figures = {"sent": sent, "served": pongs, "rate_limited": limited}
    return out


async def spectators(cfg: AbuseConfig, win: Window) -> Outcome:
    """``sp_sockets`` spectator connections spread over ``sp_addresses`` addresses join the
    ordinary tables' rooms (by turns; the probe table's first) and read every state they are
    sent; a spectator refused or closed tries again a second later."""
    from websockets.exceptions import ConnectionClosed

    out = Outcome(cfg.scenario, source=cfg.source)
    counts = out.counts
    addrs = sources(cfg, cfg.knob("sp_addresses"), SPECTATOR_FIRST)
    rooms = list(cfg.rooms) or ["NoSuchRoom"]
    gate = asyncio.Semaphore(64)
    deadline = win.begin()

    async def one(i: int) -> None:
        source, room = addrs[i % len(addrs)], rooms[i % len(rooms)]
        while time.monotonic() < deadline:
            async with gate:
                ws = await _opened(cfg, win, counts, source)
            if ws is None:
                await asyncio.sleep(1.0)
                continue
            try:
                await ws.send(json.dumps({"type": "join", "room": room}))
                while time.monotonic() < deadline:
                    raw = await asyncio.wait_for(ws.recv(), max(0.05, win.left()))
                    msg = json.loads(raw)
                    kind = msg.get("type")
                    counts[str(msg.get("code")) if kind == "error" else str(kind)] += 1
            except TimeoutError:
                pass
            except ConnectionClosed:
                counts["closed"] += 1
                await asyncio.sleep(1.0)
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 2)

    await asyncio.gather(*(one(i) for i in range(cfg.knob("sp_sockets"))))
    win.end()
    out.summary = f"{counts['connections']:,} spectators, {counts['state']:,} states read" + (
        f"; {plural(counts, ['handshake:429', 'spectators_full', 'rate_limited'])}"
        if counts["handshake:429"] or counts["spectators_full"] or counts["rate_limited"]
        else ""
    )
    out.details.append(
        f"{cfg.knob('sp_sockets')} spectators from {len(addrs)} addresses on {len(rooms)} "
        f"busy rooms; events: {dict(sorted(counts.items()))}"
    )
    out.throttled = throttle_keys(counts)
    out.figures = {"connections": counts["connections"], "states": counts["state"]}
    return out


async def _handshake(cfg: AbuseConfig, head: bytes, timeout: float) -> int:
    """Send one handshake (or any request head) from the scenario's address; the status of
    the answer (0: closed without one)."""
    loop = asyncio.get_running_loop()
    sock = await raw_socket(cfg.endpoint, cfg.source, timeout=timeout)
    try:
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            await asyncio.wait_for(loop.sock_sendall(sock, head), timeout)
        buf = b""
        while b"\r\n" not in buf:
            chunk = await asyncio.wait_for(loop.sock_recv(sock, 4096), timeout)
            if not chunk:
                break
            buf += chunk
        return int(buf.split(b" ", 2)[1]) if buf.startswith(b"HTTP/") else 0
    finally:
        sock.close()


async def _hammer(
    cfg: AbuseConfig, win: Window, counts: Counter[str], parallel: int, head: Any
) -> None:
    """``parallel`` workers send ``head()`` again and again until the window ends, counting
    the statuses of the answers."""
    deadline = win.begin()

    async def worker() -> None:
        while (left := deadline - time.monotonic()) > 0:
            try:
                status = await _handshake(cfg, head(), min(10.0, max(0.5, left)))
            except Exception as exc:
                if time.monotonic() < deadline - 0.05:
                    counts[describe_error(exc)] += 1
                    await asyncio.sleep(0.02)
                continue
            counts[str(status)] += 1

    await asyncio.gather(*(worker() for _ in range(parallel)))
    win.end()


async def handshake_flood(cfg: AbuseConfig, win: Window) -> Outcome:
    """From one address, ``hs_parallel`` clients make cross-origin WebSocket handshakes
    (``Origin: http://evil.example``) one after the other as fast as they are answered."""
    out = Outcome(cfg.scenario, source=cfg.source)

    def head() -> bytes:
        key = base64.b64encode(os.urandom(16)).decode()
        return (
            f"GET /ws HTTP/1.1\r\nHost: {cfg.endpoint.host}:{cfg.endpoint.port}\r\n"
            "Origin: http://evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()

    await _hammer(cfg, win, out.counts, cfg.knob("hs_parallel"), head)
    total = sum(out.counts.values())
    out.summary = f"{total:,} handshakes: {plural(out.counts, sorted(out.counts))}"
    out.details.append(
        f"{cfg.knob('hs_parallel')} clients, {total / cfg.seconds:,.1f} handshakes/s answered"
    )
    out.throttled = throttle_keys(out.counts)
    out.figures = dict(out.counts)
    return out


async def big_heads(cfg: AbuseConfig, win: Window) -> Outcome:
    """From one address, ``bh_parallel`` clients send request heads of 40,000 bytes (over the
    32 KiB limit) in one write, as fast as they are answered."""
    out = Outcome(cfg.scenario, source=cfg.source)
    start = f"GET /api/levels HTTP/1.1\r\nHost: {cfg.endpoint.host}:{cfg.endpoint.port}\r\n"
    pad = 40_000 - len(start) - len("X-Pad: \r\n\r\n")
    whole = (start + "X-Pad: " + "a" * pad + "\r\n\r\n").encode()
    await _hammer(cfg, win, out.counts, cfg.knob("bh_parallel"), lambda: whole)
    total = sum(out.counts.values())
    out.summary = f"{total:,} heads of 40,000 bytes: {plural(out.counts, sorted(out.counts))}"
    out.details.append(f"{cfg.knob('bh_parallel')} clients; answers: {dict(out.counts)}")
    out.throttled = bool(out.counts.get("431"))
    out.figures = dict(out.counts)
    return out
