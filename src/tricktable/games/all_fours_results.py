"""The typed hand result of All Fours: plain Python beside the compiled rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricktable.cards import SUITS, card_name
from tricktable.engine.results import HandResult


@dataclass(slots=True, kw_only=True)
class AllFoursResult(HandResult):
    """A hand of All Fours: how trump was settled, who earned each point, what each side gained.

    A *side* is a partnership (seat s plays for side ``s % sides``) or, each for itself, a
    seat. A hand whose stock ran out while the cards were run is *thrown in*: no trump and no
    points (a jack kicked before stands: it was scored when turned), and the same dealer deals
    again. A hand the kick or the gift ended (a side counted out before the play) has a trump
    and no points.
    """

    #: the trump suit (0-3, clubs to spades), None when thrown in
    trump: int | None
    #: the card turned up last (it named trump, unless thrown in)
    up_card: int
    #: whether the eldest hand begged, and whether the dealer gave the gift
    begged: bool
    gave: bool
    #: how many times the cards were run (each run dealt three more cards to every seat)
    runs: int
    #: by point name (high, low, jack, game): the side that earned it, None when its card was
    #: not dealt, Game tied, or the hand ended before the play
    points: Mapping[str, int | None]
    #: whether the jack of trump was hanged: captured by a side other than the one dealt it
    hanged: bool
    #: what each side's score gained this hand (kick, gift and points, as far as counted)
    gained: tuple[int, ...]
    thrown_in: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The record's result: trump letter, up-card, begging, points, gained, scores."""
        out: dict[str, Any] = {
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "up_card": card_name(self.up_card),
            "begged": self.begged,
            "gave": self.gave,
            "runs": self.runs,
        }
        if self.thrown_in:
            out["thrown_in"] = True
        out["points"] = dict(self.points)
        out["hanged"] = self.hanged
        out["gained"] = list(self.gained)
        out["scores"] = list(self.scores)
        return out
