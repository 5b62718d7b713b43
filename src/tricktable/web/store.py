"""The web server's rows: people, sessions, tables and each table's journal.

A thin layer over the tournament database's engine (:class:`tricktable.db.Store`, which
creates and upgrades the schema): every call is one short transaction. The journal is the
truth of a table's play (:mod:`tricktable.web.room` writes a row for every change before it
is confirmed); everything else here is what a restart needs to seat people again.

Calls block. The journal, written at every move, is written by the server's writer thread
(:mod:`tricktable.web.writer`: :meth:`WebStore.append_many`, many rows a transaction), never
by the event loop; the rest (a session, a table's seats) is rare enough for the loop to wait
on. A database error is a :class:`~tricktable.db.StoreError` saying what could not be done.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, bindparam, delete, event, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from tricktable.db import Store, StoreError
from tricktable.db.models import WebBot, WebJournal, WebSession, WebSetting, WebTable, WebUser

#: how long a session lasts
SESSION_DAYS = 30
_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True, slots=True)
class User:
    """A person at the server (``kind``: ``guest`` or ``account``)."""

    id: int
    name: str
    kind: str

    def to_json(self) -> dict[str, Any]:
        """The user as the API shows it (never the password's hash)."""
        return {"id": self.id, "name": self.name, "kind": self.kind}


@dataclass(frozen=True, slots=True)
class BotRow:
    """A stored bot (``web_bot``): ``user_id`` is who it is at tables; ``owner`` the account
    that made it (None: the operator's)."""

    id: int
    user_id: int
    owner: int | None
    name: str
    kind: str
    endpoint: str | None
    created: datetime
    revoked: bool

    def user(self) -> User:
        """The bot as a connection's user: its own identity, never its owner's."""
        return User(self.user_id, self.name, "bot")

    def to_json(self) -> dict[str, Any]:
        """The bot as the API shows it (never its token's hash)."""
        return {
            "name": self.name,
            "kind": self.kind,
            "endpoint": self.endpoint,
            "created": _utc(self.created).isoformat(timespec="seconds"),
            "revoked": self.revoked,
        }


@dataclass(frozen=True, slots=True)
class TableRow:
    """A stored table: its settings, seats and the current match's seed."""

    id: str
    creator: int | None
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    status: str
    match_no: int
    seed: int
    nonce: str
    commitment: str


@dataclass(frozen=True, slots=True)
class JournalRow:
    """One change of a table's match: ``seq`` the version after it, ``steps`` what it did."""

    seq: int
    match_no: int
    steps: list[Any]


class WebStore:
    """The web server's rows in an open :class:`Store` (which it closes with itself)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        #: the journal writer's connection (its thread's own, kept open)
        self._group: Connection | None = None
        if self.engine.dialect.name == "sqlite":
            # Durable at every commit in WAL mode as far as a crash of this process goes
            # (a power cut may lose the last ones); far faster than FULL.
            event.listen(self.engine, "connect", _sqlite_pragmas)
            self.engine.dispose()

    @classmethod
    def open(cls, target: str) -> WebStore:
        """Open (creating or upgrading) the database at ``target``: a path or a URL."""
        return cls(Store.open(target))

    def close(self) -> None:
        """Close the database's connections."""
        if self._group is not None:
            with suppress(Exception):
                self._group.close()
            self._group = None
        self.store.close()

    @contextmanager
    def _write(self, doing: str) -> Iterator[Connection]:
        try:
            with self.engine.begin() as connection:
                yield connection
        except StoreError:
            raise
        except (SQLAlchemyError, OSError) as exc:
            raise StoreError(f"{self.store.where}: {doing}: {_reason(exc)}") from exc

    @contextmanager
    def _read(self, doing: str) -> Iterator[Connection]:
        try:
            with self.engine.connect() as connection:
                yield connection
        except (SQLAlchemyError, OSError) as exc:
            raise StoreError(f"{self.store.where}: {doing}: {_reason(exc)}") from exc

    # -- settings ----------------------------------------------------------------------------

    def secret(self) -> str:
        """The server's cookie-signing secret, made on first use and kept in the database."""
        with self._write("cannot read the server's secret") as c:
            found = c.scalar(select(WebSetting.value).where(WebSetting.key == "secret"))
            if found:
                return found
            value = secrets.token_urlsafe(48)
            c.execute(insert(WebSetting).values(key="secret", value=value))
            return value

    # -- people and sessions -----------------------------------------------------------------

    def add_user(self, name: str, kind: str, password: str | None = None) -> User:
        """A new user; an account's name must be free (a :class:`StoreError` if taken)."""
        key = fold(name) if kind == "account" else None
        try:
            with self._write("cannot add the user") as c:
                uid = c.execute(
                    insert(WebUser).values(
                        name=name, name_key=key, kind=kind, password=password, created=_now()
                    )
                ).inserted_primary_key
        except StoreError as exc:
            if isinstance(exc.__cause__, IntegrityError):
                raise NameTaken(f"the name {name!r} is taken") from None
            raise
        assert uid is not None
        return User(int(uid[0]), name, kind)

    def account(self, name: str) -> tuple[User, str] | None:
        """The account named ``name`` (folded) and its password hash, or None."""
        query = select(WebUser.id, WebUser.name, WebUser.kind, WebUser.password).where(
            WebUser.name_key == fold(name)
        )
        with self._read("cannot read the accounts") as c:
            row = c.execute(query).first()
        if row is None or row.password is None:
            return None
        return User(row.id, row.name, row.kind), row.password

    def user(self, uid: int) -> User | None:
        """The user with id ``uid``, or None."""
        query = select(WebUser.id, WebUser.name, WebUser.kind).where(WebUser.id == uid)
        with self._read("cannot read the users") as c:
            row = c.execute(query).first()
        return None if row is None else User(row.id, row.name, row.kind)

    def new_session(self, user: User) -> tuple[str, str]:
        """A new session of ``user``: its id (for the signed cookie) and its CSRF token."""
        sid, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        now = _now()
        with self._write("cannot start a session") as c:
            c.execute(
                insert(WebSession).values(
                    id=sid,
                    user_id=user.id,
                    csrf=csrf,
                    created=now,
                    expires=now + timedelta(days=SESSION_DAYS),
                )
            )
        return sid, csrf

    def session(self, sid: str) -> tuple[User, str] | None:
        """The user of session ``sid`` and its CSRF token; None if unknown or expired."""
        query = (
            select(WebUser.id, WebUser.name, WebUser.kind, WebSession.csrf, WebSession.expires)
            .join(WebUser, WebUser.id == WebSession.user_id)
            .where(WebSession.id == sid)
        )
        with self._read("cannot read the sessions") as c:
            row = c.execute(query).first()
        if row is None or _utc(row.expires) < _now():
            return None
        return User(row.id, row.name, row.kind), row.csrf

    def end_session(self, sid: str) -> None:
        """End session ``sid`` (logging out)."""
        with self._write("cannot end the session") as c:
            c.execute(delete(WebSession).where(WebSession.id == sid))

    def live_sessions(self, sids: Iterable[str]) -> set[str]:
        """Those of ``sids`` that are sessions still: not ended, not expired."""
        wanted = sorted(set(sids))
        live: set[str] = set()
        now = _now()
        with self._read("cannot read the sessions") as c:
            # A few hundred a statement: SQLite allows some thousands of parameters.
            for start in range(0, len(wanted), 500):
                query = select(WebSession.id, WebSession.expires).where(
                    WebSession.id.in_(wanted[start : start + 500])
                )
                live.update(row.id for row in c.execute(query) if _utc(row.expires) >= now)
        return live

    def purge_sessions(self) -> int:
        """Delete the rows of expired sessions; how many there were."""
        with self._write("cannot purge the sessions") as c:
            result = c.execute(delete(WebSession).where(WebSession.expires < _now()))
        return int(result.rowcount or 0)

    def password(self, uid: int) -> str | None:
        """The password hash of account ``uid`` (None: a guest, or no such user)."""
        query = select(WebUser.password).where(WebUser.id == uid)
        with self._read("cannot read the accounts") as c:
            return c.scalar(query)

    def change_password(self, uid: int, hashed: str, keep: str | None = None) -> list[str]:
        """Give account ``uid`` the password hash ``hashed`` and end every session of it but
        ``keep`` (the one that changed it), in one transaction; the ended sessions' ids."""
        sessions = select(WebSession.id).where(WebSession.user_id == uid)
        if keep is not None:
            sessions = sessions.where(WebSession.id != keep)
        with self._write("cannot change the password") as c:
            c.execute(update(WebUser).where(WebUser.id == uid).values(password=hashed))
            ended = list(c.scalars(sessions))
            if ended:
                c.execute(delete(WebSession).where(WebSession.id.in_(ended)))
        return ended

    # -- bots ----------------------------------------------------------------------------------

    def add_bot(
        self, owner: int | None, name: str, kind: str, endpoint: str | None, token_hash: str | None
    ) -> BotRow:
        """A new bot of account ``owner`` (None: the operator's). Its name is an account's
        name too (a ``web_user`` row without a password: it cannot sign in), so no account
        or other bot may have it (:class:`NameTaken`)."""
        now = _now()
        try:
            with self._write("cannot add the bot") as c:
                made = c.execute(
                    insert(WebUser).values(
                        name=name, name_key=fold(name), kind="account", password=None, created=now
                    )
                ).inserted_primary_key
                assert made is not None
                uid = int(made[0])
                c.execute(
                    insert(WebBot).values(
                        user_id=uid,
                        owner=owner,
                        name=name,
                        kind=kind,
                        endpoint=endpoint,
                        token_hash=token_hash,
                        created=now,
                        revoked=False,
                    )
                )
        except StoreError as exc:
            if isinstance(exc.__cause__, IntegrityError):
                raise NameTaken(f"the name {name!r} is taken") from None
            raise
        found = self.bot(name)
        assert found is not None
        return found

    def bot(self, name: str) -> BotRow | None:
        """The bot named ``name`` (folded as accounts' names are), revoked or not, or None."""
        query = _BOTS.where(WebUser.name_key == fold(name))
        with self._read("cannot read the bots") as c:
            row = c.execute(query).first()
        return None if row is None else _bot_row(row)

    def bots_of(self, owner: int) -> list[BotRow]:
        """The bots of account ``owner`` not deleted, oldest first."""
        query = _BOTS.where(WebBot.owner == owner, WebBot.revoked.is_(False)).order_by(WebBot.id)
        with self._read("cannot read the bots") as c:
            return [_bot_row(r) for r in c.execute(query)]

    def bot_by_token(self, token_hash: str) -> BotRow | None:
        """The live bot whose token hashes to ``token_hash``, or None."""
        query = _BOTS.where(WebBot.token_hash == token_hash, WebBot.revoked.is_(False))
        with self._read("cannot read the bots") as c:
            row = c.execute(query).first()
        return None if row is None else _bot_row(row)

    def live_bot_tokens(self, hashes: Iterable[str]) -> set[str]:
        """Those of the token hashes ``hashes`` that still open a bot (not rotated, not
        deleted)."""
        wanted = sorted(set(hashes))
        live: set[str] = set()
        with self._read("cannot read the bots") as c:
            for start in range(0, len(wanted), 500):
                query = select(WebBot.token_hash).where(
                    WebBot.token_hash.in_(wanted[start : start + 500]), WebBot.revoked.is_(False)
                )
                live.update(h for h in c.scalars(query) if h is not None)
        return live

    def set_bot_token(self, bot_id: int, token_hash: str | None) -> None:
        """Give bot ``bot_id`` a new token's hash (the old token opens nothing after)."""
        with self._write("cannot store the bot's token") as c:
            c.execute(update(WebBot).where(WebBot.id == bot_id).values(token_hash=token_hash))

    def revoke_bot(self, bot_id: int) -> None:
        """Delete bot ``bot_id`` as its owner sees it: no token, no listing; its row and name
        stay, so the matches it played keep naming it (and nobody else takes the name)."""
        with self._write("cannot delete the bot") as c:
            c.execute(
                update(WebBot).where(WebBot.id == bot_id).values(token_hash=None, revoked=True)
            )

    # -- tables ------------------------------------------------------------------------------

    def add_table(self, row: TableRow, epoch: int = 0) -> None:
        """Store a new table (``epoch``: its first owner's, when many processes serve)."""
        with self._write(f"cannot store table {row.id}") as c:
            c.execute(
                insert(WebTable).values(
                    id=row.id,
                    created=_now(),
                    creator=row.creator,
                    settings=_ENCODER.encode(row.settings),
                    seats=_ENCODER.encode(row.seats),
                    status=row.status,
                    match_no=row.match_no,
                    seed=str(row.seed),
                    nonce=row.nonce,
                    commitment=row.commitment,
                    epoch=epoch,
                )
            )

    def save_table(self, row: TableRow) -> None:
        """Store a table's seats, status and match (after a change)."""
        query = (
            update(WebTable)
            .where(WebTable.id == row.id)
            .values(
                seats=_ENCODER.encode(row.seats),
                status=row.status,
                match_no=row.match_no,
                seed=str(row.seed),
                nonce=row.nonce,
                commitment=row.commitment,
            )
        )
        with self._write(f"cannot store table {row.id}") as c:
            c.execute(query)

    def tables(self) -> list[TableRow]:
        """Every table not closed, oldest first."""
        query = select(WebTable).where(WebTable.status != "closed").order_by(WebTable.created)
        with self._read("cannot read the tables") as c:
            return [_table_row(r) for r in c.execute(query)]

    def table(self, table_id: str) -> TableRow | None:
        """Table ``table_id`` as stored now (None: no such table)."""
        query = select(WebTable).where(WebTable.id == table_id)
        with self._read(f"cannot read table {table_id}") as c:
            found = c.execute(query).first()
        return _table_row(found) if found is not None else None

    def claim_table(self, table_id: str) -> tuple[TableRow, int] | None:
        """Become table ``table_id``'s owner: its epoch raised by one, in one transaction
        with reading the row back (None: no such table). From this commit on, a former
        owner's appends are refused (:meth:`append_many`), so the journal read after it
        holds every row that will ever be written before this owner's."""
        with self._write(f"cannot claim table {table_id}") as c:
            c.execute(
                update(WebTable).where(WebTable.id == table_id).values(epoch=WebTable.epoch + 1)
            )
            found = c.execute(select(WebTable).where(WebTable.id == table_id)).first()
        if found is None:
            return None
        return _table_row(found), int(found.epoch)

    def journal(self, table_id: str, match_no: int | None = None) -> list[JournalRow]:
        """Table ``table_id``'s journal (of match ``match_no`` only, if given), in order."""
        query = select(WebJournal.seq, WebJournal.match_no, WebJournal.steps).where(
            WebJournal.table_id == table_id
        )
        if match_no is not None:
            query = query.where(WebJournal.match_no == match_no)
        with self._read(f"cannot read table {table_id}'s journal") as c:
            rows = c.execute(query.order_by(WebJournal.seq)).all()
        return [JournalRow(r.seq, r.match_no, json.loads(r.steps)) for r in rows]

    def last_seq(self, table_id: str) -> int:
        """The version of table ``table_id``: its journal's last ``seq`` (0 if none)."""
        query = select(WebJournal.seq).where(WebJournal.table_id == table_id)
        with self._read(f"cannot read table {table_id}'s journal") as c:
            found = c.scalar(query.order_by(WebJournal.seq.desc()).limit(1))
        return int(found or 0)

    def append_many(
        self,
        rows: list[tuple[str, int, int, list[Any]]],
        fences: dict[str, int] | None = None,
    ) -> set[str]:
        """Append rows ``(table_id, seq, match_no, steps)`` in one transaction: all or none
        (a :class:`StoreError` if they cannot be). The journal writer's thread calls it,
        on a connection of its own kept open; a failure closes it, the next call opens
        another.

        ``fences``: the epoch each table's writer holds (many server processes): in the same
        transaction each of those tables' rows are locked and their epoch read, and a table
        whose epoch is no longer the writer's (another process has claimed it) has none of
        its rows written. Those tables are returned; the other tables' rows are written.
        """
        at = _now()
        stale: set[str] = set()
        try:
            if self._group is None:
                self._group = self.engine.connect()
            connection = self._group
            with connection.begin():
                if fences:
                    held = connection.execute(_FENCES, {"ids": sorted(fences)})
                    epochs = {t: e for t, e in held}
                    stale = {t for t, e in fences.items() if epochs.get(t) != e}
                values = [
                    {
                        "table_id": t,
                        "seq": q,
                        "match_no": m,
                        "steps": _ENCODER.encode(steps),
                        "at": at,
                    }
                    for t, q, m, steps in rows
                    if t not in stale
                ]
                if values:
                    connection.execute(_APPEND, values)
        except (SQLAlchemyError, OSError) as exc:
            group, self._group = self._group, None
            if group is not None:
                with suppress(Exception):
                    group.close()
            doing = f"cannot write the journal of table {rows[0][0]}" if rows else "cannot write"
            raise StoreError(f"{self.store.where}: {doing}: {_reason(exc)}") from exc
        return stale


#: the journal's one statement
_APPEND = insert(WebJournal)
#: the epochs of the tables a group of rows is for, their rows locked: FOR UPDATE, so that a
#: claim waits for this transaction, and this one for a claim begun before it (PostgreSQL;
#: SQLite writes one transaction at a time anyway). Made once: built for every transaction,
#: it cost as much as running it.
_FENCES = (
    select(WebTable.id, WebTable.epoch)
    .where(WebTable.id.in_(bindparam("ids", expanding=True)))
    .with_for_update()
)
#: a bot's columns, its name's key from its user row
_BOTS = select(
    WebBot.id,
    WebBot.user_id,
    WebBot.owner,
    WebBot.name,
    WebBot.kind,
    WebBot.endpoint,
    WebBot.created,
    WebBot.revoked,
).join(WebUser, WebUser.id == WebBot.user_id)


class NameTaken(StoreError):
    """An account's name already taken."""


def fold(name: str) -> str:
    """A name as accounts are told apart: case and spacing folded."""
    return " ".join(name.casefold().split())


def _bot_row(r: Any) -> BotRow:
    return BotRow(
        id=r.id,
        user_id=r.user_id,
        owner=r.owner,
        name=r.name,
        kind=r.kind,
        endpoint=r.endpoint,
        created=r.created,
        revoked=bool(r.revoked),
    )


def _table_row(r: Any) -> TableRow:
    return TableRow(
        id=r.id,
        creator=r.creator,
        settings=json.loads(r.settings),
        seats=json.loads(r.seats),
        status=r.status,
        match_no=r.match_no,
        seed=int(r.seed),
        nonce=r.nonce,
        commitment=r.commitment,
    )


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _reason(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).splitlines()
    return (text[0] if text else type(exc).__name__)[:120]
