"""The tournament database: tournaments, their entrants and every game with its full record.

An embedded SQLite file by default (a bare path), PostgreSQL by URL (``postgresql://USER@HOST/DB``,
driven by psycopg 3). :meth:`Store.open` creates or upgrades the schema (Alembic, to the newest
revision this code knows) and refuses, with one line, a file that is damaged, not SQLite, another
program's database or newer than this code — before writing a byte to it: an existing SQLite file
is first looked at read-only (its header, its schema, SQLite's ``integrity_check``).
``Store.open(target, readonly=True)`` (what ``standings`` and ``report`` use) never writes at
all: SQLite opens the file in read-only mode, PostgreSQL in read-only transactions, and a file
that is empty or not a tricktable database is refused, not given a schema. Everything read back
is checked (:mod:`tricktable.db.rows`): a damaged row is one line naming it, never a traceback.

Games are written in batches, one transaction each, and a batch is idempotent: a game whose unit
(``d17/t1``) is already stored for its tournament is skipped. A batch that fails stores nothing
and raises a :class:`StoreError` holding the games not stored; everything committed before stays.
A dropped PostgreSQL connection is reconnected and the batch retried once — safe, because a
retried game that did reach the database before the drop is skipped, never counted twice.

A store belongs to one process: open it again in a worker process rather than share it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import time
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import (
    URL,
    Connection,
    Engine,
    Text,
    create_engine,
    event,
    func,
    make_url,
    select,
    type_coerce,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from tricktable.db import migrate
from tricktable.db.models import Entrant, Game, Tournament
from tricktable.db.rows import (
    Damaged,
    EntrantInfo,
    StoredGame,
    TournamentInfo,
    entrant_info,
    stored_game,
    tournament_info,
    utc,
)
from tricktable.errors import TricktableError, quote
from tricktable.files import FileProblem, check_writable, kind_of

#: tries of the switch to write-ahead logging while other openers hold the file (50 ms apart)
_WAL_TRIES = 200

#: the seconds a PostgreSQL server has to answer a connection before the store gives up
CONNECT_TIMEOUT = 5
#: the games read from the database at a time by :meth:`Store.games`
READ_BATCH = 500
#: a game's seed is a signed 64-bit integer in the database
_SEED_RANGE = range(-(2**63), 2**63)
#: compact JSON, and no NaN (which is not JSON): made once, since records are many
_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False)
#: how every SQLite database file begins
_SQLITE_HEADER = b"SQLite format 3\x00"
#: the problems SQLite's integrity_check reports at most (the first is what the line says)
_CHECK_PROBLEMS = 3
#: the longest a database's own error message is quoted
_REASON = 120


class StoreError(TricktableError):
    """A database that cannot be opened, read or written: one line saying which, doing what, and
    why.

    ``unsaved`` holds the games of a batch that failed: none of them was stored (a batch is one
    transaction), so the caller may keep them, retry or play them again on resume.
    """

    def __init__(self, message: str, unsaved: Sequence[GameRow] = ()) -> None:
        super().__init__(message)
        self.unsaved = tuple(unsaved)


@dataclass(frozen=True, slots=True)
class GameRow:
    """A finished game to store: one table's play of one unit (a deal, or a whole match).

    ``unit`` names it uniquely within its tournament (``d17/t1``); ``seats`` holds the entrant id
    at each seat; ``record`` is the full match record (``tricktable-record/1`` or ``/2``), as a
    JSON object or its text; ``result`` the scores by side, each seat's score change, the winner
    and the status; ``faults`` the faults of the game. ``finished_at`` defaults to now.
    """

    tournament_id: int
    unit: str
    round_no: int
    table_no: int
    seats: Sequence[int]
    seed: int
    record: Mapping[str, Any] | str
    result: Mapping[str, Any]
    faults: Sequence[Mapping[str, Any]] = ()
    finished_at: datetime | None = None


class Store:
    """An open tournament database. Make one with :meth:`Store.open`; a context manager."""

    def __init__(self, engine: Engine, where: str, *, readonly: bool = False) -> None:
        self.engine = engine
        #: how messages name the database: ``database PATH`` or the URL without its password
        self.where = where
        #: opened read-only: nothing can be written through it
        self.readonly = readonly
        # For transactions that read and then write: on SQLite they take the write lock first
        # (BEGIN IMMEDIATE), so that two of them wait for each other instead of one failing.
        self._writer = engine.execution_options(tricktable_writes=True)

    # -- opening and closing ------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        target: str | os.PathLike[str],
        *,
        readonly: bool = False,
        connect_timeout: int = CONNECT_TIMEOUT,
    ) -> Store:
        """Open the database at ``target`` — a file path (SQLite), ``sqlite:///PATH`` or
        ``postgresql://USER:PASSWORD@HOST:PORT/DB`` — creating or upgrading its schema.

        ``readonly``: write nothing, ever; a database that is missing, empty or not
        tricktable's is refused (a :class:`StoreError`) rather than given a schema.
        """
        if readonly:
            store = cls.look(target, connect_timeout=connect_timeout)
            if store is None:
                url, where = parse_target(target)
                if url.get_backend_name() == "sqlite" and not Path(str(url.database)).exists():
                    raise StoreError(f"{where}: no such file (run a tournament, or give --db)")
                raise StoreError(
                    f"{where} is empty, not a tricktable database yet (run a tournament into "
                    "it, or give --db)"
                )
            return store
        url, where = parse_target(target)
        if url.get_backend_name() == "sqlite":
            assert url.database is not None
            _check_sqlite_file(Path(url.database), where)
        try:
            engine = _make_engine(url, connect_timeout)
        except (SQLAlchemyError, ImportError) as exc:
            raise StoreError(f"{where}: cannot open: {_reason(exc)}") from exc
        store = cls(engine, where)
        with (
            _disposed_on_failure(engine, where),
            store._guard("cannot open"),
            store._writer.begin() as connection,
        ):
            migrate.upgrade(connection)
        if url.get_backend_name() == "sqlite":
            store._use_wal()
        return store

    @classmethod
    def attach(cls, target: str | os.PathLike[str]) -> Store:
        """Another way into a database this process has open already (:meth:`open`ed): its
        own connections, and none of ``open``'s checks of the file. Reading a SQLite file
        with Python's own ``open`` and closing it drops every lock this process holds on it
        (POSIX's rule), and another process would then take this one's write-ahead log for
        an orphan and remove it: writes lost, the file damaged. A tournament's worker journals
        through this (:mod:`tricktable.tournament.live`), beside its run's store."""
        url, where = parse_target(target)
        try:
            engine = _make_engine(url, CONNECT_TIMEOUT)
        except (SQLAlchemyError, ImportError) as exc:
            raise StoreError(f"{where}: cannot open: {_reason(exc)}") from exc
        return cls(engine, where)

    @classmethod
    def look(
        cls, target: str | os.PathLike[str], *, connect_timeout: int = CONNECT_TIMEOUT
    ) -> Store | None:
        """Open the database at ``target`` read-only; ``None`` where there is none yet (no
        file, an empty file, a database without tables).

        Nothing is written to it, whatever it holds; one that is not a tricktable database or
        is newer than this code is refused with a :class:`StoreError`.
        """
        url, where = parse_target(target)
        if url.get_backend_name() == "sqlite":
            assert url.database is not None
            path = Path(url.database)
            if not _sqlite_file_holds_data(path, where, follow=True):
                return None
            engine = _sqlite_readonly_engine(path)
        else:
            try:
                engine = _make_engine(url, connect_timeout, readonly=True)
            except (SQLAlchemyError, ImportError) as exc:
                raise StoreError(f"{where}: cannot open: {_reason(exc)}") from exc
        store = cls(engine, where, readonly=True)
        with (
            _disposed_on_failure(engine, where),
            store._guard("cannot open"),
            engine.connect() as connection,
        ):
            empty = migrate.is_empty(connection)
            if not empty:
                # An older revision is read as it is (this one cannot upgrade it); the
                # readers' queries name the columns they need.
                migrate.check(connection)
        if empty:
            engine.dispose()
            return None
        return store

    def _use_wal(self) -> None:
        # Write-ahead logging lets a report read while a tournament writes. The mode is kept in
        # the file, so it is set once the file is known to be ours, never on another's.
        # Openers starting together: the switch needs the file to itself, and SQLite answers
        # "database is locked" at once rather than waiting, so it is tried again for a while.
        with self._guard("cannot open"):
            connection = self.engine.raw_connection()
            try:
                for attempt in range(_WAL_TRIES):
                    try:
                        connection.cursor().execute("PRAGMA journal_mode=WAL")
                        break
                    except sqlite3.OperationalError as exc:
                        if "locked" not in str(exc):
                            raise StoreError(f"{self.where}: cannot open: {exc}") from None
                        if attempt == _WAL_TRIES - 1:
                            raise StoreError(
                                f"{self.where}: cannot open: another process holds the file"
                            ) from None
                        time.sleep(0.05)
            finally:
                connection.close()

    def close(self) -> None:
        """Close every connection (the store cannot be used after)."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Store {self.where}>"

    # -- tournaments and entrants -------------------------------------------------------------

    def create_tournament(
        self,
        name: str,
        spec: Mapping[str, Any],
        entrants: Iterable[tuple[str, str]],
        *,
        status: str = "running",
    ) -> int:
        """Store a new tournament with its entrants (``(name, player spec)`` pairs); its id.

        ``spec`` is a JSON object: the game spec, entrants, format, number of deals, seed and
        options — what resuming needs to go on exactly as before.
        """
        spec_text = _json(spec, f"tournament {name!r}: its spec")
        pairs = list(entrants)
        names = [entrant for entrant, _ in pairs]
        if len(set(names)) != len(names):
            raise StoreError(f"tournament {name!r}: two entrants share a name: {names}")
        doing = f"cannot create tournament {name!r}"
        with self._guard(doing), Session(self._writer) as session, session.begin():
            if session.scalar(select(Tournament.id).where(Tournament.name == name)):
                raise StoreError(
                    f"{self.where}: a tournament named {name!r} already exists: "
                    "resume it or choose another name"
                )
            tournament = Tournament(name=name, created=_now(), spec=spec_text, status=status)
            session.add(tournament)
            session.flush()
            session.add_all(
                Entrant(tournament_id=tournament.id, name=entrant, spec=player)
                for entrant, player in pairs
            )
            return tournament.id

    def find_tournament(self, name: str) -> TournamentInfo | None:
        """The tournament named ``name``, or ``None``."""
        query = _TOURNAMENTS.where(Tournament.name == name)
        with self._guard(f"cannot read tournament {quote(name)}"), self.engine.connect() as c:
            found = c.execute(query).first()
            return None if found is None else self._tournament(found)

    def tournament(self, tid: int) -> TournamentInfo:
        """The tournament with id ``tid`` (a :class:`StoreError` when there is none)."""
        query = _TOURNAMENTS.where(Tournament.id == tid)
        with self._guard(f"cannot read tournament {tid}"), self.engine.connect() as c:
            found = c.execute(query).first()
            if found is None:
                raise StoreError(f"{self.where}: no tournament has id {tid}")
            return self._tournament(found)

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament, oldest first."""
        query = _TOURNAMENTS.order_by(Tournament.id)
        with self._guard("cannot read the tournaments"), self.engine.connect() as c:
            return [self._tournament(row) for row in c.execute(query)]

    def set_status(self, tid: int, status: str) -> None:
        """Set tournament ``tid``'s status (``running``, ``finished``...)."""
        query = update(Tournament).where(Tournament.id == tid).values(status=status)
        with self._guard(f"cannot update tournament {tid}"), self._writer.begin() as c:
            if c.execute(query).rowcount == 0:
                raise StoreError(f"{self.where}: no tournament has id {tid}")

    def entrants(self, tid: int) -> list[EntrantInfo]:
        """Tournament ``tid``'s entrants, in the order they were given."""
        query = (
            select(Entrant.id, Entrant.name, Entrant.spec)
            .where(Entrant.tournament_id == tid)
            .order_by(Entrant.id)
        )
        with self._guard(f"cannot read tournament {tid}'s entrants"), self.engine.connect() as c:
            found = []
            for row in c.execute(query):
                try:
                    found.append(entrant_info(row))
                except Damaged as exc:
                    raise StoreError(
                        f"{self.where}: entrant #{row.id} of tournament {tid} is damaged: {exc}"
                    ) from None
            return found

    def _tournament(self, row: Any) -> TournamentInfo:
        try:
            return tournament_info(row)
        except Damaged as exc:
            raise StoreError(f"{self.where}: tournament #{row.id} is damaged: {exc}") from None

    # -- games --------------------------------------------------------------------------------

    def done_units(self, tid: int) -> set[str]:
        """The units of tournament ``tid`` already stored: what a resumed run must not replay."""
        query = select(Game.unit).where(Game.tournament_id == tid)
        with self._guard(f"cannot read tournament {tid}'s games"), self.engine.connect() as c:
            units = set(c.scalars(query))
        if not all(isinstance(unit, str) for unit in units):
            raise StoreError(f"{self.where}: a game of tournament {tid} has a damaged unit name")
        return units

    def game_count(self, tid: int) -> int:
        """How many games of tournament ``tid`` are stored."""
        query = select(func.count()).select_from(Game).where(Game.tournament_id == tid)
        with self._guard(f"cannot read tournament {tid}'s games"), self.engine.connect() as c:
            return int(c.execute(query).scalar_one())

    def add_games(self, rows: Iterable[GameRow]) -> int:
        """Store finished games in one transaction; how many were new.

        A game whose unit its tournament already holds is skipped (so is a repeat within the
        batch). A failed batch stores nothing and raises a :class:`StoreError` whose ``unsaved``
        holds the batch; a dropped PostgreSQL connection is first retried once on a new one.
        """
        batch = list(rows)
        if not batch:
            return 0
        values = [_game_values(row) for row in batch]
        dialect = sqlite if self.engine.dialect.name == "sqlite" else postgresql
        statement = (
            dialect.insert(Game)
            .on_conflict_do_nothing(index_elements=["tournament_id", "unit"])
            .returning(Game.unit)
        )
        doing = f"cannot store {len(batch)} game" + ("s" if len(batch) > 1 else "")
        lost = "; none of them was stored (every game stored before is kept)"
        for attempt in (1, 2):
            try:
                with self.engine.begin() as connection:
                    return len(connection.execute(statement, values).all())
            except DBAPIError as exc:
                if exc.connection_invalidated and attempt == 1:
                    continue  # the pool has dropped the dead connection: go on on a new one
                again = " again after reconnecting" if attempt == 2 else ""
                raise StoreError(
                    f"{self.where}: {doing}: {_reason(exc)}{again}{lost}", unsaved=batch
                ) from exc
            except SQLAlchemyError as exc:
                raise StoreError(
                    f"{self.where}: {doing}: {_reason(exc)}{lost}", unsaved=batch
                ) from exc
        raise AssertionError("unreachable")

    def games(
        self, tid: int, *, records: bool = True, batch: int = READ_BATCH
    ) -> Iterator[StoredGame]:
        """Tournament ``tid``'s games by round, table and unit, streamed ``batch`` at a time.

        ``records=False`` leaves out the match records (``record`` is ``None``): much faster
        where only the results are needed.
        """
        columns = [
            Game.id,
            Game.tournament_id,
            Game.unit,
            Game.round_no,
            Game.table_no,
            Game.seats,
            Game.seed,
            Game.result,
            Game.faults,
            # As stored: checked and parsed by rows.timestamp, not by SQLAlchemy, which would
            # raise its own error on a damaged value.
            type_coerce(Game.finished_at, Text).label("finished_at"),
        ]
        query = (
            select(*columns, *([Game.record] if records else []))
            .where(Game.tournament_id == tid)
            .order_by(Game.round_no, Game.table_no, Game.unit)
        )
        with self._guard(f"cannot read tournament {tid}'s games"), self.engine.connect() as c:
            for row in c.execution_options(yield_per=batch).execute(query):
                try:
                    game = stored_game(row, records)
                except Damaged as exc:  # edited by hand, or damaged
                    raise StoreError(
                        f"{self.where}: game #{row.id} of tournament {tid} is damaged: {exc}"
                    ) from None
                yield game

    # -- errors -------------------------------------------------------------------------------

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn every database error inside into one :class:`StoreError` line."""
        try:
            yield
        except (SQLAlchemyError, UnicodeDecodeError) as exc:
            raise StoreError(f"{self.where}: {doing}: {_reason(exc)}") from exc


def parse_target(target: str | os.PathLike[str]) -> tuple[URL, str]:
    """The SQLAlchemy URL of a path or URL text, and how messages name it."""
    text = os.fspath(target)
    if "://" not in text:
        path = Path(text).expanduser().absolute()
        return URL.create("sqlite", database=str(path)), f"database {path}"
    try:
        url = make_url(text)
    except ArgumentError as exc:
        raise StoreError(f"bad database URL {text.split('@')[-1]!r}: {exc}") from exc
    shown = url.render_as_string(hide_password=True)
    backend = url.get_backend_name()
    if backend in ("postgresql", "postgres"):
        if url.drivername in ("postgresql", "postgres"):
            url = url.set(drivername="postgresql+psycopg")
        return url, f"database {shown}"
    if backend == "sqlite":
        if not url.database or url.database == ":memory:":
            raise StoreError(
                f"database {shown}: an in-memory database would vanish with the program; "
                "give a file (sqlite:///PATH or a bare path)"
            )
        path = Path(url.database).expanduser().absolute()
        return url.set(database=str(path)), f"database {path}"
    raise StoreError(
        f"database {shown}: unsupported kind {backend!r}: give a file path, sqlite:///PATH or "
        "postgresql://USER@HOST:PORT/DB"
    )


#: a tournament's columns as the readers want them, ``created`` as stored (see ``games``)
_TOURNAMENTS = select(
    Tournament.id,
    Tournament.name,
    type_coerce(Tournament.created, Text).label("created"),
    Tournament.spec,
    Tournament.status,
)


@contextmanager
def _disposed_on_failure(engine: Engine, where: str) -> Iterator[None]:
    """Dispose of ``engine`` if opening fails; a schema problem said as a StoreError."""
    try:
        yield
    except migrate.SchemaProblem as problem:
        engine.dispose()
        raise StoreError(f"{where} {problem}") from None
    except BaseException:
        engine.dispose()
        raise


def _sqlite_file_holds_data(path: Path, where: str, *, follow: bool) -> bool:
    """Whether ``path`` is a SQLite file with something in it (absent or empty: False).

    Anything else — a folder, a FIFO, a device, a file that does not begin as SQLite's do —
    is refused without being opened by SQLite (which would wait on a FIFO, or take a device).
    """
    try:
        info = os.stat(path) if follow else os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise StoreError(f"{where}: cannot open: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(f"{where}: it is {kind_of(info.st_mode)}; give a regular file")
    if info.st_size == 0:
        return False
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            header = os.read(fd, len(_SQLITE_HEADER))
        finally:
            os.close(fd)
    except OSError as exc:
        raise StoreError(f"{where}: cannot open: {exc.strerror or exc}") from None
    if header != _SQLITE_HEADER:
        raise StoreError(
            f"{where}: the file is not a SQLite database (it does not begin as one); "
            "nothing was written to it"
        )
    return True


def _check_sqlite_file(path: Path, where: str) -> None:
    """Check, before anything is written, that ``path`` may become or go on being the store.

    The file must be absent, empty or a regular file (not a symbolic link: writing through
    one changes a file elsewhere) in a folder that exists and takes new files (SQLite writes
    its journal beside it): a missing folder is refused, not made, as ``play --save`` refuses
    one (a mistyped path would otherwise leave a tree of folders behind). An existing
    database is looked at read-only first: it must be tricktable's, and pass SQLite's
    ``integrity_check`` — so a damaged file is refused before a single game is stored into
    it. It reads every page (0.18 s for a file of 211 MB, 150,000 games, in the page cache;
    about 2 s from disk) and, unlike the cheaper ``quick_check`` (0.11 s), checks that the
    indexes match the rows: an index damaged unseen would fail the first batch stored, after
    the tournament's status was written.
    """
    try:
        check_writable(path, "database")
    except FileProblem as exc:
        raise StoreError(str(exc)) from None
    if not _sqlite_file_holds_data(path, where, follow=False):
        return
    engine = _sqlite_readonly_engine(path)
    try:
        with engine.connect() as connection:
            migrate.check(connection)
            problems = connection.exec_driver_sql(f"PRAGMA integrity_check({_CHECK_PROBLEMS})")
            found = [str(p) for p in problems.scalars()]
    except migrate.SchemaProblem as problem:
        raise StoreError(f"{where} {problem}") from None
    except (SQLAlchemyError, UnicodeDecodeError) as exc:
        raise StoreError(
            f"{where}: cannot open: {_reason(exc)}; nothing was written to it"
        ) from exc
    finally:
        engine.dispose()
    if found != ["ok"]:
        said = found[0] if found else "nothing"
        first = " ".join(said.removeprefix("*** in database main ***").split())[:_REASON]
        raise StoreError(
            f"{where} is damaged, and nothing was written to it (restore a copy, or give "
            f"another file): SQLite's integrity_check says {first}"
        )


def _sqlite_readonly_engine(path: Path) -> Engine:
    """An engine that opens ``path`` in SQLite's read-only mode: it cannot write the file."""
    uri = "file:" + urllib.parse.quote(str(path.absolute())) + "?mode=ro"

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, timeout=30, check_same_thread=False)

    engine = create_engine(URL.create("sqlite", database=str(path)), creator=connect)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _make_engine(url: URL, connect_timeout: int, *, readonly: bool = False) -> Engine:
    if url.get_backend_name() == "sqlite":
        # 30 s of waiting for another writer's lock before "database is locked".
        engine = create_engine(url, connect_args={"timeout": 30})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    connect_args: dict[str, Any] = {
        "connect_timeout": max(1, int(connect_timeout)),
        "application_name": "tricktable",
        # A server that vanishes without closing the connection is noticed in ~25 s.
        "keepalives": 1,
        "keepalives_idle": 10,
        "keepalives_interval": 5,
        "keepalives_count": 3,
    }
    if readonly:  # the server itself refuses any write in these sessions' transactions
        connect_args["options"] = "-c default_transaction_read_only=on"
    # A connection the server dropped while idle is replaced before use.
    return create_engine(url, pool_pre_ping=True, connect_args=connect_args)


def _sqlite_connect(dbapi_connection: Any, record: Any) -> None:
    # Python's sqlite3 would begin transactions itself, but not before DDL: with it told to
    # stand aside and BEGIN emitted at each SQLAlchemy begin (_sqlite_begin), a migration is
    # one transaction.
    dbapi_connection.isolation_level = None
    dbapi_connection.text_factory = _utf8
    dbapi_connection.execute("PRAGMA foreign_keys=ON")
    # Checks that meet a damaged page say so rather than read past it.
    dbapi_connection.execute("PRAGMA cell_size_check=ON")
    # In WAL mode, NORMAL syncs at checkpoints, not at every commit: a killed program still
    # loses no committed batch (only a power cut could lose the last ones, which a resumed
    # tournament plays again); FULL made the writer wait on the disk once a batch.
    dbapi_connection.execute("PRAGMA synchronous=NORMAL")


def _utf8(data: bytes) -> str:
    """SQLite's text as Python's: text that is not UTF-8 (a damaged file) is a database error,
    which the store says in one line, not a ``UnicodeDecodeError``."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise sqlite3.DataError(
            "the database holds text that is not UTF-8: it is damaged"
        ) from None


def _sqlite_begin(connection: Connection) -> None:
    writes = connection.get_execution_options().get("tricktable_writes")
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


def _reason(exc: BaseException) -> str:
    """Why a database operation failed, on one line."""
    original = getattr(exc, "orig", None) or exc
    if isinstance(original, UnicodeDecodeError):
        # SQLite's own message quoted bytes of a damaged schema, which are not UTF-8.
        return "the file is damaged (it holds text that is not UTF-8)"
    text = " ".join(str(original).split())
    if len(text) > _REASON:
        text = text[: _REASON - 3] + "..."
    low = text.lower()
    sqlstate = getattr(original, "sqlstate", None) or ""
    if "database or disk is full" in low or "no space left" in low or sqlstate.startswith("53"):
        return f"the disk is full ({text})"
    if "file is not a database" in low or "malformed" in low:
        return f"the file is not a SQLite database, or is damaged ({text})"
    if "database is locked" in low:
        return f"another program holds the database's write lock (waited 30 s): {text}"
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return f"lost the connection to the database ({text})"
    if isinstance(exc, IntegrityError) and "foreign key" in low:
        return f"a game names a tournament that does not exist ({text})"
    return text or type(exc).__name__


def _json(value: Any, what: str) -> str:
    try:
        return _ENCODER.encode(value)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"{what} is not JSON: {exc}") from exc


def _game_values(row: GameRow) -> dict[str, Any]:
    what = f"game {row.unit!r} of tournament {row.tournament_id}"
    if row.seed not in _SEED_RANGE:
        raise StoreError(f"{what}: seed {row.seed} does not fit in 64 bits")
    if isinstance(row.record, str):
        # Text is what a worker encoded (the writer only writes): checked for the shape of an
        # object, not parsed again, which cost the writing process as much as the insert.
        text = row.record.strip()
        if not (text.startswith("{") and text.endswith("}")):
            raise StoreError(f"{what}: its record is not the text of a JSON object")
        record = row.record
    else:
        record = _json(row.record, f"{what}: its record")
    return {
        "tournament_id": row.tournament_id,
        "unit": row.unit,
        "round_no": row.round_no,
        "table_no": row.table_no,
        "seats": _json(list(row.seats), f"{what}: its seats"),
        "seed": row.seed,
        "record": record,
        "result": _json(row.result, f"{what}: its result"),
        "faults": _json(list(row.faults), f"{what}: its faults"),
        "finished_at": utc(row.finished_at) if row.finished_at else _now(),
    }


def _now() -> datetime:
    return datetime.now(UTC)
