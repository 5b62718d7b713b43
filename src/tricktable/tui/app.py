"""The table screen: one match at a :class:`~tricktable.table.Table`, played full-screen.

The app owns a table and runs the table's asyncio driver (:func:`tricktable.table.run`) as
a Textual worker in its own event loop: the bots act in the driver's threads, the person at
seat 0 acts through ``Table.submit`` (a key or a click), and the screen is redrawn from the
table's changes — the seat's own view (``Table.view``) and its event stream, which the line
terminal's :class:`~tricktable.ui.terminal.TableDisplay` writes into the log panel. Nothing
here reads the state behind the seat's view, so a websocket client can later draw the same
screen from the same events.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Button, Footer, RichLog, Static

from tricktable.cards import SUIT_SYMBOLS, cards_in
from tricktable.engine import actions as act
from tricktable.engine.trick import PLAY, Game, View, trick_winner
from tricktable.errors import IllegalAction, TricktableError
from tricktable.table import Person, Table, run
from tricktable.tui.widgets import (
    BID_SLOTS,
    HAND_SLOTS,
    BidButton,
    CardChip,
    LogConsole,
    SeatBox,
    trick_grid,
)
from tricktable.ui.answers import is_passing
from tricktable.ui.games import card_text, presenter_for
from tricktable.ui.terminal import TableDisplay, seat_names

if TYPE_CHECKING:
    from tricktable.search.explain import Hint

#: where each seat sits seen from the person's (seat 0): seat + 1 is on the left
COMPASS = ("S", "W", "N", "E")
TABLE_CSS = """
/* The table screen: a felt with four seats and the trick, the hand and bids below, a log. */
#status { height: 1; background: $boost; padding: 0 1; }
#main { height: 1fr; }
#felt { width: 2fr; background: #0b4d2c; }
#log { width: 1fr; border-left: solid $primary; }
.seat { height: 7; width: 1fr; content-align: center middle; text-align: center; }
#seat-N, #seat-S { width: 100%; }
#middle { height: 9; }
#seat-W, #seat-E { width: 24; }
#trick { width: 1fr; height: 9; content-align: center middle; border: round #2e8b57; }
.to-act { color: $warning; }
#hand { height: 3; align-horizontal: center; }
.card { width: 6; height: 3; border: round #555555; background: #fdfdf5; color: black;
        content-align: center middle; text-style: dim; }
.card.legal { border: round #2e8b57; text-style: none; }
.card.trump { background: #fff3c4; }
.card.selected { border: double #e0a000; }
#bids { height: 3; align-horizontal: center; }
.bid { min-width: 8; height: 3; margin: 0 1; }
.bid.selected { background: $warning; color: black; }
#message { height: 1; padding: 0 1; }
#message.error { color: $error; }
#hint { height: 1; padding: 0 1; }
"""

#: the person's seat (``--players`` names it first)
ME = 0


class TableApp(App[None]):
    """A match of a four-seat game with the person at seat 0 and bots (or characters) at the
    others. ``players`` are the bots' specs for seats 1..3; ``label`` names the person in the
    record. ``paced``: whether characters pause before acting, as at a real table (tests turn
    it off). ``hint_budget`` is the seconds a hint's search may take."""

    CSS = TABLE_CSS
    TITLE = "tricktable"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "previous", show=False),
        Binding("right", "move(1)", "next", show=False),
        Binding("enter", "choose", "play / bid"),
        Binding("h", "hint", "hint"),
        Binding("p", "pass_bid", "pass"),
        Binding("q", "quit", "quit"),
        *(Binding(str(n % 10), f"pick({n - 1})", show=False) for n in range(1, 11)),
    ]

    def __init__(
        self,
        game: Game,
        players: Sequence[str],
        seed: int,
        label: str = "",
        paced: bool = True,
        max_hands: int | None = 1000,
        hint_budget: float = 0.5,
    ) -> None:
        super().__init__()
        if game.num_players != 4:
            raise TricktableError(
                f"the table screen seats four; {game.name} has {game.num_players}"
            )
        if len(players) != 3:
            raise TricktableError("the table screen needs three bots beside you")
        self.game = game
        self.presenter = presenter_for(game)
        self.seed = seed
        self.max_hands = max_hands
        self.hint_budget = hint_budget
        self.table = Table(game, [Person(label or "you"), *players], seed)
        if not paced:
            for player in self.table.players:
                if hasattr(player, "paced"):
                    player.paced = False
        self.names = seat_names([ME], 4)
        self.players = ["you", *(_shown_name(p) for p in players)]
        #: the index picked in the hand (playing) or in the bid panel (bidding)
        self.cursor = 0
        #: what the hand bar shows, in its order (sorted by suit, trumps last)
        self.hand: list[int] = []
        self.choices: list[int] = []
        self.failure: BaseException | None = None
        self.finished = False
        self._decision: tuple[int, int] | None = None
        self._avatars: dict[int, Text | None] = {}
        self._hints: dict[tuple[int, int], Hint] = {}
        self.display_log: TableDisplay | None = None

    # ------------------------------------------------------------------------ the screen

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="felt"):
                yield SeatBox(2, id="seat-N", classes="seat")
                with Horizontal(id="middle"):
                    yield SeatBox(1, id="seat-W", classes="seat")
                    yield Static(id="trick")
                    yield SeatBox(3, id="seat-E", classes="seat")
                yield SeatBox(0, id="seat-S", classes="seat")
                with Horizontal(id="hand"):
                    for i in range(HAND_SLOTS):
                        yield CardChip(i, id=f"card-{i}", classes="card")
                with Horizontal(id="bids"):
                    for i in range(BID_SLOTS):
                        yield BidButton(i, id=f"bid-{i}", classes="bid")
                yield Static(id="message")
                yield Static(id="hint")
            log = RichLog(id="log", wrap=True, markup=False)
            log.can_focus = False
            yield log
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#log", RichLog)
        display = TableDisplay(LogConsole(log), self.game, self.names)
        display.humans = [ME]
        self.display_log = display
        self.sub_title = f"{display.title()} · seed {self.seed}"
        display.follow_table(self.table)  # the log: the seat's events, as `play` prints them
        self.table.watch(lambda _table: self.redraw())
        self.redraw()
        self.run_worker(self._drive(), name="driver", exit_on_error=False)

    async def _drive(self) -> None:
        """Play the match at the table: the driver asks the bots and waits for the person."""
        try:
            await run(self.table, self.max_hands)
        except Exception as exc:  # an engine failure: shown, and reported on exit
            self.failure = exc
        finally:
            self.finished = True
            self.redraw()

    # ------------------------------------------------------------------------- drawing

    def view(self) -> View:
        """What the person's seat may know now."""
        return self.table.view(ME)

    def redraw(self) -> None:
        """Draw everything from the person's view (called at every change of the table)."""
        if self.display_log is None or not self.is_running:
            return  # not mounted yet, or closing
        # NoMatches: the screen is being taken down, with nothing left to draw on.
        with contextlib.suppress(NoMatches):
            self._redraw()

    def _redraw(self) -> None:
        view = self.view()
        trumps = view.tables.mask if view.trump >= 0 else 0
        legal = view.legal_actions()
        decision = (view.hand_number, view.step) if view.to_act == ME else None
        playing = view.phase == PLAY
        self.hand = sorted(cards_in(view.hand), key=lambda c: _order(view, c))
        self.choices = [] if playing or is_passing(legal) else legal
        if decision != self._decision:  # a new decision: the cursor on its first choice
            self._decision = decision
            first = next((i for i, c in enumerate(self.hand) if c in legal), 0)
            self.cursor = first if playing else 0
        self._draw_status(view)
        self._draw_seats(view)
        self._draw_trick(view, trumps)
        for i in range(HAND_SLOTS):
            card = self.hand[i] if i < len(self.hand) else None
            chip = self.query_one(f"#card-{i}", CardChip)
            chip.show(card, trumps, card in legal, playing and i == self.cursor)
        for i in range(BID_SLOTS):
            action = self.choices[i] if i < len(self.choices) else None
            words = self.presenter.action_words(action, trumps).plain if action is not None else ""
            self.query_one(f"#bid-{i}", BidButton).show(
                action, words.capitalize(), i == self.cursor
            )
        if self.finished:
            self._say(self._end_text(), "end")

    def _draw_status(self, view: View) -> None:
        display = self.display_log
        assert display is not None
        text = Text()
        text.append(display.title(), style="bold")
        text.append(f"  hand {view.hand_number + 1}  ·  trump ")
        if view.trump >= 0:
            text.append(SUIT_SYMBOLS[view.trump], style="red" if view.trump in (1, 2) else "bold")
        else:
            text.append("not named", style="dim")
        info = view.info()
        declarer, bid = info.get("declarer"), info.get("bid")
        if isinstance(declarer, int) and declarer >= 0:
            text.append(f"  ·  contract: {self.names[declarer]} bid {bid}")
        text.append(f"  ·  score: {display.scores_text(view.scores)}")
        if 0 <= view.to_act < 4 and not self.finished:
            whose = "your" if view.to_act == ME else f"{self.names[view.to_act]}'s"
            text.append(f"  ·  {whose} turn", style="bold yellow" if view.to_act == ME else "")
        self.query_one("#status", Static).update(text)

    def _draw_seats(self, view: View) -> None:
        bids: dict[int, str] = {}
        for seat, action in view.actions:
            if not act.is_play(action):  # the last bid (or pass) each seat made
                bids[seat] = self.game.action_name(action)
        tricks = view.tricks_won
        for seat in range(4):
            lines = [Text(f"{self.names[seat]} · {self.players[seat]}", style="bold")]
            if seat == view.dealer:
                lines[0].append("  (D)", style="bold yellow")
            facts = []
            if seat in bids:
                facts.append(bids[seat])
            facts.append(f"tricks {tricks[seat]}")
            lines.append(Text(" · ".join(facts)))
            box = self.query_one(f"#seat-{COMPASS[seat]}", SeatBox)
            box.set_class(seat == view.to_act, "to-act")
            box.show(self._avatar(seat), lines)

    def _avatar(self, seat: int) -> Text | None:
        if seat not in self._avatars:
            try:
                from tricktable.avatars import avatar_text, seat_backgrounds

                colour = "NO_COLOR" not in os.environ
                back = seat_backgrounds(self.players)[seat]
                self._avatars[seat] = avatar_text(
                    self.players[seat], small=True, color=colour, backdrop=back
                )
            except Exception:  # no drawing library: the names alone say who sits where
                self._avatars[seat] = None
        return self._avatars[seat]

    def _draw_trick(self, view: View, trumps: int) -> None:
        trick = view.trick
        cells: dict[str, Any] = {}
        centre = Text("")
        if trick:
            best = winning(view)
            for seat, card in trick:
                shown = card_text(card, trumps)
                if card == best:
                    shown.append(" ★", style="bold green")
                cells[COMPASS[seat]] = shown
            centre = Text(f"trick {len(view.tricks) + 1}", style="dim")
        elif view.tricks:
            leader, cards, winner = view.tricks[-1]
            for i, card in enumerate(cards):
                shown = card_text(card, trumps)
                shown.stylize("dim")
                cells[COMPASS[(leader + i) % 4]] = shown
            centre = Text(f"last trick: {self.names[winner]}", style="dim")
        self.query_one("#trick", Static).update(trick_grid(cells, centre))

    def _say(self, text: str | Text, kind: str = "") -> None:
        message = self.query_one("#message", Static)
        message.set_classes(kind)
        message.update(text)

    def _end_text(self) -> Text:
        if self.failure is not None:
            return Text(f"the match stopped: {self.failure}", style="bold red")
        scores = self.display_log.scores_text(self.view().scores) if self.display_log else ""
        return Text(f"The match is over: {scores}. q to quit (the record is saved).", "bold")

    # ------------------------------------------------------------------------ actions

    def action_move(self, step: int) -> None:
        """Move the cursor through the hand (playing) or the bid panel (bidding)."""
        size = len(self.choices) if self.choices else len(self.hand)
        if size:
            self.cursor = (self.cursor + step) % size
            self.redraw()

    def action_pick(self, index: int) -> None:
        """A number key picks a card of the hand (never a bid: bids are words)."""
        if self.choices or not 0 <= index < len(self.hand):
            return
        self.cursor = index
        self.redraw()

    def action_choose(self) -> None:
        """Enter: play the picked card, or make the picked bid."""
        if self.choices:
            if 0 <= self.cursor < len(self.choices):
                self.submit(self.choices[self.cursor])
        elif 0 <= self.cursor < len(self.hand):
            self.submit(self.hand[self.cursor])

    def action_pass_bid(self) -> None:
        """``p``: pass in the bidding (where passing is a choice)."""
        for action in self.choices:
            if self.game.action_name(action) == "pass":
                self.submit(action)
                return

    def on_card_chip_chosen(self, message: CardChip.Chosen) -> None:
        if message.index < len(self.hand) and not self.choices:
            self.cursor = message.index
            self.submit(self.hand[message.index])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button
        if isinstance(button, BidButton) and button.choice is not None:
            self.cursor = button.index
            self.submit(button.choice)

    def submit(self, action: int) -> bool:
        """Send ``action`` to the table; a refusal shows the engine's reason and changes
        nothing. Whether the table took it."""
        words = self.game.action_name(action)
        try:
            self.table.submit(ME, action)
        except IllegalAction as exc:
            reason = exc.reason
            self._say(Text(f"✗ {words} is not legal: {_second_person(reason)}"), "error")
            return False
        except TricktableError as exc:
            self._say(Text(f"✗ {exc}"), "error")
            return False
        self._say("")
        return True

    async def action_hint(self) -> None:
        """``h``: what the best search bot would do here, and how it values each choice."""
        view = self.view()
        if view.to_act != ME:
            self._say("no hint: it is not your turn", "error")
            return
        from tricktable.search.explain import hint

        key = (view.hand_number, view.step)
        given = self._hints.get(key)
        if given is None:
            self.query_one("#hint", Static).update(Text("thinking…", style="dim"))
            try:
                # Off the event loop: the search takes up to its budget; the view is sealed.
                given = await asyncio.to_thread(hint, view, self.hint_budget)
            except TricktableError as exc:
                self.query_one("#hint", Static).update(f"no hint: {exc}")
                return
            self._hints[key] = given
        if self.display_log is not None:
            self.display_log.show_hint(view, given)
        self.query_one("#hint", Static).update(hint_text(self, view, given))

    async def action_quit(self) -> None:
        self.table.stop()
        self.exit()


def hint_text(app: TableApp, view: View, given: Hint) -> Text:
    """One line for the hint panel: the advised choice and its value."""
    trumps = view.tables.mask if view.trump >= 0 else 0
    text = Text("Hint: ", style="bold")
    if given.choices:
        best = given.choices[0]
        text.append_text(app.presenter.action_words(best.action, trumps))
        text.append(f"  (value {best.value:+.2f}, {given.bot}; {given.value_text})", style="dim")
    elif given.heuristic is not None:
        text.append_text(app.presenter.action_words(given.heuristic, trumps))
        text.append("  (the game's heuristic)", style="dim")
    else:
        text.append("no advice here")
    return text


def winning(view: View) -> int:
    """The card now winning the trick in play (-1 with none), by the engine's rule."""
    cards = [card for _, card in view.trick]
    i = trick_winner(view.tables, cards)
    return cards[i] if i >= 0 else -1


def _order(view: View, card: int) -> tuple[int, int, int]:
    """Where a card sits in the hand bar: by suit, trumps grouped last, low to high."""
    tables = view.tables
    trump = view.trump >= 0 and bool(tables.mask >> card & 1)
    return (1 if trump else 0, card // 13 if card < 52 else 4, tables.power[card])


def _second_person(reason: str) -> str:
    for third, second in (("does ", "you do "), ("has ", "you have "), ("is ", "you are ")):
        if reason.startswith(third):
            return second + reason[len(third) :].replace(" its ", " your ")
    return reason


def _shown_name(spec: str) -> str:
    from tricktable.characters.talk import display_name

    return display_name(f"bot:{spec}")
