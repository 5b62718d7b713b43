"""The ``pimc`` bot: perfect-information Monte Carlo card play for Setback and the Pitch presets.

Each card-play decision

1. **samples worlds** consistent with the seat's view
   (:class:`~tricktable.search.determinize.Determinizer`: the hidden cards dealt uniformly
   among the holdings that fit all the seat knows);
2. **weights each world by the auction** (``inference``, on by default): the game's heuristic
   bot — the model of play — is asked, with that world's hands, what every *other* seat would
   have bid at each of its turns of this hand's auction; each turn where it would have done
   what the seat really did keeps the weight, each where it would not multiplies it by
   ``mismatch`` (0.25 by default: soft, since the heuristic is only a model and real players
   bid otherwise — a bot that trusts the bidding too much is a known complaint). A seat that
   passed on a strong hand under the model, or bid on a weak one, thus makes worlds that
   give it such a hand less likely. The plays are not weighed (future work);
3. **solves each world exactly** (:func:`~tricktable.search.solver.solve`: every legal card's
   value, the seat's side's score change minus the rest's, under perfect play by all);
4. **plays the card of the best weighted mean** over the worlds (ties: the lowest card).

**Budget.** ``worlds`` is the most worlds a decision solves; ``max_seconds`` (0.5 s by
default) its time: sampling stops when the next world, at the slowest pace seen so far in
this decision, would pass it, and a solve still running when the time is up is abandoned
(its world is not counted). The pure-Python solver needs from tens of milliseconds to
seconds for a world of the first trick (Pedro's nine-card hands far more), so early in a
hand the budget buys few worlds, and where it buys none the heuristic plays the card
(counted in ``fallbacks``); later tricks get the full ``worlds``. ``worlds_used`` and
``decisions`` give the mean worlds a decision.

**Determinism.** Each decision draws from a generator seeded by (the seat's seed, the hand's
number, the view's step), so a match resumed from its record plays on the same — when the
time cap does not bind: ``max_seconds=None`` for strict determinism.

**Only card play is searched.** The auction and anything else before the first card are
played by the game's heuristic (``Game.heuristic_bot``); bidding by simulation (each bid
judged on sampled, solved deals) is future work.

Each solve is given the decision's deadline (:func:`~tricktable.search.solver.solve`'s
``deadline``): one still running when it passes is abandoned and not counted.
"""

from __future__ import annotations

import time
from typing import Final

from tricktable.bots.base import Bot
from tricktable.bots.search_base import SearchBot, other_phases_bot
from tricktable.engine.trick import PLAY, Game, HandLog, TrickState, View
from tricktable.errors import BotError, TricktableError
from tricktable.games.setback import Setback
from tricktable.search.determinize import Determinizer
from tricktable.search.rules import rules_for
from tricktable.search.solver import SolveTimeout, solve

#: the most worlds a decision solves by default
DEFAULT_WORLDS: Final = 40
#: the time budget of a decision by default, seconds (the issue's ceiling, one core)
DEFAULT_SECONDS: Final = 0.5
#: the factor a world's weight takes for each auction turn the model would have played otherwise
DEFAULT_MISMATCH: Final = 0.25


class PimcBot(SearchBot):
    """Plays cards by perfect-information Monte Carlo; bids by the game's heuristic.

    ``worlds`` is the most worlds a decision solves, ``max_seconds`` its time budget (None:
    none), ``inference`` whether worlds are weighted by the auction, ``mismatch`` the weight
    factor of an auction turn the model would have played otherwise (see the module).
    """

    name = "pimc"

    def __init__(
        self,
        worlds: int = DEFAULT_WORLDS,
        max_seconds: float | None = DEFAULT_SECONDS,
        inference: bool = True,
        mismatch: float = DEFAULT_MISMATCH,
    ) -> None:
        if worlds < 1:
            raise ValueError(f"pimc needs at least one world, got {worlds}")
        if not 0.0 < mismatch <= 1.0:
            raise ValueError(f"pimc's mismatch weight must be in (0, 1], got {mismatch}")
        super().__init__()
        self.worlds = worlds
        self.max_seconds = max_seconds
        self.inference = inference
        self.mismatch = mismatch
        self._model: Bot | None = None
        #: card-play decisions searched, worlds they solved, and those no world was solved for
        self.decisions = 0
        self.worlds_used = 0
        self.fallbacks = 0
        #: worlds the last search solved
        self.last_worlds = 0

    # ------------------------------------------------------------------ the Bot interface

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        if not isinstance(game, Setback):
            raise BotError(
                f"the pimc bot plays only Setback and the Pitch presets (it needs their"
                f" solver), not {game.name}"
            )
        super().start_match(game, seat, seed)
        self._model = other_phases_bot(game)
        self._model.start_match(game, seat, seed)

    def act(self, view: View) -> int:
        if view.phase != PLAY:
            return self._delegate().act(view)
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self.decisions += 1
        try:
            totals, weight, used = self._search(view)
        except TricktableError:
            totals, weight, used = {}, 0.0, 0  # no world could be sampled
        self.worlds_used += used
        if not used or weight <= 0.0:
            self.fallbacks += 1
            return self._delegate().act(view)
        return min(legal, key=lambda c: (-totals.get(c, float("-inf")), c))

    def close(self) -> None:
        super().close()
        if self._model is not None:
            self._model.close()
            self._model = None

    # ---------------------------------------------------------------------- explanation

    def mean_worlds(self) -> float:
        """The mean number of worlds a searched decision solved."""
        return self.worlds_used / self.decisions if self.decisions else 0.0

    def hint(self, view: View) -> list[tuple[int, float, int]]:
        """The legal cards of a card-play decision, best first: (card, mean value, worlds).

        The mean value is the weighted mean over the worlds of the card's exact value (the
        seat's side's score change minus the rest's). Empty outside card play, or when no
        world could be solved within the budget.
        """
        if view.phase != PLAY:
            return []
        totals, weight, used = self._search(view)
        if not used or weight <= 0.0:
            return []
        ranked = sorted(totals, key=lambda c: (-totals[c], c))
        return [(c, totals[c] / weight, used) for c in ranked]

    # --------------------------------------------------------------------------- search

    def _search(self, view: View) -> tuple[dict[int, float], float, int]:
        """Solve worlds within the budget: the weighted value sums, the total weight, worlds."""
        start = time.perf_counter()
        deadline = None if self.max_seconds is None else start + self.max_seconds
        rng = self._rng(view)
        sampler = Determinizer(view)
        totals: dict[int, float] = dict.fromkeys(view.legal_actions(), 0.0)
        weight = 0.0
        used = 0
        slowest = 0.0
        for _ in range(self.worlds):
            began = time.perf_counter()
            if deadline is not None and began + slowest > deadline:
                break
            world = sampler.sample(rng)
            w = self.auction_weight(world, view) if self.inference else 1.0
            try:
                moves = solve(world, view.seat, deadline).moves
            except SolveTimeout:
                break
            for card, value in moves.items():
                totals[card] += w * value
            weight += w
            used += 1
            slowest = max(slowest, time.perf_counter() - began)
        self.last_worlds = used
        return totals, weight, used

    def auction_weight(self, world: TrickState, view: View) -> float:
        """How well ``world`` fits the auction under the model: ``mismatch`` per turn it misses.

        The hand is replayed from ``world``'s deal; at each auction turn of another seat the
        model (the game's heuristic) is asked what it would have done there.
        """
        model = self._model
        if model is None:
            raise BotError("the pimc bot was not started")
        game = view.game
        replay = game.new_state(0)
        rules_for(game).position(replay, view)
        if view.hand_number:
            past = HandLog(view.dealer, [0] * game.num_players, [], [], [])
            replay.history = [past] * view.hand_number
        replay.deal(list(world.dealt), dealer=view.dealer, stock=list(world.stock))
        weight = 1.0
        for seat, action in view.actions:
            if replay.phase == PLAY:
                break
            if seat != view.seat and model.act(replay.view(seat)) != action:
                weight *= self.mismatch
            replay.apply(action)
        return weight


__all__ = ["PimcBot"]
