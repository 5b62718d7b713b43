"""Leaving the TUI's table (``q``, Escape, the app closing) writes the record whole: the
``.json`` alone holds the match, no journal beside it, and it plays on from there."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tricktable.journal import journal_path
from tricktable.records import load_record, replay
from tricktable.tui.app import TricktableApp
from tricktable.tui.model import MatchSetup
from tricktable.tui.table import ME, TableScreen
from tui_helpers import SIZE, quiet, until


def _moved(app: TableScreen, before: int) -> Callable[[], bool]:
    return lambda: app.table.moves > before


async def _two_actions(app: TableScreen, pilot: Pilot[Any]) -> None:
    """Two of the person's actions in the first hand (the first legal one each time)."""
    for _ in range(2):
        await until(pilot, lambda: app.table.whose_turn == ME)
        before = app.table.moves
        app.table.submit(ME, app.view().legal_actions()[0])
        await until(pilot, _moved(app, before))
    await until(pilot, lambda: app.table.whose_turn == ME)


@pytest.mark.parametrize("leave", ["q", "escape", "closing"])
def test_leaving_writes_the_record_whole(tmp_path: Path, leave: str) -> None:
    setup = MatchSetup("setback", ("heuristic",) * 3, 8)
    first = TricktableApp(setup, quiet(tmp_path), start="play")
    seen: dict[str, Any] = {}

    async def main() -> None:
        async with first.run_test(size=SIZE) as pilot:
            app = first.table_screen
            assert app is not None
            await _two_actions(app, pilot)
            seen["path"] = app.path
            seen["moves"] = len(app.table.state.history[-1].actions)
            # Mid-hand: the actions so far are lines of the journal, not yet the record.
            assert journal_path(app.path).is_file()
            if leave != "closing":
                await pilot.press(leave)
                await pilot.pause()
        # "closing": the app ends with the table still on screen.
        assert first.table_screen is not None
        first.table_screen.table.close()

    asyncio.run(main())
    path = seen["path"]
    assert not journal_path(path).exists()
    whole = json.loads(path.read_text())
    assert whole == load_record(path)
    state = replay(whole)
    assert not state.is_over and len(state.history[-1].actions) == seen["moves"]
