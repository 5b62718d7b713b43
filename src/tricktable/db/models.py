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
    Boolean,
    DateTime,
    Float,
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


# -- the web server's tables (issue 20): people, their sessions, tables and their journals ---


class WebUser(Base):
    """A person at the web server: a guest (a name only) or an account (a name and a
    password's argon2 hash). Accounts' names are unique (``name_key``, the name folded);
    guests' are not, and their ``name_key`` is null."""

    __tablename__ = "web_user"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str | None] = mapped_column(String(100), unique=True)
    kind: Mapped[str] = mapped_column(String(10))
    password: Mapped[str | None] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class WebSession(Base):
    """A signed-in browser: the random id its signed cookie names, its CSRF token, its expiry."""

    __tablename__ = "web_session"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("web_user.id", ondelete="CASCADE"))
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class WebTable(Base):
    """A table of the web server: its settings, who sits where, and its match's seed.

    ``settings`` and ``seats`` are JSON text; ``seed`` and ``nonce`` are secret until the
    match is over (``commitment`` is their public SHA-256). The table's play is its journal.
    """

    __tablename__ = "web_table"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    creator: Mapped[int | None] = mapped_column(Integer)
    settings: Mapped[str] = mapped_column(Text)
    seats: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(10))
    match_no: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(40))
    nonce: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    #: the fencing token of the server process that owns the table now (many processes,
    #: docs/deploy.md): raised by each new owner, and checked by every append of the
    #: journal in its own transaction, so a former owner's rows are refused
    epoch: Mapped[int] = mapped_column(Integer, server_default="0", default=0)


class WebJournal(Base):
    """One change of a web table's match (a deal, actions, chat lines), in order: ``seq`` is
    the table's version after it. ``steps`` is JSON text; the journal is the match."""

    __tablename__ = "web_journal"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("web_table.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    match_no: Mapped[int] = mapped_column(Integer)
    steps: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class WebSetting(Base):
    """A value the web server keeps between runs (the secret that signs its cookies)."""

    __tablename__ = "web_setting"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class WebBot(Base):
    """A bot of an account's (issue 28 item 2): ``kind`` ``websocket`` (it connects with a
    token: ``token_hash`` is the SHA-256 of it), ``http`` (``endpoint`` its URL) or ``program``
    (``endpoint`` its command, JSON; the operator's alone: ``owner`` null). At tables it is the
    ``web_user`` row ``user_id`` (an account that cannot sign in: no password), so its name is
    unique among accounts' and its seats are keyed as an account's on the players' pages. A
    deleted bot is ``revoked``: its row and name stay, its matches keep naming it."""

    __tablename__ = "web_bot"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("web_user.id", ondelete="CASCADE"), unique=True)
    owner: Mapped[int | None] = mapped_column(
        ForeignKey("web_user.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(10))
    endpoint: Mapped[str | None] = mapped_column(Text)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked: Mapped[bool] = mapped_column(Boolean)


# -- players' pages (issue 28): a summary row a seat of every finished match, and ratings ----


class ProfileMatch(Base):
    """A finished match summed up for the players' pages: a web table's match
    (``table_id``, ``match_no``) or a tournament's game (``game_id``), once each.

    ``game`` is the record's game (the rating's pool: one rating a game); ``status`` is
    ``rated``; ``pending`` while its seats' ratings are to be (re)computed; ``unfinished`` for a
    match that never ended (a table closed mid-match) or ``unread`` for a record that does not
    replay, kept so that the backfill does not read it again.
    """

    __tablename__ = "profile_match"
    __table_args__ = (
        UniqueConstraint("game_id"),
        UniqueConstraint("table_id", "match_no"),
        # The ratings are updated a game at a time in the order matches finished, those
        # still to (re)rate (``pending``) first found by their status.
        Index("ix_profile_match_status_game_finished", "status", "game", "finished"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    source: Mapped[str] = mapped_column(String(12))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    table_id: Mapped[str | None] = mapped_column(ForeignKey("web_table.id", ondelete="CASCADE"))
    match_no: Mapped[int | None] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(60))
    finished: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    hands: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12))


class PlayerMatch(Base):
    """One seat of one finished match: who sat there (``player``, a key such as
    ``account:ann``, ``bot:club`` or ``character:edna``; ``name``, the seat's label), the
    result, points, bids and the player's rating in ``game`` after the match.

    ``game`` and ``finished`` repeat the match's, so that a player's pages read one index.
    ``bids_made`` and ``bids_set`` are null in a game without bids; ``mu`` and ``sigma`` null
    where the match rated nobody (one side only).
    """

    __tablename__ = "player_match"
    __table_args__ = (
        UniqueConstraint("match_id", "seat"),
        # A player's page reads this index alone (it holds every column the counts, the
        # rating's history and a rating before a match need), never the table.
        Index(
            "ix_player_match_player_game_finished",
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
        ),
        Index("ix_player_match_player_finished_match_id", "player", "finished", "match_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("profile_match.id", ondelete="CASCADE"))
    player: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(200))
    game: Mapped[str] = mapped_column(String(60))
    finished: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seat: Mapped[int] = mapped_column(Integer)
    side: Mapped[int] = mapped_column(Integer)
    #: "won", "lost" or "drawn"
    result: Mapped[str] = mapped_column(String(5))
    hands: Mapped[int] = mapped_column(Integer)
    points_for: Mapped[int] = mapped_column(Integer)
    #: the other sides' points, their mean where there are several
    points_against: Mapped[float] = mapped_column(Float)
    bids_made: Mapped[int | None] = mapped_column(Integer)
    bids_set: Mapped[int | None] = mapped_column(Integer)
    mu: Mapped[float | None] = mapped_column(Float)
    sigma: Mapped[float | None] = mapped_column(Float)


class PlayerRating(Base):
    """A player's rating in one game now (what the standings sort by ``ordinal``)."""

    __tablename__ = "player_rating"
    __table_args__ = (Index("ix_player_rating_game_ordinal", "game", "ordinal"),)

    player: Mapped[str] = mapped_column(String(200), primary_key=True)
    game: Mapped[str] = mapped_column(String(60), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    last: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerPair(Base):
    """Two players met at finished matches: ``other`` as ``player``'s partner (``partner`` 1)
    or rival (0), the matches they met at and ``player``'s results there; ``name`` is how
    ``other`` was last labelled. Counted as each match is stored (its results never change),
    so that a player's partners and rivals are a few rows read, whatever their matches."""

    __tablename__ = "player_pair"
    __table_args__ = (
        Index("ix_player_pair_player_partner_matches", "player", "partner", "matches"),
    )

    player: Mapped[str] = mapped_column(String(200), primary_key=True)
    other: Mapped[str] = mapped_column(String(200), primary_key=True)
    partner: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    matches: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    lost: Mapped[int] = mapped_column(Integer)
    drawn: Mapped[int] = mapped_column(Integer)
