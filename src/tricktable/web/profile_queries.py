"""The players' pages' queries: a player's page and a game's standings, each on an index.

A page is a handful of queries on the tables :mod:`tricktable.analysis.profile_store` keeps:
the counts by game and result and the rating's history on ``player, game, finished`` (an
index that holds every column they read: the table itself is not read), the recent matches
on ``player, finished, match_id``, partners and rivals on ``player, partner, matches``
(``player_pair``, counted as the matches were stored), the standings on ``game, ordinal`` — no
scan of a table, whatever its size (``benchmarks/profile_speed.py`` prints the plans and the
times for an account of 10,000 matches). Names reach SQL as bound parameters only.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Connection, func, select

from tricktable.analysis.profile import bids_line, record_line
from tricktable.analysis.profile_store import lower_wins, reading, shown_name
from tricktable.db.models import (
    Game,
    PlayerMatch,
    PlayerPair,
    PlayerRating,
    ProfileMatch,
    Tournament,
)
from tricktable.db.rows import utc
from tricktable.db.store import Store

#: the points of a rating's history a page draws, at most, a game
HISTORY_POINTS: Final = 200
#: partners and rivals listed, recent matches listed
TOP: Final = 5
RECENT: Final = 20


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
        select(pm.game, pm.mu, pm.sigma)
        .where(pm.player == key)
        .order_by(pm.game, pm.finished, pm.match_id)
    )
    points: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
    counted: dict[str, int] = defaultdict(int)
    # The matches' times are left in the index: parsing 10,000 of them cost more than the rest.
    for game, mu, sigma in c.execute(query):
        counted[game] += 1
        if mu is not None and sigma is not None:
            points[game].append((counted[game], mu, sigma))
    out: dict[str, list[dict[str, Any]]] = {}
    for game, series in points.items():
        step = max(1, -(-len(series) // HISTORY_POINTS))
        kept = series[step - 1 :: step]
        if kept[-1] is not series[-1]:
            kept.append(series[-1])
        out[game] = [
            {"n": n, "mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma} for n, mu, sigma in kept
        ]
    return out


def _company(c: Connection, key: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``key``'s most frequent partners and rivals: the matches they met at, ``key``'s
    results there (``player_pair``, counted as the matches were stored)."""
    pp = PlayerPair
    out: list[list[dict[str, Any]]] = []
    for partner in (1, 0):
        query = (
            select(pp.other, pp.name, pp.matches, pp.won, pp.lost, pp.drawn)
            .where(pp.player == key, pp.partner == partner)
            .order_by(pp.matches.desc())
            .limit(TOP)
        )
        out.append(
            [
                {
                    "player": r.other,
                    "name": r.name,
                    "matches": r.matches,
                    "won": r.won,
                    "lost": r.lost,
                    "drawn": r.drawn,
                }
                for r in c.execute(query)
            ]
        )
    return out[0], out[1]


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
                    {"player": o.player, "name": shown_name(o.player, o.name)}
                    for o in around
                    if o.side == r.side and o.seat != r.seat
                ],
                "rivals": [
                    {"player": o.player, "name": shown_name(o.player, o.name)}
                    for o in around
                    if o.side != r.side
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
        games = _games(c)
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


def _games(c: Connection) -> list[str]:
    """The games that have standings: one seek of the index a game (DISTINCT would read the
    whole index, a row a player and game)."""
    games: list[str] = []
    while True:
        after = PlayerRating.game > games[-1] if games else PlayerRating.game.is_not(None)
        found = c.scalar(select(func.min(PlayerRating.game)).where(after))
        if found is None:
            return games
        games.append(found)


def _iso(moment: datetime) -> str:
    return utc(moment).isoformat(timespec="seconds")


__all__ = ["HISTORY_POINTS", "RECENT", "TOP", "find", "profile", "standings"]
