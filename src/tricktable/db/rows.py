"""What the store reads back, checked: every column of every row has the shape it should.

A database is data from outside: a file shared, edited by hand, damaged on a disk. SQLite keeps
whatever a column is given (text in an integer column, a blob, a NULL), and a JSON column may
hold anything. So nothing read is trusted: each value is checked here, once, and a row that is
not what tricktable wrote is a :class:`Damaged` naming the row and the column, which the store
turns into one line. What the store returns has the types it declares, and its readers
(standings, report, a resumed tournament) need no checks of their own for them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NoReturn

from tricktable.errors import quote


class Damaged(Exception):
    """A row that is not what tricktable writes; the message names the column and why."""


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """A stored tournament; ``spec`` is the JSON object given to ``Store.create_tournament``."""

    id: int
    name: str
    created: datetime
    spec: dict[str, Any]
    status: str


@dataclass(frozen=True, slots=True)
class EntrantInfo:
    """A tournament's entrant: its id (what ``seats`` hold), name and player spec."""

    id: int
    name: str
    spec: str


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game read back from the store; ``record`` is ``None`` when not asked for."""

    id: int
    tournament_id: int
    unit: str
    round_no: int
    table_no: int
    seats: tuple[int, ...]
    seed: int
    record: dict[str, Any] | None
    result: dict[str, Any]
    faults: list[dict[str, Any]]
    finished_at: datetime


def _bad(what: str, value: object, should: str) -> NoReturn:
    raise Damaged(f"its {what} should be {should}, not {quote(value, 40)}")


def integer(value: object, what: str) -> int:
    """``value`` if it is an integer (``True`` is not one)."""
    if type(value) is not int:
        _bad(what, value, "an integer")
    return value


def text(value: object, what: str) -> str:
    """``value`` if it is text."""
    if not isinstance(value, str):
        _bad(what, value, "text")
    return value


def timestamp(value: object, what: str) -> datetime:
    """A moment in UTC: the driver's own (PostgreSQL) or SQLite's text of one."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            _bad(what, value, "a date and time")
    if not isinstance(value, datetime):
        _bad(what, value, "a date and time")
    return utc(value)


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive one is UTC already (SQLite keeps no time zone, and every
    time the store writes is UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


#: made once: json.loads with an option builds a decoder at every call, and games are many
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def _json(value: object, what: str) -> object:
    if not isinstance(value, str):
        _bad(what, value, "JSON text")
    try:
        return _DECODER.decode(value)
    except RecursionError:
        raise Damaged(f"its {what} is JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, NaN, an integer of thousands of digits
        raise Damaged(f"its {what} is not JSON ({' '.join(str(exc).split())[:80]})") from None


def json_object(value: object, what: str) -> dict[str, Any]:
    """The JSON object ``value`` holds."""
    data = _json(value, what)
    if not isinstance(data, dict):
        _bad(what, data, "a JSON object")
    return data


def _json_list(value: object, what: str, item: Callable[[object], bool], should: str) -> list[Any]:
    data = _json(value, what)
    if not isinstance(data, list) or not all(item(x) for x in data):
        _bad(what, data, should)
    return data


def tournament_info(row: Any) -> TournamentInfo:
    """A ``tournament`` row (``id, name, created, spec, status``), checked."""
    return TournamentInfo(
        id=integer(row.id, "id"),
        name=text(row.name, "name"),
        created=timestamp(row.created, "created"),
        spec=json_object(row.spec, "spec"),
        status=text(row.status, "status"),
    )


def entrant_info(row: Any) -> EntrantInfo:
    """An ``entrant`` row (``id, name, spec``), checked."""
    return EntrantInfo(integer(row.id, "id"), text(row.name, "name"), text(row.spec, "spec"))


def _is_id(x: object) -> bool:
    return type(x) is int


def _is_object(x: object) -> bool:
    return isinstance(x, dict)


def stored_game(row: Any, records: bool) -> StoredGame:
    """A ``game`` row, checked; its ``record`` column is read only if ``records``."""
    return StoredGame(
        id=integer(row.id, "id"),
        tournament_id=integer(row.tournament_id, "tournament_id"),
        unit=text(row.unit, "unit"),
        round_no=integer(row.round_no, "round_no"),
        table_no=integer(row.table_no, "table_no"),
        seats=tuple(_json_list(row.seats, "seats", _is_id, "a list of entrant ids")),
        seed=integer(row.seed, "seed"),
        record=json_object(row.record, "record") if records else None,
        result=json_object(row.result, "result"),
        faults=_json_list(row.faults, "faults", _is_object, "a list of JSON objects"),
        finished_at=timestamp(row.finished_at, "finished_at"),
    )
