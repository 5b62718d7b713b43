"""The arena (issue 28 item 3) on a real server: bots alone play while watchers see every hand.

A table where no person plays shows its watchers every hand face up during the match (one
case of the one visibility rule: ``Table.open_hands``); a table with a person's seat still
shows them none. ``POST /api/arena`` seats web services by URL (through the endpoint guard:
loopback only with ``allow_local_bots``), accounts' bots by name, levels and characters; a
refused or failing endpoint is substituted (Spades: its side forfeits) and the fault shown.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_http_bots import Generic, Server
from tricktable.engine.events import SPECTATOR
from tricktable.web.hub import HubLimits
from web_harness import Client, serving

#: every socket.connect's address while a test watches (an audit hook cannot be removed)
_WATCHING: list[list[Any]] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "socket.connect" and _WATCHING:
        _WATCHING[-1].append(args[1])


sys.addaudithook(_audit)

#: a short match: two hands at most at a table of bots alone
LIMITS = {"hand_cap_bots": 2}


@pytest.fixture
def bot_servers() -> Iterator[list[Server]]:
    servers = [Server(Generic), Server(Generic)]
    yield servers
    for server in servers:
        server.close()


def watch(client: Client, table: str, seconds: float = 60) -> list[dict[str, Any]]:
    """Every snapshot ``client`` gets watching ``table`` until the match is over."""
    client.connect()
    client.send("hello", table)
    deadline = time.monotonic() + seconds
    while not (client.snapshot or {}).get("over"):
        assert time.monotonic() < deadline, "the match did not end"
        client.recv(max(deadline - time.monotonic(), 0.01))
    return [f["data"] for f in client.frames if f["type"] == "snapshot"]


def record_of(client: Client, table: str) -> dict[str, Any]:
    """The table's record, once its match is over (asked again until then)."""
    deadline = time.monotonic() + 60
    while True:
        answer = client.http.get(f"/api/tables/{table}/record")
        if answer.status_code != 409 or time.monotonic() > deadline:
            assert answer.status_code == 200, answer.text
            return dict(answer.json())
        time.sleep(0.05)


def faults_seen(client: Client) -> list[dict[str, Any]]:
    return [
        event["data"]
        for frame in client.frames
        if frame["type"] == "events"
        for event in frame["data"]["events"]
        if event["kind"] == "fault"
    ]


def open_snapshots(snaps: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """The snapshots taken during the match that show all ``n`` hands face up."""
    return [
        s
        for s in snaps
        if not s["over"]
        and s.get("everyone")
        and s["hand"] is not None
        and len(s["hand"]["shown"]) == n
        and all(s["hand"]["shown"][str(k)] for k in range(n))
    ]


def test_a_bots_only_table_shows_its_watchers_every_hand(tmp_path: Path) -> None:
    with serving(tmp_path / "web.db", pace=0.02, hub_limits=HubLimits(**LIMITS)) as base:
        ann, eve = Client(base, "Ann"), Client(base, "Eve")
        bots = [{"kind": "bot", "level": "beginner"}] * 4
        made = ann.post("/api/tables", {"game": "setback(target=5)", "seats": bots})
        assert made.status_code == 200, made.text
        snaps = watch(eve, made.json()["table"]["id"])
        assert open_snapshots(snaps, 4), "no live snapshot showed every hand"
        assert all(s["viewer"] == SPECTATOR for s in snaps)  # still a watcher
        assert eve.you.get("seat") is None
        # A table where a person sits: the watcher sees no hand face up until the end.
        mine = ann.post(
            "/api/tables", {"game": "setback(target=5)", "seats": [{"kind": "me"}, *bots[:3]]}
        )
        assert mine.status_code == 200, mine.text
        second = mine.json()["table"]["id"]
        eve.send("hello", second)
        watched = eve.until("snapshot", table=second)["data"]
        assert not watched.get("everyone")
        assert watched["hand"] is None or watched["hand"]["shown"] == {}
        ann.close()
        eve.close()


def test_the_arena_plays_loopback_endpoints_where_local_bots_are_allowed(
    tmp_path: Path, bot_servers: list[Server]
) -> None:
    limits = HubLimits(allow_local_bots=True, **LIMITS)
    with serving(tmp_path / "web.db", pace=0.02, hub_limits=limits) as base:
        ann, eve = Client(base, "Ann"), Client(base, "Eve")
        seats = [
            {"endpoint": bot_servers[0].url},
            {"level": "beginner"},
            {"endpoint": bot_servers[1].url + "secret-path?key=hush"},
            {"character": "Edna"},
        ]
        made = ann.post("/api/arena", {"game": "setback", "options": {"target": 5}, "seats": seats})
        assert made.status_code == 200, made.text
        answer = made.json()
        assert answer["url"] == f"/t/{answer['table']}"
        names = [s["name"] for s in answer["info"]["seats"]]
        port = bot_servers[1].url.rsplit(":", 1)[1].split("/")[0]
        assert names[2] == f"http://127.0.0.1:{port}/…"  # the path and query (a secret) not shown
        assert "hush" not in made.text
        snaps = watch(eve, answer["table"])
        assert open_snapshots(snaps, 4)
        assert faults_seen(eve) == []
        for server in bot_servers:
            events = [path.split("?")[0].rsplit("/", 1)[1] for path, _ in server.requests]
            assert events[0] == "start" and "play" in events
        ann.close()
        eve.close()


def test_the_arena_refuses_loopback_endpoints_before_any_connection(
    tmp_path: Path, bot_servers: list[Server]
) -> None:
    dialled: list[Any] = []
    _WATCHING.append(dialled)
    try:
        with serving(tmp_path / "web.db", pace=0.02, hub_limits=HubLimits(**LIMITS)) as base:
            ann, eve = Client(base, "Ann"), Client(base, "Eve")
            seats = [{"endpoint": s.url} for s in bot_servers]
            made = ann.post("/api/arena", {"game": "setback(target=5)", "seats": seats})
            assert made.status_code == 200, made.text
            snaps = watch(eve, made.json()["table"])
            faults = faults_seen(eve)
            # Spades' rule: a seat that fails forfeits its side's match (seed 004).
            spades = ann.post("/api/arena", {"game": "spades", "seats": seats[:1]})
            assert spades.status_code == 200, spades.text
            eve.snapshot = None
            watch(eve, spades.json()["table"])
            spades_faults = faults_seen(eve)[len(faults) :]
            # The journal keeps the referee's faults: each table's record lists them all.
            records = [record_of(ann, made_.json()["table"]) for made_ in (made, spades)]
            ann.close()
            eve.close()
    finally:
        _WATCHING.pop()
    assert open_snapshots(snaps, 4) or snaps[-1]["over"]
    # Eve says hello once the match has begun: a seat may have faulted before her first frame
    # (the table's record is the whole truth; these are what she was shown)
    seen = {(f["seat"], f["fault"], f["penalty"]) for f in faults}
    assert seen and seen <= {(0, "closed", "substitute"), (1, "closed", "substitute")}
    shown = {(f["seat"], f["fault"], f["penalty"]) for f in spades_faults}
    assert shown <= {(0, "closed", "forfeit")}
    setback, spades_record = (
        {(f["seat"], f["kind"], f["penalty"]) for f in r["faults"]} for r in records
    )
    assert setback == {(0, "closed", "substitute"), (1, "closed", "substitute")}
    assert spades_record == {(0, "closed", "forfeit")}
    assert all("refused" in f["detail"] or "local" in f["detail"] for f in records[1]["faults"])
    for server in bot_servers:
        assert server.requests == []
        port = int(server.url.rsplit(":", 1)[1].strip("/"))
        assert not any(isinstance(a, tuple) and a[1] == port for a in dialled)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "setback", "seats": [{"endpoint": "http://"}]}, "seat 0: bot endpoint"),
        ({"game": "setback", "seats": [{"endpoint": "ftp://bot.example/"}]}, "scheme is 'ftp'"),
        ({"seats": []}, "game is a game's"),
        ({"game": "no-such-game"}, "there is no game"),
        ({"game": "setback", "seats": [None] * 5}, "4 seats, not 5"),
        ({"game": "setback", "seats": [{"bot": "Nobody"}]}, "no bot named 'Nobody'"),
        ({"game": "setback", "seats": [{"level": "grandmaster"}]}, "level is beginner"),
        ({"game": "setback", "seats": [{"character": "Zed"}]}, "a character is one of"),
        ({"game": "setback", "seats": "four"}, "seats is a list"),
    ],
)
def test_bad_arena_requests_are_one_line_and_make_no_table(
    tmp_path: Path, body: dict[str, Any], words: str
) -> None:
    with serving(tmp_path / "web.db") as base:
        ann = Client(base, "Ann")
        answer = ann.post("/api/arena", body)
        assert answer.status_code == 400, answer.text
        reason = answer.json()["error"]
        assert words in reason and "\n" not in reason
        assert ann.http.get("/api/tables").json()["tables"] == []
        ann.close()


def test_a_person_cannot_seat_an_endpoint_at_a_table(tmp_path: Path) -> None:
    with serving(tmp_path / "web.db", hub_limits=HubLimits(allow_local_bots=True)) as base:
        ann = Client(base, "Ann")
        url = "endpoint:http://127.0.0.1:9/"
        kind = ann.post("/api/tables", {"game": "setback", "seats": [{"kind": "endpoint"}]})
        assert kind.status_code == 400 and "kind is me, open, bot or character" in kind.text
        spec = ann.post(
            "/api/tables",
            {"game": "setback", "seats": [{"kind": "me"}, {"kind": "bot", "spec": url}]},
        )
        assert spec.status_code == 200, spec.text  # the spec is not read: a level's bot sits
        seat = spec.json()["table"]["seats"][1]
        assert seat["name"] == "Seasoned bot"
        ann.close()
