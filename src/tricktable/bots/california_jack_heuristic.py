"""The heuristic bot for California Jack and Shasta Sam: rules of thumb about what a trick is
worth, counting the card its winner draws.

It sees only its seat's :class:`View`. A trick is worth the cards in it (Game's count, the
jack and two of trump) and, while the stock lies face up, the top card its winner will draw.
Following, it wins a trick that is worth it with its cheapest winning card (a ten or the jack
that wins comes home itself) and otherwise throws its least useful card, never a counter to an
opponent; it never overtakes a partner who is winning, and gives a partner's trick its
counters. Leading, it plays a sure winner when the trick is worth winning (the stock's top
card, or the last tricks) and else a low card of a plain suit.
"""

from __future__ import annotations

from tricktable.bots.base import Bot
from tricktable.cards import ACE, JACK, TEN, cards_in, parse_card, rank_of, suit_of
from tricktable.engine.trick import Game, TrumpTables, View

#: what winning a card is worth, beyond Game's count, by rank in the trump suit
TRUMP_BONUS = {JACK: 6, 0: 6}  # the jack and the two (Low) of trump
#: Game's count of a card, by rank (J 1, Q 2, K 3, A 4, 10 10)
COUNT = {TEN: 10, JACK: 1, JACK + 1: 2, JACK + 2: 3, ACE: 4}
#: what a trump is worth to hold, above its count: it wins tricks later
TRUMP_HOLD = 3
#: a trick worth at least this is fought for even with a trump
FIGHT_AT = 5


def worth(card: int, trump: int) -> int:
    """What capturing ``card`` is worth: Game's count, and the jack and two of trump."""
    value = COUNT.get(rank_of(card), 0)
    if suit_of(card) == trump:
        value += TRUMP_BONUS.get(rank_of(card), 0)
    return value


def draw_worth(card: int, trump: int) -> int:
    """What drawing ``card`` into the hand is worth: a trump wins tricks, a ten or a point
    card may be brought home."""
    value = worth(card, trump) // 2
    if suit_of(card) == trump:
        value += TRUMP_HOLD + rank_of(card) // 3
    elif rank_of(card) >= JACK + 2:
        value += 1
    return value


def _beats(tables: TrumpTables, card: int, best: int, led: int) -> bool:
    """Whether ``card`` beats ``best`` in a trick led with ``led``."""
    power = tables.power

    def strength(c: int) -> int:
        p = power[c]
        return p if p >= 100 or tables.suit_mask[c] == tables.suit_mask[led] else -1

    return strength(card) > strength(best)


class CaliforniaJackHeuristic(Bot):
    """California Jack by rules of thumb (see the module)."""

    name = "california-jack-heuristic"

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.sides = game.num_scores

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        trick = view.trick
        info = view.info()
        top_name = info.get("stock_top")
        top = parse_card(top_name) if isinstance(top_name, str) else -1
        stock_left = int(info.get("stock_left") or 0)
        if not trick:
            return self._lead(view, legal, top, stock_left)
        return self._follow(view, legal, trick, top, stock_left)

    def _prize(self, view: View, top: int, stock_left: int) -> int:
        """What the winner's draw is worth against the loser's (face up: the top card is seen;
        the next is a blind card, worth about 2)."""
        if stock_left <= 0 or top < 0:
            return 0
        return draw_worth(top, view.trump) - 2

    def _unseen(self, view: View) -> int:
        """The cards this seat has not seen: another hand's or in the stock."""
        return ((1 << 52) - 1) & ~view.hand & ~view.played

    def _master(self, view: View, card: int) -> bool:
        """Whether no unseen card of ``card``'s suit ranks above it (a trump: none at all)."""
        tables = view.tables
        higher = 0
        for other in cards_in(self._unseen(view) & tables.suit_mask[card]):
            if tables.power[other] > tables.power[card]:
                higher |= 1 << other
        return not higher

    def _lead(self, view: View, legal: list[int], top: int, stock_left: int) -> int:
        trump = view.trump
        tables = view.tables
        want = self._prize(view, top, stock_left) > 0 or stock_left == 0
        masters = [c for c in legal if self._master(view, c)]
        if want and masters:
            plain = [c for c in masters if suit_of(c) != trump]
            pool = plain or masters
            # A master ten or point card brings itself home; else the cheapest master.
            return max(pool, key=lambda c: (worth(c, trump), -tables.power[c]))
        # A low plain card that gives little away; trumps are kept for the fights.
        plain = [c for c in legal if suit_of(c) != trump]
        pool = plain or legal
        return min(pool, key=lambda c: (worth(c, trump) * 3 + rank_of(c), tables.power[c]))

    def _follow(
        self, view: View, legal: list[int], trick: list[tuple[int, int]], top: int, stock_left: int
    ) -> int:
        trump = view.trump
        tables = view.tables
        n = view.game.num_players
        led = trick[0][1]
        best_seat, best = trick[0]
        for seat, card in trick[1:]:
            if _beats(tables, card, best, led):
                best_seat, best = seat, card
        partner_wins = self.sides < n and best_seat % self.sides == self.seat % self.sides
        last = len(trick) == n - 1
        stake = sum(worth(c, trump) for _s, c in trick) + self._prize(view, top, stock_left)
        winners = [c for c in legal if _beats(tables, c, best, led)]
        losers = [c for c in legal if c not in winners]
        if partner_wins and (last or self._master(view, best)):
            # The trick is ours: give it a counter, keeping trumps.
            gifts = [c for c in losers if suit_of(c) != trump] or losers or legal
            return max(gifts, key=lambda c: (worth(c, trump), -tables.power[c]))
        sure = [c for c in winners if last or self._master(view, c)]
        if winners:
            # The cheapest winner: a plain card before a trump, a counter that wins itself.
            def cost(c: int) -> tuple[int, int]:
                spend = TRUMP_HOLD + tables.power[c] - 100 if suit_of(c) == trump else 0
                return (spend - worth(c, trump), tables.power[c])

            choice = min(sure or winners, key=cost)
            gain = stake + worth(choice, trump)
            if suit_of(choice) != trump or gain >= FIGHT_AT or (sure and gain > 0):
                return choice
        pool = losers or legal
        # Lose cheaply: no counter to the opponents, trumps kept.
        return min(
            pool, key=lambda c: (worth(c, trump) * 3 + (suit_of(c) == trump) * 8, rank_of(c))
        )
