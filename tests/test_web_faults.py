"""A database that cannot be written: the table refuses new moves with one clear message,
loses none already confirmed, and plays on from its journal once the database is back
(a real SQLite file, a real PostgreSQL database, whose journal table is taken away and given
back under the server)."""

from __future__ import annotations

import sqlite3
import time

import psycopg

from web_harness import Client, journal_acts, journal_rows, my_turn, serving, web_db

__all__ = ["web_db"]  # the fixture, imported for pytest


def sql(db: str, statement: str, *args: object) -> list[tuple[object, ...]]:
    """Run one statement on ``db`` behind the server's back; its rows."""
    if "://" not in db:
        with sqlite3.connect(db) as connection:
            return connection.execute(statement.replace("%s", "?"), args).fetchall()
    url = db.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(url, autocommit=True) as connection:
        cursor = connection.execute(statement, args)
        return cursor.fetchall() if cursor.description else []


def test_a_database_error_refuses_moves_and_the_table_comes_back(web_db: str) -> None:
    db = web_db
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
        sql(db, "ALTER TABLE web_journal RENAME TO web_journal_away")
        ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="lost")
        refused = ann.until("refuse", id="lost")["data"]
        assert refused["reason"].startswith("the database cannot be written")
        assert "\n" not in refused["reason"]
        ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="again")
        assert ann.until("refuse", id="again")["data"]["reason"].startswith("the database")
        sql(db, "ALTER TABLE web_journal_away RENAME TO web_journal")
        found = sql(db, "SELECT max(seq) FROM web_journal WHERE table_id = %s", table)[0][0]
        assert isinstance(found, int)
        kept = found
        time.sleep(1.1)  # a stopped table tries its database again after a second
        ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="back")
        answer = ann.until("confirm", id="back")
        assert answer["v"] >= kept + 1
        snap = my_turn(ann)
        ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="on")
        assert ann.until("confirm", id="on")["v"] > kept + 1
        ann.close()
    assert journal_acts(db, table) == ["kept", "back", "on"]  # the refused ones: not in
    back = [seq for seq, steps in journal_rows(db, table) if steps[0][-1] == "back"]
    assert back == [kept + 1]  # nothing after the last kept version was kept


def test_a_match_that_cannot_begin_begins_once_the_database_is_back(web_db: str) -> None:
    db = web_db
    with serving(db) as base:
        ann = Client(base, "Ann")
        sql(db, "ALTER TABLE web_journal RENAME TO web_journal_away")
        seats = [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
        answer = ann.post("/api/tables", {"game": "setback", "seats": seats})
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("the database cannot be written")
        (waiting,) = ann.http.get("/api/tables").json()["tables"]
        assert waiting["status"] == "waiting"
        sql(db, "ALTER TABLE web_journal_away RENAME TO web_journal")
        ann.connect()
        ann.send("hello", waiting["id"])  # filled: it begins now
        snap = my_turn(ann)
        ann.send("act", waiting["id"], {"action": snap["legal"][0]["action"]}, id="first")
        ann.until("confirm", id="first")
        ann.close()
    assert journal_acts(db, waiting["id"]) == ["first"]
