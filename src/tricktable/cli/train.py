"""``tricktable train cfr``: train Setback's CFR strategy into SQLite, on every core.

Progress goes to standard error every chunk (about 20 s); the final line, on standard
output, gives the iterations, the speed, the workers and the keys. A bad, corrupt or foreign
database is one line on standard error and exit status 2; Ctrl-C saves what was merged and
exits 130.
"""

from __future__ import annotations

import sys

from tricktable.cli import fail
from tricktable.errors import TricktableError
from tricktable.workers import default_workers


def run_train_cfr(
    iterations: int | None,
    db: str,
    workers: int | None,
    seed: int,
    seconds: float | None,
    compact_to: str | None = None,
    min_weight: float = 0.0,
) -> int:
    """Train (see :func:`tricktable.cfr.train.train`), say how it went; the exit status."""
    from tricktable.cfr.store import Store, compact
    from tricktable.cfr.train import Progress, train

    workers = workers or default_workers()

    def progress(p: Progress) -> None:
        print(
            f"  {p.iterations} iterations in {p.seconds:.0f} s ({p.rate:.2f}/s), {p.keys} keys",
            file=sys.stderr,
            flush=True,
        )

    try:
        done = train(db, iterations, seconds, workers, seed, progress)
        print(
            f"trained {done.iterations} iterations in {done.seconds:.1f} s"
            f" ({done.rate:.2f} iterations/s, {workers} workers); {db} holds {done.keys} keys"
            f" from {done.total_iterations} iterations"
        )
        if compact_to is not None:
            store = Store.open(db, readonly=True)
            try:
                kept = compact(store, compact_to, min_weight)
            finally:
                store.close()
            print(f"wrote the average strategy of {kept} keys to {compact_to}")
    except KeyboardInterrupt:
        print("interrupted: what was merged is saved", file=sys.stderr)
        return 130
    except TricktableError as exc:
        return fail(exc)
    return 0
