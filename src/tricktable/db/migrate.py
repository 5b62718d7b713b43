"""Bring a database's schema to the one this code knows, with Alembic, after checking it is ours.

Run on every :meth:`Store.open <tricktable.db.store.Store.open>`: an empty database gets the
whole schema, an older tricktable database is upgraded, and anything else — another program's
tables, a schema newer than this code — is refused with one line rather than touched.
"""

from __future__ import annotations

import threading
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text

#: the Alembic environment and its versions, shipped inside the package
MIGRATIONS = Path(__file__).with_name("migrations")
#: the tables whose presence says a database is tricktable's
OUR_TABLES = frozenset({"tournament", "entrant", "game"})
#: any fixed number: PostgreSQL's lock that keeps two openers from migrating at once
_PG_LOCK = 0x7472_6963_6B74
#: Alembic's ``context`` and ``op`` are module globals: one migration at a time per process
_ALEMBIC = threading.Lock()


class SchemaProblem(Exception):
    """A database this code must not migrate; the message says why (the store adds where)."""


def alembic_config() -> Config:
    """The Alembic configuration of tricktable's migrations (no ini file needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head() -> str:
    """The newest schema revision this code knows."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None, "no migrations found in " + str(MIGRATIONS)
    return revision


def check(connection: Connection) -> bool:
    """Check ``connection``'s database is tricktable's (or empty); whether it needs upgrading.

    Reads only. Raises :class:`SchemaProblem` for a database that is not ours, was made by hand
    or is newer than this code.
    """
    script = ScriptDirectory.from_config(alembic_config())
    known = {rev.revision for rev in script.walk_revisions()}
    tables = set(inspect(connection).get_table_names())
    current = set(MigrationContext.configure(connection).get_current_heads())
    if tables and not tables & OUR_TABLES:
        raise SchemaProblem(
            "is not a tricktable database (it holds other tables: "
            + ", ".join(repr(t)[:40] for t in sorted(tables)[:5])
            + (", ..." if len(tables) > 5 else "")
            + "); give a new file or an empty database"
        )
    elif current - known:
        newer = ", ".join(repr(r)[:40] for r in sorted(current - known)[:3])
        raise SchemaProblem(
            f"has schema revision {newer}, newer than this tricktable knows "
            f"(up to {script.get_current_head()}): upgrade tricktable"
        )
    elif tables and not current:
        raise SchemaProblem(
            "holds tricktable's tables but no schema revision (alembic_version): it was made "
            "by hand or damaged; give a new file or an empty database"
        )
    elif tables and not tables >= OUR_TABLES:
        missing = ", ".join(sorted(OUR_TABLES - tables))
        raise SchemaProblem(f"lacks tricktable's table {missing}: it was damaged or edited")
    return current != {script.get_current_head()}


def is_empty(connection: Connection) -> bool:
    """Whether ``connection``'s database holds no table at all (a new file, a new database)."""
    return not inspect(connection).get_table_names()


def upgrade(connection: Connection) -> None:
    """Check ``connection``'s database is tricktable's (or empty) and upgrade it to the head.

    Runs inside the caller's transaction; raises :class:`SchemaProblem` for a database that is
    not ours or is newer than this code.
    """
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK})
    if check(connection):
        config = alembic_config()
        config.attributes["connection"] = connection
        with _ALEMBIC:
            command.upgrade(config, "head")
