"""The ``pimc`` bot: perfect-information Monte Carlo, for every game a solver here supports.

The games: those :func:`tricktable.search.solver.supports` names (Setback and the Pitch
presets, Hearts, Spades), and partnership Euchre, which DDS solves
(:func:`tricktable.search.solver.dds.models`, where endplay is installed); any other is
refused with one line.

**Card play.** Each decision

1. **samples worlds** consistent with the seat's view
   (:class:`~tricktable.search.determinize.Determinizer`: the hidden cards dealt uniformly
   among the holdings that fit all the seat knows);
2. **weights each world by inference** (``inference``, on by default;
   :class:`~tricktable.search.inference.Inference`): the **model** of the other seats is the
   game's own heuristic bot (``Game.heuristic_bot``: for the Pitch family
   :class:`~tricktable.bots.pitch_heuristic.PitchHeuristic`), asked, with that world's cards,
   what each other seat would have done at each of its earlier decisions of this hand that
   the seat saw: its bids and passes in the auction, and (``infer_plays``, on by default) its
   cards. Each decision where the model would have done what the seat really did keeps the
   weight; each where it would not multiplies it by ``mismatch`` (0.25) for a bid or
   ``play_mismatch`` (0.5) for a card — soft factors, since the heuristic is only a model
   and real players bid and play otherwise (a bot that trusts the others too much is a known
   complaint). A seat that passed on a strong hand under the model, or did not follow with a
   card the model would have played, thus makes the worlds that give it such cards less
   likely. The world is replayed once and the model's answers cached (see that module);
3. **solves each world exactly** (:func:`~tricktable.search.solver.solve`: every legal card's
   value, the seat's side's score change minus the rest's, under perfect play by all);
4. **plays the card of the best weighted mean** over the worlds (ties: the lowest card).

**Where a solve is out of reach** (``cards="auto"``, the default): a world is solved only
while at most ``solve_cards`` cards (24) are left in the hands — all of a Setback hand, the
last six tricks of Hearts and Spades, where the compiled solver takes milliseconds; earlier,
each legal card is valued in each world by a **rollout**: the model (the heuristic) plays the
rest of the hand for every seat, the seat's own later cards too, and the card's value is the
same measure as the solver's, from the hand's scores. This is Monte Carlo search over a
policy (a one-step improvement of the heuristic, as imperfect-information Monte Carlo with a
playout policy: Furtak and Buro, 2013): nobody in a rollout plays seeing the others' cards, so
it has none of PIMC's *strategy fusion* — the solver's assumption that every later choice is
made knowing the deal. ``cards="solve"`` always solves (falling back to the heuristic where no
solve ends in time), ``cards="rollout"`` always plays out.

**Spades: the whole hand double-dummy** (``dds``, on by default). Beyond ``solve_cards``, a
Spades world is valued by DDS, the bridge solver (:mod:`tricktable.search.solver.dds`:
Spades' play is bridge's with spades trump), from the first card: a 13-card world in tens of
milliseconds. Only where the hand's value is its side's trick count, never falling as it
grows — no nil open, no ten bags in reach — does DDS answer; a world with a nil open is rolled
out as above, and the last six tricks are solved by the project's own exact solver, which
also keeps the lead rule (spades unbroken) that DDS does not. Without endplay installed, one
line says so and the rollouts play.

**Bidding** (Setback and the Pitch presets): each legal bid and passing is valued on sampled
worlds (weighted by the auction so far, as above), the rest of the auction played by the
model; ``bidding="solve"`` (the default, ``"auto"``, where the solver's compiled core is
built) then makes the contract's first lead — the seat's highest card of each candidate suit
where it declares, the model's lead where another seat declares (nobody names trump seeing
the deal) — and solves the rest of the hand double-dummy; ``bidding="simulate"`` (the default
without the compiled core) plays the hand out by the model instead. Scored by the game's
rules; the highest value wins, a bid needing to beat passing by ``bid_margin`` points
(:mod:`tricktable.bots.pimc_bidding` has the rule). The trump is named by the first
lead in every Pitch preset, which the card search covers (the solver values each first card
with the trump it names). ``bidding="heuristic"`` bids as the heuristic does. Spades' bids:
``bidding="solve"`` values every bid on sampled deals solved by DDS from the first lead
(:mod:`tricktable.bots.pimc_spades`), any other setting bids as the heuristic does (the
default: see docs/strength.md). Hearts' passes are the game's heuristic's (not simulated), as
is anything else before the first card.

**Budget.** ``worlds`` is the most worlds a card decision solves, ``bid_worlds`` the most a bid
decision plays out; ``max_seconds`` (0.5 s by default) the time of either: sampling stops when
the next world, at the slowest pace seen so far in this decision, would pass it, and a solve
still running when the time is up is abandoned (its world is not counted). The compiled solver
(:mod:`tricktable.search.solver.fast`) solves a Setback world of the first trick in a few
milliseconds, so a decision gets from tens of worlds (the first trick, on a loaded machine)
to the full ``worlds`` (200); the pure-Python one needs from tens of milliseconds to seconds,
and where the budget buys no world the heuristic plays the card (counted in
``fallbacks``). ``worlds_used`` and
``decisions`` (``bid_worlds_used`` and ``bid_decisions`` for bids) give the mean worlds a
decision; ``inference_seconds`` the time spent weighing. The budget counts the wall clock;
``clock="cpu"`` counts the process's CPU time instead (:mod:`tricktable.bots.budget`), so that
a strength measurement on a loaded, shared machine gives the bot what 0.5 s of one core buys.

**Determinism.** Each decision draws from a generator seeded by (the seat's seed, the hand's
number, the view's step), so a match resumed from its record plays on the same — when the
time cap does not bind: ``max_seconds=None`` for strict determinism.

Each solve is given the decision's deadline (:func:`~tricktable.search.solver.solve`'s
``deadline``): one still running when it passes is abandoned and not counted.
"""

from __future__ import annotations

import time
from typing import Final

from tricktable.bots.base import Bot
from tricktable.bots.budget import CLOCKS, Budget
from tricktable.bots.pimc_bidding import DEFAULT_MARGIN, DEFAULT_SUITS, BidEstimate, PitchBidder
from tricktable.bots.pimc_spades import SpadesBidder
from tricktable.bots.search_base import SearchBot, other_phases_bot
from tricktable.engine.trick import AUCTION, PLAY, Game, TrickState, View
from tricktable.errors import BotError, TricktableError
from tricktable.games import load_game
from tricktable.games.setback import Setback
from tricktable.search.determinize import Determinizer
from tricktable.search.inference import DEFAULT_BID_MISMATCH, DEFAULT_PLAY_MISMATCH, Inference
from tricktable.search.solver import SolveTimeout, solve, supports
from tricktable.search.solver.dds import (
    DDSFailed,
    tell_failed,
    tell_unavailable,
    unavailable_reason,
)
from tricktable.search.solver.dds import available as dds_loaded
from tricktable.search.solver.dds import models as dds_models
from tricktable.search.solver.dds import usable as dds_usable
from tricktable.search.solver.dds import values as dds_values
from tricktable.search.solver.fast import available as compiled

#: the most worlds a card decision solves by default (the compiled solver affords a hundred
#: or more at Setback's first trick in 0.5 s; the time binds first early in a hand)
DEFAULT_WORLDS: Final = 200
#: the most worlds a bid decision plays out by default (the time binds first, about 100)
DEFAULT_BID_WORLDS: Final = 400
#: the time budget of a decision by default, seconds (the issue's ceiling, one core)
DEFAULT_SECONDS: Final = 0.5
#: the factor a world's weight takes for each auction turn the model would have played otherwise
DEFAULT_MISMATCH: Final = DEFAULT_BID_MISMATCH
#: how a Pitch-family bid is chosen: "solve" (sampled deals, each contract solved from its
#: first lead), "simulate" (sampled deals played out by the model), "heuristic", or "auto":
#: "solve" where the solver's compiled core is built, else "simulate" (the Python solver
#: affords a few worlds a bid, too few)
BIDDING: Final = ("auto", "solve", "simulate", "heuristic")
#: how a card decision values its cards in a world: "auto" (solved while at most
#: ``solve_cards`` cards are left in the hands, else played out), "solve" or "rollout"
CARDS: Final = ("auto", "solve", "rollout")
#: the most cards left in the hands for which "auto" solves (Setback's whole hand; the last
#: six tricks of Hearts and Spades, where a solve takes milliseconds, not seconds)
DEFAULT_SOLVE_CARDS: Final = 24


class PimcBot(SearchBot):
    """Plays cards by perfect-information Monte Carlo; bids by simulation in the Pitch family.

    ``worlds`` is the most worlds a card decision solves, ``max_seconds`` the time budget of a
    decision (None: none), ``inference`` whether worlds are weighted by what the other seats
    did, ``mismatch`` and ``play_mismatch`` the weight factors of an auction action and of a
    card the model would have taken otherwise, ``infer_plays`` whether cards are weighed at all
    (or the auction only); ``bidding``, ``bid_worlds``, ``bid_margin`` and ``bid_suits`` steer
    the bids (see the module and :mod:`tricktable.bots.pimc_bidding`); ``clock`` is "wall" or
    "cpu" (what ``max_seconds`` counts).
    """

    name = "pimc"

    def __init__(
        self,
        worlds: int = DEFAULT_WORLDS,
        max_seconds: float | None = DEFAULT_SECONDS,
        inference: bool = True,
        mismatch: float = DEFAULT_MISMATCH,
        play_mismatch: float = DEFAULT_PLAY_MISMATCH,
        infer_plays: bool = True,
        bidding: str = "auto",
        bid_worlds: int = DEFAULT_BID_WORLDS,
        bid_margin: float = DEFAULT_MARGIN,
        bid_suits: int = DEFAULT_SUITS,
        clock: str = "wall",
        cards: str = "auto",
        solve_cards: int = DEFAULT_SOLVE_CARDS,
        dds: bool = True,
    ) -> None:
        if worlds < 1 or bid_worlds < 1:
            raise BotError(f"pimc needs at least one world, got {min(worlds, bid_worlds)}")
        for what, factor in (("mismatch", mismatch), ("play_mismatch", play_mismatch)):
            if not 0.0 < factor <= 1.0:
                raise BotError(f"pimc's {what} weight must be in (0, 1], got {factor}")
        if clock not in CLOCKS:
            raise BotError(f"pimc's clock must be one of {', '.join(CLOCKS)}, got {clock!r}")
        if bidding not in BIDDING:
            raise BotError(f"pimc's bidding must be one of {', '.join(BIDDING)}, got {bidding!r}")
        if cards not in CARDS:
            raise BotError(f"pimc's cards must be one of {', '.join(CARDS)}, got {cards!r}")
        super().__init__()
        self.worlds = worlds
        self.max_seconds = max_seconds
        self.inference = inference
        self.mismatch = mismatch
        self.play_mismatch = play_mismatch
        self.infer_plays = infer_plays
        self.bidding = bidding
        self.bid_worlds = bid_worlds
        self.bid_margin = bid_margin
        self.bid_suits = bid_suits
        self.clock = clock
        self.cards = cards
        self.solve_cards = solve_cards
        self.dds = dds
        # Whether this match's worlds go to DDS beyond ``solve_cards`` (Spades, Euchre).
        self._dd = False
        # Whether the project's exact solver takes this match's game.
        self._exact = True
        # The model of every seat inside a world (rollouts, the bids' auctions), by seat.
        self._players: list[Bot] = []
        # Wall seconds a CPU second took in the last decision (the CPU clock's solver deadline).
        self._pace: float | None = None
        self._model: Bot | None = None
        self._weigh: Inference | None = None
        self._auction: Inference | None = None
        self._bidder: PitchBidder | SpadesBidder | None = None
        #: card-play decisions searched, worlds they solved, and those no world was solved for
        self.decisions = 0
        self.worlds_used = 0
        self.fallbacks = 0
        #: worlds valued by DDS (Spades beyond ``solve_cards``), and those it did not model
        self.dd_worlds = 0
        self.dd_declined = 0
        #: bid decisions simulated, and the worlds they played out
        self.bid_decisions = 0
        self.bid_worlds_used = 0
        #: seconds spent weighing worlds (inference), over all decisions
        self.inference_seconds = 0.0
        #: worlds the last search used
        self.last_worlds = 0

    # ------------------------------------------------------------------ the Bot interface

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        # The project's exact solver, or DDS alone (Euchre: its bowers mapped into trump).
        self._exact = supports(game)
        by_dds = dds_usable(game) and self.dds and self.cards != "rollout"
        if not self._exact and not by_dds:
            why = "its solver does not support that game"
            if dds_models(game):
                why = unavailable_reason() or "pimc was asked not to use DDS"
            if game.num_players != 4 and _solved_at_four(game.name):
                why = f"its solver plays {game.name} at four seats, not {game.num_players}"
            raise BotError(f"the pimc bot cannot play {game.name}: {why}")
        super().start_match(game, seat, seed)
        self._model = model = other_phases_bot(game)
        model.start_match(game, seat, seed)
        self._weigh = Inference(model, self.mismatch, self.play_mismatch, plays=self.infer_plays)
        self._auction = Inference(model, self.mismatch, self.play_mismatch, plays=False)
        self._bidder = None
        self._players = models = [other_phases_bot(game) for _ in range(game.num_players)]
        for s, one in enumerate(models):
            one.start_match(game, s, seed)
        self._dd = self.dds and self.cards != "rollout" and dds_models(game)
        if self._dd and not dds_loaded():
            tell_unavailable("the heuristic's rollouts")
            self._dd = False
        if game.name == "spades" and self.bidding == "solve" and game.num_players == 4:
            if dds_loaded():
                self._bidder = SpadesBidder(models)
            else:
                tell_unavailable("the heuristic's bids")
        if isinstance(game, Setback) and self.bidding != "heuristic":
            solved = self.bidding == "solve" or (self.bidding == "auto" and compiled())
            self._bidder = PitchBidder(game, models, self.bid_suits, solved=solved)

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if view.phase == AUCTION and self._bidder is not None and len(legal) > 1:
            return self._bid(view)
        if view.phase != PLAY:
            return self._delegate().act(view)
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
        for one in self._players:
            one.close()
        self._players = []
        self._bidder = None

    # ---------------------------------------------------------------------- explanation

    def mean_worlds(self) -> float:
        """The mean number of worlds a searched card decision solved."""
        return self.worlds_used / self.decisions if self.decisions else 0.0

    def mean_bid_worlds(self) -> float:
        """The mean number of worlds a simulated bid decision played out."""
        return self.bid_worlds_used / self.bid_decisions if self.bid_decisions else 0.0

    def hint(self, view: View) -> list[tuple[int, float, int]]:
        """The legal actions of a searched decision, best first: (action, mean value, worlds).

        Card play: the mean value is the weighted mean over the worlds of the card's exact
        value (the seat's side's score change minus the rest's). A Pitch-family bid decision:
        each bid's and passing's weighted mean of the same measure over the played-out worlds
        (see :mod:`tricktable.bots.pimc_bidding`), ranked by the bot's rule (a bid's value less
        ``bid_margin`` against passing's), so the first is the bid the bot would make. Empty
        where nothing is searched (another phase, another seat's turn), or when no world could
        be used within the budget.
        """
        legal = view.legal_actions()
        if not legal:
            return []
        if view.phase == AUCTION and self._bidder is not None:
            estimate = self._estimate_bids(view)
            return [
                (a, estimate.values[a], estimate.worlds) for a in estimate.ranked(self.bid_margin)
            ]
        if view.phase != PLAY:
            return []
        totals, weight, used = self._search(view)
        if not used or weight <= 0.0:
            return []
        ranked = sorted(totals, key=lambda c: (-totals[c], c))
        return [(c, totals[c] / weight, used) for c in ranked]

    # ----------------------------------------------------------------------------- bids

    def _bid(self, view: View) -> int:
        """The bid (or pass) of the best simulated value; the heuristic's if no world ran."""
        self.bid_decisions += 1
        try:
            estimate = self._estimate_bids(view)
        except TricktableError:
            estimate = BidEstimate()  # no world could be sampled
        self.bid_worlds_used += estimate.worlds
        if not estimate.values:
            self.fallbacks += 1
            return self._delegate().act(view)
        return estimate.ranked(self.bid_margin)[0]

    def _estimate_bids(self, view: View) -> BidEstimate:
        bidder = self._bidder
        if bidder is None:
            raise BotError("the pimc bot was not started")
        budget = Budget(self.max_seconds, self.clock, self._pace)
        weigh = self._timed_weight if self.inference else None
        estimate = bidder.estimate(view, self._rng(view), self.bid_worlds, budget, weigh)
        self._pace = budget.pace()
        self.last_worlds = estimate.worlds
        return estimate

    # --------------------------------------------------------------------------- search

    def _search(self, view: View) -> tuple[dict[int, float], float, int]:
        """Solve worlds within the budget: the weighted value sums, the total weight, worlds."""
        budget = Budget(self.max_seconds, self.clock, self._pace)
        rng = self._rng(view)
        sampler = Determinizer(view)
        legal = view.legal_actions()
        totals: dict[int, float] = dict.fromkeys(legal, 0.0)
        weight = 0.0
        used = 0
        solving = self._solves(view)
        for _ in range(self.worlds):
            if not budget.allows():
                break
            world = sampler.sample(rng)
            w = self._timed_weight(world, view) if self.inference else 1.0
            moves: dict[int, float] | dict[int, int] | None = None
            if solving:
                try:
                    moves = solve(world, view.seat, budget.solver_deadline()).moves
                except SolveTimeout:
                    break
            elif self._dd:
                moves = self._double_dummy(world, view.seat)
            if moves is None:
                moves = self._rollouts(world, view.seat, legal)
            for card, value in moves.items():
                totals[card] += w * value
            weight += w
            used += 1
            budget.done()
        self.last_worlds = used
        self._pace = budget.pace()
        return totals, weight, used

    def _solves(self, view: View) -> bool:
        """Whether this card decision solves its worlds by the project's exact solver (else
        by DDS where it answers, or plays them out: ``cards``)."""
        if not self._exact:
            return False  # Euchre: DDS or playouts
        if self.cards != "auto":
            return self.cards == "solve"
        # The cards left in the hands, about: the seat's own, at every seat.
        return view.hand.bit_count() * view.game.num_players <= self.solve_cards

    def _double_dummy(self, world: TrickState, seat: int) -> dict[int, int] | None:
        """Each legal card's value in ``world`` by DDS (Spades, Euchre), or None where DDS
        does not model it (a nil open, bags past a ten in reach, a lone hand: rolled out). A
        DDS that fails is logged once and not asked again this match."""
        try:
            found = dds_values(world, seat)
        except DDSFailed as exc:
            tell_failed(exc, "the heuristic's rollouts")
            self._dd = False
            return None
        if found is None:
            self.dd_declined += 1
            return None
        self.dd_worlds += 1
        return dict(found.moves)

    def _rollouts(self, world: TrickState, seat: int, legal: list[int]) -> dict[int, float]:
        """Each legal card's value in ``world`` when the model plays the rest of the hand for
        every seat, the seat's own later cards too (the solver's measure, from the scores).

        Nobody here plays with the others' cards in sight, so a card's value is what it is
        worth against the model, not against a clairvoyant defence (strategy fusion: see the
        module)."""
        players = self._players
        game = world.game
        side = game.team_of(seat)
        before = world.scores
        out: dict[int, float] = {}
        for card in legal:
            play = world.clone()
            play.apply(card)
            while play.phase == PLAY:
                to_act = play.to_act
                play.apply(players[to_act].act(play.view(to_act)))
            after = play.results[-1].scores
            delta = [a - b for a, b in zip(after, before, strict=True)]
            mine = delta[side]
            rest = sum(delta) - mine
            if game.lower_wins:
                out[card] = float(rest - (len(delta) - 1) * mine)
            else:
                out[card] = float(mine - rest)
        return out

    def _timed_weight(self, world: TrickState, view: View) -> float:
        began = time.perf_counter()
        w = self.world_weight(world, view)
        self.inference_seconds += time.perf_counter() - began
        return w

    def world_weight(self, world: TrickState, view: View) -> float:
        """How well ``world`` explains the other seats' bids and (``infer_plays``) cards under
        the model: the product of the mismatch factors (see the module)."""
        if self._weigh is None:
            raise BotError("the pimc bot was not started")
        return self._weigh.weight(world, view)

    def auction_weight(self, world: TrickState, view: View) -> float:
        """How well ``world`` fits the auction alone: ``mismatch`` per bid the model misses."""
        if self._auction is None:
            raise BotError("the pimc bot was not started")
        return self._auction.weight(world, view)


def plays(game: Game) -> bool:
    """Whether the pimc bot (at its defaults) plays ``game``: the project's solver takes it,
    or DDS does where it is installed (partnership Euchre)."""
    return supports(game) or dds_usable(game)


def _solved_at_four(name: str) -> bool:
    """Whether the solver plays game ``name`` at its four-seat default (False: not a game)."""
    try:
        return supports(load_game(name))
    except TricktableError:
        return False


__all__ = ["PimcBot", "plays"]
