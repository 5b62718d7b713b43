"""The web server's Starlette application: its HTTP routes and its websocket.

:func:`make_app` wires a :class:`~tricktable.web.hub.Hub` (the rooms) and a
:class:`~tricktable.web.store.WebStore` (the database) into routes (docs/protocol-web.md):
sessions in signed cookies naming a session row, a CSRF token on every post made with a
session, the websocket's ``Origin`` checked, logins rate-limited.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from pwdlib import PasswordHash
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tricktable.db import StoreError
from tricktable.errors import TricktableError
from tricktable.seat.choices import number_word
from tricktable.text import unshowable
from tricktable.web.hub import BadRequest, Conn, Hub
from tricktable.web.replay import Replays, replay_answer
from tricktable.web.store import SESSION_DAYS, NameTaken, User, WebStore

#: the page's files (the browser client, issue 20's PAGE part)
STATIC: Final = Path(__file__).with_name("static")
#: failed logins a minute allowed per name and per address
LOGIN_TRIES: Final = 5
#: new people (guests, accounts) a minute allowed from one address
NEW_PEOPLE: Final = 60
#: the longest JSON body read (bytes)
MAX_BODY: Final = 32 * 1024
#: the shortest password an account may have
MIN_PASSWORD: Final = 8
COOKIE: Final = "tricktable_session"
#: seconds a session read from the database is trusted before it is read again
SESSION_CACHE_S: Final = 5.0

_HASHER = PasswordHash.recommended()

Handler = Callable[[Request], Awaitable[Response]]


class Web:
    """The server's parts the routes share."""

    def __init__(self, store: WebStore, hub: Hub) -> None:
        self.store = store
        self.hub = hub
        self.failures: dict[str, deque[float]] = {}
        #: sessions read recently: id -> (user, csrf, read at); a logout drops its own
        self.sessions: dict[str, tuple[User, str, float]] = {}

    def session(self, sid: object) -> tuple[User, str] | None:
        """The user and CSRF token of session ``sid``, or None (unknown, ended, expired).

        Read from the database at most every few seconds a session: a session ended
        elsewhere (expired, or by another process) ends here within that time.
        """
        if not isinstance(sid, str) or len(sid) > 100:
            return None
        cached = self.sessions.get(sid)
        if cached is not None and time.monotonic() - cached[2] < SESSION_CACHE_S:
            return cached[0], cached[1]
        found = self.store.session(sid)
        if found is None:
            self.sessions.pop(sid, None)
            return None
        if len(self.sessions) > 10_000:
            self.sessions.clear()
        self.sessions[sid] = (found[0], found[1], time.monotonic())
        return found

    def limited(self, *keys: str) -> bool:
        """Whether any of ``keys`` has failed :data:`LOGIN_TRIES` times in the last minute."""
        return any(self.limited_to(key, LOGIN_TRIES) for key in keys)

    def limited_to(self, key: str, most: int) -> bool:
        """Whether ``key`` has been counted ``most`` times in the last minute."""
        now = time.monotonic()
        tries = self.failures.get(key)
        while tries and now - tries[0] > 60:
            tries.popleft()
        if not tries:
            self.failures.pop(key, None)
            return False
        return len(tries) >= most

    def failed(self, *keys: str) -> None:
        """Count a failed login against ``keys``."""
        for key in keys:
            self.failures.setdefault(key, deque()).append(time.monotonic())


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadRequest(f"a request's body is at most {MAX_BODY} bytes")
    if not raw:
        return {}
    import json

    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadRequest("the body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the body is a JSON object")
    return data


def _same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a browser's ``Origin`` is this server's own (or there is none: not a browser)."""
    if origin is None:
        return True
    return host is not None and origin in (f"http://{host}", f"https://{host}")


def _name(value: object) -> str:
    if not isinstance(value, str):
        raise BadRequest("a name is text")
    name = " ".join(value.split())
    if not 1 <= len(name) <= 40:
        raise BadRequest("a name is 1 to 40 characters")
    if unshowable(name) is not None:
        raise BadRequest("a name may not hold control characters")
    return name


def make_app(
    store: WebStore,
    pace: float = 0.4,
    https_only: bool = False,
    hasher: PasswordHash | None = None,
    new_people: int = NEW_PEOPLE,
) -> Starlette:
    """The application serving ``store``'s tables (``pace``: seconds shown after each move
    at a table where people sit; ``hasher``: pwdlib's recommended argon2 unless given — the
    tests give a cheaper one; ``new_people``: guests and accounts a minute from one address)."""
    hasher = hasher or _HASHER
    hub = Hub(store, pace=pace)
    web = Web(store, hub)
    #: finished matches cut into replay steps (the replay route's)
    replays = Replays()

    def guarded(fn: Callable[[Request], Awaitable[Response]]) -> Handler:
        async def route(request: Request) -> Response:
            try:
                return await fn(request)
            except BadRequest as exc:
                return _error(400, str(exc))
            except NameTaken as exc:
                return _error(409, str(exc))
            except StoreError as exc:
                return _error(503, f"the database cannot be used now: {exc}")
            except TricktableError as exc:
                return _error(400, str(exc).splitlines()[0])

        return route

    def current(request: Request) -> tuple[User, str] | None:
        return web.session(request.session.get("sid"))

    def needs_session(fn: Callable[[Request, User], Awaitable[Response]]) -> Handler:
        async def route(request: Request) -> Response:
            found = current(request)
            if found is None:
                return _error(401, "no session: sign in, or play as a guest (POST /api/guest)")
            user, csrf = found
            if request.method == "POST":
                given = request.headers.get("x-csrf-token", "")
                if not given or given != csrf:
                    return _error(403, "missing or wrong CSRF token (X-CSRF-Token from /api/me)")
            return await fn(request, user)

        return guarded(route)

    def sign_in(request: Request, user: User) -> Response:
        sid, csrf = store.new_session(user)
        request.session.clear()
        request.session["sid"] = sid
        return JSONResponse({"user": user.to_json(), "csrf": csrf})

    def origin_ok(request: Request) -> bool:
        return _same_origin(request.headers.get("origin"), request.headers.get("host"))

    def too_many_new(request: Request) -> bool:
        """Whether this address has made ``new_people`` people in the last minute."""
        address = request.client.host if request.client else "?"
        key = f"new:{address}"
        if web.limited_to(key, new_people):
            return True
        web.failed(key)
        return False

    async def guest(request: Request) -> Response:
        if not origin_ok(request):
            return _error(403, "wrong origin")
        if too_many_new(request):
            return _error(429, "too many new players from here: wait a minute")
        data = await _body(request)
        name = _name(data.get("name"))
        if store.account(name) is not None:
            raise NameTaken(
                f"{name!r} is the name of an account: log in to it, or play as a guest "
                "under another name"
            )
        user = store.add_user(name, "guest")
        return sign_in(request, user)

    async def signup(request: Request) -> Response:
        if not origin_ok(request):
            return _error(403, "wrong origin")
        if too_many_new(request):
            return _error(429, "too many new players from here: wait a minute")
        data = await _body(request)
        name = _name(data.get("name"))
        password = data.get("password")
        if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= 200:
            raise BadRequest(f"a password is {MIN_PASSWORD} to 200 characters")
        hashed = await asyncio.to_thread(hasher.hash, password)
        user = store.add_user(name, "account", hashed)
        return sign_in(request, user)

    async def login(request: Request) -> Response:
        if not origin_ok(request):
            return _error(403, "wrong origin")
        data = await _body(request)
        name = _name(data.get("name"))
        password = data.get("password")
        if not isinstance(password, str) or len(password) > 200:
            raise BadRequest("a password is text")
        address = request.client.host if request.client else "?"
        keys = (f"name:{name.casefold()}", f"addr:{address}")
        if web.limited(*keys):
            return _error(429, "too many failed logins: wait a minute")
        found = store.account(name)
        ok = False
        if found is not None:
            ok = await asyncio.to_thread(_verify, hasher, password, found[1])
        if not ok:
            web.failed(*keys)
            return _error(401, "wrong name or password")
        return sign_in(request, found[0] if found else User(0, "", ""))

    async def logout(request: Request, user: User) -> Response:
        sid = request.session.get("sid")
        if isinstance(sid, str):
            store.end_session(sid)
            web.sessions.pop(sid, None)
        request.session.clear()
        return JSONResponse({"ok": True})

    async def me(request: Request) -> Response:
        found = current(request)
        if found is None:
            return JSONResponse({"user": None, "csrf": None})
        return JSONResponse({"user": found[0].to_json(), "csrf": found[1]})

    async def games(request: Request) -> Response:
        # The first listing loads every game at every size (most of a second): off the loop.
        listed = _GAMES or await asyncio.to_thread(_games)
        return JSONResponse({"games": listed})

    async def tables(request: Request) -> Response:
        return JSONResponse({"tables": hub.lobby_tables()})

    async def create(request: Request, user: User) -> Response:
        room = hub.create(user, await _body(request))
        return JSONResponse({"table": room.info(), "url": f"/t/{room.id}"})

    async def table_info(request: Request) -> Response:
        room = hub.rooms.get(request.path_params["id"])
        if room is None:
            return _error(404, "no such table")
        return JSONResponse(room.info())

    async def record(request: Request) -> Response:
        room = hub.rooms.get(request.path_params["id"])
        if room is None:
            return _error(404, "no such table")
        raw = request.query_params.get("match")
        match_no = room.match_no
        if raw is not None:
            if not raw.isdigit() or not 1 <= int(raw) <= room.match_no:
                return _error(404, f"no match {raw[:10]!r} at this table")
            match_no = int(raw)
        if match_no == room.match_no and room.status != "over":
            return _error(409, "the match is being played: its record comes when it is over")
        from tricktable.web.records import match_record

        # A download saves under a name that says what it is: the game, the table, the match.
        name = f"tricktable-{room.game.preset}-{room.id}-match{match_no}.json"
        name = "".join(c if c.isalnum() or c in "-_." else "-" for c in name)
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return JSONResponse(match_record(store, room, match_no), headers=headers)

    async def replay(request: Request) -> Response:
        # A finished match step by step, every hand face up (web/replay.py).
        room = hub.rooms.get(request.path_params["id"])
        if room is None:
            return _error(404, "no such table")
        status, body = await replay_answer(store, room, replays, request.query_params)
        return JSONResponse(body, status_code=status)

    async def avatar(request: Request) -> Response:
        from tricktable.avatars import avatar_svg

        name = request.path_params["name"][:60]
        try:
            svg = avatar_svg(name)
        except TricktableError as exc:
            return _error(400, str(exc))
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    def page(name: str) -> Handler:
        async def serve_page(request: Request) -> Response:
            path = STATIC / name
            if path.is_file():
                return FileResponse(path)
            return HTMLResponse(f"<!doctype html><title>tricktable</title><p>{name} is missing")

        return serve_page

    async def socket(websocket: WebSocket) -> None:
        await serve_socket(websocket, web)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        hub.load()
        beat = asyncio.ensure_future(_heartbeat(hub))
        try:
            yield
        finally:
            beat.cancel()
            hub.close()

    routes = [
        Route("/", page("index.html")),
        Route("/t/{id}", page("table.html")),
        Route("/api/guest", guarded(guest), methods=["POST"]),
        Route("/api/signup", guarded(signup), methods=["POST"]),
        Route("/api/login", guarded(login), methods=["POST"]),
        Route("/api/logout", needs_session(logout), methods=["POST"]),
        Route("/api/me", guarded(me)),
        Route("/api/games", guarded(games)),
        Route("/api/tables", guarded(tables), methods=["GET"]),
        Route("/api/tables", needs_session(create), methods=["POST"]),
        Route("/api/tables/{id}", guarded(table_info)),
        Route("/api/tables/{id}/record", guarded(record)),
        Route("/api/tables/{id}/replay", guarded(replay)),
        Route("/api/avatar/{name}.svg", guarded(avatar)),
        WebSocketRoute("/ws", socket),
    ]
    if STATIC.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    middleware = [
        Middleware(
            SessionMiddleware,
            secret_key=store.secret(),
            session_cookie=COOKIE,
            max_age=SESSION_DAYS * 86400,
            same_site="lax",
            https_only=https_only,
        )
    ]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.hub = hub
    app.state.web = web
    return app


def _verify(hasher: PasswordHash, password: str, hashed: str) -> bool:
    try:
        return bool(hasher.verify(password, hashed))
    except Exception:  # a damaged hash is a failed login, not a crash
        return False


async def serve_socket(websocket: WebSocket, web: Web) -> None:
    """One websocket connection, from the handshake to its close."""
    if not _same_origin(websocket.headers.get("origin"), websocket.headers.get("host")):
        await websocket.accept()
        await websocket.send_json(
            _envelope("error", "wrong origin: connect from this server's page", "origin")
        )
        await websocket.close(code=4403)
        return
    found = web.session(websocket.session.get("sid") if "session" in websocket.scope else None)
    if found is None:
        await websocket.accept()
        await websocket.send_json(
            _envelope(
                "error", "no session: sign in, or play as a guest (POST /api/guest)", "session"
            )
        )
        await websocket.close(code=4401)
        return
    await websocket.accept()

    async def close(code: int) -> None:
        await websocket.close(code=code)

    conn = Conn(found[0], websocket.send_text, close)
    hub = web.hub
    writer = asyncio.ensure_future(conn.write())
    hub.connect(conn)
    conns = hub.conns
    conns.add(conn)
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            conn.last_heard = time.monotonic()
            text = message.get("text")
            if text is None:
                conn.send("error", {"reason": "messages are text frames of JSON", "code": "bad"})
                continue
            if not await hub.handle(conn, text):
                conn.send("error", {"reason": "too many messages: closed", "code": "flood"})
                await asyncio.sleep(0.05)
                await websocket.close(code=4429)
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        conns.discard(conn)
        hub.disconnect(conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _heartbeat(hub: Hub) -> None:
    """Close connections silent for two minutes (uvicorn pings every 20 s besides); start
    again the tables stopped by a database error once it answers (a bots' table too)."""
    while True:
        await asyncio.sleep(10)
        now = time.monotonic()
        for conn in list(hub.conns):
            if now - conn.last_heard > 120:
                conn.close()
        for room in list(hub.rooms.values()):
            if room.broken is not None and room.try_recover():
                hub.log(f"table {room.id}: the database answers again; the table plays on")


def _envelope(kind: str, reason: str, code: str) -> dict[str, Any]:
    return {
        "type": kind,
        "table": None,
        "v": None,
        "id": None,
        "data": {"reason": reason, "code": code},
    }


#: the games' listing, made once (it loads every game and variant)
_GAMES: list[dict[str, Any]] = []


_GAMES_LOCK = threading.Lock()


def _games() -> list[dict[str, Any]]:
    with _GAMES_LOCK:
        if not _GAMES:
            _GAMES.extend(_list_games())
    return _GAMES


def _list_games() -> list[dict[str, Any]]:
    """Every game and its variants, each with the tables it can be played at (GET /api/games).

    A game's or variant's ``tables`` are its sizes, and for each size the seatings a person
    may choose, in words (``partners[].words``), each with the ``options`` to send with it:
    only what differs from the variant's own rules, so a creator need not know them.
    """
    from tricktable.games import GAMES, PRESETS, load_game

    out = []
    for name, cls in sorted(GAMES.items()):
        game = load_game(name)
        variants = []
        for p in sorted(PRESETS):
            if PRESETS[p].game != name:
                continue
            tables = _tables_of(p)
            variants.append(
                {
                    "name": p,
                    "title": _variant_title(p),
                    "summary": _plain_summary(PRESETS[p].summary),
                    "seats": [t["seats"] for t in tables],
                    "players": load_game(p).num_players,
                    "tables": tables,
                }
            )
        tables = _tables_of(name)
        out.append(
            {
                "name": name,
                "title": getattr(cls, "title", name) or name,
                "summary": _plain_summary(getattr(cls, "summary", "")),
                "seats": [t["seats"] for t in tables],
                "players": game.num_players,
                "tables": tables,
                "variants": variants,
                "options": game.options_dict(),
            }
        )
    return out


def seating_words(players: int, sides: int) -> str:
    """How ``players`` seats sit when ``sides`` sides score (seat s plays for side
    ``s % sides``: partners sit evenly round the table), in a person's words.

    >>> seating_words(4, 2)
    'two sides of two, partners opposite'
    >>> seating_words(6, 2)
    'two sides of three, partners alternate'
    >>> seating_words(5, 5)
    'each for themselves'
    """
    if sides >= players or sides < 2 or players % sides:
        return "each for themselves"
    size = players // sides
    where = "partners opposite" if size == 2 else "partners alternate"
    return f"{number_word(sides)} sides of {number_word(size)}, {where}"


def _tables_of(name: str) -> list[dict[str, Any]]:
    """The table sizes of game or variant ``name`` and the seatings at each (its own first),
    each tried: a shape its rules refuse (too few cards for the hands) is not offered."""
    import dataclasses

    from tricktable.games import load_game

    own = load_game(name)
    fields = {f.name for f in dataclasses.fields(own.Options)}
    found: dict[int, list[dict[str, Any]]] = {}
    seen: set[tuple[int, int]] = set()
    for seats in sorted({own.num_players, *type(own).seat_counts}):
        tries: list[dict[str, object]] = [{}] if seats == own.num_players else []
        if "players" in fields:
            tries.append({"players": seats})
            if "partners" in fields:
                tries += [{"players": seats, "partners": v} for v in (True, False)]
                tries += [
                    {"players": seats, "partners": f"{sides}x{seats // sides}"}
                    for sides in range(3, seats // 2 + 1)
                    if seats % sides == 0
                ]
        for extra in tries:
            try:
                game = load_game(name, extra=extra)
            except (TricktableError, ValueError):
                continue  # the game says it cannot be played so
            key = (game.num_players, game.num_scores)
            if game.num_players != seats or key in seen:
                continue
            seen.add(key)
            options = {
                k: v
                for k, v in extra.items()
                if getattr(own.options, k) != getattr(game.options, k)
            }
            found.setdefault(seats, []).append(
                {"words": seating_words(seats, game.num_scores), "options": options}
            )
    return [{"seats": n, "partners": choices} for n, choices in sorted(found.items())]


def _variant_title(name: str) -> str:
    """A variant's name as a title: ``six-hand-cinch`` is "Six-Hand Cinch"."""
    words = [w.capitalize() if not w.isdigit() else w for w in name.split("-")]
    if len(words) > 1 and words[1] == "Hand":
        return f"{words[0]}-{words[1]} " + " ".join(words[2:])
    return " ".join(words)


def _plain_summary(text: str) -> str:
    """A summary without the option words some hold for the command line ("(or
    partners=3x2)"): a person reads it."""
    import re

    return re.sub(r"\s*\([^()]*=[^()]*\)", "", text)
