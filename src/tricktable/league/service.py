"""A server's leagues: what the routes of :mod:`tricktable.web.leagues` read and write, and
the one thread that plays their nights.

Rules this module keeps (docs/leagues.md says them for people):

- **One night at a time**, on a thread of its own (never the server's loop). A night is
  ``playing`` from when it is started (by hand, or by the clock when it is due) until its
  results are stored.
- **Nights the server plays by itself.** A season scheduled with a first night's time and an
  interval gives each night a ``due`` time (night ``n``: start + (n - 1) × interval, every
  division's night ``n`` together). The thread sleeps until the next due night (it does not
  poll when none is due) and plays it once nothing else is playing.
- **Resume.** A night's games are stored deal by deal under its tournament (named after the
  night, so found again). A server stopped during a night leaves it ``playing``; the next
  server plays on from the deals stored (a deal's games depend on its seed alone, so nothing
  differs) and scores it once: the results are written with the ``played`` mark in one
  transaction, only while the night is still ``playing``.
- **People at a night** (a team's member ``user:NAME``, an account): each table where a
  person sits is a table of the server's hub (:meth:`Hub.create_league_table
  <tricktable.web.hub.Hub.create_league_table>`): one match a deal, dealt from that deal's
  seed — every table's — its person's seat theirs alone, played by the away rule while
  they are not there. The thread plays the bots' tables as before, then waits for those
  tables, storing each deal a table has played as a game of the night's tournament (its
  record rebuilt from the table's journal), and scores the night once every game is stored.
  A restart finds the tables again (the hub brings them back from their journals and plays
  them on) and stores what is missing: nothing is played or counted twice. The tables are
  *withheld* (no watcher, record or seed) until the night is scored, when the thread
  releases them (:mod:`tricktable.league.tables`).
- **A season's end** (:meth:`Leagues.close`): only once every night of the season is played
  (409 otherwise: a night playing or unplayed would change the standings after the fact).
  The final tables are each division's standings; :func:`~tricktable.league.night.promote`
  moves ``moves`` teams (default 1) across each boundary; season N+1 is opened with the same
  teams (new rows: standings and ratings start afresh) in their new divisions, to be scheduled.
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from tricktable.analysis.profile_store import fill_games
from tricktable.db import StoreError
from tricktable.db.league_models import (
    League,
    LeagueDivision,
    LeagueFixture,
    LeagueNightTable,
    LeagueResult,
    LeagueSeason,
    LeagueTeam,
)
from tricktable.db.models import Entrant, Game
from tricktable.errors import OptionError, TricktableError
from tricktable.league import night as nights
from tricktable.league.tables import PeopleTables
from tricktable.tournament.run import game_row
from tricktable.web.store import User, WebStore, _reason

if TYPE_CHECKING:
    from tricktable.web.hub import Hub

#: the most deals a night plays at every table
MAX_DEALS: Final = 32
#: divisions a league has, and teams a division (a night's tables: half of them)
MAX_DIVISIONS: Final = 4
MAX_TEAMS: Final = 16
#: members a team lists (a partnership's seats), and the longest name or spec
MAX_MEMBERS: Final = 2
MAX_TEXT: Final = 80
#: the longest interval between nights, and how far ahead a first night may be (seconds)
MAX_EVERY: Final = 366 * 86400
#: standings kept in memory (one a division and season read lately)
MAX_KEPT: Final = 256
#: how long the thread waits before it asks the database again after it failed
RETRY_S: Final = 30.0

Log = Callable[[str], None]


class Refused(TricktableError):
    """A write the league's state does not allow now (409)."""


class NotFound(TricktableError):
    """No such league or night (404)."""


_GAMES: list[str] = []


def league_games() -> list[str]:
    """The games a league may play (two sides), made once: loading every game takes a while."""
    from tricktable.games import GAMES, load_game

    if not _GAMES:
        _GAMES.extend(n for n in sorted(GAMES) if load_game(n).num_scores == nights.SIDES)
    return _GAMES


def _text(value: Any, what: str) -> str:
    from tricktable.text import unshowable

    if not isinstance(value, str) or not 1 <= len(value.strip()) <= MAX_TEXT or unshowable(value):
        raise OptionError(f"{what} is 1 to {MAX_TEXT} printable characters")
    return value.strip()


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise OptionError(f"{what} is a whole number from {low} to {high}")
    return value


def _only(data: dict[str, Any], fields: set[str]) -> None:
    unknown = sorted(set(data) - fields)
    if unknown:
        raise OptionError(f"unknown field {unknown[0][:40]!r}; valid: {', '.join(sorted(fields))}")


def _when(value: Any) -> datetime:
    """A first night's time: ISO 8601 text with its offset (``2026-12-02T20:00:00Z``)."""
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) and len(value) < 40 else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise OptionError(
            f"start {str(value)[:40]!r} is not a time with its offset, as 2026-12-02T20:00:00Z"
        )
    if when - datetime.now(UTC) > timedelta(seconds=MAX_EVERY):
        raise OptionError("start is at most a year from now")
    return when.astimezone(UTC)


def _utc(when: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes (stored as UTC); PostgreSQL aware ones
    return when if when is None or when.tzinfo else when.replace(tzinfo=UTC)


def _iso(when: datetime | None) -> str | None:
    found = _utc(when)
    return None if found is None else found.isoformat(timespec="seconds")


def _id(result: Any) -> int:
    """The id of the row an insert made."""
    return int(result.inserted_primary_key[0])


def _scores(result: dict[str, Any]) -> tuple[float, float]:
    scores = result["scores"]
    return float(scores[0]), float(scores[1])


class Leagues:
    """The leagues of one server's database, and the thread that plays their nights."""

    def __init__(self, store: WebStore, log: Log, hub: Hub | None = None) -> None:
        self.store = store
        self.log = log
        self.hub = hub
        #: the hub's tables where a night's people play
        self.tables = PeopleTables(store, hub)
        #: nights started by hand or resumed; ``0`` only wakes the thread (a new schedule)
        self._jobs: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        #: standings by (team ids, played nights' tournaments): see :meth:`_standings`
        self._tables: dict[tuple[tuple[int, ...], tuple[int, ...]], list[nights.TeamStanding]] = {}
        self._lock = threading.Lock()

    @contextmanager
    def _write(self, doing: str) -> Iterator[Connection]:
        """A write transaction. On SQLite it begins IMMEDIATE: these transactions read before
        they write, and a deferred one would fail ("database is locked") on meeting the
        nights' thread's writes, where an immediate one waits its turn."""
        try:
            with self.store.store._writer.begin() as connection:
                yield connection
        except StoreError:
            raise
        except (SQLAlchemyError, OSError) as exc:
            raise StoreError(f"{self.store.store.where}: {doing}: {_reason(exc)}") from exc

    def start(self) -> None:
        """Queue the nights a server stopped before left playing, and start the thread."""
        try:
            with self.store._read("cannot read the nights left playing") as c:
                left = c.scalars(
                    select(LeagueFixture.id)
                    .where(LeagueFixture.status == "playing")
                    .order_by(LeagueFixture.id)
                ).all()
        except StoreError as exc:
            self.log(f"leagues: {exc}")
            left = []
        for fid in left:
            self.log(f"league night {fid}: left playing by the last server: played on")
            self._jobs.put(fid)
        if self.hub is not None:
            self.hub.cluster.takes("night/", self._take)
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="league nights", daemon=True)
            self._thread.start()

    def _take(self, lease: str) -> None:
        """A night whose server process died (many processes): played on here, with its
        people's tables, which this process now plays too (they share the night's lease)."""
        fid = lease.partition("/")[2]
        if fid.isdigit():
            self.log(f"league night {fid}: its server process died: played on here")
            self._jobs.put(int(fid))

    # -- writing

    def create(self, user: User, data: dict[str, Any]) -> int:
        """A new league (and its season 1 and divisions); its id."""
        _only(data, {"name", "game", "deals", "divisions"})
        name = _text(data.get("name"), "a league's name")
        game = _text(data.get("game"), "game")
        nights.check_game(game)
        deals = _whole(data.get("deals"), "deals", 1, MAX_DEALS)
        divisions = _whole(data.get("divisions", 1), "divisions", 1, MAX_DIVISIONS)
        with self._write("cannot create the league") as c:
            if c.scalar(select(League.id).where(League.name == name)) is not None:
                raise Refused(f"a league named {name!r} exists: choose another name")
            now = datetime.now(UTC)
            row = insert(League).values(
                name=name, game=game, deals=deals, owner=user.id, created=now
            )
            lid = _id(c.execute(row))
            sid = _id(
                c.execute(insert(LeagueSeason).values(league_id=lid, number=1, status="open"))
            )
            for level in range(1, divisions + 1):
                c.execute(insert(LeagueDivision).values(season_id=sid, level=level))
            return lid

    def _owned(self, c: Any, user: User, lid: int) -> tuple[Any, Any]:
        league = c.execute(select(League).where(League.id == lid)).one_or_none()
        if league is None:
            raise NotFound("no such league")
        if league.owner != user.id:
            raise Refused("only the league's owner changes it")
        return league, self._season(c, lid)

    @staticmethod
    def _season(c: Any, lid: int, number: int | None = None) -> Any:
        """Season ``number`` of league ``lid`` (its latest if none)."""
        query = select(LeagueSeason).where(LeagueSeason.league_id == lid)
        if number is not None:
            query = query.where(LeagueSeason.number == number)
        season = c.execute(query.order_by(LeagueSeason.number.desc()).limit(1)).one_or_none()
        if season is None:
            raise NotFound(f"the league has no season {number}")
        return season

    def add_team(self, user: User, lid: int, data: dict[str, Any]) -> int:
        """A team added to a division of the league's open season; its id."""
        from tricktable.bots import PEOPLE, is_builtin_player

        _only(data, {"division", "name", "members"})
        name = _text(data.get("name"), "a team's name")
        level = _whole(data.get("division", 1), "division", 1, MAX_DIVISIONS)
        members = data.get("members")
        if not isinstance(members, list) or not 1 <= len(members) <= MAX_MEMBERS:
            raise OptionError(f"members is a list of 1 to {MAX_MEMBERS} player specs")
        specs = [_text(m, f"member {i + 1}") for i, m in enumerate(members)]
        people = []
        for i, spec in enumerate(specs):
            if nights.is_person(spec):
                specs[i] = self._person(spec)
                people.append(specs[i])
            elif spec.lower() in PEOPLE or not is_builtin_player(spec):
                raise OptionError(
                    f"member {spec[:40]!r}: a league's members are tricktable's own bots and "
                    "characters, or an account (user:NAME)"
                )
        if len(set(people)) < len(people):
            raise OptionError(
                f"{people[0][len(nights.PERSON) :]} is listed twice: a person sits once"
            )
        with self._write("cannot add the team") as c:
            league, season = self._owned(c, user, lid)
            if people:
                from tricktable.games import load_game

                # One member fills every seat of its side; a person sits at one.
                seats = load_game(league.game).num_players // nights.SIDES
                if len(specs) < seats:
                    raise OptionError(
                        f"a person plays one seat of the {seats} of a side: name a partner too "
                        "(a bot, a character or an account)"
                    )
            if season.status != "open":
                raise Refused("the season is scheduled: teams are added before")
            did = c.scalar(
                select(LeagueDivision.id).where(
                    LeagueDivision.season_id == season.id, LeagueDivision.level == level
                )
            )
            if did is None:
                raise OptionError(f"the league has no division {level}")
            teams = c.execute(
                select(LeagueTeam.name, LeagueTeam.members).where(LeagueTeam.division_id == did)
            ).all()
            if name in {t.name for t in teams}:
                raise Refused(f"division {level} has a team named {name!r}")
            for t in teams:
                both = set(people) & set(json.loads(t.members))
                if both:
                    who = min(both)[len(nights.PERSON) :]
                    raise Refused(
                        f"{who} plays for {t.name} in division {level}: a person is at one "
                        "table a night"
                    )
            if len(teams) >= MAX_TEAMS:
                raise Refused(f"division {level} has {MAX_TEAMS} teams, the most it takes")
            row = insert(LeagueTeam).values(division_id=did, name=name, members=json.dumps(specs))
            return _id(c.execute(row))

    def _person(self, spec: str) -> str:
        """``user:NAME`` of an account that exists (its name as the account spells it);
        OptionError if none does."""
        name = spec[len(nights.PERSON) :].strip()
        found = self.store.account(name) if name else None
        if found is None or found[0].kind != "account":
            raise OptionError(f"member {spec[:40]!r}: there is no account named {name[:40]!r}")
        return nights.PERSON + found[0].name

    def schedule(self, user: User, lid: int, data: dict[str, Any]) -> int:
        """Every division's round robin of nights; how many nights. With ``start`` (and
        ``every``, seconds, else the league's last or a day) the server plays them when due."""
        _only(data, {"start", "every"})
        start = _when(data["start"]) if "start" in data else None
        every = _whole(data["every"], "every", 1, MAX_EVERY) if "every" in data else None
        if every is not None and start is None:
            raise OptionError("every needs a start: the first night's time")
        made = 0
        with self._write("cannot schedule the season") as c:
            league, season = self._owned(c, user, lid)
            if season.status != "open":
                raise Refused(f"season {season.number} is {season.status} already")
            if start is not None:
                every = every or league.every or 86400
                c.execute(update(League).where(League.id == lid).values(every=every))
            divisions = c.execute(
                select(LeagueDivision).where(LeagueDivision.season_id == season.id)
            ).all()
            plans = []
            for division in divisions:
                teams = self._team_ids(c, division.id)
                if len(teams) < 2 or len(teams) % 2:
                    raise OptionError(
                        f"division {division.level} has {len(teams)} teams: it needs an even "
                        "number, 2 or more"
                    )
                plans.append((division.id, teams))
            for did, teams in plans:
                for n, pairs in enumerate(nights.round_robin(len(teams)), 1):
                    due = None
                    if start is not None and every is not None:
                        due = start + timedelta(seconds=every * (n - 1))
                    fid = _id(
                        c.execute(
                            insert(LeagueFixture).values(
                                division_id=did,
                                night=n,
                                seed=secrets.randbits(63),
                                status="scheduled",
                                due=due,
                            )
                        )
                    )
                    for t, (a, b) in enumerate(pairs):
                        c.execute(
                            insert(LeagueNightTable).values(
                                fixture_id=fid, table_no=t, teams=json.dumps([teams[a], teams[b]])
                            )
                        )
                    made += 1
            c.execute(
                update(LeagueSeason).where(LeagueSeason.id == season.id).values(status="scheduled")
            )
        if start is not None:
            self._jobs.put(0)  # the thread sleeps until the next due night: wake it to see
        return made

    @staticmethod
    def _team_ids(c: Any, did: int) -> list[int]:
        query = select(LeagueTeam.id).where(LeagueTeam.division_id == did).order_by(LeagueTeam.id)
        return [int(t) for t in c.scalars(query)]

    def start_night(self, user: User, lid: int, fid: int) -> int:
        """Mark night ``fid`` playing and hand it to the thread."""
        with self._write("cannot start the night") as c:
            self._owned(c, user, lid)
            fixture = c.execute(
                select(LeagueFixture)
                .join(LeagueDivision, LeagueDivision.id == LeagueFixture.division_id)
                .join(LeagueSeason, LeagueSeason.id == LeagueDivision.season_id)
                .where(LeagueFixture.id == fid, LeagueSeason.league_id == lid)
            ).one_or_none()
            if fixture is None:
                raise NotFound("no such night")
            if fixture.status not in ("scheduled", "failed"):
                raise Refused(f"the night is {fixture.status}")
            claimed = c.execute(
                update(LeagueFixture)
                .where(LeagueFixture.id == fid, LeagueFixture.status == fixture.status)
                .values(status="playing")
            )
            if claimed.rowcount != 1:  # two clicks at once, or the clock, on PostgreSQL
                raise Refused("the night has just been started")
        self._jobs.put(fid)
        return fid

    def close(self, user: User, lid: int, data: dict[str, Any]) -> dict[str, Any]:
        """End the league's season (see the module): its final tables, and season N+1's
        divisions (team names, level 1 first)."""
        _only(data, {"moves"})
        moves = _whole(data.get("moves", 1), "moves", 0, MAX_TEAMS // 2)
        with self._write("cannot close the season") as c:
            _, season = self._owned(c, user, lid)
            if season.status != "scheduled":
                said = "not scheduled yet" if season.status == "open" else "closed already"
                raise Refused(f"season {season.number} is {said}: only a season played ends")
            divisions = c.execute(
                select(LeagueDivision)
                .where(LeagueDivision.season_id == season.id)
                .order_by(LeagueDivision.level)
            ).all()
            ids = [d.id for d in divisions]
            left = c.execute(
                select(LeagueFixture.status, func.count())
                .where(LeagueFixture.division_id.in_(ids), LeagueFixture.status != "played")
                .group_by(LeagueFixture.status)
            ).all()
            if left:
                said = ", ".join(f"{n} {status}" for status, n in sorted(left))
                raise Refused(
                    f"season {season.number} has nights not played ({said}): play them first"
                )
            finals = [self._division(c, d)["standings"] for d in divisions]
            teams = {
                t.id: t
                for t in c.execute(select(LeagueTeam).where(LeagueTeam.division_id.in_(ids)))
            }
            # promote() moves names: the teams' ids, since two divisions may share a name
            order = [[str(row["id"]) for row in table] for table in finals]
            moved = nights.promote(order, moves)
            c.execute(
                update(LeagueSeason).where(LeagueSeason.id == season.id).values(status="closed")
            )
            sid = _id(
                c.execute(
                    insert(LeagueSeason).values(
                        league_id=lid, number=season.number + 1, status="open"
                    )
                )
            )
            for level, members in enumerate(moved, 1):
                did = _id(c.execute(insert(LeagueDivision).values(season_id=sid, level=level)))
                for key in members:
                    team = teams[int(key)]
                    c.execute(
                        insert(LeagueTeam).values(
                            division_id=did, name=team.name, members=team.members
                        )
                    )
        return {
            "closed": season.number,
            "season": season.number + 1,
            "finals": [[row["team"] for row in table] for table in finals],
            "divisions": [[teams[int(key)].name for key in d] for d in moved],
        }

    # -- the nights' thread

    def _work(self) -> None:
        try:
            self.tables.release_played()
        except (TricktableError, TimeoutError) as exc:
            self.log(f"leagues: {exc}")
        while True:
            try:
                fid = self._jobs.get(timeout=self._wait())
            except queue.Empty:
                fid = self._claim_due()
            if fid < 0:  # a night plays that this thread was not given: look again soon
                time.sleep(1.0)
                continue
            if not fid:
                continue
            lease = f"night/{fid}"
            if self.hub is not None and not self.hub.cluster.hold_now(lease):
                # Another server process plays this night (many processes: docs/deploy.md),
                # or Redis cannot say: looked at again in a while (a night played elsewhere
                # is then over, and play() returns at once).
                again = threading.Timer(RETRY_S, self._jobs.put, (fid,))
                again.daemon = True
                again.start()
                continue
            try:
                self.play(fid)
            except Exception as exc:  # a night that cannot be played fails; the server goes on
                self.log(f"league night {fid}: {' '.join(str(exc).split())[:300]}")
                try:
                    with self._write("cannot mark the night failed") as c:
                        c.execute(
                            update(LeagueFixture)
                            .where(LeagueFixture.id == fid, LeagueFixture.status == "playing")
                            .values(status="failed")
                        )
                except StoreError as again:
                    self.log(f"league night {fid}: {again}")
            finally:
                if self.hub is not None:
                    self.hub.cluster.done(lease)

    def _wait(self) -> float | None:
        """Seconds until the next due night (none: sleep until woken)."""
        try:
            with self.store._read("cannot read the nights' dates") as c:
                due = c.scalar(
                    select(func.min(LeagueFixture.due)).where(LeagueFixture.status == "scheduled")
                )
        except StoreError as exc:
            self.log(f"leagues: {exc}")
            return RETRY_S
        found = _utc(due)
        if found is None:
            return None
        return max((found - datetime.now(UTC)).total_seconds(), 0.0) + 0.01

    def _claim_due(self) -> int:
        """Mark the next due night playing; its id, 0 if none is due, -1 while another plays."""
        now = datetime.now(UTC)
        try:
            with self._write("cannot start a due night") as c:
                if c.scalar(select(LeagueFixture.id).where(LeagueFixture.status == "playing")):
                    return -1  # queued by hand: the thread plays it first, then comes back
                fid = c.scalar(
                    select(LeagueFixture.id)
                    .where(LeagueFixture.status == "scheduled", LeagueFixture.due <= now)
                    .order_by(LeagueFixture.due, LeagueFixture.id)
                    .limit(1)
                )
                if fid is None:
                    return 0
                claimed = c.execute(
                    update(LeagueFixture)
                    .where(LeagueFixture.id == fid, LeagueFixture.status == "scheduled")
                    .values(status="playing")
                )
                if claimed.rowcount != 1:
                    return -1  # another server of this database claimed it first
        except StoreError as exc:
            self.log(f"leagues: {exc}")
            return 0
        self.log(f"league night {fid}: due, played")
        return int(fid)

    def play(self, fid: int) -> None:
        """Play night ``fid`` here (the thread calls it) deal by deal from what is stored,
        then score it."""
        from tricktable.tournament.play import play_units

        with self.store._read("cannot read the night") as c:
            fixture = c.execute(select(LeagueFixture).where(LeagueFixture.id == fid)).one()
            division = c.execute(
                select(LeagueDivision).where(LeagueDivision.id == fixture.division_id)
            ).one()
            season = c.execute(
                select(LeagueSeason).where(LeagueSeason.id == division.season_id)
            ).one()
            league = c.execute(select(League).where(League.id == season.league_id)).one()
            teams = c.execute(
                select(LeagueTeam)
                .where(LeagueTeam.division_id == division.id)
                .order_by(LeagueTeam.id)
            ).all()
            tables = c.scalars(
                select(LeagueNightTable.teams)
                .where(LeagueNightTable.fixture_id == fid)
                .order_by(LeagueNightTable.table_no)
            ).all()
        if fixture.status != "playing":
            return  # scored already (queued twice): never counted twice
        index = {t.id: i for i, t in enumerate(teams)}
        pairs = [tuple(index[x] for x in json.loads(t)) for t in tables]
        members = [json.loads(t.members) for t in teams]
        units = nights.units(league.game, members, pairs, league.deals, fixture.seed)  # type: ignore[arg-type]
        tid = self._tournament(fid, league, season, division, fixture, teams, members)
        store = self.store.store
        done = store.done_units(tid)
        ids = [e.id for e in store.entrants(tid)]
        # The tables where a person sits are the hub's, made (or found again) first. Nothing
        # of the night is stored until they have all ended: a stored game is read from the
        # tournaments' pages, and a person still playing a deal must not read how it fell.
        people = sorted({u.table for u in units if any(map(nights.is_person, u.players))})
        left = [u for u in units if u.table in people and u.key not in done]
        if left:
            self.tables.make(fid, league, fixture.seed, [u for u in units if u.deal == 0], left)
            self.tables.store_when_over(fid, tid, league.game, ids, left)
        for deal in range(league.deals):
            batch = [
                u for u in units if u.deal == deal and u.key not in done and u.table not in people
            ]
            if not batch:
                continue
            store.add_games(game_row(tid, ids, p) for p in play_units(batch))
        with self._write("cannot store the night's results") as c:
            boards = self._boards(c, tid, [t.id for t in teams])
            if len(boards) != len(units):
                raise StoreError(f"the night has {len(boards)} games stored of {len(units)}")
            marked = c.execute(
                update(LeagueFixture)
                .where(LeagueFixture.id == fid, LeagueFixture.status == "playing")
                .values(status="played", date=datetime.now(UTC))
            )
            if marked.rowcount != 1:
                return  # another server scored it: the transaction writes nothing more
            c.execute(delete(LeagueResult).where(LeagueResult.fixture_id == fid))
            for team, deals in nights.duplicate_scores(boards).items():
                c.execute(
                    insert(LeagueResult).values(
                        fixture_id=fid,
                        team_id=team,
                        deals=len(deals),
                        score=sum(v for _, v in deals) / len(deals),
                    )
                )
        if people:
            self.tables.release([fid])
        # Its games on the players' pages: the accounts', bots' and characters' who played.
        fill_games(store, tid, quiet=True)

    def _tournament(
        self,
        fid: int,
        league: Any,
        season: Any,
        division: Any,
        fixture: Any,
        teams: Sequence[Any],
        members: Sequence[Sequence[str]],
    ) -> int:
        """The tournament night ``fid``'s games are stored under: made now, or found again
        (a night played on after a restart); the fixture points to it from the start."""
        store = self.store.store
        where = f"season {season.number}, division {division.level}, night {fixture.night}"
        name = f"league {league.name}: {where} ({fid})"
        found = store.find_tournament(name)
        if found is not None:
            tid = found.id
            if [e.name for e in store.entrants(tid)] != [t.name for t in teams]:
                raise StoreError(f"tournament {name!r} holds other teams than the night's")
        else:
            spec = {
                "format": "league-night",
                "game": league.game,
                "deals": league.deals,
                "seed": fixture.seed,
                "league": league.id,
                "fixture": fid,
            }
            if nights.has_people(members):
                # The tournaments' page shows a spec's seed: a person would read every
                # deal's cards from it before playing them. The night keeps it.
                del spec["seed"]
            tid = store.create_tournament(
                name,
                spec,
                [(t.name, "+".join(m)) for t, m in zip(teams, members, strict=True)],
                status="league",
            )
        with self._write("cannot mark the night's tournament") as c:
            mark = update(LeagueFixture).where(LeagueFixture.id == fid)
            c.execute(mark.values(tournament_id=tid))
        return tid

    # -- reading

    def listing(self) -> list[dict[str, Any]]:
        """Every league, the newest first."""
        with self.store._read("cannot read the leagues") as c:
            rows = c.execute(select(League).order_by(League.id.desc()).limit(100)).all()
        return [{"id": r.id, "name": r.name, "game": r.game, "deals": r.deals} for r in rows]

    def detail(self, lid: int, number: int | None = None) -> dict[str, Any]:
        """One league: a season's (its latest by default) divisions, each with teams, nights
        and standings; the seasons; when its next night is due."""
        with self.store._read("cannot read the league") as c:
            league = c.execute(select(League).where(League.id == lid)).one_or_none()
            if league is None:
                raise NotFound("no such league")
            season = self._season(c, lid, number)
            seasons = c.execute(
                select(LeagueSeason.number, LeagueSeason.status)
                .where(LeagueSeason.league_id == lid)
                .order_by(LeagueSeason.number)
            ).all()
            divisions = [
                self._division(c, division)
                for division in c.execute(
                    select(LeagueDivision)
                    .where(LeagueDivision.season_id == season.id)
                    .order_by(LeagueDivision.level)
                ).all()
            ]
        due = [n["due"] for d in divisions for n in d["nights"] if n["status"] == "scheduled"]
        return {
            "id": league.id,
            "name": league.name,
            "game": league.game,
            "deals": league.deals,
            "every": league.every,
            "owner": league.owner,
            "season": {"number": season.number, "status": season.status},
            "seasons": [{"number": s.number, "status": s.status} for s in seasons],
            "next": min((d for d in due if d), default=None),
            "divisions": divisions,
        }

    def _division(self, c: Any, division: Any) -> dict[str, Any]:
        teams = c.execute(
            select(LeagueTeam).where(LeagueTeam.division_id == division.id).order_by(LeagueTeam.id)
        ).all()
        fixtures = c.execute(
            select(LeagueFixture)
            .where(LeagueFixture.division_id == division.id)
            .order_by(LeagueFixture.night)
        ).all()
        names = {t.id: t.name for t in teams}
        played: list[int] = []
        out_nights = []
        for f in fixtures:
            tables = c.scalars(
                select(LeagueNightTable.teams)
                .where(LeagueNightTable.fixture_id == f.id)
                .order_by(LeagueNightTable.table_no)
            ).all()
            done = 0
            if f.tournament_id is not None:
                query = select(func.count()).where(Game.tournament_id == f.tournament_id)
                done = int(c.scalar(query) or 0)
            out_nights.append(
                {
                    "id": f.id,
                    "night": f.night,
                    "status": f.status,
                    "tables": [[names[x] for x in json.loads(t)] for t in tables],
                    "tournament": f.tournament_id,
                    "due": _iso(f.due),
                    "date": _iso(f.date),
                    "games": done,
                    "rooms": self.tables.rooms(f.id),
                }
            )
            if f.status == "played" and f.tournament_id is not None:
                played.append(f.tournament_id)
        table = self._standings(c, names, played)
        ids = {t.name: t.id for t in teams}
        return {
            "level": division.level,
            "teams": [
                {"id": t.id, "name": t.name, "members": json.loads(t.members)} for t in teams
            ],
            "nights": out_nights,
            "standings": [{"id": ids[row.team], **row.to_dict()} for row in table],
        }

    def _standings(
        self, c: Any, names: dict[int, str], played: list[int]
    ) -> list[nights.TeamStanding]:
        """A division's table from its played nights' tournaments. Kept by the nights it
        counts: a division of 16 teams at the end of its season is ~4,000 games to read and
        rate (most of a second), and the page asks every two seconds while a night plays."""
        if not names:
            return []
        key = (tuple(names), tuple(played))
        found = self._tables.get(key)
        if found is None:
            boards = [self._boards(c, tid, list(names)) for tid in played]
            found = nights.standings(names, boards)
            with self._lock:
                if len(self._tables) >= MAX_KEPT:
                    self._tables.clear()  # the simplest bound; a page's next read refills it
                self._tables[key] = found
        return found

    @staticmethod
    def _boards(c: Any, tid: int, team_ids: list[int]) -> list[nights.Board]:
        entrants = c.scalars(
            select(Entrant.id).where(Entrant.tournament_id == tid).order_by(Entrant.id)
        ).all()
        team_of = dict(zip(entrants, team_ids, strict=True))
        games = c.execute(
            select(Game.round_no, Game.seats, Game.result).where(Game.tournament_id == tid)
        ).all()
        return [
            nights.Board(
                g.round_no,
                tuple(team_of[e] for e in json.loads(g.seats)),
                _scores(json.loads(g.result)),
            )
            for g in games
        ]
