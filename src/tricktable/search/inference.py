"""How well a sampled world explains what the other seats did this hand, under a model of play.

A search that samples worlds consistent with a seat's view (:mod:`~tricktable.search.determinize`
draws them uniformly) learns more by weighting each world by how likely the bids and cards seen
so far were in it. :class:`Inference` does that with a **model** of the other seats: the game's
heuristic bot (``Game.heuristic_bot``), asked at every earlier decision of another seat, *with
that world's cards*, what it would have done there. The model is deterministic, so a decision
either matches what the seat really did or not; each that does not multiplies the world's
weight by a **mismatch** factor: ``bid_mismatch`` for an auction action (a bid or a pass),
``play_mismatch`` for a card. The factors are soft (well above 0) because the model is only a
model: a real player (or another bot) bids and plays otherwise, and a search that trusts the
others' bidding too much is a known complaint of players.

What is weighed: every action of this hand that the deciding seat saw another seat take, in
order — bids, passes in the auction, cards. Not weighed: the seat's own actions, and actions
it may not see (Hearts' passes of the others, which the sampler draws uniformly).

**Cost.** A world is replayed once, from its deal, through the hand's actions; the model is
asked at each weighed action (a view and one heuristic decision, some tens of microseconds).
Its answers are cached: the model sees only the actor's view — the public history, which is
the same in every world of this hand, and the actor's own cards (and in a passing game its
private passes) — so the answer is keyed by (the action's index in the hand, the actor's hand
there, its private facts) and reused by every later world and every later decision of the same
hand that gives that seat the same cards. ``max_weighed`` caps the model calls of one world
(the latest actions are weighed: the auction's and the last cards'), so that late in a hand
the weighing cannot take the budget the solves need; ``asked`` and ``cached`` count the calls.
"""

from __future__ import annotations

from typing import Final

from tricktable.bots.base import Bot
from tricktable.engine.actions import PASS_CARDS, is_play
from tricktable.engine.trick import TrickState, View
from tricktable.errors import BotError
from tricktable.search.determinize import start_of_hand

#: the factor a world's weight takes for each auction action the model would have taken
#: otherwise, and for each card: fitted (``benchmarks/inference_fit.py``, the mean log
#: probability of the hidden cards' true places, 30 Setback deals of heuristic players, 141
#: decisions of 80 worlds: -2.593 at 0.75 and 0.5, -2.606 at the former 0.25 and 0.5, -2.638
#: uniform; Hearts, 60 decisions: 0.5 for cards the best, the auction unseen)
DEFAULT_BID_MISMATCH: Final = 0.75
DEFAULT_PLAY_MISMATCH: Final = 0.5
#: the most earlier actions weighed in one world (model calls, each a few tens of microseconds)
DEFAULT_MAX_WEIGHED: Final = 48


class Inference:
    """Weights worlds by the model's agreement with the other seats' actions (see the module).

    ``model`` is a started bot of the game (the heuristic); ``plays`` whether cards are
    weighed as well as the auction.
    """

    def __init__(
        self,
        model: Bot,
        bid_mismatch: float = DEFAULT_BID_MISMATCH,
        play_mismatch: float = DEFAULT_PLAY_MISMATCH,
        plays: bool = True,
        max_weighed: int = DEFAULT_MAX_WEIGHED,
    ) -> None:
        for name, factor in (("bid_mismatch", bid_mismatch), ("play_mismatch", play_mismatch)):
            if not 0.0 < factor <= 1.0:
                raise BotError(f"inference: {name} must be in (0, 1], got {factor}")
        self.model = model
        self.bid_mismatch = bid_mismatch
        self.play_mismatch = play_mismatch
        self.plays = plays
        self.max_weighed = max_weighed
        #: model calls made, and answers taken from the cache instead
        self.asked = 0
        self.cached = 0
        self._cache: dict[tuple[int, int, int, tuple[int, ...]], int] = {}
        # What the cache is valid for: the hand (number, dealer, scores) and its public actions.
        self._tag: tuple[int, int, tuple[int, ...]] = (-1, -1, ())
        self._seen: list[tuple[int, int]] = []
        self._view: View | None = None

    def reset(self) -> None:
        """Forget the cached answers (a new match)."""
        self._cache.clear()
        self._tag = (-1, -1, ())
        self._seen = []
        self._view = None

    def weight(self, world: TrickState, view: View) -> float:
        """The product of the mismatch factors of the actions ``world`` explains otherwise.

        ``world`` is a full state of ``view``'s hand (a :class:`Determinizer` sample).
        """
        bids, plays = self.mismatches(world, view)
        return self.bid_mismatch**bids * self.play_mismatch**plays

    def mismatches(self, world: TrickState, view: View) -> tuple[int, int]:
        """How many of the weighed auction actions, and cards, the model would have taken
        otherwise in ``world`` (the weight is the factors raised to these: a fit of the
        factors scores many settings from one count, ``benchmarks/inference_fit.py``)."""
        seen = self._check_cache(view)
        seat = view.seat
        actions = world.actions
        actors = world.actors
        # The actions weighed: the other seats' that the seat saw (the world's hidden ones,
        # sampled, are skipped by walking the view's list beside the world's), the latest
        # max_weighed of them.
        weighed: list[int] = []
        j = 0
        for i, action in enumerate(actions):
            if j < len(seen) and seen[j] == (actors[i], action):
                j += 1
                if actors[i] != seat and (self.plays or not is_play(action)):
                    weighed.append(i)
        weighed = weighed[-self.max_weighed :] if self.max_weighed > 0 else []
        if not weighed:
            return 0, 0
        private = tuple(a for a in actions if a >= PASS_CARDS)
        # The hand as it was dealt (the log's), not as it stands: cards run or drawn since
        # (All Fours, California Jack) are in ``dealt`` and gone from ``stock`` by now.
        log = world.history[-1]
        replay = start_of_hand(view, list(log.deal), list(log.stock))
        model = self.model
        cache = self._cache
        bids = plays = 0
        at = 0
        last = weighed[-1]
        for i, action in enumerate(actions):
            if i == weighed[at]:
                actor = actors[i]
                key = (i, actor, replay.hands[actor], private)
                guess = cache.get(key)
                if guess is None:
                    guess = model.act(replay.view(actor))
                    cache[key] = guess
                    self.asked += 1
                else:
                    self.cached += 1
                if guess != action:
                    if is_play(action):
                        plays += 1
                    else:
                        bids += 1
                if i == last:
                    break
                at += 1
            replay.apply(action)
        return bids, plays

    def _check_cache(self, view: View) -> list[tuple[int, int]]:
        """Keep the cache while the view continues the hand it was made for; the view's
        actions (read once a view: every world of a decision asks)."""
        if view is self._view:
            return self._seen
        tag = (view.hand_number, view.dealer, tuple(view.scores))
        actions = view.actions
        seen = self._seen
        if tag != self._tag or actions[: len(seen)] != seen:
            self._cache.clear()
            self._tag = tag
        self._seen = actions
        self._view = view
        return actions


__all__ = ["Inference"]
