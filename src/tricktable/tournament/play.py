"""Playing units: a worker's function, and the loop that feeds workers and stores what they play.

:func:`play_units` plays a batch of units in one process, keeping the bots between units (a
:class:`~tricktable.runner.BotPool`), and returns :class:`Played` results: picklable, with the
record already JSON text, so the process that writes the database only writes. Any executor
that maps a function over batches runs a tournament: processes on this machine
(:func:`run_local`) or a Dask cluster (:mod:`tricktable.tournament.cluster`).

The results of a unit depend on its seed alone, never on the worker or on what ran before, so a
tournament comes out the same whatever the number of workers or machines.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tricktable.engine.trick import TrickState
from tricktable.interrupts import raise_if_lost
from tricktable.runner import BotPool, MatchResult, MatchSpec, MatchStopped, run_match
from tricktable.tournament.schedule import Unit
from tricktable.workers import executor

if TYPE_CHECKING:
    from tricktable.tournament.live import LiveJournal, LiveTarget

#: units a worker plays per task, and the database stores per transaction: large enough
#: that a task's and a commit's overhead are small, small enough that a kill loses little
#: and the progress bar moves
BATCH = 100


@dataclass(frozen=True)
class Played:
    """A unit played: what the database stores for it (``entrants`` are indices)."""

    key: str
    group: int
    deal: int
    table: int
    entrants: tuple[int, ...]
    seed: int
    record: str
    result: dict[str, Any]
    faults: tuple[dict[str, Any], ...]


def play_units(batch: Sequence[Unit], live: LiveTarget | None = None) -> list[Played]:
    """Play ``batch`` in order, in this process (what a worker runs); ``live``: journal each
    game while it is played, to be watched (:mod:`tricktable.tournament.live`)."""
    pool = BotPool()
    journal = None
    if live is not None:
        from tricktable.tournament.live import LiveJournal  # the db extra's: only when asked

        journal = LiveJournal(live)
    try:
        return [_play(unit, pool, journal) for unit in batch]
    finally:
        pool.close()
        if journal is not None:
            journal.close()


def _play(unit: Unit, pool: BotPool, journal: LiveJournal | None = None) -> Played:
    spec = MatchSpec(
        game=unit.game,
        players=unit.players,
        seed=unit.seed,
        limits=unit.limits,
        max_hands=unit.max_hands,
        substitute=unit.substitute,
    )
    try:
        if journal is None:
            outcome = run_match(spec, pool=pool)
        else:
            journal.begin(unit.key, unit.entrants, unit.seed)
            seen: list[TrickState] = []

            def started(state: TrickState) -> None:
                seen.append(state)
                journal.started(state)

            try:
                outcome = run_match(
                    spec,
                    pool=pool,
                    listener=journal.listen,
                    on_start=started,
                    on_fault=journal.fault,
                )
            finally:
                if seen:
                    journal.end(seen[0])
    except MatchStopped as stop:
        # An engine failure or a substitute that failed in turn: the unit's record so far is
        # kept, marked stopped, so the tournament goes on and the failure can be replayed.
        outcome = stop.outcome
    if outcome.faults:
        pool.discard({int(f["seat"]) for f in outcome.faults if "seat" in f})
    result = result_of(outcome.result, unit.group)
    return Played(
        key=unit.key,
        group=unit.group,
        deal=unit.deal,
        table=unit.table,
        entrants=unit.entrants,
        seed=unit.seed,
        record=json.dumps(outcome.record, separators=(",", ":")),
        result=result,
        faults=tuple(dict(f) for f in outcome.faults),
    )


def result_of(res: MatchResult, group: int) -> dict[str, Any]:
    """What a game's row stores of its result (``group``: its unit's group of entrants)."""
    return {
        "status": res.status,
        "scores": list(res.scores),
        "winner": res.winner,
        "shared": res.shared,
        "hands": res.hands,
        "group": group,
        "forfeited_by": res.forfeited_by,
    }


def batches(units: Iterable[Unit], size: int = BATCH) -> Iterator[list[Unit]]:
    """``units`` in lists of ``size`` (the last may be shorter)."""
    batch: list[Unit] = []
    for unit in units:
        batch.append(unit)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def run_local(
    work: Iterable[list[Unit]], workers: int, play: Callable[[Sequence[Unit]], list[Played]]
) -> Iterator[list[Played]]:
    """Play batches on ``workers`` processes (in this one for 1), yielding each as it finishes.

    At most two batches a worker are in flight, so a kill loses little and memory stays flat.
    Stopped (Ctrl-C, SIGTERM made an interrupt, the consumer closing the generator), it ends
    its workers at once rather than wait for their batches — those are played again on resume
    — so that none outlives the run (:func:`tricktable.workers.executor`).
    """
    if workers <= 1:
        for batch in work:
            raise_if_lost()  # a Ctrl-C lost while the last batch was stored
            yield play(batch)
        return
    with executor(workers) as pool:
        pending: set[Future[list[Played]]] = set()
        source = iter(work)
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * workers:
                queued = next(source, None)
                if queued is None:
                    exhausted = True
                    break
                pending.add(pool.submit(play, queued))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                raise_if_lost()  # a Ctrl-C lost here or while the last batch was stored
                yield future.result()
