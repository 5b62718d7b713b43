"""The tournament database (tricktable.db), on a real SQLite file and a real PostgreSQL server.

The tests that take ``target`` or ``store`` run once on each backend; the server is the
session's own (``postgres`` in conftest.py), each test getting a new empty database on it.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, event, text
from sqlalchemy.pool import NullPool

from helpers import unused_port
from tricktable.db import GameRow, Store, StoreError
from tricktable.db.migrate import head
from tricktable.db.schema import METADATA
from tricktable.db.store import parse_target
from tricktable.records import replay, result_of
from tricktable.runner import MatchSpec, run_match

ENTRANTS = [("north-south", "heuristic"), ("east-west", "random")]


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a new, empty database is: a file path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "tournament.db")
    server = request.getfixturevalue("postgres")
    return str(server.url(server.new_database()))


@pytest.fixture
def store(target: str) -> Iterator[Store]:
    with Store.open(target) as opened:
        yield opened


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "tournament.db") as opened:
        yield opened


@pytest.fixture
def pg_store(postgres: Any) -> Iterator[Store]:
    with Store.open(postgres.url(postgres.new_database())) as opened:
        yield opened


def raw(target: str, *statements: str) -> list[Any]:
    """Run SQL behind the store's back (one transaction); the last statement's rows, if any."""
    engine = create_engine(parse_target(target)[0], poolclass=NullPool)
    try:
        with engine.begin() as connection:
            for statement in statements:
                result = connection.execute(text(statement))
            return list(result.all()) if result.returns_rows else []
    finally:
        engine.dispose()


def one_line(error: pytest.ExceptionInfo[StoreError]) -> str:
    message = str(error.value)
    assert "\n" not in message and message.strip() == message and message
    return message


def rows(tid: int, units: range | list[int], *, size: int = 0, table: int = 0) -> list[GameRow]:
    """Games ``d<i>/t<table>`` with small records (``size`` random characters of padding)."""
    return [
        GameRow(
            tournament_id=tid,
            unit=f"d{i}/t{table}",
            round_no=i,
            table_no=table,
            seats=[1, 2, 1, 2],
            seed=i * 7919,
            record={"format": "tricktable-record/1", "game": "setback", "hands": [],
                    "padding": secrets.token_hex(size // 2)},
            result={"scores": [i, -i], "winner": 0, "status": "finished"},
        )
        for i in units
    ]  # fmt: skip


def new_tournament(store: Store, name: str = "league") -> int:
    spec = {"game": "setback", "format": "duplicate", "deals": 4, "seed": 1}
    return store.create_tournament(name, spec, ENTRANTS)


# -- both backends ---------------------------------------------------------------------------


def test_games_round_trip_with_their_records(store: Store) -> None:
    tid = new_tournament(store)
    ns, ew = (entrant.id for entrant in store.entrants(tid))
    batch = []
    for deal in range(3):
        for table in (1, 0):  # stored out of order: read back by round and table
            seats = [ns, ew, ns, ew] if table == 0 else [ew, ns, ew, ns]
            match = MatchSpec("setback", ("random",) * 4, seed=100 + deal, max_hands=1)
            outcome = run_match(match)
            batch.append(
                GameRow(
                    tid,
                    f"d{deal}/t{table}",
                    deal,
                    table,
                    seats,
                    100 + deal,
                    outcome.record,
                    {"scores": list(outcome.result.scores), "status": outcome.result.status},
                    faults=[{"seat": 2, "kind": "timeout", "detail": "2.0 s"}] if deal else [],
                )
            )
    assert store.add_games(batch) == 6
    games = list(store.games(tid, batch=4))
    assert [g.unit for g in games] == [f"d{d}/t{t}" for d in range(3) for t in (0, 1)]
    by_unit = {row.unit: row for row in batch}
    for game in games:
        row = by_unit[game.unit]
        assert game.record == row.record and game.result == row.result
        assert game.seats == tuple(row.seats) and game.seed == row.seed
        assert game.faults == list(row.faults) and game.finished_at.tzinfo is not None
        # The record stored is the match: replayed, it scores as the result says.
        assert result_of(replay(game.record))["hands"][-1]["scores"] == game.result["scores"]
    lean = next(store.games(tid, records=False))
    assert lean.record is None and lean.unit == "d0/t0"


def test_a_unit_is_stored_once(store: Store) -> None:
    tid = new_tournament(store)
    assert store.add_games(rows(tid, range(10))) == 10
    assert store.add_games(rows(tid, range(10))) == 0
    # A batch mixing stored, new and repeated units stores each new unit once.
    assert store.add_games(rows(tid, [*range(5, 15), 12, 13])) == 5
    assert store.game_count(tid) == 15
    # The same unit in another tournament is another game.
    other = new_tournament(store, "other")
    assert store.add_games(rows(other, range(3))) == 3
    assert store.done_units(tid) == {f"d{i}/t0" for i in range(15)}


def test_a_resumed_tournament_finds_what_it_had_done(target: str) -> None:
    with Store.open(target) as first:
        tid = new_tournament(first)
        first.add_games(rows(tid, range(0, 40, 2)))
    with Store.open(target) as again:  # another run of the program
        found = again.find_tournament("league")
        assert found is not None and found.id == tid and found.spec["deals"] == 4
        assert [(e.name, e.spec) for e in again.entrants(tid)] == ENTRANTS
        done = again.done_units(tid)
        todo = [r for r in rows(tid, range(40)) if r.unit not in done]
        assert len(todo) == 20
        assert again.add_games(todo) == 20
        assert again.game_count(tid) == 40
        again.set_status(tid, "finished")
        assert again.tournament(tid).status == "finished"
        assert [t.name for t in again.tournaments()] == ["league"]
        assert again.find_tournament("nothing") is None


WRITER = """
import sys
from tricktable.db import GameRow, Store
with Store.open(sys.argv[1]) as store:
    tid = store.find_tournament("league").id
    for start in range(0, 100_000, 50):
        store.add_games(
            GameRow(tid, f"d{i}/t0", i, 0, [1, 2, 1, 2], i, {"hands": [], "pad": "x" * 500}, {})
            for i in range(start, start + 50)
        )
        print(start + 50, flush=True)
"""


def test_a_writer_killed_mid_run_leaves_whole_batches(target: str) -> None:
    with Store.open(target) as store:
        tid = new_tournament(store)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, target], stdout=subprocess.PIPE, text=True, env=env
    )
    assert writer.stdout is not None
    for _ in range(5):  # five batches acknowledged, then a SIGKILL wherever it is
        assert writer.stdout.readline().strip()
    writer.kill()
    writer.wait(10)
    writer.stdout.close()
    if "://" in target:  # the server may still be ending the killed session: let it
        others = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        deadline = time.monotonic() + 10
        while raw(target, others + " AND pid <> pg_backend_pid()") != [(0,)]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    with Store.open(target) as again:
        count = again.game_count(tid)
        assert count >= 250 and count % 50 == 0  # no batch half stored
        assert again.done_units(tid) == {f"d{i}/t0" for i in range(count)}
        assert again.add_games(rows(tid, range(count + 100))) == 100
        assert again.game_count(tid) == count + 100


def test_games_are_streamed(store: Store) -> None:
    tid = new_tournament(store)
    store.add_games(rows(tid, range(1200)))
    games = store.games(tid, records=False, batch=100)
    assert isinstance(games, Iterator)
    assert next(games).unit == "d0/t0"
    assert sum(1 for _ in games) == 1199


def test_tournament_names_are_unique(store: Store) -> None:
    new_tournament(store)
    with pytest.raises(StoreError) as error:
        new_tournament(store)
    assert "already exists" in one_line(error)
    with pytest.raises(StoreError, match="share a name"):
        store.create_tournament("twins", {}, [("a", "random"), ("a", "heuristic")])
    with pytest.raises(StoreError, match="no tournament has id 99"):
        store.tournament(99)


def test_a_bad_row_stores_nothing_of_its_batch(store: Store) -> None:
    tid = new_tournament(store)
    batch = rows(tid, range(3))
    orphan = rows(999, [3])  # no such tournament
    with pytest.raises(StoreError) as error:
        store.add_games([*batch, *orphan])
    assert "does not exist" in one_line(error) and "none of them was stored" in str(error.value)
    assert error.value.unsaved == (*batch, *orphan)
    assert store.game_count(tid) == 0
    unjson = GameRow(tid, "x", 0, 0, [1], 1, {"a": 1}, {"when": object()})
    with pytest.raises(StoreError, match="its result is not JSON"):
        store.add_games([unjson])
    with pytest.raises(StoreError, match="does not fit in 64 bits"):
        store.add_games([GameRow(tid, "x", 0, 0, [1], 2**64, {}, {})])
    with pytest.raises(StoreError, match="not the text of a JSON object"):
        store.add_games([GameRow(tid, "x", 0, 0, [1], 1, "[1, 2", {})])


def test_a_foreign_database_is_refused_and_left_alone(target: str) -> None:
    raw(target, "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)")
    with pytest.raises(StoreError) as error:
        Store.open(target)
    assert "is not a tricktable database" in one_line(error) and "invoices" in str(error.value)
    assert raw(target, "SELECT count(*) FROM invoices") == [(0,)]
    if "://" not in target:  # not even the journal mode changed
        assert raw(target, "PRAGMA journal_mode") == [("delete",)]
    with pytest.raises(Exception, match="alembic_version"):
        raw(target, "SELECT * FROM alembic_version")


def test_a_newer_schema_is_refused(target: str) -> None:
    with Store.open(target) as store:
        tid = new_tournament(store)
        store.add_games(rows(tid, range(5)))
    raw(target, "UPDATE alembic_version SET version_num = '0042'")
    with pytest.raises(StoreError) as error:
        Store.open(target)
    assert "newer than this tricktable knows" in one_line(error) and "0042" in str(error.value)
    assert raw(target, "SELECT count(*) FROM game") == [(5,)]


def test_openers_at_once_make_the_schema_once(target: str) -> None:
    # Workers starting together: one creates the schema, the others wait and find it made.
    def open_and_count(_: int) -> int:
        with Store.open(target) as store:
            return len(store.tournaments())

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(open_and_count, range(4))) == [0, 0, 0, 0]
    assert raw(target, "SELECT version_num FROM alembic_version") == [(head(),)]


def test_the_migrations_make_the_models_schema(store: Store) -> None:
    with store.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_heads() == (head(),)
        assert compare_metadata(MigrationContext.configure(connection), METADATA) == []


# -- SQLite ----------------------------------------------------------------------------------


def test_a_store_file_is_written_ahead(sqlite_store: Store) -> None:
    # So that a report can read while a tournament writes.
    with sqlite_store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_a_file_of_garbage_is_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is no database, only noise " * 200)
    with pytest.raises(StoreError) as error:
        Store.open(path)
    message = one_line(error)
    assert str(path) in message and "not a SQLite database" in message
    assert path.read_bytes().startswith(b"this is no database")  # left as it was


def test_a_damaged_file_is_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    with Store.open(path) as store:
        tid = new_tournament(store)
        store.add_games(rows(tid, range(300), size=600))
    data = bytearray(path.read_bytes())
    assert len(data) > 64 * 1024
    data[8192:] = b"\xa5" * (len(data) - 8192)  # every page past the second one
    path.write_bytes(bytes(data))
    # Opening or reading: either fails.
    with pytest.raises(StoreError) as error, Store.open(path) as store:
        list(store.games(tid))
    assert "damaged" in one_line(error)


def test_a_full_sqlite_database_loses_no_stored_game(sqlite_store: Store) -> None:
    tid = new_tournament(sqlite_store)
    sqlite_store.add_games(rows(tid, range(10)))
    # SQLite's own size limit gives the very error a full disk does (SQLITE_FULL).
    event.listen(sqlite_store.engine, "connect", _limit_pages)
    sqlite_store.engine.dispose()
    big = rows(tid, range(10, 200), size=4000)
    with pytest.raises(StoreError) as error:
        sqlite_store.add_games(big)
    assert "the disk is full" in one_line(error) and "none of them was stored" in str(error.value)
    assert error.value.unsaved == tuple(big)
    assert sqlite_store.game_count(tid) == 10
    assert sqlite_store.add_games(rows(tid, range(10, 12))) == 2


def _limit_pages(dbapi_connection: Any, record: Any) -> None:
    size = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
    dbapi_connection.execute(f"PRAGMA max_page_count = {size + 40}")


@pytest.fixture
def tiny_disk() -> Iterator[Callable[..., Path]]:
    """``tiny_disk(folder, size, owner)``: mount a tmpfs of ``size`` (a real full disk)."""
    mounted: list[Path] = []

    def mount(folder: Path, size: str = "640k", owner: str = "") -> Path:
        folder.mkdir(exist_ok=True)
        options = f"size={size},mode=0700" + (f",uid={owner},gid={owner}" if owner else "")
        try:
            done = subprocess.run(
                ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                capture_output=True,
                text=True,
                check=False,
            )
            why = done.stderr.strip() if done.returncode else ""
        except OSError as exc:
            why = str(exc)
        if why:
            # SQLite's size limit covers the same path everywhere (the test above).
            pytest.skip(f"cannot mount a tiny tmpfs here (it needs root): {why}")
        mounted.append(folder)
        return folder

    yield mount
    for folder in mounted:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_full_disk_under_sqlite_loses_no_stored_game(
    tmp_path: Path, tiny_disk: Callable[..., Path]
) -> None:
    disk = tiny_disk(tmp_path / "disk")
    with Store.open(disk / "t.db") as store:
        tid = new_tournament(store)
        stored = 0
        with pytest.raises(StoreError) as error:  # until the disk is full
            for start in range(0, 10_000, 10):
                stored += store.add_games(rows(tid, range(start, start + 10), size=3000))
        assert stored > 0 and "the disk is full" in one_line(error)
        assert str(disk / "t.db") in str(error.value)
        assert store.game_count(tid) == stored
    with Store.open(disk / "t.db") as again:
        assert again.game_count(tid) == stored


# -- PostgreSQL ------------------------------------------------------------------------------


def test_an_unreachable_server_fails_fast(postgres: Any) -> None:
    closed = unused_port()  # a port nobody listens on
    started = time.monotonic()
    with pytest.raises(StoreError) as error:
        Store.open(f"postgresql://postgres:s3cret@127.0.0.1:{closed}/x", connect_timeout=2)
    assert time.monotonic() - started < 5
    message = one_line(error)
    assert "cannot open" in message and "refused" in message.lower()
    assert "s3cret" not in message and f":{closed}/x" in message


def test_an_idle_connection_dropped_is_replaced(postgres: Any, pg_store: Store) -> None:
    tid = new_tournament(pg_store)
    pg_store.add_games(rows(tid, range(5)))
    _terminate_all_but_admin(postgres, pg_store)
    assert pg_store.add_games(rows(tid, range(10))) == 5
    assert pg_store.game_count(tid) == 10


def test_a_connection_dropped_mid_batch_is_retried_once(postgres: Any, pg_store: Store) -> None:
    tid = new_tournament(pg_store)
    pg_store.add_games(rows(tid, range(5)))
    drops = _drop_at_insert(postgres, pg_store, times=1)
    assert pg_store.add_games(rows(tid, range(20))) == 15
    assert drops == [1, 2]  # dropped on the first try, stored on the second
    assert pg_store.game_count(tid) == 20


def test_a_connection_dropped_twice_is_one_line_error(postgres: Any, pg_store: Store) -> None:
    tid = new_tournament(pg_store)
    pg_store.add_games(rows(tid, range(5)))
    batch = rows(tid, range(5, 20))
    drops = _drop_at_insert(postgres, pg_store, times=2)
    with pytest.raises(StoreError) as error:
        pg_store.add_games(batch)
    message = one_line(error)
    assert "lost the connection" in message and "again after reconnecting" in message
    assert "every game stored before is kept" in message and error.value.unsaved == tuple(batch)
    assert drops == [1, 2]
    assert pg_store.game_count(tid) == 5  # the finished batch stays; the lost one is not half in
    assert pg_store.add_games(error.value.unsaved) == 15


def test_a_full_disk_under_postgresql_loses_no_stored_game(
    postgres: Any, tiny_disk: Callable[..., Path]
) -> None:
    owner = str(os.stat(postgres.data).st_uid)
    disk = tiny_disk(postgres.root / f"disk-{secrets.token_hex(3)}", "2m", owner)
    name = postgres.new_database()
    space = f"tiny_{secrets.token_hex(3)}"
    with postgres.connect() as admin:
        admin.execute(f"CREATE TABLESPACE {space} LOCATION '{disk}'")
    try:
        with Store.open(postgres.url(name)) as store:
            tid = new_tournament(store)
            with postgres.connect(name) as admin:  # the games, and only they, on the tiny disk
                admin.execute(f"ALTER TABLE game SET TABLESPACE {space}")
                for index in ("pk_game", "uq_game_tournament_id_unit"):
                    admin.execute(f"ALTER INDEX {index} SET TABLESPACE {space}")
            stored = 0
            with pytest.raises(StoreError) as error:  # until the disk is full
                for start in range(0, 10_000, 10):
                    stored += store.add_games(rows(tid, range(start, start + 10), size=20_000))
            assert stored > 0 and "the disk is full" in one_line(error)
            assert store.game_count(tid) == stored
    finally:
        with postgres.connect() as admin:
            admin.execute(f'DROP DATABASE "{name}"')
            admin.execute(f"DROP TABLESPACE {space}")


def _terminate_all_but_admin(postgres: Any, store: Store) -> None:
    database = store.engine.url.database
    with postgres.connect() as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [database],
        )


def _drop_at_insert(postgres: Any, store: Store, times: int) -> list[int]:
    """Kill the store's connection as each of its next ``times`` game inserts begins (the
    server ends the session, as a restart or a network cut would); the attempts seen."""
    attempts: list[int] = []

    def drop(connection: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.startswith("INSERT INTO game"):
            attempts.append(len(attempts) + 1)
            if len(attempts) <= times:
                pid = connection.connection.dbapi_connection.info.backend_pid
                with postgres.connect() as admin:
                    admin.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])

    event.listen(store.engine, "before_cursor_execute", drop)
    return attempts
