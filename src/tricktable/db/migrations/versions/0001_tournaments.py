"""Tournaments, their entrants and their games (each with its full match record).

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the tournament, entrant and game tables."""
    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournament"),
        sa.UniqueConstraint("name", name="uq_tournament_name"),
    )
    op.create_table(
        "entrant",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name="fk_entrant_tournament_id_tournament",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_entrant"),
        sa.UniqueConstraint("tournament_id", "name", name="uq_entrant_tournament_id_name"),
    )
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("unit", sa.String(100), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("faults", sa.Text(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name="fk_game_tournament_id_tournament",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_game"),
        # What makes a resumed tournament never count a game twice.
        sa.UniqueConstraint("tournament_id", "unit", name="uq_game_tournament_id_unit"),
    )
    op.create_index(
        "ix_game_tournament_id_round_no_table_no",
        "game",
        ["tournament_id", "round_no", "table_no"],
    )


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_table("game")
    op.drop_table("entrant")
    op.drop_table("tournament")
