"""Players' pages (issue 28): every finished match a row a seat, ratings, partners and rivals.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


#: a player's rows in order by game, with all a page counts (tricktable.db.models' twin)
COVERING = (
    "player",
    "game",
    "finished",
    "match_id",
    "side",
    "result",
    "hands",
    "points_for",
    "points_against",
    "bids_made",
    "bids_set",
    "mu",
    "sigma",
)


def upgrade() -> None:
    """Create the profile_match, player_match, player_rating and player_pair tables.

    They start empty: the server fills them from the matches already played when it starts
    (tricktable.web.profiles' backfill), so this migration reads no record.
    """
    op.create_table(
        "profile_match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(12), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("match_no", sa.Integer(), nullable=True),
        sa.Column("game", sa.String(60), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name="fk_profile_match_game_id_game", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["web_table.id"],
            name="fk_profile_match_table_id_web_table",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_profile_match"),
        # A match is summed up once, whichever of the hook and the backfill comes first.
        sa.UniqueConstraint("game_id", name="uq_profile_match_game_id"),
        sa.UniqueConstraint("table_id", "match_no", name="uq_profile_match_table_id_match_no"),
    )
    # The ratings are updated a game at a time in the order matches finished, those still to
    # (re)rate first found by their status.
    op.create_index(
        "ix_profile_match_status_game_finished", "profile_match", ["status", "game", "finished"]
    )
    op.create_table(
        "player_match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("game", sa.String(60), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(5), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("points_for", sa.Integer(), nullable=False),
        sa.Column("points_against", sa.Float(), nullable=False),
        sa.Column("bids_made", sa.Integer(), nullable=True),
        sa.Column("bids_set", sa.Integer(), nullable=True),
        sa.Column("mu", sa.Float(), nullable=True),
        sa.Column("sigma", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["profile_match.id"],
            name="fk_player_match_match_id_profile_match",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_player_match"),
        # Also the index a match's other seats (partners, rivals) are found by.
        sa.UniqueConstraint("match_id", "seat", name="uq_player_match_match_id_seat"),
    )
    # A player's page by game (counts, rating history) and a rating just before a match read
    # this one alone, never the table (it covers what they read), and across games (recent
    # matches) the second.
    op.create_index("ix_player_match_player_game_finished", "player_match", list(COVERING))
    op.create_index(
        "ix_player_match_player_finished_match_id",
        "player_match",
        ["player", "finished", "match_id"],
    )
    op.create_table(
        "player_rating",
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("game", sa.String(60), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("last", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player", "game", name="pk_player_rating"),
    )
    # The standings of a game, best first.
    op.create_index("ix_player_rating_game_ordinal", "player_rating", ["game", "ordinal"])
    op.create_table(
        "player_pair",
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("other", sa.String(200), nullable=False),
        sa.Column("partner", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("drawn", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("player", "other", "partner", name="pk_player_pair"),
    )
    # A player's most frequent partners, and rivals, first.
    op.create_index(
        "ix_player_pair_player_partner_matches", "player_pair", ["player", "partner", "matches"]
    )


def downgrade() -> None:
    """Drop the four tables."""
    for name in ("player_pair", "player_rating", "player_match", "profile_match"):
        op.drop_table(name)
