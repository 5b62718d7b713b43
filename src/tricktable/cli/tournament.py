"""``tricktable tournament``: entrants from the command line or a TOML file, into a database.

Run it again with the same arguments (or just ``--name``) after a kill and it resumes: the
units stored are not played again, and none is counted twice. Exit status: 0 done, 2 bad input
(one line on standard error), 130 interrupted (what was stored is kept).
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from typing import Any

from tricktable.errors import TricktableError
from tricktable.limits import RunnerOptions


def run_tournament_command(
    entrants: tuple[str, ...],
    *,
    config: str | None,
    name: str | None,
    game_spec: str | None,
    fmt: str | None,
    deals: int | None,
    matches: int | None,
    max_hands: int | None,
    seed: int | None,
    partnerships: str | None,
    limits: RunnerOptions | None,
    db: str,
    workers: int | None,
    cluster: str | None,
    as_json: bool,
) -> int:
    """Start or resume a tournament and play it to its end; the exit status."""
    from tricktable.db.store import Store
    from tricktable.tournament import run as run_mod
    from tricktable.tournament.spec import TournamentSpec, load_spec_file, parse_entrants
    from tricktable.workers import default_workers

    given: dict[str, Any] = {
        "game": game_spec,
        "format": fmt,
        "deals": deals,
        "matches": matches,
        "max_hands": max_hands,
        "seed": seed,
        "partnerships": partnerships,
        "limits": limits,
    }
    if deals is not None:
        given["matches"] = None
    try:
        spec: TournamentSpec | None = None
        if config is not None:
            if entrants:
                given["entrants"] = parse_entrants(entrants)
            spec = load_spec_file(config, name=name, **given)
        elif entrants:
            fields = {k: v for k, v in given.items() if v is not None}
            fields.setdefault("game", "setback")
            spec = TournamentSpec(
                name=name or f"tournament-{fields.get('seed', 1)}",
                entrants=parse_entrants(entrants),
                **fields,
            )
        # The cluster first: a bad address must not leave a tournament behind in the database.
        executor: Any = contextlib.nullcontext()
        if cluster is not None:
            from tricktable.tournament.cluster import dask_executor

            executor = dask_executor(cluster, workers)
        with executor, Store.open(db) as store:
            started = run_mod.start(store, spec, name)
            count = workers or default_workers()
            began = time.perf_counter()
            plays = executor if cluster is not None else None
            stored = _play(store, started, count, plays, as_json)
            elapsed = time.perf_counter() - began
            summary = _summary(db, started, stored, elapsed)
    except KeyboardInterrupt:
        print(
            "stopped: every finished unit is stored; run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    except TricktableError as exc:
        print(f"tricktable tournament: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(summary))
        return 0
    _print_summary(summary)
    from tricktable.cli.standings import run_standings

    print()
    return run_standings(db, summary["tournament"], as_json=False)


def _play(store: Any, started: Any, workers: int, executor: Any, quiet: bool) -> int:
    from tricktable.tournament import run as run_mod

    if quiet or not sys.stdout.isatty():
        return run_mod.run(store, started, workers, executor)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*Progress.get_default_columns()[:1], *columns) as bar:
        task = bar.add_task(started.spec.name, total=started.total)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return run_mod.run(store, started, workers, executor, progress)


def _summary(db: str, started: Any, stored: int, elapsed: float) -> dict[str, Any]:
    spec = started.spec
    return {
        "tournament": spec.name,
        "database": db,
        "resumed": started.resumed,
        "units": started.total,
        "stored_now": stored,
        "stored_before": len(started.done),
        "seconds": round(elapsed, 3),
        "units_per_second": round(stored / elapsed, 1) if elapsed > 0 and stored else None,
        "spec": spec.to_dict(),
    }


def _print_summary(summary: dict[str, Any]) -> None:
    spec = summary["spec"]
    what = f"{spec['deals']} deals" if spec["deals"] else f"{spec['matches']} matches"
    print(
        f"{summary['tournament']}: {spec['game']}, {spec['format']}, {what} a table, "
        f"{len(spec['entrants'])} entrants; {summary['units']} tables in all"
    )
    rate = summary["units_per_second"]
    print(
        f"stored {summary['stored_now']} now"
        + (f" ({rate} a second)" if rate else "")
        + (f", {summary['stored_before']} before (resumed)" if summary["resumed"] else "")
        + f", in {summary['database']}"
    )
    print(
        f"report: tricktable report --db {summary['database']} --name {summary['tournament']}"
        " --out report"
    )
