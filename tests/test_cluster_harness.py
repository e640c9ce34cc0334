"""The several-process harness (tests/cluster.py): HAProxy in front of two ``cardtable serve``
processes sharing one PostgreSQL, spreading requests, routing around a dead process and taking
it back once restarted; everything stopped afterwards."""

from __future__ import annotations

import os
import signal
import socket
from pathlib import Path

from .cluster import Cluster, haproxy_config
from .webserver import http


def _alive(pid: int) -> bool:
    """Whether a process with this id exists (and is not a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _listening(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:``port``."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError:
        return False
    return True


def test_config_balances_round_robin_checks_readyz_and_keeps_websockets(tmp_path: Path) -> None:
    config = haproxy_config(8080, [9001, 9002], tmp_path / "haproxy.sock")
    lines = {line.strip() for line in config.splitlines()}
    assert "bind 127.0.0.1:8080" in lines
    assert "balance roundrobin" in lines
    assert "option httpchk GET /readyz" in lines
    assert "http-check expect status 200" in lines
    assert "server app0 127.0.0.1:9001 check inter 500ms fall 2 rise 1" in lines
    assert "server app1 127.0.0.1:9002 check inter 500ms fall 2 rise 1" in lines
    assert {"timeout tunnel 1h", "option redispatch", "retries 2", "option forwardfor"} <= lines
    assert "http-request del-header X-Forwarded-For" in lines
    assert not any(word in config for word in ("cookie", "stick", "balance source"))


def test_two_processes_behind_haproxy_share_the_load_and_survive_a_kill(tmp_path: Path) -> None:
    with Cluster(2, redis=False, ai_workers=1, workdir=tmp_path) as cluster:
        app0, app1 = cluster.processes
        assert cluster.url.startswith("http://127.0.0.1:")
        assert cluster.ws_url == cluster.url.replace("http://", "ws://") + "/ws"
        assert cluster.redis_url is None
        assert app0.db_url == app1.db_url == cluster.db_url
        assert cluster.db_url.startswith("postgresql+asyncpg://")
        assert cluster.backend_status() == ["UP", "UP"]
        pids = [cluster.haproxy.pid if cluster.haproxy else 0, app0.proc.pid if app0.proc else 0]

        # Both processes get requests through the balancer (round robin, no stickiness).
        before = cluster.sessions()
        for _ in range(4):
            assert http("GET", cluster.url + "/healthz") == (200, {"status": "ok"}), cluster.logs()
        after = cluster.sessions()
        assert all(a > b for a, b in zip(after, before, strict=True)), (before, after)
        status, metrics = http("GET", app1.url + "/metrics")
        assert status == 200 and "cardtable_" in metrics

        # A killed process: requests keep being answered (redispatched), then it is DOWN and
        # gets nothing more.
        cluster.kill(1)
        assert app1.proc is not None and app1.proc.poll() is not None
        assert http("GET", cluster.url + "/healthz")[0] == 200, cluster.logs()
        cluster.wait_backend_status(1, "DOWN")
        dead_sessions = cluster.sessions()[1]
        for _ in range(4):
            assert http("GET", cluster.url + "/healthz")[0] == 200, cluster.logs()
        assert cluster.sessions()[1] == dead_sessions
        assert "app1 is DOWN" in cluster.logs()

        # Started again on its port: UP again and used again.
        port = app1.port
        cluster.restart(1)
        assert app1.port == port and app1.proc is not None and app1.proc.poll() is None
        assert cluster.wait_backends_up(2) == ["UP", "UP"]
        for _ in range(4):
            assert http("GET", cluster.url + "/healthz")[0] == 200, cluster.logs()
        assert cluster.sessions()[1] > dead_sessions

        # SIGTERM: the process drains and exits cleanly; the other one serves alone.
        # (uvicorn shuts down, then re-raises the signal: -SIGTERM is its clean exit)
        assert cluster.terminate(0) in (0, -signal.SIGTERM), app0.log()
        cluster.wait_backend_status(0, "DOWN")
        assert http("GET", cluster.url + "/healthz")[0] == 200, cluster.logs()
        pids.append(app1.proc.pid)
        balancer_port = cluster.port
        assert balancer_port is not None

    # stop(): HAProxy and every process are gone; the folder given is kept with the logs.
    assert not any(_alive(pid) for pid in pids if pid)
    assert cluster.postgres is None and cluster.haproxy is None
    assert not _listening(balancer_port)
    assert (tmp_path / "haproxy.cfg").is_file()
    assert os.path.getsize(tmp_path / f"server-{port}.log") > 0
