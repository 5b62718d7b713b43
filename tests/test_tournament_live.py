"""A tournament's games journaled while they are played: watched live on the web, resumed
after a kill, replayed once stored — one journal of steps for tables and tournaments alike.

Real parts: ``tricktable tournament --live`` as a process on a real SQLite file, killed with
SIGKILL in the middle of a game and run again; the web server (uvicorn on 127.0.0.1) on the
same file, read while the game is played. The searching bot runs a fixed count of iterations
(no clock), so a game played again from its seed is the same game.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from web_harness import SRC, serving

#: a slow bot with no clock: the same decisions whatever the machine's load
SLOW = "ismcts(iterations=400,max_seconds=none)"
COMMAND = [
    "tournament", SLOW, "heuristic", "--game", "setback", "--matches", "1",
    "--workers", "1", "--name", "live", "--live", "--json",
]  # fmt: skip


def tricktable(db: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.Popen(
        [sys.executable, "-m", "tricktable", *COMMAND, "--db", str(db)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def live_rows(db: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as connection:
        try:
            return connection.execute("SELECT unit, seq FROM match_journal ORDER BY id").fetchall()
        except sqlite3.OperationalError:  # the schema is not made yet
            return []


def acts(steps: list[list[Any]]) -> list[list[Any]]:
    return [s[:3] for s in steps if s[0] == "act"]


def snapshots(http: httpx.Client, api: str) -> tuple[dict[str, Any], dict[str, Any]]:
    index = http.get(api).json()
    last = http.get(api, params={"step": index["last"]}).json()
    return index, last


def test_a_game_is_watched_live_resumed_after_a_kill_and_replayed(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    first = tricktable(db)
    try:
        deadline = time.monotonic() + 90
        while len(live_rows(db)) < 2:  # the game under way: a few writes made
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "no live journal within 90 s"
            time.sleep(0.1)
        with serving(db) as base, httpx.Client(base_url=base, timeout=20) as http:
            (tournament,) = http.get("/api/tournaments").json()["tournaments"]
            games = http.get(f"/api/tournaments/{tournament['id']}/games").json()
            (playing,) = games["playing"]
            unit = playing["unit"]
            api = f"/api/tournaments/{tournament['id']}/games/{unit}/replay"
            index, last = snapshots(http, api)
            assert index["over"] is False and index["last"] >= 1
            # bots alone: every hand face up to whoever watches
            assert last["snapshot"]["everyone"] is True
            page = http.get(playing["page"])
            assert page.status_code == 200 and "replay.js" in page.text
            later, _ = snapshots(http, api)
            deadline = time.monotonic() + 30
            while (
                later["last"] == index["last"] and not later["over"] and time.monotonic() < deadline
            ):
                time.sleep(0.3)
                later, _ = snapshots(http, api)
            assert later["last"] > index["last"]  # it moves on while watched
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(10)
    with sqlite3.connect(db) as connection:
        left = connection.execute(
            "SELECT steps FROM match_journal WHERE unit = ? ORDER BY seq", (unit,)
        ).fetchall()
        assert connection.execute("SELECT count(*) FROM game").fetchone()[0] < 2
    killed = [step for (text,) in left for step in json.loads(text)]
    assert killed[0][0] == "begin" and acts(killed)
    again = tricktable(db)
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    summary = json.loads(out)
    assert summary["resumed"] is True and summary["units"] == 2
    assert live_rows(db) == []  # stored: the record is the game now
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM game").fetchone()[0] == 2
    with serving(db) as base, httpx.Client(base_url=base, timeout=20) as http:
        tid = http.get("/api/tournaments").json()["tournaments"][0]["id"]
        games = http.get(f"/api/tournaments/{tid}/games").json()
        assert games["playing"] == [] and {g["unit"] for g in games["recent"]} >= {unit}
        api = f"/api/tournaments/{tid}/games/{unit}/replay"
        index = http.get(api).json()
        assert index["over"] is True
        # the game played again from its seed is the game that was killed, played on
        steps = index["steps"]
        labels = [s["label"] for s in steps]
        assert len(labels) > len(acts(killed))
        missing = http.get(f"/api/tournaments/{tid}/games/g9/d9/t9/replay")
        assert missing.status_code == 404 and "no game" in missing.json()["error"]
        nowhere = http.get("/api/tournaments/999/games")
        assert nowhere.status_code == 404
    record = _stored_record(db, unit)
    played = [a for hand in record["hands"] for a in hand["actions"]]
    assert len(played) >= len(acts(killed))
    state_acts = _acts_of_record(record)
    assert state_acts[: len(acts(killed))] == [a[1:] for a in acts(killed)]


def _stored_record(db: Path, unit: str) -> dict[str, Any]:
    with sqlite3.connect(db) as connection:
        (text,) = connection.execute("SELECT record FROM game WHERE unit = ?", (unit,)).fetchone()
    return dict(json.loads(text))


def _acts_of_record(record: dict[str, Any]) -> list[list[int]]:
    """Each action of ``record`` as ``[seat, code]``, as a journal's act steps hold them."""
    from tricktable.records import replay

    state = replay(record)
    return [
        [log.actors[i], log.actions[i]] for log in state.history for i in range(len(log.actions))
    ]
