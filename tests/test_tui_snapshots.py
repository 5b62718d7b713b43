"""Snapshot (SVG) tests of the full-screen app's main screens, at fixed sizes.

Each test drives the real app headless (pytest-textual-snapshot's ``snap_compare``) to a
moment where nothing moves any more — the person's turn, a dialog waiting for a key, the
match over — and compares the screen with ``tests/__snapshots__/``. After a deliberate
change to a screen, look at the new pictures and accept them with
``pytest tests/test_tui_snapshots.py --snapshot-update``; a failed comparison writes
``snapshot_report.html`` (old and new side by side).

What would differ from run to run is kept off the screens: the records folder is shown by
the name ``records`` (each test runs in its own temporary folder), the record's file has a
fixed name, the bots act at once (``paced=False``), nothing is animated, and no hint is
asked for (its search runs against the clock). ``docs/screenshots.py`` draws the README's
pictures from the same scenes (:data:`SCENES`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from tricktable.engine.trick import PLAY
from tricktable.records import save_record
from tricktable.runner import MatchSpec, run_match
from tricktable.tui.app import TricktableApp
from tricktable.tui.dialogs import HandSummary, KeysHelp, MatchEnd
from tricktable.tui.model import MatchSetup, Settings
from tricktable.tui.replay import ReplayScreen, replay_app
from tricktable.tui.table import ME, TableScreen
from tricktable.ui.answers import is_passing
from tui_helpers import SIZE, quiet, until

#: the players beside you in every scene: three characters (their talk is by the seed)
PLAYERS = ("edna", "vinnie", "rosa")
#: the record's name where a scene shows it (the match-end dialog, the replay's header)
RECORD = Path("records") / "match.json"
BIG = SIZE

Drive = Callable[[Pilot[None]], Awaitable[None]]


def settings(**changes: Any) -> Settings:
    """Settings for a scene: no pauses, no animations, the records in ``./records``."""
    return quiet(Path("records"), **changes)


def table_of(pilot: Pilot[None]) -> TableScreen:
    app = pilot.app
    assert isinstance(app, TricktableApp) and app.table_screen is not None
    return app.table_screen


def my_turn(pilot: Pilot[None]) -> bool:
    """The person is to act and the table screen is in front (no dialog over it)."""
    screen = table_of(pilot)
    return screen.table.whose_turn == ME and pilot.app.screen is screen


async def act_first(pilot: Pilot[None]) -> None:
    """The first legal choice, by keys (the first three cards marked where passing)."""
    screen = table_of(pilot)
    if is_passing(screen.view().legal_actions()):
        for i in range(3):
            await pilot.press(str(i + 1), "space")
    await pilot.press("enter")


async def play_until(pilot: Pilot[None], done: Callable[[], bool]) -> None:
    """Make the first legal choice at each of the person's turns (and close each hand's
    summary) until ``done()`` holds."""
    for _ in range(1000):
        await until(
            pilot,
            lambda: done() or my_turn(pilot) or isinstance(pilot.app.screen, HandSummary),
        )
        if done():
            break
        if isinstance(pilot.app.screen, HandSummary):
            await pilot.press("enter")
        else:
            await act_first(pilot)
    else:
        raise AssertionError("the match never got there")
    await settle(pilot)


async def settle(pilot: Pilot[None]) -> None:
    """Let the last change be drawn."""
    await pilot.pause(0.05)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


# ------------------------------------------------------------------------------ the scenes


async def first_bid(pilot: Pilot[None]) -> None:
    await play_until(pilot, lambda: my_turn(pilot))
    assert table_of(pilot).choices  # the bid panel is up


async def trick_in_play(pilot: Pilot[None]) -> None:
    def there() -> bool:
        view = table_of(pilot).view()
        return my_turn(pilot) and view.phase == PLAY and view.trump >= 0 and bool(view.trick)

    await play_until(pilot, there)


async def hand_summary(pilot: Pilot[None]) -> None:
    await play_until(pilot, lambda: isinstance(pilot.app.screen, HandSummary))


async def match_end(pilot: Pilot[None]) -> None:
    await play_until(pilot, lambda: isinstance(pilot.app.screen, MatchEnd))


async def passing_marked(pilot: Pilot[None]) -> None:
    await play_until(pilot, lambda: my_turn(pilot))
    assert is_passing(table_of(pilot).view().legal_actions())
    await pilot.press("1", "space", "4", "space", "7", "space")
    await settle(pilot)
    assert len(table_of(pilot).marked) == 3


async def keys_help(pilot: Pilot[None]) -> None:
    await first_bid(pilot)
    await pilot.press("question_mark")
    await settle(pilot)
    assert isinstance(pilot.app.screen, KeysHelp)


async def start_screen(pilot: Pilot[None]) -> None:
    await pilot.pause(0.1)
    await settle(pilot)


async def replay_scene(pilot: Pilot[None]) -> None:
    # To the fourth trick of the first hand: cards in hand, a trick taken, the log filled.
    await pilot.pause()
    await pilot.press("down", "down", "down", "down", "right", "right")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ReplayScreen) and screen.state.trick  # a trick half played


@dataclass(frozen=True)
class Scene:
    """One screen to draw: the app to make (in the current folder) and how to get there."""

    name: str
    make: Callable[[], App[Any]]
    drive: Drive
    size: tuple[int, int] = BIG
    #: whether the README shows it (``docs/screenshots.py``)
    readme: bool = False


def table_app(game: str = "setback", seed: int = 5, **changes: Any) -> Callable[[], App[Any]]:
    def make() -> App[Any]:
        setup = MatchSetup(game, PLAYERS, seed)
        return TricktableApp(setup, settings(**changes), start="play", save=RECORD)

    return make


def setup_app() -> App[Any]:
    return TricktableApp(MatchSetup("setback", PLAYERS, 5), settings(), start="setup")


def replay_of_a_match() -> App[Any]:
    """The replay viewer on a match of heuristic bots played here (its analysis off: the
    solver works against the clock, so its verdicts could differ from run to run)."""
    spec = MatchSpec("setback", ("heuristic",) * 4, seed=7, max_hands=2, talk=False)
    RECORD.parent.mkdir(parents=True, exist_ok=True)
    save_record(run_match(spec).record, RECORD)
    return replay_app(str(RECORD), settings(), analysis=False)


SCENES = {
    scene.name: scene
    for scene in (
        Scene("start-100x30", setup_app, start_screen, (100, 30)),
        Scene("start", setup_app, start_screen, BIG, readme=True),
        Scene("first-bid", table_app(), first_bid),
        Scene("trick", table_app(), trick_in_play, readme=True),
        Scene("hand-summary", table_app(), hand_summary, readme=True),
        Scene("match-end", table_app("setback(target=3)"), match_end),
        Scene("replay", replay_of_a_match, replay_scene, readme=True),
        Scene("too-small", table_app(), first_bid, (80, 24)),
        Scene("paper-ascii", table_app(skin="paper", ascii=True), trick_in_play, readme=True),
        Scene("hearts-pass", table_app("hearts", seed=2), passing_marked),
        Scene("keys", table_app(), keys_help),
        # six seats in three partnerships of two (the other sizes: test_tui_sizes.py)
        Scene(
            "six-seats", table_app("setback(players=6,partners=3x2)"), trick_in_play, readme=True
        ),
    )
}


def close(app: App[Any]) -> None:
    """Close the bots of the app's table (characters' threads, programs)."""
    if isinstance(app, TricktableApp) and app.table_screen is not None:
        app.table_screen.table.close()


@pytest.mark.parametrize("name", list(SCENES))
def test_screen(
    name: str, snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the records folder is ./records: a new one each test
    monkeypatch.delenv("NO_COLOR", raising=False)  # Textual reads it as the app is made
    scene = SCENES[name]
    app = scene.make()
    try:
        assert snap_compare(app, terminal_size=scene.size, run_before=scene.drive)
    finally:
        close(app)
    assert not Path("records").resolve().is_relative_to(Path(__file__).parent.parent)
