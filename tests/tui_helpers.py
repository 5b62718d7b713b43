"""What the tests of the full-screen app share: the window's size, waiting for the bots, and
settings without pauses (tests/test_tui*.py, docs/screenshots.py through the snapshots)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget

from tricktable.tui.model import Settings

#: the window most tests draw in (the smallest the screens accept is skins.MIN_SIZE)
SIZE = (150, 48)


async def until(pilot: Pilot[Any], ok: Callable[[], bool], seconds: float = 30.0) -> None:
    """Let the bots (and the app) act until ``ok()`` holds; fail after ``seconds``."""
    for _ in range(int(seconds / 0.01)):
        if ok():
            return
        await pilot.pause(0.01)
    raise AssertionError("the app did not get there in time")


def quiet(records: Path, **changes: Any) -> Settings:
    """Settings for a test: no pauses, no animations, records kept in ``records``."""
    options: dict[str, Any] = {"paced": False, "animate": False, "records": records}
    options.update(changes)
    return Settings(**options)


def screen_rows(app: App[Any]) -> list[str]:
    """The screen as a person sees it, one string a row (what Textual's own screenshots
    draw: the compositor's full update, printed without colour)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    rows = console.export_text().splitlines()
    return [row.ljust(width) for row in rows[:height]]


def shown_in(app: App[Any], widget: Widget) -> str:
    """What the screen shows where ``widget`` is: its region's rows, joined by newlines (a
    widget pushed off the screen or cut by its parent shows only what is left of it)."""
    region = widget.region
    rows = screen_rows(app)[region.y : region.bottom]
    return "\n".join(row[region.x : region.right] for row in rows)
