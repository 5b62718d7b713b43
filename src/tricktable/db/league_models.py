"""Leagues (issue 28 item 6), as models on the one :class:`~tricktable.db.models.Base`
(migrations 0006 and 0007 make them; ``tests/test_store.py`` checks the two agree). Kept apart from
``models.py``; ``db/schema.py`` imports this module so that its ``METADATA`` holds them.

A league has seasons; a season divisions (level 1 the top); a division teams. A fixture is
one duplicate night of a division: every team plays, every table the same deals (``seed``).
The night's games are stored as a tournament's (``tournament_id``: records, seats, results,
replayable as any other); ``league_night_table`` says which teams met at which table, and
``league_result`` each team's duplicate score of the night.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from tricktable.db.models import Base


class League(Base):
    """A league: its name, the game it plays, deals a night, the account that runs it, and
    the interval between nights the server plays by itself."""

    __tablename__ = "league"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    game: Mapped[str] = mapped_column(String(60))
    deals: Mapped[int] = mapped_column(Integer)
    owner: Mapped[int] = mapped_column(ForeignKey("web_user.id", ondelete="CASCADE"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: seconds between a season's nights when the server plays them by itself (else none)
    every: Mapped[int | None] = mapped_column(Integer, nullable=True)


class LeagueSeason(Base):
    """A season of a league (numbered from 1); ``status``: open, scheduled, closed."""

    __tablename__ = "league_season"
    __table_args__ = (UniqueConstraint("league_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20))


class LeagueDivision(Base):
    """A division of a season: ``level`` 1 is the top."""

    __tablename__ = "league_division"
    __table_args__ = (UniqueConstraint("season_id", "level"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("league_season.id", ondelete="CASCADE"))
    level: Mapped[int] = mapped_column(Integer)


class LeagueTeam(Base):
    """A team of a division: a name and its members (JSON text: a list of player specs —
    tricktable's bots and characters — or ``user:NAME`` for an account's person)."""

    __tablename__ = "league_team"
    __table_args__ = (UniqueConstraint("division_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("league_division.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(80))
    members: Mapped[str] = mapped_column(Text)


class LeagueFixture(Base):
    """A night of a division: its number, the seed of its deals, its status (scheduled,
    playing, played, failed), the tournament its games are stored under, when the server
    plays it (``due``; none: by hand) and when it was played (``date``)."""

    __tablename__ = "league_fixture"
    __table_args__ = (UniqueConstraint("division_id", "night"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("league_division.id", ondelete="CASCADE"))
    night: Mapped[int] = mapped_column(Integer)
    date: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    due: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(20))
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament.id", ondelete="SET NULL"), nullable=True
    )


class LeagueNightTable(Base):
    """A table of a night: the team ids it seats, side by side (JSON text)."""

    __tablename__ = "league_night_table"
    __table_args__ = (UniqueConstraint("fixture_id", "table_no"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    fixture_id: Mapped[int] = mapped_column(ForeignKey("league_fixture.id", ondelete="CASCADE"))
    table_no: Mapped[int] = mapped_column(Integer)
    teams: Mapped[str] = mapped_column(Text)


class LeagueResult(Base):
    """A team's night: deals it played and its mean duplicate score over them."""

    __tablename__ = "league_result"
    __table_args__ = (UniqueConstraint("fixture_id", "team_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    fixture_id: Mapped[int] = mapped_column(ForeignKey("league_fixture.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("league_team.id", ondelete="CASCADE"))
    deals: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
