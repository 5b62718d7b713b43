"""Leagues from the web (issue 28 item 6): a league of bot teams, its seasons and divisions'
round robins of duplicate nights, played now or when due, each division's standings, and the
season's end with promotion and relegation.

Routes (:func:`routes`, mounted by :func:`tricktable.web.app.make_app`); the writes take an
account's session, its CSRF token and this server's origin, and only the league's owner:

- ``POST /api/leagues`` ``{name, game, deals, divisions?}``: a league, its season 1 and its
  divisions (level 1 the top). The game must have two sides (:func:`~tricktable.league.night.
  check_game`).
- ``POST /api/leagues/{id}/teams`` ``{division, name, members}``: a team of tricktable's own
  bots and characters, and accounts' people (``user:NAME``; the account must exist), before
  the season is scheduled. A member fills its side's seats in turn; a person sits at one
  seat, so a team with a person names a member for each seat of its side.
- ``POST /api/leagues/{id}/schedule`` ``{start?, every?}``: every division's round robin of
  nights, each night's seed drawn now; with ``start`` (ISO 8601 with its offset) and ``every``
  (seconds) the server plays night ``n`` at start + (n - 1) × every by itself.
- ``POST /api/leagues/{id}/nights/{fixture}``: play a night now (202).
- ``POST /api/leagues/{id}/close`` ``{moves?}``: end the season once every night is played
  (409 before): promotion and relegation, and season N+1 opened with the moved teams.
- ``GET /api/leagues``, ``GET /api/leagues/{id}?season=N``: the leagues; one league's season
  (the latest by default): divisions, teams, nights and standings, and the next night's time.
  A night lists its ``rooms``: the tables of the hub where its people play (``{table, url,
  people}``), so a person finds their table from the page.
- ``/leagues``, ``/leagues/{id}``: the page (``static/leagues.html``).

What is kept where, the nights' thread, resuming and the season's end:
:mod:`tricktable.league.service`; which tables play which deals and how a night is scored:
:mod:`tricktable.league.night`; the tables where people sit: :mod:`tricktable.web.room`
(a league night's table) and docs/leagues.md.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from tricktable.db import StoreError
from tricktable.errors import TricktableError
from tricktable.league.service import Leagues, NotFound, Refused, league_games
from tricktable.web.store import User, WebStore

if TYPE_CHECKING:
    from tricktable.web.hub import Hub

PAGE: Final = Path(__file__).with_name("static") / "leagues.html"

Log = Callable[[str], None]


# ---------------------------------------------------------------------------------- routes


def routes(store: WebStore, log: Log | None = None, hub: Hub | None = None) -> list[Route]:
    """The leagues' routes for ``store``'s server; starts the nights' thread, which plays
    on the nights a server stopped before left playing, and the nights due. ``hub``: the
    server's tables, where a night's people play (without it, a night with a person fails
    and says why)."""
    from tricktable.web import app as web_app
    from tricktable.web.tournaments import choices

    leagues = Leagues(store, log or _print, hub)
    leagues.start()

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
        return await write(request, lambda u, d: {"nights": leagues.schedule(u, lid, d)})

    async def close(request: Request) -> Response:
        lid = number(request, "id")
        if lid is None:
            return web_app._error(404, "no such league")
        return await write(request, lambda u, d: leagues.close(u, lid, d))

    async def run_night(request: Request) -> Response:
        lid, fid = number(request, "id"), number(request, "fixture")
        if lid is None or fid is None:
            return web_app._error(404, "no such night")
        return await write(request, lambda u, d: {"playing": leagues.start_night(u, lid, fid)})

    def listing(request: Request) -> Response:
        try:
            found = leagues.listing()
            return JSONResponse({"leagues": found, "choices": choices(), "games": league_games()})
        except StoreError as exc:
            return answer(exc)

    def one(request: Request) -> Response:
        lid = number(request, "id")
        if lid is None:
            return web_app._error(404, "no such league")
        raw = request.query_params.get("season")
        if raw is not None and not (raw.isdigit() and len(raw) <= 6):
            return web_app._error(400, "season is a season's number")
        try:
            return JSONResponse(leagues.detail(lid, None if raw is None else int(raw)))
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
        Route("/api/leagues/{id}/close", close, methods=["POST"]),
        Route("/leagues", page),
        Route("/leagues/{id}", page),
    ]


def _print(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
