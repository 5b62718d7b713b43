"""The web server's Starlette application: its HTTP routes and its websocket.

:func:`make_app` wires a :class:`~tricktable.web.hub.Hub` (the rooms) and a
:class:`~tricktable.web.store.WebStore` (the database) into routes (docs/protocol-web.md):
sessions in signed cookies naming a session row, a CSRF token on every post made with a
session, the websocket's ``Origin`` checked, logins rate-limited. Its doors (:class:`Limits`):
only the host names it is told, bodies refused past a size before they are read, websockets
capped per account, per address and in all, and closed when their session ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from limits import RateLimitItem, RateLimitItemPerMinute
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from pwdlib import PasswordHash
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tricktable.db import StoreError
from tricktable.errors import TricktableError
from tricktable.text import unshowable
from tricktable.web import analysis, arena, bots, leagues, lobby, profiles, tournaments
from tricktable.web.cluster import Alone
from tricktable.web.doors import BodyLimit, HostCheck, SessionBySchemeMiddleware, address_key
from tricktable.web.hub import BadRequest, Conn, Hub, HubLimits
from tricktable.web.replay import Replays, replay_answer
from tricktable.web.store import SESSION_DAYS, NameTaken, User, WebStore, fold

#: the page's files (the browser client, issue 20's PAGE part)
STATIC: Final = Path(__file__).with_name("static")
#: failed logins a minute allowed for one name from one address
LOGIN_TRIES: Final = 5
#: failed logins a minute allowed from one address, whatever the names
ADDRESS_LOGIN_TRIES: Final = 30
#: new people (guests, accounts) a minute allowed from one address
NEW_PEOPLE: Final = 60
#: the longest body read (bytes), of any request: refused (413) past it, before it is read
MAX_BODY: Final = 32 * 1024
#: the shortest password an account may have
MIN_PASSWORD: Final = 8
#: seconds a session read from the database is trusted before it is read again
SESSION_CACHE_S: Final = 5.0
#: the host names a server answers to unless told others (its own loopback)
LOOPBACK_HOSTS: Final = ("localhost", "127.0.0.1", "[::1]")
#: websocket close codes: a session ended (logout, expiry, a password changed), and a cap
CLOSE_SESSION: Final = 4401
CLOSE_BUSY: Final = 1013
#: seconds between purges of expired session rows
PURGE_EVERY_S: Final = 3600.0

_HASHER = PasswordHash.recommended()


@dataclass(frozen=True, slots=True)
class Limits:
    """What one server allows, each number written down in docs/protocol-web.md (the
    ``serve`` command's flags set most of them; docs/deploy.md says which)."""

    #: the ``Host`` names answered (a port is ignored): a name, ``*.example.org``, or ``*``
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    #: the longest request body (bytes)
    max_body: int = MAX_BODY
    #: open websockets, in all, from one address, of one person (guest or account)
    sockets: int = 1000
    sockets_per_address: int = 50
    sockets_per_account: int = 10
    #: failed logins a minute: for one name from one address, and from one address
    login_tries: int = LOGIN_TRIES
    address_login_tries: int = ADDRESS_LOGIN_TRIES
    #: seconds within which a session ended elsewhere or expired closes its websockets
    session_check_s: float = 10.0


Handler = Callable[[Request], Awaitable[Response]]


@dataclass(eq=False, slots=True)
class Door:
    """How one websocket came in: its session, its address (as per-address limits key it),
    and the close code its writer sends when it is closed (None: the hub's own)."""

    sid: str
    address: str
    code: int | None = None
    #: a bot's connection: its token's digest (its ``sid`` is empty: a bot has no session)
    token: str | None = None


class Web:
    """The server's parts the routes share."""

    def __init__(self, store: WebStore, hub: Hub, limits: Limits | None = None) -> None:
        self.store = store
        self.hub = hub
        self.limits = limits or Limits()
        #: rate limits' windows (the ``limits`` package: a moving minute, kept in memory,
        #: or in the Redis that many processes share, so a limit is the site's, not a
        #: process's)
        url = getattr(hub.cluster, "url", None)
        storage = storage_from_string(url) if url else MemoryStorage()
        self.windows = MovingWindowRateLimiter(storage)
        #: sessions read recently: id -> (user, csrf, read at); a logout drops its own
        self.sessions: dict[str, tuple[User, str, float]] = {}
        #: every open websocket's connection and how it came in
        self.doors: dict[Conn, Door] = {}
        #: a hash of a password no one has, checked for a name that is no account's, so
        #: that a login costs the same whether or not the name exists (made at start)
        self.dummy_hash: asyncio.Future[str] | None = None

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

    def limited(self, item: RateLimitItem, *keys: str) -> bool:
        """Whether any of ``keys`` has had ``item``'s number of hits in its window."""
        return any(not self.windows.test(item, key) for key in keys)

    def hit(self, item: RateLimitItem, *keys: str) -> None:
        """Count one hit (a failed login, a new person) against each of ``keys``."""
        for key in keys:
            self.windows.hit(item, key)

    def refusal(self, user: User, address: str) -> str | None:
        """Why one more websocket of ``user`` from ``address`` is over a cap, or None."""
        limits = self.limits
        if sum(1 for c in self.doors if c.user.id == user.id) >= limits.sockets_per_account:
            return (
                f"too many connections of yours ({limits.sockets_per_account}): "
                "close another tab first"
            )
        if sum(1 for d in self.doors.values() if d.address == address) >= (
            limits.sockets_per_address
        ):
            return f"too many connections from your address ({limits.sockets_per_address})"
        if len(self.doors) >= limits.sockets:
            return f"the server has all the connections it takes ({limits.sockets}): try later"
        return None

    def end_sessions(self, sids: Iterable[str], reason: str, everywhere: bool = True) -> int:
        """Close the websockets of sessions ``sids`` now (each told ``reason``, then closed
        with :data:`CLOSE_SESSION`); how many (here: ``everywhere``, the other processes
        sharing the tables are told to close theirs too)."""
        ended = set(sids)
        if everywhere and ended:
            self.hub.cluster.sessions_ended(sorted(ended), reason)
        for sid in ended:
            self.sessions.pop(sid, None)
        closed = 0
        for conn, door in list(self.doors.items()):
            if door.sid in ended and not conn.closed:
                conn.send("error", {"reason": reason, "code": "session"})
                door.code = CLOSE_SESSION
                conn.close()
                closed += 1
        return closed


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


async def read_body(request: Request) -> dict[str, Any]:
    """A request's JSON object body (BadRequest in one line if it is not one)."""
    # BodyLimit has refused a longer body before it was read; this is a second guard.
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
    limits: Limits | None = None,
    hub_limits: HubLimits | None = None,
    cluster: Alone | None = None,
) -> Starlette:
    """The application serving ``store``'s tables (``pace``: seconds shown after each move
    at a table where people sit; ``https_only``: a Secure cookie even over plain HTTP (it is
    Secure over HTTPS anyway); ``hasher``: pwdlib's recommended argon2 unless given — the
    tests give a cheaper one; ``new_people``: guests and accounts a minute from one address;
    ``limits``: the doors' limits, :class:`Limits`' defaults unless given; ``hub_limits``: what
    the tables allow, :class:`~tricktable.web.hub.HubLimits`' defaults unless given)."""
    hasher = hasher or _HASHER
    limits = limits or Limits()
    hub = Hub(store, pace=pace, limits=hub_limits, cluster=cluster)
    web = Web(store, hub, limits)
    hub.cluster.on_sessions_ended = lambda sids, reason: web.end_sessions(
        sids, reason, everywhere=False
    )
    new_item = RateLimitItemPerMinute(new_people)
    pair_item = RateLimitItemPerMinute(limits.login_tries)
    address_item = RateLimitItemPerMinute(limits.address_login_tries)
    #: finished matches cut into replay steps (the replay route's)
    replays = Replays()

    def guarded(fn: Callable[[Request], Awaitable[Response]]) -> Handler:
        async def route(request: Request) -> Response:
            try:
                return await fn(request)
            except BadRequest as exc:
                return _error(getattr(exc, "status", 400), str(exc))
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
            if request.method not in ("GET", "HEAD"):  # a POST, a DELETE
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

    def address_of(request: Request) -> str:
        return address_key(request.client.host if request.client else None)

    def too_many_new(request: Request) -> bool:
        """Whether this address has made ``new_people`` people in the last minute."""
        return not web.windows.hit(new_item, "new", address_of(request))

    async def dummy_hash() -> str:
        if web.dummy_hash is None:  # a server started without its lifespan (never here)
            web.dummy_hash = asyncio.ensure_future(_dummy_hash(hasher))
        return await asyncio.shield(web.dummy_hash)

    async def check_password(name: str, password: str, address: str) -> User | Response:
        """The account ``name`` if ``password`` is its own; else the refusal, counted against
        the name from this address (so a stranger elsewhere cannot lock the name) and against
        the address. A name that is no account's costs the same work as one that is."""
        pair = ("pair", address, fold(name))
        if web.limited(pair_item, "|".join(pair)) or web.limited(address_item, f"addr|{address}"):
            return _error(429, "too many failed logins: wait a minute")
        found = store.account(name)
        hashed = found[1] if found is not None else await dummy_hash()
        ok = await asyncio.to_thread(_verify, hasher, password, hashed)
        if found is None or not ok:
            web.hit(pair_item, "|".join(pair))
            web.hit(address_item, f"addr|{address}")
            return _error(401, "wrong name or password")
        return found[0]

    async def guest(request: Request) -> Response:
        if not origin_ok(request):
            return _error(403, "wrong origin")
        if too_many_new(request):
            return _error(429, "too many new players from here: wait a minute")
        data = await read_body(request)
        name = _name(data.get("name"))
        if store.account(name) is not None or store.bot(name) is not None:
            raise NameTaken(
                f"{name!r} is the name of an account or a bot: log in to it, or play as a guest "
                "under another name"
            )
        user = store.add_user(name, "guest")
        return sign_in(request, user)

    async def signup(request: Request) -> Response:
        if not origin_ok(request):
            return _error(403, "wrong origin")
        if too_many_new(request):
            return _error(429, "too many new players from here: wait a minute")
        data = await read_body(request)
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
        data = await read_body(request)
        name = _name(data.get("name"))
        password = data.get("password")
        if not isinstance(password, str) or len(password) > 200:
            raise BadRequest("a password is text")
        checked = await check_password(name, password, address_of(request))
        if isinstance(checked, Response):
            return checked
        return sign_in(request, checked)

    async def logout(request: Request, user: User) -> Response:
        sid = request.session.get("sid")
        if isinstance(sid, str):
            store.end_session(sid)
            web.end_sessions([sid], "you logged out: this connection's session has ended")
        request.session.clear()
        return JSONResponse({"ok": True})

    async def change_password(request: Request, user: User) -> Response:
        if user.kind != "account":
            raise BadRequest("a guest has no password: sign up for an account")
        data = await read_body(request)
        old, new = data.get("old"), data.get("new")
        if not isinstance(old, str) or len(old) > 200:
            raise BadRequest("the old password is text")
        if not isinstance(new, str) or not MIN_PASSWORD <= len(new) <= 200:
            raise BadRequest(f"a password is {MIN_PASSWORD} to 200 characters")
        checked = await check_password(user.name, old, address_of(request))
        if isinstance(checked, Response):
            if checked.status_code == 401:
                return _error(403, "the old password is wrong")
            return checked
        hashed = await asyncio.to_thread(hasher.hash, new)
        sid = request.session.get("sid")
        ended = store.change_password(user.id, hashed, keep=sid if isinstance(sid, str) else None)
        web.end_sessions(ended, "the account's password was changed: sign in again")
        return JSONResponse({"ok": True, "ended_sessions": len(ended)})

    async def me(request: Request) -> Response:
        found = current(request)
        if found is None:
            return JSONResponse({"user": None, "csrf": None})
        return JSONResponse({"user": found[0].to_json(), "csrf": found[1]})

    async def cluster_stats(request: Request) -> Response:
        # Which process answered, and how many tables it plays (no table's id or secret).
        return JSONResponse(hub.cluster.stats())

    async def games(request: Request) -> Response:
        # The first listing loads every game at every size (most of a second): off the loop.
        listed = lobby.LISTING or await asyncio.to_thread(lobby.games)
        return JSONResponse({"games": listed})

    async def tables(request: Request) -> Response:
        return JSONResponse({"tables": hub.lobby_tables()})

    async def create(request: Request, user: User) -> Response:
        room = hub.create(user, await read_body(request))
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
        if room.withheld:
            return _error(409, WITHHELD)
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
        if room.withheld:
            return _error(409, WITHHELD)
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
        web.dummy_hash = asyncio.ensure_future(_dummy_hash(hasher))
        store.purge_sessions()
        await hub.cluster.start(hub)
        hub.load()
        beat = asyncio.ensure_future(_heartbeat(web))
        try:
            yield
        finally:
            beat.cancel()
            hub.close()
            await hub.cluster.stop()
            service = analysis.service_of(store)
            if service is not None:
                service.close()  # its worker process (it dies with the server anyway)

    routes = [
        Route("/", page("index.html")),
        Route("/t/{id}", page("table.html")),
        Route("/api/guest", guarded(guest), methods=["POST"]),
        Route("/api/signup", guarded(signup), methods=["POST"]),
        Route("/api/login", guarded(login), methods=["POST"]),
        Route("/api/logout", needs_session(logout), methods=["POST"]),
        Route("/api/password", needs_session(change_password), methods=["POST"]),
        Route("/api/me", guarded(me)),
        Route("/api/cluster", guarded(cluster_stats)),
        Route("/api/games", guarded(games)),
        Route("/api/tables", guarded(tables), methods=["GET"]),
        Route("/api/tables", needs_session(create), methods=["POST"]),
        Route("/api/tables/{id}", guarded(table_info)),
        Route("/api/tables/{id}/record", guarded(record)),
        Route("/api/tables/{id}/replay", guarded(replay)),
        Route("/api/avatar/{name}.svg", guarded(avatar)),
        WebSocketRoute("/ws", socket),
    ]
    routes += bots.routes(web, needs_session)  # accounts' bots (web/bots.py)
    routes += profiles.routes(store, hub.log)  # players' pages; queues their backfill
    routes += tournaments.routes(store, hub.log, hub.cluster)  # duplicate tournaments from the web
    routes += leagues.routes(store, hub.log, hub)  # leagues of duplicate nights
    routes += arena.routes(web, needs_session)  # bots alone, every hand face up
    routes += analysis.routes(web)  # the replay's analysis and uploaded records
    if STATIC.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    middleware = [
        Middleware(HostCheck, allowed=limits.allowed_hosts),
        Middleware(BodyLimit, most=limits.max_body),
        Middleware(
            SessionBySchemeMiddleware,
            secret_key=store.secret(),
            max_age=SESSION_DAYS * 86400,
            https_only=https_only,
        ),
    ]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.hub = hub
    app.state.web = web
    return app


#: why a league night's table shows no record or replay yet (Room.withheld)
WITHHELD: Final = (
    "a league night's table: its records come when the night is scored "
    "(the night's other tables play the same deals)"
)


async def _dummy_hash(hasher: PasswordHash) -> str:
    return await asyncio.to_thread(hasher.hash, secrets.token_urlsafe(24))


def _verify(hasher: PasswordHash, password: str, hashed: str) -> bool:
    try:
        return bool(hasher.verify(password, hashed))
    except Exception:  # a damaged hash is a failed login, not a crash
        return False


async def serve_socket(websocket: WebSocket, web: Web) -> None:
    """One websocket connection, from the handshake to its close."""
    token = bots.bearer(websocket.headers)
    digest: str | None = None
    if token is not None:
        # A bot (web/bots.py). Its Origin is not checked: the check stops a page of another
        # site from riding on a browser's cookie, which a browser sends on its own; no
        # browser sends an Authorization header on its own, and a page cannot set one on a
        # websocket, so a connection with a bearer token was made by whoever holds the token.
        bot = bots.find_bot(web.store, token)
        if bot is None:
            reason = "this bot token opens nothing: wrong, replaced or deleted"
            await _refuse(websocket, reason, "session", CLOSE_SESSION)
            return
        user, sid, digest = bot.user(), "", bots.token_digest(token)
    else:
        if not _same_origin(websocket.headers.get("origin"), websocket.headers.get("host")):
            reason = "wrong origin: connect from this server's page"
            await _refuse(websocket, reason, "origin", 4403)
            return
        raw = websocket.session.get("sid") if "session" in websocket.scope else None
        found = web.session(raw)
        if found is None or not isinstance(raw, str):
            reason = "no session: sign in, or play as a guest (POST /api/guest)"
            await _refuse(websocket, reason, "session", CLOSE_SESSION)
            return
        user, sid = found[0], raw
    address = address_key(websocket.client.host if websocket.client else None)
    busy = web.refusal(user, address)
    if busy is not None:
        await _refuse(websocket, busy, "busy", CLOSE_BUSY)
        return

    async def close(code: int) -> None:
        await websocket.close(code=door.code or code)

    # Counted before the first await, so that connections arriving together cannot pass a cap.
    conn = Conn(user, websocket.send_text, close)
    door = Door(sid, address, token=digest)
    web.doors[conn] = door
    hub = web.hub
    conns = hub.conns
    writer: asyncio.Future[None] | None = None
    try:
        await websocket.accept()
        writer = asyncio.ensure_future(conn.write())
        hub.connect(conn)
        conns.add(conn)
        if digest is not None:
            await bots.rejoin(hub, conn)  # back to the hand it was playing, if any
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect" or conn.closed:
                break  # closed while it waited: a session that ended acts no more
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
        web.doors.pop(conn, None)
        conns.discard(conn)
        hub.disconnect(conn)
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


async def _refuse(websocket: WebSocket, reason: str, code: str, close_code: int) -> None:
    """Accept a websocket only to say why it is refused, and close it with ``close_code``."""
    await websocket.accept()
    await websocket.send_json(_envelope("error", reason, code))
    await websocket.close(code=close_code)


async def _heartbeat(web: Web) -> None:
    """Close connections silent for two minutes (uvicorn pings every 20 s besides) and those
    whose session has ended (expired, or ended by another process); purge expired session
    rows hourly; start again the tables stopped by a database error once it answers (a
    bots' table too)."""
    hub = web.hub
    purged = time.monotonic()
    while True:
        await asyncio.sleep(web.limits.session_check_s)
        now = time.monotonic()
        for conn in list(hub.conns):
            if now - conn.last_heard > 120:
                conn.close()
        sids = {door.sid for door in web.doors.values() if door.token is None}
        tokens = {door.token for door in web.doors.values() if door.token is not None}
        with contextlib.suppress(StoreError):  # the database away: no session is ended
            if sids:
                live = await asyncio.to_thread(web.store.live_sessions, sids)
                web.end_sessions(sids - live, "your session has ended: sign in again")
            if tokens:  # a bot's token replaced or deleted by another server process
                kept = await asyncio.to_thread(web.store.live_bot_tokens, tokens)
                for conn, door in list(web.doors.items()):
                    if door.token is not None and door.token not in kept:
                        bots.end_bot(web, conn.user.id, "this bot's token opens nothing now")
            if now - purged > PURGE_EVERY_S:
                purged = now
                await asyncio.to_thread(web.store.purge_sessions)
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
