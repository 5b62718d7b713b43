"""``tricktable tui``: the full-screen terminal table (Textual).

:class:`~tricktable.tui.app.TricktableApp` is the app (start screen, table, replay);
:class:`~tricktable.tui.table.TableScreen` the table; :func:`run_tui` the command.
"""

from __future__ import annotations

from tricktable.tui.app import TricktableApp
from tricktable.tui.command import run_tui
from tricktable.tui.table import TableScreen

__all__ = ["TableScreen", "TricktableApp", "run_tui"]
