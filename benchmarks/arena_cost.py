"""The server's CPU a decision in the arena: web-service bots against built-in ones.

Not a test. Issue 28's goal: an arena match between four HTTP bots on loopback costs the server
no more than 1.5x a match between built-in bots, per decision. This starts a real ``tricktable
serve`` (``--allow-local-bots --pace 0``, a temporary SQLite file) and, in another process, a
web-service bot on 127.0.0.1 that plays the first legal action (``tests/test_http_bots.py``'s
``Generic``); then, alternately, it plays whole arena matches of four web-service seats and of
four built-in seats of ``--level``, and reads the server process's CPU time (user and system,
``/proc/PID/stat``) around each: the CPU a decision (actions in the match's record) and the
ratio of the two kinds' medians. A first match of each kind (``--warmup``) is played and not
counted: it pays the server's one-time work (importing the HTTP client and the bots' modules)::

    PYTHONPATH=src .venv/bin/python benchmarks/arena_cost.py --game "setback(target=5)" --rounds 5

The bots' own work is not the server's: a web-service bot computes in its own process, a
built-in one in the server, so the built-in side includes its bot's thinking (``--level
beginner`` is the cheapest).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

from web_harness import Client, free_port, wait_up  # noqa: E402  (tests' harness, on the path)

#: the web-service bot's process: a threaded HTTP server on 127.0.0.1, its URL on stdout
BOT = (
    "import sys, time; sys.path.insert(0, sys.argv[1]);"
    "from test_http_bots import Generic, Server;"
    "s = Server(Generic); print(s.url, flush=True); time.sleep(10**6)"
)


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play(person: Client, game: str, seats: list[dict[str, str]], pid: int) -> tuple[float, int]:
    """One arena match to its end: the server's CPU seconds and the match's actions."""
    before = cpu_seconds(pid)
    made = person.post("/api/arena", {"game": game, "seats": seats})
    made.raise_for_status()
    table = made.json()["table"]
    while person.http.get(f"/api/tables/{table}").json()["status"] != "over":
        time.sleep(0.05)
    spent = cpu_seconds(pid) - before
    record = person.http.get(f"/api/tables/{table}/record").json()
    actions = sum(len(hand["actions"]) for hand in record["hands"])
    return spent, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="setback(target=5)")
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--warmup", type=int, default=1, help="uncounted matches of each kind played first"
    )
    args = parser.parse_args()
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT, str(TESTS)], stdout=subprocess.PIPE, text=True
    )
    assert bot.stdout is not None
    url = bot.stdout.readline().strip()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "tricktable", "serve", "--port", str(port)),
                *("--db", str(Path(folder) / "arena.db"), "--pace", "0", "--allow-local-bots"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_up(base)
            person = Client(base, "Bench")
            kinds = {
                "web services": [{"endpoint": url}] * 4,
                "built-in": [{"level": args.level}] * 4,
            }
            per: dict[str, list[float]] = {kind: [] for kind in kinds}
            for turn in range(args.warmup + args.rounds):
                for kind, seats in kinds.items():
                    spent, actions = play(person, args.game, seats, server.pid)
                    if turn >= args.warmup:
                        per[kind].append(spent / actions * 1000)
            for kind, values in per.items():
                shown = ", ".join(f"{v:.3f}" for v in values)
                print(f"{kind:13} median {statistics.median(values):.3f} ms a decision ({shown})")
            ratio = statistics.median(per["web services"]) / statistics.median(per["built-in"])
            print(f"ratio web services / built-in: {ratio:.2f} (goal: at most 1.5)")
        finally:
            server.terminate()
            server.wait(10)
            bot.terminate()
            bot.wait(10)


if __name__ == "__main__":
    main()
