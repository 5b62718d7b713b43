"""Train Setback's CFR strategy by issue 21's scheme, compact it and duel it, in one command.

For a machine with many cores and a few minutes (docs/cfr.md, "Training on a machine with
many cores"):

1. the auction and the first lead learnt against the heuristic's card play and the heuristic
   as opponents (``--phase auction --payoff heuristic --against heuristic``);
2. then, into the same database, the card play against heuristic opponents
   (``--phase play ...``);
3. the database compacted to the shipped file's budget in each of a few forms — the
   auction's keys alone or every phase's, the average, current or purified strategy;
4. each form, and the strategy shipped now, duelled against the heuristic on the same
   duplicate deals (``tricktable duel``, fixed length, 95% intervals, ``--duel-seed``); then
   the form with the best mean, and the strategy shipped now, again on other deals
   (``--confirm-seed``): the figure to quote, free of the choice among forms.

Everything goes to ``--out``: ``cfr-train-sums.db`` (the training database, only with
``--keep-sums``: it may be hundreds of megabytes), ``auction-sums.db`` (the database after
step 1), the compacted forms ``cfr-*.db``, ``duels.jsonl`` (one duel's JSON a line) and
``summary.txt`` (the table printed at the end).

It needs only the standard library, the source tree and click (``tricktable duel``)::

    PYTHONPATH=src python benchmarks/cfr_train.py --out "$OUT" --workers 16 \\
        --auction-seconds 240 --play-seconds 90 --deals 2000

About 240 + 90 s of training, a minute of compaction and a minute of duels on 16 cores:
under 8 minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

from tricktable.bots.cfr_bot import shipped_db
from tricktable.cfr.store import Store, compact
from tricktable.cfr.train import Progress, Scheme, train

#: the shipped file's budget, in keys (the first scheme's shipped 78,692 keys in 1.9 MB)
MAX_KEYS = 78_000

#: the compacted forms: (name, phase kept, strategy)
FORMS = [
    ("auction-average", "auction", "average"),
    ("auction-current", "auction", "current"),
    ("auction-best", "auction", "best"),
    ("all-average", "all", "average"),
    ("all-current", "all", "current"),
    ("all-best", "all", "best"),
]


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _train(db: str, seconds: float, workers: int, seed: int, scheme: Scheme) -> Progress:
    def progress(p: Progress) -> None:
        _say(f"  {scheme.phase}: {p.iterations} iterations in {p.seconds:.0f} s, {p.keys} keys")

    start = time.monotonic()
    done = train(db, None, seconds, workers, seed, progress, scheme)
    _say(
        f"{scheme.text()}: {done.iterations} iterations in {time.monotonic() - start:.0f} s"
        f" ({done.rate:.1f}/s on {workers} workers), {done.keys} keys"
    )
    return done


def _duel(db: str, deals: int, seed: int, workers: int) -> dict[str, object]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tricktable",
            "duel",
            f"cfr(db={db})",
            "heuristic",
            "--deals",
            str(deals),
            "--no-sprt",
            "--seed",
            str(seed),
            "--workers",
            str(workers),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        return {"error": done.stderr.strip()[-500:]}
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="folder for every file written")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--auction-seconds", type=float, default=240.0)
    parser.add_argument("--play-seconds", type=float, default=90.0)
    parser.add_argument("--deals", type=int, default=2000, help="duplicate deals a duel")
    parser.add_argument("--seed", type=int, default=2026, help="the training's seed")
    parser.add_argument("--duel-seed", type=int, default=7, help="the deals forms are chosen on")
    parser.add_argument("--confirm-seed", type=int, default=2027, help="the deals quoted")
    parser.add_argument("--min-weight", type=float, default=3.0)
    parser.add_argument("--max-keys", type=int, default=MAX_KEYS)
    parser.add_argument("--keep-sums", action="store_true", help="keep the big database in --out")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(args.out if args.keep_sums else "/tmp", "cfr-train-sums.db")
    for path in (work, work + "-journal"):
        if os.path.exists(path):
            os.remove(path)
    auction = Scheme("auction", "heuristic", "heuristic")
    play = Scheme("play", "heuristic", "heuristic")
    _train(work, args.auction_seconds, args.workers, args.seed, auction)
    shutil.copy(work, os.path.join(args.out, "auction-sums.db"))
    if args.play_seconds > 0:
        _train(work, args.play_seconds, args.workers, args.seed + 1, play)
    forms: list[tuple[str, str]] = [("shipped", shipped_db())]
    # The play phase leaves the auction's keys as they were: their forms are compacted from the
    # small copy, not by reading every playout key again.
    small = Store.open(os.path.join(args.out, "auction-sums.db"), readonly=True)
    big = Store.open(work, readonly=True)
    try:
        for name, phase, strategy in FORMS:
            if phase != "auction" and args.play_seconds <= 0:
                continue
            path = os.path.join(args.out, f"cfr-{name}.db")
            start = time.monotonic()
            source = small if phase == "auction" else big
            kept = compact(source, path, args.min_weight, strategy, args.max_keys, phase)
            _say(
                f"{name}: {kept} keys, {os.path.getsize(path)} bytes"
                f" ({time.monotonic() - start:.0f} s)"
            )
            forms.append((name, path))
    finally:
        small.close()
        big.close()
    lines = [f"cfr v heuristic, {args.deals} duplicate deals, seed {args.duel_seed}"]
    means: dict[str, float] = {}
    with open(os.path.join(args.out, "duels.jsonl"), "w") as log:

        def duel(name: str, path: str, seed: int) -> None:
            result = _duel(path, args.deals, seed, args.workers)
            result["form"] = name
            log.write(json.dumps(result) + "\n")
            diff = result.get("difference")
            if isinstance(diff, dict):
                if seed == args.duel_seed:
                    means[name] = diff["mean"]
                lines.append(
                    f"{name:16s} {diff['mean']:+.3f}  ({diff['low']:+.3f} .. {diff['high']:+.3f})"
                    f"  n={diff['n']}"
                )
            else:
                lines.append(f"{name:16s} failed: {result.get('error')}")
            _say(lines[-1])

        for name, path in forms:
            duel(name, path, args.duel_seed)
        paths = dict(forms)
        trained = [name for name in means if name != "shipped"]
        if trained:
            best = max(trained, key=means.__getitem__)
            lines.append(f"the best form, {best}, on other deals: seed {args.confirm_seed}")
            for name in (best, "shipped"):
                duel(name, paths[name], args.confirm_seed)
    with open(os.path.join(args.out, "summary.txt"), "w") as summary:
        summary.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
