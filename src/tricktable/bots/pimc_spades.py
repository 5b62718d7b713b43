"""Bidding Spades on sampled deals solved double-dummy: the ``pimc`` bot's auction in Spades.

A bid decision (a number of tricks, or nil) is judged on **worlds**: full deals consistent
with the seat's view (:class:`~tricktable.search.determinize.Determinizer`: its own cards, the
bids so far), weighted by how well the game's heuristic explains the bids already made
(:class:`~tricktable.search.inference.Inference`). In each world, for each legal bid:

1. **the rest of the auction** is bid by the model (the game's heuristic, with that world's
   cards) for every seat still to bid: the hand's four bids;
2. **the tricks:** where nobody bid nil, the hand's value hangs on the tricks each side takes,
   and those are DDS's: the most tricks the first leader's side takes with spades trump,
   from its first card (:func:`~tricktable.search.solver.dds.future_tricks`; one solve a
   world serves every bid, since the deal and the leader do not change with them). Where a
   seat bid nil, its own tricks count apart, which no trick count models: the hand is played
   out by the model for all four seats instead (one playout a world for each set of seats
   bidding nil);
3. **the score:** both sides scored by the game's own rules (contracts made or set, nils,
   bags and their penalty, from the bags carried): the bid's value in the world is the seat's
   side's score change minus the other's (the solver's measure).

A bid's value is its weighted mean over the worlds; the best wins (ties: the lowest bid).
The blind-nil choice (before the seat looks) stays the heuristic's.

Double-dummy tricks are what perfect play by all four would take: a side's real tricks are
fewer where the defence must guess, which the model's own bids (the others') do not know
either. Each world costs one DDS solve of the whole deal (a median 27 ms asked for one best
card: docs/solver.md), so a decision's 0.5 s holds about a dozen worlds.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tricktable.bots.base import Bot
from tricktable.bots.budget import Budget
from tricktable.bots.pimc_bidding import BidEstimate
from tricktable.cards import SPADES
from tricktable.engine.actions import BID
from tricktable.engine.trick import PLAY, TrickState, View
from tricktable.games.spades import SpadesState, score_team
from tricktable.games.spades_results import SpadesResult
from tricktable.search.determinize import Determinizer
from tricktable.search.solver.dds import future_tricks

__all__ = ["SpadesBidder"]


class SpadesBidder:
    """Values the legal bids of a Spades bid decision on sampled deals (see the module).

    ``models`` are four started bots of the game (its heuristic), one a seat, that bid and
    play for every seat inside a world.
    """

    def __init__(self, models: list[Bot]) -> None:
        self.models = models

    def estimate(
        self,
        view: View,
        rng: random.Random,
        worlds: int,
        budget: Budget,
        weigh: Callable[[TrickState, View], float] | None = None,
    ) -> BidEstimate:
        """Value every legal bid on up to ``worlds`` worlds (within ``budget``)."""
        seat = view.seat
        legal = [a for a in view.legal_actions() if a >= BID]
        sums = dict.fromkeys(legal, 0.0)
        total = 0.0
        used = 0
        sampler = Determinizer(view)
        for _ in range(worlds):
            if not budget.allows():
                break
            world = sampler.sample(rng)
            w = weigh(world, view) if weigh is not None else 1.0
            values = self.world_values(world, seat, legal)
            for action, value in values.items():
                sums[action] += w * value
            total += w
            used += 1
            budget.done()
        out = BidEstimate(worlds=used)
        if used and total > 0.0:
            out.values = {a: sums[a] / total for a in legal}
        return out

    def world_values(self, world: TrickState, seat: int, legal: list[int]) -> dict[int, float]:
        """Each of ``legal`` bids' value for ``seat``'s side in ``world`` (see the module)."""
        tricks: int | None = None  # the seat's side's double-dummy tricks, once a world
        playouts: dict[tuple[bool, ...], list[int]] = {}
        out: dict[int, float] = {}
        for action in legal:
            state = world.clone()
            state.apply(action)
            while state.phase != PLAY:
                state.apply(self.models[state.to_act].act(state.view(state.to_act)))
            assert isinstance(state, SpadesState)
            nils = tuple(b == 0 for b in state.bids)
            if any(nils):
                taken = playouts.get(nils)
                if taken is None:
                    taken = playouts[nils] = self._played(state)
            else:
                if tricks is None:
                    tricks = self._double_dummy(state, seat)
                # Only the sides' totals matter with no nil: the seat's side's on the seat.
                taken = [0] * 4
                taken[seat & 1] = tricks
                taken[1 - (seat & 1)] = state.game.hand_size - tricks
            out[action] = _margin(state, seat, taken)
        return out

    def _double_dummy(self, state: SpadesState, seat: int) -> int:
        """The tricks ``seat``'s side takes double-dummy from the first lead (one best card
        asked; where DDS's best is a lead the rules forbid, its count is taken still)."""
        leader = state.to_act
        found = future_tricks(state.hands, [], leader, SPADES, state.step, every=False)
        legal = [found[c] for c in state.legal_actions() if c in found]
        best = max(legal) if legal else max(found.values())
        return best if (leader & 1) == (seat & 1) else state.game.hand_size - best

    def _played(self, state: SpadesState) -> list[int]:
        """The tricks each seat takes when the model plays the hand out for all four."""
        play = state.clone()
        hands = len(play.results)
        while len(play.results) == hands:
            play.apply(self.models[play.to_act].act(play.view(play.to_act)))
        result = play.results[hands]
        assert isinstance(result, SpadesResult)
        return list(result.tricks)


def _margin(state: SpadesState, seat: int, taken: list[int]) -> float:
    """The seat's side's score change minus the other side's, the seats taking ``taken``
    tricks with the bids made (nils scored apart; bags from those carried)."""
    bids = state.bids
    blind = [bool(state.blind >> s & 1) for s in range(4)]
    points = [
        score_team(
            (bids[t], bids[t + 2]),
            (blind[t], blind[t + 2]),
            (taken[t], taken[t + 2]),
            state.bags[t],
            state.options,
        ).points
        for t in (0, 1)
    ]
    mine = seat & 1
    return float(points[mine] - points[1 - mine])
