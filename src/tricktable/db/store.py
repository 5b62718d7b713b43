"""The tournament database: tournaments, their entrants and every game with its full record.

An embedded SQLite file by default (a bare path), PostgreSQL by URL (``postgresql://USER@HOST/DB``,
driven by psycopg 3). :meth:`Store.open` creates or upgrades the schema (Alembic, to the newest
revision this code knows) and refuses, with one line, a file that is damaged, not SQLite, another
program's database or newer than this code.

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
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import URL, Connection, Engine, create_engine, event, func, make_url, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from tricktable.db import migrate
from tricktable.db.models import Entrant, Game, Tournament
from tricktable.errors import TricktableError

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
class TournamentInfo:
    """A stored tournament; ``spec`` is the JSON object given to :meth:`Store.create_tournament`."""

    id: int
    name: str
    created: datetime
    spec: dict[str, Any]
    status: str


@dataclass(frozen=True, slots=True)
class EntrantInfo:
    """A tournament's entrant: its id (what ``seats`` hold), name and player spec."""

    id: int
    name: str
    spec: str


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


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game read back from the store; ``record`` is ``None`` when not asked for."""

    id: int
    tournament_id: int
    unit: str
    round_no: int
    table_no: int
    seats: tuple[int, ...]
    seed: int
    record: dict[str, Any] | None
    result: dict[str, Any]
    faults: list[dict[str, Any]]
    finished_at: datetime


class Store:
    """An open tournament database. Make one with :meth:`Store.open`; a context manager."""

    def __init__(self, engine: Engine, where: str) -> None:
        self.engine = engine
        #: how messages name the database: ``database PATH`` or the URL without its password
        self.where = where
        # For transactions that read and then write: on SQLite they take the write lock first
        # (BEGIN IMMEDIATE), so that two of them wait for each other instead of one failing.
        self._writer = engine.execution_options(tricktable_writes=True)

    # -- opening and closing ------------------------------------------------------------------

    @classmethod
    def open(
        cls, target: str | os.PathLike[str], *, connect_timeout: int = CONNECT_TIMEOUT
    ) -> Store:
        """Open the database at ``target`` — a file path (SQLite), ``sqlite:///PATH`` or
        ``postgresql://USER:PASSWORD@HOST:PORT/DB`` — creating or upgrading its schema."""
        url, where = parse_target(target)
        if url.get_backend_name() == "sqlite":
            assert url.database is not None
            try:
                Path(url.database).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{where}: cannot create its folder: {exc.strerror}") from exc
        try:
            engine = _make_engine(url, connect_timeout)
        except (SQLAlchemyError, ImportError) as exc:
            raise StoreError(f"{where}: cannot open: {_reason(exc)}") from exc
        store = cls(engine, where)
        try:
            with store._guard("cannot open"), store._writer.begin() as connection:
                migrate.upgrade(connection)
        except migrate.SchemaProblem as problem:
            engine.dispose()
            raise StoreError(f"{where} {problem}") from None
        except BaseException:
            engine.dispose()
            raise
        if url.get_backend_name() == "sqlite":
            store._use_wal()
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
        with self._guard(f"cannot read tournament {name!r}"), Session(self.engine) as session:
            found = session.scalar(select(Tournament).where(Tournament.name == name))
            return None if found is None else _tournament_info(found)

    def tournament(self, tid: int) -> TournamentInfo:
        """The tournament with id ``tid`` (a :class:`StoreError` when there is none)."""
        with self._guard(f"cannot read tournament {tid}"), Session(self.engine) as session:
            found = session.get(Tournament, tid)
            if found is None:
                raise StoreError(f"{self.where}: no tournament has id {tid}")
            return _tournament_info(found)

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament, oldest first."""
        query = select(Tournament).order_by(Tournament.id)
        with self._guard("cannot read the tournaments"), Session(self.engine) as session:
            return [_tournament_info(t) for t in session.scalars(query)]

    def set_status(self, tid: int, status: str) -> None:
        """Set tournament ``tid``'s status (``running``, ``finished``...)."""
        doing = f"cannot update tournament {tid}"
        with self._guard(doing), Session(self._writer) as session, session.begin():
            found = session.get(Tournament, tid)
            if found is None:
                raise StoreError(f"{self.where}: no tournament has id {tid}")
            found.status = status

    def entrants(self, tid: int) -> list[EntrantInfo]:
        """Tournament ``tid``'s entrants, in the order they were given."""
        query = select(Entrant).where(Entrant.tournament_id == tid).order_by(Entrant.id)
        with self._guard(f"cannot read tournament {tid}'s entrants"), Session(self.engine) as s:
            return [EntrantInfo(e.id, e.name, e.spec) for e in s.scalars(query)]

    # -- games --------------------------------------------------------------------------------

    def done_units(self, tid: int) -> set[str]:
        """The units of tournament ``tid`` already stored: what a resumed run must not replay."""
        query = select(Game.unit).where(Game.tournament_id == tid)
        with self._guard(f"cannot read tournament {tid}'s games"), self.engine.connect() as c:
            return set(c.scalars(query))

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
            Game.finished_at,
        ]
        query = (
            select(*columns, *([Game.record] if records else []))
            .where(Game.tournament_id == tid)
            .order_by(Game.round_no, Game.table_no, Game.unit)
        )
        with self._guard(f"cannot read tournament {tid}'s games"), self.engine.connect() as c:
            for row in c.execution_options(yield_per=batch).execute(query):
                try:
                    game = StoredGame(
                        id=row.id,
                        tournament_id=row.tournament_id,
                        unit=row.unit,
                        round_no=row.round_no,
                        table_no=row.table_no,
                        seats=tuple(json.loads(row.seats)),
                        seed=row.seed,
                        record=json.loads(row.record) if records else None,
                        result=json.loads(row.result),
                        faults=json.loads(row.faults),
                        finished_at=_utc(row.finished_at),
                    )
                except ValueError as exc:  # edited by hand, or damaged
                    raise StoreError(
                        f"{self.where}: game {row.unit!r} of tournament {tid} holds damaged "
                        f"JSON: {exc}"
                    ) from exc
                yield game

    # -- errors -------------------------------------------------------------------------------

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn every database error inside into one :class:`StoreError` line."""
        try:
            yield
        except SQLAlchemyError as exc:
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


def _make_engine(url: URL, connect_timeout: int) -> Engine:
    if url.get_backend_name() == "sqlite":
        # 30 s of waiting for another writer's lock before "database is locked".
        engine = create_engine(url, connect_args={"timeout": 30})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(
        url,
        # A connection the server dropped while idle is replaced before use.
        pool_pre_ping=True,
        connect_args={
            "connect_timeout": max(1, int(connect_timeout)),
            "application_name": "tricktable",
            # A server that vanishes without closing the connection is noticed in ~25 s.
            "keepalives": 1,
            "keepalives_idle": 10,
            "keepalives_interval": 5,
            "keepalives_count": 3,
        },
    )


def _sqlite_connect(dbapi_connection: Any, record: Any) -> None:
    # Python's sqlite3 would begin transactions itself, but not before DDL: with it told to
    # stand aside and BEGIN emitted at each SQLAlchemy begin (_sqlite_begin), a migration is
    # one transaction.
    dbapi_connection.isolation_level = None
    dbapi_connection.execute("PRAGMA foreign_keys=ON")
    # In WAL mode, NORMAL syncs at checkpoints, not at every commit: a killed program still
    # loses no committed batch (only a power cut could lose the last ones, which a resumed
    # tournament plays again); FULL made the writer wait on the disk once a batch.
    dbapi_connection.execute("PRAGMA synchronous=NORMAL")


def _sqlite_begin(connection: Connection) -> None:
    writes = connection.get_execution_options().get("tricktable_writes")
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


def _reason(exc: BaseException) -> str:
    """Why a database operation failed, on one line."""
    original = getattr(exc, "orig", None) or exc
    text = " ".join(str(original).split())
    if len(text) > 240:
        text = text[:237] + "..."
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
        "finished_at": _utc(row.finished_at) if row.finished_at else _now(),
    }


def _tournament_info(row: Tournament) -> TournamentInfo:
    return TournamentInfo(row.id, row.name, _utc(row.created), json.loads(row.spec), row.status)


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    # SQLite keeps no time zone: every time stored is UTC, so a naive one read back is UTC.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
