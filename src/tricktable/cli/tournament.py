"""``tricktable tournament``: entrants from the command line or a TOML file, into a database.

Run it again with the same arguments (or just ``--name``) after a kill and it resumes: the
units stored are not played again, and none is counted twice. A tournament given no ``--seed``
draws one, stores it and prints it; without ``--name`` either, its name comes from its
settings, so the same command finds it again. A stored tournament is data: resumed by name
alone, it never starts a program, a plug-in or a URL its entrants name — those must be given
again. Everything that can refuse a start is decided reading the database read-only, so a
refused start writes nothing to it.

SIGTERM stops it as Ctrl-C does. Exit status: 0 done, 2 bad input (one line on standard
error), 130 interrupted by Ctrl-C or SIGTERM (what was stored is kept).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import signal
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict
from types import FrameType
from typing import Any

from tricktable.cli import one_line
from tricktable.errors import OptionError, TricktableError
from tricktable.interrupts import SignalWatch
from tricktable.limits import RunnerOptions

#: what the command says when stopped, by Ctrl-C or SIGTERM
STOPPED = "stopped: every finished unit is stored; run the same command again to resume"
#: the exit status of a command stopped by Ctrl-C, and by SIGTERM alike
INTERRUPTED = 130


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
    live: bool = False,
) -> int:
    """Start or resume a tournament and play it to its end; the exit status. ``live``: each
    game journaled while it is played (:mod:`tricktable.tournament.live`)."""
    with terminate_as_interrupt():
        try:
            summary = _tournament(
                entrants,
                config=config,
                name=name,
                given={
                    "game": game_spec,
                    "format": fmt,
                    "deals": deals,
                    "matches": None if deals is not None else matches,
                    "max_hands": max_hands,
                    "seed": seed,
                    "partnerships": partnerships,
                    "limits": limits,
                },
                db=db,
                workers=workers,
                cluster=cluster,
                as_json=as_json,
                live=live,
            )
        except KeyboardInterrupt:
            print(STOPPED, file=sys.stderr)
            return INTERRUPTED
        except TricktableError as exc:
            print(one_line(f"error: {exc}"), file=sys.stderr)
            return 2
    if as_json:
        print(json.dumps(summary))
        return 0
    _print_summary(summary)
    from tricktable.cli.standings import run_standings

    print()
    return run_standings(db, summary["tournament"], as_json=False)


def _tournament(
    entrants: tuple[str, ...],
    *,
    config: str | None,
    name: str | None,
    given: dict[str, Any],
    db: str,
    workers: int | None,
    cluster: str | None,
    as_json: bool,
    live: bool = False,
) -> dict[str, Any]:
    """Plan, start and play the tournament; its summary."""
    from tricktable.db.store import Store, parse_target
    from tricktable.tournament import run as run_mod
    from tricktable.tournament.spec import (
        TournamentSpec,
        parse_entrants,
        read_spec_file,
        spec_of_file,
    )
    from tricktable.workers import default_workers

    spec: TournamentSpec | None = None
    seed_given = given["seed"] is not None
    if config is not None:
        fields = read_spec_file(config)
        seed_given = seed_given or "seed" in fields
        if entrants:
            given["entrants"] = parse_entrants(entrants)
        if name is not None:
            given["name"] = name
        fields.update({k: v for k, v in given.items() if v is not None})
        spec = spec_of_file(config, fields)
    elif entrants:
        fields = {k: v for k, v in given.items() if v is not None}
        fields.setdefault("game", "setback")
        fields["entrants"] = parse_entrants(entrants)
        spec = TournamentSpec(name=name or default_name(fields), **fields)
    # Every refusal before anything is written: the database is looked at read-only.
    looked = Store.look(db)
    try:
        planned = run_mod.plan(looked, spec, name, where=parse_target(db)[1], seed_given=seed_given)
    finally:
        if looked is not None:
            looked.close()
    if live and cluster is not None:
        # A cluster's workers may be on machines that cannot reach the database.
        raise OptionError("--live journals from this machine's workers: not with --cluster")
    # The cluster first: a bad address must not leave a tournament behind in the database.
    executor: Any = contextlib.nullcontext()
    if cluster is not None:
        from tricktable.tournament.cluster import dask_executor

        executor = dask_executor(cluster, workers)
    # SignalWatch: a Ctrl-C Python lost is raised at the next step of the cluster's loop,
    # which no workers.executor() watches (tricktable.interrupts)
    with executor, SignalWatch(), Store.open(db) as store:
        started = run_mod.begin(store, planned)
        if not as_json:
            print(_started_line(started), flush=True)
        count = workers or default_workers()
        began = time.perf_counter()
        plays = executor if cluster is not None else None
        target = None
        if live:
            from tricktable.tournament.live import LiveTarget

            names = tuple(n for n, _ in started.spec.entrants)
            target = LiveTarget(db, started.tid, names)
        stored = _play(store, started, count, plays, as_json, target)
        elapsed = time.perf_counter() - began
        return _summary(db, started, stored, elapsed)


def default_name(fields: dict[str, Any]) -> str:
    """The name of a tournament given none: ``tournament-SEED`` for one given its seed, else
    from its settings (entrants, game, format...), so that the same command finds it again."""
    if fields.get("seed") is not None:
        return f"tournament-{fields['seed']}"
    settings = {k: asdict(v) if isinstance(v, RunnerOptions) else v for k, v in fields.items()}
    text = json.dumps(settings, sort_keys=True, default=str)
    return "tournament-" + hashlib.blake2b(text.encode(), digest_size=4).hexdigest()


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within: SIGTERM stops the command as Ctrl-C does (a ``KeyboardInterrupt``), so that
    ``kill`` or ``timeout`` keeps what is stored, ends the workers and exits with 130.

    A second SIGTERM while stopping ends the process at once, as SIGTERM always did.
    """

    def interrupt(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: signals are not this thread's to handle
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _started_line(started: Any) -> str:
    spec = started.spec
    verb = "resuming" if started.resumed else "starting"
    return f"{verb} {spec.name} (seed {spec.seed}): {len(started.done)} of {started.total} stored"


def _play(
    store: Any, started: Any, workers: int, executor: Any, quiet: bool, live: Any = None
) -> int:
    from tricktable.tournament import run as run_mod

    if quiet or not sys.stdout.isatty():
        return run_mod.run(store, started, workers, executor, live=live)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*Progress.get_default_columns()[:1], *columns) as bar:
        task = bar.add_task(started.spec.name, total=started.total)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return run_mod.run(store, started, workers, executor, progress, live=live)


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
        "seed": spec.seed,
        "spec": spec.to_dict(),
    }


def _print_summary(summary: dict[str, Any]) -> None:
    spec = summary["spec"]
    what = f"{spec['deals']} deals" if spec["deals"] else f"{spec['matches']} matches"
    print(
        f"{summary['tournament']}: {spec['game']}, {spec['format']}, {what} a table, "
        f"{len(spec['entrants'])} entrants, seed {summary['seed']}; "
        f"{summary['units']} tables in all"
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
