"""The websocket of ``tricktable serve`` against a real uvicorn on 127.0.0.1 (a real SQLite
file, then a real PostgreSQL database; the ``websockets`` client): playing, acting exactly
once, refusals, reconnecting, a second tab, chat, clocks and away seats, and bad input of
every kind (docs/protocol-web.md)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from web_harness import Client, my_turn, serving

BOTS = [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def base(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server for the module's tests: on a SQLite file, then on PostgreSQL."""
    if request.param == "sqlite":
        db = str(tmp_path_factory.mktemp("web") / "web.db")
    else:
        server = request.getfixturevalue("postgres")
        db = server.url(server.new_database())
    with serving(db) as url:
        yield url


def new_table(client: Client, **settings: Any) -> str:
    body = {"game": "setback(target=11)", "seats": BOTS, **settings}
    answer = client.post("/api/tables", body)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["table"]["id"])


def sit(base: str, name: str = "Ann", **settings: Any) -> tuple[Client, str]:
    client = Client(base, name)
    table = new_table(client, **settings)
    client.connect()
    client.send("hello", table)
    return client, table


def test_a_person_plays_a_hand_with_bots_every_act_confirmed(base: str) -> None:
    ann, table = sit(base)
    versions = []
    for _ in range(8):
        snap = my_turn(ann)
        act_id = ann.next_id()
        ann.send("act", table, {"action": snap["legal"][0]["text"]}, id=act_id)
        confirm = ann.until("confirm", id=act_id)
        assert confirm["table"] == table
        assert confirm["v"] > snap["version"]
        versions.append(confirm["v"])
    assert versions == sorted(versions)
    events = [e for f in ann.frames if f["type"] == "events" for e in f["data"]["events"]]
    assert [e["version"] for e in events] == sorted(e["version"] for e in events)
    ann.close()


def test_a_confirm_without_a_snapshot_when_the_client_folds_its_events(base: str) -> None:
    ann, table = sit(base)
    snap = my_turn(ann)
    before = len(ann.frames)
    ann.send("act", table, {"action": snap["legal"][0]["action"], "snapshot": False}, id="lite")
    confirm = ann.until("confirm", id="lite")
    assert confirm["data"] == {}
    got = [e for f in ann.frames[before:] if f["type"] == "events" for e in f["data"]["events"]]
    assert got and got[-1]["version"] == confirm["v"]  # its events came first
    ann.close()


def test_an_act_resent_is_confirmed_again_never_applied_twice(base: str) -> None:
    ann, table = sit(base)
    snap = my_turn(ann)
    act_id = ann.next_id()
    ann.send("act", table, {"action": snap["legal"][0]["action"]}, id=act_id)
    first = ann.until("confirm", id=act_id)
    ann.send("act", table, {"action": snap["legal"][0]["action"]}, id=act_id)
    again = ann.until("confirm", id=act_id)
    assert again["v"] >= first["v"]
    record = ann.http.get(f"/api/tables/{table}").json()
    assert record["status"] == "playing"
    ann.close()


def test_refusals_say_why_and_change_nothing(base: str) -> None:
    ann, table = sit(base)
    snap = my_turn(ann)
    version = snap["version"]
    ann.send("act", table, {"action": "play ZZ"}, id="bad-1")
    refused = ann.until("refuse", id="bad-1")
    assert refused["data"]["reason"] and "\n" not in refused["data"]["reason"]
    assert refused["data"]["snapshot"]["version"] == version
    own = set(snap["hand"]["cards"]) if "hand" in snap else set()
    legal = {a["text"] for a in snap["legal"]}
    illegal = next((a for a in ("bid 7", "pass", "bid 2") if a not in legal), "bid 9")
    ann.send("act", table, {"action": illegal}, id="bad-2")
    refused = ann.until("refuse", id="bad-2")
    assert refused["v"] == version
    ann.send("act", table, {"action": ["a list"]}, id="bad-3")
    assert ann.until("refuse", id="bad-3")["v"] == version
    # A watcher acting for a seat: refused, nothing changes.
    bob = Client(base, "Bob")
    bob.connect()
    bob.send("hello", table)
    bob.until("snapshot")
    bob.send("act", table, {"action": snap["legal"][0]["action"]}, id="bob-1")
    refused = bob.until("refuse", id="bob-1")
    assert "no seat" in refused["data"]["reason"]
    assert refused["data"]["snapshot"]["hand"]["cards"] == []
    # Ann still acts.
    ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="good")
    assert ann.until("confirm", id="good")["v"] > version
    del own
    ann.close()
    bob.close()


def test_bad_frames_each_get_one_error_and_the_server_serves_on(base: str) -> None:
    ann, table = sit(base)
    ann.until("snapshot")
    assert ann.ws is not None
    bad: list[str] = [
        "not json",
        "[1, 2]",
        json.dumps({"type": "teleport"}),
        json.dumps({"type": "hello", "table": "no-such-table"}),
        json.dumps({"type": "act", "table": table, "data": {"action": "pass"}}),  # no id
        json.dumps({"type": "hello", "table": table, "data": {"since": "yesterday"}}),
        json.dumps({"type": "ping", "data": "text"}),
        json.dumps({"type": "chat", "table": None, "data": {"text": ""}}),
        "x" * 20_000,
    ]
    for frame in bad:
        ann.ws.send(frame)
        error = ann.until("error")
        assert error["data"]["reason"] and "\n" not in error["data"]["reason"]
    ann.send("ping", id="p1")
    assert ann.until("pong", id="p1")["data"]["time"] > 0
    ann.close()


def test_a_flood_is_refused_then_closed(base: str) -> None:
    ann = Client(base, "Flo")
    ann.connect()
    assert ann.ws is not None
    for _ in range(60):
        ann.ws.send(json.dumps({"type": "ping"}))
    assert ann.until("error")["data"]["code"] == "flood"
    with pytest.raises((ConnectionClosed, TimeoutError)):
        for _ in range(400):
            ann.ws.send(json.dumps({"type": "ping"}))
        while True:
            ann.recv(5)
    ann.close()


def test_a_wrong_origin_and_no_session_are_refused(base: str) -> None:
    ann = Client(base, "Ann")
    ann.connect(origin="http://evil.example")
    frame = ann.recv()
    assert frame["type"] == "error" and "origin" in frame["data"]["reason"]
    with pytest.raises(ConnectionClosed):
        ann.recv(5)
    ann.close()
    stranger = Client(base, "Eve")
    stranger.http.cookies.clear()
    stranger.http.cookies.set("tricktable_session", "forged.cookie.value")
    stranger.connect()
    frame = stranger.recv()
    assert frame["type"] == "error" and "session" in frame["data"]["reason"]
    stranger.close()


def test_reconnecting_with_since_gets_what_was_missed(base: str) -> None:
    ann, table = sit(base)
    snap = my_turn(ann)
    seen = snap["version"]
    assert ann.ws is not None
    ann.ws.close()
    # Ann's turn: nothing moves while she is away; then one act from a new connection.
    ann.connect()
    ann.send("hello", table, {"since": seen})
    first = ann.until("table")
    assert first["data"]["you"]["seat"] == 0
    answer = ann.recv()
    assert answer["type"] in ("events", "snapshot")
    if answer["type"] == "events":
        assert all(e["version"] > seen for e in answer["data"]["events"])
    ann.send("act", table, {"action": snap["legal"][0]["action"]}, id="after")
    assert ann.until("confirm", id="after")["v"] > seen
    ann.close()


def test_a_second_tab_takes_the_seat_over(base: str) -> None:
    ann, table = sit(base)
    snap = my_turn(ann)
    tab = Client.__new__(Client)
    tab.__dict__.update(ann.__dict__)
    tab.frames, tab.ws = [], None
    tab.connect()
    tab.send("hello", table)
    assert tab.until("table")["data"]["you"]["seat"] == 0
    taken = ann.until("error")
    assert taken["data"]["code"] == "taken_over"
    tab.send("act", table, {"action": snap["legal"][0]["action"]}, id="tab-1")
    assert tab.until("confirm", id="tab-1")
    assert tab.ws is not None
    tab.ws.close()
    ann.close()


def test_a_seat_token_moves_the_seat_to_another_device(base: str) -> None:
    ann, table = sit(base)
    token = ann.until("table")["data"]["you"]["seat_token"]
    assert token
    phone = Client(base, "Ann on her phone")
    phone.connect()
    phone.send("hello", table, {"seat_token": "wrong"})
    assert "no seat" in phone.until("error")["data"]["reason"]
    phone.send("hello", table, {"seat_token": token})
    assert phone.until("table")["data"]["you"]["seat"] == 0
    ann.close()
    phone.close()


def test_chat_reaches_the_table_and_watchers_talk_among_themselves(base: str) -> None:
    ann, table = sit(base)
    my_turn(ann)
    bob = Client(base, "Bob")
    bob.connect()
    bob.send("hello", table)
    bob.until("snapshot")
    ann.send("chat", table, {"text": "good luck all"})
    said = ann.until("events")
    assert any(e["kind"] == "chat" for e in said["data"]["events"])
    bob_heard = bob.until("events")
    assert any(e["kind"] == "chat" for e in bob_heard["data"]["events"])
    # A card nobody has seen face up may not be named.
    hand = [c for c in (my_turn_cards(ann) or [])]
    if hand:
        ann.send("chat", table, {"text": f"I hold {hand[0]}"}, id="leak")
        assert "face up" in ann.until("error", id="leak")["data"]["reason"]
    # A watcher's line during the hand goes to watchers only.
    bob.send("chat", table, {"text": "hello from the rail"})
    heard = bob.until("chat")
    assert heard["data"]["watcher"] and heard["data"]["text"] == "hello from the rail"
    ann.send("ping", id="sync")
    before_pong = []
    while True:
        frame = ann.recv()
        if frame["type"] == "pong":
            break
        before_pong.append(frame)
    assert not any(f["type"] == "chat" for f in before_pong)
    ann.close()
    bob.close()


def my_turn_cards(client: Client) -> list[str]:
    snap = client.snapshot or {}
    return list(snap.get("hand", {}).get("cards", []))


def test_a_clock_runs_out_a_bot_plays_the_seat_and_one_click_takes_it_back(base: str) -> None:
    ann, table = sit(base, move_time=1)
    my_turn(ann)
    clock = ann.until("clock")
    assert clock["data"]["seat"] == 0 and clock["data"]["deadline"] > time.time() - 5
    deadline = time.monotonic() + 10
    while True:
        frame = ann.until("table")
        if frame["data"]["seats"][0]["away"]:
            break
        assert time.monotonic() < deadline
    before = ann.version or 0
    ann.until("events")  # the bot plays on for her
    ann.send("take_seat", table, {"seat": 0})
    deadline = time.monotonic() + 10
    while True:
        frame = ann.until("table")
        if not frame["data"]["seats"][0]["away"]:
            break
        assert time.monotonic() < deadline
    assert (ann.version or 0) >= before
    ann.close()


def test_the_lobby_lists_new_tables_and_carries_chat(base: str) -> None:
    ann = Client(base, "Ann")
    ann.connect()
    ann.send("lobby")
    ann.until("lobby")
    ann.send("create", None, {"game": "setback", "seats": [{"kind": "me"}]}, id="c1")
    created = ann.until("created", id="c1")
    tid = created["data"]["table"]["id"]
    assert created["data"]["table"]["status"] == "waiting"
    deadline = time.monotonic() + 10
    while True:
        lobby = ann.until("lobby")
        if any(t["id"] == tid for t in lobby["data"]["tables"]):
            break
        assert time.monotonic() < deadline
    ann.send("chat", None, {"text": "anyone for setback?"})
    assert ann.until("chat")["data"]["text"] == "anyone for setback?"
    # A second person takes an open seat; the others stay open until filled.
    bob = Client(base, "Bob")
    bob.connect()
    bob.send("hello", tid)
    bob.until("snapshot")
    bob.send("take_seat", tid, {"seat": 1})
    deadline = time.monotonic() + 10
    while True:
        info = bob.until("table")["data"]
        if info["you"]["seat"] == 1:
            break
        assert time.monotonic() < deadline
    bob.send("take_seat", tid, {"seat": 0}, id="taken")
    assert "not free" in bob.until("error", id="taken")["data"]["reason"]
    ann.close()
    bob.close()


def test_unknown_tables_and_seats_are_refused(base: str, tmp_path: Path) -> None:
    ann, table = sit(base)
    ann.until("snapshot")
    ann.send("take_seat", table, {"seat": 99}, id="s")
    assert "no seat" in ann.until("error", id="s")["data"]["reason"]
    ann.send("act", "nowhere", {"action": "pass"}, id="n")
    assert "no table" in ann.until("error", id="n")["data"]["reason"]
    ann.close()


def play_to_the_end(client: Client, table: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    n = 0
    while not (client.snapshot or {}).get("over"):
        assert time.monotonic() < deadline, "the match did not end"
        snap = client.snapshot
        if snap is not None and snap["legal"] and snap["version"] == client.version:
            n += 1
            client.send("act", table, {"action": snap["legal"][0]["action"]}, id=f"e{n}")
            client.until("confirm", id=f"e{n}")
        else:
            client.recv(20)


def test_play_again_commits_a_new_seed_and_the_last_match_is_revealed(base: str) -> None:
    ann, table = sit(base, game="setback(target=3)")
    first = ann.until("table")["data"]
    play_to_the_end(ann, table)
    deadline = time.monotonic() + 10
    while True:
        info = ann.until("table")["data"]
        if info["status"] == "over":
            break
        assert time.monotonic() < deadline
    assert info["commitment"] == first["commitment"] and info["seed"] is not None
    final = ann.snapshot
    while final is None or not final["over"]:
        ann.recv()
        final = ann.snapshot
    # The end: all face up (EVERYONE), the viewer still Ann's seat.
    assert final["everyone"] is True and final["viewer"] == 0 and final["legal"] == []
    revealed = info["seed"]
    ann.send("again", table)
    while True:
        info = ann.until("table")["data"]
        if info["match"] == 2:
            break
    assert info["status"] == "playing" and info["seed"] is None
    assert info["commitment"] != first["commitment"]
    record = ann.http.get(f"/api/tables/{table}/record?match=1").json()
    assert str(record["seed"]) == revealed
    assert record["fair"]["commitment"] == first["commitment"]
    assert ann.http.get(f"/api/tables/{table}/record").status_code == 409
    ann.close()


def test_a_table_closes_when_its_last_person_leaves_if_its_creator_chose_so(base: str) -> None:
    ann, table = sit(base, when_empty="close")
    my_turn(ann)
    ann.send("leave_seat", table)
    deadline = time.monotonic() + 10
    while True:
        info = ann.until("table")["data"]
        if info["status"] == "closed":
            break
        assert time.monotonic() < deadline
    ann.send("act", table, {"action": "pass"}, id="late")
    assert "no table" in ann.until("error", id="late")["data"]["reason"]
    ann.close()


def test_a_hint_on_your_turn(base: str) -> None:
    ann, table = sit(base)
    snap = my_turn(ann)
    ann.send("hint", table, id="h")
    hint = ann.until("hint", id="h", timeout=30)["data"]
    assert hint["action"] in [a["action"] for a in snap["legal"]]
    ann.close()


def test_acting_out_of_turn_is_refused_and_changes_nothing(base: str) -> None:
    ann = Client(base, "Ann")
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
    table = new_table(ann, seats=seats)
    bob = Client(base, "Bob")
    for client in (ann, bob):
        client.connect()
        client.send("hello", table)
        client.until("snapshot")
    bob.send("take_seat", table, {"seat": 1})
    # Whoever is to act first, the other one tries to act: refused with the engine's reason.
    deadline = time.monotonic() + 20
    while True:
        for client in (ann, bob):
            snap = client.snapshot
            if snap is not None and snap["legal"] and snap["version"] == client.version:
                break
        else:
            for client in (ann, bob):
                with contextlib.suppress(TimeoutError):
                    client.recv(0.05)
            assert time.monotonic() < deadline
            continue
        break
    waiting = bob if client is ann else ann
    waiting.send("act", table, {"action": snap["legal"][0]["action"]}, id="early")
    refused = waiting.until("refuse", id="early")
    assert refused["data"]["reason"] and refused["data"]["snapshot"]["legal"] == []
    client.send("act", table, {"action": snap["legal"][0]["action"]}, id="on-turn")
    assert client.until("confirm", id="on-turn")["v"] == snap["version"] + 1
    ann.close()
    bob.close()


def test_people_waiting_at_a_table_chat(base: str) -> None:
    ann = Client(base, "Ann")
    table = new_table(ann, seats=[{"kind": "me"}])
    ann.connect()
    ann.send("hello", table)
    ann.until("snapshot")
    ann.send("chat", table, {"text": "waiting for three more"})
    heard = ann.until("chat")["data"]
    assert heard == {"from": "Ann", "seat": 0, "text": "waiting for three more", "watcher": False}
    ann.close()


def test_a_watcher_gets_a_fresh_snapshot_after_each_batch_of_events(base: str) -> None:
    # A watcher has no turn that would bring it a snapshot: after each batch of events it is
    # sent one at that version, so its contract, tally and scores move with the play.
    ann, table = sit(base)
    bob = Client(base, "Bob")
    bob.connect()
    bob.send("hello", table)
    bob.until("snapshot")
    snap = my_turn(ann)
    ann.send("act", table, {"action": snap["legal"][0]["text"]}, id=ann.next_id())
    batch = bob.until("events")
    fresh = bob.until("snapshot")
    assert fresh["v"] == batch["v"]
    assert fresh["data"]["viewer"] == 8 and fresh["data"]["hand"]["cards"] == []
    assert fresh["data"]["legal"] == []
    bob.close()
    ann.close()
