"""The web server on PostgreSQL (``tricktable serve --db postgresql://...``): people,
sessions, a table played by a person and bots over the websocket, every confirmed act in
the journal once and in order. The tests' own PostgreSQL server (``postgres`` in
conftest.py); the restart and the failing database run on both databases in
test_web_restart.py and test_web_faults.py."""

from __future__ import annotations

from typing import Any

import httpx

from web_harness import Client, journal_acts, journal_rows, my_turn, serving


def test_a_person_and_bots_play_on_postgresql(postgres: Any) -> None:
    db = postgres.url(postgres.new_database())
    with serving(db) as base:
        with httpx.Client(base_url=base) as web:
            made = web.post("/api/signup", json={"name": "Bea", "password": "long enough"})
            assert made.status_code == 200
            assert (
                web.post("/api/signup", json={"name": "bea", "password": "x" * 9}).status_code
                == 409
            )
            web.cookies.clear()
            assert web.post(
                "/api/login", json={"name": "BEA", "password": "long enough"}
            ).is_success
            assert web.get("/api/me").json()["user"]["name"] == "Bea"
        ann = Client(base, "Ann")
        seats = [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
        answer = ann.post("/api/tables", {"game": "setback", "seats": seats})
        table = answer.json()["table"]["id"]
        assert table in [t["id"] for t in ann.http.get("/api/tables").json()["tables"]]
        ann.connect()
        ann.send("hello", table)
        ids = []
        for k in range(7):
            snap = my_turn(ann)
            act_id = f"pg-{k}"
            ann.send("act", table, {"action": snap["legal"][0]["action"]}, id=act_id)
            confirm = ann.until("confirm", id=act_id)
            assert confirm["v"] > snap["version"]
            ids.append(act_id)
            assert journal_acts(db, table) == ids  # in the database when confirmed
        assert ann.http.get(f"/api/tables/{table}/record").status_code == 409
        ann.close()
    seqs = [seq for seq, _ in journal_rows(db, table)]
    assert seqs == list(range(1, len(seqs) + 1))
