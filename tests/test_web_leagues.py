"""Leagues from the web (web/leagues.py, league/night.py): a duplicate night of four tables
of bot teams on a real server and a real SQLite file, checked against the stored records and an
independent computation of its standings; promotion and relegation; bad input."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tricktable.errors import OptionError
from tricktable.league.night import promote, round_robin
from web_harness import serving
from web_tournaments_harness import account

TEAMS = [
    ("Aces", ["heuristic"]),
    ("Bids", ["random"]),
    ("Clubs", ["heuristic", "random"]),
    ("Deuces", ["random"]),
    ("Evens", ["heuristic"]),
    ("Fours", ["random", "heuristic"]),
    ("Games", ["random"]),
    ("Hearts", ["heuristic"]),
]
DEALS = 4


def post(client: httpx.Client, csrf: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return client.post(path, json=body, headers={"X-CSRF-Token": csrf})


def played(client: httpx.Client, lid: int, fid: int) -> dict[str, Any]:
    """The league once night ``fid`` is over (a deadline only so a broken server ends it)."""
    deadline = time.monotonic() + 300
    while True:
        detail: dict[str, Any] = client.get(f"/api/leagues/{lid}").json()
        night = next(n for n in detail["divisions"][0]["nights"] if n["id"] == fid)
        if night["status"] in ("played", "failed") or time.monotonic() > deadline:
            return detail
        time.sleep(0.2)


def independent(db: Path, tid: int) -> dict[str, tuple[float, int]]:
    """Each team's total duplicate score and deals, from the stored games alone: margin of its
    side minus the mean margin of every team that held the same side's cards on that deal."""
    with sqlite3.connect(db) as c:
        names = dict(c.execute("SELECT id, name FROM entrant WHERE tournament_id = ?", (tid,)))
        games = c.execute(
            "SELECT round_no, seats, result FROM game WHERE tournament_id = ?", (tid,)
        ).fetchall()
    margins: dict[tuple[int, int], list[tuple[str, float]]] = {}
    for deal, seats, result in games:
        seat_ids, scores = json.loads(seats), json.loads(result)["scores"]
        for side in (0, 1):
            margin = scores[side] - scores[1 - side]
            margins.setdefault((deal, side), []).append((names[seat_ids[side]], margin))
    out: dict[str, tuple[float, int]] = {}
    for held in margins.values():
        mean = sum(m for _, m in held) / len(held)
        for team, m in held:
            total, n = out.get(team, (0.0, 0))
            out[team] = (total + m - mean, n + 1)
    return out


def test_a_night_of_four_tables_plays_the_same_deals_and_scores_them(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with serving(db) as base:
        client, csrf = account(base)
        made = post(
            client, csrf, "/api/leagues", {"name": "Tuesday", "game": "spades", "deals": DEALS}
        )
        assert made.status_code == 201, made.text
        lid = made.json()["league"]
        for name, members in TEAMS:
            answer = post(
                client, csrf, f"/api/leagues/{lid}/teams", {"name": name, "members": members}
            )
            assert answer.status_code == 201, answer.text
        answer = post(client, csrf, f"/api/leagues/{lid}/schedule", {})
        assert answer.json() == {"nights": 7}  # a round robin of eight teams
        first = client.get(f"/api/leagues/{lid}").json()["divisions"][0]["nights"][0]
        assert len(first["tables"]) == 4
        answer = post(client, csrf, f"/api/leagues/{lid}/nights/{first['id']}", {})
        assert answer.status_code == 202, answer.text
        detail = played(client, lid, first["id"])
        for page in ("/leagues", f"/leagues/{lid}", "/static/js/leagues.js"):
            assert client.get(page).status_code == 200, page
        assert "leagues.js" in client.get(f"/leagues/{lid}").text
        # the night's games are a tournament's: the tournaments' list still reads
        assert client.get("/api/tournaments").status_code == 200
    night = next(n for n in detail["divisions"][0]["nights"] if n["id"] == first["id"])
    assert night["status"] == "played"
    tid = night["tournament"]

    with sqlite3.connect(db) as c:
        rows = c.execute(
            "SELECT round_no, table_no, seats, record FROM game WHERE tournament_id = ?", (tid,)
        ).fetchall()
        names = dict(c.execute("SELECT id, name FROM entrant WHERE tournament_id = ?", (tid,)))
    assert len(rows) == 4 * DEALS
    for deal in range(DEALS):
        tables = [r for r in rows if r[0] == deal]
        cards = {json.dumps(json.loads(r[3])["hands"][0]["deal"]) for r in tables}
        assert len(tables) == 4 and len(cards) == 1  # the same cards, seat for seat
        # seats rotated: the table's first team holds the first side's cards at two tables
        firsts = [names[json.loads(r[2])[0]] == first["tables"][r[1]][0] for r in tables]
        assert sorted(firsts) == [False, False, True, True]

    expected = independent(db, tid)
    table = detail["divisions"][0]["standings"]
    assert {row["team"] for row in table} == {name for name, _ in TEAMS}
    for row in table:
        total, n = expected[row["team"]]
        assert row["total"] == pytest.approx(total)
        assert row["per_deal"]["n"] == n == DEALS
        assert row["per_deal"]["mean"] == pytest.approx(total / n)
        assert row["per_deal"]["low"] <= row["per_deal"]["mean"] <= row["per_deal"]["high"]
        assert isinstance(row["rating"], float)
    assert [r["total"] for r in table] == sorted((r["total"] for r in table), reverse=True)
    assert sum(r["total"] for r in table) == pytest.approx(0.0, abs=1e-6)  # luck cancels


def test_bad_input_is_one_line_each(tmp_path: Path) -> None:
    with serving(tmp_path / "web.db") as base:
        client, csrf = account(base)
        refused = [
            ("/api/leagues", {"name": "x", "game": "hearts", "deals": 2}, 400),
            ("/api/leagues", {"name": "x", "game": "spades", "deals": 0}, 400),
            ("/api/leagues", {"name": "x", "game": "nope", "deals": 2}, 400),
            ("/api/leagues", {"name": "x", "game": "spades", "deals": 2, "bad": 1}, 400),
        ]
        for path, body, status in refused:
            answer = post(client, csrf, path, body)
            assert answer.status_code == status, (body, answer.text)
            assert "\n" not in answer.text and "Traceback" not in answer.text
        lid = post(client, csrf, "/api/leagues", {"name": "x", "game": "spades", "deals": 2})
        lid = lid.json()["league"]
        teams = f"/api/leagues/{lid}/teams"
        assert post(client, csrf, teams, {"name": "a", "members": ["cmd:./bot"]}).status_code == 400
        assert post(client, csrf, teams, {"name": "a", "members": ["human"]}).status_code == 400
        assert post(client, csrf, teams, {"name": "a", "members": ["random"]}).status_code == 201
        assert post(client, csrf, teams, {"name": "a", "members": ["random"]}).status_code == 409
        # one team: an odd division cannot be scheduled
        assert post(client, csrf, f"/api/leagues/{lid}/schedule", {}).status_code == 400
        assert post(client, csrf, f"/api/leagues/{lid}/nights/99", {}).status_code == 404
        assert client.get("/api/leagues/999").status_code == 404
        assert client.post("/api/leagues", json={}).status_code == 403  # no CSRF token
        other, other_csrf = account(base, "bob")
        assert (
            post(other, other_csrf, teams, {"name": "b", "members": ["random"]}).status_code == 409
        )


def test_promotion_and_relegation_move_the_edges_of_each_division() -> None:
    divisions = [["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"], ["c1", "c2", "c3", "c4"]]
    assert promote(divisions, 1) == [
        ["a1", "a2", "a3", "b1"],
        ["a4", "b2", "b3", "c1"],
        ["b4", "c2", "c3", "c4"],
    ]
    moved = promote(divisions, 2)
    assert [len(d) for d in moved] == [4, 4, 4]
    assert moved[0] == ["a1", "a2", "b1", "b2"] and moved[2] == ["b3", "b4", "c3", "c4"]
    assert promote([["x", "y"]], 1) == [["x", "y"]]  # one division: nobody moves
    with pytest.raises(OptionError):
        promote(divisions, 3)


def test_the_round_robin_meets_every_pair_once() -> None:
    for n in (2, 4, 8, 16):
        nights = round_robin(n)
        met = [frozenset(p) for night in nights for p in night]
        assert len(nights) == n - 1 and len(set(met)) == len(met) == n * (n - 1) // 2
        assert all(sorted(x for p in night for x in p) == list(range(n)) for night in nights)
    with pytest.raises(OptionError):
        round_robin(5)
