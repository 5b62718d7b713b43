"""The heuristic's speed goal: Setback between heuristic bots beside random play, in one run.

Not a test: run it by hand (``.venv/bin/python benchmarks/heuristic_speed.py``). It times

    tricktable simulate --players P,P,P,P --hands N --seed 1 --workers 1 --json

with P = ``random`` and P = ``heuristic``, alternately (random, heuristic, random, ...), so that
both see the same machine load, and prints hands per second of each — the whole process and the
play alone (the report's own ``timing``) — and the heuristic's speed as a share of random
play's. The goal (issue 10) is at least one fifth, judged on the median of the runs' shares of
the play alone (the stricter figure: start-up weighs more on the faster command).

The command is the ``tricktable`` script beside this Python (the installed, compiled copy), or
``python -m tricktable`` when there is none; ``PYTHONPATH`` reaches the children, so
``PYTHONPATH=src`` measures the source tree (pure Python) and ``PYTHONPATH=/tmp/hb`` a
compiled copy built with ``pip install --no-deps --target /tmp/hb .``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from family_speed import (  # this folder is on the path now
    RunError,
    load_average,
    machine_line,
    measured_copy,
    play_rate,
    time_run,
)

HANDS = 10_000
#: the goal: the heuristic's hands per second over random play's
GOAL = 0.2
PLAYERS = ("random", "heuristic")


def command(player: str, hands: int) -> list[str]:
    """The ``simulate`` command of four ``player`` bots."""
    script = Path(sys.executable).with_name("tricktable")
    base = [str(script)] if script.is_file() else [sys.executable, "-m", "tricktable"]
    seats = ",".join([player] * 4)
    args = ["--players", seats, "--hands", str(hands), "--seed", "1", "--workers", "1", "--json"]
    return [*base, "simulate", *args]


def bot_copy() -> str:
    """Whether the heuristic bot this Python imports is compiled."""
    import tricktable.bots.pitch_heuristic as bot

    compiled = bool(bot.__file__) and not str(bot.__file__).endswith(".py")
    return "compiled (mypyc)" if compiled else "pure Python"


def main() -> None:
    """Time both commands alternately and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each (default 5)")
    parser.add_argument("--hands", type=int, default=HANDS, help=f"hands a run (default {HANDS})")
    args = parser.parse_args()
    runs, hands = max(1, args.runs), max(1, args.hands)
    print(f"tricktable: {measured_copy()}; the heuristic bot: {bot_copy()}")
    print(f"machine: {machine_line()}")
    print(f"load average before: {load_average()}")
    for player in PLAYERS:
        print(f"command: {' '.join(command(player, hands))}")
    try:
        for player in PLAYERS:
            time_run(command(player, 200), 200)  # warm-up: bytecode caches, the page cache
        whole: dict[str, list[float]] = {p: [] for p in PLAYERS}
        play: dict[str, list[float]] = {p: [] for p in PLAYERS}
        for run in range(1, runs + 1):
            cells = []
            for player in PLAYERS:
                elapsed, report = time_run(command(player, hands), hands)
                whole[player].append(hands / elapsed)
                play[player].append(play_rate(report) or 0.0)
                cells.append(
                    f"{player} {hands / elapsed:,.0f} hands/s (play {play[player][-1]:,.0f})"
                )
            share = play["heuristic"][-1] / play["random"][-1] if play["random"][-1] else 0.0
            print(f"run {run}: " + ", ".join(cells) + f"; play share 1/{1 / share:.2f}")
    except RunError as exc:
        sys.exit(f"the command failed: {exc}")
    print(f"load average after: {load_average()}")
    shares = {
        kind: [h / r for h, r in zip(rates["heuristic"], rates["random"], strict=True) if r]
        for kind, rates in (("whole process", whole), ("play alone", play))
    }
    for kind, rates in (("whole process", whole), ("play alone", play)):
        medians = {p: statistics.median(rates[p]) for p in PLAYERS}
        share = statistics.median(shares[kind]) if shares[kind] else 0.0
        print(
            f"{kind}: median random {medians['random']:,.0f} hands/s, "
            f"heuristic {medians['heuristic']:,.0f} hands/s; heuristic/random median "
            f"{share:.3f} (1/{1 / share:.2f})"
            if share
            else f"{kind}: no rate"
        )
    share = statistics.median(shares["play alone"]) if shares["play alone"] else 0.0
    verdict = "meets" if share >= GOAL else "misses"
    print(f"goal: the heuristic at least 1/{1 / GOAL:.0f} of random play's speed: {verdict} it")


if __name__ == "__main__":
    main()
