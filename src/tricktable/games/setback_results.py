"""The typed hand result of Setback and the Pitch family: plain Python beside the compiled rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricktable.cards import SUITS
from tricktable.engine.results import HandResult


@dataclass(slots=True, kw_only=True)
class SetbackResult(HandResult):
    """A hand of Setback or a Pitch variant: the contract, who earned each point, what it scored.

    A *side* is a partnership (0 = seats 0 and 2) or, cut-throat, a seat. A hand every seat
    passed, in a variant that then redeals, is *thrown in*: no declarer, bid, trump or points,
    and nobody scores. A *moon* is a bid to take every point; a moon or a smudge made may win
    the match *outright*.
    """

    #: the seat that won the auction (or was stuck), None when thrown in
    declarer: int | None
    #: the contract, None when thrown in
    bid: int | None
    #: the trump suit (0-3, clubs to spades), None when thrown in
    trump: int | None
    #: by point name, in the variant's order: the side that earned it, None when its card was
    #: not dealt (or, for Game, tied); empty when thrown in
    points: Mapping[str, int | None]
    #: points of the hand each side took (weighted by the variant's point values)
    taken: tuple[int, ...]
    thrown_in: bool = False
    #: whether the contract was a moon (``bid`` is then ``max_bid`` + 1)
    moon: bool = False
    #: whether the hand won the match outright (a moon or a smudge made)
    outright: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The record's result: declarer, bid, trump letter, (thrown_in,) points, taken, scores."""
        out: dict[str, Any] = {
            "declarer": self.declarer,
            "bid": self.bid,
            "trump": SUITS[self.trump] if self.trump is not None else None,
        }
        if self.thrown_in:
            out["thrown_in"] = True
        # Written only when true: the records of games without moons keep their shape.
        if self.moon:
            out["moon"] = True
        if self.outright:
            out["outright"] = True
        out["points"] = dict(self.points)
        out["taken"] = list(self.taken)
        out["scores"] = list(self.scores)
        return out
