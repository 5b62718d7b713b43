"""Oh Hell in simulate's statistics (see :mod:`tricktable.stats`).

``oh-hell``: exact bids per seat and overall, over and under, by hand size, and how the bids of
a hand add up against its tricks.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game
from tricktable.games.oh_hell_results import OhHellResult
from tricktable.stats import Counts, GameStats, ratio, ratios, read_as


class OhHellStats(GameStats):
    """Oh Hell: how often each seat bids exactly right."""

    family = "oh-hell"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(hand size, bids by seat, tricks by seat)."""
        hand = read_as(result, OhHellResult)
        return (hand.hand_size, hand.bids, hand.tricks)

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Exact, over and under per seat; exact rate by hand size; the bids' totals."""
        n_seats = game.num_players
        exact, over, under, bid_sum = ([0] * n_seats for _ in range(4))
        sizes: dict[int, list[int]] = {}
        overbid = underbid = even = 0
        for (size, bids, tricks), n in counts.items():
            row = sizes.setdefault(size, [0, 0])
            row[0] += n * n_seats
            for s in range(n_seats):
                hit = bids[s] == tricks[s]
                exact[s] += n if hit else 0
                row[1] += n if hit else 0
                over[s] += n if tricks[s] > bids[s] else 0
                under[s] += n if tricks[s] < bids[s] else 0
                bid_sum[s] += bids[s] * n
            total = sum(bids)
            overbid += n if total > size else 0
            underbid += n if total < size else 0
            even += n if total == size else 0
        return {
            "family": self.family,
            "exact": {"count": exact, "rate": ratios(exact, hands)},
            "exact_rate": ratio(sum(exact), hands * n_seats),
            "took_more": {"count": over, "rate": ratios(over, hands)},
            "took_fewer": {"count": under, "rate": ratios(under, hands)},
            "mean_bid": ratios(bid_sum, hands),
            "by_hand_size": {
                str(size): {"bids": row[0], "exact_rate": ratio(row[1], row[0])}
                for size, row in sorted(sizes.items())
            },
            "bid_totals": {"over_tricks": overbid, "under_tricks": underbid, "equal": even},
        }
