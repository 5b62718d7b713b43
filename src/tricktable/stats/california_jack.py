"""California Jack and Shasta Sam in simulate's statistics (see :mod:`tricktable.stats`).

``california-jack``: how often each side wins each point (High, Low, Jack, Game) and the
points it takes a hand; a Game tied is counted apart.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game
from tricktable.games.california_jack_results import CaliforniaJackResult
from tricktable.stats import Counts, GameStats, ratios, read_as


class CaliforniaJackStats(GameStats):
    """California Jack: each point's winners, and the points taken per hand."""

    family = "california-jack"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """((point, side or None), ...) and the points each side took."""
        hand = read_as(result, CaliforniaJackResult)
        return (tuple(hand.points.items()), hand.taken)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Per point, the hands each side won it (and a tied Game); mean points per hand."""
        sides = game.num_scores
        won: dict[str, list[int]] = {}
        tied = 0
        taken = [0] * sides
        for (points, took), n in counts.items():
            for name, side in points:
                row = won.setdefault(name, [0] * sides)
                if side is None:
                    tied += n
                elif side < sides:
                    row[side] += n
            for side, count in enumerate(took[:sides]):
                taken[side] += count * n
        return {
            "family": self.family,
            "points": {
                name: {"count": row, "rate": ratios(row, hands)} for name, row in won.items()
            },
            "game_tied": tied,
            "taken_per_hand": ratios(taken, hands),
        }
