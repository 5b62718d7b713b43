"""The pieces of the table screen: seats, the hand, the trick, the bid panel, the log.

Each widget only draws what the app hands it (a seat's view, the names); none reads the
table itself, so that the same widgets can later draw a remote table's events. Clicks are
turned into messages to the app, which submits them to the table.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.table import Table as Grid
from rich.text import Text
from textual import events, on
from textual.css.query import NoMatches
from textual.geometry import Offset
from textual.message import Message
from textual.screen import Screen, ScreenResultType
from textual.widgets import Button, RichLog, Static

from tricktable.engine.trick import TrickState, View, trick_winner
from tricktable.tui.skins import MIN_SIZE, card_label, plain

#: where each seat of four sits seen from seat 0 (the person's, and the replay's South);
#: :func:`~tricktable.ui.terminal.seat_places` places a table of any size
COMPASS = ("S", "W", "N", "E")
#: the places of the felt, row by row: a 3x3 compass, its centre (``C``) the trick's words
GRID = ("NW", "N", "NE", "W", "C", "E", "SW", "S", "SE")
#: the places seats take in the top row, and in the left and right columns (top first)
TOP = ("NW", "N", "NE")
LEFT = ("W", "SW")
RIGHT = ("E", "SE")
#: slots in the hand bar and the bid panel: the most cards a hand holds, the most choices
HAND_SLOTS = 13
#: slots of the hand bar's second row, for the larger hands of a small table (17 cards each
#: at three seats): a hand of more than :data:`HAND_SLOTS` is shown half in each row
MORE_SLOTS = 13
BID_SLOTS = 16


class LogConsole(Console):
    """A Rich console whose output goes to a :class:`RichLog`: the line terminal's
    :class:`~tricktable.ui.terminal.TableDisplay` writes the events into the log panel
    through it, so the panel says exactly what ``tricktable play`` says."""

    def __init__(self, log: RichLog | None = None, ascii: bool = False) -> None:
        super().__init__(highlight=False, emoji=False, soft_wrap=True, width=200)
        self.log_widget = log
        self.ascii = ascii
        #: what was printed, where no log is given (a summary's lines, collected)
        self.lines: list[RenderableType] = []

    def print(self, *objects: Any, **kwargs: Any) -> None:
        style = kwargs.get("style")
        if not objects:
            self._write(Text(""))
        for obj in objects:
            if isinstance(obj, str):
                obj = Text(obj, style=style or "")
            elif isinstance(obj, Text) and style:
                obj = obj.copy()
                obj.stylize(style)
            self._write(plain(obj, self.ascii) if isinstance(obj, Text) else obj)

    def rule(self, title: Any = "", **kwargs: Any) -> None:
        # A heading of its own rather than a rule: a rule cuts a long title in a narrow log.
        self._write(plain(Text(f"── {title}", style="bold"), self.ascii) if title else Rule())

    def _write(self, obj: RenderableType) -> None:
        if self.log_widget is None:
            self.lines.append(obj)
        else:
            self.log_widget.write(obj)


class SeatBox(Static):
    """One seat: its avatar, its name, the dealer's mark, its bid and tricks."""

    def __init__(self, seat: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seat = seat

    def show(self, avatar: Text | None, lines: Sequence[Text]) -> None:
        body = Text()
        if avatar is not None:
            body.append_text(avatar)
            body.append("\n")
        body.append_text(Text("\n").join(lines))
        self.update(body)


class CardChip(Static):
    """One card of the hand; clicking it asks the screen to play (or pick) it."""

    class Chosen(Message):
        """A card was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.index = index

    def show(
        self,
        card: int | None,
        trumps: int,
        legal: bool,
        selected: bool,
        ascii: bool = False,
        marked: bool = False,
    ) -> None:
        """Draw ``card`` (None: the slot is empty and hidden); ``marked``: picked to pass
        (drawn reversed, which survives a terminal without colour)."""
        self.display = card is not None
        if card is None:
            return
        self.update(card_label(card, trumps, ascii))
        self.set_class(legal, "legal")
        self.set_class(selected, "selected")
        self.set_class(marked, "marked")
        self.set_class(bool(trumps >> card & 1), "trump")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self.index))


class BidButton(Button):
    """One choice of the bid panel (a bid, pass, a trump call): words, never a bare number,
    so that it cannot be mistaken for a card's number."""

    can_focus = False

    def __init__(self, index: int, **kwargs: Any) -> None:
        # One row each (compact): at 100x30 the hand, the panel and the lines under it fit.
        super().__init__(" ", compact=True, **kwargs)
        self.index = index
        self.choice: int | None = None

    def show(self, action: int | None, words: str, selected: bool) -> None:
        self.choice = action
        self.display = action is not None
        if action is not None:
            self.label = words
            self.set_class(selected, "selected")


class TrickSpot(Static):
    """Where one seat's card of the trick lies (a place of :data:`GRID`: ``N``, ``W``,
    ``NE``...); a card put down slides in from its seat's side when animations are on."""

    #: the way a card slides in from each side: (columns, rows) it starts away
    FROM: ClassVar[dict[str, tuple[int, int]]] = {
        "N": (0, -2),
        "S": (0, 2),
        "W": (-6, 0),
        "E": (6, 0),
        "NW": (-6, -2),
        "NE": (6, -2),
        "SW": (-6, 2),
        "SE": (6, 2),
    }

    def __init__(self, where: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.where = where
        self.card: int | None = None

    def show(self, card: int | None, shown: RenderableType, animate: bool) -> None:
        """Draw ``shown`` for ``card`` (None: empty); a new card slides in if ``animate``."""
        new = card is not None and card != self.card
        self.card = card
        self.update(shown)
        if new and animate:
            dx, dy = self.FROM.get(self.where, (0, 0))
            self.styles.offset = (dx, dy)
            self.styles.opacity = 0.2
            self.animate("offset", Offset(0, 0), duration=0.25, easing="out_cubic")
            self.styles.animate("opacity", value=1.0, duration=0.25)
        elif not animate or card is None:
            self.styles.offset = (0, 0)  # where a collection left it
            self.styles.opacity = 1.0

    def collect(self, toward: str, seconds: float) -> None:
        """Slide the card toward the side of the trick's winner, fading out."""
        dx, dy = self.FROM.get(toward, (0, 0))
        self.animate("offset", Offset(dx, dy), duration=seconds, easing="in_cubic")
        self.styles.animate("opacity", value=0.0, duration=seconds)


class FittedScreen(Screen[ScreenResultType]):
    """A screen that needs :data:`~tricktable.tui.skins.MIN_SIZE`: in a smaller window it
    shows one message saying so (and the size it has) instead of a broken layout, and
    comes back whole when the window grows. Its ``compose`` must yield
    :meth:`size_message` among its children; ``too_small_hint`` ends the message."""

    DEFAULT_CSS = """
    FittedScreen #too-small { display: none; width: 100%; height: 100%;
                              content-align: center middle; text-align: center; }
    FittedScreen.-too-small > * { display: none; }
    FittedScreen.-too-small > #too-small { display: block; }
    """
    #: what the message adds: how to leave from here
    too_small_hint = "(Ctrl+Q quits.)"

    @staticmethod
    def size_message() -> Static:
        return Static(id="too-small")

    # Handlers by decorator, not ``on_mount``: a subclass's own (sync or async) stays free.
    @on(events.Mount)
    def _fit_at_mount(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)

    @on(events.Resize)
    def _fit_at_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        """Show the message (or the screen) for a window of ``width`` × ``height``."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(small, "-too-small")
        if small:
            need = f"{MIN_SIZE[0]}×{MIN_SIZE[1]}"
            text = Text(
                f"The window is {width}×{height}: this screen needs at least {need}.\n"
                f"Make the window larger or the font smaller. {self.too_small_hint}",
                style="bold",
            )
            with contextlib.suppress(NoMatches):
                self.query_one("#too-small", Static).update(text)


def trick_grid(cells: dict[str, RenderableType], centre: RenderableType) -> Grid:
    """The trick in compass layout: ``cells`` by place (``N``, ``W``, ``E``, ``S``, and at
    five seats or more the corners ``NW``, ``NE``, ``SW``, ``SE``: see :data:`GRID`)."""
    grid = Grid.grid(expand=True)
    for _ in range(3):
        grid.add_column(justify="center", ratio=1)
    blank = Text("")
    # A blank row between the seats' rows: the three cards then fill a trick's frame of
    # seven rows from top to bottom, rather than huddling at its top.
    grid.add_row(cells.get("NW", blank), cells.get("N", blank), cells.get("NE", blank))
    grid.add_row(blank, blank, blank)
    grid.add_row(cells.get("W", blank), centre, cells.get("E", blank))
    grid.add_row(blank, blank, blank)
    grid.add_row(cells.get("SW", blank), cells.get("S", blank), cells.get("SE", blank))
    return grid


def winning(view: View) -> int:
    """The card now winning the trick in play (-1 with none), by the engine's rule."""
    cards = [card for _, card in view.trick]
    i = trick_winner(view.tables, cards)
    return cards[i] if i >= 0 else -1


def hand_order(view: View | TrickState, card: int) -> tuple[int, int, int]:
    """Where a card sits in a hand: by suit, trumps grouped last, low to high (the table's
    hand bar, and each hand of the replay viewer)."""
    tables = view.tables
    trump = view.trump >= 0 and bool(tables.mask >> card & 1)
    return (1 if trump else 0, card // 13 if card < 52 else 4, tables.power[card])
