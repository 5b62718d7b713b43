"""The table screen's dialogs: a hand's summary, the match's end, the keys and rules.

Each is a modal screen over the table, drawn from lines the table screen hands it (the
presenters' own words, as ``tricktable play`` prints them): it reads nothing of the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

DIALOG_CSS = """
HandSummary, MatchEnd, KeysHelp { align: center middle; }
.dialog { width: 76; height: auto; max-height: 90%; border: thick $primary;
          background: $surface; padding: 1 2; }
.dialog .title { text-style: bold; margin-bottom: 1; }
#match-end { width: 100; }
#keys { width: 84; max-width: 100%; }
.dialog .heading { text-style: bold; margin: 1 0; }
.dialog .buttons { height: 3; margin-top: 1; align-horizontal: center; }
.dialog Button { margin: 0 1; }
"""


class HandSummary(ModalScreen[None]):
    """A finished hand: who took each point, how the score moved. Any key goes on (the
    next hand is dealt only then)."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "next hand"),
        Binding("space", "close", show=False),
        Binding("escape", "close", show=False),
    ]

    def __init__(self, title: str, lines: Sequence[RenderableType]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="summary"):
            yield Static(Text(self.title_text), classes="title")
            for i, line in enumerate(self.lines):
                yield Static(line, id=f"summary-{i}")
            with Horizontal(classes="buttons"):
                yield Button("Next hand (Enter)", id="next", variant="primary")

    def on_button_pressed(self, _event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


#: what the match's end dialog offers: (result, button's words, key)
END_CHOICES = (
    ("again", "Play again", "a"),
    ("setup", "Back to setup", "b"),
    ("replay", "Replay the match", "r"),
    ("quit", "Quit", "q"),
)


class MatchEnd(ModalScreen[str]):
    """The match is over (or stopped): the result, and what next — one of the first
    items of :data:`END_CHOICES`, by button or key."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(key, f"choose('{result}')", words) for result, words, key in END_CHOICES
    ]

    def __init__(self, lines: Sequence[RenderableType]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="match-end"):
            yield Static(Text("The match is over", style="bold"), classes="title")
            for i, line in enumerate(self.lines):
                yield Static(line, id=f"end-{i}")
            with Horizontal(classes="buttons"):
                for result, words, key in END_CHOICES:
                    yield Button(f"{words} ({key})", id=f"end-{result}")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss((event.button.id or "end-quit").removeprefix("end-"))

    def action_choose(self, result: str) -> None:
        self.dismiss(result)


class KeysHelp(ModalScreen[None]):
    """The keys of the table screen, the settings they switch, and the game's rules in
    brief (the line terminal's ``?`` says the same: the presenter's ``rules_summary``). It
    scrolls where the window is short (the arrow keys, PageUp/PageDown)."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close"),
        Binding("question_mark", "close", show=False),
        Binding("enter", "close", show=False),
    ]

    def __init__(self, rows: Sequence[tuple[str, str]], rules: str = "") -> None:
        super().__init__()
        self.rows = list(rows)
        self.rules = rules

    def compose(self) -> ComposeResult:
        text = Text()
        for key, does in self.rows:
            text.append(f"{key:>10}  ", style="bold")
            text.append(does + "\n")
        text.rstrip()
        with VerticalScroll(classes="dialog", id="keys"):
            yield Static(Text("Keys", style="bold"), classes="title")
            yield Static(text, id="keys-list")
            if self.rules:
                yield Static(Text("The rules in brief", style="bold"), classes="heading")
                yield Static(self.rules, id="rules")

    def action_close(self) -> None:
        self.dismiss(None)
