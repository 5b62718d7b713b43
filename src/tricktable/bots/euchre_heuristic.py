"""The heuristic bot for Euchre: makes trump from a strength count, plays by rules of thumb.

It sees only its seat's :class:`View`. Making trump scores the hand for each candidate suit
(bowers and high trumps, off-suit aces, voids that let it ruff), counts the up-card for the side
that will take it, and orders up or names the best suit when the count clears a threshold; a hand
whose top trumps are sure tricks and whose other cards are trumps or aces goes alone. The dealer
discards to keep trumps and aces and to make a void.

In play it leads its top trump while its side made trump and the trump is still the master, else
an off-suit ace; it wins tricks with the cheapest card that wins, never overtakes a partner who
is winning, and throws its lowest card, keeping trumps, when it cannot win.
"""

from __future__ import annotations

from collections.abc import Callable

from tricktable.bots.base import Bot
from tricktable.cards import ACE, KING, cards_in, parse_card
from tricktable.engine.actions import PASS
from tricktable.engine.trick import Game, TrumpTables, View
from tricktable.games.euchre import (
    DISCARD,
    ORDER_UP,
    ORDER_UP_ALONE,
    TRUMP,
    TRUMP_ALONE,
    euchre_trumps,
)
from tricktable.search.knowledge import Knowledge

#: what a trump is worth when counting a hand, by its place in the trump order (9 up to right)
TRUMP_VALUE = (1.0, 1.1, 1.3, 1.6, 2.0, 2.6, 3.0)
#: an off-suit ace, a guarded off-suit king, a void when holding two trumps or more
ACE_VALUE, KING_VALUE, VOID_VALUE = 1.0, 0.35, 0.5
#: the count that orders up (round 1) or names trump (round 2); partner's help is the margin
CALL_AT = 5.6
CALL_AT_ROUND2 = 5.4
#: what a lone hand needs: sure tricks (top trumps in sequence) plus 0.75 per other good card
ALONE_AT = 4.25
#: cut-throat asks this much more of a hand to make trump: the maker is alone against two
CUTTHROAT_EXTRA = 0.8

_TABLES = [euchre_trumps(s) for s in range(4)]


def hand_strength(hand: int, suit: int) -> float:
    """A count of how many tricks ``hand`` is worth with ``suit`` trump (higher is stronger)."""
    tables = _TABLES[suit]
    trumps = hand & tables.mask
    total = 0.0
    for card in cards_in(trumps):
        total += TRUMP_VALUE[tables.power[card] - 100]
    n_trumps = trumps.bit_count()
    for s in range(4):
        if s == suit:
            continue
        side = hand & tables.suit_mask[s * 13 + ACE]  # the suit without a left bower
        if not side:
            if n_trumps >= 2:
                total += VOID_VALUE
            continue
        if side >> (s * 13 + ACE) & 1:
            total += ACE_VALUE if side.bit_count() <= 2 else 0.7 * ACE_VALUE
        elif side >> (s * 13 + KING) & 1 and side.bit_count() >= 2:
            total += KING_VALUE
    return total


def lone_count(hand: int, suit: int) -> float:
    """Sure tricks (trumps in sequence from the right bower) plus 0.75 per other trump or ace."""
    tables = _TABLES[suit]
    order = sorted(cards_in(tables.mask), key=lambda c: -tables.power[c])
    sure = 0
    for card in order:
        if not hand >> card & 1:
            break
        sure += 1
    if sure < 2:
        return 0.0
    others = hand & ~mask_of_top(order, sure)
    extra = 0.0
    for card in cards_in(others):
        if tables.power[card] >= 100 or card % 13 == ACE:
            extra += 0.75
    return sure + extra


def mask_of_top(order: list[int], n: int) -> int:
    """The mask of the first ``n`` cards of ``order``."""
    mask = 0
    for card in order[:n]:
        mask |= 1 << card
    return mask


def best_discard(hand: int, suit: int) -> int:
    """The card a dealer holding ``hand`` (six cards) discards with ``suit`` trump."""
    tables = _TABLES[suit]
    best, best_key = -1, (9.0, 9.0)
    for card in cards_in(hand):
        power = tables.power[card]
        if power >= 100:
            key = (2.0, float(power))  # a trump only when all six are trumps
        else:
            follow = hand & tables.suit_mask[card]
            if card % 13 == ACE:
                key = (1.0, float(power))
            else:
                # A singleton goes first: discarding it makes a void to ruff with.
                key = (0.0 if follow.bit_count() == 1 else 0.5, float(power))
        if key < best_key:
            best, best_key = card, key
    return best


class EuchreHeuristic(Bot):
    """Euchre by rules of thumb: strength counts for making trump, cheap wins in play."""

    name = "heuristic"

    def __init__(self, boldness: float = 0.0) -> None:
        #: style, for characters: lowers (or raises) the counts that make trump and go alone
        #: (0.0: the plain heuristic)
        self.boldness = boldness
        #: seats at the table (three: cut-throat)
        self._seats = 4

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        # No choice is random (ties go to the lowest card), so the seed is not needed.
        super().start_match(game, seat, seed)
        self._seats = game.num_players

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if not legal:
            return PASS
        if legal[-1] >= DISCARD:
            choice = DISCARD + best_discard(view.hand, view.trump)
        elif legal[-1] >= 64:
            choice = self._make_trump(view, legal)
        else:
            choice = self._play(view, legal)
        return choice if choice in legal else legal[0]

    # ---------------------------------------------------------------------- making trump

    def _make_trump(self, view: View, legal: list[int]) -> int:
        seat, dealer = view.seat, view.dealer
        hand = view.hand
        info = view.info()
        up = _card_of(info.get("up_card"))
        if ORDER_UP in legal:
            suit = up // 13
            if seat == dealer:
                hand |= 1 << up
                hand &= ~(1 << best_discard(hand, suit))
                count = hand_strength(hand, suit)
            else:
                up_value = TRUMP_VALUE[_TABLES[suit].power[up] - 100]
                # The up-card goes to the dealer: a help to our side, or to theirs.
                ours = view.game.num_players == 4 and (dealer - seat) % 2 == 0
                sign = 0.5 if ours else -0.6
                count = hand_strength(hand, suit) + sign * up_value
            if count < self._call_at(view, CALL_AT):
                return PASS
            if ORDER_UP_ALONE in legal and lone_count(hand, suit) >= ALONE_AT - self.boldness:
                return ORDER_UP_ALONE
            return ORDER_UP
        suits = [a - TRUMP for a in legal if TRUMP <= a < TRUMP + 4]
        if not suits:
            return PASS
        best = max(suits, key=lambda s: (hand_strength(hand, s), -s))
        count = hand_strength(hand, best)
        if count < self._call_at(view, CALL_AT_ROUND2) and PASS in legal:
            return PASS
        if TRUMP_ALONE + best in legal and lone_count(hand, best) >= ALONE_AT - self.boldness:
            return TRUMP_ALONE + best
        return TRUMP + best

    def _call_at(self, view: View, base: float) -> float:
        """The count that makes trump: cut-throat, the maker plays alone against two, and
        a euchre pays both of them, so it asks for more."""
        extra = CUTTHROAT_EXTRA if view.game.num_players == 3 else 0.0
        return base + extra - self.boldness

    # ------------------------------------------------------------------------------ play

    def _play(self, view: View, legal: list[int]) -> int:
        tables = view.tables
        info = view.info()
        skip = info.get("sitting_out")
        skip = -1 if skip is None else skip
        maker = info.get("maker")
        seat = view.seat
        n = view.game.num_players
        power = tables.power
        if n == 4:
            partner = (seat + 2) % 4
            # Cards another seat may hold: not an up-card left on the stock, nor our discard.
            unseen = Knowledge(view).others
        else:
            # Cut-throat: the other defender plays with us against the maker.
            partner = 3 - seat - maker if isinstance(maker, int) and maker != seat else -1
            unseen = _others(view)
        trick = view.trick  # (seat, card), stepping over a seat that sits out
        to_come = n - 1 if skip >= 0 else n
        later = to_come - len(trick) - 1  # seats still to play after this one

        def master(card: int) -> bool:
            # No unseen card that follows with it beats it.
            follow = tables.suit_mask[card] | tables.mask
            for other in cards_in(unseen & follow):
                if _beats(tables, other, card, tables.suit_mask[card]):
                    return False
            return True

        if not trick:
            return self._lead(legal, tables, maker, seat, master, unseen)
        led = tables.suit_mask[trick[0][1]]
        best_seat, best_card = trick[0]
        for who, card in trick[1:]:
            if _beats(tables, card, best_card, led):
                best_seat, best_card = who, card
        winners = [c for c in legal if _beats(tables, c, best_card, led)]
        if best_seat == partner or not winners:
            # Never overtake a partner who is winning; throw the cheapest card.
            return _lowest(legal, tables)
        if later > 0:
            sure = [c for c in winners if master(c)]
            if sure:
                return min(sure, key=lambda c: power[c])
        return min(winners, key=lambda c: power[c] if power[c] >= 100 else c % 13)

    def _lead(
        self,
        legal: list[int],
        tables: TrumpTables,
        maker: object,
        seat: int,
        master: Callable[[int], bool],
        unseen: int,
    ) -> int:
        power = tables.power
        trumps = [c for c in legal if power[c] >= 100]
        sides = [c for c in legal if power[c] < 100]
        if self._seats == 3:
            ours = maker == seat
        else:
            ours = isinstance(maker, int) and (maker - seat) % 2 == 0
        theirs_trumps = unseen & tables.mask
        if trumps and ours and theirs_trumps:
            top = max(trumps, key=lambda c: power[c])
            if master(top) or maker == seat:
                return top if master(top) else min(trumps, key=lambda c: power[c])
        aces = [c for c in sides if master(c)]
        if aces:
            return max(aces, key=lambda c: power[c])
        if sides:
            # The lowest card of our shortest side suit: it may let us ruff later.
            return min(sides, key=lambda c: (sum(d // 13 == c // 13 for d in sides), c % 13))
        return max(trumps, key=lambda c: power[c]) if ours else min(trumps, key=lambda c: power[c])


def _others(view: View) -> int:
    """Cut-throat: the cards another seat may hold (the nine of the stock among them, but
    not the up-card while it lies there, nor this seat's own discard)."""
    out = 0
    for c in view.game.deck:
        out |= 1 << c
    out &= ~view.hand
    for _leader, cards, _winner in view.tricks:
        for c in cards:
            out &= ~(1 << c)
    for _seat, c in view.trick:
        out &= ~(1 << c)
    info = view.info()
    up = _card_of(info.get("up_card"))
    picked = info.get("bidding_round") == 1 and info.get("maker") is not None
    if up >= 0 and not picked:
        out &= ~(1 << up)
    for actor, action in view.actions:
        if actor == view.seat and action >= DISCARD:
            out &= ~(1 << (action - DISCARD))
    return out


def _card_of(name: object) -> int:
    return parse_card(name) if isinstance(name, str) else -1


def _beats(tables: TrumpTables, card: int, best: int, led: int) -> bool:
    """Whether ``card`` beats ``best`` (the winning card so far) in a trick led ``led``."""
    p, q = tables.power[card], tables.power[best]
    if p < 100 and not led >> card & 1:
        return False
    return p > q


def _lowest(legal: list[int], tables: TrumpTables) -> int:
    """The card to throw: the lowest side card (keeping aces when we can), else the lowest trump."""
    power = tables.power

    def key(c: int) -> tuple[int, int]:
        if power[c] >= 100:
            return (2, power[c])
        return (1 if c % 13 == ACE else 0, c % 13)

    return min(legal, key=key)
