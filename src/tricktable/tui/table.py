"""The table screen: one match at a :class:`~tricktable.table.Table`, played full-screen.

The screen owns a table and runs the table's asyncio driver (:func:`tricktable.table.run`)
as a Textual worker in the app's event loop: the bots act in the driver's threads, the
person at seat 0 acts through ``Table.submit`` (a key or a click), and the screen is redrawn
from the table's changes — the seat's own view (``Table.view``) and its event stream, which
the line terminal's :class:`~tricktable.ui.terminal.TableDisplay` writes into the log. The
driver's ``pace`` hook is the screen's: after each action it lets a played card slide in,
a finished trick be seen before it is collected, and a hand's summary be read before the
next deal. Nothing here reads the state behind the seat's view, so a websocket client can
later draw the same screen from the same events.

The record is saved after every action (atomically: a line of its journal), so a match closed
at any moment — ``q``, a closed terminal, a kill — resumes from its file (``tricktable tui
--resume``); leaving the table (``q``, Escape, the app closing) writes the record whole, so its
``.json`` alone holds the match.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Button, Footer, Input, RichLog, Static

from tricktable.cards import SUIT_SYMBOLS, SUITS, card_name, parse_card
from tricktable.engine.events import Chat
from tricktable.engine.trick import PLAY, Game, View
from tricktable.errors import IllegalAction, RecordError, TricktableError
from tricktable.records import RecordSaver, replay
from tricktable.runner import HUMAN, players_of, spec_of
from tricktable.seat.games import presenter_for, safely
from tricktable.seat.phrases import to_plain
from tricktable.seat.snapshot import snapshot
from tricktable.seat.words import Words
from tricktable.table import Person, Table, run
from tricktable.tui.dialogs import HandSummary, KeysHelp, MatchEnd
from tricktable.tui.model import SKINS, MatchSetup, Settings
from tricktable.tui.skins import TABLE_CSS, card_label, plain
from tricktable.tui.widgets import (
    BID_SLOTS,
    GRID,
    HAND_SLOTS,
    LEFT,
    MORE_SLOTS,
    RIGHT,
    TOP,
    BidButton,
    CardChip,
    FittedScreen,
    LogConsole,
    SeatBox,
    TrickSpot,
    hand_order,
    winning,  # noqa: F401 (the star's rule, read here by the tests of the felt)
)
from tricktable.ui.render import lines_to_rich, rich_text, to_rich
from tricktable.ui.terminal import PLACES, TableDisplay, seat_names, seat_places, second_person

if TYPE_CHECKING:
    from tricktable.search.explain import Hint

#: the person's seat
ME = 0
#: seconds a played card takes to settle, and a finished trick stays before it is collected
CARD_PAUSE = 0.25
TRICK_PAUSE = 1.2
#: seconds a collected trick takes to slide to its winner
COLLECT_TIME = 0.3
#: how many cards a pass holds (Hearts, Filippa)
#: seconds within which a second number key goes on the number typed (``1`` then ``3``: 13)
TYPING_PAUSE = 1.0

#: the keys, for the help dialog (``?``)
KEYS = (
    ("← →", "pick a card, or a choice of the bid panel"),
    ("1–9, 0", "pick card 1–10 of your hand; bidding, the bid of that number"),
    ("Enter", "play the picked card, make the picked bid"),
    ("space", "mark a card to pass (Hearts), Enter passes three"),
    ("p", "pass in the bidding"),
    ("h", "hint: the best search bot's choice and why"),
    ("l", "show the last trick (again: back)"),
    ("t", "talk: write to the table (Enter sends, Escape leaves)"),
    ("s", "switch the skin"),
    ("a", "animations and pauses on or off"),
    ("f", "forced cards played for you, on or off"),
    ("?", "these keys and the game's rules in brief"),
    ("Escape", "save and go back to the setup"),
    ("q", "save and quit (resume it from the start screen)"),
)


class TableScreen(FittedScreen[str]):
    """A match of a game of two to seven seats with the person at seat 0 (at the bottom)
    and bots (or characters) at the others, round the felt where their names say (see
    :data:`~tricktable.ui.terminal.PLACES`). Dismissed with what comes next: ``again``
    (the same setup, a fresh seed), ``setup``, ``replay`` (this match's record) or ``quit``.

    ``record``: a saved match to play on (its game, seed and players are the record's, or
    ``bots`` given again: see :func:`record_seats`); ``path``: where the record is saved
    (default: a new file in ``settings.records``); ``label``: the person's name in the record.
    """

    CSS = TABLE_CSS
    too_small_hint = "(q saves and quits.)"
    #: keys go to the table, not the chat line, until ``t`` is pressed
    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "previous", show=False),
        Binding("right", "move(1)", "next", show=False),
        Binding("enter", "choose", "play / bid"),
        Binding("space", "mark", "mark", show=False),
        Binding("h", "hint", "hint"),
        Binding("p", "pass_bid", "pass"),
        Binding("l", "last_trick", "last trick"),
        Binding("t", "talk", "talk"),
        Binding("s", "skin", "skin"),
        Binding("a", "animate", "animations"),
        Binding("f", "autoplay", "forced cards", show=False),
        Binding("question_mark", "keys", "keys"),
        Binding("escape", "leave('setup')", "setup", show=False),
        Binding("q", "leave('quit')", "quit"),
        *(Binding(str(n % 10), f"pick({n - 1})", show=False) for n in range(1, 11)),
    ]

    def __init__(
        self,
        setup: MatchSetup,
        settings: Settings,
        record: dict[str, Any] | None = None,
        path: Path | None = None,
        label: str = "you",
        max_hands: int | None = 1000,
        bots: tuple[str, ...] | None = None,
    ) -> None:
        super().__init__()
        self.setup = setup
        self.settings = settings
        if record is not None:
            person, specs = record_seats(record, bots)
            state = replay(record, listen=True)
            game: Game = state.game
            players: list[Any] = [Person(person), *specs]
            faults = record.get("faults") or []
            self.table = Table(game, players, state.seed, state=state, faults=faults)
        else:
            game = setup.load()
            setup = self.setup = setup.fitted(game.num_players)
            if len(setup.players) != game.num_players - 1:
                raise TricktableError(
                    f"{game.name} seats {game.num_players}: choose {game.num_players - 1} bots"
                )
            self.table = Table(game, [Person(label), *setup.players], setup.seed)
        if game.num_players not in PLACES:
            raise TricktableError(
                f"the table screen seats {min(PLACES)} to {max(PLACES)}; {game.name} has"
                f" {game.num_players}"
            )
        self.game = game
        self.n = game.num_players
        #: where each seat sits on the felt (a place of the compass grid; the person: S)
        self.places = seat_places(self.n, ME)
        self.presenter = presenter_for(game)
        self.seed = self.table.seed
        self.max_hands = max_hands
        if not settings.paced:
            for player in self.table.players:
                if hasattr(player, "paced"):
                    player.paced = False
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.path = (
            path if path is not None else settings.records / f"match-{self.seed}-{stamp}.json"
        )
        #: saves the record after every action, each save costing what it adds
        self.saver = RecordSaver(self.path)
        self.names = seat_names([ME], self.n)
        self.players = ["you", *(_shown_name(label) for label in self.table.labels[1:])]
        self.skin = settings.skin
        self.animating = settings.animate
        self.autoplay = False
        #: the index picked in the hand (playing) or in the bid panel (bidding); -1 in the
        #: panel: none (a number that names no choice), so Enter makes nothing
        self.cursor = 0
        #: the number typed in the bidding so far, and when its last key came
        self._typed = ""
        self._typed_at = 0.0
        #: what the hand bar shows, in its order (sorted by suit, trumps last)
        self.hand: list[int] = []
        #: which card of the hand each chip of the hand bar shows (slot -> index)
        self._slots: dict[int, int] = {}
        self.choices: list[int] = []
        #: cards marked to pass or discard (a choice of several cards)
        self.marked: set[int] = set()
        self.card_choice: dict[str, Any] | None = None
        self.failure: BaseException | None = None
        self.finished = False
        self.showing_last = False
        #: whether the finished trick has been collected off the felt (animations on: it
        #: slides to its winner; off: it stays until the next lead)
        self.collected = False
        #: whether the person left the table (the match stops; no end dialog)
        self.left = False
        self.save_error: str | None = None
        self._decision: tuple[int, int] | None = None
        self._avatars: dict[int, Text | None] = {}
        self._hints: dict[tuple[int, int], Hint] = {}
        self._seen_tricks = 0
        self._seen_hands = 0
        #: the events of the seat's stream read into the chat panel
        self._events = 0
        self.display_log: TableDisplay | None = None
        #: the game's title (its spec is built from the options: once, not at every redraw)
        self.title_text = ""

    # ------------------------------------------------------------------------ the screen

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="felt"):
                yield from self._seat_row("top", TOP)
                with Horizontal(id="middle"):
                    yield from self._seat_row("left", LEFT)
                    with Grid(id="trick"):
                        for where in GRID:
                            if where == "C":
                                yield Static(id="trick-centre")
                            elif where in self.places:
                                yield TrickSpot(where, id=f"spot-{where}")
                            else:
                                yield Static()
                    yield from self._seat_row("right", RIGHT)
                yield SeatBox(ME, id="seat-S", classes="seat")
                with Horizontal(id="hand"):
                    for i in range(HAND_SLOTS):
                        yield CardChip(i, id=f"card-{i}", classes="card")
                with Horizontal(id="hand-more"):  # a second row: 17 cards at three seats
                    for i in range(HAND_SLOTS, HAND_SLOTS + MORE_SLOTS):
                        yield CardChip(i, id=f"card-{i}", classes="card")
                with Grid(id="bids"):
                    for i in range(BID_SLOTS):
                        yield BidButton(i, id=f"bid-{i}", classes="bid")
                yield Static(id="message")
                yield Static(id="hint")
            with Vertical(id="side"):
                yield Static(id="tally")
                log = RichLog(id="log", wrap=True, markup=False, min_width=20)
                log.can_focus = False
                yield log
                chat = RichLog(id="chat", wrap=True, markup=False, min_width=20)
                chat.can_focus = False
                yield chat
                yield Input(placeholder="t: say something to the table", id="say", max_length=200)
        yield self.size_message()
        yield Footer()

    def _seat_row(self, ident: str, places: tuple[str, ...]) -> ComposeResult:
        """A row (the top) or a column (left, right) of the felt, with the seats sitting
        there; ``crowded`` where it holds more than one (their boxes leave out the avatar)."""
        seats = [(self.places.index(p), p) for p in places if p in self.places]
        box = Horizontal if ident == "top" else Vertical
        classes = "seats" + (" crowded" if len(seats) > 1 else "") + (" empty" * (not seats))
        with box(id=ident, classes=classes):
            for seat, place in seats:
                yield SeatBox(seat, id=f"seat-{place}", classes="seat")

    def on_mount(self) -> None:
        self.set_class(True, f"-{self.skin}")
        if self.n > 4:  # a tally of a line a seat (Oh Hell's bids) for every seat
            self.query_one("#tally").styles.max_height = max(9, self.n + 4)
        log = self.query_one("#log", RichLog)
        display = TableDisplay(LogConsole(log, self.settings.ascii), self.game, self.names)
        display.humans = [ME]
        display.show_chat = False  # the chat panel has the talk
        self.display_log = display
        self.title_text = display.title()
        self.sub_title = f"{self.title_text} · seed {self.seed}"
        display.follow_table(self.table)  # the log: the seat's events, as `play` prints them
        view = self.view()
        self._seen_tricks, self._seen_hands = len(view.tricks), len(view.results)
        self.table.watch(lambda _table: self.redraw())
        self.redraw()
        self.run_worker(self._drive(), name="driver", exit_on_error=False)

    async def _drive(self) -> None:
        """Play the match at the table: the driver asks the bots and waits for the person."""
        try:
            await run(self.table, self.max_hands, pace=self._pace)
        except Exception as exc:  # an engine failure: shown, and reported on exit
            self.failure = exc
        finally:
            self.finished = True
            self.save()
            self.redraw()
        if self.is_attached and not self.left:
            self.app.push_screen(MatchEnd(self._end_lines()), self._ended)

    def _ended(self, result: str | None) -> None:
        self.dismiss(result or "quit")

    async def _pace(self, table: Table) -> None:
        """After each action: save, let a card settle, a trick be seen, a summary be read."""
        self.save()
        view = self.view()
        if self.animating and view.to_act != ME:
            await asyncio.sleep(CARD_PAUSE)
        if len(view.tricks) > self._seen_tricks and not view.trick:
            self._seen_tricks = len(view.tricks)
            if self.animating:
                await asyncio.sleep(TRICK_PAUSE)
                self._collect(view)
                await asyncio.sleep(COLLECT_TIME)
                self.collected = True  # the felt is clear (and stays so after ``l``)
                self.redraw()
        if len(view.results) > self._seen_hands:
            self._seen_hands = len(view.results)
            self._seen_tricks = 0
            await self._summary()
        elif view.to_act == ME and self.autoplay:
            self._play_forced(view)

    async def _summary(self) -> None:
        """Show the hand's summary (the seat model's: the game's words for its result and
        the scores) and wait for it to be closed before the next deal."""
        if not self.is_attached:
            return
        snap = self.snapshot()
        hand, summary = snap["hand"], snap["summary"]
        if hand is None or not summary:
            return
        closed = asyncio.Event()
        shown = [plain(line, self.settings.ascii) for line in lines_to_rich(summary, self.names)]
        self.app.push_screen(
            HandSummary(f"Hand {hand['number']}", shown), lambda _none: closed.set()
        )
        await closed.wait()

    def _end_lines(self) -> list[Text]:
        if self.failure is not None:
            return [Text(f"The match stopped: {self.failure}", style="bold red")]
        display = self.display_log
        if display is None:
            return []
        collect = LogConsole(None, self.settings.ascii)
        console, display.console = display.console, collect
        try:
            shown = display.show_match_end()
        finally:
            display.console = console
        lines = [line for line in collect.lines if isinstance(line, Text) and line.plain]
        if not shown:
            lines.append(Text(f"Stopped before its end: {display.scores_text(self.view().scores)}"))
        lines.append(Text(f"Record: {self.path}", style="dim"))
        return lines

    def save(self, whole: bool = False) -> None:
        """Write the record so far (atomically): an action a journal line, the record whole
        at the end of a hand, and whole (``whole``, or once the person has left) when the
        person leaves, so the record's file alone holds the match. A failure is shown, not
        raised."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            table = self.table  # its record, as table.record() makes it, saved by additions
            self.saver.save(
                table.state, table.labels, table.referee.faults, whole=whole or self.left
            )
            self.save_error = None
        except OSError as exc:
            self.save_error = f"cannot save the record to {self.path}: {exc.strerror or exc}"

    # ------------------------------------------------------------------------- drawing

    def view(self) -> View:
        """What the person's seat may know now."""
        return self.table.view(ME)

    def redraw(self) -> None:
        """Draw everything from the person's view (called at every change of the table)."""
        if self.display_log is None or not self.is_attached:
            return  # not mounted yet, or closing
        # NoMatches: the screen is being taken down, with nothing left to draw on.
        with contextlib.suppress(NoMatches):
            self._redraw()

    def snapshot(self) -> dict[str, Any]:
        """What the person's seat may see now: the seat model's snapshot, in this screen's
        names (:mod:`tricktable.seat`). The status, the seats, the trick, the tally and the
        choices are drawn from it."""
        return snapshot(self.table, ME, names=self.names)

    def _redraw(self) -> None:
        view = self.view()
        snap = self.snapshot()
        hand = snap["hand"] or {}
        ascii = self.settings.ascii
        trumps = view.tables.mask if view.trump >= 0 else 0
        # The engine's codes of the seat's choices (the snapshot names them by text, and a
        # pass of three is its decision, not 286 entries).
        legal = view.legal_actions() if view.to_act == ME else []
        decision = (view.hand_number, view.step) if view.to_act == ME else None
        playing = view.phase == PLAY
        choice = snap.get("decision") if view.to_act == ME else None
        #: the person's choice of several cards now (a pass, a discard, a keep), or None
        self.card_choice = choice if choice is not None and choice["kind"] == "cards" else None
        passing = self.card_choice is not None
        cards = [parse_card(c) for c in hand.get("cards", [])]
        self.hand = sorted(cards, key=lambda c: hand_order(view, c))
        self.choices = [] if playing or passing or view.to_act != ME else legal
        if decision != self._decision:  # a new decision: the cursor on its first choice
            self._decision = decision
            self.marked = set()
            self.query_one("#hint", Static).update("")  # a hint is for its decision only
            first = next((i for i, c in enumerate(self.hand) if c in legal), 0)
            self.cursor = first if playing or passing else 0
            self._typed = ""
        self._draw_status(snap)
        self._draw_seats(snap)
        self._draw_trick(snap, trumps)
        self._draw_tally(snap)
        self._draw_chat()
        on_hand = playing or passing
        # Thirteen cards fit a narrow felt only as narrow chips (``10♦`` and its frame); more
        # (17 each at three seats) take two rows, half in each.
        self.query_one("#hand").set_class(len(self.hand) > 9, "many")
        more = len(self.hand) > HAND_SLOTS
        self.query_one("#hand-more").display = more
        first = (len(self.hand) + 1) // 2 if more else len(self.hand)
        self._slots = {i if i < first else HAND_SLOTS + i - first: i for i in range(len(self.hand))}
        for slot in range(HAND_SLOTS + MORE_SLOTS):
            i = self._slots.get(slot, -1)
            card = self.hand[i] if i >= 0 else None
            chip = self.query_one(f"#card-{slot}", CardChip)
            ok = card is not None and (card in legal or (passing and self._may_mark(card)))
            chip.show(card, trumps, ok, on_hand and i == self.cursor, ascii, card in self.marked)
        said = {a["text"]: a["words"] for a in snap["legal"]}
        name = self.table.game.action_name
        for i in range(BID_SLOTS):
            action = self.choices[i] if i < len(self.choices) else None
            words = to_rich(said[name(action)], self.names) if action is not None else Text("")
            label = plain(words, ascii).plain.capitalize()
            self.query_one(f"#bid-{i}", BidButton).show(action, label, i == self.cursor)
        if self.card_choice is not None and not self._message_shown():
            self._say(self._marking_words(self.card_choice))
        if self.save_error:
            self._say(self.save_error, "error")

    def _message_shown(self) -> bool:
        return bool(str(self.query_one("#message", Static).content))

    def _draw_status(self, snap: dict[str, Any]) -> None:
        """One line, the most needed first: whose turn, the hand, trump, the contract, the
        score, then the game (its title and house rules can be long: at 100 columns the
        line's end is cut, never the turn)."""
        hand = snap["hand"] or {}
        turn = hand.get("turn", -1)
        text = Text()
        if 0 <= turn < self.n and not self.finished:
            if turn == ME:
                text.append("▶ your turn", style="bold yellow")
            else:
                text.append(f"{self.names[turn]}'s turn")
            text.append(" · ")
        text.append(f"hand {hand.get('number', 1)} · trump ")
        trump = hand.get("trump")
        if trump is not None:
            suit = SUITS.index(trump)
            symbol = plain(Text(SUIT_SYMBOLS[suit]), self.settings.ascii).plain
            text.append(symbol, style="bold red" if suit in (1, 2) else "bold")
        else:
            text.append(self.presenter.trump_pending, style="dim")
        contract = hand.get("contract")
        if contract:
            text.append(f" · contract: {to_plain(contract, self.names)}")
        text.append(f" · score: {to_plain(snap['score_line'][0], self.names)} · ")
        text.append(self.title_text, style="bold")
        self.query_one("#status", Static).update(plain(text, self.settings.ascii))

    def _draw_seats(self, snap: dict[str, Any]) -> None:
        seats = snap["seats"]
        display = self.display_log
        # Which side each seat plays for, where the names alone do not tell: partnerships
        # at other sizes than four (at four the partner sits opposite, as everyone knows).
        teams = display is not None and display.partners and self.n != 4
        for seat in range(self.n):
            box = self.query_one(f"#seat-{self.places[seat]}", SeatBox)
            column = box.parent is not None and box.parent.id in ("left", "right")
            crowded = box.parent is not None and box.parent.has_class("crowded")
            # A side column is narrow: at four it holds a wind's short name, elsewhere the
            # name and the player (and team) get a line each.
            split = crowded or (column and self.n != 4)
            name = Text(self.names[seat], style="bold")
            player = Text(self.players[seat])
            if teams:
                player.append(f" · team {_team_letter(self.game.team_of(seat))}")
            if split:  # a narrow box: the name, the player and the facts each a line
                lines = [name, player]
            else:
                name.append(" · ").append_text(player)
                lines = [name]
            this = seats[seat]
            if this["dealer"]:
                lines[0].append("  (D)", style="bold")
            if this["turn"]:
                lines[0] = Text("▶ ", style="bold").append_text(lines[0])
            # the last call each seat made, in the engine's words (a pass of cards is none)
            call = this["last_call_text"]
            facts = [call] if call is not None and not call.startswith("pass ") else []
            facts.append(f"tricks {this['tricks']}")
            lines.append(Text(" · ".join(facts)))
            box.set_class(this["turn"], "to-act")
            avatar = None if crowded else self._avatar(seat)
            box.show(avatar, [plain(line, self.settings.ascii) for line in lines])

    def _avatar(self, seat: int) -> Text | None:
        if seat not in self._avatars:
            try:
                from tricktable.avatars import avatar_text, seat_backgrounds

                colour = not self.app.no_color
                back = seat_backgrounds(self.players)[seat]
                self._avatars[seat] = avatar_text(
                    self.players[seat], small=True, color=colour, backdrop=back
                )
            except Exception:  # no drawing library: the names alone say who sits where
                self._avatars[seat] = None
        return self._avatars[seat]

    def _draw_trick(self, snap: dict[str, Any], trumps: int) -> None:
        """The felt's centre: the last trick (``l``), else the trick in play, else the trick
        just taken until it is collected, else nothing (a fresh hand, a collected trick)."""
        ascii = self.settings.ascii
        cards: dict[str, tuple[int, Text]] = {}
        centre = Text("")
        hand = snap["hand"] or {}
        trick = hand.get("trick", [])
        last = hand.get("last_trick")
        if trick:
            self.collected = False  # a new trick is under way
        showing_last = self.showing_last and last is not None
        if trick and not showing_last:
            for play in trick:
                card = parse_card(play["card"])
                shown = card_label(card, trumps, ascii)
                if play["seat"] == hand["winning"]:
                    shown.append(" <=" if ascii else " ★", style="bold green")
                cards[self.places[play["seat"]]] = (card, shown)
            tricks = sum(s["tricks"] for s in snap["seats"])
            centre = Text(f"trick {tricks + 1}", style="dim")
        elif last is not None and (showing_last or not self.collected):
            winner = last["winner"]
            for play in last["cards"]:
                card = parse_card(play["card"])
                shown = card_label(card, trumps, ascii)
                if showing_last:
                    shown.stylize("dim")
                cards[self.places[play["seat"]]] = (card, shown)
            if showing_last:
                centre = Text(f"last trick:\n{self.names[winner]}", style="bold")
                centre.append("\n(l: back)", style="dim")
            else:
                centre = Text(f"taken by\n{self.names[winner]}")
        for where in self._spots():
            spot = self.query_one(f"#spot-{where}", TrickSpot)
            card, shown = cards.get(where, (-1, Text("")))
            spot.show(card if card >= 0 else None, shown, self.animating and not showing_last)
        self.query_one("#trick-centre", Static).update(centre)

    def _collect(self, view: View) -> None:
        """The finished trick slides to its winner's side and fades; a spot shows again when
        the next card lands on it (and ``l`` draws the last trick back)."""
        if self.showing_last or not view.tricks or not self.is_attached:
            return
        toward = self.places[view.tricks[-1][2]]
        with contextlib.suppress(NoMatches):
            for where in self._spots():
                self.query_one(f"#spot-{where}", TrickSpot).collect(toward, COLLECT_TIME)

    def _spots(self) -> list[str]:
        """The places of the trick's spots: one for each seat."""
        return [where for where in GRID if where in self.places]

    def _draw_tally(self, snap: dict[str, Any]) -> None:
        # The presenter's tally falls back to the generic one itself (``safely``).
        tally = (snap["hand"] or {}).get("tally", [])
        lines = [Text("This hand", style="bold"), *lines_to_rich(tally, self.names)]
        text = Text("\n").join(plain(line, self.settings.ascii) for line in lines)
        self.query_one("#tally", Static).update(text)

    def _draw_chat(self) -> None:
        """New table talk into the chat panel (the characters' and your own)."""
        chat = self.query_one("#chat", RichLog)
        new = self.table.events_since(ME, self._events)
        self._events += len(new)
        for event in (e for e in new if isinstance(e, Chat)):
            name = self.names[event.seat] if 0 <= event.seat < self.n else "The table"
            line = Text(f"{name}: ", style="bold")
            line.append(event.text)
            chat.write(plain(line, self.settings.ascii))

    def _say(self, text: str | Text, kind: str = "") -> None:
        message = self.query_one("#message", Static)
        message.set_classes(kind)
        message.update(plain(Text(text) if isinstance(text, str) else text, self.settings.ascii))

    # ------------------------------------------------------------------------ actions

    def action_move(self, step: int) -> None:
        """Move the cursor through the hand (playing) or the bid panel (bidding)."""
        size = len(self.choices) if self.choices else len(self.hand)
        if size:
            self._typed = ""
            if self.cursor < 0:  # none picked: the first step lands on an end
                self.cursor = 0 if step > 0 else size - 1
            else:
                self.cursor = (self.cursor + step) % size
            self.redraw()

    def action_pick(self, index: int) -> None:
        """A number key: card ``index + 1`` of the hand; in the bidding, the choice the
        number names as the line terminal reads it (:func:`~tricktable.ui.answers.
        parse_answer`): a bid of that number where bids are made, else the panel's choice of
        that number."""
        if self.choices:
            self._type_digit(str((index + 1) % 10))
            return
        if not 0 <= index < len(self.hand):
            return
        self.cursor = index
        self.redraw()

    def _type_digit(self, digit: str) -> None:
        """Pick the bid a number key names, the keys typed just before it going on the
        number (``1`` then ``3``: 13). A number that names no choice picks none, and says
        why: Enter then makes nothing (it once made the pass the cursor rested on)."""
        from tricktable.ui.answers import parse_answer

        now = time.monotonic()
        going_on = self._typed and now - self._typed_at <= TYPING_PAUSE
        self._typed_at = now
        view = self.view()
        why = ""
        for typed in (self._typed + digit, digit) if going_on else (digit,):
            try:
                action = parse_answer(typed, view)
            except IllegalAction as exc:
                why = why or f"{exc.action} is not legal: you {second_person(exc.reason)}"
                continue
            except TricktableError as exc:
                why = why or str(exc)
                continue
            if action in self.choices:
                self._typed = typed
                self.cursor = self.choices.index(action)
                self._say(f"Enter: {self._words(action)}")
                self.redraw()
                return
            refused = view.illegal(action)
            why = why or f"{self._words(action)} is not legal: you {second_person(refused.reason)}"
        self._typed = ""
        self.cursor = -1
        self._say(Text(f"✗ {why}"), "error")
        self.redraw()

    def _words(self, action: int) -> str:
        """An action in the words the bid panel and the log use (plain text)."""
        view = self.view()
        trumps = view.tables.mask if view.trump >= 0 else 0
        said = rich_text(self.presenter.action_words(action, trumps))
        return plain(said, self.settings.ascii).plain

    def action_choose(self) -> None:
        """Enter: play the picked card, pass the marked cards, or make the picked bid."""
        if self.card_choice is not None:
            self._pass_marked()
        elif self.choices:
            if 0 <= self.cursor < len(self.choices):
                self.submit(self.choices[self.cursor])
            else:
                self._say("pick a choice first: its number, ← → or a click (p passes)", "error")
        elif 0 <= self.cursor < len(self.hand):
            self.submit(self.hand[self.cursor])

    def action_mark(self) -> None:
        """Space: mark (or unmark) the picked card to pass."""
        if self.card_choice is None:
            return
        if 0 <= self.cursor < len(self.hand):
            self._toggle_mark(self.hand[self.cursor])

    def _may_mark(self, card: int) -> bool:
        choice = self.card_choice
        return choice is not None and card_name(card) in choice["cards"]

    def _marking_words(self, choice: dict[str, Any]) -> str:
        """What to do: the choice's words, how many are marked, and what Enter does."""
        prompt = plain(to_rich(choice["prompt"], self.names), self.settings.ascii).plain
        k = len(self.marked)
        confirm = choice["confirm"].get(str(k))
        # the count and what a key does first: a 100-column window shows some 58 characters
        what = f"Enter: {confirm}" if confirm else "space marks one"
        return f"{k} of {choice['max']} marked · {what} · {prompt}"

    def _toggle_mark(self, card: int) -> None:
        choice = self.card_choice
        if choice is None:
            return
        if card in self.marked:
            self.marked.discard(card)
        elif not self._may_mark(card):
            self._say(f"{card_name(card)} may not be chosen now", "error")
            return
        elif len(self.marked) < choice["max"]:
            self.marked.add(card)
        else:
            self._say(f"{choice['max']} cards are marked: space on one unmarks it", "error")
            return
        self._say(self._marking_words(choice))
        self.redraw()

    def _pass_marked(self) -> None:
        choice = self.card_choice
        if choice is None:
            return
        if str(len(self.marked)) not in choice["confirm"]:
            self._say(self._marking_words(choice), "error")
            return
        try:
            self.table.submit_cards(ME, sorted(self.marked))
        except TricktableError as exc:
            self._say(Text(f"✗ {exc}"), "error")
            return
        self.marked = set()
        self._say("")
        self.showing_last = False

    def action_pass_bid(self) -> None:
        """``p``: pass in the bidding (where passing is a choice)."""
        for action in self.choices:
            if self.game.action_name(action) == "pass":
                self.submit(action)
                return

    def on_card_chip_chosen(self, message: CardChip.Chosen) -> None:
        index = self._slots.get(message.index, -1)  # the chip's slot -> the card's place
        if not 0 <= index < len(self.hand) or self.choices:
            return
        self.cursor = index
        if self.card_choice is not None:
            self._toggle_mark(self.hand[index])  # a click marks a card to pass or discard
        else:
            self.submit(self.hand[index])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button
        if isinstance(button, BidButton) and button.choice is not None:
            self.cursor = button.index
            self.submit(button.choice)

    def submit(self, action: int) -> bool:
        """Send ``action`` to the table; a refusal shows the engine's reason and changes
        nothing. Whether the table took it."""
        words = self._words(action)
        try:
            self.table.submit(ME, action)
        except IllegalAction as exc:
            reason = plain(Text("you " + second_person(exc.reason)), self.settings.ascii).plain
            self._say(Text(f"✗ {words} is not legal: {reason}"), "error")
            return False
        except TricktableError as exc:
            self._say(Text(f"✗ {exc}"), "error")
            return False
        self._say("")
        self.showing_last = False
        return True

    def _play_forced(self, view: View) -> None:
        """Play the only legal card for the person (the ``f`` setting)."""
        legal = view.legal_actions()
        if view.phase == PLAY and len(legal) == 1:
            self.submit(legal[0])

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
                given = await asyncio.to_thread(hint, view, self.settings.hint_budget)
            except TricktableError as exc:
                self.query_one("#hint", Static).update(f"no hint: {exc}")
                return
            self._hints[key] = given
        now = self.view()
        if (now.hand_number, now.step) != key or now.to_act != ME:
            return  # played meanwhile: the hint was for a decision that is gone
        if self.display_log is not None:
            self.display_log.show_hint(view, given)
        self.query_one("#hint", Static).update(
            plain(hint_text(self, view, given), self.settings.ascii)
        )

    def action_last_trick(self) -> None:
        """``l``: show the last finished trick in the centre (again: back to the trick)."""
        if not self.view().tricks:
            self._say("no trick has been played in this hand yet", "error")
            return
        self.showing_last = not self.showing_last
        self.redraw()

    def action_talk(self) -> None:
        """``t``: write a line to the table."""
        self.query_one("#say", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self.set_focus(None)
        if not text:
            return
        try:
            self.table.chat(ME, text)
        except TricktableError as exc:
            self._say(Text(f"✗ not said: {exc}"), "error")
            return
        self._say("")

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape" and isinstance(self.focused, Input):
            self.set_focus(None)  # Escape in the chat line leaves it, nothing more
            event.stop()

    def action_skin(self) -> None:
        """``s``: the next skin."""
        self.set_class(False, f"-{self.skin}")
        self.skin = SKINS[(SKINS.index(self.skin) + 1) % len(SKINS)]
        self.set_class(True, f"-{self.skin}")
        self._say(f"skin: {self.skin}")

    def action_animate(self) -> None:
        """``a``: animations and the pauses after cards and tricks, on or off."""
        self.animating = not self.animating
        self._say(f"animations {'on' if self.animating else 'off'}")

    def action_autoplay(self) -> None:
        """``f``: the only legal card is played for you, or not."""
        self.autoplay = not self.autoplay
        self._say(f"forced cards {'played for you' if self.autoplay else 'left to you'}")
        view = self.view()
        if self.autoplay and view.to_act == ME:
            self._play_forced(view)

    def action_keys(self) -> None:
        """``?``: the keys, and the game's rules in brief."""
        rules = safely(lambda: [Words(self.presenter.rules_summary())], list)
        shown = plain(rich_text(rules[0]), self.settings.ascii).plain if rules else ""
        self.app.push_screen(KeysHelp(KEYS, shown))

    def action_leave(self, where: str) -> None:
        """Escape or ``q``: stop the match (saved: it can be resumed) and leave."""
        self.left = True
        self.table.stop()
        self.save(whole=True)
        self.dismiss(where)

    def on_unmount(self) -> None:
        """The screen goes (left, or the app closing): the record written whole."""
        if not self.left:
            self.left = True
            self.table.stop()
            self.save(whole=True)


def record_seats(
    record: dict[str, Any], bots: tuple[str, ...] | None = None
) -> tuple[str, tuple[str, ...]]:
    """The person's label (seat 0) and the bots' specs of a saved match to play on.

    The bots are the record's own, which are never a program, URL or plug-in (a record is
    data: :func:`~tricktable.runner.players_of` refuses those in one line, which says to give
    them again), or ``bots``, given again by the person in their place. Raises
    :class:`~tricktable.errors.TricktableError` for a record that is not one person's at
    seat 0 with bots at the others.
    """
    labels = record.get("players")
    if not isinstance(labels, list) or not labels or not isinstance(labels[0], str):
        raise RecordError("the record names no players: give them")
    specs = players_of(record) if bots is None else (spec_of(labels[0]), *bots)
    if specs[0] != HUMAN or HUMAN in specs[1:]:
        raise TricktableError("the table screen plays on a match with one person, at seat 0")
    return labels[0], tuple(specs[1:])


def _team_letter(side: int) -> str:
    """A side's letter on the felt: A, B, C..."""
    return chr(ord("A") + side) if 0 <= side < 26 else str(side)


def hint_text(screen: TableScreen, view: View, given: Hint) -> Text:
    """One line for the hint panel: the advised choice and its value."""
    trumps = view.tables.mask if view.trump >= 0 else 0
    text = Text("Hint: ", style="bold")
    if given.choices:
        best = given.choices[0]
        text.append_text(rich_text(screen.presenter.action_words(best.action, trumps)))
        text.append(f"  (value {best.value:+.2f}, {given.bot}; {given.value_text})", style="dim")
    elif given.heuristic is not None:
        text.append_text(rich_text(screen.presenter.action_words(given.heuristic, trumps)))
        text.append("  (the game's heuristic)", style="dim")
    else:
        text.append("no advice here")
    return text


def _shown_name(label: str) -> str:
    from tricktable.characters.talk import display_name

    return display_name(label)  # a bot's label in the record: bot:SPEC
