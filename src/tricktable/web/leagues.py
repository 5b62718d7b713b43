"""Leagues from the web (issue 28 item 6): a league of bot teams, its divisions' round robins
of duplicate nights, a night played now, and each division's standings.

Routes (:func:`routes`, mounted by :func:`tricktable.web.app.make_app`); the writes take an
account's session, its CSRF token and this server's origin, and only the league's owner:

- ``POST /api/leagues`` ``{name, game, deals, divisions?}``: a league, its season 1 and its
  divisions (level 1 the top). The game must have two sides (:func:`~tricktable.league.night.
  check_game`).
- ``POST /api/leagues/{id}/teams`` ``{division, name, members}``: a team of tricktable's own
  bots and characters (a member fills its side's seats in turn), before the season is
  scheduled.
- ``POST /api/leagues/{id}/schedule``: every division's round robin of nights, each night's
  seed drawn now.
- ``POST /api/leagues/{id}/nights/{fixture}``: play a night now (202). It is played on a thread
  of this module's, never on the server's loop, one night at a time; its games are stored as a
  tournament's (``league …``), so every table's record replays as any other.
- ``GET /api/leagues``, ``GET /api/leagues/{id}``: the leagues; one league's divisions, teams,
  nights and standings (:func:`~tricktable.league.night.standings`).
- ``/leagues``, ``/leagues/{id}``: the page (``static/leagues.html``).

Which tables play which deals, and how a night is scored: :mod:`tricktable.league.night`.
People in teams, dates and the end of a season (:func:`~tricktable.league.night.promote` is
written and tested, not yet a route) are left for later.
"""

from __future__ import annotations

import asyncio
import json
import queue
import secrets
import sys
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import insert, select, update
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from tricktable.db import GameRow, StoreError
from tricktable.db.league_models import (
    League,
    LeagueDivision,
    LeagueFixture,
    LeagueNightTable,
    LeagueResult,
    LeagueSeason,
    LeagueTeam,
)
from tricktable.db.models import Game
from tricktable.errors import OptionError, TricktableError
from tricktable.league import night as nights
from tricktable.web.store import User, WebStore

PAGE: Final = Path(__file__).with_name("static") / "leagues.html"
#: the most deals a night plays at every table
MAX_DEALS: Final = 32
#: divisions a league has, and teams a division (a night's tables: half of them)
MAX_DIVISIONS: Final = 4
MAX_TEAMS: Final = 16
#: members a team lists (a partnership's seats), and the longest name or spec
MAX_MEMBERS: Final = 2
MAX_TEXT: Final = 80

Log = Callable[[str], None]


class Refused(TricktableError):
    """A write the league's state does not allow now (409)."""


class NotFound(TricktableError):
    """No such league or night (404)."""


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


class Leagues:
    """What the routes read and write: the leagues of one server's database, and the thread
    that plays their nights."""

    def __init__(self, store: WebStore, log: Log) -> None:
        self.store = store
        self.log = log
        self._jobs: queue.SimpleQueue[int] = queue.SimpleQueue()
        threading.Thread(target=self._work, name="league nights", daemon=True).start()

    # -- writing

    def create(self, user: User, data: dict[str, Any]) -> int:
        """A new league (and its season 1 and divisions); its id."""
        _only(data, {"name", "game", "deals", "divisions"})
        name = _text(data.get("name"), "a league's name")
        game = _text(data.get("game"), "game")
        nights.check_game(game)
        deals = _whole(data.get("deals"), "deals", 1, MAX_DEALS)
        divisions = _whole(data.get("divisions", 1), "divisions", 1, MAX_DIVISIONS)
        with self.store._write("cannot create the league") as c:
            if c.scalar(select(League.id).where(League.name == name)) is not None:
                raise Refused(f"a league named {name!r} exists: choose another name")
            now = datetime.now(UTC)
            lid = _id(
                c.execute(
                    insert(League).values(
                        name=name, game=game, deals=deals, owner=user.id, created=now
                    )
                )
            )
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
        season = c.execute(
            select(LeagueSeason)
            .where(LeagueSeason.league_id == lid)
            .order_by(LeagueSeason.number.desc())
        ).first()
        return league, season

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
        for spec in specs:
            if spec.lower() in PEOPLE or not is_builtin_player(spec):
                raise OptionError(
                    f"member {spec[:40]!r}: only tricktable's own bots and characters play a "
                    "league's nights here"
                )
        with self.store._write("cannot add the team") as c:
            _, season = self._owned(c, user, lid)
            if season.status != "open":
                raise Refused("the season is scheduled: teams are added before")
            did = c.scalar(
                select(LeagueDivision.id).where(
                    LeagueDivision.season_id == season.id, LeagueDivision.level == level
                )
            )
            if did is None:
                raise OptionError(f"the league has no division {level}")
            teams = c.execute(select(LeagueTeam.name).where(LeagueTeam.division_id == did)).all()
            if name in {t.name for t in teams}:
                raise Refused(f"division {level} has a team named {name!r}")
            if len(teams) >= MAX_TEAMS:
                raise Refused(f"division {level} has {MAX_TEAMS} teams, the most it takes")
            row = insert(LeagueTeam).values(division_id=did, name=name, members=json.dumps(specs))
            return _id(c.execute(row))

    def schedule(self, user: User, lid: int) -> int:
        """Every division's round robin of nights; how many nights."""
        made = 0
        with self.store._write("cannot schedule the season") as c:
            _, season = self._owned(c, user, lid)
            if season.status != "open":
                raise Refused("the season is scheduled already")
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
                    fid = _id(
                        c.execute(
                            insert(LeagueFixture).values(
                                division_id=did,
                                night=n,
                                seed=secrets.randbits(63),
                                status="scheduled",
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
        return made

    @staticmethod
    def _team_ids(c: Any, did: int) -> list[int]:
        query = select(LeagueTeam.id).where(LeagueTeam.division_id == did).order_by(LeagueTeam.id)
        return [int(t) for t in c.scalars(query)]

    def start_night(self, user: User, lid: int, fid: int) -> int:
        """Mark night ``fid`` playing and hand it to the thread."""
        with self.store._write("cannot start the night") as c:
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
            c.execute(update(LeagueFixture).where(LeagueFixture.id == fid).values(status="playing"))
        self._jobs.put(fid)
        return fid

    # -- the nights' thread

    def _work(self) -> None:
        while True:
            fid = self._jobs.get()
            try:
                self.play(fid)
            except Exception as exc:  # a night that cannot be played fails; the server goes on
                self.log(f"league night {fid}: {' '.join(str(exc).split())[:300]}")
                try:
                    with self.store._write("cannot mark the night failed") as c:
                        c.execute(
                            update(LeagueFixture)
                            .where(LeagueFixture.id == fid)
                            .values(status="failed")
                        )
                except StoreError as again:
                    self.log(f"league night {fid}: {again}")

    def play(self, fid: int) -> None:
        """Play night ``fid`` here (the thread calls it), store its games and results."""
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
            tables = c.execute(
                select(LeagueNightTable.teams)
                .where(LeagueNightTable.fixture_id == fid)
                .order_by(LeagueNightTable.table_no)
            ).all()
        index = {t.id: i for i, t in enumerate(teams)}
        pairs = [tuple(index[x] for x in json.loads(t.teams)) for t in tables]
        members = [json.loads(t.members) for t in teams]
        units = nights.units(league.game, members, pairs, league.deals, fixture.seed)  # type: ignore[arg-type]
        played = play_units(units)
        store = self.store.store
        where = f"season {season.number}, division {division.level}, night {fixture.night}"
        name = f"league {league.name}: {where} ({fid})"
        spec = {
            "format": "league-night",
            "game": league.game,
            "deals": league.deals,
            "seed": fixture.seed,
            "league": league.id,
            "fixture": fid,
        }
        tid = store.create_tournament(
            name,
            spec,
            [(t.name, "+".join(m)) for t, m in zip(teams, members, strict=True)],
            status="league",
        )
        ids = [e.id for e in store.entrants(tid)]
        store.add_games(
            GameRow(
                tournament_id=tid,
                unit=p.key,
                round_no=p.deal,
                table_no=p.table,
                seats=[ids[e] for e in p.entrants],
                seed=p.seed,
                record=p.record,
                result=p.result,
                faults=list(p.faults),
            )
            for p in played
        )
        boards = [
            nights.Board(p.deal, tuple(teams[e].id for e in p.entrants), _scores(p.result))
            for p in played
        ]
        scores = nights.duplicate_scores(boards)
        with self.store._write("cannot store the night's results") as c:
            for team, deals in scores.items():
                c.execute(
                    insert(LeagueResult).values(
                        fixture_id=fid,
                        team_id=team,
                        deals=len(deals),
                        score=sum(v for _, v in deals) / len(deals),
                    )
                )
            c.execute(
                update(LeagueFixture)
                .where(LeagueFixture.id == fid)
                .values(status="played", tournament_id=tid, date=datetime.now(UTC))
            )

    # -- reading

    def listing(self) -> list[dict[str, Any]]:
        """Every league, the newest first."""
        with self.store._read("cannot read the leagues") as c:
            rows = c.execute(select(League).order_by(League.id.desc()).limit(100)).all()
        return [{"id": r.id, "name": r.name, "game": r.game, "deals": r.deals} for r in rows]

    def detail(self, lid: int) -> dict[str, Any]:
        """One league: its latest season's divisions, each with teams, nights and standings."""
        with self.store._read("cannot read the league") as c:
            league = c.execute(select(League).where(League.id == lid)).one_or_none()
            if league is None:
                raise NotFound("no such league")
            season = c.execute(
                select(LeagueSeason)
                .where(LeagueSeason.league_id == lid)
                .order_by(LeagueSeason.number.desc())
                .limit(1)
            ).one()
            divisions = []
            for division in c.execute(
                select(LeagueDivision)
                .where(LeagueDivision.season_id == season.id)
                .order_by(LeagueDivision.level)
            ).all():
                divisions.append(self._division(c, division))
        return {
            "id": league.id,
            "name": league.name,
            "game": league.game,
            "deals": league.deals,
            "season": {"number": season.number, "status": season.status},
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
        played: list[list[nights.Board]] = []
        out_nights = []
        for f in fixtures:
            tables = c.scalars(
                select(LeagueNightTable.teams)
                .where(LeagueNightTable.fixture_id == f.id)
                .order_by(LeagueNightTable.table_no)
            ).all()
            out_nights.append(
                {
                    "id": f.id,
                    "night": f.night,
                    "status": f.status,
                    "tables": [[names[x] for x in json.loads(t)] for t in tables],
                    "tournament": f.tournament_id,
                }
            )
            if f.status == "played" and f.tournament_id is not None:
                played.append(self._boards(c, f.tournament_id, [t.id for t in teams]))
        table = nights.standings(names, played) if names else []
        return {
            "level": division.level,
            "teams": [
                {"id": t.id, "name": t.name, "members": json.loads(t.members)} for t in teams
            ],
            "nights": out_nights,
            "standings": [row.to_dict() for row in table],
        }

    @staticmethod
    def _boards(c: Any, tid: int, team_ids: list[int]) -> list[nights.Board]:
        from tricktable.db.models import Entrant

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


def _id(result: Any) -> int:
    """The id of the row an insert made."""
    return int(result.inserted_primary_key[0])


def _scores(result: dict[str, Any]) -> tuple[float, float]:
    scores = result["scores"]
    return float(scores[0]), float(scores[1])


# ---------------------------------------------------------------------------------- routes


def routes(store: WebStore, log: Log | None = None) -> list[Route]:
    """The leagues' routes for ``store``'s server."""
    from tricktable.web import app as web_app

    leagues = Leagues(store, log or _print)

    def answer(exc: Exception) -> Response:
        if isinstance(exc, NotFound):
            return web_app._error(404, str(exc))
        if isinstance(exc, Refused):
            return web_app._error(409, str(exc))
        if isinstance(exc, StoreError):
            return web_app._error(503, f"the database cannot be used now: {exc}")
        return web_app._error(400, " ".join(str(exc).split())[:300])

    def number(request: Request, key: str) -> int | None:
        raw = request.path_params[key]
        return int(raw) if raw.isdigit() and len(raw) <= 12 else None

    async def write(request: Request, do: Callable[[User, dict[str, Any]], Any]) -> Response:
        if not web_app._same_origin(request.headers.get("origin"), request.headers.get("host")):
            return web_app._error(403, "wrong origin")
        found = request.app.state.web.session(request.session.get("sid"))
        if found is None:
            return web_app._error(401, "no session: sign in to an account to run a league")
        user, csrf = found
        given = request.headers.get("x-csrf-token", "")
        if not given or given != csrf:
            return web_app._error(403, "missing or wrong CSRF token (X-CSRF-Token from /api/me)")
        if user.kind != "account":
            return web_app._error(403, "only an account runs a league: sign up (a guest may watch)")
        try:
            data = await web_app.read_body(request) if request.method == "POST" else {}
            out = await asyncio.to_thread(do, user, data)
        except (web_app.BadRequest, TricktableError) as exc:
            return answer(exc)
        return JSONResponse(out, status_code=202 if "playing" in out else 201)

    async def create(request: Request) -> Response:
        return await write(request, lambda u, d: {"league": leagues.create(u, d)})

    async def team(request: Request) -> Response:
        lid = number(request, "id")
        if lid is None:
            return web_app._error(404, "no such league")
        return await write(request, lambda u, d: {"team": leagues.add_team(u, lid, d)})

    async def schedule(request: Request) -> Response:
        lid = number(request, "id")
        if lid is None:
            return web_app._error(404, "no such league")
        return await write(request, lambda u, d: {"nights": leagues.schedule(u, lid)})

    async def run_night(request: Request) -> Response:
        lid, fid = number(request, "id"), number(request, "fixture")
        if lid is None or fid is None:
            return web_app._error(404, "no such night")
        return await write(request, lambda u, d: {"playing": leagues.start_night(u, lid, fid)})

    def listing(request: Request) -> Response:
        try:
            return JSONResponse({"leagues": leagues.listing()})
        except StoreError as exc:
            return answer(exc)

    def one(request: Request) -> Response:
        lid = number(request, "id")
        if lid is None:
            return web_app._error(404, "no such league")
        try:
            return JSONResponse(leagues.detail(lid))
        except TricktableError as exc:
            return answer(exc)

    def page(request: Request) -> Response:
        if PAGE.is_file():
            return FileResponse(PAGE)
        return HTMLResponse("<!doctype html><title>tricktable</title><p>leagues.html is missing")

    return [
        Route("/api/leagues", listing, methods=["GET"]),
        Route("/api/leagues", create, methods=["POST"]),
        Route("/api/leagues/{id}", one, methods=["GET"]),
        Route("/api/leagues/{id}/teams", team, methods=["POST"]),
        Route("/api/leagues/{id}/schedule", schedule, methods=["POST"]),
        Route("/api/leagues/{id}/nights/{fixture}", run_night, methods=["POST"]),
        Route("/leagues", page),
        Route("/leagues/{id}", page),
    ]


def _print(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
