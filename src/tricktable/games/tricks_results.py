"""The typed hand result of Tricks: plain Python beside the compiled rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricktable.engine.results import HandResult


@dataclass(slots=True, kw_only=True)
class TricksResult(HandResult):
    """A hand of Tricks: who led, tricks and points by seat, or the bad card that threw it in.

    A hand can end early: on a bad card (thrown in, and dealt again by the same dealer), or on
    the trick that brings a seat to the target.
    """

    #: the seat that led the first trick
    leader: int
    #: tricks each seat took
    tricks: tuple[int, ...]
    #: each seat's score change: its tricks, less a bad card's penalty
    points: tuple[int, ...]
    #: the seat that played a bad card, or None
    bad_card: int | None

    @property
    def thrown_in(self) -> bool:
        """Whether a bad card threw the hand in."""
        return self.bad_card is not None

    def to_dict(self) -> dict[str, Any]:
        """The record's result: leader, tricks, points, bad_card, thrown_in, scores."""
        return {
            "leader": self.leader,
            "tricks": list(self.tricks),
            "points": list(self.points),
            "bad_card": self.bad_card,
            "thrown_in": self.bad_card is not None,
            "scores": list(self.scores),
        }
