"""The heuristic bot of All Fours: stands, begs, gives or runs on a count of the hand; plays by
rules of thumb for High, Low, Jack and Game.

It sees only its seat's :class:`View`. A hand is counted for a trump suit as the points it
should bring: the ace of trump (High), the lowest trumps (Low, when it goes to the one dealt
it), the jack kept, and the tens and court cards toward Game. The eldest hand stands when the
count clears :data:`STAND_AT`, and begs otherwise (a gift is a point for a poor hand); the
dealer, begged, gives when its own count with the turned-up suit clears :data:`GIVE_AT` and the
gift does not put the other side out, and runs the cards otherwise.

In play it leads its master trump to draw the jack and the ten, else a low card of a plain
suit; it takes a trick worth points with the cheapest card that surely wins it (the last to
play, or with a master), feeds a partner's sure trick with its counting cards, and otherwise
throws its cheapest card, keeping its jack and ten of trump and its counting cards.
"""

from __future__ import annotations

from typing import Final

from tricktable.bots.base import Bot
from tricktable.cards import ACE, JACK, KING, QUEEN, SUIT_MASKS, TEN, parse_card
from tricktable.engine.actions import PASS
from tricktable.engine.trick import TrumpTables, View, strength
from tricktable.games.all_fours import BEG, GIVE, RUN, STAND, AllFours

#: the count (points a hand should bring with a trump) at which the eldest hand stands
STAND_AT: Final = 1.4
#: the count at which the dealer, begged, gives the point and keeps the suit
GIVE_AT: Final = 1.9
#: what one point toward Game is worth, in hand points (a ten is then worth 0.6)
GAME_WEIGHT: Final = 0.06

#: the Game value of each rank: 10 10, J 1, Q 2, K 3, A 4
_GAME_VALUE: Final = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)


def game_value(card: int) -> int:
    """What a card counts toward Game."""
    return _GAME_VALUE[card % 13]


def hand_count(hand: int, suit: int, low_dealt: bool = True) -> float:
    """The points ``hand`` should bring with ``suit`` trump (a rough count, higher is better)."""
    trumps = hand & SUIT_MASKS[suit]
    total = 0.0
    base = suit * 13
    if trumps >> (base + ACE) & 1:
        total += 1.0  # High for certain
    elif trumps >> (base + KING) & 1:
        total += 0.6
    elif trumps >> (base + QUEEN) & 1:
        total += 0.35
    if trumps >> (base + JACK) & 1:
        total += 0.5 if trumps.bit_count() >= 3 else 0.3
    if low_dealt:
        if trumps & (0b11 << base):  # the two or the three: very likely Low
            total += 0.7
        elif trumps & (0b1100 << base):
            total += 0.35
    if trumps >> (base + TEN) & 1:
        total += 0.25 if trumps.bit_count() >= 2 else 0.1
    total += 0.12 * trumps.bit_count()
    for s in range(4):
        if s != suit and hand >> (s * 13 + ACE) & 1:
            total += 0.1
    return total


def card_cost(card: int, tables: TrumpTables) -> float:
    """What playing ``card`` away gives up: its count toward Game, and the trump points it
    holds (the jack most, then the ten); a trump is worth keeping, a high card a little."""
    value = GAME_WEIGHT * game_value(card) + (card % 13) * 0.01
    trump = tables.suit
    if card == trump * 13 + JACK:
        value += 1.5
    elif card == trump * 13 + TEN:
        value += 0.4
    if tables.mask >> card & 1:
        value += 0.15
    return value


def bank_value(card: int, tables: TrumpTables) -> float:
    """What taking a sure trick with ``card`` banks: its count toward Game and the jack of
    trump, less a trump spent (a plain card that wins costs nothing)."""
    value = GAME_WEIGHT * game_value(card) - (card % 13) * 0.005
    if card == tables.suit * 13 + JACK:
        value += 1.5
    elif tables.mask >> card & 1:
        value -= 0.2
    return value


class AllFoursHeuristic(Bot):
    """Stands, begs, gives or runs on a count of its cards; plays for the four points."""

    name = "heuristic"

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if not legal:
            return PASS
        game = view.game
        if not isinstance(game, AllFours):
            return legal[0]
        if legal[-1] >= 64:
            choice = self._decide(view, game, legal)
        else:
            choice = self._play(view, game, legal)
        return choice if choice in legal else legal[0]

    # -------------------------------------------------------------------- settling trump

    def _decide(self, view: View, game: AllFours, legal: list[int]) -> int:
        opts = game.options
        info = view.info()
        suit = parse_card(info["up_card"]) // 13
        count = hand_count(view.hand, suit, opts.low_to == "dealt")
        if STAND in legal:
            return STAND if count >= STAND_AT else BEG
        if GIVE not in legal:
            return RUN
        scores = view.scores
        ours = game.team_of(view.seat)
        if any(s + opts.gift >= opts.target for i, s in enumerate(scores) if i != ours):
            return RUN  # the gift would put them out
        return GIVE if count >= GIVE_AT else RUN

    # ---------------------------------------------------------------------------- the play

    def _play(self, view: View, game: AllFours, legal: list[int]) -> int:
        tables = view.tables
        trump = tables.suit
        jack = trump * 13 + JACK

        def cost(card: int) -> float:
            return card_cost(card, tables)

        unseen = (
            (1 << 52) - 1 & ~view.hand & ~view.played & ~(1 << parse_card(view.info()["up_card"]))
        )
        trick = view.trick
        n = game.num_players

        def master(card: int, led: int) -> bool:
            """Whether no unseen card beats ``card`` in a trick whose suit led is ``led``."""
            mine = strength(tables, card, led)
            for other in _cards(unseen & (tables.mask | led)):
                if strength(tables, other, led) > mine:
                    return False
            return True

        if not trick:
            return self._lead(legal, tables, unseen)
        led = tables.suit_mask[trick[0][1]]
        best_seat, best_card = trick[0]
        for seat, card in trick[1:]:
            if strength(tables, card, led) > strength(tables, best_card, led):
                best_seat, best_card = seat, card
        best = strength(tables, best_card, led)
        points = sum(GAME_WEIGHT * game_value(c) for _s, c in trick)
        if any(c == jack for _s, c in trick):
            points += game.options.hang_jack
        last = len(trick) == n - 1
        partner_wins = game.team_of(best_seat) == game.team_of(view.seat)
        if partner_wins and (last or master(best_card, led)):
            # Feed the partner's sure trick: the counting card worth most, not the jack.
            feed = [c for c in legal if c != jack and strength(tables, c, led) <= best]
            feed = feed or legal
            return max(feed, key=lambda c: (game_value(c), -cost(c)))
        winners = [c for c in legal if strength(tables, c, led) > best]
        if winners and not partner_wins:
            sure = [c for c in winners if last or master(c, led)]
            if sure:
                # A sure trick banks the card that takes it: the jack, a ten, a court card.
                pick = max(sure, key=lambda c: bank_value(c, tables))
                if points > 0 or last or bank_value(pick, tables) > 0:
                    return pick
        return min(legal, key=cost)

    @staticmethod
    def _lead(legal: list[int], tables: TrumpTables, unseen: int) -> int:
        def cost(card: int) -> float:
            return card_cost(card, tables)

        trumps = [c for c in legal if tables.mask >> c & 1]
        if trumps:
            top = max(trumps)
            if not unseen & tables.mask & ~((1 << (top + 1)) - 1) and top % 13 >= TEN:
                # A master trump draws the jack and the ten, or takes itself home.
                return top
            jack = tables.suit * 13 + JACK
            if unseen >> jack & 1 and top % 13 > JACK:
                return top  # a trump above the jack, to catch it bare

        plain = [c for c in legal if not tables.mask >> c & 1]
        if plain:
            # A master of a plain suit takes its trick unless trumped; else the cheapest.
            for card in sorted(plain, key=lambda c: -(c % 13)):
                suit = SUIT_MASKS[card // 13]
                if not unseen & suit & ~((1 << (card + 1)) - 1) and card % 13 != TEN:
                    return card
            return min(plain, key=cost)
        return min(legal, key=cost)


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit.bit_length() - 1)
        mask ^= bit
    return out


__all__ = [
    "GIVE_AT",
    "STAND_AT",
    "AllFoursHeuristic",
    "bank_value",
    "card_cost",
    "game_value",
    "hand_count",
]
