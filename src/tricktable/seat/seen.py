"""What a viewer has seen of a match, folded from its event stream: the hand in play (or the
last one) as a :class:`~tricktable.seat.games.base.HandSeen`, the scores, the end.

The terminal table shows events as they come; a snapshot needs the same facts at once. Both
fold the same stream the same way (:meth:`Seen.take`), so neither works anything out from a
state: what a viewer's stream does not hold, it has not seen.
"""

from __future__ import annotations

from collections.abc import Iterable

from tricktable.cards import mask_of
from tricktable.engine.events import (
    Acted,
    CardPlayed,
    Dealt,
    Event,
    Forfeited,
    HandScored,
    HandStarted,
    MatchOver,
    PassReceived,
    Substituted,
    TrickWon,
    TrumpNamed,
)
from tricktable.engine.results import HandResult
from tricktable.seat.games.base import HandSeen

#: the kinds of event whose news outlives its hand (besides a hand's score)
_LASTING = frozenset({"match_over", "forfeited", "substituted"})


class Seen:
    """A viewer's match so far, from its events: the hand (``hand``), the match scores after
    the last hand scored, how many were, the last result, the end, the substitutes."""

    def __init__(self, seats: int, sides: int) -> None:
        self.seats = seats
        #: the hand in play or the last one (None before the first deal)
        self.hand: HandSeen | None = None
        self.scores: tuple[int, ...] = (0,) * sides
        self.hands = 0
        self.last: HandResult | None = None
        self.over: MatchOver | None = None
        self.forfeited = False
        self.substitutes: dict[int, str] = {}

    def take_all(self, events: Iterable[Event]) -> Seen:
        """Take in ``events`` in order; this fold. Of the hands before the last, only what
        outlives a hand is read (the scores, the end, the substitutes): a snapshot late in a
        long match folds one hand, not all."""
        events = list(events)
        start = hand_start(events)
        for event in events[:start]:
            kind = event.kind
            if kind == "hand_scored":
                assert isinstance(event, HandScored)
                self.scores = event.scores
                self.hands = event.hand + 1
                self.last = event.result
            elif kind in _LASTING:
                self.take(event)
        for event in events[start:]:
            self.take(event)
        return self

    def take(self, event: Event) -> None:
        """Take in one event."""
        hand = self.hand
        if isinstance(event, HandStarted):
            self.hand = HandSeen(event.hand, event.dealer, self.seats, self.scores)
        elif isinstance(event, MatchOver):
            self.over = event
        elif isinstance(event, Forfeited):
            self.forfeited = True
        elif isinstance(event, Substituted):
            self.substitutes[event.seat] = event.player
        elif hand is None:
            return
        elif isinstance(event, Dealt):
            hand.dealt[event.seat] = event.cards
        elif isinstance(event, PassReceived):
            hand.received[event.giver] = event.cards
        elif isinstance(event, TrumpNamed):
            hand.trump = event.suit
        elif isinstance(event, Acted):
            hand.acted.append((event.seat, event.action))
        elif isinstance(event, CardPlayed):
            hand.playing = True
            hand.plays.append((event.seat, event.card))
            hand.trick.append((event.seat, event.card))
        elif isinstance(event, TrickWon):
            hand.won[event.winner] |= mask_of(event.cards)
            hand.trick = []
        elif isinstance(event, HandScored):
            hand.result = event.result
            hand.scores = self.scores = event.scores
            self.hands = event.hand + 1
            self.last = event.result


def hand_start(events: list[Event]) -> int:
    """Where the last hand begins in ``events`` (its ``HandStarted``), or 0."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind == "hand_started":
            return i
    return 0
