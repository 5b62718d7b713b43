"""Nothing lost: a real ``tricktable serve`` killed with SIGKILL in the middle of a hand and
started again brings every table back at the same action; the client reconnects with
``since`` and plays on; no move is lost or doubled (docs/protocol-web.md, 5). On SQLite and
on PostgreSQL: whatever a client was sent (a confirm, an event's version) was in the
database before it was sent."""

from __future__ import annotations

from typing import Any

from web_harness import (
    Client,
    free_port,
    journal_acts,
    journal_rows,
    my_turn,
    server_process,
    web_db,
)

__all__ = ["web_db"]  # the fixture, imported for pytest


def play(client: Client, table: str, acts: int, prefix: str) -> list[str]:
    """Make ``acts`` confirmed actions; their ids."""
    done = []
    for k in range(acts):
        while True:
            snap = client.snapshot
            if snap is not None and snap["legal"] and snap["version"] == client.version:
                break
            client.recv(20)
        act_id = f"{prefix}-{k}"
        client.send("act", table, {"action": snap["legal"][0]["action"]}, id=act_id)
        client.until("confirm", id=act_id)
        done.append(act_id)
    return done


def events_of(client: Client) -> list[dict[str, Any]]:
    return [e for f in client.frames if f["type"] == "events" for e in f["data"]["events"]]


def test_sigkill_mid_hand_then_restart_plays_on_without_loss(web_db: str) -> None:
    db = web_db
    port = free_port()
    with server_process(db, port) as proc:
        base = f"http://127.0.0.1:{port}"
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith(f"tricktable serving on {base}/")
        ann = Client(base, "Ann")
        answer = ann.post(
            "/api/tables",
            {
                "game": "setback",
                "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
            },
        )
        table = answer.json()["table"]["id"]
        commitment = answer.json()["table"]["commitment"]
        ann.connect()
        ann.send("hello", table)
        before = play(ann, table, 4, "a")
        seen = ann.version
        events_before = [
            e for f in ann.frames if f["type"] == "events" for e in f["data"]["events"]
        ]
        proc.kill()  # SIGKILL at once after a confirm: no goodbye, nothing flushed
        proc.wait(10)
    assert journal_acts(db, table) == before
    seqs = [seq for seq, _ in journal_rows(db, table)]
    assert seqs == list(range(1, len(seqs) + 1))  # the table's rows in order, no gap
    sent = [f["v"] for f in ann.frames if f.get("v") is not None and f["table"] == table]
    assert max(sent) <= seqs[-1]  # nothing was sent before it was in the database
    with server_process(db, port):
        # The same cookie: sessions and the cookies' secret are in the database.
        assert ann.http.get("/api/me").json()["user"]["name"] == "Ann"
        info = ann.http.get(f"/api/tables/{table}").json()
        assert info["status"] == "playing" and info["commitment"] == commitment
        ann.connect()
        ann.send("hello", table, {"since": seen})
        ann.until("table")
        answer_frame = ann.recv()
        while answer_frame["type"] in ("table", "clock"):  # seats' news may come first
            answer_frame = ann.recv()
        assert answer_frame["type"] in ("events", "snapshot")
        assert answer_frame["v"] >= (seen or 0)
        # A resent act (its confirm lost with the old server) is confirmed, not applied again.
        ann.send("act", table, {"action": "pass"}, id=before[-1])
        ann.until("confirm", id=before[-1])
        # The same events under the same versions as before the kill. Asked on Ann's turn,
        # when the bots wait on her and no row is still being written (a hello that comes
        # while one is, is answered by a snapshot at its commit: the protocol's other answer).
        my_turn(ann)
        first = events_before[0]["version"] - 1
        ann.send("hello", table, {"since": first})
        ann.until("table")
        again = ann.until("events")
        assert [e for e in again["data"]["events"] if e["version"] <= (seen or 0)] == [
            e for e in events_before if e["version"] > first
        ]
        after = play(ann, table, 6, "b")
        record = ann.http.get(f"/api/tables/{table}/record")
        assert record.status_code == 409  # the match is still being played
        ann.close()
    ids = journal_acts(db, table)
    assert ids == before + after  # every confirmed act once, in order


def test_nothing_is_sent_before_it_is_in_the_database(web_db: str) -> None:
    """A table of bots playing flat out, watched; the server killed while frames stream: every
    version the watcher was sent is in the journal (the writer commits before anything goes)."""
    port = free_port()
    with server_process(web_db, port) as proc:
        eve = Client(f"http://127.0.0.1:{port}", "Eve")
        bots = [{"kind": "bot", "level": "beginner"}] * 4
        made = eve.post("/api/tables", {"game": "setback(target=500)", "seats": bots})
        table = made.json()["table"]["id"]
        eve.connect()
        eve.send("hello", table)
        while (eve.version or 0) < 40:
            eve.recv()
        proc.kill()
        proc.wait(10)
    sent = [f["v"] for f in eve.frames if f.get("v") is not None and f["table"] == table]
    seqs = [seq for seq, _ in journal_rows(web_db, table)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert max(sent) <= seqs[-1]
    eve.close()
