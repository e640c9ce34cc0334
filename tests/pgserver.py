"""A throwaway PostgreSQL server for tests.

``PostgresServer`` creates a new cluster with ``initdb`` in a fresh temporary directory,
starts it with ``pg_ctl -w`` on a free TCP port of 127.0.0.1 (its Unix socket goes into
the same directory, trust authentication, fsync left on), creates the database
``cardtable`` and offers a SQLAlchemy URL for it. ``stop()`` shuts the server down at once
(``pg_ctl stop -m immediate``) and removes the directory.

PostgreSQL refuses to run as root, so under root the server runs as the ``postgres``
system user (made by Debian's ``postgresql`` package) through ``runuser``. The binaries
are looked up under ``/usr/lib/postgresql/<version>/bin`` (highest version first), then on
``PATH``; ``scripts/setup`` installs them. When they are missing, starting raises
``RuntimeError``: the tests that need the server fail, they are never skipped.

Usage::

    with PostgresServer() as server:
        engine = create_async_engine(server.url)

    url, stop = start_postgres()
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Self

#: The database created in every server.
DATABASE = "cardtable"
#: The superuser name (the same whichever OS user runs the server).
SUPERUSER = "postgres"
#: The OS user that runs the server when the tests run as root.
SYSTEM_USER = "postgres"
#: Where the Debian packages put each major version's server binaries.
DEBIAN_ROOT = Path("/usr/lib/postgresql")
#: The binaries needed from one directory.
BINARIES = ("initdb", "pg_ctl", "createdb")

_INSTALL_HINT = (
    "PostgreSQL server binaries (initdb, pg_ctl, createdb) were not found under "
    f"{DEBIAN_ROOT}/<version>/bin or on PATH; scripts/setup installs them "
    "(as root it runs: apt-get install --no-install-recommends postgresql)"
)
_PORT_TAKEN = re.compile(r"could not bind|address already in use", re.IGNORECASE)
_START_ATTEMPTS = 5
_TIMEOUT = 120  # seconds for any one command


def _version_key(path: Path) -> tuple[int, ...]:
    """Sort key for a directory named after a PostgreSQL version ("15", "9.6")."""
    try:
        return tuple(int(part) for part in path.name.split("."))
    except ValueError:
        return (-1,)


def find_bin_dir() -> Path:
    """Return the directory holding ``initdb``, ``pg_ctl`` and ``createdb``.

    The highest version under ``/usr/lib/postgresql`` wins; otherwise the directory of
    ``pg_ctl`` on ``PATH``. Raises ``RuntimeError`` saying how to install them.
    """
    candidates = sorted(
        (path for path in DEBIAN_ROOT.glob("*") if path.is_dir()),
        key=_version_key,
        reverse=True,
    )
    dirs = [path / "bin" for path in candidates]
    on_path = shutil.which("pg_ctl")
    if on_path is not None:
        dirs.append(Path(on_path).resolve().parent)
    for directory in dirs:
        if all(os.access(directory / name, os.X_OK) for name in BINARIES):
            return directory
    raise RuntimeError(_INSTALL_HINT)


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _clean_env() -> dict[str, str]:
    """The environment without ``PG*`` variables, which could redirect the commands."""
    return {key: value for key, value in os.environ.items() if not key.startswith("PG")}


class PostgresServer:
    """A PostgreSQL server in its own temporary directory, for the duration of a test.

    Use it as a context manager, or call ``start()`` and ``stop()``. ``parent`` is where
    the temporary directory is made (default ``/tmp``: short enough for the Unix socket
    path and, under root, traversable by the ``postgres`` user).
    """

    def __init__(self, parent: Path | None = None) -> None:
        """Prepare (but do not start) a server whose directory goes under ``parent``."""
        self.parent = parent
        self.base_dir: Path | None = None
        self.port: int | None = None
        self._bin_dir: Path | None = None
        self._as_root = os.geteuid() == 0

    @property
    def data_dir(self) -> Path:
        """The cluster's data directory (inside the temporary directory)."""
        if self.base_dir is None:
            raise RuntimeError("the PostgreSQL server is not started")
        return self.base_dir / "data"

    @property
    def log_file(self) -> Path:
        """The server's log file (inside the temporary directory)."""
        return self.data_dir.parent / "server.log"

    @property
    def url(self) -> str:
        """SQLAlchemy URL of the ``cardtable`` database (asyncpg driver)."""
        if self.port is None:
            raise RuntimeError("the PostgreSQL server is not started")
        return f"postgresql+asyncpg://{SUPERUSER}@127.0.0.1:{self.port}/{DATABASE}"

    def start(self) -> str:
        """Create the cluster, start the server, create the database; return ``url``."""
        if self.base_dir is not None:
            raise RuntimeError("the PostgreSQL server is already started")
        self._bin_dir = find_bin_dir()
        owner = self._system_user() if self._as_root else None
        parent = self.parent or (Path("/tmp") if Path("/tmp").is_dir() else None)
        self.base_dir = Path(tempfile.mkdtemp(prefix="cardtable-pg-", dir=parent))
        try:
            self.base_dir.chmod(0o755)
            if owner is not None:
                os.chown(self.base_dir, owner.pw_uid, owner.pw_gid)
            self._initdb()
            self._start_server()
            self._run(
                [
                    str(self._bin_dir / "createdb"),
                    "--host=127.0.0.1",
                    f"--port={self.port}",
                    f"--username={SUPERUSER}",
                    DATABASE,
                ],
                as_server_user=False,
            )
        except BaseException:
            self.stop()
            raise
        return self.url

    def stop(self) -> None:
        """Stop the server at once and remove its directory; safe to call repeatedly."""
        base_dir, self.base_dir = self.base_dir, None
        self.port = None
        if base_dir is None:
            return
        data_dir = base_dir / "data"
        pid_file = data_dir / "postmaster.pid"
        if pid_file.exists() and not self._pg_ctl_stop(data_dir):
            self._kill_leftover(pid_file)
        shutil.rmtree(base_dir, ignore_errors=True)

    def __enter__(self) -> Self:
        """Start the server."""
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop the server."""
        self.stop()

    # -- internals ---------------------------------------------------------------------

    @staticmethod
    def _system_user() -> pwd.struct_passwd:
        """The ``postgres`` account that runs the server under root."""
        try:
            return pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            raise RuntimeError(
                f"running as root, the PostgreSQL server must run as the {SYSTEM_USER!r} "
                f"system user, which does not exist; {_INSTALL_HINT}"
            ) from None

    def _run(
        self,
        command: Sequence[str],
        *,
        as_server_user: bool = True,
        cwd: Path | None = None,
        check: bool = True,
    ) -> subprocess.CompletedProcess[str]:
        """Run ``command`` (under root as the ``postgres`` user); raise if it fails."""
        argv = list(command)
        if as_server_user and self._as_root:
            argv = ["runuser", "-u", SYSTEM_USER, "--", *argv]
        result = subprocess.run(
            argv,
            cwd=cwd or self.base_dir,
            env=_clean_env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=_TIMEOUT,
            check=False,
        )
        if check and result.returncode != 0:
            raise RuntimeError(
                f"{' '.join(argv)} failed with exit status {result.returncode}:\n"
                f"{result.stdout}{result.stderr}"
            )
        return result

    def _initdb(self) -> None:
        """Create the cluster and point its Unix socket at the temporary directory."""
        assert self._bin_dir is not None and self.base_dir is not None
        self._run(
            [
                str(self._bin_dir / "initdb"),
                "-D",
                str(self.data_dir),
                f"--username={SUPERUSER}",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
            ]
        )
        with (self.data_dir / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write(
                "\n# cardtable test server\n"
                "listen_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.base_dir}'\n"
            )

    def _start_server(self) -> None:
        """Start the server on a free port, trying another port if that one got taken."""
        assert self._bin_dir is not None
        for attempt in range(_START_ATTEMPTS):
            port = free_port()
            result = self._run(
                [
                    str(self._bin_dir / "pg_ctl"),
                    "start",
                    "-D",
                    str(self.data_dir),
                    "-l",
                    str(self.log_file),
                    "-o",
                    f"-p {port}",
                    "-w",
                    "-t",
                    "60",
                ],
                check=False,
            )
            if result.returncode == 0:
                self.port = port
                return
            log = self.log_file.read_text(errors="replace") if self.log_file.exists() else ""
            if not _PORT_TAKEN.search(log) or attempt == _START_ATTEMPTS - 1:
                raise RuntimeError(
                    f"pg_ctl start failed with exit status {result.returncode}:\n"
                    f"{result.stdout}{result.stderr}\nserver log:\n{log}"
                )
            self.log_file.unlink()

    def _pg_ctl_stop(self, data_dir: Path) -> bool:
        """``pg_ctl stop -m immediate``; return whether it reports the server stopped."""
        if self._bin_dir is None:
            return False
        command = [str(self._bin_dir / "pg_ctl"), "stop", "-D", str(data_dir)]
        command += ["-m", "immediate", "-w", "-t", "30"]
        try:
            result = self._run(command, cwd=data_dir.parent, check=False)
        except (OSError, subprocess.SubprocessError):
            return False
        return result.returncode == 0

    @staticmethod
    def _kill_leftover(pid_file: Path) -> None:
        """Kill the postmaster named in ``pid_file`` if ``pg_ctl stop`` left it running."""
        try:
            pid = int(pid_file.read_text().split("\n", 1)[0])
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, ValueError):
            return
        if b"postgres" not in command:
            return  # gone, and the number reused by an unrelated process
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def start_postgres(parent: Path | None = None) -> tuple[str, Callable[[], None]]:
    """Start a throwaway server; return its SQLAlchemy URL and a function that stops it."""
    server = PostgresServer(parent)
    url = server.start()
    return url, server.stop
