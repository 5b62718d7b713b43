"""A tournament's games on the web: each watched live while a worker plays it, and replayed
once it is stored — by the one replay page, from the one journal of steps (issue 28 item 1).

Routes (mounted by :func:`tricktable.web.tournaments.routes`):

- ``GET /api/tournaments/{id}/games``: the games being played now (``playing``: each its unit
  and page) — those whose worker has journaled them (:mod:`tricktable.tournament.live`: a game
  shorter than half a second never is) — and the last stored ones (``recent``).
- ``GET /api/tournaments/{id}/games/{unit}/replay`` (``?step=K``): the game's index of steps,
  or step K's snapshot, every hand face up (bots alone play a tournament: nothing is hidden
  from anyone, as in the arena). Live: from the worker's journal so far (``over`` false, the
  page asks again); stored: from its record, the same steps.
- ``/tournaments/{id}/games/{unit}``: the page (``static/replay.html``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from tricktable.db import StoreError
from tricktable.db.models import Game
from tricktable.db.store import TournamentInfo
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.tournament import live
from tricktable.web.replay import MatchSteps, record_journal, steps_answer
from tricktable.web.store import JournalRow, WebStore

PAGE: Final = Path(__file__).with_name("static") / "replay.html"
#: the stored games a tournament's answer lists, the newest first
RECENT: Final = 10
#: the longest unit key taken (``g12/d1999/t7``)
MAX_UNIT: Final = 100


def game_steps(store: WebStore, info: TournamentInfo, unit: str) -> MatchSteps | None:
    """Game ``unit`` of tournament ``info`` cut into steps: live from its worker's journal,
    else from its stored record; None where there is no such game (yet)."""
    steps = live.steps_of(store.store, info.id, unit)
    if steps:
        begin = steps[0]
        game = load_game(str(info.spec.get("game", "")))
        names = [str(n) for n in begin[5]] if len(begin) > 5 else []
        if len(names) != game.num_players:
            names = [f"seat {s}" for s in range(game.num_players)]
        rows = [JournalRow(1, 1, steps)]
        return MatchSteps(game, rows, int(begin[2]), names, ["bot"] * game.num_players)
    with store.store.engine.connect() as connection:
        text = connection.scalar(
            select(Game.record).where(Game.tournament_id == info.id, Game.unit == unit)
        )
    if text is None:
        return None
    game, rows, seed, names = record_journal(json.loads(text))
    return MatchSteps(game, rows, seed, names, ["bot"] * game.num_players)


def listing(store: WebStore, info: TournamentInfo) -> dict[str, Any]:
    """The games being played now and the last stored, each with its page."""
    base = f"/tournaments/{info.id}/games/"
    playing = live.playing(store.store, info.id)
    with store.store.engine.connect() as connection:
        recent = connection.scalars(
            select(Game.unit)
            .where(Game.tournament_id == info.id)
            .order_by(Game.id.desc())
            .limit(RECENT)
        ).all()
    return {
        "playing": [{"unit": u, "page": base + u} for u in playing],
        "recent": [{"unit": u, "page": base + u} for u in recent],
    }


def routes(store: WebStore, find: Callable[[int], TournamentInfo | None]) -> list[Route]:
    """The routes of the games of the tournaments ``find`` finds."""

    def error(status: int, line: str) -> Response:
        return JSONResponse({"error": line}, status_code=status)

    def tournament(request: Request) -> TournamentInfo | Response:
        raw = request.path_params["id"]
        found = find(int(raw)) if raw.isdigit() and len(raw) <= 12 else None
        return error(404, "no such tournament") if found is None else found

    def unit_of(request: Request) -> str | Response:
        unit = str(request.path_params["unit"])
        if not 1 <= len(unit) <= MAX_UNIT or not unit.isprintable():
            return error(404, "no such game")
        return unit

    async def games(request: Request) -> Response:
        info = tournament(request)
        if isinstance(info, Response):
            return info
        try:
            return JSONResponse(await asyncio.to_thread(listing, store, info))
        except (StoreError, TricktableError) as exc:
            return error(503, " ".join(str(exc).split())[:300])

    async def replay(request: Request) -> Response:
        info = tournament(request)
        unit = unit_of(request)
        if isinstance(info, Response):
            return info
        if isinstance(unit, Response):
            return unit
        try:
            steps = await asyncio.to_thread(game_steps, store, info, unit)
        except (StoreError, TricktableError, ValueError, KeyError, IndexError, TypeError) as exc:
            return error(409, f"game {unit[:40]!r} does not replay: {str(exc)[:200]}")
        if steps is None:
            return error(404, f"no game {unit[:40]!r} in this tournament (yet)")
        head = {"tournament": info.id, "unit": unit, "match": 1, "last": steps.last}
        title = f"{info.name}: {', '.join(steps.names)}"
        status, body = await steps_answer(steps, head, title, request.query_params)
        body.setdefault("over", steps.over)
        return JSONResponse(body, status_code=status)

    async def page(request: Request) -> Response:
        return FileResponse(PAGE)

    return [
        Route("/api/tournaments/{id}/games", games),
        Route("/api/tournaments/{id}/games/{unit:path}/replay", replay),
        Route("/tournaments/{id}/games/{unit:path}", page),
    ]


__all__ = ["game_steps", "listing", "routes"]
