"""A tournament's games journaled while they are played, so that they can be watched live.

A game of a tournament is played by a worker and stored whole when it ends
(:mod:`tricktable.tournament.run`). Asked to (``tricktable tournament --live``; the web's
tournaments always are), each worker also journals the game it is playing in the database's
``match_journal`` (:mod:`tricktable.db.journal_models`) as the steps every match is journaled
in (:mod:`tricktable.steps`): the ``begin`` step (its seed and the seats' names), then what
changed, every :data:`FLUSH_EVERY` seconds — a game over sooner is never written. When
the game is stored its rows go (:func:`forget`): the record is the game now. A killed run
leaves the rows of the games it was playing; on resume each is played again from its seed —
the same game, as a tournament's results depend on seeds alone — its rows begun afresh.

The live journal is a view, never the truth: a write that fails stops journaling that game
(said once on standard error) and the game is played and stored as ever.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import SQLAlchemyError

from tricktable.db import Store, StoreError
from tricktable.db.journal_models import MatchJournal
from tricktable.engine.trick import TrickState
from tricktable.steps import StepMark

#: seconds between two writes of a game's steps within a hand
FLUSH_EVERY: Final = 0.5


@dataclass(frozen=True)
class LiveTarget:
    """Where a worker journals: the database (as ``--db`` names it), the tournament and its
    entrants' names (by index). Picklable: it travels with each batch to the worker."""

    db: str
    tid: int
    names: tuple[str, ...]


class LiveJournal:
    """One worker's journal of the games it plays (see the module), one game at a time."""

    def __init__(self, target: LiveTarget) -> None:
        self.target = target
        self.store: Store | None = None
        self.unit = ""
        self.seq = 0
        self.mark: StepMark | None = None
        self.faults: list[dict[str, Any]] = []
        self.pending: list[list[Any]] = []
        self.due = 0.0
        self.broken = False

    def begin(self, unit: str, entrants: Sequence[int], seed: int) -> None:
        """A game begins: its ``begin`` step (seed and names) waits for the first write."""
        self.unit, self.seq, self.faults, self.mark = unit, 0, [], None
        names = [self.target.names[e] for e in entrants]
        self.pending = [["begin", 1, str(seed), "", "", names]]
        self.due = time.monotonic() + FLUSH_EVERY

    def started(self, state: TrickState) -> None:
        """The game's state before its first action (``run_match``'s ``on_start``)."""
        self.mark = StepMark(state)

    def fault(self, record: dict[str, Any]) -> None:
        """A fault as the referee records it (``run_match``'s ``on_fault``)."""
        self.faults.append(record)

    def listen(self, state: TrickState, seat: int, action: int) -> None:
        """After each action (``run_match``'s ``listener``): what changed is written once the
        last write (or the game's start) is :data:`FLUSH_EVERY` old — so a game shorter than
        that (a duplicate tournament's single deal) never touches the database."""
        if time.monotonic() < self.due or self.broken or self.mark is None:
            return
        self.pending += self.mark.steps(state, self.faults)
        self._write()

    def end(self, state: TrickState) -> None:
        """The game is over: a game journaled at all gets its last steps (the viewer sees it
        end, until its stored record takes over); one never journaled stays so."""
        if self.seq and not self.broken and self.mark is not None:
            self.pending += self.mark.steps(state, self.faults)
            if self.pending:
                self._write()

    def _write(self) -> None:
        self.due = time.monotonic() + FLUSH_EVERY
        try:
            if self.store is None:
                self.store = Store.attach(self.target.db)
            with self.store.engine.begin() as connection:
                if self.seq == 0:  # the rows of an earlier try of this game (a killed run)
                    connection.execute(_rows_of(self.target.tid, self.unit))
                self.seq += 1
                connection.execute(
                    insert(MatchJournal).values(
                        tournament_id=self.target.tid,
                        unit=self.unit,
                        seq=self.seq,
                        steps=json.dumps(self.pending, separators=(",", ":")),
                        at=datetime.now(UTC),
                    )
                )
            self.pending = []
        except (SQLAlchemyError, StoreError, OSError) as exc:
            self.broken = True
            line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            print(f"note: the live journal stops (games go on): {line}", file=sys.stderr)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None


def _rows_of(tid: int, unit: str) -> Any:
    return delete(MatchJournal).where(MatchJournal.tournament_id == tid, MatchJournal.unit == unit)


def forget(store: Store, tid: int, units: Iterable[str]) -> None:
    """Let go of the rows of ``units``, stored now (their records are the games)."""
    keys = list(units)
    if not keys:
        return
    try:
        with store.engine.begin() as connection:
            connection.execute(
                delete(MatchJournal).where(
                    MatchJournal.tournament_id == tid, MatchJournal.unit.in_(keys)
                )
            )
    except SQLAlchemyError as exc:
        raise StoreError(f"{store.where}: cannot let go of live games: {exc}") from exc


def playing(store: Store, tid: int) -> list[str]:
    """The units of tournament ``tid`` being played now (their rows are there), in order."""
    try:
        with store.engine.connect() as connection:
            found = connection.execute(
                select(MatchJournal.unit)
                .where(MatchJournal.tournament_id == tid)
                .distinct()
                .order_by(MatchJournal.unit)
            )
            return [str(unit) for (unit,) in found]
    except SQLAlchemyError as exc:
        raise StoreError(f"{store.where}: cannot read the games being played: {exc}") from exc


def steps_of(store: Store, tid: int, unit: str) -> list[list[Any]]:
    """The steps journaled so far of ``unit`` (none: it is not being played)."""
    try:
        with store.engine.connect() as connection:
            rows = connection.execute(
                select(MatchJournal.steps)
                .where(MatchJournal.tournament_id == tid, MatchJournal.unit == unit)
                .order_by(MatchJournal.seq)
            )
            texts = [text for (text,) in rows]
    except SQLAlchemyError as exc:
        raise StoreError(f"{store.where}: cannot read the game's journal: {exc}") from exc
    steps: list[list[Any]] = []
    for text in texts:
        steps += json.loads(text)
    return steps


__all__ = ["FLUSH_EVERY", "LiveJournal", "LiveTarget", "forget", "playing", "steps_of"]
