"""The players' pages' tables: finished matches summed up a seat a row, ratings kept in order.

Writing (:func:`add_matches`): a match is stored once (``profile_match`` is unique by web table
and match, and by tournament game), its seats as ``player_match`` rows
(:mod:`tricktable.analysis.profile` made them), and then the ratings of its game are brought up
to date: OpenSkill (:func:`tricktable.analysis.ratings.rate_game`), **one rating a game** (a
Setback player's rating says nothing of their Hearts), in the order the matches finished. A
match stored out of that order (the backfill of old matches, a tournament and a server writing
together) re-rates its game from that match on, so the ratings are always those of every
match taken in order (finished time, then the order stored). A match is ``pending`` until its
seats are rated; a re-rating goes :data:`CHUNK` matches a transaction (:func:`rate_pending`),
the matches still to do marked pending, so that no write holds the database for long and a
killed process leaves nothing half done. Each write is one transaction holding the
database's write lock (SQLite's ``BEGIN IMMEDIATE``, a PostgreSQL advisory lock), so two
processes rating the same players wait for each other instead of losing an update.

The pages read these tables in :mod:`tricktable.web.profile_queries`.

:func:`fill_games` sums up the tournament games not summed up yet (the hook after a batch is
stored, and the server's backfill at start: nothing to do costs one query on an index).
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import (
    Connection,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from tricktable.analysis.profile import (
    RESULTS,
    MatchSummary,
    SeatSummary,
    rated_match,
    summarize_record,
)
from tricktable.analysis.ratings import Rating, rate_game
from tricktable.db.models import Game, PlayerMatch, PlayerPair, PlayerRating, ProfileMatch
from tricktable.db.rows import utc
from tricktable.db.store import Store, StoreError
from tricktable.errors import TricktableError

#: a PostgreSQL advisory lock's key: one writer of the ratings at a time (any fixed number)
_PG_LOCK: Final = 0x7072_6F66_696C
#: ids in one ``IN (...)`` (SQLite allows some thousands of parameters)
_CHUNK: Final = 500
#: matches rated a transaction at most: a write holds the database a fraction of a second
CHUNK: Final = 200
#: a match's statuses: its seats rated, or still to (re)rate
RATED, PENDING = "rated", "pending"


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A finished match to store: a web table's match (``table_id``, ``match_no``) or a
    tournament's game (``game_id``), when it finished, and its summary. None for one that
    never ended (``status`` ``unfinished``) or whose record does not replay (``unread``),
    kept so as not to read it again; ``game`` names its game then, as far as it is known."""

    finished: datetime
    summary: MatchSummary | None
    game: str = ""
    game_id: int | None = None
    table_id: str | None = None
    match_no: int | None = None
    status: str = "unfinished"


# ---------------------------------------------------------------------------------- writing


@contextmanager
def _writing(store: Store, doing: str) -> Iterator[Connection]:
    """One transaction holding the write lock; a database error is one StoreError line."""
    writer = store.engine.execution_options(tricktable_writes=True)  # BEGIN IMMEDIATE
    try:
        with writer.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK})")
            yield connection
    except (SQLAlchemyError, OSError) as exc:
        raise StoreError(f"{store.where}: {doing}: {_reason(exc)}") from exc


@contextmanager
def reading(store: Store, doing: str) -> Iterator[Connection]:
    """A connection to read ``store`` with; a database error is one StoreError line."""
    try:
        with store.engine.connect() as connection:
            yield connection
    except (SQLAlchemyError, OSError) as exc:
        raise StoreError(f"{store.where}: {doing}: {_reason(exc)}") from exc


def add_matches(store: Store, matches: Sequence[NewMatch], *, rate: bool = True) -> int:
    """Store the matches not stored yet, in one transaction; how many were new (a match
    already there is skipped). ``rate``: bring their games' ratings up to date in it too (at
    most :data:`CHUNK` matches rated: a long re-rating goes on in :func:`rate_pending`);
    otherwise they wait, ``pending``, for :func:`rate_pending` (the backfill's way: many
    batches, one re-rating)."""
    if not matches:
        return 0
    with _writing(store, "cannot store the players' matches") as c:
        fresh = _not_stored(c, matches)
        if not fresh:
            return 0
        rows = [_match_values(m) for m in fresh]
        # One statement for them all, the ids back in the order given.
        ids = list(c.scalars(_ADD_MATCH, rows))
        seats: list[dict[str, Any]] = []
        for m, row, mid in zip(fresh, rows, ids, strict=True):
            if m.summary is not None:
                hands = m.summary.hands
                seats += [
                    _seat_values(mid, row["game"], row["finished"], hands, s)
                    for s in m.summary.seats
                ]
        if seats:
            c.execute(_ADD_SEAT, seats)
            _count_pairs(c, [m.summary for m in fresh if m.summary is not None])
        if rate:
            for game in sorted({row["game"] for row in rows if row["status"] == PENDING}):
                _rate_chunk(c, game, CHUNK)
    return len(fresh)


def rate_pending(store: Store, stop: Callable[[], bool] | None = None, most: int = CHUNK) -> bool:
    """Rate the pending matches of every game, ``most`` a transaction (so that no write holds
    the database long), until none is left or ``stop()``; whether some are left. With none,
    one query on an index."""
    while stop is None or not stop():
        query = select(ProfileMatch.game).where(ProfileMatch.status == PENDING).limit(1)
        with reading(store, "cannot read the players' matches") as c:
            game = c.scalar(query)
        if game is None:
            return False
        with _writing(store, "cannot rate the players' matches") as c:
            _rate_chunk(c, game, most)
    return True


_ADD_MATCH: Final = insert(ProfileMatch).returning(ProfileMatch.id, sort_by_parameter_order=True)
_ADD_SEAT: Final = insert(PlayerMatch)


def _match_values(m: NewMatch) -> dict[str, Any]:
    summary = m.summary
    return {
        "source": "web" if m.table_id is not None else "tournament",
        "game_id": m.game_id,
        "table_id": m.table_id,
        "match_no": m.match_no,
        "game": (summary.game if summary is not None else m.game)[:60],
        "finished": utc(m.finished),
        "hands": summary.hands if summary is not None else 0,
        "status": PENDING if summary is not None else m.status,
    }


def _not_stored(c: Connection, matches: Sequence[NewMatch]) -> list[NewMatch]:
    """Those of ``matches`` not stored yet (nor twice in the list)."""
    games = sorted({m.game_id for m in matches if m.game_id is not None})
    tables = sorted({m.table_id for m in matches if m.table_id is not None})
    seen: set[tuple[Any, ...]] = set()
    for part in _chunks(games):
        stored = select(ProfileMatch.game_id).where(ProfileMatch.game_id.in_(part))
        seen.update(("g", gid) for gid in c.scalars(stored))
    for part in _chunks(tables):
        pairs = select(ProfileMatch.table_id, ProfileMatch.match_no).where(
            ProfileMatch.table_id.in_(part)
        )
        seen.update(("t", t, n) for t, n in c.execute(pairs))
    fresh = []
    for m in matches:
        key = ("g", m.game_id) if m.game_id is not None else ("t", m.table_id, m.match_no)
        if key not in seen:
            seen.add(key)
            fresh.append(m)
    return fresh


def _seat_values(
    mid: int, game: str, finished: datetime, hands: int, s: SeatSummary
) -> dict[str, Any]:
    return {
        "match_id": mid,
        "player": s.player[:200],
        "name": s.name[:200],
        "game": game[:60],
        "finished": finished,
        "seat": s.seat,
        "side": s.side,
        "result": s.result,
        "hands": hands,
        "points_for": s.points_for,
        "points_against": s.points_against,
        "bids_made": s.bids_made,
        "bids_set": s.bids_set,
        "mu": None,
        "sigma": None,
    }


def pairs(summaries: Sequence[MatchSummary]) -> dict[tuple[str, str, int], list[Any]]:
    """Who met whom in ``summaries``: ``(player, other, partner)`` -> ``[other's name,
    matches, won, lost, drawn]`` (``player``'s results), a match counted once a pair (a bot
    on two seats of one match is met once as a partner, once as a rival at most)."""
    out: dict[tuple[str, str, int], list[Any]] = {}
    for summary in summaries:
        met: set[tuple[str, str, int]] = set()
        for s in summary.seats:
            for o in summary.seats:
                key = (s.player, o.player, int(o.side == s.side))
                if o.player == s.player or key in met:
                    continue
                met.add(key)
                entry = out.setdefault(key, [o.name, 0, 0, 0, 0])
                entry[0] = shown_name(o.player, o.name)
                entry[1] += 1
                entry[2 + RESULTS.index(s.result)] += 1
    return out


def shown_name(player: str, name: str) -> str:
    """A seat's label as a page lists the player: a bot's or a character's without the
    number that told two of them apart at one table ("Seasoned bot 2")."""
    if player.startswith(("bot:", "character:")):
        head, _, tail = name.rpartition(" ")
        if head and tail.isdigit():
            return head
    return name


def _count_pairs(c: Connection, summaries: Sequence[MatchSummary]) -> None:
    """Add ``summaries``' meetings to ``player_pair`` (in the transaction that stores them:
    once each, as they are)."""
    found = pairs(summaries)
    if not found:
        return
    dialect = sqlite if c.dialect.name == "sqlite" else postgresql
    statement = dialect.insert(PlayerPair)
    given = statement.excluded
    statement = statement.on_conflict_do_update(
        index_elements=["player", "other", "partner"],
        set_={
            "name": given.name,
            "matches": PlayerPair.matches + given.matches,
            "won": PlayerPair.won + given.won,
            "lost": PlayerPair.lost + given.lost,
            "drawn": PlayerPair.drawn + given.drawn,
        },
    )
    rows = [
        {
            "player": player[:200],
            "other": other[:200],
            "partner": partner,
            "name": name[:200],
            "matches": n,
            "won": won,
            "lost": lost,
            "drawn": drawn,
        }
        for (player, other, partner), (name, n, won, lost, drawn) in found.items()
    ]
    c.execute(statement, rows)


@functools.lru_cache(maxsize=256)
def lower_wins(game: str) -> bool:
    """Whether the lower score wins ``game`` (a game this code does not know: no)."""
    from tricktable.games import load_game

    try:
        return bool(type(load_game(game)).lower_wins)
    except (TricktableError, ValueError):
        return False


def _rate_chunk(c: Connection, game: str, most: int) -> None:
    """Rate ``game``'s first ``most`` pending matches in the order they finished, from each
    player's rating before the first of them; store each seat's rating after its match and
    every player's rating now. Every match after the first pending one is rated again (its
    players' ratings before it may change): marked pending first, so that what one
    transaction leaves — or a process killed between two — is still to do."""
    pending = (ProfileMatch.status == PENDING, ProfileMatch.game == game)
    order = (ProfileMatch.finished, ProfileMatch.id)
    head = c.execute(select(*order).where(*pending).order_by(*order).limit(1)).first()
    if head is None:
        return
    finished, first = head
    after = or_(
        ProfileMatch.finished > finished,
        and_(ProfileMatch.finished == finished, ProfileMatch.id > first),
    )
    again = (ProfileMatch.status == RATED, ProfileMatch.game == game, after)
    c.execute(update(ProfileMatch).where(*again).values(status=PENDING))
    ids = list(c.scalars(select(ProfileMatch.id).where(*pending).order_by(*order).limit(most)))
    seats: dict[int, list[Any]] = defaultdict(list)
    cols = (
        PlayerMatch.id,
        PlayerMatch.match_id,
        PlayerMatch.player,
        PlayerMatch.name,
        PlayerMatch.side,
        PlayerMatch.result,
        PlayerMatch.points_for,
        PlayerMatch.finished,
    )
    for part in _chunks(ids):
        for row in c.execute(select(*cols).where(PlayerMatch.match_id.in_(part))):
            seats[row.match_id].append(row)
    players = sorted({row.player for rows in seats.values() for row in rows})
    current = {p: r for p in players if (r := _before(c, p, game, finished, first)) is not None}
    lower = lower_wins(game)
    updates: list[dict[str, Any]] = []
    names: dict[str, tuple[str, datetime]] = {}
    for mid in ids:
        rows = seats.get(mid, [])
        rated = rated_match([(r.player, r.side, r.result, r.points_for) for r in rows], lower)
        if rated is not None:
            slots = rated.players
            known = {i: current[p] for i, p in enumerate(slots) if p in current}
            for slot, rating in rate_game(rated.game, known).items():
                if slots[slot] not in rated.fixed:
                    current[slots[slot]] = rating
        for r in rows:
            now = current.get(r.player) if rated is not None else None
            updates.append(
                {
                    "row": r.id,
                    "mu": now.mu if now is not None else None,
                    "sigma": now.sigma if now is not None else None,
                }
            )
            names[r.player] = (r.name, r.finished)
    if updates:
        c.execute(
            update(PlayerMatch)
            .where(PlayerMatch.id == bindparam("row"))
            .values(mu=bindparam("mu"), sigma=bindparam("sigma")),
            updates,
        )
    for part in _chunks(ids):
        c.execute(update(ProfileMatch).where(ProfileMatch.id.in_(part)).values(status=RATED))
    _keep_ratings(c, game, players, current, names)


def _before(c: Connection, player: str, game: str, finished: datetime, first: int) -> Rating | None:
    """``player``'s rating in ``game`` just before the match ``first`` (None: not rated)."""
    query = (
        select(PlayerMatch.mu, PlayerMatch.sigma)
        .where(
            PlayerMatch.player == player,
            PlayerMatch.game == game,
            PlayerMatch.mu.is_not(None),
            or_(
                PlayerMatch.finished < finished,
                and_(PlayerMatch.finished == finished, PlayerMatch.match_id < first),
            ),
        )
        .order_by(PlayerMatch.finished.desc(), PlayerMatch.match_id.desc())
        .limit(1)
    )
    row = c.execute(query).first()
    return None if row is None else Rating(float(row.mu), float(row.sigma))


def _keep_ratings(
    c: Connection,
    game: str,
    players: Sequence[str],
    current: Mapping[str, Rating],
    names: Mapping[str, tuple[str, datetime]],
) -> None:
    """Write ``players``' ratings in ``game`` now (what the standings read)."""
    counts: dict[str, tuple[int, datetime]] = {}
    for part in _chunks(list(players)):
        query = (
            select(PlayerMatch.player, func.count(), func.max(PlayerMatch.finished))
            .where(PlayerMatch.player.in_(part), PlayerMatch.game == game)
            .group_by(PlayerMatch.player)
        )
        counts.update((p, (int(n), last)) for p, n, last in c.execute(query))
        c.execute(
            delete(PlayerRating).where(PlayerRating.game == game, PlayerRating.player.in_(part))
        )
    rows = [
        {
            "player": p,
            "game": game,
            "name": names[p][0],
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal,
            "matches": counts.get(p, (0, names[p][1]))[0],
            "last": utc(counts.get(p, (0, names[p][1]))[1]),
        }
        for p, r in current.items()
        if p in names
    ]
    if rows:
        c.execute(insert(PlayerRating), rows)


# ------------------------------------------------------------------------------ tournaments


def fill_games(
    store: Store,
    tournament_id: int | None = None,
    batch: int = 50,
    stop: Callable[[], bool] | None = None,
    *,
    quiet: bool = False,
    rate: bool = True,
) -> int:
    """Sum up the tournament games (of ``tournament_id``, or all) that are not yet, ``batch``
    a transaction, until none is left or ``stop()``; how many were summed up.

    ``quiet``: a database error stops it without a word (a tournament plays on: its games
    are summed up by the next fill, the server's at its start) instead of a StoreError.
    ``rate``: as :func:`add_matches`'s.
    """
    try:
        return _fill_games(store, tournament_id, batch, stop, rate)
    except StoreError:
        if not quiet:
            raise
        return 0


def _fill_games(
    store: Store,
    tournament_id: int | None,
    batch: int,
    stop: Callable[[], bool] | None,
    rate: bool,
) -> int:
    done = 0
    while stop is None or not stop():
        query = (
            select(Game.id)
            .outerjoin(ProfileMatch, ProfileMatch.game_id == Game.id)
            .where(ProfileMatch.id.is_(None))
            .order_by(Game.id)
            .limit(batch)
        )
        if tournament_id is not None:
            query = query.where(Game.tournament_id == tournament_id)
        with reading(store, "cannot read the tournaments' games") as c:
            ids = list(c.scalars(query))
            if not ids:
                break
            rows = c.execute(
                select(Game.id, Game.record, Game.finished_at).where(Game.id.in_(ids))
            ).all()
        matches = [_game_match(r.id, r.record, r.finished_at) for r in rows]
        done += add_matches(store, matches, rate=rate)
        if len(ids) < batch:
            break
    return done


def _game_match(gid: int, text: str, finished: datetime) -> NewMatch:
    """A tournament game's match: its record summed up, or marked unread."""
    try:
        record = json.loads(text)
        if not isinstance(record, dict):
            raise ValueError("not an object")
        summary = summarize_record(record)
    except (TricktableError, ValueError, RecursionError, TypeError, KeyError):
        return NewMatch(finished, None, game="?", game_id=gid, status="unread")
    return NewMatch(finished, summary, game_id=gid)


# ---------------------------------------------------------------------------------- helpers


def _chunks(items: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def now() -> datetime:
    """The time a match finishing now is stored with."""
    return datetime.now(UTC)


def _reason(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).splitlines()
    return (text[0] if text else type(exc).__name__)[:120]


__all__ = [
    "NewMatch",
    "add_matches",
    "fill_games",
    "lower_wins",
    "now",
    "pairs",
    "rate_pending",
    "reading",
    "shown_name",
]
