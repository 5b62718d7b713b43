"""The terminal table: a match drawn with Rich from its events, as it happens.

:class:`TableDisplay` shows the events of a match as they come — each hand's deal, its bidding
(or passing, or making of trump), each trick and each hand's result — through the eyes of its
*watchers*: it reads their event streams (``EventLog``, ``Table.events_since``), so what it
shows is what they may see, and it works nothing out from a state. It follows a state (a match
loop calls it as its listener) or a table (it watches every change), and shows a person's turn
(the person at the keyboard is :mod:`tricktable.ui.human`'s). What is said about each game
comes from its :class:`~tricktable.seat.games.Presenter`; the table only decides when. Rich drops
colours by itself when standard output is not a terminal, so the same code gives a plain
transcript in a pipe.
"""

from __future__ import annotations

import codecs
import io
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from tricktable.cards import SUIT_SYMBOLS, SUITS, cards_in, parse_card
from tricktable.engine import actions as act
from tricktable.engine.events import (
    SPECTATOR,
    Acted,
    CardPlayed,
    Chat,
    Dealt,
    Event,
    EventLog,
    Fault,
    HandScored,
    HandStarted,
    MatchOver,
    TrickWon,
    TrumpNamed,
)
from tricktable.engine.results import HandResult
from tricktable.engine.trick import PLAY, Game, TrickState, View
from tricktable.errors import IllegalAction, TricktableError
from tricktable.seat.games import Presenter, Seating, presenter_for, safely, verb
from tricktable.seat.games.base import HandSeen
from tricktable.seat.phrases import Token
from tricktable.seat.phrases import text as text_token
from tricktable.seat.seen import Seen
from tricktable.seat.snapshot import snapshot_of_view
from tricktable.seat.words import Words
from tricktable.ui.answers import clip, clip_answer, is_passing
from tricktable.ui.render import (
    card_text,
    cards_text,
    join,
    line,
    lines_to_rich,
    rich_text,
    suit_text,
    to_rich,
)

if TYPE_CHECKING:
    from tricktable.search.explain import Hint
    from tricktable.table.table import Table

__all__ = [
    "TableDisplay",
    "card_text",
    "cards_text",
    "make_console",
    "seat_names",
    "seat_places",
    "suit_text",
]

COMPASS = ("South", "West", "North", "East")

#: where each seat sits round a table of 2 to 7, seen from seat 0 (or the one person), at
#: the bottom (S): seat + 1 is on the left, and on round the table clockwise. Up to four
#: sides are the four winds; five and six seats add the top corners (NW, NE), seven the
#: bottom ones (SW, SE) too: the places of a 3x3 compass, which the full-screen table and
#: its trick are drawn on, so a seat's name says where to look for it.
PLACES: dict[int, tuple[str, ...]] = {
    2: ("S", "N"),
    3: ("S", "W", "E"),
    4: ("S", "W", "N", "E"),
    5: ("S", "W", "NW", "NE", "E"),
    6: ("S", "W", "NW", "N", "NE", "E"),
    7: ("S", "SW", "W", "NW", "NE", "E", "SE"),
}
#: each place's name
PLACE_NAMES = {
    "S": "South",
    "SW": "Southwest",
    "W": "West",
    "NW": "Northwest",
    "N": "North",
    "NE": "Northeast",
    "E": "East",
    "SE": "Southeast",
}

#: where a display reads its events: ``read(position) -> (new events, next position)``
Reader = Callable[[int], tuple[Sequence[Event], int]]


#: plain stand-ins for the symbols the table prints, for streams that cannot encode them
ASCII_FALLBACK = {
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
    "·": "|",
    "→": "->",
    "✗": "x",
    "✓": "v",
    "─": "-",
    "—": "-",
    "–": "-",
}


def _ascii_fallback(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    bad = exc.object[exc.start : exc.end]
    return "".join(ASCII_FALLBACK.get(ch, "?") for ch in bad), exc.end


codecs.register_error("tricktable-ascii", _ascii_fallback)


def make_console() -> Console:
    """The console the table prints on: standard output, colours only on a terminal."""
    stream = sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    if isinstance(stream, io.TextIOWrapper) and not _can_encode(encoding, "♦·→✗─"):
        # An ASCII or Latin-1 locale: 10D and -> rather than "?" or a traceback.
        stream.reconfigure(errors="tricktable-ascii")
    # Soft wrap leaves long lines to the terminal: a third of the cost of Rich's own wrapping,
    # and piped transcripts keep one event per line. Paragraphs (help) ask for wrapping.
    return Console(highlight=False, emoji=False, soft_wrap=True)


def _can_encode(encoding: str, text: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def seat_places(num_players: int, bottom: int = 0) -> list[str]:
    """Where each seat sits (a key of :data:`PLACE_NAMES`) with seat ``bottom`` at the
    bottom (S); "" for each seat of a table larger than :data:`PLACES` knows."""
    places = PLACES.get(num_players)
    if places is None:
        return [""] * num_players
    return [places[(seat - bottom) % num_players] for seat in range(num_players)]


def seat_names(humans: Sequence[int], num_players: int = 4) -> list[str]:
    """The name of each seat: with one human, "You" and the others by where they sit from
    you; else by where they sit from seat 0 (South). See :data:`PLACES`.

    Seat + 1 is to the left, so a human at seat 0 (South) has West on the left, North opposite
    (at six: West, Northwest, North, Northeast, East round the table). A table of more than
    seven seats is numbered ("Seat 7").
    """
    bottom = humans[0] if len(humans) == 1 else 0
    places = seat_places(num_players, bottom)
    names = [PLACE_NAMES.get(p, f"Seat {s}") for s, p in enumerate(places)]
    if len(humans) == 1:
        names[humans[0]] = "You"
    return names


# ----------------------------------------------------------------------------- the table


class TableDisplay(Seating):
    """The table as people see it: a match's events shown as they come, and a human's turn.

    It follows one source of events (:meth:`follow_state`, :meth:`follow_table`) and shows
    those of its watchers' streams — the humans' (:attr:`humans`, set by the caller), every
    seat's in an account (``reveal``), or what everyone may see when it has none. Events from
    before it followed (a resumed match's) are taken in silently and the hand in play is
    announced with the next thing shown. ``reveal`` lists the seats whose dealt cards each
    hand's banner shows; ``compact`` prints one line per hand instead of every trick (bots
    playing alone).
    """

    def __init__(
        self,
        console: Console,
        game: Game,
        names: Sequence[str],
        reveal: Iterable[int] = (),
        compact: bool = False,
    ) -> None:
        super().__init__(game, names, reveal)
        self.console = console
        self.compact = compact
        self.presenter = presenter_for(game)
        self.generic = Presenter(game)
        #: what the events told: the hand in play, the scores, the end (see the properties)
        self.seen = Seen(len(self.names), game.num_scores)
        self._read: Reader = lambda n: ((), n)
        self._look: Callable[[], View | None] = lambda: None
        self._seen = 0
        self._table: Table | None = None
        self._view: View | None = None
        self._batch = 0
        self._synced: tuple[int, int] = (-1, -1)
        self._quiet = False
        self._banner_due = False
        self._auction_shown = False
        self._fault: tuple[int, str, str] | None = None
        #: whether table talk is shown (a screen with a chat panel of its own turns it off)
        self.show_chat = True

    def _print(self, lines: Iterable[Text | Words]) -> None:
        for text in lines:
            self.console.print(rich_text(text) if isinstance(text, Words) else text)

    def goal_text(self) -> str:
        """How the match is won, in words."""
        return self.presenter.goal(self)

    def title(self) -> str:
        """The game's title, with its variant and options when not plain."""
        game = self.game
        spec = game.spec()
        name = game.title or game.name
        return name if spec == game.name else f"{name} ({spec})"

    def show_seats(self, players: Sequence[str], labels: Sequence[str] | None = None) -> None:
        """Who sits where, the partnerships and how the match is won (with each player's
        avatar on a real terminal: transcripts and pipes keep their one line).

        The avatars are drawn from ``labels``, the seats' labels (``bot:SPEC``, a person's
        name: see :func:`~tricktable.avatars.avatar_name`), from ``players`` if None; none
        are drawn if it is empty.
        """
        faces = players if labels is None else labels
        if self.console.is_terminal and faces:
            self.show_avatars(players, faces)
        text = Text("Seats: ")
        text.append(" · ".join(f"{self.names[s]}: {p}" for s, p in enumerate(players)))
        self.console.print(text)
        goal = self.goal_text()
        if self.partners:
            teams = " vs ".join(self.side_name(t) for t in range(self.sides))
            self.console.print(f"Teams: {teams}" + (f" ({goal})" if goal else ""))
        elif goal:
            self.console.print(f"Each for themselves; {goal}.")

    def show_avatars(self, players: Sequence[str], labels: Sequence[str] | None = None) -> None:
        """Each seat's generated avatar (small), its seat name and player under it, in a row;
        coloured where the console has colour, ASCII where it has none. The avatars are drawn
        from ``labels`` (``players`` if None) by :func:`~tricktable.avatars.avatar_name`."""
        from rich.table import Table as Grid

        from tricktable.avatars import AvatarError, avatar_name, avatar_text, seat_backgrounds

        colour = self.console.color_system is not None
        names = [avatar_name(label) for label in (players if labels is None else labels)]
        try:
            backs = seat_backgrounds(names)
            faces = [
                avatar_text(name, small=True, color=colour, backdrop=b)
                for name, b in zip(names, backs, strict=True)
            ]
        except AvatarError:
            return  # no drawing library on this machine: the names alone say who sits where
        grid = Grid.grid(padding=(0, 3))
        for _ in players:
            grid.add_column(justify="center")
        grid.add_row(*faces)
        grid.add_row(*(Text(self.names[s], style="bold") for s in range(len(players))))
        grid.add_row(*(Text(p[:16]) for p in players))
        self.console.print(grid)

    # ----------------------------------------------------------------- following a match

    def follow_state(self, state: TrickState) -> None:
        """Follow ``state``'s events (turned on now if they are not); :meth:`catch_up`, or the
        display called as a match loop's listener, shows what came since."""
        log = state.listen()
        seats = self.watchers
        self._follow(_log_reader(log, seats), lambda: state.view(seats[0] if seats else 0))

    def follow_table(self, table: Table) -> None:
        """Follow ``table``: every change it makes is shown at once (the display watches it).

        One watcher reads its seat's stream (``Table.events_since``); several people at one
        keyboard see what any of them may.
        """
        if self._table is table:
            return
        self._table = table
        seats = self.watchers
        log = table.state.events
        assert log is not None  # a table's state listens
        read = _seat_reader(table, seats[0]) if len(seats) == 1 else _log_reader(log, seats)
        self._follow(read, lambda: table.view(seats[0]) if seats else None)
        # Called at every change: the view read with the events is the one right after them.
        table.watch(lambda _: self.catch_up())

    def _follow(self, read: Reader, look: Callable[[], View | None]) -> None:
        """Take in what came before (a resumed match's hands) silently, then show the hand
        in play from its deal, as it would have been shown live: its bidding and its tricks
        so far are what a person resuming needs to see."""
        self._read, self._look = read, look
        events, self._seen = read(0)
        start = _hand_in_play(events)
        self._quiet = True
        try:
            self.show(events[:start], look())
        finally:
            self._quiet = False
        if start < len(events):
            self.show(events[start:], look())

    def catch_up(self) -> None:
        """Show the events that came since the last call (and what a change without any new
        event for the watchers makes due: a private discard ends the bidding)."""
        events, self._seen = self._read(self._seen)
        if self.compact:
            if events:
                self.show(events)
            return
        self.show(events, self._look())

    def __call__(self, state: TrickState, seat: int, action: int) -> None:
        """A match loop's listener (see :meth:`follow_state`): what came with an action."""
        self.catch_up()

    def show(self, events: Iterable[Event], view: View | None = None) -> None:
        """Show ``events``, in order. ``view``, a watcher's view taken with them, gives the
        facts of the hand that no event carries (the new hand's up-card, the declarer)."""
        self._view = view
        self._batch += 1
        for event in events:
            self._take(event)
        self._settle()

    def _take(self, event: Event) -> None:
        """Take in one event (the seat model's fold, :class:`~tricktable.seat.seen.Seen`),
        and show what it says: what a new step makes due first (the hand's banner, the end of
        its bidding) is shown from the hand as it stood before the event."""
        if not isinstance(event, Fault):
            self._fault = None
        hand = self.hand
        if hand is not None and isinstance(event, Acted | CardPlayed | TrickWon | HandScored):
            self._banner()
            if isinstance(event, CardPlayed):
                hand.playing = True
            if isinstance(event, CardPlayed | HandScored):
                self._auction()
            if isinstance(event, TrickWon):
                self._trick(hand, event)  # its plays' seats, before the fold clears the trick
        self.seen.take(event)
        hand = self.hand
        if isinstance(event, HandStarted):
            self._banner_due = not self.compact
            self._auction_shown = False
        elif isinstance(event, Fault):
            self._show_fault(event)
        elif isinstance(event, Chat):
            self._show_chat(event)
        elif hand is None:
            return  # the rest of a hand dealt before anything was followed
        elif isinstance(event, Dealt):
            if not self._banner_due and event.seat in self.reveal:
                self._reveal(hand, event.seat)  # seen late: a blind nil decided
        elif isinstance(event, TrumpNamed):
            if event.seat >= 0 and len(hand.plays) == 1:  # named by the hand's first card
                self._lines(lambda p: p.lead_lines(self, hand, *hand.plays[0]), lambda p: [])
        elif isinstance(event, HandScored):
            self._scored(hand)

    # What the events told, as the seat model folds them.

    @property
    def hand(self) -> HandSeen | None:
        """The hand in play, as its events told it (None before the first deal)."""
        return self.seen.hand

    @property
    def scores(self) -> tuple[int, ...]:
        """The match scores after the last hand scored."""
        return self.seen.scores

    @property
    def hands(self) -> int:
        """How many hands have been scored."""
        return self.seen.hands

    @property
    def last(self) -> HandResult | None:
        """The last hand's result."""
        return self.seen.last

    @property
    def over(self) -> MatchOver | None:
        """The end of the match, once told."""
        return self.seen.over

    @property
    def forfeited(self) -> bool:
        """Whether a forfeit ended the match."""
        return self.seen.forfeited

    def _sync(self) -> HandSeen | None:
        """The hand in play, with the facts of the view given with the events (once a batch)."""
        hand, view = self.hand, self._view
        if hand is None or view is None or view.hand_number != hand.number:
            return hand
        if self._synced == (self._batch, hand.number):
            return hand
        self._synced = (self._batch, hand.number)
        hand.facts = view.info()
        if not hand.opening:
            hand.opening = hand.facts
        hand.tables = view.tables
        if view.phase == PLAY:
            hand.playing = True
        return hand

    def _settle(self) -> None:
        """At the end of some events: the banner of a new hand, the bidding once it is over."""
        hand = self._sync()
        self._banner()
        if hand is not None and hand.playing:
            self._auction()

    def _lines(
        self,
        lines: Callable[[Presenter], list[Words]],
        fallback: Callable[[Presenter], list[Words]],
    ) -> None:
        """Print what the game's presenter says (the generic one's if it fails)."""
        if self._quiet or self.compact:
            return
        self._sync()
        self._print(safely(lambda: lines(self.presenter), lambda: fallback(self.generic)))

    # --------------------------------------------------------------------- the hand

    def _banner(self) -> None:
        """Announce the hand in play (once): number, dealer, deal facts, hands revealed."""
        hand = self.hand
        if not self._banner_due or hand is None:
            return
        self._banner_due = False
        if self._quiet or self.compact:
            return
        hand = self._sync() or hand
        console = self.console
        console.print()
        dealer = verb(self.names[hand.dealer], "deal")
        console.rule(Text(f"Hand {hand.number + 1} · {dealer}", style="bold"))
        self._lines(lambda p: p.deal_lines(self, hand), lambda p: p.deal_lines(self, hand))
        for seat in self.reveal:
            if hand.dealt[seat]:
                self._reveal(hand, seat)

    def _reveal(self, hand: HandSeen, seat: int) -> None:
        if self._quiet or self.compact:
            return
        width = max(len(n) for n in self.names)
        row = Text(f"  {self.names[seat]:<{width}}  ")
        row.append_text(cards_text(cards_in(hand.dealt[seat])))
        self.console.print(row)

    def _auction(self) -> None:
        """The phases before the play (bids, passes, trump made), once, when they are over."""
        hand = self.hand
        if hand is None or self._auction_shown or not hand.acted:
            return
        self._auction_shown = True
        self._lines(lambda p: p.auction_lines(self, hand), lambda p: p.auction_lines(self, hand))

    def show_pending(self) -> None:
        """What waits for the end of a phase: the bidding so far (a hand cut short in it)."""
        self._banner()
        self._auction()

    def _trick(self, hand: HandSeen, event: TrickWon) -> None:
        played = dict((card, seat) for seat, card in hand.trick)
        if self._quiet or self.compact:
            return
        n, step = len(self.names), self.game.step
        plays = [
            (played.get(c, (event.leader + i * step) % n), c) for i, c in enumerate(event.cards)
        ]
        note = safely(lambda: [Words(self.presenter.trick_note(event.points))], list)
        self.show_trick(
            event.number + 1, plays, event.winner, hand.trumps, note[0].plain if note else ""
        )

    def show_trick(
        self,
        number: int,
        plays: Sequence[tuple[int, int]],
        winner: int,
        trumps: int = 0,
        note: str = "",
    ) -> None:
        """One finished trick: its (seat, card) plays in order and who took it."""
        text = Text(f"  {number}. ")
        for i, (seat, card) in enumerate(plays):
            if i:
                text.append(" · ")
            text.append(f"{self.names[seat]} ")
            shown = card_text(card, trumps)
            if seat == winner:
                shown.stylize("underline")
            text.append_text(shown)
        text.append(f"  → {verb(self.names[winner], 'take')} it{note}", style="bold")
        self.console.print(text)

    def _scored(self, hand: HandSeen) -> None:
        if self._quiet:
            return
        if self.compact:
            self._hand_line(hand)
            return
        self._lines(lambda p: p.result_lines(self, hand), lambda p: p.result_lines(self, hand))
        self._lines(lambda p: p.score_lines(self, hand), lambda p: p.score_lines(self, hand))

    def _hand_line(self, hand: HandSeen) -> None:
        """One line for a finished hand (bots alone): what happened, then the scores."""
        values = hand.scores
        scores = " to ".join(map(str, values)) if len(values) == 2 else " ".join(map(str, values))
        text = Text(f"Hand {hand.number + 1:>3}: ")
        body = safely(
            lambda: [self.presenter.hand_line(self, hand)],
            lambda: [self.generic.hand_line(self, hand)],
        )
        text.append_text(rich_text(body[0]))
        text.append(f"  scores {scores}")
        self.console.print(text)

    # ------------------------------------------------------------- around the hands

    def _show_fault(self, event: Fault) -> None:
        """A bot's fault as the referee told it, and its penalty (its detail only to its seat,
        whose own cards it may name)."""
        key = (event.seat, event.fault, event.penalty)
        twin, self._fault = self._fault == key, key  # the copy for the others, after the seat's
        if twin or self._quiet or self.compact or not 0 <= event.seat < len(self.names):
            return
        name = self.names[event.seat]
        who = self.seen.substitutes.get(event.seat, "")
        who = f"the {who.removeprefix('bot:')} bot" if who else "a substitute"
        what = {
            "substitute": f"{who} plays for {name} from now on",
            "forfeit": f"{self.side_name(self.game.team_of(event.seat))} forfeit the match",
            "bad-card": "a bad card: the penalty and a new deal",
        }
        steps = [what.get(p, p) for p in event.penalty.split("+") if p and p != "none"]
        detail = f": {event.detail}" if event.detail else ""
        text = Text(f"  ! {name}'s bot failed ({event.fault}{detail})")
        if steps:
            text.append(": " + "; ".join(steps))
        self.console.print(text, style="yellow")

    def _show_chat(self, event: Chat) -> None:
        if self._quiet or self.compact or not self.show_chat:
            return
        name = self.names[event.seat] if 0 <= event.seat < len(self.names) else "The table"
        text = Text(f"  {verb(name, 'say')}: ", style="bold")
        text.append(event.text, style="")
        self.console.print(text)

    def show_match_end(self) -> bool:
        """The winner (or winners, or none after a forfeit) and the final scores, once the
        match's end has been told; whether it has."""
        over = self.over
        if over is None:
            return False
        sides = self.presenter.winners(self.last, over.winner)
        scores = over.scores
        hands = self.hands
        after = f"after {hands} hand{'s' * (hands != 1)}"
        how = " by forfeit" if self.forfeited else ""
        if len(scores) == 2 and len(sides) == 1:
            final = f"{scores[sides[0]]} to {scores[1 - sides[0]]}"
        else:
            final = self.scores_text(scores)
        text = Text()
        if len(self.humans) == 1 and sides:
            mine = self.game.team_of(self.humans[0])
            if mine not in sides:
                text.append("You lose. ", style="bold")
            else:
                text.append("You win! " if len(sides) == 1 else "You share the win! ", "bold")
        if not sides:
            message = f"The match ended{how} without a winner: {final}, {after}."
        elif len(sides) == 1:
            name = self.side_name(sides[0])
            word = "win" if self.partners or name == "You" else "wins"
            note = self.presenter.win_note()
            message = f"{name} {word} the match{how}{note}, {final}, {after}."
        else:
            names = " and ".join(self.side_name(s) for s in sides)
            message = f"{names} share the win{how}, {final}, {after}."
        text.append(message, style="bold green")
        if len(sides) == 1:  # a side with fewer points may win by the game's rule: why
            why = lambda: [Words(self.presenter.win_reason(self, sides[0], scores))]  # noqa: E731
            reason = safely(why, list)
            if reason and reason[0].plain:
                text.append(" ")
                text.append_text(rich_text(reason[0]))
        self.console.print()
        self.console.print(text)
        return True

    # ------------------------------------------------------------------ a human's turn

    def seat_snapshot(self, view: View) -> dict[str, Any]:
        """The seat model's snapshot of ``view``'s seat (:mod:`tricktable.seat`), in this
        table's names: what a person's turn shows is read from it."""
        return snapshot_of_view(view, seats=self.names, names=self.names)

    def show_situation(self, view: View) -> None:
        """What the seat to act needs to decide: the phase or trick, its hand, its choices."""
        self.show((), view)  # what is due first: a resumed hand's banner, the bidding's end
        console = self.console
        console.print()
        snap = self.seat_snapshot(view)
        hand = snap["hand"] or {}
        self._print(lines_to_rich(hand.get("situation", []), self.names))
        name = self.names[view.seat]
        label = Text("Your hand: " if name == "You" else f"{name}, your hand: ", style="bold")
        cards = hand.get("cards_words", [])
        if not cards and view.phase != PLAY:
            label.append("not looked at yet")
        elif _passing(snap):
            numbered = (line(f"{i + 1}) ", to_rich([c], self.names)) for i, c in enumerate(cards))
            label.append_text(join(numbered, "  "))
        else:
            label.append_text(to_rich(_spaced(cards), self.names))
        console.print(label)
        console.print(self._choices(snap))

    def choices_text(self, view: View) -> Text:
        """The legal actions: numbered cards or choices, the bids, or how to pass cards."""
        return self._choices(self.seat_snapshot(view))

    def _choices(self, snap: dict[str, Any]) -> Text:
        """The legal actions of a seat's snapshot, as :meth:`choices_text` says them."""
        choices = snap["legal"]
        legal = [self.game.parse_action(c["action"]) for c in choices]
        names = self.names
        text = Text("Choices: ", style="bold")
        if _passing(snap):
            count = snap["decision"]["min"]
            hand = [parse_card(c) for c in (snap["hand"] or {}).get("cards", [])[:count]]
            text.append(f"pass {count} cards: type them, like ")
            text.append_text(cards_text(hand))
            text.append(f", or their numbers, like {' '.join(map(str, range(1, count + 1)))}")
            return text
        words = [to_rich(c["words"], names) for c in choices]
        verbs = {c["text"].split()[0] for c in choices if len(c["text"].split()) == 2}
        if len(verbs) == 1 and len(choices) > 1 and "play" not in verbs:
            verb = verbs.pop()  # a discard or a keep, card after card: or several at once
            cards = [c["text"].split()[1] for c in choices if c["text"].startswith(verb + " ")]
            if len(cards) > 1:
                example = " ".join(cards[:2])
                text.append(f"({verb} several at once: {verb} {example} ...) ", style="dim")
        if legal and all(act.is_play(a) for a in legal):
            for i, shown in enumerate(words):
                if i:
                    text.append("  ")
                text.append(f"{i + 1}) ")
                text.append_text(shown)
            text.append("   (a number or a card)", style="dim")
            return text
        bids = [a - act.BID for a in legal if act.is_bid(a)]
        if bids:
            text.append_text(join(words))
            if act.PASS in legal:
                hint = f"   (pass, or a bid like {bids[0]})"
            else:
                hint = f"   (a number: the bid, like {bids[len(bids) // 2]})"
            text.append(hint, style="dim")
            return text
        for i, shown in enumerate(words):
            if i:
                text.append("  ")
            text.append(f"{i + 1}) ")
            text.append_text(shown)
        text.append("   (a number or the words)", style="dim")
        return text

    def show_help(self, view: View) -> None:
        """How to answer, the rules in brief, and the choices now."""
        console = self.console
        console.print(Text("How to answer", style="bold"))
        legal = view.legal_actions()
        if is_passing(legal):
            how = "three cards (2c 3d 4h, 10♦, t♦) or their numbers in your hand (1 5 9)"
        elif legal and all(act.is_play(a) for a in legal):
            how = "a number from the list of cards, or a card: play TD, TD, 10d, t♦, 10♦, JK"
        else:
            names = [self.game.action_name(a) for a in legal[:4]]
            how = "a number from the list, or a choice in words: " + " · ".join(names)
            if any(act.is_bid(a) for a in legal):
                listed = " · ".join(names)
                how = f"a bid (bid 3, or just 3: here a number is always a bid) or {listed}"
        answers = (
            f"{how}\n"
            "#N: choice N of the list, in the order shown (#1 is the first) at any prompt\n"
            "hand: show the table again · hint: what a search bot would play, and why\n"
            "say TEXT: say TEXT at the table (names only cards face up)\n"
            "help or ?: this help · quit: stop (the record is saved)"
        )
        console.print(Padding(answers, (0, 0, 0, 2), expand=False), soft_wrap=False)
        console.print(Text("The rules in brief", style="bold"))
        summary = self.presenter.rules_summary()
        console.print(Padding(summary, (0, 0, 0, 2), expand=False), soft_wrap=False)
        console.print(self.choices_text(view))

    def show_hint(self, view: View, hint: Hint, top: int = 5) -> None:
        """A search bot's advice for the seat's decision: its best ``top`` actions, each with
        its mean value and what stands behind it. The person still chooses."""
        console = self.console
        trumps = view.tables.mask
        head = Text("Hint", style="bold")
        if not hint.choices:
            head.append(f": {hint.bot} searched nothing here")
            if hint.heuristic is not None:
                head.append("; the game's heuristic would choose ")
                head.append_text(rich_text(self.presenter.action_words(hint.heuristic, trumps)))
            console.print(head)
            return
        behind = f"{hint.samples} {'worlds' if hint.unit == 'worlds' else 'iterations'}"
        head.append(f" from {hint.bot} ({behind} in {hint.seconds:.2f} s")
        head.append(f"; {hint.note})" if hint.note else ")")
        head.append(f". Value: {hint.value_text}")
        console.print(head)
        shown = hint.choices[:top]
        words = [rich_text(self.presenter.action_words(c.action, trumps)) for c in shown]
        width = max(len(w) for w in words)
        for rank, (choice, word) in enumerate(zip(shown, words, strict=True)):
            row = Text("  → " if rank == 0 else "    ")
            row.append_text(word)
            row.append(" " * (width - len(word)))
            row.append(f"  {choice.value:+6.2f}", style="bold" if rank == 0 else "")
            if hint.unit != "worlds":  # pimc values every card in every world: said above
                row.append(f"  ({choice.support} {hint.unit})", style="dim")
            console.print(row)
        if len(hint.choices) > top:
            console.print(Text(f"    ... and {len(hint.choices) - top} more", style="dim"))

    def show_error(self, seat: int, text: str, exc: TricktableError) -> None:
        """One line saying why an answer was refused."""
        if isinstance(exc, IllegalAction):
            name = self.names[seat]
            reason = exc.reason
            if name == "You":
                reason = second_person(reason)
            reason = re.sub(r"\bsuit ([CDHS])\b", lambda m: f"suit {_symbol(m.group(1))}", reason)
            message = f"{clip(text)!r} is not legal: {name if name != 'You' else 'you'} {reason}"
        else:
            message = clip_answer(str(exc), text)
        row = Text(f"  ✗ {message}", style="red")
        row.append("  (? for help)", style="dim")
        self.console.print(row)


def _spaced(tokens: Sequence[Token]) -> list[Token]:
    """Tokens with a space between each two (cards in a row)."""
    out: list[Token] = []
    for i, token in enumerate(tokens):
        if i:
            out.append(text_token(" "))
        out.append(token)
    return out


def second_person(reason: str) -> str:
    """An engine reason ("does not hold 2S", "has looked at its cards") said to "you"."""
    for third, second in (("does ", "do "), ("has ", "have "), ("is ", "are ")):
        if reason.startswith(third):
            reason = second + reason[len(third) :]
            break
    return re.sub(r"\bits\b", "your", reason)


def _symbol(letter: str) -> str:
    """A suit letter's symbol: ``H`` -> ``♥``."""
    return SUIT_SYMBOLS[SUITS.index(letter)]


def _hand_in_play(events: Sequence[Event]) -> int:
    """Where the hand in play starts in ``events`` (its ``HandStarted``); their length when
    no hand is in play (none dealt yet, the last one scored, the match over)."""
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        if isinstance(event, HandScored | MatchOver):
            return len(events)
        if isinstance(event, HandStarted):
            return i
    return len(events)


def _seat_reader(table: Table, seat: int) -> Reader:
    """Reading ``seat``'s stream at ``table``, as any client of the table does."""

    def read(n: int) -> tuple[Sequence[Event], int]:
        events = table.events_since(seat, n)
        return events, n + len(events)

    return read


def _log_reader(log: EventLog, seats: Sequence[int]) -> Reader:
    """Reading ``log`` through the eyes of ``seats``: one seat's stream, the events any of
    several may see (in the order of the log), or the spectators' stream for none."""
    if len(seats) == 1:
        seat = seats[0]

        def one(n: int) -> tuple[Sequence[Event], int]:
            events = log.since(seat, n)
            return events, n + len(events)

        return one
    if not seats:

        def public(n: int) -> tuple[Sequence[Event], int]:
            events = log.since(SPECTATOR, n)
            return events, n + len(events)

        return public
    mask = 0
    for seat in seats:
        mask |= 1 << seat

    def some(n: int) -> tuple[Sequence[Event], int]:
        fresh = log.all[n:]
        return [e for e in fresh if e.audience & mask], n + len(fresh)

    return some


def _passing(snap: dict[str, Any]) -> bool:
    """Whether a snapshot's decision is cards to pass (one action names them all)."""
    decision = snap.get("decision") or {}
    return decision.get("kind") == "cards" and decision.get("verb") == "pass"
