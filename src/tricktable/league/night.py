"""A league's duplicate night and a division's season, as pure functions.

A night seats a division's teams two to a table (the round robin's pairing of that night) and
plays ``deals`` deals at every table. Every table of a deal gets the *same cards*: the deal's
seed is derived from the night's seed and the deal's number alone (the engine deals from the
seed, seat by seat), exactly as :mod:`tricktable.tournament.schedule` shares a duplicate deal's
seed between its tables. The seats are rotated: at table ``t`` of deal ``d`` the table's first
team holds side ``(d + t) % 2``'s cards, so on every deal half the tables hold each side's
cards, and each team holds both sides' cards over a night.

Scoring (duplicate, against the field): a team's *margin* on a deal is its side's score minus
the other side's; its *duplicate score* is that margin minus the mean margin of every team that
held the same cards (the same side) on that deal, at any table. Luck of the cards cancels — the
field held them too — and at each table the two teams' scores are opposite.

Leagues play games of two sides (partnerships at four seats, or two lone players); a team's
members fill its side's seats in turn (one member fills them all).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tricktable.analysis.intervals import Summary, summarize
from tricktable.analysis.ratings import RatedGame, rate_games
from tricktable.errors import OptionError
from tricktable.games import load_game
from tricktable.limits import RunnerOptions
from tricktable.seeds import derive_seed
from tricktable.tournament.schedule import Unit

#: the sides a league's game has
SIDES = 2
#: who plays a deal nobody can (a crashed bot): the tournaments' default
SUBSTITUTE = "heuristic"
#: how a team names an account's person among its members (``user:NAME``)
PERSON = "user:"


def is_person(spec: str) -> bool:
    """Whether a member's spec is an account's person (``user:NAME``), not a bot."""
    return spec.startswith(PERSON)


def has_people(members: Sequence[Sequence[str]]) -> bool:
    """Whether any team of a night lists a person: its seats then rotate by table."""
    return any(is_person(m) for team in members for m in team)


def check_game(game: str) -> None:
    """Refuse (one line) a game a league cannot play: it needs two sides."""
    loaded = load_game(game)
    if loaded.num_scores != SIDES:
        raise OptionError(
            f"game {game!r} has {loaded.num_scores} sides: a league plays games of two sides "
            "(partnerships, or two players)"
        )


def round_robin(n: int) -> list[list[tuple[int, int]]]:
    """The nights of a round robin of ``n`` teams (even): each a list of pairings (indices),
    every team once a night, every two teams meeting once (the circle method).

    >>> round_robin(4)
    [[(0, 3), (1, 2)], [(0, 2), (3, 1)], [(0, 1), (2, 3)]]
    """
    if n < 2 or n % 2:
        raise OptionError(f"a division plays with an even number of teams (2 or more), not {n}")
    ring = list(range(1, n))
    nights = []
    for _ in range(n - 1):
        order = [0, *ring]
        nights.append([(order[i], order[n - 1 - i]) for i in range(n // 2)])
        ring = ring[-1:] + ring[:-1]
    return nights


def deal_seed(seed: int, deal: int) -> int:
    """Deal ``deal``'s seed on a night of ``seed``: the same at every table."""
    return derive_seed(seed, "league", deal)


def seating(
    pair: tuple[int, int], deal: int, table: int, num_players: int, by_table: bool = False
) -> tuple[int, ...]:
    """The team at each seat: seat ``s`` plays for side ``s % 2``; the pair's first team holds
    side ``(deal + table) % 2`` — or ``table % 2`` on every deal (``by_table``: a night where
    a person sits, who keeps one seat all night; half the tables still give each team the
    other side's cards, so the field that held a deal's cards is both kinds of team).

    >>> seating((5, 7), 0, 0, 4), seating((5, 7), 0, 1, 4)
    ((5, 7, 5, 7), (7, 5, 7, 5))
    >>> seating((5, 7), 1, 0, 4, by_table=True)
    (5, 7, 5, 7)
    """
    first = (table if by_table else deal + table) % SIDES
    by_side = (pair[0], pair[1]) if first == 0 else (pair[1], pair[0])
    return tuple(by_side[s % SIDES] for s in range(num_players))


def units(
    game: str,
    members: Sequence[Sequence[str]],
    pairs: Sequence[tuple[int, int]],
    deals: int,
    seed: int,
) -> list[Unit]:
    """Every table's play of every deal of a night (``members[team]``: its player specs);
    ``entrants`` holds the team index at each seat. Keys are ``d{deal}/t{table}``. A night
    where a person sits rotates its seats by table (:func:`seating`)."""
    num_players = load_game(game).num_players
    by_table = has_people(members)
    out = []
    for d in range(deals):
        shared = deal_seed(seed, d)
        for t, pair in enumerate(pairs):
            seats = seating(pair, d, t, num_players, by_table)
            players = tuple(
                members[team][(s // SIDES) % len(members[team])] for s, team in enumerate(seats)
            )
            out.append(
                Unit(
                    key=f"d{d}/t{t}",
                    group=0,
                    deal=d,
                    table=t,
                    entrants=seats,
                    players=players,
                    game=game,
                    seed=shared,
                    max_hands=1,
                    limits=RunnerOptions(),
                    substitute=SUBSTITUTE,
                )
            )
    return out


@dataclass(frozen=True)
class Board:
    """One table's play of one deal, as scoring needs it: the team at each seat and the
    scores by side."""

    deal: int
    seats: tuple[int, ...]
    scores: tuple[float, float]


def duplicate_scores(boards: Sequence[Board]) -> dict[int, list[tuple[int, float]]]:
    """Each team's ``(deal, duplicate score)`` list (see the module), deals in order."""
    field: dict[tuple[int, int], list[float]] = {}
    for b in boards:
        for side in range(SIDES):
            margin = b.scores[side] - b.scores[1 - side]
            field.setdefault((b.deal, side), []).append(margin)
    out: dict[int, list[tuple[int, float]]] = {}
    for b in sorted(boards, key=lambda b: b.deal):
        for side in range(SIDES):
            held = field[(b.deal, side)]
            margin = b.scores[side] - b.scores[1 - side]
            out.setdefault(b.seats[side], []).append((b.deal, margin - sum(held) / len(held)))
    return out


@dataclass(frozen=True)
class TeamStanding:
    """A team's season: nights and deals played, its total and per-deal duplicate score
    (with a 95% interval) and its OpenSkill rating (rated deal by deal on duplicate scores)."""

    team: str
    nights: int
    total: float
    per_deal: Summary | None
    rating: float

    def to_dict(self) -> dict[str, Any]:
        """As JSON-ready data."""
        return {
            "team": self.team,
            "nights": self.nights,
            "total": self.total,
            "per_deal": None if self.per_deal is None else self.per_deal.to_dict(),
            "rating": self.rating,
        }


def standings(teams: Mapping[int, str], nights: Sequence[Sequence[Board]]) -> list[TeamStanding]:
    """A division's table from its nights' boards: by total duplicate score, best first
    (ties by rating, then name)."""
    values: dict[int, list[float]] = {t: [] for t in teams}
    played: dict[int, int] = {t: 0 for t in teams}
    rated: list[RatedGame] = []
    for boards in nights:
        scores = duplicate_scores(boards)
        for team, deals in scores.items():
            values[team].extend(v for _, v in deals)
            played[team] += 1
        # One rated game a board, ranked by duplicate scores: a strong team's bad cards
        # do not cost it rating, as the margins alone would.
        by_deal = {team: dict(deals) for team, deals in scores.items()}
        for b in boards:
            a, z = b.seats[0], b.seats[1]
            game = RatedGame.of_sides([[a], [z]], [by_deal[a][b.deal], by_deal[z][b.deal]])
            if game is not None:
                rated.append(game)
    ratings = rate_games(dict(teams), rated, snapshots=1).ratings
    rows = [
        TeamStanding(
            team=name,
            nights=played[t],
            total=sum(values[t]),
            per_deal=summarize(values[t]) if values[t] else None,
            rating=ratings[name].ordinal,
        )
        for t, name in teams.items()
    ]
    rows.sort(key=lambda r: (-r.total, -r.rating, r.team))
    return rows


def promote(divisions: Sequence[Sequence[str]], moves: int) -> list[list[str]]:
    """Next season's divisions from this one's final tables (each best first, level 1 the
    top): the bottom ``moves`` teams of each division but the last go down one, the top
    ``moves`` of each but the first go up one. A division keeps its size.

    >>> promote([["a", "b", "c"], ["d", "e", "f"]], 1)
    [['a', 'b', 'd'], ['c', 'e', 'f']]
    """
    if (
        moves < 0
        or any(2 * moves > len(d) for d in divisions[1:-1])
        or any(moves > len(d) for d in divisions)
    ):
        raise OptionError(f"cannot move {moves} teams: a division has too few")
    last = len(divisions) - 1
    out: list[list[str]] = [[] for _ in divisions]
    for level, table in enumerate(divisions):
        for i, team in enumerate(table):
            if level > 0 and i < moves:
                out[level - 1].append(team)
            elif level < last and i >= len(table) - moves:
                out[level + 1].append(team)
            else:
                out[level].append(team)
    return out
