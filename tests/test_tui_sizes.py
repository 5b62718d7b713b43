"""The full-screen table and the replay viewer at every table size but four (2, 3, 5, 6 as
three sides of two and as two of three, 7), in the smallest window and a larger one.

Each seat must be drawn whole where its name says it sits (its name and player never cut,
no box over another), and each card of the trick on its seat's spot. The four-seat screens
are the snapshots' (``test_tui_snapshots.py``).
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget

from tricktable.cards import cards_in, pretty_card
from tricktable.engine.trick import PLAY
from tricktable.runner import MatchSpec, run_match
from tricktable.tui.app import TricktableApp
from tricktable.tui.model import MatchSetup, Settings, default_bots
from tricktable.tui.replay import ReplayApp, ReplayScreen
from tricktable.tui.skins import card_label
from tricktable.tui.table import ME, TableScreen
from tricktable.ui.terminal import seat_names
from tui_helpers import quiet, screen_rows, shown_in, until

#: the tables drawn: every size but four, partnerships of both shapes at six
TABLES = {
    2: "setback(players=2,partners=false)",
    3: "setback(players=3,partners=false)",
    5: "setback(players=5,partners=false)",
    "6 (3x2)": "setback(players=6,partners=3x2)",
    "6 (2x3)": "setback(players=6,partners=2x3)",
    7: "setback(players=7,partners=false)",
}
#: the smallest window the table screen draws in, and a larger one
SIZES = [(100, 30), (120, 40)]


def apart(app: App[Any], widgets: list[Widget], inside: Widget) -> None:
    """Each widget is shown, within ``inside``, and none lies over another."""
    for widget in widgets:
        region = widget.region
        assert region.width > 0 and region.height > 0, widget
        assert inside.region.contains_region(region), (widget, region, inside.region)
    for a, b in itertools.combinations(widgets, 2):
        assert not a.region.overlaps(b.region), (a, b)


def check_table(app: App[Any], screen: TableScreen) -> None:
    """The felt as the person sees it: every seat whole, the trick's cards on their spots,
    the hand's cards in the hand bar."""
    view = screen.view()
    felt = screen.query_one("#felt")
    boxes = [screen.query_one(f"#seat-{place}") for place in screen.places]
    apart(app, boxes, felt)
    for seat, box in enumerate(boxes):
        shown = shown_in(app, box)
        assert screen.names[seat] in shown, (seat, shown)
        assert screen.players[seat] in shown, (seat, shown)
    spots = [screen.query_one(f"#spot-{place}") for place in screen.places]
    apart(app, spots, screen.query_one("#trick"))
    for seat, card in view.trick:
        assert pretty_card(card) in shown_in(app, spots[seat]), (seat, card)
    hand = shown_in(app, screen.query_one("#hand"))
    if screen.query_one("#hand-more").display:
        hand += "\n" + shown_in(app, screen.query_one("#hand-more"))
    assert all(pretty_card(card) in hand for card in cards_in(view.hand))


def play_and_check(game: str, size: tuple[int, int]) -> TableScreen:
    """A hand of ``game`` at the table screen, the felt checked at every turn of the person's
    (the bots' cards of each trick on it), until the hand is scored."""
    folder = Path(tempfile.mkdtemp(prefix="tui-sizes-"))
    app = TricktableApp(MatchSetup(game, seed=5), quiet(folder), start="play")
    checked = 0

    async def main() -> None:
        nonlocal checked
        async with app.run_test(size=size) as pilot:
            screen = app.table_screen
            assert screen is not None
            table = screen.table
            while not table.state.results:
                await until(pilot, lambda: table.whose_turn == ME or bool(table.state.results))
                if table.state.results:
                    break
                await pilot.pause()
                check_table(app, screen)
                view = screen.view()
                checked += view.phase == PLAY and bool(view.trick)
                if view.phase != PLAY and "pass" in [
                    screen.game.action_name(a) for a in screen.choices
                ]:
                    await pilot.press("p")
                else:
                    await pilot.press("enter")
                await pilot.pause()
            screen.table.close()

    asyncio.run(main())
    assert checked, "the person never saw a card of the trick"
    assert app.table_screen is not None
    return app.table_screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seats", list(TABLES))
def test_every_table_size_is_drawn_whole(seats: int | str, size: tuple[int, int]) -> None:
    screen = play_and_check(TABLES[seats], size)
    n = screen.game.num_players
    assert screen.names == seat_names([ME], n) and len(set(screen.names)) == n


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_seventeen_cards_at_three_seats_take_two_rows(size: tuple[int, int]) -> None:
    """Hearts at three: 17 cards each, half in each row of the hand bar, every one on the
    felt and chosen by a click on its chip (three marked to pass, one in the second row)."""
    folder = Path(tempfile.mkdtemp(prefix="tui-sizes-"))
    app = TricktableApp(MatchSetup("hearts(players=3)", seed=2), quiet(folder), start="play")

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            screen = app.table_screen
            assert screen is not None
            await until(pilot, lambda: screen.table.whose_turn == ME)
            await pilot.pause()
            assert len(screen.hand) == 17
            felt = screen.query_one("#felt").region
            chips = [screen.query_one(f"#card-{slot}") for slot in sorted(screen._slots)]
            apart(app, chips, screen.query_one("#felt"))
            for chip, card in zip(chips, screen.hand, strict=True):
                assert felt.contains_region(chip.region)
                assert card_label(card).plain in shown_in(app, chip)
            assert screen.query_one("#hand-more").display
            check_table(app, screen)
            for slot in (0, 1, max(screen._slots)):  # the last card: the second row's end
                await pilot.click(f"#card-{slot}")
            await pilot.pause()
            assert screen.marked == {screen.hand[0], screen.hand[1], screen.hand[16]}
            screen.table.close()

    asyncio.run(main())


def test_partnership_tables_say_each_seats_team() -> None:
    async def look(app: TricktableApp, pilot: Pilot[None]) -> None:
        screen = app.table_screen
        assert screen is not None
        await until(pilot, lambda: screen.display_log is not None)
        await pilot.pause()
        # 2x3: You, Northwest and Northeast (seats 0, 2, 4) are team A
        for seat, place in enumerate(screen.places):
            text = shown_in(app, screen.query_one(f"#seat-{place}"))
            assert f"team {'AB'[seat % 2]}" in text, (seat, text)
        screen.table.close()

    folder = Path(tempfile.mkdtemp(prefix="tui-sizes-"))
    app = TricktableApp(
        MatchSetup("setback(players=6,partners=2x3)", seed=5), quiet(folder), start="play"
    )

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await look(app, pilot)

    asyncio.run(main())


def test_the_default_players_fit_the_tables_size() -> None:
    assert default_bots(3) == ("edna", "vinnie", "rosa")
    assert default_bots(6) == ("edna", "vinnie", "rosa", "ada", "moe", "kit")
    assert MatchSetup("setback(players=6)").fitted(6).players == default_bots(5)
    chosen = MatchSetup("setback(players=6)", players=("heuristic",) * 5)
    assert chosen.fitted(6) is chosen


# ------------------------------------------------------------------------------ replay


def six_seat_record() -> dict[str, Any]:
    spec = MatchSpec("setback(players=6,partners=3x2)", ("heuristic",) * 6, 3, max_hands=1)
    record = run_match(spec).record
    assert isinstance(record, dict)
    return record


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_six_seat_record_is_replayed(size: tuple[int, int]) -> None:
    record = six_seat_record()
    screen = ReplayScreen(record, Settings(), title="six.json", analysis=False)
    app = ReplayApp(screen)
    names = seat_names([], 6)
    seen_tricks = 0

    async def main() -> None:
        nonlocal seen_tricks
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            felt = screen.query_one("#rp-felt")
            boxes = [screen.query_one(f"#rp-seat-{place}") for place in screen.places]
            while True:
                state = screen.state
                apart(app, boxes, felt)
                for seat, box in enumerate(boxes):
                    shown = shown_in(app, box)
                    assert names[seat] in shown, (seat, shown)
                    words = shown.split()
                    for card in cards_in(state.hands[seat]):
                        assert pretty_card(card) in words, (seat, card, shown)
                trick = shown_in(app, screen.query_one("#rp-trick"))
                for _seat, card in state.view(0).trick:
                    assert pretty_card(card) in trick
                seen_tricks += bool(state.trick)
                if screen.index == screen.match.last:
                    break
                await pilot.press("right")
                await pilot.pause()
            rows = screen.query_one("#rp-log").row_count  # type: ignore[attr-defined]
            assert rows == len(screen.match.logs[0].actions)

    asyncio.run(main())
    assert seen_tricks
    assert screen.seating.side_name(0) == "South & North"


def test_a_six_seat_match_to_its_end_and_its_replay() -> None:
    """Every hand's summary and the match's end name the sides by all their seats; the
    match is then replayed from its end dialog, at six seats."""
    from tricktable.tui.dialogs import HandSummary, MatchEnd

    folder = Path(tempfile.mkdtemp(prefix="tui-sizes-"))
    game = "setback(players=6,partners=3x2,target=3)"
    app = TricktableApp(MatchSetup(game, seed=4), quiet(folder), start="play")
    sides = ("You & North", "West & Northeast", "Northwest & East")
    seen: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = app.table_screen
            assert screen is not None

            def waiting() -> bool:
                mine = screen.table.whose_turn == ME and app.screen is screen
                return mine or isinstance(app.screen, HandSummary | MatchEnd)

            for _ in range(1000):
                await until(pilot, waiting)
                if isinstance(app.screen, MatchEnd):
                    break
                if isinstance(app.screen, HandSummary):
                    seen.append("\n".join(screen_rows(app)))
                    await pilot.press("enter")
                elif screen.choices:
                    await pilot.press("p" if "pass" in _names(screen) else "enter")
                else:
                    await pilot.press("enter")
            else:
                raise AssertionError("the match never ended")
            await pilot.pause()
            end = "\n".join(screen_rows(app))
            assert "win the match" in end and all(side in end for side in sides)
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
            replayed = app.screen
            assert isinstance(replayed, ReplayScreen) and replayed.n == 6
            await pilot.press("end")
            await pilot.pause()
            assert "the match is over" in "\n".join(screen_rows(app))

    asyncio.run(main())
    assert seen and all(f"Scores: {sides[0]} " in text for text in seen)
    assert all(side in seen[0] for side in sides)


def _names(screen: TableScreen) -> list[str]:
    return [screen.game.action_name(a) for a in screen.choices]
