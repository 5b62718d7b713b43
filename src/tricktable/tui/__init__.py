"""``tricktable tui``: the full-screen terminal table (Textual).

:class:`~tricktable.tui.app.TableApp` is the table screen; :func:`run_tui` is the command:
it checks the options, plays the match full-screen and saves its record as ``play`` does.
"""

from __future__ import annotations

from tricktable.tui.app import TableApp
from tricktable.tui.command import run_tui

__all__ = ["TableApp", "run_tui"]
