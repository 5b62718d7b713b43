"""Running a tournament into the database: start it, or resume it, and store every unit played.

:func:`start` finds the tournament by name in the store — a new one is created with its
entrants; an existing one must have the same spec (or none given: it resumes as stored).
:func:`run` plays the units not stored yet and stores what the workers return, a batch per
transaction: a kill at any moment loses at most the batches in flight, which a resumed run
plays again, and the unit keys keep any unit from being counted twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from tricktable.db.store import GameRow, Store
from tricktable.errors import OptionError, TricktableError
from tricktable.runner import HUMAN, check_players
from tricktable.tournament.play import BATCH, Played, batches, play_units, run_local
from tricktable.tournament.schedule import Unit, count, units
from tricktable.tournament.spec import TournamentSpec

#: a tournament's statuses in the database
RUNNING, FINISHED = "running", "finished"

#: maps a function over batches of units, yielding each batch's results as it finishes
Executor = Callable[
    [Iterator[list[Unit]], Callable[[Sequence[Unit]], list[Played]]], Iterator[list[Played]]
]


@dataclass(frozen=True)
class Started:
    """A tournament ready to run: its id, spec, entrant ids (by index) and what is left."""

    tid: int
    spec: TournamentSpec
    entrant_ids: tuple[int, ...]
    total: int
    done: frozenset[str]
    resumed: bool


def check_entrants(spec: TournamentSpec) -> None:
    """Make each entrant's bot once: a bad spec fails now, naming the entrant, not in a worker."""
    for name, player in spec.entrants:
        if player.strip().lower() == HUMAN:
            raise OptionError(f"entrant {name!r}: a person cannot play a tournament")
        try:
            check_players([player], spec.limits)
        except TricktableError as exc:
            raise OptionError(f"entrant {name!r}: {str(exc).removeprefix('seat 0: ')}") from None


def start(store: Store, spec: TournamentSpec | None, name: str | None = None) -> Started:
    """The tournament ``spec`` names, created or found; ``spec`` None resumes ``name`` as stored."""
    wanted = spec.name if spec is not None else name
    if wanted is None:
        raise OptionError("name the tournament to resume (--name), or give its entrants")
    found = store.find_tournament(wanted)
    if found is None:
        if spec is None:
            raise OptionError(f"no tournament {wanted!r} in {store.where}")
        check_entrants(spec)  # before anything is stored
        tid = store.create_tournament(spec.name, spec.to_dict(), list(spec.entrants))
        resumed = False
    else:
        stored = TournamentSpec.from_dict(found.spec)
        check_entrants(spec or stored)
        if spec is not None and spec.to_dict() != stored.to_dict():
            raise OptionError(
                f"tournament {wanted!r} in {store.where} was started with other settings: "
                "run it again with the same ones (or none, to resume it as stored), or pick "
                "another --name"
            )
        spec, tid, resumed = stored, found.id, True
    ids = {e.name: e.id for e in store.entrants(tid)}
    entrant_ids = tuple(ids[n] for n, _ in spec.entrants)
    return Started(tid, spec, entrant_ids, count(spec), frozenset(store.done_units(tid)), resumed)


def run(
    store: Store,
    started: Started,
    workers: int = 1,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Play and store every unit not stored yet; the number stored now.

    ``executor`` maps :func:`~tricktable.tournament.play.play_units` over batches (default:
    local processes); ``progress(done, total)`` is told after each stored batch.
    """
    done = started.done
    todo = units(started.spec, skip=done)
    run_batches: Executor = executor or (lambda work, play: run_local(work, workers, play))
    stored = 0
    finished = len(done)
    store.set_status(started.tid, RUNNING)
    if progress is not None:
        progress(finished, started.total)
    # Whole matches are few a batch: one may last hundreds of hands.
    size = BATCH if started.spec.deals is not None else 2
    for played in run_batches(batches(todo, size), play_units):
        stored += store.add_games(_row(started, p) for p in played)
        finished += len(played)
        if progress is not None:
            progress(finished, started.total)
    if store.game_count(started.tid) >= started.total:
        store.set_status(started.tid, FINISHED)
    return stored


def _row(started: Started, played: Played) -> GameRow:
    ids = started.entrant_ids
    return GameRow(
        tournament_id=started.tid,
        unit=played.key,
        round_no=played.deal,
        table_no=played.table,
        seats=[ids[e] for e in played.entrants],
        seed=played.seed,
        record=played.record,
        result=played.result,
        faults=list(played.faults),
    )
