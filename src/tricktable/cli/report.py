"""``tricktable report``: a tournament's standings, ratings and strategy as one HTML page.

Reads a tournament from the database (the newest unless ``--name`` is given) and writes
``OUT/index.html``: self-contained (figures inlined, no script, no outside address), so it
opens offline in any browser. Prints where it wrote it and what reading the games cost.
docs/report.md explains every section.

The database is opened read-only (nothing is ever written to it); the page is written
atomically, to a regular file only, and where it goes is checked before the games are read.
Exit status: 0, or 2 with one line on standard error for a database that is missing, damaged or
cannot be read, a tournament that is not there, an unknown entrant in ``--insights-from``, or a
place that cannot take the page.
"""

from __future__ import annotations

import time

from tricktable.cli import fail
from tricktable.db.store import Store
from tricktable.errors import TricktableError


def run_report(db: str, name: str | None, out: str, only: str | None, quiet: bool = False) -> int:
    """Write the report of tournament ``name`` (None: the newest) in ``db`` into folder ``out``;
    the exit status. ``only``: comma-separated entrants whose bids the strategy counts."""
    from tricktable.analysis.report import read_report, report_path, write_report

    try:
        entrants = None if only is None else [e.strip() for e in only.split(",") if e.strip()]
        report_path(out)  # a place that cannot take the page is said before the work
        with Store.open(db, readonly=True) as store:
            report = read_report(store, name, only=entrants)
        began = time.perf_counter()
        path = write_report(report, out)
        drawn = time.perf_counter() - began
    except TricktableError as exc:
        return fail(exc)
    if not quiet:
        ins = report.insights
        hands = f" ({ins.hands} hands)" if ins.supported else ""
        print(f"wrote {path}")
        print(
            f"read {report.games} games{hands} in {report.seconds:.2f} s: "
            f"{report.per_game_ms():.3f} ms a game, its record replayed; "
            f"figures and page in {drawn:.2f} s"
        )
    return 0
