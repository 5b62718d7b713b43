"""The heuristic bot for Spades: bids its sure tricks, then plays to its side's need.

It sees only its seat's :class:`View`. Bidding counts the tricks a hand should take: aces,
kings with a guard, queens in short suits, spade honours with enough length, spade length itself
and ruffs in short side suits. A hand with no such strength and no dangerous card bids nil;
blind nil only when its side is far behind late in the match.

Play first decides what its side wants from the trick. A nil bidder, and a side whose contract
is made (when setting the opponents is out of reach), duck: they play the highest card that
still loses, and shed their dangerous high cards when they cannot follow. A side short of its
contract plays to win: it cashes sure winners, wins cheaply as last hand, plays high as third
hand, ruffs what it cannot follow, and leaves a trick its partner holds. A partner's nil is
covered: the bot plays high before the nil bidder and overtakes it when the nil bidder is
winning. An opponent's nil is attacked by ducking under it when it is winning the trick.
"""

from __future__ import annotations

from typing import Any

from tricktable.bots.base import Bot
from tricktable.cards import ACE, JACK, KING, QUEEN, SPADES, SUIT_MASKS, TEN, cards_in
from tricktable.engine.actions import BID
from tricktable.engine.trick import Game, View
from tricktable.games.spades import BLIND, BLIND_NIL, LOOK
from tricktable.search.knowledge import Knowledge

SPADE_MASK = SUIT_MASKS[SPADES]
#: how far behind (points) a side must be before the bot risks a blind nil
BLIND_NIL_BEHIND = 300
#: a hand estimated below this many tricks, with no dangerous card, bids nil
NIL_BELOW = 1.0


def _suit_cards(mask: int, suit: int) -> int:
    return mask & SUIT_MASKS[suit]


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def estimate_tricks(hand: int) -> float:
    """How many tricks a hand should take with spades trump, counting sure and likely ones."""
    spades = hand & SPADE_MASK
    ns = spades.bit_count()
    ranks = {c % 13 for c in cards_in(spades)}
    honours = 0.0
    if ACE in ranks:
        honours += 1
    if KING in ranks:
        honours += 1 if ns >= 2 else 0.3
    if QUEEN in ranks:
        honours += 1 if ns >= 3 else 0.25
    if JACK in ranks and ns >= 4:
        honours += 0.5
    spade_tricks = min(honours + max(0, ns - 3), ns)
    side = 0.0
    ruffs = 0.0
    for suit in range(3):
        cards = _suit_cards(hand, suit)
        length = cards.bit_count()
        has = {c % 13 for c in cards_in(cards)}
        if ACE in has:
            side += 1 if length <= 5 else 0.6
        if KING in has:
            if length >= 2:
                side += 0.8 if length <= 4 else 0.4
            else:
                side += 0.1
        if QUEEN in has and 3 <= length <= 4:
            side += 0.5 if (ACE in has or KING in has) else 0.3
        if length == 0 and ns >= 3:
            ruffs += 1
        elif length == 1 and ns >= 2:
            ruffs += 0.5
        elif length == 2 and ns >= 3:
            ruffs += 0.2
    # Spades counted as long cards cannot also ruff.
    ruffs = min(ruffs, max(0.0, ns - spade_tricks))
    return spade_tricks + side + ruffs


def nil_safe(hand: int) -> bool:
    """Whether a hand holds no card that is likely to be forced to win a trick."""
    spades = hand & SPADE_MASK
    if spades.bit_count() > 3 or (spades and _high(spades) % 13 >= TEN):
        return False
    for suit in range(3):
        cards = _suit_cards(hand, suit)
        length = cards.bit_count()
        if not cards:
            continue
        top = _high(cards) % 13
        if top == ACE:
            return False
        low = sum(1 for c in cards_in(cards) if c % 13 <= 4)
        # A king or queen needs small cards under it to be ducked until the aces fall.
        if top >= QUEEN and (length < 3 or low < 2):
            return False
    return True


class SpadesKnowledge(Knowledge):
    """What the bot reads from its view for one decision: the cards' whereabouts, bids, needs."""

    __slots__ = ("bids", "partner", "remaining", "trick", "tricks", "tricks_won")

    def __init__(self, view: View) -> None:
        super().__init__(view)
        game = view.game
        n = game.num_players
        #: the partner's seat; -1 in cut-throat (each for itself)
        self.partner = self.seat ^ 2 if n == 4 else -1
        info = view.info()
        self.bids: list[Any] = info.get("bids") or [None] * n
        self.tricks_won = view.tricks_won
        self.tricks = view.tricks
        self.trick = view.trick
        self.remaining = game.hand_size - len(self.tricks)

    def void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` has shown it holds no card of ``suit``."""
        return self.shown_void(seat, SUIT_MASKS[suit])

    def is_nil(self, seat: int) -> bool:
        """Whether ``seat`` bid nil or blind nil (no seat, -1, never did)."""
        return seat >= 0 and self.bids[seat] in ("nil", "blind-nil")

    def nil_alive(self, seat: int) -> bool:
        """Whether ``seat`` bid nil and has taken no trick yet."""
        return self.is_nil(seat) and self.tricks_won[seat] == 0

    def need(self, team_seat: int) -> int:
        """Tricks the side of ``team_seat`` still needs for its contract (<= 0: made)."""
        need = 0
        side = (team_seat, team_seat ^ 2) if self.partner >= 0 else (team_seat,)
        for seat in side:
            bid = self.bids[seat]
            if isinstance(bid, int):
                need += bid - self.tricks_won[seat]
        return need


def _power(card: int, lead_suit: int) -> int:
    suit = card // 13
    if suit == SPADES:
        return 100 + card % 13
    return card % 13 if suit == lead_suit else -1


class SpadesHeuristic(Bot):
    """Bids sure tricks (nil with a weak hand) and plays to make, cover or duck."""

    name = "heuristic"

    def __init__(self, boldness: float = 0.0) -> None:
        #: style, for characters: tricks added to the bid's estimate (0.0: the plain heuristic;
        #: the side's bids still never pass 13)
        self.boldness = boldness

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        super().start_match(game, seat, seed)
        self.options = game.options

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if view.phase == BLIND:
            return self._blind(view, legal)
        if legal[0] >= BID:
            return self._bid(view, legal)
        return self._play(SpadesKnowledge(view), legal)

    # -------------------------------------------------------------------------- bidding

    def _blind(self, view: View, legal: list[int]) -> int:
        seat = view.seat
        scores = view.scores
        n = view.game.num_players
        bids = view.info().get("bids") or [None] * n
        if n == 4:
            team = seat & 1
            leader = scores[1 - team]
            partner = bids[seat ^ 2]
        else:  # cut-throat: behind the best of the others, with no partner
            team = seat
            leader = max(scores[s] for s in range(n) if s != seat)
            partner = None
        behind = leader - scores[team]
        late = leader >= self.options.target * 0.6
        if (
            BLIND_NIL in legal
            and behind >= BLIND_NIL_BEHIND
            and late
            and partner not in ("nil", "blind-nil")
        ):
            return BLIND_NIL
        return LOOK

    def _bid(self, view: View, legal: list[int]) -> int:
        hand = view.hand
        n = view.game.num_players
        most = view.game.hand_size
        bids = view.info().get("bids") or [None] * n
        partner = bids[view.seat ^ 2] if n == 4 else None
        partner_nil = partner in ("nil", "blind-nil")
        est = estimate_tricks(hand)
        if BID in legal and not partner_nil and est < NIL_BELOW and nil_safe(hand):
            return BID
        bid = int(est + 0.3 + self.boldness) if self.boldness else int(est + 0.3)
        if isinstance(partner, int):
            bid = min(bid, most - partner)
        bid = max(1, min(most, bid))
        while BID + bid not in legal and bid < most:
            bid += 1
        return BID + bid if BID + bid in legal else legal[-1]

    # ----------------------------------------------------------------------------- play

    def _play(self, k: SpadesKnowledge, legal: list[int]) -> int:
        me = k.seat
        if k.is_nil(me):
            return self._duck(k, legal)
        if k.nil_alive(k.partner):
            cover = self._cover(k, legal)
            if cover >= 0:
                return cover
        # A nil is worth more than a trick: duck under an opponent's nil that is winning the
        # trick, and lead low into it, so that it must take a trick.
        opponents = self._opponents(k)
        opp_nils = [s for s in opponents if k.nil_alive(s)]
        if opp_nils:
            if not k.trick:
                return self._lead_low(k, legal, opp_nils)
            seat, _ = self._best(k)
            if seat in opp_nils:
                return self._duck(k, legal)
        need = k.need(me)
        if k.partner >= 0:
            opp_need = k.need(me ^ 1)
            setting = opp_need > 0 and k.remaining - opp_need < 2
        else:  # cut-throat: set any other seat that is close to its bid
            setting = any(k.need(s) > 0 and k.remaining - k.need(s) < 2 for s in opponents)
        if need > 0 or setting:
            return self._win(k, legal)
        return self._duck(k, legal)

    def _best(self, k: SpadesKnowledge) -> tuple[int, int]:
        """The seat winning the current trick so far, and its card."""
        lead_suit = k.trick[0][1] // 13
        best_seat, best = k.trick[0]
        for seat, card in k.trick[1:]:
            if _power(card, lead_suit) > _power(best, lead_suit):
                best_seat, best = seat, card
        return best_seat, best

    def _opponents(self, k: SpadesKnowledge) -> tuple[int, ...]:
        """The seats playing against this one: the other partnership, or every other seat."""
        me = k.seat
        if k.partner >= 0:
            return (me ^ 1, me ^ 3)
        return tuple(s for s in range(len(k.bids)) if s != me)

    def _later(self, k: SpadesKnowledge) -> list[int]:
        """The seats still to play to this trick after this one."""
        n = len(k.bids)
        return [(k.seat + i) % n for i in range(1, n - len(k.trick))]

    def _master(self, k: SpadesKnowledge, card: int, later: list[int]) -> bool:
        """Whether ``card`` (leading or following) beats anything the later seats can play."""
        suit = card // 13
        if k.trick:
            lead_suit = k.trick[0][1] // 13
        else:
            lead_suit = suit
        power = _power(card, lead_suit)
        if power < 0:
            return False
        higher_in_suit = k.others & SUIT_MASKS[suit] & ~((2 << card) - 1)
        if higher_in_suit and any(not k.void(s, suit) for s in later):
            return False
        if suit != SPADES:
            lead_void = [s for s in later if k.void(s, lead_suit)]
            # A seat known to lack the led suit may ruff, if spades are still out.
            if any(not k.void(s, SPADES) for s in lead_void) and k.others & SPADE_MASK:
                return False
        return True

    def _win(self, k: SpadesKnowledge, legal: list[int]) -> int:
        later = self._later(k)
        if not k.trick:
            return self._lead_to_win(k, legal)
        lead_suit = k.trick[0][1] // 13
        best_seat, best = self._best(k)
        best_power = _power(best, lead_suit)
        winners = [c for c in legal if _power(c, lead_suit) > best_power]
        if best_seat == k.partner and (not later or self._master(k, best, later)):
            return self._discard(k, legal)
        if not winners:
            return self._discard(k, legal)
        if not later:
            return winners[0]
        sure = [c for c in winners if self._master(k, c, later)]
        if sure:
            return min(sure, key=lambda c: _power(c, lead_suit))
        if len(k.trick) == 1 and lead_suit != SPADES and winners[0] // 13 == lead_suit:
            return self._discard(k, legal)  # second hand low
        # Third hand high (or ruff with the lowest spade that wins).
        following = [c for c in winners if c // 13 == lead_suit]
        if following:
            return max(following)
        return min(winners)

    def _lead_to_win(self, k: SpadesKnowledge, legal: list[int]) -> int:
        later = self._later(k)
        side = [c for c in legal if c // 13 != SPADES]
        sure = [c for c in side if self._master(k, c, later)]
        if sure:
            return max(sure)
        spades = [c for c in legal if c // 13 == SPADES]
        if spades and self._master(k, max(spades), later):
            return max(spades)
        if not side:
            return min(spades)
        # Lead a singleton to ruff the suit later, else low from the longest side suit.
        hand = k.hand
        if hand & SPADE_MASK:
            for c in side:
                if _suit_cards(hand, c // 13).bit_count() == 1:
                    return c
        return min(side, key=lambda c: (-_suit_cards(hand, c // 13).bit_count(), c % 13))

    def _discard(self, k: SpadesKnowledge, legal: list[int]) -> int:
        """The least useful legal card, when this trick is not to be won by it."""
        if k.trick:
            lead_suit = k.trick[0][1] // 13
            following = [c for c in legal if c // 13 == lead_suit]
            if following:
                return following[0]
        side = [c for c in legal if c // 13 != SPADES]
        if not side:
            return legal[0]
        hand = k.hand
        # Low cards from short suits: that makes voids to ruff into later.
        return min(side, key=lambda c: (c % 13, _suit_cards(hand, c // 13).bit_count()))

    def _duck(self, k: SpadesKnowledge, legal: list[int]) -> int:
        """A card that loses the trick if it can, shedding the most dangerous such card."""
        if not k.trick:
            unseen = k.others
            # Lead the card most likely to be beaten: many unseen cards above it in its suit.
            return max(
                legal,
                key=lambda c: (
                    c // 13 != SPADES,
                    (unseen & SUIT_MASKS[c // 13] & ~((2 << c) - 1)).bit_count(),
                    -(c % 13),
                ),
            )
        lead_suit = k.trick[0][1] // 13
        _, best = self._best(k)
        best_power = _power(best, lead_suit)
        losers = [c for c in legal if _power(c, lead_suit) < best_power]
        if losers:
            side = [c for c in losers if c // 13 != SPADES]
            # Shed the highest loser; a side card before a spade, spades stay to duck later.
            return max(side or losers, key=lambda c: c % 13)
        if not self._later(k):
            return max(legal, key=lambda c: (c // 13 != SPADES, c % 13))
        return min(legal, key=lambda c: (c // 13 == SPADES, c % 13))

    def _lead_low(self, k: SpadesKnowledge, legal: list[int], nils: list[int]) -> int:
        """A low lead in a suit the nil bidders still hold, to make one of them win."""
        held = [c for c in legal if any(not k.void(s, c // 13) for s in nils)]
        return min(held or legal, key=lambda c: (c // 13 == SPADES, c % 13))

    def _cover(self, k: SpadesKnowledge, legal: list[int]) -> int:
        """Protect the partner's nil: play high before it, overtake it when it is winning."""
        partner = k.partner
        if not k.trick:
            side = [c for c in legal if c // 13 != SPADES]
            return max(side or legal, key=lambda c: c % 13)
        later = self._later(k)
        lead_suit = k.trick[0][1] // 13
        best_seat, best = self._best(k)
        best_power = _power(best, lead_suit)
        if partner in later:
            if best_seat != partner and best_power >= 100 and lead_suit != SPADES:
                return -1  # an opponent ruffed: the partner can safely follow under it
            return max(legal, key=lambda c: _power(c, lead_suit))
        if best_seat == partner:
            winners = [c for c in legal if _power(c, lead_suit) > best_power]
            if winners:
                return min(winners, key=lambda c: _power(c, lead_suit))
        return -1
