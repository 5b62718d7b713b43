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
so the bot stays legal and sensible in every variant, though it is tuned for Setback. With a
kitty it bids a little higher (the kitty will help) and, as declarer, discards the weakest
cards of the suit it means to name trump by (keeping that suit's trumps and its high cards);
it shoots the moon only with an overwhelming hand (see :meth:`PitchHeuristic._moon`).

Speed: tournaments are played by this bot, so it is compiled with mypyc (setup.py's ``HOT``)
and keeps its knowledge of a hand from one decision to the next (:class:`Reading`: only the
tricks finished since the last decision are read), with the per-trump tables made once per
game. Its decisions are exactly those of the first, simpler version, which rebuilt a
:class:`~tricktable.search.knowledge.Knowledge` at every decision:
``tests/test_pitch_heuristic.py`` checks the reading against that one and the decisions against
recorded ones (``tests/golden/decisions/pitch-heuristic.json``).
"""

from __future__ import annotations

import math
from typing import Any, Final

from tricktable.bots.base import Bot
from tricktable.cards import ACE, JACK, JOKER, LITTLE_JOKER, SUIT_MASKS, TEN, mask_of
from tricktable.engine.actions import BID, PASS
from tricktable.engine.trick import NO_TRUMP, Game, TrumpTables, View
from tricktable.games.setback import DISCARD, MOON, Setback

#: what one small point of Game is worth, in hand points (a ten is then worth 0.6)
GAME_WEIGHT: Final = 0.06
#: points expected from the partner's unseen cards, when bidding
PARTNER_ALLOWANCE: Final = 0.45
#: points each card still to come adds to a trick, on average
LATER_CARD_VALUE: Final = 0.1
#: points a kitty card adds to the hand's estimate when bidding (in seeded duels of 200
#: matches between heuristics, 0.2 beat 0.1 and 0.3 in pitch-with-kitty and nine-card-pitch
#: and was level in smear-with-widow)
KITTY_CARD_VALUE: Final = 0.2
#: points added to the estimate of a seat at a table of five or more whose side is past the
#: target but may win only by declaring
PAST_TARGET_BOOST: Final = 1.5
#: share of the hand's points the estimate must reach to shoot the moon (with the ace and king
#: of the suit and four of it: the estimate is cautious, and in 2,000 hands of moon-pitch
#: between heuristics those moons made 4 of 6; at 0.75 none was bid)
MOON_SHARE: Final = 0.65
#: Setback's six points, each worth one (RULES.md)
SETBACK_WEIGHTS: Final = {"high": 1, "low": 1, "jack": 1, "off_jack": 1, "joker": 1, "game": 1}

#: the four tens, for Game's estimate
_TENS: Final = mask_of(s * 13 + TEN for s in range(4))

# Small points of Game by card: J 1, Q 2, K 3, A 4, 10 10; jokers and the rest 0.
_GAME_VALUE: Final = [
    (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)[c % 13] if c < 52 else 0 for c in range(64)
]


class Rules:
    """What the bot needs of a game's options, with Setback's values where a game is silent."""

    def __init__(self, game: Game) -> None:
        opts = game.options
        self.weights: dict[str, int] = dict(getattr(game, "weights", SETBACK_WEIGHTS))
        self.low_to: str = getattr(opts, "low_to", "captured")
        #: seats, sides that score, and the turn's step (1: to the left)
        self.n: int = game.num_players
        self.sides: int = game.num_scores
        self.step: int = game.step % game.num_players
        #: whether some seats play together (a side of two or more)
        self.partners: bool = self.sides < self.n
        #: the kitty's size (0: none), read once: options are plain Python objects
        self.kitty: int = getattr(opts, "kitty", 0)
        #: by seat, its partners, a bit each (none each for itself)
        self.mates_of: list[int] = [
            sum(1 << o for o in range(s % self.sides, self.n, self.sides) if o != s)
            if self.partners
            else 0
            for s in range(self.n)
        ]
        self.may_trump: bool = getattr(opts, "may_trump", False)
        self.deck = mask_of(game.deck)
        size = game.hand_size
        #: cards each seat is dealt
        self.hand_size: int = size
        unseen = len(game.deck) - size
        #: chance a given unseen card sits with the opponents / was dealt to another seat
        opponents = self.n - self.n // self.sides
        self.opp_share = min(opponents * size / unseen, 1.0)
        self.dealt_share = min((self.n - 1) * size / unseen, 1.0)
        w = self.weights.get
        self.high_weight: int = w("high", 0)
        self.low_weight: int = w("low", 0)
        self.game_weight: int = w("game", 0)
        #: whether Low goes to whoever captures it (so a low trump is a point in any trick)
        self.low_captured: bool = self.low_to == "captured"
        # Points carried by single cards, by trump suit: Jack, Off-jack, the jokers, and the
        # extra cards of other Pitch variants.
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
        trumps: list[TrumpTables] = list(getattr(game, "trumps", ()))
        #: stronger_at[trump][p + 1]: the cards whose trick strength exceeds p, for every
        #: strength p from -1 up
        self.stronger_at: list[list[int]] = [_stronger_list(t.power) for t in trumps]


def popcount(mask: int) -> int:
    """How many cards a mask holds (any mask below ``2**56``, so every deck's): what
    ``mask.bit_count()`` says, with no method call, which compiled code makes on a boxed int."""
    mask -= mask >> 1 & 0x55555555555555
    mask = (mask & 0x33333333333333) + (mask >> 2 & 0x33333333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F
    mask += mask >> 8
    mask += mask >> 16
    mask += mask >> 32
    return mask & 0x7F


def power(base: float, exponent: int) -> float:
    """``base ** exponent`` as C's ``pow`` makes it (Python's float power is the same ``pow``;
    compiled, this avoids boxing both numbers)."""
    return math.pow(base, float(exponent))


def suit_estimate(hand: int, suit: int, rules: Rules) -> float:
    """Expected points a hand takes (its partner's help aside) with ``suit`` as trump.

    Each point is scored as the chance of taking it, as a seat sees it that knows only its own
    cards: a card it lacks sits with an opponent with chance ``rules.opp_share``.
    """
    ranks = hand >> (suit * 13) & 0x1FFF
    if not ranks:
        return 0.0
    jokers = (hand >> JOKER & 1) + (hand >> LITTLE_JOKER & 1)
    length = popcount(ranks) + jokers
    top, bottom = ranks.bit_length() - 1, (ranks & -ranks).bit_length() - 1
    strong = popcount(ranks >> (JACK + 1))  # cards that beat the jack and the jokers
    opp, dealt = rules.opp_share, rules.dealt_share
    high = power(1 - opp, ACE - top)
    mine = power(1 - dealt, bottom)  # no lower trump was dealt: our card is Low
    if rules.low_to == "dealt":
        low = power(1 - opp, bottom)
    else:
        keep = min(0.55 + 0.1 * (length - 1) + 0.05 * strong, 0.9)
        low = mine * keep + (1 - mine) * 0.25
    tens = popcount(hand & _TENS)
    game = min(0.25 + 0.07 * length + 0.12 * tens + 0.04 * strong, 0.85)
    # High, Low, Game, added in that order (the sum of floats depends on it).
    total = 0.0 + rules.high_weight * high
    total += rules.low_weight * low
    total += rules.game_weight * game
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


_STRONGER_AT: dict[tuple[int, ...], list[int]] = {}


def _stronger_list(strengths: tuple[int, ...]) -> list[int]:
    """The cards stronger than each strength ``p`` (at index ``p + 1``), from -1 to the top."""
    key = tuple(strengths)
    out = _STRONGER_AT.get(key)
    if out is None:
        top = max(strengths)
        of = [0] * (top + 1)  # the cards of each strength
        for card, p in enumerate(strengths):
            if p >= 0:
                of[p] |= 1 << card
        out = [0] * (top + 2)
        above = 0
        for p in range(top, -2, -1):
            out[p + 1] = above
            if p >= 0:
                above |= of[p]
        _STRONGER_AT[key] = out
    return out


class SeatReading:
    """What one seat's reading says of another seat's hand (or of its own)."""

    def __init__(self) -> None:
        #: how many cards the seat played to the finished tricks, and the suits it has shown
        #: it lacks in them
        self.seen_count = 0
        self.seen_lacks = 0
        #: how many cards it holds now, and the cards it has shown it lacks
        self.left = 0
        self.lacks = 0
        #: the unseen cards it may hold, how many, and the chance that a given one of them is
        #: not in its hand
        self.pool = 0
        self.pool_size = 0
        self.miss = 1.0

    def p_holds_any(self, mask: int) -> float:
        """Chance that the seat holds at least one of the unseen cards of ``mask``."""
        k = popcount(mask & self.pool)
        if not k or not self.pool_size or self.left <= 0:
            return 0.0
        return 1 - power(self.miss, k)

    def p_void(self, suit_mask: int) -> float:
        """Chance that the seat holds none of ``suit_mask``."""
        size = self.pool_size
        if not size:
            return 1.0
        left = self.left
        return power(1 - popcount(suit_mask & self.pool) / size, left if left > 0 else 0)


class Reading:
    """One seat's reading of a decision: where the cards may be, and what they are worth.

    The bot keeps one for the whole match. :meth:`update` reads a view: what the finished
    tricks tell (cards played, how many each seat played, the suits each has shown it lacks)
    is kept from decision to decision, so only the tricks finished since the last one are
    read, and only while the ones read before are still the view's first tricks (a new hand,
    or a view of another match, starts again from none). The facts are those of
    :class:`~tricktable.search.knowledge.Knowledge` for the Pitch family (which knows no dead
    or placed cards): ``hand``, ``played``, ``unseen`` (its ``others``), each seat's ``left``
    (its ``counts``) and ``lacks`` (its ``voids``).

    :meth:`value_by` then sets the trump ``tables`` to value the cards by (at the first lead,
    the suit the bid was counted on).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seat = 0
        self.partner = -1
        #: this seat's partners, a bit each (none each for itself)
        self.mates = 0
        #: the first partner still to play to this trick (-1: none)
        self.later_mate = -1
        #: the finished tricks read so far
        self.seen: list[Any] = []
        self.seen_played = 0
        #: what is known of each seat's hand
        self.seats = [SeatReading() for _ in range(rules.n)]
        # This decision's facts.
        self.hand = 0
        self.played = 0
        #: every card another seat may hold (undealt cards included: they cannot be told apart)
        self.unseen = 0
        self.trick: list[tuple[int, int]] = []
        #: the opponents still to play to this trick, in turn
        self.later_opponents: list[SeatReading] = []
        self.later_count = 0
        self.partner_later = False
        # Low's chance for a trump card, made when first asked: -1 until then.
        self.low_base = -1.0
        #: style: points added to the value of leading a trump (PitchHeuristic.lead_trump)
        self.lead_bias = 0.0
        # The trump to value the cards by.
        self.tables: TrumpTables = NO_TRUMP
        self.points: list[float] = []
        self.stronger: list[int] = []

    def counts(self) -> list[int]:
        """How many cards each seat holds."""
        return [s.left for s in self.seats]

    def voids(self) -> list[int]:
        """The cards each seat has shown it lacks."""
        return [s.lacks for s in self.seats]

    def update(self, view: View, dead: int = 0) -> None:
        """Read the decision of ``view`` (see the class's docstring); ``dead`` are cards the
        seat knows are in no hand (its own discard)."""
        rules = self.rules
        seat = view.seat
        self.seat = seat
        nseats, step = rules.n, rules.step
        mates = self.mates = rules.mates_of[seat]
        self.partner = (seat + rules.sides) % nseats if rules.partners else -1
        tables = view.tables
        suit_mask = tables.suit_mask
        free = tables.mask if rules.may_trump else 0
        seats = self.seats
        tricks: list[Any] = view.tricks
        seen = self.seen
        known = len(seen)
        fresh = len(tricks) >= known
        i = 0
        while fresh and i < known:
            before = seen[i]
            now = tricks[i]
            fresh = now is before or now == before
            i += 1
        if not fresh:
            seen.clear()
            self.seen_played = 0
            for one in seats:
                one.seen_count = 0
                one.seen_lacks = 0
            known = 0
        played = self.seen_played
        for i in range(known, len(tricks)):
            done: tuple[int, tuple[int, ...], int] = tricks[i]
            seen.append(tricks[i])
            leader = done[0]
            cards = done[1]
            follow = suit_mask[cards[0]]
            for j in range(len(cards)):
                card = cards[j]
                who = seats[(leader + j * step) % nseats]
                played |= 1 << card
                who.seen_count += 1
                if j and not follow >> card & 1 and not free >> card & 1:
                    who.seen_lacks |= follow
        self.seen_played = played
        size = rules.hand_size
        for one in seats:
            one.left = size - one.seen_count
            one.lacks = one.seen_lacks
        # The trick in play adds to what the finished ones tell.
        trick = view.trick
        self.trick = trick
        if trick:
            follow = suit_mask[trick[0][1]]
            first = True
            for s, card in trick:
                who = seats[s]
                played |= 1 << card
                who.left -= 1
                if not first and not follow >> card & 1 and not free >> card & 1:
                    who.lacks |= follow
                first = False
        hand = view.hand
        self.hand = hand
        self.played = played
        unseen = rules.deck & ~hand & ~played & ~dead
        self.unseen = unseen
        for one in seats:
            pool = unseen & ~one.lacks
            n = popcount(pool)
            one.pool = pool
            one.pool_size = n
            if n:
                share = one.left / n
                one.miss = 1 - (share if share <= 1.0 else 1.0)
        # The seats still to play to this trick after this one.
        later = nseats - 1 - len(trick)
        self.later_count = later
        opponents = self.later_opponents
        opponents.clear()
        self.partner_later = False
        self.later_mate = -1
        for i in range(1, later + 1):
            other = (seat + i * step) % nseats
            if mates >> other & 1:
                if not self.partner_later:
                    self.later_mate = other
                self.partner_later = True
            else:
                opponents.append(seats[other])
        self.low_base = -1.0

    def value_by(self, tables: TrumpTables) -> None:
        """Value the cards with ``tables``' trump."""
        self.tables = tables
        self.points = self.rules.card_points[tables.suit]
        self.stronger = self.rules.stronger_at[tables.suit]

    def is_opponent(self, seat: int) -> bool:
        """Whether ``seat`` plays against this seat."""
        return seat != self.seat and not self.mates >> seat & 1

    # ------------------------------------------------------------------- who may hold what

    def p_holds_any(self, seat: int, mask: int) -> float:
        """Chance that ``seat`` holds at least one of the unseen cards of ``mask``."""
        return self.seats[seat].p_holds_any(mask)

    def p_beats(self, seat: int, strength: int, led: int) -> float:
        """Chance that ``seat`` can beat a card of strength ``strength`` in a trick led ``led``."""
        return self.beats(self.seats[seat], strength, led)

    def beats(self, who: SeatReading, strength: int, led: int) -> float:
        """:meth:`p_beats` for the seat ``who`` reads."""
        trumps = self.tables.mask
        higher = self.unseen & (led | trumps) & self.stronger[strength + 1]
        if led == trumps:
            return who.p_holds_any(higher)
        follow = who.p_holds_any(higher & ~trumps)
        may_ruff = 1.0 if self.rules.may_trump else who.p_void(led)
        ruff = may_ruff * who.p_holds_any(higher & trumps)
        return 1 - (1 - follow) * (1 - ruff)

    def p_holds_trick(self, strength: int, led: int) -> float:
        """Chance that no opponent still to play beats a card of strength ``strength``."""
        chance = 1.0
        for who in self.later_opponents:
            chance *= 1 - self.beats(who, strength, led)
        return chance

    # ------------------------------------------------------------------- what cards are worth

    def point_value(self, card: int) -> float:
        """What capturing ``card`` is worth in points: its own points, Low's chance, Game's."""
        value = self.points[card]
        if card < 52 and self.tables.power[card] >= 100 and self.rules.low_captured:
            value += self.rules.low_weight * self.p_low(card)
        return value

    def p_low(self, card: int) -> float:
        """Chance that trump ``card`` is the lowest trump dealt."""
        below = SUIT_MASKS[card // 13] & ((1 << card) - 1)
        if below & (self.played | self.hand):
            return 0.0
        unseen = popcount(self.unseen)
        if not unseen:
            return 1.0
        base = self.low_base
        if base < 0:
            seats = self.seats
            if len(seats) == 4:  # the usual table: no loop
                others = seats[0].left + seats[1].left + seats[2].left + seats[3].left
            else:
                others = 0
                for one in seats:
                    others += one.left
            share = (others - seats[self.seat].left) / unseen
            base = self.low_base = 1 - (share if share <= 1.0 else 1.0)
        return power(base, popcount(below & self.unseen))

    def is_master(self, card: int) -> bool:
        """Whether no unseen card that follows with ``card`` outranks it."""
        tables = self.tables
        return not self.unseen & tables.suit_mask[card] & self.stronger[tables.power[card] + 1]

    def spend_cost(self, card: int) -> float:
        """What playing ``card`` now gives up: its strength to win a later trick."""
        strength = self.tables.power[card]
        if strength >= 100:
            return 0.5 if self.is_master(card) else 0.1 + 0.02 * (strength - 100)
        return 0.15 if self.is_master(card) else 0.01 * strength

    # ------------------------------------------------------------------------ the ratings

    def best_follow(self, candidates: list[int]) -> int:
        """The card of ``candidates`` worth most played to the trick already led (the first
        of equals)."""
        tables = self.tables
        power_of = tables.power
        winner, strength, led = trick_best(self.trick, tables)
        worth = 0.0
        for _seat, card in self.trick:
            worth += self.point_value(card)
        later_value = LATER_CARD_VALUE * self.later_count
        # What the trick is worth to the side when this seat's card does not win it.
        if self.mates >> winner & 1:
            behind = self.p_holds_trick(strength, led)
        elif self.partner_later:
            behind = 0.7 * self.beats(self.seats[self.later_mate], strength, led)
        else:
            behind = 0.0
        best, best_value = candidates[0], float("-inf")
        for card in candidates:
            mine = power_of[card]
            if mine < 100 and not led >> card & 1:
                mine = -1
            ours = self.p_holds_trick(mine, led) if mine > strength else behind
            total = worth + (self.point_value(card) + later_value)
            value = (2 * ours - 1) * total - self.spend_cost(card)
            if value > best_value + 1e-9:
                best, best_value = card, value
        return best

    def best_lead(self, candidates: list[int]) -> int:
        """The card of ``candidates`` worth most as a lead (the first of equals)."""
        tables = self.tables
        trumps = tables.mask
        later_value = LATER_CARD_VALUE * self.later_count
        partner = self.seats[self.later_mate] if self.partner_later else None
        best, best_value = candidates[0], float("-inf")
        for card in candidates:
            led = tables.suit_mask[card]
            strength = tables.power[card]
            ours = self.p_holds_trick(strength, led)
            if partner is not None:
                ours += (1 - ours) * 0.5 * self.beats(partner, strength, led)
            worth = self.point_value(card) + later_value
            if led == trumps:
                worth += self.draw_value(strength)
            value = (2 * ours - 1) * worth - self.spend_cost(card) * (1 - ours)
            if led == trumps and self.lead_bias:
                value += self.lead_bias
            if value > best_value + 1e-9:
                best, best_value = card, value
        return best

    def draw_value(self, strength: int) -> float:
        """What a trump lead of strength ``strength`` may pull from the opponents' hands."""
        lower = self.unseen & self.tables.mask & ~self.stronger[strength + 1]
        total = 0.0
        for s in range(self.rules.n):
            if self.is_opponent(s):
                total += 0.3 * self.seats[s].p_holds_any(lower)
        return total


def trick_best(trick: list[tuple[int, int]], tables: TrumpTables) -> tuple[int, int, int]:
    """(winning seat, its strength, mask of the suit led) of a trick in progress."""
    seat, lead = trick[0]
    led = tables.suit_mask[lead]
    best = tables.power[lead]
    for i in range(1, len(trick)):
        who, card = trick[i]
        p = tables.power[card]
        if (p >= 100 or led >> card & 1) and p > best:
            seat, best = who, p
    return seat, best, led


class PitchHeuristic(Bot):
    """Setback and every Pitch preset by rules of thumb: bids a points estimate, plays by value."""

    name = "heuristic"

    def __init__(self, boldness: float = 0.0, lead_trump: float = 0.0) -> None:
        # Style, for characters (docs/characters.md); 0.0 is the plain heuristic, unchanged.
        #: points added to the hand's estimate when bidding (more and higher bids, or fewer)
        self.boldness = boldness
        #: points added to the value of leading a trump (negative: side suits preferred)
        self.lead_trump = lead_trump
        self.rules: Rules | None = None
        self._for: Game | None = None
        self._reading: Reading | None = None
        # The last hand best_suit was asked about, and its answer (asked again at the lead).
        self._suit_hand = -1
        self._suit = (0, 0.0)

    def start_match(self, game: Game, seat: int, seed: int) -> None:
        # No choice is random (ties go to the lowest card), so the seed is not needed.
        super().start_match(game, seat, seed)
        self._rules_for(game)

    def _rules_for(self, game: Game) -> Rules:
        rules = self.rules
        if rules is None or self._for is not game:
            rules = self.rules = Rules(game)
            self._for = game
            self._reading = Reading(rules)
            self._suit_hand = -1
        return rules

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if not legal:
            return PASS
        game = view.game
        if not isinstance(game, Setback):
            return legal[0]
        rules = self._rules_for(game)
        # Cards first (most decisions): the discard's codes are above 2**64, and compiled, a
        # comparison with one is a call.
        if legal[-1] < 64:
            choice = self._play(view, game, legal, rules)
        elif legal[0] >= DISCARD:
            choice = self._discard(view, game, legal, rules)
        else:
            choice = self._bid(view, game, legal, rules)
        return choice if choice in legal else legal[0]

    def _best_suit(self, hand: int, rules: Rules) -> tuple[int, float]:
        if hand != self._suit_hand:
            self._suit = best_suit(hand, rules)
            self._suit_hand = hand
        return self._suit

    # ------------------------------------------------------------------------- the auction

    def _bid(self, view: View, game: Setback, legal: list[int], rules: Rules) -> int:
        """Bid the estimate of the hand when it beats the high bid; pass otherwise."""
        bids = [a - BID for a in legal if BID <= a < BID + 64]
        opts = game.options
        if MOON in legal and self._moon(view.hand, game, rules):
            return MOON
        if not bids:
            return PASS
        info: dict[str, Any] = view.info()
        high: int = info["high_bid"]
        high_bidder: int = info["high_bidder"]
        scores = view.scores
        team = view.seat % len(scores)  # a partnership's index, or the seat's own in cut-throat
        ours = scores[team]
        theirs = max(s for i, s in enumerate(scores) if i != team)
        _suit, est = self._best_suit(view.hand, rules)
        if rules.partners:
            est += PARTNER_ALLOWANCE
        if high_bidder >= 0 and not self._against(view, high_bidder, rules):
            est -= 1.0  # partner already bid on its own cards; ours back it only if far stronger
        elif theirs >= opts.target - opts.max_bid:
            # The opponents win only as declarers: taking the contract from them is worth a risk.
            threat = high_bidder >= 0 and theirs + high >= opts.target
            est += 0.5 if threat else 0.3
        if ours + bids[0] >= opts.target:
            est += 0.3  # a made contract of any size wins the match
            if ours >= opts.target and rules.n > 4:
                # Already past the target, the side wins only by declaring, and a set costs
                # it little: at a big table, where every estimate is low and others bid
                # first, it bids on less (four seats decide as they always have).
                est += PAST_TARGET_BOOST
        if opts.kitty:
            est += KITTY_CARD_VALUE * opts.kitty
        if self.boldness:
            est += self.boldness
        bid = min(int(est), bids[-1])
        if bid < bids[0]:
            return PASS
        if opts.declarer_scores == "taken" or ours + bids[0] >= opts.target:
            bid = bids[0]  # the contract need only be won: a higher bid only adds risk
        return BID + bid

    def _moon(self, hand: int, game: Setback, rules: Rules) -> bool:
        """Whether the hand is overwhelming: the ace and king of its best suit, four trumps or
        more, and an estimate of most of the hand's points (the kitty's help counted)."""
        suit, est = self._best_suit(hand, rules)
        ranks = hand >> (13 * suit) & 0x1FFF
        if not (ranks >> ACE & 1 and ranks >> (ACE - 1) & 1) or popcount(ranks) < 4:
            return False
        est += KITTY_CARD_VALUE * game.options.kitty
        return est >= MOON_SHARE * sum(rules.weights.values())

    def _discard(self, view: View, game: Setback, legal: list[int], rules: Rules) -> int:
        """The weakest card, as the suit the hand will name trump by values them: the trumps
        are kept (the strongest last), then side cards by rank (points break ties: a low
        card with no points goes first)."""
        suit = self._best_suit(view.hand, rules)[0]
        power = game.trumps[suit].power
        points = rules.card_points[suit]
        best, worst = legal[0], float("inf")
        for action in legal:
            card = action - DISCARD
            strength = power[card]
            keep = 100.0 + strength if strength >= 100 else strength + points[card]
            if keep < worst:
                best, worst = action, keep
        return best

    @staticmethod
    def _against(view: View, seat: int, rules: Rules) -> bool:
        return (seat - view.seat) % rules.sides != 0

    # ---------------------------------------------------------------------------- the play

    def _play(self, view: View, game: Setback, legal: list[int], rules: Rules) -> int:
        """The legal card of the highest expected value."""
        reading = self._reading
        if reading is None:
            reading = self._reading = Reading(rules)
        dead = 0
        if rules.kitty:
            for actor, action in view.actions:
                if actor == view.seat and action >= DISCARD:
                    dead |= 1 << (action - DISCARD)
        reading.update(view, dead)
        tables = view.tables
        candidates = legal
        if tables.suit < 0:
            # The first lead names trump: lead the suit the bid was counted on.
            suit = self._best_suit(view.hand, rules)[0]
            tables = game.trumps[suit]
            candidates = [c for c in legal if c // 13 == suit and c < 52] or legal
        reading.value_by(tables)
        reading.lead_bias = self.lead_trump
        if reading.trick:
            return reading.best_follow(candidates)
        return reading.best_lead(candidates)
