"""The server's limits, against a real uvicorn on 127.0.0.1 (a real SQLite file; the
``websockets`` client): a steady flood is closed with 4429 while a brisk honest client is
never refused; bot-only tables are capped per person and in all, and paced like people's; a
match ends at its cap of hands with the leader winning, and its record replays; the creator
closes a table; a table nobody watches stops being driven, and a restart does not wake it;
chat is limited per person, across their connections, and the lobby's in all; /api/me and
the lobby answer as fast beside many bot tables as beside idle ones (a ratio, side by side).

Every limit is the hub's :class:`~tricktable.web.hub.Limits`, set tiny here (a cap of 3
hands, an idle stop of half a second), so that no test waits minutes
(docs/protocol-web.md, "Limits").
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tricktable.games import load_game
from tricktable.records import replay, result_of
from tricktable.table.driver import run, trailing
from tricktable.table.table import Table
from tricktable.web.app import make_app
from tricktable.web.store import WebStore
from web_harness import SRC, Client, free_port, journal_rows, wait_up

#: four beginners: a bots' table that plays at once
BOTS = [{"kind": "bot", "level": "beginner"}] * 4
#: a person and three beginners
PEOPLE = [{"kind": "me"}] + [{"kind": "bot", "level": "beginner"}] * 3
#: a target no match reaches in the hands a test plays
ENDLESS = "setback(target=10000)"


@contextlib.contextmanager
def limited(db: Path, pace: float = 0.0, **limits: Any) -> Iterator[str]:
    """A server for ``db`` in a thread whose hub has ``limits`` (fields of ``Limits``);
    its base URL."""
    store = WebStore.open(str(db))
    hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
    app = make_app(store, pace=pace, hasher=hasher)
    hub = app.state.hub
    hub.limits = dataclasses.replace(hub.limits, **limits)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()


def bot_table(client: Client, game: str = ENDLESS) -> httpx.Response:
    """Ask for a table of four beginner bots (POST /api/tables)."""
    return client.post("/api/tables", {"game": game, "seats": BOTS})


def rows(db: Path, table: str) -> int:
    """How many rows table ``table``'s journal holds."""
    return len(journal_rows(db, table))


def until_over(client: Client, timeout: float = 30) -> dict[str, Any]:
    """Read until the match's final snapshot (``over``) and the table's status ``over``;
    that snapshot."""
    deadline = time.monotonic() + timeout
    status = None
    while not (client.snapshot or {}).get("over") or status != "over":
        frame = client.recv(max(deadline - time.monotonic(), 0.01))
        if frame["type"] == "table":
            status = frame["data"]["status"]
    return dict(client.snapshot or {})


def drain(ws: ClientConnection) -> list[dict[str, Any]]:
    """Every frame already received on ``ws`` (ConnectionClosed once the server closed it)."""
    got = []
    with contextlib.suppress(TimeoutError):
        while True:
            got.append(json.loads(ws.recv(0)))
    return got


def send_steadily(
    ws: ClientConnection, per_second: float, seconds: float, got: list[dict[str, Any]]
) -> None:
    """Send a ping ``per_second`` for ``seconds`` (each with its id), reading what comes
    back meanwhile into ``got``. ConnectionClosed if the server closes."""
    start = time.monotonic()
    n = 0
    while time.monotonic() - start < seconds:
        n += 1
        ws.send(json.dumps({"type": "ping", "id": f"p{n}"}))
        got += drain(ws)
        wait = start + n / per_second - time.monotonic()
        if wait > 0:
            time.sleep(wait)


# ----------------------------------------------------------------------------- floods


def test_a_steady_flood_is_closed_with_4429(tmp_path: Path) -> None:
    # 300 a second: a token comes back every 50 ms, so refusals were never many in a row
    # (the limiter counted them so) and the connection was refused message by message for
    # ever. Counted in a window, they close it.
    with limited(tmp_path / "web.db") as base:
        flo = Client(base, "Flo")
        ws = flo.connect()
        got: list[dict[str, Any]] = []
        closed: ConnectionClosed | None = None
        try:
            send_steadily(ws, 300, 8, got)
        except ConnectionClosed as exc:
            closed = exc
        assert closed is not None, "a steady flood of 300 a second was never closed"
        assert ws.close_code == 4429
        errors = [f for f in got if f["type"] == "error"]
        assert errors and all(f["data"]["code"] == "flood" for f in errors)
        flo.close()


def test_a_brisk_honest_client_is_never_refused(tmp_path: Path) -> None:
    with limited(tmp_path / "web.db") as base:
        ann = Client(base, "Ann")
        ws = ann.connect()
        got: list[dict[str, Any]] = []
        send_steadily(ws, 20, 3, got)  # a message every 50 ms
        deadline = time.monotonic() + 5
        while sum(f["type"] == "pong" for f in got) < 60 and time.monotonic() < deadline:
            got += drain(ws)
            time.sleep(0.02)
        assert [f for f in got if f["type"] == "error"] == []
        assert sum(f["type"] == "pong" for f in got) >= 59
        ws.send(json.dumps({"type": "ping", "id": "still"}))
        assert json.loads(ws.recv(5))["id"] == "still"
        ann.close()


# ------------------------------------------------------------------- bot-only tables


def test_bot_only_tables_are_capped_per_person_and_in_all(tmp_path: Path) -> None:
    with limited(tmp_path / "web.db", bot_tables_per_person=2, bot_tables=3) as base:
        ann, bob = Client(base, "Ann"), Client(base, "Bob")
        mine = [bot_table(ann) for _ in range(2)]
        assert [r.status_code for r in mine] == [200, 200]
        third = bot_table(ann)
        assert third.status_code == 400
        reason = third.json()["error"]
        assert "bot" in reason and "2" in reason and "\n" not in reason
        # A table where a person sits is not a bots' table: not counted.
        assert ann.post("/api/tables", {"game": ENDLESS, "seats": PEOPLE}).status_code == 200
        assert bot_table(bob).status_code == 200
        full = bot_table(bob)
        assert full.status_code == 400 and "3" in full.json()["error"]
        # Over the websocket too, one error under the request's id.
        bob.connect()
        bob.send("create", None, {"game": ENDLESS, "seats": BOTS}, id="c1")
        error = bob.until("error", id="c1")["data"]
        assert error["code"] == "bad" and "bot" in error["reason"]
        # The creator closes one: a place is free again.
        ann.connect()
        ann.send("close_table", mine[0].json()["table"]["id"], id="x1")
        assert ann.until("table", id="x1")["data"]["status"] == "closed"
        assert bot_table(bob).status_code == 200
        ann.close()
        bob.close()


def test_bot_only_tables_are_paced_like_peoples(tmp_path: Path) -> None:
    pace = 0.25
    with limited(tmp_path / "web.db", pace=pace) as base:
        eve = Client(base, "Eve")
        table = bot_table(eve).json()["table"]["id"]
        eve.connect()
        eve.send("hello", table)
        eve.until("snapshot")
        first = eve.version or 0
        start = time.monotonic()
        while time.monotonic() - start < 1.5 or eve.version == first:
            with contextlib.suppress(TimeoutError):
                eve.recv(0.1)
            assert time.monotonic() - start < 20, "the bots' table is not played"
        made = (eve.version or 0) - first
        # A row a move, and one a deal: at most a move a pace (a slow machine makes fewer).
        assert made <= (time.monotonic() - start) / pace + 3, made
        eve.close()


def test_a_bots_match_ends_at_its_cap_of_hands_the_leader_winning(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with limited(db, hand_cap_bots=3) as base:
        eve = Client(base, "Eve")
        table = bot_table(eve).json()["table"]["id"]
        eve.connect()
        eve.send("hello", table)
        final = until_over(eve)
        assert final["over"]
        assert eve.http.get(f"/api/tables/{table}").json()["status"] == "over"
        record = eve.http.get(f"/api/tables/{table}/record").json()
        eve.close()
    check_capped(record, 3)


def test_a_peoples_match_has_its_own_cap_of_hands(tmp_path: Path) -> None:
    with limited(tmp_path / "web.db", hand_cap_people=2) as base:
        ann = Client(base, "Ann")
        table = ann.post("/api/tables", {"game": ENDLESS, "seats": PEOPLE}).json()["table"]["id"]
        ann.connect()
        ann.send("hello", table)
        ann.until("snapshot")
        ann.send("leave_seat", table, id="away")  # the room's bot plays her seat on
        ann.until("table", id="away")
        until_over(ann)
        record = ann.http.get(f"/api/tables/{table}/record").json()
        ann.close()
    check_capped(record, 2)


def check_capped(record: dict[str, Any], cap: int) -> None:
    """``record`` is a match ended at a cap of ``cap`` hands: it replays (the forfeit of the
    trailing side, said at the table first) to the leader's win; tied at the cap, it went
    on until a hand left one side ahead."""
    state = replay(record)
    assert state.is_over
    result = result_of(state)
    scores = [hand["scores"] for hand in result["hands"]]
    assert len(scores) >= cap
    assert all(s[0] == s[1] for s in scores[cap - 1 : -1]), "played on past the cap untied"
    last = scores[-1]
    assert last[0] != last[1]
    assert result["winner"] == (0 if last[0] > last[1] else 1)
    notes = [n for hand in record["hands"] for n in hand.get("notes", [])]
    notes += record.get("notes", [])
    kinds = [n["kind"] for n in notes]
    assert kinds[-2:] == ["chat", "forfeit"], kinds
    assert f"{cap} hands" in notes[-2]["text"]


@pytest.mark.parametrize(
    ("spec", "scores", "seat"),
    [
        ("setback", [5, 3], 1),
        ("setback", [3, 5], 0),
        ("setback", [4, 4], None),  # level: the next hand decides
        ("hearts", [10, 40, 20, 40], 3),  # the lowest wins: the last of the highest forfeits
        ("hearts", [50, 10, 20, 30], 0),
        ("setback(players=6,partners=3x2)", [2, 1, 1], 2),
    ],
)
def test_the_seat_that_forfeits_at_the_cap(spec: str, scores: list[int], seat: int | None) -> None:
    state = load_game(spec).new_state(1)
    state.scores = scores
    assert trailing(state) == seat


def test_a_match_of_lone_players_ends_at_the_cap_with_no_winner_and_replays() -> None:
    # Hearts, each for themselves: a forfeit names no winner (the record can say no more);
    # the line at the table gives the scores.
    table = Table(load_game("hearts"), ["beginner"] * 4, seed=7)
    try:
        state = asyncio.run(run(table, hand_cap=2))
    finally:
        table.close()
    assert state.is_over and len(state.history) == 2 and state.winner is None
    again = replay(table.record())
    assert again.is_over and again.scores == state.scores
    assert [n.kind for n in again.notes][-2:] == ["chat", "forfeit"]


# ------------------------------------------------------------------ closing a table


def test_the_creator_closes_a_table_and_players_and_watchers_are_told(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with limited(db) as base:
        ann = Client(base, "Ann")
        table = ann.post("/api/tables", {"game": ENDLESS, "seats": PEOPLE}).json()["table"]["id"]
        ann.connect()
        ann.send("hello", table)
        ann.until("snapshot")
        bob = Client(base, "Bob")
        bob.connect()
        bob.send("hello", table)
        bob.until("snapshot")
        bob.send("close_table", table, id="b1")
        refused = bob.until("error", id="b1")["data"]
        assert "creator" in refused["reason"] and refused["code"] == "bad"
        ann.send("close_table", table, id="a1")
        answer = ann.until("table", id="a1")["data"]
        assert answer["status"] == "closed" and answer["seed"] is not None
        told = bob.until("table")
        while told["data"]["status"] != "closed":
            told = bob.until("table")
        assert ann.http.get(f"/api/tables/{table}").json()["status"] == "closed"
        assert table not in [t["id"] for t in ann.http.get("/api/tables").json()["tables"]]
        kept = rows(db, table)
        time.sleep(0.5)
        assert rows(db, table) == kept  # no longer played
        bob.send("hello", table, id="h1")
        assert "no table" in bob.until("error", id="h1")["data"]["reason"]
        ann.send("close_table", table, id="a2")
        assert ann.until("error", id="a2")["data"]["code"] == "bad"
        ann.close()
        bob.close()
    with sqlite3.connect(db) as connection:  # stored so: a restart leaves it closed
        query = "SELECT status FROM web_table WHERE id = ?"
        assert connection.execute(query, (table,)).fetchall() == [("closed",)]
    with limited(db) as base:
        assert httpx.get(f"{base}/api/tables/{table}").status_code == 404
        assert rows(db, table) == kept


# --------------------------------------------------------------------- idle tables


def stopped(db: Path, table: str, timeout: float = 15) -> int:
    """Wait until table ``table``'s journal stops growing (the same for a second); its rows."""
    deadline = time.monotonic() + timeout
    last = rows(db, table)
    while True:
        time.sleep(1.0)
        now = rows(db, table)
        if now == last:
            return now
        assert time.monotonic() < deadline, "the table nobody watches is still played"
        last = now


def test_a_table_nobody_watches_stops_and_a_restart_does_not_wake_it(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with limited(db, pace=0.02, idle_stop=0.5) as base:
        eve = Client(base, "Eve")
        table = bot_table(eve).json()["table"]["id"]
        deadline = time.monotonic() + 10
        while rows(db, table) < 4:  # played at first
            assert time.monotonic() < deadline, "the bots' table was not played"
            time.sleep(0.05)
        kept = stopped(db, table)
        eve.close()
    with limited(db, pace=0.02, idle_stop=0.5) as base:
        time.sleep(1.0)
        assert rows(db, table) == kept  # the restart did not wake it
        # Someone comes to watch: it plays on from where it stopped.
        cat = Client(base, "Cat")
        cat.connect()
        cat.send("hello", table)
        assert cat.until("snapshot")["v"] == kept
        cat.until("events")
        assert rows(db, table) > kept
        cat.close()


# ---------------------------------------------------------------------------- chat


def test_chat_is_limited_per_person_across_their_connections(tmp_path: Path) -> None:
    with limited(tmp_path / "web.db", chat_rate=0.01, chat_burst=3) as base:
        ann = Client(base, "Ann")
        table = ann.post("/api/tables", {"game": "setback", "seats": [{"kind": "me"}]})
        tid = table.json()["table"]["id"]
        first = ann.connect()
        second = ann.connect()

        got: list[dict[str, Any]] = []

        def say(ws: ClientConnection, where: str | None, text: str, mid: str) -> None:
            # Answered (its error, if refused) before the ping's pong: one line at a time.
            frame = {"type": "chat", "table": where, "id": mid, "data": {"text": text}}
            ws.send(json.dumps(frame))
            ws.send(json.dumps({"type": "ping", "id": "sync-" + mid}))
            while (f := json.loads(ws.recv(10)))["id"] != "sync-" + mid:
                got.append(f)

        first.send(json.dumps({"type": "lobby"}))
        second.send(json.dumps({"type": "hello", "table": tid}))
        say(first, None, "one", "c1")
        say(second, None, "two", "c2")
        say(first, None, "three", "c3")
        say(second, None, "four", "c4")
        say(second, tid, "five", "c5")  # at her table: the same person's lines
        got += drain(first) + drain(second)
        refused = {f["id"]: f["data"] for f in got if f["type"] == "error"}
        assert set(refused) == {"c4", "c5"}
        assert all(r["code"] == "flood" and "chat" in r["reason"] for r in refused.values())
        heard = [f["data"]["text"] for f in got if f["type"] == "chat"]
        assert sorted(set(heard)) == ["one", "three", "two"]
        # Another person has their own lines.
        bob = Client(base, "Bob")
        bob.connect()
        bob.send("lobby")
        bob.until("lobby")
        bob.send("chat", None, {"text": "hi"}, id="b1")
        bob.send("ping", id="sync")
        frames = [bob.recv() for _ in range(2)]
        assert [f["type"] for f in frames] == ["chat", "pong"]
        first.close()
        ann.close()
        bob.close()


def test_the_lobbys_chat_is_bounded_for_everyone_together(tmp_path: Path) -> None:
    with limited(tmp_path / "web.db", lobby_chat_rate=0.01, lobby_chat_burst=4) as base:
        people = [Client(base, f"P{k}") for k in range(3)]
        for person in people:
            person.connect()
            person.send("lobby")
            person.until("lobby")
        for k, person in enumerate(people):
            for j in range(2):
                person.send("chat", None, {"text": f"line {k}{j}"}, id=f"c{k}{j}")
        for person in [*people, people[0]]:  # every line answered; every one heard by P0
            person.send("ping", id="sync")
            person.until("pong", id="sync")
        heard = [f["data"]["text"] for f in people[0].frames if f["type"] == "chat"]
        refused = [f["data"] for p in people for f in p.frames if f["type"] == "error"]
        for person in people:
            person.close()
        assert len(heard) == 4
        assert len(refused) == 2
        assert all(r["code"] == "flood" and "lobby" in r["reason"] for r in refused)


# ------------------------------------------------------------------------- speed


#: a server with a hub's limits, in a process of its own (argv: db, port, pace, limits)
SERVE = """
import dataclasses, json, sys
import uvicorn
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from tricktable.web.app import make_app
from tricktable.web.store import WebStore
db, port, pace, limits = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), json.loads(sys.argv[4])
hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
app = make_app(WebStore.open(db), pace=pace, hasher=hasher)
app.state.hub.limits = dataclasses.replace(app.state.hub.limits, **limits)
uvicorn.run(app, host="127.0.0.1", port=port, log_level="error")
"""


@contextlib.contextmanager
def limited_processes(dbs: list[Path], pace: float, **limits: Any) -> Iterator[list[str]]:
    """A server for each of ``dbs`` whose hub has ``limits``, each in a process of its own
    (its loop and its bots' threads its own), started together; their base URLs."""
    env = {**os.environ, "PYTHONPATH": SRC}
    started: list[tuple[str, subprocess.Popen[str]]] = []
    try:
        for db in dbs:
            port = free_port()
            args = [sys.executable, "-c", SERVE, str(db), str(port), str(pace), json.dumps(limits)]
            proc = subprocess.Popen(
                args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
            )
            started.append((f"http://127.0.0.1:{port}", proc))
        for base, proc in started:
            wait_up(base, proc)
        yield [base for base, _ in started]
    finally:
        for _, proc in started:
            proc.kill()
            proc.wait(10)
            if proc.stdout is not None:
                proc.stdout.close()


def side_by_side(quiet: Client, busy: Client, path: str, rounds: int = 60) -> float:
    """``path`` asked of two servers in turn, ``rounds`` times each (which goes first
    alternating, so that whatever slows the machine slows both): how many times as long
    the busy one takes, on average (its stalls count: a median would hide them)."""
    spent: dict[int, float] = {id(quiet): 0.0, id(busy): 0.0}
    for k in range(rounds):
        for client in (quiet, busy) if k % 2 else (busy, quiet):
            start = time.perf_counter()
            assert client.http.get(path).status_code == 200
            spent[id(client)] += time.perf_counter() - start
    return spent[id(busy)] / spent[id(quiet)]


def test_api_me_and_the_lobby_stay_fast_beside_many_bot_tables(tmp_path: Path) -> None:
    # Two servers side by side, each in its process: on one, ten tables wait for people
    # (nothing is played); on the other, five guests ask for twenty tables of bots each (at
    # the level a table gets by default) and the caps let ten in, played at the pace. Before
    # the caps and the pace, the hundred tables let in played flat out.
    limits = {"bot_tables_per_person": 2, "bot_tables": 10}
    club = {"game": ENDLESS, "seats": [{"kind": "bot"}] * 4}
    waiting = {"game": ENDLESS, "seats": [{"kind": "me"}]}
    dbs = [tmp_path / "quiet.db", tmp_path / "busy.db"]
    with limited_processes(dbs, 0.2, **limits) as (quiet_base, busy_base):
        quiet, busy = Client(quiet_base, "Probe"), Client(busy_base, "Probe")
        people = [Client(quiet_base, f"Q{k}") for k in range(5)]
        guests = [Client(busy_base, f"G{k}") for k in range(5)]
        assert all(p.post("/api/tables", waiting).status_code == 200 for p in people * 2)
        started = [g.post("/api/tables", club).status_code for g in guests for _ in range(20)]
        assert started.count(200) == 10
        for client in (quiet, busy):
            assert len(client.http.get("/api/tables").json()["tables"]) == 10  # as many
        side_by_side(quiet, busy, "/api/me", 5)  # warm
        time.sleep(0.5)
        me = side_by_side(quiet, busy, "/api/me")
        lobby = side_by_side(quiet, busy, "/api/tables")
        for client in (quiet, busy, *people, *guests):
            client.close()
    assert me <= 2, me
    assert lobby <= 2, lobby


def test_the_table_page_offers_its_creator_to_close_it(tmp_path: Path, browser: Any) -> None:
    with limited(tmp_path / "web.db") as base:
        ann, bob = Client(base, "Ann"), Client(base, "Bob")
        table = ann.post("/api/tables", {"game": ENDLESS, "seats": PEOPLE}).json()["table"]["id"]
        pages = {}
        for who in (ann, bob):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            for k, v in who.http.cookies.items():
                context.add_cookies([{"name": k, "value": v, "url": base}])
            page = context.new_page()
            page.set_default_timeout(15000)
            page.goto(f"{base}/t/{table}")
            page.locator(".status", has_text="connected").wait_for()
            pages[who.user["name"]] = page
        close = pages["Ann"].get_by_role("button", name="Close table")
        close.wait_for()
        assert pages["Bob"].get_by_role("button", name="Close table").count() == 0
        pages["Ann"].once("dialog", lambda dialog: dialog.accept())
        close.click()
        for page in pages.values():
            page.get_by_text("This table is closed.").first.wait_for()
        assert close.count() == 0
        assert ann.http.get(f"/api/tables/{table}").json()["status"] == "closed"
        for page in pages.values():
            page.context.close()
        ann.close()
        bob.close()


def test_serves_flags_set_the_hubs_limits(tmp_path: Path) -> None:
    """``serve --bot-tables ... --idle-stop`` reach the hub the server plays its tables by."""
    from click.testing import CliRunner

    from tricktable.cli.main import cli
    from tricktable.cli.serve import ServeOptions, hub_limits
    from tricktable.web.hub import HubLimits

    options = ServeOptions(
        bot_tables=3, bot_tables_per_person=1, hand_cap_bots=7, hand_cap_people=9, idle_stop=5
    )
    limits = hub_limits(options)
    assert limits == dataclasses.replace(
        HubLimits(),
        bot_tables=3,
        bot_tables_per_person=1,
        hand_cap_bots=7,
        hand_cap_people=9,
        idle_stop=5,
    )
    store = WebStore.open(str(tmp_path / "limits.db"))
    try:
        assert make_app(store, hub_limits=limits).state.hub.limits is limits
    finally:
        store.close()
    shown = CliRunner().invoke(cli, ["serve", "--help"]).output
    for flag in ("--bot-tables", "--bot-tables-per-person", "--hand-cap", "--idle-stop"):
        assert flag in shown
