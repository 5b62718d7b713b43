"""Hearts and Filippa in simulate's statistics (see :mod:`tricktable.stats`).

- ``hearts``: penalty points per seat, clean hands, moon shots, who took the queen of spades.
- ``filippa``: penalties, clean hands, pool points won, pools carried, the queen of spades.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game
from tricktable.games.hearts_results import FilippaResult, HeartsResult
from tricktable.stats import Counts, GameStats, counted, ratio, ratios, read_as


class HeartsStats(GameStats):
    """Hearts: penalty points, clean hands, moon shots, the queen of spades."""

    family = "hearts"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(penalties by seat, the moon shooter, the queen's taker)."""
        hand = read_as(result, HeartsResult)
        return (hand.penalties, hand.moon, hand.queen_of_spades)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Penalties, clean hands, moons and queens per seat."""
        n_seats = game.num_players
        penalties, clean, moon, queen = ([0] * n_seats for _ in range(4))
        for (pen, shooter, taker), n in counts.items():
            for s in range(n_seats):
                penalties[s] += pen[s] * n
                clean[s] += n if pen[s] == 0 else 0
            if isinstance(shooter, int):
                moon[shooter] += n
            if isinstance(taker, int):
                queen[taker] += n
        return {
            "family": self.family,
            "penalties": {"total": penalties, "per_hand": ratios(penalties, hands)},
            "clean_hands": counted(clean, True, hands),
            "moon": {"shots": moon, "total": sum(moon), "rate": ratio(sum(moon), hands)},
            "queen_of_spades": {"taken": queen, "rate": ratios(queen, hands)},
        }


class FilippaStats(GameStats):
    """Filippa: penalties, clean hands, pool points, pools carried, the queen of spades."""

    family = "filippa"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(penalties by seat, pool shares by seat, carried?, the queen's taker)."""
        hand = read_as(result, FilippaResult)
        return (hand.penalties, hand.shares, bool(hand.carried), hand.queen_of_spades)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Penalties, clean hands, pool points and queens per seat; pools carried."""
        n_seats = game.num_players
        penalties, clean, shares, queen = ([0] * n_seats for _ in range(4))
        carried = 0
        for (pen, share, was_carried, taker), n in counts.items():
            for s in range(n_seats):
                penalties[s] += pen[s] * n
                clean[s] += n if pen[s] == 0 else 0
                shares[s] += share[s] * n
            carried += n if was_carried else 0
            if isinstance(taker, int):
                queen[taker] += n
        return {
            "family": self.family,
            "penalties": {"total": penalties, "per_hand": ratios(penalties, hands)},
            "clean_hands": counted(clean, True, hands),
            "pool_points": {"total": shares, "per_hand": ratios(shares, hands)},
            "pools_carried": {"count": carried, "rate": ratio(carried, hands)},
            "queen_of_spades": {"taken": queen, "rate": ratios(queen, hands)},
        }
