"""The table's asyncio driver, timed: how many hands a second a :class:`Table` plays.

Not a test, and not part of ``make bench``. Four bots (default: random) play Setback at a
table driven by :func:`tricktable.table.run`, each decision through its bot's worker
thread, as at the full-screen table; ``--pace`` adds an empty ``pace`` hook (the screen's),
to see what awaiting it costs. Best of ``--runs``. Compare two trees by running it with
each on ``PYTHONPATH``, alternately::

    PYTHONPATH=src .venv/bin/python benchmarks/table_speed.py --hands 300 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import time

from tricktable.games import load_game
from tricktable.table import Table, run


async def _nothing(_table: Table) -> None:
    return None


def once(game: str, bot: str, hands: int, seed: int, pace: bool) -> float:
    """Hands a second of one match of ``hands`` hands at a new table."""
    table = Table(load_game(game), [bot] * 4, seed)
    started = time.perf_counter()
    if pace:
        asyncio.run(run(table, max_hands=hands, pace=_nothing))
    else:
        asyncio.run(run(table, max_hands=hands))
    seconds = time.perf_counter() - started
    table.close()
    return len(table.state.history) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="setback")
    parser.add_argument("--bot", default="random")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pace", action="store_true", help="with an empty pace hook")
    args = parser.parse_args()
    rates = [once(args.game, args.bot, args.hands, args.seed, args.pace) for _ in range(args.runs)]
    print(f"{args.game}, {args.bot} x4, {args.hands} hands: best {max(rates):,.0f} hands/s")


if __name__ == "__main__":
    main()
