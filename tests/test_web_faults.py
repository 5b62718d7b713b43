"""A database that cannot be written: the table refuses new moves with one clear message,
loses none already confirmed, and plays on from its journal once the database is back
(a real SQLite file whose journal table is taken away and given back under the server)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from web_harness import Client, my_turn, serving


def test_a_database_error_refuses_moves_and_the_table_comes_back(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with serving(db) as base:
        ann = Client(base, "Ann")
        seats = [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
        table = ann.post("/api/tables", {"game": "setback", "seats": seats}).json()["table"]["id"]
        ann.connect()
        ann.send("hello", table)
        snap = my_turn(ann)
        ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="kept")
        ann.until("confirm", id="kept")
        snap = my_turn(ann)
        with sqlite3.connect(db) as other:
            other.execute("ALTER TABLE web_journal RENAME TO web_journal_away")
        ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="lost")
        refused = ann.until("refuse", id="lost")["data"]
        assert refused["reason"].startswith("the database cannot be written")
        assert "\n" not in refused["reason"]
        ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="again")
        assert ann.until("refuse", id="again")["data"]["reason"].startswith("the database")
        with sqlite3.connect(db) as other:
            other.execute("ALTER TABLE web_journal_away RENAME TO web_journal")
            kept = other.execute(
                "SELECT max(seq) FROM web_journal WHERE table_id = ?", (table,)
            ).fetchone()[0]
        time.sleep(1.1)  # a stopped table tries its database again after a second
        ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="back")
        answer = ann.until("confirm", id="back")
        assert answer["v"] == kept + 1  # nothing after the last kept version was kept
        snap = my_turn(ann)
        ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="on")
        assert ann.until("confirm", id="on")["v"] > kept + 1
        ann.close()
