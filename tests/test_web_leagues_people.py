"""People in league teams (league/service.py, web/hub.py, web/room.py): a night where an
account's person sits is played at a table of the hub, their seat theirs alone, dealt the
night's deals — the cards every other table gets — and scored with the bots' tables once
every table has ended. Real parts: uvicorn on 127.0.0.1, a SQLite file, the websocket."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx

from tricktable.web.hub import HubLimits
from web_harness import Client, first_act, journal_rows, serving
from web_tournaments_harness import account

GAME = "setback"
DEALS = 3
#: the person's team first: round_robin(4)'s night 1 seats it at table 0, side 0 (seat 0)
TEAMS = [
    ("People", ["user:ann", "heuristic"]),
    ("Bids", ["random"]),
    ("Clubs", ["heuristic"]),
    ("Deuces", ["random", "heuristic"]),
]


class Person(Client):
    """An account's person (not a guest): signed up, with a websocket."""

    def __init__(self, base: str, name: str) -> None:
        super().__init__(base, name="guest")  # the harness's client, then its own account
        self.http.cookies.clear()
        answer = self.http.post("/api/signup", json={"name": name, "password": "password-1"})
        answer.raise_for_status()
        self.user = answer.json()["user"]
        self.csrf = answer.json()["csrf"]


def post(client: httpx.Client, csrf: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return client.post(path, json=body, headers={"X-CSRF-Token": csrf})


def league(client: httpx.Client, csrf: str) -> tuple[int, int]:
    """A league of the teams, scheduled; its id and night 1's fixture."""
    made = post(client, csrf, "/api/leagues", {"name": "Tuesdays", "game": GAME, "deals": DEALS})
    assert made.status_code == 201, made.text
    lid = made.json()["league"]
    for name, members in TEAMS:
        added = post(client, csrf, f"/api/leagues/{lid}/teams", {"name": name, "members": members})
        assert added.status_code == 201, added.text
    assert post(client, csrf, f"/api/leagues/{lid}/schedule", {}).status_code == 201
    nights = client.get(f"/api/leagues/{lid}").json()["divisions"][0]["nights"]
    return lid, nights[0]["id"]


def night_of(client: httpx.Client, lid: int, fid: int) -> dict[str, Any]:
    detail = client.get(f"/api/leagues/{lid}").json()
    return next(n for n in detail["divisions"][0]["nights"] if n["id"] == fid)


def wait_for(client: httpx.Client, lid: int, fid: int, done: Any, seconds: float = 120) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        night = night_of(client, lid, fid)
        if done(night):
            return night
        assert time.monotonic() < deadline, night
        time.sleep(0.1)


def games(db: Path, tid: int) -> list[tuple[int, int, list[int], dict[str, Any], dict[str, Any]]]:
    with sqlite3.connect(db) as c:
        rows = c.execute(
            "SELECT round_no, table_no, seats, record, result FROM game WHERE tournament_id = ?",
            (tid,),
        ).fetchall()
    return [(d, t, json.loads(s), json.loads(r), json.loads(x)) for d, t, s, r, x in rows]


def check_night(client: httpx.Client, db: Path, lid: int, night: dict[str, Any]) -> None:
    """Every deal dealt alike at both tables; the person's team at one seat all night; the
    standings an independent computation of the stored games."""
    from test_web_leagues import independent

    tid = night["tournament"]
    stored = games(db, tid)
    assert len(stored) == DEALS * 2
    with sqlite3.connect(db) as c:
        entrants = [
            i
            for (i,) in c.execute(
                "SELECT id FROM entrant WHERE tournament_id = ? ORDER BY id", (tid,)
            )
        ]
    people = entrants[0]
    for deal in range(DEALS):
        tables = sorted((t, r) for d, t, _, r, _ in stored if d == deal)
        hands = [r["hands"][0] for _, r in tables]
        assert len(hands) == 2
        assert hands[0]["deal"] == hands[1]["deal"], f"deal {deal}: the tables got other cards"
        assert hands[0]["dealer"] == hands[1]["dealer"]
    for _, table, seats, record, _ in stored:
        if table == 0:  # the person's table: their team at seats 0 and 2 every deal
            assert seats[0] == seats[2] == people
            assert record["players"][0] == "user:ann"
            assert record["fair"]["commitment"]
    detail = client.get(f"/api/leagues/{lid}").json()
    mine = {r["team"]: r for r in detail["divisions"][0]["standings"]}
    for name, (total, _) in independent(db, tid).items():
        assert abs(mine[name]["total"] - total) < 1e-9, (name, mine[name], total)
        assert mine[name]["nights"] == 1


def play_table(ann: Person, room: str) -> list[dict[str, Any]]:
    """Ann plays her seat at ``room`` (the first legal choice each turn) until the table is
    over; every frame she was sent."""
    ann.connect()
    ann.send("hello", room, {})
    return play_on(ann, room)


def play_into(ann: Person, room: str, deal: int) -> None:
    """Ann, said hello to ``room``, plays her seat until the night's deal ``deal`` begins."""
    while not any(f["type"] == "table" and f["data"]["match"] == deal for f in ann.frames):
        frame = ann.recv(30)
        snap = ann.snapshot
        if frame["type"] == "snapshot" and snap and snap.get("decision"):
            ann.send("act", room, first_act(snap), id=ann.next_id())


def night_played_into(
    owner_base: str, ann_base: str, deal: int
) -> tuple[httpx.Client, Person, int, int, str]:
    """A league of :data:`TEAMS` made by its owner at ``owner_base``, its first night started;
    Ann, an account at ``ann_base``, plays her table into deal ``deal``. The owner's client,
    Ann, the league, the night and Ann's table."""
    owner, csrf = account(owner_base, "owner")
    ann = Person(ann_base, "ann")
    lid, fid = league(owner, csrf)
    assert post(owner, csrf, f"/api/leagues/{lid}/nights/{fid}", {}).status_code == 202
    [room] = wait_for(owner, lid, fid, lambda n: n["rooms"])["rooms"]
    rid = room["url"].rsplit("/", 1)[1]
    ann.connect()
    ann.send("hello", rid, {})
    play_into(ann, rid, deal)
    return owner, ann, lid, fid, rid


def play_on(ann: Person, room: str) -> list[dict[str, Any]]:
    """Ann, said hello to ``room``, plays her seat until the table is over; every frame she
    was sent."""
    seen = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        frame = ann.recv(30)
        if frame["type"] == "table" and frame["data"]["status"] == "over":
            break
        snap = ann.snapshot
        if (
            frame["type"] in ("snapshot", "confirm", "refuse")
            and snap is not None
            and snap.get("decision")
            and snap["version"] == ann.version
            and ann.version != seen
        ):
            seen = ann.version
            ann.send("act", room, first_act(snap), id=ann.next_id())
    return ann.frames


def test_a_person_plays_a_league_night(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with serving(db) as base:
        owner, csrf = account(base, "owner")
        ann = Person(base, "ann")
        # An account that does not exist is refused in one line, and nothing is stored.
        made = post(owner, csrf, "/api/leagues", {"name": "Probe", "game": GAME, "deals": 1})
        probe = made.json()["league"]
        no = post(
            owner,
            csrf,
            f"/api/leagues/{probe}/teams",
            {"name": "X", "members": ["user:zed", "heuristic"]},
        )
        assert no.status_code == 400 and "no account named 'zed'" in no.json()["error"]
        alone = post(
            owner, csrf, f"/api/leagues/{probe}/teams", {"name": "X", "members": ["user:ann"]}
        )
        assert alone.status_code == 400 and "name a partner" in alone.json()["error"]
        assert owner.get(f"/api/leagues/{probe}").json()["divisions"][0]["teams"] == []
        # A person plays for one team of a division: one table a night.
        pair = {"name": "X", "members": ["user:Ann", "heuristic"]}
        assert post(owner, csrf, f"/api/leagues/{probe}/teams", pair).status_code == 201
        again = {"name": "Y", "members": ["random", "user:ann"]}
        twice = post(owner, csrf, f"/api/leagues/{probe}/teams", again)
        assert twice.status_code == 409 and "ann plays for X" in twice.json()["error"]
        teams = owner.get(f"/api/leagues/{probe}").json()["divisions"][0]["teams"]
        assert [t["members"] for t in teams] == [["user:ann", "heuristic"]]  # her spelling

        lid, fid = league(owner, csrf)
        assert post(owner, csrf, f"/api/leagues/{lid}/nights/{fid}", {}).status_code == 202
        night = wait_for(owner, lid, fid, lambda n: n["rooms"])
        [room] = night["rooms"]
        assert room["table"] == 0 and room["people"] == ["ann"]
        assert room["deal"] == 1 and not room["over"]
        rid = room["url"].rsplit("/", 1)[1]
        # The lobby lists it; nobody but its seats watches it, nor reads its record, yet.
        assert rid in {t["id"] for t in httpx.get(base + "/api/tables").json()["tables"]}
        assert owner.get(f"/api/tables/{rid}/record").status_code == 409
        watcher = Client(base, "Kib")
        watcher.connect()
        watcher.send("hello", rid, {})
        refused = watcher.until("error")
        assert "watched once the night is scored" in refused["data"]["reason"]
        watcher.close()

        frames = play_table(ann, rid)
        night = wait_for(owner, lid, fid, lambda n: n["status"] in ("played", "failed"))
        assert night["status"] == "played"
        check_night(owner, db, lid, night)
        # Her page counts the night's deals she played: her seat's label is her account's.
        from test_profiles_web import page_of

        mine = page_of(base, "ann", DEALS)
        assert mine["record"]["matches"] == DEALS, mine["record"]

        # Nothing leaked: every snapshot Ann had shows her own cards alone — those the
        # night's record says her seat was dealt in the deal then played (each deal is a
        # match of the table: its ``table`` message says which).
        mine = {
            d: set(r["hands"][0]["deal"][0])
            for d, t, _, r, _ in games(db, night["tournament"])
            if t == 0
        }
        match, checked = 1, 0
        for frame in frames:
            if frame["type"] == "table":
                match = frame["data"]["match"]
                assert frame["data"]["seed"] is None  # withheld while the night plays
                continue
            snap = frame["data"] if frame["type"] == "snapshot" else None
            if frame["type"] in ("confirm", "refuse"):
                snap = frame["data"].get("snapshot")
            if not snap:
                continue
            assert snap["viewer"] == 0 and not snap.get("everyone")
            assert all("cards" not in seat for seat in snap["seats"])
            hand = snap.get("hand") or {}
            assert set(hand.get("cards") or []) <= mine[match - 1], (match, hand)
            checked += bool(hand.get("cards"))
        assert checked >= DEALS
        # She played her seat herself (her acts carry her ids), at every deal.
        acts = [s for _, steps in journal_rows(db, rid) for s in steps if s[0] == "act"]
        assert len([s for s in acts if len(s) > 3 and s[1] == 0]) >= DEALS
        # Scored: the table is open to all now.
        assert owner.get(f"/api/tables/{rid}/record?match=1").status_code == 200
        ann.close()


def test_a_no_show_never_stops_a_night(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    limits = HubLimits(league_move_time=1.0)
    with serving(db, hub_limits=limits) as base:
        owner, csrf = account(base, "owner")
        Person(base, "ann").close()  # signs up, never comes
        lid, fid = league(owner, csrf)
        assert post(owner, csrf, f"/api/leagues/{lid}/nights/{fid}", {}).status_code == 202
        night = wait_for(owner, lid, fid, lambda n: n["status"] in ("played", "failed"))
        assert night["status"] == "played"
        check_night(owner, db, lid, night)
        info = httpx.get(base + night["rooms"][0]["url"].replace("/t/", "/api/tables/")).json()
        assert info["status"] == "over" and info["seats"][0]["away"]
        assert info["seed"] is not None  # shown once the night is scored


class Returning(Person):
    """Ann again, on a server started afresh: signed in to her account."""

    def __init__(self, base: str, name: str) -> None:
        Client.__init__(self, base, name="guest")
        self.http.cookies.clear()
        answer = self.http.post("/api/login", json={"name": name, "password": "password-1"})
        answer.raise_for_status()
        self.user = answer.json()["user"]
        self.csrf = answer.json()["csrf"]


def test_a_night_killed_mid_deal_plays_on_and_counts_once(tmp_path: Path) -> None:
    from web_harness import free_port, server_process

    db = tmp_path / "web.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with server_process(db, port):
        # Ann plays into the second deal, then the server is killed (SIGKILL) mid-deal.
        _, ann, lid, fid, rid = night_played_into(base, base, 2)
        ann.close()
    with server_process(db, port):
        ann = Returning(base, "ann")
        play_table(ann, rid)  # the table came back from its journal: she plays it out
        owner = httpx.Client(base_url=base, timeout=30)
        night = wait_for(owner, lid, fid, lambda n: n["status"] in ("played", "failed"))
        assert night["status"] == "played"
        check_night(owner, db, lid, night)
        ann.close()
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT count(*) FROM league_result").fetchone() == (len(TEAMS),)


def sign(page: Any, how: str, name: str) -> None:
    """Sign ``page``'s context up (or in) as ``name``, then reload."""
    status = page.evaluate(
        """async ([how, name]) => (await fetch('/api/' + how, {method: 'POST',
             headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({name, password: 'password-1'})})).status""",
        [how, name],
    )
    assert status == 200
    page.reload()


def test_the_page_adds_a_person_and_shows_them_their_table(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with serving(db, hub_limits=HubLimits(league_move_time=8.0)) as base:
        Person(base, "ann").close()
        owner = browser.new_context().new_page()
        errors: list[str] = []
        owner.on("pageerror", lambda exc: errors.append(str(exc)))
        owner.goto(base + "/leagues")
        sign(owner, "signup", "owner")
        owner.locator("form#create").wait_for()
        owner.fill("#name", "Fridays")
        owner.select_option("#game", GAME)
        owner.fill("#deals", "1")
        owner.click("form#create button[type=submit]")
        owner.locator("form#team").wait_for()
        # A person by the form: their account's name, a bot for their partner.
        owner.fill("#team-name", "People")
        owner.fill("#team-person", "ann")
        owner.select_option("#member-1", "heuristic")
        owner.click("form#team button[type=submit]")
        owner.locator("p.quiet", has_text="People (user:ann + heuristic)").wait_for()
        for name, members in TEAMS[1:]:
            owner.fill("#team-name", name)
            owner.select_option("#member-1", members[0])
            owner.click("form#team button[type=submit]")
            owner.locator("p.quiet", has_text=f"{name} (").wait_for()
        owner.click("form#schedule button[type=submit]")
        owner.locator("li[data-night='1'] button.play").click()
        owner.locator("li[data-night='1'][data-status=playing]").wait_for()
        assert owner.locator("li[data-night='1'] a.your-table").count() == 0  # not the owner's

        ann = browser.new_context().new_page()
        ann.on("pageerror", lambda exc: errors.append(str(exc)))
        ann.goto(base + "/leagues/1")
        sign(ann, "login", "ann")
        ann.locator("li[data-night='1'] a.your-table").click()
        ann.wait_for_url("**/t/*")
        # She sits at her reserved seat; she plays nothing, so the away rule ends her night.
        owner.locator("li[data-night='1'][data-status=played]").wait_for(timeout=60_000)
        link = owner.locator("li[data-night='1'] a.room")
        assert link.inner_text() == "table 1 (ann)"
        assert errors == []


def test_a_nights_tables_play_in_step_deal_by_deal(tmp_path: Path) -> None:
    """Two people at two tables of one night: no table begins a deal before every table has
    played the one before (a person who has seen a deal cannot tell one still to play it).
    Ann plays at once; Bea never comes, so her table waits out her clock before a bot takes
    her seat — without the step, Ann's table would be deals ahead."""
    db = tmp_path / "web.db"
    teams = [
        ("People", ["user:ann", "heuristic"]),
        ("Bees", ["user:bea", "heuristic"]),
        ("Clubs", ["heuristic"]),
        ("Deuces", ["random", "heuristic"]),
    ]
    with serving(db, hub_limits=HubLimits(league_move_time=1.5)) as base:
        owner, csrf = account(base, "owner")
        ann = Person(base, "ann")
        Person(base, "bea").close()  # signs up, never comes
        made = post(owner, csrf, "/api/leagues", {"name": "Step", "game": GAME, "deals": DEALS})
        lid = made.json()["league"]
        for name, members in teams:
            added = post(
                owner, csrf, f"/api/leagues/{lid}/teams", {"name": name, "members": members}
            )
            assert added.status_code == 201, added.text
        assert post(owner, csrf, f"/api/leagues/{lid}/schedule", {}).status_code == 201
        fid = owner.get(f"/api/leagues/{lid}").json()["divisions"][0]["nights"][0]["id"]
        assert post(owner, csrf, f"/api/leagues/{lid}/nights/{fid}", {}).status_code == 202
        night = wait_for(owner, lid, fid, lambda n: len(n["rooms"]) == 2)
        mine = next(r for r in night["rooms"] if r["people"] == ["ann"])
        play_table(ann, mine["url"].rsplit("/", 1)[1])
        night = wait_for(owner, lid, fid, lambda n: n["status"] in ("played", "failed"))
        assert night["status"] == "played"
        check_night(owner, db, lid, night)
        rooms = [r["url"].rsplit("/", 1)[1] for r in night["rooms"]]
        ann.close()
    with sqlite3.connect(db) as c:
        rows = {
            room: c.execute(
                "SELECT match_no, at FROM web_journal WHERE table_id = ? ORDER BY seq", (room,)
            ).fetchall()
            for room in rooms
        }
    for deal in range(2, DEALS + 1):
        began = min(at for room in rooms for m, at in rows[room] if m == deal)
        ended = max(at for room in rooms for m, at in rows[room] if m == deal - 1)
        assert began >= ended, f"deal {deal} began at one table before deal {deal - 1} ended"
