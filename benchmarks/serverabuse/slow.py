"""Slow clients (half request heads; WebSockets that never read) and big bodies (200 MiB
POSTs; deeply nested and oversized WebSocket frames)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from typing import Any

from .base import AbuseConfig, Outcome, Window, kib, median, plural
from .common import (
    describe_error,
    raw_socket,
    raw_ws_open,
    read_head,
    source_address,
    ws_frame,
)
from .flood import throttle_keys

__all__ = ["big_bodies", "slow_clients"]


def _closed(sock: socket.socket) -> tuple[bool, bytes]:
    """Whether the server closed ``sock`` (read without blocking), and what it sent."""
    got = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return True, got
            got += chunk[: max(0, 256 - len(got))]
    except BlockingIOError:
        return False, got
    except OSError:
        return True, got


async def slow_clients(cfg: AbuseConfig, win: Window) -> Outcome:
    """(a) ``slowloris`` sockets send half a request head, then one more header line every
    ``loris_interval`` s; (b) ``stalled_ws`` WebSockets with a tiny receive buffer join a busy
    room (an ordinary table's) and then ask for its state again every ``stall_interval`` s,
    never reading an answer, so their buffers (and the server's) fill.

    After the window they go on (unmeasured, up to ``drain`` s, until the server has closed
    them all) to see whether and when the server closes them."""
    out = Outcome(cfg.scenario, source=cfg.source)
    counts = out.counts
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(100)
    loris_closed: list[tuple[float, float]] = []
    """(when, seconds after it opened) of each slowloris socket the server closed."""
    stall_dropped: list[tuple[float, float]] = []
    busy = cfg.rooms[0] if cfg.rooms else "NoSuchRoom"
    head = f"GET /api/levels HTTP/1.1\r\nHost: {cfg.endpoint.host}\r\nUser-Agent: slow\r\n"
    deadline = win.begin()
    until = deadline + cfg.drain

    async def loris(i: int) -> None:
        async with gate:
            try:
                sock = await raw_socket(cfg.endpoint, cfg.source, timeout=max(0.5, win.left()))
            except Exception as exc:
                counts[f"loris_connect:{describe_error(exc)}"] += 1
                return
        counts["loris_open"] += 1
        opened = time.monotonic()
        try:
            await loop.sock_sendall(sock, head.encode())
            extra = 0
            next_line = opened + cfg.knob("loris_interval")
            while time.monotonic() < until:
                await asyncio.sleep(0.25)
                gone, got = _closed(sock)
                if got:
                    status = got.split(b" ", 2)[1].decode() if got.startswith(b"HTTP/") else "?"
                    counts[f"loris_answer:{status}"] += 1
                if gone:
                    now = time.monotonic()
                    loris_closed.append((now, now - opened))
                    return
                if time.monotonic() >= next_line:
                    extra += 1
                    await loop.sock_sendall(sock, f"X-Slow-{extra}: {i}\r\n".encode())
                    next_line += cfg.knob("loris_interval")
        except OSError:
            now = time.monotonic()
            loris_closed.append((now, now - opened))
        finally:
            sock.close()

    join = ws_frame(json.dumps({"type": "join", "room": busy}))

    async def stall(i: int) -> None:
        try:
            sock = await raw_ws_open(cfg.endpoint, cfg.source, rcvbuf=4096, timeout=10)
        except Exception as exc:
            counts[f"stall_connect:{describe_error(exc)}"] += 1
            return
        counts["stall_open"] += 1
        opened = time.monotonic()
        try:
            while time.monotonic() < until:
                try:
                    await asyncio.wait_for(loop.sock_sendall(sock, join), 2.0)
                    counts["stall_joins"] += 1
                except TimeoutError:
                    counts["stall_send_blocked"] += 1  # the server stopped reading us
                await asyncio.sleep(cfg.knob("stall_interval"))
            gone, _ = _closed(sock)  # reads what piled up: was the end a close?
            if gone:
                now = time.monotonic()
                stall_dropped.append((now, now - opened))
        except OSError:
            now = time.monotonic()
            stall_dropped.append((now, now - opened))
        finally:
            sock.close()

    await asyncio.gather(
        *(loris(i) for i in range(cfg.knob("slowloris"))),
        *(stall(i) for i in range(cfg.knob("stalled_ws"))),
    )
    win.end()
    n_loris, n_stall = cfg.knob("slowloris"), cfg.knob("stalled_ws")
    l_in = sum(1 for t, _ in loris_closed if t < deadline)
    s_in = sum(1 for t, _ in stall_dropped if t < deadline)
    l_after = [a for _, a in loris_closed]
    s_after = [a for _, a in stall_dropped]
    out.summary = (
        f"loris {l_in:,}/{counts['loris_open']:,} closed in window, {len(loris_closed):,} in "
        f"{cfg.seconds + cfg.drain:g} s; stalled WS {len(stall_dropped)}/{counts['stall_open']} "
        "dropped"
    )
    out.details.append(
        f"slowloris: {counts['loris_open']:,} of {n_loris:,} connected; closed by the server: "
        f"{l_in:,} in the window, {len(loris_closed):,} by {cfg.drain:g} s after it"
        + (f" (median {median(l_after):.1f} s after opening)" if l_after else "")
    )
    out.details.append(
        f"stalled WebSockets: {counts['stall_open']:,} of {n_stall:,} opened, "
        f"{counts['stall_joins']:,} joins sent, {counts['stall_send_blocked']:,} sends blocked; "
        f"dropped by the server: {s_in} in the window, {len(stall_dropped)} by {cfg.drain:g} s "
        "after it" + (f" (median {median(s_after):.1f} s after opening)" if s_after else "")
    )
    out.details.append(f"outcomes: {dict(sorted(counts.items()))}")
    out.throttled = bool(loris_closed or stall_dropped) or throttle_keys(counts)
    out.figures = {
        "loris_closed_in_window": l_in,
        "loris_closed": len(loris_closed),
        "loris_closed_median_s": median(l_after),
        "stall_dropped_in_window": s_in,
        "stall_dropped": len(stall_dropped),
        "stall_dropped_median_s": median(s_after),
    }
    return out


async def _stream_body(cfg: AbuseConfig, chunked: bool, stop: float) -> tuple[str, int, float]:
    """POST a ``body_mib`` body (``Content-Length``, or chunked) to ``body_path`` as fast as
    the server takes it; returns the answer (status, ``reset`` or ``none``), the bytes handed
    over by the time it came, and the seconds it took."""
    total = cfg.knob("body_mib") << 20
    local = (cfg.source, 0) if cfg.source else None
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(cfg.endpoint.host, cfg.endpoint.port, local_addr=local), 10
    )
    t0 = time.monotonic()
    sent = 0
    status = "none"
    try:
        length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}"
        head = (
            f"POST {cfg.knob('body_path')} HTTP/1.1\r\nHost: {cfg.endpoint.host}\r\n"
            f"Content-Type: application/json\r\n{length}\r\n\r\n"
        )
        writer.write(head.encode())
        answer = asyncio.ensure_future(read_head(reader))
        block = b" " * (256 << 10)
        piece = (f"{len(block):x}\r\n".encode() + block + b"\r\n") if chunked else block
        try:
            while sent < total and not answer.done() and time.monotonic() < stop:
                writer.write(piece)
                await asyncio.wait_for(writer.drain(), 10)
                sent += len(block)
            if chunked and sent >= total:
                writer.write(b"0\r\n\r\n")
        except (OSError, TimeoutError):
            pass
        with contextlib.suppress(Exception):
            got = await asyncio.wait_for(answer, 3)
            status = str(got.status)
        if status == "none" and answer.done() and answer.exception() is not None:
            status = "reset"
        answer.cancel()
    finally:
        writer.close()
    return status, sent, time.monotonic() - t0


def _nested_frames() -> tuple[str, str]:
    """A frame within the size limit nested ~1,000 deep, and a 1 MiB one nested far deeper."""
    deep = '{"type":"ping","x":' + "[" * 1000 + "]" * 1000 + "}"
    huge = '{"type":"ping","x":' + "[" * (1 << 19) + "]" * (1 << 19) + "}"
    return deep, huge


async def big_bodies(cfg: AbuseConfig, win: Window) -> Outcome:
    """(a) ``big_parallel`` clients POST 200 MiB bodies, by turns with a ``Content-Length`` and
    chunked, and note how much the server took before answering; (b) ``nested_sockets``
    WebSockets send deeply nested frames (within the size limit, and 1 MiB) as fast as the
    answers come back."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    out = Outcome(cfg.scenario, source=cfg.source)
    counts = out.counts
    taken: dict[str, list[int]] = {"length": [], "chunked": []}
    times: list[float] = []
    deep, huge = _nested_frames()
    deadline = win.begin()

    async def streamer(i: int) -> None:
        n = i
        while time.monotonic() < deadline:
            chunked = n % 2 == 1
            n += 1
            try:
                status, sent, took = await _stream_body(cfg, chunked, deadline)
            except Exception as exc:
                counts[f"body_connect:{describe_error(exc)}"] += 1
                await asyncio.sleep(0.05)
                continue
            if time.monotonic() >= deadline and status == "none":
                break
            kind = "chunked" if chunked else "length"
            counts[f"body:{status}"] += 1
            taken[kind].append(sent)
            times.append(took)

    # the frames come from a second address: the bodies' requests must not use up its quota
    frames_from = source_address(cfg.endpoint, cfg.index + 100)

    async def nested(i: int) -> None:
        local = (frames_from, 0) if frames_from else None
        while time.monotonic() < deadline:
            try:
                ws = await connect(
                    cfg.endpoint.ws_url,
                    local_addr=local,
                    ping_interval=None,
                    compression=None,
                    open_timeout=max(1.0, win.left()),
                )
            except InvalidStatus as exc:
                counts[f"handshake:{exc.response.status_code}"] += 1
                await asyncio.sleep(0.05)
                continue
            except Exception as exc:
                counts[f"ws_connect:{describe_error(exc)}"] += 1
                await asyncio.sleep(0.05)
                continue
            k = 0
            try:
                while time.monotonic() < deadline:
                    frame = huge if k % 4 == 3 else deep
                    k += 1
                    await ws.send(frame)
                    counts["frames_sent"] += 1
                    raw = await asyncio.wait_for(ws.recv(), max(0.1, win.left()))
                    msg: dict[str, Any] = json.loads(raw)
                    key = msg.get("code") if msg.get("type") == "error" else msg.get("type")
                    counts[f"frame:{key}"] += 1
            except ConnectionClosed:
                if time.monotonic() < deadline:
                    counts["closed"] += 1
                    counts[f"close:{ws.close_code}"] += 1
            except TimeoutError:
                pass
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)

    await asyncio.gather(
        *(streamer(i) for i in range(cfg.knob("big_parallel"))),
        *(nested(i) for i in range(cfg.knob("nested_sockets"))),
    )
    win.end()
    most = max(taken["length"] + taken["chunked"], default=0)
    full = sum(1 for v in taken["length"] + taken["chunked"] if v >= cfg.knob("body_mib") << 20)
    statuses = plural(counts, sorted(k for k in counts if k.startswith("body:")))
    frames = plural(counts, sorted(k for k in counts if k.startswith("frame:")))
    bodies = sum(len(v) for v in taken.values())
    answers = ", ".join(
        f"{k.split(':', 1)[1]} ×{counts[k]:,}" for k in sorted(counts) if k.startswith("body:")
    )
    frame_codes = ", ".join(
        f"{k.split(':', 1)[1]} ×{counts[k]:,}"
        for k in sorted(counts)
        if k.startswith(("frame:", "close:")) and k != "frame:pong"
    )
    out.summary = (
        f"{answers or 'no answer'} after ≤{kib(most)}"
        + (f" ({full} read whole)" if full else "")
        + (f"; {frame_codes}" if frame_codes else "")
    )
    for kind, values in taken.items():
        if values:
            out.details.append(
                f"{cfg.knob('body_mib')} MiB bodies to {cfg.knob('body_path')}, {kind}: "
                f"{len(values):,} sent; handed over "
                f"before the answer: median {kib(median([float(v) for v in values]))}, "
                f"most {kib(max(values))} (kernel buffers included)"
            )
    out.details.append(
        f"body answers: {statuses or 'none'}; median {median(times):.2f} s per body; "
        f"nested frames: {counts['frames_sent']:,} sent, answers {frames or 'none'}"
        + (f"; closed {counts['closed']:,}×" if counts["closed"] else "")
    )
    out.details.append(f"nested frames from {frames_from or 'the default address'}")
    out.details.append(f"outcomes: {dict(sorted(counts.items()))}")
    out.throttled = throttle_keys(counts) or bool(counts.get("body:413"))
    out.figures = {"bodies": bodies, "handed_over": dict(taken), "most": most, "whole": full}
    return out
