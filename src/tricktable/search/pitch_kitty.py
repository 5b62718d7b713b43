"""Sampling a Pitch hand played with a kitty: the kitty, the declarer's hidden discard.

:class:`~tricktable.search.rules.SetbackRules` knows the undealt cards as one pile. With the
``kitty`` option the first cards of the stock are the kitty, which the auction's winner takes,
and it then discards as many cards face down, one action each, that no other seat sees. This
module's rules (which replace Setback's in :data:`~tricktable.search.rules.RULES`, and fall
back to them for a game without a kitty) sample what a seat cannot know:

- another seat's view, after the auction: the declarer's discards so far (their number is
  public, the view's ``discarded``) are a pile of their own; which of the declarer's cards
  (in its hand, played or discarded) were the kitty is drawn uniformly, and the discards are
  put back in the hand's actions right after the auction, in a random order;
- the declarer's view: it knows the kitty (``kitty``) and its own discards (dead cards);
- any view: the rest of the stock is shuffled, and during the auction the kitty is in it.

Imported by :class:`~tricktable.games.setback.Setback` when a game has a kitty (this module
imports the rules, which import the game's module: the game cannot import it at its top).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tricktable.cards import cards_in, parse_card
from tricktable.engine.trick import AUCTION, View
from tricktable.games.setback import DISCARD, DISCARDING, Setback
from tricktable.search.rules import RULES, Rebuilt, SetbackRules
from tricktable.search.sampling import Place

if TYPE_CHECKING:
    from tricktable.search.knowledge import Knowledge


def _taken(view: View) -> tuple[int, int, int]:
    """(kitty size, declarer, discards made) once the kitty is taken; (0, -1, 0) before."""
    size = int(view.game.options.kitty)
    if not size or view.phase == AUCTION:
        return 0, -1, 0
    info = view.info()
    declarer = info.get("declarer")
    if declarer is None:
        return 0, -1, 0
    return size, int(declarer), int(info.get("discarded", 0))


def _own_discards(view: View) -> int:
    out = 0
    for actor, action in view.actions:
        if actor == view.seat and action >= DISCARD:
            out |= 1 << (action - DISCARD)
    return out


class PitchKittyRules(SetbackRules):
    """Setback's rules, and the kitty's facts where the game has one (see the module)."""

    def note(self, view: View, k: Knowledge) -> None:
        super().note(view, k)
        size, declarer, done = _taken(view)
        if not size:
            return
        if view.phase == DISCARDING:
            k.counts[declarer] += size - done  # it holds the kitty's cards until discarded
        if declarer == view.seat:
            k.dead |= _own_discards(view)

    def piles(self, view: View, k: Knowledge) -> list[Place]:
        size, declarer, done = _taken(view)
        if not size:
            return super().piles(view, k)
        game = view.game
        rest = len(game.deck) - game.num_players * self.deal_size(view) - size
        # Always two piles, the rest of the stock then the discards (either may be empty).
        hidden = done if declarer != view.seat else 0
        return [Place(rest), Place(hidden)]

    def rebuild(
        self, view: View, k: Knowledge, hands: list[int], piles: list[int], rng: random.Random
    ) -> Rebuilt:
        dealt, _stock, actions = super().rebuild(view, k, hands, piles, rng)
        size, declarer, _done = _taken(view)
        if not int(view.game.options.kitty):
            return dealt, _stock, actions
        if not size:
            # The auction: the kitty is somewhere in the undealt cards, in any order.
            stock = cards_in(piles[0]) if piles else []
            rng.shuffle(stock)
            return dealt, stock, actions
        rest = cards_in(piles[0])
        rng.shuffle(rest)
        if declarer == view.seat:
            kitty = 0
            for name in view.info()["kitty"]:
                kitty |= 1 << parse_card(name)
            held = dealt[declarer] | _own_discards(view)
        else:
            discards = cards_in(piles[1])
            rng.shuffle(discards)
            held = dealt[declarer]
            for card in discards:
                held |= 1 << card
            # The discards go back right after the auction (every action before is a bid).
            at = next((i for i, a in enumerate(actions) if a < 64), len(actions))
            actions[at:at] = [DISCARD + c for c in discards]
            kitty = 0
            for card in rng.sample(cards_in(held), size):
                kitty |= 1 << card
        dealt[declarer] = held & ~kitty
        return dealt, [*cards_in(kitty), *rest], actions


# Setback's rules, with the kitty: a game without one is sampled exactly as before.
RULES[Setback] = PitchKittyRules()
