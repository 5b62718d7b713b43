"""The solver's rules for All Fours (Seven Up, Old Sledge, Trinidad's All Fours...): two to six
seats, each for itself or in partnerships, either direction.

Once the play begins the turn-up, the begging and the runs are over (they scored before the
play: the kick, the gift); every card dealt is in a hand and is played, so the rest of the hand
is a perfect-information game like Setback's (see :mod:`.pitch` for the value and the paranoid
reduction: the seat's side's score change minus the sum of every other side's). California
Jack is *not* such a game before its stock is drawn: each trick's winner and loser draw from
a stock whose order no seat knows; it would be one only once the stock is gone.

**The score change** is the game's own, point by point in the order they count (High, Low,
Jack, Game) with the count-out: once a side reaches the target the points after it are not
scored. The game scores it inside its state (``AllFoursState._score_hand``), not by a pure
function, so :func:`hand_change` does the same from the points: tested against the engine by
brute force (``tests/test_solver_seats.py``).

**Summary.** High goes to the side dealt it and, with ``low_to=dealt``, Low too: fixed for the
hand. What the play can change is the side that takes the jack of trump (and Low with
``low_to=captured``), and each side's Game count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tricktable.cards import JACK
from tricktable.errors import TricktableError
from tricktable.games.all_fours import POINT_ORDER, AllFoursState
from tricktable.games.pitch_scoring import game_count, high_low
from tricktable.search.solver.core import (
    Kernel,
    Rules,
    Search,
    SolveResult,
    Summary,
    follow_or_trump,
    solve_root,
)

__all__ = ["AllFoursRules", "hand_change", "solve_all_fours"]


def solve_all_fours(
    state: Any, seat: int, deadline: float | None, core: str = "auto"
) -> SolveResult:
    """Solve an All Fours hand in card play (see :func:`tricktable.search.solver.solve`)."""
    if not isinstance(state, AllFoursState):
        raise TricktableError(f"solve: {state.game.name} is not All Fours")
    search = Search(state, AllFoursRules(state, seat), deadline, core=core)
    return solve_root(state, lambda card: search)


def hand_change(
    points: dict[str, int | None],
    values: dict[str, int],
    scores: Sequence[int],
    target: int,
    count_out: bool,
    over: bool,
) -> list[int]:
    """Each side's score change from a hand's ``points`` (the earning side of each, or None),
    as All Fours scores them: in ``POINT_ORDER``, each worth ``values`` (1 if absent); with
    ``count_out``, none after a side reaches ``target``; none at all if the match is ``over``."""
    delta = [0] * len(scores)
    if over:
        return delta
    for name in POINT_ORDER:
        earner = points.get(name)
        if earner is None:
            continue
        delta[earner] += values.get(name, 1)
        if count_out and scores[earner] + delta[earner] >= target:
            break
    return delta


class AllFoursRules(Rules):
    """All Fours' legal cards, summary and scoring for one hand, for one seat's side."""

    def __init__(self, state: AllFoursState, seat: int) -> None:
        opts: Any = state.options
        n = state.n
        nsides = len(state.scores)
        side_of = [s % nsides for s in range(n)]
        me = side_of[seat]
        self.tables = tables = state.tables
        self.maximise = [side_of[s] == me for s in range(n)]
        self.order = tables.power
        trump = tables.suit
        trump_mask = tables.mask
        everything = 0
        for mask in state.dealt:
            everything |= mask
        high, low = high_low(trump, everything)

        def dealt_to(bit: int) -> int:
            for s in range(n):
                if state.dealt[s] & bit:
                    return side_of[s]
            return -1

        fixed: dict[str, int | None] = {"high": dealt_to(high) if high else None}
        low_captured = opts.low_to != "dealt"
        if not low_captured:
            fixed["low"] = dealt_to(low) if low else None
        jack = (1 << (trump * 13 + JACK)) & everything
        jack_holder = dealt_to(jack) if jack else -1
        #: the cards whose taker can change a point
        pmask = jack | (low if low_captured else 0)
        self.special = pmask
        self.worth = [game_count(1 << c) for c in range(64)]
        start: list[int] = []
        for s_side in range(nsides):
            taken = 0
            for s in range(n):
                if side_of[s] == s_side:
                    taken |= state.won[s]
            start += [taken & pmask, game_count(taken)]
        self.summary = tuple(start)
        hang_jack: int = opts.hang_jack
        tie_eldest = opts.game_tie == "eldest"
        # The sides in the order the Game tie rule reads them: from the eldest hand on.
        eldest_order = [side_of[(state.eldest + i * state.step) % n] for i in range(n)]
        scores = state.scores[:]
        target: int = opts.target
        count_out: bool = opts.count_out
        over = state.winner is not None
        may_trump: bool = state.may_trump

        def take(summary: Summary, winner: int, tmask: int) -> Summary:
            out = list(summary)  # type: ignore[call-overload]
            i = 2 * side_of[winner]
            out[i] |= tmask & pmask
            out[i + 1] += game_count(tmask)
            return tuple(out)

        def leaf(summary: Summary, won: list[int]) -> int:
            parts: Any = summary
            points = dict(fixed)
            values: dict[str, int] = {}
            counts = parts[1::2]
            if low_captured:
                points["low"] = None
                for side in range(nsides):
                    if parts[2 * side] & low:
                        points["low"] = side
            points["jack"] = None
            if jack:
                for side in range(nsides):
                    if parts[2 * side] & jack:
                        points["jack"] = side
                        if side != jack_holder:
                            values["jack"] = hang_jack
            best = max(counts)
            points["game"] = None
            if counts.count(best) == 1:
                points["game"] = counts.index(best)
            elif tie_eldest:
                points["game"] = next(s for s in eldest_order if counts[s] == best)
            delta = hand_change(points, values, scores, target, count_out, over)
            return 2 * delta[me] - sum(delta)

        self.legal = follow_or_trump(trump_mask, may_trump)
        # The summary is already the C core's: (point cards, Game count) by side.
        self.kernel = Kernel(
            slot_of=side_of,
            nslots=nsides,
            cw=self.worth,
            pmask=pmask,
            may_trump=may_trump,
            trump_mask=trump_mask,
        )
        self.take = take
        self.leaf = leaf
