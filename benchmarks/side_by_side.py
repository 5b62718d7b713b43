"""Two or more builds of tricktable, the same simulate command, run alternately: is it slower?

Not a test. Build each version into a folder of its own (compiled, as `make` builds it):

    git clone -q . /tmp/old && git -C /tmp/old checkout -q OLD_COMMIT
    (cd /tmp/old && ../main/.venv/bin/pip install --quiet --no-deps --target /tmp/b-old .)
    (cd /tmp/new && ../main/.venv/bin/pip install --quiet --no-deps --target /tmp/b-new .)
    .venv/bin/python benchmarks/side_by_side.py old=/tmp/b-old new=/tmp/b-new \\
        [--game setback] [--hands 20000] [--runs 5] [--players random,random,random,random]

Each run starts ``python -m tricktable simulate --game G --players P --hands N --seed 1
--workers 1 --json`` once per build, in turn (``PYTHONPATH`` = the build's folder), so that a
machine whose speed drifts slows them alike; the first round is a warm-up. It prints, per
build, the median and best hands per second of the whole process and of the play alone (the
process's own figure), and the ratio of each build's median play rate to the first build's;
then the same for CPU time (hands per second of the process's user and system time, start-up
included), which a machine shared with other work disturbs far less than the wall clock.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("builds", nargs="+", help="NAME=FOLDER, the first is the reference")
    parser.add_argument("--game", default="setback")
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", default="random,random,random,random")
    args = parser.parse_args()
    builds = dict(b.split("=", 1) for b in args.builds)
    command = [
        sys.executable, "-m", "tricktable", "simulate", "--game", args.game, "--players",
        args.players, "--hands", str(args.hands), "--seed", "1", "--workers", "1", "--json",
    ]  # fmt: skip
    whole: dict[str, list[float]] = {name: [] for name in builds}
    play: dict[str, list[float]] = {name: [] for name in builds}
    cpu: dict[str, list[float]] = {name: [] for name in builds}
    for run in range(args.runs + 1):
        for name, folder in builds.items():
            env = dict(os.environ, PYTHONPATH=folder)
            used = _children_cpu()
            began = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, env=env, cwd="/")
            spent = time.perf_counter() - began
            used = _children_cpu() - used
            if done.returncode:
                raise SystemExit(f"{name}: {done.stderr.strip()}")
            if run:  # the first round warms the disk cache
                whole[name].append(args.hands / spent)
                play[name].append(json.loads(done.stdout)["timing"]["hands_per_second"])
                cpu[name].append(args.hands / used)
    first = statistics.median(play[next(iter(builds))])
    for name in builds:
        median = statistics.median(play[name])
        print(
            f"{args.game:16s} {name:10s} whole median {statistics.median(whole[name]):8,.0f}"
            f" best {max(whole[name]):8,.0f}   play median {median:8,.0f}"
            f" best {max(play[name]):8,.0f}   {median / first:.3f}x"
        )
    first = statistics.median(cpu[next(iter(builds))])
    for name in builds:
        median = statistics.median(cpu[name])
        print(
            f"{args.game:16s} {name:10s} cpu median {median:8,.0f} best {max(cpu[name]):8,.0f}"
            f" hands/s   {median / first:.3f}x"
        )
    print("load", " ".join(f"{x:.2f}" for x in os.getloadavg()))


def _children_cpu() -> float:
    """The user and system seconds of this process's finished children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
