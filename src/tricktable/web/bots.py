"""Accounts' bots at the web server (issue 28 item 2): their routes, tokens, sockets, invitations.

An account may own a few bots (:data:`MAX_BOTS`). A ``websocket`` bot is a program anywhere,
in any language, that connects to ``/ws`` as the browser does, with ``Authorization: Bearer
TOKEN`` instead of a cookie; at a table it is a person's seat like any other (the same
``act`` messages, the same away and clock rules when it drops), under its own name — never
its owner's. A table's creator seats one with an ``invite`` message; a bot that is not
connected cannot be invited. ``http`` bots (a URL, checked for its form here and for its
address at every call by the guarded client) and ``program`` bots (a command on the
server's own machine, the operator's alone) are stored so far, not seated
(docs/protocol-web.md "Bots", docs/writing-bots.md "A bot at a web table").

The token is 256 random bits, stored as its SHA-256 only. A slow salted hash (argon2, as
passwords are kept) guards guessable secrets; a 256-bit token cannot be guessed, so a fast
unsalted digest is as safe, lets the server find the bot by its token's digest on an index,
and costs microseconds where argon2 would cost every bot's connection tens of milliseconds
of the server's CPU (a cheap way to load the server with bad tokens).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tricktable.web.hub import REGISTERED, BadRequest, Conn, Hub
from tricktable.web.store import BotRow, User, WebStore

if TYPE_CHECKING:
    from tricktable.web.app import Web
    from tricktable.web.room import Room

#: bots one account may have (deleted ones not counted)
MAX_BOTS: Final = 5
#: the kinds of bot
KINDS: Final = ("websocket", "http", "program")
#: what every token begins with (a leaked token is recognisable in a log or a scan)
TOKEN_PREFIX: Final = "ttbot_"
#: a bot's name: an account's rules (1-40 characters), and letters, digits, spaces and
#: ``-_.`` only — a bot's name is typed in ``invite`` messages and URLs by programs
_NAME: Final = re.compile(r"[^\W_](?:[\w .-]{0,38}[\w.-])?")

Handler = Callable[[Request], Awaitable[Response]]
Needs = Callable[[Callable[[Request, User], Awaitable[Response]]], Handler]


def new_token() -> tuple[str, str]:
    """A new bot token (shown once to its owner) and the digest the database keeps."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return token, token_digest(token)


def token_digest(token: str) -> str:
    """The SHA-256 (hex) of ``token``: what the database keeps (see the module)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def bearer(headers: Mapping[str, str]) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None (no such header)."""
    raw = headers.get("authorization")
    if raw is None:
        return None
    scheme, _, token = raw.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def bot_name(value: object) -> str:
    """A bot's name, checked (see :data:`_NAME`); BadRequest in one line if not."""
    if not isinstance(value, str):
        raise BadRequest("a bot's name is text")
    name = " ".join(value.split())
    if not 1 <= len(name) <= 40:
        raise BadRequest("a bot's name is 1 to 40 characters")
    if not _NAME.fullmatch(name):
        raise BadRequest(
            "a bot's name is letters, digits, spaces and - _ . only, beginning with a "
            "letter or digit"
        )
    return name


def find_bot(store: WebStore, token: str) -> BotRow | None:
    """The live websocket bot ``token`` opens, or None (wrong, rotated or deleted)."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
        return None
    return store.bot_by_token(token_digest(token))


def end_bot(web: Web, user_id: int, reason: str) -> int:
    """Close every open websocket of the bot whose user is ``user_id`` at once (its token
    was rotated or the bot deleted), each told ``reason``; how many."""
    from tricktable.web.app import CLOSE_SESSION

    closed = 0
    for conn, door in list(web.doors.items()):
        if conn.user.id == user_id and door.token is not None and not conn.closed:
            conn.send("error", {"reason": reason, "code": "session"})
            door.code = CLOSE_SESSION
            conn.close()
            closed += 1
    return closed


async def rejoin(hub: Hub, conn: Conn) -> None:
    """Attach a bot's new connection to the table where it holds a seat still in play (a
    bot that dropped comes back to its hand, as a page says hello again: the hello goes to
    whichever process plays the table)."""
    for room in hub.rooms.values():
        if (
            room.status in ("waiting", "playing")
            and room.seat_of(conn.user.id) is not None
            and not any(c.user.id == conn.user.id for c in room.conns)
        ):
            await hub.dispatch(conn, json.dumps({"type": "hello", "table": room.id}))
            return


async def invite(
    hub: Hub, conn: Conn, table: str | None, mid: str | None, data: dict[str, Any]
) -> None:
    """The ``invite`` message: the table's creator seats a connected bot at an open seat
    of the waiting table; the bot's connection is attached there at once (it gets the
    table and its snapshot, as a browser that says hello). Among many processes, a bot
    connected to another is found there, and that process says hello for it."""
    room = hub._room(conn, table)
    if room.creator != conn.user.id:
        raise BadRequest("only the table's creator invites a bot")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(room.seats):
        shown = "none given" if seat is None else f"{str(seat)[:10]!r}"
        raise BadRequest(f"no seat {shown}; data.seat is a seat 0..{len(room.seats) - 1}")
    name = bot_name(data.get("bot"))
    if room.status != "waiting" or room.seats[seat]["kind"] != "open":
        raise BadRequest(f"seat {seat} is not free")
    bot = hub.store.bot(name)
    if bot is None or bot.revoked:
        raise BadRequest(f"there is no bot named {name!r}")
    if bot.kind != "websocket":
        # The server calls it (a web service through the endpoint guard, or the operator's
        # program): a bot's seat, made when the match starts (Hub.make_bot).
        spec = f"{REGISTERED}{bot.name}"
        if any(s.get("spec") == spec for s in room.seats):
            raise BadRequest(f"{bot.name} sits at this table already")
        room.seats[seat] = {"kind": "bot", "name": bot.name, "spec": spec}
        _seated(hub, room, conn, mid)
        return
    if room.seat_of(bot.user_id) is not None:
        raise BadRequest(f"{bot.name} sits at this table already")
    mine = [c for c in hub.conns if c.user.id == bot.user_id and not c.closed]
    free = [c for c in mine if c.room is None and c.remote is None]
    elsewhere = None
    if not free and hub.cluster.shared:
        elsewhere = await hub.cluster.find_free(bot.user_id)
        if room.status != "waiting" or room.seats[seat]["kind"] != "open":
            raise BadRequest(f"seat {seat} is not free")  # taken while the others answered
    if not free and elsewhere is None:
        if not mine and not hub.cluster.shared:
            raise BadRequest(f"{bot.name} is not connected: start it, then invite it again")
        if mine:
            raise BadRequest(
                f"{bot.name} plays at another table on each of its connections: it may open another"
            )
        raise BadRequest(
            f"{bot.name} is not connected (or plays at another table on each of its "
            "connections): start it, then invite it again"
        )
    room.seats[seat] = {
        "kind": "person",
        "name": bot.name,
        "user": bot.user_id,
        "away": False,
        "token": secrets.token_urlsafe(16),
        "bot": True,
    }
    _seated(hub, room, conn, mid, free[0] if free else None)
    if elsewhere is not None:
        hub.cluster.join(elsewhere, bot.user_id, room.id)


def _seated(hub: Hub, room: Room, conn: Conn, mid: str | None, bots: Conn | None = None) -> None:
    """A bot has taken a seat: stored, its connection (``bots``, a websocket bot's) attached,
    the match started if no seat is left open, everyone told."""
    hub.save(room)
    if bots is not None:
        room.attach(bots, None)
    if all(s["kind"] != "open" for s in room.seats):
        room.start_match()
    room.changed_seats()
    room.send_table(conn, mid)


def routes(web: Web, needs_session: Needs) -> list[Route]:
    """The bots' HTTP routes (docs/protocol-web.md, "Bots"): make, list, new token, delete."""
    store = web.store

    def account_of(user: User) -> None:
        if user.kind != "account":
            raise Forbidden("a guest has no bots: sign up for an account to make one")

    def owned(user: User, request: Request) -> BotRow:
        account_of(user)
        name = str(request.path_params["name"])[:60]
        bot = store.bot(name)
        if bot is None or bot.revoked or bot.owner != user.id:
            raise Missing(f"you have no bot named {name!r}")
        return bot

    async def make(request: Request, user: User) -> Response:
        from tricktable.web.app import read_body

        account_of(user)
        data = await read_body(request)
        name = bot_name(data.get("name"))
        kind = data.get("kind", "websocket")
        if kind not in KINDS:
            raise BadRequest("a bot's kind is websocket or http (program: the operator's)")
        endpoint = data.get("endpoint")
        token: str | None = None
        digest: str | None = None
        if kind == "program":
            raise Forbidden(
                "a program bot runs on the server's own machine: only its operator adds one "
                "(tricktable bots add-program NAME -- COMMAND...)"
            )
        if kind == "http":
            from tricktable.protocols.endpoints import check_url

            if not isinstance(endpoint, str) or not 1 <= len(endpoint) <= 2000:
                raise BadRequest("an http bot's endpoint is its URL (text)")
            endpoint = str(check_url(endpoint))
        elif endpoint is not None:
            raise BadRequest("a websocket bot has no endpoint: it connects to the server")
        else:
            token, digest = new_token()
        if len(store.bots_of(user.id)) >= MAX_BOTS:
            raise Busy(f"you have {MAX_BOTS} bots ({MAX_BOTS} at most): delete one first")
        bot = store.add_bot(user.id, name, kind, endpoint, digest)
        return JSONResponse({"bot": bot.to_json(), "token": token})

    async def mine(request: Request, user: User) -> Response:
        account_of(user)
        return JSONResponse({"bots": [b.to_json() for b in store.bots_of(user.id)]})

    async def rotate(request: Request, user: User) -> Response:
        bot = owned(user, request)
        if bot.kind != "websocket":
            raise BadRequest(f"{bot.name} is a bot of kind {bot.kind}: it has no token")
        token, digest = new_token()
        store.set_bot_token(bot.id, digest)
        closed = end_bot(web, bot.user_id, "this bot's token was replaced: connect with the new")
        return JSONResponse({"bot": bot.to_json(), "token": token, "closed": closed})

    async def delete(request: Request, user: User) -> Response:
        bot = owned(user, request)
        store.revoke_bot(bot.id)
        closed = end_bot(web, bot.user_id, "this bot was deleted by its owner")
        return JSONResponse({"ok": True, "closed": closed})

    return [
        Route("/api/bots", needs_session(make), methods=["POST"]),
        Route("/api/bots", needs_session(mine), methods=["GET"]),
        Route("/api/bots/{name}/token", needs_session(rotate), methods=["POST"]),
        Route("/api/bots/{name}", needs_session(delete), methods=["DELETE"]),
    ]


class Forbidden(BadRequest):
    """Not for this user (a guest's bots, a program bot over the API): HTTP 403."""

    status = 403


class Missing(BadRequest):
    """No such bot of yours: HTTP 404."""

    status = 404


class Busy(BadRequest):
    """Past a cap (bots of one account): HTTP 409."""

    status = 409
