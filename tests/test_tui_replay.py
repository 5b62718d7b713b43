"""The replay viewer (``tricktable.tui.replay``), driven by Textual's headless pilot.

Each position the screen shows is checked against the engine's own state, rebuilt
independently: :func:`tricktable.records.replay` of the record cut after that many actions.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable, Coroutine
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from tricktable.analysis.analyze import analyze
from tricktable.cards import cards_in, parse_card
from tricktable.engine.trick import PLAY, TrickState
from tricktable.errors import RecordError, TricktableError
from tricktable.records import replay, save_record
from tricktable.runner import MatchSpec, run_match
from tricktable.tui.model import Settings
from tricktable.tui.replay import BUTTONS, ReplayApp, ReplayScreen, replay_app
from tricktable.tui.skins import card_label
from tricktable.ui.terminal import COMPASS
from tui_helpers import shown_in

SIZE = (150, 48)
ASCII = Settings(ascii=True)


@cache
def setback_record() -> str:
    """A finished Setback match of two hands (its analysis takes about a second)."""
    outcome = run_match(MatchSpec("setback(target=5)", ("heuristic",) * 4, 2))
    return json.dumps(outcome.record)


@cache
def other_record(game: str) -> str:
    """One hand of ``game`` between heuristic bots (a match stopped by ``max_hands``)."""
    outcome = run_match(MatchSpec(game, ("heuristic",) * 4, 3, max_hands=1))
    return json.dumps(outcome.record)


def load(text: str) -> dict[str, Any]:
    record = json.loads(text)
    assert isinstance(record, dict)
    return record


def replayed_to(record: dict[str, Any], hand: int, at: int) -> TrickState:
    """The engine's state after ``at`` actions of hand ``hand``: the record cut there."""
    cut = {k: v for k, v in record.items() if k != "unfinished_hand"}
    hands = record["hands"] + ([record["unfinished_hand"]] if "unfinished_hand" in record else [])
    cut["hands"] = hands[:hand]
    cut["unfinished_hand"] = {**hands[hand], "actions": hands[hand]["actions"][:at]}
    return replay(cut)


def text_of(screen: ReplayScreen, selector: str) -> str:
    """What a Static shows, as plain text."""
    console = Console(width=140, file=io.StringIO(), record=True, color_system=None)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text().strip()


def log_rows(screen: ReplayScreen) -> list[list[str]]:
    """The decisions listed in the log, cell by cell, as plain text."""
    table: DataTable[Any] = screen.query_one("#rp-log", DataTable)
    rows = (table.get_row_at(r) for r in range(table.row_count))
    return [[c.plain if isinstance(c, Text) else str(c) for c in row] for row in rows]


def shown_cards(text: str) -> set[int]:
    """The cards in a line of the screen (ASCII ``TD*`` or ``10♦``), marks left out."""
    out = set()
    for word in text.split():
        word = word.rstrip("*")
        if word in ("<=", "★", ""):
            continue
        out.add(parse_card(word))
    return out


def check_position(screen: ReplayScreen, record: dict[str, Any], hand: int, at: int) -> None:
    """The screen shows hand ``hand`` after ``at`` actions, as the engine has it."""
    assert tuple(screen.position) == (hand, at)
    want = replayed_to(record, hand, at)
    head = text_of(screen, "#rp-head")
    assert f"hand {hand + 1} of" in head and f"move {at} of" in head
    assert "face up" in head
    for seat in range(4):
        lines = text_of(screen, f"#rp-seat-{'SWNE'[seat]}").splitlines()
        assert lines[0].startswith(COMPASS[seat])
        assert f"tricks {want.tricks_won[seat]}" in lines[1]
        cards = "" if lines[2] == "no cards left" else lines[2]
        assert shown_cards(cards) == set(cards_in(want.hands[seat])), (seat, lines)
    trick = shown_cards(text_of(screen, "#rp-trick"))
    if want.trick:
        assert trick == set(want.trick)
    elif at and want.tricks and screen.match.logs[hand].actions[at - 1] < 64:
        assert trick == set(want.tricks[-1][1])  # the trick just taken, still on the table
    else:
        assert trick == set()
    facts = text_of(screen, "#rp-facts")
    assert screen.seating.scores_text(want.scores) in " ".join(facts.split())


def is_trick_stop(record: dict[str, Any], hand: int, at: int) -> bool:
    """Whether a trick step stops here: a deal, the end of the bidding, a trick taken."""
    if at == 0:
        return True
    before, after = replayed_to(record, hand, at - 1), replayed_to(record, hand, at)
    started = before.phase != PLAY and after.phase == PLAY
    return started or len(after.tricks) > len(before.tricks) or after.results != before.results


def run(
    screen: ReplayScreen,
    test: Callable[[ReplayScreen, Pilot[None]], Coroutine[Any, Any, None]],
    size: tuple[int, int] = SIZE,
) -> ReplayApp:
    """Run ``test`` against ``screen``, headless, in a window of ``size``."""
    app = ReplayApp(screen)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await test(screen, pilot)

    asyncio.run(main())
    return app


def test_steps_by_action_trick_and_hand_keys() -> None:
    record = load(setback_record())
    sizes = [len(h["actions"]) for h in record["hands"]]
    assert len(sizes) == 2 and "unfinished_hand" not in record

    async def test(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        check_position(screen, record, 0, 0)
        for _ in range(6):
            await pilot.press("right")
        check_position(screen, record, 0, 6)
        await pilot.press("left", "left")
        check_position(screen, record, 0, 4)
        # ↓ and ] stop at the next deal, end of bidding or trick taken, and at none before.
        for key in ("down", "right_square_bracket", "down", "down"):
            before = screen.position.at
            await pilot.press(key)
            at = screen.position.at
            assert at > before and is_trick_stop(record, 0, at)
            assert not any(is_trick_stop(record, 0, k) for k in range(before + 1, at))
            check_position(screen, record, 0, at)
        await pilot.press("up")
        back = screen.position.at
        assert is_trick_stop(record, 0, back) and back < at
        await pilot.press("left_square_bracket")
        assert screen.position.at < back
        await pilot.press("pagedown")
        check_position(screen, record, 1, 0)
        await pilot.press("pageup")
        check_position(screen, record, 0, 0)
        await pilot.press("n")
        check_position(screen, record, 1, 0)
        await pilot.press("left")  # back over the deal: the end of the first hand, scored
        check_position(screen, record, 0, sizes[0])
        assert "Hand 1 scored" in text_of(screen, "#rp-result")
        await pilot.press("end")
        check_position(screen, record, 1, sizes[1])
        assert "the match is over" in text_of(screen, "#rp-facts")
        await pilot.press("right", "pagedown", "down")  # nothing after the end
        check_position(screen, record, 1, sizes[1])
        await pilot.press("home")
        check_position(screen, record, 0, 0)
        await pilot.press("p", "left", "up")  # nothing before the start
        check_position(screen, record, 0, 0)

    run(ReplayScreen(record, ASCII, analysis=False), test)


def test_the_buttons_step_with_the_mouse() -> None:
    record = load(setback_record())
    sizes = [len(h["actions"]) for h in record["hands"]]

    async def test(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        for _ in range(5):
            await pilot.click("#rp-forward")
        check_position(screen, record, 0, 5)
        await pilot.click("#rp-back")
        check_position(screen, record, 0, 4)
        await pilot.click("#rp-trick-forward")
        assert screen.position.at > 4 and is_trick_stop(record, 0, screen.position.at)
        await pilot.click("#rp-trick-back")
        assert screen.position.at <= 4
        await pilot.click("#rp-hand-forward")
        check_position(screen, record, 1, 0)
        await pilot.click("#rp-end")
        check_position(screen, record, 1, sizes[1])
        await pilot.click("#rp-hand-back")
        check_position(screen, record, 1, 0)
        await pilot.click("#rp-home")
        check_position(screen, record, 0, 0)

    run(ReplayScreen(record, ASCII, analysis=False), test)


def test_the_log_highlights_the_decision_just_made() -> None:
    record = load(setback_record())
    first = record["hands"][0]["actions"]

    async def test(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        assert "no move yet" in text_of(screen, "#rp-log-note")
        assert log_rows(screen) == []
        await pilot.press("right", "right", "right")
        rows = log_rows(screen)
        assert [r[0] for r in rows] == ["1", "2", "3"]
        assert [r[2] for r in rows] == [COMPASS[s] for s in screen.match.logs[0].actors[:3]]
        assert rows[2][3] == first[2]  # "bid 2", "pass": the presenter's words
        table: DataTable[Any] = screen.query_one("#rp-log", DataTable)
        assert table.cursor_row == 2 and table.show_cursor
        assert "no analysis: turned off" in text_of(screen, "#rp-analysis")
        await pilot.press("right", "right")
        assert table.cursor_row == 4
        # A click on a decision in the log goes to the position just after it.
        await pilot.click("#rp-log", offset=(2, 2))  # the header, then row 1, row 2
        await pilot.pause()
        assert tuple(screen.position) == (0, 2)
        check_position(screen, record, 0, 2)

    run(ReplayScreen(record, ASCII, analysis=False), test)


def test_the_analysis_is_shown_beside_each_decision() -> None:
    record = load(setback_record())
    judged = analyze(record, hands=[0], sampling=False)
    d = next(d for d in judged.decisions if d.double_dummy is not None and d.index > 5)
    dd = d.double_dummy
    assert dd is not None

    async def test(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        if 0 not in screen.analysed:
            assert "analysing…" in text_of(screen, "#rp-analysis")
        for _ in range(d.index + 1):
            await pilot.press("right")
        for _ in range(600):  # the worker's thread: at most a minute on a busy machine
            if 0 in screen.analysed:
                break
            await pilot.pause(0.1)
        assert 0 in screen.analysed
        await pilot.pause()
        row = log_rows(screen)[d.index]
        assert row[0] == str(d.index + 1)
        assert row[3].endswith(f"({dd.played:+d})") and row[4].endswith(f"({dd.value:+d})")
        assert shown_cards(row[4].split("(")[0]) == set(dd.best)
        assert row[5] == str(dd.loss)
        assert "dd lost" in text_of(screen, "#rp-analysis")

    run(ReplayScreen(record, ASCII), test)


def test_hearts_steps_through_the_passes_and_tricks() -> None:
    record = load(other_record("hearts"))
    size = len(record["hands"][0]["actions"])

    async def test(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("right", "right", "right", "right")
        check_position(screen, record, 0, 4)  # the passes made: each hand holds what it got
        await pilot.press("down", "down", "down")
        check_position(screen, record, 0, screen.position.at)
        assert is_trick_stop(record, 0, screen.position.at)
        await pilot.press("left")
        check_position(screen, record, 0, screen.position.at)
        await pilot.press("end")
        check_position(screen, record, 0, size)
        await pilot.press("home")
        check_position(screen, record, 0, 0)

    # Unicode cards (10♦) this time: the same cards are read back.
    run(ReplayScreen(record, Settings(), analysis=False), test)


def test_why_there_is_no_analysis() -> None:
    oh_hell = load(other_record("oh-hell"))
    cut = load(setback_record())
    # The first hand cut short after move 9 by a forfeit of North's (a record/2 note).
    cut["format"] = "tricktable-record/2"
    first = cut["hands"][0]
    forfeit = {"at": 9, "kind": "forfeit", "seat": 2}
    cut["unfinished_hand"] = {**first, "actions": first["actions"][:9], "notes": [forfeit]}
    cut["hands"] = []
    lines = {}

    async def stopped(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        lines["setback"] = text_of(screen, "#rp-analysis")
        await pilot.press("end")  # the record stops after move 9: so does the replay
        check_position(screen, cut, 0, 9)
        assert "the record stops here" in text_of(screen, "#rp-head")
        assert text_of(screen, "#rp-result") == "North forfeited the match here"
        assert "the match is over" in text_of(screen, "#rp-facts")

    async def unsolved(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        lines["oh-hell"] = text_of(screen, "#rp-analysis")

    run(ReplayScreen(cut, ASCII), stopped)
    run(ReplayScreen(oh_hell, ASCII), unsolved)
    assert lines["setback"] == (
        "no analysis: the record's only hand did not finish (analyze takes finished hands only)"
    )
    assert lines["oh-hell"].startswith("no analysis: no double-dummy solver for oh-hell")


def test_a_corrupt_record_is_one_clear_line(tmp_path: Path) -> None:
    record = load(setback_record())
    actions = record["hands"][0]["actions"]
    i = next(i for i, a in enumerate(actions) if a.startswith("play"))
    actions[i + 1] = actions[i]  # the same card played twice
    with pytest.raises(RecordError) as caught:
        ReplayScreen(record, Settings())
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"hand 0 action {i + 1}:")
    with pytest.raises(TricktableError, match="unknown format"):
        ReplayScreen({"format": "nope", "game": "setback", "hands": []}, Settings())
    with pytest.raises(TricktableError, match="no hand to replay"):
        ReplayScreen({**load(setback_record()), "hands": []}, Settings())
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(TricktableError, match="malformed JSON at line 1"):
        replay_app(str(bad), Settings())
    with pytest.raises(TricktableError, match="cannot read"):
        replay_app(str(tmp_path / "missing.json"), Settings())


def test_replay_app_opens_a_file_and_q_closes_it(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    save_record(load(setback_record()), path)
    app = replay_app(str(path), ASCII, analysis=False)
    assert isinstance(app, ReplayApp)
    seen = {}

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            seen["head"] = text_of(screen, "#rp-head")
            await pilot.press("right", "q")
            await pilot.pause()
            seen["closed"] = not isinstance(app.screen, ReplayScreen)

    asyncio.run(main())
    assert "match.json" in seen["head"] and seen["closed"]
    assert app.return_code == 0


@pytest.mark.parametrize("size", [(100, 30), (120, 40)])
def test_the_trick_and_the_buttons_show_in_a_small_window(size: tuple[int, int]) -> None:
    record = load(setback_record())

    async def test(screen: ReplayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("down", "down", "right", "right", "right")  # three cards of a trick
        await pilot.pause()
        assert len(screen.state.trick) == 3
        trick = screen.query_one("#rp-trick", Static)
        assert trick.region.width >= 21  # three cards abreast and the frame
        shown = shown_in(screen.app, trick)
        for card in screen.state.trick:
            assert card_label(card).plain in shown, (card, shown)
        assert f"trick {len(screen.state.tricks) + 1}" in shown  # its title, on the frame
        felt = screen.query_one("#rp-felt").region
        for key, label, _ in BUTTONS:
            button = screen.query_one(f"#rp-{key}")
            assert felt.contains_region(button.region), key
            assert label in shown_in(screen.app, button)
        for seat in "NWES":  # every seat's name and cards on the felt
            box = screen.query_one(f"#rp-seat-{seat}").region
            assert felt.contains_region(box), seat

    run(ReplayScreen(record, Settings(), analysis=False), test, size)
