"""Tables: one match each, played by bots, people and remote connections, seen seat by seat.

:class:`Table` holds the match and checks every submitted action; :func:`run` (the asyncio
driver) plays it, asking bots without blocking the event loop and waiting for people.
"""

from __future__ import annotations

from tricktable.table.driver import run
from tricktable.table.table import Person, Remote, Table

__all__ = ["Person", "Remote", "Table", "run"]
