"""The typed hand results of Hearts and Filippa: plain Python beside the compiled rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricktable.engine.results import HandResult
from tricktable.games.hearts_options import direction_name


@dataclass(slots=True, kw_only=True)
class HeartsResult(HandResult):
    """A hand of Hearts: the pass, each seat's penalty points, the moon, the queen of spades.

    ``scores`` are by seat, lowest best.
    """

    #: where the cards went, as seats to the left: 1 left, 2 across, 3 right, 0 kept (at
    #: four seats; right is ``seats - 1``)
    pass_offset: int
    #: penalty points each seat took (hearts 1, Q♠ 13), before any moon
    penalties: tuple[int, ...]
    #: the seat that shot the moon, or None
    moon: int | None
    #: the seat that took Q♠ (None if nobody did); not in :meth:`to_dict`
    queen_of_spades: int | None
    #: seats at the table (names the pass); not in :meth:`to_dict`
    seats: int = 4

    def to_dict(self) -> dict[str, Any]:
        """The record's result: pass (direction name), penalties, moon, scores."""
        return {
            "pass": direction_name(self.pass_offset, self.seats),
            "penalties": list(self.penalties),
            "moon": self.moon,
            "scores": list(self.scores),
        }


@dataclass(slots=True, kw_only=True)
class FilippaResult(HandResult):
    """A hand of Filippa: penalties, the pool and who shared it, the pool carried over.

    ``scores`` are the positive totals by seat; ``negative`` the penalty totals beside them.
    """

    #: penalty points each seat took this hand (0 or negative)
    penalties: tuple[int, ...]
    #: the pool at stake: 36 and what was carried into the hand
    pool: int
    #: the pool points each seat got (the clean seats share it)
    shares: tuple[int, ...]
    #: the pool carried into the next hand (all of it when no seat was clean)
    carried: int
    #: each seat's penalty total over the match after the hand
    negative: tuple[int, ...]
    #: the seat that took Q♠ (None if nobody did); not in :meth:`to_dict`
    queen_of_spades: int | None

    def to_dict(self) -> dict[str, Any]:
        """The record's result: penalties, pool, shares, carried, scores, negative."""
        return {
            "penalties": list(self.penalties),
            "pool": self.pool,
            "shares": list(self.shares),
            "carried": self.carried,
            "scores": list(self.scores),
            "negative": list(self.negative),
        }
