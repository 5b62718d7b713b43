"""What ``play --save`` costs an action, at 20 hands and at 100 (issue 27, item 9).

Not a test: run it by hand.

    PYTHONPATH=src .venv/bin/python benchmarks/save_cost.py [--hands 20 100] [--runs 3]

For each match length it times ``tricktable play --game 'setback(target=10000)' --players
random,random,random,random --seed S --max-hands N`` twice as a process, with ``--save`` and
without, alternately so that both see the same load, and keeps the best of ``--runs`` of
each. The target is out of reach, so every match plays its N hands, and the same seed plays
the same actions with and without the save. The save's cost an action is (best with --save
- best without) / actions, the actions counted in the saved record; the last line is the
ratio of that cost at the longest match to the cost at the shortest. A save whose work
grows with the record (the whole record written again at every action) shows a ratio near
the ratio of the lengths (5 for 100 hands against 20); an appended journal shows about 1.

``--src`` measures another source tree (the code before a change: ``git worktree add
/tmp/before HEAD``, then ``--src /tmp/before/src``). Without it, the ``tricktable`` the
Python imports is measured (``PYTHONPATH=src``: the source tree); the first line says which.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAME = "setback(target=10000)"
PLAYERS = "random,random,random,random"
SEED = 7


def child_env(src: str | None) -> dict[str, str]:
    """The environment of the timed processes: ``src`` first on the path, where given."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


def measured(env: dict[str, str]) -> str:
    """Which ``tricktable`` the timed processes import, as a line."""
    found = subprocess.run(
        [sys.executable, "-c", "import tricktable, tricktable.journal as j; print(j.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.strip()
    kind = "compiled (mypyc)" if found.endswith(".so") else "pure Python"
    return f"tricktable: {Path(found).parent} — {kind}"


def time_play(hands: int, save: Path | None, env: dict[str, str]) -> float:
    """Seconds one ``tricktable play`` of ``hands`` hands takes (with ``--save save``)."""
    cmd = [sys.executable, "-m", "tricktable", "play", "--game", GAME, "--players", PLAYERS]
    cmd += ["--seed", str(SEED), "--max-hands", str(hands)]
    if save is not None:
        save.unlink(missing_ok=True)
        cmd += ["--save", str(save)]
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=True)
    return time.perf_counter() - start


def actions_in(path: Path) -> int:
    """How many actions the record at ``path`` holds (its unfinished hand's too)."""
    record = json.loads(path.read_text(encoding="utf-8"))
    hands = [*record["hands"], *filter(None, [record.get("unfinished_hand")])]
    return sum(len(hand["actions"]) for hand in hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--src", default=None, help="a source tree to measure (its src/)")
    args = parser.parse_args()
    env = child_env(args.src)
    print(measured(env))
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    costs: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="save-cost-") as folder:
        record = Path(folder) / "match.json"
        print(
            f"{'hands':>6} {'actions':>8} {'--save s':>9} {'no save s':>10} {'save ms/action':>15}"
        )
        for hands in args.hands:
            saved, bare = [], []
            for _ in range(args.runs):
                saved.append(time_play(hands, record, env))
                bare.append(time_play(hands, None, env))
            actions = actions_in(record)
            costs[hands] = max(min(saved) - min(bare), 0.0) / actions
            print(
                f"{hands:>6} {actions:>8} {min(saved):>9.2f} {min(bare):>10.2f} "
                f"{costs[hands] * 1000:>15.3f}"
            )
    short, long = min(costs), max(costs)
    if costs[short] > 0:
        ratio = costs[long] / costs[short]
        print(f"per-action cost, {long} hands against {short}: {ratio:.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
