"""Duplicate tournaments from the web (web/tournaments.py) on a real server and a real SQLite
file: started over the API, watched until done; the standings against ``tricktable
standings`` run as a process on the same database; the report served; bad input refused in
one line with nothing stored; the caps; a server killed while one runs resumes it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tricktable.db import Store
from web_harness import SRC, free_port, server_process, serving
from web_tournaments_harness import account, wait_until

SMALL = {"game": "setback", "entrants": ["heuristic", "random"], "deals": 4, "seed": 11}


def post(client: httpx.Client, csrf: str, body: dict[str, Any]) -> httpx.Response:
    return client.post("/api/tournaments", json=body, headers={"X-CSRF-Token": csrf})


def standings_command(db: Path, name: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": SRC}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tricktable",
            "standings",
            "--db",
            str(db),
            "--name",
            name,
            "--json",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, Any] = json.loads(out.stdout)
    return found


def test_a_small_tournament_runs_to_its_standings_and_report(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with serving(db) as base:
        client, csrf = account(base)
        answer = post(client, csrf, SMALL)
        assert answer.status_code == 201, answer.text
        started = answer.json()["tournament"]
        assert started["status"] == "running" and started["owner"] == "ann"
        assert started["total"] == 8  # 4 deals at two tables (the partnerships swapped)
        seen = set()

        def over(detail: dict[str, Any]) -> bool:
            seen.add(detail["done"])
            return detail["status"] != "running"

        detail = wait_until(client, started["id"], over)
        assert detail["status"] == "finished", detail
        assert detail["done"] == detail["total"] == 8
        assert seen <= {0, 8}
        assert detail["standings"] == standings_command(db, started["name"])
        assert {row["name"] for row in detail["standings"]["standings"]} == {"heuristic", "random"}

        listed = client.get("/api/tournaments").json()
        assert [t["name"] for t in listed["tournaments"]] == [started["name"]]
        assert listed["tournaments"][0]["done"] == 8
        assert "edna" in {c["name"] for c in listed["choices"]["characters"]}

        report = client.get(f"/tournaments/{started['id']}/report")
        assert report.status_code == 200
        assert report.headers["content-type"].startswith("text/html")
        policy = report.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src" not in policy
        assert "heuristic" in report.text and "random" in report.text
        assert "<script" not in report.text and "http://" not in report.text.replace(base, "")
        assert client.get(f"/tournaments/{started['id']}/report").text == report.text

        # A guest reads everything, starts nothing.
        guest = httpx.Client(base_url=base, timeout=30)
        made = guest.post("/api/guest", json={"name": "gus"}).json()
        assert guest.get(f"/api/tournaments/{started['id']}").json()["status"] == "finished"
        refused = post(guest, made["csrf"], SMALL)
        assert refused.status_code == 403 and "account" in refused.json()["error"]
        assert client.get("/api/tournaments/999").status_code == 404
        assert client.get("/tournaments/999/report").status_code == 404
        assert client.get("/tournaments/x1/report").status_code == 404


BAD = [
    ({**SMALL, "game": "no-such-game"}, "no-such-game"),
    ({**SMALL, "entrants": ["heuristic", "cmd:./bot"]}, "never starts a program"),
    ({**SMALL, "entrants": ["heuristic", "http://127.0.0.1:9/bot"]}, "never starts a program"),
    ({**SMALL, "entrants": ["heuristic", "bot.py:Bot"]}, "never starts a program"),
    ({**SMALL, "entrants": ["heuristic", "you"]}, "bots and characters"),
    ({**SMALL, "entrants": ["heuristic"]}, "2 to 8"),
    ({**SMALL, "entrants": ["random"] * 9}, "2 to 8"),
    ({**SMALL, "deals": 2001}, "1 to 2000"),
    ({**SMALL, "deals": "4"}, "1 to 2000"),
    ({**SMALL, "deals": True}, "1 to 2000"),
    ({**SMALL, "seed": 2**70}, "64 bits"),
    ({**SMALL, "format": "round-robin"}, "unknown field"),
    ({**SMALL, "entrants": [{"name": "a\nb", "spec": "random"}, "heuristic"]}, "printable"),
    ({**SMALL, "entrants": ["pimc(worlds=x)", "heuristic"]}, "entrant"),
]


def test_bad_input_is_one_line_and_stores_nothing(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with serving(db) as base:
        client, csrf = account(base)
        for body, said in BAD:
            answer = post(client, csrf, body)
            assert answer.status_code == 400, (body, answer.text)
            error = answer.json()["error"]
            assert said in error and "\n" not in error and "Traceback" not in error, (body, error)
        assert client.post("/api/tournaments", json=SMALL).status_code == 403  # no CSRF token
        wrong = {"X-CSRF-Token": csrf, "Origin": "http://evil.example"}
        assert client.post("/api/tournaments", json=SMALL, headers=wrong).status_code == 403
        not_json = client.post("/api/tournaments", content=b"[", headers={"X-CSRF-Token": csrf})
        assert not_json.status_code == 400 and "JSON" in not_json.json()["error"]
        nobody = httpx.post(base + "/api/tournaments", json=SMALL)
        assert nobody.status_code == 401
        assert client.get("/api/tournaments").json()["tournaments"] == []
    with Store.open(db, readonly=True) as store:
        assert store.tournaments() == []


def test_caps_and_a_server_killed_while_one_runs_resumes_it(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    big = {"game": "setback", "entrants": ["random", "random"], "deals": 400, "seed": 5}
    with server_process(db, port) as proc:
        client, csrf = account(base)
        answer = post(client, csrf, big)
        assert answer.status_code == 201, answer.text
        tid, total = answer.json()["tournament"]["id"], answer.json()["tournament"]["total"]
        assert total == 800
        second = post(client, csrf, SMALL)
        assert second.status_code == 409 and "running" in second.json()["error"]
        # Killed once a batch is stored and before the last: the kernel ends its worker.
        wait_until(client, tid, lambda d: d["done"] >= 100 or d["status"] != "running")
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    with Store.open(db, readonly=True) as store:
        info = store.tournament(tid)
        stored = store.game_count(tid)
    assert info.status == "running" and 100 <= stored < total, (info.status, stored)
    with server_process(db, port):
        client = httpx.Client(base_url=base, timeout=30)
        detail = wait_until(client, tid, lambda d: d["status"] != "running")
        assert detail["status"] == "finished" and detail["done"] == total
    with Store.open(db, readonly=True) as store:
        assert len(store.done_units(tid)) == store.game_count(tid) == total
