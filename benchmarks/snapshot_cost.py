"""What a seat's snapshot costs, two or more source trees side by side: is it cheaper, and the same?

Not a test. Each build is a source folder (``src`` here; an older commit's, made with
``git archive OLD src | tar -x -C /tmp/old``). A match of ``--game`` is played with seeded random
actions at a table of remote seats, as the web server holds it, and at each version the
snapshots are made as the server makes them (``tricktable.web.seatview.snapshot``, the
table's names): ``turn``, the seat to act's alone (what a move costs the server when seats
confirm without one: docs/web-load.md), and ``all``, every seat's and a spectator's (a table
with watchers, or full confirms). Each build runs in a process of its own, in turn, ``--runs``
times after a warm-up round, so that a machine whose speed drifts slows them alike; CPU time,
not the wall clock (a shared machine disturbs it far less). It prints each build's median
milliseconds a snapshot and its ratio to the first build's, and a digest of every snapshot's
JSON: equal digests, byte-identical snapshots. Each process first plays two hands of another
seed unmeasured (a server's imports are done and its caches warm).

    PYTHONPATH=src .venv/bin/python benchmarks/snapshot_cost.py before=/tmp/old/src after=src \\
        [--game 'setback(target=500)'] [--hands 12] [--runs 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

MODES = ("turn", "all")


def measure(game_spec: str, hands: int, seed: int, mode: str) -> dict[str, Any]:
    """Play ``hands`` hands, making each version's snapshots: their count, CPU time, digest."""
    from tricktable.engine.events import SPECTATOR
    from tricktable.games import load_game
    from tricktable.table.table import Remote, Table
    from tricktable.web import seatview

    game = load_game(game_spec)
    names = [f"Guest {s + 1}" for s in range(game.num_players)]
    table = Table(game, [Remote(n) for n in names], seed=seed, talk=False)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    count, spent, dealt, version = 0, 0.0, 0, 0
    while not table.is_over:
        if table.state.needs_deal:
            if dealt == hands:
                break
            table.deal_next()
            dealt += 1
        version += 1
        turn = table.whose_turn
        viewers = [turn] if mode == "turn" else [*range(table.num_seats), SPECTATOR]
        for viewer in viewers:
            if viewer < 0:
                continue
            began = time.process_time()
            snap = seatview.snapshot(table, viewer, version, names)
            spent += time.process_time() - began
            digest.update(json.dumps(snap, sort_keys=True).encode())
            count += 1
        if turn >= 0:
            table.submit(turn, rng.choice(table.state.legal_actions()))
    return {"snapshots": count, "seconds": spent, "digest": digest.hexdigest()[:16]}


def worker(args: argparse.Namespace) -> None:
    # A server makes snapshots all day: its imports done and what it remembers warm, as
    # after a match of another seed (the same for every build).
    measure(args.game, 2, args.seed + 1, "all")
    out = {mode: measure(args.game, args.hands, args.seed, mode) for mode in MODES}
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("builds", nargs="*", help="NAME=SRC_FOLDER, the first is the reference")
    parser.add_argument("--game", default="setback(target=500)")
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    builds = dict(b.split("=", 1) for b in args.builds)
    if not builds:
        parser.error("name at least one build: NAME=SRC_FOLDER")
    command = [
        sys.executable, __file__, "--worker", "--game", args.game, "--hands", str(args.hands),
        "--seed", str(args.seed),
    ]  # fmt: skip
    ms: dict[str, dict[str, list[float]]] = {b: {m: [] for m in MODES} for b in builds}
    digests: dict[str, dict[str, str]] = {}
    counts: dict[str, int] = {}
    for run in range(args.runs + 1):
        for name, folder in builds.items():
            env = dict(os.environ, PYTHONPATH=os.path.abspath(folder))
            done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
            if done.returncode:
                raise SystemExit(f"{name}: {done.stderr.strip()}")
            result = json.loads(done.stdout)
            digests[name] = {m: result[m]["digest"] for m in MODES}
            counts.update({m: result[m]["snapshots"] for m in MODES})
            if run:  # the first round warms the disk cache and the imports
                for m in MODES:
                    ms[name][m].append(result[m]["seconds"] * 1000 / result[m]["snapshots"])
    first = next(iter(builds))
    for m in MODES:
        print(
            f"{m}: {counts[m]} snapshots a run ({args.game}, {args.hands} hands), {args.runs} runs"
        )
        base = statistics.median(ms[first][m])
        for name in builds:
            med = statistics.median(ms[name][m])
            print(
                f"  {name:10} {med:6.3f} ms a snapshot (best {min(ms[name][m]):.3f})"
                f"  x{med / base:.2f}  digest {digests[name][m]}"
            )
    same = len({json.dumps(d, sort_keys=True) for d in digests.values()}) == 1
    print("snapshots identical across builds" if same else "SNAPSHOTS DIFFER between builds")


if __name__ == "__main__":
    main()
