"""Running a tournament into the database: start it, or resume it, and store every unit played.

:func:`plan` decides what starting does, reading only, and holds every refusal: a new
tournament is checked (its entrants made once) and given its seed; a stored one is read back
as data — its spec checked field by field, its entrants matched to its spec — and must have the
same settings as those given again (or none given: it resumes as stored). A stored tournament
never starts a program, loads a plug-in or reaches a URL by itself: where its entrants would,
the person must give them again. :func:`begin` then creates the tournament or takes it up, so
that a refused start writes nothing (the command line plans on a read-only store).

:func:`run` plays the units not stored yet and stores what the workers return, a batch per
transaction: a kill at any moment loses at most the batches in flight, which a resumed run
plays again, and the unit keys keep any unit from being counted twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from tricktable.analysis.profile_store import fill_games
from tricktable.db.store import GameRow, Store
from tricktable.errors import OptionError, TricktableError, quote
from tricktable.runner import HUMAN, check_players
from tricktable.tournament.live import LiveTarget, forget
from tricktable.tournament.play import BATCH, Played, batches, play_units, run_local
from tricktable.tournament.schedule import Unit, count, units
from tricktable.tournament.spec import TournamentSpec, outside_players

#: a tournament's statuses in the database
RUNNING, FINISHED = "running", "finished"

#: maps a function over batches of units, yielding each batch's results as it finishes
Executor = Callable[
    [Iterator[list[Unit]], Callable[[Sequence[Unit]], list[Played]]], Iterator[list[Played]]
]


@dataclass(frozen=True)
class Plan:
    """What starting a tournament does: create ``spec`` (``tid`` None) or resume tournament
    ``tid``, whose stored spec ``spec`` is."""

    spec: TournamentSpec
    tid: int | None


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


def plan(
    store: Store | None,
    spec: TournamentSpec | None,
    name: str | None = None,
    *,
    where: str | None = None,
    seed_given: bool = True,
) -> Plan:
    """What starting ``spec`` (or, ``spec`` None, resuming ``name`` as stored) does, decided
    reading ``store`` only (None: a database with nothing in it yet, ``where``).

    ``seed_given`` False: ``spec``'s seed was drawn, not chosen; a stored tournament of that
    name resumes with its own.

    Raises an :class:`OptionError` (one line) for every reason not to start: a tournament to
    resume that is not there, is damaged, was started with other settings, or has entrants
    that would run a program, a plug-in or a URL and were not given again.
    """
    wanted = spec.name if spec is not None else name
    if wanted is None:
        raise OptionError("name the tournament to resume (--name), or give its entrants")
    where = store.where if store is not None else where or "the database"
    found = None if store is None else store.find_tournament(wanted)
    if found is None or store is None:
        if spec is None:
            raise OptionError(f"no tournament {quote(wanted)} in {where}")
        check_entrants(spec)
        return Plan(spec, None)
    # The lines below leave the database out (the person named it) so that they say it all.
    what = f"tournament {quote(wanted)}"
    try:
        stored = TournamentSpec.from_dict(found.spec)
    except OptionError as exc:
        raise OptionError(f"{what}: {exc}") from None
    listed = [(e.name, e.spec) for e in store.entrants(found.id)]
    if stored.name != found.name or listed != list(stored.entrants):
        raise OptionError(
            f"{what} is damaged: its name or entrants differ from its stored spec's; "
            "nothing was written to it"
        )
    if spec is None:
        outside = outside_players(stored)
        if outside:
            named = ", ".join(quote(n, 24) for n in outside[:3]) + (", ..." * (len(outside) > 3))
            raise OptionError(
                f"{what}: {named} would run a program, a plug-in or a URL, which a stored "
                "tournament never starts by itself: give its entrants again"
            )
    elif _settings(spec, seed_given) != _settings(stored, seed_given):
        raise OptionError(
            f"{what} was started with other settings: run it again with the same ones (or "
            "none, to resume it as stored), or pick another --name"
        )
    check_entrants(stored)
    return Plan(stored, found.id)


def _settings(spec: TournamentSpec, with_seed: bool) -> dict[str, object]:
    """What must match for a tournament to resume: everything, the seed if one was given."""
    out = spec.to_dict()
    if not with_seed:
        out.pop("seed")
    return out


def begin(store: Store, planned: Plan) -> Started:
    """Create or take up the tournament ``planned`` says, in ``store`` (open for writing)."""
    spec = planned.spec
    if planned.tid is None:
        tid = store.create_tournament(spec.name, spec.to_dict(), list(spec.entrants))
    else:
        found = store.find_tournament(spec.name)
        if found is None or found.id != planned.tid:
            raise OptionError(
                f"tournament {quote(spec.name)} in {store.where} changed while starting: "
                "run the command again"
            )
        tid = found.id
    ids = {e.name: e.id for e in store.entrants(tid)}
    if any(n not in ids for n, _ in spec.entrants):
        raise OptionError(f"tournament {quote(spec.name)} in {store.where}: entrants changed")
    entrant_ids = tuple(ids[n] for n, _ in spec.entrants)
    done = frozenset(store.done_units(tid)) if planned.tid is not None else frozenset()
    return Started(tid, spec, entrant_ids, count(spec), done, planned.tid is not None)


def start(store: Store, spec: TournamentSpec | None, name: str | None = None) -> Started:
    """The tournament ``spec`` names, created or found; ``spec`` None resumes ``name`` as stored."""
    return begin(store, plan(store, spec, name))


def run(
    store: Store,
    started: Started,
    workers: int = 1,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    live: LiveTarget | None = None,
) -> int:
    """Play and store every unit not stored yet; the number stored now.

    ``executor`` maps :func:`~tricktable.tournament.play.play_units` over batches (default:
    local processes); ``progress(done, total)`` is told after each stored batch. ``live``:
    the workers journal each game while they play it, and its rows go once it is stored
    (:mod:`tricktable.tournament.live`: what the web shows of a game being played).
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
    play: Callable[[Sequence[Unit]], list[Played]] = play_units
    if live is not None:
        play = partial(play_units, live=live)
    results = run_batches(batches(todo, size), play)
    try:
        for played in results:
            stored += store.add_games(_row(started, p) for p in played)
            if live is not None:
                forget(store, started.tid, (p.key for p in played))
            fill_games(store, started.tid, quiet=True)  # the players' pages' rows
            finished += len(played)
            if progress is not None:
                progress(finished, started.total)
    finally:
        # Stopped while storing: the executor ends its workers now, not when collected.
        close = getattr(results, "close", None)
        if close is not None:
            close()
    if store.game_count(started.tid) >= started.total:
        store.set_status(started.tid, FINISHED)
    return stored


def _row(started: Started, played: Played) -> GameRow:
    return game_row(started.tid, started.entrant_ids, played)


def game_row(tid: int, ids: Sequence[int], played: Played) -> GameRow:
    """The row that stores ``played`` in tournament ``tid`` (``ids``: its entrants' ids by
    index)."""
    return GameRow(
        tournament_id=tid,
        unit=played.key,
        round_no=played.deal,
        table_no=played.table,
        seats=[ids[e] for e in played.entrants],
        seed=played.seed,
        record=played.record,
        result=played.result,
        faults=list(played.faults),
    )
