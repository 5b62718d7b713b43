"""The full-screen app: the start screen, the table, the replay viewer, one after another.

:class:`TricktableApp` opens on the start screen (:mod:`tricktable.tui.setup`), or straight
at a table (``start="play"``), a saved match (``"resume"``) or a record's replay
(``"replay"``). A table screen ends with what comes next — the same setup again with a
fresh seed, back to the start screen, the match's replay, or quit — and the app does it.
A bad choice (a record that does not replay, an option the game refuses) is one line on
the screen it was made from; the app never ends in a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import Screen
from textual.widgets import Static

from tricktable.errors import TricktableError
from tricktable.records import load_record
from tricktable.tui.model import Chosen, MatchSetup, Settings
from tricktable.tui.table import TableScreen

#: what the app may open on
STARTS = ("setup", "play", "resume", "replay")


class TricktableApp(App[None]):
    """The full-screen table. ``setup`` fills the start screen (and is the match played
    with ``start="play"``); ``path`` is the record to resume or replay; ``label`` names the
    person in the records; ``bots``, given with ``start="resume"``, play on in place of the
    record's (a record never starts a program: such players are given again)."""

    TITLE = "tricktable"

    def __init__(
        self,
        setup: MatchSetup | None = None,
        settings: Settings | None = None,
        start: str = "setup",
        path: Path | None = None,
        label: str = "you",
        save: Path | None = None,
        bots: tuple[str, ...] | None = None,
    ) -> None:
        super().__init__()
        if start not in STARTS:
            raise TricktableError(f"unknown start {start!r}; valid: {', '.join(STARTS)}")
        if (path is None) != (start in ("setup", "play")):
            raise TricktableError(f"{start} {'needs' if path is None else 'takes no'} record")
        self.setup = setup or MatchSetup()
        self.settings = settings or Settings()
        self.start = start
        self.start_path = path
        self.label = label
        self.save_path = save
        self.resume_bots = bots
        #: the table screen last opened (tests and the command read its table)
        self.table_screen: TableScreen | None = None
        #: a failure that ended the app (reported by the command after it closes)
        self.failure: BaseException | None = None

    def on_mount(self) -> None:
        if self.start == "setup":
            self.open_setup()
            return
        path = self.start_path
        try:
            if self.start == "play":
                self.open_table(self.setup, save=self.save_path)
            elif self.start == "resume":
                assert path is not None
                record = self._loaded(path)
                save = self.save_path or path
                self.open_table(self.setup, record=record, save=save, bots=self.resume_bots)
            else:
                assert path is not None
                self.open_replay(self._loaded(path), path.name)
        except TricktableError as exc:
            self.failure = exc
            self.exit()

    def _loaded(self, path: Path) -> dict[str, Any]:
        """The record at ``path`` with its journal; a note (a journal's last line cut off
        mid-write, ignored) shown as a notice, not written over the screen."""
        notes: list[str] = []
        record = load_record(path, notes)
        for note in notes:
            self.notify(note, title="Record", severity="warning")
        return record

    # --------------------------------------------------------------------- the screens

    def open_setup(self, error: str = "") -> None:
        from tricktable.tui.setup import SetupScreen

        screen = SetupScreen(self.setup, self.settings)
        self.push_screen(screen, self._chosen)
        if error:  # why the last choice could not be played, on the screen it came from
            self.call_after_refresh(lambda: screen.query_one("#setup-error", Static).update(error))

    def _chosen(self, chosen: Chosen | None) -> None:
        if chosen is None:
            self.exit()
            return
        self.setup, self.settings = chosen.setup, chosen.settings
        try:
            if chosen.action == "play":
                self.open_table(chosen.setup)
            elif chosen.action == "resume":
                assert chosen.path is not None
                record = self._loaded(chosen.path)
                self.open_table(chosen.setup, record=record, save=chosen.path)
            else:
                assert chosen.path is not None
                self.open_replay(self._loaded(chosen.path), chosen.path.name)
        except TricktableError as exc:
            self.open_setup(str(exc))

    def open_table(
        self,
        setup: MatchSetup,
        record: dict[str, Any] | None = None,
        save: Path | None = None,
        bots: tuple[str, ...] | None = None,
    ) -> None:
        """Sit at a new table (or a resumed one, with ``bots`` in place of the record's if
        given); raises TricktableError for a bad choice."""
        screen = TableScreen(
            setup, self.settings, record=record, path=save, label=self.label, bots=bots
        )
        self.table_screen = screen
        self.push_screen(screen, lambda result: self._table_done(screen, result))

    def _table_done(self, screen: TableScreen, result: str | None) -> None:
        screen.table.close()
        if screen.failure is not None:
            self.failure = screen.failure
        if result == "again":
            self.open_table(self.setup.with_seed(None))
        elif result == "replay":
            self.open_replay(screen.table.record(), screen.path.name)
        elif result == "setup":
            self.open_setup()
        else:
            self.exit()

    def open_replay(self, record: dict[str, Any], title: str) -> None:
        from tricktable.tui.replay import ReplayScreen

        screen: Screen[Any] = ReplayScreen(record, self.settings, title=title)
        self.push_screen(screen, lambda _none: self._replay_done())

    def _replay_done(self) -> None:
        if self.start == "replay":
            self.exit()
        else:
            self.open_setup()
