"""A league's season on a real server (web/leagues.py, league/service.py): closed only once
every night is played, with promotion and relegation into season 2; nights the server plays by
itself when due; a night played on after the server is killed, and scored once."""

from __future__ import annotations

import signal
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from web_harness import free_port, server_process, serving, web_db

__all__ = ["web_db"]  # the fixture, a SQLite file then a PostgreSQL database
from web_tournaments_harness import account

FOUR = [("Aces", ["heuristic"]), ("Bids", ["random"]), ("Clubs", ["random"]), ("Deuces", ["edna"])]


def post(client: httpx.Client, csrf: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return client.post(path, json=body, headers={"X-CSRF-Token": csrf})


def league(
    client: httpx.Client, csrf: str, name: str, deals: int, divisions: list[list[str]]
) -> int:
    """A new league with ``divisions`` of bot teams (each team one member); its id."""
    made = post(
        client,
        csrf,
        "/api/leagues",
        {"name": name, "game": "spades", "deals": deals, "divisions": len(divisions)},
    )
    assert made.status_code == 201, made.text
    lid: int = made.json()["league"]
    for level, teams in enumerate(divisions, 1):
        for i, team in enumerate(teams):
            body = {"division": level, "name": team, "members": [FOUR[i % 4][1][0]]}
            answer = post(client, csrf, f"/api/leagues/{lid}/teams", body)
            assert answer.status_code == 201, answer.text
    return lid


def until(client: httpx.Client, lid: int, done: Any, seconds: float = 120) -> dict[str, Any]:
    """Poll league ``lid`` until ``done(detail)`` (a deadline only for a broken server)."""
    deadline = time.monotonic() + seconds
    while True:
        detail: dict[str, Any] = client.get(f"/api/leagues/{lid}").json()
        if done(detail):
            return detail
        if time.monotonic() > deadline:
            raise TimeoutError(f"league {lid}: {detail}")
        time.sleep(0.05)


def statuses(detail: dict[str, Any]) -> list[str]:
    return [n["status"] for d in detail["divisions"] for n in d["nights"]]


def test_a_season_closes_once_played_and_moves_the_edges(web_db: str) -> None:
    with serving(web_db) as base:
        client, csrf = account(base)
        top, low = ["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"]
        lid = league(client, csrf, "Winter", 1, [top, low])
        close = f"/api/leagues/{lid}/close"
        refused = post(client, csrf, close, {})
        assert refused.status_code == 409 and "not scheduled" in refused.json()["error"]
        assert post(client, csrf, f"/api/leagues/{lid}/schedule", {}).json() == {"nights": 6}
        refused = post(client, csrf, close, {})
        assert refused.status_code == 409 and "6 scheduled" in refused.json()["error"]
        nights = [
            n["id"]
            for d in client.get(f"/api/leagues/{lid}").json()["divisions"]
            for n in d["nights"]
        ]
        for fid in nights:
            started = post(client, csrf, f"/api/leagues/{lid}/nights/{fid}", {})
            assert started.status_code == 202, started.text
        played = until(client, lid, lambda d: "playing" not in statuses(d))
        assert statuses(played) == ["played"] * 6
        finals = [[row["team"] for row in d["standings"]] for d in played["divisions"]]

        assert post(client, csrf, close, {"moves": 5}).status_code == 400  # too many: kept
        assert post(client, csrf, close, {"moves": "1"}).status_code == 400
        other, other_csrf = account(base, "bob")
        assert post(other, other_csrf, close, {}).status_code == 409
        assert client.get(f"/api/leagues/{lid}").json()["season"]["status"] == "scheduled"

        answer = post(client, csrf, close, {"moves": 1})
        assert answer.status_code == 201, answer.text
        moved = [finals[0][:3] + finals[1][:1], finals[0][3:] + finals[1][1:]]
        assert answer.json() == {"closed": 1, "season": 2, "finals": finals, "divisions": moved}
        now = client.get(f"/api/leagues/{lid}").json()
        assert now["season"] == {"number": 2, "status": "open"}
        assert [s["status"] for s in now["seasons"]] == ["closed", "open"]
        assert [[t["name"] for t in d["teams"]] for d in now["divisions"]] == moved
        assert all(row["nights"] == 0 for d in now["divisions"] for row in d["standings"])
        before = client.get(f"/api/leagues/{lid}?season=1").json()
        assert before["season"]["status"] == "closed"
        assert [[r["team"] for r in d["standings"]] for d in before["divisions"]] == finals
        assert client.get(f"/api/leagues/{lid}?season=9").status_code == 404
        assert client.get(f"/api/leagues/{lid}?season=x").status_code == 400
        again = post(client, csrf, close, {})
        assert again.status_code == 409 and "\n" not in again.text
        # season 2 is a league's season like the first: scheduled and played the same way
        assert post(client, csrf, f"/api/leagues/{lid}/schedule", {}).json() == {"nights": 6}


def test_the_server_plays_nights_when_due(web_db: str) -> None:
    with serving(web_db) as base:
        client, csrf = account(base)
        lid = league(client, csrf, "Clockwork", 1, [[t for t, _ in FOUR]])
        path = f"/api/leagues/{lid}/schedule"
        for bad in (
            {"every": 2},
            {"start": "2026-12-02T20:00:00"},
            {"start": "soon", "every": 2},
            {"start": "2030-01-01T00:00:00Z", "every": 0},
            {"start": "2099-01-01T00:00:00Z"},
        ):
            answer = post(client, csrf, path, bad)
            assert answer.status_code == 400 and "\n" not in answer.text, (bad, answer.text)
        start = datetime.now(UTC) + timedelta(seconds=1)
        answer = post(client, csrf, path, {"start": start.isoformat(), "every": 1})
        assert answer.json() == {"nights": 3}
        detail = client.get(f"/api/leagues/{lid}").json()
        assert detail["every"] == 1 and statuses(detail) == ["scheduled"] * 3
        assert datetime.fromisoformat(detail["next"]) == start.replace(microsecond=0)
        done = until(client, lid, lambda d: statuses(d) == ["played"] * 3, seconds=60)
        nights = done["divisions"][0]["nights"]
        dues = [datetime.fromisoformat(n["due"]) for n in nights]
        dates = [datetime.fromisoformat(n["date"]) for n in nights]
        assert [(d - dues[0]).total_seconds() for d in dues] == [0, 1, 2]
        assert all(date >= due for date, due in zip(dates, dues, strict=True))
        assert dates == sorted(dates) and done["next"] is None
        assert all(row["nights"] == 3 for row in done["divisions"][0]["standings"])


def test_a_night_killed_midway_is_played_on_and_scored_once(tmp_path: Path) -> None:
    db, port = tmp_path / "web.db", free_port()
    base = f"http://127.0.0.1:{port}"
    deals = 32  # long enough to be killed in the middle, a few seconds in all
    with server_process(db, port) as proc:
        client, csrf = account(base)
        lid = league(client, csrf, "Phoenix", deals, [[f"T{i}" for i in range(8)]])
        post(client, csrf, f"/api/leagues/{lid}/schedule", {})
        fid = client.get(f"/api/leagues/{lid}").json()["divisions"][0]["nights"][0]["id"]
        assert post(client, csrf, f"/api/leagues/{lid}/nights/{fid}", {}).status_code == 202
        until(client, lid, lambda d: d["divisions"][0]["nights"][0]["games"] >= 8)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    with sqlite3.connect(db) as c:
        status, tid = c.execute(
            "SELECT status, tournament_id FROM league_fixture WHERE id = ?", (fid,)
        ).fetchone()
        before = dict(c.execute("SELECT unit, record FROM game WHERE tournament_id = ?", (tid,)))
        results = c.execute("SELECT count(*) FROM league_result").fetchone()[0]
    assert status == "playing" and 8 <= len(before) < 4 * deals and results == 0
    with server_process(db, port):
        client = httpx.Client(base_url=base, timeout=30)
        detail = until(client, lid, lambda d: d["divisions"][0]["nights"][0]["status"] != "playing")
    assert detail["divisions"][0]["nights"][0]["status"] == "played"
    with sqlite3.connect(db) as c:
        after = dict(c.execute("SELECT unit, record FROM game WHERE tournament_id = ?", (tid,)))
        tournaments = c.execute("SELECT count(*) FROM tournament").fetchone()[0]
        scored = c.execute(
            "SELECT team_id, deals FROM league_result WHERE fixture_id = ?", (fid,)
        ).fetchall()
    assert len(after) == 4 * deals and tournaments == 1
    assert all(after[unit] == record for unit, record in before.items())  # kept, not replayed
    assert len(scored) == 8 and {n for _, n in scored} == {deals}
    table = detail["divisions"][0]["standings"]
    assert all(row["per_deal"]["n"] == deals for row in table)
    assert sum(row["total"] for row in table) == pytest.approx(0.0, abs=1e-6)
