"""Tricks in simulate's statistics (see :mod:`tricktable.stats`).

``tricks``: tricks per seat, bad cards, hands thrown in.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game
from tricktable.games.tricks_results import TricksResult
from tricktable.stats import Counts, GameStats, ratios, read_as


class TricksStats(GameStats):
    """Tricks: tricks per seat, bad cards."""

    family = "tricks"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(tricks by seat, the seat that sent a bad card or None)."""
        hand = read_as(result, TricksResult)
        return (hand.tricks, hand.bad_card)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Tricks per seat over the hands played out; bad cards per seat."""
        n_seats = game.num_players
        tricks, bad = [0] * n_seats, [0] * n_seats
        thrown = 0
        for (taken, bad_seat), n in counts.items():
            if isinstance(bad_seat, int):
                bad[bad_seat] += n
                thrown += n
                continue
            for s in range(n_seats):
                tricks[s] += taken[s] * n
        played = hands - thrown
        return {
            "family": self.family,
            "tricks": {"total": tricks, "per_hand": ratios(tricks, played)},
            "bad_cards": bad,
            "thrown_in": thrown,
        }
