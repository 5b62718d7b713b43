"""The size of a seat's snapshot on the wire, at the decisions that take several cards.

A Hearts pass was 286 legal actions (one for each three cards of thirteen); it is now one
choice (issue 26). Prints, for each game, the JSON size in bytes of the snapshot of the seat
to act at its first decision of each kind (random play from ``--seed``), and the time to make
it (median of ``--runs``). Usage: ``PYTHONPATH=src python benchmarks/snapshot_size.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from tricktable.games import load_game
from tricktable.seat import snapshot_of

GAMES = ["setback", "hearts", "pitch-with-kitty", "nine-card-pitch", "cinch", "euchre"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    for name in GAMES:
        game = load_game(name)
        state = game.new_state(args.seed)
        rng = random.Random(args.seed)
        seen: set[int] = set()
        for _ in range(400):
            if state.is_over:
                break
            if state.to_act < 0:
                if seen:
                    break
                state.deal()
                continue
            phase = state.phase
            if phase not in seen:
                seen.add(phase)
                seat = state.to_act
                times = []
                for _ in range(args.runs):
                    start = time.perf_counter()
                    snap = snapshot_of(state, seat)
                    times.append(time.perf_counter() - start)
                size = len(json.dumps(snap))
                legal = len(snap["legal"])
                ms = statistics.median(times) * 1000
                print(f"{name:18} phase {phase:>2}  {size:6,} bytes  {legal:3} legal  {ms:6.2f} ms")
            state.apply(rng.choice(state.legal_actions()))


if __name__ == "__main__":
    main()
