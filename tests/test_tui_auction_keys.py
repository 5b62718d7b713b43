"""The table screen's number keys in the bidding (issue 27, item 13): ``1`` then Enter once
passed — the number chose nothing and Enter made the pass the cursor rested on. A number key
in the bidding is read as the line terminal reads a typed number: ``3`` is Bid 3, ``1`` then
``3`` is 13, and a number that is no choice picks none, says why, and Enter makes nothing.

Driven by Textual's headless pilot, heuristic bots in the driver's threads.
"""

from __future__ import annotations

import asyncio
import io
import tempfile
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from tricktable.engine import actions as act
from tricktable.engine.events import Acted
from tricktable.tui import table as table_module
from tricktable.tui.app import TricktableApp
from tricktable.tui.model import MatchSetup
from tricktable.tui.table import ME, TableScreen
from tui_helpers import SIZE, quiet, until

BOTS = ("heuristic", "heuristic", "heuristic")


def play(
    test: Callable[[TableScreen, Pilot[None]], Coroutine[Any, Any, None]],
    game: str = "setback",
    seed: int = 5,
) -> None:
    """Run ``test`` against a fresh table screen, headless, paced off."""
    folder = Path(tempfile.mkdtemp(prefix="tui-keys-"))
    app = TricktableApp(MatchSetup(game, BOTS, seed), quiet(folder), start="play")

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.table_screen
            assert screen is not None
            await test(screen, pilot)
        screen.table.close()

    asyncio.run(main())


def message(app: TableScreen) -> str:
    console = Console(width=200, file=io.StringIO(), record=True, color_system=None)
    console.print(app.query_one("#message", Static).content)
    return console.export_text().strip()


async def my_bid(app: TableScreen, pilot: Pilot[None]) -> None:
    """Wait for the person's first decision of the auction (the panel drawn for it)."""
    await until(pilot, lambda: app.table.whose_turn == ME and bool(app.choices))
    await pilot.pause()


def test_one_then_enter_does_not_pass_and_a_number_picks_its_bid() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await my_bid(app, pilot)
        assert act.PASS in app.choices and act.bid(1) not in app.choices
        before = app.table.moves
        await pilot.press("1")
        assert app.cursor == -1, "a number that names no bid picks none"
        assert "bid 1 is not legal" in message(app).lower(), message(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.table.moves == before, "Enter after a number that is no choice passed"
        assert app.table.whose_turn == ME
        assert "pick a choice first" in message(app)
        bids = [a for a in app.choices if act.is_bid(a)]
        top = max(bids)
        await pilot.press(str(top - act.BID))
        assert app.choices[app.cursor] == top
        assert f"bid {top - act.BID}" in message(app).lower(), message(app)
        await pilot.press("enter")
        await until(pilot, lambda: app.table.moves > before)
        mine = [
            e.action for e in app.table.events_since(ME) if isinstance(e, Acted) and e.seat == ME
        ]
        assert mine == [top], mine

    play(test)


def test_two_keys_make_one_number_where_bids_go_past_nine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spades bids 0 to 13: ``1`` then ``1`` is Bid 11 (within a moment of each other: a
    loaded machine's pilot may take longer between keys than a person)."""
    monkeypatch.setattr(table_module, "TYPING_PAUSE", 60.0)

    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await my_bid(app, pilot)
        assert act.bid(11) in app.choices, app.choices
        await pilot.press("1", "1")
        assert app.choices[app.cursor] == act.bid(11), message(app)
        await pilot.press("left")  # the arrows start afresh
        await pilot.press("4")
        assert app.choices[app.cursor] == act.bid(4), message(app)

    play(test, game="spades", seed=3)
