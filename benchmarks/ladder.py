"""The strength ladder of docs/strength.md: duplicate duels between rungs, and each rung's cost.

Not a test: run it by hand (it takes long; the slow rungs search 0.5 s a decision):

    .venv/bin/python benchmarks/ladder.py --deals 200 --workers 2 --matches 20 \\
        --pair heuristic:random --pair pimc:heuristic --json /tmp/ladder.json

For each ``--pair A:B`` (a rung above another) it runs, as separate processes,

- ``tricktable duel A B --no-sprt --deals N --seed S --workers W --json``: every deal played
  at two tables with the seats swapped; A's score per deal minus B's with its 95% interval
  (Student t) and the deals A won (Wilson interval, a tie a half);
- with ``--matches M`` (M > 0), ``tricktable tournament A B --partnerships self --matches M``
  into a temporary SQLite file, then ``tricktable standings --json``: whole matches to the
  game's target, each played at both seatings, and the matches A won with its interval.

Then, for every bot named in a pair, its **cost**: ``--cost-hands`` hands of the game with the
bot in seats 0 and 2 and the heuristic in 1 and 3, every decision of the bot timed in this
process's CPU time (one core): mean and largest seconds a decision, and the mean over the decisions
where it had a choice (more than one legal action) — the ones a search bot searches.

It prints a Markdown table for docs/strength.md and, with ``--json``, writes every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from decision_cost import decision_cost


def tricktable(*args: str) -> dict[str, Any]:
    """Run ``python -m tricktable ARGS`` and return its one JSON object."""
    done = subprocess.run(
        [sys.executable, "-m", "tricktable", *args], capture_output=True, text=True, check=False
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"tricktable {' '.join(args)} failed: {done.stderr.strip()}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def duel(a: str, b: str, args: argparse.Namespace) -> dict[str, Any]:
    began = time.perf_counter()
    out = tricktable(
        "duel", a, b, "--game", args.game, "--no-sprt", "--deals", str(args.deals),
        "--seed", str(args.seed), "--workers", str(args.workers), "--json",
    )  # fmt: skip
    out["wall_seconds"] = time.perf_counter() - began
    return out


def matches(a: str, b: str, args: argparse.Namespace) -> dict[str, Any] | None:
    if args.matches <= 0:
        return None
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "ladder.db")
        tricktable(
            "tournament", a, b, "--game", args.game, "--partnerships", "self",
            "--matches", str(args.matches), "--seed", str(args.seed), "--workers",
            str(args.workers), "--db", db, "--json",
        )  # fmt: skip
        table = tricktable("standings", "--db", db, "--json")
    row = next(r for r in table["standings"] if r["spec"] == a)
    return {"games": row["games"], "won": row["won"], "lost": row["lost"], **row["win_rate"]}


def cost(spec: str, args: argparse.Namespace) -> dict[str, Any]:
    c = decision_cost(spec, args.game, args.seed, args.cost_hands)
    return {
        "decisions": c["all"]["decisions"],
        "mean_seconds": c["all"]["mean_seconds"],
        "max_seconds": c["all"]["max_seconds"],
        "choice_decisions": c["choice"]["decisions"],
        "mean_choice_seconds": c["choice"]["mean_seconds"],
    }


def signed(x: float) -> str:
    return f"{x:+.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="setback")
    parser.add_argument("--pair", action="append", default=[], help="A:B, A the higher rung")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--matches", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--cost-hands", type=int, default=4)
    parser.add_argument("--json", default=None, help="write every figure to this file")
    args = parser.parse_args()
    pairs = [tuple(p.rsplit(":", 1)) for p in args.pair] or [("heuristic", "random")]
    load = os.getloadavg()
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()},"
          f" load {load[0]:.2f} at start; game {args.game}, seed {args.seed}")  # fmt: skip
    rows = []
    for a, b in pairs:
        d = duel(a, b, args)
        m = matches(a, b, args)
        rows.append({"a": a, "b": b, "duel": d, "matches": m})
        diff, won = d["difference"], d["deals_won"]
        line = (
            f"| {a} | {b} | {d['deals']} | {signed(diff['mean'])} "
            f"[{signed(diff['low'])}, {signed(diff['high'])}] | {100 * won['rate']:.1f}% "
            f"[{100 * won['low']:.1f}, {100 * won['high']:.1f}] |"
        )
        if m is not None:
            line += (
                f" {m['won']}/{m['games']} = {100 * m['rate']:.1f}% "
                f"[{100 * m['low']:.1f}, {100 * m['high']:.1f}] |"
            )
        print(line, flush=True)
    costs = {}
    for spec in dict.fromkeys(name for pair in pairs for name in pair):
        c = costs[spec] = cost(spec, args)
        print(
            f"| {spec} | {c['decisions']} | {c['mean_seconds']:.4f} | "
            f"{c['mean_choice_seconds']:.4f} | {c['max_seconds']:.3f} |",
            flush=True,
        )
    print(f"# load {os.getloadavg()[0]:.2f} at the end")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"game": args.game, "rows": rows, "costs": costs, "load": load}, out)


if __name__ == "__main__":
    main()
