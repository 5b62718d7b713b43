"""The full-screen app as a newcomer meets it: the start screen, a table, back to the start
screen, resume, replay; and the command line's checks (``tricktable tui``)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList, Static

from tricktable.engine.trick import PLAY
from tricktable.errors import TricktableError
from tricktable.records import load_record, replay, save_record
from tricktable.runner import MatchSpec, run_match
from tricktable.tui.app import TricktableApp
from tricktable.tui.command import TuiOptions, make_app
from tricktable.tui.dialogs import HandSummary, MatchEnd
from tricktable.tui.model import Chosen, MatchSetup, Settings
from tricktable.tui.replay import ReplayScreen
from tricktable.tui.setup import SetupScreen
from tricktable.tui.table import ME, TableScreen
from tui_helpers import SIZE, quiet, screen_rows, until


def settings(folder: Path) -> Settings:
    return quiet(folder)


def test_start_play_leave_resume_and_replay(tmp_path: Path) -> None:
    app = TricktableApp(MatchSetup(seed=12), settings(tmp_path))
    tables: list[TableScreen] = []

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SetupScreen))
            await pilot.press("ctrl+s")  # Start, with the defaults: three characters
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            table = app.screen
            assert isinstance(table, TableScreen)
            assert table.players[1:] == ["Edna", "Vinnie", "Rosa"]
            await until(pilot, lambda: table.table.whose_turn == ME)
            moves = table.table.moves
            await pilot.press("enter")
            assert table.table.moves > moves
            path = table.path
            await pilot.press("escape")  # saved, back to the start screen
            await until(pilot, lambda: isinstance(app.screen, SetupScreen))
            saved = app.screen.query_one("#saved", OptionList)
            assert path.name in str(saved.get_option_at_index(0).prompt)
            await pilot.click("#resume")
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            again = app.screen
            assert isinstance(again, TableScreen) and again is not table
            assert again.path == path and again.seed == table.seed
            assert again.table.moves == 0  # nothing played yet at this table: all replayed
            assert len(again.table.state.history[-1].actions) >= 1
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, SetupScreen))
            app.screen.query_one("#replay-path", Input).value = str(path)
            await pilot.click("#replay")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, SetupScreen))
            await pilot.click("#quit")
        tables.extend((table, again))
        for screen in tables:
            screen.table.close()

    asyncio.run(main())
    assert not replay(load_record(tables[0].path)).is_over


def test_a_record_that_cannot_be_resumed_is_said_on_the_start_screen(tmp_path: Path) -> None:
    bots_only = run_match(MatchSpec("setback", ("random",) * 4, 3, max_hands=1)).record
    bad = tmp_path / "bots.json"
    save_record(bots_only, bad)  # every seat a bot: not a match of this screen
    app = TricktableApp(MatchSetup(), settings(tmp_path))

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SetupScreen))
            # What the start screen hands back when this file is chosen to resume:
            app._chosen(Chosen("resume", MatchSetup(), settings(tmp_path), bad))
            await until(pilot, lambda: isinstance(app.screen, SetupScreen))
            await pilot.pause(0.1)
            error = str(app.screen.query_one("#setup-error", Static).content)
            assert "one person" in error
            await pilot.click("#quit")

    asyncio.run(main())


def test_no_color_keeps_every_cue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = TricktableApp(MatchSetup(seed=3), settings(tmp_path), start="play")

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            table = app.table_screen
            assert table is not None and app.no_color
            while True:  # to a turn in the play where some cards may not be played
                await until(pilot, lambda: table.table.whose_turn == ME)
                view = table.view()
                legal = view.legal_actions()
                if view.phase == PLAY and len(legal) < len(table.hand):
                    break
                await pilot.press("enter")
            # Without colour, the picked card, the other legal ones and the rest differ by
            # their frame: double, round, dashed.
            for i, card in enumerate(table.hand):
                chip = table.query_one(f"#card-{i}")
                want = "double" if i == table.cursor else "round" if card in legal else "dashed"
                assert chip.styles.border_top[0] == want, (i, card, chip.classes)
            table.table.stop()
        assert app.table_screen is not None
        app.table_screen.table.close()

    asyncio.run(main())


def test_the_command_checks_its_options(tmp_path: Path) -> None:
    with pytest.raises(TricktableError, match="not both"):
        make_app(TuiOptions(resume="a.json", replay="b.json"))
    with pytest.raises(TricktableError, match="hearts is played by 3 to 6 players, not 2"):
        make_app(TuiOptions(game="hearts", players="you,edna"))
    with pytest.raises(TricktableError):
        make_app(TuiOptions(game="setback(target=banana)"))
    with pytest.raises(TricktableError):
        make_app(TuiOptions(resume=str(tmp_path / "missing.json")))
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": "tricktable-record/1", "game": "setback"}))
    with pytest.raises(TricktableError):
        make_app(TuiOptions(replay=str(broken)))
    app = make_app(TuiOptions(players="you,ada,moe,kit", seed=3, play=True))
    assert app.start == "play" and app.setup.players == ("ada", "moe", "kit")


@pytest.mark.parametrize(
    "args",
    [
        ["--resume", "missing.json"],
        ["--players", "edna,you,vinnie,rosa"],
        ["--game", "nosuchgame"],
        ["--serve", "--save", "x.json"],
        ["--serve", "--port", "0"],
    ],
)
def test_bad_options_give_one_line(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "tricktable", "tui", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert not any(tmp_path.iterdir())  # nothing written


def test_unfinished_records_newest_first_finished_and_junk_left_out(tmp_path: Path) -> None:
    from tricktable.tui.model import unfinished_records

    def saved(name: str, hands: int | None, stamp: int) -> Path:
        spec = "setback(target=3)" if hands is None else "setback"
        record = run_match(MatchSpec(spec, ("heuristic",) * 4, stamp, max_hands=hands)).record
        record["players"][0] = "alice"
        path = tmp_path / name
        save_record(record, path)
        os.utime(path, (stamp, stamp))
        return path

    old, new = saved("old.json", 1, 1000), saved("new.json", 2, 2000)
    finished = saved("done.json", None, 3000)
    assert replay(load_record(finished)).is_over
    (tmp_path / "junk.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[1, 2]")
    found = unfinished_records(tmp_path)
    assert [m.path for m in found] == [new, old]
    assert found[0].hands == 2 and "alice" not in found[0].line()
    assert [m.path for m in unfinished_records(tmp_path, limit=1)] == [new]
    assert unfinished_records(tmp_path / "missing") == []


def test_every_screen_says_when_the_window_is_too_small(tmp_path: Path) -> None:
    record = run_match(MatchSpec("setback", ("heuristic",) * 4, 4, max_hands=1)).record
    path = tmp_path / "one.json"
    save_record(record, path)
    for start, kind in (("setup", SetupScreen), ("replay", ReplayScreen)):
        app = TricktableApp(
            MatchSetup(), settings(tmp_path), start=start, path=path if start == "replay" else None
        )

        async def main(app: TricktableApp = app, kind: type = kind) -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, kind))
                screen = app.screen
                await until(pilot, lambda: screen.has_class("-too-small"))
                message = str(screen.query_one("#too-small", Static).render())
                assert "80×24" in message and "at least 100×30" in message
                await pilot.resize_terminal(*SIZE)
                await until(pilot, lambda: not screen.has_class("-too-small"))
                app.exit()

        asyncio.run(main())


# ------------------------------------------------- resuming, and the end of a match, explained


def cut_before_last(record: dict[str, Any], person: str = "alice") -> dict[str, Any]:
    """``record`` with its last action taken back (the hand unfinished), seat 0 a person."""
    cut = {k: v for k, v in record.items() if k != "unfinished_hand"}
    *done, last = record["hands"]
    cut["hands"] = done
    cut["unfinished_hand"] = {**last, "actions": last["actions"][:-1]}
    cut["players"] = [person, *record["players"][1:]]
    return cut


def test_a_resumed_match_shows_its_hand_so_far_in_the_log(tmp_path: Path) -> None:
    record = run_match(MatchSpec("setback", ("heuristic",) * 4, 8, max_hands=2)).record
    second = record["hands"][1]
    cut = {**record, "hands": record["hands"][:1], "players": ["alice", *record["players"][1:]]}
    cut["unfinished_hand"] = {**second, "actions": second["actions"][:9]}  # the bids, a trick
    path = tmp_path / "cut.json"
    save_record(cut, path)
    state = replay(cut)
    assert len(state.history) == 2 and state.tricks  # in hand 2, a trick taken
    app = TricktableApp(MatchSetup(), settings(tmp_path), start="resume", path=path)

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = app.table_screen
            assert screen is not None
            await until(pilot, lambda: screen.table.moves > 0 or screen.table.whose_turn == ME)
            log = " ".join(" ".join(line.text for line in screen.query_one("#log").lines).split())
            assert "Hand 2 · " in log and "Hand 1 · " not in log  # the hand in play, only
            assert "Auction: " in log
            leader, _cards, winner = state.tricks[0]
            assert f"1. {screen.names[leader]} " in log
            assert f"{screen.names[winner]} take" in log.split("1. ")[1]
            await pilot.press("q")
        assert app.table_screen is not None
        app.table_screen.table.close()

    asyncio.run(main())


@pytest.mark.parametrize("size", [(100, 30), (120, 40)])
def test_a_match_won_by_the_declarers_rule_with_fewer_points_says_why(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    # Seed 73: South & North, declaring, reach the target of 5 with 5 points while West & East
    # have 9, taken defending; South plays the match's last card.
    finished = run_match(MatchSpec("setback(target=5)", ("heuristic",) * 4, 73, talk=False))
    final = replay(finished.record)
    assert final.winner == 0 and final.scores[0] < final.scores[1]
    assert finished.record["hands"][-1]["actions"] and final.history[-1].actors[-1] == ME
    path = tmp_path / "last-card.json"
    save_record(cut_before_last(finished.record), path)
    app = TricktableApp(MatchSetup(), settings(tmp_path), start="resume", path=path)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            screen = app.table_screen
            assert screen is not None
            await until(pilot, lambda: screen.table.whose_turn == ME)
            await pilot.press("enter")  # the last card
            await until(pilot, lambda: isinstance(app.screen, HandSummary | MatchEnd))
            if isinstance(app.screen, HandSummary):
                await pilot.press("enter")  # the last hand's summary, then the match's end
            await until(pilot, lambda: isinstance(app.screen, MatchEnd))
            await pilot.pause()
            end = app.screen
            said = " ".join(" ".join(str(s.content) for s in end.query(Static)).split())
            assert f"win the match, {final.scores[0]} to {final.scores[1]}" in said
            assert "Only the declaring team can win, by reaching 5" in said
            shown = " ".join(" ".join(screen_rows(app)).split())
            assert "Only the declaring team can win" in shown  # on the screen, whole
            assert "never win the match." in shown
            await pilot.press("q")
        assert app.table_screen is not None
        app.table_screen.table.close()

    asyncio.run(main())


def test_a_record_naming_a_program_is_not_resumed_unless_the_players_are_given_again(
    tmp_path: Path,
) -> None:
    record = run_match(MatchSpec("setback", ("heuristic",) * 4, 6, max_hands=2)).record
    made = tmp_path / "PWNED"
    cut = cut_before_last(record)
    cut["players"][2] = f"bot:cmd:touch {made}"
    path = tmp_path / "shared.json"
    save_record(cut, path)
    with pytest.raises(TricktableError, match="never starts a program"):
        make_app(TuiOptions(resume=str(path)))
    # On the start screen: one line, and nothing started.
    app = TricktableApp(MatchSetup(), settings(tmp_path))

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SetupScreen))
            app._chosen(Chosen("resume", MatchSetup(), settings(tmp_path), path))
            await until(pilot, lambda: isinstance(app.screen, SetupScreen))
            await pilot.pause(0.1)
            error = str(app.screen.query_one("#setup-error", Static).content)
            assert "never starts a program" in error and "\n" not in error
            await pilot.click("#quit")

    asyncio.run(main())
    assert not made.exists()
    # Given again by the person, the players play on.
    again = make_app(TuiOptions(resume=str(path), players="you,heuristic,random,heuristic"))
    assert again.start == "resume" and again.resume_bots == ("heuristic", "random", "heuristic")

    async def resumed() -> None:
        async with again.run_test(size=SIZE) as pilot:
            screen = again.table_screen
            assert screen is not None
            assert list(screen.table.labels[1:]) == ["bot:heuristic", "bot:random", "bot:heuristic"]
            await pilot.press("q")
        assert again.table_screen is not None
        again.table_screen.table.close()

    asyncio.run(resumed())
    assert not made.exists()
    assert load_record(path)["players"][2] == "bot:random"
