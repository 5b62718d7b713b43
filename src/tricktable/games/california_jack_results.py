"""The typed hand result of California Jack and Shasta Sam: plain Python beside the compiled
rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricktable.cards import SUITS, card_name
from tricktable.engine.results import HandResult


@dataclass(slots=True, kw_only=True)
class CaliforniaJackResult(HandResult):
    """A hand of California Jack: the trump card turned, who won each point, what each side
    took. A *side* is a seat, or at four seats in partnership a pair (0 = seats 0 and 2).
    """

    #: the trump suit (0-3, clubs to spades)
    trump: int
    #: the card whose suit made trump: the stock's top card after the deal
    trump_card: int
    #: by point name, in scoring order: the side that won it, None for a tied Game
    points: Mapping[str, int | None]
    #: points of the hand each side took (weighted by the variant's point values)
    taken: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The record's result: trump letter, trump card, points, taken, scores."""
        return {
            "trump": SUITS[self.trump],
            "trump_card": card_name(self.trump_card),
            "points": dict(self.points),
            "taken": list(self.taken),
            "scores": list(self.scores),
        }
