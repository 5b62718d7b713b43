"""Every process a bot starts dies with its match; every command ends its workers on SIGTERM.

Real programs in a real ``python -m tricktable`` process (a subreaper changes the process it
is set in: not pytest's): a bot whose child leaves its session (``setsid``), bots that start a
classic double-forked daemon — one whose daemon keeps nothing of the bot's environment, one
that dies right after, leaving its daemon an orphan. After the match none of them is alive.

SIGTERM (what ``timeout`` sends) is Ctrl-C for every command: ``play`` saves its record and
exits 130; ``duel`` and ``simulate`` exit 130 and leave no worker process, nor any process
their workers' bots started.
"""

from __future__ import annotations

import contextlib
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


def gone(pids: list[int], within: float = 15.0) -> list[int]:
    """Those of ``pids`` still alive after ``within`` seconds (SIGKILL is not instant, and a
    worker told to stop first ends its bots' trees, each given up to two seconds: on a loaded
    machine five seconds were too few)."""
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
    args = ["play", "--players", players, "--seed", "4", "--max-hands", "2", "--decision-time", "5"]
    done = subprocess.run(
        [py, "-m", "tricktable", *args, "--save", str(saved)],
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


#: a bot that forks daemons as fast as it can, in four processes at once, each daemon the classic
#: way (fork, ``setsid``, fork, the middle exits); it adopts their orphans itself (a subreaper,
#: as a bot is made one)
FORK_STORM = """
import ctypes, os, sys, time
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
out = open(sys.argv[1], "a")
for _ in range(3):  # four forkers at once
    if os.fork() == 0:
        break
for n in range(150):
    if os.fork() == 0:
        os.setsid()
        if os.fork() != 0:
            os._exit(0)
        out.write(f"{os.getpid()}\\n"); out.flush()
        if n % 2:  # half of them keep nothing of the bot's: no mark to be known by
            os.execve("/bin/sleep", ["sleep", "600"], {})
        time.sleep(600)
        os._exit(0)
time.sleep(600)
"""


@pytest.mark.parametrize("attempt", range(4))
def test_end_tree_catches_a_fork_under_way(tmp_path: Path, attempt: int) -> None:
    """A process told to stop stops only as its system call returns: a fork under way then
    still makes its child, after the look that would have found it. Killing a bot that forks
    daemons all the while (in a new session each, half without the mark) leaves none."""
    pids = tmp_path / "daemons.pids"
    mark = f"storm-{attempt}"
    env = dict(os.environ, TRICKTABLE_BOT=mark)
    proc = subprocess.Popen(
        [sys.executable, "-c", FORK_STORM, str(pids)], env=env, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 30
        while len(pids_in(pids)) < 3 and time.monotonic() < deadline:
            time.sleep(0.002)
        assert pids_in(pids), "the bot never started its daemons"
        end_tree(proc.pid, mark)  # while it forks
        proc.wait(timeout=10)
        assert gone(pids_in(pids), within=5) == []
    finally:
        for pid in pids_in(pids):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.wait()


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return -1
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def children_of(pid: int) -> list[int]:
    return [
        int(p.name)
        for p in Path("/proc").iterdir()
        if p.name.isdigit() and _parent(int(p.name)) == pid
    ]


def terminated(args: list[str], wait_for: int, after: float = 1.0) -> tuple[int, list[int], str]:
    """Start ``python -m tricktable ARGS``; once it has ``wait_for`` children (its workers, or
    its bots) and ``after`` more seconds, send it SIGTERM. Its exit status, the children it
    had, and what it wrote to standard error."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tricktable", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
    )
    try:
        deadline = time.monotonic() + 60
        kids = children_of(proc.pid)
        while len(kids) < wait_for and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            kids = children_of(proc.pid)
        assert len(kids) >= wait_for, "it never started its children"
        time.sleep(after)
        kids = sorted(set(kids) | set(children_of(proc.pid)))
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, kids, err


def daemon_bot(pids: Path) -> str:
    return f"cmd:{sys.executable} {BOTS / 'daemon.py'} --after 1 --pids {pids}"


def test_sigterm_ends_duels_workers_and_their_bots(tmp_path: Path) -> None:
    pids = tmp_path / "bots.pids"
    args = ["duel", daemon_bot(pids), "random", "--deals", "100000", "--no-sprt"]
    status, workers, err = terminated([*args, "--workers", "2", "--json"], wait_for=2)
    assert gone(workers) == []
    started = pids_in(pids)
    assert len(started) >= 4  # bots and their daemons, in both workers
    assert gone(started) == []
    assert "Traceback" not in err
    assert status == 130, err


def test_sigterm_ends_simulates_workers(tmp_path: Path) -> None:
    pids = tmp_path / "bots.pids"
    players = ",".join([daemon_bot(pids), "random", "random", "random"])
    args = ["simulate", "--players", players, "--hands", "1000000", "--workers", "2"]
    status, workers, err = terminated(args, wait_for=2)
    assert gone(workers) == []
    assert gone(pids_in(pids)) == []
    assert "Traceback" not in err
    assert status == 130, err


def test_sigterm_to_play_saves_the_record(tmp_path: Path) -> None:
    pids = tmp_path / "bots.pids"
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import time\n"
        "from tricktable.bots.base import Bot\n\n\n"
        "class Slow(Bot):\n"
        "    def act(self, view):\n"
        "        time.sleep(0.05)\n"
        "        return view.legal_actions()[0]\n",
        encoding="utf-8",
    )
    saved = tmp_path / "match.json"
    players = ",".join([daemon_bot(pids), f"{slow}:Slow", "heuristic", "heuristic"])
    args = ["play", "--players", players, "--seed", "2", "--max-hands", "1000"]
    status, _, err = terminated([*args, "--save", str(saved)], wait_for=1, after=1.5)
    assert gone(pids_in(pids)) == []
    assert "Traceback" not in err
    assert status == 130, err
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["hands"], "the hands played before SIGTERM are in the record"


def test_a_plugins_daemon_dies_with_the_command(tmp_path: Path) -> None:
    """A plug-in runs in the command's own process: a daemon it double-forks from there (a
    copy of ``play`` in a session of its own) is adopted and ended when ``play`` ends."""
    pids = tmp_path / "daemon.pids"
    env = {**cli_env(), "TRICKTABLE_TEST_PIDS": str(pids)}
    plugin = f"{BOTS / 'forking_plugin.py'}:Forker"
    args = ["play", "--players", f"{plugin},random,random,random", "--seed", "1"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tricktable",
            *args,
            "--max-hands",
            "1",
            "--save",
            str(tmp_path / "r.json"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    started = pids_in(pids)
    assert len(started) == 1
    assert gone(started) == []


def test_a_plugins_daemons_in_pool_workers_die_with_the_command(tmp_path: Path) -> None:
    """The same plug-in in a duel's worker processes: every daemon gone when duel ends."""
    pids = tmp_path / "daemon.pids"
    env = {**cli_env(), "TRICKTABLE_TEST_PIDS": str(pids)}
    plugin = f"{BOTS / 'forking_plugin.py'}:Forker"
    args = ["duel", plugin, "random", "--deals", "4", "--no-sprt", "--workers", "2", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "tricktable", *args, "--seed", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    started = pids_in(pids)
    assert len(started) >= 2  # one a match, in both workers
    assert gone(started) == []
