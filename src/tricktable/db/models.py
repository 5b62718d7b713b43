"""The tables of the tournament database, as typed SQLAlchemy 2 models.

JSON documents (a tournament's spec, a game's seats, result, faults and its full match record)
are stored as JSON text, not as a database JSON type: the record is written once and read whole,
both backends store text the same way, and a dump of the database is readable anywhere.

The schema itself is made by the Alembic migrations of ``tricktable.db.migrations``; these
models say what the code expects, and ``tests/test_store.py`` checks that the two agree.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: constraint names spelled out, so that later migrations can name what they alter
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """The declarative base of every tricktable table."""

    metadata = MetaData(naming_convention=NAMING)


class Tournament(Base):
    """A tournament: its name, when it was created, what it plays (``spec``) and its status."""

    __tablename__ = "tournament"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: JSON text: the game spec, entrants, format, number of deals, seed and options
    spec: Mapped[str] = mapped_column(Text)
    #: "running", "finished", "stopped"... (free text: the tournament runner decides)
    status: Mapped[str] = mapped_column(String(20))


class Entrant(Base):
    """A player entered in a tournament: its name there and its player spec (``heuristic``,
    ``cmd:./bot``, ``http://...``)."""

    __tablename__ = "entrant"
    __table_args__ = (UniqueConstraint("tournament_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    spec: Mapped[str] = mapped_column(Text)


class Game(Base):
    """One table's play of one unit of a tournament: a deal at one table, or a whole match.

    ``unit`` names it within its tournament (``d17/t1``) and is unique there: a tournament that
    resumes skips the units already stored, and storing one twice is a no-op, so no game is ever
    counted twice.
    """

    __tablename__ = "game"
    __table_args__ = (
        UniqueConstraint("tournament_id", "unit"),
        Index("ix_game_tournament_id_round_no_table_no", "tournament_id", "round_no", "table_no"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    unit: Mapped[str] = mapped_column(String(100))
    #: the round (duplicate: the deal's number; round robin: the pairing's)
    round_no: Mapped[int] = mapped_column(Integer)
    #: the table within the round (duplicate: 0 and 1, the partnerships swapped)
    table_no: Mapped[int] = mapped_column(Integer)
    #: JSON text: the entrant id at each seat
    seats: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: JSON text: the full match record, ``tricktable-record/1`` or ``/2``
    record: Mapped[str] = mapped_column(Text)
    #: JSON text: scores by side, each seat's score change, winner, status
    result: Mapped[str] = mapped_column(Text)
    #: JSON text: the list of faults (who, what, what it cost)
    faults: Mapped[str] = mapped_column(Text)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
