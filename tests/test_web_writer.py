"""The journal's writer thread (tricktable.web.writer): rows that arrive together are one
transaction, each table's rows are written in order, and a failed write loses nothing
written before it and writes nothing of that table after it until the table starts again
(a new epoch). A real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tricktable.db import StoreError
from tricktable.web.store import TableRow, WebStore
from tricktable.web.writer import JournalWriter, Pending


class Owner:
    """What a room hears from the writer."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.committed_to: list[int] = []
        self.failed: list[tuple[str, int]] = []
        self.loop = loop
        self.heard = asyncio.Event()

    def committed(self, seq: int, epoch: int) -> None:
        self.committed_to.append(seq)
        self.heard.set()

    def write_failed(self, reason: str, epoch: int) -> None:
        self.failed.append((reason, epoch))
        self.heard.set()


def store_with(path: Path, *tables: str) -> WebStore:
    store = WebStore.open(str(path))
    for t in tables:
        store.add_table(TableRow(t, None, {}, [], "playing", 1, 1, "n", "c"))
    return store


async def settle(writer: JournalWriter, *owners: Owner, want: int) -> None:
    for _ in range(500):
        if all((o.committed_to and o.committed_to[-1] >= want) or o.failed for o in owners):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the writer did not answer")


def test_rows_arriving_together_are_one_commit_each_table_in_order(tmp_path: Path) -> None:
    store = store_with(tmp_path / "w.db", "a", "b", "c")

    async def main() -> tuple[JournalWriter, list[Owner]]:
        writer = JournalWriter(store, asyncio.get_running_loop())
        owners = [Owner(asyncio.get_running_loop()) for _ in "abc"]
        with writer._wake:  # the thread waits: all 60 rows reach it together
            for seq in range(1, 21):
                for owner, t in zip(owners, "abc", strict=True):
                    writer.put(Pending(owner, 0, t, seq, 1, [["act", 0, seq]]))
        await settle(writer, *owners, want=20)
        writer.close()
        return writer, owners

    writer, owners = asyncio.run(main())
    assert writer.commits == 1 and writer.rows == 60
    for owner, t in zip(owners, "abc", strict=True):
        assert owner.committed_to == [20]  # told once, of the last row
        rows = store.journal(t)
        assert [r.seq for r in rows] == list(range(1, 21))
        assert [r.steps[0][2] for r in rows] == list(range(1, 21))
    store.close()


def test_a_failed_write_keeps_what_was_written_and_nothing_of_that_table_after(
    tmp_path: Path,
) -> None:
    store = store_with(tmp_path / "w.db", "a")

    async def main() -> tuple[Owner, Any]:
        loop = asyncio.get_running_loop()
        writer = JournalWriter(store, loop)
        owner = Owner(loop)
        writer.put(Pending(owner, 0, "a", 1, 1, [["deal"]]))
        await settle(writer, owner, want=1)
        with writer._wake:
            # seq 2 again: the database refuses it (table and seq are unique)
            writer.put(Pending(owner, 0, "a", 1, 1, [["act", 0, 9]]))
        await settle(writer, owner, want=99)
        with writer._wake:  # made before the room heard: dropped, never written after a gap
            writer.put(Pending(owner, 0, "a", 3, 1, [["act", 0, 3]]))
        waited = Pending(owner, 1, "a", 2, 1, [["act", 0, 2]])
        await asyncio.to_thread(writer.write_now, waited)  # the new epoch: written
        failing = Pending(owner, 1, "a", 2, 1, [["act", 0, 2]])
        try:
            await asyncio.to_thread(writer.write_now, failing)
        except StoreError as exc:
            error: Any = exc
        writer.close()
        return owner, error

    owner, error = asyncio.run(main())
    assert owner.committed_to == [1]
    # told of the failure, then of the dropped row, both of the old epoch (a room that has
    # started again ignores the second)
    assert [epoch for _, epoch in owner.failed] == [0, 0]
    assert "\n" not in owner.failed[0][0] and "journal" in owner.failed[0][0]
    assert isinstance(error, StoreError)
    assert [(r.seq, r.steps) for r in store.journal("a")] == [(1, [["deal"]]), (2, [["act", 0, 2]])]
    store.close()
