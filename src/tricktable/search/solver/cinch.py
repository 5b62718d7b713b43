"""The solver's rules for Cinch (Double Pedro) and its versions: Pedro Sancho, Dom Pedro, Catch
Five, Nine-Five, cut-throat, three to six seats.

Once the play begins the discard, the draw and the dealer's rob are over: every hand holds
``play_size`` cards and the pack plays no further part, so the rest of the hand is a perfect-
information game like Setback's (see :mod:`.pitch` for the value and the paranoid reduction:
the seat's side's score change minus the sum of every other side's).

What matters of the cards won: which side holds each point card (the Pedros, Jack, Game's ten,
the three, nine, joker, and the highest and lowest trumps *in play*, fixed for the hand once
it begins, since every card in the hands is played). Cinch counts no card points, so a card
is worth nothing beyond being a point card (those are never merged). Leaves are scored by
:func:`~tricktable.games.cinch_scoring.hand_points` and
:func:`~tricktable.games.cinch_scoring.score_hand`, cached by that summary.
"""

from __future__ import annotations

from typing import Any

from tricktable.cards import JOKER
from tricktable.errors import TricktableError
from tricktable.games.cinch import CinchState
from tricktable.games.cinch_scoring import hand_points, high_low, point_card, score_hand
from tricktable.search.solver.core import (
    Kernel,
    Rules,
    Search,
    SolveResult,
    Summary,
    follow_or_trump,
    hand_cards,
    solve_root,
)

__all__ = ["CinchRules", "solve_cinch"]


def solve_cinch(state: Any, seat: int, deadline: float | None, core: str = "auto") -> SolveResult:
    """Solve a Cinch hand in card play (see :func:`tricktable.search.solver.solve`)."""
    if not isinstance(state, CinchState):
        raise TricktableError(f"solve: {state.game.name} is not a Cinch-family game")
    search = Search(state, CinchRules(state, seat), deadline, core=core)
    return solve_root(state, lambda card: search)


def _with_counts(summary: Summary) -> tuple[int, ...]:
    """Cinch's summary (point cards by side) in the C core's form, each count 0."""
    out: list[int] = []
    for cards in summary:  # type: ignore[attr-defined]
        out += [cards, 0]
    return tuple(out)


def _cards_only(pairs: tuple[int, ...]) -> Summary:
    """Cinch's summary from the C core's form."""
    return pairs[0::2]


class CinchRules(Rules):
    """Cinch's legal cards, summary and scoring for one hand, for one seat's side."""

    def __init__(self, state: CinchState, seat: int) -> None:
        opts: Any = state.options
        n = state.n
        nsides = len(state.scores)
        side_of = [s % nsides for s in range(n)]
        me = side_of[seat]
        self.tables = tables = state.tables
        self.maximise = [side_of[s] == me for s in range(n)]
        self.order = tables.power
        trump = tables.suit
        trump_mask, power = tables.mask, tables.power
        names: list[str] = list(state.point_list)
        in_play = hand_cards(state)  # every card of the hand is played: all of them in play
        high, low = high_low(in_play, trump_mask, power)
        pmask = 0
        for name in names:
            card = high if name == "high" else low if name == "low" else point_card(name, trump)
            if card >= 0:
                pmask |= 1 << card
        pmask &= in_play
        self.special = pmask | 1 << JOKER
        self.worth = [0] * 64
        won_by_side = [0] * nsides
        held_by_side = [0] * nsides
        for s in range(n):
            won_by_side[side_of[s]] |= state.won[s]
            held_by_side[side_of[s]] |= state.held[s]
        self.summary = tuple(taken & pmask for taken in won_by_side)
        held = tuple(held_by_side)
        weights = state.weights
        bidder = side_of[state.bidder]
        bid = state.bid
        low_to: str = opts.low_to
        scoring: str = opts.scoring
        may_trump: bool = state.may_trump

        def take(summary: Summary, winner: int, tmask: int) -> Summary:
            points = tmask & pmask
            if not points:
                return summary
            out = list(summary)  # type: ignore[call-overload]
            out[side_of[winner]] |= points
            return tuple(out)

        def leaf(summary: Summary, won: list[int]) -> int:
            # The point cards by side stand for the cards won: only they score.
            sides: Any = summary
            points = hand_points(names, trump, sides, held, trump_mask, power, low_to)
            delta = score_hand(points, weights, bidder, bid, nsides, scoring)[1]
            return 2 * delta[me] - sum(delta)

        self.legal = follow_or_trump(trump_mask, may_trump)
        # The C core's summary is (point cards, count) by side: the count stays 0.
        self.kernel = Kernel(
            slot_of=side_of,
            nslots=nsides,
            cw=[0] * 64,
            pmask=pmask,
            may_trump=may_trump,
            trump_mask=trump_mask,
            to_c=_with_counts,
            from_c=_cards_only,
        )
        self.take = take
        self.leaf = leaf
