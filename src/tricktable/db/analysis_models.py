"""The replay's analyses and uploaded records (issue 28 item 7), as models on the one
:class:`~tricktable.db.models.Base` (migration 0005 makes them; ``tests/test_store.py``
checks the two agree). Kept apart from ``models.py`` so that the web's analysis owns its
tables; ``db/schema.py`` imports this module, so its ``METADATA`` holds them wherever the
schema is read.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from tricktable.db.models import Base


class UploadedRecord(Base):
    """A match record someone uploaded, checked by replay: ``id`` is the unguessable name
    its replay's address holds; ``record`` the record as JSON text (read whole)."""

    __tablename__ = "uploaded_record"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    uploader: Mapped[int] = mapped_column(ForeignKey("web_user.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(60))
    record: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MatchAnalysis(Base):
    """The analysis of one finished match: a web table's (``table_id``, ``match_no``) or an
    uploaded record's (``upload_id``). ``status`` is ``queued``, ``running``, ``done`` or
    ``failed`` (``error`` says why); ``options`` the search's budget, as JSON text."""

    __tablename__ = "match_analysis"
    __table_args__ = (UniqueConstraint("table_id", "match_no"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("web_table.id", ondelete="CASCADE"))
    match_no: Mapped[int | None] = mapped_column(Integer)
    upload_id: Mapped[str | None] = mapped_column(
        ForeignKey("uploaded_record.id", ondelete="CASCADE"), unique=True
    )
    status: Mapped[str] = mapped_column(String(12))
    options: Mapped[str] = mapped_column(Text)
    error: Mapped[str | None] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class AnalysisMark(Base):
    """One decision analysed: hand ``hand`` (0 is the first), its ``idx``-th action, the
    replay's ``step`` after it, the action played and the best one (the record's notation),
    the loss (double-dummy where solved, else the search's), both losses, and the search's
    estimate of its own choice (points for the seat's side)."""

    __tablename__ = "analysis_mark"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    analysis_id: Mapped[int] = mapped_column(
        ForeignKey("match_analysis.id", ondelete="CASCADE"), index=True
    )
    hand: Mapped[int] = mapped_column(Integer)
    idx: Mapped[int] = mapped_column(Integer)
    step: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(64))
    best: Mapped[str | None] = mapped_column(String(64))
    loss: Mapped[float | None] = mapped_column(Float)
    dd_loss: Mapped[int | None] = mapped_column(Integer)
    search_loss: Mapped[float | None] = mapped_column(Float)
    estimate: Mapped[float | None] = mapped_column(Float)
    mistake: Mapped[bool] = mapped_column(Boolean)
