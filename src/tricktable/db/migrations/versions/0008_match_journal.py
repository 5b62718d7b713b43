"""The journal of batch matches being played: a tournament's or a league night's game, step
by step, while its worker plays it (issue 28 item 1; ``db/journal_models.py``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``match_journal`` (empty: rows exist only while games are being played)."""
    op.create_table(
        "match_journal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("unit", sa.String(100), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("steps", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name="fk_match_journal_tournament_id_tournament",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_match_journal"),
        sa.UniqueConstraint(
            "tournament_id", "unit", "seq", name="uq_match_journal_tournament_id_unit_seq"
        ),
    )
    op.create_index("ix_match_journal_tournament_id", "match_journal", ["tournament_id"])


def downgrade() -> None:
    """Drop ``match_journal`` (the games being played then are played again on resume)."""
    op.drop_index("ix_match_journal_tournament_id", table_name="match_journal")
    op.drop_table("match_journal")
