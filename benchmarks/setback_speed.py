"""The Setback speed benchmark: random bots through ``tricktable simulate``, timed as a process.

Not a test: run it with ``make bench`` (or ``.venv/bin/python benchmarks/setback_speed.py``).
It runs the command below a few times and prints hands per second for the whole process —
start-up, imports, play and report — best and median, with the machine it ran on. The goal
is at least 20,000 hands per second on one core.

The command is the ``tricktable`` script beside this Python (the installed, compiled copy),
or ``python -m tricktable`` when there is none. ``PYTHONPATH=src`` measures the source tree
(pure Python, slower).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HANDS = 20_000
GOAL = 20_000
ARGS = [
    "simulate",
    "--players",
    "random,random,random,random",
    "--hands",
    str(HANDS),
    "--seed",
    "1",
    "--workers",
    "1",
    "--json",
]


def command() -> list[str]:
    """The command to time: the venv's ``tricktable`` script, else ``python -m tricktable``."""
    script = Path(sys.executable).with_name("tricktable")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script), *ARGS]
    return [sys.executable, "-m", "tricktable", *ARGS]


def cpu_model() -> str:
    """The CPU's model name, from /proc/cpuinfo where there is one."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def time_once(cmd: list[str]) -> tuple[float, dict[str, object]]:
    """Run the command once: (wall seconds of the whole process, its JSON report)."""
    began = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        sys.exit(f"the command failed ({done.returncode}): {done.stderr.strip()}")
    report = json.loads(done.stdout)
    if report.get("hands") != HANDS:
        sys.exit(f"the command played {report.get('hands')} hands, not {HANDS}")
    return elapsed, report


def main() -> None:
    """Time the command and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs (default 3)")
    runs = max(1, parser.parse_args().runs)
    cmd = command()
    print(f"command: {' '.join(cmd)}")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    if os.environ.get("PYTHONPATH"):
        print(f"PYTHONPATH: {os.environ['PYTHONPATH']}")
    time_once(cmd)  # warm-up: bytecode caches and the OS page cache
    rates, inner = [], []
    for run in range(1, runs + 1):
        elapsed, report = time_once(cmd)
        timing = report.get("timing")
        play_rate = timing.get("hands_per_second") if isinstance(timing, dict) else None
        rates.append(HANDS / elapsed)
        inner.append(float(play_rate) if isinstance(play_rate, int | float) else 0.0)
        print(
            f"run {run}: {elapsed:.3f} s, {HANDS / elapsed:,.0f} hands/s "
            f"(play alone {inner[-1]:,.0f} hands/s)"
        )
    best, median = max(rates), statistics.median(rates)
    print(f"whole process: best {best:,.0f} hands/s, median {median:,.0f} hands/s")
    verdict = "meets" if best >= GOAL else "misses"
    print(f"goal {GOAL:,} hands/s: best {verdict} it")


if __name__ == "__main__":
    main()
