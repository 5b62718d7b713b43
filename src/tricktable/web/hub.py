"""The hub: every room of the server, the lobby, and the websocket messages' dispatch.

One :class:`Hub` a server process. Each websocket is a :class:`Conn`: its user (from the
session), an outgoing queue written by its own task (so a slow client never holds a table
up), a rate limit, and the room it is attached to. :meth:`Hub.handle` reads one frame and
answers it: every bad frame is one ``error`` and changes nothing (docs/protocol-web.md).
What one connection, one person or everyone may make the server do is :class:`HubLimits`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from tricktable.bots.base import Bot
from tricktable.db import StoreError
from tricktable.engine.events import SPECTATOR
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.seat.choices import action_phrase
from tricktable.web.cluster import Alone
from tricktable.web.limits import (
    BURST,
    FLOOD_CLOSE,
    FLOOD_WINDOW,
    MAX_FRAME,
    MAX_QUEUE,
    RATE,
    HubLimits,
    Refusals,
    TokenBucket,
)
from tricktable.web.room import Room, commitment_of, new_seed
from tricktable.web.seatview import frame
from tricktable.web.settings import (
    ENDPOINT,
    REGISTERED,
    BadRequest,
    check_settings,
    endpoint_name,
)
from tricktable.web.store import TableRow, User, WebStore
from tricktable.web.writer import JournalWriter

#: the most tables listed in the lobby (the newest)
LOBBY_TABLES: Final = 200
#: the client's message types
TYPES: Final = frozenset(
    {
        "hello",
        "act",
        "chat",
        "take_seat",
        "leave_seat",
        "again",
        "continue",
        "hint",
        "ping",
        "lobby",
        "create",
        "close_table",
        "invite",
    }
)


#: the messages about one table, answered by the process that plays it (many processes)
ROUTED: Final = TYPES - {"ping", "lobby", "create"}


class TooFast(BadRequest):
    """A message refused by a rate limit (chat): ``flood``, and the connection stays."""

    code = "flood"


class Conn:
    """One websocket connection: its user, its outgoing queue, its limit, its room."""

    def __init__(
        self,
        user: User,
        send_text: Callable[[str], Any],
        close: Callable[[int], Any] | None = None,
    ) -> None:
        self.user = user
        self._send_text = send_text
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        #: the version of each table this connection has had
        self.versions: dict[str, int] = {}
        self.room: Room | None = None
        self.lobby = False
        self.closed = False
        self._bucket = TokenBucket(RATE, BURST)
        self._refusals = Refusals(FLOOD_CLOSE, FLOOD_WINDOW)
        #: the messages refused in the flood window (the last refusal's count)
        self.refused = 0
        #: when the client was last heard (monotonic seconds)
        self.last_heard = time.monotonic()
        #: this connection's name among the server processes (many: web/redis_cluster.py)
        self.cid = secrets.token_hex(8)
        #: the table this connection watches at another process, and that process's name
        self.remote: tuple[str, str] | None = None
        #: acts sent and not yet answered, by id (many processes: sent again, as a page
        #: does after reconnecting, when the table's process dies; an id is applied once)
        self.inflight: dict[str, str] = {}

    def send(
        self,
        kind: str,
        data: dict[str, Any],
        table: str | None = None,
        v: int | None = None,
        id: str | None = None,
    ) -> None:
        """Queue one envelope for the client."""
        if id is not None and self.inflight:
            self.inflight.pop(id, None)  # answered (a confirm, a refusal or an error)
        if not self.closed:
            self.send_frame(frame(kind, data, table, v, id))

    def send_frame(self, text: str) -> None:
        """Queue one envelope already encoded (:func:`frame`: one text for many viewers)."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def limit(self, limits: HubLimits) -> None:
        """Hold this connection to ``limits`` (the hub's, when it connects)."""
        self._bucket = TokenBucket(limits.rate, limits.burst)
        self._refusals = Refusals(limits.flood_refusals, limits.flood_window)

    def allow(self) -> bool:
        """Whether one more message is within the rate limit (a token bucket); a refusal is
        counted in the flood window (:attr:`refused`)."""
        if self._bucket.allow():
            return True
        self.refused = self._refusals.add()
        return False

    async def write(self) -> None:
        """Send the queued messages until the connection closes (its own task)."""
        while True:
            text = await self.queue.get()
            if text is None:
                if self._close is not None:
                    with contextlib.suppress(Exception):
                        await self._close(1000)  # the reader sees it and ends
                return
            await self._send_text(text)

    def close(self) -> None:
        """Stop the writer."""
        self.closed = True
        self.queue.put_nowait(None)


class Hub:
    """Every room of one server, the lobby's subscribers and the store."""

    def __init__(
        self,
        store: WebStore,
        pace: float = 0.4,
        log: Callable[[str], None] | None = None,
        limits: HubLimits | None = None,
        cluster: Alone | None = None,
    ):
        self.store = store
        #: this process among the others that share its tables (alone unless ``--redis``)
        self.cluster = cluster or Alone()
        self.pace = pace
        self.limits = limits or HubLimits()
        self.rooms: dict[str, Room] = {}
        self.lobby: set[Conn] = set()
        #: every open connection
        self.conns: set[Conn] = set()
        self._lobby_pending = False
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self._writer: JournalWriter | None = None
        #: each person's chat limit (lobby and tables, every connection of theirs)
        self._chat: dict[int, TokenBucket] = {}
        #: the lobby's chat limit, everyone together (made for the limits in force)
        self._lobby_chat: tuple[HubLimits, TokenBucket] | None = None
        #: the server's loop, and set once :meth:`load` has brought the tables back: the
        #: leagues' thread makes and finds its nights' tables through them
        self.loop: asyncio.AbstractEventLoop | None = None
        self.ready = threading.Event()
        #: told (in the loop) each time a league night's table has played a deal
        self.league_listeners: list[Callable[[Room], None]] = []

    @property
    def writer(self) -> JournalWriter:
        """The journal's writer thread (started with the first row, in the server's loop)."""
        if self._writer is None:
            self._writer = JournalWriter(self.store, asyncio.get_running_loop())
        return self._writer

    # ---------------------------------------------------------------------------- rooms

    def load(self) -> None:
        """Bring back every table of the database (a restart). None is played or rebuilt
        yet: a table asleep wakes (rebuilt from its journal, played on) when someone says
        hello to it, so a restart drives no table nobody comes back to."""
        nights = []
        for row in self.store.tables():
            try:
                room = Room(self, row)
                room.asleep = row.status in ("playing", "over")
                self.rooms[room.id] = room
                if room.league is not None and room.status == "playing":
                    nights.append(room)
            except (TricktableError, ValueError) as exc:
                self.log(f"table {row.id} cannot be brought back: {exc}")
        # A night's table plays on by itself (the night must end), woken once every table is
        # back: its tables keep in step, each waiting for the others to play a deal. Among
        # many processes, whichever claims it first plays it.
        if self.cluster.shared:
            self.cluster.claims([room.id for room in nights])
            nights = []
        for room in nights:
            try:
                room.wake()
            except (TricktableError, ValueError) as exc:
                self.log(f"table {room.id} cannot be brought back: {exc}")
        self.loop = asyncio.get_running_loop()
        self.ready.set()

    def _made(self, row: TableRow, lease: str | None = None) -> Room:
        """A new table's room, stored and this process's: its lease held first (``lease``:
        a league night's, its tables'), then its row with the epoch that lease gives."""
        epoch = self.cluster.opening(row.id, lease)
        self.store.add_table(row, epoch=epoch)
        room = self.rooms[row.id] = Room(self, row)
        self.cluster.opened(room, epoch)
        return room

    def take(self, row: TableRow, clock: tuple[int, str, float, float] | None = None) -> Room:
        """Play table ``row`` from now on (this process has just claimed it: ``row`` is as
        stored at the claim): rebuilt from its journal and played on if it was being played,
        its ``clock`` (as the process before left it) running on if the same turn is to play."""
        room = self.rooms.get(row.id)
        if room is None:
            room = self.rooms[row.id] = Room(self, row)
        else:
            room.let_go()
            room.reload(row)
        room.elsewhere = None  # who is attached is this process's to know now
        room.carried_clock = clock
        room.asleep = True
        if room.status == "playing":
            room.wake()
        if not room.conns:
            room._watch_idle()
        self.lobby_changed()
        return room

    def refresh(self, row: TableRow, here: tuple[list[int], int] | None = None) -> None:
        """Another process changed table ``row`` (or made it; ``here``: who is attached
        there, the users and the watchers): the lobby shows it so."""
        room = self.rooms.get(row.id)
        try:
            if room is None:
                room = self.rooms[row.id] = Room(self, row)
                room.asleep = row.status in ("playing", "over")
            else:
                room.reload(row)
        except (TricktableError, ValueError) as exc:
            self.log(f"table {row.id} cannot be shown: {exc}")
            return
        if here is not None:
            room.elsewhere = here
        self.lobby_changed()

    def create_league_table(
        self, owner: int, spec: str, seats: list[dict[str, Any]], league: dict[str, Any]
    ) -> Room:
        """A league night's table (:mod:`tricktable.web.room`), started at once: ``seats``
        are bots' (``{kind: bot, name, spec}``) and people's, each reserved for its account
        (``{kind: person, name, user}``: only they take it; the away rule plays it while they
        are not there); ``league`` says its night and table and holds each deal's seed, the
        first match dealt from the first. Counted in no person's limits: the league's owner
        scheduled it, and the night needs it."""
        seated = []
        for s in seats:
            if s["kind"] == "person":
                seated.append({**s, "away": False, "token": secrets.token_urlsafe(16)})
            else:
                self.make_bot(s["spec"]).close()  # it can be made: refused now, not mid-night
                seated.append(dict(s))
        settings = {
            "spec": spec,
            "move_time": self.limits.league_move_time,
            "when_empty": "finish",
            "private": False,
            "league": league,
        }
        seed = int(league["seeds"][0])
        nonce = secrets.token_hex(16)
        row = TableRow(
            id=secrets.token_urlsafe(6),
            creator=owner,
            settings=settings,
            seats=seated,
            status="waiting",
            match_no=1,
            seed=seed,
            nonce=nonce,
            commitment=commitment_of(seed, nonce),
        )
        refused = self.cluster.refusal()
        if refused is not None:
            raise TricktableError(refused)
        room = self._made(row, lease=f"night/{league.get('fixture')}")
        room.start_match()
        self.lobby_changed()
        return room

    def league_table(self, fixture: int, table: int) -> Room | None:
        """League night ``fixture``'s table ``table`` here, if it was made."""
        for room in self.rooms.values():
            league = room.league
            if league is not None and (league.get("fixture"), league.get("table")) == (
                fixture,
                table,
            ):
                return room
        return None

    def league_deal_played(self, room: Room) -> None:
        """A league night's table has played a deal: its listeners are told."""
        for listener in list(self.league_listeners):
            try:
                listener(room)
            except Exception as exc:  # a listener's bug never stops a table
                self.log(f"table {room.id}: a league listener failed: {exc!r}")

    def close(self) -> None:
        """Stop every room's match; write what is on its way to the journal."""
        for room in self.rooms.values():
            room.close()
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def make_bot(self, spec: str) -> Bot:
        """A bot of the server's own kinds, or an account's bot the server seated by name
        (``registered:NAME``: a web service, called through the endpoint guard, or a program
        its operator registered), or a web service by its URL (``endpoint:URL``: the arena's
        seats, through the same guard). A person's table request never names a program or a
        URL: the seats they ask for are levels and characters, and an invitation names a bot."""
        if spec.startswith(REGISTERED):
            return self._registered(spec[len(REGISTERED) :])
        if spec.startswith(ENDPOINT):
            from tricktable.protocols.endpoints import EndpointPolicy
            from tricktable.protocols.http import HttpBot

            url = spec[len(ENDPOINT) :]
            policy = EndpointPolicy(allow_local=self.limits.allow_local_bots)
            return HttpBot(url, name=endpoint_name(url), policy=policy)
        from tricktable.bots import make_bot

        return make_bot(spec)

    def _registered(self, name: str) -> Bot:
        row = self.store.bot(name)
        if row is None or row.revoked:
            raise BadRequest(f"there is no bot named {name!r}")
        if row.kind == "http":
            from tricktable.protocols.endpoints import EndpointPolicy
            from tricktable.protocols.http import HttpBot

            policy = EndpointPolicy(allow_local=self.limits.allow_local_bots)
            return HttpBot(row.endpoint or "", name=row.name, policy=policy)
        if row.kind == "program":
            import json
            import shlex

            from tricktable.protocols.stdio import SubprocessBot

            program = SubprocessBot(shlex.join(json.loads(row.endpoint or "[]")))
            program.name = row.name  # its command is the operator's, not the table's to read
            return program
        raise BadRequest(f"{row.name} connects by itself (a websocket bot): invite it")

    def save(self, room: Room) -> None:
        """Store a room's seats and status (a failure is logged: the journal is the truth)."""
        try:
            self.store.save_table(room.row())
        except StoreError as exc:
            self.log(f"table {room.id}: {exc}")
        self.cluster.changed(room)

    def lobby_tables(self) -> list[dict[str, Any]]:
        """The lobby: every listed table not closed, newest first (the newest
        :data:`LOBBY_TABLES`: only those are described)."""
        listed = []
        for room in reversed(self.rooms.values()):
            if room.status != "closed" and not room.settings.get("private"):
                listed.append(room)
                if len(listed) == LOBBY_TABLES:
                    break
        return [r.info() for r in listed]

    def lobby_changed(self) -> None:
        """Send the lobby to its subscribers (once for changes made together; encoded once
        for them all)."""
        if self._lobby_pending or not self.lobby:
            return
        self._lobby_pending = True

        def send() -> None:
            self._lobby_pending = False
            text = frame("lobby", {"tables": self.lobby_tables()})
            for conn in list(self.lobby):
                conn.send_frame(text)

        asyncio.get_running_loop().call_soon(send)

    def bot_tables(self, user: User | None = None) -> int:
        """The tables of bots alone being played (of ``user``'s making, if given)."""
        return sum(
            1
            for r in self.rooms.values()
            if r.bots_only
            and r.status in ("waiting", "playing")
            and not r.asleep
            and (user is None or r.creator == user.id)
        )

    def _may_start_bots(self, user: User) -> None:
        """Whether ``user`` may start one more table of bots alone; BadRequest if not."""
        limits = self.limits
        if self.bot_tables(user) >= limits.bot_tables_per_person:
            most = limits.bot_tables_per_person
            raise BadRequest(
                f"you have {most} tables of bots alone playing ({most} at most): "
                "close one, or sit at a table with bots"
            )
        if self.bot_tables() >= limits.bot_tables:
            raise BadRequest(
                f"this server plays {limits.bot_tables} tables of bots alone already "
                "(its most): sit at a table with bots, or try again later"
            )

    def _may_open(self, user: User) -> None:
        """Whether ``user`` may open one more table; BadRequest if not."""
        refused = self.cluster.refusal()
        if refused is not None:
            raise BadRequest(refused)
        limits = self.limits
        mine = sum(
            1
            for r in self.rooms.values()
            if r.creator == user.id and r.status in ("waiting", "playing")
        )
        if mine >= limits.open_tables:
            raise BadRequest(
                f"you have {mine} tables open already ({limits.open_tables} at most): "
                "finish or leave one first"
            )

    def create_bots_table(self, user: User, spec: str, seats: list[dict[str, Any]]) -> Room:
        """A table of bots alone, started at once (the arena's): ``seats`` are one
        ``{kind: bot|character, name, spec}`` a seat, their specs the server's own (a level,
        a character, ``registered:NAME``, ``endpoint:URL``), each made once here so that a
        bad one is refused now, not mid-match. Counted as a person's bots-only tables are."""
        self._may_open(user)
        self._may_start_bots(user)
        for s in seats:
            self.make_bot(s["spec"]).close()
        settings = {"spec": spec, "move_time": 0, "when_empty": "finish", "private": False}
        return self._open(user, settings, [dict(s) for s in seats])

    def create(self, user: User, settings: object) -> Room:
        """A new table from ``settings`` (docs/protocol-web.md: SETTINGS), made by ``user``."""
        clean = check_settings(settings)
        self._may_open(user)
        game = load_game(clean["spec"])
        n = game.num_players
        given = clean.pop("seat_list")
        if len(given) > n:
            title = type(game).title or game.preset
            raise BadRequest(f"this {title} table has {n} seats, not {len(given)}")
        if len(given) == n and all(s["kind"] in ("bot", "character") for s in given):
            self._may_start_bots(user)
        seats: list[dict[str, Any]] = []
        seated = False
        for i in range(n):
            s = given[i] if i < len(given) else {"kind": "open"}
            kind = s["kind"]
            if kind == "me":
                if seated:
                    raise BadRequest("you may take one seat of a table")
                seated = True
                seats.append(_person(user))
            elif kind == "open":
                seats.append({"kind": "open", "name": ""})
            else:
                spec, name = s["spec"], s["name"]
                self.make_bot(spec).close()  # it can be made: refused now, not mid-match
                seats.append({"kind": kind, "name": name, "spec": spec})
        return self._open(user, clean, seats)

    def _open(self, user: User, settings: dict[str, Any], seats: list[dict[str, Any]]) -> Room:
        """A new room of ``seats`` stored and listed; started if no seat is open."""
        seed, nonce, commitment = new_seed()
        row = TableRow(
            id=secrets.token_urlsafe(6),
            creator=user.id,
            settings=settings,
            seats=seats,
            status="waiting",
            match_no=1,
            seed=seed,
            nonce=nonce,
            commitment=commitment,
        )
        room = self._made(row)
        if all(s["kind"] != "open" for s in seats):
            room.start_match()
        self.lobby_changed()
        return room

    # ------------------------------------------------------------------------- messages

    def connect(self, conn: Conn) -> None:
        """A new connection: held to the hub's limits (it says hello or lobby next)."""
        conn.limit(self.limits)

    def disconnect(self, conn: Conn) -> None:
        """A connection closed: it leaves its room and the lobby."""
        conn.close()
        self.cluster.disconnected(conn)
        self.lobby.discard(conn)
        if conn.room is not None:
            conn.room.detach(conn)

    async def handle(self, conn: Conn, text: str) -> bool:
        """Answer one frame; False when the connection should be closed (a flood)."""
        if not conn.allow():
            if conn.refused == 1:  # the first refusal of a window: said once
                conn.send("error", {"reason": "too many messages: slow down", "code": "flood"})
            return conn.refused < self.limits.flood_refusals
        await self.dispatch(conn, text)
        return True

    async def dispatch(self, conn: Conn, text: str) -> None:
        """Answer one frame within the rate limit: here, or at the process that plays its
        table (where that process answers it with this same code)."""
        msg_id: str | None = None
        try:
            if len(text) > MAX_FRAME:
                raise BadRequest(f"a message is at most {MAX_FRAME} characters")
            try:
                message = json.loads(text)
            except (ValueError, RecursionError):
                raise BadRequest("a message is one JSON object") from None
            if not isinstance(message, dict):
                raise BadRequest("a message is one JSON object")
            raw_id = message.get("id")
            if raw_id is not None:
                if not isinstance(raw_id, str) or not 1 <= len(raw_id) <= 64:
                    raise BadRequest("an id is text of 1 to 64 characters")
                msg_id = raw_id
            kind = message.get("type")
            if kind not in TYPES:
                shown = kind if isinstance(kind, str) and len(kind) <= 20 else "?"
                raise BadRequest(f"unknown message type {shown!r}")
            data = message.get("data") or {}
            if not isinstance(data, dict):
                raise BadRequest("data is a JSON object")
            table = message.get("table")
            if table is not None and not isinstance(table, str):
                raise BadRequest("table is a table's id")
            v = message.get("v")
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                # The client's v is read for nothing else (the server's versions are its own,
                # a hello's ``since`` says what a client has): checked, so a bug shows.
                raise BadRequest("v is the last version the client saw (an int) or null")
            if self.cluster.shared and table is not None and kind in ROUTED:
                if kind == "act" and msg_id is not None and len(conn.inflight) < 100:
                    conn.inflight[msg_id] = text
                if await self.cluster.forward(conn, kind, table, text):
                    return
            await getattr(self, "_on_" + kind)(conn, table, msg_id, data)
        except TricktableError as exc:
            line = str(exc).splitlines()[0][:300] if str(exc) else "refused"
            code = exc.code if isinstance(exc, BadRequest) else "bad"
            conn.send("error", {"reason": line, "code": code}, id=msg_id)
        except Exception as exc:  # the server's own bug: said, logged, and it serves on
            self.log(f"error answering {text[:200]!r}: {exc!r}")
            reason = f"the server failed to answer this ({type(exc).__name__}); it is logged"
            conn.send("error", {"reason": reason, "code": "internal"}, id=msg_id)

    def _room(self, conn: Conn, table: str | None) -> Room:
        if table is None:
            raise BadRequest("which table? (the envelope's table)")
        room = self.rooms.get(table)
        if room is None or room.status == "closed":
            raise BadRequest(f"no table {table[:40]!r}")
        return room

    def _attached(self, conn: Conn, table: str | None) -> Room:
        room = self._room(conn, table)
        if conn.room is not room:
            raise BadRequest("say hello to the table first")
        return room

    async def _on_ping(self, conn: Conn, table: str | None, mid: str | None, data: dict) -> None:
        conn.send(
            "pong", {"time": time.time()}, table=table if isinstance(table, str) else None, id=mid
        )

    async def _on_lobby(self, conn: Conn, table: str | None, mid: str | None, data: dict) -> None:
        self.lobby.add(conn)
        conn.send("lobby", {"tables": self.lobby_tables()}, id=mid)

    async def _on_close_table(
        self, conn: Conn, table: str | None, mid: str | None, data: dict
    ) -> None:
        # From the table's page or the lobby: the creator need not be attached.
        room = self._room(conn, table)
        if room.creator != conn.user.id:
            raise BadRequest("only the table's creator closes it")
        if room.league is not None and room.status == "playing":
            raise BadRequest(
                "a league night's table plays its deals to the end: the night needs them"
            )
        room.close_by_creator(conn, mid)

    async def _on_create(self, conn: Conn, table: str | None, mid: str | None, data: dict) -> None:
        room = self.create(conn.user, data)
        conn.send("created", {"table": room.info(), "url": f"/t/{room.id}"}, id=mid)

    async def _on_invite(self, conn: Conn, table: str | None, mid: str | None, data: dict) -> None:
        from tricktable.web.bots import invite

        await invite(self, conn, table, mid, data)  # an account's bot seated (web/bots.py)

    async def _on_hello(self, conn: Conn, table: str | None, mid: str | None, data: dict) -> None:
        room = self._room(conn, table)
        if room.withheld and room.seat_of(conn.user.id) is None:
            # A watcher could be a player of the night's other tables, which deal these cards.
            raise BadRequest(
                "a league night's table is watched once the night is scored: "
                "its deals are being played at the night's other tables"
            )
        since = data.get("since")
        if since is not None and (not isinstance(since, int) or isinstance(since, bool)):
            raise BadRequest("since is a version (an int) or null")
        token = data.get("seat_token")
        if token is not None:
            if not isinstance(token, str) or len(token) > 100:
                raise BadRequest("a seat token is text")
            self._claim(room, conn.user, token)
        if conn.room is not None and conn.room is not room:
            conn.room.detach(conn)
        room.attach(conn, since, reply=mid)
        if room.status == "waiting" and all(s["kind"] != "open" for s in room.seats):
            room.start_match()  # filled while the database could not begin it: again now
            room.changed_seats()

    def _claim(self, room: Room, user: User, token: str) -> None:
        for i, s in enumerate(room.seats):
            if (
                s["kind"] == "person"
                and s.get("token")
                and secrets.compare_digest(s["token"], token)
            ):
                held = room.seat_of(user.id)
                if held is not None and held != i:
                    raise BadRequest("you already hold another seat at this table")
                s["user"] = user.id
                self.save(room)
                room.reseat()
                return
        raise BadRequest("that seat token opens no seat at this table")

    async def _on_act(self, conn: Conn, table: str | None, mid: str | None, data: dict) -> None:
        room = self._attached(conn, table)
        if mid is None:
            raise BadRequest("an act needs an id (a client-made unique id)")
        seat = room.seat_of(conn.user.id)
        if seat is None or room.conns.get(conn) != seat:
            reason = "you hold no seat at this table: watchers do not act"
            room.answer(conn, mid, room.conns.get(conn, SPECTATOR), reason)
            return
        if "cards" in data:
            action = data["cards"]
            if not isinstance(action, list) or not all(isinstance(c, str) for c in action):
                raise BadRequest("an act's cards are a list of card names: ['6C', '9C', 'TC']")
        elif "action" in data:
            action = data["action"]
        else:
            raise BadRequest("an act's data holds its action (text) or its cards (a list)")
        lite = data.get("snapshot", True) is False
        ok, reason = room.act(seat, action, mid)
        # Answered once the act (and whatever the table made before it) is in the database.
        room.answer(conn, mid, seat, None if ok else reason, snapshot=not lite)

    async def _on_chat(self, conn: Conn, table: str | None, mid: str | None, data: dict) -> None:
        from tricktable.chat import checked_line

        text = data.get("text")
        if not isinstance(text, str):
            raise BadRequest("a chat message's data.text is the line (text)")
        self._may_chat(conn.user)  # every line tried counts, a refused one too
        if table is None:
            state = load_game("setback").new_state(0)  # no card is face up in the lobby
            line = checked_line(state, text)
            if not self._lobby_bucket().allow():
                raise TooFast("the lobby's chat is busy: say it again in a moment")
            said = frame(
                "chat", {"from": conn.user.name, "seat": None, "text": line, "watcher": False}
            )
            for other in list(self.lobby):
                other.send_frame(said)
            self.cluster.lobby_chat(said)
            return
        room = self._attached(conn, table)
        viewer = room.conns[conn]
        if viewer != SPECTATOR and room.table is not None:
            room.chat(viewer, text)  # a line of the match: journaled, an event for all
            return
        table_ = room.table
        line = checked_line(
            table_.state if table_ is not None else load_game("setback").new_state(0), text
        )
        quiet = room.spectators_only()
        for other, v in list(room.conns.items()):
            if v == SPECTATOR or not quiet:
                other.send(
                    "chat",
                    {
                        "from": conn.user.name,
                        "seat": None if viewer == SPECTATOR else viewer,
                        "text": line,
                        "watcher": viewer == SPECTATOR,
                    },
                    table=room.id,
                )

    def _may_chat(self, user: User) -> None:
        """Count one chat line of ``user``'s (all their connections); TooFast past the limit."""
        limits = self.limits
        bucket = self._chat.get(user.id)
        if bucket is None:
            if len(self._chat) >= 1000:  # forget those quiet long enough to be full again
                self._chat = {k: b for k, b in self._chat.items() if not b.full()}
            bucket = self._chat[user.id] = TokenBucket(limits.chat_rate, limits.chat_burst)
        if not bucket.allow():
            every = 1 / limits.chat_rate if limits.chat_rate > 0 else 0
            raise TooFast(
                f"too much chat: a line every {every:g} seconds "
                f"(bursts of {limits.chat_burst:g}); say it again in a moment"
            )

    def _lobby_bucket(self) -> TokenBucket:
        made = self._lobby_chat
        if made is None or made[0] is not self.limits:
            limits = self.limits
            made = self._lobby_chat = (
                limits,
                TokenBucket(limits.lobby_chat_rate, limits.lobby_chat_burst),
            )
        return made[1]

    async def _on_take_seat(
        self, conn: Conn, table: str | None, mid: str | None, data: dict
    ) -> None:
        room = self._attached(conn, table)
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(room.seats):
            shown = "none given" if seat is None else f"{str(seat)[:10]!r}"
            raise BadRequest(f"no seat {shown}; data.seat is a seat 0..{len(room.seats) - 1}")
        s = room.seats[seat]
        held = room.seat_of(conn.user.id)
        if s["kind"] == "person" and s.get("user") == conn.user.id:
            room.conns[conn] = seat
            room.set_away(seat, False)
            room.attach(conn, conn.versions.get(room.id), reply=mid)  # its table: the answer
            return
        if s["kind"] != "open" or room.status != "waiting":
            raise BadRequest(f"seat {seat} is not free")
        if held is not None:
            raise BadRequest("you already hold a seat at this table")
        room.seats[seat] = _person(conn.user)
        self.save(room)
        room.reseat()
        if all(x["kind"] != "open" for x in room.seats):
            room.start_match()
        room.changed_seats()
        _answer(room, conn, mid)

    async def _on_leave_seat(
        self, conn: Conn, table: str | None, mid: str | None, data: dict
    ) -> None:
        room = self._attached(conn, table)
        seat = room.seat_of(conn.user.id)
        if seat is None:
            raise BadRequest("you hold no seat at this table")
        if room.status == "waiting":
            room.seats[seat] = {"kind": "open", "name": ""}
            self.save(room)
            room.reseat()
            room.changed_seats()
        else:
            room.set_away(seat, True)
        _answer(room, conn, mid)

    async def _on_again(self, conn: Conn, table: str | None, mid: str | None, data: dict) -> None:
        room = self._attached(conn, table)
        if room.seat_of(conn.user.id) is None:
            raise BadRequest("only a seated person starts the next match")
        room.again()
        room.broadcast_all()
        _answer(room, conn, mid)

    async def _on_continue(
        self, conn: Conn, table: str | None, mid: str | None, data: dict
    ) -> None:
        # The person closed the last hand's summary: a clock of theirs held for it runs now.
        # A watcher's, or one with no summary open, changes nothing.
        room = self._attached(conn, table)
        seat = room.seat_of(conn.user.id)
        if seat is not None and room.conns.get(conn) == seat:
            room.summary_closed(seat)
        if mid is not None:
            conn.send("clock", room.clock_data(), table=room.id, id=mid)

    async def _on_hint(self, conn: Conn, table: str | None, mid: str | None, data: dict) -> None:
        room = self._attached(conn, table)
        seat = room.seat_of(conn.user.id)
        tab = room.table
        if seat is None or tab is None or tab.whose_turn != seat:
            raise BadRequest("a hint is for your own turn")
        from tricktable.search.explain import hint

        view = tab.view(seat)
        given = await asyncio.to_thread(hint, view, 1.0)
        best = given.best()
        action = best.action if best is not None else given.heuristic
        if action is None:
            raise BadRequest("no hint for this decision")
        text = tab.game.action_name(action)
        conn.send(
            "hint",
            {
                "action": text,
                "text": text,
                "words": action_phrase(tab.game, action),
                "note": given.note,
            },
            table=room.id,
            id=mid,
        )


def _answer(room: Room, conn: Conn, mid: str | None) -> None:
    """Answer a request that carried an id with the table as it is now (its ``table``
    message, the id echoed); every viewer had the change's own ``table`` already."""
    if mid is not None and conn.room is room:
        room.send_table(conn, mid)


def _person(user: User) -> dict[str, Any]:
    return {
        "kind": "person",
        "name": user.name,
        "user": user.id,
        "away": False,
        "token": secrets.token_urlsafe(16),
    }
