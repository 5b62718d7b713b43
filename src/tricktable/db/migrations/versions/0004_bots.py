"""Bots of the web server's accounts (issue 28 item 2): who owns each, how it plays, its token.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the web_bot table."""
    op.create_table(
        "web_bot",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("endpoint", sa.Text(), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["web_user.id"], name="fk_web_bot_user_id_web_user", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["owner"], ["web_user.id"], name="fk_web_bot_owner_web_user", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_web_bot"),
        sa.UniqueConstraint("user_id", name="uq_web_bot_user_id"),
        sa.UniqueConstraint("token_hash", name="uq_web_bot_token_hash"),
    )
    op.create_index("ix_web_bot_owner", "web_bot", ["owner"])


def downgrade() -> None:
    """Drop the web_bot table."""
    op.drop_index("ix_web_bot_owner", table_name="web_bot")
    op.drop_table("web_bot")
