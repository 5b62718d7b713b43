"""What the tests of the full-screen app share: the window's size, waiting for the bots, and
settings without pauses (tests/test_tui*.py, docs/screenshots.py through the snapshots)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

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
