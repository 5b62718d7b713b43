"""The replay viewer: a saved match stepped through forwards and backwards, every hand face up.

A record's match is rebuilt once by :func:`tricktable.records.replay` (which checks it
whole), then cut into *positions*: each hand just dealt and after each of its actions.
A position is drawn from the engine's own state: the state just after the hand's deal (kept
once per hand) cloned, with the hand's actions up to that point applied — the one path every
replay takes, and cheap (a hand is at most a few dozen actions).

It is a replay of a match already played, so every seat's cards are shown; the header says so.
When the game has a double-dummy solver, the finished hands are analysed in a background
thread as ``tricktable analyze --no-sampling`` does (:func:`tricktable.analysis.analyze.analyze`,
the hand on screen first), and each decision is shown beside what perfect play would have
done and what the choice cost, in the words of ``tricktable analyze``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from rich.console import RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Button, DataTable, Footer, Static

from tricktable.analysis.analyze import (
    DEFAULT_THRESHOLD,
    AnalysisError,
    Decision,
    analyze,
    double_dummy_solvable,
)
from tricktable.cards import SUIT_NAMES, SUITS, parse_card
from tricktable.engine import actions as act
from tricktable.engine.trick import PLAY, HandLog, TrickState
from tricktable.errors import RecordError, TricktableError
from tricktable.records import load_record, replay
from tricktable.search.explain import value_text
from tricktable.seat.games import Presenter, Seating, presenter_for, safely
from tricktable.seat.games.base import HandSeen
from tricktable.seat.phrases import to_plain
from tricktable.seat.snapshot import snapshot_of
from tricktable.seat.views import EVERYONE
from tricktable.seat.words import Words
from tricktable.tui.model import Settings
from tricktable.tui.skins import card_label, plain
from tricktable.tui.widgets import (
    LEFT,
    RIGHT,
    TOP,
    FittedScreen,
    SeatBox,
    hand_order,
    trick_grid,
)
from tricktable.ui.render import join, rich_text, suit_text, to_rich
from tricktable.ui.terminal import PLACES, seat_names, seat_places

#: shown where a figure has no data (as ``tricktable analyze``)
NONE = "—"

REPLAY_CSS = """
ReplayScreen #rp-head { height: 1; background: $boost; padding: 0 1; }
ReplayScreen #rp-facts { height: auto; padding: 0 1; }
ReplayScreen #rp-main { height: 1fr; }
ReplayScreen #rp-felt { width: 1fr; background: #0b4d2c; color: #e8f5e9; align-vertical: middle; }
ReplayScreen #rp-side { width: 45%; max-width: 66; border-left: solid $primary; }
ReplayScreen .rp-seat { height: auto; min-height: 4; padding: 0 1; text-align: center; }
ReplayScreen #rp-top { height: auto; }
ReplayScreen #rp-top .rp-seat, ReplayScreen #rp-seat-S { width: 100%; }
ReplayScreen #rp-top.crowded .rp-seat { width: 1fr; padding: 0; }
ReplayScreen #rp-top.empty { display: none; }
ReplayScreen #rp-middle { height: auto; min-height: 9; }
ReplayScreen #rp-left, ReplayScreen #rp-right { width: 1fr; max-width: 26; height: auto; }
ReplayScreen #rp-left .rp-seat, ReplayScreen #rp-right .rp-seat { width: 100%; padding: 0; }
ReplayScreen .rp-seat.to-act { color: #ffd54f; text-style: bold; }
ReplayScreen #rp-trick { width: 1fr; min-width: 21; height: 9; content-align: center middle;
                         border: round #2e8b57; }
ReplayScreen #rp-result { height: auto; padding: 0 1; }
ReplayScreen #rp-buttons { height: auto; grid-size: 4; grid-rows: 1; grid-gutter: 1 1;
                           padding: 0 1; }
ReplayScreen .rp-step { width: 100%; }
ReplayScreen #rp-analysis { height: auto; padding: 0 1; color: $text-muted; }
ReplayScreen #rp-log { height: 1fr; }
ReplayScreen #rp-log-note { height: auto; padding: 0 1; }
"""

#: the step buttons: id, label (ASCII: no terminal draws them badly), the action they run
BUTTONS = (
    ("home", "|< start", "home"),
    ("hand-back", "<< hand", "hand(-1)"),
    ("trick-back", "< trick", "trick(-1)"),
    ("back", "< move", "step(-1)"),
    ("forward", "move >", "step(1)"),
    ("trick-forward", "trick >", "trick(1)"),
    ("hand-forward", "hand >>", "hand(1)"),
    ("end", "end >|", "end"),
)


class Position(NamedTuple):
    """A moment of the match: hand ``hand`` (0 is the first) after ``at`` of its actions."""

    hand: int
    at: int


class Replayed:
    """A record's match as a list of positions, with the stops of the trick and hand steps.

    ``record`` is replayed whole first: a record that does not replay raises its
    :class:`~tricktable.errors.RecordError` here.
    """

    def __init__(self, record: dict[str, Any]) -> None:
        final = replay(record)
        game = final.game
        if game.num_players not in PLACES:
            raise TricktableError(
                f"the replay viewer seats {min(PLACES)} to {max(PLACES)}; {game.name} has"
                f" {game.num_players} players"
            )
        if not final.history:
            raise RecordError("the record holds no hand to replay")
        self.game = game
        self.final = final
        self.logs: list[HandLog] = list(final.history)
        #: whether the record's last hand stopped before its end
        self.unfinished = record.get("unfinished_hand") is not None
        self.positions: list[Position] = []
        #: indices of positions where a trick step stops: a hand's deal, the end of its
        #: bidding, each trick taken; and where a hand step stops: each deal
        self.trick_stops: list[int] = []
        self.hand_stops: list[int] = []
        #: per hand: the trick each action was taken in (-1: before the play), and the match
        #: scores once it was scored
        self.tricks_at: list[list[int]] = []
        self.scores_after: list[tuple[int, ...]] = []
        self._starts: list[TrickState] = []
        state = game.new_state(final.seed)
        for h, log in enumerate(self.logs):
            state.deal(list(log.deal), dealer=log.dealer, stock=list(log.stock))
            self._starts.append(state.clone())
            base = len(self.positions)
            self.positions.append(Position(h, 0))
            self.hand_stops.append(base)
            self.trick_stops.append(base)
            self.tricks_at.append([])
            for k, action in enumerate(log.actions, 1):
                tricks, playing = len(state.tricks), state.phase == PLAY
                self.tricks_at[h].append(tricks if playing else -1)
                state.apply(action)
                self.positions.append(Position(h, k))
                if len(state.tricks) > tricks or (state.phase == PLAY and not playing):
                    self.trick_stops.append(base + k)
            self.scores_after.append(tuple(state.scores))
        self.last = len(self.positions) - 1
        if self.trick_stops[-1] != self.last:
            self.trick_stops.append(self.last)

    def state_at(self, index: int) -> TrickState:
        """The engine's state at position ``index``."""
        if index == self.last:
            # The replayed state itself: it holds what the actions alone do not (a forfeit).
            return self.final
        hand, at = self.positions[index]
        state = self._starts[hand].clone()
        for action in self.logs[hand].actions[:at]:
            state.apply(action)
        return state

    def finished(self, hand: int) -> bool:
        """Whether hand ``hand`` was played to its end (and can be analysed)."""
        return not (self.unfinished and hand == len(self.logs) - 1)


class ReplayScreen(FittedScreen[None]):
    """A record stepped through: by action (← →), trick (↑ ↓, [ ]), hand (PageUp/PageDown,
    p/n), Home and End, or the buttons; q or Escape closes it.

    ``record`` is a record's JSON object (a bad one raises one clear
    :class:`~tricktable.errors.TricktableError` here); ``title`` names it in the header
    (its file, say); ``analysis``: whether to analyse the hands where the game allows it.
    """

    DEFAULT_CSS = REPLAY_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "next move"),
        Binding("left", "step(-1)", "previous move"),
        Binding("down", "trick(1)", "next trick"),
        Binding("up", "trick(-1)", "previous trick"),
        Binding("right_square_bracket", "trick(1)", show=False),
        Binding("left_square_bracket", "trick(-1)", show=False),
        Binding("pagedown", "hand(1)", "next hand"),
        Binding("pageup", "hand(-1)", "previous hand"),
        Binding("n", "hand(1)", show=False),
        Binding("p", "hand(-1)", show=False),
        Binding("home", "home", "start"),
        Binding("end", "end", "end"),
        Binding("q", "close", "close"),
        Binding("escape", "close", show=False),
    ]

    def __init__(
        self, record: dict[str, Any], settings: Settings, title: str = "", analysis: bool = True
    ) -> None:
        super().__init__()
        self.match = Replayed(record)
        self.record = record
        self.settings = settings
        self.title_text = title
        self.game = self.match.game
        self.presenter = presenter_for(self.game)
        self.n = self.game.num_players
        self.seating = Seating(self.game, seat_names([], self.n))
        #: where each seat sits on the felt (seat 0 at the bottom, as the names say)
        self.places = seat_places(self.n)
        self.players = _players(record, self.n)
        #: the position shown (an index of ``match.positions``)
        self.index = 0
        #: the state at that position, and the analysis by (hand, action index)
        self.state: TrickState = self.match.state_at(0)
        self.judged: dict[tuple[int, int], Decision] = {}
        #: the hands analysed so far, and why there is no analysis (None: there is, or will be)
        self.analysed: set[int] = set()
        self.no_analysis: str | None = None
        self.analysing = False
        self._want_analysis = analysis
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    # ------------------------------------------------------------------------ the screen

    def compose(self) -> ComposeResult:
        yield self.size_message()
        yield Static(id="rp-head")
        yield Static(id="rp-facts")
        with Horizontal(id="rp-main"):
            with Vertical(id="rp-felt"):
                yield from self._seat_row("rp-top", TOP)
                with Horizontal(id="rp-middle"):
                    yield from self._seat_row("rp-left", LEFT)
                    yield Static(id="rp-trick")
                    yield from self._seat_row("rp-right", RIGHT)
                yield SeatBox(0, id="rp-seat-S", classes="rp-seat")
                yield Static(id="rp-result")
                with Grid(id="rp-buttons"):
                    for key, label, _ in BUTTONS:
                        # one row each, four a row: the eight fit a felt of 50 columns
                        button = Button(label, id=f"rp-{key}", classes="rp-step", compact=True)
                        button.can_focus = False  # the arrow keys step, never move a focus
                        # Every click steps: the flash would swallow clicks within 0.2 s.
                        button.active_effect_duration = 0
                        yield button
            with Vertical(id="rp-side"):
                yield Static(id="rp-analysis")
                yield Static(id="rp-log-note")
                table: DataTable[Text | str] = DataTable(id="rp-log", cursor_type="row")
                table.can_focus = False  # the arrow keys step the match, never the log
                yield table
        yield Footer()

    def _seat_row(self, ident: str, places: tuple[str, ...]) -> ComposeResult:
        """The top row or a side column of the felt, with the seats sitting there."""
        seats = [(self.places.index(p), p) for p in places if p in self.places]
        box = Horizontal if ident == "rp-top" else Vertical
        classes = "crowded" if len(seats) > 1 else "empty" if not seats else ""
        with box(id=ident, classes=classes):
            for seat, place in seats:
                yield SeatBox(seat, id=f"rp-seat-{place}", classes="rp-seat")

    def on_mount(self) -> None:
        table: DataTable[Text | str] = self.query_one("#rp-log", DataTable)
        for header in ("#", "trick", "seat", "played", "dd best", "dd lost"):
            table.add_column(header, key=header)
        self._start_analysis()
        self.redraw()

    # ------------------------------------------------------------------------ stepping

    def go(self, index: int) -> None:
        """Show position ``index`` (kept within the match)."""
        index = max(0, min(index, self.match.last))
        if index != self.index:
            self.index = index
            self.state = self.match.state_at(index)
            self.redraw()

    def action_step(self, step: int) -> None:
        """One action forwards or back."""
        self.go(self.index + step)

    def action_trick(self, step: int) -> None:
        """To the next (previous) trick taken, deal, or end of bidding."""
        self.go(_next_stop(self.match.trick_stops, self.index, step, self.match.last))

    def action_hand(self, step: int) -> None:
        """To the next (previous) hand's deal; forwards from the last hand, to the end."""
        self.go(_next_stop(self.match.hand_stops, self.index, step, self.match.last))

    def action_home(self) -> None:
        self.go(0)

    def action_end(self) -> None:
        self.go(self.match.last)

    def action_close(self) -> None:
        self.dismiss(None)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {f"rp-{key}": action for key, _, action in BUTTONS}
        action = actions.get(event.button.id or "")
        if action is not None:
            await self.run_action(action)

    @property
    def position(self) -> Position:
        """The hand and the number of its actions taken, of the position shown."""
        return self.match.positions[self.index]

    # ------------------------------------------------------------------------- drawing

    def card(self, card: int, trumps: int = 0) -> Text:
        """A card as this screen draws it (the one place: a skin can replace it)."""
        return card_label(card, trumps, self.settings.ascii)

    def words(self, action: int, trumps: int = 0) -> Text:
        """An action for people: a card, or a bid or pass in the presenter's words."""
        if act.is_play(action):
            return self.card(action, trumps)
        return plain(rich_text(self.presenter.action_words(action, trumps)), self.settings.ascii)

    def redraw(self) -> None:
        """Draw the position shown."""
        # NoMatches: not composed yet, or being taken down (an analysis arriving late).
        with contextlib.suppress(NoMatches):
            self._redraw()

    def snapshot(self) -> dict[str, Any]:
        """The position shown as the seat model sees it with every hand face up (a replay
        of a record: :data:`~tricktable.seat.EVERYONE`), in this screen's names."""
        names = self.seating.names
        return snapshot_of(self.state, EVERYONE, seats=self.players, names=names)

    def _redraw(self) -> None:
        state = self.state
        snap = self.snapshot()
        trumps = state.tables.mask if state.trump >= 0 else 0
        self.query_one("#rp-head", Static).update(self._head())
        self.query_one("#rp-facts", Static).update(self._facts(snap))
        self._draw_seats(snap, state, trumps)
        self._draw_trick(snap, trumps)
        self.query_one("#rp-result", Static).update(self._result(state))
        self._draw_log(trumps)

    def _head(self) -> Text:
        hand, at = self.position
        log = self.match.logs[hand]
        spec = self.game.spec()
        name = self.game.title or self.game.name
        text = Text("Replay", style="bold")
        text.append(f" · {self.title_text}" if self.title_text else "")
        text.append(f" · {name}" + ("" if spec == self.game.name else f" ({spec})"))
        text.append(f" · seed {self.match.final.seed}")
        text.append(f" · hand {hand + 1} of {len(self.match.logs)}")
        text.append(f" · move {at} of {len(log.actions)}")
        if not self.match.finished(hand):
            text.append(" (the record stops here)", style="yellow")
        text.append(" · every hand shown face up: a replay", style="dim")
        return text

    def _facts(self, snap: dict[str, Any]) -> Text:
        """Trump, the contract and other public facts, the scores, whose turn."""
        out: list[Text | str] = []
        hand = snap["hand"] or {}
        names = self.seating.names
        trump = hand.get("trump")
        if trump is not None:
            out.append(Text("trump ") + self._suit(SUITS.index(trump)))
        elif hand.get("phase") == "play":
            out.append(rich_text(self.presenter.no_trump_text()))
        for key, value in hand.get("info", {}).items():
            if value is not None and not (key.endswith("bidder") and value == -1):
                out.append(Text(f"{key.replace('_', ' ')} ") + self._value(key, value))
        out.append(f"score: {to_plain(snap['score_line'][0], names)}")
        turn = hand.get("turn", -1)
        if snap["over"]:
            out.append(Text("the match is over", style="bold"))
        elif 0 <= turn < self.n:
            out.append(f"{names[turn]} to act")
        return join(out)

    def _suit(self, suit: int) -> Text:
        return Text(SUIT_NAMES[suit]) if self.settings.ascii else suit_text(suit)

    def _value(self, key: str, value: object) -> Text:
        if key.endswith("bidder") and isinstance(value, int) and 0 <= value < self.n:
            return Text(self.seating.names[value])  # a seat, as the presenter names seats
        shown = safely(
            lambda: [self.presenter.value_text(self.seating, key, value)],
            lambda: [Words(str(value))],
        )[0]
        return plain(rich_text(shown), self.settings.ascii)

    def _draw_seats(self, snap: dict[str, Any], state: TrickState, trumps: int) -> None:
        shown_hands = (snap["hand"] or {}).get("shown", {})
        names = self.seating.names
        for seat, this in enumerate(snap["seats"]):
            head = Text(f"{names[seat]} · {self.players[seat]}", style="bold")
            if this["dealer"]:
                head.append("  (D)", style="bold yellow")
            facts: list[Text | str] = []
            if this["last_call"]:  # the last bid (or pass, or call) each seat made
                facts.append(plain(to_rich(this["last_call"], names), self.settings.ascii))
            facts.append(f"tricks {this['tricks']}")
            held = [parse_card(c) for c in shown_hands.get(str(seat), [])]
            # in the order the hand bar sorts a hand (trumps last: the hand's own tables)
            cards = sorted(held, key=lambda c: hand_order(state, c))
            shown = Text(" ").join(self.card(c, trumps) for c in cards)
            if not cards:
                shown = Text("no cards left", style="dim")
            seat_box = self.query_one(f"#rp-seat-{self.places[seat]}", SeatBox)
            seat_box.set_class(this["turn"], "to-act")
            seat_box.show(None, [head, join(facts), shown])

    def _draw_trick(self, snap: dict[str, Any], trumps: int) -> None:
        """The trick in play, or the one just taken, in compass layout; the winner marked.
        What it is (trick 3, taken by West) is written in the frame: the middle is narrow."""
        hand, at = self.position
        log = self.match.logs[hand]
        now = snap["hand"] or {}
        trick, last = now.get("trick", []), now.get("last_trick")
        taken = sum(s["tricks"] for s in snap["seats"])
        turn = now.get("turn", -1)
        just_taken = bool(at) and act.is_play(log.actions[at - 1]) and not trick
        title, caption = "", ""
        shown: list[tuple[int, int]] = []
        best = -1
        if trick:
            shown = [(p["seat"], parse_card(p["card"])) for p in trick]
            best = now["winning"]
            title = f"trick {taken + 1}"
        elif just_taken and last is not None:
            shown = [(p["seat"], parse_card(p["card"])) for p in last["cards"]]
            best = last["winner"]
            title = f"trick {taken}"
            caption = f"taken by {self.seating.names[best]}"
        elif now.get("phase") != "play" and 0 <= turn < self.n:
            title = "bidding" if at else "just dealt"
        elif 0 <= turn < self.n:
            caption = f"{self.seating.names[turn]} to lead"
        mark = "<=" if self.settings.ascii else "★"
        cells: dict[str, RenderableType] = {}
        for seat, card in shown:
            text = self.card(card, trumps)
            if seat == best:
                text.append(f" {mark}", style="bold green")
            cells[self.places[seat]] = text
        widget = self.query_one("#rp-trick", Static)
        widget.border_title = title
        widget.border_subtitle = caption
        widget.update(trick_grid(cells, Text("")))

    def _result(self, state: TrickState) -> Text:
        """Under the table: the hand's result once scored, else the next action's actor."""
        hand, at = self.position
        log = self.match.logs[hand]
        if at == len(log.actions) and hand < len(state.results):
            return self._hand_line(state, hand)
        forfeits = [n for n in state.notes if n.kind == "forfeit"]
        if self.index == self.match.last and forfeits:
            who = self.seating.names[forfeits[-1].seat]
            return Text(f"{who} forfeited the match here", style="bold yellow")
        if at < len(log.actions):
            return Text(f"next to act: {self.seating.names[log.actors[at]]}", style="dim")
        return Text("the record stops here", style="yellow")

    def _hand_line(self, state: TrickState, hand: int) -> Text:
        before = self.match.scores_after[hand - 1] if hand else (0,) * len(state.scores)
        seen = HandSeen(hand, self.match.logs[hand].dealer, self.n, before)
        seen.result = state.results[hand]
        seen.scores = tuple(state.scores)
        line = safely(
            lambda: [self.presenter.hand_line(self.seating, seen)],
            lambda: [Presenter(self.game).hand_line(self.seating, seen)],
        )[0]
        head = Text(f"Hand {hand + 1} scored: ", style="bold")
        return plain(head + rich_text(line), self.settings.ascii)

    def _draw_log(self, trumps: int) -> None:
        """The decisions so far in this hand, the last one highlighted, with the analysis."""
        hand, at = self.position
        self.query_one("#rp-analysis", Static).update(self._analysis_line(hand))
        log = self.match.logs[hand]
        table: DataTable[Text | str] = self.query_one("#rp-log", DataTable)
        table.clear()
        table.add_rows(self._row(hand, i, log.actors[i], log.actions[i], trumps) for i in range(at))
        table.show_cursor = at > 0
        if at:
            table.move_cursor(row=at - 1, animate=False)  # scrolled into sight with it
        note = "" if at else "no move yet in this hand: the right arrow steps forwards"
        self.query_one("#rp-log-note", Static).update(Text(note, style="dim"))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """A decision clicked in the log: the position just after it."""
        event.stop()
        # Redrawing the log moves its cursor too; those messages arrive after the cursor has
        # moved on, and are told apart by that. Only a click leaves the cursor where it says.
        if event.cursor_row != event.data_table.cursor_row or not event.data_table.show_cursor:
            return
        self.go(self.match.hand_stops[self.position.hand] + event.cursor_row + 1)

    def _row(self, hand: int, i: int, seat: int, action: int, trumps: int) -> list[Text | str]:
        """A decision's cells: number, trick, seat, played, dd best, dd lost."""
        d = self.judged.get((hand, i))
        played = self.words(action, d.trumps if d is not None else trumps)
        trick = self.match.tricks_at[hand][i]
        where = str(trick + 1) if trick >= 0 else "auction"
        best: Text | str = ""
        lost: Text | str = ""
        if d is not None:
            dd = d.double_dummy
            if dd is not None:
                played.append(f" ({dd.played:+d})", style="dim")
                best = join((self.words(c, d.trumps) for c in dd.best), " ")
                best.append(f" ({dd.value:+d})", style="dim")
                style = "bold red" if dd.loss >= DEFAULT_THRESHOLD else ""
                lost = Text(str(dd.loss), style=style)
            elif d.forced:
                best, lost = Text("forced", style="dim"), NONE
            elif d.unsolved:
                best, lost = Text("unsolved in time", style="dim"), NONE
            else:
                best, lost = NONE, NONE
        number = Text(str(i + 1), justify="right")
        lost = Text(lost, justify="right") if isinstance(lost, str) else lost
        lost.justify = "right"
        return [number, where, self.seating.names[seat], played, best, lost]

    def _analysis_line(self, hand: int) -> Text:
        if self.no_analysis is not None:
            return Text(f"no analysis: {self.no_analysis}", style="yellow")
        if not self.match.finished(hand):
            return Text("no analysis of this hand: it did not finish", style="yellow")
        if hand in self.analysed:
            values = value_text(self.game, "pimc", you=False)
            return Text(
                f"dd: the solver's value of each card with every hand known: {values};"
                " dd lost: the best card's value minus the card played's",
                style="dim",
            )
        if self.analysing:
            done = len(self.analysed)
            total = sum(1 for h in range(len(self.match.logs)) if self.match.finished(h))
            return Text(f"analysing… ({done} of {total} hands done)", style="italic")
        return Text("")

    # ------------------------------------------------------------------------ analysis

    def _start_analysis(self) -> None:
        if not self._want_analysis:
            self.no_analysis = "turned off"
            return
        reason = self._why_not()
        if reason is not None:
            self.no_analysis = reason
            return
        self.analysing = True
        # A daemon thread of its own, not a Textual thread worker: a solve cannot be cut
        # short, and closing the viewer must not wait seconds for one (asyncio waits for
        # its executor's threads); this one stops at the next decision, or dies with us.
        self._loop = asyncio.get_running_loop()
        threading.Thread(target=self._analyse, name="replay-analysis", daemon=True).start()

    def on_unmount(self) -> None:
        self._stop.set()

    def _why_not(self) -> str | None:
        """Why the match cannot be analysed here, or None."""
        if not double_dummy_solvable(self.game):
            return (
                f"no double-dummy solver for {self.game.name}"
                " (tricktable analyze with sampling judges it, slowly)"
            )
        if not any(self.match.finished(h) for h in range(len(self.match.logs))):
            return "the record's only hand did not finish (analyze takes finished hands only)"
        return None

    def _analyse(self) -> None:
        """In a thread: analyse the finished hands, the one on screen first."""
        # analyze refuses a record whose last hand is cut short: the finished hands are
        # analysed without it, the unfinished one is said to be so.
        record = {k: v for k, v in self.record.items() if k != "unfinished_hand"}
        todo = {h for h in range(len(self.match.logs)) if self.match.finished(h)}

        def told(done: int, total: int) -> None:
            if self._stop.is_set():
                raise _Cancelled  # the screen has closed: stop at the next decision

        while todo:
            # Reading the position from this thread: an int, at worst a step behind.
            showing = self.match.positions[self.index].hand
            hand = showing if showing in todo else min(todo, key=lambda h: (h < showing, h))
            todo.discard(hand)
            try:
                found = analyze(record, hands=[hand], sampling=False, progress=told)
            except _Cancelled:
                return
            except AnalysisError as exc:
                self._from_thread(self._failed, str(exc))
                return
            except Exception as exc:  # a bug in a background nicety: shown, not raised
                self._from_thread(self._failed, f"the analysis failed: {exc}")
                return
            self._from_thread(self._got, hand, found.decisions)
        self._from_thread(self._done)

    def _from_thread(self, callback: Callable[..., None], *args: Any) -> None:
        """Run ``callback`` in the screen's event loop, without waiting for it."""
        if self._stop.is_set() or self._loop is None:
            return
        # RuntimeError: the loop has closed meanwhile; nothing is left to show it on.
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(callback, *args)

    def _got(self, hand: int, decisions: list[Decision]) -> None:
        for d in decisions:
            self.judged[(d.hand, d.index)] = d
        self.analysed.add(hand)
        self.redraw()

    def _failed(self, why: str) -> None:
        self.no_analysis = why
        self.analysing = False
        self.redraw()

    def _done(self) -> None:
        self.analysing = False
        self.redraw()


class _Cancelled(Exception):
    """The analysis was asked to stop (its screen closed)."""


def _next_stop(stops: list[int], index: int, step: int, last: int) -> int:
    """The first stop after ``index`` (``step`` > 0: else the last before it); the end or
    the start where there is none."""
    if step > 0:
        return next((s for s in stops if s > index), last)
    return next((s for s in reversed(stops) if s < index), 0)


def _players(record: dict[str, Any], seats: int = 4) -> list[str]:
    """The players' names as the table shows them (``bot:edna`` -> Edna)."""
    from tricktable.characters.talk import display_name

    names = record.get("players")
    if isinstance(names, list) and len(names) == seats and all(isinstance(n, str) for n in names):
        return [display_name(n) for n in names]
    return ["?"] * seats


class ReplayApp(App[None]):
    """The replay viewer on its own (``tricktable tui --replay FILE``): it closes with it."""

    TITLE = "tricktable replay"

    def __init__(self, screen: ReplayScreen) -> None:
        super().__init__()
        self.replay_screen = screen

    def on_mount(self) -> None:
        self.push_screen(self.replay_screen, callback=lambda _: self.exit())


def replay_app(path: str, settings: Settings, analysis: bool = True) -> App[None]:
    """The app that replays the record at ``path`` (``analysis``: as :class:`ReplayScreen`);
    a file that is not a record, or does not replay, raises one clear
    :class:`~tricktable.errors.TricktableError` here."""
    record = load_record(path)
    name = "standard input" if path == "-" else Path(path).name
    return ReplayApp(ReplayScreen(record, settings, title=name, analysis=analysis))
