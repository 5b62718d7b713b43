"""Heuristic bots for Tricks and Oh Hell: count the cards seen, win or duck on purpose.

Both see only their seat's :class:`View`. A card is a *master* when no card that another seat
may hold (not in this seat's hand, not played, not the trump card turned up: its
:class:`Knowledge`) outranks it in its suit; a master of trump, or of a suit nobody can ruff,
takes any trick it is played to.

- :class:`TricksHeuristic` wants every trick: it leads masters, then low cards of its longest
  suit (to establish it); it follows with the cheapest card sure to win when it has one, its
  highest card when that wins for now, and its lowest card otherwise; it discards low cards of
  short suits.
- :class:`OhHellHeuristic` bids the tricks it expects (each card scored as the chance that it
  takes a trick), then plays to take exactly that many: while it still needs tricks it plays
  like the Tricks bot (trumping in when void); once it has its bid it ducks, shedding its most
  dangerous cards under the trick's winner.
"""

from __future__ import annotations

from typing import Any

from tricktable.bots.base import Bot
from tricktable.cards import SUIT_MASKS
from tricktable.engine.actions import BID
from tricktable.engine.trick import TrumpTables, View
from tricktable.search.knowledge import Knowledge

#: tricks added to a hand's card chances: BASE, plus SLOPE per card beyond the first
CALIBRATION_BASE = -0.4
CALIBRATION_SLOPE = 0.11
# above[c]: the cards of c's suit that outrank c (by printed rank; trump power agrees).
_ABOVE = [SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52)]


def above(card: int) -> int:
    """The cards of ``card``'s suit that outrank it."""
    return _ABOVE[card]


class Seen:
    """What one seat knows at one decision: its hand, the cards still unseen, the trick."""

    def __init__(self, view: View) -> None:
        self.seat = view.seat
        self.hand = view.hand
        #: the cards other seats may hold (a trump card turned up is in no hand)
        self.unseen = Knowledge(view).others
        self.trick = view.trick
        self.tables: TrumpTables = view.tables
        #: strength of the card winning the trick so far (-1 when leading)
        self.best = -1
        self.led = 0
        if self.trick:
            tables = self.tables
            self.led = tables.suit_mask[self.trick[0][1]]
            for _seat, card in self.trick:
                power = tables.power[card]
                if power < 100 and not self.led >> card & 1:
                    power = -1
                self.best = max(self.best, power)
        self.last = len(self.trick) == 3

    def power(self, card: int) -> int:
        """The strength ``card`` would have in the trick in play (-1 if it cannot win)."""
        power = self.tables.power[card]
        if self.trick and power < 100 and not self.led >> card & 1:
            return -1
        return power

    def wins_now(self, card: int) -> bool:
        """Whether ``card`` would head the trick as it stands."""
        return self.power(card) > self.best

    def is_master(self, card: int) -> bool:
        """Whether no unseen card of its suit outranks ``card``."""
        return not self.unseen & _ABOVE[card]

    def is_safe(self, card: int) -> bool:
        """Whether ``card`` takes the trick whatever the later seats hold (as far as we know)."""
        if not self.wins_now(card):
            return False
        if self.last:
            return True
        if not self.is_master(card):
            return False
        trumps = self.tables.mask
        if trumps and not trumps >> card & 1 and self.unseen & trumps:
            # A side master may be ruffed; trust it only early in its suit's life.
            return (self.unseen & SUIT_MASKS[card // 13]).bit_count() >= 3
        return True

    def suit_length(self, card: int) -> int:
        """How many cards of ``card``'s suit the seat holds."""
        return (self.hand & SUIT_MASKS[card // 13]).bit_count()


def _low(cards: list[int], seen: Seen) -> int:
    """The weakest card: lowest strength, from the shortest suit."""
    return min(cards, key=lambda c: (seen.tables.power[c], seen.suit_length(c), c))


def _high(cards: list[int], seen: Seen) -> int:
    """The strongest card."""
    return max(cards, key=lambda c: (seen.tables.power[c], c))


def play_to_win(legal: list[int], seen: Seen) -> int:
    """The card that gives the seat the best chance of the trick, cheaply."""
    trumps = seen.tables.mask
    if not seen.trick:
        safe = [c for c in legal if seen.is_safe(c)]
        if safe:
            side = [c for c in safe if not trumps >> c & 1]
            return _low(side or safe, seen)
        side = [c for c in legal if not trumps >> c & 1] or legal
        longest = max(seen.suit_length(c) for c in side)
        return _low([c for c in side if seen.suit_length(c) == longest], seen)
    winners = [c for c in legal if seen.wins_now(c)]
    if not winners:
        return _low(legal, seen)
    safe = [c for c in winners if seen.is_safe(c)]
    if safe:
        return _low(safe, seen)
    return _high(winners, seen)


def play_to_lose(legal: list[int], seen: Seen) -> int:
    """The card most likely to leave the trick to someone else, shedding danger."""
    trumps = seen.tables.mask
    if not seen.trick:
        # Lead the card the most unseen cards can beat.
        def risk(c: int) -> tuple[int, int, int]:
            beaters = (seen.unseen & _ABOVE[c]).bit_count()
            return (bool(trumps >> c & 1), -beaters, seen.tables.power[c])

        return min(legal, key=risk)
    losers = [c for c in legal if not seen.wins_now(c)]
    if losers:
        return _high(losers, seen)
    if seen.last:
        return _high(legal, seen)
    return _low(legal, seen)


class TricksHeuristic(Bot):
    """Tricks by counting cards: take every trick it can, as cheaply as it can."""

    name = "heuristic"

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return play_to_win(legal, Seen(view))


def trick_estimate(hand: int, trump: int, size: int) -> float:
    """Expected tricks of a hand of ``size`` cards with ``trump`` (-1: none), before play.

    Each card counts as its chance of a trick: that no other seat was dealt a card of its
    suit that outranks it (each unseen card sits with another seat with chance ``share``),
    with some credit for guarded high cards and for small trumps that can ruff, and a
    discount for side cards that may be ruffed.
    """
    share = min(3 * size / (52 - size), 1.0)
    total = 0.0
    for suit in range(4):
        cards = [c for c in range(suit * 13, suit * 13 + 13) if hand >> c & 1]
        if not cards:
            continue
        length = len(cards)
        for i, card in enumerate(reversed(cards)):  # highest first
            higher = (_ABOVE[card] & ~hand).bit_count()
            p = (1 - share) ** higher
            if higher and length - i - 1 >= higher:
                p = max(p, 0.55 - 0.1 * higher)  # guarded: it wins once the higher cards fall
            if suit == trump:
                p = max(p, 0.25 if size >= 4 else 0.1)
            elif trump >= 0:
                p *= (0.9, 0.7, 0.4, 0.2)[min(i, 3)] if size >= 5 else 0.8
            total += p
    # Calibrated on self-play: the card chances undercount long hands and overcount short ones.
    total += CALIBRATION_SLOPE * (size - 1) + CALIBRATION_BASE
    return min(max(total, 0.0), float(size))


class OhHellHeuristic(Bot):
    """Oh Hell: bid the tricks the hand is expected to take, then take exactly that many."""

    name = "heuristic"

    def __init__(self, boldness: float = 0.0) -> None:
        #: style, for characters: tricks added to the bid's estimate (0.0: the plain heuristic)
        self.boldness = boldness

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        info: dict[str, Any] = view.info()
        if legal[0] >= BID:
            return self._bid(view, legal, info)
        seen = Seen(view)
        bid = info["bids"][view.seat]
        need = (bid or 0) - view.tricks_won[view.seat]
        if need > 0:
            return play_to_win(legal, seen)
        return play_to_lose(legal, seen)

    def _bid(self, view: View, legal: list[int], info: dict[str, Any]) -> int:
        size = int(info["hand_size"])
        est = trick_estimate(view.hand, view.trump, size)
        if self.boldness:
            est += self.boldness
        # The nearest legal bid (the hook may bar one), the rounder side first.
        return min(legal, key=lambda a: (abs(a - BID - est), a))
