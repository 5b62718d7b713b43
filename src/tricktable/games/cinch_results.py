"""The typed hand result of Cinch and its relatives: plain Python beside the compiled rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricktable.cards import SUITS
from tricktable.engine.results import HandResult


@dataclass(slots=True, kw_only=True)
class CinchResult(HandResult):
    """A hand of Cinch or a relative: the contract, who took each point, what it scored.

    A *side* is a partnership (seat s plays for side ``s % sides``) or, each for itself, a
    seat. A hand every seat passed is *thrown in*: no bidder, bid, trump or points.
    """

    #: the seat that won the auction, None when thrown in
    bidder: int | None
    #: the contract, None when thrown in
    bid: int | None
    #: the trump suit (0-3, clubs to spades), None when thrown in
    trump: int | None
    #: by point name, in the variant's order: the side that took it, None when its card was
    #: not in play; empty when thrown in
    points: Mapping[str, int | None]
    #: points of the hand each side took (weighted)
    taken: tuple[int, ...]
    #: whether the bidding side took at least its bid (False when thrown in)
    made: bool = False
    thrown_in: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The record's result: bidder, bid, trump letter, (thrown_in,) points, taken, made,
        scores."""
        out: dict[str, Any] = {
            "bidder": self.bidder,
            "bid": self.bid,
            "trump": SUITS[self.trump] if self.trump is not None else None,
        }
        if self.thrown_in:
            out["thrown_in"] = True
        out["points"] = dict(self.points)
        out["taken"] = list(self.taken)
        out["made"] = self.made
        out["scores"] = list(self.scores)
        return out
