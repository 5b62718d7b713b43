"""The tournament database: SQLAlchemy models, Alembic migrations and the :class:`Store`.

See ``docs/database.md``.
"""

from tricktable.db.store import (
    EntrantInfo,
    GameRow,
    Store,
    StoredGame,
    StoreError,
    TournamentInfo,
)

__all__ = ["EntrantInfo", "GameRow", "Store", "StoreError", "StoredGame", "TournamentInfo"]
