"""The full-screen table (``tricktable tui``), driven by Textual's headless pilot.

Each test runs a real table: heuristic bots (or characters) in the driver's threads, the
person at seat 0 acting only through key presses and clicks.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import RichLog, Static

from tricktable.engine.events import Chat, HandScored
from tricktable.engine.trick import PLAY
from tricktable.errors import TricktableError
from tricktable.games import load_game
from tricktable.tui.app import ME, TableApp, winning
from tricktable.tui.command import parse_tui_players

SIZE = (150, 48)


def play(
    test: Callable[[TableApp, Pilot[None]], Coroutine[Any, Any, None]],
    players: tuple[str, ...] = ("heuristic", "heuristic", "heuristic"),
    seed: int = 5,
) -> TableApp:
    """Run ``test`` against a fresh table screen, headless."""
    app = TableApp(load_game("setback"), list(players), seed, paced=False, hint_budget=0.2)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await test(app, pilot)
        app.table.close()

    asyncio.run(main())
    return app


async def until(pilot: Pilot[None], ok: Callable[[], bool], seconds: float = 20.0) -> None:
    """Let the bots act until ``ok()`` holds."""
    for _ in range(int(seconds / 0.01)):
        if ok():
            return
        await pilot.pause(0.01)
    raise AssertionError("the table did not get there in time")


def my_turn(app: TableApp) -> bool:
    return app.table.whose_turn == ME


def hands_scored(app: TableApp) -> int:
    return sum(isinstance(e, HandScored) for e in app.table.events_since(ME))


def text_of(app: TableApp, selector: str) -> str:
    """What a Static shows, as plain text (a Rich grid rendered on a wide page)."""
    console = Console(width=120, file=io.StringIO(), record=True, color_system=None)
    console.print(app.query_one(selector, Static).content)
    return console.export_text().strip()


def log_text(app: TableApp) -> str:
    return "\n".join(line.text for line in app.query_one("#log", RichLog).lines)


async def press_to(pilot: Pilot[None], app: TableApp, index: int) -> None:
    """Move the cursor to ``index`` with the arrow keys only."""
    for _ in range(20):
        if app.cursor == index:
            return
        await pilot.press("right")
    raise AssertionError(f"the cursor never reached {index}")


def test_a_whole_hand_by_keys() -> None:
    async def test(app: TableApp, pilot: Pilot[None]) -> None:
        bid_seen = False
        while hands_scored(app) == 0:
            await until(pilot, lambda: my_turn(app) or hands_scored(app) > 0)
            if hands_scored(app):
                break
            view = app.view()
            legal = view.legal_actions()
            before = app.table.moves
            if view.phase == PLAY:
                assert not app.choices
                target = next(i for i, card in enumerate(app.hand) if card in legal)
            else:
                bid_seen = True
                assert app.choices == legal  # the bid panel holds exactly the legal choices
                target = len(app.choices) - 1  # the highest bid (pass when it is all)
            await press_to(pilot, app, target)
            await pilot.press("enter")
            assert app.table.moves > before, text_of(app, "#message")
        assert bid_seen
        assert "Hand 1" in log_text(app)
        assert "score" in text_of(app, "#status")

    app = play(test)
    assert app.failure is None


def test_a_card_played_by_mouse() -> None:
    async def test(app: TableApp, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: my_turn(app) and app.view().phase != PLAY)
        await pilot.click("#bid-0")  # the first button: pass (or the forced bid)
        await until(pilot, lambda: my_turn(app) and app.view().phase == PLAY)
        legal = app.view().legal_actions()
        index = next(i for i, card in enumerate(app.hand) if card in legal)
        card = app.hand[index]
        await pilot.click(f"#card-{index}")
        assert card in app.table.state.trick or any(
            card in cards for _leader, cards, _w in app.view().tricks
        )

    play(test)


def test_an_illegal_card_is_refused_with_the_reason() -> None:
    async def test(app: TableApp, pilot: Pilot[None]) -> None:
        # Seed 3: find a turn to follow a trick with a card that does not follow.
        for _ in range(40):
            await until(pilot, lambda: my_turn(app) or app.finished)
            view = app.view()
            if view.phase != PLAY:
                await pilot.press("p") if "pass" in _names(app) else await pilot.press("enter")
                continue
            illegal = [i for i, card in enumerate(app.hand) if card not in view.legal_actions()]
            if not illegal:
                await pilot.press("enter")
                continue
            before = (app.table.moves, app.table.version)
            await pilot.press(str(illegal[0] + 1))
            await pilot.press("enter")
            assert (app.table.moves, app.table.version) == before
            assert my_turn(app)
            message = text_of(app, "#message")
            assert "is not legal" in message
            assert "follow" in message or "trump" in message or "suit" in message
            return
        raise AssertionError("no turn with an illegal card came")

    play(test, seed=3)


def _names(app: TableApp) -> list[str]:
    return [app.game.action_name(a) for a in app.choices]


def test_h_shows_a_hint() -> None:
    async def test(app: TableApp, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: my_turn(app))
        assert text_of(app, "#hint") == ""
        await pilot.press("h")
        await until(pilot, lambda: text_of(app, "#hint").startswith("Hint: "))
        assert "Hint" in log_text(app)
        assert my_turn(app)  # a hint changes nothing

    play(test)


def test_characters_talk_in_the_chat_panel() -> None:
    async def test(app: TableApp, pilot: Pilot[None]) -> None:
        def said() -> list[Chat]:
            return [e for e in app.table.events_since(ME) if isinstance(e, Chat) and e.seat > 0]

        while not said() and not app.finished:
            await until(pilot, lambda: my_turn(app) or bool(said()) or app.finished)
            if said():
                break
            await pilot.press("enter")
        line = said()[0]
        await pilot.pause()
        assert line.text in log_text(app).replace("\n", " ") or line.text[:30] in log_text(app)
        assert app.names[line.seat] in log_text(app)

    play(test, players=("edna", "vinnie", "rosa"), seed=11)


def test_winning_marks_the_trump_over_the_suit_led() -> None:
    async def test(app: TableApp, pilot: Pilot[None]) -> None:
        # Through the hand: whenever a trick is on the table, the marked card is in it and
        # no card in it beats it by the rules' powers.
        checked = 0
        while hands_scored(app) == 0 and checked < 6:
            await until(pilot, lambda: my_turn(app) or hands_scored(app) > 0)
            view = app.view()
            if view.trick:
                best = winning(view)
                assert best in [c for _s, c in view.trick]
                assert "★" in text_of(app, "#trick")
                checked += 1
            if hands_scored(app):
                break
            await pilot.press("enter")
        assert checked

    play(test)


def test_players_option() -> None:
    assert parse_tui_players("you,edna,vinnie,rosa") == ["edna", "vinnie", "rosa"]
    with pytest.raises(TricktableError, match="first"):
        parse_tui_players("edna,you,vinnie,rosa")
    with pytest.raises(TricktableError, match="four"):
        parse_tui_players("you,edna")
