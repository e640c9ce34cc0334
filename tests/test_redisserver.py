"""The throwaway Redis server for tests starts, answers a client and cleans up."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import redis

from . import redisserver
from .redisserver import RedisServer, ping, start_redis


def _port_is_free(port: int) -> bool:
    """Whether a listening socket can bind 127.0.0.1:``port`` now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def test_server_starts_answers_and_is_removed() -> None:
    with RedisServer() as server:
        port = server.port
        assert port is not None
        base_dir = server.base_dir
        assert base_dir is not None and base_dir.is_dir()
        assert server.url == f"redis://127.0.0.1:{port}/0"
        assert not _port_is_free(port)
        client = redis.Redis.from_url(server.url)
        try:
            assert client.set("cardtable:probe", b"42")
            assert client.get("cardtable:probe") == b"42"
            assert client.config_get("save") == {"save": ""}
            assert client.config_get("appendonly") == {"appendonly": "no"}
        finally:
            client.close()
    assert not ping(port)
    assert _port_is_free(port)
    assert not base_dir.exists()
    server.stop()  # stopping twice is harmless


def test_start_redis_returns_url_and_stop() -> None:
    url, stop = start_redis()
    try:
        client = redis.Redis.from_url(url)
        try:
            assert client.ping() is True
        finally:
            client.close()
    finally:
        stop()
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    assert _port_is_free(port)
    stop()


def test_missing_binary_fails_with_the_install_hint(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(redisserver, "DEBIAN_BINARY", tmp_path / "redis-server")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RuntimeError, match="apt-get install --no-install-recommends redis-server"):
        RedisServer(tmp_path).start()
    assert list(tmp_path.iterdir()) == []
