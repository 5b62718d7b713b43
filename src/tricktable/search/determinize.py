"""Full states of the current hand consistent with one seat's view: the hidden cards sampled.

``determinize(view, rng)`` returns a :class:`TrickState` of the view's hand in which the seat's
own cards and every public fact are as the view says, and the cards the seat cannot see are
dealt at random among the holdings consistent with everything it knows (its
:class:`~tricktable.search.knowledge.Knowledge`): the cards each seat played, the voids it
showed, what the lead rules revealed, the cards known to be somewhere (passed cards, a Euchre
up-card), and how many cards each seat holds.

How the sample is drawn:

1. **Holdings, exactly uniform.** The unseen cards go to the other seats' hands (and to the
   seat's own while it may not look, Spades' blind nil) and to the piles that are in no hand
   (Setback's undealt cards, Euchre's buried cards and the dealer's discard, Oh Hell's stock),
   each place taking its known number of cards and refusing the cards it cannot hold.
   :class:`~tricktable.search.sampling.PlaceSampler` counts every such assignment and draws
   one uniformly (not by rejection), so every consistent holding is equally likely.
2. **The rest of the world, uniform too.** Hidden actions are drawn uniformly among those
   consistent with the holding: another seat's Hearts or Filippa pass is any three cards of
   its receiver's cards (before the cards move: of its own), every three as likely, which keeps
   the deal and the passes together uniform; the buried stock's order is shuffled.
3. **Replay.** A new state of the game is positioned at the view's hand (its index, which sets
   Hearts' pass direction and Oh Hell's hand size, and the match's standing: scores, bags, the
   Filippa pool), dealt the rebuilt deal by the view's dealer, and every action of the hand is
   applied in order, so the engine itself checks that the sample is legal. The rare holding
   it refuses (a fact no refusal mask can say) is drawn again: uniform still.

"Uniform" is over the worlds consistent with the facts; nothing weighs a holding by how likely
the other seats' bids or plays were under it (that is a search's business).
"""

from __future__ import annotations

import random

from tricktable.engine.game import set_rebuilder
from tricktable.engine.trick import DEAL, OVER, HandLog, TrickState, View
from tricktable.errors import TricktableError
from tricktable.search.knowledge import Knowledge
from tricktable.search.rules import rules_for
from tricktable.search.sampling import Place, PlaceSampler

#: holdings :meth:`Determinizer.sample` draws before it lets the engine's refusal through
MAX_DRAWS = 100


class Determinizer:
    """Samples full states consistent with one seat's view; made once per decision.

    The counting behind the uniform draw is done here, once; each :meth:`sample` then costs a
    draw and a replay of the hand.
    """

    def __init__(self, view: View, knowledge: Knowledge | None = None) -> None:
        if view.phase in (DEAL, OVER):
            raise TricktableError("cannot determinize: no hand is in play")
        self.view = view
        self.knowledge = k = knowledge if knowledge is not None else Knowledge(view)
        self.rules = rules = rules_for(view.game)
        #: the seats whose hands hold hidden cards, in the order of their places
        self.seats: list[int] = []
        places: list[Place] = []
        for s in range(view.game.num_players):
            need = k.counts[s] - k.known[s].bit_count()
            if s != view.seat or need:
                self.seats.append(s)
                places.append(Place(need, k.cannot[s]))
        places += rules.piles(view, k)
        self.sampler = PlaceSampler(k.unseen, places)
        self.deal_size = rules.deal_size(view)
        #: holdings drawn and refused by the engine on replay (see :meth:`sample`)
        self.rejected = 0

    def holding(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """One consistent holding: every seat's hand now, and the piles' cards (see rules)."""
        masks = self.sampler.sample(rng)
        hands = list(self.knowledge.known)
        for s, mask in zip(self.seats, masks, strict=False):
            hands[s] |= mask
        return hands, masks[len(self.seats) :]

    def world(self, hands: list[int], piles: list[int], rng: random.Random) -> TrickState:
        """The state in which the seats hold ``hands`` now and the piles ``piles``.

        Raises :class:`TricktableError` (:class:`IllegalAction` for a replay) when that
        holding is not consistent with the view.
        """
        view, k = self.view, self.knowledge
        dealt, stock, actions = self.rules.rebuild(view, k, hands, piles, rng)
        seen = 0
        for mask in dealt:
            if mask & seen or mask.bit_count() != self.deal_size:
                raise TricktableError("the holding does not make a deal")
            seen |= mask
        state = start_of_hand(view, dealt, stock, rng.getrandbits(31))
        for action in actions:
            state.apply(action)
        if state.hands != hands:
            raise TricktableError("the replayed hands differ from the holding")
        if state.phase != view.phase or state.to_act != view.to_act:
            raise TricktableError("the replayed hand took another course")
        return state

    def sample(self, rng: random.Random) -> TrickState:
        """One full state consistent with the view, the hidden cards drawn uniformly.

        A holding the engine refuses on replay (a fact no refusal can say: a Setback declarer
        that began the play holds some card other than a joker) is drawn again, which keeps
        the draw uniform among the consistent holdings; ``rejected`` counts them.
        """
        for _ in range(MAX_DRAWS - 1):
            hands, piles = self.holding(rng)
            try:
                return self.world(hands, piles, rng)
            except TricktableError:
                self.rejected += 1
        hands, piles = self.holding(rng)
        return self.world(hands, piles, rng)


def start_of_hand(view: View, dealt: list[int], stock: list[int], seed: int = 0) -> TrickState:
    """A new state of the view's hand, dealt ``dealt`` (and ``stock``), before its first action.

    It stands where the view's hand began: the match's standing (scores, bags, the Filippa
    pool), ``view.hand_number`` hands played before it (which set Hearts' pass direction and
    Oh Hell's hand size) and the view's dealer; ``seed`` is the new state's.
    """
    game = view.game
    state = game.new_state(seed)
    rules_for(game).position(state, view)
    if view.hand_number:
        past = HandLog(view.dealer, [0] * game.num_players, [], [], [])
        state.history = [past] * view.hand_number
    state.deal(dealt, dealer=view.dealer, stock=stock)
    return state


def determinize(view: View, rng: random.Random, knowledge: Knowledge | None = None) -> TrickState:
    """A full state of the view's hand, consistent with all the seat knows (see the module).

    A search that samples many worlds for one decision keeps a :class:`Determinizer` instead.
    """
    return Determinizer(view, knowledge).sample(rng)


# The engine words a refusal from a state rebuilt from the seat's view (Game.explain): it
# cannot import the search, which imports it, so the search registers itself.
set_rebuilder(determinize)
