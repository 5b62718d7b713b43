"""What a seat's search may know of an All Fours hand, and how it samples the hidden cards.

The hooks of :mod:`tricktable.search.rules` for :class:`~tricktable.games.all_fours.AllFours`:
a trump may be played while able to follow (it shows no void), the up-card is dead, each run
of the cards dealt three more to every seat and set the card turned before aside (a card of
the refused suit, face down), and the stock's rest is hidden. A
sampled world splits each seat's cards into its first six and the ones the runs gave it (which
ones is no matter for the play: High and Low count every card dealt) and lays the stock out as
the runs dealt it, so replaying the hand's actions runs the cards again exactly.

Registered when an :class:`AllFours` game is made (the search's rules import the games, so a
game module cannot import them at its own import).
"""

from __future__ import annotations

import random

from tricktable.cards import SUIT_MASKS, SUITS, cards_in, parse_card
from tricktable.engine.trick import TrickState, View
from tricktable.games.all_fours import AllFours
from tricktable.search.knowledge import Knowledge
from tricktable.search.rules import Rebuilt, SearchRules, register
from tricktable.search.sampling import Place


def _info(view: View) -> tuple[int, int, int]:
    """(the up-card, the runs, the hand's size now) from the view's facts."""
    info = view.info()
    return parse_card(info["up_card"]), int(info["runs"]), int(info["hand_size"])


@register(AllFours)
class AllFoursRules(SearchRules):
    """All Fours: trumping is free, the up-card is dead, runs add cards to every hand and set
    aside the cards turned before, face down: the piles are the first card turned, the cards
    turned between (both of the refused suit), and the stock's rest."""

    def follow_free(self, view: View) -> int:
        return view.tables.mask if view.game.options.may_trump else 0

    def note(self, view: View, k: Knowledge) -> None:
        up, runs, _size = _info(view)
        for s in range(len(k.counts)):
            k.counts[s] += 3 * runs
        k.dead |= 1 << up

    def piles(self, view: View, k: Knowledge) -> list[Place]:
        up, runs, size = _info(view)
        game = view.game
        assert isinstance(game, AllFours)
        rest = len(game.deck) - game.num_players * size - runs - 1
        piles = []
        if runs:
            # The first card turned (the refused suit) kicked what the dealer's side gained
            # beyond the last card's kick; the cards turned between were of the refused suit.
            refused = SUIT_MASKS[SUITS.index(view.info()["proposed"])]
            kicked = view.info()["gained"][game.team_of(view.dealer)] - game.kicks[up % 13]
            first = 0
            for card in cards_in(refused):
                if game.kicks[card % 13] == kicked:
                    first |= 1 << card
            piles.append(Place(1, k.deck & ~first))
            if runs > 1:
                piles.append(Place(runs - 1, k.deck & ~refused))
        if rest:
            piles.append(Place(rest))
        return piles

    def rebuild(
        self, view: View, k: Knowledge, hands: list[int], piles: list[int], rng: random.Random
    ) -> Rebuilt:
        up, runs, _size = _info(view)
        game = view.game
        n = game.num_players
        step = game.step % n
        eldest = int(view.info()["eldest"])
        held = [hand | played for hand, played in zip(hands, k.played_by, strict=True)]
        dealt = held[:]
        extras: list[list[int]] = [[] for _ in range(n)]
        turned = [up]
        if runs:
            between = cards_in(piles[1]) if runs > 1 else []
            rng.shuffle(between)
            turned = [piles[0].bit_length() - 1, *between, up]
            for s in range(n):
                extras[s] = rng.sample(cards_in(held[s]), 3 * runs)
                for card in extras[s]:
                    dealt[s] &= ~(1 << card)
        stock = [turned[0]]
        for r in range(runs):
            for i in range(n):
                stock += extras[(eldest + i * step) % n][3 * r : 3 * r + 3]
            stock.append(turned[r + 1])
        rest = cards_in(piles[-1]) if len(piles) > min(runs, 2) else []
        rng.shuffle(rest)
        return dealt, stock + rest, [action for _seat, action in view.actions]

    def position(self, state: TrickState, view: View) -> None:
        super().position(state, view)
        # The kick and the gift of this hand are scored again when the world replays it.
        gained = view.info()["gained"]
        state.scores = [s - g for s, g in zip(view.scores, gained, strict=True)]
