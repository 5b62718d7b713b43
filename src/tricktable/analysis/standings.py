"""Standings of a stored tournament: who is best, by how much, and how sure we are.

Read from the tournament database (:func:`read_standings`) or from its parts
(:func:`standings_of`). Every figure is explained in docs/standings.md; in brief:

- An entrant's *margin* on a table is the mean score of the sides it sat on minus the mean
  score of the other sides (partnerships: its side's score minus the other's; a game where
  each plays alone: its score minus the mean of the others'), turned where the lower score wins
  (Hearts), so a positive margin always favours the entrant. In mixed partnerships both
  partners get their side's margin.
- Its *duplicate score* of a deal (or a whole match) is the mean of its margins over the
  deal's tables: in a duplicate tournament every table of a deal holds the same cards with
  the seats swapped or rotated, so the luck of the cards cancels. A deal counts once all its
  tables (one a side: 2 in partnerships, a rotation a seat in individual games) are stored.
- *Won / lost / shared*: in whole-match tournaments each table's match (a shared win is a
  half); with fixed deals each deal, by the sign of the duplicate score (of the table's
  margin outside duplicate). The win rate's 95% interval is Wilson's.
- The *head-to-head* cell of A against B is A's pairwise margin over B (the mean score of A's
  sides minus B's), paired over each deal's tables as the duplicate score, over the deals where
  they met as opponents (never on one side).
- *Faults* by kind, the games they touched, the substitutions and the forfeits. How a fault
  counts is the tournament's ``on_fault``, which the output states: a substitute's play is
  credited to the entrant that faulted, or the forfeiting side loses the game.
- *Ratings*: OpenSkill (Plackett-Luce) of individual entrants across partnerships
  (:mod:`~tricktable.analysis.ratings`), the games taken by round, group and table.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tricktable.analysis.intervals import Accumulator, Proportion, Summary, wilson
from tricktable.analysis.ratings import SNAPSHOTS, RatedGame, Rating, Ratings, rate_games
from tricktable.db.store import EntrantInfo, Store, StoredGame, TournamentInfo
from tricktable.errors import TricktableError


def plural(unit: str) -> str:
    """A tournament's unit counted: "deals", "matches"."""
    return unit + ("es" if unit.endswith("ch") else "s")


#: a margin this close to 0 is 0: a mean over the rotations of a deal, in thirds, is not exact
TIE: Final = 1e-9
#: a game's unit: its group (a pairing of partnerships, or of entrants), deal and table
UNIT: Final = re.compile(r"g(\d+)/d(\d+)/t(\d+)")
#: what a fault cost, by the tournament's ``on_fault`` (``{sub}``: the substitute's spec)
POLICIES: Final = {
    "substitute": "a bot that faulted (crash, timeout, illegal action) was replaced for the "
    "rest of the game by a substitute ({sub}), and what the substitute made counts for the "
    "entrant that faulted",
    "forfeit": "a bot that faulted (crash, timeout, illegal action) forfeited the game for its "
    "side: a lost match, the scores as they stood",
}


class StandingsError(TricktableError):
    """A tournament that cannot be read for standings: one line saying which and why."""


@dataclass(frozen=True, slots=True)
class Rules:
    """How a tournament's games are read, from its spec: the seats' sides, who wins, the
    format (``duplicate`` pairs a deal's tables), the unit (``deal`` or ``match``)."""

    game: str
    format: str
    unit: str
    side_of_seat: tuple[int, ...]
    num_sides: int
    lower_wins: bool
    on_fault: str
    partnerships: str
    #: the game's own fault rule, which comes before ``on_fault`` (``Game.fault_penalty``:
    #: ``forfeit`` in Spades, ``bad-card`` in Tricks, ``""`` in most games)
    game_rule: str = ""
    #: who took a faulting bot's seat under ``on_fault=substitute``
    substitute: str = "heuristic"

    @classmethod
    def of_spec(cls, spec: Mapping[str, Any], where: str) -> Rules:
        """The rules of tournament spec ``spec``; ``where`` names it in errors."""
        sides = spec.get("side_of_seat")
        if (
            not isinstance(sides, list)
            or len(sides) < 2
            or not all(type(s) is int and s >= 0 for s in sides)
        ):
            raise StandingsError(
                f"{where}: its spec's side_of_seat should list a side (0, 1...) for each seat, "
                f"got {sides!r}"
            )
        num_sides = spec.get("num_sides", max(sides) + 1)
        if type(num_sides) is not int or num_sides < 2 or max(sides) >= num_sides:
            raise StandingsError(
                f"{where}: its spec's num_sides {num_sides!r} does not fit side_of_seat {sides}"
            )
        limits = spec.get("limits")
        on_fault = spec.get("on_fault") or (
            limits.get("on_fault") if isinstance(limits, Mapping) else None
        )
        game = str(spec.get("game", "?"))
        return cls(
            game=game,
            format=str(spec.get("format", "?")),
            unit="match" if spec.get("matches") else "deal",
            side_of_seat=tuple(sides),
            num_sides=num_sides,
            lower_wins=bool(spec.get("lower_wins", False)),
            on_fault=str(on_fault or "substitute"),
            partnerships=str(spec.get("partnerships", "?")),
            game_rule=_game_rule(game),
            substitute=str(spec.get("substitute") or "heuristic"),
        )

    @property
    def duplicate(self) -> bool:
        """Whether a deal's tables hold the same cards (its scores pair over them)."""
        return self.format == "duplicate"

    @property
    def tables_per_deal(self) -> int:
        """A duplicate deal's tables: one a side (partnerships swapped, or seats rotated)."""
        return self.num_sides

    @property
    def fault_rule(self) -> str:
        """What decided what a fault cost, in a few words: ``on_fault=substitute``..."""
        if self.game_rule == "forfeit":
            return f"the rules of {self.game} (forfeit)"
        return f"on_fault={self.on_fault}"

    def fault_policy(self) -> str:
        """How a fault counted in this tournament, as a sentence."""
        if self.game_rule == "forfeit":
            return POLICIES["forfeit"] + f" (the rules of {self.game}, whatever on_fault says)"
        if self.on_fault in POLICIES:
            policy = POLICIES[self.on_fault].format(sub=self.substitute)
        else:
            policy = f"faults cost what on_fault={self.on_fault!r} says"
        if self.game_rule == "bad-card":
            policy = (
                "an illegal card was first played as a bad card, with the penalty set by the "
                f"rules of {self.game}; past that, " + policy
            )
        return policy


def _game_rule(game: str) -> str:
    """The game's own fault rule (``Game.fault_penalty``), or "" when the game is unknown here."""
    from tricktable.games import load_game

    try:
        return load_game(game).fault_penalty
    except TricktableError:
        return ""


@dataclass(frozen=True, slots=True)
class Table:
    """One stored game, as the standings read it: one table's play of one deal or match."""

    unit: str
    group: int
    deal: int
    table: int
    round_no: int
    seats: tuple[int, ...]
    scores: tuple[float, ...]
    status: str
    winner: int | None
    shared: bool
    forfeited_by: int | None
    faults: tuple[Mapping[str, Any], ...]
    #: who sat on which side
    layout: Layout
    #: each entrant's mean score over its sides, turned where the lower score wins: the
    #: difference of two entrants' values is the first's margin over the second
    values: Mapping[int, float]
    #: each entrant's margin: its value minus the mean (turned) of the sides it did not sit on
    margins: Mapping[int, float]

    @property
    def sides(self) -> Mapping[int, frozenset[int]]:
        """The sides each entrant at the table sat on."""
        return self.layout.sides

    @property
    def order(self) -> tuple[int, int, int, str]:
        """Where the game comes in the deterministic order: round, group, table."""
        return (self.round_no, self.group, self.table, self.unit)

    def pairwise(self, a: int, b: int) -> float | None:
        """``a``'s margin over ``b`` here; None unless both sat and were never on one side."""
        if a not in self.sides or b not in self.sides or self.sides[a] & self.sides[b]:
            return None
        return self.values[a] - self.values[b]

    def match_outcome(self, sides: frozenset[int], rules: Rules) -> str | None:
        """``won``, ``lost`` or ``shared`` for the entrant on ``sides``; None: no winner."""
        if self.forfeited_by is not None:
            if rules.side_of_seat[self.forfeited_by] in sides:
                return "lost"
            if self.winner is None and rules.num_sides == 2:
                return "won"  # the other side forfeited
        if self.shared:
            sign = -1.0 if rules.lower_wins else 1.0
            best = max(sign * score for score in self.scores)
            return "shared" if any(sign * self.scores[s] == best for s in sides) else "lost"
        if self.winner is not None:
            return "won" if self.winner in sides else "lost"
        return None


@dataclass(frozen=True, slots=True)
class Layout:
    """Who sat on which side of a table: worked out once for all the tables seated alike."""

    #: the sides each entrant sat on
    sides: Mapping[int, frozenset[int]]
    #: the entrants of each side, in order of seating, each once
    teams: tuple[tuple[int, ...], ...]

    @classmethod
    def of_seats(
        cls, seats: tuple[int, ...], rules: Rules, entrants: Collection[int], where: str
    ) -> Layout:
        """The layout of ``seats`` (an entrant id a seat); ``where`` names the game in errors."""
        if len(seats) != len(rules.side_of_seat):
            raise StandingsError(
                f"{where}: {len(seats)} seats, but the tournament has {len(rules.side_of_seat)}"
            )
        held: dict[int, set[int]] = {}
        teams: list[list[int]] = [[] for _ in range(rules.num_sides)]
        for entrant, side in zip(seats, rules.side_of_seat, strict=True):
            if entrant not in entrants:
                raise StandingsError(f"{where}: seats entrant id {entrant}, not an entrant")
            held.setdefault(entrant, set()).add(side)
            if entrant not in teams[side]:
                teams[side].append(entrant)
        sides = {entrant: frozenset(mine) for entrant, mine in held.items()}
        return cls(sides, tuple(tuple(team) for team in teams))


def read_table(
    game: StoredGame,
    rules: Rules,
    entrants: Collection[int],
    layouts: dict[tuple[int, ...], Layout] | None = None,
) -> Table:
    """The :class:`Table` of a stored game (a :class:`StandingsError` naming it if damaged).

    ``entrants`` are the tournament's entrant ids; ``layouts`` a cache of the layouts seen,
    shared by the tables of one tournament (a tournament seats its entrants few ways).
    """
    seats = tuple(game.seats)
    layout = None if layouts is None else layouts.get(seats)
    if layout is None:
        layout = Layout.of_seats(seats, rules, entrants, f"game {game.unit!r}")
        if layouts is not None:
            layouts[seats] = layout
    result = game.result
    scores = result.get("scores")
    if (
        not isinstance(scores, list)
        or len(scores) != rules.num_sides
        or not all(type(s) in (int, float) and math.isfinite(s) for s in scores)
    ):
        raise StandingsError(
            f"game {game.unit!r}: its scores should be {rules.num_sides} numbers: {scores!r}"
        )
    winner, forfeited_by = result.get("winner"), result.get("forfeited_by")
    if winner is not None and (type(winner) is not int or not 0 <= winner < rules.num_sides):
        raise StandingsError(f"game {game.unit!r}: its winner {winner!r} is not a side")
    if forfeited_by is not None and (
        type(forfeited_by) is not int or not 0 <= forfeited_by < len(seats)
    ):
        raise StandingsError(f"game {game.unit!r}: forfeited by {forfeited_by!r}, not a seat")
    named = UNIT.fullmatch(game.unit)
    if named:
        group, deal, table = (int(part) for part in named.groups())
    else:  # a unit named otherwise: what the result and the row say
        group = int(result.get("group") or 0)
        deal, table = game.round_no, game.table_no
    sign = -1.0 if rules.lower_wins else 1.0
    values: dict[int, float] = {}
    margins: dict[int, float] = {}
    total = sign * sum(scores)
    for entrant, mine in layout.sides.items():
        held = len(mine)
        value = values[entrant] = sign * sum(scores[s] for s in mine) / held
        if held < rules.num_sides:  # one entrant on every side has no margin
            margins[entrant] = value - (total - value * held) / (rules.num_sides - held)
    return Table(
        unit=game.unit,
        group=group,
        deal=deal,
        table=table,
        round_no=game.round_no,
        seats=seats,
        scores=tuple(float(s) for s in scores),
        status=str(result.get("status", "finished")),
        winner=winner,
        shared=bool(result.get("shared", False)),
        forfeited_by=forfeited_by,
        faults=tuple(f for f in game.faults if isinstance(f, Mapping)),
        layout=layout,
        values=values,
        margins=margins,
    )


@dataclass(frozen=True)
class FaultCount:
    """An entrant's faults: how many of each ``kind``, the ``games`` they touched, how often a
    substitute took its seat, and the games it ``forfeited`` (for its side, by its fault)."""

    kinds: Mapping[str, int]
    games: int
    substituted: int
    forfeited: int

    @property
    def total(self) -> int:
        """Every fault, of every kind."""
        return sum(self.kinds.values())

    def to_dict(self) -> dict[str, Any]:
        """The counts as JSON-ready data."""
        return {
            "total": self.total,
            "kinds": dict(self.kinds),
            "games": self.games,
            "substituted": self.substituted,
            "forfeited": self.forfeited,
        }


@dataclass(frozen=True)
class EntrantStanding:
    """One entrant's line of the standings (see this module's docstring for each figure)."""

    id: int
    name: str
    spec: str
    games: int
    won: int
    lost: int
    shared: int
    undecided: int
    win_rate: Proportion | None
    margin: Summary | None
    duplicate: Summary | None
    faults: FaultCount
    rating: Rating

    def to_dict(self) -> dict[str, Any]:
        """The line as JSON-ready data (a figure without data is null)."""
        return {
            "name": self.name,
            "spec": self.spec,
            "games": self.games,
            "won": self.won,
            "lost": self.lost,
            "shared": self.shared,
            "undecided": self.undecided,
            "win_rate": None if self.win_rate is None else self.win_rate.to_dict(),
            "margin": None if self.margin is None else self.margin.to_dict(),
            "duplicate": None if self.duplicate is None else self.duplicate.to_dict(),
            "faults": self.faults.to_dict(),
            "rating": self.rating.to_dict(),
        }


@dataclass(frozen=True)
class HeadToHead:
    """Each entrant's pairwise margin over each other, where they met as opponents."""

    names: tuple[str, ...]
    cells: Mapping[tuple[str, str], Summary]

    def get(self, entrant: str, opponent: str) -> Summary | None:
        """``entrant``'s margin over ``opponent``, or None where they never met."""
        return self.cells.get((entrant, opponent))

    def to_dict(self) -> dict[str, Any]:
        """The matrix as JSON-ready data: ``matrix[A][B]`` is A over B, or null."""
        matrix = {
            a: {b: (None if (s := self.get(a, b)) is None else s.to_dict()) for b in self.names}
            for a in self.names
        }
        return {"entrants": list(self.names), "matrix": matrix}


@dataclass(frozen=True)
class Standings:
    """A tournament's standings: a line an entrant (``rows``, the best first), the
    head-to-head matrix and the ratings."""

    tournament: TournamentInfo
    rules: Rules
    games: int
    deals: int
    complete_deals: int
    ranked_by: str
    rows: tuple[EntrantStanding, ...]
    head_to_head: HeadToHead
    ratings: Ratings
    fault_total: int = 0

    @property
    def seed(self) -> int | None:
        """The tournament's seed, as its spec stores it (None for a spec without a whole one)."""
        seed = self.tournament.spec.get("seed")
        return seed if type(seed) is int else None

    def to_dict(self) -> dict[str, Any]:
        """The standings as one JSON-ready object (see docs/standings.md)."""
        info, rules = self.tournament, self.rules
        return {
            "tournament": {
                "id": info.id,
                "name": info.name,
                "status": info.status,
                "created": info.created.isoformat(),
                "seed": self.seed,
                "game": rules.game,
                "format": rules.format,
                "unit": rules.unit,
                "partnerships": rules.partnerships,
                "lower_wins": rules.lower_wins,
                "games": self.games,
                "deals": self.deals,
                "complete_deals": self.complete_deals,
                "on_fault": rules.on_fault,
                "game_fault_rule": rules.game_rule or None,
                "fault_policy": rules.fault_policy(),
                "faults": self.fault_total,
            },
            "ranked_by": self.ranked_by,
            "standings": [{"rank": rank, **row.to_dict()} for rank, row in enumerate(self.rows, 1)],
            "head_to_head": self.head_to_head.to_dict(),
            "ratings": self.ratings.to_dict(),
        }


class _Tally:
    """What is counted for one entrant while the games are read."""

    def __init__(self) -> None:
        self.games = 0
        self.margin = Accumulator()
        self.duplicate = Accumulator()
        self.outcomes: Counter[str] = Counter()
        self.kinds: Counter[str] = Counter()
        self.faulted_games: set[str] = set()
        self.substituted = 0
        self.forfeited = 0


def _outcome_of_margin(value: float) -> str:
    return "won" if value > TIE else "lost" if value < -TIE else "shared"


def standings_of(
    tournament: TournamentInfo,
    entrants: Sequence[EntrantInfo],
    games: Iterable[StoredGame],
    *,
    snapshots: int = SNAPSHOTS,
) -> Standings:
    """The standings of ``tournament`` from its entrants and stored games."""
    rules = Rules.of_spec(tournament.spec, f"tournament {tournament.name!r}")
    by_id = {e.id: e for e in entrants}
    layouts: dict[tuple[int, ...], Layout] = {}
    tables = [read_table(g, rules, by_id, layouts) for g in games]
    tables.sort(key=lambda t: t.order)
    tally = {eid: _Tally() for eid in by_id}
    deals: dict[tuple[int, int], list[Table]] = defaultdict(list)
    for table in tables:
        deals[table.group, table.deal].append(table)
        for eid, sides in table.sides.items():
            mine = tally[eid]
            mine.games += 1
            margin = table.margins.get(eid)
            if margin is not None:
                mine.margin.add(margin)
            if rules.unit == "match":
                mine.outcomes[table.match_outcome(sides, rules) or "undecided"] += 1
            elif not rules.duplicate and margin is not None:
                mine.outcomes[_outcome_of_margin(margin)] += 1
            if table.forfeited_by is not None and table.seats[table.forfeited_by] == eid:
                mine.forfeited += 1
        _count_faults(table, tally)

    cells: dict[tuple[int, int], Accumulator] = defaultdict(Accumulator)
    complete = 0
    for deal_tables in deals.values():
        if rules.duplicate:
            if len({t.table for t in deal_tables}) < rules.tables_per_deal:
                continue  # still being played: its luck has not cancelled yet
            complete += 1
        # Outside duplicate, each table is its own "deal": nothing to pair it with.
        for paired in [deal_tables] if rules.duplicate else [[t] for t in deal_tables]:
            _pair(paired, rules, tally, cells)

    rated = [g for g in (_rated_game(t, rules) for t in tables) if g is not None]
    names = {eid: e.name for eid, e in by_id.items()}
    ratings = rate_games(names, rated, snapshots=snapshots)
    rows = [_row(by_id[eid], tally[eid], ratings.ratings[e.name]) for eid, e in by_id.items()]
    ranked_by = (
        "duplicate score"
        if rules.duplicate
        else ("win rate" if rules.unit == "match" else "mean margin")
    )
    rows.sort(key=lambda row: (-_rank_value(row, ranked_by), -row.rating.ordinal, row.name))
    h2h = {(names[a], names[b]): acc.summary() for (a, b), acc in sorted(cells.items()) if acc.n}
    return Standings(
        tournament=tournament,
        rules=rules,
        games=len(tables),
        deals=len(deals),
        complete_deals=complete if rules.duplicate else len(deals),
        ranked_by=ranked_by,
        rows=tuple(rows),
        head_to_head=HeadToHead(tuple(row.name for row in rows), h2h),
        ratings=ratings,
        fault_total=sum(len(t.faults) for t in tables),
    )


def _count_faults(table: Table, tally: Mapping[int, _Tally]) -> None:
    for fault in table.faults:
        seat = fault.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            continue  # a fault of no seat (the runner's own) is no entrant's
        mine = tally[table.seats[seat]]
        mine.kinds[str(fault.get("kind", "unknown"))] += 1
        mine.faulted_games.add(table.unit)
        if "substitute" in str(fault.get("penalty", "")):
            mine.substituted += 1


def _pair(
    tables: Sequence[Table],
    rules: Rules,
    tally: Mapping[int, _Tally],
    cells: Mapping[tuple[int, int], Accumulator],
) -> None:
    """Add one deal's duplicate scores (over ``tables``) and head-to-head margins."""
    present = list(dict.fromkeys(e for t in tables for e in t.sides))
    for eid in present:
        margins = [t.margins[eid] for t in tables if eid in t.margins]
        if margins and rules.duplicate:
            score = sum(margins) / len(margins)
            tally[eid].duplicate.add(score)
            if rules.unit == "deal":
                tally[eid].outcomes[_outcome_of_margin(score)] += 1
    for a in present:
        for b in present:
            if a != b:
                pairwise = _pairwise(tables, a, b)
                if pairwise:
                    cells[a, b].add(sum(pairwise) / len(pairwise))


def _pairwise(tables: Sequence[Table], a: int, b: int) -> list[float]:
    """A's margin over B at each table where both sat; none if they were partners at one."""
    margins = []
    for t in tables:
        if a in t.sides and b in t.sides:
            margin = t.pairwise(a, b)
            if margin is None:
                return []
            margins.append(margin)
    return margins


def _rated_game(table: Table, rules: Rules) -> RatedGame | None:
    forfeited = () if table.forfeited_by is None else (rules.side_of_seat[table.forfeited_by],)
    return RatedGame.of_sides(
        table.layout.teams, table.scores, lower_wins=rules.lower_wins, forfeited=forfeited
    )


def _row(entrant: EntrantInfo, tally: _Tally, rating: Rating) -> EntrantStanding:
    won, lost, shared = (tally.outcomes[k] for k in ("won", "lost", "shared"))
    decided = won + lost + shared
    return EntrantStanding(
        id=entrant.id,
        name=entrant.name,
        spec=entrant.spec,
        games=tally.games,
        won=won,
        lost=lost,
        shared=shared,
        undecided=tally.outcomes["undecided"],
        win_rate=wilson(won + shared / 2, decided) if decided else None,
        margin=tally.margin.summary() if tally.margin.n else None,
        duplicate=tally.duplicate.summary() if tally.duplicate.n else None,
        faults=FaultCount(
            dict(sorted(tally.kinds.items())),
            len(tally.faulted_games),
            tally.substituted,
            tally.forfeited,
        ),
        rating=rating,
    )


def _rank_value(row: EntrantStanding, ranked_by: str) -> float:
    figure: Proportion | Summary | None = {
        "duplicate score": row.duplicate,
        "win rate": row.win_rate,
        "mean margin": row.margin,
    }[ranked_by]
    if figure is None:
        return -math.inf
    return figure.rate if isinstance(figure, Proportion) else figure.mean


def read_standings(
    store: Store, name: str | None = None, *, snapshots: int = SNAPSHOTS
) -> Standings:
    """The standings of the tournament ``name`` in ``store`` (default: the newest)."""
    if name is None:
        every = store.tournaments()
        if not every:
            raise StandingsError(f"{store.where} holds no tournament")
        tournament = every[-1]
    else:
        found = store.find_tournament(name)
        if found is None:
            known = [t.name for t in store.tournaments()]
            listed = ", ".join(repr(n) for n in known[-10:]) or "none"
            raise StandingsError(
                f"{store.where}: no tournament named {name!r} (the newest: {listed})"
            )
        tournament = found
    return standings_of(
        tournament,
        store.entrants(tournament.id),
        store.games(tournament.id, records=False),
        snapshots=snapshots,
    )
