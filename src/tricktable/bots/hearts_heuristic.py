"""The heuristic bot of the Hearts group (Hearts and Filippa): pass danger, duck, dump.

It sees only its seat's :class:`View`. The same few rules serve both games, since in both the
penalty cards are the hearts and Q♠ and no suit is trump:

- Passing: the three most dangerous cards go — Q♠ unless guarded by four lower spades, A♠ and
  K♠ when short of low spades, high hearts, then high cards of short suits (to make a void).
- Following suit: play the highest card that still loses the trick (which drops Q♠ under a
  higher spade); when every card would win, take the trick with the highest card if it is the
  last card or the suit is young and the trick clean, otherwise play the lowest and hope to be
  overtaken.
- Void in the suit led: discard Q♠, then A♠/K♠ while Q♠ is out, then the highest heart, then
  the highest card of the shortest suit.
- Leading: the card least likely to win the trick, from the unseen cards of its suit, keeping
  clear of spades above the queen while Q♠ is out (low spades are led to drive it out) and of
  suits nobody else holds.

In Filippa only taking some penalty matters (the clean seats share the pool), so the bot does
the same and simply avoids every penalty card; its points are the game's own card penalties.
"""

from __future__ import annotations

from tricktable.bots.base import Bot
from tricktable.cards import ACE, HEARTS, KING, QUEEN, SPADES, SUIT_MASKS, card_of, cards_in
from tricktable.engine.actions import PASS_CARDS
from tricktable.engine.trick import PLAY, Game, View
from tricktable.games.filippa import PENALTY, Filippa
from tricktable.search.knowledge import Knowledge

QS = card_of(SPADES, QUEEN)
QS_BIT = 1 << QS
HIGH_SPADES = (1 << card_of(SPADES, ACE)) | (1 << card_of(SPADES, KING))
HEART_MASK = SUIT_MASKS[HEARTS]
LOW_SPADES = SUIT_MASKS[SPADES] & ((1 << QS) - 1)


#: the penalty of each card in Hearts: 1 a heart, 13 the queen of spades
HEARTS_POINTS = [1 if HEART_MASK >> c & 1 else 13 if c == QS else 0 for c in range(64)]


def _points_table(game: Game) -> list[int]:
    """The penalty of each card in the game played, as positive numbers."""
    # By class, not name: a game built on Filippa keeps its card penalties.
    if isinstance(game, Filippa):
        return [-p for p in PENALTY]
    return HEARTS_POINTS


def _others(view: View) -> int:
    """The cards of the deck neither in the seat's hand nor played yet: those another seat
    holds (what :class:`Knowledge` says of a four-seat table, where nothing is dead)."""
    out = 0
    for c in view.game.deck:
        out |= 1 << c
    out &= ~view.hand
    for _leader, cards, _winner in view.tricks:
        for c in cards:
            out &= ~(1 << c)
    for _seat, c in view.trick:
        out &= ~(1 << c)
    return out


class HeartsHeuristic(Bot):
    """Plays Hearts and Filippa by passing danger away, ducking tricks and dumping points."""

    name = "hearts-heuristic"
    points = HEARTS_POINTS

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.points = _points_table(game)

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if view.phase != PLAY:
            return self._pass(view.hand, legal)
        hand = view.hand
        # Unseen: in other seats' hands (cards passed away included, wherever they are now).
        unseen = Knowledge(view).others if view.game.num_players == 4 else _others(view)
        trick = view.trick
        if not trick:
            return self._lead(hand, unseen, legal)
        lead_suit = trick[0][1] // 13
        if legal[0] // 13 == lead_suit and legal[-1] // 13 == lead_suit:
            return self._follow(trick, lead_suit, unseen, legal, view)
        return self._discard(hand, unseen, legal)

    # ------------------------------------------------------------------------ passing

    def _pass(self, hand: int, legal: list[int]) -> int:
        cards = cards_in(hand)
        if len(cards) < 3 or (legal and legal[0] < PASS_CARDS):
            return legal[0]
        counts = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
        low_spades = (hand & LOW_SPADES).bit_count()
        danger = {}
        for c in cards:
            suit, rank = divmod(c, 13)
            if c == QS:
                score = 5 if low_spades >= 4 else 100
            elif 1 << c & HIGH_SPADES:
                score = 8 if low_spades >= 3 else 60 + rank
            elif suit == HEARTS:
                score = 10 + 3 * rank if rank >= 8 else rank
            elif suit == SPADES:
                score = rank
            else:
                score = 2 * rank + (6 if counts[suit] <= 3 else 0)
            danger[c] = score
        worst = sorted(cards, key=lambda c: (-danger[c], -c))[:3]
        mask = PASS_CARDS
        for c in worst:
            mask |= 1 << c
        return mask if mask in legal else legal[0]

    # ------------------------------------------------------------------------ play

    def _lead(self, hand: int, unseen: int, legal: list[int]) -> int:
        queen_out = bool(unseen & QS_BIT)
        best, best_cost = legal[0], 1e9
        for c in legal:
            suit, rank = divmod(c, 13)
            out = unseen & SUIT_MASKS[suit]
            lower = (out & ((1 << c) - 1)).bit_count()
            higher = (out >> c).bit_count()
            if not out:
                cost = 40.0  # nobody can follow: every discard lands on this trick
            elif not higher:
                cost = 20.0 + lower
            else:
                cost = 10.0 * lower / (lower + higher)
            cost += self.points[c] * 2
            if suit == SPADES:
                if (queen_out and rank > QUEEN) or (c == QS and unseen & HIGH_SPADES == 0):
                    cost += 30
                elif queen_out and not hand & HIGH_SPADES:
                    cost -= 3  # drive the queen out while others hold it
            elif suit == HEARTS:
                cost += 1
            if cost < best_cost or (cost == best_cost and rank < best % 13):
                best, best_cost = c, cost
        return best

    def _follow(
        self, trick: list[tuple[int, int]], suit: int, unseen: int, legal: list[int], view: View
    ) -> int:
        top = max(c for _, c in trick if c // 13 == suit)
        under = [c for c in legal if c < top]
        if under:
            return under[-1]
        points = self.points
        last = len(trick) == view.game.num_players - 1
        safe = [c for c in legal if not points[c]] or legal
        if last:
            return safe[-1]
        in_trick = sum(points[c] for _, c in trick)
        rounds = sum(1 for _, cards, _ in view.tricks if cards[0] // 13 == suit)
        risky = suit == SPADES and bool(unseen & QS_BIT)
        if not in_trick and rounds < 2 and not risky:
            return safe[-1]
        return legal[0]

    def _discard(self, hand: int, unseen: int, legal: list[int]) -> int:
        counts = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
        queen_out = bool(unseen & QS_BIT)
        points = self.points

        def value(c: int) -> float:
            suit, rank = divmod(c, 13)
            if c == QS:
                return 200
            if queen_out and 1 << c & HIGH_SPADES:
                return 100 + rank
            if points[c]:
                return 50 + points[c] * 4 + rank
            return rank + 2 * (4 - min(counts[suit], 4))

        return max(legal, key=value)
