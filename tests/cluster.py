"""Several ``cardtable serve`` processes behind HAProxy on one machine, for tests,
benchmarks and demos (``scripts/cluster`` runs one from the command line).

``Cluster`` starts, in this order:

- a throwaway PostgreSQL server (:class:`tests.pgserver.PostgresServer`), whose schema is
  brought to the newest revision once (``python -m cardtable.store upgrade``) so that the
  processes, started together, never race to create it;
- unless ``redis=False``, a throwaway Redis server (:class:`tests.redisserver.RedisServer`),
  whose URL every process gets as ``--redis URL``;
- N app processes (:class:`tests.webserver.Server`: ``python -m cardtable serve --host
  127.0.0.1 --port P_i --db <postgres> ...``), each told to trust the balancer's
  ``X-Forwarded-For`` (``--trust-proxy 127.0.0.1``) so that per-address limits count the
  players, not the balancer;
- HAProxy in the foreground (``haproxy -db -f haproxy.cfg``), its configuration written into
  the cluster's directory: a frontend on 127.0.0.1, one backend with the N processes, round
  robin without stickiness, health checks on ``/readyz`` every 500 ms (down after 2 failures,
  up after 1 success), a tunnel timeout of an hour for WebSockets, and a connection refused by
  a dead process retried on another one (``retries 2``, ``option redispatch``). Its stats
  socket tells which backends are up (:meth:`Cluster.backend_status`).

``start()`` returns once the balancer answers ``/healthz`` and sees every process up. The
directory (default: a fresh temporary one, removed by ``stop()``; pass ``workdir`` to keep it)
holds ``haproxy.cfg``, ``haproxy.log`` and each process's ``server-PORT.log``;
:meth:`Cluster.logs` gathers them for a failure message. ``stop()`` stops everything it
started, even after a failed start or a failed step of the stop.

Usage::

    with Cluster(processes=2, redis=False) as cluster:
        http("GET", cluster.url + "/healthz")
        cluster.kill(1)
        cluster.wait_backend_status(1, "DOWN")
        cluster.restart(1)
        cluster.wait_backends_up(2)
"""

from __future__ import annotations

import contextlib
import csv
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import Self

import redis

from .pgserver import PostgresServer
from .redisserver import RedisServer
from .webserver import Server, free_port

__all__ = [
    "BACKEND",
    "HAPROXY",
    "ID_LOGGING",
    "Cluster",
    "find_haproxy",
    "haproxy_config",
    "server_name",
]

#: Where Debian's ``haproxy`` package puts the balancer.
HAPROXY = Path("/usr/sbin/haproxy")
#: The name of the HAProxy backend that holds the app processes.
BACKEND = "cardtable"

_INSTALL_HINT = (
    f"haproxy was not found at {HAPROXY} or on PATH; scripts/setup installs it "
    "(as root it runs: apt-get install --no-install-recommends haproxy)"
)
#: Options (for ``extra_args``) under which each process logs its cluster id at start ("process
#: ID joined the cluster", a JSON line at info): what :meth:`Cluster.process_id` reads.
ID_LOGGING = ("--log-format", "json", "--log-level", "info")

_PORT_TAKEN = "cannot bind socket"
_JOINED = re.compile(r"process ([0-9a-f]+) joined the cluster")
_LEASE = "ct:lease:"  # the key of a room's lease (src/cardtable/web/cluster.py)
_START_ATTEMPTS = 5
_LOG_TAIL = 6000  # characters of each log in logs()


def find_haproxy() -> Path:
    """Return the ``haproxy`` binary; raise ``RuntimeError`` saying how to install it."""
    if HAPROXY.is_file():
        return HAPROXY
    on_path = shutil.which("haproxy")
    if on_path is not None:
        return Path(on_path)
    raise RuntimeError(_INSTALL_HINT)


def server_name(index: int) -> str:
    """The HAProxy server name of app process ``index`` (``app0``, ``app1``, ...)."""
    return f"app{index}"


def haproxy_config(port: int, backend_ports: Sequence[int], stats_socket: Path) -> str:
    """The HAProxy configuration: a frontend on 127.0.0.1:``port`` in front of the app
    processes on ``backend_ports``, and an admin stats socket at ``stats_socket``."""
    servers = "".join(
        f"    server {server_name(i)} 127.0.0.1:{p} check inter 500ms fall 2 rise 1\n"
        for i, p in enumerate(backend_ports)
    )
    return (
        "# Written by tests/cluster.py: several cardtable processes behind one balancer.\n"
        "global\n"
        f"    stats socket {stats_socket} mode 600 level admin\n"
        "\n"
        "defaults\n"
        "    mode http\n"
        "    option forwardfor\n"
        "    option redispatch\n"
        "    retries 2\n"
        "    timeout connect 2s\n"
        "    timeout client 60s\n"
        "    timeout server 60s\n"
        "    timeout tunnel 1h\n"
        "\n"
        "frontend cardtable_in\n"
        f"    bind 127.0.0.1:{port}\n"
        "    # The balancer is the edge: what a client claims about its address is dropped, and\n"
        "    # option forwardfor then adds the address HAProxy saw (the processes trust it).\n"
        "    http-request del-header X-Forwarded-For\n"
        "    http-request set-header X-Forwarded-Proto http\n"
        f"    default_backend {BACKEND}\n"
        "\n"
        f"backend {BACKEND}\n"
        "    balance roundrobin\n"
        "    option httpchk GET /readyz\n"
        "    http-check expect status 200\n"
        f"{servers}"
    )


def _wait_for(
    what: str, check: Callable[[], bool], timeout: float, detail: Callable[[], str]
) -> None:
    """Poll ``check`` until it holds; after ``timeout`` s raise, saying ``what`` and ``detail``."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} within {timeout} s\n{detail()}")
        time.sleep(0.05)


def _tail(path: Path) -> str:
    """The end of the file at ``path`` ('' when it cannot be read)."""
    try:
        return path.read_text("utf-8", "replace")[-_LOG_TAIL:]
    except OSError:
        return ""


class Cluster:
    """PostgreSQL, Redis, ``processes`` app processes and HAProxy in front of them.

    ``redis`` passes ``--redis URL`` to every process (and starts Redis); ``port`` is the
    balancer's (default: a free one); ``extra_args`` go last on every process's command line.
    ``ai_delay``, ``ai_workers`` and ``generous_limits`` are as in
    :class:`tests.webserver.Server` (``ai_workers`` is the search workers of *each* process).
    """

    def __init__(
        self,
        processes: int = 2,
        *,
        redis: bool = True,
        port: int | None = None,
        extra_args: Sequence[str] = (),
        ai_delay: float = 0.0,
        ai_workers: int | None = None,
        generous_limits: bool = True,
        workdir: Path | None = None,
    ) -> None:
        """Prepare (but do not start) the cluster; ``workdir`` is kept after ``stop()``."""
        if processes < 1:
            raise ValueError("a cluster needs at least one process")
        self.size = processes
        """How many app processes run behind the balancer."""
        self.use_redis = redis
        """Whether the processes get ``--redis URL``."""
        self.port = port
        """The balancer's port (chosen at start when not given)."""
        self.extra_args = tuple(extra_args)
        """Arguments at the end of every process's command line."""
        self.ai_delay = ai_delay
        """Seconds an AI seat waits before it acts, in every process."""
        self.ai_workers = ai_workers
        """Search worker processes of each app process (None: the server's default)."""
        self.generous_limits = generous_limits
        """Whether every process gets :data:`tests.webserver.GENEROUS_LIMITS`."""
        self.workdir: Path | None = workdir
        """The folder of the configuration and the logs (set at start)."""
        self._keep_workdir = workdir is not None
        self.postgres: PostgresServer | None = None
        """The PostgreSQL server, while started."""
        self.redis: RedisServer | None = None
        """The Redis server, while started (never with ``redis=False``)."""
        self.servers: list[Server] = []
        """The app processes, in the order of the HAProxy servers ``app0``, ``app1``, ..."""
        self.haproxy: subprocess.Popen[bytes] | None = None
        """The HAProxy process, while started."""
        self._fixed_port = port is not None

    # -- addresses ---------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The balancer's address, ``http://127.0.0.1:PORT``."""
        if self.port is None:
            raise RuntimeError("the cluster is not started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The balancer's WebSocket address, ``ws://127.0.0.1:PORT/ws``."""
        return self.url.replace("http://", "ws://", 1) + "/ws"

    @property
    def db_url(self) -> str:
        """The SQLAlchemy URL of the shared PostgreSQL database."""
        if self.postgres is None:
            raise RuntimeError("the cluster is not started")
        return self.postgres.url

    @property
    def redis_url(self) -> str | None:
        """The shared Redis server's URL (None with ``redis=False``)."""
        return self.redis.url if self.redis is not None else None

    @property
    def processes(self) -> list[Server]:
        """The app processes (each with its ``port``, ``url``, ``proc.pid`` and ``log()``)."""
        return list(self.servers)

    @property
    def stats_socket(self) -> Path:
        """HAProxy's admin socket (``show stat``, ``disable server`` ...)."""
        if self.workdir is None:
            raise RuntimeError("the cluster is not started")
        return self.workdir / "haproxy.sock"

    @property
    def haproxy_log(self) -> Path:
        """HAProxy's output: its warnings and every server going up or down."""
        if self.workdir is None:
            raise RuntimeError("the cluster is not started")
        return self.workdir / "haproxy.log"

    # -- life --------------------------------------------------------------------------

    def start(self, timeout: float = 60.0) -> str:
        """Start everything; return :attr:`url` once every process is up behind the balancer."""
        if self.postgres is not None:
            raise RuntimeError("the cluster is already started")
        haproxy = find_haproxy()
        try:
            if self.workdir is None:
                self.workdir = Path(tempfile.mkdtemp(prefix="cardtable-cluster-"))
            self.workdir.mkdir(parents=True, exist_ok=True)
            self.postgres = PostgresServer()
            self.postgres.start()
            self._upgrade_store()
            if self.use_redis:
                self.redis = RedisServer(self.workdir)
                self.redis.start()
            self.servers = [
                Server(
                    self.workdir,
                    db_url=self.postgres.url,
                    port=free_port(),
                    ai_delay=self.ai_delay,
                    ai_workers=self.ai_workers,
                    generous_limits=self.generous_limits,
                    extra_args=self._process_args(),
                )
                for _ in range(self.size)
            ]
            with ThreadPoolExecutor(self.size) as pool:
                for started in [pool.submit(server.start, timeout) for server in self.servers]:
                    started.result()
            self._start_haproxy(haproxy)
            _wait_for(
                "the balancer did not answer /healthz",
                lambda: self._answers(self.url + "/healthz"),
                timeout,
                self.logs,
            )
            self.wait_backends_up(self.size, timeout)
        except BaseException:
            self.stop()
            raise
        return self.url

    def stop(self) -> None:
        """Stop HAProxy, the processes, Redis and PostgreSQL, and remove the temporary folder;
        every part is stopped even when another fails to; safe to call repeatedly."""
        errors: list[BaseException] = []

        def attempt(step: Callable[[], None]) -> None:
            try:
                step()
            except Exception as exc:  # stop the rest; the first error is raised at the end
                errors.append(exc)

        attempt(self._stop_haproxy)
        servers, self.servers = self.servers, []
        if servers:
            with ThreadPoolExecutor(len(servers)) as pool:
                for future in [pool.submit(server.stop) for server in servers]:
                    attempt(future.result)
        redis_server, self.redis = self.redis, None
        if redis_server is not None:
            attempt(redis_server.stop)
        postgres, self.postgres = self.postgres, None
        if postgres is not None:
            attempt(postgres.stop)
        if self.workdir is not None and not self._keep_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None
        if not self._fixed_port:
            self.port = None
        if errors:
            raise errors[0]

    def __enter__(self) -> Self:
        """Start the cluster."""
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop the cluster."""
        self.stop()

    # -- one process -------------------------------------------------------------------

    def kill(self, index: int) -> None:
        """SIGKILL app process ``index`` (no shutdown code runs) and wait until it is gone."""
        self.servers[index].kill()

    def terminate(self, index: int, *, wait: bool = True, timeout: float = 30.0) -> int | None:
        """SIGTERM app process ``index`` (it drains: ``/readyz`` answers 503, then it exits);
        with ``wait``, wait for it and return its exit status, else return None at once."""
        proc = self.servers[index].proc
        if proc is None or proc.poll() is not None:
            return proc.returncode if proc is not None else None
        proc.send_signal(signal.SIGTERM)
        return proc.wait(timeout) if wait else None

    def restart(self, index: int, timeout: float = 30.0) -> None:
        """Start app process ``index`` again on its port (stopping it first if it still runs);
        returns once it answers HTTP, before HAProxy's next check (see :meth:`wait_backends_up`).
        """
        server = self.servers[index]
        server.stop()
        server.start(timeout)

    # -- the cluster's view ----------------------------------------------------------------

    def process_id(self, index: int, timeout: float = 10.0) -> str:
        """The cluster id of app process ``index`` (new at each start: the last one its log
        names); the processes must log it (``extra_args`` with :data:`ID_LOGGING`)."""
        found: list[str] = []

        def logged() -> bool:
            found[:] = _JOINED.findall(self.servers[index].log())
            return bool(found)

        _wait_for(
            f"app process {index} never logged its cluster id (extra_args: ID_LOGGING?)",
            logged,
            timeout,
            self.logs,
        )
        return found[-1]

    def lease_holder(self, room: str) -> str | None:
        """The process id in ``room``'s lease key in Redis (None: nobody holds it)."""
        url = self.redis_url
        if url is None:
            raise RuntimeError("the cluster runs without Redis")
        with redis.Redis.from_url(url, decode_responses=True) as client:
            holder = client.get(_LEASE + room)
        return holder if isinstance(holder, str) else None

    def owner_of(self, room: str) -> int | None:
        """The index of the app process holding ``room``'s lease (None: nobody, or a process
        not started by this cluster); see :meth:`process_id`."""
        holder = self.lease_holder(room)
        if holder is None:
            return None
        for index in range(len(self.servers)):
            if self.process_id(index) == holder:
                return index
        return None

    # -- the balancer's view -----------------------------------------------------------

    def stats(self) -> list[dict[str, str]]:
        """HAProxy's ``show stat`` rows of the app processes, in order (``status``: ``UP``,
        ``DOWN``, ``UP 1/2`` ...; ``stot``: sessions sent there; ``chkfail`` ...)."""
        rows = csv.DictReader(self._admin("show stat").lstrip("# ").splitlines())
        by_name = {
            row["svname"]: row
            for row in rows
            if row.get("pxname") == BACKEND and row.get("svname") not in ("FRONTEND", "BACKEND")
        }
        return [by_name[server_name(i)] for i in range(len(self.servers))]

    def backend_status(self) -> list[str]:
        """Each app process's status as HAProxy sees it, in order (``UP``, ``DOWN`` ...)."""
        return [row["status"] for row in self.stats()]

    def sessions(self) -> list[int]:
        """How many connections HAProxy has sent to each app process so far, in order."""
        return [int(row["stot"] or 0) for row in self.stats()]

    def wait_backends_up(self, count: int | None = None, timeout: float = 30.0) -> list[str]:
        """Wait until at least ``count`` (default: all) processes are ``UP`` in HAProxy;
        return the statuses; raise ``TimeoutError`` (with the logs) after ``timeout`` s."""
        wanted = len(self.servers) if count is None else count
        _wait_for(
            f"fewer than {wanted} app processes were UP in HAProxy",
            lambda: self.backend_status().count("UP") >= wanted,
            timeout,
            lambda: f"statuses: {self.backend_status()}\n{self.logs()}",
        )
        return self.backend_status()

    def wait_backend_status(self, index: int, status: str, timeout: float = 30.0) -> None:
        """Wait until HAProxy gives app process ``index`` the status ``status`` (``DOWN``)."""
        _wait_for(
            f"app process {index} did not become {status} in HAProxy",
            lambda: self.backend_status()[index] == status,
            timeout,
            lambda: f"statuses: {self.backend_status()}\n{self.logs()}",
        )

    def logs(self) -> str:
        """The end of every log (HAProxy, each process, Redis), for a failure message."""
        parts: list[str] = []
        if self.workdir is not None:
            parts.append(f"== haproxy ({self.haproxy_log})\n{_tail(self.haproxy_log)}")
        for i, server in enumerate(self.servers):
            parts.append(f"== app{i} (port {server.port})\n{server.log()[-_LOG_TAIL:]}")
        if self.redis is not None:
            parts.append(f"== redis\n{self.redis.log()[-_LOG_TAIL:]}")
        return "\n".join(parts)

    # -- internals ---------------------------------------------------------------------

    def _process_args(self) -> list[str]:
        """What every process gets after the common options of :class:`Server`."""
        args = ["--trust-proxy", "127.0.0.1"]
        if self.redis is not None:
            args += ["--redis", self.redis.url]
        return [*args, *self.extra_args]

    def _upgrade_store(self) -> None:
        """Bring the fresh database to the newest schema before the processes start."""
        assert self.postgres is not None
        command = [sys.executable, "-m", "cardtable.store", "upgrade", "--db", self.postgres.url]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if result.returncode != 0:
            raise RuntimeError(
                f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}"
            )

    def _start_haproxy(self, binary: Path) -> None:
        """Write the configuration and run HAProxy; another port if the chosen one got taken."""
        assert self.workdir is not None
        config = self.workdir / "haproxy.cfg"
        for attempt in range(_START_ATTEMPTS):
            port = self.port if self._fixed_port else free_port()
            assert port is not None
            config.write_text(
                haproxy_config(port, [s.port for s in self.servers], self.stats_socket)
            )
            with self.haproxy_log.open("ab") as out:
                self.haproxy = subprocess.Popen(
                    [str(binary), "-db", "-f", str(config)],
                    cwd=self.workdir,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            self.port = port
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and self.haproxy.poll() is None:
                if self.stats_socket.exists() and self._answers(self.url + "/healthz"):
                    return
                time.sleep(0.05)
            if self.haproxy.poll() is None:
                return  # running: start() waits for /healthz and says what went wrong
            log = _tail(self.haproxy_log)
            self.haproxy = None
            if self._fixed_port or _PORT_TAKEN not in log or attempt == _START_ATTEMPTS - 1:
                raise RuntimeError(f"haproxy exited at start:\n{log}")

    def _stop_haproxy(self) -> None:
        """Stop HAProxy (SIGTERM: at once), then SIGKILL if it lingers."""
        proc, self.haproxy = self.haproxy, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)

    def _admin(self, command: str) -> str:
        """Send one command to HAProxy's stats socket; its whole answer."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(5)
            sock.connect(str(self.stats_socket))
            sock.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode("utf-8", "replace")

    @staticmethod
    def _answers(url: str) -> bool:
        """Whether ``GET url`` answers 200 within a second."""
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(url, timeout=1) as resp,
        ):
            return bool(resp.status == 200)
        return False
