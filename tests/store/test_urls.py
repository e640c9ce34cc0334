"""Store URLs: an in-memory SQLite URL gets a throwaway file, and a URL no store can use is
named with the reason."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cardtable.store import GameRow, Store
from cardtable.store.db import in_memory, url_problem

from .test_writes import room_row


@pytest.mark.parametrize("url", ["sqlite+aiosqlite://", "sqlite+aiosqlite:///:memory:"])
def test_an_in_memory_url_is_a_throwaway_file_removed_on_close(url: str) -> None:
    assert in_memory(url)

    async def run() -> Path:
        store = Store(url)
        file = Path(store.url.split("///", 1)[1])
        await store.open()
        try:
            # written by the writer, read through the readers' pool: one database
            await store.create_room(room_row("r1"))
            await store.start_game(GameRow("r1", 1, 7, 0, 1.0))
            await store.append("r1", 1, 1, 0, "draw deck")
            found = await store.room("r1")
            assert found is not None and found.game == "kaboo"
            assert [a.action for a in await store.actions("r1", 1)] == ["draw deck"]
            assert file.is_file()
        finally:
            await store.close()
        return file

    file = asyncio.run(run())
    assert not file.exists() and not file.parent.exists()


def test_a_file_url_is_left_as_it_is(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'kept.db'}"
    assert not in_memory(url)
    assert Store(url).url == url
    assert not in_memory("postgresql+asyncpg://u@h/d") and not in_memory("nonsense")


def test_urls_no_store_can_use_are_named_with_the_reason() -> None:
    assert url_problem("sqlite+aiosqlite:///cardtable.db") is None
    assert url_problem("postgresql+asyncpg://u@h/d") is None
    assert url_problem("sqlite+aiosqlite://") is None
    assert "not a database URL" in (url_problem("nonsense") or "")
    assert "sqlite+aiosqlite://" in (url_problem("sqlite:///x.db") or "")
    assert "postgresql+asyncpg://" in (url_problem("postgresql+psycopg2://u@h/d") or "")
    assert "not mysql" in (url_problem("mysql+aiomysql://u@h/d") or "")
