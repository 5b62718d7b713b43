"""Bidding by simulation for Setback and the Pitch presets: the ``pimc`` bot's auction.

A bid decision is judged on sampled deals. Each **world** is a full deal consistent with the
seat's view (:class:`~tricktable.search.determinize.Determinizer`, the same sampler as the
card play; in the auction it knows the seat's own cards and the bids so far), weighted by how
well the game's heuristic explains the other seats' bids in it
(:class:`~tricktable.search.inference.Inference`). In each world, for each legal action of the
seat (pass, or each bid):

1. **the rest of the auction** is played by the model (the game's heuristic bot, with that
   world's cards, for every seat still to act), which gives the contract the action leads to:
   the seat's own, a higher bid of another seat, or the dealer stuck (or a throw-in: worth 0);
2. **the hand is played out** by the model for all four seats: where the seat declares, once
   for each candidate trump suit (the suits it holds, the ``suits`` best by the heuristic's
   estimate), its first lead the highest card of that suit, which names it trump; where
   another seat declares, once, that seat naming trump as the model does. The play does not
   depend on the bid, so one playout per (world, declarer, suit) serves every action;
3. **the contract is scored** by the game's own scoring (``pitch_scoring.score_contract``: the
   bid made or set, what each side took, a moon or smudge): the action's value in the world is
   the seat's side's score change minus the others' (the solver's measure); a hand that wins
   the match outright adds the target.

With a kitty, the declarer's discard is the model's, in the world, before the playout.

The value of an action is its weighted mean over the worlds, at the suit whose mean is best
(the declarer names trump knowing only its own cards, so the suit is chosen across worlds, not
in each). **The rule:** the action of the highest value, where a bid must beat passing by
``margin`` points (0 by default); ties go to passing, then to the lowest bid. Passing is thus
valued honestly — the contract the others then reach, and the dealer's forced bid.

**Solved bids** (``solved``, the ``pimc`` bot's default where the solver's compiled core is
built): step 2 instead makes the contract's first lead — the seat's highest card of each
candidate suit where it declares, the model's lead where another seat declares — and solves
the rest of the hand double-dummy (:func:`~tricktable.search.solver.solve`, a few
milliseconds compiled), the value being the solver's measure for the seat; a (declarer, bid,
suit) is solved once a world. Without the compiled core a solve from the first lead takes
about 0.4 s (one world in a decision's 0.5 s), so the hands are played out by the model.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from tricktable.bots.base import Bot
from tricktable.bots.budget import Budget
from tricktable.bots.pitch_heuristic import Rules, suit_estimate
from tricktable.engine.actions import is_bid
from tricktable.engine.trick import AUCTION, PLAY, TrickState, View
from tricktable.games.pitch_scoring import score_contract
from tricktable.games.setback import DISCARDING, Setback, SetbackState
from tricktable.games.setback_results import SetbackResult
from tricktable.search.determinize import Determinizer
from tricktable.search.solver import SolveTimeout, solve

#: the candidate trump suits played out for the seat's own contract, the best by the estimate
DEFAULT_SUITS: Final = 2
#: points a bid's value must beat passing's by
DEFAULT_MARGIN: Final = 0.0


@dataclass
class BidEstimate:
    """What a bid decision's simulation found: each legal action's mean value, and the worlds."""

    #: action -> the weighted mean of the seat's side's score change minus the others'
    values: dict[int, float] = field(default_factory=dict)
    #: worlds played out
    worlds: int = 0

    def ranked(self, margin: float = 0.0) -> list[int]:
        """The actions, best first by the rule (see the module): a bid's value less ``margin``
        against passing's (ties: pass, then the lowest bid)."""
        values = self.values
        return sorted(values, key=lambda a: (-(values[a] - (margin if is_bid(a) else 0.0)), a))


class PitchBidder:
    """Values the legal actions of a Pitch-family bid decision on sampled, played-out deals.

    ``models`` are four started bots of the game (the heuristic), one a seat, that bid and play
    for every seat inside a world.
    """

    def __init__(
        self, game: Setback, models: list[Bot], suits: int = DEFAULT_SUITS, solved: bool = False
    ) -> None:
        self.game = game
        self.models = models
        self.suits = suits
        #: whether each contract is solved double-dummy from its first lead (else played out)
        self.solved = solved
        # The solves' deadline (a perf_counter instant), for the decision being estimated.
        self._deadline: float | None = None
        # This world's solves: (declarer, bid, suit led or -1) -> the value for the seat.
        self._solves: dict[tuple[int, int, int], float] = {}
        self.rules = Rules(game)
        self._side = [s % game.num_scores for s in range(game.num_players)]
        # This world's playouts: (declarer, suit) -> which side took each point.
        self._playouts: dict[tuple[int, int], dict[str, int | None]] = {}

    def estimate(
        self,
        view: View,
        rng: random.Random,
        worlds: int,
        budget: Budget,
        weigh: Callable[[TrickState, View], float] | None = None,
    ) -> BidEstimate:
        """Simulate up to ``worlds`` worlds (within ``budget``); see the module for the rule."""
        seat = view.seat
        legal = view.legal_actions()
        suits = self.candidate_suits(view.hand)
        sums: dict[tuple[int, int], float] = {(a, s): 0.0 for a in legal for s in suits}
        total = 0.0
        used = 0
        sampler = Determinizer(view)
        self._deadline = budget.solver_deadline()
        for _ in range(worlds):
            if not budget.allows():
                break
            world = sampler.sample(rng)
            w = weigh(world, view) if weigh is not None else 1.0
            self._playouts.clear()
            self._solves.clear()
            found: list[tuple[int, dict[int, float]]] = []
            try:
                for action in legal:
                    values = self._values(world, seat, action, suits)
                    if values is not None:  # (thrown in: worth 0 whatever the suit)
                        found.append((action, values))
            except SolveTimeout:
                break  # the time is up in this world's solves: it is not counted
            for action, values in found:
                for suit, value in values.items():
                    sums[action, suit] += w * value
            total += w
            used += 1
            budget.done()
        out = BidEstimate(worlds=used)
        if not used or total <= 0.0:
            return out
        for action in legal:
            best = max(suits, key=lambda s: (sums[action, s], -s))
            out.values[action] = sums[action, best] / total
        return out

    def candidate_suits(self, hand: int) -> list[int]:
        """The suits the seat could name with its first lead, the best ``suits`` by estimate."""
        held = [s for s in range(4) if hand >> (13 * s) & 0x1FFF]
        held.sort(key=lambda s: (-suit_estimate(hand, s, self.rules), s))
        return held[: max(self.suits, 1)] or [0]

    # ----------------------------------------------------------------------- one world

    def _values(
        self, world: TrickState, seat: int, action: int, suits: list[int]
    ) -> dict[int, float] | None:
        """The action's value in ``world`` for each candidate suit (equal where another seat
        declares); None for a throw-in."""
        state = world.clone()
        state.apply(action)
        models = self.models
        while state.phase == AUCTION or state.phase == DISCARDING:
            state.apply(models[state.to_act].act(state.view(state.to_act)))
        if state.phase != PLAY:
            return None
        assert isinstance(state, SetbackState)
        declarer, bid = state.declarer, state.bid
        if self.solved:
            return self._solved(state, declarer, bid, seat, suits)
        hole = state.scores[self._side[declarer]] < 0
        if declarer != seat:
            points = self._playout(state, declarer, -1)
            return dict.fromkeys(suits, self._margin(points, declarer, bid, seat, hole))
        return {
            s: self._margin(self._playout(state, seat, s), seat, bid, seat, hole) for s in suits
        }

    def _solved(
        self, state: SetbackState, declarer: int, bid: int, seat: int, suits: list[int]
    ) -> dict[int, float]:
        """The contract's value for each candidate suit: its first lead made, the rest of the
        hand solved double-dummy.

        Where the seat declares, the lead of each candidate suit is its highest card there, as
        in a playout; where another seat declares, it leads as the model would with its own
        cards (not as a solve of the whole deal would: nobody names trump seeing the others'
        hands), the same for every suit. Each (declarer, bid, suit) is solved once a world.
        """
        if declarer != seat:
            value = self._solve_after(state, declarer, bid, -1, seat)
            return dict.fromkeys(suits, value)
        return {s: self._solve_after(state, declarer, bid, s, seat) for s in suits}

    def _solve_after(
        self, state: SetbackState, declarer: int, bid: int, suit: int, seat: int
    ) -> float:
        key = (declarer, bid, suit)
        got = self._solves.get(key)
        if got is not None:
            return got
        play = state.clone()
        lead = self._lead(state, declarer, suit)
        play.apply(lead)
        value = float(solve(play, seat, self._deadline).value)
        self._solves[key] = value
        return value

    def _lead(self, state: SetbackState, declarer: int, suit: int) -> int:
        """The declarer's first lead: its highest card of ``suit`` (>= 0, where it holds
        one), else the model's."""
        if suit >= 0:
            power = self.game.trumps[suit].power
            ranks = state.hands[declarer] >> (13 * suit) & 0x1FFF
            cards = [13 * suit + r for r in range(13) if ranks >> r & 1]
            if cards:
                return max(cards, key=power.__getitem__)
        return self.models[declarer].act(state.view(declarer))

    def _playout(self, state: SetbackState, declarer: int, suit: int) -> dict[str, int | None]:
        """Which side took each point when the model plays the hand out (cached per world).

        ``suit`` >= 0: the declarer's first lead is its highest card of that suit.
        """
        key = (declarer, suit)
        got = self._playouts.get(key)
        if got is not None:
            return got
        play = state.clone()
        if suit >= 0:
            power = self.game.trumps[suit].power
            ranks = play.hands[declarer] >> (13 * suit) & 0x1FFF
            cards = [13 * suit + r for r in range(13) if ranks >> r & 1]
            if cards:  # (a declarer may have discarded the suit: the model leads then)
                play.apply(max(cards, key=power.__getitem__))
        models = self.models
        while play.phase == PLAY:
            play.apply(models[play.to_act].act(play.view(play.to_act)))
        result = play.results[-1]
        assert isinstance(result, SetbackResult)
        points = dict(result.points)
        self._playouts[key] = points
        return points

    def _margin(
        self,
        points: dict[str, int | None],
        declarer: int,
        bid: int,
        seat: int,
        in_hole: bool = False,
    ) -> float:
        """The seat's side's score change minus the others', by the game's own scoring (a hand
        that wins the match outright adds the target, for the side that wins it)."""
        game = self.game
        opts = game.options
        side = self._side[declarer]
        _, delta, outright = score_contract(
            points,
            side,
            bid,
            opts.declarer_scores,
            game.num_scores,
            game.weights,
            moon=game.moon_level > 0 and bid == game.moon_level,
            moon_value=opts.moon_value,
            total=game.total_points,
            smudge=opts.smudge and bid == opts.max_bid,
            in_hole=in_hole,
        )
        if outright:
            delta[side] += opts.target
        return float(2 * delta[self._side[seat]] - sum(delta))


__all__ = ["DEFAULT_MARGIN", "DEFAULT_SUITS", "BidEstimate", "PitchBidder"]
