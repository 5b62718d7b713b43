"""One browser tab of ``tricktable tui --serve``: the app, its records kept to the tab's folder.

Each tab that opens the served page runs ``python -m tricktable.tui.tab FOLDER OPTIONS...``: a
process of its own (:mod:`tricktable.tui.serve` starts it), with the options of ``tricktable
tui`` and a folder that the server made for this tab alone. The tab's matches are saved there,
its start screen lists the unfinished matches found there, and it resumes and replays only the
records there: a tab never reads another tab's records (a match going on in another tab
included) nor any other file the server can read.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from tricktable.cli import fail
from tricktable.errors import TricktableError
from tricktable.runner import MatchSpecError
from tricktable.tui.app import TricktableApp
from tricktable.tui.command import TuiOptions, make_app, run_app
from tricktable.tui.model import Chosen, MatchSetup
from tricktable.tui.setup import SetupScreen


def owned(folder: Path, text: str | Path) -> bool:
    """Whether the path ``text`` names a file inside ``folder`` (links followed first, so a
    link out of the folder is not inside it)."""
    try:
        path = Path(text).resolve()
        return path.is_relative_to(folder.resolve())
    except (OSError, ValueError, RuntimeError):
        return False


def not_owned(folder: Path, text: str | Path) -> str:
    """The one line that refuses a record outside the tab's folder."""
    return f"this tab opens only its own records (in {folder.name}/), not {str(text)[-60:]}"


class TabSetupScreen(SetupScreen):
    """The start screen of a served tab: it replays only records of the tab's folder (its
    records folder, which is also where the unfinished matches it lists come from)."""

    def setup(self) -> MatchSetup:
        """The match as the screen holds it; a rules file only from the tab's folder, or the
        box would read any file the server can (its errors tell what the file holds)."""
        chosen = super().setup()
        if chosen.rules is not None and not owned(self.records, chosen.rules):
            raise MatchSpecError(not_owned(self.records, chosen.rules))
        return chosen

    def action_replay(self) -> None:
        from textual.widgets import Input

        text = self.query_one("#replay-path", Input).value.strip()
        if text and not owned(self.records, text):
            self._fail(not_owned(self.records, text))  # refused before the file is even read
            return
        super().action_replay()


class TabApp(TricktableApp):
    """The full-screen app of a served tab: ``settings.records`` is the tab's folder, and a
    record to resume or replay must be in it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: the tab's folder, for good: whatever settings a screen hands back, they keep it
        self.folder = self.settings.records

    def open_setup(self, error: str = "") -> None:
        from textual.widgets import Static

        screen = TabSetupScreen(self.setup, self.settings, records=self.folder)
        self.push_screen(screen, self._chosen)
        if error:
            self.call_after_refresh(lambda: screen.query_one("#setup-error", Static).update(error))

    def _chosen(self, chosen: Chosen | None) -> None:
        folder = self.folder
        if chosen is not None:
            if chosen.path is not None and not owned(folder, chosen.path):
                self.open_setup(not_owned(folder, chosen.path))
                return
            chosen = replace(chosen, settings=replace(chosen.settings, records=folder))
        super()._chosen(chosen)


def tab_options(argv: Sequence[str]) -> TuiOptions:
    """The options of ``tricktable tui`` given as ``argv``, read by the command's own parser
    (so a tab understands exactly what the command does); a tab never saves to nor resumes a
    path the command line names: its matches are its own."""
    from tricktable.cli.main import cli, resolve_game

    command = cli.commands["tui"]
    try:
        params = command.make_context("tui", list(argv)).params
    except click.ClickException as exc:
        raise TricktableError(exc.format_message()) from None
    if params["save_path"] or params["resume_path"]:
        raise TricktableError("a served tab saves and resumes its own matches: no --save, --resume")
    return TuiOptions(
        game=resolve_game(params["game_spec"], params["rules_path"]),
        players=params["players"],
        seed=params["seed"],
        play=params["play_now"],
        replay=params["replay_path"],
        skin=params["skin"],
        ascii=params["ascii_cards"],
        animate=not params["no_animations"],
    )


def tab_app(options: TuiOptions, folder: Path) -> TabApp:
    """The app of one tab: the app ``options`` make, with its records in ``folder``."""
    app = make_app(options)  # every check of `tricktable tui`
    settings = replace(app.settings, records=folder)
    return TabApp(app.setup, settings, app.start, app.start_path, app.label, app.save_path)


def run_tab(argv: Sequence[str]) -> int:
    """Run one tab's app (``argv``: the tab's folder, then the options); the exit status, as
    ``tricktable tui`` gives it."""
    if not argv:
        return fail("usage: python -m tricktable.tui.tab FOLDER [OPTIONS of tricktable tui]")
    folder = Path(argv[0])
    try:
        if not folder.is_dir():
            raise TricktableError(f"the tab's folder {str(folder)[:80]} is not a folder")
        app = tab_app(tab_options(argv[1:]), folder)
    except TricktableError as exc:
        return fail(exc)
    # Nothing printed after the app: a tab's output is its page's stream, not a terminal.
    return run_app(app, tell_saved=False)


if __name__ == "__main__":
    sys.exit(run_tab(sys.argv[1:]))
