"""The typed hand result of Spades: plain Python beside the compiled rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricktable.engine.results import HandResult


def bid_text(bid: int, blind: bool) -> int | str:
    """A bid as results and views show it: a number, ``"nil"`` or ``"blind-nil"``."""
    if bid:
        return bid
    return "blind-nil" if blind else "nil"


@dataclass(frozen=True, slots=True)
class Nil:
    """A nil bid of a hand: its seat, whether it was blind, whether it was made."""

    seat: int
    blind: bool
    made: bool

    def to_dict(self) -> dict[str, Any]:
        """``{"seat", "blind", "made"}``."""
        return {"seat": self.seat, "blind": self.blind, "made": self.made}


@dataclass(slots=True, kw_only=True)
class SpadesResult(HandResult):
    """A hand of Spades: bids and tricks by seat; contracts, points and bags by partnership.

    Sides are the partnerships, 0 (seats 0 and 2) and 1 (seats 1 and 3); in cut-throat
    Spades (three seats) every seat is a side of its own.
    """

    #: each seat's bid: tricks, 0 for nil (``blind`` says which nils were blind)
    bids: tuple[int, ...]
    #: whether each seat bid blind nil
    blind: tuple[bool, ...]
    #: tricks each seat took
    tricks: tuple[int, ...]
    #: each side's contract: the sum of its partners' bids
    contracts: tuple[int, ...]
    #: whether each side made its contract; None for a side that bid no tricks
    made: tuple[bool | None, ...]
    #: each side's score change (nils, contract, bag penalty)
    points: tuple[int, ...]
    #: the bag penalty each side paid this hand (0 or negative)
    bag_penalties: tuple[int, ...]
    #: the bags each side carries after the hand
    bags: tuple[int, ...]

    @property
    def nils(self) -> tuple[Nil, ...]:
        """The hand's nil bids, by seat."""
        return tuple(
            Nil(s, self.blind[s], self.tricks[s] == 0)
            for s in range(len(self.bids))
            if self.bids[s] == 0
        )

    def bid_texts(self) -> list[int | str]:
        """The bids as results show them: numbers, ``"nil"`` and ``"blind-nil"``."""
        return [bid_text(b, blind) for b, blind in zip(self.bids, self.blind, strict=True)]

    def to_dict(self) -> dict[str, Any]:
        """The record's result: bids (as text), tricks, contracts, made, nils, points, bags."""
        return {
            "bids": self.bid_texts(),
            "tricks": list(self.tricks),
            "contracts": list(self.contracts),
            "made": list(self.made),
            "nils": [nil.to_dict() for nil in self.nils],
            "points": list(self.points),
            "bag_penalties": list(self.bag_penalties),
            "bags": list(self.bags),
            "scores": list(self.scores),
        }
