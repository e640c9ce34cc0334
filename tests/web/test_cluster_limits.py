"""The processes of a cluster count each address's requests, rooms and joins together, in
Redis (a real one, started here); a connection's messages stay with its process; while Redis
is out of reach each process counts alone rather than failing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardtable.web.guard import Guard, Limits, Rate

from ..redisserver import RedisServer


@pytest.fixture
def redis() -> Iterator[RedisServer]:
    """A throwaway Redis server."""
    with RedisServer() as server:
        yield server


def limits() -> Limits:
    """Three rooms a minute per address, two messages a second per connection."""
    return Limits(rooms=Rate(3, 60), messages=Rate(2, 1), message_burst=2)


def test_rooms_are_counted_across_processes(redis: RedisServer) -> None:
    one, two = Guard(limits(), shared=redis.url), Guard(limits(), shared=redis.url)
    assert one.hit("rooms", "10.0.0.1") is None
    assert two.hit("rooms", "10.0.0.1") is None
    assert one.hit("rooms", "10.0.0.1") is None
    wait = two.hit("rooms", "10.0.0.1")  # the fourth, whichever process it reaches
    assert wait is not None and 0 < wait <= 60
    assert one.hit("rooms", "10.0.0.2") is None  # another address has its own count


def test_messages_stay_with_their_process(redis: RedisServer) -> None:
    one, two = Guard(limits(), shared=redis.url), Guard(limits(), shared=redis.url)
    assert one.hit("messages", "conn-0") is None
    assert one.hit("messages", "conn-0") is None
    assert one.hit("messages", "conn-0") is not None  # over this connection's burst
    assert two.hit("messages", "conn-0") is None  # another process's connection 0


def test_without_redis_each_process_counts_alone(redis: RedisServer) -> None:
    guard = Guard(limits(), shared=redis.url)
    redis.stop()
    for _ in range(3):
        assert guard.hit("rooms", "10.0.0.1") is None
    assert guard.hit("rooms", "10.0.0.1") is not None
