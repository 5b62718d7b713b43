"""The full-screen table (``tricktable tui``), driven by Textual's headless pilot.

Each test runs a real table: heuristic bots (or characters) in the driver's threads, the
person at seat 0 acting only through key presses and clicks.
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
from textual.widgets import Input, RichLog, Static

from tricktable.engine.events import Chat, Dealt, HandScored
from tricktable.engine.trick import PLAY
from tricktable.errors import TricktableError
from tricktable.records import load_record, replay
from tricktable.tui.app import TricktableApp
from tricktable.tui.command import parse_tui_players
from tricktable.tui.dialogs import HandSummary, KeysHelp, MatchEnd
from tricktable.tui.model import MatchSetup, Settings
from tricktable.tui.skins import card_label
from tricktable.tui.table import ME, TableScreen, winning
from tricktable.ui.terminal import TableDisplay
from tui_helpers import SIZE, quiet, screen_rows, shown_in, until


def play(
    test: Callable[[TableScreen, Pilot[None]], Coroutine[Any, Any, None]],
    players: tuple[str, ...] = ("heuristic", "heuristic", "heuristic"),
    seed: int = 5,
    game: str = "setback",
    size: tuple[int, int] = SIZE,
    **settings: Any,
) -> TableScreen:
    """Run ``test`` against a fresh table screen, headless (records in a new folder)."""
    options: dict[str, Any] = {"hint_budget": 0.2, **settings}
    folder = Path(tempfile.mkdtemp(prefix="tui-"))
    app = TricktableApp(MatchSetup(game, players, seed), quiet(folder, **options), start="play")

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            screen = app.table_screen
            assert screen is not None
            await test(screen, pilot)
        screen.table.close()

    asyncio.run(main())
    assert app.table_screen is not None
    return app.table_screen


def my_turn(app: TableScreen) -> bool:
    return app.table.whose_turn == ME


def events(app: TableScreen) -> list[Any]:
    return app.table.events_since(ME)


def hands_scored(app: TableScreen) -> int:
    return sum(isinstance(e, HandScored) for e in app.table.events_since(ME))


def text_of(app: TableScreen, selector: str) -> str:
    """What a Static shows, as plain text (a Rich grid rendered on a wide page)."""
    console = Console(width=120, file=io.StringIO(), record=True, color_system=None)
    console.print(app.query_one(selector, Static).content)
    return console.export_text().strip()


def trick_text(app: TableScreen) -> str:
    """The trick area's cards and words, North, West, East, South and the centre."""
    spots = ("#spot-N", "#spot-W", "#spot-E", "#spot-S", "#trick-centre")
    return " | ".join(text_of(app, spot) for spot in spots)


def log_text(app: TableScreen, panel: str = "#log") -> str:
    return "\n".join(line.text for line in app.query_one(panel, RichLog).lines)


async def press_to(pilot: Pilot[None], app: TableScreen, index: int) -> None:
    """Move the cursor to ``index`` with the arrow keys only."""
    for _ in range(20):
        if app.cursor == index:
            return
        await pilot.press("right")
    raise AssertionError(f"the cursor never reached {index}")


def test_a_whole_hand_by_keys() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
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


def test_a_whole_hand_by_mouse_clicks() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        clicked_bid = clicked_card = False
        while hands_scored(app) == 0:
            await until(pilot, lambda: my_turn(app) or hands_scored(app) > 0)
            if hands_scored(app):
                break
            before = app.table.moves
            if app.view().phase != PLAY:
                # the bid panel drawn for this turn before it is clicked (a loaded run's
                # click came first, on an empty button)
                await until(pilot, lambda: bool(app.choices))
                # ...and laid out: a click at a button with no region yet hits nothing (a
                # clean-clone run beside other work clicked one, 1 run in about 5)
                await until(pilot, lambda: app.query_one("#bid-0").region.area > 0)
                await pilot.click("#bid-0")  # the first button: pass (or the forced bid)
                clicked_bid = True
            else:
                legal = app.view().legal_actions()
                index = next(i for i, card in enumerate(app.hand) if card in legal)
                card = app.hand[index]
                await pilot.click(f"#card-{index}")
                assert card in [c for _s, c in app.view().trick] or any(
                    card in cards for _leader, cards, _w in app.view().tricks
                )
                clicked_card = True
            # the move reaches the table through the app's messages: a loaded run may take
            # a few turns of the loop
            await until(pilot, lambda before=before: app.table.moves > before)
        assert clicked_bid and clicked_card

    play(test)


def test_an_illegal_card_is_refused_with_the_reason() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
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


def _names(app: TableScreen) -> list[str]:
    return [app.game.action_name(a) for a in app.choices]


def test_h_shows_a_hint() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: my_turn(app))
        assert text_of(app, "#hint") == ""
        await pilot.press("h")
        await until(pilot, lambda: text_of(app, "#hint").startswith("Hint: "))
        assert "Hint" in log_text(app)
        assert my_turn(app)  # a hint changes nothing

    play(test)


def test_characters_talk_in_the_chat_panel() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        def said() -> list[Chat]:
            return [e for e in app.table.events_since(ME) if isinstance(e, Chat) and e.seat > 0]

        while not said() and not app.finished:
            await until(pilot, lambda: my_turn(app) or bool(said()) or app.finished)
            if said():
                break
            await pilot.press("enter")
        line = said()[0]
        await pilot.pause()
        chat = log_text(app, "#chat")
        assert line.text in chat.replace("\n", " ") or line.text[:30] in chat
        assert app.names[line.seat] in chat
        assert line.text[:30] not in log_text(app)  # talk is in the chat panel, not the log

    play(test, players=("edna", "vinnie", "rosa"), seed=11)


def test_winning_marks_the_trump_over_the_suit_led() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        # Through the hand: whenever a trick is on the table, the marked card is in it and
        # no card in it beats it by the rules' powers.
        checked = 0
        while hands_scored(app) == 0 and checked < 6:
            await until(pilot, lambda: my_turn(app) or hands_scored(app) > 0)
            view = app.view()
            if view.trick:
                best = winning(view)
                assert best in [c for _s, c in view.trick]
                assert "★" in trick_text(app)
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
    assert parse_tui_players("you,edna") == ["edna"]  # a game of two (the game checks)
    with pytest.raises(TricktableError, match="2 to 7"):
        parse_tui_players("you")
    with pytest.raises(TricktableError, match="2 to 7"):
        parse_tui_players("you," + ",".join(["edna"] * 7))


async def act_first(app: TableScreen, pilot: Pilot[None]) -> None:
    """Make the first legal choice by keys (pass three marked cards where passing)."""
    view = app.view()
    if view.phase != PLAY and not app.choices:  # cards to pass: mark the first three
        for i in range(3):
            await pilot.press(str(i + 1), "space")
    await pilot.press("enter")


def test_the_hand_summary_holds_the_next_deal_until_it_is_closed() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        while not isinstance(app.app.screen, HandSummary):
            await until(pilot, lambda: my_turn(app) or isinstance(app.app.screen, HandSummary))
            if my_turn(app) and app.app.screen is app:
                await act_first(app, pilot)
        summary = app.app.screen
        words = " ".join(text_of(summary, f"#summary-{i}") for i in range(len(summary.lines)))
        assert "Scores" in words
        await pilot.pause(0.3)
        deals = [e for e in events(app) if isinstance(e, Dealt)]
        assert len(deals) == 1  # the next hand waits for the summary to be read
        await pilot.press("enter")
        await until(
            pilot, lambda: sum(isinstance(e, Dealt) for e in app.table.events_since(ME)) == 2
        )

    play(test)


def test_a_match_closed_mid_hand_resumes_from_its_record(tmp_path: Path) -> None:
    settings = Settings(paced=False, animate=False, records=tmp_path)
    first = TricktableApp(MatchSetup("setback", ("heuristic",) * 3, 8), settings, start="play")
    done: dict[str, Any] = {}

    async def close_mid_hand() -> None:
        async with first.run_test(size=SIZE) as pilot:
            app = first.table_screen
            assert app is not None
            for _ in range(3):  # three of my own actions, then close
                await until(pilot, lambda: my_turn(app))
                await act_first(app, pilot)
            await until(pilot, lambda: my_turn(app))
            done["moves"] = len(app.table.state.history[-1].actions)
            done["path"] = app.path
            await pilot.press("q")
        first.table_screen.table.close()

    asyncio.run(close_mid_hand())
    path = done["path"]
    record = load_record(path)
    state = replay(record)
    assert not state.is_over and state.to_act == ME
    assert len(state.history[-1].actions) == done["moves"]
    again = TricktableApp(MatchSetup(), settings, start="resume", path=path)

    async def resume() -> None:
        async with again.run_test(size=SIZE) as pilot:
            app = again.table_screen
            assert app is not None
            await until(pilot, lambda: my_turn(app))
            assert app.view().hand == state.view(ME).hand  # the same cards in hand
            before = app.table.moves
            await act_first(app, pilot)
            assert app.table.moves > before
            await pilot.press("q")
        again.table_screen.table.close()

    asyncio.run(resume())
    assert len(replay(load_record(path)).history[-1].actions) > done["moves"]


def test_the_match_end_offers_to_play_again() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        for _ in range(400):
            screen = app.app.screen
            if isinstance(screen, MatchEnd):
                break
            if isinstance(screen, HandSummary):
                await pilot.press("enter")
            elif my_turn(app):
                await act_first(app, pilot)
            else:
                await pilot.pause(0.01)
        end = app.app.screen
        assert isinstance(end, MatchEnd)
        assert "match" in text_of(end, "#end-0").lower()
        await pilot.press("a")
        await until(pilot, lambda: app.app.table_screen is not app)
        assert app.app.table_screen.seed != app.seed  # a fresh seed, the same setup
        assert app.app.table_screen.game.spec() == app.game.spec()

    play(test, game="setback(target=4)")


def test_hearts_passes_three_marked_cards() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: my_turn(app))
        before = app.table.moves
        await pilot.press("enter")  # nothing marked: refused, with what to do
        assert app.table.moves == before
        assert "0 of 3 marked" in text_of(app, "#message")
        await pilot.click("#card-0")  # a click marks a card
        await pilot.press("2", "space", "3", "space")
        marked = sorted(app.marked)
        assert len(marked) == 3 and app.hand[0] in marked
        await pilot.press("enter")
        await until(pilot, lambda: app.table.moves > before)
        assert not app.view().hand & sum(1 << c for c in marked)  # the three cards are gone

    play(test, game="hearts", seed=2)


@pytest.mark.parametrize("game", ["spades", "euchre"])
def test_a_hand_of_spades_and_euchre_by_keys(game: str) -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        while hands_scored(app) == 0:
            await until(pilot, lambda: my_turn(app) or hands_scored(app) > 0)
            if hands_scored(app):
                break
            before = app.table.moves
            await act_first(app, pilot)
            assert app.table.moves > before, text_of(app, "#message")
        assert isinstance(app.app.screen, HandSummary) or hands_scored(app)

    play(test, game=game, seed=4)


def test_talking_to_the_table() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: my_turn(app))
        await pilot.press("t")
        assert isinstance(app.focused, Input)
        await pilot.press(*"good luck", "enter")
        mine = [e for e in app.table.events_since(ME) if isinstance(e, Chat) and e.seat == ME]
        assert [e.text for e in mine] == ["good luck"]
        await pilot.pause()
        assert "good luck" in log_text(app, "#chat")
        hidden = next(c for c in range(52) if not app.view().hand >> c & 1)
        from tricktable.cards import card_name

        await pilot.press("t", *f"I hold {card_name(hidden)}", "enter")
        assert "not said" in text_of(app, "#message")  # a hidden card may not be named
        assert my_turn(app)

    play(test)


def test_last_trick_skin_and_ascii_keys() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        while True:
            await until(pilot, lambda: my_turn(app))
            if app.view().tricks:
                break
            await act_first(app, pilot)
        last = app.view().tricks[-1][1]
        await pilot.press("l")
        shown = trick_text(app)
        assert app.showing_last and "last trick" in shown
        assert all(card_label(c, 0, True).plain.rstrip("*") in shown for c in last)
        assert not any(symbol in shown + text_of(app, "#status") for symbol in "♠♥♦♣")
        await pilot.press("l")
        assert not app.showing_last
        assert app.has_class("-felt")
        await pilot.press("s")
        assert app.has_class("-paper") and not app.has_class("-felt")

    play(test, ascii=True, animate=True)  # the slides and the trick's collection run too


def test_a_small_window_says_so() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        assert app.has_class("-too-small")
        assert "at least 100×30" in text_of(app, "#too-small")
        await pilot.resize_terminal(*SIZE)
        await until(pilot, lambda: not app.has_class("-too-small"))

    play(test, size=(80, 24))


# ------------------------------------------------------- the table at the sizes it must fit

#: the sizes a newcomer's terminal has: the smallest the screens take, and a common one
SIZES = [(100, 30), (120, 40)]


@pytest.mark.parametrize("size", SIZES)
def test_the_status_line_shows_your_turn_with_house_rules(size: tuple[int, int]) -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: my_turn(app))
        await pilot.pause()
        status = app.query_one("#status", Static)
        shown = shown_in(app.app, status)
        assert "your turn" in shown  # on the screen, not only in the text
        assert len(app.title_text) > 40  # the house rules make the game's title long
        assert "Setback" in shown  # the game is named, as far as the line goes

    play(test, game="setback(target=25,min_bid=3,win=first,dealer_takes=true)", size=size)


@pytest.mark.parametrize("size", SIZES)
def test_thirteen_cards_of_hearts_are_all_on_the_screen(size: tuple[int, int]) -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: my_turn(app))
        await pilot.pause()
        assert len(app.hand) == 13
        felt = app.query_one("#felt").region
        for i, card in enumerate(app.hand):
            chip = app.query_one(f"#card-{i}")
            assert felt.contains_region(chip.region), (i, chip.region, felt)
            assert card_label(card).plain in shown_in(app.app, chip)

    play(test, game="hearts", seed=2, size=size)


@pytest.mark.parametrize("size", SIZES)
def test_the_bid_panel_and_the_lines_under_it_fit(size: tuple[int, int]) -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: my_turn(app) and bool(app.choices))
        await pilot.pause()
        screen = app.region
        for selector in ("#seat-N", "#hand", "#bids", "#message", "#hint"):
            assert screen.contains_region(app.query_one(selector).region), selector
        shown = shown_in(app.app, app.query_one("#bids"))
        assert all(app.game.action_name(a).capitalize() in shown for a in app.choices)

    play(test, size=size)


def test_a_hint_lasts_as_long_as_its_decision() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        while True:  # to a card to play (a hint for a bid is cleared the same way)
            await until(pilot, lambda: my_turn(app))
            if app.view().phase == PLAY:
                break
            await act_first(app, pilot)
        hand = app.view().hand_number
        await pilot.press("h")
        await until(pilot, lambda: text_of(app, "#hint").startswith("Hint: "))
        await pilot.press("enter")  # the card is played: its hint goes with it
        assert text_of(app, "#hint") == ""
        while app.view().hand_number == hand or not my_turn(app):  # into the next hand
            await until(pilot, lambda: my_turn(app) or isinstance(app.app.screen, HandSummary))
            if isinstance(app.app.screen, HandSummary):
                await pilot.press("enter")
            elif app.view().hand_number == hand:
                await act_first(app, pilot)
            assert text_of(app, "#hint") == ""

    play(test)


async def on_lead(app: TableScreen, pilot: Pilot[None]) -> None:
    """Play on (first legal choices) until the person leads a trick after the first."""
    for _ in range(200):
        await until(pilot, lambda: my_turn(app) or isinstance(app.app.screen, HandSummary))
        if isinstance(app.app.screen, HandSummary):
            await pilot.press("enter")
            continue
        view = app.view()
        if view.phase == PLAY and view.tricks and not view.trick:
            return
        await act_first(app, pilot)
    raise AssertionError("the person never led a trick after the first")


def test_a_collected_trick_leaves_the_felt_clear_and_l_toggles_on_lead() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await on_lead(app, pilot)
        await until(pilot, lambda: app.collected)  # the trick is seen, then collected
        await pilot.pause()
        last = app.view().tricks[-1][1]
        shown = trick_text(app)
        # Collected (animations on): no card on the felt, and no "last trick" over it.
        assert app.collected and "last trick" not in shown and "taken by" not in shown
        assert not any(card_label(c).plain in shown for c in last)
        await pilot.press("l")
        shown = trick_text(app)
        assert "last trick" in shown and "(l: back)" in shown
        assert all(card_label(c).plain in shown for c in last)
        await pilot.press("l")  # back: the felt clear again
        shown = trick_text(app)
        assert "last trick" not in shown and not any(card_label(c).plain in shown for c in last)
        assert my_turn(app)

    play(test, animate=True)


def test_without_animations_the_trick_taken_stays_and_l_toggles_back() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await on_lead(app, pilot)
        _leader, last, winner = app.view().tricks[-1]
        shown = trick_text(app)
        assert f"taken by\n{app.names[winner]}" in shown and "last trick" not in shown
        assert all(card_label(c).plain in shown for c in last)
        await pilot.press("l")
        assert "last trick" in trick_text(app) and "(l: back)" in trick_text(app)
        await pilot.press("l")
        assert trick_text(app) == shown

    play(test)


def test_question_mark_shows_the_keys_and_the_rules_in_brief() -> None:
    async def test(app: TableScreen, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: my_turn(app))
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.app.screen, KeysHelp))
        helped = app.app.screen
        rules = app.presenter.rules_summary()
        assert "Six cards each" in rules  # Setback's own summary, not a fallback
        assert str(helped.query_one("#rules", Static).content) == rules
        # The line terminal's ? says the same words.
        out = io.StringIO()
        assert app.display_log is not None
        line = TableDisplay(Console(file=out, width=200), app.game, app.names)
        line.show_help(app.view())
        assert " ".join(rules.split()) in " ".join(out.getvalue().split())
        # At 100x30 the dialog scrolls: its end (the rules' last words) can be reached.
        await pilot.press("end")
        await pilot.pause()
        assert rules.split()[-1] in "\n".join(screen_rows(app.app))
        await pilot.press("escape")
        await until(pilot, lambda: app.app.screen is app)

    play(test, size=(100, 30))
