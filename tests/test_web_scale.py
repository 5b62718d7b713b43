"""Three ``tricktable serve`` processes sharing one set of tables through a real Redis and a
real PostgreSQL, all on loopback (issue 29; docs/deploy.md).

One story, in order: a table made at one process is played from a second and watched from
the third; the same act sent through two processes is applied once; the owner is killed
with SIGKILL mid-hand and another process takes the table up, the clients — connected
elsewhere — seeing a pause; the new owner is frozen (SIGSTOP) past its lease, a third takes
over, and the frozen one, woken, finds its table gone and writes nothing; Redis is
restarted empty and the servers refuse new tables meanwhile, then recover by themselves;
the match is played to its end, and its record, from any process, is its journal replayed.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from local_redis import LocalRedis
from tricktable.db import StoreError
from tricktable.web.store import TableRow, WebStore
from web_harness import SRC, Client, free_port, journal_acts, journal_rows, wait_up


@contextmanager
def node(db: str, redis_url: str, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``tricktable serve --redis`` on ``port``, its output in ``log``."""
    env = {**os.environ, "PYTHONPATH": SRC}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "tricktable", "serve", "--port", str(port)),
                *("--db", db, "--pace", "0", "--redis", redis_url),
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_up(f"http://127.0.0.1:{port}", None)
            yield proc
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.kill()
            proc.wait(10)


def two_nodes(
    stack: ExitStack, db: str, tmp_path: Path
) -> tuple[list[str], list[subprocess.Popen[bytes]], list[Path]]:
    """A Redis and two server processes on it (stopped with ``stack``): their base URLs,
    processes and logs."""
    rs = stack.enter_context(LocalRedis.running())
    bases, procs, logs = [], [], []
    for i in range(2):
        port = free_port()
        logs.append(tmp_path / f"node{i}.log")
        procs.append(stack.enter_context(node(db, rs.url, port, logs[-1])))
        bases.append(f"http://127.0.0.1:{port}")
    return bases, procs, logs


def same_person(other: Client, base: str) -> Client:
    """A second connection of ``other``'s person, through the server at ``base``."""
    twin = Client.__new__(Client)
    twin.__dict__.update(other.__dict__)
    twin.base = base
    twin.http = other.http.__class__(base_url=base, timeout=10, cookies=other.http.cookies)
    twin.ws = None
    twin.frames = []
    twin.snapshot = None  # its own picture comes with its hello
    return twin


def turn(client: Client, timeout: float = 30) -> dict[str, Any]:
    """The snapshot of the client's next turn (read until it comes)."""
    deadline = time.monotonic() + timeout
    while True:
        snap = client.snapshot
        if snap is not None and snap["legal"] and snap["version"] == client.version:
            return snap
        client.recv(max(deadline - time.monotonic(), 0.01))


def act(client: Client, table: str, timeout: float = 30) -> str:
    """Make the first legal action on the client's turn; its id once confirmed. Refused (the
    client's picture was behind: a table that changed hands while it acted), it acts again
    on the refusal's snapshot, as a page does."""
    for _ in range(5):
        snap = turn(client, timeout)
        act_id = client.next_id()
        client.send("act", table, {"action": snap["legal"][0]["action"]}, id=act_id)
        deadline = time.monotonic() + timeout
        while True:
            frame = client.recv(max(deadline - time.monotonic(), 0.01))
            if frame.get("id") != act_id:
                continue
            if frame["type"] == "confirm":
                return act_id
            if frame["type"] == "refuse":
                break
            raise AssertionError(f"act {act_id}: {frame}")
    raise AssertionError("refused five times")


def owner_of(r: redis.Redis, table: str, nodes: dict[str, str]) -> str | None:
    """The base URL of the process holding ``table``'s lease, or None."""
    held = r.get(f"tt:lease:{table}")
    return nodes.get(held.decode()) if held is not None else None


def test_three_processes_one_table_an_owner_killed_frozen_and_redis_restarted(
    postgres: Any, tmp_path: Path
) -> None:
    db = str(postgres.url(postgres.new_database()))
    with ExitStack() as stack:
        rs = stack.enter_context(LocalRedis.running())
        r = redis.Redis.from_url(rs.url)
        ports = [free_port() for _ in range(3)]
        procs = {}
        for i, port in enumerate(ports):
            base = f"http://127.0.0.1:{port}"
            procs[base] = stack.enter_context(node(db, rs.url, port, tmp_path / f"node{i}.log"))
        a, b, c = procs
        nodes = {_node_name(base): base for base in procs}

        # A table made at A, played from B, watched from C.
        ann = Client(a, "Ann")
        made = ann.post(
            "/api/tables",
            {
                "game": "setback",
                "seats": [{"kind": "me"}] + [{"kind": "bot"}] * 3,
                "move_time": 120,
            },
        )
        assert made.status_code == 200, made.text
        table = made.json()["table"]["id"]
        assert owner_of(r, table, nodes) == a
        ann.base = b
        ann.http = ann.http.__class__(base_url=b, timeout=10, cookies=ann.http.cookies)
        ann.connect()
        ann.send("hello", table)
        ann.until("table")
        bob = Client(c, "Bob")
        bob.connect()
        bob.send("hello", table)
        assert bob.until("table")["data"]["you"]["seat"] is None
        acts = [act(ann, table) for _ in range(3)]
        assert owner_of(r, table, nodes) == a  # a hello forwarded claims nothing
        # Every process's lobby knows who is there: Bob watching (through C), Ann seated
        # (through B), both attached at A, which plays the table.
        for base in procs:
            _wait(lambda base=base: _watched(base, table), 10)

        # The same act through two processes: applied once, confirmed to both.
        twin = same_person(ann, c)
        twin.connect()
        twin.send("hello", table, {"since": ann.version})
        twin.until("table")
        again = act(twin, table)
        twin.send("act", table, {"action": "whatever"}, id=again)  # a retry, elsewhere
        twin.until("confirm", id=again)
        acts.append(again)
        assert journal_acts(db, table).count(again) == 1
        twin.close()
        ann._n = twin._n  # a page's act ids are its own: the next is new
        ann.connect()  # the seat went to the twin's tab: Ann's page says hello again
        ann.send("hello", table, {"since": ann.version})
        ann.until("table")
        acts.append(act(ann, table))

        # The owner killed mid-hand: another process takes the table up; Ann (at B) and Bob
        # (at C) see a pause and play and watch on, nothing lost or doubled.
        turn(ann)

        def clock() -> dict[str, Any]:
            return next(f["data"] for f in reversed(ann.frames) if f["type"] == "clock")

        while clock()["seat"] != 0:  # her clock, sent after the snapshot of her turn
            ann.recv(10)
        running = clock()
        assert running["deadline"] > time.time()
        killed_at = time.monotonic()
        procs[a].kill()
        procs[a].wait(10)
        ann.until("table", timeout=30)  # said hello again for her, by her own gateway
        resumed = time.monotonic() - killed_at
        # Her clock runs on from where it was: the process's death bought her no time.
        assert ann.until("clock")["data"]["deadline"] == running["deadline"]
        acts.append(act(ann, table))
        owner = owner_of(r, table, nodes)
        assert owner in (b, c)
        assert resumed < 20, resumed  # the benchmark measures it; the goal is 5 s
        bob.until("table", timeout=30)
        assert journal_acts(db, table) == acts

        # The new owner frozen past its lease: the other live process takes over; the
        # frozen one, woken, lets the table go and writes nothing of it.
        other = c if owner == b else b
        ann.close()
        ann.base = other
        ann.http = ann.http.__class__(base_url=other, timeout=10, cookies=ann.http.cookies)
        ann.frames = []
        ann.connect()
        ann.send("hello", table, {"since": ann.version})
        ann.until("table")
        snap = turn(ann)
        procs[owner].send_signal(signal.SIGSTOP)
        stuck = ann.next_id()
        ann.send("act", table, {"action": snap["legal"][0]["action"]}, id=stuck)
        # Taken up by `other`, which says hello again for her and sends the act the frozen
        # process never answered again, as her page would after a reconnection.
        ann.until("confirm", timeout=30, id=stuck)
        assert owner_of(r, table, nodes) == other
        acts.append(stuck)
        procs[owner].send_signal(signal.SIGCONT)
        log = tmp_path / f"node{list(procs).index(owner)}.log"
        _wait(lambda: "another server process plays it now" in log.read_text(), 20)
        acts.append(act(ann, table))
        assert journal_acts(db, table) == acts

        # Redis restarted empty: no new table meanwhile, said in one line; then all recover.
        rs.stop()
        refused: dict[str, Any] = {}

        def refuses() -> bool:
            answer = ann.post("/api/tables", {"game": "setback", "seats": [{"kind": "me"}]})
            refused.update(answer.json())
            return answer.status_code == 400

        _wait(refuses, 15)
        assert "cannot reach its Redis" in refused["error"]
        rs.start()
        _wait(lambda: ann.post("/api/tables", {"game": "hearts"}).status_code == 200, 20)
        acts.append(act(ann, table))

        # Played to the end; the record, from each live process, is the journal replayed.
        while True:
            snap = ann.snapshot
            info = ann.http.get(f"/api/tables/{table}").json()
            if info["status"] == "over":
                break
            if snap is not None and snap["legal"] and snap["version"] == ann.version:
                acts.append(act(ann, table))
            else:
                with contextlib.suppress(TimeoutError):
                    ann.recv(1)
        assert journal_acts(db, table) == acts
        seqs = [seq for seq, _ in journal_rows(db, table)]

        # A logout at one process closes the session's websocket at another at once; a
        # message in Redis that is no process's is one line in the log, and all serve on.
        bob.http = bob.http.__class__(base_url=b, timeout=10, cookies=bob.http.cookies)
        assert bob.post("/api/logout", {}).status_code == 200
        ended = bob.until("error", timeout=10)
        assert ended["data"]["code"] == "session"
        r.publish(f"tt:node:{_node_name(b)}", b'{"k": "in"}')
        r.publish("tt:tables", b"not json")
        # A stranger's table id claims nothing: "no table", and no lease made for it.
        cal = Client(b, "Cal")
        cal.connect()
        cal.send("hello", "nosuchtab", id="x")
        assert "no table" in cal.until("error", id="x")["data"]["reason"]
        assert r.exists("tt:lease:nosuchtab") == 0
        cal.close()
        log_b = tmp_path / f"node{list(procs).index(b)}.log"
        _wait(lambda: log_b.read_text().count("a message not understood") >= 2, 10)
        assert seqs == list(range(1, len(seqs) + 1))
        records = []
        for base in (b, c):
            _wait(lambda base=base: _status(base, table) == "over", 10)
            answer = Client(base, "Cal").http.get(f"/api/tables/{table}/record")
            assert answer.status_code == 200, answer.text
            records.append(answer.json())
        assert records[0] == records[1]
        path = tmp_path / "record.json"
        path.write_text(json.dumps(records[0]))
        verified = subprocess.run(
            [sys.executable, "-m", "tricktable", "verify", str(path)],
            env={**os.environ, "PYTHONPATH": SRC},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert len(set(acts)) == len(acts)


def test_a_former_owners_rows_are_refused_in_the_append_transaction(postgres: Any) -> None:
    """The fencing token: once another process has claimed a table, the rows of the one
    before are refused by the journal's own transaction, the other tables' written."""
    db = str(postgres.url(postgres.new_database()))
    store = WebStore.open(db)
    try:
        for name in ("t1", "t2"):
            store.add_table(
                TableRow(name, None, {"spec": "setback"}, [], "playing", 1, 1, "n", "c"), epoch=1
            )
        assert store.append_many([("t1", 1, 1, [["deal"]])], {"t1": 1}) == set()
        claimed = store.claim_table("t1")
        assert claimed is not None and claimed[1] == 2
        stale = store.append_many(
            [("t1", 2, 1, [["act", 0, 5]]), ("t2", 1, 1, [["deal"]])], {"t1": 1, "t2": 1}
        )
        assert stale == {"t1"}
        assert [row.seq for row in store.journal("t1")] == [1]
        assert [row.seq for row in store.journal("t2")] == [1]
        assert store.append_many([("t1", 2, 1, [["act", 0, 5]])], {"t1": 2}) == set()
        assert store.claim_table("nobody") is None
        with pytest.raises(StoreError):  # a seq written twice is refused, not doubled
            store.append_many([("t1", 2, 1, [["act", 0, 5]])], {"t1": 2})
    finally:
        store.close()


def _node_name(base: str) -> str:
    return str(httpx.get(base + "/api/cluster", timeout=10).json()["node"])


def _watched(base: str, table: str) -> bool:
    info = httpx.get(f"{base}/api/tables/{table}", timeout=10).json()
    return bool(info["watchers"] == 1 and info["seats"][0]["connected"])


def _status(base: str, table: str) -> str:
    return str(httpx.get(f"{base}/api/tables/{table}", timeout=10).json()["status"])


def _wait(ok: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not ok():
        if time.monotonic() > deadline:
            raise AssertionError(f"not so within {seconds} s")
        time.sleep(0.2)


def test_a_web_tournament_whose_server_process_dies_is_played_on_by_another(
    postgres: Any, tmp_path: Path
) -> None:
    """A web tournament is played by one process, under a lease: killed, its lease lapses
    and another process plays it on from the games stored, none played twice."""
    from web_tournaments_harness import account, wait_until

    db = str(postgres.url(postgres.new_database()))
    with ExitStack() as stack:
        bases, procs, logs = two_nodes(stack, db, tmp_path)
        client, csrf = account(bases[0])
        # Failed logins are counted for the whole site: five at one process, the sixth refused
        # at the other.
        for _ in range(5):
            wrong = httpx.post(
                bases[0] + "/api/login", json={"name": "ann", "password": "wrong-password"}
            )
            assert wrong.status_code in (401, 403), wrong.text
        sixth = httpx.post(bases[1] + "/api/login", json={"name": "ann", "password": "password-1"})
        assert sixth.status_code == 429, sixth.text
        # A bot connected to one process is invited to a table made at the other: found
        # there, seated, and its connection says hello through its own process.
        from test_web_bots import Account, BotClient, create_table

        cora = Account(bases[0], "cora")
        robo = BotClient(bases[1], cora.make_bot("Robo"))
        robo.connect()
        cora.connect()
        made = create_table(cora)
        cora.send("invite", made, {"seat": 1, "bot": "Robo"}, id="i")
        seated = cora.until("table", id="i")["data"]["seats"][1]
        assert (seated["name"], seated["bot"]) == ("Robo", True)
        assert robo.until("table")["data"]["you"]["seat"] == 1
        robo.close()
        cora.close()
        body = {"game": "setback", "entrants": ["random", "random"], "deals": 400, "seed": 3}
        answer = client.post("/api/tournaments", json=body, headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 201, answer.text
        tid = answer.json()["tournament"]["id"]
        total = answer.json()["tournament"]["total"]
        started = wait_until(client, tid, lambda d: d["done"] > 0 or d["status"] != "running")
        assert started["status"] == "running" and started["done"] < total
        procs[0].kill()  # its tournament's process dies with it (PR_SET_PDEATHSIG)
        procs[0].wait(10)
        other = httpx.Client(base_url=bases[1], timeout=30)
        detail = wait_until(other, tid, lambda d: d["status"] != "running", seconds=240)
        assert detail["status"] == "finished", detail
        assert detail["done"] == total
        assert "its server process died: resumed here" in logs[1].read_text()


def test_a_league_night_whose_server_process_dies_is_played_on_by_another(
    postgres: Any, tmp_path: Path
) -> None:
    """A league night and its people's tables share one lease: the process playing them is
    killed mid-deal; another takes the night up with its tables, the person plays on
    through her own process, and the night is scored once, every deal stored."""
    from test_web_leagues_people import DEALS, TEAMS, night_played_into, play_on, wait_for

    db = str(postgres.url(postgres.new_database()))
    with ExitStack() as stack:
        bases, procs, logs = two_nodes(stack, db, tmp_path)
        # Ann plays into the second deal through the other process; the night's is killed.
        _, ann, lid, fid, rid = night_played_into(bases[0], bases[1], 2)
        procs[0].kill()
        procs[0].wait(10)
        play_on(ann, rid)  # where she is: her process takes the night up with her table
        other = httpx.Client(base_url=bases[1], timeout=30)
        night = wait_for(other, lid, fid, lambda n: n["status"] in ("played", "failed"))
        assert night["status"] == "played", logs[1].read_text()[-2000:]
        assert "its server process died: played on here" in logs[1].read_text()
        with postgres.connect(db.rsplit("/", 1)[1]) as c:
            stored = c.execute(
                "SELECT count(*), count(DISTINCT unit) FROM game WHERE tournament_id = %s",
                (night["tournament"],),
            ).fetchone()
            results = c.execute("SELECT count(*) FROM league_result").fetchone()
        assert stored == (DEALS * 2, DEALS * 2)
        assert results == (len(TEAMS),)
        ann.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_epochs_migration_keeps_every_journal_row_both_ways(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Migration 0009 adds and drops ``web_table.epoch`` in place: on SQLite a copied table
    would take its journal's rows with it (``ON DELETE CASCADE``)."""
    from alembic import command

    from tricktable.db.migrate import alembic_config

    if kind == "sqlite":
        db = str(tmp_path / "web.db")
    else:
        server = request.getfixturevalue("postgres")
        db = str(server.url(server.new_database()))
    store = WebStore.open(db)
    try:
        store.add_table(
            TableRow("t1", None, {"spec": "setback"}, [], "playing", 1, 1, "n", "c"), epoch=3
        )
        store.append_many([("t1", 1, 1, [["deal"]]), ("t1", 2, 1, [["act", 0, 5]])], {"t1": 3})
        config = alembic_config()
        for target in ("0008", "head"):
            with store.engine.begin() as connection:
                config.attributes["connection"] = connection
                (command.downgrade if target == "0008" else command.upgrade)(config, target)
            assert [row.seq for row in store.journal("t1")] == [1, 2], target
        claimed = store.claim_table("t1")
        assert claimed is not None and claimed[1] == 1  # the epoch began again at 0
    finally:
        store.close()


@pytest.mark.parametrize(
    ("redis_url", "db", "said"),
    [
        ("redis://127.0.0.1:1/0", "web.db", "give them one PostgreSQL database too"),
        ("nonsense", "postgresql://u@127.0.0.1:1/x", "--redis 'nonsense': give a URL"),
    ],
)
def test_serve_redis_wants_a_url_and_postgresql_said_in_one_line(
    redis_url: str, db: str, said: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [
            *(sys.executable, "-m", "tricktable", "serve", "--port", "0"),
            *("--redis", redis_url, "--db", db),
        ],
        env={**os.environ, "PYTHONPATH": SRC},
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 2
    assert said in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "web.db").exists()
