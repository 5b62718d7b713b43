"""Leagues: seasons, divisions, teams, duplicate nights, their tables and results (issue 28
item 6).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fk(table: str, column: str, target: str, ondelete: str = "CASCADE") -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], name=f"fk_{table}_{column}_{target}", ondelete=ondelete
    )


def _uq(table: str, *columns: str) -> sa.UniqueConstraint:
    return sa.UniqueConstraint(*columns, name=f"uq_{table}_{'_'.join(columns)}")


def upgrade() -> None:
    """Create the league tables (empty)."""
    op.create_table(
        "league",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("game", sa.String(60), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("owner", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        _fk("league", "owner", "web_user"),
        sa.PrimaryKeyConstraint("id", name="pk_league"),
        _uq("league", "name"),
    )
    op.create_index("ix_league_owner", "league", ["owner"])
    op.create_table(
        "league_season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        _fk("league_season", "league_id", "league"),
        sa.PrimaryKeyConstraint("id", name="pk_league_season"),
        _uq("league_season", "league_id", "number"),
    )
    op.create_table(
        "league_division",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        _fk("league_division", "season_id", "league_season"),
        sa.PrimaryKeyConstraint("id", name="pk_league_division"),
        _uq("league_division", "season_id", "level"),
    )
    op.create_table(
        "league_team",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("members", sa.Text(), nullable=False),
        _fk("league_team", "division_id", "league_division"),
        sa.PrimaryKeyConstraint("id", name="pk_league_team"),
        _uq("league_team", "division_id", "name"),
    )
    op.create_table(
        "league_fixture",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("night", sa.Integer(), nullable=False),
        sa.Column("date", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        _fk("league_fixture", "division_id", "league_division"),
        _fk("league_fixture", "tournament_id", "tournament", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_league_fixture"),
        _uq("league_fixture", "division_id", "night"),
    )
    op.create_table(
        "league_night_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("fixture_id", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("teams", sa.Text(), nullable=False),
        _fk("league_night_table", "fixture_id", "league_fixture"),
        sa.PrimaryKeyConstraint("id", name="pk_league_night_table"),
        _uq("league_night_table", "fixture_id", "table_no"),
    )
    op.create_table(
        "league_result",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("fixture_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        _fk("league_result", "fixture_id", "league_fixture"),
        _fk("league_result", "team_id", "league_team"),
        sa.PrimaryKeyConstraint("id", name="pk_league_result"),
        _uq("league_result", "fixture_id", "team_id"),
    )


def downgrade() -> None:
    """Drop the league tables."""
    for table in (
        "league_result",
        "league_night_table",
        "league_fixture",
        "league_team",
        "league_division",
        "league_season",
    ):
        op.drop_table(table)
    op.drop_index("ix_league_owner", table_name="league")
    op.drop_table("league")
