"""One served tab's app (:mod:`tricktable.tui.tab`), driven headless: its records are its own.

A tab lists, resumes and replays only the records of its own folder; a record of another tab
(a match going on there included), any other file, or a link out of the folder is refused on
the screen, before the file is read. Its options are read by ``tricktable tui``'s own parser.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static

from tricktable.errors import TricktableError
from tricktable.records import save_record
from tricktable.runner import MatchSpec, run_match
from tricktable.tui.command import TuiOptions
from tricktable.tui.model import MatchSetup, Settings
from tricktable.tui.replay import ReplayScreen
from tricktable.tui.tab import TabApp, TabSetupScreen, owned, tab_app, tab_options
from tui_helpers import shown_in, until

SIZE = (150, 48)


def saved_match(folder: Path, name: str = "match-3.json") -> Path:
    """An unfinished match a person played, saved in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    record = run_match(MatchSpec("setback", ("random",) * 4, 3, max_hands=1)).record
    record["players"][0] = "alice"
    path = folder / name
    save_record(record, path)
    return path


def error(app: TabApp) -> str:
    return str(app.screen.query_one("#setup-error", Static).render())


def test_a_tab_replays_its_own_records_and_no_other_file(tmp_path: Path) -> None:
    mine, other = tmp_path / "tabs" / "a", tmp_path / "tabs" / "b"
    own = saved_match(mine)
    theirs = saved_match(other, "match-other.json")
    secret = tmp_path / "secret.json"
    secret.write_text('{"format": "tricktable-record/1"}', encoding="utf-8")
    (mine / "link.json").symlink_to(theirs)
    app = TabApp(MatchSetup(), Settings(paced=False, animate=False, records=mine))

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TabSetupScreen) and screen.records == mine
            saved = screen.query_one("#saved", OptionList)
            listed = [str(saved.get_option_at_index(i).prompt) for i in range(saved.option_count)]
            # This tab's unfinished match (and the link in its folder), not the other tab's.
            assert any("match-3.json" in line for line in listed)
            assert not any("match-other.json" in line for line in listed)
            where = screen.query_one("#replay-path", Input)
            where.focus()
            for text in (theirs, secret, mine / "link.json", mine / ".." / "b" / theirs.name):
                where.value = str(text)
                await pilot.press("enter")  # as the Replay button does
                assert "this tab opens only its own records" in error(app), text
                assert app.screen is screen
            where.value = str(own)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen))

    asyncio.run(main())


def test_a_path_handed_to_the_app_from_elsewhere_is_refused_too(tmp_path: Path) -> None:
    # The app's own check, behind the screen's: whatever a screen hands back, a record
    # outside the tab's folder is not opened, and the start screen says why.
    from tricktable.tui.model import Chosen

    mine = tmp_path / "mine"
    mine.mkdir()
    theirs = saved_match(tmp_path / "theirs")
    app = TabApp(MatchSetup(), Settings(paced=False, animate=False, records=mine))

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for action in ("resume", "replay"):
                app._chosen(Chosen(action, MatchSetup(), app.settings, theirs))
                await pilot.pause()
                await pilot.pause()
                assert isinstance(app.screen, TabSetupScreen)
                assert "this tab opens only its own records" in error(app)
                assert app.table_screen is None

    asyncio.run(main())


def test_owned_is_inside_the_folder_after_links_and_dots(tmp_path: Path) -> None:
    folder = tmp_path / "tab"
    folder.mkdir()
    (folder / "x.json").touch()
    (folder / "out.json").symlink_to(tmp_path)
    assert owned(folder, folder / "x.json")
    assert owned(folder, f"{folder}/./x.json")
    assert not owned(folder, f"{folder}/../x.json")
    assert not owned(folder, folder / "out.json")
    assert not owned(folder, "/etc/passwd")
    assert not owned(folder, "\0")


def test_a_tab_reads_the_options_as_tricktable_tui_does(tmp_path: Path) -> None:
    options = tab_options(["--game", "hearts", "--seed", "5", "--ascii", "--no-animations"])
    assert options == TuiOptions(game="hearts", seed=5, ascii=True, animate=False)
    for given in (["--save", "x.json"], ["--resume", "x.json"]):
        with pytest.raises(TricktableError, match="saves and resumes its own matches"):
            tab_options(given)
    with pytest.raises(TricktableError, match="No such option"):
        tab_options(["--bogus"])
    app = tab_app(tab_options(["--seed", "5"]), tmp_path)
    assert isinstance(app, TabApp) and app.settings.records == tmp_path
    assert app.setup.seed == 5


def test_the_tab_command_says_what_is_wrong_in_one_line(tmp_path: Path) -> None:
    src = str(Path(__file__).parents[1] / "src")
    for args in ([str(tmp_path / "nowhere")], [str(tmp_path), "--bogus"], []):
        done = subprocess.run(
            [sys.executable, "-m", "tricktable.tui.tab", *args],
            capture_output=True, text=True, timeout=60, env={"PYTHONPATH": src}, check=False,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1


def test_a_tab_reads_no_rules_file_outside_its_folder_and_no_label_as_markup(
    tmp_path: Path,
) -> None:
    """The rules box would read any file the server can (its error tells what the file
    holds); a record's label is text, even one written as a link to an app action."""
    mine = tmp_path / "tabs" / "a"
    path = saved_match(mine)
    record = json.loads(path.read_text(encoding="utf-8"))
    record["players"][1] = "bot:[@click=app.quit]x[/]"  # listed as an opponent, by label
    save_record(record, path)
    secret = tmp_path / "secret.toml"
    secret.write_text('game = "s3cr3t"\n', encoding="utf-8")
    app = TabApp(MatchSetup(), Settings(paced=False, animate=False, records=mine))

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            saved = screen.query_one("#saved", OptionList)
            listed = [str(saved.get_option_at_index(i).prompt) for i in range(saved.option_count)]
            assert any("[@click=app.quit]x[/]" in line for line in listed), listed
            assert "[@click=app.quit]x[/]" in shown_in(app, saved)  # drawn as written
            screen.query_one("#rules-file", Input).value = str(secret)
            assert isinstance(screen, TabSetupScreen)
            screen.action_start()
            await pilot.pause()
            assert "this tab opens only its own records" in error(app)
            assert "s3cr3t" not in error(app) and app.screen is screen

    asyncio.run(main())
