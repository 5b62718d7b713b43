"""Instructions a hand of random play, counted by callgrind: exact, whatever the machine's load.

Not a test. For each source tree given (compiled in place: ``python setup.py build_ext
--inplace`` in a clone) and each game, it runs random play of ``--hands`` hands through
``run_match`` under ``valgrind --tool=callgrind``, and again for 0 hands (the imports and a
warm-up match), and prints the difference a hand — so two builds compare by the work their
play does, not by the wall clock of a shared machine::

    .venv/bin/python benchmarks/play_instructions.py before=/tmp/old/src after=src \\
        --games setback,hearts,spades,euchre --hands 500

Needs valgrind (``apt-get install valgrind``). A run of 500 Hearts hands takes about a minute.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

#: the child: imports, one warm-up match, then whole matches of random play up to the hands
CHILD = """
import sys
from tricktable.runner import MatchSpec, run_match
game, hands = sys.argv[1], int(sys.argv[2])
players = ("random",) * 4
run_match(MatchSpec(game, players, seed=99, max_hands=2))
played, seed = 0, 1
while played < hands:
    played += run_match(MatchSpec(game, players, seed=seed, max_hands=50)).result.hands
    seed += 1
print(played)
"""


def instructions(src: str, game: str, hands: int) -> tuple[int, int]:
    """Instructions of the child (all of it) and the hands it played."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        done = subprocess.run(
            [
                *("valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"),
                *(sys.executable, "-c", CHILD, game, str(hands)),
            ],
            env={**os.environ, "PYTHONPATH": src},
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no count from valgrind for {src} {game}: {done.stderr[-300:]}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", help="NAME=SRC_FOLDER, one a build to compare")
    parser.add_argument("--games", default="setback,hearts,spades,euchre")
    parser.add_argument("--hands", type=int, default=500)
    args = parser.parse_args()
    trees = [tree.split("=", 1) for tree in args.trees]
    print("| game | " + " | ".join(name for name, _ in trees) + " | ratio to the first |")
    print("|---|" + "---:|" * (len(trees) + 1))
    for game in args.games.split(","):
        per_hand = []
        for _, src in trees:
            total, played = instructions(src, game, args.hands)
            base, _ = instructions(src, game, 0)
            per_hand.append((total - base) / played)
        ratios = " / ".join(f"{value / per_hand[0]:.3f}" for value in per_hand[1:]) or "1"
        cells = " | ".join(f"{value:,.0f}" for value in per_hand)
        print(f"| {game} | {cells} | {ratios} |", flush=True)


if __name__ == "__main__":
    main()
