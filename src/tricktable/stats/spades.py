"""Spades in simulate's statistics (see :mod:`tricktable.stats`).

``spades``: contracts made, set and exact per side, bid accuracy per seat, nils and blind nils
made and failed, bags and bag penalties.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game
from tricktable.games.spades_results import SpadesResult
from tricktable.stats import Counts, GameStats, ratio, ratios, read_as


class SpadesStats(GameStats):
    """Spades: contracts, bid accuracy, nils, bags."""

    family = "spades"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(bids by seat, blind by seat, tricks by seat, made by side, bag penalty paid by side).

        A bid of 0 is a nil (blind when ``blind`` says so).
        """
        hand = read_as(result, SpadesResult)
        return (
            hand.bids,
            hand.blind,
            hand.tricks,
            hand.made,
            tuple(map(bool, hand.bag_penalties)),  # no generator's frame a hand
        )

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Per side: contracts and bags; per seat: bid accuracy and nils (cut-throat, every
        seat is a side)."""
        seats, sides = game.num_players, game.num_scores
        contracts, made, exact, over, under = ([0] * sides for _ in range(5))
        bags, bag_penalties = [0] * sides, [0] * sides
        bids_n, bids_exact, bid_sum, trick_sum = ([0] * seats for _ in range(4))
        nil_bid, nil_made, blind_bid, blind_made = ([0] * seats for _ in range(4))
        for (bids, blind, tricks, side_made, paid), n in counts.items():
            for s in range(seats):
                bid = bids[s]
                if bid > 0:
                    bids_n[s] += n
                    bids_exact[s] += n if tricks[s] == bid else 0
                    bid_sum[s] += bid * n
                    trick_sum[s] += tricks[s] * n
                elif blind[s]:
                    blind_bid[s] += n
                    blind_made[s] += n if tricks[s] == 0 else 0
                else:
                    nil_bid[s] += n
                    nil_made[s] += n if tricks[s] == 0 else 0
            for t in range(sides):
                side = range(t, seats, sides)
                contract = sum(bids[s] for s in side)
                took = sum(tricks[s] for s in side if bids[s] > 0)
                new_bags = sum(tricks[s] for s in side if not bids[s])
                if contract:
                    contracts[t] += n
                    if side_made[t]:
                        made[t] += n
                        exact[t] += n if took == contract else 0
                        over[t] += (took - contract) * n
                        new_bags += took - contract
                    else:
                        under[t] += (contract - took) * n
                bags[t] += new_bags * n
                bag_penalties[t] += n if paid[t] else 0
        return {
            "family": self.family,
            "contracts": {
                "hands": contracts,
                "made": made,
                "set": [c - m for c, m in zip(contracts, made, strict=True)],
                "make_rate": [ratio(m, c) for m, c in zip(made, contracts, strict=True)],
                "exact": exact,
                "exact_rate": [ratio(e, c) for e, c in zip(exact, contracts, strict=True)],
                "overtricks_per_hand": [ratio(o, c) for o, c in zip(over, contracts, strict=True)],
                "undertricks_per_hand": [
                    ratio(u, c) for u, c in zip(under, contracts, strict=True)
                ],
            },
            "bid_accuracy": {
                "bids": bids_n,
                "exact": bids_exact,
                "exact_rate": [ratio(e, b) for e, b in zip(bids_exact, bids_n, strict=True)],
                "mean_bid": [ratio(s, b) for s, b in zip(bid_sum, bids_n, strict=True)],
                "mean_tricks": [ratio(s, b) for s, b in zip(trick_sum, bids_n, strict=True)],
            },
            "nils": _made_failed(nil_bid, nil_made),
            "blind_nils": _made_failed(blind_bid, blind_made),
            "bags": {
                "total": bags,
                "per_hand": ratios(bags, hands),
                "penalties": bag_penalties,
            },
        }


def _made_failed(bid: list[int], made: list[int]) -> dict[str, Any]:
    return {
        "bid": bid,
        "made": made,
        "failed": [b - m for b, m in zip(bid, made, strict=True)],
        "make_rate": [ratio(m, b) for m, b in zip(made, bid, strict=True)],
    }
