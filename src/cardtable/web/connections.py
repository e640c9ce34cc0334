"""Connection-level protections, given to uvicorn: HTTP protocols that close a request read too
slowly or with too large a head, and a WebSocket protocol that parses what a client sends only
as fast as the application reads it. (The application-level guards are in :mod:`.guard`.)"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .guard import MAX_HEAD_BYTES, json_body

if TYPE_CHECKING:
    from uvicorn._types import ASGIReceiveEvent, ASGISendEvent

__all__ = ["WS_PARSE_AHEAD", "guarded_http_protocol", "paced_websocket_protocol"]


# -- slow and oversized request heads ----------------------------------------------------------


@dataclass
class _ReadClock:
    """The deadline of the request being read on one connection."""

    timeout: float
    expire: Callable[[], None]
    handle: asyncio.TimerHandle | None = field(default=None)

    def arm(self) -> None:
        if self.handle is None and self.timeout > 0:
            self.handle = asyncio.get_running_loop().call_later(self.timeout, self._fire)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def _fire(self) -> None:
        self.handle = None
        self.expire()


def _raw_answer(status: bytes, detail: str) -> bytes:
    body = json_body(detail)
    return (
        b"HTTP/1.1 "
        + status
        + b"\r\ncontent-type: application/json\r\ncontent-length: "
        + str(len(body)).encode()
        + b"\r\nconnection: close\r\n\r\n"
        + body
    )


WS_PARSE_AHEAD = 4096
"""Bytes of what a WebSocket client sent that the server parses ahead of the application."""


def paced_websocket_protocol(parse_ahead: int = WS_PARSE_AHEAD) -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol (on the ``websockets`` library's sans-I/O core) that parses
    what a client sends only as fast as the application reads it: at most ``parse_ahead``
    bytes at a time, and only once the messages parsed before were read. The rest waits,
    unparsed, and the socket is not read meanwhile — so a connection the application stops
    reading (over its message rate) fills its own buffers and costs the server nothing, where
    uvicorn's own protocol parses every frame of each chunk it receives at once. Give it as
    ``uvicorn.Config(ws=...)``."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    class PacedWebSocketProtocol(WebSocketsSansIOProtocol):
        """uvicorn's sans-I/O WebSocket protocol, parsing only what the application reads."""

        _unparsed: bytearray
        _after_close: int

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            # the first call uvicorn makes on a protocol it built: the connection's own state
            # starts here, and uvicorn's constructor (its parameters are uvicorn's) stays as is
            self._unparsed = bytearray()
            self._after_close = 0
            super().connection_made(transport)

        def data_received(self, data: bytes) -> None:
            if self.close_sent:  # past the close: only the peer's close reply matters
                self._after_close += len(data)
                if self._after_close > 16 * parse_ahead:
                    return  # a peer that keeps sending: the close timer ends it
                super().data_received(data)
                return
            self._unparsed += data
            self._parse()

        def _parse(self) -> None:
            while self._unparsed and self.queue.empty() and not self.close_sent:
                chunk = bytes(self._unparsed[:parse_ahead])
                del self._unparsed[:parse_ahead]
                super().data_received(chunk)
            if self._unparsed and not self.read_paused and not self.close_sent:
                self.read_paused = True
                self.transport.pause_reading()

        async def send(self, message: ASGISendEvent) -> None:
            await super().send(message)
            if message["type"] == "websocket.http.response.body" and not message.get(
                "more_body", False
            ):
                # a handshake refused with an HTTP answer is complete: uvicorn's protocol
                # leaves it marked incomplete and logs an error for each refusal
                self.handshake_complete = True

        async def receive(self) -> ASGIReceiveEvent:
            message = await self.queue.get()
            if self.queue.empty() and self._unparsed:
                self._parse()
            if self.read_paused and self.queue.empty() and not self._unparsed:
                self.read_paused = False
                self.transport.resume_reading()
            return message

    return PacedWebSocketProtocol


@dataclass
class _RequestRead:
    """How far the request being read on one httptools connection is: in its head, in its
    body, and the bytes of its head received so far (with the last bytes of the previous read,
    where the blank line ending the head may begin)."""

    in_head: bool = False
    in_body: bool = False
    head_bytes: int = 0
    tail: bytes = b""
    parsed: int = 0
    """Bytes of the head being parsed, as the parser gives its parts (request line and
    headers, without the spaces around values): what counts a head that came after another
    in the same read (pipelined), which :meth:`head_over` does not see."""
    refused: bool = False
    """Whether a head was found over the limit while parsing: the connection is answered
    ``431`` and closed, once the response in progress (if any) is sent."""

    def head_complete(self) -> None:
        """The head is read whole: the body (if any) comes next."""
        self.in_head = False
        self.in_body = True

    def reading(self) -> bool:
        """Whether a request is partly read."""
        return self.in_head or self.in_body

    def head_over(self, data: bytes, limit: int) -> bool:
        """Count the bytes of ``data`` (a read, before it is parsed) that belong to a request
        head — when no body is being read, the read goes on or begins a head, up to the blank
        line that ends it; whether that head is over ``limit`` bytes. Whether the head ends
        in this read or a later one, in one read or many, it is counted whole."""
        if self.in_body:
            return False
        seen = self.tail + data
        end = seen.find(b"\r\n\r\n")
        if end < 0:
            self.head_bytes += len(data)
            self.tail = seen[-3:]
            return self.head_bytes > limit
        total = self.head_bytes + end + 4 - len(self.tail)
        self.head_bytes = 0
        self.tail = b""
        return total > limit


def _head_too_large(limit: int) -> bytes:
    """The ``431`` answer to a request head over ``limit`` bytes."""
    return _raw_answer(
        b"431 Request Header Fields Too Large", f"the request head is over {limit} bytes"
    )


def _too_slow(read_timeout: float) -> bytes:
    """The ``408`` answer to a request head not read whole within ``read_timeout`` seconds."""
    return _raw_answer(
        b"408 Request Timeout", f"the request was not sent within {read_timeout:g} s"
    )


def _close(transport: asyncio.Transport, answer: bytes | None) -> None:
    """Close a connection, sending ``answer`` first (a raw HTTP answer) if there is one."""
    if answer is not None:
        transport.write(answer)
    transport.close()


def guarded_http_protocol(
    read_timeout: float, max_head_bytes: int = MAX_HEAD_BYTES
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools', else h11's) with two more limits: a request must be
    read whole — head and body — within ``read_timeout`` seconds of its first byte (or of the
    connection, for its first request; 0: no limit), else the connection is closed (``408``
    when its head was incomplete); and a request head over ``max_head_bytes`` is answered
    ``431`` and the connection closed (h11 enforces its own limit,
    ``h11_max_incomplete_event_size``). Give it as ``uvicorn.Config(http=...)``."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
        return _h11_protocol(read_timeout)

    class GuardedHttpToolsProtocol(HttpToolsProtocol):
        """httptools' protocol with a request read deadline and a head size limit."""

        _clock: _ReadClock
        _request: _RequestRead

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            # the first call uvicorn makes on a protocol it built: the connection's own state
            # starts here, and uvicorn's constructor (its parameters are uvicorn's) stays as is
            self._clock = _ReadClock(read_timeout, self._read_too_slow)
            self._request = _RequestRead()
            super().connection_made(transport)  # type: ignore[arg-type]
            self._clock.arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._clock.cancel()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            self._request.in_head = True
            self._request.parsed = 0
            super().on_message_begin()

        def on_url(self, url: bytes) -> None:
            self._request.parsed += len(url) + 16  # with the method and the protocol
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._request.parsed += len(name) + len(value) + 4
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._request.head_complete()
            if self._request.refused or self._request.parsed + 2 > max_head_bytes:
                self._request.refused = True  # the application never sees this request
                return
            super().on_headers_complete()

        def on_body(self, body: bytes) -> None:
            if not self._request.refused:
                super().on_body(body)

        def on_message_complete(self) -> None:
            self._request.in_body = False
            if not self._request.refused:
                super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._request.refused and not self.transport.is_closing():
                _close(self.transport, _head_too_large(max_head_bytes))

        def handle_websocket_upgrade(self) -> None:
            self._clock.cancel()
            super().handle_websocket_upgrade()

        def _reading(self) -> bool:
            idle = self.cycle is None or self.cycle.response_complete
            return self._request.reading() or (idle and not self.pipeline)

        def data_received(self, data: bytes) -> None:
            # counted before it is parsed: a head that arrives whole in one read is refused
            # before the application sees it, as one that arrives in many
            if self._request.head_over(data, max_head_bytes):
                self._clock.cancel()
                _close(self.transport, _head_too_large(max_head_bytes))
                return
            super().data_received(data)
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                self._clock.cancel()
                return
            if self._request.refused:  # a pipelined head over the limit
                self._clock.cancel()
                if self.cycle is None or self.cycle.response_complete:
                    _close(self.transport, _head_too_large(max_head_bytes))
                return  # else once the response in progress is sent
            if not self._reading():
                self._clock.cancel()
                return
            self._clock.arm()

        def _read_too_slow(self) -> None:
            if not self.transport.is_closing():
                late = _too_slow(read_timeout) if self._request.in_head else None
                _close(self.transport, late)

    return GuardedHttpToolsProtocol


def _h11_protocol(read_timeout: float) -> type[asyncio.Protocol]:  # pragma: no cover
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        """h11's protocol with a request read deadline."""

        _clock: _ReadClock

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            # the first call uvicorn makes on a protocol it built: the connection's own state
            # starts here, and uvicorn's constructor (its parameters are uvicorn's) stays as is
            self._clock = _ReadClock(read_timeout, self._read_too_slow)
            super().connection_made(transport)  # type: ignore[arg-type]
            self._clock.arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._clock.cancel()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._clock.cancel()
            super().handle_websocket_upgrade(event)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                self._clock.cancel()
            elif self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
                self._clock.arm()
            else:
                self._clock.cancel()

        def _read_too_slow(self) -> None:
            if not self.transport.is_closing():
                self.transport.close()

    return GuardedH11Protocol
