"""The typed hand result of Euchre: plain Python beside the compiled rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricktable.cards import SUITS, card_name
from tricktable.engine.results import HandResult


@dataclass(slots=True, kw_only=True)
class EuchreResult(HandResult):
    """A hand of Euchre: who made trump and how, the tricks and the points by partnership.

    Sides are the partnerships, 0 (seats 0 and 2) and 1 (seats 1 and 3); in cut-throat Euchre
    (three seats) every seat is a side. A hand every seat passed twice is *thrown in*: no
    maker, trump or round, and nobody scores.
    """

    #: the seat that made trump, None when thrown in
    maker: int | None
    #: the trump suit (0-3), None when thrown in
    trump: int | None
    #: whether the maker went alone
    alone: bool
    #: the round of making trump: 1 ordered up, 2 named; None when thrown in
    bidding_round: int | None
    #: the card turned up
    up_card: int
    #: whether the makers took fewer than three tricks
    euchred: bool
    #: tricks each side took
    tricks: tuple[int, ...]
    #: points each side scored
    points: tuple[int, ...]
    thrown_in: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The record's result: maker, trump, alone, round, up_card, euchred, tricks, points...

        A hand thrown in has ``thrown_in`` (after ``alone``) instead of ``round`` and ``euchred``.
        """
        out: dict[str, Any] = {
            "maker": self.maker,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "alone": self.alone,
        }
        if self.thrown_in:
            out["thrown_in"] = True
        else:
            out["round"] = self.bidding_round
        out["up_card"] = card_name(self.up_card)
        if not self.thrown_in:
            out["euchred"] = self.euchred
        out["tricks"] = list(self.tricks)
        out["points"] = list(self.points)
        out["scores"] = list(self.scores)
        return out
