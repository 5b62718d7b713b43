"""The replay's analyses and uploaded records (issue 28 item 7).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the uploaded_record, match_analysis and analysis_mark tables (empty: a
    match is analysed when someone asks)."""
    op.create_table(
        "uploaded_record",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("uploader", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(60), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["uploader"],
            ["web_user.id"],
            name="fk_uploaded_record_uploader_web_user",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_uploaded_record"),
    )
    op.create_index("ix_uploaded_record_uploader", "uploaded_record", ["uploader"])
    op.create_table(
        "match_analysis",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("match_no", sa.Integer(), nullable=True),
        sa.Column("upload_id", sa.String(32), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["web_table.id"],
            name="fk_match_analysis_table_id_web_table",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["upload_id"],
            ["uploaded_record.id"],
            name="fk_match_analysis_upload_id_uploaded_record",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_match_analysis"),
        # One analysis a match, whoever asks first: the POST is idempotent.
        sa.UniqueConstraint("table_id", "match_no", name="uq_match_analysis_table_id_match_no"),
        sa.UniqueConstraint("upload_id", name="uq_match_analysis_upload_id"),
    )
    op.create_table(
        "analysis_mark",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("analysis_id", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("best", sa.String(64), nullable=True),
        sa.Column("loss", sa.Float(), nullable=True),
        sa.Column("dd_loss", sa.Integer(), nullable=True),
        sa.Column("search_loss", sa.Float(), nullable=True),
        sa.Column("estimate", sa.Float(), nullable=True),
        sa.Column("mistake", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["analysis_id"],
            ["match_analysis.id"],
            name="fk_analysis_mark_analysis_id_match_analysis",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_analysis_mark"),
    )
    op.create_index("ix_analysis_mark_analysis_id", "analysis_mark", ["analysis_id"])


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_index("ix_analysis_mark_analysis_id", table_name="analysis_mark")
    op.drop_table("analysis_mark")
    op.drop_table("match_analysis")
    op.drop_index("ix_uploaded_record_uploader", table_name="uploaded_record")
    op.drop_table("uploaded_record")
