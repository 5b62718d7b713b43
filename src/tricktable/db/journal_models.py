"""The journal of batch matches being played (issue 28 item 1): a tournament's or a league
night's game, as its steps (:mod:`tricktable.steps`) while a worker plays it.

A web table's journal is ``web_journal``; a game of a tournament is played by a worker process
and stored whole (``game``) when it ends. Between the two, its worker appends the game's steps
here — a hand at a time, or every half second — so that the web server shows the game live
(``/tournaments/{id}/games/{unit}``) while it is played. When the game is stored its rows are
deleted (the record is the game now); a game whose worker was killed is played again from its
seed on resume (the same game: results depend on seeds alone), its rows started afresh.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from tricktable.db.models import Base


class MatchJournal(Base):
    """One flush of a game being played: ``steps`` (JSON text) follow those of ``seq - 1``."""

    __tablename__ = "match_journal"
    __table_args__ = (UniqueConstraint("tournament_id", "unit", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True
    )
    unit: Mapped[str] = mapped_column(String(100))
    seq: Mapped[int] = mapped_column(Integer)
    steps: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
