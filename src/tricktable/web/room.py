"""A room: one web table — its seats, its match (a :class:`Table` played by the driver),
its journal, its clock and the connections watching it.

The journal is the truth. Every change of the match (a deal, actions, chat lines) is one row,
made by :meth:`Room._observe` as the table reports it (``Table.watch``) and handed to the
server's writer thread (:mod:`tricktable.web.writer`, group commit). Nothing is sent or
confirmed until the rows made so far are in the database (:meth:`Room.committed`: the room
is *settled*); until then the driver waits to ask for the next move (its pace), so a table
runs at most a move ahead of its journal, and what any viewer is shown is the journal's
state. The wire's version is the journal's length (rows committed). A restarted
server rebuilds the match from its rows (:meth:`Room.rebuild`): the same deals from the same
seed, the same actions, the same events, each filed under the same version, so a client
that says ``since`` gets exactly what it missed.

People act through :meth:`Room.act` (``Table.submit``); bots and characters are played by
:func:`tricktable.table.driver.run`, paced alike at every table (the hub's pace), and a match
that reaches the hub's cap of hands ends there with the leader winning (the driver's
``hand_cap``). A person whose clock runs out, or who leaves during the match, is ``away``:
the room's own heuristic plays the seat (submitting for it, as a person would) until the
person takes it back.

A league night's table (``settings["league"]``: :mod:`tricktable.league.service` makes it
through :meth:`Hub.create_league_table <tricktable.web.hub.Hub.create_league_table>`) plays
one match a deal of the night, each of one hand, dealt from that deal's seed — the seed every
table of the night deals that deal from, so its cards are the other tables' — and committed
like any match's, so its fair-deal proof holds as it says: the cards came from the seed
committed before the deal. It moves to the next deal by itself, never sleeps (a no-show's
seat is played by the away rule, so the night ends), and is *withheld* until the night is
scored: no watcher, no record, no seed shown — the other tables may not have played its
deals yet.

A table nobody is attached to (no player, no watcher) is played for the hub's ``idle_stop``
seconds, then falls *asleep*: its driver and bots stop and its match is let go, the journal
keeping it. The next ``hello`` wakes it (:meth:`Room.wake`: rebuilt from the journal, played
on). A restarted server brings every table back asleep, so it plays none that nobody comes
back to. Its creator may close a table (:meth:`Room.close_by_creator`).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from tricktable.bots.base import Bot
from tricktable.cards import card_name
from tricktable.db import StoreError
from tricktable.engine.events import SPECTATOR, Event
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.seat import EVERYONE
from tricktable.seeds import fresh_seed
from tricktable.steps import StepMark, apply_step
from tricktable.table.driver import run
from tricktable.table.table import Remote, Table
from tricktable.web import profiles, seatview
from tricktable.web.seatview import frame
from tricktable.web.store import TableRow
from tricktable.web.writer import STALE, Pending

if TYPE_CHECKING:
    from tricktable.web.hub import Conn, Hub

#: the bot that plays an away person's seat
AWAY_BOT: Final = "heuristic"
#: missed events beyond which a reconnecting client gets a snapshot instead
SNAPSHOT_AFTER: Final = 100
#: the seat kinds a table's settings may name
SEAT_KINDS: Final = ("open", "person", "bot", "character")
#: seconds between a league night's deals at a table (its hand's summary read) where moves
#: are paced for people to see them (a server at ``--pace 0`` goes on at once)
LEAGUE_BREAK_S: Final = 5.0
#: seconds a person may read a hand's summary before the next hand's first clock runs for
#: them (docs/protocol-web.md, 3): the clock starts at the first of this and their
#: ``continue``; TABLE_INFO states it as ``summary_seconds``
SUMMARY_SECONDS: Final = 20


def commitment_of(seed: int, nonce: str) -> str:
    """The public SHA-256 (hex) of a match's secret seed and nonce (docs/protocol-web.md, 6)."""
    return hashlib.sha256(f"tricktable-seed/1:{seed}:{nonce}".encode()).hexdigest()


def new_seed() -> tuple[int, str, str]:
    """A new match's seed, nonce and commitment."""
    seed, nonce = fresh_seed(), secrets.token_hex(16)
    return seed, nonce, commitment_of(seed, nonce)


class Room:
    """One web table (see the module). Made by the :class:`~tricktable.web.hub.Hub`."""

    def __init__(self, hub: Hub, row: TableRow) -> None:
        self.hub = hub
        self.id = row.id
        self.creator = row.creator
        self.settings = row.settings
        self.seats: list[dict[str, Any]] = row.seats
        self.status = row.status
        self.match_no = row.match_no
        self.seed = row.seed
        self.nonce = row.nonce
        self.commitment = row.commitment
        self.game = load_game(self.settings["spec"])
        #: the game's spec, as the lobby shows it (made once: the lobby lists every table)
        self._spec = self.game.spec()
        self._dealing: dict[str, Any] | None = None
        self.table: Table | None = None
        #: the wire's version: the journal's length (rows committed)
        self.version = 0
        #: the last row made (committed or on its way): ``head == version`` when settled
        self.head = 0
        #: bumped when a write fails: the rows made before are dropped, never written late
        self.epoch = 0
        #: what waits for the rows on their way: called with None once they are written,
        #: or with the reason they are not
        self._waiters: list[Callable[[str | None], None]] = []
        self._gates: list[asyncio.Future[None]] = []
        #: the version the current match began at (a ``since`` before it gets a snapshot)
        self.match_start = 0
        #: versions, and the length of the table's event log at each (the current match)
        self._mark_v: list[int] = []
        self._mark_end: list[int] = []
        #: the acts applied at this table (``seat:id``: ids are each seat's own), and the
        #: version each made
        self.applied: dict[str, int] = {}
        #: the connections attached, and each one's viewer (a seat or SPECTATOR)
        self.conns: dict[Conn, int] = {}
        #: why the table refuses actions (the database cannot be written), or None
        self.broken: str | None = None
        self._broken_at = 0.0
        self._driver: asyncio.Task[Any] | None = None
        self._acting: str | None = None
        #: what the journal holds of the current match (hands, actions, notes, faults)
        self._mark = StepMark(None)
        self._pending = False
        self.clock: tuple[int, float] | None = None
        #: when the running clock's move time begins (later than its start while the
        #: person may still read the last hand's summary)
        self._clock_start = 0.0
        self._clock_task: asyncio.Task[None] | None = None
        #: hands scored so far, when the last was, and the seats whose person may still be
        #: reading its summary (their next clock waits: :data:`SUMMARY_SECONDS`)
        self._scored = 0
        self._summary_at = 0.0
        self._summary_open: set[int] = set()
        self._away: dict[int, Bot] = {}
        self._away_task: asyncio.Task[None] | None = None
        #: the snapshots made at the current version, by viewer (-100: that version)
        self._snapshots: dict[int, Any] = {}
        #: frames encoded at the current version (``()``: that version)
        self._frames: dict[tuple[Any, ...], Any] = {}
        #: the clock that ran when another process played the table (seat, the turn's mark,
        #: start, deadline): kept if the same turn is still to play (:meth:`_set_clock`)
        self.carried_clock: tuple[int, str, float, float] | None = None
        #: who is attached at the process that plays the table, where that is another one
        #: (users, watchers): the lobby's picture of it here (many processes)
        self.elsewhere: tuple[list[int], int] | None = None
        #: whether the table is not played now (nobody came for a while, or a restart):
        #: the next hello wakes it (:meth:`wake`)
        self.asleep = False
        #: the timer that puts the table to sleep once nobody has been attached for a while
        self._idle: asyncio.TimerHandle | None = None

    # ----------------------------------------------------------------------- describing

    @property
    def names(self) -> list[str]:
        """Each seat's name."""
        return [s.get("name") or f"seat {i}" for i, s in enumerate(self.seats)]

    @property
    def dealing(self) -> dict[str, Any]:
        """How the engine deals this game, for a page that re-deals a record from its seed
        (docs/protocol-web.md, fair deals): the deck in the engine's order, the dealer's step,
        and how much of the stock the shuffle lays out ("rest", a count, or null: none)."""
        known = self._dealing
        if known is None:
            game = self.game
            state = game.new_state(1)
            stock: int | str | None = None
            if game.records_stock:
                # The first hand's deal size, as ``deal`` sets it before it shuffles.
                state.hand_size = state._deal_size()
                used = state._stock_used()
                stock = "rest" if used == len(game.deck) - state.n * state.hand_size else used
            known = self._dealing = {
                "deck": [card_name(c) for c in game.deck],
                "step": game.step % game.num_players,
                "stock_used": stock,
            }
        return known

    def info(self) -> dict[str, Any]:
        """The table as the lobby and ``table`` messages show it (TABLE_INFO)."""
        over = self.status in ("over", "closed")
        # Where another process plays the table, who is there is what it last said.
        attached, watchers = self.presence() if self.elsewhere is None else self.elsewhere
        users = set(attached)
        return {
            "id": self.id,
            "url": f"/t/{self.id}",
            "game": self.game.preset,
            "title": _title(self.game),
            "spec": self._spec,
            "status": self.status,
            "match": self.match_no,
            "move_time": self.settings.get("move_time", 0),
            "summary_seconds": self.summary_seconds,
            "private": bool(self.settings.get("private")),
            "watchers": watchers,
            "seats": [
                {
                    "seat": i,
                    "name": s.get("name") or "",
                    "kind": s["kind"],
                    "bot": bool(s.get("bot")),  # a person's seat an account's bot plays
                    "user": s.get("user"),
                    "away": bool(s.get("away")),
                    "connected": s.get("user") in users if s["kind"] == "person" else True,
                    "avatar": s.get("name") or f"seat {i}",
                }
                for i, s in enumerate(self.seats)
            ],
            "commitment": self.commitment,
            "dealing": self.dealing,
            "seed": str(self.seed) if over and not self.withheld else None,
            "nonce": self.nonce if over and not self.withheld else None,
            "creator": self.creator,
            "league": self._league_info(),
        }

    def _league_info(self) -> dict[str, Any] | None:
        league = self.league
        if league is None:
            return None
        return {
            "league": league.get("league"),
            "fixture": league.get("fixture"),
            "table": league.get("table"),
            "deal": self.match_no,
            "deals": len(league["seeds"]),
            "scored": bool(league.get("scored")),
        }

    @property
    def league(self) -> dict[str, Any] | None:
        """A league night's table: ``settings["league"]`` (``league``, ``fixture``, ``table``,
        ``seeds``: each deal's seed as text, one match a deal; ``scored``: the night's
        results are stored), else None."""
        found = self.settings.get("league")
        return found if isinstance(found, dict) else None

    @property
    def lease(self) -> str:
        """What this table is played under among many processes: its own lease, or its
        league night's, one for all the night's tables (they keep in step: one process
        plays them all)."""
        league = self.league
        return f"night/{league.get('fixture')}" if league is not None else self.id

    @property
    def withheld(self) -> bool:
        """Whether what this table dealt is kept from all but its seats: a league night's
        table until the night is scored (the other tables deal the same cards, and may not
        have played them yet). No watcher, no record or replay, no seed."""
        league = self.league
        return league is not None and not league.get("scored")

    @property
    def max_hands(self) -> int | None:
        """Hands a match here plays (a league night's: one, its deal), or None: to its end."""
        return 1 if self.league is not None else None

    def finished(self, table: Table) -> bool:
        """Whether ``table``'s match is done: won, or its :attr:`max_hands` played."""
        if table.is_over:
            return True
        most = self.max_hands
        state = table.state
        return most is not None and len(state.results) >= most and state.needs_deal

    @property
    def summary_seconds(self) -> float:
        """The longest a hand's summary holds a person's next clock (:data:`SUMMARY_SECONDS`)."""
        return float(self.settings.get("summary_seconds", SUMMARY_SECONDS))

    def row(self) -> TableRow:
        """The room as the database stores it."""
        return TableRow(
            id=self.id,
            creator=self.creator,
            settings=self.settings,
            seats=self.seats,
            status=self.status,
            match_no=self.match_no,
            seed=self.seed,
            nonce=self.nonce,
            commitment=self.commitment,
        )

    @property
    def bots_only(self) -> bool:
        """Whether bots (and characters) hold every seat: no person sits or may sit."""
        return all(s["kind"] in ("bot", "character") for s in self.seats)

    @property
    def hand_cap(self) -> int:
        """The hands after which this table's match ends with the leader winning."""
        limits = self.hub.limits
        return limits.hand_cap_bots if self.bots_only else limits.hand_cap_people

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds here, or None."""
        for i, s in enumerate(self.seats):
            if s["kind"] == "person" and s.get("user") == user_id:
                return i
        return None

    def snapshot(self, viewer: int) -> dict[str, Any]:
        """``viewer``'s snapshot now (made once a version: a seat's turn and its confirm, or
        two tabs, share it). A watcher of a table where no person plays
        (:attr:`Table.open_hands`) sees every hand face up, as everyone does after the match;
        its events stay a spectator's (they follow the rule for SPECTATOR), each batch
        followed by this snapshot (:meth:`send_events`)."""
        cache = self._snapshots
        if cache.get(-100) != self.version or self.table is None:
            cache.clear()
            cache[-100] = self.version
        snap = cache.get(viewer)
        if snap is None:
            table = self.table if self.table is not None else self._idle_table()
            # A league night's table shows no hand face up while it is withheld: a hand
            # not played out (a stock, a kitty) is dealt at the night's other tables too.
            if (table.is_over and not self.withheld) or (viewer == SPECTATOR and table.open_hands):
                # The match is over, or no person plays it (bots alone: nothing is hidden
                # from anyone) and this is a watcher: every hand face up (EVERYONE), built
                # once; its ``viewer`` stays each one's own (a page keeps its seat below,
                # and a watcher stays a watcher: it chats and counts as one, never acts).
                every = cache.get(EVERYONE)
                if every is None:
                    every = cache[EVERYONE] = seatview.snapshot(
                        table, EVERYONE, self.version, self.names
                    )
                snap = cache[viewer] = {**every, "viewer": viewer, "everyone": True}
            else:
                snap = cache[viewer] = seatview.snapshot(table, viewer, self.version, self.names)
        return snap

    def _idle_table(self) -> Table:
        """A table not yet dealt: what a room waiting for people shows."""
        players = [Remote(n) for n in self.names]
        return Table(self.game, players, seed=0, talk=False)

    # ------------------------------------------------------------------------ the match

    def start_match(self) -> None:
        """Begin the current match (every seat filled): its first journal row, its driver.

        A database that cannot write the first row: a :class:`TricktableError`, and the
        table stays as it was (the next seat taken, or play again, tries again).
        """
        self._begin()
        self.status = "playing"
        self.hub.save(self)
        self._build([])
        self._drive()

    def _begin(self) -> None:
        """Write the match's first row and wait for it (a match not begun is not dealt)."""
        begin = ["begin", self.match_no, str(self.seed), self.nonce, self.commitment]
        seq = self.head + 1
        row = Pending(self, self.epoch, self.id, seq, self.match_no, [begin], self._fence())
        try:
            self.hub.writer.write_now(row)
        except StoreError as exc:
            self.epoch += 1  # the writer drops this epoch's rows now: the next try is new
            raise TricktableError(
                f"the database cannot be written ({exc}); the match does not begin"
            ) from None
        self.version = self.head = seq

    def again(self) -> None:
        """Start the next match at this table (after one is over): a new seed, committed."""
        if self.status != "over":
            raise TricktableError("the match is not over")
        if self.league is not None:
            raise TricktableError("a league night's table plays the night's deals, then ends")
        before = self.match_no, self.seed, self.nonce, self.commitment
        self.match_no += 1
        self.seed, self.nonce, self.commitment = new_seed()
        try:
            self._begin()
        except TricktableError:
            self.match_no, self.seed, self.nonce, self.commitment = before
            raise
        for s in self.seats:
            s["away"] = False
        self._close_table()
        self.status = "playing"
        self.hub.save(self)
        self._build([])
        self._drive()
        self.changed_seats()

    def rebuild(self) -> None:
        """Rebuild the current match from the journal (a restart; a database back)."""
        self._close_table()
        rows = self.hub.store.journal(self.id)
        self.version = self.head = rows[-1].seq if rows else 0
        self.applied = {}
        current = [r for r in rows if r.match_no == self.match_no]
        if not current or self.status == "waiting":
            return
        self._build(current)
        self.broken = None
        if self.status == "playing" and not self.table_over:
            self._drive()
        elif self.status == "playing":
            self._match_over()

    @property
    def table_over(self) -> bool:
        """Whether the current match is over (or, at a league night's table, its deal played)."""
        return self.table is not None and self.finished(self.table)

    def _build(self, rows: list[Any]) -> None:
        """Make the current match's table, replaying ``rows`` (its journal so far)."""
        self._snapshots.clear()
        self._frames.clear()
        state = self.game.new_state(self.seed)
        log = state.listen()
        faults: list[dict[str, Any]] = []
        self.match_start = rows[0].seq if rows else self.version
        self._mark_v, self._mark_end = [], []
        for row in rows:
            self._row_seq = row.seq
            for step in row.steps:
                self._replay(state, step, faults)
            self._mark_v.append(row.seq)
            self._mark_end.append(len(log.all))
        if not rows:  # the "begin" row just written
            self._mark_v.append(self.version)
            self._mark_end.append(0)
        players: list[Bot | str] = []
        for i, s in enumerate(self.seats):
            if s["kind"] == "person":
                players.append(Remote(s.get("name") or f"seat {i}"))
            else:
                players.append(self.hub.make_bot(s["spec"]))
        table = Table(self.game, players, seed=self.seed, state=state, faults=faults)
        self.table = table
        self._mark = StepMark(state, len(faults))
        # A rebuilt match opens no summary: a restart gives a whole move_time anyway (5).
        self._scored, self._summary_open = len(state.results), set()
        table.watch(self._observe)

    def _replay(self, state: Any, step: list[Any], faults: list[dict[str, Any]]) -> None:
        apply_step(state, step, faults)
        if step[0] == "act" and len(step) > 3 and step[3]:
            self.applied[f"{step[1]}:{step[3]}"] = self._row_seq

    _row_seq = 0

    def _drive(self) -> None:
        table = self.table
        assert table is not None
        # Every table is paced alike: a table of bots alone shown flat out was a loop busy
        # for nobody (and /api/me slow for everyone).
        pace_s = self.hub.pace
        cap = self.hand_cap

        async def pace(_table: Table) -> None:
            await self.wait_settled()  # the next move only once this one is in the database
            if pace_s > 0:
                await asyncio.sleep(pace_s)

        async def drive() -> None:
            try:
                # Characters pause for their tempo only where moves are paced for people to
                # see them (`serve --pace 0`, a test's server, plays at once).
                tempo = 1.0 if pace_s > 0 else 0.0
                await run(
                    table,
                    max_hands=self.max_hands,
                    grace=2.0,
                    pace=pace,
                    tempo=tempo,
                    hand_cap=cap,
                )
            except Exception as exc:  # a bot that cannot run at all: say so, keep serving
                self.broken = f"the table stopped: {exc}"
                self.hub.log(f"table {self.id}: {exc!r}")
            if table is self.table and self.finished(table):
                self.when_settled(lambda failed: None if failed else self._match_over())

        self._driver = asyncio.ensure_future(drive())
        self._after()
        self._watch_idle()

    def _match_over(self) -> None:
        table = self.table
        if self.status == "playing" and table is not None and self.finished(table):
            league = self.league
            if league is not None:
                self.hub.league_deal_played(self)
                if self.match_no < len(league["seeds"]):
                    self._next_deal_soon()
                    return
            self.status = "over"
            self.clock = None
            self.hub.save(self)
            if league is None:
                # the players' pages, written off the loop. Not a league night's: its deals
                # are stored as its tournament's games, summed up as those are, and a page
                # written now would tell how a deal fell while other tables still play it.
                profiles.match_over(self)
            self.flush()
            for conn, viewer in list(self.conns.items()):
                self.send_snapshot(conn, viewer)  # the end: every viewer's final picture
            self.changed_seats()

    def _next_deal_soon(self) -> None:
        """Begin the league night's next deal at its tables once every one of them has played
        this one — in step, so that nobody who has seen a deal's cards can tell them to a
        person at another table still to play it — after a break to read the hand's summary
        (none on a server that shows every move at once). The last table to finish a deal
        starts the next at all of them."""
        night = self._night()
        if any(not room._deal_played(self.match_no) for room in night):
            return
        pause = LEAGUE_BREAK_S if self.hub.pace > 0 else 0.0
        loop = asyncio.get_running_loop()
        for room in night:
            if room.match_no == self.match_no:
                loop.call_later(pause, room._next_deal, room.match_no)

    def _night(self) -> list[Room]:
        """This league night's tables on this server (this one among them)."""
        league = self.league
        assert league is not None
        fixture = league.get("fixture")
        return [
            room
            for room in self.hub.rooms.values()
            if room.league is not None and room.league.get("fixture") == fixture
        ]

    def _deal_played(self, deal: int) -> bool:
        """Whether this table of a league night has played its deal ``deal`` (or is past it,
        or has stopped: a table that cannot play on holds no other back)."""
        if self.status != "playing" or self.match_no > deal:
            return True
        table = self.table
        return self.match_no == deal and table is not None and self.finished(table)

    def _next_deal(self, expected: int) -> None:
        """The next match of a league night's table: dealt from the next deal's seed, with a
        commitment of its own. A seat's away mark stays: a no-show's bot plays on."""
        league = self.league
        table = self.table
        if (
            league is None
            or self.match_no != expected
            or self.status != "playing"
            or self.asleep
            or table is None
            or not self.finished(table)
        ):
            return  # moved on already (a rebuild), or stopped
        before = self.match_no, self.seed, self.nonce, self.commitment
        self.match_no += 1
        self.seed = int(league["seeds"][self.match_no - 1])
        self.nonce = secrets.token_hex(16)
        self.commitment = commitment_of(self.seed, self.nonce)
        try:
            self._begin()
        except TricktableError as exc:
            self.match_no, self.seed, self.nonce, self.commitment = before
            self.hub.log(f"table {self.id}: the next deal waits: {exc}")
            # Tried again soon: the night must go on once the database answers.
            asyncio.get_running_loop().call_later(5.0, self._next_deal, expected)
            return
        self._close_table()
        self.hub.save(self)
        self._build([])
        self._drive()
        self.broadcast_all()
        self.changed_seats()

    def _stop_driving(self) -> None:
        """Cancel the table's driver, its clock and its away seats' play."""
        if self._driver is not None:
            self._driver.cancel()
            self._driver = None
        for task in (self._clock_task, self._away_task):
            if task is not None:
                task.cancel()
        self._clock_task = self._away_task = None

    def _close_table(self) -> None:
        self._stop_driving()
        self._away = {}
        if self.table is not None:
            self.table.stop()
            self.table.close()
            self.table = None

    def reload(self, row: TableRow) -> None:
        """Take the seats, status and match of ``row`` (as another process stored them)."""
        self.creator = row.creator
        self.settings = row.settings
        self.seats = row.seats
        self.status = row.status
        self.match_no = row.match_no
        self.seed, self.nonce, self.commitment = row.seed, row.nonce, row.commitment

    def let_go(self) -> list[Conn]:
        """Stop playing the table here (another process plays it now): its match and tasks
        stop, rows on their way are dropped unwritten (nothing of them was sent), and the
        connections attached are handed back to be sent where it is played."""
        self._cancel_idle()
        self._close_table()
        self.clock = None
        self.asleep = True
        self.epoch += 1
        self.head = self.version
        self.broken = None
        self._snapshots.clear()
        self._frames.clear()
        waiters, self._waiters = self._waiters, []
        del waiters  # answers owed to clients: they say hello again where it is played
        gates, self._gates = self._gates, []
        for gate in gates:
            if not gate.done():
                gate.set_result(None)
        conns = list(self.conns)
        self.conns.clear()
        for conn in conns:
            if conn.room is self:
                conn.room = None
        return conns

    def close(self) -> None:
        """Stop the match's tasks and bots (the server is stopping)."""
        self._cancel_idle()
        self._close_table()

    def close_by_creator(self, conn: Conn, reply: str | None) -> None:
        """Close the table at its creator's word (``close_table``, from ``conn``): its match
        stops where it is (the journal keeps it), its status is stored as ``closed``, and
        everyone attached is told (``table``; ``conn``'s carries ``reply``) and let go."""
        self._cancel_idle()
        self.asleep = False
        self.status = "closed"
        self._close_table()
        self.clock = None
        self.hub.save(self)
        told = list(self.conns)
        if conn not in self.conns:
            told.append(conn)
        for other in told:
            self.send_table(other, reply if other is conn else None)
        for other in list(self.conns):
            del self.conns[other]
            if other.room is self:
                other.room = None
        self.hub.lobby_changed()
        self.hub.cluster.released(self)

    # ----------------------------------------------------------------- asleep and awake

    def _cancel_idle(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def _watch_idle(self) -> None:
        """Put the table to sleep once nobody has been attached for the hub's idle_stop
        (from now: the last connection just left, or the match was just started)."""
        self._cancel_idle()
        seconds = self.hub.limits.idle_stop
        if self.league is not None:
            return  # a league night's table plays on with nobody there: the night must end
        if self.conns or self.status != "playing" or self.asleep or not 0 < seconds < 1e9:
            return
        self._idle = asyncio.get_running_loop().call_later(seconds, self._idle_over)

    def _idle_over(self) -> None:
        self._idle = None
        if not self.conns and self.status == "playing" and not self.asleep:
            self.sleep()

    def sleep(self) -> None:
        """Stop playing the table (nobody is there): its driver, clock and away seats stop
        now, and once what it made is in the journal its match and bots are let go. It
        stays ``playing``: :meth:`wake` plays on from the journal."""
        self.asleep = True
        self._stop_driving()
        self.clock = None
        if self.table is not None:
            self.table.stop()
        self.when_settled(lambda _failed: self._fell_asleep())

    def _fell_asleep(self) -> None:
        if self.asleep:
            self._close_table()
            self.hub.cluster.released(self)  # the next hello, at any process, claims it

    def wake(self) -> None:
        """Play on a table asleep (someone says hello): rebuilt from its journal, once what
        it made before it fell asleep is written."""
        if not self.asleep:
            return
        self.asleep = False
        if self.status in ("playing", "over"):
            self.when_settled(lambda _failed: self._woken())

    def _woken(self) -> None:
        if self.asleep:
            return  # asleep again before its rows were written
        try:
            self.rebuild()
        except StoreError as exc:
            # Said to whoever acts, and tried again (the heartbeat's try_recover).
            self.broken = f"the database cannot be read ({exc}); the table waits for it"
            self._broken_at = time.monotonic()
            self.hub.log(f"table {self.id}: {self.broken}")

    # ----------------------------------------------------------------------- the journal

    def _observe(self, table: Table) -> None:
        """Journal what changed since the last row (called by the table at every change): the
        steps every match journals (:class:`~tricktable.steps.StepMark`), the referee's
        faults among them."""
        if table is not self.table or self.broken:
            return
        state = table.state
        steps = self._mark.steps(state, table.referee.faults)
        if not steps:
            return
        if self._acting is not None:
            acts_ = [s for s in steps if s[0] == "act"]
            if acts_:
                acts_[-1].append(self._acting)
        log_all = state.events.all if state.events is not None else []
        if self._journal(steps):
            self._mark_v.append(self.head)
            self._mark_end.append(len(log_all))
            for s in steps:
                if s[0] == "act" and len(s) > 3:
                    self.applied[f"{s[1]}:{s[3]}"] = self.head

    def _journal(self, steps: list[Any]) -> bool:
        """Hand one row to the writer (it is in the database at :meth:`committed`)."""
        seq = self.head + 1
        try:
            fence = self._fence()
            self.hub.writer.put(
                Pending(self, self.epoch, self.id, seq, self.match_no, steps, fence)
            )
        except StoreError as exc:
            self.write_failed(str(exc), self.epoch)
            return False
        self.head = seq
        return True

    def _fence(self) -> int | None:
        """The epoch the journal checks this process's rows of the table against."""
        return self.hub.cluster.fence(self.id)

    @property
    def settled(self) -> bool:
        """Whether every row made is in the database (what the table shows is the journal's)."""
        return self.head == self.version

    def committed(self, seq: int, epoch: int) -> None:
        """The writer's word: the rows up to ``seq`` are in the database."""
        if epoch != self.epoch or seq <= self.version:
            return
        self.version = seq
        if self.head == seq:
            self._settle()

    def _settle(self) -> None:
        """Every row made is written: send the events, then the confirms and answers that
        waited, then let the driver ask for the next move."""
        self._pending = False
        self._after_change()
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            waiter(None)
        gates, self._gates = self._gates, []
        for gate in gates:
            if not gate.done():
                gate.set_result(None)

    def write_failed(self, reason: str, epoch: int) -> None:
        """The writer's word: rows of this table could not be written. The table stops; what
        was made after the last row written is dropped (nothing of it was sent or confirmed)."""
        if epoch != self.epoch:
            return
        if reason == STALE:
            # Not broken: played by another process now, which rebuilt it from the rows
            # written here. What was made after them is dropped, never confirmed or sent.
            self.hub.cluster.lost(self)
            return
        self.epoch += 1
        self.head = self.version
        self.broken = (
            f"the database cannot be written ({reason}); the table is stopped, nothing after "
            f"version {self.version} is kept"
        )
        self._broken_at = time.monotonic()
        self.applied = {k: v for k, v in self.applied.items() if v <= self.version}
        keep = bisect_right(self._mark_v, self.version)
        del self._mark_v[keep:], self._mark_end[keep:]
        # The snapshots kept are the last version written's (made only when settled): a
        # refusal shows that, not the moves made after it.
        if self.table is not None:
            self.table.stop()
        self.hub.log(f"table {self.id}: {self.broken}")
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            waiter(self.broken)
        gates, self._gates = self._gates, []
        for gate in gates:
            if not gate.done():
                gate.set_result(None)

    def when_settled(self, then: Callable[[str | None], None]) -> None:
        """Call ``then(None)`` once every row made so far is written (now, if it is), or
        ``then(reason)`` if they cannot be."""
        if self.head == self.version:
            then(None)
        else:
            self._waiters.append(then)

    async def wait_settled(self) -> None:
        """Wait until every row made so far is written (or cannot be)."""
        if self.head != self.version:
            gate = asyncio.get_running_loop().create_future()
            self._gates.append(gate)
            await gate

    def try_recover(self) -> bool:
        """A stopped table whose database answers again: rebuilt from its journal."""
        if self.broken is None:
            return True
        if time.monotonic() - self._broken_at < 1.0:
            return False
        self._broken_at = time.monotonic()
        try:
            self.hub.store.last_seq(self.id)
            self.rebuild()
        except StoreError:
            return False
        self.broadcast_all()
        return self.broken is None

    # ---------------------------------------------------------------------------- acting

    def act(self, seat: int, action: object, act_id: str) -> tuple[bool, str]:
        """Apply a person's action for ``seat``: (True, "") once journaled, or (False, why)."""
        if f"{seat}:{act_id}" in self.applied:
            return True, ""
        if self.broken is not None and not self.try_recover():
            return False, self.broken or "the table is stopped"
        table = self.table
        if table is None or self.status != "playing":
            return False, "the match is not being played"
        if self.seats[seat].get("away"):
            return False, "a bot plays your seat now: take it back first (take_seat)"
        if isinstance(action, list):
            pass  # a choice of cards by name: ["6C", "9C", "TC"]
        elif not isinstance(action, str | int) or isinstance(action, bool):
            return False, "an action is its text ('bid 3') or a list of cards (['6C', '9C'])"
        self._acting = act_id
        try:
            if isinstance(action, list):
                table.submit_cards(seat, action)
            else:
                table.submit(seat, action)
        except TricktableError as exc:
            return False, str(exc).splitlines()[0][:300] if str(exc) else "refused"
        finally:
            self._acting = None
        if self.broken is not None:
            return False, self.broken
        self.applied.setdefault(f"{seat}:{act_id}", self.head)
        return True, ""

    def answer(
        self, conn: Conn, act_id: str, viewer: int, refusal: str | None, snapshot: bool = True
    ) -> None:
        """Confirm an act to ``conn`` (``refusal`` None) or refuse it, with the viewer's
        snapshot, once what the table made is written: a confirm whose rows cannot be
        written is a refusal saying so. ``snapshot`` False: a confirm without it (the client
        folds the events it has just been sent; a snapshot is most of a move's cost)."""

        def send(failure: str | None) -> None:
            reason = refusal or failure
            data: dict[str, Any]
            if reason is None:
                data = {}
                if snapshot or conn.versions.get(self.id) != self.version:
                    data["snapshot"] = self.snapshot(viewer)
                conn.send("confirm", data, table=self.id, v=self.version, id=act_id)
            else:
                data = {"reason": reason, "snapshot": self.snapshot(viewer)}
                conn.send("refuse", data, table=self.id, v=self.version, id=act_id)

        self.when_settled(send)

    def chat(self, seat: int, text: object) -> None:
        """A seated person's line at the table (chat's checks: :func:`checked_line`)."""
        if self.broken is not None:
            raise TricktableError(self.broken)
        table = self.table
        if table is None:
            raise TricktableError("the table has no match yet: chat in the lobby")
        if not isinstance(text, str):
            raise TricktableError("a chat line must be text")
        table.chat(seat, text)

    # ------------------------------------------------------------------ after a change

    def _after(self) -> None:
        """Schedule the work after a change: send events, the clock, away seats, the lobby."""
        if self._pending or self.head != self.version:
            return  # not settled: :meth:`_settle` does it
        self._pending = True
        asyncio.get_running_loop().call_soon(self._after_change)

    def _after_change(self) -> None:
        self._pending = False
        if self.head != self.version:
            return  # rows made since it was asked for: their commit does it
        self.flush()
        table = self.table
        if table is None:
            return
        if table.is_over:
            self._set_clock(None)
            return
        scored = len(table.state.results)
        if scored != self._scored:
            if scored > self._scored:
                # A hand's summary opens now (its events were just sent): each person's next
                # clock waits while they read it, up to summary_seconds.
                self._summary_at = time.time()
                self._summary_open = {i for i, s in enumerate(self.seats) if s["kind"] == "person"}
            self._scored = scored
        turn = table.whose_turn
        if turn >= 0 and table.is_person(turn) and self.seats[turn].get("away"):
            self._set_clock(None)
            if self._away_task is None or self._away_task.done():
                self._away_task = asyncio.ensure_future(self._play_away(turn, table))
            return
        if turn >= 0 and table.is_person(turn) and self.settings.get("move_time"):
            if self.clock is None or self.clock[0] != turn or self._clock_moves != table.moves:
                self._clock_moves = table.moves
                self._set_clock(turn)
        elif self.clock is not None:
            self._set_clock(None)

    _clock_moves = -1

    def _set_clock(self, seat: int | None) -> None:
        if self._clock_task is not None:
            self._clock_task.cancel()
            self._clock_task = None
        if seat is None:
            if self.clock is not None:
                self.clock = None
                self.send_all("clock", {"seat": None, "deadline": None})
                self.hub.cluster.clock(self, None)
            return
        seconds = float(self.settings["move_time"])
        now = time.time()
        start = now
        carried, self.carried_clock = self.carried_clock, None
        if carried is not None and carried[:2] == (seat, self._turn_mark()):
            # The same turn as when the process that played the table before died: its
            # clock runs on, not given again in full (a server's death buys no time).
            self._summary_open.discard(seat)
            self._start_clock(seat, carried[2], carried[3] - carried[2])
            return
        if seat in self._summary_open:
            # The person's first clock since a hand was scored: it runs once they close the
            # summary (``continue``: :meth:`summary_closed`), or summary_seconds after it
            # opened, whichever is first.
            self._summary_open.discard(seat)
            start = max(now, self._summary_at + self.summary_seconds)
        self._start_clock(seat, start, seconds)

    def _start_clock(self, seat: int, start: float, seconds: float) -> None:
        deadline = start + seconds
        self.clock = (seat, deadline)
        self._clock_start = start
        self.hub.cluster.clock(self, (seat, self._turn_mark(), start, deadline))
        self.send_all("clock", self.clock_data())
        self._clock_task = asyncio.ensure_future(self._time_out(seat, deadline))

    def _turn_mark(self) -> str:
        """Which turn of the match this is (its hand, and the actions made in it), the same
        in a table rebuilt from the journal (a table's ``moves`` counts its own moves)."""
        table = self.table
        if table is None:
            return ""
        state = table.state
        return f"{len(state.history)}:{len(state.actions)}"

    def clock_data(self) -> dict[str, Any]:
        """The ``clock`` message's data: the running clock (docs/protocol-web.md, 3)."""
        if self.clock is None:
            return {"seat": None, "deadline": None}
        seat, deadline = self.clock
        return {
            "seat": seat,
            "deadline": deadline,
            "seconds": float(self.settings["move_time"]),
            "starts": self._clock_start,
        }

    def summary_closed(self, seat: int) -> None:
        """``seat``'s person closed the last hand's summary (``continue``): a clock of theirs
        waiting for it starts now."""
        self._summary_open.discard(seat)
        clock = self.clock
        now = time.time()
        if clock is not None and clock[0] == seat and self._clock_start > now:
            if self._clock_task is not None:
                self._clock_task.cancel()
            self._start_clock(seat, now, float(self.settings["move_time"]))

    async def _time_out(self, seat: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        table = self.table
        if table is None or table.whose_turn != seat or self.clock is None:
            return
        self._clock_task = None
        self.clock = None
        self.set_away(seat, True)

    def set_away(self, seat: int, away: bool) -> None:
        """Hand ``seat`` to the room's bot (``away``) or back to its person."""
        if bool(self.seats[seat].get("away")) == away:
            return
        self.seats[seat]["away"] = away
        people = [s for s in self.seats if s["kind"] == "person"]
        if (
            away
            and self.settings.get("when_empty") == "close"
            and all(s.get("away") for s in people)
            and self.status == "playing"
        ):
            # No person left, and the creator chose that its bots do not play on.
            self.status = "closed"
            self._close_table()
            self.clock = None
        self.hub.save(self)
        self.changed_seats()
        if self.table is not None:
            self._after()

    async def _play_away(self, seat: int, table: Table) -> None:
        """Play ``seat`` for its away person while it is away and to act."""
        await asyncio.sleep(self.hub.pace)
        await self.wait_settled()
        while (
            table is self.table
            and not table.ended
            and table.whose_turn == seat
            and self.seats[seat].get("away")
            and self.broken is None
        ):
            bot = self._away.get(seat)
            if bot is None:
                bot = self.hub.make_bot(AWAY_BOT)
                bot.start_match(table.game, seat, self.seed ^ seat)
                self._away[seat] = bot
            view = table.view(seat)
            moves = table.moves
            code = await asyncio.to_thread(bot.act, view)
            if table is not self.table or table.moves != moves or not self.seats[seat].get("away"):
                return
            try:
                table.submit(seat, code)
            except TricktableError:
                legal = table.view(seat).legal_actions()
                if not legal:
                    return
                table.submit(seat, legal[0])
            await self.wait_settled()

    # ---------------------------------------------------------------------- connections

    def flush(self) -> None:
        """Send every attached connection the events it has not had yet."""
        for conn, viewer in list(self.conns.items()):
            self.send_events(conn, viewer)

    def _frame(self, key: tuple[Any, ...], make: Callable[[], str]) -> str:
        """A frame of the current version, encoded once for every connection that gets it
        (the watchers of a table share one viewer; two tabs of a seat, one too)."""
        if self.table is None:
            return make()  # a table not dealt: its seats change at the same version
        frames = self._frames
        if frames.get(()) != self.version:
            frames.clear()
            frames[()] = self.version
        text = frames.get(key)
        if text is None:
            text = frames[key] = make()
        return text

    def send_events(self, conn: Conn, viewer: int) -> None:
        """Send ``conn`` its events after the version it has (or a snapshot if needed)."""
        have = conn.versions.get(self.id, -1)
        if have >= self.version or self.head != self.version:
            return  # nothing new, or not all written yet (the commit sends it)
        table = self.table
        if table is None or have < self.match_start or not self._mark_v:
            self.send_snapshot(conn, viewer)
            return
        conn.versions[self.id] = self.version

        def make() -> str:
            events = self.events_after(viewer, have)
            if not events:
                return ""
            return frame("events", {"events": events}, table=self.id, v=self.version)

        text = self._frame(("events", viewer, have), make)
        if text:
            conn.send_frame(text)
        if viewer == table.whose_turn and not table.is_over:
            # Your turn: the snapshot's legal actions (events do not carry them).
            self.send_snapshot(conn, viewer)
        elif viewer == SPECTATOR:
            # A watcher has no turn to bring it a snapshot: without one after each batch its
            # contract, tally and scores would stay as it first saw them. One spectator
            # snapshot a version, shared by every watcher (cached with its frame).
            self.send_snapshot(conn, viewer)

    def events_after(self, viewer: int, since: int) -> list[dict[str, Any]]:
        """``viewer``'s events after version ``since`` (of the current match), as JSON."""
        table = self.table
        assert table is not None
        log = table.state.events
        assert log is not None
        i = bisect_right(self._mark_v, since)
        start = self._mark_end[i - 1] if i > 0 else 0
        end = self._mark_end[-1]
        out: list[dict[str, Any]] = []
        mark = i
        for k in range(start, end):
            event: Event = log.all[k]
            while self._mark_end[mark] <= k:
                mark += 1
            if event.visible_to(viewer):
                out.append(
                    seatview.event_json(event, table, viewer, self._mark_v[mark], self.names)
                )
        return out

    def send_snapshot(self, conn: Conn, viewer: int, kind: str = "snapshot") -> None:
        """Send ``conn`` a fresh snapshot (once what the table made is written: until then
        it is owed, and the commit's :meth:`flush` sends it)."""
        if self.head != self.version:
            conn.versions.pop(self.id, None)
            return
        conn.versions[self.id] = self.version
        text = self._frame(
            (kind, viewer),
            lambda: frame(kind, self.snapshot(viewer), table=self.id, v=self.version),
        )
        conn.send_frame(text)

    def attach(self, conn: Conn, since: int | None, reply: str | None = None) -> None:
        """Attach ``conn``: its viewer is its user's seat, else a spectator's. ``reply``:
        the id of the request this answers (its ``table`` message carries it). A table
        asleep wakes."""
        self.wake()
        self._cancel_idle()
        seat = self.seat_of(conn.user.id)
        if seat is not None:
            for other, viewer in list(self.conns.items()):
                if other is not conn and other.user.id == conn.user.id and viewer == seat:
                    other.send(
                        "error",
                        {
                            "reason": "this seat is now played from another tab or device",
                            "code": "taken_over",
                        },
                        table=self.id,
                    )
                    self.detach(other)
        viewer = seat if seat is not None else SPECTATOR
        self.conns[conn] = viewer
        conn.room = self
        self.send_table(conn, reply)
        ok_since = (
            self.head == self.version
            and since is not None
            and self.table is not None
            and self.match_start <= since <= self.version
            and bool(self._mark_v)
        )
        events = None
        if ok_since:
            assert since is not None
            events = self.events_after(viewer, since)
        if self.head != self.version:
            conn.versions.pop(self.id, None)  # owed: the commit sends a snapshot
        elif events is not None and len(events) <= SNAPSHOT_AFTER:
            conn.versions[self.id] = self.version
            conn.send("events", {"events": events}, table=self.id, v=self.version)
            table = self.table
            assert table is not None
            if (
                (viewer == table.whose_turn and not table.is_over)
                or viewer == SPECTATOR
                or table.is_over
            ):
                # As after any events (send_events): on your turn the legal actions, which
                # events do not carry; a watcher's fresh picture; the match's final one.
                self.send_snapshot(conn, viewer)
        else:  # nothing to go on, or so much missed that the picture is cheaper
            self.send_snapshot(conn, viewer)
        if self.clock is not None:
            conn.send("clock", self.clock_data(), table=self.id)
        self.changed_seats(lobby_only=False)

    def detach(self, conn: Conn) -> None:
        """Detach ``conn`` (it closed, or said hello elsewhere); the last one gone, the
        table's idle time starts."""
        if self.conns.pop(conn, None) is not None:
            if conn.room is self:
                conn.room = None
            self.changed_seats()
            if not self.conns:
                self._watch_idle()

    def send_table(self, conn: Conn, reply: str | None = None) -> None:
        """Send ``conn`` the table's info with its own place (``reply``: the id of the
        request it answers)."""
        viewer = self.conns.get(conn, SPECTATOR)
        seat = self.seat_of(conn.user.id)
        you = {
            "seat": seat,
            "seat_token": self.seats[seat].get("token") if seat is not None else None,
            "viewer": viewer,
        }
        conn.send("table", {**self.info(), "you": you}, table=self.id, v=self.version, id=reply)

    def changed_seats(self, lobby_only: bool = False) -> None:
        """Tell everyone attached (and the lobby) that seats, watchers or status changed."""
        if not lobby_only:
            for conn, viewer in list(self.conns.items()):
                self.send_table(conn)
                if self.table is None:
                    # a table not dealt draws its seats' names from its snapshot: a seat
                    # taken or a bot invited renames one at the same version
                    self.send_snapshot(conn, viewer)
        self.hub.lobby_changed()
        self.hub.cluster.present(self)

    def presence(self) -> tuple[list[int], int]:
        """Who is attached here: the users, and how many watchers (what the lobby shows)."""
        users = sorted({c.user.id for c in self.conns})
        return users, sum(1 for v in self.conns.values() if v == SPECTATOR)

    def reseat(self) -> None:
        """Give every attached connection the viewer its user's seat gives it now."""
        for conn in list(self.conns):
            seat = self.seat_of(conn.user.id)
            viewer = seat if seat is not None else SPECTATOR
            if self.conns[conn] != viewer:
                self.conns[conn] = viewer
                self.send_snapshot(conn, viewer)

    def send_all(self, kind: str, data: dict[str, Any]) -> None:
        """Send one message to every attached connection."""
        for conn in list(self.conns):
            conn.send(kind, data, table=self.id, v=self.version)

    def broadcast_all(self) -> None:
        """Send everyone attached a fresh table and snapshot (after a rebuild)."""
        for conn, viewer in list(self.conns.items()):
            self.send_table(conn)
            self.send_snapshot(conn, viewer)

    def spectators_only(self) -> bool:
        """Whether watchers' chat stays among watchers now (during a hand)."""
        table = self.table
        return table is not None and not table.is_over and table.whose_turn >= 0


def _title(game: Any) -> str:
    """A game's name as people write it: its variant's, else the game's own title."""
    preset = game.preset
    base = getattr(type(game), "title", "") or preset
    if preset == getattr(type(game), "name", preset):
        return str(base)
    return preset.replace("-", " ").replace("_", " ").title()
