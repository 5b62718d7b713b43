"""Pool duels played in chunks: ``tricktable duel ... --json`` outputs, one per chunk, into one
figure — the mean of every paired difference with its 95% interval, and the deals won.

A long duplicate measurement is best run in chunks of consecutive seeds (each chunk a process
that can be stopped, resumed or spread over machines): each chunk's JSON keeps its deals'
count, mean and standard deviation, from which the sum and the sum of squares of all the
deals' differences are exact, so the pooled mean and standard deviation are those of one long
duel over the same deals. The interval is Student's t (normal beyond 30 degrees of freedom's
table), the deals won's Wilson's, as the duel's own.

    python benchmarks/pool_duels.py '/tmp/pimc/runs/pvh-*.json' [--json OUT]

Every file must be a duel of the same two players and game; one that is not is named and
refused.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
from pathlib import Path
from typing import Any

#: the two-sided 95% points of Student's t for small degrees of freedom (then the normal's)
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306}
_T95 |= {9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042}
_Z95 = 1.959964


def t95(df: int) -> float:
    """The 95% two-sided point of Student's t with ``df`` degrees of freedom (conservative:
    the nearest tabled df at or below; the normal's beyond 30)."""
    if df > 30:
        return _Z95 if df > 120 else 2.0 - (df - 30) * (2.0 - _Z95) / 90
    return _T95[max(k for k in _T95 if k <= df)]


def pool(paths: list[str]) -> dict[str, Any]:
    """The pooled figure of the duel chunks in ``paths``."""
    n = 0
    total = 0.0
    squares = 0.0
    won = 0.0
    players: tuple[str, str, str] | None = None
    seeds: list[int] = []
    for path in paths:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        who = (data["game"], data["a"], data["b"])
        if players is None:
            players = who
        elif who != players:
            raise SystemExit(f"{path}: a duel of {who}, not of {players}")
        diff = data["difference"]
        count, mean, sd = diff["n"], diff["mean"], diff["sd"] or 0.0
        total += mean * count
        squares += sd * sd * (count - 1) + count * mean * mean
        n += count
        won += data["deals_won"]["a"] + 0.5 * data["deals_won"]["tied"]
        seeds.append(data["seed"])
    if players is None or n < 2:
        raise SystemExit("fewer than two deals to pool")
    mean = total / n
    sd = math.sqrt(max(0.0, (squares - n * mean * mean) / (n - 1)))
    half = t95(n - 1) * sd / math.sqrt(n)
    rate = won / n
    z2 = _Z95 * _Z95
    centre = (rate + z2 / (2 * n)) / (1 + z2 / n)
    spread = _Z95 * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return {
        "game": players[0],
        "a": players[1],
        "b": players[2],
        "chunks": len(paths),
        "seeds": [min(seeds), max(seeds)],
        "deals": n,
        "difference": {"mean": mean, "sd": sd, "low": mean - half, "high": mean + half},
        "deals_won": {"a": won, "rate": rate, "low": centre - spread, "high": centre + spread},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("patterns", nargs="+", help="duel JSON files (glob patterns)")
    parser.add_argument("--json", type=Path, help="write the pooled figure here too")
    args = parser.parse_args()
    paths = sorted({p for pattern in args.patterns for p in glob.glob(pattern)})
    if not paths:
        raise SystemExit("no file matches")
    out = pool(paths)
    d, w = out["difference"], out["deals_won"]
    print(
        f"{out['game']}: {out['a']} v {out['b']}, {out['deals']} deals in {out['chunks']} "
        f"chunks (seeds {out['seeds'][0]}–{out['seeds'][1]}): {d['mean']:+.3f} a deal "
        f"[{d['low']:+.3f}, {d['high']:+.3f}] (sd {d['sd']:.3f}); deals won by A "
        f"{100 * w['rate']:.1f}% [{100 * w['low']:.1f}, {100 * w['high']:.1f}]"
    )
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
