"""Oh Hell: bid the exact number of tricks you will take, with a hand size that changes each deal.

Four players each for themselves, 52 cards. The hand sizes follow ``sequence`` (by default
13 down to 1 and back up to 13); the top card of the undealt stock is turned up and names
trump (a hand of 13 each leaves no stock, and is played without trump). Each seat bids once,
from the left of the dealer; with ``hook`` the dealer may not make the bids add up to the
number of tricks. The seat left of the dealer leads; suit must be followed, and a seat that
cannot follow may trump or discard. A made bid scores by ``scoring``. The match ends after the
last hand of the sequence; the highest total wins, and equal totals share the win.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from tricktable.cards import card_name
from tricktable.engine.actions import BID
from tricktable.engine.trick import (
    AUCTION,
    NO_TRUMP,
    PLAY,
    Game,
    TrickState,
    TrumpTables,
    trump_tables,
)
from tricktable.errors import OptionError
from tricktable.games.oh_hell_options import HandSequence, OhHellOptions, Scoring
from tricktable.games.oh_hell_results import OhHellResult

__all__ = [
    "SHARED",
    "HandSequence",
    "OhHell",
    "OhHellOptions",
    "OhHellState",
    "Scoring",
    "hand_points",
    "hand_sizes",
    "match_winners",
]

#: ``state.winner`` when the highest total is shared (``state.winners`` lists the seats)
SHARED: Final = -1


def hand_sizes(sequence: str, max_cards: int) -> tuple[int, ...]:
    """The hand size of every deal of a match, in order.

    >>> hand_sizes("down-up", 3)
    (3, 2, 1, 2, 3)
    """
    up = tuple(range(1, max_cards + 1))
    down = up[::-1]
    if sequence == "down-up":
        return down + up[1:]
    if sequence == "up-down":
        return up + down[1:]
    if sequence == "down":
        return down
    if sequence == "up":
        return up
    raise OptionError(f"unknown sequence {sequence!r}; valid: down-up, up-down, down, up")


def hand_points(bid: int, tricks: int, scoring: str) -> int:
    """What one seat scores for a hand: its bid, the tricks it took, the scoring option.

    >>> hand_points(2, 2, "standard"), hand_points(2, 3, "standard"), hand_points(2, 0, "minus")
    (12, 0, -2)
    """
    made = bid == tricks
    if scoring == "basic":
        return tricks + (10 if made else 0)
    if made:
        return 10 + bid
    if scoring == "minus":
        return -abs(bid - tricks)
    return 0


def match_winners(scores: list[int]) -> list[int]:
    """The seats with the highest total (more than one when it is shared)."""
    top = max(scores)
    return [seat for seat, score in enumerate(scores) if score == top]


class OhHellState(TrickState):
    """An Oh Hell match: deal, turn the trump card, one round of bids, tricks, exact scoring."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, OhHell)
        self.sizes: tuple[int, ...] = game.sizes
        self.trumps: tuple[TrumpTables, ...] = game.trumps
        self.bid_masks: tuple[tuple[int, ...], ...] = game.bid_masks
        self.hook: bool = game.options.hook
        self.scoring: str = game.options.scoring
        #: each seat's bid this hand, -1 until it has bid
        self.bids: list[int] = [-1] * self.n
        #: the turned-up card naming trump, -1 when the whole deck is dealt
        self.up_card = -1
        #: the seats that share the win when ``winner`` is ``SHARED``
        self.winners: list[int] = []

    def _deal_size(self) -> int:
        sizes = self.sizes
        return sizes[min(len(self.history), len(sizes) - 1)]

    def _stock_used(self) -> int:
        # Only the up-card of the stock matters; the rest need not be shuffled.
        return 1 if len(self.game.deck) > self.n * self.hand_size else 0

    def _start_hand(self) -> None:
        self.phase = AUCTION
        self.to_act = (self.dealer + self.step) % self.n
        self.bids = [-1] * self.n
        if self.stock:
            self.up_card = self.stock[0]
            self.tables = self.trumps[self.up_card // 13]
        else:
            self.up_card = -1
            self.tables = NO_TRUMP

    def _barred(self) -> int:
        """The bid the hook rule bars now (the seat to act is the dealer), or -1 for none."""
        if not self.hook or self.to_act != self.dealer:
            return -1
        size = self.hand_size
        barred = size - (sum(self.bids) + 1)  # the dealer's own -1 is in the sum
        return barred if 0 <= barred <= size else -1

    def _other_legal(self) -> int:
        # Bid codes pass 63 bits: the masks are made once, by hand size and barred bid.
        return self.bid_masks[self.hand_size][self._barred() + 1]

    def _apply_other(self, action: int) -> None:
        seat = self.to_act
        self.bids[seat] = action - BID
        if seat == self.dealer:
            self.phase = PLAY
        self.to_act = (seat + self.step) % self.n

    def _score_hand(self) -> OhHellResult:
        points = [
            hand_points(bid, tricks, self.scoring)
            for bid, tricks in zip(self.bids, self.tricks_won, strict=True)
        ]
        for seat, change in enumerate(points):
            self.scores[seat] += change
        winners: tuple[int, ...] | None = None
        if len(self.history) >= len(self.sizes):
            self.winners = match_winners(self.scores)
            self.winner = self.winners[0] if len(self.winners) == 1 else SHARED
            winners = tuple(self.winners)
        trump = self.tables.suit
        return OhHellResult(
            hand_size=self.hand_size,
            up_card=self.up_card if self.up_card >= 0 else None,
            trump=trump if trump >= 0 else None,
            bids=tuple(self.bids),
            tricks=tuple(self.tricks_won),
            points=tuple(points),
            scores=tuple(self.scores),
            winners=winners,
        )

    def _explain(self, action: int) -> str:
        size = self.hand_size
        if self.phase == AUCTION:
            if not BID <= action < BID + 64:
                return "must bid (bid N) before the cards are played"
            n = action - BID
            if n > size:
                return f"must bid from 0 to {size}, the cards in hand"
            if self.hook and self.to_act == self.dealer:
                return (
                    f"as dealer may not bid {n}: the bids would total the {size} "
                    f"trick{'s' * (size != 1)} (hook rule)"
                )
            return "may not bid now"
        if not 0 <= action < 64:
            return "must play a card, the bidding is over"
        return self._explain_play(action)

    def _clone_extra(self, other: TrickState) -> None:
        # Compiled, a state has no __dict__ for clone() to copy: every field a game adds and
        # changes during a match is copied here.
        assert isinstance(other, OhHellState)
        other.bids = self.bids[:]
        other.winners = self.winners[:]
        other.up_card = self.up_card

    def _view_extra(self, seat: int) -> dict[str, Any]:
        return {
            "hand_size": self.hand_size,
            "up_card": card_name(self.up_card) if self.up_card >= 0 else None,
            "bids": [b if b >= 0 else None for b in self.bids],
        }


@mypyc_attr(allow_interpreted_subclasses=True)
class OhHell(Game):
    """Oh Hell: exact bids, changing hand sizes, trump turned up from the stock."""

    name = "oh-hell"
    family = "Whist"
    title = "Oh Hell"
    summary = "52 cards, hands 13 down to 1 and up again, trump turned up, bid exactly, hook"
    Options = OhHellOptions
    State = OhHellState
    records_stock = True
    heuristic_bot = "tricktable.bots.tricks_heuristic:OhHellHeuristic"
    presenter = "tricktable.seat.games.oh_hell:OhHellPresenter"
    statistics = "tricktable.stats.oh_hell:OhHellStats"
    seat_counts = (3, 4, 5, 6, 7)

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        opts = options if options is not None else OhHellOptions()
        super().__init__(opts, preset, baseline)
        # Set on the instance, not as a class attribute: the compiled (mypyc) engine reads
        # the instance slot and would not see a class-level override.
        self.num_scores = self.num_players  # each for itself
        self.sizes = hand_sizes(opts.sequence, opts.max_cards)
        # The game's tables are tuples: every match of the game shares them, and bots reach
        # them through ``view.game``.
        self.trumps = tuple([trump_tables(s, [s * 13 + r for r in range(13)]) for s in range(4)])
        # The legal bids by hand size (0..13) and barred bid (index 0: none; b + 1: bid b).
        bid_masks: list[tuple[int, ...]] = []
        for size in range(14):
            full = ((1 << (size + 1)) - 1) << BID
            masks = [full] + [full & ~(1 << (BID + barred)) for barred in range(size + 1)]
            bid_masks.append(tuple(masks))
        self.bid_masks = tuple(bid_masks)

    def _hand_size(self) -> int:
        # The largest hand: what a seat may hold at most (the size of each deal varies).
        return int(self.options.max_cards)


GAME = OhHell
