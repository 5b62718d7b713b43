"""The arena (docs/protocol-web.md, "The arena"): bots alone play a match while people watch.

``POST /api/arena`` seats up to a game's seat count of bots — a web service by its URL
(``{endpoint: URL}``), an account's web-service or program bot by name (``{bot: NAME}``), a
level (``{level: ...}``) or a character (``{character: NAME}``); empty seats get the built-in
AI — and starts the match at once, counted as every table of bots alone is. No person plays,
so the table shows its watchers every hand face up (``Table.open_hands``). A URL is checked
for its form here and called only through the endpoint guard (public addresses alone unless
``serve --allow-local-bots``); a bot that fails is substituted (or forfeits, by its game's
rule) and the table shows the fault. ``GET /arena`` is the page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from tricktable.protocols.endpoints import EndpointRefused, check_url
from tricktable.web.settings import (
    BOT_NAMES,
    ENDPOINT,
    LEVELS,
    REGISTERED,
    BadRequest,
    check_settings,
    endpoint_name,
)
from tricktable.web.store import User

Handler = Callable[[Request], Awaitable[Response]]
Needs = Callable[[Callable[[Request, User], Awaitable[Response]]], Handler]

#: what an empty seat gets: the built-in AI at its middle level
EMPTY: Final = "club"
#: the longest endpoint URL read (a real one is far shorter)
MAX_URL: Final = 2000


def seat_of(i: int, entry: object, store: Any) -> dict[str, Any]:
    """One arena seat as the hub stores it (``{kind, name, spec}``); BadRequest if bad."""
    from tricktable.characters.roster import CHARACTERS

    if entry is None or entry == {}:
        entry = {"level": EMPTY}
    if not isinstance(entry, dict) or len(entry) > 2:
        raise BadRequest(f"seat {i}: an object: {{endpoint}}, {{bot}}, {{level}} or {{character}}")
    if "endpoint" in entry:
        url = entry["endpoint"]
        if not isinstance(url, str) or not 1 <= len(url) <= MAX_URL:
            raise BadRequest(f"seat {i}: endpoint is a URL: http://HOST[:PORT]/PATH")
        try:
            checked = str(check_url(url))
        except EndpointRefused as exc:
            raise BadRequest(f"seat {i}: {str(exc).splitlines()[0]}") from None
        return {"kind": "bot", "name": endpoint_name(checked), "spec": ENDPOINT + checked}
    if "bot" in entry:
        name = entry["bot"]
        row = store.bot(name) if isinstance(name, str) and 1 <= len(name) <= 60 else None
        if row is None or row.revoked:
            shown = str(name)[:40]
            raise BadRequest(f"seat {i}: there is no bot named {shown!r}")
        if row.kind not in ("http", "program"):
            raise BadRequest(
                f"seat {i}: {row.name} connects by itself (a websocket bot): invite it to a table"
            )
        return {"kind": "bot", "name": row.name, "spec": REGISTERED + row.name}
    level = entry.get("level", EMPTY)
    if level not in LEVELS:
        raise BadRequest(f"seat {i}: level is beginner, club or expert")
    if "character" in entry:
        name = entry["character"]
        if not isinstance(name, str) or name.lower() not in CHARACTERS:
            raise BadRequest(f"seat {i}: a character is one of {', '.join(CHARACTERS)}")
        key = name.lower()
        spec = f"{key}(base=ismcts)" if level == "expert" else key
        return {"kind": "character", "name": CHARACTERS[key].display, "spec": spec}
    if set(entry) != {"level"}:
        raise BadRequest(f"seat {i}: an object: {{endpoint}}, {{bot}}, {{level}} or {{character}}")
    return {"kind": "bot", "name": BOT_NAMES[level], "spec": LEVELS[level]}


def arena_table(data: dict[str, Any], store: Any) -> tuple[str, list[dict[str, Any]]]:
    """The game's spec and every seat of an arena request (``data``); BadRequest if bad."""
    from tricktable.games import load_game

    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise BadRequest("game is a game's or variant's name (GET /api/games lists them)")
    spec = check_settings({"game": game, "options": data.get("options"), "seats": []})["spec"]
    n = load_game(spec).num_players
    given = data.get("seats", [])
    if not isinstance(given, list):
        raise BadRequest("seats is a list: one entry a seat, null for the built-in AI")
    if len(given) > n:
        raise BadRequest(f"this {game[:40]} table has {n} seats, not {len(given)}")
    seats = [seat_of(i, given[i] if i < len(given) else None, store) for i in range(n)]
    # Two of one name are told apart (and so their avatars): "Expert bot 2", as a table's.
    count: dict[str, int] = {}
    for seat in seats:
        count[seat["name"]] = count.get(seat["name"], 0) + 1
        if count[seat["name"]] > 1:
            seat["name"] = f"{seat['name']} {count[seat['name']]}"
    return spec, seats


def routes(web: Any, needs_session: Needs) -> list[Route]:
    """The arena's routes: its page and ``POST /api/arena`` (a signed-in person, a guest
    too: as any table of bots alone a person may start)."""
    # app.py imports this module: its guards are read once both are loaded.
    from tricktable.web import app as web_app

    async def start(request: Request, user: User) -> Response:
        if not web_app._same_origin(request.headers.get("origin"), request.headers.get("host")):
            return web_app._error(403, "wrong origin")
        data = await web_app.read_body(request)
        spec, seats = arena_table(data, web.store)
        room = web.hub.create_bots_table(user, spec, seats)
        return JSONResponse({"table": room.id, "url": f"/t/{room.id}", "info": room.info()})

    async def page(request: Request) -> Response:
        path = web_app.STATIC / "arena.html"
        if path.is_file():
            return FileResponse(path)
        return HTMLResponse("<!doctype html><title>tricktable</title><p>arena.html is missing")

    return [
        Route("/arena", page),
        Route("/api/arena", needs_session(start), methods=["POST"]),
    ]


__all__ = ["arena_table", "routes", "seat_of"]
