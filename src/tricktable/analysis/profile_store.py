"""The players' pages' tables: finished matches summed up a seat a row, ratings kept in order.

Writing (:func:`add_matches`): a match is stored once (``profile_match`` is unique by web table
and match, and by tournament game), its seats as ``player_match`` rows
(:mod:`tricktable.analysis.profile` made them), and then the ratings of its game are brought up
to date: OpenSkill (:func:`tricktable.analysis.ratings.rate_game`), **one rating a game** (a
Setback player's rating says nothing of their Hearts), in the order the matches finished. A
match stored out of that order (the backfill of old matches, a tournament and a server writing
together) re-rates its game from that match on, so the ratings are always those of every
match taken in order (finished time, then the order stored). Each write is one transaction
holding the database's write lock (SQLite's ``BEGIN IMMEDIATE``, a PostgreSQL advisory lock),
so two processes rating the same players wait for each other instead of losing an update.

Reading (:func:`profile`, :func:`standings`): a player's page is a handful of queries, each on
an index (``player, game, finished`` for the counts and the rating's history, ``player,
finished`` for the recent matches, ``match_id, seat`` for partners and rivals, ``game,
ordinal`` for the standings): ``benchmarks/profile_speed.py`` shows the plans and the times.

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
from sqlalchemy.exc import SQLAlchemyError

from tricktable.analysis.profile import (
    MatchSummary,
    SeatSummary,
    bids_line,
    rated_match,
    record_line,
    summarize_record,
)
from tricktable.analysis.ratings import Rating, rate_game
from tricktable.db.models import Game, PlayerMatch, PlayerRating, ProfileMatch, Tournament
from tricktable.db.rows import utc
from tricktable.db.store import Store, StoreError
from tricktable.errors import TricktableError

#: a PostgreSQL advisory lock's key: one writer of the ratings at a time (any fixed number)
_PG_LOCK: Final = 0x7072_6F66_696C
#: the points of a rating's history a page draws, at most, a game
HISTORY_POINTS: Final = 200
#: partners and rivals listed, recent matches listed
TOP: Final = 5
RECENT: Final = 20
#: ids in one ``IN (...)`` (SQLite allows some thousands of parameters)
_CHUNK: Final = 500


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A finished match to store: a web table's match (``table_id``, ``match_no``) or a
    tournament's game (``game_id``), when it finished, and its summary — None for one that
    never ended or could not be read (``status`` says which), kept so as not to try again."""

    finished: datetime
    summary: MatchSummary | None
    game: str = ""
    game_id: int | None = None
    table_id: str | None = None
    match_no: int | None = None
    status: str = "rated"


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


def add_matches(store: Store, matches: Sequence[NewMatch]) -> int:
    """Store the matches not stored yet and bring their games' ratings up to date, in one
    transaction; how many were new (a match already there is skipped)."""
    if not matches:
        return 0
    with _writing(store, "cannot store the players' matches") as c:
        fresh = _not_stored(c, matches)
        since: dict[str, tuple[datetime, int]] = {}
        for m in fresh:
            summary = m.summary
            game = summary.game if summary is not None else m.game
            finished = utc(m.finished)
            mid = c.execute(
                insert(ProfileMatch)
                .values(
                    source="web" if m.table_id is not None else "tournament",
                    game_id=m.game_id,
                    table_id=m.table_id,
                    match_no=m.match_no,
                    game=game[:60],
                    finished=finished,
                    hands=summary.hands if summary is not None else 0,
                    status=m.status if summary is not None else _unrated(m.status),
                )
                .returning(ProfileMatch.id)
            ).scalar_one()
            if summary is None:
                continue
            values = [_seat_values(mid, game, finished, summary.hands, s) for s in summary.seats]
            c.execute(insert(PlayerMatch), values)
            first = since.get(game)
            if first is None or (finished, mid) < first:
                since[game] = (finished, mid)
        for game, (finished, mid) in since.items():
            _rerate(c, game, finished, mid)
    return len(fresh)


def _unrated(status: str) -> str:
    return status if status != "rated" else "unfinished"


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


@functools.lru_cache(maxsize=256)
def lower_wins(game: str) -> bool:
    """Whether the lower score wins ``game`` (a game this code does not know: no)."""
    from tricktable.games import load_game

    try:
        return bool(type(load_game(game)).lower_wins)
    except (TricktableError, ValueError):
        return False


def _rerate(c: Connection, game: str, finished: datetime, first: int) -> None:
    """Rate ``game``'s matches from the one that finished at ``finished`` (stored as
    ``first``) on, in order, from each player's rating before it; store each seat's rating
    after its match and every player's rating now."""
    after = or_(
        ProfileMatch.finished > finished,
        and_(ProfileMatch.finished == finished, ProfileMatch.id >= first),
    )
    ids = list(
        c.scalars(
            select(ProfileMatch.id)
            .where(ProfileMatch.game == game, ProfileMatch.status == "rated", after)
            .order_by(ProfileMatch.finished, ProfileMatch.id)
        )
    )
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
) -> int:
    """Sum up the tournament games (of ``tournament_id``, or all) that are not yet, ``batch``
    a transaction, until none is left or ``stop()``; how many were summed up.

    ``quiet``: a database error stops it without a word (a tournament plays on: its games
    are summed up by the next fill, the server's at its start) instead of a StoreError.
    """
    try:
        return _fill_games(store, tournament_id, batch, stop)
    except StoreError:
        if not quiet:
            raise
        return 0


def _fill_games(
    store: Store, tournament_id: int | None, batch: int, stop: Callable[[], bool] | None
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
        done += add_matches(store, matches)
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


# ---------------------------------------------------------------------------------- reading


def find(store: Store, key: str) -> bool:
    """Whether ``key`` is a player with a match stored."""
    query = select(PlayerMatch.id).where(PlayerMatch.player == key).limit(1)
    with reading(store, "cannot read the players") as c:
        return c.execute(query).first() is not None


def profile(store: Store, key: str) -> dict[str, Any] | None:
    """Player ``key``'s page as JSON-ready data; None if they have no match stored."""
    with reading(store, f"cannot read player {key[:60]!r}") as c:
        return _profile(c, key)


def _profile(c: Connection, key: str) -> dict[str, Any] | None:
    pm = PlayerMatch
    by_game = c.execute(
        select(
            pm.game,
            pm.result,
            func.count(),
            func.sum(pm.hands),
            func.sum(pm.points_for),
            func.sum(pm.points_against),
            func.sum(pm.bids_made),
            func.sum(pm.bids_set),
        )
        .where(pm.player == key)
        .group_by(pm.game, pm.result)
    ).all()
    if not by_game:
        return None
    games: dict[str, dict[str, Any]] = {}
    for game, result, n, hands, pf, pa, made, set_ in by_game:
        g = games.setdefault(
            game, {"won": 0, "lost": 0, "drawn": 0, "hands": 0, "pf": 0, "pa": 0.0, "m": 0, "s": 0}
        )
        g[result] = g.get(result, 0) + int(n)
        g["hands"] += int(hands or 0)
        g["pf"] += int(pf or 0)
        g["pa"] += float(pa or 0)
        g["bids"] = g.get("bids", False) or made is not None
        g["m"] += int(made or 0)
        g["s"] += int(set_ or 0)
    ratings = {r.game: r for r in c.execute(select(PlayerRating).where(PlayerRating.player == key))}
    history = _history(c, key)
    out_games = []
    for game in sorted(
        games, key=lambda g: -(games[g]["won"] + games[g]["lost"] + games[g]["drawn"])
    ):
        g = games[game]
        hands = g["hands"]
        rating = ratings.get(game)
        out_games.append(
            {
                "game": game,
                "record": record_line(g["won"], g["lost"], g["drawn"]),
                "hands": hands,
                "points_per_hand": g["pf"] / hands if hands else None,
                "against_per_hand": g["pa"] / hands if hands else None,
                "lower_wins": lower_wins(game),
                "bids": bids_line(g["m"], g["s"]) if g["bids"] else None,
                "rating": None
                if rating is None
                else {
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "ordinal": rating.ordinal,
                    "matches": rating.matches,
                },
                "history": history.get(game, []),
            }
        )
    won = sum(g["won"] for g in games.values())
    lost = sum(g["lost"] for g in games.values())
    drawn = sum(g["drawn"] for g in games.values())
    recent = _recent(c, key)
    name = recent[0]["name"] if recent else key
    partners, rivals = _company(c, key)
    return {
        "player": key,
        "kind": key.split(":", 1)[0],
        "name": name,
        "record": record_line(won, lost, drawn),
        "games": out_games,
        "partners": partners,
        "rivals": rivals,
        "recent": recent,
    }


def _history(c: Connection, key: str) -> dict[str, list[dict[str, Any]]]:
    """Each game's rating after each of ``key``'s rated matches, thinned to
    :data:`HISTORY_POINTS` (evenly, the last kept): ``n`` counts the matches in the game."""
    pm = PlayerMatch
    query = (
        select(pm.game, pm.finished, pm.mu, pm.sigma)
        .where(pm.player == key)
        .order_by(pm.game, pm.finished)
    )
    points: dict[str, list[tuple[int, datetime, float, float]]] = defaultdict(list)
    counted: dict[str, int] = defaultdict(int)
    for game, finished, mu, sigma in c.execute(query):
        counted[game] += 1
        if mu is not None and sigma is not None:
            points[game].append((counted[game], finished, mu, sigma))
    out: dict[str, list[dict[str, Any]]] = {}
    for game, series in points.items():
        step = max(1, -(-len(series) // HISTORY_POINTS))
        kept = series[step - 1 :: step]
        if kept[-1] is not series[-1]:
            kept.append(series[-1])
        out[game] = [
            {"n": n, "at": _iso(at), "mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma}
            for n, at, mu, sigma in kept
        ]
    return out


def _company(c: Connection, key: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``key``'s most frequent partners and rivals: matches together and ``key``'s results."""
    me = PlayerMatch.__table__.alias("me")
    other = PlayerMatch.__table__.alias("other")
    partner = (other.c.side == me.c.side).label("partner")
    query = (
        select(
            other.c.player,
            partner,
            me.c.result,
            func.count(),
            func.max(other.c.name),
        )
        .select_from(me.join(other, other.c.match_id == me.c.match_id))
        .where(me.c.player == key, other.c.player != key)
        .group_by(other.c.player, partner, me.c.result)
    )
    found: dict[tuple[str, bool], dict[str, Any]] = {}
    for player, is_partner, result, n, name in c.execute(query):
        entry = found.setdefault(
            (player, bool(is_partner)),
            {"player": player, "name": name, "matches": 0, "won": 0, "lost": 0, "drawn": 0},
        )
        entry["matches"] += int(n)
        entry[result] += int(n)
    ranked = sorted(found.items(), key=lambda kv: (-kv[1]["matches"], kv[1]["player"]))
    partners = [e for (_, p), e in ranked if p][:TOP]
    rivals = [e for (_, p), e in ranked if not p][:TOP]
    return partners, rivals


def _recent(c: Connection, key: str) -> list[dict[str, Any]]:
    """``key``'s last :data:`RECENT` matches, newest first, each with who sat where and
    where its replay is."""
    pm, m = PlayerMatch, ProfileMatch
    query = (
        select(
            pm.match_id,
            pm.seat,
            pm.side,
            pm.name,
            pm.game,
            pm.finished,
            pm.result,
            pm.hands,
            pm.points_for,
            pm.points_against,
            pm.mu,
            pm.sigma,
            m.source,
            m.table_id,
            m.match_no,
            m.game_id,
        )
        .join(m, m.id == pm.match_id)
        .where(pm.player == key)
        .order_by(pm.finished.desc(), pm.match_id.desc())
        .limit(RECENT)
    )
    mine = c.execute(query).all()
    ids = sorted({r.match_id for r in mine})
    seats: dict[int, list[Any]] = defaultdict(list)
    if ids:
        others = select(pm.match_id, pm.seat, pm.side, pm.player, pm.name).where(
            pm.match_id.in_(ids)
        )
        for seat in c.execute(others.order_by(pm.match_id, pm.seat)):
            seats[seat.match_id].append(seat)
    tournaments: dict[int, tuple[str, str]] = {}
    game_ids = sorted({r.game_id for r in mine if r.game_id is not None})
    if game_ids:
        named = (
            select(Game.id, Game.unit, Tournament.name)
            .join(Tournament, Tournament.id == Game.tournament_id)
            .where(Game.id.in_(game_ids))
        )
        tournaments = {gid: (name, unit) for gid, unit, name in c.execute(named)}
    out = []
    for r in mine:
        around = seats.get(r.match_id, [])
        tour = tournaments.get(r.game_id) if r.game_id is not None else None
        out.append(
            {
                "game": r.game,
                "finished": _iso(r.finished),
                "source": r.source,
                "seat": r.seat,
                "name": r.name,
                "result": r.result,
                "hands": r.hands,
                "points_for": r.points_for,
                "points_against": r.points_against,
                "rating": None if r.mu is None else {"mu": r.mu, "sigma": r.sigma},
                "partners": [
                    {"player": o.player, "name": o.name}
                    for o in around
                    if o.side == r.side and o.seat != r.seat
                ],
                "rivals": [
                    {"player": o.player, "name": o.name} for o in around if o.side != r.side
                ],
                "replay": f"/t/{r.table_id}?replay=1&match={r.match_no}"
                if r.table_id is not None
                else None,
                "tournament": None if tour is None else {"name": tour[0], "unit": tour[1]},
            }
        )
    return out


def standings(store: Store, game: str, limit: int = 100) -> dict[str, Any]:
    """The players of ``game`` by rating (the ordinal, mu - 3 sigma), best first, and the
    games that have standings."""
    pr = PlayerRating
    query = (
        select(pr.player, pr.name, pr.mu, pr.sigma, pr.ordinal, pr.matches)
        .where(pr.game == game)
        .order_by(pr.ordinal.desc())
        .limit(limit)
    )
    with reading(store, "cannot read the standings") as c:
        rows = c.execute(query).all()
        games = list(c.scalars(select(pr.game).distinct().order_by(pr.game)))
    return {
        "game": game,
        "games": games,
        "players": [
            {
                "rank": i,
                "player": r.player,
                "name": r.name,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "matches": r.matches,
            }
            for i, r in enumerate(rows, 1)
        ],
    }


# ---------------------------------------------------------------------------------- helpers


def _chunks(items: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def _iso(moment: datetime) -> str:
    return utc(moment).isoformat(timespec="seconds")


def now() -> datetime:
    """The time a match finishing now is stored with."""
    return datetime.now(UTC)


def _reason(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).splitlines()
    return (text[0] if text else type(exc).__name__)[:120]


__all__ = [
    "HISTORY_POINTS",
    "NewMatch",
    "add_matches",
    "fill_games",
    "find",
    "lower_wins",
    "now",
    "profile",
    "reading",
    "standings",
]
