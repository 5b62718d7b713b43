"""The solver benchmark: positions per second, and the time to solve a whole Setback hand.

Not a test: run it by hand, e.g. ``PYTHONPATH=src .venv/bin/python benchmarks/solver_speed.py``
(the source tree; the solver is not compiled) or ``--deals 20`` for a quick look.

Each of ``--deals`` seeded Setback deals (RULES.md's options) is bid at random (a thrown-in
deal is dealt again) and its declarer's first card is drawn at random among the legal ones:
in Setback that card names trump, so "a whole hand" here means **the rest of the hand after
the first lead**, 23 cards. ``solve(state, declarer)`` then gives the exact value of every
legal reply. The report: the median and 99th percentile of the time per hand, the nodes per
hand, and the nodes per second over all of them.

For comparison, ``engine nodes/s`` is plain minimax through the engine's own ``push`` /
``undo`` (what the solver's tests use as brute force) on endings of two cards a seat: the
reason the solver keeps its own representation.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time

from tricktable.engine.phases import PLAY
from tricktable.engine.state import TrickState
from tricktable.games import load_game
from tricktable.games.setback import SetbackState
from tricktable.search.solver import solve


def first_lead(seed: int) -> TrickState:
    """A seeded deal, bid at random, just after its first card."""
    rng = random.Random(seed)
    state = load_game("setback").new_state(seed)
    state.deal()
    while state.phase != PLAY:
        if state.needs_deal:
            state.deal()
            continue
        state.apply(rng.choice(state.legal_actions()))
    state.apply(rng.choice(state.legal_actions()))
    return state


def engine_rate(seconds: float) -> float:
    """Nodes per second of plain minimax with push/undo on two-card endings."""
    nodes = 0

    def walk(state: TrickState) -> None:
        nonlocal nodes
        nodes += 1
        if state.phase != PLAY:
            return
        for card in state.legal_actions():
            state.push(card)
            walk(state)
            state.undo()

    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = first_lead(seed)
        rng = random.Random(seed)
        while state.phase == PLAY and max(h.bit_count() for h in state.hands) > 2:
            state.apply(rng.choice(state.legal_actions()))
        if state.phase == PLAY:
            walk(state)
        seed += 1
    return nodes / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    times: list[float] = []
    nodes: list[int] = []
    for seed in range(args.deals):
        state = first_lead(seed)
        assert isinstance(state, SetbackState)
        declarer = state.declarer
        start = time.perf_counter()
        result = solve(state, declarer)
        times.append(time.perf_counter() - start)
        nodes.append(result.nodes)
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    figures = {
        "deals": args.deals,
        "median_s": round(statistics.median(times), 4),
        "p99_s": round(p99, 4),
        "max_s": round(ordered[-1], 4),
        "mean_nodes": round(statistics.mean(nodes)),
        "solver_nodes_per_s": round(sum(nodes) / sum(times)),
        "engine_nodes_per_s": round(engine_rate(3.0)),
        "python": platform.python_version(),
        "compiled": False,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for name, value in figures.items():
            print(f"{name:>20}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
