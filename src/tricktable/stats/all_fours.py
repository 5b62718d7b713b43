"""All Fours in simulate's statistics (see :mod:`tricktable.stats`).

``all-fours``: how trump was settled (stood, given, run, thrown in), how often the cards were
run, the points (High, Low, Jack, Game) each side earned, hanged jacks, and the kick and gift
points.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game
from tricktable.games.all_fours import POINT_ORDER
from tricktable.games.all_fours_results import AllFoursResult
from tricktable.stats import Counts, GameStats, ratio, ratios, read_as


class AllFoursStats(GameStats):
    """All Fours: the settling of trump, the runs, each point by side, hanged jacks."""

    family = "all-fours"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(how trump was settled, runs, the side of each point, hanged, gained by side)."""
        # Once a hand of every random match: the common case checked first, points read by
        # a map over the names (a generator's frame a hand cost as much as the rest).
        hand = result if type(result) is AllFoursResult else read_as(result, AllFoursResult)
        if hand.thrown_in:
            how = "thrown_in"
        elif hand.gave:
            how = "given"
        elif hand.begged:
            how = "run"
        else:
            how = "stood"
        points = tuple(map(hand.points.get, POINT_ORDER))
        return (how, hand.runs, points, hand.hanged, hand.gained)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Trump settled (count and rate by way), runs per hand, points by side, hanged jacks."""
        sides = game.num_scores
        settled = {"stood": 0, "given": 0, "run": 0, "thrown_in": 0}
        runs = 0
        earned = {name: [0] * sides for name in POINT_ORDER}
        hanged = 0
        gained = [0] * sides
        for key, n in counts.items():
            how, ran, points, hang, gain = key
            settled[how] += n
            runs += ran * n
            hanged += n if hang else 0
            for name, side in zip(POINT_ORDER, points, strict=True):
                if side is not None:
                    earned[name][side] += n
            for side, g in enumerate(gain):
                gained[side] += g * n
        return {
            "family": self.family,
            "trump_settled": settled,
            "settled_rate": {how: ratio(n, hands) for how, n in settled.items()},
            "runs_per_hand": ratio(runs, hands),
            "points": {name: {"count": c, "rate": ratios(c, hands)} for name, c in earned.items()},
            "hanged_jacks": hanged,
            "gained_per_hand": ratios(gained, hands),
        }
