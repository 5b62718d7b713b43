"""One seat model: what a viewer may see of a match, as data every screen draws.

:func:`snapshot` (a table) and :func:`snapshot_of` (a state) give a viewer's snapshot: a seat's,
a spectator's (:data:`SPECTATOR`) or, after the match, everyone's (:data:`EVERYONE`);
:func:`event_json` an event of the viewer's stream for the wire. Words are phrases
(:mod:`tricktable.seat.phrases`) that Rich, Textual and HTML each draw.
"""

from __future__ import annotations

from tricktable.engine.events import SPECTATOR
from tricktable.seat.snapshot import (
    event_json,
    event_words,
    snapshot,
    snapshot_of,
    snapshot_of_view,
)
from tricktable.seat.views import EVERYONE

__all__ = [
    "EVERYONE",
    "SPECTATOR",
    "event_json",
    "event_words",
    "snapshot",
    "snapshot_of",
    "snapshot_of_view",
]
