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
process (one core): mean and largest seconds a decision, and the mean over the decisions
where it had a choice (more than one legal action) — the ones a search bot searches.

It prints a Markdown table for docs/strength.md and, with ``--json``, writes every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tricktable.bots import make_bot
from tricktable.bots.base import Bot
from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game, View
from tricktable.runner import MatchSpec, run_match


class Timed(Bot):
    """A bot whose every decision is timed (the wrapped bot plays)."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []
        self.choices: list[float] = []

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.inner.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        began = time.perf_counter()
        action = self.inner.act(view)
        spent = time.perf_counter() - began
        self.times.append(spent)
        if len(view.legal_actions()) > 1:
            self.choices.append(spent)
        return action

    def end_hand(self, view: View, result: HandResult) -> None:
        self.inner.end_hand(view, result)

    def end_match(self, view: View) -> None:
        self.inner.end_match(view)

    def close(self) -> None:
        self.inner.close()


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
    timed = {0: Timed(make_bot(spec)), 2: Timed(make_bot(spec))}
    match = MatchSpec(
        args.game, (spec, "heuristic", spec, "heuristic"), seed=args.seed, max_hands=args.cost_hands
    )
    try:
        run_match(match, bots=timed)
    finally:
        for bot in timed.values():
            bot.close()
    times = timed[0].times + timed[2].times
    choices = timed[0].choices + timed[2].choices
    return {
        "decisions": len(times),
        "mean_seconds": statistics.fmean(times) if times else 0.0,
        "max_seconds": max(times, default=0.0),
        "choice_decisions": len(choices),
        "mean_choice_seconds": statistics.fmean(choices) if choices else 0.0,
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
