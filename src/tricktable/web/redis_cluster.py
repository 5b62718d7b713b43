"""Many server processes sharing their tables through Redis (``tricktable serve --redis URL``;
docs/deploy.md draws three machines).

Who plays a table: the process holding its **lease**, a Redis key ``tt:lease:ID`` holding the
process's name for :data:`LEASE_MS`, renewed every :data:`TICK_S` and listed in the sorted set
``tt:leases`` by expiry. A process claims a table by setting the key if it is absent, then
raising the table's **epoch** in the database (:meth:`WebStore.claim_table
<tricktable.web.store.WebStore.claim_table>`) and rebuilding the match from the journal read
after that commit. Every journal row carries the epoch, checked in the transaction that
appends it (:meth:`WebStore.append_many <tricktable.web.store.WebStore.append_many>`): a
lease can lapse unseen (a process paused, cut off, or a Redis restarted empty), the epoch
cannot, so a former owner's rows are refused and it lets the table go. The database is the
truth; Redis only says where to go.

Every process is a **gateway** for its own websockets: a message about a table played
elsewhere is published to the owner's inbox (the pub/sub channel ``tt:node:NAME``), which
answers it with the hub's own code for a stand-in connection (:class:`RemoteConn`) and
sends its frames back through the gateway's inbox, batched a pass of the loop. Versions are
the journal's, so a client that reconnects to any process says ``hello`` with ``since`` and
gets what it missed from whoever plays the table now.

A process killed: its leases lapse within :data:`LEASE_MS`; every process looks for lapsed
leases each tick and one claims each table (a bots' table plays on with nobody watching);
the gateways whose clients watched it say ``hello`` again for them to the new owner, with
the version each had. Redis away: no table is opened (:meth:`RedisCluster.refusal`), tables
played here play on (their epochs guard them), and when Redis answers again every lease is
set again and the lobby read again from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Final

import redis
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff as SyncNoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry as SyncRetry

from tricktable.db import StoreError
from tricktable.web.cluster import Alone
from tricktable.web.hub import Conn
from tricktable.web.settings import BadRequest
from tricktable.web.store import TableRow, User

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from tricktable.web.hub import Hub
    from tricktable.web.room import Room

#: milliseconds a lease lasts unless renewed (a dead owner's tables wait this long at most)
LEASE_MS: Final = 3000
#: the connection whose hello the running task is saying again (``_reroute``), if any
_REROUTING: ContextVar[str | None] = ContextVar("rerouting", default=None)
#: a new table's epoch: its maker's, stored with its row (a claim raises it)
FIRST_EPOCH: Final = 1
#: seconds between two renewals of this process's leases (and looks for lapsed ones)
TICK_S: Final = 0.5
#: the sorted set of leases by expiry (any process claims a lapsed one)
LEASES: Final = "tt:leases"
#: the channels every process hears
TABLES: Final = "tt:tables"
LOBBY: Final = "tt:lobby"
SESSIONS: Final = "tt:sessions"
#: where a process asks which of the others holds a bot's free connection (an invitation)
BOTS: Final = "tt:bots"
#: the running clocks of the tables, by table (a process taking a table up keeps its clock)
CLOCKS: Final = "tt:clocks"
#: seconds an invitation waits for the others' answer
ASK_S: Final = 1.0

UNREACHABLE: Final = (
    "this server cannot reach its Redis now: no table can be opened or taken up here; "
    "try again in a moment"
)

# The lease's scripts (Redis runs each at once, alone). TIME is Redis's own clock, so the
# processes' clocks need not agree.
_CLAIM: Final = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local t = redis.call('time')
  redis.call('zadd', KEYS[2], t[1] * 1000 + math.floor(t[2] / 1000) + ARGV[2], ARGV[3])
  return 1
end
return 0
"""
# Every lease of this process renewed in one call (ARGV: the process, the lease's
# milliseconds, the names): each 1 if ours, set again if absent (a Redis restarted empty: the
# epoch says whether the table is still ours), 0 if another process holds it. (The keys are
# made inside the script: one Redis, not a Redis Cluster, whose scripts must name them.)
_RENEW: Final = """
local t = redis.call('time')
local expiry = t[1] * 1000 + math.floor(t[2] / 1000) + ARGV[2]
local kept = {}
for i, name in ipairs(ARGV) do
  if i > 2 then
    local key = 'tt:lease:' .. name
    local v = redis.call('get', key)
    if v == ARGV[1] then
      redis.call('pexpire', key, ARGV[2])
    elseif not v then
      redis.call('set', key, ARGV[1], 'PX', ARGV[2])
    end
    if v == ARGV[1] or not v then
      redis.call('zadd', KEYS[1], expiry, name)
      kept[#kept + 1] = 1
    else
      kept[#kept + 1] = 0
    end
  end
end
return kept
"""
_RELEASE: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  redis.call('zrem', KEYS[2], ARGV[2])
  return 1
end
return 0
"""
_LAPSED: Final = """
local t = redis.call('time')
return redis.call('zrangebyscore', KEYS[1], '-inf', t[1] * 1000 + math.floor(t[2] / 1000),
                  'LIMIT', 0, 100)
"""


def lease_key(table_id: str) -> str:
    """The Redis key of table ``table_id``'s lease."""
    return f"tt:lease:{table_id}"


def inbox(node: str) -> str:
    """The pub/sub channel of process ``node``."""
    return f"tt:node:{node}"


def hello_text(table: str, since: int | None) -> str:
    """A ``hello`` to ``table`` from a client that has version ``since``."""
    return json.dumps({"type": "hello", "table": table, "data": {"since": since}})


class RemoteConn(Conn):
    """At a table's owner, a client connected to another process (its gateway): what the
    hub sends it goes back to the gateway, batched. The gateway limited its rate already."""

    def __init__(self, cluster: RedisCluster, node: str, cid: str, user: User) -> None:
        super().__init__(user, _nowhere)
        self.cluster = cluster
        self.node = node
        self.cid = cid
        #: the gateway said the client left (nothing more is sent to it)
        self.gone = False

    def send_frame(self, text: str) -> None:
        if self.closed:
            return
        room = self.room
        table = room.id if room is not None else None
        version = self.versions.get(table) if table is not None else None
        self.cluster.out(self.node, [self.cid, text, table, version])

    def allow(self) -> bool:
        return True

    def close(self) -> None:
        if not self.closed and not self.gone:
            self.cluster.send(self.node, {"k": "end", "c": self.cid})
        self.closed = True


async def _nowhere(_text: str) -> None:  # a RemoteConn's frames go through the cluster
    return None


class RedisCluster(Alone):
    """This process among others on one Redis (see the module)."""

    shared = True

    def __init__(self, url: str, lease_ms: int = LEASE_MS) -> None:
        self.url = url
        self.lease_ms = lease_ms
        self.node = secrets.token_hex(6)
        #: the tables this process plays, and each one's epoch
        self.owned: dict[str, int] = {}
        #: the leases this process holds for its tables (a table's id, or a league night's
        #: name for all its tables: :meth:`lease_of`)
        self.held: set[str] = set()
        #: the held leases a job of this process's threads runs under (a league night's):
        #: kept while the job runs, even with none of its tables played here
        self.pinned: set[str] = set()
        self.healthy = False
        self.hub: Hub | None = None
        self._redis: aioredis.Redis | None = None
        #: a blocking client, for the lease of a table being made (:meth:`opening`)
        self._sync: redis.Redis | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        #: frames for other processes' clients, by process, sent at the pass's end
        self._outbox: dict[str, list[Any]] = {}
        #: what to send Redis, in order: ("pub", channel, message), ("hset", key, field,
        #: value) or ("hdel", key, field)
        self._sending: asyncio.Queue[tuple[str, ...] | None] = asyncio.Queue()
        #: the stand-in connections of other processes' clients, by (process, their id)
        self._remote: dict[tuple[str, str], RemoteConn] = {}
        #: this process's websockets forwarded elsewhere, by their id
        self._local: dict[str, Conn] = {}
        #: each connection whose hello this process is saying again (``_reroute``), done
        #: once it is said: the connection's own frames wait for it (see ``forward``)
        self._rerouting: dict[str, asyncio.Future[None]] = {}
        #: claims under way (one at a time a table)
        self._claiming: dict[str, asyncio.Future[bool]] = {}
        self.takeovers = 0
        #: questions to the other processes waiting for their first answer, by their token
        self._asks: dict[str, asyncio.Future[str]] = {}
        #: the jobs this process runs under a lease (web tournaments), each one's end
        self.jobs: dict[str, Callable[[], None]] = {}
        #: the jobs to run once started, and who takes up each kind of lapsed job
        self._adopting: list[tuple[str, Callable[[], None], Callable[[], None]]] = []
        self._takers: dict[str, Callable[[str], None]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    # ------------------------------------------------------------------------ lifecycle

    async def start(self, hub: Hub) -> None:
        self.hub = hub
        self._redis = aioredis.Redis.from_url(
            self.url,
            socket_timeout=2.0,
            socket_connect_timeout=2.0,
            decode_responses=True,
            retry=AsyncRetry(SyncNoBackoff(), 0),
        )
        with contextlib.suppress(RedisError, OSError):
            await self._redis.ping()
            self.healthy = True
        loop = self._loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._send_loop()),
            loop.create_task(self._tick_loop()),
        ]
        adopting, self._adopting = self._adopting, []
        for name, begin, end in adopting:  # after: _spawn keeps its tasks in that list
            self._spawn(self._adopt(name, begin, end))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._redis is not None and self.healthy:
            with contextlib.suppress(RedisError, OSError):
                for table in [*self.held, *self.jobs]:
                    await self._redis.eval(_RELEASE, 2, lease_key(table), LEASES, self.node, table)
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
        if self._sync is not None:
            with contextlib.suppress(Exception):
                self._sync.close()

    def refusal(self) -> str | None:
        return None if self.healthy else UNREACHABLE

    def fence(self, table_id: str) -> int | None:
        # A table not ours carries an epoch no table has: the journal refuses its rows.
        return self.owned.get(table_id, -1)

    def stats(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "shared": True,
            "redis": self.healthy,
            "tables_played": len(self.owned),
            "takeovers": self.takeovers,
        }

    # ------------------------------------------------------------------ tables and leases

    def lease_of(self, table_id: str) -> str:
        """The lease ``table_id`` is played under: its own, or its league night's (a night's
        tables keep in step deal by deal, so one process plays them all)."""
        hub = self.hub
        room = hub.rooms.get(table_id) if hub is not None else None
        return room.lease if room is not None else table_id

    def _group(self, name: str) -> list[str]:
        """The tables played under lease ``name`` that this process knows."""
        hub = self.hub
        assert hub is not None
        if "/" not in name:
            return [name]
        return [t for t, room in hub.rooms.items() if room.lease == name]

    def hold_now(self, name: str) -> bool:
        if name in self.held:
            self.pinned.add(name)
            return True
        try:
            got = self._blocking().eval(
                _CLAIM, 2, lease_key(name), LEASES, self.node, self.lease_ms, name
            )
        except (RedisError, OSError):
            return False  # tried again by the job's next look (Redis away)
        if got:
            self.held.add(name)
            self.pinned.add(name)
        return bool(got)

    def _blocking(self) -> redis.Redis:
        if self._sync is None:
            # No retries: a blocking call must fail at once when Redis is away (the
            # library's default backs off for seconds), and the tick notices it anyway.
            self._sync = redis.Redis.from_url(
                self.url,
                socket_timeout=1.0,
                socket_connect_timeout=1.0,
                retry=SyncRetry(SyncNoBackoff(), 0),
            )
        return self._sync

    def opening(self, table_id: str, lease: str | None = None) -> int:
        if not self.healthy:
            raise BadRequest(UNREACHABLE)
        # Held before the table is stored and its id told to anyone: a hello at another
        # process finds this one playing it. A blocking call (a table is made rarely; a
        # move never waits for it), on a connection of its own.
        name = lease or table_id
        if name in self.held:
            return FIRST_EPOCH  # another table of a night this process plays
        try:
            got = self._blocking().eval(
                _CLAIM, 2, lease_key(name), LEASES, self.node, self.lease_ms, name
            )
        except (RedisError, OSError) as exc:
            self._unwell(exc)
            raise BadRequest(UNREACHABLE) from None
        if not got:
            raise BadRequest("that table is played by another server process: try again")
        self.held.add(name)
        return FIRST_EPOCH

    def opened(self, room: Room, epoch: int) -> None:
        self.owned[room.id] = epoch
        self.changed(room)

    def adopt(self, name: str, begin: Callable[[], None], end: Callable[[], None]) -> None:
        loop = self._loop
        if loop is None:  # before the server's loop: once it starts
            self._adopting.append((name, begin, end))
            return
        # From the loop, or from a route's worker thread (a tournament is made off the loop).
        loop.call_soon_threadsafe(lambda: self._spawn(self._adopt(name, begin, end)))

    async def _adopt(self, name: str, begin: Callable[[], None], end: Callable[[], None]) -> None:
        got = await self._eval(_CLAIM, 2, lease_key(name), LEASES, self.node, self.lease_ms, name)
        if got:
            self.jobs[name] = end
            begin()

    def done(self, name: str) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # a closed loop: the lease lapses
                loop.call_soon_threadsafe(self._job_done, name)

    def _job_done(self, name: str) -> None:
        if self.jobs.pop(name, None) is not None:
            self._spawn(self._release(name))
        elif name in self.pinned:
            self.pinned.discard(name)
            if not any(self.lease_of(t) == name for t in self.owned):
                self.held.discard(name)
                self._spawn(self._release(name))

    def takes(self, prefix: str, take: Callable[[str], None]) -> None:
        self._takers[prefix] = take

    async def _take_job(self, name: str) -> None:
        taker = next((t for p, t in self._takers.items() if name.startswith(p)), None)
        if taker is None:
            return
        got = await self._eval(_CLAIM, 2, lease_key(name), LEASES, self.node, self.lease_ms, name)
        if got:
            if "/" in name:  # a night's lease: its tables' too (none made yet)
                self.held.add(name)
                self.pinned.add(name)
            else:
                self.jobs[name] = lambda: None
            self.takeovers += 1
            taker(name)

    def changed(self, room: Room) -> None:
        users, watchers = room.presence()
        message = {"src": self.node, "row": _row_json(room.row()), "here": [users, watchers]}
        self._publish(TABLES, message)

    def present(self, room: Room) -> None:
        if room.id in self.owned:
            self.changed(room)

    def released(self, room: Room) -> None:
        if self.owned.pop(room.id, None) is None:
            return
        name = room.lease
        if name not in self.pinned and not any(self.lease_of(t) == name for t in self.owned):
            self.held.discard(name)
            self._spawn(self._release(name))

    async def _release(self, table: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self._eval(_RELEASE, 2, lease_key(table), LEASES, self.node, table)

    def lost(self, room: Room) -> None:
        if self.owned.pop(room.id, None) is None:
            return  # let go already (a sibling of its night was lost first)
        hub = self.hub
        assert hub is not None
        hub.log(f"table {room.id}: another server process plays it now; let go here")
        name = room.lease
        self.held.discard(name)
        for sibling in [t for t in self.owned if self.lease_of(t) == name]:
            other = hub.rooms.get(sibling)
            if other is not None and other is not room:
                self.lost(other)
        for conn in room.let_go():
            if isinstance(conn, RemoteConn):
                self._remote.pop((conn.node, conn.cid), None)
                conn.gone = True
                self.send(conn.node, {"k": "moved", "c": conn.cid, "table": room.id})
            else:
                self._spawn(self._reroute(conn, room.id))

    async def claim(self, table: str) -> bool:
        """Claim ``table`` if nobody holds it: True if this process plays it now."""
        if table in self.owned:
            return True
        going = self._claiming.get(table)
        if going is not None:
            return await asyncio.shield(going)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._claiming[table] = future
        try:
            won = await self._claim(table)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: whoever waits sees it raised
            raise
        finally:
            self._claiming.pop(table, None)
        future.set_result(won)
        return won

    async def _claim(self, table: str) -> bool:
        hub = self.hub
        assert hub is not None
        name = self.lease_of(table)
        got = await self._eval(_CLAIM, 2, lease_key(name), LEASES, self.node, self.lease_ms, name)
        if not got:
            return False
        self.held.add(name)
        taken = False
        for one in self._group(name):
            try:
                claimed = await asyncio.to_thread(hub.store.claim_table, one)
            except StoreError:
                if not taken:
                    self.held.discard(name)
                    await self._release(name)
                raise
            if claimed is None:  # no such table (deleted)
                continue
            row, epoch = claimed
            self.owned[one] = epoch
            self.takeovers += 1
            assert self._redis is not None
            kept = await self._redis.hget(CLOCKS, one)
            hub.take(row, _clock_of(str(kept) if kept is not None else None))
            taken = True
        if not taken:  # nothing of it is stored: forget the lease
            self.held.discard(name)
            await self._release(name)
            assert self._redis is not None
            await self._redis.zrem(LEASES, name)
        return table in self.owned

    async def owner(self, table: str) -> str | None:
        """The process playing ``table`` now, or None."""
        assert self._redis is not None
        found = await self._redis.get(lease_key(self.lease_of(table)))
        return str(found) if found is not None else None

    # -------------------------------------------------------------------------- routing

    async def forward(self, conn: Conn, kind: str, table: str, text: str) -> bool:
        rerouting = self._rerouting.get(conn.cid)
        if rerouting is not None and _REROUTING.get() != conn.cid:
            # Its hello is being said again to the table's new owner: an act that came
            # meanwhile would reach that owner (or this process) before the hello, and be
            # refused ("say hello to the table first"). It goes once the hello has.
            await asyncio.shield(rerouting)
        if isinstance(conn, RemoteConn):
            if table in self.owned:
                return False
            # Played elsewhere since the gateway chose this process: it asks again.
            self.send(conn.node, {"k": "moved", "c": conn.cid, "table": table})
            return True
        if table in self.owned:
            if kind == "hello":
                self._unforward(conn)
            return False
        routed = conn.remote
        if routed is not None and routed[0] == table and kind != "hello":
            self._send_in(conn, routed[1], text)
            return True
        hub = self.hub
        assert hub is not None
        known = hub.rooms.get(table)
        if known is not None and known.status == "closed":
            return False  # the hub answers "no table" here; a closed table is nobody's
        if known is None:
            # A stranger's id claims nothing: a table this process has not heard of yet (made
            # a moment ago elsewhere) is read from the database; no such table, and the hub
            # answers "no table" here.
            row = None
            if len(table) <= 32:
                with contextlib.suppress(StoreError):
                    row = await asyncio.to_thread(hub.store.table, table)
            if row is None or row.status == "closed":
                return False
            hub.refresh(row)
        try:
            node = await self.owner(table)
            if node is None and await self.claim(table):
                node = self.node
            elif node is None:
                node = await self.owner(table)
        except (RedisError, OSError):
            self.healthy = False
            raise BadRequest(UNREACHABLE) from None
        except StoreError as exc:
            raise BadRequest(f"the table cannot be taken up now ({exc})") from None
        if node is None:
            raise BadRequest("the table is changing hands: say hello again in a moment")
        if node == self.node:
            if kind == "hello":
                self._unforward(conn)
            return False
        if kind == "hello":
            self._unforward(conn)
            if conn.room is not None:
                conn.room.detach(conn)
            conn.remote = (table, node)
            self._local[conn.cid] = conn
        self._send_in(conn, node, text)
        return True

    def _send_in(self, conn: Conn, node: str, text: str) -> None:
        user = conn.user
        message: dict[str, Any] = {"k": "in", "src": self.node, "c": conn.cid, "t": text}
        message["u"] = [user.id, user.name, user.kind]
        self.send(node, message)

    def _unforward(self, conn: Conn) -> None:
        routed = conn.remote
        if routed is not None:
            conn.remote = None
            self._local.pop(conn.cid, None)
            self.send(routed[1], {"k": "bye", "src": self.node, "c": conn.cid})

    def disconnected(self, conn: Conn) -> None:
        self._unforward(conn)

    async def _reroute(self, conn: Conn, table: str) -> None:
        """Say ``hello`` again for ``conn`` to whoever plays ``table`` now (its owner died
        or let it go), with the version the client has: it sees a pause, then plays on."""
        if conn.closed:
            return
        routed = conn.remote
        if routed is not None and routed[0] == table:
            conn.remote = None
            self._local.pop(conn.cid, None)
        hub = self.hub
        assert hub is not None
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._rerouting[conn.cid] = done
        inside = _REROUTING.set(conn.cid)  # this task's own frames for conn do not wait
        try:
            await hub.dispatch(conn, hello_text(table, conn.versions.get(table)))
            # The acts it sent that were never answered, sent again as a page does after a
            # reconnection: one the journal holds is confirmed (its id), one lost is applied
            # now (the table is where the client left it: nothing moves while it is to act).
            for text in list(conn.inflight.values()):
                await hub.dispatch(conn, text)
        finally:
            _REROUTING.reset(inside)
            if self._rerouting.get(conn.cid) is done:
                del self._rerouting[conn.cid]
            done.set_result(None)

    # ------------------------------------------------------------------------ the buses

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Publish ``message`` to process ``node`` (in order with this process's others)."""
        self._publish(inbox(node), message)

    def out(self, node: str, item: list[Any]) -> None:
        """A frame for a client of process ``node``: sent with the others of this pass."""
        box = self._outbox.get(node)
        if box is None:
            box = self._outbox[node] = []
            if len(self._outbox) == 1:
                asyncio.get_running_loop().call_soon(self._flush)
        box.append(item)

    def _flush(self) -> None:
        boxes, self._outbox = self._outbox, {}
        for node, items in boxes.items():
            self.send(node, {"k": "out", "items": items})

    def _publish(self, channel: str, message: dict[str, Any]) -> None:
        self._sending.put_nowait(("pub", channel, json.dumps(message, separators=(",", ":"))))

    def clock(self, room: Room, running: tuple[int, str, float, float] | None) -> None:
        if room.id not in self.owned:
            return
        if running is None:
            self._sending.put_nowait(("hdel", CLOCKS, room.id))
        else:
            self._sending.put_nowait(("hset", CLOCKS, room.id, json.dumps(running)))

    async def find_free(self, user_id: int) -> str | None:
        ask = secrets.token_hex(8)
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._asks[ask] = answer
        self._publish(BOTS, {"k": "who", "user": user_id, "src": self.node, "ask": ask})
        try:
            return await asyncio.wait_for(answer, ASK_S)
        except TimeoutError:
            return None
        finally:
            self._asks.pop(ask, None)

    def join(self, node: str, user_id: int, table: str) -> None:
        self.send(node, {"k": "join", "user": user_id, "table": table})

    def _free(self, user_id: int) -> Conn | None:
        hub = self.hub
        assert hub is not None
        for conn in hub.conns:
            if (
                conn.user.id == user_id
                and not conn.closed
                and conn.room is None
                and conn.remote is None
                and not isinstance(conn, RemoteConn)
            ):
                return conn
        return None

    def lobby_chat(self, text: str) -> None:
        self._publish(LOBBY, {"src": self.node, "f": text})

    def sessions_ended(self, sids: list[str], reason: str) -> None:
        self._publish(SESSIONS, {"src": self.node, "sids": sids, "reason": reason})

    async def _send_loop(self) -> None:
        """Publish in order, one message after another (a pipeline of whatever waits)."""
        queue = self._sending
        while True:
            first = await queue.get()
            if first is None:
                return
            batch = [first]
            while not queue.empty() and len(batch) < 500:
                item = queue.get_nowait()
                if item is not None:
                    batch.append(item)
            try:
                assert self._redis is not None
                async with self._redis.pipeline(transaction=False) as pipe:
                    for op, *args in batch:
                        if op == "pub":
                            pipe.publish(args[0], args[1])
                        elif op == "hset":
                            pipe.hset(args[0], args[1], args[2])
                        else:
                            pipe.hdel(args[0], args[1])
                    await pipe.execute()
            except (RedisError, OSError) as exc:
                self._unwell(exc)

    async def _listen(self) -> None:
        """Hear this process's inbox and the channels every process hears; again after
        Redis comes back."""
        assert self._redis is not None
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(inbox(self.node), TABLES, LOBBY, SESSIONS, BOTS)
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    try:
                        await self._heard(str(message["channel"]), str(message["data"]))
                    except (RedisError, OSError):
                        raise
                    except Exception as exc:  # a bad message is one line; the next is heard
                        assert self.hub is not None
                        self.hub.log(f"cluster: a message not understood: {exc!r}"[:300])
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self._unwell(exc)
                await asyncio.sleep(TICK_S)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def _heard(self, channel: str, data: str) -> None:
        hub = self.hub
        assert hub is not None
        message = json.loads(data)
        if channel == TABLES:
            if message.get("src") != self.node:
                users, watchers = message.get("here") or ([], 0)
                here = ([int(u) for u in users], int(watchers))
                hub.refresh(_row_of(message["row"]), here)
            return
        if channel == LOBBY:
            if message.get("src") != self.node:
                for conn in list(hub.lobby):
                    conn.send_frame(message["f"])
            return
        if channel == BOTS:
            src = str(message["src"])
            if src != self.node and self._free(int(message["user"])) is not None:
                self.send(src, {"k": "here", "ask": message["ask"], "node": self.node})
            return
        if channel == SESSIONS:
            if message.get("src") != self.node and self.on_sessions_ended is not None:
                self.on_sessions_ended(list(message["sids"]), str(message["reason"]))
            return
        kind = message.get("k")
        if kind == "out":
            local = self._local
            for cid, text, table, version in message["items"]:
                to = local.get(cid)
                if to is not None:
                    if table is not None and version is not None:
                        to.versions[table] = version
                    if to.inflight:
                        answered = json.loads(text).get("id")
                        if answered is not None:
                            to.inflight.pop(answered, None)
                    to.send_frame(text)
        elif kind == "in":
            key = (message["src"], message["c"])
            remote = self._remote.get(key)
            if remote is None:
                uid, name, user_kind = message["u"]
                remote = RemoteConn(self, key[0], key[1], User(int(uid), name, user_kind))
                hub.connect(remote)
                self._remote[key] = remote
            await hub.dispatch(remote, message["t"])
        elif kind == "bye":
            remote = self._remote.pop((message["src"], message["c"]), None)
            if remote is not None:
                remote.gone = True
                hub.disconnect(remote)
        elif kind == "here":
            asked = self._asks.get(str(message["ask"]))
            if asked is not None and not asked.done():
                asked.set_result(str(message["node"]))
        elif kind == "join":
            free = self._free(int(message["user"]))
            if free is not None:
                self._spawn(hub.dispatch(free, hello_text(str(message["table"]), None)))
        elif kind == "moved":
            moved = self._local.get(message["c"])
            if moved is not None:
                self._spawn(self._reroute(moved, message["table"]))
        elif kind == "end":
            ended = self._local.pop(message["c"], None)
            if ended is not None:
                ended.remote = None
                ended.close()

    # -------------------------------------------------------------------------- the tick

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            try:
                await self._tick()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self._unwell(exc)
            except Exception as exc:  # the tick must outlive any failure
                assert self.hub is not None
                self.hub.log(f"cluster tick: {exc!r}")

    async def _tick(self) -> None:
        """Renew this process's leases; claim lapsed ones; follow the tables this process's
        clients watch elsewhere to whoever plays them now."""
        redis = self._redis
        hub = self.hub
        assert redis is not None and hub is not None
        if not self.healthy:
            await redis.ping()
            self.healthy = True
            hub.log("cluster: Redis answers again")
            await self._resync()
        jobs = list(self.jobs)
        if jobs:
            kept = await self._eval(_RENEW, 1, LEASES, self.node, self.lease_ms, *jobs)
            for name, ok in zip(jobs, kept, strict=True):
                if not ok:
                    end = self.jobs.pop(name, None)
                    if end is not None:
                        hub.log(f"cluster: {name} runs at another process now; stopped here")
                        end()
        held = list(self.held)
        if held:
            kept = await self._eval(_RENEW, 1, LEASES, self.node, self.lease_ms, *held)
            for name, ok in zip(held, kept, strict=True):
                if ok or name not in self.held:
                    continue
                self.held.discard(name)
                if name in self.pinned:
                    self.pinned.discard(name)
                    hub.log(f"cluster: {name} runs at another process now")
                for table in [t for t in self.owned if self.lease_of(t) == name]:
                    room = hub.rooms.get(table)
                    if room is not None:
                        self.lost(room)
                    else:
                        self.owned.pop(table, None)
        lapsed = await self._eval(_LAPSED, 1, LEASES)
        for name in lapsed or ():
            name = str(name)
            if name in self.jobs or name in self.held:
                continue
            if ":" in name:  # a job's lease (a table's id has no colon)
                await self._take_job(name)
                continue
            group = self._group(name)  # a night's: claimed through any of its tables
            taker = next((t for p, t in self._takers.items() if name.startswith(p)), None)
            if group:
                with contextlib.suppress(StoreError):
                    await self.claim(group[0])
                for table in group:  # a table nobody plays now goes back to no one
                    room = hub.rooms.get(table)
                    if (
                        room is not None
                        and table in self.owned
                        and not room.conns
                        and room.league is None
                        and room.status != "playing"
                    ):
                        self.released(room)
                if taker is not None and name in self.held:
                    self.pinned.add(name)
                    taker(name)  # the night's job, played on here with its tables
            elif taker is not None:
                await self._take_job(name)
            else:
                await redis.zrem(LEASES, name)  # nothing of it here (or anywhere)
        watched: dict[str, str] = {}
        for conn in self._local.values():
            if conn.remote is not None:
                watched[conn.remote[0]] = conn.remote[1]
        if watched:
            tables = list(watched)
            holders = await redis.mget([lease_key(self.lease_of(t)) for t in tables])
            for table, holder in zip(tables, holders, strict=True):
                if holder != watched[table]:
                    for conn in list(self._local.values()):
                        if conn.remote is not None and conn.remote[0] == table:
                            await self._reroute(conn, table)

    async def _resync(self) -> None:
        """After Redis was away: the lobby read again from the database (the tables'
        changes published meanwhile were not heard)."""
        hub = self.hub
        assert hub is not None
        with contextlib.suppress(StoreError):
            for row in await asyncio.to_thread(hub.store.tables):
                if row.id not in self.owned:
                    hub.refresh(row)

    def _unwell(self, exc: BaseException) -> None:
        if self.healthy:
            self.healthy = False
            assert self.hub is not None
            self.hub.log(f"cluster: Redis cannot be reached ({exc}); no table is opened")

    async def _eval(self, script: str, keys: int, *args: Any) -> Any:
        assert self._redis is not None
        return await self._redis.eval(script, keys, *args)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.append(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        with contextlib.suppress(ValueError):
            self._tasks.remove(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            if isinstance(exc, (RedisError, OSError)):
                self._unwell(exc)
            elif self.hub is not None:
                self.hub.log(f"cluster: {exc!r}")

    def claims(self, tables: Iterable[str]) -> None:
        """Try to claim ``tables`` (a start: a league night's tables play by themselves)."""
        for table in tables:
            self._spawn(self.claim(table))


def _clock_of(stored: str | None) -> tuple[int, str, float, float] | None:
    """A clock as kept in Redis (seat, the turn's mark, start, deadline), or None."""
    if stored is None:
        return None
    try:
        seat, mark, start, deadline = json.loads(stored)
        return int(seat), str(mark), float(start), float(deadline)
    except (ValueError, TypeError):
        return None  # not a clock: the table's person gets a whole move time


def _row_json(row: TableRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "creator": row.creator,
        "settings": row.settings,
        "seats": row.seats,
        "status": row.status,
        "match_no": row.match_no,
        "seed": str(row.seed),
        "nonce": row.nonce,
        "commitment": row.commitment,
    }


def _row_of(data: dict[str, Any]) -> TableRow:
    return TableRow(
        id=str(data["id"]),
        creator=data["creator"],
        settings=data["settings"],
        seats=data["seats"],
        status=str(data["status"]),
        match_no=int(data["match_no"]),
        seed=int(data["seed"]),
        nonce=str(data["nonce"]),
        commitment=str(data["commitment"]),
    )
