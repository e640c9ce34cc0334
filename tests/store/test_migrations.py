"""The schema changes only through migrations: an empty store upgrades to the newest revision and
then matches the tables the store works with; stores made before migrations existed (with and
without the memory-aid column) are adopted and keep every row; opening again changes nothing;
servers starting together upgrade once; a new revision is written from the tables."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, Integer, MetaData, inspect
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

import cardtable.store.db as db
from cardtable.store import Store, migrations
from cardtable.store.__main__ import main as store_cli

from .helpers import execute, on_connection, query, with_store

ROOT = Path(__file__).parents[2]
HEAD = migrations.head()
"""The newest revision."""
NEXT = f"{int(HEAD) + 1:04d}"
"""The number the next migration takes."""

# -- the schema as the store made it before migrations (``metadata.create_all``), in plain SQL --

OLD_TABLES = [
    """CREATE TABLE rooms (
        id VARCHAR(16) NOT NULL, game VARCHAR(32) NOT NULL, players INTEGER NOT NULL,
        options JSON NOT NULL, public BOOLEAN NOT NULL, autostart BOOLEAN NOT NULL,
        created FLOAT NOT NULL, PRIMARY KEY (id))""",
    """CREATE TABLE seats (
        room_id VARCHAR(16) NOT NULL, seat INTEGER NOT NULL, type VARCHAR(8) NOT NULL,
        level VARCHAR(32), name VARCHAR(32), token_hash VARCHAR(64), {memory_aid}
        PRIMARY KEY (room_id, seat), FOREIGN KEY(room_id) REFERENCES rooms (id))""",
    """CREATE TABLE games (
        room_id VARCHAR(16) NOT NULL, game_no INTEGER NOT NULL, seed BIGINT NOT NULL,
        base_version INTEGER NOT NULL, started FLOAT NOT NULL, finished FLOAT, result JSON,
        PRIMARY KEY (room_id, game_no), FOREIGN KEY(room_id) REFERENCES rooms (id))""",
    """CREATE TABLE actions (
        room_id VARCHAR(16) NOT NULL, game_no INTEGER NOT NULL, seq INTEGER NOT NULL,
        seat INTEGER NOT NULL, action VARCHAR(64) NOT NULL, at FLOAT NOT NULL,
        PRIMARY KEY (room_id, game_no, seq),
        FOREIGN KEY(room_id, game_no) REFERENCES games (room_id, game_no))""",
]

OLD_ROWS = [
    """INSERT INTO rooms VALUES
        ('old1', 'kaboo', 2, '{"target": null}', TRUE, TRUE, 1600000000.5),
        ('old2', 'qute', 3, '{"target": 60}', FALSE, FALSE, 1600000100.25)""",
    """INSERT INTO seats (room_id, seat, type, level, name, token_hash{aid_column}) VALUES
        ('old1', 0, 'human', NULL, 'Ann', 'aa'{aid_false}),
        ('old1', 1, 'ai', 'casual', 'Casual', NULL{aid_false}),
        ('old2', 0, 'human', NULL, 'Bo', 'bb'{aid_true}),
        ('old2', 1, 'human', NULL, NULL, NULL{aid_false}),
        ('old2', 2, 'ai', 'strong', 'Strong', NULL{aid_false})""",
    """INSERT INTO games VALUES
        ('old1', 1, 4242, 1, 1600000001.0, 1600000050.0, '{"totals": [5, 9]}'),
        ('old1', 2, 4343, 30, 1600000060.0, NULL, NULL),
        ('old2', 1, 99, 1, 1600000101.0, NULL, NULL)""",
    """INSERT INTO actions VALUES
        ('old1', 1, 1, 0, 'draw deck', 1600000002.0),
        ('old1', 1, 2, 0, 'knock', 1600000003.0),
        ('old1', 2, 1, 1, 'draw deck', 1600000061.0),
        ('old2', 1, 1, 0, 'play 3h', 1600000102.0)""",
]


async def make_old_store(url: str, memory_aid: bool) -> None:
    """The tables and rows of a store made before migrations existed; ``memory_aid=False``: from
    before seats had a memory-aid column, too."""
    aid = {
        "memory_aid": "memory_aid BOOLEAN NOT NULL," if memory_aid else "",
        "aid_column": ", memory_aid" if memory_aid else "",
        "aid_false": ", FALSE" if memory_aid else "",
        "aid_true": ", TRUE" if memory_aid else "",
    }
    statements = []
    for statement in OLD_TABLES + OLD_ROWS:
        for key, value in aid.items():
            statement = statement.replace("{" + key + "}", value)
        statements.append(statement)
    await execute(url, *statements)


async def snapshot(store: Store) -> dict[str, Any]:
    """Everything the store reads back about the old rooms."""
    out: dict[str, Any] = {}
    for room_id in ("old1", "old2"):
        out[room_id] = await store.room(room_id)
        out[room_id, "games"] = await store.games(room_id)
        for game in out[room_id, "games"]:
            out[room_id, game.game_no] = await store.actions(room_id, game.game_no)
    out["unfinished"] = await store.unfinished_games()
    out["lobby"] = await store.lobby_candidates()
    return out


def differences(url: str, tables: MetaData | None = None) -> list[Any]:
    """What tells the database's schema apart from the store's tables (or ``tables``), by
    alembic's comparison, types included."""

    def compare(conn: Connection) -> list[Any]:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, tables if tables is not None else db.metadata))

    async def body(conn: AsyncConnection) -> list[Any]:
        return await conn.run_sync(compare)

    return asyncio.run(on_connection(url, body))


def schema(url: str) -> dict[str, Any]:
    """Tables, their columns (name, type, nullable), indexes and the recorded revision."""

    def read(conn: Connection) -> dict[str, Any]:
        insp = inspect(conn)
        out: dict[str, Any] = {}
        for table in sorted(insp.get_table_names()):
            columns = [(c["name"], str(c["type"]), c["nullable"]) for c in insp.get_columns(table)]
            indexes = sorted(
                (i["name"] or "", tuple(i["column_names"])) for i in insp.get_indexes(table)
            )
            out[table] = (columns, indexes)
        out["revision"] = migrations.current(conn)
        return out

    async def body(conn: AsyncConnection) -> dict[str, Any]:
        return await conn.run_sync(read)

    return asyncio.run(on_connection(url, body))


def revision_of(url: str) -> str | None:
    """The revision a store records, read with a plain connection."""
    revision: str | None = schema(url)["revision"]
    return revision


def with_extra_column() -> MetaData:
    """A copy of the store's tables with one more column in ``rooms`` (named ``extra``)."""
    changed = MetaData()
    for table in db.metadata.sorted_tables:
        table.to_metadata(changed)
    changed.tables["rooms"].append_column(Column("extra", Integer, nullable=True))
    return changed


# -- the tests ---------------------------------------------------------------------------------


def test_an_empty_store_upgrades_to_head_and_matches_the_tables(url: str) -> None:
    assert schema(url) == {"revision": None}
    assert asyncio.run(with_store(url, Store.schema_revision)) == HEAD
    assert differences(url) == []
    tables = schema(url)
    assert set(tables) == {
        "rooms",
        "seats",
        "games",
        "actions",
        "players",
        "sessions",
        "results",
        "ratings",
        "rating_history",
        "alembic_version",
        "revision",
    }
    assert ("ix_rooms_public_created", ("public", "created")) in tables["rooms"][1]
    # the profile, history and leaderboard queries each have their index
    assert ("ix_results_player_finished", ("player_id", "finished")) in tables["results"][1]
    assert (
        "ix_results_player_game",
        ("player_id", "game", "won", "score", "rounds"),
    ) in tables["results"][1]
    assert ("ix_ratings_game_mu", ("game", "mu")) in tables["ratings"][1]
    assert ("ix_seats_player", ("player_id",)) in tables["seats"][1]
    assert ("ix_games_finished", ("finished",)) in tables["games"][1]
    assert ("rules", "VARCHAR(48)", True) in tables["games"][0]
    assert next(c for c in tables["rooms"][0] if c[0] == "turn_time")[2] is True


def test_the_comparison_notices_a_table_change_without_a_migration(url: str) -> None:
    """The check above would fail if the tables in db.py changed without a migration."""
    asyncio.run(with_store(url, Store.schema_revision))
    assert differences(url) == []
    assert [(d[0], d[3].name) for d in differences(url, with_extra_column())] == [
        ("add_column", "extra")
    ]


def test_opening_again_changes_nothing(url: str) -> None:
    async def fill(store: Store) -> Any:
        await store.create_room(db.RoomRow("r1", "gabo", 2, {}, True, True, 1.0, turn_time=9.0))
        await store.start_game(db.GameRow("r1", 1, 5, 1, 2.0, rules="gabo/1"))
        await store.append("r1", 1, 1, 0, "draw deck")
        return await store.room("r1"), await store.games("r1")

    first = asyncio.run(with_store(url, fill))
    before = schema(url)

    async def read(store: Store) -> Any:
        return await store.room("r1"), await store.games("r1")

    assert asyncio.run(with_store(url, read)) == first
    assert asyncio.run(with_store(url, read)) == first
    assert schema(url) == before and before["revision"] == migrations.head()
    assert asyncio.run(query(url, "SELECT version_num FROM alembic_version")) == [(HEAD,)]


@pytest.mark.parametrize("memory_aid", [True, False], ids=["current", "before-memory-aid"])
def test_a_store_made_before_migrations_upgrades_and_keeps_its_rows(
    url: str, memory_aid: bool
) -> None:
    asyncio.run(make_old_store(url, memory_aid))
    assert revision_of(url) is None
    got = asyncio.run(with_store(url, snapshot))
    assert revision_of(url) == migrations.head()
    assert differences(url) == []

    old1, old2 = got["old1"], got["old2"]
    assert (old1.game, old1.players, old1.options, old1.public, old1.autostart, old1.created) == (
        "kaboo",
        2,
        {"target": None},
        True,
        True,
        1600000000.5,
    )
    assert (old2.game, old2.options, old2.public, old2.autostart) == (
        "qute",
        {"target": 60},
        False,
        False,
    )
    assert old1.turn_time is None and old2.turn_time is None
    assert [(s.seat, s.type, s.level, s.name, s.token_hash) for s in old2.seats] == [
        (0, "human", None, "Bo", "bb"),
        (1, "human", None, None, None),
        (2, "ai", "strong", "Strong", None),
    ]
    # before the column existed every seat had the memory aid; after, each seat says
    expected_aid = [True, False, False] if memory_aid else [True, True, True]
    assert [s.memory_aid for s in old2.seats] == expected_aid
    assert [
        (g.game_no, g.seed, g.base_version, g.finished, g.result, g.actions, g.rules)
        for g in got["old1", "games"]
    ] == [
        (1, 4242, 1, 1600000050.0, {"totals": [5, 9]}, 2, None),
        (2, 4343, 30, None, None, 1, None),
    ]
    assert [(a.seq, a.seat, a.action) for a in got["old1", 1]] == [
        (1, 0, "draw deck"),
        (2, 0, "knock"),
    ]
    assert [(a.seq, a.action) for a in got["old2", 1]] == [(1, "play 3h")]
    assert got["unfinished"] == [("old1", 2), ("old2", 1)]
    assert got["lobby"] == ["old1"]  # old2 is private

    # the upgraded store takes new rows of every kind, and opens again unchanged
    async def more(store: Store) -> Any:
        await store.create_room(db.RoomRow("new", "cabo", 2, {}, True, True, 1.0, turn_time=20.0))
        await store.append("old1", 2, 2, 0, "knock", result={"totals": [1, 2]})
        return await snapshot(store)

    after = asyncio.run(with_store(url, more))
    assert after["unfinished"] == [("old2", 1)]
    assert [s.memory_aid for s in after["old2"].seats] == expected_aid
    again = asyncio.run(with_store(url, snapshot))
    assert again == after


def test_servers_opening_an_empty_store_at_once_upgrade_it_once(url: str) -> None:
    async def together() -> list[str | None]:
        stores = [Store(url) for _ in range(4)]
        opened = await asyncio.gather(*(s.open() for s in stores), return_exceptions=True)
        try:
            assert opened == [None] * 4  # none failed
            return [await s.schema_revision() for s in stores]
        finally:
            await asyncio.gather(*(s.close() for s in stores))

    assert asyncio.run(together()) == [migrations.head()] * 4
    assert asyncio.run(query(url, "SELECT version_num FROM alembic_version")) == [(HEAD,)]
    assert differences(url) == []


OPENER = """
import asyncio, sys
from cardtable.store import Store

async def main(url: str) -> None:
    store = Store(url)
    await store.open()
    try:
        print(await store.schema_revision(), flush=True)
    finally:
        await store.close()

print("ready", flush=True)
sys.stdin.readline()
asyncio.run(main(sys.argv[1]))
"""


def test_server_processes_starting_at_once_upgrade_the_store_once(url: str) -> None:
    """Four processes, each opening the store the moment all of them are ready (as servers
    started together would): every one gets an up-to-date store, none fails."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", OPENER, url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in procs:  # go, all at once
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        outcomes = [proc.communicate(timeout=120) for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert [(p.returncode, out.strip()) for p, (out, _) in zip(procs, outcomes, strict=True)] == [
        (0, HEAD)
    ] * 4, [err[-2000:] for _, err in outcomes]
    assert asyncio.run(query(url, "SELECT version_num FROM alembic_version")) == [(HEAD,)]
    assert differences(url) == []


def test_servers_opening_an_old_store_at_once_adopt_it_once(url: str) -> None:
    asyncio.run(make_old_store(url, memory_aid=False))

    async def together() -> list[Any]:
        stores = [Store(url) for _ in range(3)]
        opened = await asyncio.gather(*(s.open() for s in stores), return_exceptions=True)
        try:
            assert opened == [None] * 3  # none failed
            return [await snapshot(s) for s in stores]
        finally:
            await asyncio.gather(*(s.close() for s in stores))

    first, *others = asyncio.run(together())
    assert all(o == first for o in others)
    assert [s.memory_aid for s in first["old1"].seats] == [True, True]
    assert revision_of(url) == migrations.head()


def test_a_migration_runs_whole_or_not_at_all_on_postgresql_and_sqlite(url: str) -> None:
    """A store whose upgrade to 0002 fails half-way (an index of that name is in the way, on
    another table) is left at 0001 with none of 0002's columns."""
    asyncio.run(make_old_store(url, memory_aid=True))
    asyncio.run(execute(url, "CREATE INDEX ix_games_finished ON actions (at)"))
    with pytest.raises(Exception, match="ix_games_finished"):
        asyncio.run(with_store(url, Store.schema_revision))
    tables = schema(url)
    assert "rules" not in [c[0] for c in tables["games"][0]]
    assert "turn_time" not in [c[0] for c in tables["rooms"][0]]
    assert tables["revision"] is None  # not even the stamp is kept
    asyncio.run(execute(url, "DROP INDEX ix_games_finished"))
    assert asyncio.run(with_store(url, Store.schema_revision)) == migrations.head()
    assert differences(url) == []


def test_downgrade_to_the_baseline_and_up_again(url: str) -> None:
    asyncio.run(with_store(url, Store.schema_revision))

    async def down(conn: AsyncConnection) -> None:
        await conn.run_sync(migrations.downgrade, migrations.BASELINE)

    asyncio.run(on_connection(url, down))
    tables = schema(url)
    assert tables["revision"] == migrations.BASELINE == "0001"
    assert "rules" not in [c[0] for c in tables["games"][0]]
    assert "turn_time" not in [c[0] for c in tables["rooms"][0]]
    assert ("ix_games_finished", ("finished",)) not in tables["games"][1]
    assert asyncio.run(with_store(url, Store.schema_revision)) == HEAD
    assert differences(url) == []

    async def to_base(conn: AsyncConnection) -> None:
        await conn.run_sync(migrations.downgrade, "base")

    asyncio.run(on_connection(url, to_base))
    assert set(schema(url)) == {"alembic_version", "revision"}


def test_the_command_line_upgrades_and_reports_the_revision(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert store_cli(["current", "--db", url]) == 0
    assert capsys.readouterr().out.strip() == "(none)"
    assert store_cli(["upgrade", "--db", url]) == 0
    assert capsys.readouterr().out.strip() == HEAD
    assert store_cli(["current", "--db", url]) == 0
    assert capsys.readouterr().out.strip() == HEAD
    assert differences(url) == []


# -- writing a migration, shipping the migrations -----------------------------------------------


@pytest.fixture
def scratch_migrations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the package's migrations folder that the revision command writes into."""
    copy = tmp_path / "migrations"
    shutil.copytree(migrations.SCRIPT_LOCATION, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(migrations, "SCRIPT_LOCATION", copy)
    return copy


def test_a_new_revision_is_written_from_the_tables(
    scratch_migrations: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the tables match the newest revision: nothing to write
    assert store_cli(["revision", "-m", "nothing"]) == 0
    empty = Path(capsys.readouterr().out.strip().splitlines()[-1])
    assert empty.parent == scratch_migrations / "versions" and empty.name == f"{NEXT}_nothing.py"
    body = empty.read_text()
    assert f"revision: str = '{NEXT}'" in body and f"down_revision: str | None = '{HEAD}'" in body
    assert "op." not in body.split("def upgrade")[1]
    empty.unlink()

    # a column added to the tables: the new revision adds it (in batch form, for SQLite)
    monkeypatch.setattr(db, "metadata", with_extra_column())
    assert store_cli(["revision", "-m", "extra column"]) == 0
    made = Path(capsys.readouterr().out.strip().splitlines()[-1])
    assert made.name == f"{NEXT}_extra_column.py"
    upgrade, downgrade = made.read_text().split("def upgrade")[1].split("def downgrade")
    assert re.search(r"batch_alter_table\('rooms'", upgrade)
    assert re.search(r"add_column\(sa\.Column\('extra', sa\.Integer\(\)", upgrade)
    assert re.search(r"drop_column\('extra'\)", downgrade)


def test_the_migrations_ship_in_the_wheel() -> None:
    """Every file of the migrations folder (but caches) is a module of a package (a folder with
    an ``__init__.py``) or matched by a package-data pattern of pyproject.toml."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["cardtable"]
    package = ROOT / "src" / "cardtable"
    files = [
        p.relative_to(package).as_posix()
        for p in migrations.SCRIPT_LOCATION.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    ]
    assert "store/migrations/script.py.mako" in files
    assert "store/migrations/versions/0001_baseline.py" in files
    for name in files:
        module = name.endswith(".py") and (package / name).with_name("__init__.py").is_file()
        assert module or any(fnmatch(name, pattern) for pattern in patterns), name


NEXT_REVISION = '''"""A test's migration: {doc}."""

import sqlalchemy as sa
from alembic import op

revision = "{rev}"
down_revision = "{down}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    {body}


def downgrade() -> None:
    pass
'''


async def played(store: Store) -> None:
    """A room with a finished game of two actions and a second game under way."""
    await store.create_room(db.RoomRow("r1", "kaboo", 2, {}, True, True, 1.0))
    await store.start_game(db.GameRow("r1", 1, 5, 1, 2.0, rules="kaboo/1"))
    await store.append("r1", 1, 1, 0, "draw deck")
    await store.append("r1", 1, 2, 0, "knock", result={"totals": [1, 2]})
    await store.start_game(db.GameRow("r1", 2, 6, 4, 3.0, rules="kaboo/1"))
    await store.append("r1", 2, 1, 1, "draw deck")


async def everything(store: Store) -> Any:
    """What the store reads back about room r1."""
    games = await store.games("r1")
    return await store.room("r1"), games, [await store.actions("r1", g.game_no) for g in games]


def test_a_migration_that_copies_a_referenced_table_keeps_rows_and_references(
    url: str, scratch_migrations: Path
) -> None:
    """On SQLite, altering a column copies the table (batch mode) while other tables refer to
    it: the store migrates with foreign keys off and checks them at the end."""
    asyncio.run(with_store(url, played))
    before = asyncio.run(with_store(url, everything))
    body = (
        'with op.batch_alter_table("games") as batch:\n'
        '        batch.alter_column("seed", existing_type=sa.BigInteger(), nullable=True)'
    )
    migration = NEXT_REVISION.format(rev=NEXT, down=HEAD, doc="the seed may be missing", body=body)
    (scratch_migrations / "versions" / f"{NEXT}_seed.py").write_text(migration)

    async def after(store: Store) -> Any:
        read = await everything(store)
        with pytest.raises(db.StoreError):  # references are still enforced
            await store.append("r1", 3, 1, 0, "draw deck")
        await store.append("r1", 2, 2, 0, "knock", result={"totals": [0, 0]})
        return read, await store.schema_revision()

    read, revision = asyncio.run(with_store(url, after))
    assert (read, revision) == (before, NEXT)

    def shape(conn: Connection) -> Any:
        insp = inspect(conn)
        seed = next(c for c in insp.get_columns("games") if c["name"] == "seed")
        refs = insp.get_foreign_keys("actions")
        return seed["nullable"], [(f["constrained_columns"], f["referred_table"]) for f in refs]

    async def read_shape(conn: AsyncConnection) -> Any:
        return await conn.run_sync(shape)

    assert asyncio.run(on_connection(url, read_shape)) == (
        True,
        [(["room_id", "game_no"], "games")],
    )


def test_a_migration_that_breaks_references_is_refused_whole(
    url: str, scratch_migrations: Path
) -> None:
    asyncio.run(with_store(url, played))
    before = asyncio.run(with_store(url, everything))
    body = (
        'op.add_column("games", sa.Column("note", sa.String(8)))\n'
        '    op.execute("DELETE FROM games WHERE game_no = 1")'
    )
    migration = NEXT_REVISION.format(
        rev=NEXT, down=HEAD, doc="loses a game that actions refer to", body=body
    )
    (scratch_migrations / "versions" / f"{NEXT}_broken.py").write_text(migration)
    with pytest.raises(Exception, match=r"(?i)foreign key|referring to missing rows"):
        asyncio.run(with_store(url, Store.schema_revision))
    assert revision_of(url) == HEAD
    assert "note" not in [c[0] for c in schema(url)["games"][0]]
    (scratch_migrations / "versions" / f"{NEXT}_broken.py").unlink()
    assert asyncio.run(with_store(url, everything)) == before
