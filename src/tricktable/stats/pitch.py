"""Setback and every Pitch preset in simulate's statistics (see :mod:`tricktable.stats`).

``setback``: declarers' contracts made and set, stuck dealers, hands thrown in. It reads the
counts the simulation keeps for the Pitch family anyway (``Tally.kinds``), so Setback's
per-hand cost does not grow.
"""

from __future__ import annotations

from typing import Any

from tricktable.engine.trick import Game
from tricktable.stats import Counts, GameStats, ratio


class SetbackStats(GameStats):
    """Setback and Pitch: contracts made and set, stuck dealers, throw-ins.

    Its counts are the simulation's hand kinds, (declarer, bid, stuck, taken, points).
    """

    family = "setback"
    reads_hand_kinds = True

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Declared hands, made and set, at the stuck minimum, and thrown in."""
        declared = made = stuck = stuck_made = thrown = bid_sum = 0
        for (declarer, bid, was_stuck, taken, _), n in counts.items():
            if declarer is None or bid is None:
                thrown += n
                continue
            side = game.team_of(declarer)
            ok = side < len(taken) and taken[side] >= bid
            declared += n
            bid_sum += bid * n
            made += n if ok else 0
            if was_stuck:
                stuck += n
                stuck_made += n if ok else 0
        return {
            "family": self.family,
            "declared": declared,
            "made": made,
            "set": declared - made,
            "make_rate": ratio(made, declared),
            "mean_bid": ratio(bid_sum, declared),
            "stuck": stuck,
            "stuck_make_rate": ratio(stuck_made, stuck),
            "thrown_in": thrown,
        }
