"""One viewer's reading of its event stream: where it has read to, and what it has read.

Every door that tells a seat what happened — the stdio conversation, the HTTP adapters, the
characters' talk — reads the seat's stream (or the spectators') a little at a time: at each
question, at the end of a hand, after each step. A :class:`SeatStream` keeps that place and
hands out the events not read yet, and as it hands out each one it folds it into the tallies
a door tells from: the hand, its tricks and plays, the seat's cards, the actions it was told,
trump and the scores. A door reads a tally right after an event and finds it counted; none of
them keeps a count of its own.

A reader knows what its stream told it, no more: a stream that began in the middle of a hand
(a resumed match, whose state began listening then) counts that hand's tricks, plays and
actions from where it joined (:meth:`SeatStream.news`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Final

from tricktable.engine import actions as act
from tricktable.engine.events import (
    SPECTATOR,
    Acted,
    CardPlayed,
    Dealt,
    Event,
    HandChanged,
    HandScored,
    HandStarted,
    MatchOver,
    PassReceived,
    TrickWon,
    TrumpNamed,
)

if TYPE_CHECKING:
    from tricktable.engine.game import Game
    from tricktable.engine.view import View

__all__ = ["SPECTATOR", "SeatStream", "hand_start"]

#: no trump named, no trick led, no hand dealt yet
NONE: Final = -1


class SeatStream:
    """A viewer's place in its event stream and the tallies of what it has read.

    ``viewer`` is a seat, or :data:`SPECTATOR`; ``start`` the position to read from (a
    reader that comes late and leaves the past alone), ``scores`` the match scores then.

    The tallies, read-only to a door, each as of the last event handed out:

    - ``hand``, ``dealer``: the hand in play (or last played) and its dealer (-1: none yet);
      ``hand_open``: dealt and not yet scored; ``joined``: its start was not in the stream.
    - ``trump``: the suit (0..3), or -1 until one is named.
    - ``tricks``: tricks finished this hand (the one in play is number ``tricks``);
      ``trick``: the (seat, card) pairs of the trick in play, ``leader`` its first seat (-1:
      none led); ``tricks_won``: tricks each seat took this hand; ``plays``: cards played.
    - ``known``: the viewer's own cards, as dealt, changed (a pass, an up-card, a draw) and
      played from.
    - ``actions``: the (seat, action) pairs the viewer was told this hand, cards included,
      each once; ``received``: the cards passed to the viewer this hand, by giver.
    - ``scores``: the match scores after the last hand scored (or the match's end);
      ``gained``: what each side's score moved by in that last hand.
    """

    def __init__(
        self,
        game: Game,
        viewer: int = SPECTATOR,
        start: int = 0,
        scores: Sequence[int] | None = None,
    ) -> None:
        self.viewer = viewer
        self.n = game.num_players
        #: how many events of the stream have been handed out (or passed over)
        self.position = start
        self.scores: tuple[int, ...] = (
            tuple(scores) if scores is not None else (0,) * game.num_scores
        )
        self.gained: tuple[int, ...] = (0,) * len(self.scores)
        self.hand = NONE
        self.dealer = NONE
        self.hand_open = False
        self.joined = False
        self._new_hand()

    def _new_hand(self) -> None:
        """Forget the hand's tallies: a hand begins (or is joined)."""
        self.trump = NONE
        self.tricks = 0
        self.leader = NONE
        self.trick: list[tuple[int, int]] = []
        self.tricks_won = [0] * self.n
        self.plays = 0
        self.known = 0
        self.actions: list[tuple[int, int]] = []
        self.received: dict[int, int] = {}

    # ------------------------------------------------------------------------ reading

    def read(self, events: Sequence[Event]) -> Iterator[Event]:
        """The events of ``events`` (the whole stream so far) not read yet, every one.

        The place moves to the stream's end at once; each event is folded into the tallies
        as it is handed out, so a door that stops early leaves them behind its place.
        """
        return self._hand_out(self._unread(events))

    def news(self, view: View) -> Iterator[Event]:
        """The events of ``view.events`` not read yet, from the start of the view's hand on.

        What is left of a hand earlier than the view's is past: passed over, only its scores
        kept. A stream that began in the view's hand (a resumed match) joins it at once —
        ``hand`` is the view's when this returns — from what the view holds of its fixed
        facts: dealer, trump, the seat's cards. Otherwise, as :meth:`read`.
        """
        fresh = self._unread(view.events)
        if view.hand_number != self.hand:
            start = hand_start(fresh)
            if start >= 0:
                for event in fresh[:start]:
                    if isinstance(event, HandScored | MatchOver):
                        self.take(event)
                fresh = fresh[start:]
            else:
                self._join(view)
        return self._hand_out(fresh)

    def _unread(self, events: Sequence[Event]) -> list[Event]:
        fresh = events[self.position :]  # a list from a list and from a view's window
        self.position = len(events)
        return fresh if isinstance(fresh, list) else list(fresh)

    def _hand_out(self, events: list[Event]) -> Iterator[Event]:
        for event in events:
            self.take(event)
            yield event

    def _join(self, view: View) -> None:
        self.hand = view.hand_number
        self.dealer = view.dealer
        self.hand_open = True
        self.joined = True
        self._new_hand()
        self.trump = view.trump
        self.known = view.hand

    # ------------------------------------------------------------------------ the fold

    def take(self, event: Event) -> None:
        """Fold one event into the tallies (what reading does with each it hands out)."""
        # The commonest first: a card, then a trick won.
        if isinstance(event, CardPlayed):
            seat, card = event.seat, event.card
            if not self.trick:
                self.leader = seat
            self.trick.append((seat, card))
            self.plays += 1
            self.actions.append((seat, card))
            if seat == self.viewer:
                self.known &= ~(1 << card)
        elif isinstance(event, TrickWon):
            self.tricks += 1
            self.tricks_won[event.winner] += 1
            self.trick = []
            self.leader = NONE
        elif isinstance(event, Acted):
            seat, action = event.seat, event.action
            # The last pass of a passing reaches its receiver twice: as the cards it was
            # given, then as the giver's action. It is one action.
            if not (
                action >= act.PASS_CARDS and self.received.get(seat) == action ^ act.PASS_CARDS
            ):
                self.actions.append((seat, action))
        elif isinstance(event, Dealt | HandChanged):
            if event.seat == self.viewer:
                self.known = event.cards
        elif isinstance(event, PassReceived):
            self.received[event.giver] = event.cards
            self.actions.append((event.giver, act.PASS_CARDS | event.cards))
        elif isinstance(event, TrumpNamed):
            self.trump = event.suit
        elif isinstance(event, HandStarted):
            self.hand = event.hand
            self.dealer = event.dealer
            self.hand_open = True
            self.joined = False
            self._new_hand()
        elif isinstance(event, HandScored | MatchOver):
            if isinstance(event, HandScored):
                before = self.scores
                self.gained = tuple(a - b for a, b in zip(event.scores, before, strict=False))
            self.scores = event.scores
            # A hand thrown in (Tricks' bad card) or cut short by the match's end leaves
            # no trick in play.
            self.hand_open = False
            self.trick = []
            self.leader = NONE


def hand_start(events: Sequence[Event]) -> int:
    """Where the last hand begins in ``events`` (its ``HandStarted``), or -1."""
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], HandStarted):
            return i
    return NONE
