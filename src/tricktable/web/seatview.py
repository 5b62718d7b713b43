"""What the server sends a viewer of a table: its snapshot and its events as JSON.

Both come from the one seat model, :mod:`tricktable.seat` (``snapshot``, ``event_json``),
built from the viewer's sealed view and own event stream only; the server puts the wire's
version in (the journal's length, which a restart keeps: docs/protocol-web.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tricktable.engine.events import Event
from tricktable.seat import event_json as _event_json
from tricktable.seat import snapshot as _snapshot
from tricktable.table.table import Table

_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False, ensure_ascii=False)


def frame(
    kind: str,
    data: dict[str, Any],
    table: str | None = None,
    v: int | None = None,
    id: str | None = None,
) -> str:
    """One envelope as the wire carries it: JSON text, made once however many get it."""
    return _ENCODER.encode({"type": kind, "table": table, "v": v, "id": id, "data": data})


def snapshot(table: Table, viewer: int, version: int, names: Sequence[str]) -> dict[str, Any]:
    """``viewer``'s snapshot of ``table`` (a seat or ``SPECTATOR``) at wire ``version``; the
    seats called by ``names`` (the table's, as its lobby shows them)."""
    out = _snapshot(table, viewer, names=list(names))
    out["version"] = version
    # A seat's avatar is drawn from its name, as TABLE_INFO's is: two bots of one level
    # ("Beginner bot", "Beginner bot 2") have one label (bot:beginner), but not one face.
    for seat, name in zip(out["seats"], names, strict=True):
        seat["avatar"] = name
    return out


def event_json(
    event: Event, table: Table, viewer: int, version: int, names: Sequence[str]
) -> dict[str, Any]:
    """One event of ``viewer``'s stream as the wire carries it, with its wire ``version``
    (a hand's score with its summary in the snapshot's words: the seats called by ``names``)."""
    return _event_json(event, table, viewer, version, list(names))


__all__ = ["event_json", "frame", "snapshot"]
