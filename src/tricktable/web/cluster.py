"""How one server process stands among others: alone (the default), or one of many sharing
their tables through Redis (:mod:`tricktable.web.redis_cluster`, ``serve --redis URL``).

Every table has one *owner*, the process that plays it: it drives the match, writes the
journal and makes every viewer's frames under the one visibility rule. Alone, a process owns
every table. Among many (docs/deploy.md), a process owns a table while it holds the table's
lease; any process is a *gateway* for its websockets — a message about a table it does not
own is forwarded to the owner, and the owner's frames for that connection come back through
it. The hub asks this object three things: may a new table be opened now, who plays a table
(here, or which process), and what fencing token the journal's rows of a table carry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from tricktable.web.hub import Conn, Hub
    from tricktable.web.room import Room


class Alone:
    """One server process with every table its own: nothing shared, nothing routed."""

    #: whether other processes share the tables (the hub routes messages when so)
    shared = False
    #: this process's name among the others
    node = "alone"
    #: told when another process ends sessions (the web's ``end_sessions``)
    on_sessions_ended: Callable[[list[str], str], Any] | None = None

    async def start(self, hub: Hub) -> None:
        """Begin (the server has started; ``hub`` holds its tables)."""

    async def stop(self) -> None:
        """Let every lease go and stop (the server is stopping)."""

    def refusal(self) -> str | None:
        """Why no table may be opened now, or None."""
        return None

    def fence(self, table_id: str) -> int | None:
        """The fencing epoch the journal's rows of ``table_id`` carry (None: unchecked)."""
        return None

    def opening(self, table_id: str, lease: str | None = None) -> int:
        """A table is being made here: this process holds its lease (``lease``: a league
        night's, shared by its tables) before anyone can learn its id (a
        :class:`~tricktable.errors.TricktableError` if it cannot); the epoch its row is
        stored with (alone: 0, never checked)."""
        return 0

    def opened(self, room: Room, epoch: int) -> None:
        """A table was just made here, stored with ``epoch`` (this process owns it)."""

    def changed(self, room: Room) -> None:
        """A table's seats or status changed here (the other processes' lobbies hear it)."""

    def present(self, room: Room) -> None:
        """Who is attached to ``room`` here changed (the other processes' lobbies hear it)."""

    def clock(self, room: Room, running: tuple[int, str, float, float] | None) -> None:
        """``room``'s clock started (seat, the turn's mark, start, deadline) or stopped (None):
        kept where a process taking the table up finds it."""

    def released(self, room: Room) -> None:
        """This process no longer plays ``room`` (asleep or closed): its lease is let go."""

    def lost(self, room: Room) -> None:
        """Another process owns ``room`` now (the journal refused this one's row)."""

    async def forward(self, conn: Conn, kind: str, table: str, text: str) -> bool:
        """Send a message about ``table`` to the process that plays it: True if it went
        there, False if this process plays it (the hub answers it here)."""
        return False

    def disconnected(self, conn: Conn) -> None:
        """``conn`` closed: the process it was forwarded to lets its connection go."""

    async def find_free(self, user_id: int) -> str | None:
        """The process where user ``user_id`` (a bot) has a connection at no table, or None."""
        return None

    def join(self, node: str, user_id: int, table: str) -> None:
        """Tell process ``node`` to say hello to ``table`` for a free connection of
        ``user_id``'s (a bot just invited there)."""

    def lobby_chat(self, text: str) -> None:
        """A lobby chat line (a frame) for the other processes' lobbies."""

    def sessions_ended(self, sids: list[str], reason: str) -> None:
        """Sessions ended here (a logout, a new password): the other processes close them."""

    def adopt(self, name: str, begin: Callable[[], None], end: Callable[[], None]) -> None:
        """Run a long job of the server's (a web tournament: ``name`` is
        ``tournament:ID``) here unless another process runs it: ``begin()`` starts it once
        this process holds its lease; ``end()`` stops it if another process takes the lease
        over. Alone, ``begin()`` at once."""
        begin()

    def done(self, name: str) -> None:
        """The job ``name`` has ended here: its lease is let go (may be called from any
        thread)."""

    def hold_now(self, name: str) -> bool:
        """Hold lease ``name`` for a job this process's thread is about to run (a league
        night: ``night/ID``, the lease its people's tables are played under too): True if
        this process holds it now, False if another runs that job. Blocking; any thread.
        Alone: True. Let go with :meth:`done`."""
        return True

    def takes(self, prefix: str, take: Callable[[str], None]) -> None:
        """``take(name)`` is called here when this process has claimed a lapsed lease of a
        job named ``prefix...`` (its process died): it runs the job on from where it is."""

    def claims(self, tables: list[str]) -> None:
        """Claim ``tables`` if nobody plays them (a start: league nights play by themselves)."""

    def stats(self) -> dict[str, Any]:
        """What the cluster holds now (``GET /api/cluster``)."""
        return {"node": self.node, "shared": False}
