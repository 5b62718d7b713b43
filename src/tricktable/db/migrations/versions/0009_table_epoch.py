"""A web table's fencing token: the epoch of the server process that owns it, checked by every
append of its journal (issue 29: many server processes on Redis and PostgreSQL).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``web_table.epoch`` (0: no owner has claimed the table yet). Not in a batch:
    SQLite adds a column in place, and a batch would copy the table and drop the old one,
    which, its journal's rows pointing at it ``ON DELETE CASCADE``, would delete them."""
    op.add_column("web_table", sa.Column("epoch", sa.Integer(), server_default="0", nullable=False))


def downgrade() -> None:
    """Drop ``web_table.epoch`` (one process serves alone again), in place for the same
    reason (SQLite 3.35 and later drop a column without copying the table)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE web_table DROP COLUMN epoch")
    else:
        op.drop_column("web_table", "epoch")
