"""The heuristic bot of Setback and every Pitch preset: bids its expected points, plays by value.

It sees only its seat's :class:`View`. Bidding scores each suit as a candidate trump (High, Low,
Jack, Off-jack, Joker and Game, each as the chance of taking it), adds an allowance for the
partner's hand and bids the best estimate, bolder when the opponents threaten to win the match.

Play rates each legal card by what the trick is worth to its side: the chance that the side
takes the trick (from the cards not yet seen, how many cards each seat still holds, and the
suits a seat has shown it lacks) times the points in it, less what the card would be worth
later. That one rule covers drawing trump with a master, feeding a partner's sure trick with
tens and point cards, not overtaking a partner who already wins, saving a low trump, and
dumping worthless cards on tricks it cannot take.

Other Pitch options (point weights, jokers, hand size, cut-throat play) are read from the game,
so the bot stays legal and sensible in every variant, though it is tuned for Setback.
"""

from __future__ import annotations

from typing import Any

from tricktable.bots.base import Bot
from tricktable.cards import ACE, JACK, JOKER, LITTLE_JOKER, SUIT_MASKS, TEN, mask_of
from tricktable.engine.actions import BID, PASS
from tricktable.engine.trick import Game, TrumpTables, View
from tricktable.games.setback import Setback
from tricktable.search.knowledge import Knowledge

#: what one small point of Game is worth, in hand points (a ten is then worth 0.6)
GAME_WEIGHT = 0.06
#: points expected from the partner's unseen cards, when bidding
PARTNER_ALLOWANCE = 0.45
#: points each card still to come adds to a trick, on average
LATER_CARD_VALUE = 0.1
#: Setback's six points, each worth one (RULES.md)
SETBACK_WEIGHTS = {"high": 1, "low": 1, "jack": 1, "off_jack": 1, "joker": 1, "game": 1}

# Small points of Game by card: J 1, Q 2, K 3, A 4, 10 10; jokers and the rest 0.
_GAME_VALUE = [(0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)[c % 13] if c < 52 else 0 for c in range(64)]


class Rules:
    """What the bot needs of a game's options, with Setback's values where a game is silent."""

    def __init__(self, game: Game) -> None:
        opts = game.options
        self.weights: dict[str, int] = dict(getattr(game, "weights", SETBACK_WEIGHTS))
        self.low_to: str = getattr(opts, "low_to", "captured")
        self.partners: bool = getattr(opts, "partners", True)
        self.may_trump: bool = getattr(opts, "may_trump", False)
        self.deck = mask_of(game.deck)
        size = game.hand_size
        unseen = len(game.deck) - size
        #: chance a given unseen card sits with the opponents / was dealt to another seat
        self.opp_share = min((2 if self.partners else 3) * size / unseen, 1.0)
        self.dealt_share = min(3 * size / unseen, 1.0)
        # Points carried by single cards, by trump suit: Jack, Off-jack, the jokers, and the
        # extra cards of other Pitch variants.
        w = self.weights.get
        self.card_points: list[list[float]] = []
        self.point_cards: list[list[tuple[int, int]]] = []
        for trump in range(4):
            other = 3 - trump
            points = [GAME_WEIGHT * w("game", 0) * _GAME_VALUE[c] for c in range(64)]
            owned = []
            for name, card in (
                ("jack", trump * 13 + JACK),
                ("off_jack", other * 13 + JACK),
                ("joker", JOKER),
                ("little_joker", LITTLE_JOKER),
                ("three", trump * 13 + 1),
                ("five", trump * 13 + 3),
                ("off_five", other * 13 + 3),
                ("ten", trump * 13 + TEN),
            ):
                points[card] += w(name, 0)
                if w(name, 0) and self.deck >> card & 1:
                    owned.append((card, w(name, 0)))
            self.card_points.append(points)
            self.point_cards.append(owned)
        # stronger[trump][p]: the cards whose trick strength exceeds p, for every strength p.
        self.stronger = [_stronger(tables.power) for tables in getattr(game, "trumps", ())]


def suit_estimate(hand: int, suit: int, rules: Rules) -> float:
    """Expected points a hand takes (its partner's help aside) with ``suit`` as trump.

    Each point is scored as the chance of taking it, as a seat sees it that knows only its own
    cards: a card it lacks sits with an opponent with chance ``rules.opp_share``.
    """
    ranks = [r for r in range(13) if hand >> (suit * 13 + r) & 1]
    if not ranks:
        return 0.0
    jokers = (hand >> JOKER & 1) + (hand >> LITTLE_JOKER & 1)
    length = len(ranks) + jokers
    top, bottom = ranks[-1], ranks[0]
    strong = sum(r > JACK for r in ranks)  # cards that beat the jack and the jokers
    opp, dealt = rules.opp_share, rules.dealt_share
    chance = {"high": (1 - opp) ** (ACE - top)}
    mine = (1 - dealt) ** bottom  # no lower trump was dealt: our card is Low
    if rules.low_to == "dealt":
        chance["low"] = (1 - opp) ** bottom
    else:
        keep = min(0.55 + 0.1 * (length - 1) + 0.05 * strong, 0.9)
        chance["low"] = mine * keep + (1 - mine) * 0.25
    tens = sum(hand >> (s * 13 + TEN) & 1 for s in range(4))
    chance["game"] = min(0.25 + 0.07 * length + 0.12 * tens + 0.04 * strong, 0.85)
    total = sum(rules.weights.get(name, 0) * p for name, p in chance.items())
    # A point card held is kept more often the more trumps can protect it.
    held = min(0.45 + 0.12 * strong + 0.05 * length, 0.9)
    missing = dealt * (0.15 + 0.1 * strong)
    for card, weight in rules.point_cards[suit]:
        total += weight * (held if hand >> card & 1 else missing)
    return total


def best_suit(hand: int, rules: Rules) -> tuple[int, float]:
    """The suit a hand would name trump, and its estimate (ties go to the lowest suit)."""
    best, value = 0, -1.0
    for suit in range(4):
        est = suit_estimate(hand, suit, rules)
        if est > value:
            best, value = suit, est
    return best, value


_STRONGER: dict[tuple[int, ...], dict[int, int]] = {}


def _stronger(power: list[int]) -> dict[int, int]:
    key = tuple(power)
    out = _STRONGER.get(key)
    if out is None:
        out = {p: mask_of(c for c, q in enumerate(power) if q > p) for p in set(power)}
        _STRONGER[key] = out
    return out


class Table:
    """One seat's reading of a decision: where the cards may be, and what they are worth.

    The whereabouts come from the seat's :class:`Knowledge`; ``tables`` is the trump to value
    the cards by (at the first lead, the suit the bid was counted on).
    """

    def __init__(self, view: View, tables: TrumpTables, rules: Rules) -> None:
        known = Knowledge(view)
        self.seat = view.seat
        self.partner = (view.seat + 2) % 4 if rules.partners else -1
        self.tables = tables
        self.rules = rules
        self.points = rules.card_points[tables.suit]
        self.stronger = rules.stronger[tables.suit]
        self.hand = known.hand
        self.played = known.played
        #: every card another seat may hold (undealt cards included: they cannot be told apart)
        self.unseen = known.others
        self.trick = view.trick
        #: how many cards each seat holds, and the cards each has shown it lacks
        self.left = known.counts
        self.lacks = known.voids

    def is_opponent(self, seat: int) -> bool:
        """Whether ``seat`` plays against this seat."""
        return seat != self.seat and seat != self.partner

    # ------------------------------------------------------------------- who may hold what

    def p_holds_any(self, seat: int, mask: int) -> float:
        """Chance that ``seat`` holds at least one of the unseen cards of ``mask``."""
        pool = self.unseen & ~self.lacks[seat]
        k = (mask & pool).bit_count()
        size = pool.bit_count()
        if not k or not size or self.left[seat] <= 0:
            return 0.0
        return 1 - (1 - min(self.left[seat] / size, 1.0)) ** k

    def p_void(self, seat: int, suit_mask: int) -> float:
        """Chance that ``seat`` holds none of ``suit_mask``."""
        pool = self.unseen & ~self.lacks[seat]
        size = pool.bit_count()
        if not size:
            return 1.0
        return (1 - (suit_mask & pool).bit_count() / size) ** max(self.left[seat], 0)

    def p_beats(self, seat: int, power: int, led: int) -> float:
        """Chance that ``seat`` can beat a card of strength ``power`` in a trick led ``led``."""
        tables = self.tables
        trumps = tables.mask
        higher = self.unseen & (led | trumps) & self.stronger[power]
        if led == trumps:
            return self.p_holds_any(seat, higher)
        follow = self.p_holds_any(seat, higher & ~trumps)
        may_ruff = 1.0 if self.rules.may_trump else self.p_void(seat, led)
        ruff = may_ruff * self.p_holds_any(seat, higher & trumps)
        return 1 - (1 - follow) * (1 - ruff)

    def p_holds_trick(self, power: int, led: int, later: list[int]) -> float:
        """Chance that no opponent among ``later`` seats beats a card of strength ``power``."""
        chance = 1.0
        for seat in later:
            if self.is_opponent(seat):
                chance *= 1 - self.p_beats(seat, power, led)
        return chance

    # ------------------------------------------------------------------- what cards are worth

    def point_value(self, card: int) -> float:
        """What capturing ``card`` is worth in points: its own points, Low's chance, Game's."""
        value = self.points[card]
        if card < 52 and self.tables.power[card] >= 100 and self.rules.low_to == "captured":
            value += self.rules.weights.get("low", 0) * self.p_low(card)
        return value

    def p_low(self, card: int) -> float:
        """Chance that trump ``card`` is the lowest trump dealt."""
        below = SUIT_MASKS[card // 13] & ((1 << card) - 1)
        if below & (self.played | self.hand):
            return 0.0
        unseen = self.unseen.bit_count()
        if not unseen:
            return 1.0
        others = sum(self.left) - self.left[self.seat]
        return (1 - min(others / unseen, 1.0)) ** (below & self.unseen).bit_count()

    def is_master(self, card: int) -> bool:
        """Whether no unseen card that follows with ``card`` outranks it."""
        tables = self.tables
        return not self.unseen & tables.suit_mask[card] & self.stronger[tables.power[card]]

    def spend_cost(self, card: int) -> float:
        """What playing ``card`` now gives up: its strength to win a later trick."""
        power = self.tables.power[card]
        if power >= 100:
            return 0.5 if self.is_master(card) else 0.1 + 0.02 * (power - 100)
        return 0.15 if self.is_master(card) else 0.01 * power


def trick_best(trick: list[tuple[int, int]], tables: TrumpTables) -> tuple[int, int, int]:
    """(winning seat, its strength, mask of the suit led) of a trick in progress."""
    led = tables.suit_mask[trick[0][1]]
    seat, power = trick[0][0], tables.power[trick[0][1]]
    for who, card in trick[1:]:
        p = tables.power[card]
        if (p >= 100 or led >> card & 1) and p > power:
            seat, power = who, p
    return seat, power, led


class PitchHeuristic(Bot):
    """Setback and every Pitch preset by rules of thumb: bids a points estimate, plays by value."""

    name = "heuristic"

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        # No choice is random (ties go to the lowest card), so the seed is not needed.
        super().start_match(game, seat, seed)
        self.rules = Rules(game)

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if not legal:
            return PASS
        game = view.game
        if not isinstance(game, Setback):
            return legal[0]
        if getattr(self, "rules", None) is None or self.game is not game:
            self.game, self.rules = game, Rules(game)
        if legal[-1] >= 64:
            choice = self._bid(view, game, legal)
        else:
            choice = self._play(view, game, legal)
        return choice if choice in legal else legal[0]

    # ------------------------------------------------------------------------- the auction

    def _bid(self, view: View, game: Setback, legal: list[int]) -> int:
        """Bid the estimate of the hand when it beats the high bid; pass otherwise."""
        bids = [a - BID for a in legal if a >= BID]
        if not bids:
            return PASS
        opts = game.options
        info: dict[str, Any] = view.info()
        high, high_bidder = info["high_bid"], info["high_bidder"]
        scores = view.scores
        team = view.seat % len(scores)  # a partnership's index, or the seat's own in cut-throat
        ours = scores[team]
        theirs = max(s for i, s in enumerate(scores) if i != team)
        _suit, est = best_suit(view.hand, self.rules)
        if self.rules.partners:
            est += PARTNER_ALLOWANCE
        if high_bidder >= 0 and not self._against(view, high_bidder):
            est -= 1.0  # partner already bid on its own cards; ours back it only if far stronger
        elif theirs >= opts.target - opts.max_bid:
            # The opponents win only as declarers: taking the contract from them is worth a risk.
            threat = high_bidder >= 0 and theirs + high >= opts.target
            est += 0.5 if threat else 0.3
        if ours + bids[0] >= opts.target:
            est += 0.3  # a made contract of any size wins the match
        bid = min(int(est), bids[-1])
        if bid < bids[0]:
            return PASS
        if opts.declarer_scores == "taken" or ours + bids[0] >= opts.target:
            bid = bids[0]  # the contract need only be won: a higher bid only adds risk
        return BID + bid

    def _against(self, view: View, seat: int) -> bool:
        return seat != view.seat and (not self.rules.partners or (seat - view.seat) % 2 == 1)

    # ---------------------------------------------------------------------------- the play

    def _play(self, view: View, game: Setback, legal: list[int]) -> int:
        """The legal card of the highest expected value."""
        tables = view.tables
        candidates = legal
        if view.trump < 0:
            # The first lead names trump: lead the suit the bid was counted on.
            suit, _est = best_suit(view.hand, self.rules)
            tables = game.trumps[suit]
            candidates = [c for c in legal if c // 13 == suit and c < 52] or legal
        table = Table(view, tables, self.rules)
        rate = self._rate_follow if view.trick else self._rate_lead
        best, best_value = candidates[0], float("-inf")
        for card in candidates:
            value = rate(table, card)
            if value > best_value + 1e-9:
                best, best_value = card, value
        return best

    @staticmethod
    def _later(table: Table) -> list[int]:
        return [(table.seat + i) % 4 for i in range(1, 4 - len(table.trick))]

    def _rate_follow(self, table: Table, card: int) -> float:
        """Expected points of playing ``card`` to a trick already led."""
        tables = table.tables
        winner, power, led = trick_best(table.trick, tables)
        later = self._later(table)
        mine = tables.power[card]
        if mine < 100 and not led >> card & 1:
            mine = -1
        if mine > power:
            ours = table.p_holds_trick(mine, led, later)
        elif winner == table.partner:
            ours = table.p_holds_trick(power, led, later)
        elif table.partner in later:
            ours = 0.7 * table.p_beats(table.partner, power, led)
        else:
            ours = 0.0
        worth = sum(table.point_value(c) for _seat, c in table.trick)
        worth += table.point_value(card) + LATER_CARD_VALUE * len(later)
        return (2 * ours - 1) * worth - table.spend_cost(card)

    def _rate_lead(self, table: Table, card: int) -> float:
        """Expected points of leading ``card``."""
        tables = table.tables
        led = tables.suit_mask[card]
        power = tables.power[card]
        later = self._later(table)
        ours = table.p_holds_trick(power, led, later)
        if table.partner in later:
            ours += (1 - ours) * 0.5 * table.p_beats(table.partner, power, led)
        worth = table.point_value(card) + LATER_CARD_VALUE * len(later)
        if led == tables.mask:
            worth += self._draw_value(table, power)
        return (2 * ours - 1) * worth - table.spend_cost(card) * (1 - ours)

    @staticmethod
    def _draw_value(table: Table, power: int) -> float:
        """What a trump lead of strength ``power`` may pull from the opponents' hands."""
        lower = table.unseen & table.tables.mask & ~table.stronger[power]
        return sum(0.3 * table.p_holds_any(s, lower) for s in range(4) if table.is_opponent(s))
