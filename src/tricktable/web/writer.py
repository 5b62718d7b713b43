"""The journal's writer: one thread that writes every table's rows, off the event loop.

Rooms hand it rows (:meth:`JournalWriter.put`); the thread takes whatever has arrived since
its last commit and writes it in one transaction (group commit: under load one commit
carries the rows of many tables), then tells the event loop which rows are in the database
(``Room.committed``) or that they could not be written (``Room.write_failed``). The rooms
confirm and send nothing before that: every action is in the database before it is
confirmed, and the loop never waits for a disk or a database server.

Order: one thread, rows taken first come first, so a table's rows are written in the order it
made them. A failed transaction fails every table it held; their later rows already queued
are dropped, not written after a gap, until the room starts again from its journal (a new
``epoch``: rows carry the epoch they were made in).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from tricktable.db import StoreError

if TYPE_CHECKING:
    from tricktable.web.store import WebStore

#: a row refused because another server process owns its table now (its fencing epoch is
#: no longer this process's): the table is that process's, not broken
STALE: Final = "another server process owns this table now"
#: the most rows one transaction carries
MAX_GROUP: Final = 2000


@dataclass(slots=True)
class Pending:
    """A row on its way to the database: ``owner`` is told when it is in (or is not)."""

    owner: Any
    epoch: int
    table_id: str
    seq: int
    match_no: int
    steps: list[Any]
    #: the table's fencing epoch this process holds (many processes), or None (one)
    fence: int | None = None
    #: set by the writer when the row is written or refused (a waiting caller's)
    done: threading.Event | None = None
    error: str | None = field(default=None)


class JournalWriter:
    """The writer thread of one server (see the module)."""

    def __init__(self, store: WebStore, loop: asyncio.AbstractEventLoop) -> None:
        self.store = store
        self.loop = loop
        self._queue: deque[Pending] = deque()
        #: rows put in this pass of the loop, not yet handed to the thread
        self._outbox: list[Pending] = []
        self._wake = threading.Condition()
        self._closing = False
        #: the epoch of each table's last failed row (the writer thread's own)
        self._failed: dict[str, int] = {}
        #: transactions and rows written (for the load benchmark's curiosity)
        self.commits = 0
        self.rows = 0
        self._thread = threading.Thread(target=self._run, name="journal-writer", daemon=True)
        self._thread.start()

    def put(self, row: Pending) -> None:
        """Queue ``row`` (in the loop's thread); its owner hears from the loop once it is
        written or not. The rows of one pass of the loop reach the thread together, at the
        pass's end: one wake-up of the thread, not one a row."""
        if self._closing:
            raise StoreError("the server is stopping: nothing more is written")
        if not self._outbox:
            self.loop.call_soon(self._hand_over)
        self._outbox.append(row)

    def _hand_over(self) -> None:
        """Give the thread the rows put since the last hand-over (in the loop's thread)."""
        if not self._outbox:
            return
        rows, self._outbox = self._outbox, []
        with self._wake:
            self._queue.extend(rows)
            self._wake.notify()

    def write_now(self, row: Pending, timeout: float = 30.0) -> None:
        """Queue ``row`` and wait until it is written (a :class:`StoreError` if it is not).

        For the rare rows a caller cannot go on without (a match's first): the loop waits,
        behind the rows queued before it, for one transaction.
        """
        row.done = threading.Event()
        self.put(row)
        self._hand_over()  # now, behind the rows put before it
        if not row.done.wait(timeout):
            raise StoreError(f"the journal was not written in {timeout:.0f} s")
        if row.error is not None:
            raise StoreError(row.error)

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        self._hand_over()
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join(30)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._queue and not self._closing:
                    self._wake.wait()
                if not self._queue:
                    return
                group = [self._queue.popleft() for _ in range(min(len(self._queue), MAX_GROUP))]
            self._write(group)

    def _write(self, group: list[Pending]) -> None:
        failed = self._failed
        rows = [r for r in group if failed.get(r.table_id, -1) < r.epoch]
        dropped = [r for r in group if failed.get(r.table_id, -1) >= r.epoch]
        error: str | None = None
        stale: set[str] = set()
        if rows:
            fences = {r.table_id: r.fence for r in rows if r.fence is not None}
            try:
                stale = self.store.append_many(
                    [(r.table_id, r.seq, r.match_no, r.steps) for r in rows], fences
                )
                self.commits += 1
                self.rows += len(rows)
            except StoreError as exc:
                error = str(exc)
            except Exception as exc:  # the writer must outlive any failure
                error = f"cannot write the journal: {exc!r}"[:200]
        for r in rows:
            if error is not None or r.table_id in stale:
                failed[r.table_id] = max(failed.get(r.table_id, -1), r.epoch)
        for r in dropped:
            r.error = "an earlier row of this table could not be written"
        for r in rows:
            r.error = STALE if error is None and r.table_id in stale else error
        for r in group:
            if r.done is not None:
                r.done.set()
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody left to tell
            self.loop.call_soon_threadsafe(_tell, group)


def _tell(group: list[Pending]) -> None:
    """In the loop: tell each row's owner (its last row written; its first refused). A row
    whose caller waited (:meth:`JournalWriter.write_now`) has had its answer already."""
    last: dict[int, Pending] = {}
    failed: dict[int, Pending] = {}
    for r in group:
        if r.done is not None:
            continue
        if r.error is not None:
            failed.setdefault(id(r.owner), r)
        else:
            last[id(r.owner)] = r
    for r in failed.values():
        r.owner.write_failed(r.error or "cannot write the journal", r.epoch)
    for r in last.values():
        r.owner.committed(r.seq, r.epoch)
