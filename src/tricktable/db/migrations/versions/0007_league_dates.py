"""Leagues' dates: a league's interval between nights and each night's due time, for the
nights the server plays by itself (issue 28 item 6).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``league.every`` and ``league_fixture.due`` (both empty: nights played by hand)."""
    # batch mode: SQLite alters a table by copying it, which Alembic does only in a batch
    with op.batch_alter_table("league") as batch:
        batch.add_column(sa.Column("every", sa.Integer(), nullable=True))
    with op.batch_alter_table("league_fixture") as batch:
        batch.add_column(sa.Column("due", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_league_fixture_due", "league_fixture", ["due"])


def downgrade() -> None:
    """Drop the two columns."""
    op.drop_index("ix_league_fixture_due", table_name="league_fixture")
    with op.batch_alter_table("league_fixture") as batch:
        batch.drop_column("due")
    with op.batch_alter_table("league") as batch:
        batch.drop_column("every")
