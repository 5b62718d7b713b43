"""Alembic's environment for the tournament database.

tricktable runs the migrations itself (:func:`tricktable.db.migrate.upgrade`) on a connection it
has opened and checked, passed in ``config.attributes["connection"]``. Run by hand, with the
``alembic`` command and a ``sqlalchemy.url`` option, it opens its own.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from tricktable.db.schema import METADATA


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=METADATA,
        # SQLite alters a table by copying it; "batch" mode writes that for later migrations.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    """Run the migrations on the connection given, or on ``sqlalchemy.url``."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("set the sqlalchemy.url option: the database to migrate")
    with create_engine(url).connect() as own:
        _migrate(own)
        own.commit()


if context.is_offline_mode():
    raise SystemExit("tricktable's migrations run online only (on a database connection)")
run()
