"""Our best Hearts bot against OpenSpiel's ISMCTS, at a comparable time a decision.

Not a test: run it by hand in the project's environment with the ``openspiel`` extra
(``.venv/bin/pip install 'open_spiel>=1.5,<3'``); it takes as long as ``--deals`` asks:

    .venv/bin/python benchmarks/openspiel_hearts.py --ours ismcts --deals 150 --workers 2 \\
        --tune 250,500,1000,2000 --json /tmp/openspiel_hearts.json

1. **Cost.** Each bot plays ``--cost-hands`` hands of ``--game`` (OpenSpiel's default rules:
   ``hearts(queen_breaks=true)``) in seats 0 and 2, the heuristic in 1 and 3, every decision
   timed in this process (one thread) in **CPU seconds** (``time.process_time``: on a shared,
   loaded machine wall time says more about the neighbours than about the bot; OpenSpiel's
   C++ search runs in this thread and is counted). The figure compared is the mean of a
   *searched* decision: a card to play with more than one legal (our ``ismcts`` searches only
   those; it passes cards by the heuristic, while OpenSpiel's bot searches each of the three
   cards of a pass, reported apart). Give both bots budgets in simulations, not seconds
   (``ismcts(max_seconds=none)``): a time cap would cut a search short by the machine's load.
2. **Tuning.** With ``--tune S1,S2,...`` each simulation count is costed and the one whose
   searched card decision is nearest ours in time is chosen (else ``--simulations``).
3. **The match-up.** ``tricktable duel OURS "openspiel-ismcts(simulations=S)" --no-sprt``:
   every deal played at two tables with the seats swapped (two of ours against two of
   theirs), our score per deal minus theirs (positive: ours is better; Hearts' lower score
   wins and the duel turns the sign) with its 95% interval (Student t), and the deals won.

It prints a Markdown table for docs/openspiel.md and, with ``--json``, writes every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from typing import Any

from decision_cost import decision_cost

#: OpenSpiel's default Hearts, in our options
GAME = "hearts(queen_breaks=true)"


def cost(spec: str, args: argparse.Namespace) -> dict[str, Any]:
    """Mean CPU seconds a decision of ``spec``, by kind, over ``--cost-hands`` hands."""
    return decision_cost(spec, args.game, args.seed, args.cost_hands)


def duel(ours: str, theirs: str, args: argparse.Namespace) -> dict[str, Any]:
    """``tricktable duel`` of the two, a fixed number of deals; its JSON object."""
    command = [
        sys.executable, "-m", "tricktable", "duel", ours, theirs, "--game", args.game,
        "--no-sprt", "--deals", str(args.deals), "--seed", str(args.seed),
        "--workers", str(args.workers), "--decision-time", "30", "--json",
    ]  # fmt: skip
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"the duel failed: {done.stderr.strip()}")
    out: dict[str, Any] = json.loads(done.stdout)
    out["wall_seconds"] = time.perf_counter() - began
    out["command"] = " ".join(command[1:])
    return out


def cost_row(c: dict[str, Any]) -> str:
    play, passing = c["play"], c["other"]
    return (
        f"| `{c['spec']}` | {play['decisions']} | {play['mean_seconds']:.3f} | "
        f"{play['max_seconds']:.3f} | {passing['mean_seconds']:.3f} | "
        f"{c['all']['mean_seconds']:.3f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default=GAME)
    parser.add_argument("--ours", default="ismcts(max_seconds=none)", help="our bot's spec")
    parser.add_argument("--simulations", type=int, default=1000, help="without --tune")
    parser.add_argument("--tune", default="", help="simulation counts to cost, e.g. 500,1000")
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel ISMCTS's uct_c")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cost-hands", type=int, default=2)
    parser.add_argument("--no-duel", action="store_true", help="cost and tune only")
    parser.add_argument("--json", default=None, help="write every figure to this file")
    args = parser.parse_args()

    load = os.getloadavg()
    print(
        f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, load {load[0]:.2f} at start; game {args.game}, "
        f"seed {args.seed}"
    )
    print(
        "| bot | searched card decisions | mean CPU s | max CPU s | mean CPU s a pass | mean, all |"
    )
    print("|---|---|---|---|---|---|")
    ours = cost(args.ours, args)
    print(cost_row(ours), flush=True)
    counts = [int(x) for x in args.tune.split(",") if x.strip()] or [args.simulations]
    theirs_costs = []
    for sims in counts:
        spec = f"openspiel-ismcts(simulations={sims},uct_c={args.uct_c:g})"
        theirs_costs.append(cost(spec, args))
        print(cost_row(theirs_costs[-1]), flush=True)
    target = ours["play"]["mean_seconds"]
    chosen = min(theirs_costs, key=lambda c: abs(c["play"]["mean_seconds"] - target))
    print(f"# chosen: {chosen['spec']} (ours {target:.3f} s a searched card decision)")
    result: dict[str, Any] = {
        "game": args.game,
        "load_start": load,
        "ours": ours,
        "theirs": theirs_costs,
        "chosen": chosen["spec"],
    }
    if not args.no_duel:
        d = duel(args.ours, chosen["spec"], args)
        diff, won = d["difference"], d["deals_won"]
        print("| ours (A) | OpenSpiel (B) | deals | A - B a deal [95%] | deals won by A [95%] |")
        print("|---|---|---|---|---|")
        print(
            f"| `{args.ours}` | `{chosen['spec']}` | {d['deals']} | {diff['mean']:+.3f} "
            f"[{diff['low']:+.3f}, {diff['high']:+.3f}] | {100 * won['rate']:.1f}% "
            f"[{100 * won['low']:.1f}, {100 * won['high']:.1f}] |"
        )
        print(
            f"# duel: {d['wall_seconds']:.0f} s with {args.workers} workers; faults "
            f"{d['faults']['count']}; command: {d['command']}"
        )
        result["duel"] = d
    result["load_end"] = os.getloadavg()
    print(f"# load {result['load_end'][0]:.2f} at the end")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=1)


if __name__ == "__main__":
    main()
