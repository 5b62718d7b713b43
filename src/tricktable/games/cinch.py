"""Cinch (Double Pedro) and its relatives: one round of bids, trump named, discard and draw,
the dealer robs the pack, then tricks for the Pedros.

The defaults of :class:`CinchOptions` are four-hand Cinch in partnerships (pagat.com's Cinch,
Foster's Complete Hoyle); cut-throat and six-hand Cinch, Pedro Sancho, Dom Pedro, Catch Five
and Nine-Five are presets of these options in ``presets/cinch.toml``: data, not code. Scoring
is in :mod:`cinch_scoring`.

A hand: the auction (``pass``, ``bid N``); the high bidder names trump (``trump S``); the
discard, each seat in turn from the dealer's left; the draw up to ``play_size`` from the pack;
the dealer's rob (``keep CARD`` once for each card he keeps); the play, the bidder leading.

What each seat may see: a discard of one's choice (``discard CARD``, ``draw``) and the dealer's
``keep`` are the actor's own; the cards drawn are seen only by their receiver (the engine tells
a seat only its own hand). Under ``discard=non-trumps`` every non-trump goes without an action
(there is no choice to make); a seat holding more trumps than it may keep throws the excess
one card at a time, face up, as the sources have it.

When the pack cannot fill every hand (too few trumps kept), a seat the pack runs out on takes
back its own discards, highest rank first, to make ``play_size``: the sources are silent, and
this keeps every hand the same size. The project's decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from tricktable.cards import JOKER, SUITS, card_name, cards_in, parse_card
from tricktable.engine.actions import BID, PASS, PASS_BIT
from tricktable.engine.trick import (
    AUCTION,
    DEAL,
    PLAY,
    SPECIAL,
    Game,
    TrickState,
    TrumpTables,
    View,
    trump_tables,
)
from tricktable.errors import NotationError
from tricktable.games.cinch_options import CinchOptions, point_weights
from tricktable.games.cinch_results import CinchResult
from tricktable.games.cinch_scoring import point_card, point_cards, score_hand, side_points
from tricktable.games.pitch_scoring import match_winner
from tricktable.games.seating import sides_of_options

__all__ = [
    "DISCARD",
    "DISCARDING",
    "DRAW",
    "KEEP",
    "NAMING",
    "ROBBING",
    "TRUMP",
    "Cinch",
    "CinchOptions",
    "CinchState",
]

#: name suit s trump: TRUMP + s
TRUMP: Final = 260
#: throw a card in the discard: DISCARD + card
DISCARD: Final = 320
#: the dealer keeps a card of the robbed pack: KEEP + card
KEEP: Final = 384
#: done discarding (``discard=any``): draw up to play_size
DRAW: Final = 448

#: the bidder names trump; the seats discard; the dealer robs the pack
NAMING: Final = 10
DISCARDING: Final = 11
ROBBING: Final = 12

_PHASES: Final = {NAMING: "name-trump", DISCARDING: "discard", ROBBING: "rob"}

#: the discard and the keep of each card, made once: compiled, a code above 256 put in a list
#: is a new int object, and the rob lists up to thirty of them at each decision (typed Any,
#: compiled code hands these objects on as they are)
_DISCARD_CODES: Final[list[Any]] = [DISCARD + card for card in range(64)]
_KEEP_CODES: Final[list[Any]] = [KEEP + card for card in range(64)]


def _rank_order(card: int) -> int:
    """A key giving back discards highest rank first (then highest suit)."""
    return (card % 13) * 4 + card // 13 if card < 52 else -1


class CinchState(TrickState):
    """A Cinch-family match: auction, trump named, discard and draw, the rob, six tricks."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        assert isinstance(game, Cinch)
        opts = game.options
        self.bid_masks: tuple[int, ...] = game.bid_masks
        self.dealer_masks: tuple[int, ...] = game.dealer_masks
        self.trumps: tuple[TrumpTables, ...] = game.trumps
        self.weights: Mapping[str, int] = game.weights
        self.point_list: list[str] = list(game.weights)
        self.point_mask_by_trump: tuple[int, ...] = game.point_masks
        #: by trump suit: the card of each point of ``point_list`` (see ``point_cards``)
        self.point_cards: list[list[int]] = [point_cards(self.point_list, t) for t in range(4)]
        self.low_to_held: bool = opts.low_to == "held"
        self.may_trump: bool = opts.may_trump
        self.play_size: int = opts.play_size
        self.discard_rule: str = opts.discard
        # The options read at each decision or hand, as fields of the state: compiled, a
        # field is a slot read, an option an attribute looked up on a Python object.
        self.deal_size: int = opts.hand_size
        self.max_bid: int = opts.max_bid
        self.dealer_takes: bool = opts.dealer_takes
        #: a discard of one's choice is face down (the excess trumps of non-trumps are shown)
        self.hidden_discard: bool = opts.discard != "non-trumps"
        #: the pack is drawn from (or robbed): its cards are shuffled, else only the hands
        self.draws: bool = opts.discard in ("non-trumps", "any")
        self.robs: bool = game.robs
        self.high_bid = 0
        self.high_bidder = -1
        self.bid = 0
        self.bidder = -1
        #: seats still to discard, in order (the next first)
        self.order: list[int] = []
        #: the cards each seat discarded this hand
        self.discarded: list[int] = [0] * self.n
        #: the cards the dealer has kept of the robbed pack so far
        self.kept = 0
        #: each seat's hand when the play began (Low to the holder)
        self.held: list[int] = [0] * self.n
        #: each seat's facts during the play, made once a hand: none of them changes from the
        #: first card to the last, and the views asked for them again after every trick
        self.play_facts: list[dict[str, Any] | None] = [None] * self.n
        #: by seat, the names of its discards and the discards they name (the dealer's are
        #: asked for at each of his keeps): a list once made is never changed, only replaced
        self.named: list[tuple[str, ...] | None] = [None] * self.n
        self.named_mask: list[int] = [0] * self.n

    # ------------------------------------------------------------------------- the auction

    def _deal_size(self) -> int:
        return self.deal_size

    def _stock_used(self) -> int:
        # Discarding down (or not at all), nobody draws: the pack is recorded, not shuffled.
        return super()._stock_used() if self.draws else 0

    def _start_hand(self) -> None:
        self.hand_size = self.play_size  # the tricks of the hand (the deal was hand_size)
        self.phase = AUCTION
        self.to_act = (self.dealer + self.step) % self.n
        self.high_bid = 0
        self.high_bidder = -1
        self.bid = 0
        self.bidder = -1
        self.order = []
        self.discarded = [0] * self.n
        self.kept = 0
        self.held = [0] * self.n
        self.play_facts = [None] * self.n

    def _clone_extra(self, other: TrickState) -> None:
        # Compiled, a state has no __dict__ for clone() to copy: every field a game adds and
        # changes during a match is copied here.
        assert isinstance(other, CinchState)
        other.high_bid = self.high_bid
        other.high_bidder = self.high_bidder
        other.bid = self.bid
        other.bidder = self.bidder
        other.order = self.order[:]
        other.discarded = self.discarded[:]
        other.kept = self.kept
        other.held = self.held[:]
        other.play_facts = self.play_facts[:]  # shared: facts are never changed once made
        other.named = self.named[:]
        other.named_mask = self.named_mask[:]

    def _other_legal(self) -> int:
        phase = self.phase
        if phase == AUCTION:
            if self.to_act == self.dealer:
                return self.dealer_masks[self.high_bid]
            return self.bid_masks[self.high_bid]
        if phase == NAMING:
            return 0xF << TRUMP
        # The discard's and the rob's actions are listed, not masked: their codes lie above
        # bit 320, and a mask of them is a big int to make, test and decode at every turn
        # (a new one every turn, so no table of decoded masks holds it either).
        return SPECIAL if phase in (DISCARDING, ROBBING) else 0

    def _other_cards(self) -> int:
        """The cards of the discard's or the rob's actions now, as a card mask."""
        if self.phase == DISCARDING:
            return self._discard_mask(self.to_act)
        return self.hands[self.dealer] & ~self.kept

    def _other_actions(self) -> list[int]:
        phase = self.phase
        if phase == DISCARDING:
            codes = _DISCARD_CODES
            out = [codes[c] for c in cards_in(self._discard_mask(self.to_act))]
            if self._may_draw(self.to_act):
                out.append(DRAW)
            return out
        if phase == ROBBING:
            codes = _KEEP_CODES
            return [codes[c] for c in cards_in(self.hands[self.dealer] & ~self.kept)]
        return []

    def _other_allows(self, action: int) -> bool:
        phase = self.phase
        if phase == DISCARDING:
            if action == DRAW:
                return self._may_draw(self.to_act)
            base = DISCARD
        elif phase == ROBBING:
            base = KEEP
        else:
            return False
        card = action - base
        return 0 <= card < 64 and bool(self._other_cards() >> card & 1)

    def _apply_other(self, action: int) -> None:
        phase = self.phase
        if phase == AUCTION:
            self._bid(action)
        elif phase == NAMING:
            self.tables = self.trumps[action - TRUMP]
            self._stale()
            if self.discard_rule == "none":
                self._start_play()
                return
            self.order = [(self.dealer + k * self.step) % self.n for k in range(1, self.n + 1)]
            if self.robs:
                self.order.pop()  # the dealer robs the pack instead
            self._next_discard()
        elif phase == DISCARDING:
            seat = self.to_act
            if action == DRAW:
                self.order.pop(0)
            else:
                card = action - DISCARD
                self.hands[seat] ^= 1 << card
                self.discarded[seat] |= 1 << card
                if not self._discard_mask(seat):
                    self.order.pop(0)
            self._next_discard()
        else:  # ROBBING
            self.kept |= 1 << (action - KEEP)
            if self.kept.bit_count() >= self.play_size:
                self.hands[self.dealer] = self.kept
                self._start_play()

    def _bid(self, action: int) -> None:
        seat = self.to_act
        if action != PASS:
            self.high_bid = action - BID
            self.high_bidder = seat
            if self.high_bid >= self.max_bid:
                if self.dealer_takes and seat != self.dealer:
                    self.to_act = self.dealer  # only the dealer may still act: take it or not
                else:
                    self._end_auction()
                return
        if seat == self.dealer:
            self._end_auction()
        else:
            self.to_act = (seat + self.step) % self.n

    def _end_auction(self) -> None:
        if self.high_bidder < 0:
            self._throw_in()
            return
        self.bidder, self.bid = self.high_bidder, self.high_bid
        self.phase = NAMING
        self.to_act = self.bidder

    def _throw_in(self) -> None:
        self.to_act = -1
        self._add_result(
            CinchResult(
                bidder=None,
                bid=None,
                trump=None,
                points=_NO_POINTS,
                taken=(0,) * len(self.scores),
                scores=tuple(self.scores),
                thrown_in=True,
            )
        )
        self.phase = DEAL  # the deal passes on; nobody scores

    # ------------------------------------------------------------------ discard and draw

    def _discard_mask(self, seat: int) -> int:
        """The cards ``seat`` may throw now (0: it has no more to throw)."""
        hand = self.hands[seat]
        rule = self.discard_rule
        keep = self.play_size
        if rule == "non-trumps":
            # Only trumps are left (the rest went without a choice): the excess, plain
            # trumps before point cards.
            if hand.bit_count() <= keep:
                return 0
            plain = hand & ~self.point_mask_by_trump[self.tables.suit]
            return plain or hand
        if rule == "down":
            return hand if hand.bit_count() > keep else 0
        if rule == "any":
            return hand  # whatever it likes, until it draws
        return 0

    def _may_draw(self, seat: int) -> bool:
        return self.discard_rule == "any" and self.hands[seat].bit_count() <= self.play_size

    def _next_discard(self) -> None:
        """Hand the turn to the next seat with a choice to make; the draw when none is left."""
        order = self.order
        while order:
            seat = order[0]
            if self.discard_rule == "non-trumps":
                hand = self.hands[seat]
                plain = hand & ~self.tables.mask
                if plain:
                    self.hands[seat] = hand ^ plain
                    self.discarded[seat] |= plain
            if self._discard_mask(seat) or self._may_draw(seat):
                self.phase = DISCARDING
                self.to_act = seat
                return
            order.pop(0)
        self._draw()

    def _draw(self) -> None:
        """Fill each hand from the pack, from the dealer's left; then the rob, or the play."""
        self._stale()
        n, keep = self.n, self.play_size
        stock = self.stock
        for k in range(1, n + 1):
            seat = (self.dealer + k * self.step) % n
            if self.discard_rule == "down" or (self.robs and seat == self.dealer):
                continue
            hand = self.hands[seat]
            need = keep - hand.bit_count()
            while need > 0 and stock:
                hand |= 1 << stock.pop(0)
                need -= 1
            if need > 0:
                # The pack ran out: the seat takes back its own discards, highest first.
                back = sorted(cards_in(self.discarded[seat]), key=_rank_order, reverse=True)
                for card in back[:need]:
                    hand |= 1 << card
                    self.discarded[seat] ^= 1 << card
            self.hands[seat] = hand
        if self.robs and self.discard_rule != "down":
            pool = self.hands[self.dealer]
            for card in stock:
                pool |= 1 << card
            self.stock = []
            self.hands[self.dealer] = pool
            if pool.bit_count() > keep:
                self.phase = ROBBING
                self.to_act = self.dealer
                self.kept = 0
                return
        self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        self.held = self.hands[:]
        self.play_facts = [None] * self.n
        self.to_act = self.bidder
        self._stale()

    # -------------------------------------------------------------------------- the play

    def _play_mask(self, seat: int, hand: int) -> int:
        if not self.trick:
            return hand
        follow = hand & self.lead_mask
        if not follow:
            return hand
        if self.may_trump:
            return follow | hand & self.tables.mask
        return follow

    def _side(self, seat: int) -> int:
        return seat % len(self.scores)

    def _trick_points(self, cards: tuple[int, ...]) -> int:
        # The points of the cards that carry one (High and Low are no one card until the end).
        game = self.game
        assert isinstance(game, Cinch)
        values = game.card_points[self.tables.suit]
        return sum(values.get(card, 0) for card in cards)

    def _score_hand(self) -> CinchResult:
        opts = self.options
        tables = self.tables
        sides = len(self.scores)
        won = [0] * sides
        held = [0] * sides
        for seat in range(self.n):
            won[seat % sides] |= self.won[seat]
            held[seat % sides] |= self.held[seat]
        points = side_points(
            self.point_list,
            self.point_cards[tables.suit],
            won,
            held if self.low_to_held else won,
            tables.mask,
            tables.power,
        )
        side = self._side(self.bidder)
        taken, delta, made = score_hand(points, self.weights, side, self.bid, sides, opts.scoring)
        for i, change in enumerate(delta):
            self.scores[i] += change
        self.winner = match_winner(
            self.scores, side, opts.target, "first" if opts.bidder_out else "top"
        )
        return CinchResult(
            bidder=self.bidder,
            bid=self.bid,
            trump=tables.suit,
            points=MappingProxyType(points),  # a result reaches bots: read-only
            taken=tuple(taken),
            made=made,
            scores=tuple(self.scores),
        )

    # ------------------------------------------------------------------ views and messages

    def _private(self, action: int) -> bool:
        if KEEP <= action < DRAW:
            return True
        # A discard of one's choice is face down; the excess trumps of non-trumps are shown.
        return DISCARD <= action < KEEP and self.hidden_discard

    def _public(self, viewer: int, actor: int, action: int) -> bool:
        return not self._private(action)

    def _phase_name(self) -> str:
        return _PHASES.get(self.phase, str(self.phase))

    def _view_extra(self, seat: int) -> dict[str, Any]:
        if self.phase == PLAY and 0 <= seat < self.n:
            facts = self.play_facts[seat]
            if facts is None:
                facts = self.play_facts[seat] = self._facts(seat)
            return facts
        return self._facts(seat)

    def _facts(self, seat: int) -> dict[str, Any]:
        """The facts ``seat`` (or a spectator, -1) may know now."""
        bidding = self.phase == AUCTION
        # The auction's standing while it runs; the contract once it is made.
        facts: dict[str, Any] = {
            "high_bid": self.high_bid if bidding else None,
            "high_bidder": self.high_bidder if bidding and self.high_bidder >= 0 else None,
            "bidder": self.bidder if self.bidder >= 0 else None,
            "bid": self.bid if self.bidder >= 0 else None,
            "discarded": None,
            "kept": None,
        }
        if 0 <= seat < self.n:
            mine = self.discarded[seat]
            if mine and self.named_mask[seat] != mine:
                self.named[seat] = tuple([card_name(c) for c in cards_in(mine)])
                self.named_mask[seat] = mine
            facts["discarded"] = self.named[seat] if mine else None
            if seat == self.dealer and self.phase == ROBBING:
                facts["kept"] = [card_name(c) for c in cards_in(self.kept)]
        if self.phase == DISCARDING or self.phase == ROBBING:
            # As at a real table, everyone sees how many cards each hand holds while hands are
            # thrown and dealt back (the search's worlds must agree with it).
            facts["hand_sizes"] = [hand.bit_count() for hand in self.hands]
        return facts

    def _explain(self, action: int) -> str:
        game = self.game
        assert isinstance(game, Cinch)
        return game.reason(
            self.phase,
            self.hands[self.to_act],
            self.trick,
            self.tables,
            self.high_bid,
            self.to_act == self.dealer,
            action,
        )


#: the points of a thrown-in hand: none
_NO_POINTS: Final[Mapping[str, int | None]] = MappingProxyType({})


def _bid_masks(opts: CinchOptions, dealer: bool) -> tuple[int, ...]:
    masks = []
    for high in range(opts.max_bid + 1):
        # The dealer may not pass where all pass before him and the variant says he must bid.
        mask = 0 if dealer and high == 0 and opts.all_pass == "dealer-bids" else PASS_BIT
        lowest = high if dealer and opts.dealer_takes and high >= opts.min_bid else high + 1
        for n in range(max(opts.min_bid, lowest), opts.max_bid + 1):
            mask |= 1 << (BID + n)
        masks.append(mask)
    return tuple(masks)


def _trump_tables(opts: CinchOptions) -> tuple[TrumpTables, ...]:
    out = []
    for suit in range(4):
        order = [suit * 13 + r for r in range(13)]
        if opts.left_pedro_trump:
            order.insert(3, (3 - suit) * 13 + 3)  # just below the five (index 3 is the five)
        if opts.jokers:
            order.insert(0, JOKER)  # the lowest trump
        out.append(trump_tables(suit, order))
    return tuple(out)


class Cinch(Game):
    """Cinch as pagat and Foster describe it, and with other options its relatives."""

    name = "cinch"
    title = "Cinch"
    summary = "52 cards, nine each, bid, name trump, discard and draw to six, the Pedros, to 51"
    Options = CinchOptions
    State = CinchState
    heuristic_bot = "tricktable.bots.cinch_heuristic:CinchHeuristic"
    presenter = "tricktable.seat.games.cinch:CinchPresenter"
    statistics = "tricktable.stats.cinch:CinchStats"
    family = "All Fours"
    seat_counts = (2, 3, 4, 5, 6)
    records_stock = True  # the draw and the rob come from the pack: records list it

    def __init__(
        self, options: Any = None, preset: str | None = None, baseline: Any = None
    ) -> None:
        opts = options if options is not None else CinchOptions()
        super().__init__(opts, preset, baseline)
        self.deck = tuple(range(52 + opts.jokers))
        self.num_scores = sides_of_options(opts)
        self.robs = opts.dealer_robs and opts.discard in ("non-trumps", "any")
        # Private: a discard of one's choice, and the dealer's keeps; a table with neither
        # has no hidden action (the draw is hidden by the hands alone).
        self.private_actions = self.robs or opts.discard in ("any", "down")
        # The game's tables are tuples and read-only maps: every match of the game shares
        # them, and bots reach them through ``view.game``.
        self.bid_masks = _bid_masks(opts, dealer=False)
        self.dealer_masks = _bid_masks(opts, dealer=True)
        self.trumps = _trump_tables(opts)
        self.weights: Mapping[str, int] = MappingProxyType(point_weights(opts.points))
        masks = []
        values: list[Mapping[int, int]] = []
        for suit in range(4):
            by_card = {
                point_card(name, suit): weight
                for name, weight in self.weights.items()
                if name not in ("high", "low")
            }
            masks.append(sum(1 << card for card in by_card))
            values.append(MappingProxyType(by_card))
        #: by trump suit: the cards that carry a point, as a mask and with their weights
        self.point_masks: tuple[int, ...] = tuple(masks)
        self.card_points: tuple[Mapping[int, int], ...] = tuple(values)
        # What a seat's search may know of a hand (the draw, the rob, the discards):
        # registered with the search's rules when a game is made, not when this module is
        # imported (the search imports the games).
        from tricktable.games import cinch_search  # noqa: F401

    def _hand_size(self) -> int:
        return int(self.options.play_size)

    def explain(self, view: View, action: int) -> str:
        """Why the rules refuse ``action`` by the seat of ``view``: read from the view alone
        (the seat's hand, the trick, the bids), as ``apply`` gives it."""
        high = view.info().get("high_bid")
        return self.reason(
            view.phase,
            view.hand,
            [card for _seat, card in view.trick],
            view.tables,
            high if isinstance(high, int) else 0,
            view.seat == view.dealer,
            action,
        )

    def reason(
        self,
        phase: int,
        hand: int,
        trick: list[int],
        tables: TrumpTables,
        high_bid: int,
        dealer: bool,
        action: int,
    ) -> str:
        """Why ``action`` is refused to a seat holding ``hand`` in ``phase``: the one text of
        the state's refusal and of :meth:`explain` (which knows only a view)."""
        opts = self.options
        keep = opts.play_size
        if phase == AUCTION:
            if 0 <= action < 64:
                return "must bid or pass during the auction"
            if action == PASS:
                return "must bid: the dealer may not pass when all the others have"
            n = action - BID
            if not BID <= action < BID + 64 or not opts.min_bid <= n <= opts.max_bid:
                return f"must bid from {opts.min_bid} to {opts.max_bid} or pass"
            if dealer and opts.dealer_takes:
                return f"must bid at least the high bid of {high_bid}"
            return f"must bid more than the high bid of {high_bid}"
        if phase == NAMING:
            return "must name trump: trump C, trump D, trump H or trump S"
        if phase == DISCARDING:
            if action == DRAW:
                return f"must discard down to {keep} cards before drawing"
            if DISCARD <= action < KEEP:
                card = action - DISCARD
                if not hand >> card & 1:
                    return f"does not hold {card_name(card)}"
                if opts.discard == "non-trumps":
                    return "must keep the point trumps while holding plain ones to throw"
            return "must discard a card now (discard CARD)"
        if phase == ROBBING:
            if KEEP <= action < DRAW:
                return f"{card_name(action - KEEP)} is not in the robbed pack or is kept already"
            return f"must keep {keep} cards of the pack (keep CARD)"
        if not 0 <= action < 64:
            return "must play a card now"
        if not hand >> action & 1:
            return f"does not hold {card_name(action)}"
        if trick:
            led = tables.suit_mask[trick[0]]
            if hand & led:
                trumps = led == tables.mask
                suit = SUITS[tables.suit] if trumps else SUITS[trick[0] // 13]
                either = " or trump" if opts.may_trump and not trumps else ""
                return f"must follow suit {suit}{either}"
        return f"may not play {card_name(action)} now"

    def action_name(self, action: int) -> str:
        """The text of an action: ``trump S``, ``discard 7C``, ``keep 5H``, ``draw``..."""
        if TRUMP <= action < TRUMP + 4:
            return "trump " + SUITS[action - TRUMP]
        if DISCARD <= action < DISCARD + 54:
            return "discard " + card_name(action - DISCARD)
        if KEEP <= action < KEEP + 54:
            return "keep " + card_name(action - KEEP)
        if action == DRAW:
            return "draw"
        return super().action_name(action)

    def parse_action(self, text: str) -> int:
        """Read an action: ``trump S`` (or a suit's name), ``discard CARD``, ``keep CARD``,
        ``draw``, ``pass``, ``bid N``, ``play CARD``."""
        words = text.strip().lower().split()
        if words == ["draw"]:
            return DRAW
        if len(words) == 2 and words[0] == "trump":
            word = words[1].upper()
            names = ("CLUBS", "DIAMONDS", "HEARTS", "SPADES")
            if len(word) == 1 and word in SUITS:
                return TRUMP + SUITS.index(word)
            if word in names:
                return TRUMP + names.index(word)
            raise NotationError(f"unknown suit in {text.strip()!r}: write C, D, H or S")
        if len(words) == 2 and words[0] in ("discard", "keep"):
            card = parse_card(words[1])
            return (DISCARD if words[0] == "discard" else KEEP) + card
        try:
            return super().parse_action(text)
        except NotationError:
            raise NotationError(
                f"unknown action {text.strip()!r}: write pass, bid N, trump S, discard CARD, "
                "draw, keep CARD or play CARD"
            ) from None


GAME = Cinch
