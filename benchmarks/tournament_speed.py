"""The tournament benchmark: a duplicate Setback tournament between two heuristic entrants.

Not a test: run it with ``.venv/bin/python benchmarks/tournament_speed.py [--deals N]``. It runs
``tricktable tournament h1=heuristic h2=heuristic --deals N`` into a fresh SQLite file with 1
worker, then with 2 (then 1 and 2 again, ``--runs`` times), and prints deals per second (a
deal is played at two tables) for each, and the speed-up from 1 to 2 workers. The command is
the ``tricktable`` script beside this Python (the installed, compiled copy) when there is one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def command() -> list[str]:
    """The venv's ``tricktable`` script, else ``python -m tricktable``."""
    script = Path(sys.executable).with_name("tricktable")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "tricktable"]


def once(deals: int, workers: int) -> float:
    """Deals per second of one whole tournament (the process included)."""
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db")
        args = ["tournament", "h1=heuristic", "h2=heuristic", "--deals", str(deals), "--seed", "1"]
        args += ["--db", db, "--workers", str(workers), "--json", "--name", "bench"]
        began = time.perf_counter()
        done = subprocess.run([*command(), *args], capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - began
        if done.returncode:
            sys.exit(done.stderr)
        assert json.loads(done.stdout)["stored_now"] == 2 * deals
    return deals / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    rates: dict[int, list[float]] = {1: [], 2: []}
    for run in range(args.runs):
        for workers in (1, 2):
            rate = once(args.deals, workers)
            rates[workers].append(rate)
            print(f"run {run + 1}, {workers} worker(s): {rate:,.0f} deals/s", flush=True)
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    loadavg = Path("/proc/loadavg")
    load = loadavg.read_text().split()[:3] if loadavg.exists() else "?"
    print(
        f"{args.deals} deals (two tables each), median: 1 worker {one:,.0f} deals/s, "
        f"2 workers {two:,.0f} deals/s: {two / one:.2f}x (load {load})"
    )


if __name__ == "__main__":
    main()
