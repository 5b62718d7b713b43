"""Cinch and its relatives in simulate's statistics (see :mod:`tricktable.stats`).

``cinch``: hands thrown in, contracts made and set by the bidding side, points taken per side.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game
from tricktable.games.cinch_results import CinchResult
from tricktable.stats import Counts, GameStats, ratios, read_as


class CinchStats(GameStats):
    """Cinch: contracts made and set, points taken per side."""

    family = "cinch"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(thrown in, the bid, made, points taken by side)."""
        hand = read_as(result, CinchResult)
        return (hand.thrown_in, hand.bid, hand.made, hand.taken)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Made and set contracts, the mean bid, points taken per side per hand played."""
        sides = game.num_scores
        taken = [0] * sides
        thrown = made = bids = 0
        for (thrown_in, bid, was_made, took), n in counts.items():
            if thrown_in:
                thrown += n
                continue
            made += n if was_made else 0
            bids += (bid or 0) * n
            for side in range(min(sides, len(took))):
                taken[side] += took[side] * n
        played = hands - thrown
        return {
            "family": self.family,
            "thrown_in": thrown,
            "contracts": {
                "made": made,
                "set": played - made,
                "mean_bid": ratios([bids], played)[0],
            },
            "taken": {"total": taken, "per_hand": ratios(taken, played)},
        }
