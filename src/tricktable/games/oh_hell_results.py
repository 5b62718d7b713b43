"""The typed hand result of Oh Hell: plain Python beside the compiled rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricktable.cards import SUITS, card_name
from tricktable.engine.results import HandResult


@dataclass(slots=True, kw_only=True)
class OhHellResult(HandResult):
    """A hand of Oh Hell: its size and trump, each seat's bid, tricks and points.

    The last hand of the match also names the ``winners``: the seats with the top total.
    """

    #: cards dealt to each seat
    hand_size: int
    #: the card turned for trump, None when none was (every card dealt, or no-trump hands)
    up_card: int | None
    #: the trump suit (0-3), None for a hand without trump
    trump: int | None
    #: each seat's bid
    bids: tuple[int, ...]
    #: tricks each seat took
    tricks: tuple[int, ...]
    #: each seat's score change
    points: tuple[int, ...]
    #: the seats with the top total once the match is over (several share the win), else None
    winners: tuple[int, ...] | None = None

    def shared_win(self) -> tuple[int, ...]:
        """The seats sharing the win: the winners when more than one has the top total."""
        winners = self.winners
        return winners if winners is not None and len(winners) > 1 else ()

    def to_dict(self) -> dict[str, Any]:
        """The record's result: hand_size, up_card, trump, bids, tricks, points, scores, winners.

        ``winners`` only in the match's last hand.
        """
        out: dict[str, Any] = {
            "hand_size": self.hand_size,
            "up_card": card_name(self.up_card) if self.up_card is not None else None,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "points": list(self.points),
            "scores": list(self.scores),
        }
        if self.winners is not None:
            out["winners"] = list(self.winners)
        return out
