"""The web server's people, sessions, tables, their journals and its settings (issue 20).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the web_user, web_session, web_table, web_journal and web_setting tables."""
    op.create_table(
        "web_user",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("name_key", sa.String(100), nullable=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("password", sa.Text(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_web_user"),
        sa.UniqueConstraint("name_key", name="uq_web_user_name_key"),
    )
    op.create_table(
        "web_session",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["web_user.id"], name="fk_web_session_user_id_web_user", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_web_session"),
    )
    op.create_table(
        "web_table",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("creator", sa.Integer(), nullable=True),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_web_table"),
    )
    op.create_table(
        "web_journal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("steps", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["web_table.id"],
            name="fk_web_journal_table_id_web_table",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_web_journal"),
        sa.UniqueConstraint("table_id", "seq", name="uq_web_journal_table_id_seq"),
    )
    op.create_table(
        "web_setting",
        sa.Column("key", sa.String(40), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_web_setting"),
    )


def downgrade() -> None:
    """Drop the web server's tables."""
    for name in ("web_setting", "web_journal", "web_table", "web_session", "web_user"):
        op.drop_table(name)
