"""Euchre in simulate's statistics (see :mod:`tricktable.stats`).

``euchre``: makers' hands made, marches and euchres per side, lone hands, the round in which
trump was made, hands thrown in.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from tricktable.engine.results import HandResult
from tricktable.engine.trick import Game
from tricktable.games.euchre_results import EuchreResult
from tricktable.stats import Counts, GameStats, ratio, read_as


class EuchreStats(GameStats):
    """Euchre: makers' success, marches, euchres, lone hands."""

    family = "euchre"

    def key(self, result: HandResult, before: Sequence[int]) -> Hashable:
        """(maker, alone, round, euchred, the makers' tricks), or ("thrown_in",)."""
        hand = read_as(result, EuchreResult)
        maker = hand.maker
        if hand.thrown_in or maker is None:
            return ("thrown_in",)
        # The makers' tricks: their side's (by seat in cut-throat, where each is a side).
        side = maker % len(hand.tricks)
        return (maker, hand.alone, hand.bidding_round, hand.euchred, hand.tricks[side])

    def report(self, game: Game, counts: Counts, hands: int) -> dict[str, Any]:
        """Per makers' side: hands, made, marches, euchres; lone hands; rounds (cut-throat,
        every seat is a side)."""
        sides = game.num_scores
        made, marches, euchres, total = ([0] * sides for _ in range(4))
        alone, alone_made, alone_marches = [0] * sides, [0] * sides, [0] * sides
        rounds = {"1": 0, "2": 0}
        thrown = 0
        for key, n in counts.items():
            if key == ("thrown_in",):
                thrown += n
                continue
            maker, lone, round_, euchred, took = key
            side = maker % sides
            total[side] += n
            rounds[str(round_)] = rounds.get(str(round_), 0) + n
            if euchred:
                euchres[side] += n
            else:
                made[side] += n
                marches[side] += n if took == 5 else 0
            if lone:
                alone[side] += n
                alone_made[side] += 0 if euchred else n
                alone_marches[side] += n if took == 5 else 0
        return {
            "family": self.family,
            "makers": {
                "hands": total,
                "made": made,
                "make_rate": [ratio(m, t) for m, t in zip(made, total, strict=True)],
                "marches": marches,
                "euchred": euchres,
            },
            "alone": {
                "hands": alone,
                "made": alone_made,
                "marches": alone_marches,
                "march_rate": [ratio(m, a) for m, a in zip(alone_marches, alone, strict=True)],
            },
            "trump_made_in_round": rounds,
            "thrown_in": thrown,
        }
