"""Fixtures: the real server (uvicorn subprocess) on SQLite and on a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ..pgserver import PostgresServer
from ..webserver import Server, running_server

STORES = ["sqlite", "postgresql"]


@pytest.fixture(scope="module", params=STORES)
def store_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A store URL: a SQLite file, or a database on a throwaway PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('sqlite') / 'cardtable.db'}"
        return
    with PostgresServer() as pg:
        yield pg.url


@pytest.fixture(scope="module")
def server(store_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A running server with AI delay 0, on the module's store."""
    workdir: Path = tmp_path_factory.mktemp("server")
    with running_server(workdir, db_url=store_url, ai_delay=0.0) as srv:
        yield srv
