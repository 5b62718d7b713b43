"""An example Python class bot: load it with ``--players examples/bots/plugin_bot.py:CautiousBot``.

    tricktable play --game setback \\
        --players examples/bots/plugin_bot.py:CautiousBot,heuristic,heuristic,heuristic
    tricktable bot-check examples/bots/plugin_bot.py:CautiousBot --game spades

A plug-in bot is a class with ``act(view) -> action``; subclassing ``Bot`` also gives it
``start_match``, ``end_hand``, ``end_match`` and ``close``, all optional. It is created with no
arguments, once per match and seat. It sees only its seat's ``View``: its hand (a card mask),
the trick, the finished tricks, the public actions, the scores. It plays every game of the
family, knowing each only through the legal actions.

Its play: win the trick as cheaply as it can, or else throw its lowest card. Its bids: one per
ace and per high trump-looking card, or pass when that is too few.
"""

from __future__ import annotations

from tricktable.bots.base import Bot
from tricktable.cards import cards_in, rank_of
from tricktable.engine import actions
from tricktable.engine.trick import View


class CautiousBot(Bot):
    """Wins cheaply when it can, throws low when it cannot, bids what its aces are worth."""

    name = "cautious"

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        cards = [a for a in legal if actions.is_play(a)]
        if cards:
            return self.play(view, cards)
        return self.choose(view, legal)

    def play(self, view: View, cards: list[int]) -> int:
        """The card to play: the cheapest winner, or the lowest card."""
        trick = view.trick
        power = view.tables.power
        by_strength = sorted(cards, key=lambda c: (power[c], rank_of(c)))
        if not trick:
            return by_strength[-1]  # lead the strongest
        led = view.tables.suit_mask[trick[0][1]]

        def strength(card: int) -> int:
            p = power[card]
            return p if p >= 100 or led >> card & 1 else -1  # off-suit cards cannot win

        best = max(strength(c) for _, c in trick)
        winners = [c for c in by_strength if strength(c) > best]
        return winners[0] if winners else by_strength[0]

    def choose(self, view: View, legal: list[int]) -> int:
        """Every other decision: a bid from the aces and kings held, else pass or the first."""
        high = sum(1 for c in cards_in(view.hand) if rank_of(c) >= 11)
        bids = [a for a in legal if actions.is_bid(a)]
        fitting = [a for a in bids if a - actions.BID <= max(high, 1)]
        if fitting:
            return fitting[-1]
        if actions.PASS in legal:
            return actions.PASS
        look = [a for a in legal if view.game.action_name(a) == "look"]
        if look:
            return look[0]  # never bid blind
        return bids[0] if bids else legal[0]
